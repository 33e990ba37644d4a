"""Rooms end to end in headless Chromium, with three browser contexts (three people on their
own devices): one creates a room from the start page ("Play with friends"), a second opens
the red guessers' link, a spectator opens the room's link; the two red guessers play a whole
game against the AI blue team with the AI red spymaster, each page following the other's
moves live (no reload), and the server is killed mid-game and started again on the same
database and port: the pages reconnect and the game goes on where it was.

Screenshots: tests/artifacts/web-room-<screen>-desktop.png and -phone.png."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .server import Server
from .test_browser import ARTIFACTS, CHROMIUM, DESKTOP, PHONE

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("rooms") / "games.sqlite3")
    running.start()
    yield running
    if running.process is not None and running.process.poll() is None:
        running.kill()


def revealed(page: Any) -> int:
    return int(page.locator(".card.revealed").count())


def until(done: Any, what: str, timeout: float = 20.0) -> None:
    """Wait for ``done()`` (the page's CSP forbids the evaluated strings of wait_for_function)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def over(page: Any) -> bool:
    return bool(page.get_attribute("body", "data-state") == "over")


def shoot(page: Any, screen: str) -> None:
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"web-room-{screen}-{name}.png"), full_page=True)
        if name == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)


def test_two_guessers_play_a_room_through_a_server_restart(server: Server,
                                                          browser: Any) -> None:
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(3)]
    try:
        creator, friend, spectator = (context.new_page() for context in contexts)
        creator.goto(f"{server.base}/")
        creator.locator("#friends").click()  # the red guessers' seat is ticked by default
        creator.wait_for_url("**/room/*")
        creator.locator("#seats li[data-seat=red-guesser] .holder.person").wait_for()
        assert "#" not in creator.url  # the seat's secret left the address bar
        links = creator.locator("#link-list input")
        assert links.count() == 5
        by_label = {creator.locator("#link-list li span").nth(i).inner_text():
                    links.nth(i).input_value() for i in range(5)}
        friend.goto(by_label["Red guessers"])
        spectator.goto(by_label["Spectators (no key)"])
        players = (creator, friend)
        for page in (*players, spectator):
            page.locator("#live[data-state=live]").wait_for()
            assert page.locator(".card[class*=key-]").count() == 0  # no key for guessers
        shoot(creator, "seats")
        moves = 0
        restarted = False
        while not over(creator):
            page = players[moves % 2]
            other = players[(moves + 1) % 2]
            page.locator(".card.can-guess").first.wait_for(timeout=20_000)
            before = revealed(page)
            page.locator(".card.can-guess").first.click()
            # the other page shows the move without a reload
            until(lambda other=other, before=before: revealed(other) > before or over(other),
                  "the other page to follow")
            moves += 1
            if moves == 1:  # mid-game (or, at worst, just over: the assassin)
                shoot(friend, "game")
                server.kill()
                for watching in (*players, spectator):
                    watching.locator("#live[data-state=down]").wait_for(timeout=10_000)
                server.start()
                for watching in (*players, spectator):
                    watching.locator("#live[data-state=live]").wait_for(timeout=20_000)
                restarted = True
                assert revealed(creator) == revealed(friend) == revealed(spectator)
        for page in (friend, spectator):
            until(lambda page=page: over(page), "the end on every page")
        assert restarted and moves >= 1
        assert revealed(creator) == revealed(friend) == revealed(spectator)
        assert spectator.locator(".card[class*=key-]").count() > 0  # the key, at the end
        shoot(friend, "over")
    finally:
        for context in contexts:
            context.close()


def test_a_person_spymaster_and_a_person_guesser_against_the_ai_team(server: Server,
                                                                     browser: Any) -> None:
    def post(path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(f"{server.base}{path}", method="POST",
                                         data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request, timeout=30))

    created = post("/api/rooms", {"people": ["red-spymaster", "red-guesser"]})
    while created["view"]["over"]:  # blue starts and its AI found the assassin: deal again
        created = post("/api/rooms", {"people": ["red-spymaster", "red-guesser"]})
    spymaster_token = created["seats"]["red-spymaster"]
    word = next(w for w in ("ocean", "melody", "tundra", "orbit")  # one not on the board
                if post(f"/api/rooms/{created['id']}/check",
                        {"token": spymaster_token, "word": w})["legal"])
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    try:
        spymaster, guesser = (context.new_page() for context in contexts)
        base = f"{server.base}/room/{created['id']}#seat="
        spymaster.goto(base + spymaster_token)
        guesser.goto(base + created["seats"]["red-guesser"])
        for page in (spymaster, guesser):
            page.locator("#live[data-state=live]").wait_for()
        assert spymaster.locator(".card[class*=key-]").count() == 25  # the key: spymaster only
        assert guesser.locator(".card[class*=key-]").count() == 0
        spymaster.locator("#clue-word").fill(word)
        spymaster.locator("#clue-check.ok").wait_for()
        spymaster.locator("#give-clue:not([disabled])").wait_for()
        spymaster.locator("#give-clue").click()
        guesser.locator("#clue-banner .clue-word").wait_for()
        assert guesser.locator("#clue-banner .clue-word").inner_text().lower() == word
        guesser.locator(".card.can-guess").first.click()
        until(lambda: revealed(spymaster) >= 1, "the spymaster's page to show the guess")
        shoot(spymaster, "spymaster")
    finally:
        for context in contexts:
            context.close()
