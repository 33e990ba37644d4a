"""The Ray backend (``pip install 'codenames-ai[ray]'``): the same games on a Ray cluster.

The driver builds every agent once (``check_agents``), asks each for its models
(``model_names()``), and ``ray.put``s the clue space it built of each:
every worker on a node then maps one shared, read-only, zero-copy copy instead of loading the
model itself (workers on other machines need no model cache). Games go out in batches (one
game per task costs milliseconds of scheduling) and results stream back batch by batch.
Ray retries a batch whose worker died once; a batch that fails again is split and each of
its games tried once more on its own before it is recorded as failed.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Sequence
from typing import Any

from ..agents.space import built_spaces, share_space
from ..core.errors import ConfigError
from ..core.protocols import model_names as agent_models
from ..extras import RAY
from .backends import DEFAULT_BATCH, SINGLE_THREADED, Emit, batches, failed
from .games import check_agents, play_games
from .spec import TournamentSpec


def model_names(agents: Sequence[Any]) -> list[str]:
    """The word models these agents play with (each one's ``model_names()``), in order."""
    return list(dict.fromkeys(name for agent in agents for name in agent_models(agent)))


_INSTALLED: set[str] = set()  # shared-space objects this worker process has installed


def _play_batch(spec: TournamentSpec, games: list[int], shared: list[Any]
                ) -> list[dict[str, Any]]:
    """A Ray task: install the shared clue spaces (once per worker process: unpickling the
    word index costs far more than a batch of games), then play the games."""
    import ray

    reference = shared[0]  # wrapped in a list so Ray does not fetch it for every task
    if reference.hex() not in _INSTALLED:
        for name, size, space in ray.get(reference):
            share_space(name, space, size)
        _INSTALLED.add(reference.hex())
    return list(play_games(spec, games))


class RayBackend:
    """Batches of games as Ray tasks; ``address`` None starts a local Ray, ``"auto"`` or
    ``HOST:PORT`` joins a running cluster."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None,
                 batch_size: int = DEFAULT_BATCH) -> None:
        RAY.require("the Ray backend")
        import ray

        self._ray = ray
        self.address = address
        self.workers = workers
        self.batch_size = batch_size

    def _connect(self) -> None:
        ray = self._ray
        if ray.is_initialized():
            return
        env = dict(SINGLE_THREADED)
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": "ERROR", "runtime_env": {"env_vars": env}}
        if self.address is None:
            options["address"] = "local"  # a new Ray of our own, even beside a running one
            options["num_cpus"] = self.workers or os.cpu_count() or 1
            # Local workers import what this process can (module:Class plugins included);
            # on a cluster, plugins must be installed on every node.
            env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        else:
            _check_reachable(self.address)
            options["address"] = self.address
        try:
            ray.init(**options)
        except Exception as exc:  # Ray raises many kinds here (connection, token, config)
            where = self.address or "a local Ray instance"
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            hint = ("give the cluster's token (RAY_AUTH_TOKEN, see the README)"
                    if "token" in first.lower() else
                    "start one with 'ray start --head' (see the README) or drop --address")
            raise ConfigError(f"cannot connect to Ray at {where}: {first[:300]}; {hint}"
                              ) from None

    def run(self, spec: TournamentSpec, games: Sequence[int], emit: Emit) -> None:
        ray = self._ray
        self._connect()
        agents = check_agents(spec)  # holds their clue spaces (filters built) while shipped
        shared = ray.put(built_spaces(model_names(agents)))
        del agents
        task = ray.remote(max_retries=1)(_play_batch)
        single = task.options(max_retries=0)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = max(1, min(self.batch_size, -(-len(games) // cpus)))
        # (games, alone): a batch, or one game retried on its own after its batch failed
        waiting: list[tuple[list[int], bool]] = [(b, False) for b in batches(games, size)]
        window = 2 * cpus  # tasks in flight: enough to keep every CPU busy, memory bounded
        pending: dict[Any, tuple[list[int], bool]] = {}
        while waiting or pending:
            while waiting and len(pending) < window:
                batch, alone = waiting.pop(0)
                remote = single if alone else task
                pending[remote.remote(spec, batch, [shared])] = (batch, alone)
            done, _ = ray.wait(list(pending), num_returns=1)
            batch, alone = pending.pop(done[0])
            try:
                results = ray.get(done[0])
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.RayTaskError,
                    ray.exceptions.NodeDiedError) as exc:
                if alone:
                    emit(failed(spec, batch[0], f"the Ray worker {_reason(exc)} again while "
                                                "playing this game on its own"))
                else:  # Ray retried the batch once already; try each game alone
                    waiting[:0] = [([game], True) for game in batch]
                continue
            for result in results:
                emit(result)


def _check_reachable(address: str) -> None:
    """Ray retries an unreachable HOST:PORT for minutes; one TCP connect says it at once."""
    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ConfigError(f"Ray address {address!r} is not 'auto' or HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise ConfigError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}; "
                          "check the address, or start a cluster there with 'ray start "
                          "--head' (see the README)") from None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return "died" + (f" ({text[0][:200]})" if text else "")
