"""A person's game is dealt from a 128-bit secret seed, so the board on screen cannot be
matched against every seed of a small range to find the key (issue 29, finding 1: a million
seeds were dealt and matched in 101 s)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from codenames_ai.core import SEED_BITS, GameRecord, deal, edition, secret_seed
from codenames_ai.core import board as core_board
from codenames_ai.decks import default_deck

from ..cli_main import run_main

SHOWN = re.compile(r"^Seed (\d+): codenames play --seed \1 deals this board again\.$", re.M)


def test_a_secret_seed_is_drawn_from_128_bits() -> None:
    asked: list[int] = []

    def bits(count: int) -> int:
        asked.append(count)
        return 2**count - 1

    assert SEED_BITS == 128
    assert secret_seed(bits) == 2**128 - 1 and asked == [128]


def test_the_board_depends_on_every_part_of_the_seed() -> None:
    # Seeds that differ only above the lowest 64 bits (or only in the top bit) deal different
    # boards: the board narrows the seed to no range smaller than the seed's own.
    rules, deck = edition("words"), default_deck("words")
    low = 123_456_789
    boards = {deal(rules, deck, seed) for seed in (low, low + 2**64, low + 2**127)}
    assert len(boards) == 3


def test_play_and_play_again_deal_from_drawn_128_bit_seeds_that_replay_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    draws = random.Random(29)  # the secret source, made repeatable for the test
    expected = random.Random(29)
    # The secret source as the core sees it (numpy, say, draws from the real one).
    monkeypatch.setattr(core_board, "secrets", SimpleNamespace(randbits=draws.getrandbits))
    save = tmp_path / "game.jsonl"
    # A touch, quit and save; yes to another game; the same again, then the input ends.
    done = run_main("play", "--save", str(save), stdin="A1\nquit\ny\ny\ny\nA1\nquit\ny\ny\n")
    assert done.returncode == 0, done.stderr
    shown = [int(seed) for seed in SHOWN.findall(done.stdout)]
    assert shown == [expected.getrandbits(128), expected.getrandbits(128)]
    assert all(seed >= 2**100 for seed in shown)  # these two draws are large: 128 bits used
    first = GameRecord.from_jsonl(save.read_text())
    second = GameRecord.from_jsonl((tmp_path / "game-2.jsonl").read_text())
    assert [first.seed, second.seed] == shown
    # The seed shown deals the same board again.
    again = tmp_path / "again.jsonl"
    done = run_main("play", "--seed", str(shown[1]), "--save", str(again),
                    stdin="A1\nquit\ny\ny\n")
    assert done.returncode == 0, done.stderr
    assert GameRecord.from_jsonl(again.read_text()).board == second.board
