"""The minds shipped in models/: they load without torch, read like minds, and a damaged file
is refused in one line that names it and the command that rebuilds it."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.core.errors import ModelError
from codenames_ai.decks import default_deck
from codenames_ai.vectors.shipped import SHIPPED_MINDS, read_shipped, shipped_path

# The EAT asked about 8,000 words; the other minds cover most of the 80,000 mind words.
MIN_WORDS = {"eat-associations": 15_000}


@pytest.mark.parametrize("name", sorted(SHIPPED_MINDS))
def test_a_shipped_mind_loads_and_links_related_words(name: str) -> None:
    words, vectors = read_shipped(name)
    assert len(words) == len(vectors) > MIN_WORDS.get(name, 40_000)
    assert np.isfinite(vectors).all()
    index = {w: i for i, w in enumerate(words)}
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def cos(a: str, b: str) -> float:
        return float(unit[index[a]] @ unit[index[b]])

    assert cos("knife", "scissors") > cos("knife", "ocean")
    assert cos("doctor", "hospital") > cos("doctor", "violin")


@pytest.mark.parametrize("damage", ["missing", "truncated", "garbage"])
def test_a_damaged_mind_is_refused_with_the_rebuild_command(tmp_path: Path, damage: str) -> None:
    name = "wordnet-3.0"
    path = tmp_path / SHIPPED_MINDS[name].filename
    if damage != "missing":
        shutil.copy(shipped_path(name), path)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2] if damage == "truncated" else b"\x00junk" * 50)
    with pytest.raises(ModelError) as caught:
        read_shipped(name, path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    assert "python models/build_wordnet.py" in message


@pytest.mark.parametrize("name", sorted(SHIPPED_MINDS))
def test_a_shipped_mind_reads_every_card_of_the_words_deck(name: str) -> None:
    """A phrase card is read as its key (ice_cream) or from its words."""
    words = set(read_shipped(name)[0])
    unread = [card for card in default_deck("words")
              if (key := "_".join(card.lower().replace("-", " ").split())) not in words
              and not all(part in words for part in key.split("_"))]
    assert unread == []
