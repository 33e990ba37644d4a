"""Offensive and sensitive words are never AI clues: the maintained wordfilter list and ours,
with the identity and disability terms checked (finding 29.10: "autistic: 2" was an AI clue,
aimed at TEACHER + BABY)."""

from __future__ import annotations

import numpy as np
import pytest

from codenames_ai.agents.panel.build import familiar
from codenames_ai.agents.vocabulary import clue_vocabulary, offensive_words
from codenames_ai.vectors.model import WordVectors

SENSITIVE = ["autistic", "autism", "retarded", "retard", "spastic", "cripple", "crippled",
             "handicapped", "moron", "idiot", "lunatic", "psycho", "schizophrenic", "midget",
             "gay", "lesbian", "homosexual", "gypsy", "negro", "oriental"]


@pytest.mark.parametrize("word", SENSITIVE)
def test_identity_and_disability_terms_are_on_the_list(word: str) -> None:
    assert word in offensive_words()


def test_the_maintained_list_is_read() -> None:
    # Words only the wordfilter package lists (none of them is in wordlists/offensive.txt).
    assert {"golliwog", "wigger", "kraut", "squaw"} <= offensive_words()


@pytest.mark.parametrize("word", ["autistic", "retarded", "moron", "gay", "idiot"])
def test_the_panel_never_keeps_them(word: str) -> None:
    assert not familiar(word)


def test_the_clue_vocabulary_leaves_them_out() -> None:
    words = ["teacher", "autistic", "baby", "moron", "school", "retarded", "lunatic", "apple"]
    vectors = np.eye(len(words), dtype=np.float32)
    model = WordVectors("tiny", words, vectors)
    assert clue_vocabulary(model, size=20, source=words) == ("teacher", "baby", "school",
                                                             "apple")


# Clues AIs gave (issue 29): the default AI's suicide, savage, fat and crack, glove-ev's erotic,
# wordnet-threshold's noose; and forms of them.
VOLUNTEERED = ["suicide", "savage", "fat", "crack", "erotic", "noose", "suicides", "cracks",
               "fattest", "savages"]


def test_every_sensitive_topic_word_is_never_an_ai_clue() -> None:
    from codenames_ai.decks import wordlists_dir

    listed = [word for line in (wordlists_dir() / "sensitive.txt").read_text().splitlines()
              if not line.startswith("#") for word in line.split()]
    assert set(listed) <= offensive_words() and len(listed) < 60  # a short, principled list
    neutral = ["teacher", "window", "ocean", "apple"]
    words = listed + VOLUNTEERED + neutral
    model = WordVectors("tiny", words, np.eye(len(words), dtype=np.float32))
    assert clue_vocabulary(model, size=len(words), source=words) == tuple(neutral)
    assert not any(familiar(word) for word in listed + VOLUNTEERED)  # the panel's candidates
