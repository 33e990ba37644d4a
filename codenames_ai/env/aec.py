"""A PettingZoo AEC environment over the rules core, for learning agents
(``pip install 'codenames-ai[env]'``).

Four agents, one per seat: ``red_spymaster``, ``red_guesser``, ``blue_spymaster``,
``blue_guesser``; the one whose seat must move is ``agent_selection``. Every agent has the
same observation space, a dict of

- ``observation``: int64 vector: for each card its deck index, its face (0 face down,
  1 red, 2 blue, 3 bystander, 4 assassin once revealed) and its key (the same codes; 0 for a
  guesser, who never sees the key), then the clue: word index in the clue vocabulary (-1 for
  none), its number, guesses left (-1 for none or unlimited), and whose turn (0 red, 1 blue);
- ``action_mask``: int8 over the agent's actions, 1 where the action is legal now.

Spymaster actions: ``word * max_number + (number - 1)`` gives clue ``vocabulary[word]`` for
``number`` (legal clues only, under the rule set's clue rules), then one action per card for
covering an agent (penalty or co-op covers). Guesser actions: touch card ``i``, or the last
action, pass. Rewards come at the end: +1 to the winning team's two agents, -1 to the
others; a game past ``max_turns`` is truncated with no reward.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import (
    WORDS,
    Clue,
    Cover,
    GameSettings,
    Guess,
    IllegalActionError,
    Pass,
    Phase,
    PublicView,
    Role,
    RuleSet,
    Team,
    deal,
    held_key,
)
from ..core.cards import Identity
from ..core.state import GameState
from ..decks import default_deck, read_word_list, wordlists_dir
from ..legality import CandidateFilter

AGENTS = ("red_spymaster", "red_guesser", "blue_spymaster", "blue_guesser")


def default_clue_vocabulary() -> tuple[str, ...]:
    """The larger shipped deck (1,500 common nouns): clue words that need no model."""
    return read_word_list(wordlists_dir() / "words-large.txt")


@functools.lru_cache(maxsize=8)
def _filter(vocabulary: tuple[str, ...], clue_rules: str) -> CandidateFilter:
    return CandidateFilter(vocabulary, clue_rules)


class CodenamesEnv(AECEnv):  # type: ignore[misc]
    """Codenames as a turn-based multi-agent environment (PettingZoo AEC)."""

    metadata = {"name": "codenames_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: RuleSet | GameSettings = WORDS, *,
                 deck: Sequence[str] | None = None,
                 clue_vocabulary: Sequence[str] | None = None, max_number: int = 3,
                 max_turns: int = 50, render_mode: str | None = None) -> None:
        super().__init__()
        if max_number < 1:
            raise ValueError(f"max_number must be at least 1, got {max_number}")
        # Settings as every front end gives them, or the rule set they make.
        rules = rules.to_rules() if isinstance(rules, GameSettings) else rules
        self.rules = rules
        self.deck = tuple(deck) if deck is not None else default_deck(rules.edition)
        self.vocabulary = tuple(clue_vocabulary) if clue_vocabulary is not None \
            else default_clue_vocabulary()
        self.max_number = max_number
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        cells = rules.layout.cells
        self._cells = cells
        self._clue_actions = len(self.vocabulary) * max_number
        counts = {"spymaster": self._clue_actions + cells, "guesser": cells + 1}
        size = 3 * cells + 4
        high = max(len(self.deck), len(self.vocabulary), 10)
        self._action_spaces = {a: spaces.Discrete(counts[a.split("_")[1]]) for a in AGENTS}
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-1, high, shape=(size,), dtype=np.int64),
                "action_mask": spaces.Box(0, 1, shape=(counts[a.split("_")[1]],),
                                          dtype=np.int8),
            }) for a in AGENTS}
        self._deck_index = {word: i for i, word in enumerate(self.deck)}
        self._vocabulary_index = {word: i for i, word in enumerate(self.vocabulary)}
        self.state_: GameState | None = None

    # --- PettingZoo API -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.state_ = GameState(self.rules, deal(self.rules, self.deck, seed))
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._seat()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        state = self._game()
        view = _view(state, agent)
        key = held_key(view)  # a spymaster's view holds the key; a guesser's has none
        cards = np.zeros((self._cells, 3), dtype=np.int64)
        for i, word in enumerate(view.words):
            cards[i, 0] = self._deck_index.get(word, -1)
            cards[i, 1] = _number(view.revealed[i])
            cards[i, 2] = _number(key[i]) if key is not None else 0
        clue = [-1, 0, -1]
        if state.phase is Phase.GUESS:
            guessing = state.guesser_view(state.current_team)  # the clue is public
            clue = [self._vocabulary_index.get(guessing.clue.word, -1),
                    guessing.clue.number if isinstance(guessing.clue.number, int) else 0,
                    guessing.guesses_left if guessing.guesses_left is not None else -1]
        turn = [0 if state.current_team is Team.RED else 1]
        observation = np.concatenate([cards.ravel(), clue, turn]).astype(np.int64)
        return {"observation": observation, "action_mask": self._mask(agent, view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._game()
        self._cumulative_rewards[agent] = 0.0
        move = self.decode(agent, int(action)) if action is not None else None
        try:
            if move is None:
                raise IllegalActionError("no action")
            state.apply(move)
        except IllegalActionError as exc:  # an illegal choice forfeits the move, as a timeout
            self.infos[agent] = {"illegal": str(exc)}
            state.forfeit()
        if state.is_over or state.turn > self.max_turns:
            self._finish(state)
        else:
            self.agent_selection = self._seat()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        from ..render import render_view

        # The text render is an observer's: the whole key, as ``codenames watch`` shows it.
        return render_view(self.state_.spymaster_view(self.state_.current_team))

    def close(self) -> None:
        self.state_ = None

    # --- actions ------------------------------------------------------------------------------

    def decode(self, agent: str, action: int) -> Clue | Cover | Guess | Pass:
        """The game move an action number stands for, for this agent."""
        _, role = _seat_of(agent)
        if role is Role.GUESSER:
            return Pass() if action == self._cells else Guess(action)
        if action < self._clue_actions:
            word, number = divmod(action, self.max_number)
            return Clue(self.vocabulary[word], number + 1)
        return Cover(action - self._clue_actions)

    def _mask(self, agent: str, view: PublicView) -> npt.NDArray[np.int8]:
        state = self._game()
        space = self._action_spaces[agent]
        assert isinstance(space, spaces.Discrete)
        mask = np.zeros(int(space.n), dtype=np.int8)
        if state.is_over or agent != self._seat():
            return mask
        _, role = _seat_of(agent)
        face_down = list(view.unrevealed)
        if role is Role.GUESSER:
            mask[face_down] = 1
            mask[self._cells] = int(Pass() in state.legal_actions())
        elif state.phase is Phase.COVER:
            mask[[self._clue_actions + i for i in state.cover_candidates()]] = 1
        else:
            legal = _filter(self.vocabulary, self.rules.clue_rules).legal_mask(
                view.visible_words)
            left = state.cards_left(state.current_team)
            numbers = np.zeros(self.max_number, dtype=np.int8)
            numbers[: min(self.max_number, left)] = 1
            mask[: self._clue_actions] = np.outer(legal.astype(np.int8), numbers).ravel()
        return mask

    # --- helpers ------------------------------------------------------------------------------

    def _game(self) -> GameState:
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _seat(self) -> str:
        state = self._game()
        role = state.current_role or Role.SPYMASTER
        return f"{state.current_team.value}_{role.value}"

    def _finish(self, state: GameState) -> None:
        outcome = state.outcome
        if outcome is None:  # past the turn limit: cut off, nobody wins
            self.truncations = {a: True for a in self.agents}
            return
        for agent in self.agents:
            team, _ = _seat_of(agent)
            if outcome.winner is not None:
                self.rewards[agent] = 1.0 if team is outcome.winner else -1.0
        self.terminations = {a: True for a in self.agents}


def _view(state: GameState, agent: str) -> PublicView:
    """What ``agent``'s seat sees, as the core builds it: a spymaster's view with the key, the
    table for a guesser."""
    team, role = _seat_of(agent)
    return state.spymaster_view(team) if role is Role.SPYMASTER else state.public_view(team)


def _number(identity: Identity | None) -> int:
    """A card's code in the observation: ``Identity.number``, 0 for one not shown."""
    return 0 if identity is None else identity.number


def _seat_of(agent: str) -> tuple[Team, Role]:
    team, role = agent.split("_")
    return Team(team), Role(role)


def env(**options: Any) -> CodenamesEnv:
    """The environment (PettingZoo's usual constructor name)."""
    return CodenamesEnv(**options)
