"""Misbehaving agents for the harness's fault tests, loaded as ``module:Class`` plugins."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

from codenames_ai.agents.baselines import RandomGuesser, RandomSpymaster
from codenames_ai.core import Clue, GuesserView, SpymasterView


class CrashingGuesser(RandomGuesser):
    """Raises on every guess."""

    def guess(self, view: GuesserView) -> object:
        raise ValueError("this guesser always crashes")


class GarbageSpymaster(RandomSpymaster):
    """Answers a clue with a string."""

    def give_clue(self, view: SpymasterView) -> Clue:
        return "banana"  # type: ignore[return-value]


class SlowGuesser(RandomGuesser):
    """Never answers: each guess waits on an event nobody sets, so it is over any budget
    (the match leaves it on its daemon thread and goes on)."""

    def guess(self, view: GuesserView) -> object:
        threading.Event().wait()
        return super().guess(view)


class WorkerKiller(RandomSpymaster):
    """Kills its own process (as an out-of-memory kill would) on boards whose first card
    starts with a letter in ``letters``. With ``marker_dir`` it dies only the first time it
    sees a board, so the retry succeeds."""

    def __init__(self, letters: str = "abc", marker_dir: str = "", **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.letters = letters
        self.marker_dir = marker_dir

    def give_clue(self, view: SpymasterView) -> Clue:
        if view.words[0][0] in self.letters:
            if self.marker_dir:
                marker = Path(self.marker_dir) / ("-".join(view.words[:3]) + ".died")
                if not marker.exists():
                    marker.write_text("died once\n")
                    os.kill(os.getpid(), signal.SIGKILL)
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return super().give_clue(view)


class PreparingSpymaster(RandomSpymaster):
    """Says which models it plays with and records each board it is asked to prepare, as an
    agent with its own tables would (it has no clue space and no ``model`` option)."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.prepared: list[tuple[str, tuple[str, ...]]] = []

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        self.prepared.append((clue_rules, words))

    def model_names(self) -> tuple[str, ...]:
        return ("its-own-model",)
