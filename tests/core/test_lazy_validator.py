"""The core builds and plays a game without loading the clue rules (the legality package and
numpy) until a clue first needs them: a GameState resolves its validator on the first clue
check that gets past the core's own basics (issue 28)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codenames_ai.core import WORDS, ConfigError, GameState, custom, deal

SCRIPT = """
import json, sys
from codenames_ai.core import WORDS, Clue, Cover, GameState, deal

def loaded():
    return sorted(m for m in ("codenames_ai.legality", "numpy") if m in sys.modules)

deck = [f"card{i}" for i in range(25)]
state = GameState(WORDS, deal(WORDS, deck, 7))
seen = {"built": loaded()}
# A visible board word breaks the core's own rule: a penalty, with no clue rules asked.
state.apply(Clue(state.board.words[0], 1))
state.apply(Cover(state.cover_candidates()[0]))
state.forfeit()
seen["played"] = loaded()
seen["phase"] = state.phase.value
state.apply(Clue("river", 1))
seen["checked"] = loaded()
seen["validator"] = state.validator.name
print(json.dumps(seen))
"""


def test_a_game_loads_the_clue_rules_only_when_a_clue_needs_them() -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            timeout=120, check=True)
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["built"] == [], "building a GameState loaded the clue rules"
    assert seen["played"] == [], "moves needing no clue check loaded the clue rules"
    assert seen["phase"] == "clue"
    assert seen["checked"] == ["codenames_ai.legality", "numpy"]
    assert seen["validator"] == "classic"


def test_unknown_clue_rules_are_still_refused_when_the_game_is_built() -> None:
    rules = custom(WORDS.layout, clue_rules="no-such-rules")
    with pytest.raises(ConfigError, match="no clue rules named 'no-such-rules'"):
        GameState(rules, deal(rules, [f"card{i}" for i in range(25)], 7))
