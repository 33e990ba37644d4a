"""Where games run, behind one small interface: ``run(spec, games, emit)``.

``SerialBackend`` plays in this process (for debugging). ``PoolBackend`` keeps one worker
process per core; each loads the models it needs once (memory-mapped) and plays batches of
games, streaming every result back as it ends. A worker that dies is replaced; the game it
was playing is retried once on its own, then recorded as failed with the reason. The Ray
backend (``codenames_ai.harness.ray_backend``) has the same interface.

Pool workers are forked (on Linux) after ``check_agents`` has loaded everything the agents
share, so they start in milliseconds instead of seconds. ``run_tournament`` starts no thread
before forking (its progress bar refreshes from the main thread).

Workers die with the driver, however it ends (even ``kill -9``): on Linux the kernel kills
them when it dies (``PR_SET_PDEATHSIG``); everywhere, a watchdog thread in each worker exits
when its parent process is gone, and a worker waiting for work reads end-of-file, because a
forked worker closes the driver's ends of the pipes it inherited (the open ends kept every
worker of a killed driver blocked on its pipe for ever).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from threadpoolctl import threadpool_limits

from ..core.errors import ConfigError
from ..environment import environment
from .games import FAILED, play_games, schedule_entry
from .spec import TournamentSpec

Emit = Callable[[dict[str, Any]], None]
DEFAULT_BATCH = 16  # measured: 16-32 games per task keeps scheduling cost small
# One BLAS thread per worker: with the default (one per core) the workers oversubscribe.
SINGLE_THREADED = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                          "MKL_NUM_THREADS")}


class Backend(Protocol):
    """Plays ``games`` (indices into the spec's schedule) and hands each result to
    ``emit`` as soon as it exists, in any order."""

    name: str

    def run(self, spec: TournamentSpec, games: Sequence[int], emit: Emit) -> None: ...


def batches(games: Sequence[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(games), size):
        yield list(games[start:start + size])


def failed(spec: TournamentSpec, index: int, reason: str) -> dict[str, Any]:
    return {**schedule_entry(spec.task(index)), "status": FAILED, "reason": reason}


class SerialBackend:
    """Every game in this process, one after another."""

    name = "serial"

    def run(self, spec: TournamentSpec, games: Sequence[int], emit: Emit) -> None:
        for result in play_games(spec, games):
            emit(result)


_BATCH_DONE = "batch-done"


PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_INTERVAL = 0.5  # seconds between two looks of a worker's watchdog at its parent


def die_with_parent(parent: int) -> None:
    """Make this process end when process ``parent`` (its parent) ends, even by ``kill -9``."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):  # no libc prctl: the watchdog
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before we could ask
        os._exit(1)
    threading.Thread(target=watch_parent, args=(parent,), name="codenames-watchdog",
                     daemon=True).start()


def watch_parent(parent: int, interval: float = WATCH_INTERVAL) -> None:
    """Exit this process at once when its parent is no longer ``parent`` (it died, and
    this process was given to another). The portable half of ``die_with_parent``."""
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)


def _worker_main(connection: Connection, spec: TournamentSpec, parent: int,
                 inherited: Sequence[Connection] = ()) -> None:
    """A pool worker: plays the batches it is sent until it is sent ``None``.

    ``inherited``: the driver's ends of the workers' pipes, copied into a forked worker;
    closed here, so that the worker's own pipe reads end-of-file when the driver dies."""
    for other in inherited:
        other.close()
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    threadpool_limits(1)  # a forked worker keeps the BLAS threads its parent started
    try:
        while True:
            games = connection.recv()
            if games is None:
                return
            for result in play_games(spec, games):
                connection.send(result)
            connection.send(_BATCH_DONE)
    except (EOFError, OSError):  # the parent is gone (killed): nothing left to do
        return


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    batch: list[int] = field(default_factory=list)  # games sent and not reported yet
    busy: bool = False


class PoolBackend:
    """One process per worker (every core by default), fed batches of games."""

    name = "pool"

    def __init__(self, workers: int | None = None, batch_size: int = DEFAULT_BATCH) -> None:
        if workers is not None and workers < 1:
            raise ConfigError(f"workers must be at least 1, got {workers}")
        if batch_size < 1:
            raise ConfigError(f"batch size must be at least 1, got {batch_size}")
        self.workers = workers or os.cpu_count() or 1
        self.batch_size = batch_size
        # Fork where there is fork: workers start at once, warm (models, clue spaces and
        # language data loaded by the parent's agent check), and share those pages.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self._context: Any = multiprocessing.get_context(method)
        self._forks = method == "fork"
        self._ends: list[Connection] = []  # the driver's ends of the live workers' pipes

    def run(self, spec: TournamentSpec, games: Sequence[int], emit: Emit) -> None:
        # Smaller batches when there are few games, so every worker gets some.
        size = max(1, min(self.batch_size, -(-len(games) // self.workers)))
        queue: deque[list[int]] = deque(batches(games, size))
        attempts: dict[int, int] = {}
        pool = [self._start(spec) for _ in range(min(self.workers, len(queue)))]
        try:
            while queue or any(w.busy for w in pool):
                for worker in pool:
                    if not worker.busy and queue:
                        worker.batch = queue.popleft()
                        worker.busy = True
                        # A worker that died while idle raises here; its sentinel tells below.
                        with contextlib.suppress(OSError):
                            worker.connection.send(worker.batch)
                busy = [w for w in pool if w.busy]
                ready = wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
                for worker in busy:
                    woke = worker.connection in ready or worker.process.sentinel in ready
                    if woke and not self._drain(worker, emit):
                        pool[pool.index(worker)] = self._replace(spec, worker, queue,
                                                                 attempts, emit)
        finally:
            for worker in pool:
                self._stop(worker)

    def _start(self, spec: TournamentSpec) -> _Worker:
        parent, child = self._context.Pipe()
        self._ends.append(parent)
        # A forked worker gets a copy of every open descriptor: it closes the driver's ends.
        inherited = list(self._ends) if self._forks else []
        with environment(SINGLE_THREADED):  # read by a spawned worker's BLAS at start
            process = self._context.Process(
                target=_worker_main, args=(child, spec, os.getpid(), inherited),
                name="codenames-worker", daemon=True)
            process.start()
        child.close()
        return _Worker(process, parent)

    def _drain(self, worker: _Worker, emit: Emit) -> bool:
        """Hand on everything the worker has sent; False if it has died."""
        try:
            while worker.connection.poll():
                message = worker.connection.recv()
                if message == _BATCH_DONE:
                    worker.busy = False
                    worker.batch = []
                else:
                    worker.batch.remove(message["game"])
                    emit(message)
        except (EOFError, OSError):
            return False
        return worker.process.is_alive()

    def _replace(self, spec: TournamentSpec, dead: _Worker, queue: deque[list[int]],
                 attempts: dict[int, int], emit: Emit) -> _Worker:
        """A worker died: retry its game in flight once (alone), requeue the rest."""
        dead.process.join(5)
        reason = _exit_reason(dead.process.exitcode)
        if dead.batch:
            game, rest = dead.batch[0], dead.batch[1:]
            if rest:
                queue.appendleft(rest)
            attempts[game] = attempts.get(game, 0) + 1
            if attempts[game] > 1:
                emit(failed(spec, game, f"the worker process {reason} twice while playing "
                                        "this game"))
            else:
                queue.appendleft([game])
        self._close(dead.connection)
        return self._start(spec)

    def _stop(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            with contextlib.suppress(OSError):
                worker.connection.send(None)
            worker.process.join(1)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(1)
        self._close(worker.connection)

    def _close(self, connection: Connection) -> None:
        connection.close()
        with contextlib.suppress(ValueError):
            self._ends.remove(connection)


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"
