"""Move times in a tournament are each agent's own: work that agents share through a cache
(the board's legality and similarity matrix in a clue space) is not billed to whichever of
them moves first on a board."""

from __future__ import annotations

from codenames_ai.agents.space import ClueSpace, clue_space
from codenames_ai.harness.games import OK, play_task
from codenames_ai.harness.spec import AgentRef, TournamentSpec
from codenames_ai.legality import analyze_card


def test_two_instances_of_one_agent_get_like_times_per_clue() -> None:
    shared = clue_space()
    # A space of its own and no card analysed yet: the board work is cold, as on a new board
    # in a fresh worker (other tests have warmed the shared space and cards).
    space = ClueSpace(shared.model, shared.words, shared.matrix, shared.calibration,
                      shared.cache_folder)
    analyze_card.cache_clear()
    spec = TournamentSpec(agents=(AgentRef("ev", "glove-ev-spymaster-v1", (("space", space),)),
                                  AgentRef("guesser", "glove-guesser-v1")),
                          spymasters=("ev",), guessers=("guesser",), games=2, seed=0)
    totals = {"red spymaster": [0, 0.0], "blue spymaster": [0, 0.0]}
    for index in range(spec.games):  # one board, sides swapped; the same colour starts both
        result = play_task(spec, spec.task(index))
        assert result["status"] == OK, result.get("reason")
        for seat, total in totals.items():
            moves, seconds = result["moves"][seat]
            total[0] += moves
            total[1] += seconds
    ms = [1000 * seconds / moves for moves, seconds in totals.values()]
    assert max(ms) <= 3 * min(ms), f"ms per clue, red and blue: {ms}"
