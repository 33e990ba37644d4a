"""Running tournaments: results on disk, resume, same results on every backend, faults."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from codenames_ai.core import ClueGiven, ConfigError, GameRecord, GuessMade, Team, replay
from codenames_ai.harness.backends import PoolBackend, SerialBackend
from codenames_ai.harness.results import GAMES_FILE, read_results
from codenames_ai.harness.run import run_tournament, write_summary
from codenames_ai.harness.spec import AgentRef, Mode, TournamentSpec
from codenames_ai.harness.summary import GameCounts, Rating, Summary, wilson, without_timing

PLUGINS = "tests.harness.plugins"
RANDOM_SPYMASTER, RANDOM_GUESSER = "random-spymaster-v1", "random-guesser-v1"


def cheap(games: int = 12, **options: object) -> TournamentSpec:
    return TournamentSpec(
        agents=(AgentRef("rs", RANDOM_SPYMASTER), AgentRef("rs2", RANDOM_SPYMASTER,
                                                            (("max_number", 1),)),
                AgentRef("rg", RANDOM_GUESSER)),
        spymasters=("rs", "rs2"), guessers=("rg",), games=games, seed=4, **options)


def lines(folder: Path) -> list[dict[str, object]]:
    return list(read_results(folder))


def test_serial_run_writes_a_replayable_record_per_game(tmp_path: Path) -> None:
    summary = run_tournament(cheap(), tmp_path, SerialBackend(), quiet=True)
    results = lines(tmp_path)
    assert sorted(r["game"] for r in results) == list(range(12))
    for result in results:
        assert result["status"] == "ok"
        record = GameRecord.from_rows(result["record"])  # type: ignore[arg-type]
        replay(record)
        # The record names each seat's agent with the options that change its play.
        expected = {"rs+rg": RANDOM_SPYMASTER, "rs2+rg": f"{RANDOM_SPYMASTER}(max_number=1)"}
        assert dict(record.agents)["red spymaster"] == expected[str(result["red"])]
    assert summary.games == GameCounts(scheduled=12, finished=12, played=12, failed=0)
    matchup = summary.matchups[0]
    assert matchup.games == 12
    assert matchup.wins + matchup.losses + matchup.no_winner == 12
    teams = summary.teams
    assert set(teams) == {"rs+rg", "rs2+rg"}
    assert teams["rs2+rg"].clue_number_counts == {1: teams["rs2+rg"].clues}
    written = json.loads((tmp_path / "summary.json").read_text())
    assert written == summary.to_dict() and Summary.from_dict(written) == summary
    ratings = {r.agent: r for r in summary.ratings}
    assert set(ratings) == {"rs", "rs2", "rg"}
    assert all(math.isfinite(x) for r in ratings.values() for x in (r.mu, r.sigma, r.ordinal))
    assert [r.ordinal for r in summary.ratings] == sorted(
        (r.ordinal for r in summary.ratings), reverse=True)
    # The spymasters played every game, against each other: the one that won more (rs, 7 of
    # 12 on seed 4) is rated higher, and both are surer of it than at the start.
    assert ratings["rs"].games == ratings["rs2"].games == 12
    assert (matchup.wins, matchup.losses) == (7, 5)
    assert ratings["rs"].mu > 25.0 > ratings["rs2"].mu
    assert ratings["rs"].ordinal > ratings["rs2"].ordinal
    assert all(ratings[a].sigma < 8.333 for a in ("rs", "rs2"))
    # The guesser is on both teams of every game: it learns nothing and keeps its start.
    assert ratings["rg"] == Rating(agent="rg", mu=25.0, sigma=8.333, ordinal=0.0, games=0)


def test_same_seed_same_results_on_serial_and_pool(tmp_path: Path) -> None:
    serial = run_tournament(cheap(10), tmp_path / "serial", SerialBackend(), quiet=True)
    pool = run_tournament(cheap(10), tmp_path / "pool", PoolBackend(2, batch_size=3),
                          quiet=True)
    assert without_timing(serial) == without_timing(pool)
    by_game = {r["game"]: r["record"] for r in lines(tmp_path / "serial")}
    assert all(by_game[r["game"]] == r["record"] for r in lines(tmp_path / "pool"))


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    run_tournament(cheap(6), tmp_path, SerialBackend(), quiet=True)
    # A crash mid-write leaves a torn last line: it is cut off and that game played again.
    with (tmp_path / GAMES_FILE).open("a") as games:
        games.write('{"game": 7, "status": "ok", "rec')
    summary = run_tournament(cheap(10), tmp_path, SerialBackend(), quiet=True)
    indices = [r["game"] for r in lines(tmp_path)]
    assert indices[:6] == sorted(indices[:6]) and sorted(indices) == list(range(10))
    fresh = run_tournament(cheap(10), tmp_path / "fresh", SerialBackend(), quiet=True)
    assert without_timing(summary) == without_timing(fresh)


def test_a_folder_of_another_tournament_is_refused(tmp_path: Path) -> None:
    run_tournament(cheap(2), tmp_path, SerialBackend(), quiet=True)
    other = TournamentSpec.from_options(spymasters=[RANDOM_SPYMASTER],
                                        guessers=[RANDOM_GUESSER], games=2)
    with pytest.raises(ConfigError, match="holds a different tournament .*to continue it"):
        run_tournament(other, tmp_path, SerialBackend(), quiet=True)
    assert len(lines(tmp_path)) == 2


def test_single_team_race_and_coop(tmp_path: Path) -> None:
    race = run_tournament(cheap(8, mode=Mode.SINGLE_TEAM, max_turns=10), tmp_path / "race",
                          SerialBackend(), quiet=True)
    for result in lines(tmp_path / "race"):
        record = GameRecord.from_rows(result["record"])  # type: ignore[arg-type]
        idle = record.board.starting_team.other.value
        assert dict(record.agents)[f"{idle} spymaster"] == "idle"
        team = record.board.starting_team
        assert sum(1 for e in record.events if isinstance(e, ClueGiven) and e.team is team) <= 10
    assert race.teams["rs+rg"].games == 4
    assert all(r.games > 0 for r in race.ratings if r.agent != "rg")
    coop = run_tournament(cheap(4, mode=Mode.COOP), tmp_path / "coop", SerialBackend(),
                          quiet=True)
    assert coop.teams["rs+rg"].mean_coop_score is not None


def faulty(guesser: str, games: int = 4, **options: object) -> TournamentSpec:
    return TournamentSpec(agents=(AgentRef("rs", RANDOM_SPYMASTER), AgentRef("bad", guesser),
                                  AgentRef("rg", RANDOM_GUESSER)),
                          spymasters=("rs",), guessers=("bad", "rg"), games=games, seed=1,
                          **options)


def test_crashing_and_garbage_agents_forfeit_their_moves(tmp_path: Path) -> None:
    summary = run_tournament(faulty(f"{PLUGINS}:CrashingGuesser"), tmp_path, SerialBackend(),
                             quiet=True)
    assert summary.games.played == 4
    for result in lines(tmp_path):
        record = GameRecord.from_rows(result["record"])  # type: ignore[arg-type]
        crashing = Team.RED if result["red"] == "rs+bad" else Team.BLUE
        assert not [e for e in record.events if isinstance(e, GuessMade) and e.team is crashing]
    rows = [row for r in lines(tmp_path) for row in r["record"]]  # type: ignore[attr-defined]
    forfeits = [row for row in rows if row.get("event") == "forfeit"]
    assert forfeits and all("crashed: ValueError: this guesser always crashes" in row["reason"]
                            for row in forfeits)
    garbage = TournamentSpec(agents=(AgentRef("junk", f"{PLUGINS}:GarbageSpymaster"),
                                     AgentRef("rs", RANDOM_SPYMASTER),
                                     AgentRef("rg", RANDOM_GUESSER)),
                             spymasters=("junk", "rs"), guessers=("rg",), games=2)
    summary = run_tournament(garbage, tmp_path / "garbage", SerialBackend(), quiet=True)
    assert summary.teams["junk+rg"].clues == 0
    reasons = {row["reason"] for r in lines(tmp_path / "garbage")
               for row in r["record"] if row.get("event") == "forfeit"}  # type: ignore[attr-defined]
    assert any("returned 'banana'" in reason for reason in reasons)


def test_a_slow_agent_runs_out_of_time(tmp_path: Path) -> None:
    spec = faulty(f"{PLUGINS}:SlowGuesser", games=2, move_time_limit=0.05)
    run_tournament(spec, tmp_path, SerialBackend(), quiet=True)
    events = [row["event"] for r in lines(tmp_path) for row in r["record"]  # type: ignore[attr-defined]
              if row["kind"] == "event"]
    assert "timeout" in events


def killer(games: int, **options: object) -> TournamentSpec:
    return TournamentSpec(agents=(AgentRef("killer", f"{PLUGINS}:WorkerKiller", tuple(
        sorted(options.items()))), AgentRef("rg", RANDOM_GUESSER)),
        spymasters=("killer",), guessers=("rg",), games=games, seed=2, swap_sides=False)


def test_a_dead_worker_is_replaced_and_its_game_retried_once(tmp_path: Path) -> None:
    # Dies on every board starting with a-f: retried once, then recorded as failed.
    summary = run_tournament(killer(12, letters="abcdef"), tmp_path / "always",
                             PoolBackend(2, batch_size=4), quiet=True)
    results = lines(tmp_path / "always")
    assert sorted(r["game"] for r in results) == list(range(12))
    failed = [r for r in results if r["status"] == "failed"]
    assert failed and len(failed) < 12
    assert all("killed by SIGKILL twice" in str(r["reason"]) for r in failed)
    assert summary.games.failed == len(failed)
    # Dies only the first time it sees a board: every game succeeds on its retry.
    markers = tmp_path / "markers"
    markers.mkdir()
    run_tournament(killer(12, letters="abcdef", marker_dir=str(markers)), tmp_path / "once",
                   PoolBackend(2, batch_size=4), quiet=True)
    assert all(r["status"] == "ok" for r in lines(tmp_path / "once"))
    assert list(markers.iterdir())


def test_unknown_agents_stop_before_any_game(tmp_path: Path) -> None:
    spec = TournamentSpec.from_options(spymasters=["glove-ev-spymastr-v1"],
                                       guessers=[RANDOM_GUESSER])
    with pytest.raises(ConfigError, match="unknown agent 'glove-ev-spymastr-v1'; did you mean "
                                          "'glove-ev-spymaster-v1'. known agents: "):
        run_tournament(spec, tmp_path, SerialBackend(), quiet=True)
    spec = TournamentSpec.from_options(spymasters=["no_such_module:Agent"],
                                       guessers=[RANDOM_GUESSER])
    with pytest.raises(ConfigError, match="cannot import 'no_such_module'"):
        run_tournament(spec, tmp_path, SerialBackend(), quiet=True)
    assert not (tmp_path / GAMES_FILE).exists()


def test_summary_of_an_empty_folder_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="holds no tournament"):
        write_summary(tmp_path)


def test_wilson_interval() -> None:
    low, high = wilson(81, 263)  # a textbook example: 0.2553 .. 0.3662
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    assert wilson(0, 0) == (0.0, 0.0)
    assert wilson(10, 10)[1] == 1.0
