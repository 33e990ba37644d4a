"""The first run: the models the AIs need are converted into the cache before the game, with a
message and each model's progress on standard error; a warm cache prints nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from codenames_ai.play.terminal_session import first_run_progress as _first_run_progress
from codenames_ai.vectors import ModelStore, load_model, unconverted
from codenames_ai.vectors.manifest import CheckedFolder

PREPARING = "Preparing the AI: converting the word models (first run only, about 20 s)..."


def test_unconverted_names_the_models_load_model_would_convert(tmp_path: Path) -> None:
    assert unconverted(cache_dir=tmp_path) == ["glove-6b-50d", "minilm-l6-words",
                                               "wordnet-3.0", "eat-associations"]
    assert unconverted(["wordnet-3.0", "my-own-model"], cache_dir=tmp_path) == ["wordnet-3.0"]
    load_model("wordnet-3.0", cache_dir=tmp_path)  # the smallest: a fraction of a second
    assert unconverted(cache_dir=tmp_path) == ["glove-6b-50d", "minilm-l6-words",
                                               "eat-associations"]
    # Converted from a shipped file that has changed since: converted again on its next use.
    meta = ModelStore(tmp_path).path("wordnet-3.0") / "meta.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "source": "an older file"}))
    assert "wordnet-3.0" in unconverted(cache_dir=tmp_path)


def test_a_cold_cache_is_announced_and_each_conversion_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A cache that holds two of the four models (borrowed from the user cache), so only the
    # two small shipped ones are converted here.
    models = tmp_path / "codenames-ai" / "models"
    models.mkdir(parents=True)
    for name in ("glove-6b-50d", "minilm-l6-words"):
        load_model(name)
        (models / name).symlink_to(ModelStore().path(name), target_is_directory=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # The first run converts the default AIs' four minds, here the two the cache lacks.
    assert unconverted() == ["wordnet-3.0", "eat-associations"]
    with _first_run_progress():
        print("the AIs are built here")
    captured = capsys.readouterr()
    assert captured.err.split("\n") == [PREPARING, "  model 1/2 wordnet-3.0 ... done",
                                        "  model 2/2 eat-associations ... done",
                                        "  choosing the clue words ... done", ""]
    assert captured.out == "the AIs are built here\n"
    assert CheckedFolder(models / "wordnet-3.0").problem(["meta.json"]) == ""
    with _first_run_progress():  # warm now: nothing
        pass
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_a_first_run_in_a_fresh_cache_through_the_console_script(tmp_path: Path) -> None:
    """The whole first run (about 17 s), then the second (silent)."""
    assert shutil.which("codenames"), "the codenames script is not installed"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    runs = [subprocess.run(["codenames", "play", "--seed", "3"], input="quit\ny\nn\n",
                           capture_output=True, text=True, env=env, timeout=600)
            for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr
    assert runs[0].stderr.split("\n") == [
        PREPARING, "  model 1/4 glove-6b-50d ... done", "  model 2/4 minilm-l6-words ... done",
        "  model 3/4 wordnet-3.0 ... done", "  model 4/4 eat-associations ... done",
        "  choosing the clue words ... done", ""]
    assert runs[1].stderr == ""
    assert runs[0].stdout == runs[1].stdout
