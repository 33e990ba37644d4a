"""Every registered agent plays seeded games of every edition and variant: it finishes them,
never gives an illegal clue, meets its protocol and plays the same game from the same seed; a
guesser explains every touch it makes."""

from __future__ import annotations

from typing import Any

import pytest

from codenames_ai.agents import REGISTRY, make_agent
from codenames_ai.core import (
    PICTURES,
    WORDS,
    EndReason,
    Guesser,
    GuessLimit,
    GuessMade,
    InvalidClue,
    Layout,
    Role,
    RuleSet,
    Seats,
    Spymaster,
    Variant,
    custom,
    play_game,
    replay,
)
from codenames_ai.decks import default_deck

VOCABULARY = 5_000  # small, so the suite stays fast; the agents are the same at any size
PARTNER = {Role.SPYMASTER: "glove-guesser-v1", Role.GUESSER: "glove-ev-spymaster-v1"}
VARIANTS: list[tuple[str, RuleSet]] = [
    ("words", WORDS),
    ("pictures", PICTURES),
    ("coop", WORDS.with_options(variant=Variant.COOP)),
    ("three-player-strict", WORDS.with_options(variant=Variant.THREE_PLAYER,
                                              clue_rules="strict")),
    ("custom-strict-limit", custom(Layout(rows=4, cols=6, first_team_agents=7,
                                          second_team_agents=7, double_agent=False,
                                          bystanders=8, assassins=2),
                                   guess_limit=GuessLimit.STRICT, clue_rules="flexible")),
]


# The registry says what an install lacks: only the agents on the optional minilm model may
# be missing (the test extra leaves torch out), and the suite plays every other one.
PROBLEMS = {agent_id: spec.problem() for agent_id, spec in REGISTRY.items()}
AVAILABLE = sorted(agent_id for agent_id, problem in PROBLEMS.items() if problem is None)


def test_only_the_optional_minilm_model_s_agents_may_be_unavailable() -> None:
    missing = {agent_id: problem for agent_id, problem in PROBLEMS.items() if problem}
    for agent_id, problem in missing.items():
        assert not agent_id.startswith("minilm-words-"), agent_id  # its table is shipped
        assert "needs the minilm model" in problem and "pip install" in problem, problem
    assert set(PARTNER.values()) <= set(AVAILABLE)


def build(agent_id: str) -> Any:
    options = {} if agent_id.startswith("random") else {"vocabulary_size": VOCABULARY}
    return make_agent(agent_id, **options)


def seats_for(rules: RuleSet, spymaster: Spymaster, guesser: Guesser) -> Seats:
    return Seats.for_variant(rules.variant, spymaster=lambda team: spymaster,
                             guesser=lambda team: guesser)


@pytest.mark.slow
@pytest.mark.parametrize("agent_id", AVAILABLE)
def test_agent_conforms(agent_id: str) -> None:
    spec = REGISTRY[agent_id]
    agent = build(agent_id)
    partner = build(PARTNER[spec.role])
    # The id records the options that change play (a smaller clue vocabulary here).
    assert agent.agent_id.partition("(")[0] == agent_id
    if spec.role is Role.SPYMASTER:
        assert isinstance(agent, Spymaster)
        spymaster, guesser = agent, partner
    else:
        assert isinstance(agent, Guesser)
        spymaster, guesser = partner, agent
    deck = default_deck("words")
    for name, rules in VARIANTS:
        for seed in (1, 2):
            record = play_game(rules, seats_for(rules, spymaster, guesser), seed=seed,
                               deck=deck)
            assert record.outcome.reason is not EndReason.TURN_LIMIT, (name, seed)
            if not agent_id.startswith("random"):
                assert not any(isinstance(e, InvalidClue) for e in record.events), (name, seed)
            assert replay(record).outcome == record.outcome
            again = play_game(rules, seats_for(rules, spymaster, guesser), seed=seed, deck=deck)
            assert again.to_jsonl() == record.to_jsonl(), (name, seed)
            touched = [(e.turn, e.index) for e in again.events if isinstance(e, GuessMade)]
            reasons = [(r.turn, r.index) for r in guesser.touch_explanations]
            assert reasons == touched, (name, seed)
