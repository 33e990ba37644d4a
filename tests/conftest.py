"""Shared helpers: small real boards written out by hand, and a shipped deck."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest
from hypothesis import settings

from codenames_ai.core import Board, GameState, Layout, RuleSet, Team, custom, parse_key
from codenames_ai.decks import default_deck

# Property tests draw the same examples on every run, so CI is reproducible; to look for new
# failures, run them with HYPOTHESIS_PROFILE=explore (a fresh random draw each time, and ten
# times as many examples for the probes that ask ``probe_examples``).
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "reproducible")
settings.register_profile("reproducible", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(PROFILE)


def probe_examples(default: int) -> int:
    """How many examples a probe draws: ``default`` in the reproducible run (CI), ten times
    as many under HYPOTHESIS_PROFILE=explore."""
    return default * 10 if PROFILE == "explore" else default

# A 3x3 game: red starts with 2 agents + the double agent, blue has 2, 3 bystanders, 1 assassin.
SMALL_LAYOUT = Layout(rows=3, cols=3, first_team_agents=2, second_team_agents=2,
                      double_agent=True, bystanders=3, assassins=1)
SMALL_WORDS = ("apple", "bear", "cat", "dog", "eel", "fig", "goat", "hat", "ink")
#            apple bear cat | dog eel | fig goat hat | ink
SMALL_KEY = "R R R B B N N N A"


def make_board(key: str, words: tuple[str, ...] = SMALL_WORDS,
               starting_team: Team = Team.RED) -> Board:
    """A board from a key in the core's letters (``parse_key``): R, B, N (bystander),
    A (assassin)."""
    return Board(words=words, key=parse_key(key, len(words)), starting_team=starting_team)


def small_rules(**options: object) -> RuleSet:
    """A 3x3 game with the core's basic clue checks only (the legality layer has its own
    tests), unless ``clue_rules`` is given."""
    return custom(SMALL_LAYOUT, **{"clue_rules": "basic", **options})


def small_game(key: str = SMALL_KEY, **options: object) -> GameState:
    return GameState(small_rules(**options), make_board(key))


@pytest.fixture(scope="session")
def deck() -> tuple[str, ...]:
    return default_deck("words")


def files_under(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``, with its size and modification time (nanoseconds)."""
    if not folder.is_dir():
        return {}
    return {str(path.relative_to(folder)): (stat.st_size, stat.st_mtime_ns)
            for path in folder.rglob("*") if path.is_file() and (stat := path.stat())}


@pytest.fixture(scope="session", autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test writes into the user's real data folder: ``codenames play`` saves games and
    ``codenames serve`` keeps its database there by default, so every test (and every
    process a test starts) gets a data folder of its own, and the session fails if the real
    one changed all the same. (The model cache, ~/.cache/codenames-ai, is shared on
    purpose: the suite builds and reads the prepared tables there as a user's first run
    does, and a cache may be filled at any time.)"""
    real = Path(platformdirs.user_data_dir("codenames-ai", appauthor=False))
    before = files_under(real)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
        yield
    after = files_under(real)
    changed = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    assert not changed, (f"the suite wrote into the user's data folder {real}: "
                         f"{', '.join(changed[:5])}; a test must save into tmp_path")


@pytest.fixture(scope="session", autouse=True)
def _language_data_prepared() -> None:
    """The clue rules' language data prepared before any test, as the first ``codenames
    clue`` on a fresh machine prepares it (about 20 s, once per version, in the shared cache):
    no test's own time limit then holds that wait."""
    from codenames_ai.legality.language import ensure_prepared

    ensure_prepared()
