"""A game played through the web page: its settings, the AI seats, the moves, and the view
each kind of client may see.

The server keeps no state but the moves: a game is its config plus the list of moves (the
person's and the AIs'), so after a restart it is rebuilt by re-applying them. Each AI move
is seeded from the game seed and the move number, so the AIs play the same whether or not
the server restarted in between.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..agents.explain import TouchExplanation
from ..agents.levels import LEVELS, ai_seat, opposes_people
from ..agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    LEVEL_SPYMASTER,
    PERSON_PARTNER_GUESSER,
    REGISTRY,
    did_you_mean,
    make_agent,
    partner_guesser,
    registered,
    strength_options,
)
from ..agents.spymasters import Strength
from ..core import (
    DEFAULT_LEVEL,
    SEED_BITS,
    AgentError,
    Clue,
    ConfigError,
    Cover,
    GameSettings,
    Guess,
    IllegalActionError,
    Level,
    Match,
    MoveResult,
    OutsideSeat,
    Phase,
    PlayRole,
    PublicView,
    Role,
    RuleSet,
    Seats,
    SpymasterView,
    Team,
    Variant,
    action_from_dict,
    clue_number_to_json,
    deal,
)
from ..core.choices import CLUE_RULE_NAMES, EDITION_NAMES
from ..core.choices import LEVEL_ROLES as CORE_LEVEL_ROLES
from ..core.errors import quoted, quoted_some
from ..core.events import Event, GuessMade, event_to_dict
from ..core.state import GameState
from ..decks import WORD_DECKS, default_deck, word_deck
from ..pictures import shipped_picture
from ..render import describe_event, describe_outcome

# The lists are the core's and the registry's (``core.choices``); the web has no
# three-player solo game (a room plays it).
ROLES = tuple(r.value for r in PlayRole if r is not PlayRole.THREE_PLAYER)
DECKS = (*WORD_DECKS, "pictures")
STRENGTHS = tuple(s.value for s in Strength)
CLUE_RULES = CLUE_RULE_NAMES
LEVEL_ROLES = tuple(r.value for r in CORE_LEVEL_ROLES)
# A move without the page's ``expect``, or with a malformed one
EXPECT_NEEDED = ("a move must send \"expect\" as the last view's \"expect\" (the deal the page "
                 "shows and how many moves it saw); reload the page")
# The settings of a web game that are the core's (``GameSettings``), by the same names.
SETTINGS = ("edition", "clue_rules", "guess_limit", "level", "variant")
# A stored game made before levels existed was played against today's "hard" team.
STORED_LEVEL = Level.HARD.value


@dataclass(frozen=True)
class GameConfig:
    """What the setup form chooses. The person plays red (or the starting team in co-op)."""

    role: str = "guess"
    edition: str = "words"
    deck: str = ""  # "" = the edition's own deck
    clue_rules: str = ""  # "" = the edition's default
    guess_limit: str = "classic"
    strength: str = "normal"
    level: str = DEFAULT_LEVEL.value
    seed: int = 1
    spymaster: str = DEFAULT_SPYMASTER
    guesser: str = ""  # "" = by who gives the clues (``partner_guesser``)
    variant: str = "standard"

    @classmethod
    def from_dict(cls, data: object) -> GameConfig:
        if not isinstance(data, dict):
            raise ConfigError("the game settings must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown setting(s) {quoted_some(unknown)}; known: "
                              f"{', '.join(sorted(known))}")
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            wanted = int if f.name == "seed" else str
            if not isinstance(value, wanted) or isinstance(value, bool):
                raise ConfigError(f"setting {f.name!r} must be a "
                                  f"{'whole number' if wanted is int else 'string'}")
            values[f.name] = value
        config = cls(**values)
        config.check()
        return config

    @classmethod
    def from_stored(cls, data: object) -> GameConfig:
        """A game's settings as the store keeps them: one stored before levels existed has
        no ``level`` and was played against the ``hard`` team, so it replays as one."""
        if isinstance(data, dict) and "level" not in data:
            data = {**data, "level": STORED_LEVEL}
        return cls.from_dict(data)

    def check(self) -> None:
        """``ConfigError`` names the first setting this server cannot play: the game's
        settings as the core parses them (``settings``), then what only the web chooses."""
        self.settings()
        # The web offers the boxed editions and the preset clue rules (no custom layout,
        # no house rules: the setup form has no place for them).
        choices = {"role": ROLES, "edition": EDITION_NAMES, "deck": ("", *DECKS),
                   "clue_rules": ("", *CLUE_RULE_NAMES), "strength": STRENGTHS}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ConfigError(f"{name} {quoted(getattr(self, name))} is not one of "
                                  f"{', '.join(a or '(default)' for a in allowed)}")
        for name, role, ids in (("spymaster", Role.SPYMASTER, (self.spymaster,)),
                                ("guesser", Role.GUESSER, self.guessers())):
            for agent_id in ids:
                _check_agent(name, agent_id, role)
        if not 0 <= self.seed < 2**SEED_BITS:
            raise ConfigError(f"seed must be a whole number from 0 to 2**{SEED_BITS} - 1")

    def settings(self) -> GameSettings:
        """The game's settings, parsed by the core (``ConfigError`` names a wrong one): clue
        rules "" are the edition's own, and a co-op role plays the co-op variant."""
        named = {name: getattr(self, name) for name in SETTINGS}
        settings = GameSettings.from_mapping({**named, "clue_rules": self.clue_rules or None})
        if self.role == PlayRole.COOP.value:
            settings = replace(settings, variant=Variant.COOP)
        return settings

    def guessers(self) -> tuple[str, ...]:
        """The AI guessers this game may seat: the one chosen, or both defaults (beside an
        AI spymaster and beside a person's clues)."""
        return tuple(dict.fromkeys(partner_guesser(self.guesser, person_clues=clues)
                                   for clues in (False, True)))

    def rules(self) -> RuleSet:
        return self.settings().to_rules()

    def cards(self) -> tuple[str, ...]:
        deck = self.deck or ("pictures" if self.edition == "pictures" else "words")
        needed = self.rules().layout.cells
        if deck == "pictures":
            return default_deck("pictures", needed=needed)
        return word_deck(deck, needed=needed)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Offer:
    """The AIs a server offers its clients (``codenames serve --agents``). Each AI offered
    can cost the server its models and clue spaces, so a host may offer fewer: the default
    AIs and the levels' AIs (whose tables are prepared on disk) are always offered, since
    every game's other team and a room's AI seats play with them."""

    spymasters: tuple[str, ...]
    guessers: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Offer:
        """``all`` (every agent this install can build), ``default`` (the default AIs and
        the levels' AIs), or registry ids separated by commas, offered beside those (``default``
        among them changes nothing).
        ``ConfigError`` names an id that is not an available agent."""
        parts = (part.strip() for part in text.split(","))
        chosen = [part for part in parts if part not in ("", "default")]
        if "all" in chosen:
            return cls(*(tuple(s.agent_id for s in registered(role, available_only=True))
                         for role in (Role.SPYMASTER, Role.GUESSER)))
        for agent_id in chosen:
            spec = REGISTRY.get(agent_id)
            if spec is None or not spec.available:
                known = ", ".join(s.agent_id for s in registered(available_only=True))
                raise ConfigError(f"--agents: {agent_id!r} is not an agent this install can "
                                  f"build; {did_you_mean(agent_id, available_only=True)}give "
                                  f"all, default, or ids among: {known}")
        ids = dict.fromkeys([DEFAULT_SPYMASTER, LEVEL_SPYMASTER, DEFAULT_GUESSER,
                             PERSON_PARTNER_GUESSER, *chosen])
        return cls(*(tuple(i for i in ids if REGISTRY[i].role is role)
                     for role in (Role.SPYMASTER, Role.GUESSER)))

    def check(self, config: GameConfig) -> None:
        """``ConfigError`` if ``config`` chooses an AI this server does not offer (a
        guesser "" is by who gives the clues: the defaults, always offered)."""
        for name, offered in (("spymaster", self.spymasters), ("guesser", self.guessers)):
            chosen = getattr(config, name)
            if chosen and chosen not in offered:
                raise ConfigError(f"{name} {quoted(chosen)} is not offered by this server; choose "
                                  f"one of: {', '.join(offered)}")


# A seat of a game by name: its team and role. ``None`` for the team: co-op's players'
# team (whichever starts the deal), or three-player's one guesser, who guesses for both.
SeatMap = dict[str, tuple[Team | None, Role]]
# The seat of a person playing alone, by their role ("watch": none, an AI-only game).
SOLO_SEATS: dict[str, SeatMap] = {
    "guess": {"you": (Team.RED, Role.GUESSER)}, "spymaster": {"you": (Team.RED, Role.SPYMASTER)},
    "coop": {"you": (None, Role.GUESSER)}, "watch": {}}


class WebGame:
    """A game between people's seats and AI seats, rebuilt from its moves: played alone
    (``solo``) or in a room (its variant's seats).

    ``seats`` names the seats that people may hold and ``people`` those they hold now; every
    other seat is the AI's. A game with no seats at all is an AI-only game (watched): the
    AIs play it and its spectators see the key. A game with seats but nobody in them waits:
    the AIs do not play it out alone.
    """

    def __init__(self, config: GameConfig, moves: list[dict[str, Any]] | None = None, *,
                 seats: SeatMap, people: frozenset[str] = frozenset()) -> None:
        self.config = config
        # The stored game's id, set by whoever stores it (``Games``, a room); the deal's name
        # is derived from it, so a new deal (a new stored game) has a new name.
        self.game_id = ""
        rules = config.rules()
        self.state = GameState(rules, deal(rules, config.cards(), config.seed))
        self.moves: list[dict[str, Any]] = []
        self.seats = seats
        self.people = set(people)
        self._agents: dict[tuple[Team, Role, str, bool], Any] = {}
        self._seats_built: Seats | None = None
        # For each event of the state, the number of the move that made it.
        self._event_moves: list[int] = []
        # Each AI clue with the turn and team it was given in, and why (for the end screen).
        self._clues: list[dict[str, Any]] = []
        for move in moves or []:
            self._apply(move)

    @classmethod
    def solo(cls, config: GameConfig, moves: list[dict[str, Any]] | None = None) -> WebGame:
        """A game played alone: the person holds the seat of their role."""
        seats = SOLO_SEATS[config.role]
        return cls(config, moves, seats=seats, people=frozenset(seats))

    @property
    def person_seat(self) -> str | None:
        """The seat a game played alone shows (None: watching)."""
        return next(iter(self.seats), None)

    # --- moves ------------------------------------------------------------------------------

    @property
    def deal(self) -> str:
        """The name of this deal, which a page echoes with its moves (``expect``): a digest
        of the stored game's id, never of the secret seed. A new deal in a room is a new
        stored game, so a move sent for the last deal cannot land on this one."""
        return hashlib.sha256(self.game_id.encode()).hexdigest()[:16]

    @property
    def expect(self) -> dict[str, Any]:
        """What a page sends back with its next move: the deal it shows and how many moves
        it has seen of it."""
        return {"deal": self.deal, "moves": len(self.moves)}

    def stale(self, expect: object) -> str | None:
        """Why a move sent with ``expect`` (as a page last received it) is refused, or None
        if the page shows the game as it is. ``ValueError`` if ``expect`` is missing or not
        a deal and a count of moves."""
        if not (isinstance(expect, dict) and set(expect) == {"deal", "moves"}
                and isinstance(expect["deal"], str) and type(expect["moves"]) is int
                and expect["moves"] >= 0):
            raise ValueError(EXPECT_NEEDED)
        if expect["deal"] != self.deal:
            return "this page shows an earlier deal: the game was dealt again since"
        if expect["moves"] != len(self.moves):
            return (f"this page is out of date: the game has {len(self.moves)} moves, the page "
                    f"saw {expect['moves']}")
        return None

    @property
    def current_seat(self) -> str | None:
        """The seat whose move it is, if it is one of ``seats``."""
        role = self.state.current_role
        if self.state.is_over or role is None:
            return None
        team = self.state.current_team
        return next((name for name, (seat_team, seat_role) in self.seats.items()
                     if seat_role is role and seat_team in (team, None)), None)

    @property
    def awaiting_person(self) -> bool:
        return self.current_seat in self.people

    def person_move(self, data: object) -> dict[str, Any]:
        """Check and apply the move of the person playing alone (``IllegalActionError``
        says why it is not allowed); the caller then lets the AIs answer with ``ai_moves``."""
        checked = self._check_move(data)
        if not self.awaiting_person:
            raise IllegalActionError(
                f"it is not your turn: the game waits for the {self.state.current_team.value} "
                f"{self.state.current_role.value if self.state.current_role else ''}")
        move = {"by": "person", **parse_move(checked, self.state, others=("step",))}
        self._apply(move)
        return move

    def seat_move(self, seat: str, data: object) -> dict[str, Any]:
        """Check and apply a move made from a room's ``seat`` (``IllegalActionError`` says
        why not)."""
        checked = self._check_move(data)
        if seat not in self.people:
            raise IllegalActionError(f"the {seat} seat is played by the AI: take it first")
        if self.current_seat != seat:
            raise IllegalActionError(f"it is not your turn: the game waits for the "
                                     f"{self.current_seat}")
        move = {"by": "person", "seat": seat, **parse_move(checked, self.state)}
        self._apply(move)
        return move

    def _check_move(self, data: object) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise IllegalActionError("a move must be a JSON object")
        if self.state.is_over:
            raise IllegalActionError("the game is over")
        return data

    def ai_moves(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Let the AI seats move until a person's turn, the end, or ``limit`` moves; none
        while nobody holds a seat of a game that has seats (it waits for someone to sit)."""
        made: list[dict[str, Any]] = []
        if self.seats and not self.people:
            return made
        try:
            while not self.state.is_over and not self.awaiting_person:
                if limit is not None and len(made) >= limit:
                    break
                made.append(self._ai_move())
        finally:
            self.release_agents()
        return made

    def release_agents(self) -> None:
        """Let go of the AI agents until the next AI move. A game kept in memory between
        requests must not hold its agents' models and clue spaces, or the games in memory
        would keep every model their clients chose, past the bounded caches. (The match
        reseeds every agent before each move, so a rebuilt agent plays the same.)"""
        self._agents.clear()
        self._seats_built = None

    def _ai_move(self) -> dict[str, Any]:
        before = self.state.event_count
        turn, team = self.state.turn, self.state.current_team
        # The core's match asks the seat, reseeded from the game seed and the move number
        # (the same after a server restart); an AI that fails forfeits its move.
        match = Match(self.state, self._seats(), seed=self.config.seed, max_turns=None,
                      contain_faults=True, reseed_every_move=True, first_move=len(self.moves))
        played = match.step()
        move: dict[str, Any]
        if played.result is MoveResult.PLAYED:
            assert played.action is not None  # a played move has its action
            move = played.action.to_dict()
            explanation = getattr(played.agent, "last_explanation", None)
            if isinstance(played.action, Clue) and explanation is not None:
                move["why"] = explanation.describe()
                move["plain"] = explanation.plain()  # for the end screen, in a player's words
            reason = getattr(played.agent, "last_touch_explanation", None)
            if isinstance(played.action, Guess) and isinstance(reason, TouchExplanation) \
                    and (reason.turn, reason.index) == (turn, played.action.index):
                # The guesser's reasons come from its view (no key): the history shows them
                # to every seat as the touch is made.
                move["why"] = reason.describe()
                move["plain"] = reason.plain()
            move["by"] = "ai"
        elif played.result in (MoveResult.TIMED_OUT, MoveResult.FORFEITED):
            # "" replays as a timeout (TimedOut), a reason as a fault (Forfeited)
            move = {"move": "forfeit", "by": "ai", "reason": played.reason or ""}
        else:  # the web stores no stopped game; only a person's seat may stop one
            raise AgentError(played.seat, "stopped the game; an AI seat may not")
        self._record(move, before, turn, team)
        return move

    def _held(self, team: Team, role: Role) -> bool:
        """Whether a person holds ``team``'s ``role`` seat (co-op's and three-player's team
        ``None`` seats play for either team)."""
        return any(self.seats[name][1] is role and self.seats[name][0] in (team, None)
                   for name in self.people)

    def _seats(self) -> Seats:
        """The match's seats: the AIs (built when first needed) and the people's seats."""
        if self._seats_built is None:

            def seat(role: Role) -> Callable[[Team], Any]:
                def build(team: Team) -> Any:
                    return PERSON if self._held(team, role) else self._agent(team, role)
                return build

            self._seats_built = Seats.for_variant(self.state.rules.variant,
                                                  spymaster=seat(Role.SPYMASTER),
                                                  guesser=seat(Role.GUESSER))
        return self._seats_built

    def _agent(self, team: Team, role: Role) -> Any:
        """The AI in ``team``'s ``role`` seat: the configured agents, except a team with no
        person in it playing against people in standard play, whose agents the level chooses
        (the people's own AI teammates are the same at every level). A guesser left to the
        default is the one for whoever gives the team's clues (``partner_guesser``)."""
        people = {self.seats[name][0] for name in self.people}
        variant = self.state.rules.variant
        if role is Role.SPYMASTER:
            agent_id = self.config.spymaster
        else:
            agent_id = partner_guesser(self.config.guesser,
                                       person_clues=self._held(team, Role.SPYMASTER))
        key = (team, role, agent_id, opposes_people(team, variant=variant, people=people))
        if key not in self._agents:
            options: dict[str, Any] = (strength_options(agent_id, self.config.strength)
                                       if role is Role.SPYMASTER else {})
            agent_id, options = ai_seat(self.config.level, role, team, agent_id, options,
                                        variant=variant, people=people)
            self._agents[key] = make_agent(agent_id, role=role, **options)
        return self._agents[key]

    def _apply(self, move: dict[str, Any]) -> None:
        state = self.state
        before, turn, team = state.event_count, state.turn, state.current_team
        if move.get("move") == "forfeit":  # an AI's failed move, as the store keeps it
            state.forfeit(str(move.get("reason", "")) or None)
        else:
            state.apply(action_from_dict(move))
        self._record(move, before, turn, team)

    def _record(self, move: dict[str, Any], before: int, turn: int, team: Team) -> None:
        """Keep an applied move, which made the events from index ``before`` on."""
        number = len(self.moves)
        self.moves.append(move)
        self._event_moves += [number] * (self.state.event_count - before)
        if move.get("move") == "clue" and "why" in move:
            # A game stored before plain words were kept has only the detailed reasons.
            self._clues.append({"turn": turn, "team": team.value, "clue": str(move["word"]),
                                "number": move["number"],
                                "plain": str(move.get("plain") or move["why"]),
                                "detail": str(move["why"])})

    # --- what a client sees ----------------------------------------------------------------

    def view(self, seat: str | None, *, reveal: bool = False) -> dict[str, Any]:
        """The game as ``seat`` may see it (None: a spectator). The key of face-down cards is
        included only for a spymaster seat while a person holds it, or for a spectator of an
        AI-only game, never for a guesser, until the game is over: then every seat gets the
        whole key (``key_at_end``), the AI's reasons for its clues (``explanations``) and the
        seed. ``log`` is the history with each event's turn, team and card; ``recent`` marks
        the AIs' moves since a person's last one (for a spectator, the last move), on the log
        and on the cards they touched. What the seat sees of the table is the core's view
        for it (``GameState.spymaster_view`` or ``public_view``): the web reads no key.
        ``reveal``: the game stops here though it is not over (a closed room): every seat
        gets what it would at the end."""
        state = self.state
        person = self._person(seat)
        your_turn = seat is not None and seat in self.people and self.current_seat == seat
        recent = self._recent_moves(watching=seat is None)
        log = [self._logged(event, number in recent, self.moves[number])
               for event, number in zip(state.events, self._event_moves, strict=True)]
        touched = {entry["index"] for entry in log if entry["recent"] and "index" in entry}
        shown = self._seen(seat, person)
        config = self.config.to_dict()
        if not (state.is_over or reveal):
            # The seed deals the board: with it and this toolkit anyone could compute the key
            # (and the AI's moves), so no client learns it before the game is over.
            config["seed"] = None
        return {
            "config": config,
            "rows": state.rules.layout.rows, "cols": state.rules.layout.cols,
            "edition": state.rules.edition, "clue_rules": state.rules.clue_rules,
            "cards": _cards(shown, touched=touched),
            "turn": state.turn, "phase": state.phase.value,
            "variant": state.rules.variant.value,
            # whose agent the spymaster covers (a virtual turn of co-op, or a penalty)
            "cover": ({"team": state.cover_task.team.value}
                      if state.cover_task is not None else None),
            "current_team": state.current_team.value,
            "current_role": state.current_role.value if state.current_role else None,
            "starting_team": shown.starting_team.value,
            "left": {"red": shown.red_left, "blue": shown.blue_left},
            "clue": _clue(state),
            "history": [entry["line"] for entry in log],
            # The same events with their turn, team and card, for the page to group by turn.
            "log": [{k: v for k, v in entry.items() if k != "line"} for entry in log],
            "you": ({"team": person[0].value, "role": person[1].value}
                    if person else None),
            "your_turn": your_turn,
            "can_pass": state.phase is Phase.GUESS and your_turn
            and state.guesser_view(state.current_team).can_pass,
            "moves": len(self.moves),
            # sent back with the next move, so a double submit, a stale page or a move meant
            # for an earlier deal is refused instead of played
            "expect": self.expect,
            **self._ending(reveal=reveal),
        }

    def _person(self, seat: str | None) -> tuple[Team, Role] | None:
        """The team and role ``seat`` plays now: co-op's seats play for the team that
        starts, three-player's guesser for the team whose turn it is."""
        if seat is None:
            return None
        team, role = self.seats[seat]
        return (team or self.state.real_team or self.state.current_team, role)

    def _seen(self, seat: str | None, person: tuple[Team, Role] | None) -> PublicView:
        """The core's view of the table for ``seat``: a spymaster's (with the key) only
        while a person holds a spymaster seat, or for a spectator of an AI-only game. Whoever
        handed a seat to the AI (or had it handed) has stepped out, and sees no more than the
        table does."""
        team = person[0] if person else self.state.current_team
        if (not self.seats or (person is not None and person[1] is Role.SPYMASTER
                               and seat in self.people)):
            return self.state.spymaster_view(team)
        return self.state.public_view(team)

    def _ending(self, *, reveal: bool = False) -> dict[str, Any]:
        """What every seat sees once the game is over (the outcome, the key, the AI's
        reasons, the seed), or once it stops short (``reveal``), and the level the blue
        team plays at."""
        state, outcome = self.state, self.state.outcome
        over = outcome is not None
        shown = over or reveal
        return {
            "over": over,
            "outcome": describe_outcome(outcome, coop_team=state.real_team) if outcome else None,
            "winner": outcome.winner.value if outcome and outcome.winner else None,
            "coop": {"score": outcome.coop_score, "rating": outcome.coop_rating}
            if outcome and state.rules.variant is Variant.COOP else None,
            # The AI's reasons name the cards it aimed at, and the key is every card's
            # identity: both are shown to every seat, guessers too, only once the game is over.
            "explanations": list(self._clues) if shown else [],
            "key_at_end": _key(state.spymaster_view(state.current_team)) if shown else None,
            # The seed in digits (a page's JSON numbers keep only 53 bits), once it is shown.
            "seed_digits": str(self.config.seed) if shown else None,
            "level": ({"name": self.config.level,
                       "description": LEVELS[Level(self.config.level)].description}
                      if self.config.role in LEVEL_ROLES
                      and state.rules.variant is Variant.STANDARD else None),
        }

    def _recent_moves(self, *, watching: bool) -> set[int]:
        """The moves the page highlights: the AIs' since a person's last move (when
        watching, the last move)."""
        if watching:
            return {len(self.moves) - 1}
        last = max((n for n, m in enumerate(self.moves) if m.get("by") == "person"),
                   default=-1)
        return set(range(last + 1, len(self.moves)))

    @staticmethod
    def _logged(event: Event, recent: bool, move: dict[str, Any]) -> dict[str, Any]:
        """One event as the record format has it (kind, turn, team, card index...), with its
        line of text and whether it is one of the moves the page highlights; an AI's touch
        with its reason (``reason`` in a player's words, ``reason_numbers``), when its
        ``move`` keeps one (a game stored before touches had reasons keeps none)."""
        line = describe_event(event)  # once per event: the history and the log share it
        entry = {**event_to_dict(event), "text": line.strip(), "recent": recent, "line": line}
        if isinstance(event, GuessMade) and move.get("move") == "guess" and "plain" in move:
            entry["reason"] = str(move["plain"])
            entry["reason_numbers"] = str(move.get("why", ""))
        return entry

    def check_clue(self, word: object) -> dict[str, Any]:
        """Would ``word`` be a legal clue now? (For the spymaster's live check.)"""
        if not isinstance(word, str) or not word.strip():
            return {"legal": False, "rule": "one-word", "message": "type one word"}
        violation = self.state.check_clue(Clue(word.strip(), 1))
        if violation is None:
            return {"legal": True, "rule": None, "message": ""}
        return {"legal": False, "rule": violation.rule, "message": violation.message}


def _cards(shown: PublicView, *, touched: set[int]) -> list[dict[str, Any]]:
    """The board's cards as the core's view ``shown`` has them: the key of face-down cards
    only in a spymaster's view; ``touched``: the cards revealed since a person's last
    move."""
    key = _key(shown) if isinstance(shown, SpymasterView) else None
    cards = []
    for i, word in enumerate(shown.words):
        card = shipped_picture(word)  # the web plays the shipped deck only
        revealed = shown.revealed[i]
        cards.append({
            "index": i, "word": word,
            "picture": card.emoji if card else None,
            "tags": list(card.tags) if card else [],
            "revealed": revealed.value if revealed else None,
            "key": key[i] if key else None,
            "recent": i in touched,
        })
    return cards


def _key(spymaster: SpymasterView) -> list[str]:
    """The key, read only from a view the core built for a spymaster (or, once the game is
    over, for anyone): tests/test_views_everywhere.py holds every package to this."""
    return [identity.value for identity in spymaster.key]


def _clue(state: GameState) -> dict[str, Any] | None:
    """The clue the guessers are playing, while they guess."""
    if state.phase is not Phase.GUESS:
        return None
    view = state.guesser_view(state.current_team)
    return {"word": view.clue.word, "number": clue_number_to_json(view.clue.number),
            "guesses_left": view.guesses_left}


def parse_move(data: dict[str, Any], state: GameState, *, others: tuple[str, ...] = ()
               ) -> dict[str, Any]:
    """A person's move as stored (the core's codec), checked against the board now:
    ``IllegalActionError`` says why it cannot be played. ``others``: the moves the caller's
    route takes besides the core's (listed in the error for an unknown one)."""
    action = action_from_dict(data, others=others)
    if isinstance(action, Clue):
        violation = state.check_clue(action)
        if violation is not None:  # the page refuses it; nothing is played
            raise IllegalActionError(f"[{violation.rule}] {violation.message}")
    elif isinstance(action, Guess | Cover):
        index, words = action.index, state.public_view(state.current_team).words
        if not 0 <= index < len(words):
            raise IllegalActionError(f"card {index} is not on the board")
        if state.is_revealed(index):
            raise IllegalActionError(f"{words[index]!r} is already revealed")
    return action.to_dict()


def _check_agent(name: str, agent_id: str, role: Role) -> None:
    """``ConfigError`` unless ``agent_id`` (the setting ``name``'s) is a registered
    ``role`` this server can build."""
    spec = REGISTRY.get(agent_id)
    if spec is None or spec.role is not role:
        known = ", ".join(s.agent_id for s in registered(role, available_only=True))
        raise ConfigError(f"{name} {quoted(agent_id)} is not a registered {role.value}; "
                          f"{did_you_mean(agent_id, role, available_only=True)}known: {known}")
    problem = spec.problem()  # e.g. a model this server has not built
    if problem is not None:
        raise ConfigError(problem)


# The person's seat in the match: their moves come from the page (``person_move``).
PERSON = OutsideSeat("person", "the page")


