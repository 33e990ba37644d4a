"""``codenames serve`` as the browser tests run it (``python serve_red_first.py serve ...``):
the real command, whose secret seeds come from a fixed generator instead of ``secrets``, and
only seeds whose deal starts with red for every game setting the browser tests play. The
people in those tests sit with red, so no AI move comes before their first one, no deal is
over as it is made, and no test deals again until one suits it.

A real ``codenames serve`` keeps its 128 secret bits: only this script, which is no part of
the package, replaces the bits source, as tests/play/test_secret_seed.py does in-process."""

from __future__ import annotations

import os
import random
import runpy
import signal
import sys
from collections.abc import Callable
from types import SimpleNamespace

from codenames_ai.core import SEED_BITS, Team, deal
from codenames_ai.core import board as core_board
from codenames_ai.web.games import GameConfig

# The games the browser tests start (the default deck of each edition, and the three-player
# variant's layout); co-op reads the starting team from the page, whichever it is.
PLAYED = [GameConfig(edition="words"), GameConfig(edition="pictures"),
          GameConfig(variant="three-player")]
DEALS = [(config.rules(), config.cards()) for config in PLAYED]


def red_first_bits(draws: random.Random) -> Callable[[int], int]:
    """A ``randbits`` that returns the next drawn seed whose deals all start with red."""

    def randbits(bits: int) -> int:
        assert bits == SEED_BITS, bits
        while True:
            seed = draws.getrandbits(bits)
            if all(deal(rules, cards, seed).starting_team is Team.RED
                   for rules, cards in DEALS):
                return seed

    return randbits


if __name__ == "__main__":
    # Ctrl-C as a terminal sends it, whatever SIGINT the suite inherited (a suite started by a
    # script in the background has it ignored); SERVE_SIGINT=ignore starts the server so.
    signal.signal(signal.SIGINT, signal.SIG_IGN if os.environ.get("SERVE_SIGINT") == "ignore"
                  else signal.default_int_handler)
    core_board.secrets = SimpleNamespace(  # type: ignore[assignment]
        randbits=red_first_bits(random.Random(2028)))
    sys.argv = ["codenames", *sys.argv[1:]]
    runpy.run_module("codenames_ai", run_name="__main__", alter_sys=True)  # python -m
