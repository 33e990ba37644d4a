"""The Ray backend on a local Ray with 2 CPUs: the same results as the other backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from codenames_ai.harness.backends import SerialBackend
from codenames_ai.harness.results import read_results
from codenames_ai.harness.run import run_tournament
from codenames_ai.harness.spec import AgentRef, TournamentSpec
from codenames_ai.harness.summary import without_timing

ray = pytest.importorskip("ray", reason="the Ray backend is the optional extra: "
                                        "pip install 'codenames-ai[ray]'")

from codenames_ai.harness.games import check_agents  # noqa: E402
from codenames_ai.harness.ray_backend import RayBackend, model_names  # noqa: E402


@pytest.fixture(scope="module")
def backend() -> Iterator[RayBackend]:
    yield RayBackend(workers=2, batch_size=4)  # starts ray.init(num_cpus=2) on first use
    ray.shutdown()


def test_same_summary_as_serial_with_shared_models(tmp_path: Path, backend: RayBackend
                                                   ) -> None:
    spec = TournamentSpec.from_options(
        spymasters=["glove-ev-spymaster-v1", "random-spymaster-v1"],
        guessers=["glove-guesser-v1"], games=4, seed=3)
    assert model_names(check_agents(spec)) == ["glove-6b-50d"]
    on_ray = run_tournament(spec, tmp_path / "ray", backend, quiet=True)
    serial = run_tournament(spec, tmp_path / "serial", SerialBackend(), quiet=True)
    assert without_timing(on_ray) == without_timing(serial)
    assert on_ray.games.played == 4


@pytest.mark.parametrize("games", [
    # Two games, a batch each: each game kills its worker once, and Ray retries its batch.
    pytest.param(2, id="retried"),
    # Batches of two games: the first game kills its worker, then the second one in the
    # batch Ray retried, and the games are played one by one. Each death costs a new worker.
    pytest.param(4, id="then-alone", marks=pytest.mark.slow)])
def test_a_dead_worker_is_retried(tmp_path: Path, backend: RayBackend, games: int) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    spec = TournamentSpec(
        agents=(AgentRef("killer", "tests.harness.plugins:WorkerKiller",
                         (("letters", "abcdefghijklmnopqrstuvwxyz"), ("marker_dir", str(markers)))),
                AgentRef("rg", "random-guesser-v1")),
        spymasters=("killer",), guessers=("rg",), games=games, seed=2, swap_sides=False)
    run_tournament(spec, tmp_path / "once", backend, quiet=True)
    results = list(read_results(tmp_path / "once"))
    assert len(list(markers.iterdir())) == games, "every board should have killed its worker"
    assert sorted(r["game"] for r in results) == list(range(games))
    assert all(r["status"] == "ok" for r in results)
