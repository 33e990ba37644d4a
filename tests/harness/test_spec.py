"""Tournament specs: the schedule, TOML files and their errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from codenames_ai.core import ConfigError
from codenames_ai.harness.spec import AgentRef, Mode, TeamRef, TournamentSpec

RANDOM = ["random-spymaster-v1"]


def spec(**options: object) -> TournamentSpec:
    return TournamentSpec.from_options(
        spymasters=["random-spymaster-v1", "glove-gap-spymaster-v1"],
        guessers=["random-guesser-v1"], **options)


def test_mirrored_pairs_share_a_board_with_sides_swapped() -> None:
    s = spec(games=8, seed=3)
    tasks = [s.task(i) for i in range(8)]
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.seed == second.seed and first.board == second.board
        assert (first.red, first.blue) == (second.blue, second.red)
    # Each team sits red exactly half the time.
    assert Counter(t.red.label for t in tasks) == Counter({
        "random-spymaster-v1+random-guesser-v1": 4, "glove-gap-spymaster-v1+random-guesser-v1": 4})


def test_every_matchup_plays_the_same_boards() -> None:
    s = TournamentSpec.from_options(spymasters=["a:A", "b:B", "c:C"], guessers=["g:G"],
                                    games=12, swap_sides=False)
    assert len(s.matchups) == 3  # round robin of three teams
    boards: dict[int, list[int]] = {}
    for task in map(s.task, range(12)):
        boards.setdefault(task.matchup, []).append(task.seed)
    assert boards[0] == boards[1] == boards[2]
    assert len(set(boards[0])) == 4


def test_one_team_plays_itself_and_races_alone() -> None:
    s = TournamentSpec.from_options(spymasters=RANDOM, guessers=["random-guesser-v1"], games=2)
    assert s.matchups == ((s.teams[0], s.teams[0]),)
    race = TournamentSpec.from_options(spymasters=RANDOM, guessers=["random-guesser-v1"],
                                       games=2, mode="single-team")
    assert race.task(1).blue is None
    assert race.turn_limit() == 2 * 25 - 1  # 25 own turns between the idle team's


def test_seeds_follow_the_master_seed() -> None:
    assert spec(seed=1).task(0).seed == spec(seed=1).task(0).seed
    assert spec(seed=1).task(0).seed != spec(seed=2).task(0).seed


def test_fingerprint_ignores_only_the_number_of_games() -> None:
    assert spec(games=10).fingerprint() == spec(games=99).fingerprint()
    assert spec(seed=1).fingerprint() != spec(seed=2).fingerprint()
    assert spec(mode="coop").fingerprint() != spec().fingerprint()


def test_dict_round_trip() -> None:
    s = TournamentSpec(
        agents=(AgentRef("bold", "glove-ev-spymaster-v1", (("risk", "bold"),)),
                AgentRef("g", "glove-guesser-v1")),
        spymasters=("bold",), guessers=("g",), mode=Mode.SINGLE_TEAM, games=7, seed=5,
        edition="pictures", guess_limit="strict", move_time_limit=2.0, max_turns=20)
    again = TournamentSpec.from_dict(s.to_dict())
    assert again == s and again.fingerprint() == s.fingerprint()


TOML = """
spymasters = ["glove-ev-spymaster-v1", "bold"]
guessers = ["glove-guesser-v1"]
games = 40
seed = 9
mode = "two-team"
matchups = [["glove-ev-spymaster-v1+glove-guesser-v1", "bold+glove-guesser-v1"]]

[rules]
edition = "words"
guess_limit = "strict"
move_time_limit = 5

[agents.bold]
agent = "glove-ev-spymaster-v1"
options = { risk = "bold" }
"""


def test_toml_spec(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(TOML)
    s = TournamentSpec.from_toml(path, games=12)
    assert s.games == 12 and s.seed == 9 and s.guess_limit == "strict"
    assert s.agent("bold").options == (("risk", "bold"),)
    assert s.matchups == ((TeamRef("glove-ev-spymaster-v1", "glove-guesser-v1"),
                           TeamRef("bold", "glove-guesser-v1")),)
    assert s.rules().clue_time_limit == 5.0


@pytest.mark.parametrize(("text", "message"), [
    (TOML.replace("games = 40", "gmaes = 40"), "unknown key 'gmaes'; did you mean 'games'?"),
    (TOML.replace("guess_limit", "gues_limit"), "did you mean 'rules.guess_limit'?"),
    (TOML.replace('mode = "two-team"', 'mode = "duel"'), "mode 'duel' is not one of"),
    (TOML.replace("games = 40", 'games = "many"'), "'games' must be a whole number"),
    (TOML.replace('edition = "words"', 'edition = "wrods"'),
     "rules: edition 'wrods' is not one of words, pictures"),
    (TOML.replace('edition = "words"', 'edition = "custom"'),
     "rules: edition 'custom' needs a layout, which a tournament spec does not take"),
    (TOML.replace('edition = "words"', 'clue_rules = "loose"'),
     "rules: clue_rules 'loose' is not one of classic, strict"),
    (TOML.replace("+glove-guesser-v1\"]]", "\"]]"), "must be written 'spymaster+guesser'"),
    ("spymasters = [", "not valid TOML"),
])
def test_toml_errors_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message.replace("?", r"\?").replace("+", r"\+")):
        TournamentSpec.from_toml(path)


def test_bad_options() -> None:
    with pytest.raises(ConfigError, match="at least 1"):
        spec(games=0)
    with pytest.raises(ConfigError, match="needs at least one of guessers"):
        TournamentSpec.from_options(spymasters=RANDOM, guessers=[])


def test_teams_too_many_to_hold_are_refused_before_any_is_built() -> None:
    # 45,000 x 45,000 names fit a 1 MB spec: building their 2 billion teams first (to count
    # the round robin) held the command past a minute and its memory without bound.
    names = [f"m{i}:C" for i in range(45_000)]
    for mode in Mode:
        with pytest.raises(ConfigError, match="2,025,000,000 teams make"):
            TournamentSpec.from_options(spymasters=names, guessers=names, mode=mode)


def test_labels_checked_in_linear_time() -> None:
    agents = tuple(AgentRef.of(f"a{i}", "random-guesser-v1") for i in range(100_000))
    spec = TournamentSpec(agents=(*agents, AgentRef.of("s", "random-spymaster-v1")),
                          spymasters=("s",), guessers=("a0",), games=2)
    assert spec.teams == (TeamRef("s", "a0"),)
    with pytest.raises(ConfigError, match=r"agent label\(s\) used twice: a1$"):
        TournamentSpec(agents=(*agents, agents[1]), spymasters=("a0",), guessers=("a1",))
