"""Playing scheduled games, the same way on every backend.

A game's result is one JSON-ready dictionary (one line of ``games.jsonl``): the schedule
entry, the game record, and the time each seat spent on its moves. Agents are built fresh
for every game (cheap: models and clue spaces are loaded once per process and cached), so a
game never depends on which games a worker played before it: the same master seed gives the
same records on every backend and in any order.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..agents.registry import (
    REGISTRY,
    check_recorded,
    import_plugin,
    make_agent,
    plugin_file,
)
from ..core.board import deal
from ..core.cards import Role, Team
from ..core.errors import CodenamesError, ConfigError
from ..core.protocols import agent_id, prepare_board
from ..core.runner import IDLE, Seats, play_game
from ..decks import default_deck
from .spec import AgentRef, GameTask, Mode, TournamentSpec

OK = "ok"
FAILED = "failed"


class TimedAgent:
    """Wraps an agent and adds the wall time of each move to ``seconds`` (per role).

    Embedding agents share per-board work through their clue space or panel (the legality
    of the board's cards, the board's similarity matrix); whichever moved first on a board
    used to be billed all of it. ``prepare`` has every agent do that work untimed before the
    game (its ``prepare_board`` hook), so ``seconds`` is each agent's own work (the game's
    ``seconds`` keeps all).
    """

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.moves = 0
        self.seconds = 0.0

    @property
    def agent_id(self) -> str:
        return agent_id(self.agent)

    def prepare(self, clue_rules: str, words: tuple[str, ...]) -> None:
        """Untimed: the agent's shared per-board work on the board ``words``, if it has any
        (its ``prepare_board`` hook)."""
        # A card its model cannot read fails here too: the agent meets it again in its
        # move, where the game contains it (a forfeit, not a failed game).
        with contextlib.suppress(Exception):
            prepare_board(self.agent, clue_rules, words)

    def start_game(self, seed: int) -> None:
        hook = getattr(self.agent, "start_game", None)
        if callable(hook):
            hook(seed)

    def _timed(self, method: str, view: Any) -> Any:
        started = time.perf_counter()
        try:
            return getattr(self.agent, method)(view)
        finally:
            self.seconds += time.perf_counter() - started
            self.moves += 1

    def give_clue(self, view: Any) -> Any:
        return self._timed("give_clue", view)

    def choose_cover(self, view: Any) -> Any:
        return self._timed("choose_cover", view)

    def guess(self, view: Any) -> Any:
        return self._timed("guess", view)


def build_agent(ref: AgentRef, role: Role | None = None, seat: str = "",
                plugin_files: Mapping[str, Path] | None = None) -> Any:
    """Build an agent from its tournament entry; ``ConfigError`` naming the entry if it
    cannot be built (an unknown id, an option its constructor refuses, a plugin that
    crashes) or, with ``role``, if it is not an agent of that role (``seat`` names where).
    ``plugin_files``: where the tournament recorded its plugin modules, by module name."""
    entry = f"agent {ref.label!r}" + (f" ({ref.agent})" if ref.agent != ref.label else "")
    try:
        module = plugin_module_of(ref)
        recorded = (plugin_files or {}).get(module)
        if module and ref.agent not in REGISTRY and (ref.plugin or recorded is not None) \
                and module not in sys.modules:  # importing it registers the id or class
            import_plugin(module, ref.agent, recorded=recorded)
        if recorded is not None:  # the name may have been found elsewhere first
            check_recorded(module, recorded)
        return make_agent(ref.agent, role=role, seat=seat, **dict(ref.options))
    except CodenamesError as exc:  # the registry's message names the id already
        message = " ".join(str(exc).split())
        named = f"agent {ref.agent!r}"
        if message.startswith(named):  # "agent 'bold' (glove-ev-...): option 'risk' ..."
            raise ConfigError(f"{entry}{message[len(named):]}") from None
        label = f"agent {ref.label!r}: " if ref.agent != ref.label else ""
        raise ConfigError(f"{label}{message}") from None
    except Exception as exc:  # the constructor refused an option value, or crashed
        options = f" with options {dict(ref.options)}" if ref.options else ""
        kind = "" if isinstance(exc, ValueError | TypeError) else f"{type(exc).__name__}: "
        raise ConfigError(f"{entry}: cannot be built{options}: {kind}{_one_line(exc)}"
                          ) from None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return (text[:300] + "...") if len(text) > 300 else text or type(exc).__name__


@functools.lru_cache(maxsize=4)
def _deck(edition: str) -> tuple[str, ...]:
    return default_deck(edition)


def schedule_entry(task: GameTask) -> dict[str, Any]:
    return {"game": task.index, "matchup": task.matchup, "board": task.board,
            "red": task.red.label, "blue": task.blue.label if task.blue else None}


def play_task(spec: TournamentSpec, task: GameTask) -> dict[str, Any]:
    """Play one scheduled game; a game that cannot be played becomes a ``failed`` result
    with the reason (agent faults during moves are forfeits inside the game instead)."""
    entry = schedule_entry(task)
    started = time.perf_counter()
    try:
        rules = spec.rules()
        board = deal(rules, _deck(spec.edition), task.seed)
        seats, timed = _seats(spec, task, board.starting_team)
        for agent in timed.values():
            agent.prepare(rules.clue_rules, board.words)
        record = play_game(rules, seats, seed=task.seed, board=board,
                           max_turns=spec.turn_limit(), contain_faults=True)
    except CodenamesError as exc:
        return {**entry, "status": FAILED, "reason": str(exc)}
    except Exception as exc:  # an agent's constructor or start_game hook crashed
        return {**entry, "status": FAILED, "reason": f"{type(exc).__name__}: {exc}"}
    moves = {seat: [agent.moves, round(agent.seconds, 6)] for seat, agent in timed.items()}
    return {**entry, "status": OK, "seconds": round(time.perf_counter() - started, 6),
            "moves": moves, "record": record.to_rows()}


def play_games(spec: TournamentSpec, indices: Iterable[int]) -> Iterator[dict[str, Any]]:
    """Play the games ``indices`` one after another, yielding each result as it ends."""
    for index in indices:
        yield play_task(spec, spec.task(index))


def _seats(spec: TournamentSpec, task: GameTask, starting: Team
           ) -> tuple[Seats, dict[str, TimedAgent]]:
    coop = spec.mode is Mode.COOP
    race = task.blue is None and not coop  # the team plays the starting side, the other idles
    timed: dict[str, TimedAgent] = {}

    def build(team: Team, role: Role) -> Any:
        if race and team is not starting:
            return IDLE
        ref = task.blue if team is Team.BLUE and task.blue is not None else task.red
        agent = TimedAgent(build_agent(
            spec.agent(ref.spymaster if role is Role.SPYMASTER else ref.guesser), role))
        timed[role.value if coop else f"{team.value} {role.value}"] = agent
        return agent

    seats = Seats.for_variant(spec.rules().variant,
                              spymaster=lambda team: build(team, Role.SPYMASTER),
                              guesser=lambda team: build(team, Role.GUESSER))
    return seats, timed


def seat_roles(spec: TournamentSpec) -> dict[str, dict[Role, str]]:
    """The roles each agent label plays in ``spec``, with where the spec puts it there."""
    roles: dict[str, dict[Role, str]] = {a.label: {} for a in spec.agents}
    for role, labels, key in ((Role.SPYMASTER, spec.spymasters, "spymasters"),
                              (Role.GUESSER, spec.guessers, "guessers")):
        for label in labels:
            roles[label].setdefault(role, f"the {role.value} seat (it is listed in '{key}')")
    for team in spec.teams:
        for role, label in ((Role.SPYMASTER, team.spymaster), (Role.GUESSER, team.guesser)):
            roles[label].setdefault(role, f"the {role.value} seat of team {team.label!r}")
    return roles


def plugin_module_of(ref: AgentRef) -> str:
    """The user's module an entry is built from: its plugin's, or a ``module:Class``'s
    (``""`` for the built-in agents)."""
    if ref.plugin:
        return ref.plugin
    module, sep, _ = ref.agent.partition(":")
    return module if sep and module.split(".")[0] != "codenames_ai" else ""


def located_plugins(spec: TournamentSpec) -> dict[str, Path]:
    """The files the spec's plugin modules were loaded from in this process, by module."""
    located = {module: plugin_file(module) for module in map(plugin_module_of, spec.agents)
               if module}
    return {module: path for module, path in located.items() if path is not None}


def check_agents(spec: TournamentSpec,
                 plugin_files: Mapping[str, Path] | None = None) -> list[Any]:
    """Build every agent once, in each role the spec gives it, so an unknown id, an option
    value its constructor refuses, a broken plugin or an agent in a seat of the other role
    (a guesser as spymaster forfeits every clue) stops the tournament before any game with
    one clear message. This also loads what the agents share (models, clue spaces or panels,
    their legality filters: each agent's ``prepare_board`` with no cards; the clue rules'
    language data), so that workers forked afterwards start warm and share those pages with
    this process. Returns one agent of each entry of the spec, as built last."""
    rules = spec.rules()
    roles = seat_roles(spec)
    agents = []
    for ref in spec.agents:
        seats = roles[ref.label]
        for role, seat in seats.items() if seats else [(None, "")]:
            agent = build_agent(ref, role, seat, plugin_files)
        prepare_board(agent, rules.clue_rules, ())
        agents.append(agent)
    if rules.clue_rules != "basic":
        from ..legality.language import ensure_prepared

        ensure_prepared()
    return agents


