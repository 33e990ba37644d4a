"""The README's Python examples run as written (like a doctest)."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"


def run(block: str, source: Path) -> tuple[dict[str, Any], list[str]]:
    """The names a Python example leaves behind and the lines it prints."""
    names: dict[str, Any] = {"__name__": source.stem}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(source), "exec"), names)
    return names, printed.getvalue().splitlines()


def a_game_replays(names: dict[str, Any], printed: list[str]) -> None:
    record, state = names["record"], names["state"]
    assert printed == [str(record.outcome)]
    assert state.is_over and state.outcome == record.outcome


def unit_vectors_and_a_vocabulary(names: dict[str, Any], printed: list[str]) -> None:
    (line,) = printed
    similarity, size = line.split()
    assert 0.5 < float(similarity) <= 1.0  # ocean and sea are near, on unit vectors
    assert int(size) == len(names["vocabulary"]) == 5000
    assert abs(float(names["ocean"] @ names["ocean"]) - 1.0) < 1e-5


def a_tournament(names: dict[str, Any], printed: list[str]) -> None:
    assert printed == [] and names["summary"].games.played == 4
    assert not Path(names["folder"]).exists()  # its results went to a temporary folder


def every_seat_ends(names: dict[str, Any], printed: list[str]) -> None:
    assert printed == [] and names["env"].agents == []  # each agent ended its episode


# Each README example's effect, found by a line only that example has.
EFFECTS: dict[str, Callable[[dict[str, Any], list[str]], None]] = {
    "record = play_game(WORDS, seats, seed=7, deck=deck)": a_game_replays,
    "cached_clue_vocabulary(model, size=5000)": unit_vectors_and_a_vocabulary,
    "run_tournament(spec, Path(folder), SerialBackend(), quiet=True)": a_tournament,
    "env = CodenamesEnv(": every_seat_ends,
}


def test_readme_python_blocks_do_what_they_say() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    checked = []
    for block in blocks:
        (key,) = [key for key in EFFECTS if key in block]  # every example has its check
        EFFECTS[key](*run(block, README))
        checked.append(key)
    assert sorted(checked) == sorted(EFFECTS)  # and every check its example


API_PAGE = README.parent / "docs" / "api.md"


def api_blocks() -> tuple[str, str]:
    """The API page's quick tour and its plugin walkthrough (``# my_spymaster.py``)."""
    blocks = re.findall(r"```python\n(.*?)```", API_PAGE.read_text(), flags=re.S)
    tours = [b for b in blocks if not b.startswith("# my_spymaster.py")]
    plugins = [b for b in blocks if b.startswith("# my_spymaster.py")]
    assert len(tours) == 1 and len(plugins) == 1, "the API page has one tour and one plugin"
    return tours[0], plugins[0]


def test_the_api_page_s_tour_does_what_it_says() -> None:
    names, printed = run(api_blocks()[0], API_PAGE)  # it asserts its games replay itself
    model, record, summary = names["model"], names["record"], names["summary"]
    assert printed[0].startswith(f"{model.name} {len(model)} [")
    assert printed[1].startswith(f"{record.outcome} ")
    assert printed[2] == f"{summary.matchups[0].win_rate} {summary.ratings[0].agent}"
    assert len(printed) == 3 and len(names["games"]) == 6
    shutil.rmtree(names["folder"])  # the tour's temporary folder


def test_readme_opens_with_the_two_quickstart_commands() -> None:
    text = README.read_text()
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quickstart, flags=re.S)
    assert commands == ["pip install -e . && codenames play",
                        "pip install -e '.[test]' && pytest"]


def test_readme_tournament_spec_is_valid() -> None:
    import tomllib

    from codenames_ai.harness import TournamentSpec

    blocks = re.findall(r"```toml\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README shows no tournament spec"
    for block in blocks:
        spec = TournamentSpec.from_dict(tomllib.loads(block))
        assert spec.agent("bold").options == (("risk", "bold"),)
