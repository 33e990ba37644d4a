"""What a tournament is: agents, pairings, rules, number of games and the master seed.

A spec is plain data (it pickles and round-trips through JSON), read from the command line
or a TOML file. The schedule is a pure function of the spec: game ``g`` always plays the same
teams on the same board from the same seed, whatever runs it and in whatever order.

Schedule. Two-team games come in mirrored pairs: both games of a pair deal the same board
(so the same team of colours starts) with the two sides swapped, which balances red/blue and
the starting team exactly. Every matchup plays the same sequence of boards, so matchups are
compared on equal boards. Single-team races and co-op games give every team the same boards.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import math
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..agents.registry import entry_point_of, plugin_module
from ..core.board import derive_seed
from ..core.errors import ConfigError
from ..core.jsonlimits import is_text
from ..core.record import MAX_RECORD_TURNS
from ..core.rules import EditionName, RuleSet, Variant
from ..core.settings import GameSettings
from ..files import read_bounded

# Where a tournament's games can run (``run.make_backend``); here, in a module the command
# line imports anyway, so it can list them without importing the backends.
BACKENDS = ("pool", "serial", "ray")

PLUGIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


class Mode(StrEnum):
    TWO_TEAM = "two-team"  # two teams play each other
    SINGLE_TEAM = "single-team"  # one team races alone against the turn limit (AIIDE)
    COOP = "coop"  # the 2-player co-operative variant


@dataclass(frozen=True)
class AgentRef:
    """An agent as a tournament names it: a ``label`` (what tables show), the registry id or
    ``module:Class`` it is built from, and constructor options."""

    label: str
    agent: str
    options: tuple[tuple[str, Any], ...] = ()
    # The module that registers ``agent`` when it is a plugin's id (registered outside
    # codenames_ai): imported to build it in another process, e.g. to resume from the CLI.
    plugin: str = ""

    @classmethod
    def of(cls, label: str, agent: str, options: tuple[tuple[str, Any], ...] = (),
           plugin: str = "") -> AgentRef:
        """A ref whose ``plugin`` is filled in from the registry when not given."""
        return cls(label, agent, options, plugin or plugin_module(agent) or "")

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "agent": self.agent, "options": dict(self.options),
                **({"plugin": self.plugin} if self.plugin else {})}


@dataclass(frozen=True)
class TeamRef:
    """A spymaster and a guesser playing together, shown as ``"spymaster+guesser"``."""

    spymaster: str  # an AgentRef label
    guesser: str

    @property
    def label(self) -> str:
        return f"{self.spymaster}+{self.guesser}"


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: which teams sit where, on which board, from which seed."""

    index: int
    matchup: int
    board: int
    seed: int  # the game seed: deals the board and seeds every agent (via its seat)
    red: TeamRef
    blue: TeamRef | None  # None: the other team's seats are idle (single-team, co-op)


RULE_KEYS = ("edition", "guess_limit", "clue_rules", "move_time_limit")
# A spec is a few lines of TOML: a file past this is not one (/dev/zero, a wrong path), and is
# refused after reading this much, never read whole.
MAX_SPEC_BYTES = 1 << 20
SPEC_KEYS = ("spymasters", "guessers", "agents", "matchups", "mode", "games", "seed",
             "swap_sides", "max_turns", "rules")
DEFAULT_MAX_TURNS = {Mode.TWO_TEAM: 60, Mode.SINGLE_TEAM: 25, Mode.COOP: 60}


@dataclass(frozen=True)
class TournamentSpec:
    """A whole tournament. Build with ``from_options`` or ``from_toml``."""

    agents: tuple[AgentRef, ...]
    spymasters: tuple[str, ...]  # labels of ``agents``
    guessers: tuple[str, ...]
    mode: Mode = Mode.TWO_TEAM
    games: int = 100
    seed: int = 0
    swap_sides: bool = True
    max_turns: int | None = None  # own turns in a single-team race, all turns otherwise
    edition: str = "words"
    guess_limit: str = "classic"
    clue_rules: str | None = None  # None: the edition's default
    move_time_limit: float | None = None  # seconds per clue or guess; overruns forfeit
    explicit_matchups: tuple[tuple[TeamRef, ...], ...] = ()
    _teams: tuple[TeamRef, ...] = field(default=(), init=False, repr=False, compare=False)
    _matchups: tuple[tuple[TeamRef, ...], ...] = field(default=(), init=False, repr=False,
                                                      compare=False)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ConfigError(f"games must be at least 1, got {self.games}")
        labels = [a.label for a in self.agents]
        known = set(labels)
        for label in labels:
            _check_name(label, "an agent label")
        duplicates = sorted(label for label, count in Counter(labels).items() if count > 1)
        if duplicates:
            raise ConfigError(f"agent label(s) used twice: {', '.join(duplicates)}")
        for role, names in (("spymasters", self.spymasters), ("guessers", self.guessers)):
            if not names:
                raise ConfigError(f"a tournament needs at least one of {role}")
            for name in names:
                if name not in known:
                    raise ConfigError(f"{role}: {name!r} is not one of the agents "
                                      f"({', '.join(labels)})")
        if self.max_turns is not None and not 1 <= self.max_turns <= MAX_RECORD_TURNS:
            # Past the most a record holds, its games could not be replayed.
            raise ConfigError(f"max_turns must be from 1 to {MAX_RECORD_TURNS:,}, "
                              f"got {self.max_turns}")
        if self.move_time_limit is not None and self.move_time_limit <= 0:
            raise ConfigError(f"move_time_limit must be positive, got {self.move_time_limit}")
        self.rules()  # fail early on an unknown edition or guess limit
        teams = len(self.spymasters) * len(self.guessers)  # counted before any is built
        if len(self.explicit_matchups) > MAX_MATCHUPS:
            raise ConfigError(f"'matchups' lists {len(self.explicit_matchups):,}, more than "
                              f"the {MAX_MATCHUPS:,} a tournament holds")
        if not self.explicit_matchups and _round_robin_size(teams, self.mode) > MAX_MATCHUPS:
            # Every matchup is held in memory (the schedule, the summary's tallies).
            raise ConfigError(f"{teams:,} teams make {_round_robin_size(teams, self.mode):,} "
                              f"matchups, more than the {MAX_MATCHUPS:,} a tournament holds; "
                              "name fewer spymasters or guessers, or list the 'matchups' "
                              "to play")
        matchups = self.explicit_matchups or _round_robin(tuple(
            TeamRef(s, g) for s, g in itertools.product(self.spymasters, self.guessers)),
            self.mode)
        width = 2 if self.mode is Mode.TWO_TEAM else 1
        for matchup in matchups:
            if len(matchup) != width:
                raise ConfigError(f"a {self.mode.value} matchup has {width} team(s), got "
                                  f"{' vs '.join(t.label for t in matchup)}")
            for team in matchup:
                if team.spymaster not in known or team.guesser not in known:
                    raise ConfigError(f"matchup team {team.label!r} names an unknown agent; "
                                      f"known: {', '.join(labels)}")
        object.__setattr__(self, "_teams", tuple(dict.fromkeys(
            t for m in matchups for t in m)))
        object.__setattr__(self, "_matchups", tuple(matchups))

    # --- building -------------------------------------------------------------------------

    def code_modules(self) -> list[str]:
        """The modules this spec imports to build its agents, besides the toolkit's own:
        each ``module:Class`` agent's module and each plugin id's module. Importing a module
        runs its code, so a spec read from a file names code to run."""
        modules = {ref.plugin for ref in self.agents if ref.plugin}
        modules |= {ref.agent.partition(":")[0] for ref in self.agents if ":" in ref.agent}
        return sorted(modules)

    @classmethod
    def from_options(cls, *, spymasters: Sequence[str | Callable[..., Any]],
                     guessers: Sequence[str | Callable[..., Any]], **options: Any
                     ) -> TournamentSpec:
        """A spec from agent ids or ``module:Class`` (as on a command line), or from Python
        classes, stored as the ``module:Class`` another process imports (a class of a script
        run as ``__main__`` under the script's name, so the CLI can resume the run)."""
        spymaster_names = [entry_point_of(a) for a in spymasters]
        guesser_names = [entry_point_of(a) for a in guessers]
        names = list(dict.fromkeys([*spymaster_names, *guesser_names]))
        agents = tuple(AgentRef.of(name, name) for name in names)
        return cls(agents=agents, spymasters=tuple(dict.fromkeys(spymaster_names)),
                   guessers=tuple(dict.fromkeys(guesser_names)), **_coerce(options))

    @classmethod
    def from_toml(cls, path: Path, **overrides: Any) -> TournamentSpec:
        """Read a TOML spec (see the README); ``overrides`` (not None) replace its keys."""
        try:
            text = read_bounded(path, MAX_SPEC_BYTES).decode("utf-8")
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the tournament spec: "
                              f"{exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start} is not UTF-8); save "
                              "the spec as UTF-8") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        except (ValueError, RecursionError) as exc:  # a number of 4,300+ digits, deep nesting
            first = (str(exc).splitlines() or [type(exc).__name__])[0][:120]
            raise ConfigError(f"{path}: not a usable TOML spec: {first}") from None
        for key, value in overrides.items():
            if value is not None:
                if key in RULE_KEYS:
                    data.setdefault("rules", {})[key] = value
                else:
                    data[key] = value
        try:
            return cls.from_dict(data)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSpec:
        """The inverse of ``to_dict`` (also the shape of a TOML spec)."""
        if not isinstance(data, dict):
            raise ConfigError("a tournament spec must be a table")
        _check_keys(data, SPEC_KEYS, "")
        rules = data.get("rules", {})
        if not isinstance(rules, dict):
            raise ConfigError("'rules' must be a table")
        _check_keys(rules, RULE_KEYS, "rules.")
        configured: dict[str, AgentRef] = {}
        agent_table = data.get("agents") or {}
        if not isinstance(agent_table, dict):
            raise ConfigError("'agents' must be a table of [agents.LABEL] tables")
        for label, entry in agent_table.items():
            _check_name(label, "an agent label")
            if not isinstance(entry, dict):
                raise ConfigError(f"agents.{label} must be a table with 'agent' and 'options'")
            _check_keys(entry, ("agent", "options", "plugin"), f"agents.{label}.")
            if not isinstance(entry.get("agent"), str):
                raise ConfigError(f"agents.{label} needs an 'agent': a registry id or "
                                  "module:Class, in quotes")
            options = entry.get("options", {})
            if not isinstance(options, dict):
                raise ConfigError(f"agents.{label}.options must be a table")
            for key, value in options.items():
                _check_option(f"agents.{label}.options.{key}", value)
            plugin = entry.get("plugin", "")
            if not isinstance(plugin, str) or (plugin and not PLUGIN.match(plugin)):
                raise ConfigError(f"agents.{label}.plugin must be a module name such as "
                                  f"'my_agents', got {_show(plugin)}")
            configured[label] = AgentRef.of(label, entry["agent"],
                                            tuple(sorted(options.items())), plugin)
        spymasters, guessers = _names(data, "spymasters"), _names(data, "guessers")
        agents = dict(configured)
        for name in [*spymasters, *guessers]:
            agents.setdefault(name, AgentRef.of(name, name))
        listed = data.get("matchups", [])
        if not isinstance(listed, list):
            raise ConfigError("'matchups' must be a list of matchups, each a list of "
                              "'spymaster+guesser' teams")
        matchups = tuple(
            tuple(_team(label) for label in ([entry] if isinstance(entry, str) else entry))
            if isinstance(entry, str | list) else _bad_matchup(entry) for entry in listed)
        options = {k: data[k] for k in ("mode", "games", "seed", "swap_sides", "max_turns")
                   if k in data}
        options.update({k: rules[k] for k in RULE_KEYS if k in rules})
        return cls(agents=tuple(agents.values()), spymasters=spymasters, guessers=guessers,
                   explicit_matchups=matchups, **_coerce(options))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; what a results folder stores to recognise its tournament."""
        return {
            "spymasters": list(self.spymasters),
            "guessers": list(self.guessers),
            "agents": {a.label: {"agent": a.agent, "options": dict(a.options),
                                 **({"plugin": a.plugin} if a.plugin else {})}
                       for a in self.agents},
            "matchups": [[t.label for t in m] for m in self.explicit_matchups],
            "mode": self.mode.value,
            "games": self.games,
            "seed": self.seed,
            "swap_sides": self.swap_sides,
            **({"max_turns": self.max_turns} if self.max_turns is not None else {}),
            "rules": {"edition": self.edition, "guess_limit": self.guess_limit,
                      **({"clue_rules": self.clue_rules} if self.clue_rules else {}),
                      **({"move_time_limit": self.move_time_limit}
                         if self.move_time_limit is not None else {})},
        }

    def fingerprint(self) -> str:
        """Identifies the games: everything but their number (a run may be extended)."""
        data = self.to_dict()
        del data["games"]
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def with_games(self, games: int) -> TournamentSpec:
        return replace(self, games=games)

    # --- what to play ---------------------------------------------------------------------

    def settings(self) -> GameSettings:
        """The games' settings, parsed by the core (``ConfigError`` names a wrong one under
        ``rules``): co-op mode plays the co-op variant, and the move time limit is every
        clue's and every guess's budget."""
        try:
            settings = GameSettings.from_mapping({
                "edition": self.edition, "guess_limit": self.guess_limit,
                "clue_rules": self.clue_rules,
                "variant": Variant.COOP.value if self.mode is Mode.COOP else None,
                "clue_seconds": self.move_time_limit, "guess_seconds": self.move_time_limit})
        except ConfigError as exc:
            raise ConfigError(f"rules: {exc}") from None
        if settings.edition is EditionName.CUSTOM:  # a spec has no layout to give it
            raise ConfigError("rules: edition 'custom' needs a layout, which a tournament spec "
                              "does not take; choose words or pictures")
        return settings

    def rules(self) -> RuleSet:
        return self.settings().to_rules()

    @property
    def teams(self) -> tuple[TeamRef, ...]:
        return self._teams

    @property
    def matchups(self) -> tuple[tuple[TeamRef, ...], ...]:
        return self._matchups

    def agent(self, label: str) -> AgentRef:
        return next(a for a in self.agents if a.label == label)

    def turn_limit(self) -> int:
        """The runner's limit on game turns."""
        limit = self.max_turns or DEFAULT_MAX_TURNS[self.mode]
        # In a race the idle team's turns alternate with the team's own.
        return 2 * limit - 1 if self.mode is Mode.SINGLE_TEAM else limit

    def task(self, index: int) -> GameTask:
        """Game ``index`` of the schedule (see the module docstring)."""
        if not 0 <= index < self.games:
            raise ConfigError(f"game {index} is outside 0..{self.games - 1}")
        count = len(self._matchups)
        mirrored = self.mode is Mode.TWO_TEAM and self.swap_sides
        step = index // 2 if mirrored else index
        matchup, board = step % count, step // count
        teams = self._matchups[matchup]
        seed = derive_seed(self.seed, f"board {board}")
        if self.mode is not Mode.TWO_TEAM:
            return GameTask(index, matchup, board, seed, teams[0], None)
        first, second = teams
        if mirrored and index % 2:
            first, second = second, first
        return GameTask(index, matchup, board, seed, first, second)


def _round_robin_size(teams: int, mode: Mode) -> int:
    if mode is not Mode.TWO_TEAM:
        return teams
    return 1 if teams == 1 else teams * (teams - 1) // 2


def _round_robin(teams: tuple[TeamRef, ...], mode: Mode) -> tuple[tuple[TeamRef, ...], ...]:
    if mode is not Mode.TWO_TEAM:
        return tuple((t,) for t in teams)
    if len(teams) == 1:
        return ((teams[0], teams[0]),)  # self-play
    return tuple(itertools.combinations(teams, 2))


def _team(label: Any) -> TeamRef:
    spymaster, plus, guesser = label.partition("+") if isinstance(label, str) else ("", "", "")
    if not plus or not spymaster or not guesser:
        raise ConfigError(f"matchup team {_show(label)} must be written 'spymaster+guesser'")
    return TeamRef(spymaster, guesser)


def _bad_matchup(entry: Any) -> tuple[TeamRef, ...]:
    raise ConfigError(f"matchup {_show(entry)} must be a list of 'spymaster+guesser' teams")


def _names(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip()
                                                           for v in value):
        raise ConfigError(f"'{key}' must list at least one agent (registry id, module:Class "
                          "or a label from [agents]), each in quotes")
    names = tuple(dict.fromkeys(v.strip() for v in value))
    for name in names:
        _check_name(name, f"an entry of '{key}'")
    return names


MAX_NAME = 200
MAX_GAMES = 10_000_000  # the schedule and the results index are lists of this length
MAX_MATCHUPS = 100_000  # a round robin of 447 teams
MAX_SEED = 2**64
MAX_MOVE_SECONDS = 86_400


def _show(value: Any) -> str:
    """A value for a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_name(name: Any, what: str) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or \
            not name.isprintable() or not is_text(name):
        raise ConfigError(f"{what} must be a short printable name, got {_show(name)}")
    if "+" in name:
        raise ConfigError(f"{what} must not contain '+' (it joins a team's spymaster and "
                          f"guesser), got {_show(name)}")


def _check_option(where: str, value: Any, depth: int = 0) -> None:
    """Option values are what JSON holds (tournament.json stores them): text, numbers,
    true/false, lists and tables of those."""
    if depth > 20:
        raise ConfigError(f"{where} is nested too deeply")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_option(f"{where}.{key}", item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_option(where, item, depth + 1)
    elif isinstance(value, str):
        if not is_text(value):
            raise ConfigError(f"{where} is not valid text")
    elif not isinstance(value, bool | int | float):
        raise ConfigError(f"{where}: a {type(value).__name__} cannot be an agent option; "
                          "give text, a number, true/false, a list or a table")


def _check_keys(data: dict[str, Any], known: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean '{prefix}{close[0]}'?" if close else ""
            raise ConfigError(f"unknown key '{prefix}{key}'{hint} (known: "
                              f"{', '.join(prefix + k for k in known)})")


def _coerce(options: dict[str, Any]) -> dict[str, Any]:
    """Check the types of the scalar options (TOML and the command line give them)."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if value is None:
            continue
        if key == "mode":
            try:
                out[key] = Mode(value)
            except ValueError:
                raise ConfigError(f"mode {_show(value)} is not one of "
                                  f"{', '.join(m.value for m in Mode)}") from None
        elif key in ("games", "seed", "max_turns"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"'{key}' must be a whole number, got {_show(value)}")
            if key == "seed" and not -MAX_SEED < value < MAX_SEED:
                raise ConfigError(f"'seed' must be below 2**64 in size, got {_show(value)}")
            if key == "games" and value > MAX_GAMES:
                raise ConfigError(f"'games' must be at most {MAX_GAMES:,}, got {value:,}")
            out[key] = value
        elif key == "swap_sides":
            if not isinstance(value, bool):
                raise ConfigError(f"'swap_sides' must be true or false, got {_show(value)}")
            out[key] = value
        elif key == "move_time_limit":
            if not isinstance(value, int | float) or isinstance(value, bool) or \
                    isinstance(value, float) and not math.isfinite(value) or \
                    not 0 < value <= MAX_MOVE_SECONDS:
                raise ConfigError("'rules.move_time_limit' must be seconds, more than 0 and "
                                  f"at most {MAX_MOVE_SECONDS:,}, got {_show(value)}")
            out[key] = float(value)
        else:
            if not isinstance(value, str) or not is_text(value):
                raise ConfigError(f"'rules.{key}' must be a name, got {_show(value)}")
            out[key] = value
    return out
