"""Speed of the default AI beside the v1 agents, in one run: clue latency, tournament
throughput, and the AI's move latency in web rooms played at once.

Run by hand: ``python -m benchmarks.speed [--boards 200] [--games 300] [--repeats 3]
[--rooms-moves 20]`` (about three minutes with these defaults on two cores). BLAS is held to
one thread throughout (``threadpool_limits(1)`` here and in the pool workers, the
``*_NUM_THREADS`` variables and ``threadpool_limits(1)`` in the server process). Every ratio
is against a baseline measured in this same run. Figures only: nothing here asserts a speed.

1. Clue latency. The ms of one ``give_clue`` call, on ``--boards`` distinct boards (seeds
   0..N-1), for the default spymaster (``DEFAULT_SPYMASTER``) and the v1 spymaster
   (``glove-ev-spymaster-v1``), and the default before it (``panel-spymaster-v3``), (a) on
   boards dealt from the Words deck and (b) on boards of held-out nouns
   (``benchmarks/heldout_nouns.txt``, only those every default mind can read).
   The call is timed alone, with whatever per-board work it does itself (no
   ``prepare_board`` beforehand, as a first clue on a new board in a game); before each
   board the agent's ``start_game`` is called untimed, as a new game would, and each row
   starts with one untimed warm-up clue on an unrelated board. Median and 95th percentile
   over the boards; ratios of medians: default/v1, default/v3, and held-out/deck per
   spymaster. ``--latency-only`` stops after this part.

2. Throughput. Games per second of whole ``run_tournament`` runs (workers started, every
   game played, written and fsync'd, the summary made) of ``--games`` games on the
   process-pool backend with two workers, the median of ``--repeats`` runs, for the default
   pair (``DEFAULT_SPYMASTER`` + ``DEFAULT_GUESSER``) and the v1 pair
   (``glove-ev-spymaster-v1`` + ``glove-guesser-v1``); the ratio default/v1.

3. Concurrent rooms. A real ``codenames serve`` app (uvicorn, in a subprocess, on 127.0.0.1, a
   free port and a temporary database) and 1, 2 and 20 rooms played at once, each from its own
   thread over its own keep-alive HTTP connection. Each room is a standard game at the default
   level in which a person holds the red guessers' seat; the AI holds the other three (the red
   spymaster is the default AI, the blue team the level's agents). The person touches a random
   face-down card, and passes after a touch that leaves the turn going. The server computes the
   AI's moves inside the request of the person's move that hands it the turn (``roomsapi``:
   under the room's lock, then stored and answered), so what is measured is that request: from
   sending a person's move that ends the red turn to receiving the answer, which holds the AI's
   resulting moves (the blue spymaster's clue, the blue guesser's touches, and the red AI
   spymaster's next clue for the person; fewer when the game ends). ``--rooms-moves`` such
   moves per room (a finished game is dealt again, untimed), all rooms starting together; before
   each move a person pauses ``--think`` seconds on average (0.5x to 1.5x, from the room's
   seeded generator; 0 plays without pauses and saturates the server). First
   table: p50 and p95 ms over every room's timed moves, the p50's ratio to 1 room's, the AI
   moves each answer held, the p50 of the person's moves that left the AI nothing to do (a
   touch of a red card: the request, the store's commit and the view, alone), and every room's
   requests (new deals too) per second of the rooms' wall time: the server's throughput once it
   is saturated. Second table, from the server process, which wraps at run time and times each
   AI move (``WebGame._ai_move``: a clue or a guesser's touch or pass, the agent's thinking and
   the engine), each stored change (``GameStore.room_change``: one SQLite transaction,
   ``synchronous=FULL``), each read of the store (``GameStore._read``: the seat of a token, the
   room's row) and each view answered (``roomsapi.room_view``): the p50 ms of one of each, then
   their summed time as a share of the summed time of every request while the rooms played;
   "rest" is the remainder (HTTP, JSON, the room's lock, queues). The store has one connection
   behind one lock, so a commit's or a read's time includes its wait for it: once the server is
   saturated, a request waits for the other rooms' work, and the shares say where it waits
   (mostly at the store's lock); the 1-room row says where the work is. Rooms are made one at a
   time before the clock starts (its agents built and the AI's opening moves: the red AI's
   first clue, and a blue turn when blue starts; their p50 is printed last), after one warm-up
   room that made the server load the models.

The header gives the codenames-ai version, Python, the machine and the git commit ("+ local
changes" when the working tree differs from it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from codenames_ai import __version__
from codenames_ai.agents import make_agent
from codenames_ai.agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER
from codenames_ai.core import WORDS, GameState, SpymasterView, deal
from codenames_ai.decks import default_deck
from codenames_ai.harness.backends import SINGLE_THREADED, PoolBackend
from codenames_ai.harness.spec import TournamentSpec

from .minds import heldout_deck
from .tournament import games_per_second

V1_SPYMASTER = "glove-ev-spymaster-v1"
# The default before panel-spymaster-v4 (issue 38: a clue within 1.5x of its latency).
PREVIOUS_SPYMASTER = "panel-spymaster-v3"
V1_GUESSER = "glove-guesser-v1"
WARM_UP_SEED = 10**6  # an unrelated board: outside every row's seeds 0..N-1
ROOM_COUNTS = (1, 2, 20)
PERSON_SEAT = "red-guesser"
ROOT = Path(__file__).resolve().parent.parent


# --- figures and the header ---------------------------------------------------------------

def ms(seconds: Sequence[float]) -> tuple[float, float]:
    """Median and 95th percentile, in ms."""
    return 1e3 * statistics.median(seconds), 1e3 * float(np.quantile(seconds, 0.95))


def git_commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, cwd=ROOT, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, cwd=ROOT,
                                 check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + (" + local changes" if changed else "")


def header() -> str:
    machine = " ".join(filter(None, (platform.machine(), platform.processor())))
    return (f"codenames-ai {__version__}, Python {platform.python_version()}, {machine} "
            f"({os.cpu_count()} CPUs, {platform.system()} {platform.release()}), "
            f"commit {git_commit()}; BLAS held to one thread")


# --- 1. clue latency ----------------------------------------------------------------------

def spymaster_views(deck: Sequence[str], seeds: Sequence[int]) -> list[SpymasterView]:
    """The starting team's spymaster view of a fresh board per seed."""
    views = []
    for seed in seeds:
        state = GameState(WORDS, deal(WORDS, deck, seed))
        views.append(state.spymaster_view(state.current_team))
    return views


def clue_seconds(spymaster: Any, views: Sequence[SpymasterView], warm_up: SpymasterView,
                 new_cards: bool = False) -> list[float]:
    """The time of each ``give_clue`` on ``views`` (a new game each, started untimed),
    after one untimed warm-up clue; ``new_cards``: the panel forgets the cards it computed
    before each board, so every board's cards are new to it."""
    spymaster.start_game(WARM_UP_SEED)
    spymaster.give_clue(warm_up)
    panel = getattr(spymaster, "panel", None)
    times = []
    for seed, view in enumerate(views):
        spymaster.start_game(seed)
        if new_cards and panel is not None:
            panel.forget_cards()
        start = time.perf_counter()
        spymaster.give_clue(view)
        times.append(time.perf_counter() - start)
    return times


def clue_latency(boards: int) -> None:
    decks = {"Words deck": default_deck("words"), "held-out": tuple(heldout_deck(None))}
    print(f"\n1. clue latency: one give_clue per fresh board, {boards} boards per row "
          f"(seeds 0..{boards - 1}), after a warm-up clue; held-out: "
          f"{len(decks['held-out'])} nouns")
    print(f"  {'spymaster':26} {'boards':11} {'median ms':>10} {'p95 ms':>8}")
    medians: dict[tuple[str, str], float] = {}
    for agent_id in (DEFAULT_SPYMASTER, PREVIOUS_SPYMASTER, V1_SPYMASTER):
        spymaster = make_agent(agent_id)
        for name, deck in decks.items():
            views = spymaster_views(deck, range(boards))
            warm_up = spymaster_views(deck, [WARM_UP_SEED])[0]
            median, p95 = ms(clue_seconds(spymaster, views, warm_up))
            medians[(agent_id, name)] = median
            print(f"  {agent_id:26} {name:11} {median:10.2f} {p95:8.2f}", flush=True)
            if name == "held-out" and hasattr(spymaster, "panel"):
                median, p95 = ms(clue_seconds(spymaster, views, warm_up, new_cards=True))
                print(f"  {agent_id:26} {'  new cards':11} {median:10.2f} {p95:8.2f}",
                      flush=True)
    for name in decks:
        ratio = medians[(DEFAULT_SPYMASTER, name)] / medians[(V1_SPYMASTER, name)]
        print(f"  default/v1 on the {name}: {ratio:.2f}x")
        ratio = medians[(DEFAULT_SPYMASTER, name)] / medians[(PREVIOUS_SPYMASTER, name)]
        print(f"  default/{PREVIOUS_SPYMASTER} on the {name}: {ratio:.2f}x")
    for agent_id in (DEFAULT_SPYMASTER, V1_SPYMASTER):
        ratio = medians[(agent_id, "held-out")] / medians[(agent_id, "Words deck")]
        print(f"  held-out/deck for {agent_id}: {ratio:.2f}x")


# --- 2. throughput ------------------------------------------------------------------------

def throughput(games: int, repeats: int) -> None:
    print(f"\n2. throughput: games/s of run_tournament, process pool with 2 workers, "
          f"{games} games per run, median of {repeats}")
    rates = []
    for spymaster, guesser in ((DEFAULT_SPYMASTER, DEFAULT_GUESSER), (V1_SPYMASTER, V1_GUESSER)):
        spec = TournamentSpec.from_options(spymasters=[spymaster], guessers=[guesser],
                                           games=games, seed=1)
        rates.append(games_per_second(spec, PoolBackend(2, 16), repeats))
        print(f"  {spymaster + ' + ' + guesser:44} {rates[-1]:8.1f} games/s", flush=True)
    print(f"  default/v1: {rates[0] / rates[1]:.2f}x")


# --- 3. concurrent rooms: the server ------------------------------------------------------

def serve(port: int, database: str, timings: str) -> None:
    """The server process: ``codenames serve``'s app on uvicorn, one BLAS thread, with each
    AI move, stored change, read of the store and answered view timed into ``timings``
    (kind and ms, a line each)."""
    import uvicorn

    from codenames_ai.web import roomsapi
    from codenames_ai.web.app import create_app
    from codenames_ai.web.games import WebGame
    from codenames_ai.web.store import GameStore

    out = open(timings, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (the server's life)
    lock = threading.Lock()

    def timed(owner: Any, name: str, kind: Callable[[Any], str]) -> None:
        """Time ``owner.name`` from now on (left alone if a refactor renamed it: its
        figures then show as "-")."""
        function = getattr(owner, name, None)
        if function is None:
            return

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            result = function(*args, **kwargs)
            took = time.perf_counter() - start
            with lock:
                out.write(f"{kind(result)}\t{1e3 * took:.3f}\n")
            return result
        setattr(owner, name, wrapper)

    def ai_kind(move: dict[str, Any]) -> str:
        return {"clue": "ai clue", "guess": "ai touch", "pass": "ai touch"}.get(
            move["move"], f"ai {move['move']}")

    timed(WebGame, "_ai_move", ai_kind)
    timed(GameStore, "room_change", lambda _: "store")
    timed(GameStore, "_read", lambda _: "store read")
    timed(roomsapi, "room_view", lambda _: "view")
    with threadpool_limits(1):
        uvicorn.run(create_app(Path(database)), host="127.0.0.1", port=port,
                    log_level="warning")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], int, Path]:
    """The server process on a free port, answering (60 s at most to start)."""
    port, timings = free_port(), folder / "timings.tsv"
    code = (f"from benchmarks.speed import serve; "
            f"serve({port}, {str(folder / 'rooms.sqlite3')!r}, {str(timings)!r})")
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                               env={**os.environ, **SINGLE_THREADED})
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=2).read()
            return process, port, timings
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


def server_timings(timings: Path, offset: int) -> tuple[dict[str, list[float]], int]:
    """The server's timings (ms by kind) written from ``offset`` on, and the new offset."""
    with timings.open(encoding="utf-8") as lines:
        lines.seek(offset)
        text = lines.read()
        end = lines.tell()
    found: dict[str, list[float]] = {}
    for line in text.splitlines():
        kind, took = line.split("\t")
        found.setdefault(kind, []).append(float(took))
    return found, end


# --- 3. concurrent rooms: the people --------------------------------------------------------

class Page:
    """A person's page: one keep-alive connection to the server."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None
             ) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.connection.request(method, path, None if body is None else json.dumps(body),
                                headers)
        response = self.connection.getresponse()
        answer: dict[str, Any] = json.loads(response.read())
        if response.status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {response.status} {answer.get('error')}")
        return answer


@dataclass
class Room:
    """A room whose red guessers' seat a person holds, and what its moves took."""

    page: Page
    id: str
    token: str
    view: dict[str, Any]
    rng: random.Random
    created: float  # seconds to make the room (the AI's opening moves included)
    ai_answered: list[float] = field(default_factory=list)  # moves that handed the AI the turn
    ai_moves: list[int] = field(default_factory=list)  # the AI moves in each of those answers
    plain: list[float] = field(default_factory=list)  # moves the AI had nothing to answer
    requests: float = 0.0  # seconds of every request while the rooms play (new deals too)
    requests_made: int = 0  # how many


def new_room(port: int, seed: int) -> Room:
    page = Page(port)
    start = time.perf_counter()
    made = page.call("POST", "/api/rooms", {"settings": {}, "people": [PERSON_SEAT]})
    created = time.perf_counter() - start
    token = made["seats"][PERSON_SEAT]
    view = page.call("GET", f"/api/rooms/{made['id']}?token={token}")
    return Room(page, made["id"], token, view, random.Random(seed), created)


def person_move(room: Room) -> None:
    """One move of the person (a new deal first if the game is over), timed."""
    view = room.view
    if view["over"]:  # a new deal, with the AI's opening moves: not a timed move
        start = time.perf_counter()
        room.view = room.page.call("POST", f"/api/rooms/{room.id}/again", {"token": room.token})
        room.requests += time.perf_counter() - start
        room.requests_made += 1
        return
    if not view["your_turn"]:
        raise RuntimeError(f"room {room.id}: the person's turn was expected, not "
                           f"{view['room']['current_seat']}'s")
    if view["can_pass"]:
        move: dict[str, Any] = {"move": "pass"}
    else:
        face_down = [card["index"] for card in view["cards"] if card["revealed"] is None]
        move = {"move": "guess", "index": room.rng.choice(face_down)}
    start = time.perf_counter()
    answer = room.page.call("POST", f"/api/rooms/{room.id}/moves",
                            {**move, "token": room.token, "expect": view["expect"]})
    took = time.perf_counter() - start
    room.requests += took
    room.requests_made += 1
    answered = answer["moves"] - view["moves"] - 1
    if answered:
        room.ai_answered.append(took)
        room.ai_moves.append(answered)
    else:
        room.plain.append(took)
    room.view = answer


def play(room: Room, moves: int, start: threading.Barrier, failures: list[BaseException],
         think: float) -> None:
    try:
        start.wait()
        while len(room.ai_answered) < moves:
            if think:  # a person reads the board before each move (untimed)
                time.sleep(think * room.rng.uniform(0.5, 1.5))
            person_move(room)
    except BaseException as exc:  # reported by the main thread
        failures.append(exc)
    finally:
        room.page.connection.close()


def play_rooms(rooms: list[Room], moves: int, think: float = 0.0) -> float:
    """Play ``rooms`` at once, each from its own thread: the seconds until all are done."""
    began: list[float] = []  # when every room's thread is ready: the clock starts
    start = threading.Barrier(len(rooms), action=lambda: began.append(time.perf_counter()))
    failures: list[BaseException] = []
    threads = [threading.Thread(target=play, args=(room, moves, start, failures, think))
               for room in rooms]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return time.perf_counter() - began[0]


def p50(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.1f}" if values else "-"


ROOM_NOTES = (
    "moves: every room's timed moves; vs 1: p50 over 1 room's p50; AI moves: per answer;",
    "no AI ms: p50 of the person's moves the AI did not answer (a red touch, the turn going on);",
    "requests/s: every room's requests (new deals too) over the wall time of the rooms' play;",
    "shares: of the summed time of every request while the rooms played; a commit or a read",
    "includes its wait for the store's one connection; rest: HTTP, JSON, the room's lock, queues",
)
SERVER_PARTS = (("AI moves", ("ai clue", "ai touch", "ai cover", "ai forfeit")),
                ("commits", ("store",)), ("reads", ("store read",)), ("views", ("view",)))


@dataclass
class Phase:
    """One room count's figures: the rooms as played and the server's timings meanwhile."""

    count: int
    rooms: list[Room]
    server: dict[str, list[float]]
    seconds: float  # from the rooms' start until the last one was done

    @property
    def answered(self) -> list[float]:
        return [t for room in self.rooms for t in room.ai_answered]

    def latency_row(self, baseline: float) -> str:
        median, p95 = ms(self.answered)
        moves = statistics.mean(n for room in self.rooms for n in room.ai_moves)
        plain = [1e3 * t for room in self.rooms for t in room.plain]
        requests = sum(room.requests_made for room in self.rooms)
        return (f"  {self.count:5} {len(self.answered):6} {median:8.1f} {p95:8.1f} "
                f"{median / baseline:7.2f}x {moves:9.1f} {p50(plain):>9} "
                f"{requests / self.seconds:10.1f}")

    def server_row(self) -> str:
        medians = " ".join(f"{p50(self.server.get(kind, [])):>8}" for kind in
                           ("ai clue", "ai touch", "store", "store read", "view"))
        total = 1e3 * sum(room.requests for room in self.rooms)
        shares = [sum(sum(self.server.get(kind, [])) for kind in kinds) / total
                  for _, kinds in SERVER_PARTS]
        return (f"  {self.count:5} {medians} "
                + " ".join(f"{100 * share:6.0f}%" for share in [*shares, 1 - sum(shares)]))


def play_phase(port: int, count: int, moves: int, timings: Path, offset: int, think: float
               ) -> tuple[Phase, int]:
    """``count`` new rooms (made one at a time, untimed here) played at once."""
    rooms = [new_room(port, seed) for seed in range(count)]
    _, offset = server_timings(timings, offset)  # the rooms' making left out
    seconds = play_rooms(rooms, moves, think)
    server, offset = server_timings(timings, offset)
    return Phase(count, rooms, server, seconds), offset


def concurrent_rooms(moves: int, think: float) -> None:
    pace = (f"each person pausing {0.5 * think:.1f}-{1.5 * think:.1f} s before a move"
            if think else "no pause between moves (the server saturated)")
    print(f"\n3. concurrent rooms: a person's move that hands the AI the turn, answered with "
          f"the AI's moves; {moves} such moves per room, all rooms at once, {pace}")
    with tempfile.TemporaryDirectory() as folder:
        process, port, timings = start_server(Path(folder))
        try:
            warm_up = new_room(port, -1)
            play_rooms([warm_up], 3)  # the server process loads the models
            _, offset = server_timings(timings, 0)
            phases = []
            for count in ROOM_COUNTS:
                phase, offset = play_phase(port, count, moves, timings, offset, think)
                phases.append(phase)
        finally:
            process.terminate()
            process.wait(30)
    baseline = 1e3 * statistics.median(phases[0].answered)
    print(f"  {'rooms':>5} {'moves':>6} {'p50 ms':>8} {'p95 ms':>8} {'vs 1':>8} "
          f"{'AI moves':>9} {'no AI ms':>9} {'requests/s':>10}")
    for phase in phases:
        print(phase.latency_row(baseline))
    print("        the server: p50 ms of one ...                 and the share of the "
          "requests' time in ...")
    print(f"  {'rooms':>5} {'AI clue':>8} {'AI touch':>8} {'commit':>8} {'read':>8} "
          f"{'view':>8} {'AI moves':>7} {'commits':>7} {'reads':>7} {'views':>7} "
          f"{'rest':>7}")
    for phase in phases:
        print(phase.server_row())
    for note in ROOM_NOTES:
        print(f"  {note}")
    created = [1e3 * room.created for phase in phases for room in phase.rooms]
    print(f"  making a room, one at a time (its agents built, the AI's opening moves): p50 "
          f"{p50(created)} ms over {len(created)} rooms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200, help="boards per clue-latency row")
    parser.add_argument("--games", type=int, default=300, help="games per tournament run")
    parser.add_argument("--repeats", type=int, default=3, help="tournament runs per pair")
    parser.add_argument("--rooms-moves", type=int, default=20,
                        help="timed person's moves per room (each handing the AI the turn)")
    parser.add_argument("--latency-only", action="store_true",
                        help="only the clue latency (part 1)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a person's mean pause before a move, in seconds (0: none, the "
                             "server saturated)")
    args = parser.parse_args(argv)
    print(header())
    with threadpool_limits(1):
        clue_latency(args.boards)
        if args.latency_only:
            return
        throughput(args.games, args.repeats)
        concurrent_rooms(args.rooms_moves, args.think)


if __name__ == "__main__":
    main()
