"""The caches of costly values (the lexicon, the models, the clue spaces) build each value
once, however many threads ask for it at the same moment (the fourth hostile review: twenty
web requests built twenty lexicons at once, 8 GB)."""

from __future__ import annotations

import pickle
import threading

import pytest

from codenames_ai.agents import space
from codenames_ai.legality import language
from codenames_ai.once import BuiltOnce, built_once
from codenames_ai.vectors import default, links, minilm

from .waiting import until

CALLERS = 8


def test_callers_at_the_same_moment_wait_for_one_build_and_share_it() -> None:
    builds: list[str] = []
    release = threading.Event()

    @built_once()
    def costly(name: str) -> list[str]:
        builds.append(name)
        release.wait(30)  # held until every other caller is waiting
        return [name]

    got: list[list[str]] = []
    threads = [threading.Thread(target=lambda: got.append(costly("lexicon")))
               for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    until(lambda: costly.waiting >= CALLERS - 1, "the others to queue behind the build",
          timeout=30)
    assert costly.waiting == CALLERS - 1 and builds == ["lexicon"]
    release.set()
    for thread in threads:
        thread.join(30)
    assert builds == ["lexicon"] and len(got) == CALLERS
    assert all(value is got[0] for value in got)
    assert costly.cache_info().currsize == 1


def test_a_value_built_is_kept_by_its_arguments_up_to_its_size() -> None:
    calls: list[tuple[int, int]] = []

    @built_once(maxsize=2)
    def add(a: int, b: int = 0) -> int:
        calls.append((a, b))
        return a + b

    assert (add(1), add(1), add(2, b=3), add(2, b=3)) == (1, 1, 5, 5)
    assert calls == [(1, 0), (2, 3)]
    add(4)  # a third value drops the least recently used
    assert add(1) == 1 and calls[-1] == (1, 0)
    assert add.cache_info().currsize == 2


def test_a_failed_build_is_not_kept_and_the_next_caller_builds_again() -> None:
    attempts: list[int] = []

    @built_once()
    def flaky() -> int:
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("disk hiccup")
        return 7

    with pytest.raises(OSError):
        flaky()
    assert flaky() == 7 and len(attempts) == 2 and flaky.waiting == 0


@pytest.mark.parametrize("cached", [language.lexicon, space._space_by_name, default._load,
                                    links.eat_links, minilm._load_model])
def test_every_costly_value_of_a_server_is_built_once(cached: object) -> None:
    assert isinstance(cached, BuiltOnce)
    assert pickle.loads(pickle.dumps(cached)) is cached  # shipped by name, as a function
