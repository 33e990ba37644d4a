"""``codenames replay --hide-key`` shows no seed before the game is decided: the seed deals
the whole key (issue 42: the opening line read "..., seed 5. Blue starts.")."""

from __future__ import annotations

import re
from pathlib import Path

from codenames_ai.agents import RandomGuesser, RandomSpymaster
from codenames_ai.core import WORDS, EndReason, GameRecord, GameState, Seats, deal, play_game
from codenames_ai.decks import default_deck

from ..cli_main import run_main

SEED = 987_654_321  # found in no other text of a replay


def stopped(tmp_path: Path) -> Path:
    """A record of a game a player quit on turn 2: nobody won, the key is still hidden."""
    state = GameState(WORDS, deal(WORDS, default_deck("words"), SEED))
    state.forfeit()
    state.abandon(EndReason.STOPPED)
    path = tmp_path / "stopped.jsonl"
    path.write_text(GameRecord.from_state(state, seed=SEED).to_jsonl())
    return path


def won(tmp_path: Path) -> Path:
    deck = default_deck("words")
    seats = Seats.standard(
        red_spymaster=RandomSpymaster(deck), red_guesser=RandomGuesser(stop_probability=0.3),
        blue_spymaster=RandomSpymaster(deck), blue_guesser=RandomGuesser(stop_probability=0.3))
    record = play_game(WORDS, seats, seed=SEED, deck=deck)
    assert record.outcome.winner is not None
    path = tmp_path / "won.jsonl"
    path.write_text(record.to_jsonl())
    return path


def test_hide_key_shows_no_seed_of_an_unfinished_game(tmp_path: Path) -> None:
    done = run_main("replay", "--hide-key", str(stopped(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert "No winner: stopped after 2 turns." in done.stdout
    assert str(SEED) not in done.stdout and not re.search(r"seed \d", done.stdout, re.I)


def test_hide_key_shows_the_seed_once_the_game_is_decided(tmp_path: Path) -> None:
    done = run_main("replay", "--hide-key", str(won(tmp_path)))
    assert done.returncode == 0, done.stderr
    *before, outcome, last = done.stdout.rstrip("\n").split("\n")
    assert " wins on turn " in outcome
    assert last == f"Dealt from seed {SEED}."
    assert str(SEED) not in "\n".join(before)


def test_the_key_shown_shows_the_seed_at_the_start(tmp_path: Path) -> None:
    done = run_main("replay", str(stopped(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert f"seed {SEED}. " in done.stdout.split("\n")[0]
