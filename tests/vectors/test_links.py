"""People's direct associations (``models/eat-links.npz``): the shipped file, and a damaged
one refused with the command that rebuilds it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.core.errors import ModelError
from codenames_ai.vectors.links import BUILD_COMMAND, eat_links, read_links
from codenames_ai.vectors.shipped import models_dir


def test_the_shipped_links_say_who_answered_what_with_their_source() -> None:
    links = eat_links()
    # people shown GOLD often answered SILVER, and the other way; an unseen pair is 0
    assert 0.2 < links.strength("gold", "silver") < 0.5
    assert 0.4 < links.strength("silver", "gold") < 0.8
    assert links.strength("gold", "zyxxq") == 0.0
    assert links.strength("Gold", " silver") == links.strength("gold", "silver")
    with np.load(models_dir() / "eat-links.npz", allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    assert "Open Government Licence v3" in meta["attribution"]
    assert meta["links"] == len(links.keys) and meta["min_count"] == 2


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04garbage"])
def test_a_damaged_links_file_is_one_line_with_the_fix(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "eat-links.npz"
    path.write_bytes(content)
    with pytest.raises(ModelError, match="rebuild it") as caught:
        read_links(path)
    assert BUILD_COMMAND in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("cue, response", [(0, 5), (-1, 1), (1, -2)])
def test_links_that_point_outside_their_words_are_refused(tmp_path: Path, cue: int,
                                                          response: int) -> None:
    path = tmp_path / "eat-links.npz"
    np.savez(path, words=np.array(["a", "b"]), cues=np.array([cue], dtype=np.int32),
             responses=np.array([response], dtype=np.int32),
             strengths=np.array([0.5], dtype=np.float16), meta=np.array("{}"))
    with pytest.raises(ModelError, match="outside its words"):
        read_links(path)
