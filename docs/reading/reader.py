"""Blind reading: a reader plays games of Codenames as the guesser, with AI spymasters it is
never told about, and rates every clue. See docs/reading.md.

    python docs/reading/reader.py --dir DIR setup --spymasters A,B --games-per 5 --seed 1
    python docs/reading/reader.py --dir DIR setup --levels easy,normal,hard --games-per 2 --seed 1
    python docs/reading/reader.py --dir DIR serve  (in the background; stop-server ends it)
    python docs/reading/reader.py --dir DIR show | touch WORD | stop | rate VERDICT [NOTE] | next
    python docs/reading/reader.py --dir DIR summary [--json]

With ``--spymasters`` each game is a single-team race: the reader's team alone, its spymaster
one of the ids. With ``--levels`` each game is a two-team game: the reader guesses for red
with the default spymaster, against the other team of one of the levels
(``codenames_ai.agents.levels``), whose turns are played when the reader's turn ends.

DIR holds the experimenter's schedule (which spymaster or level plays which game, and each
board) and the reader's actions. A direct call rebuilds the current game by replaying those
actions from the deal, asking the AI seats for their moves again: the registered agents are
deterministic given ``start_game`` (the core's per-seat seeds) and the same calls, so
nothing but the actions needs keeping. ``serve`` keeps the loaded agents and the game in play
in memory and answers the reader's commands on a Unix socket in DIR; it writes the same files
after every action, so a direct call or a new server goes on with the same game.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import io
import json
import random
import signal
import socket
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

SOCKET = ".server.sock"  # in DIR, where a live server listens
LOCK = ".server.lock"  # in DIR, locked by the live server: a second one refuses to start
FORWARDED = ("show", "touch", "stop", "rate", "next", "stop-server")  # what a server runs
MAX_REQUEST = 64 * 1024  # bytes: a request is a command line, never near this


def forward(argv: Sequence[str]) -> int | None:
    """Run a reader's command on the live server for its folder and print what it printed;
    None when no server answers, so the command runs here."""
    # Other spellings of the command line run here, which prints the same.
    if len(argv) < 3 or argv[0] != "--dir" or argv[2] not in FORWARDED or (
            {"-h", "--help"} & set(argv)):
        return None
    request = json.dumps({"argv": list(argv[2:])}).encode() + b"\n"
    if len(request) > MAX_REQUEST:  # a note the length of a book: the server refuses it
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        try:
            client.connect(str(Path(argv[1]) / SOCKET))
        except OSError:  # no server, one that was killed, or a path too long for a socket
            return None
        try:
            client.sendall(request)
            reply = b"".join(iter(lambda: client.recv(65536), b""))  # it closes after it
        except OSError:
            reply = b""
    try:
        answer = json.loads(reply)
        out, err, code = str(answer["out"]), str(answer["err"]), int(answer["code"])
    except (ValueError, TypeError, KeyError):
        print("error: the server stopped during the call; run show to see the table",
              file=sys.stderr)
        return 1
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:  # output cut short (| head), as main allows
        pass
    sys.stderr.write(err)
    return code


if __name__ == "__main__":  # before the project's imports, which alone take 0.2 s a call
    answered = forward(sys.argv[1:])
    if answered is not None:
        sys.exit(answered)

from codenames_ai.agents import REGISTRY, make_agent  # noqa: E402
from codenames_ai.agents.levels import ai_seat  # noqa: E402
from codenames_ai.agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER  # noqa: E402
from codenames_ai.core import (  # noqa: E402
    IDLE,
    WORDS,
    Abandoned,
    Clue,
    ClueGiven,
    CodenamesError,
    Covered,
    EndReason,
    Forfeited,
    Guess,
    GuessMade,
    Identity,
    InvalidClue,
    Level,
    Match,
    OutsideSeat,
    Pass,
    Passed,
    Phase,
    Role,
    Seats,
    Spymaster,
    Team,
    TimedOut,
    Variant,
    deal,
    normalize_word,
)
from codenames_ai.decks import read_word_list  # noqa: E402

DECK = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_nouns.txt"
SCHEDULE = ".schedule.json"  # the experimenter's file: no reader command names or shows it
ACTIONS = "actions.json"
MAX_TURNS = 25  # as codenames_ai.agents.evaluation.single_team; each team's in a two-team game
VERDICTS = ("clear", "stretch", "baffling")
MARKS = {"own": "OWN", "opponent": "OPP", "bystander": "BYS", "assassin": "ASSASSIN"}


class ReaderError(Exception):
    """A bad input or state: one line for the reader and exit code 1."""


# ---------------------------------------------------------------------- files in DIR


@dataclass(frozen=True)
class Scheduled:
    spymaster: str  # the reader's team's
    board: int  # the game's seed: deals the board and starts the agents
    level: Level | None = None  # a two-team game against this level's team; None: a race


@dataclass(frozen=True)
class Schedule:
    games: tuple[Scheduled, ...]
    deck_digest: str


def deck() -> tuple[str, ...]:
    return read_word_list(DECK, needed=WORDS.layout.cells)


def digest(words: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


def load_schedule(folder: Path) -> Schedule:
    path = folder / SCHEDULE
    if not path.is_file():
        raise ReaderError(f"no reading is set up in {folder}; the experimenter runs setup first")
    data = json.loads(path.read_text(encoding="utf-8"))
    return Schedule(tuple(Scheduled(g["spymaster"], g["board"],
                                    Level(g["level"]) if "level" in g else None)
                          for g in data["games"]), data["deck_digest"])


Actions = list[list[dict[str, str]]]  # per game played so far, the reader's actions in order


def load_actions(folder: Path) -> Actions:
    path = folder / ACTIONS
    if not path.is_file():
        return [[]]
    actions: Actions = json.loads(path.read_text(encoding="utf-8"))["games"]
    return actions


def save_actions(folder: Path, actions: Actions) -> None:
    path = folder / ACTIONS
    temporary = path.with_suffix(".tmp")  # a crash mid-write must not lose the log
    temporary.write_text(json.dumps({"games": actions}, indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


# ---------------------------------------------------------------------- one game


@dataclass
class Turn:
    """One clue turn of the reader's team as the reader lived it."""

    number: int
    clue: Clue
    at: int  # the game's turn number (the core's ``GameState.turn``)
    touches: list[tuple[str, str]] = field(default_factory=list)  # (word, what it was)
    verdict: str | None = None
    note: str = ""

    @property
    def failed(self) -> bool:
        """A non-own card was touched, or no own card was found."""
        kinds = [kind for _, kind in self.touches]
        return not kinds or any(kind != "own" for kind in kinds)


class Game:
    """A game of the core's ``Match`` stopped at each of the reader's decisions: a
    single-team race (as ``codenames_ai.agents.evaluation.single_team``: idle seats for the
    other team), or with a level a two-team game, the reader red against the level's team
    (as ``codenames_ai.play.session.seats_for_role`` seats it)."""

    def __init__(self, scheduled: Scheduled, words: Sequence[str]) -> None:
        self.spymaster: Spymaster = make_agent(scheduled.spymaster, role=Role.SPYMASTER)
        board = deal(WORDS, words, scheduled.board)
        self.two_teams = scheduled.level is not None
        reader = OutsideSeat("reader", "its commands")  # the match never asks it
        if scheduled.level is not None:
            self.team = Team.RED
            spymaster_id, spymaster_options = blue_seat(scheduled.level, Role.SPYMASTER)
            guesser_id, guesser_options = blue_seat(scheduled.level, Role.GUESSER)
            seats = Seats.standard(
                red_spymaster=self.spymaster, red_guesser=reader,
                blue_spymaster=make_agent(spymaster_id, role=Role.SPYMASTER,
                                          **spymaster_options),
                blue_guesser=make_agent(guesser_id, role=Role.GUESSER, **guesser_options))
            max_turns: int | None = 2 * MAX_TURNS  # the game's turns: MAX_TURNS each
        else:
            self.team = board.starting_team
            race = ((self.spymaster, reader, IDLE, IDLE) if self.team is Team.RED
                    else (IDLE, IDLE, self.spymaster, reader))
            seats = Seats(*race)
            max_turns = None  # the reader's own turns are counted here (MAX_TURNS)
        self.match = Match.new(WORDS, seats, seed=scheduled.board, board=board,
                               max_turns=max_turns)
        self.state = self.match.state
        self.turns: list[Turn] = []
        self.played: list[dict[str, str]] = []  # the reader's actions, as in ACTIONS
        self.clue_turns = 0  # counted as single_team counts them, invalid clues too
        self._advance()

    # What the game waits for: "touch" (a clue is live), "rate", "next" (over and rated).
    @property
    def waiting_for(self) -> str:
        if self.turns and self.turns[-1].verdict is None and (
                self.state.is_over or self.state.phase is not Phase.GUESS):
            return "rate"
        return "next" if self.state.is_over else "touch"

    def _advance(self) -> None:
        """Play the spymaster's and the other team's moves up to the reader's next decision.
        The other team's turn and the next clue come only once the last clue is rated, so
        the reader rates a clue without having seen what followed it."""
        state = self.state
        while not state.is_over:
            ours = state.current_team is self.team
            if ours and state.phase is Phase.GUESS:
                return
            if self.waiting_for == "rate" and (self.two_teams or (
                    ours and state.phase is Phase.CLUE)):
                return
            if ours and state.phase is Phase.CLUE and not self.two_teams:
                self.clue_turns += 1
                if self.clue_turns > MAX_TURNS:
                    state.abandon()
                    return
            # The spymaster's move, the other team's move (a two-team game; the match
            # abandons it after MAX_TURNS each) or the idle team's forfeit.
            move = self.match.step()
            if (move.team is self.team and isinstance(move.action, Clue)
                    and isinstance(state.events[-1], ClueGiven)):  # not an invalid one
                self.turns.append(Turn(len(self.turns) + 1, move.action, state.turn))

    def kind(self, identity: Identity) -> str:
        if identity is self.team.agent:
            return "own"
        if identity is self.team.other.agent:
            return "opponent"
        return identity.value

    def touch(self, word: str) -> str:
        self._require("touch")
        wanted = normalize_word(word)
        words = [normalize_word(w) for w in self.state.board.words]
        if wanted not in words:
            raise ReaderError(f"no card {word!r} on the board")
        index = words.index(wanted)
        if self.state.is_revealed(index):
            raise ReaderError(f"{self.state.board.words[index]!r} is already turned over")
        self.state.apply(Guess(index))
        kind = self.kind(self.state.board.key[index])
        self.turns[-1].touches.append((self.state.board.words[index], kind))
        self._advance()
        what = {"own": "one of your agents",
                "opponent": ("one of the other team's agents" if self.two_teams
                             else "an opponent's agent"),
                "bystander": "a bystander", "assassin": "the assassin"}[kind]
        return f"{self.state.board.words[index]}: {what}. {self._after_touch()}"

    def stop(self) -> str:
        self._require("touch")
        if not self.turns[-1].touches:
            raise ReaderError("touch at least one card before you stop")
        self.state.apply(Pass())
        self._advance()
        return "You stopped; the turn is over."

    def rate(self, verdict: str, note: str, shown: str | None = None) -> str:
        if verdict not in VERDICTS:
            raise ReaderError(f"the verdict is one of {', '.join(VERDICTS)}, not {verdict!r}")
        if self.waiting_for == "touch":
            raise ReaderError("the turn is still going: touch a card or stop first")
        turn = self.turns[-1] if self.turns else None
        if turn is None or turn.verdict is not None:
            raise ReaderError("this clue is already rated")
        if shown is not None and shown != clue_text(turn.clue):
            raise ReaderError("this game no longer replays as it was played (the spymaster "
                              "or the word list changed); tell the experimenter")
        turn.verdict, turn.note = verdict, note
        self._advance()
        rated = f"Rated {clue_text(turn.clue)} as {verdict}."
        theirs = [line for at, ours, line in history(self) if not ours and at > turn.at]
        return "\n".join([rated, *(f"The other team played. {line}" for line in theirs)])

    def _require(self, move: str) -> None:
        waiting = self.waiting_for
        if waiting == move:
            return
        over = "the game is over" if self.state.is_over else "the turn is over"
        if waiting == "rate":
            raise ReaderError(f"{over}: rate the last clue first: rate clear|stretch|baffling "
                              "[NOTE]")
        raise ReaderError("the game is over: run next for the next game")

    def _after_touch(self) -> str:
        if self.state.is_over:
            return "The game is over."
        if self.waiting_for == "rate":
            return "The turn is over."
        left = self.state.guesses_left
        return "The turn goes on" + ("." if left is None else f" ({touches(left)} left).")

    def replay(self, actions: Sequence[dict[str, str]]) -> None:
        for action in actions:
            apply(self, action)

    def result(self) -> str:
        outcome = self.state.outcome
        assert outcome is not None
        if self.two_teams:
            return {
                "reader-cleared": f"Won: all your agents found in {len(self.turns)} turns.",
                "reader-cleared-by-other": "Won: the other team touched your last agent.",
                "assassin-by-other": "Won: the other team touched the assassin.",
                "other-cleared": "Lost: the other team found all its agents.",
                "other-cleared-by-reader": "Lost: you touched the other team's last agent.",
                "assassin-by-reader": "Lost: you touched the assassin.",
                "turn-limit": f"Nobody won: the game stopped after {MAX_TURNS} turns each.",
            }[self.ending]
        if outcome.winner is self.team:
            return f"Won: all your agents found in {len(self.turns)} turns."
        if outcome.reason is EndReason.ASSASSIN:
            return "Lost: you touched the assassin."
        if outcome.reason is EndReason.AGENTS_COVERED:
            return "Lost: you touched the opponent's last agent."
        return f"Lost: your agents were not all found in {MAX_TURNS} turns."

    @property
    def ending(self) -> str:
        """How a finished two-team game ended: whose agents were all covered (and by whose
        touch, when the other team's), who touched the assassin, or the turn limit."""
        outcome = self.state.outcome
        assert outcome is not None
        last = next((e for e in reversed(self.state.events)
                     if isinstance(e, GuessMade | Covered)), None)
        by = None if last is None else ("reader" if last.team is self.team else "other")
        if outcome.reason is EndReason.ASSASSIN:
            return f"assassin-by-{by}"
        if outcome.reason is not EndReason.AGENTS_COVERED or outcome.winner is None:
            return "turn-limit"
        side = "reader" if outcome.winner is self.team else "other"
        # A touch of the last card of the team that did not touch it (a penalty cover is
        # made on the covered team's own side).
        touched_by = by if isinstance(last, GuessMade) else side
        return f"{side}-cleared" + ("" if touched_by == side else f"-by-{touched_by}")

    @property
    def clue_turns_taken(self) -> int:
        """The reader's team's clue turns so far, invalid clues too."""
        return sum(isinstance(e, ClueGiven | InvalidClue) and e.team is self.team
                   for e in self.state.events)


def touches(count: int) -> str:
    return f"{count} touch" + ("" if count == 1 else "es")


def clue_text(clue: Clue) -> str:
    return f"{clue.word} {clue.number}"


def apply(game: Game, action: dict[str, str]) -> str:
    """Play one stored or new reader action; raises ``ReaderError`` on a bad one, before
    any move."""
    if action["do"] == "touch":
        said = game.touch(action["word"])
    elif action["do"] == "stop":
        said = game.stop()
    else:
        said = game.rate(action["verdict"], action.get("note", ""), action.get("clue"))
    game.played.append(action)
    return said


# ---------------------------------------------------------------------- what the reader sees


def render(game: Game, number: int, total: int) -> str:
    """The table as the reader sees it: no key, no spymaster, nothing of the schedule."""
    state = game.state
    own_total = state.board.count(game.team.agent)
    if game.two_teams:
        other = game.team.other
        lines = [f"Game {number} of {total}, your turn {max(len(game.turns), 1)}. "
                 f"Your agents: {state.cards_left(game.team)} of {own_total} left to find; "
                 f"the other team's: {state.cards_left(other)} of "
                 f"{state.board.count(other.agent)}.", ""]
    else:
        lines = [f"Game {number} of {total}, turn {max(len(game.turns), 1)}. "
                 f"Your agents: {state.cards_left(game.team)} of {own_total} left to find.", ""]
    cells = []
    for index, word in enumerate(state.board.words):
        mark = (f":{MARKS[game.kind(state.board.key[index])]}"
                if state.is_revealed(index) else "")
        cells.append(word + mark)
    width = max(len(cell) for cell in cells) + 2
    cols = WORDS.layout.cols
    for row in range(WORDS.layout.rows):
        lines.append("  " + "".join(c.ljust(width) for c in cells[row * cols:(row + 1) * cols])
                     .rstrip())
    if game.two_teams:
        lines += ["", "Turned cards: OWN your team's agent, OPP the other team's, BYS "
                      "bystander, ASSASSIN the assassin.", *(line for _, _, line in history(game))]
    else:
        lines += ["", "Turned cards: OWN your agent, OPP opponent's agent, BYS bystander, "
                      "ASSASSIN the assassin."]
        earlier = game.turns[:-1] if game.waiting_for == "touch" else game.turns
        for turn in earlier:
            touched = ", ".join(f"{w} ({k})" for w, k in turn.touches) or "nothing"
            rated = f" [{turn.verdict}]" if turn.verdict else ""
            lines.append(f"Turn {turn.number}: {clue_text(turn.clue)} -> {touched}{rated}")
    lines.append("")
    waiting = game.waiting_for
    if waiting == "touch":
        turn = game.turns[-1]
        left = state.guesses_left
        limit = "no touch limit" if left is None else f"{touches(left)} left this turn"
        lines.append(f"Clue: {clue_text(turn.clue)}  ({limit})")
        if turn.touches:
            lines.append("Touched this turn: "
                         + ", ".join(f"{w} ({k})" for w, k in turn.touches))
        lines.append("Next: touch WORD" + (", or stop." if turn.touches else "."))
        return "\n".join(lines)
    if state.is_over:
        lines.append(game.result())
    if waiting == "rate":
        lines.append(f"Rate the clue {clue_text(game.turns[-1].clue)}: "
                     "rate clear|stretch|baffling [NOTE]")
    elif number < total:
        lines.append(f"Next: next (game {number + 1} of {total}).")
    else:
        lines.append("All games are done. Thank you.")
    return "\n".join(lines)


TeamEvent = ClueGiven | InvalidClue | GuessMade | Passed | TimedOut | Forfeited | Covered


def history(game: Game) -> list[tuple[int, bool, str]]:
    """A two-team game's finished turns of both teams, in order, as the table saw them: each
    clue, each touch with what the card turned out to be, a stop, a penalty cover. Per turn
    the game's turn number, whether it was the reader's team's, and the line."""
    live = game.state.turn if game.waiting_for == "touch" else None
    rated = {turn.at: turn for turn in game.turns}
    by_turn: dict[int, list[TeamEvent]] = {}
    for event in game.state.events:
        if event.turn != live and not isinstance(event, Abandoned):  # the result says so
            by_turn.setdefault(event.turn, []).append(event)
    lines: list[tuple[int, bool, str]] = []
    theirs = 0
    for at, events in sorted(by_turn.items()):
        ours = events[0].team is game.team
        said = ""
        for event in events:
            if isinstance(event, ClueGiven):
                said = f"{clue_text(event.clue)} ->"
            elif isinstance(event, InvalidClue):
                said = "a clue the rules do not allow, so the turn was lost"
            elif isinstance(event, GuessMade):
                said += f" {event.word} ({game.kind(event.identity)}),"
            elif isinstance(event, Passed):
                said += " then stopped,"
            elif isinstance(event, Covered):
                said += (f" and {event.word} ({game.kind(event.team.agent)}) was covered as "
                         "the penalty,")
        said = said.rstrip(",").replace("-> then", "-> nothing, then")
        said += " nothing" if said.endswith("->") else ""
        if ours:
            turn = rated.get(at)
            label = f"Your turn {turn.number}" if turn else "Your turn"
            verdict = f" [{turn.verdict}]" if turn and turn.verdict else ""
            lines.append((at, True, f"{label}: {said}{verdict}"))
        else:
            theirs += 1
            lines.append((at, False, f"Their turn {theirs}: {said}"))
    return lines


# ---------------------------------------------------------------------- commands


@dataclass
class Kept:
    """The game in play, which a server keeps between requests (a direct call makes one)."""

    number: int = 0  # in the schedule, from 1
    game: Game | None = None


KEPT = Kept()


def current(folder: Path) -> tuple[Schedule, Actions, Game]:
    schedule = load_schedule(folder)
    words = deck()
    if digest(words) != schedule.deck_digest:
        raise ReaderError("the word list changed since setup; tell the experimenter")
    actions = load_actions(folder)
    kept = KEPT.game if KEPT.number == len(actions) else None
    if kept is not None and kept.played == actions[-1]:  # nothing else played meanwhile
        return schedule, actions, kept
    game = Game(schedule.games[len(actions) - 1], words)
    game.replay(actions[-1])
    KEPT.number, KEPT.game = len(actions), game
    return schedule, actions, game


def check_card(folder: Path, word: str) -> None:
    """Refuse a card that is not on the board, or that the reader touched already, before
    the slow replay (it loads the clue rules' language data): the deal and the log suffice."""
    schedule = load_schedule(folder)
    actions = load_actions(folder)
    words = {normalize_word(w): w
             for w in deal(WORDS, deck(), schedule.games[len(actions) - 1].board).words}
    wanted = normalize_word(word)
    if wanted not in words:
        raise ReaderError(f"no card {word!r} on the board")
    if any(normalize_word(a.get("word", "")) == wanted for a in actions[-1]):
        raise ReaderError(f"{words[wanted]!r} is already turned over")


def cmd_setup(args: argparse.Namespace) -> str:
    folder: Path = args.dir
    if (folder / SCHEDULE).exists():
        raise ReaderError(f"{folder} already holds a reading; use a new folder")
    listed = args.spymasters if args.levels is None else args.levels
    ids = [name.strip() for name in listed.split(",") if name.strip()]
    for name in ids:
        if args.levels is not None:
            check_level(name)
            continue
        spec = REGISTRY.get(name)
        if spec is None or spec.role is not Role.SPYMASTER:
            known = ", ".join(sorted(n for n, s in REGISTRY.items() if s.role is Role.SPYMASTER))
            raise ReaderError(f"{name!r} is not a registered spymaster; known: {known}")
        make_agent(name)  # fail now, not in the middle of a reader's game
    if not ids or args.games_per < 1:
        raise ReaderError(f"give at least one {'spymaster' if args.levels is None else 'level'}"
                          " and --games-per 1 or more")
    rng = random.Random(args.seed)
    order = [name for name in ids for _ in range(args.games_per)]
    rng.shuffle(order)
    boards = rng.sample(range(1, 2**31), len(order))  # every game its own board
    games: list[dict[str, Any]] = (
        [{"spymaster": s, "board": b} for s, b in zip(order, boards, strict=True)]
        if args.levels is None else
        [{"level": lv, "spymaster": DEFAULT_SPYMASTER, "board": b}
         for lv, b in zip(order, boards, strict=True)])
    folder.mkdir(parents=True, exist_ok=True)
    data = {"seed": args.seed, "deck_digest": digest(deck()), "games": games}
    (folder / SCHEDULE).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    save_actions(folder, [[]])
    return (f"Scheduled {len(order)} game{'s' * (len(order) != 1)} in {folder}. "
            "Readers start with: show")


def check_level(name: str) -> None:
    """Refuse a name that is not a level, and build the level's agents and the reader's
    spymaster now, not in the middle of a reader's game."""
    try:
        level = Level(name)
    except ValueError:
        raise ReaderError(f"{name!r} is not a level; known: "
                          f"{', '.join(lv.value for lv in Level)}") from None
    make_agent(DEFAULT_SPYMASTER)
    for role in (Role.SPYMASTER, Role.GUESSER):
        agent_id, options = blue_seat(level, role)
        make_agent(agent_id, role=role, **options)


def blue_seat(level: Level, role: Role) -> tuple[str, dict[str, Any]]:
    """The registry id and options of the level's team's ``role`` seat (blue) against the
    reader (red), seated as every game against a person seats it (``ai_seat``)."""
    person = DEFAULT_SPYMASTER if role is Role.SPYMASTER else DEFAULT_GUESSER
    return ai_seat(level, role, Team.BLUE, person, {}, variant=Variant.STANDARD,
                   people={Team.RED})


def cmd_show(args: argparse.Namespace) -> str:
    schedule, actions, game = current(args.dir)
    return render(game, len(actions), len(schedule.games))


def reader_action(action: dict[str, str]) -> Callable[[argparse.Namespace], str]:
    """A command that plays one action, saves it, and shows the table after it."""
    def run(args: argparse.Namespace) -> str:
        if action["do"] == "touch":
            check_card(args.dir, args.word)
        schedule, actions, game = current(args.dir)
        stored = dict(action)
        if action["do"] == "touch":
            stored["word"] = args.word
        elif action["do"] == "rate":
            stored.update(verdict=args.verdict, note=" ".join(args.note))
            if game.turns:
                stored["clue"] = clue_text(game.turns[-1].clue)
        said = apply(game, stored)
        actions[-1].append(stored)
        save_actions(args.dir, actions)
        return said + "\n\n" + render(game, len(actions), len(schedule.games))
    return run


def cmd_next(args: argparse.Namespace) -> str:
    schedule, actions, game = current(args.dir)
    waiting = game.waiting_for
    if waiting != "next":
        raise ReaderError("rate the last clue first" if waiting == "rate"
                          else "this game is not over yet")
    if len(actions) >= len(schedule.games):
        raise ReaderError("all games are done; there is no next game")
    actions.append([])
    save_actions(args.dir, actions)
    following = Game(schedule.games[len(actions) - 1], deck())
    KEPT.number, KEPT.game = len(actions), following
    return render(following, len(actions), len(schedule.games))


# ---------------------------------------------------------------------- the server


def cmd_serve(args: argparse.Namespace) -> str:
    folder: Path = args.dir
    load_schedule(folder)
    with ((folder / LOCK).open("a") as lock,
          socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server):
        try:  # the kernel drops the lock when its holder dies, even by SIGKILL
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ReaderError(f"a server already runs for {folder}") from None
        address = folder / SOCKET
        stopper = Stopper()
        signal.signal(signal.SIGTERM, stopper)
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # as a shell's `&` leaves it
            signal.signal(signal.SIGINT, stopper)
        try:
            address.unlink(missing_ok=True)  # left by a killed server: the lock says none runs
            try:
                server.bind(str(address))
            except OSError as exc:
                raise ReaderError(f"cannot listen on {address}: {exc}") from None
            server.listen(8)  # callers wait in line while the game loads
            current(folder)  # load the agents and the game now, not on the first call
            print(f"Serving {folder}; stop with: reader.py --dir {folder} stop-server",
                  flush=True)
            while answer_one(server, folder, stopper):
                pass
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM, between requests
            pass
        finally:
            address.unlink(missing_ok=True)
    return "Server stopped."


class Stopper:
    """The handler of SIGTERM and Ctrl-C: stop at once between requests, else once the
    request in hand is answered (blocking the signals would not do: the model libraries' own
    threads would take them)."""

    def __init__(self) -> None:
        self.busy = False
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.busy:
            raise KeyboardInterrupt
        self.asked = True


def answer_one(server: socket.socket, folder: Path, stopper: Stopper) -> bool:
    """Answer the next request; False when the server is to stop."""
    connection, _ = server.accept()
    stopper.busy, going_on = True, True
    try:
        with connection:
            connection.settimeout(10)  # a silent client must not hold up the others
            request = read_request(connection)
            reply, going_on = answer(folder, request)
            connection.sendall(json.dumps(reply).encode() + b"\n")
            if len(request) > MAX_REQUEST:
                # Closing on unread bytes would reset the connection before the caller reads
                # the error: read on, a bounded amount, until it hangs up.
                connection.shutdown(socket.SHUT_WR)
                for _ in range(64):
                    if not connection.recv(MAX_REQUEST):
                        break
    except OSError:  # the caller went away or said nothing: the next one
        pass
    finally:
        stopper.busy = False
    return going_on and not stopper.asked


def read_request(connection: socket.socket) -> bytes:
    """The first line, or everything up to just over MAX_REQUEST without one."""
    data = b""
    while b"\n" not in data and len(data) <= MAX_REQUEST:
        chunk = connection.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\n", 1)[0]


def answer(folder: Path, request: bytes) -> tuple[dict[str, Any], bool]:
    """What a direct call of the requested command prints and its exit code, as JSON; and
    False for stop-server."""
    def refused(message: str) -> tuple[dict[str, Any], bool]:
        return {"code": 1, "out": "", "err": f"error: {message}\n"}, True

    if len(request) > MAX_REQUEST:
        return refused(f"a request is at most {MAX_REQUEST} bytes")
    try:
        argv = json.loads(request)["argv"]
    except (ValueError, TypeError, KeyError):
        argv = None
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)
            and argv[0] in FORWARDED):
        return refused('a request is one line of JSON: {"argv": [COMMAND, ARGUMENT...]} '
                       f"with a command of {', '.join(FORWARDED)}")
    if argv[0] == "stop-server":
        return {"code": 0, "out": "Server stopped.\n", "err": ""}, False
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--dir", str(folder), *argv])
        except SystemExit as exc:  # argparse: a usage error or --help
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception:  # main catches what a command raises; this is a last guard
            KEPT.game = None
            return refused("the server failed on this request; tell the experimenter")
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}, True


def cmd_stop_server(args: argparse.Namespace) -> str:
    raise ReaderError(f"no server runs for {args.dir}")  # a live one answers it itself


# ---------------------------------------------------------------------- the experimenter's


ENDINGS = ("reader-cleared", "reader-cleared-by-other", "other-cleared",
           "other-cleared-by-reader", "assassin-by-reader", "assassin-by-other", "turn-limit")


def summarize(folder: Path) -> dict[str, Any]:
    schedule = load_schedule(folder)
    words = deck()
    actions = load_actions(folder)
    levels = any(g.level is not None for g in schedule.games)
    per: dict[str, dict[str, Any]] = {}
    clues: list[dict[str, Any]] = []
    for number, played in enumerate(actions, start=1):
        scheduled = schedule.games[number - 1]
        game = Game(scheduled, words)
        game.replay(played)
        name = scheduled.spymaster if scheduled.level is None else scheduled.level.value
        row = per.setdefault(name, {
            "games": 0, "in_progress": 0, "wins": 0, "turns_per_win": [],
            "assassin_losses": 0, "verdicts": Counter(), "repeats_after_failure": 0}
            if not levels else {
            "games": 0, "in_progress": 0, "reader_wins": 0, "endings": Counter(),
            "reader_turns": [], "verdicts": Counter(), "repeats_after_failure": 0})
        outcome = game.state.outcome
        if outcome is None:
            row["in_progress"] += 1
        elif levels:
            row["games"] += 1
            row["reader_wins"] += outcome.winner is game.team
            row["endings"][game.ending] += 1
            row["reader_turns"].append(game.clue_turns_taken)
        else:
            row["games"] += 1
            if outcome.winner is game.team:
                row["wins"] += 1
                row["turns_per_win"].append(len(game.turns))
            row["assassin_losses"] += outcome.reason is EndReason.ASSASSIN
        failed: set[str] = set()
        for turn in game.turns:
            word = normalize_word(turn.clue.word)
            row["repeats_after_failure"] += word in failed
            finished = turn is not game.turns[-1] or game.waiting_for != "touch"
            if finished and turn.failed:
                failed.add(word)
            if turn.verdict:
                row["verdicts"][turn.verdict] += 1
            clues.append({"game": number, ("level" if levels else "spymaster"): name,
                          "turn": turn.number, "clue": clue_text(turn.clue),
                          "touches": turn.touches, "verdict": turn.verdict,
                          "note": turn.note})
    rows = {}
    for name, row in per.items():
        rated = sum(row["verdicts"].values())
        figures: dict[str, Any] = {
            "verdicts": {v: row["verdicts"][v] for v in VERDICTS},
            "verdict_shares": {v: round(row["verdicts"][v] / rated, 3) if rated else None
                               for v in VERDICTS}}
        if levels:
            turns = row.pop("reader_turns")
            figures.update(endings={e: row["endings"][e] for e in ENDINGS},
                           reader_turns_per_game=turns,
                           mean_reader_turns=round(sum(turns) / len(turns), 2) if turns else None)
        else:
            wins = row.pop("turns_per_win")
            figures["mean_turns_per_win"] = round(sum(wins) / len(wins), 2) if wins else None
        rows[name] = {**row, **figures}
    return {"games_scheduled": len(schedule.games), "games_started": len(actions),
            ("levels" if levels else "spymasters"): rows, "clues": clues}


def cmd_summary(args: argparse.Namespace) -> str:
    data = summarize(args.dir)
    if args.json:
        return json.dumps(data, indent=1)
    lines = [f"{data['games_started']} of {data['games_scheduled']} games started", ""]
    levels = "levels" in data
    rows = data["levels"] if levels else data["spymasters"]
    order = ([lv.value for lv in Level if lv.value in rows] if levels else sorted(rows))
    for name in order:
        row = rows[name]
        shares = row["verdict_shares"]
        verdicts = ", ".join(
            f"{v} {row['verdicts'][v]}" + (f" ({shares[v]:.0%})" if shares[v] is not None else "")
            for v in VERDICTS)
        if levels:
            mean = row["mean_reader_turns"]
            endings = ", ".join(f"{e} {n}" for e, n in row["endings"].items() if n) or "-"
            lines += [f"{name}: games finished {row['games']} (in progress "
                      f"{row['in_progress']}), reader wins {row['reader_wins']}, reader's turns "
                      f"per game {mean if mean is not None else '-'}",
                      f"  endings: {endings}",
                      f"  reader's clues: {verdicts}; a failed clue word given again: "
                      f"{row['repeats_after_failure']}"]
            continue
        mean = row["mean_turns_per_win"]
        lines += [f"{name}: games finished {row['games']} (in progress {row['in_progress']}), "
                  f"wins {row['wins']}, turns per win {mean if mean is not None else '-'}, "
                  f"assassin losses {row['assassin_losses']}",
                  f"  clues: {verdicts}; a failed clue word given again: "
                  f"{row['repeats_after_failure']}"]
    lines.append("")
    for clue in data["clues"]:
        touched = ", ".join(f"{w} ({k})" for w, k in clue["touches"]) or "nothing"
        note = f" - {clue['note']}" if clue["note"] else ""
        who = clue["level"] if levels else clue["spymaster"]
        lines.append(f"game {clue['game']} turn {clue['turn']} [{who}] "
                     f"{clue['clue']} -> {touched}: {clue['verdict'] or 'unrated'}{note}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- the command line


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line and exit code 1, like every other bad input."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(1)


def parser() -> argparse.ArgumentParser:
    top = OneLineParser(prog="reader.py", description="Blind reading of AI spymasters' clues.")
    top.add_argument("--dir", type=Path, required=True, help="the reading's folder")
    commands = top.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    setup = commands.add_parser("setup", help="the experimenter: schedule the games")
    mode = setup.add_mutually_exclusive_group(required=True)
    mode.add_argument("--spymasters", help="single-team races: registered spymaster ids, "
                      "comma-separated")
    mode.add_argument("--levels", help="two-team games against the other team of these "
                      f"levels ({', '.join(lv.value for lv in Level)}), comma-separated")
    setup.add_argument("--games-per", type=int, required=True,
                       help="games per spymaster or per level")
    setup.add_argument("--seed", type=int, required=True, help="for the order and the boards")
    setup.set_defaults(run=cmd_setup)
    commands.add_parser("show", help="the table now").set_defaults(run=cmd_show)
    touch = commands.add_parser("touch", help="touch a face-up card")
    touch.add_argument("word")
    touch.set_defaults(run=reader_action({"do": "touch"}))
    commands.add_parser("stop", help="end the turn").set_defaults(
        run=reader_action({"do": "stop"}))
    rate = commands.add_parser("rate", help="rate the clue of the turn that just ended")
    rate.add_argument("verdict", choices=VERDICTS)
    rate.add_argument("note", nargs="*", help="why, in a few words")
    rate.set_defaults(run=reader_action({"do": "rate"}))
    commands.add_parser("next", help="start the next game").set_defaults(run=cmd_next)
    commands.add_parser("serve", help="keep the game in memory and answer the other "
                        "commands (run it in the background)").set_defaults(run=cmd_serve)
    commands.add_parser("stop-server", help="stop the server").set_defaults(
        run=cmd_stop_server)
    summary = commands.add_parser("summary", help="the experimenter: figures per spymaster")
    summary.add_argument("--json", action="store_true")
    summary.set_defaults(run=cmd_summary)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        print(args.run(args))
    except ReaderError as exc:  # raised before any move: a kept game is as it was
        message = " ".join(str(exc).split())
    except BrokenPipeError:  # output cut short (| head): the action is saved all the same
        return 0
    except Exception as exc:
        KEPT.game = None  # it may have failed half-way through a move: replay it next time
        if isinstance(exc, CodenamesError) and (
                args.command == "summary" or not against_levels(args.dir)):
            message = " ".join(str(exc).split())
        elif args.command == "summary":
            raise
        else:  # a traceback would name the spymaster's code; an agent's error, a level's
            message = f"the game failed ({type(exc).__name__}); tell the experimenter"
    else:
        return 0
    if args.command != "summary":
        message = hide_spymasters(message, args.dir)
    print(f"error: {message}", file=sys.stderr)
    return 1


def against_levels(folder: Path) -> bool:
    """Whether the folder's games are two-team games against levels."""
    try:
        return any(g.level is not None for g in load_schedule(folder).games)
    except (ReaderError, OSError, ValueError, KeyError):
        return False


def hide_spymasters(message: str, folder: Path) -> str:
    """An agent's error could name it; the reader must never learn which one plays."""
    try:
        names = {g.spymaster for g in load_schedule(folder).games}
    except (ReaderError, OSError, ValueError, KeyError):
        return message
    for name in sorted(names, key=len, reverse=True):
        message = message.replace(name, "the spymaster")
    return message


if __name__ == "__main__":
    sys.exit(main())
