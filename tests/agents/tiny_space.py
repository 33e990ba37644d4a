"""A tiny hand-built word-vector space for unit tests of the embedding agents.

Every board card has its own axis, and one spare axis completes each clue word to unit length,
so a clue's cosine with a card is exactly the weight the ``CLUES`` table gives it (and 0 for a
card it does not list). One card is not on a pure axis: GHOST is mostly ghost but close to MOON
(cosine 0.7), for covers. The vectors are written to a real GloVe text file, added to a model
store in a temporary folder and loaded by name, the way the project loads any model.

The calibration is fixed by hand so thresholds are round numbers: the 90th percentile of
unrelated similarities is 0.30, the 95th 0.40, the 97th (between the 95th and 99th) 0.50.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from codenames_ai.agents.space import Calibration, ClueSpace
from codenames_ai.core import Board, GameState, Identity, Layout, RuleSet, Team, custom, parse_key
from codenames_ai.vectors import ModelStore, WordVectors, load_model

CARDS = ("knife", "scissors", "sword", "apple", "pear", "piano", "drum", "radio", "horse",
         "moon", "river", "bread", "glue", "ghost", "tiger", "lemon")
# Cards that are not on their own axis alone.
CARD_MIX: dict[str, dict[str, float]] = {"ghost": {"ghost": 0.71, "moon": 0.70}}

# Clue words and their cosine with each card (cards left out: 0).
CLUES: dict[str, dict[str, float]] = {
    # two own cards, far from the rest (GLUE, the usual assassin, is the nearest other card)
    "cut": {"knife": 0.60, "scissors": 0.56, "sword": 0.50, "glue": 0.12},
    "chef": {"knife": 0.55, "bread": 0.20},
    "knives": {"knife": 0.70, "scissors": 0.70},  # a form of KNIFE: illegal under classic rules
    "music": {"piano": 0.60, "drum": 0.45, "radio": 0.42},
    "saddle": {"horse": 0.50},
    "fruit": {"apple": 0.50, "pear": 0.45},
    "night": {"moon": 0.45, "ghost": 0.30},
    "water": {"river": 0.60},
    "paste": {"glue": 0.50, "bread": 0.25},
    # three own cards (threshold and gap rules)
    "trio": {"apple": 0.55, "horse": 0.55, "tiger": 0.52, "river": 0.10},
    "pair": {"piano": 0.70, "drum": 0.68, "river": 0.10},
    "nearly": {"apple": 0.55, "horse": 0.55, "tiger": 0.48, "river": 0.10},
    "risky": {"lemon": 0.60, "pear": 0.55, "radio": 0.57},
    "faint": {"lemon": 0.30, "tiger": 0.10},
    "dull": {"bread": 0.05},
}
SPARE = len(CARDS)  # the spare axis
DIMENSIONS = len(CARDS) + 1

# Quantiles (50, 75, 90, 95, 99): stop rules at 0.90 -> 0.30, 0.95 -> 0.40, 0.97 -> 0.50.
CALIBRATION = Calibration(0.0, 0.2, (0.0, 0.15, 0.30, 0.40, 0.60))



def vectors() -> dict[str, np.ndarray]:
    """Every word's vector: cards on their axes, clues completed to unit length."""
    table: dict[str, np.ndarray] = {}
    for card in CARDS:
        vector = np.zeros(DIMENSIONS)
        for axis, weight in CARD_MIX.get(card, {card: 1.0}).items():
            vector[CARDS.index(axis)] = weight
        table[card] = vector
    for clue, sims in CLUES.items():
        vector = np.zeros(DIMENSIONS)
        for card, cosine in sims.items():
            vector[CARDS.index(card)] = cosine
        rest = 1.0 - float(vector @ vector)
        assert rest >= 0, f"{clue}: cosines too large for a unit vector"
        vector[SPARE] = math.sqrt(rest)
        table[clue] = vector
    return table


def write_glove(path: Path, table: dict[str, np.ndarray]) -> Path:
    """A GloVe text file: one word and its numbers per line, no header."""
    lines = [word + " " + " ".join(f"{x:.6f}" for x in vector) for word, vector in table.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_tiny(folder: Path, table: dict[str, np.ndarray] | None = None,
              name: str = "tiny") -> WordVectors:
    """Write ``table`` (the tiny space by default) as a GloVe file, add it to a model store in
    ``folder`` and load it by name."""
    folder.mkdir(parents=True, exist_ok=True)
    source = write_glove(folder / f"{name}.txt", vectors() if table is None else table)
    ModelStore(folder).add_file(name, source)
    return load_model(name, cache_dir=folder)


def make_space(model: WordVectors, words: Iterable[str] | None = None,
               calibration: Calibration = CALIBRATION) -> ClueSpace:
    """A clue space over ``words`` (every clue word and every card word by default: a card's
    own word is the perfect, and illegal, clue for it while it is face up)."""
    chosen = tuple(CLUES) + CARDS if words is None else tuple(words)
    rows = np.array([model.index(w) for w in chosen], dtype=np.intp)
    matrix = np.ascontiguousarray(model.unit_matrix[rows], dtype=np.float32)
    return ClueSpace(model, chosen, matrix, calibration)


def rules(marks: str, clue_rules: str = "basic", **options: object) -> RuleSet:
    """A one-row layout with the counts of ``marks`` (the core's key letters: R B N A): red
    starts, no double agent."""
    key = parse_key(marks)
    counts = {identity: key.count(identity) for identity in Identity}
    layout = Layout(rows=1, cols=len(key), first_team_agents=counts[Identity.RED],
                    second_team_agents=counts[Identity.BLUE], double_agent=False,
                    bystanders=counts[Identity.BYSTANDER], assassins=counts[Identity.ASSASSIN])
    return custom(layout, clue_rules=clue_rules, **options)


def game(layout: str, clue_rules: str = "basic", **options: object) -> GameState:
    """A game on a board written as ``"knife:R scissors:R glue:A ..."``; red starts."""
    pairs = [item.split(":") for item in layout.split()]
    words = tuple(word for word, _ in pairs)
    marks = " ".join(mark for _, mark in pairs)
    board = Board(words=words, key=parse_key(marks), starting_team=Team.RED)
    return GameState(rules(marks, clue_rules, **options), board)


def cosine(model: WordVectors, word: str, card: str) -> float:
    return float(model.word_vector(word) @ model.card_vector(card))
