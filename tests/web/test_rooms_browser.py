"""Rooms end to end in headless Chromium, with browser contexts as people on their own
devices: one creates a room from the start page ("Play with friends", named, in the red
guessers' seat), a friend opens the room's own link, says a name and sits down with the red
guessers, a spectator opens the same link and only watches; the two red guessers play a whole
game against the AI blue team with the AI red spymaster, each page following the other's
moves live (no reload), and the server is killed mid-game and started again on the same
database and port: the pages reconnect and the game goes on where it was. Then: a person
spymaster with a person guesser (seat links); a spymaster seat a person holds is not offered
to others, nor, once a person has sat at a guesser seat of the deal, while handed to the AI
(shut), and its holder takes it back; "Play again"
deals a new board on every page with the same seats. The other variants: a co-op room made
from the start page (its seat choices follow the game chosen), its spymaster and its guessers
on two devices playing to the end, the spymaster covering the virtual team's agents; a
three-player room whose one guesser guesses on red's turn and on blue's.

Screenshots: tests/artifacts/web-room-<screen>-desktop.png and -phone.png."""

from __future__ import annotations

import http.client
import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from codenames_ai.web.games import GameConfig
from codenames_ai.web.rooms import room_game

from ..waiting import until  # the page's CSP forbids wait_for_function's strings
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


def call(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    """The API directly (a GET without a body), to set a scene faster than by clicks."""
    request = urllib.request.Request(
        f"{server.base}{path}", method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


@contextmanager
def devices(browser: Any, count: int) -> Iterator[list[Any]]:
    """``count`` pages, each in a browser context of its own (a person's own device)."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(count)]
    try:
        yield [context.new_page() for context in contexts]
    finally:
        for context in contexts:
            context.close()


def revealed(page: Any) -> int:
    return int(page.locator(".card.revealed").count())


def over(page: Any) -> bool:
    return bool(page.get_attribute("body", "data-state") == "over")


def holder(page: Any, seat: str) -> str:
    """Who the page's seat list says holds a seat: "AI", or the names there."""
    return str(page.locator(f"#seats li[data-seat={seat}] .holder").inner_text())


def words(page: Any) -> list[str]:
    return list(page.locator("#board .card .word").all_inner_texts())


def shoot(page: Any, screen: str) -> None:
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"web-room-{screen}-{name}.png"), full_page=True)
        if name == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)


def sit(page: Any, seat: str, name: str) -> None:
    """On a page opened with the room's link: say a name and click the seat's "Sit here"."""
    page.locator(f"#seats li[data-seat={seat}] button.sit").wait_for()
    page.locator("#room-name").fill(name)
    page.locator(f"#seats li[data-seat={seat}] button.sit").click()
    page.locator(f"#seats li.mine[data-seat={seat}]").wait_for()
    assert page.locator("#seats button.sit").count() == 0  # seated: no more seats offered


def test_two_guessers_play_a_room_through_a_server_restart(server: Server,
                                                          browser: Any) -> None:
    with devices(browser, 3) as (creator, friend, spectator):
        creator.goto(f"{server.base}/")
        creator.locator("#friends-name").fill("Ann")
        creator.select_option("#friends-seat", "red-guesser")
        assert creator.locator("#friends-open").is_checked()  # seats chosen from the room link
        shoot(creator, "start")
        creator.locator("#friends").click()
        creator.wait_for_url("**/room/*")
        creator.locator("#seats li[data-seat=red-guesser] .holder.person").wait_for()
        assert not over(creator)  # red starts every deal of the test server
        assert "#" not in creator.url  # the seat's secret left the address bar
        assert holder(creator, "red-guesser") == "Ann"
        room_link = creator.locator("#share #room-link").input_value()
        assert room_link == creator.url  # the room's own link: no secret in it
        assert creator.locator("#link-list input").count() == 4  # each seat's own link too
        friend.goto(room_link)
        friend.locator("#choose").wait_for()
        assert friend.locator("#share").is_hidden()  # a visitor has the link already
        # the guessers' seats (Ann's shared); the spymasters' are shut, as Ann guesses
        assert friend.locator("#seats button.sit").count() == 2
        assert friend.locator("#seats .why").all_inner_texts() == ["shut", "shut"]
        friend.locator("#room-name").fill("Bob")
        shoot(friend, "choose")
        sit(friend, "red-guesser", "Bob")
        spectator.goto(room_link)
        players = (creator, friend)
        for page in (*players, spectator):
            page.locator("#live[data-state=live]").wait_for()
            until(lambda page=page: holder(page, "red-guesser") == "Ann, Bob",
                  "both names on every page")
            assert page.locator(".card[class*=key-]").count() == 0  # no key for guessers
        assert spectator.locator("#seats .seat-toggle").count() == 0  # it only watches
        assert spectator.locator("#room-title").inner_text() == "Room — choose a seat, or watch"
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
        for page in (creator, friend, spectator):
            assert holder(page, "red-guesser") == "Ann, Bob"
        # Play again for the seated and the creator; a spectator only watches
        assert friend.locator("#room-again").is_visible()
        assert not spectator.locator("#room-again").is_visible()
        shoot(friend, "over")


def test_a_person_spymaster_and_a_person_guesser_against_the_ai_team(server: Server,
                                                                     browser: Any) -> None:
    created = call(server, "/api/rooms", {"people": ["red-spymaster", "red-guesser"],
                                  "open_seats": False})
    assert not created["view"]["over"]  # red starts every deal of the test server
    spymaster_token = created["seats"]["red-spymaster"]
    word = next(w for w in ("ocean", "melody", "tundra", "orbit")  # one not on the board
                if call(server, f"/api/rooms/{created['id']}/check",
                        {"token": spymaster_token, "word": w})["legal"])
    with devices(browser, 3) as (spymaster, guesser, stranger):
        base = f"{server.base}/room/{created['id']}"
        spymaster.goto(f"{base}#seat={spymaster_token}")
        guesser.goto(f"{base}#seat={created['seats']['red-guesser']}")
        stranger.goto(base)  # seats come from their own links here
        for page in (spymaster, guesser, stranger):
            page.locator("#live[data-state=live]").wait_for()
        assert spymaster.locator(".card[class*=key-]").count() == 25  # the key: spymaster only
        assert guesser.locator(".card[class*=key-]").count() == 0
        assert holder(guesser, "red-spymaster") == "person"  # a seat link's person, unnamed
        assert stranger.locator("#room-seat-note").is_visible()
        assert stranger.locator("#seats button.sit").count() == 0
        assert stranger.locator("#share").is_hidden()
        spymaster.locator("#clue-word").fill(word)
        spymaster.locator("#clue-check.ok").wait_for()
        spymaster.locator("#give-clue:not([disabled])").wait_for()
        spymaster.locator("#give-clue").click()
        guesser.locator("#clue-banner .clue-word").wait_for()
        assert guesser.locator("#clue-banner .clue-word").inner_text().lower() == word
        guesser.locator(".card.can-guess").first.click()
        until(lambda: revealed(spymaster) >= 1, "the spymaster's page to show the guess")
        shoot(spymaster, "spymaster")


def test_a_spymaster_seat_handed_to_the_ai_and_taken_back(server: Server,
                                                         browser: Any) -> None:
    created = call(server, "/api/rooms", {"people": []})
    while created["view"]["current_team"] != "red":  # nobody sits: nothing moved yet
        created = call(server, "/api/rooms", {"people": []})
    room_link = f"{server.base}/room/{created['id']}"
    with devices(browser, 3) as (spymaster, guesser, watcher):
        # Cleo made the room: sitting at a spymaster seat from the creator's page shuts no
        # guesser seat (one sitting there by the room's link would, for the deal)
        for page, link in ((spymaster, f"{room_link}#creator={created['creator']}"),
                           (guesser, room_link), (watcher, room_link)):
            page.goto(link)
            page.locator("#live[data-state=live]").wait_for()
        assert watcher.locator("#room-waiting").is_visible()  # nobody at the table yet
        sit(spymaster, "red-spymaster", "Cleo")
        spymaster.locator("#clue-form").wait_for()  # red starts: Cleo's clue
        assert spymaster.locator(".card[class*=key-]").count() == 25
        for page in (guesser, watcher):  # taken by a person: it shows the key
            page.locator("#seats li[data-seat=red-spymaster] .why").wait_for()
            assert page.locator("#seats li[data-seat=red-spymaster] button.sit").count() == 0
            assert page.locator("#seats li[data-seat=blue-spymaster] button.sit").count() == 1
            assert page.locator("#room-waiting").is_hidden()
        sit(guesser, "red-guesser", "Dan")
        assert guesser.locator(".card[class*=key-]").count() == 0
        spymaster.locator("#seats li[data-seat=red-spymaster] .seat-toggle").click()
        # the AI gives the clue at once; every page shows the seat held by the AI
        guesser.locator(".card.can-guess").first.wait_for()
        assert guesser.locator("#clue-banner .clue-word").count() == 1
        for page in (spymaster, guesser, watcher):
            until(lambda page=page: holder(page, "red-spymaster") == "AI", "the AI's seat")
        assert "Cleo" in watcher.locator("#seats li[data-seat=red-spymaster] .was").inner_text()
        # Dan guesses in this deal: the room's link seats no one in a spymaster seat now (he
        # could read the key in another tab, hand the seat back and guess on)
        shut = watcher.locator("#seats li[data-seat=red-spymaster] .why")
        assert shut.inner_text() == "shut"
        assert watcher.locator("#seats li[data-seat=red-spymaster] button.sit").count() == 0
        shoot(watcher, "handed")
        toggle = spymaster.locator("#seats li[data-seat=red-spymaster] .seat-toggle")
        assert toggle.inner_text() == "Take this seat"
        toggle.click()
        for page in (spymaster, guesser, watcher):
            until(lambda page=page: holder(page, "red-spymaster") == "Cleo", "Cleo back")
        until(lambda: watcher.locator("#seats li[data-seat=red-spymaster] .why").inner_text()
              == "taken", "the seat taken again")
        assert toggle.inner_text() == "Hand to the AI"


def test_closing_a_room_asks_first_then_every_page_shows_it_closed(server: Server,
                                                                   browser: Any) -> None:
    """Issue 41: "Close the room" closed it at once, and a friend's page then showed only a
    small "Room (closed)" while its banner still said "Red's guessers to play" under a live
    clue, with no key and no word of who closed it or what next. Now closing asks first,
    and every page shows the room closed: by whom, the key on the cards, the history, and a
    link to start a new room; no turn and no clue."""
    created = call(server, "/api/rooms", {"people": [], "open_seats": True})
    room = f"/api/rooms/{created['id']}"
    ann = call(server, f"{room}/join", {"seat": "red-guesser", "name": "Ann",
                                        "creator": created["creator"]})
    assert not ann["view"]["over"] and ann["view"]["clue"]  # red's AI spymaster clued
    with devices(browser, 2) as (creator, friend):
        creator.goto(f"{server.base}/room/{created['id']}#seat={ann['token']}"
                     f"&creator={created['creator']}")
        friend.goto(f"{server.base}/room/{created['id']}")
        sit(friend, "red-guesser", "Bob")
        for page in (creator, friend):
            page.locator("#live[data-state=live]").wait_for()
            page.locator("#clue-banner .clue-word").wait_for()
        creator.locator("#close-room").click()  # asks first, and closes nothing yet
        assert creator.locator("#close-confirm").is_visible()
        assert "nobody can move again" in creator.locator("#close-question").inner_text()
        assert creator.locator("#close-room").is_hidden()
        assert not call(server, room)["room"]["closed"]
        shoot(creator, "close-confirm")
        creator.locator("#close-no").click()  # "Keep playing"
        assert creator.locator("#close-confirm").is_hidden()
        assert creator.locator("#close-room").is_visible()
        assert not call(server, room)["room"]["closed"]
        creator.locator("#close-room").click()
        creator.locator("#close-yes").click()
        for page in (creator, friend):
            page.locator("body[data-state=closed]").wait_for()
            assert page.locator("#turn-banner").inner_text() == ("Room closed — the game "
                                                                 "stopped here")
            assert page.locator("#clue-banner").is_hidden()
            assert page.locator("#result").inner_text() == "Room closed"
            assert page.locator("#outcome").inner_text().startswith(
                "Ann (Red guessers) closed the room on turn 1, before the game was over.")
            assert page.locator(".card[class*=key-]").count() == 25  # the key, for everyone
            assert page.locator("#legend").is_visible()
            assert page.locator(".card.can-guess").count() == 0
            assert page.locator("#history .turn").count() >= 1  # the game's record
            new_room = page.locator("#room-new")
            assert new_room.is_visible() and new_room.get_attribute("href") == "/#friends-seats"
            assert page.locator("#close-room").is_hidden()
            assert page.locator("#scoreboard .badge.current").count() == 0
            assert page.locator("#seats li.current").count() == 0
        shoot(friend, "closed")
        friend.locator("#room-new").click()
        friend.locator("#friends-seats").wait_for()


def dealt_key(server: Server, room_id: str) -> list[str]:
    """The key of the room's deal, from the server's database (no seat of the AI's shows
    it): its stored settings deal the same board again."""
    with sqlite3.connect(server.database) as db:
        (config,) = db.execute("SELECT config FROM games WHERE id = (SELECT game FROM rooms "
                               "WHERE id = ?)", (room_id,)).fetchone()
    game = room_game(GameConfig.from_stored(json.loads(config)))
    return [identity.value for identity in game.state.board.key]


def test_play_again_deals_a_new_board_on_every_page_with_the_same_seats(
        server: Server, browser: Any) -> None:
    created = call(server, "/api/rooms", {"people": []})
    room = f"/api/rooms/{created['id']}"
    with devices(browser, 2) as (creator, player):
        creator.goto(f"{server.base}/room/{created['id']}#creator={created['creator']}")
        creator.locator("#live[data-state=live]").wait_for()
        assert creator.locator("#room-waiting").is_visible()
        joined = call(server, f"{room}/join", {"seat": "red-guesser", "name": "Eve"})
        player.goto(f"{server.base}/room/{created['id']}#seat={joined['token']}")
        player.locator("#live[data-state=live]").wait_for()
        creator.locator("#room-waiting").wait_for(state="hidden")
        assert not joined["view"]["over"]  # red starts every deal of the test server
        assassin = dealt_key(server, created["id"]).index("assassin")  # the red guessers
        call(server, f"{room}/moves", {"token": joined["token"], "move": "guess",  # end it
                                       "index": assassin, "expect": joined["view"]["expect"]})
        for page in (creator, player):
            until(lambda page=page: over(page), "the end on every page")
            page.locator("#room-again").wait_for()  # the seated and the creator deal again
        before = words(player)
        assert words(creator) == before
        player.locator("#room-again").click()
        for page in (creator, player):
            until(lambda page=page: words(page) != before, "a new board on every page")
            assert holder(page, "red-guesser") == "Eve"
            assert [holder(page, seat) for seat in ("red-spymaster", "blue-spymaster",
                                                    "blue-guesser")] == ["AI"] * 3
        assert words(creator) == words(player)
        shoot(player, "again")


def test_a_page_refused_a_live_connection_follows_the_room_once_there_is_room(
        server: Server, browser: Any) -> None:
    """A full room answers a new event stream 429, on which a browser's EventSource gives up
    for good: the page tries again later by itself and follows the room from then on."""
    created = call(server, "/api/rooms", {"people": []})  # the game waits: nothing moves
    held = []
    for _ in range(16):  # spectators get half of a room's 32 live connections
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", f"/api/rooms/{created['id']}/events")
        response = connection.getresponse()
        assert response.status == 200
        held.append(connection)
    refused = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    refused.request("GET", f"/api/rooms/{created['id']}/events")
    assert refused.getresponse().status == 429
    try:
        with devices(browser, 1) as (page,):
            page.goto(f"{server.base}/room/{created['id']}")
            page.locator("#live[data-state=down]").wait_for(timeout=10_000)
            for connection in held:
                connection.close()  # the server frees them when their 10-s streams end
            page.locator("#live[data-state=live]").wait_for(timeout=40_000)
            call(server, f"/api/rooms/{created['id']}/join",
                 {"seat": "red-guesser", "name": "Zed"})
            until(lambda: holder(page, "red-guesser") == "Zed",
                  "the page to follow a change after its retry")
    finally:
        for connection in held:
            connection.close()


CLUE_WORDS = ("ocean", "melody", "tundra", "orbit", "velvet", "canyon", "harbor", "lantern",
              "meadow", "puzzle", "quartz", "saddle", "thunder", "violin", "walnut", "zephyr",
              "blossom", "compass", "glacier", "ember")


def legal_clue(server: Server, room_id: str, token: str, used: set[str]) -> str:
    """A clue word the room accepts now (none on the board), each used once."""
    word = next(w for w in CLUE_WORDS if w not in used and call(
        server, f"/api/rooms/{room_id}/check", {"token": token, "word": w})["legal"])
    used.add(word)
    return word


def give_clue(page: Any, word: str, number: str) -> None:
    """Type a clue into the spymaster's page, wait for its live check, give it."""
    page.locator("#clue-word").fill(word)
    page.select_option("#clue-number", number)
    page.locator("#clue-check.ok").wait_for()
    page.locator("#give-clue:not([disabled])").click()
    page.locator("#clue-form").wait_for(state="hidden")


def touch(page: Any, index: int) -> None:
    """Click a card (a guess or a cover) and wait for the page to show it revealed."""
    page.locator(f".card.can-guess[data-index='{index}']").click()
    page.locator(f".card.revealed[data-index='{index}']").wait_for()


def page_state(page: Any) -> tuple[str, int]:
    """The page's state and how many cards show the key, read at one instant."""
    state, keys = page.evaluate(
        "[document.body.dataset.state, document.querySelectorAll('.card[class*=key-]').length]")
    return str(state), int(keys)


def your_turn(page: Any) -> bool:
    return bool(page.get_attribute("body", "data-state") == "your-turn")


def seat_options(page: Any) -> list[str]:
    return list(page.locator("#friends-seat option").all_inner_texts())


def test_a_coop_room_from_the_start_page_played_to_the_end(server: Server,
                                                           browser: Any) -> None:
    with devices(browser, 2) as pages:
        spymaster, guesser = pages
        spymaster.goto(f"{server.base}/")
        assert seat_options(spymaster)[:2] == ["Red guessers", "Red spymaster (sees the key)"]
        assert "level" in spymaster.locator("#friends-variant-hint").inner_text()
        spymaster.select_option("#friends-variant", "three-player")
        assert seat_options(spymaster) == [
            "Red spymaster (sees the key)", "Blue spymaster (sees the key)",
            "Guesser (both teams)", "just watch / choose later"]
        spymaster.select_option("#friends-variant", "coop")
        assert seat_options(spymaster) == ["Spymaster (sees the key)", "Guessers",
                                           "just watch / choose later"]
        assert "No level" in spymaster.locator("#friends-variant-hint").inner_text()
        spymaster.locator("#friends-name").fill("Ann")
        spymaster.select_option("#friends-seat", "spymaster")
        spymaster.locator("#friends").click()
        spymaster.wait_for_url("**/room/*")
        spymaster.locator("#seats li.mine[data-seat=spymaster]").wait_for()
        room_id = spymaster.url.rsplit("/", 1)[1]
        seen = call(server, f"/api/rooms/{room_id}")
        assert seen["room"]["variant"] == "coop" and seen["level"] is None
        assert list(seen["room"]["seats"]) == ["spymaster", "guesser"]
        players = seen["starting_team"]
        virtual = "blue" if players == "red" else "red"
        token = spymaster.evaluate(f"JSON.parse(sessionStorage.getItem('room:{room_id}')).token")
        key = [card["key"] for card in call(server, f"/api/rooms/{room_id}?token={token}")["cards"]]
        assert spymaster.locator("#room-title").inner_text() == "Room — you sit as Spymaster"
        assert spymaster.locator("#link-list li").count() == 2  # the room's two seats' links
        guesser.goto(spymaster.locator("#room-link").input_value())
        sit(guesser, "guesser", "Bob")
        for page in pages:
            page.locator("#live[data-state=live]").wait_for()
            until(lambda page=page: holder(page, "guesser") == "Bob", "Bob on every page")
            for seat in ("spymaster", "guesser"):  # co-op's seats: the starting team's colour
                assert f"team-{players}" in str(page.get_attribute(
                    f"#seats li[data-seat={seat}]", "class"))
            assert f"virtual {virtual} team" in page.locator("#room-variant").inner_text()
        assert guesser.locator("#seats li[data-seat=guesser] b").inner_text() == "Guessers"
        used: set[str] = set()
        clues = covers = 0
        passed = False
        guessed = 0  # this turn's guesses
        moves = 0
        while True:
            until(lambda: any(over(page) or your_turn(page) for page in pages), "a turn")
            for page, keys in ((guesser, 0), (spymaster, 25)):
                state, shown = page_state(page)
                assert state == "over" or shown == keys, (state, shown)
            if over(spymaster) or over(guesser):
                break
            moves += 1
            assert moves < 80
            if your_turn(spymaster) and spymaster.locator("#clue-form").is_visible():
                left = int(spymaster.locator(f"#score-{players} .count").inner_text())
                give_clue(spymaster, legal_clue(server, room_id, token, used), str(min(left, 2)))
                clues += 1
                guessed = 0
            elif your_turn(spymaster):  # the cover: only the virtual team's agents offered
                choices = spymaster.locator(".card.can-guess")
                assert choices.count() == spymaster.locator(
                    f".card.can-guess.key-{virtual}").count() > 0
                assert "cover a" in spymaster.locator("#turn-banner").inner_text()
                if not covers:
                    guesser.locator("#turn-banner", has_text="spymaster covers").wait_for()
                    shoot(spymaster, "coop-spymaster")
                touch(spymaster, int(str(choices.first.get_attribute("data-index"))))
                covers += 1
            else:  # the guessers: two of their agents a turn, then a stop or a bystander
                guesser.locator("#clue-banner .clue-word").wait_for()
                if guessed == 2 and not passed:
                    guesser.locator("#pass").click()
                    guesser.locator("#pass").wait_for(state="hidden")
                    passed = True
                    continue
                hidden = {int(str(i)) for i in guesser.locator(".card.can-guess").evaluate_all(
                    "cards => cards.map(card => card.dataset.index)")}
                wanted = [players] if guessed < 2 else ["bystander", virtual]
                touch(guesser, next(i for i, k in enumerate(key)
                                    if i in hidden and k in wanted))
                guessed += 1
        for page in pages:
            until(lambda page=page: over(page), "the end on both pages", timeout=5)
            assert page.locator(".card[class*=key-]").count() == 25  # the key, at the end
            assert page.locator("#result").inner_text() == "You win!"
        assert revealed(spymaster) == revealed(guesser)
        assert passed and covers >= 1 and clues >= 2
        shoot(guesser, "coop-over")


def test_a_three_player_room_whose_one_guesser_guesses_for_both_teams(
        server: Server, browser: Any) -> None:
    people = {"settings": {"variant": "three-player"}, "people": ["red-spymaster", "guesser"]}
    created = call(server, "/api/rooms", people)
    assert created["view"]["current_team"] == "red"  # red starts every deal of the server
    room_id, tokens = created["id"], created["seats"]
    key = [card["key"] for card in call(
        server, f"/api/rooms/{room_id}?token={tokens['red-spymaster']}")["cards"]]
    with devices(browser, 2) as (spymaster, guesser):
        for page, seat in ((spymaster, "red-spymaster"), (guesser, "guesser")):
            page.goto(f"{server.base}/room/{room_id}#seat={tokens[seat]}")
            page.locator("#live[data-state=live]").wait_for()
        assert guesser.locator("#seats li b").all_inner_texts() == [
            "Red spymaster", "Blue spymaster", "Guesser (both teams)"]
        assert "team-none" in str(guesser.get_attribute("#seats li[data-seat=guesser]", "class"))
        assert guesser.locator("#room-title").inner_text() == \
            "Room — you sit as Guesser (both teams)"
        assert holder(guesser, "blue-spymaster") == "AI"
        assert spymaster.locator(".card[class*=key-]").count() == 25
        give_clue(spymaster, legal_clue(server, room_id, tokens["red-spymaster"], set()), "1")

        def guess_for(team: str) -> None:
            guesser.locator("body[data-state=your-turn]").wait_for()
            banner = guesser.locator("#turn-banner").inner_text()
            assert banner == f"{team.title()}'s turn — your guess"
            assert guesser.get_attribute("body", "data-team") == team
            assert guesser.locator(".card[class*=key-]").count() == 0
            touch(guesser, next(i for i, k in enumerate(key) if k == team and guesser.locator(
                f".card.can-guess[data-index='{i}']").count()))
            guesser.locator("#pass").click()  # a clue of 1: a second guess is allowed
            guesser.locator("#pass").wait_for(state="hidden")

        guess_for("red")
        # blue's AI spymaster gave its clue in the same request: the same page guesses again
        guesser.locator("#turn-banner", has_text="Blue's turn — your guess").wait_for()
        assert guesser.locator("#clue-banner .clue-word").count() == 1
        assert not your_turn(spymaster)
        shoot(guesser, "three-guesser")
        guess_for("blue")
        spymaster.locator("#clue-form").wait_for()  # red's spymaster again
        assert revealed(spymaster) == revealed(guesser) == 2
