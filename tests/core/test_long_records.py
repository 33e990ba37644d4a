"""A record of many turns replays in time linear in its length, and one longer than any game
codenames plays is refused in one line naming the file (issue 42: every turn may time out
with no touch, and replay copied the whole history twice per event: 10,000 turns took
1.4 s, 40,000 took 9 s, 160,000 did not end in 60 s)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType

import pytest

from codenames_ai.core import WORDS, GameRecord, GameState, RecordError, deal, replay
from codenames_ai.core.record import MAX_RECORD_TURNS
from codenames_ai.decks import default_deck

from ..cli_main import run_main


def timed_out(turns: int) -> GameRecord:
    """A game in which every one of ``turns`` turns timed out before its clue, stopped at
    the turn limit after them: what codenames watch --max-turns ``turns`` writes when no
    agent ever answers in time."""
    state = GameState(WORDS, deal(WORDS, default_deck("words"), 5))
    for _ in range(turns):
        state.forfeit()
    state.abandon()
    return GameRecord.from_state(state, seed=5)


def reads_of_the_history(record: GameRecord) -> int:
    """How many times ``replay`` reads a state's whole history (``GameState.events``, a
    copy of every event so far)."""
    getter = GameState.events.fget
    assert getter is not None
    calls = 0

    def count(frame: FrameType, event: str, _arg: object) -> None:
        nonlocal calls
        calls += event == "call" and frame.f_code is getter.__code__

    sys.setprofile(count)
    try:
        replay(record)
    finally:
        sys.setprofile(None)
    return calls


def test_replay_reads_the_history_a_fixed_number_of_times_whatever_the_length() -> None:
    assert reads_of_the_history(timed_out(100)) == reads_of_the_history(timed_out(400))


def test_a_record_of_the_most_turns_replays(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text(timed_out(MAX_RECORD_TURNS).to_jsonl())
    done = run_main("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(f"No winner: stopped after {MAX_RECORD_TURNS + 1} turns.")


def test_a_record_longer_than_any_game_is_refused_in_one_line(tmp_path: Path) -> None:
    record = timed_out(MAX_RECORD_TURNS + 1)
    with pytest.raises(RecordError, match=f"^long: the game goes on past turn "
                                          f"{MAX_RECORD_TURNS:,}"):
        replay(record, source="long")
    path = tmp_path / "long.jsonl"
    path.write_text(record.to_jsonl())
    done = run_main("replay", str(path))
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: {path}: the game goes on past turn "), done.stderr


def test_a_record_of_more_lines_than_the_longest_game_is_refused_before_it_is_parsed(
        tmp_path: Path) -> None:
    # Parsing is linear but not cheap: 700,000 turns (54 MB, under the size limit) took
    # 21 s and 880 MB before the turn limit refused them.
    path = tmp_path / "long.jsonl"
    path.write_text(timed_out(4 * MAX_RECORD_TURNS).to_jsonl())
    done = run_main("replay", str(path))
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"error: {path}: the record holds 40,004 lines, more than "
                                  f"a game of {MAX_RECORD_TURNS:,} turns has"), done.stderr
