"""A plugin (``codenames serve --plugin stuck_spymaster``) whose spymaster never finishes
thinking: the stand-in for an AI move that takes longer than a server's stop may wait. It
says on standard output when it starts thinking, so a test knows a request is in it."""

from __future__ import annotations

import threading

from codenames_ai.agents.registry import register
from codenames_ai.core import Clue, Role, SpymasterView

NEVER = threading.Event()  # set by no one


class StuckSpymaster:
    def give_clue(self, view: SpymasterView) -> Clue:
        print("thinking", flush=True)
        NEVER.wait()
        raise AssertionError("never reached")


register("stuck-spymaster-v1", StuckSpymaster, role=Role.SPYMASTER)
