"""Blind reading: a reader plays single-team games of Codenames as the guesser, against AI
spymasters it is never told about, and rates every clue. See docs/reading.md.

    python docs/reading/reader.py --dir DIR setup --spymasters A,B --games-per 5 --seed 1
    python docs/reading/reader.py --dir DIR serve  (in the background; stop-server ends it)
    python docs/reading/reader.py --dir DIR show | touch WORD | stop | rate VERDICT [NOTE] | next
    python docs/reading/reader.py --dir DIR summary [--json]

DIR holds the experimenter's schedule (which spymaster plays which game, and each board) and
the reader's actions. A direct call rebuilds the current game by replaying those actions from
the deal, asking the spymaster for its clues again: the registered agents are deterministic
given ``start_game`` and the same calls, so nothing but the actions needs keeping. ``serve``
keeps the loaded agents and the game in play in memory and answers the reader's commands on
a Unix socket in DIR; it writes the same files after every action, so a direct call or a new
server goes on with the same game.
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
from codenames_ai.core import (  # noqa: E402
    IDLE,
    WORDS,
    Clue,
    ClueGiven,
    CodenamesError,
    EndReason,
    Guess,
    Identity,
    Match,
    OutsideSeat,
    Pass,
    Phase,
    Role,
    Seats,
    Spymaster,
    Team,
    deal,
    normalize_word,
)
from codenames_ai.decks import read_word_list  # noqa: E402

DECK = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_nouns.txt"
SCHEDULE = ".schedule.json"  # the experimenter's file: no reader command names or shows it
ACTIONS = "actions.json"
MAX_TURNS = 25  # as codenames_ai.agents.evaluation.single_team
VERDICTS = ("clear", "stretch", "baffling")
MARKS = {"own": "OWN", "opponent": "OPP", "bystander": "BYS", "assassin": "ASSASSIN"}


class ReaderError(Exception):
    """A bad input or state: one line for the reader and exit code 1."""


# ---------------------------------------------------------------------- files in DIR


@dataclass(frozen=True)
class Scheduled:
    spymaster: str
    board: int  # the race's seed: deals the board and starts the spymaster


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
    return Schedule(tuple(Scheduled(g["spymaster"], g["board"]) for g in data["games"]),
                    data["deck_digest"])


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
    touches: list[tuple[str, str]] = field(default_factory=list)  # (word, what it was)
    verdict: str | None = None
    note: str = ""

    @property
    def failed(self) -> bool:
        """A non-own card was touched, or no own card was found."""
        kinds = [kind for _, kind in self.touches]
        return not kinds or any(kind != "own" for kind in kinds)


class Game:
    """A single-team race (as ``codenames_ai.agents.evaluation.single_team``: the core's
    match with idle seats for the other team) stopped at each of the reader's decisions."""

    def __init__(self, scheduled: Scheduled, words: Sequence[str]) -> None:
        self.spymaster: Spymaster = make_agent(scheduled.spymaster)
        board = deal(WORDS, words, scheduled.board)
        self.team = board.starting_team
        reader = OutsideSeat("reader", "its commands")  # the match never asks it
        race = ((self.spymaster, reader, IDLE, IDLE) if self.team is Team.RED
                else (IDLE, IDLE, self.spymaster, reader))
        # The reader's own turns are counted here (MAX_TURNS), not by the match.
        self.match = Match.new(WORDS, Seats(*race), seed=scheduled.board, board=board,
                               max_turns=None)
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
        """Play the spymaster's and the idle team's moves up to the reader's next decision.
        The next clue is asked for only once the last one is rated, so the reader rates a
        clue without having seen the next."""
        state = self.state
        while not state.is_over:
            ours = state.current_team is self.team
            if ours and state.phase is Phase.GUESS:
                return
            if ours and state.phase is Phase.CLUE:
                if self.waiting_for == "rate":
                    return
                self.clue_turns += 1
                if self.clue_turns > MAX_TURNS:
                    state.abandon()
                    return
            move = self.match.step()  # the spymaster's move, or the idle team's forfeit
            if isinstance(move.action, Clue) and isinstance(state.events[-1], ClueGiven):
                self.turns.append(Turn(len(self.turns) + 1, move.action))  # not an invalid one

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
        what = {"own": "one of your agents", "opponent": "an opponent's agent",
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
        return f"Rated {clue_text(turn.clue)} as {verdict}."

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
        if outcome.winner is self.team:
            return f"Won: all your agents found in {len(self.turns)} turns."
        if outcome.reason is EndReason.ASSASSIN:
            return "Lost: you touched the assassin."
        if outcome.reason is EndReason.AGENTS_COVERED:
            return "Lost: you touched the opponent's last agent."
        return f"Lost: your agents were not all found in {MAX_TURNS} turns."


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
    ids = [name.strip() for name in args.spymasters.split(",") if name.strip()]
    for name in ids:
        spec = REGISTRY.get(name)
        if spec is None or spec.role is not Role.SPYMASTER:
            known = ", ".join(sorted(n for n, s in REGISTRY.items() if s.role is Role.SPYMASTER))
            raise ReaderError(f"{name!r} is not a registered spymaster; known: {known}")
        make_agent(name)  # fail now, not in the middle of a reader's game
    if not ids or args.games_per < 1:
        raise ReaderError("give at least one spymaster and --games-per 1 or more")
    rng = random.Random(args.seed)
    order = [name for name in ids for _ in range(args.games_per)]
    rng.shuffle(order)
    boards = rng.sample(range(1, 2**31), len(order))  # every game its own board
    folder.mkdir(parents=True, exist_ok=True)
    data = {"seed": args.seed, "deck_digest": digest(deck()),
            "games": [{"spymaster": s, "board": b} for s, b in zip(order, boards, strict=True)]}
    (folder / SCHEDULE).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    save_actions(folder, [[]])
    return (f"Scheduled {len(order)} game{'s' * (len(order) != 1)} in {folder}. "
            "Readers start with: show")


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


def summarize(folder: Path) -> dict[str, Any]:
    schedule = load_schedule(folder)
    words = deck()
    actions = load_actions(folder)
    per: dict[str, dict[str, Any]] = {}
    clues: list[dict[str, Any]] = []
    for number, played in enumerate(actions, start=1):
        scheduled = schedule.games[number - 1]
        game = Game(scheduled, words)
        game.replay(played)
        row = per.setdefault(scheduled.spymaster, {
            "games": 0, "in_progress": 0, "wins": 0, "turns_per_win": [],
            "assassin_losses": 0, "verdicts": Counter(), "repeats_after_failure": 0})
        outcome = game.state.outcome
        if outcome is None:
            row["in_progress"] += 1
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
            clues.append({"game": number, "spymaster": scheduled.spymaster,
                          "turn": turn.number, "clue": clue_text(turn.clue),
                          "touches": turn.touches, "verdict": turn.verdict,
                          "note": turn.note})
    spymasters = {}
    for name, row in per.items():
        rated = sum(row["verdicts"].values())
        wins = row.pop("turns_per_win")
        spymasters[name] = {
            **row,
            "mean_turns_per_win": round(sum(wins) / len(wins), 2) if wins else None,
            "verdicts": {v: row["verdicts"][v] for v in VERDICTS},
            "verdict_shares": {v: round(row["verdicts"][v] / rated, 3) if rated else None
                               for v in VERDICTS},
        }
    return {"games_scheduled": len(schedule.games), "games_started": len(actions),
            "spymasters": spymasters, "clues": clues}


def cmd_summary(args: argparse.Namespace) -> str:
    data = summarize(args.dir)
    if args.json:
        return json.dumps(data, indent=1)
    lines = [f"{data['games_started']} of {data['games_scheduled']} games started", ""]
    for name, row in sorted(data["spymasters"].items()):
        shares = row["verdict_shares"]
        verdicts = ", ".join(
            f"{v} {row['verdicts'][v]}" + (f" ({shares[v]:.0%})" if shares[v] is not None else "")
            for v in VERDICTS)
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
        lines.append(f"game {clue['game']} turn {clue['turn']} [{clue['spymaster']}] "
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
    setup.add_argument("--spymasters", required=True, help="registered ids, comma-separated")
    setup.add_argument("--games-per", type=int, required=True, help="games per spymaster")
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
        if isinstance(exc, CodenamesError):
            message = " ".join(str(exc).split())
        elif args.command == "summary":
            raise
        else:  # a traceback would name the spymaster's code
            message = f"the game failed ({type(exc).__name__}); tell the experimenter"
    else:
        return 0
    if args.command != "summary":
        message = hide_spymasters(message, args.dir)
    print(f"error: {message}", file=sys.stderr)
    return 1


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
