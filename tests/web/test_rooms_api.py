"""Rooms through the framework's test client: the seat combinations that matter, information
hiding per seat (responses and server-sent events), shared seats, seat tokens, closing,
limits, and rooms that survive a restart of the server."""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app
from codenames_ai.web.limits import RoomLimits
from codenames_ai.web.rooms import person_name

from ..waiting import until
from .test_api import Clock

FAST = RoomLimits(stream_seconds=0.3, heartbeat=0.1)


def app_client(database: Path, limits: RoomLimits = FAST, clock: Clock | None = None
               ) -> TestClient:
    return TestClient(create_app(database, new_seed=itertools.count(3).__next__,
                                 limits=limits, clock=clock or Clock()))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3") as test_client:
        yield test_client


def new_room(client: TestClient, people: list[str], **settings: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={"settings": settings, "people": people})
    assert response.status_code == 201, response.text
    return dict(response.json())


def view_of(client: TestClient, room: dict[str, Any], seat: str | None) -> dict[str, Any]:
    token = f"?token={room['seats'][seat]}" if seat else ""
    response = client.get(f"/api/rooms/{room['id']}{token}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def hidden(raw: str) -> None:
    """No identity of a face-down card anywhere in a guesser's or spectator's response."""
    data = json.loads(raw)
    if not data.get("view", data)["over"]:
        assert not re.search(r'"key":\s*"', raw)
    view = data.get("view", data)
    for card in view["cards"]:
        assert card["key"] is None
    if not view["over"] and not view["room"]["closed"]:
        assert view["key_at_end"] is None and view["config"]["seed"] is None


def guess_on(client: TestClient, room: dict[str, Any], seat: str, view: dict[str, Any]
             ) -> Any:
    card = next(c for c in view["cards"] if c["revealed"] is None)
    return client.post(f"/api/rooms/{room['id']}/moves",
                       json={"token": room["seats"][seat], "move": "guess",
                             "index": card["index"], "expect": view["expect"]})


def events(client: TestClient, room: dict[str, Any], seat: str | None, since: int = -1,
           **headers: str) -> list[dict[str, Any]]:
    """The views a stream sends before it ends (``FAST`` streams last 0.3 s)."""
    query = "&".join(([f"since={since}"] if since >= 0 else [])
                     + ([f"token={room['seats'][seat]}"] if seat else []))
    response = client.get(f"/api/rooms/{room['id']}/events?{query}", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["x-accel-buffering"] == "no"
    assert "connect-src 'self'" in response.headers["content-security-policy"]
    return views_sent(response.text, keys=seat == "red-spymaster")


def views_sent(text: str, *, keys: bool = False) -> list[dict[str, Any]]:
    """The views in a stream's text, checked to show no key unless ``keys``."""
    found = []
    for block in text.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line
                     and not line.startswith(":"))
        if "data" in lines:
            assert lines["event"] == "view"
            if not keys:
                hidden(lines["data"])
            view = json.loads(lines["data"])
            assert int(lines["id"]) == view["room"]["version"]
            found.append(view)
    return found


def test_a_person_guesser_with_an_ai_spymaster_against_the_ai_blue_team(
        client: TestClient) -> None:
    room = new_room(client, ["red-guesser"], level="easy")
    assert len(room["creator"]) >= 22 and all(len(t) >= 22 for t in room["seats"].values())
    hidden(json.dumps(room["view"]))  # the creator's answer is a spectator's view
    view = view_of(client, room, "red-guesser")
    assert view["room"]["seats"] == {"red-spymaster": "ai", "red-guesser": "person",
                                     "blue-spymaster": "ai", "blue-guesser": "ai"}
    assert view["your_turn"] and view["phase"] == "guess" and view["clue"] is not None
    while not view["over"]:
        response = guess_on(client, room, "red-guesser", view)
        assert response.status_code == 200, response.text
        hidden(response.text)
        view = response.json()
    assert view["key_at_end"] is not None and view["config"]["seed"] is not None
    assert view["level"]["name"] == "easy"


def test_a_person_spymaster_and_guesser_against_an_ai_team(client: TestClient) -> None:
    room = new_room(client, ["red-spymaster", "red-guesser"])
    spymaster = view_of(client, room, "red-spymaster")
    guesser = view_of(client, room, "red-guesser")
    hidden(json.dumps(guesser))
    assert all(card["key"] for card in spymaster["cards"])
    if spymaster["current_team"] == "blue":  # blue (AI) already played at creation
        assert spymaster["moves"] > 0
    assert spymaster["your_turn"] and not guesser["your_turn"]
    word = "ocean"
    check = client.post(f"/api/rooms/{room['id']}/check",
                        json={"token": room["seats"]["red-spymaster"], "word": word})
    assert check.status_code == 200 and "legal" in check.json()
    clue = client.post(f"/api/rooms/{room['id']}/moves",
                       json={"token": room["seats"]["red-spymaster"], "move": "clue",
                             "word": word if check.json()["legal"] else "thing",
                             "number": 1, "expect": spymaster["expect"]})
    assert clue.status_code == 200, clue.text
    guesser = view_of(client, room, "red-guesser")
    assert guesser["your_turn"] and guesser["clue"]["number"] == 1
    # the guesser may not give a clue, nor the spymaster guess
    wrong = client.post(f"/api/rooms/{room['id']}/moves",
                        json={"token": room["seats"]["red-spymaster"], "move": "pass",
                              "expect": clue.json()["expect"]})
    assert wrong.status_code == 409 and "not your turn" in wrong.json()["error"]
    assert all(card["key"] for card in wrong.json()["view"]["cards"])
    response = guess_on(client, room, "red-guesser", guesser)
    assert response.status_code == 200
    hidden(response.text)


def test_two_people_share_the_red_guesser_seat_the_first_move_wins(
        client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    view = view_of(client, room, "red-guesser")  # both pages saw this
    first = guess_on(client, room, "red-guesser", view)
    assert first.status_code == 200
    second = guess_on(client, room, "red-guesser", view)
    assert second.status_code == 409
    assert "moved first" in second.json()["error"]
    assert second.json()["view"]["moves"] == first.json()["moves"]
    hidden(second.text)


def test_every_move_must_say_what_its_page_saw(client: TestClient) -> None:
    """Two devices on one seat, neither saying what its page saw: neither move is played."""
    room = new_room(client, ["red-guesser"])
    view = view_of(client, room, "red-guesser")
    card = next(c for c in view["cards"] if c["revealed"] is None)
    for device in ("phone", "laptop"):
        sent = client.post(f"/api/rooms/{room['id']}/moves",
                           json={"token": room["seats"]["red-guesser"], "move": "guess",
                                 "index": card["index"]})
        assert sent.status_code == 400, device
        assert sent.json()["error"] == ('a move must send "expect" as the last view\'s '
                                        '"expect" (the deal the page shows and how many moves '
                                        'it saw); reload the page')
    assert view_of(client, room, "red-guesser") == view


def test_a_move_sent_for_the_last_deal_is_not_played_on_the_next(client: TestClient) -> None:
    """A spymaster's first clue, replayed after "again", is refused: it names its deal."""
    room = new_room(client, ["spymaster", "guesser"], variant="coop")  # the people always start
    url = f"/api/rooms/{room['id']}/moves"
    spymaster = view_of(client, room, "spymaster")
    assert spymaster["moves"] == 0 and spymaster["your_turn"]
    word = next(w for w in CLUE_WORDS if client.post(
        f"/api/rooms/{room['id']}/check",
        json={"token": room["seats"]["spymaster"], "word": w}).json()["legal"])
    clue = {"token": room["seats"]["spymaster"], "move": "clue", "word": word, "number": 1}
    first = client.post(url, json={**clue, "expect": spymaster["expect"]})
    assert first.status_code == 200, first.text
    assassin = next(c["index"] for c in spymaster["cards"] if c["key"] == "assassin")
    ended = client.post(url, json={"token": room["seats"]["guesser"], "move": "guess",
                                   "index": assassin, "expect": first.json()["expect"]})
    assert ended.status_code == 200 and ended.json()["over"], ended.text
    again = client.post(f"/api/rooms/{room['id']}/again",
                        json={"token": room["seats"]["spymaster"]})
    assert again.status_code == 200, again.text
    fresh = view_of(client, room, "spymaster")
    assert fresh["moves"] == 0 and fresh["your_turn"]  # the same count as the first deal's
    assert fresh["expect"]["deal"] != spymaster["expect"]["deal"]
    # the replayed request as the page sends it now, and as it sent it before deals had names
    replayed = client.post(url, json={**clue, "expect": spymaster["expect"]})
    assert replayed.status_code == 409
    assert "an earlier deal" in replayed.json()["error"]
    assert replayed.json()["view"]["expect"] == fresh["expect"]
    counted = client.post(url, json={**clue, "expect": 0})
    assert counted.status_code == 400 and 'must send "expect"' in counted.json()["error"]
    # A field a move does not take is named, not ignored (a typo the sender thinks was read).
    typo = client.post(url, json={**clue, "expect": fresh["expect"], "nunber": 2})
    assert typo.status_code == 400
    assert typo.json()["error"] == ("unknown field(s) 'nunber'; send the move, its fields and "
                                    "your token")
    assert view_of(client, room, "spymaster") == fresh


def test_seat_tokens_and_information_in_events(client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    for token in ("", "nope", room["creator"]):
        refused = client.post(f"/api/rooms/{room['id']}/moves",
                              json={"token": token, "move": "pass"})
        assert refused.status_code == 403
    assert client.post(f"/api/rooms/{room['id']}/moves",
                       json={"move": "pass"}).status_code == 403
    assert client.get(f"/api/rooms/{room['id']}?token=wrong").status_code == 403
    assert client.get(f"/api/rooms/{room['id']}/events?token=wrong").status_code == 403
    assert client.get("/api/rooms/nosuchroom").status_code == 404
    for since in ("x", "%C2%B2", "-1", "1" * 13):  # "²" is a digit to str.isdigit
        assert client.get(f"/api/rooms/{room['id']}/events?since={since}").status_code == 400
    assert client.get(f"/api/rooms/{room['id']}/events",
                      headers={"Last-Event-ID": b"\xb2"}  # "²" in Latin-1
                      ).status_code == 400
    deal = view_of(client, room, "red-guesser")["expect"]["deal"]
    for expect in ("3", True, 1.5, [], -1, 0, "x" * 10_000, {"deal": deal},
                   {"deal": 1, "moves": 0}, {"deal": deal, "moves": -1},
                   {"deal": deal, "moves": True}, {"deal": deal, "moves": 0, "more": 1}):
        response = client.post(f"/api/rooms/{room['id']}/moves",
                               json={"token": room["seats"]["red-guesser"], "move": "pass",
                                     "expect": expect})
        assert response.status_code == 400, expect
        assert 'must send "expect"' in response.json()["error"] and len(response.text) < 200
    spectator = view_of(client, room, None)
    hidden(json.dumps(spectator))
    assert spectator["room"]["seat"] is None and not spectator["your_turn"]
    # events: the current view at once, then one per version; a guesser never gets the key
    seen = events(client, room, "red-guesser")
    assert len(seen) == 1 and seen[0]["room"]["seat"] == "red-guesser"
    version = seen[0]["room"]["version"]
    assert events(client, room, "red-guesser", since=version) == []
    guess_on(client, room, "red-guesser", seen[0])
    later = events(client, room, None, since=version)
    assert len(later) == 1 and later[0]["room"]["version"] > version
    resumed = events(client, room, "red-guesser", **{"Last-Event-ID": str(version)})
    assert resumed and resumed[0]["room"]["version"] == later[0]["room"]["version"]
    # the AI holds the red spymaster's seat: its link shows the key once it takes the seat
    hidden(json.dumps(events(client, room, "red-spymaster")[0]))
    client.post(f"/api/rooms/{room['id']}/seat",
                json={"token": room["seats"]["red-spymaster"], "person": True})
    assert all(card["key"] for card in events(client, room, "red-spymaster")[0]["cards"])


def test_a_seat_handed_to_the_ai_and_taken_back(client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    token = room["seats"]["red-guesser"]
    handed = client.post(f"/api/rooms/{room['id']}/seat", json={"token": token,
                                                                "person": False})
    assert handed.status_code == 200
    view = handed.json()
    assert view["room"]["seats"]["red-guesser"] == "ai" and not view["your_turn"]
    # With nobody at the table the AI seats wait, rather than play the game out alone.
    assert view["room"]["waiting"] and not view["over"]
    assert view_of(client, room, None)["moves"] == view["moves"]
    back = client.post(f"/api/rooms/{room['id']}/seat", json={"token": token, "person": True})
    assert back.json()["your_turn"] and not back.json()["room"]["waiting"]
    room = new_room(client, ["red-guesser"])
    back = client.post(f"/api/rooms/{room['id']}/seat",
                       json={"token": room["seats"]["blue-guesser"], "person": True})
    assert back.json()["room"]["seats"]["blue-guesser"] == "person"
    assert client.post(f"/api/rooms/{room['id']}/seat",
                       json={"token": room["seats"]["blue-guesser"], "person": 1}
                       ).status_code == 400


def test_the_creator_hands_the_seat_of_someone_who_left_to_the_ai(client: TestClient) -> None:
    room = new_room(client, ["red-spymaster", "red-guesser"])
    url = f"/api/rooms/{room['id']}/seat"
    guesser = room["seats"]["red-guesser"]
    waiting = view_of(client, room, "red-guesser")  # for the red spymaster, who left
    assert not waiting["your_turn"] and waiting["clue"] is None
    # Only the creator, only to the AI, only a seat that exists.
    assert client.post(url, json={"creator": guesser, "seat": "red-spymaster",
                                  "person": False}).status_code == 403
    assert client.post(url, json={"creator": room["creator"], "seat": "red-spymaster",
                                  "person": True}).status_code == 400
    assert client.post(url, json={"creator": room["creator"], "seat": "red-boss",
                                  "person": False}).status_code == 400
    handed = client.post(url, json={"creator": room["creator"], "seat": "red-spymaster",
                                    "person": False})
    assert handed.status_code == 200
    raw = handed.text
    hidden(raw)  # the creator is answered as a spectator: no key of a face-down card
    assert handed.json()["room"]["seats"]["red-spymaster"] == "ai"
    # the AI gave the clue the person never gave: the red guesser can play on
    view = view_of(client, room, "red-guesser")
    assert view["room"]["seats"]["red-spymaster"] == "ai"
    assert not view["over"] and view["your_turn"]  # the seeded deal's one course
    assert (view["clue"]["word"], view["clue"]["number"]) == ("lime", 3)


def test_the_creator_closes_the_room(client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    guesser = room["seats"]["red-guesser"]
    assert client.post(f"/api/rooms/{room['id']}/close",
                       json={"creator": guesser}).status_code == 403
    closed = client.post(f"/api/rooms/{room['id']}/close", json={"creator": room["creator"]})
    assert closed.status_code == 200 and closed.json()["room"]["closed"]
    view = view_of(client, room, "red-guesser")
    assert view["room"]["closed"] and not view["your_turn"]
    refused = guess_on(client, room, "red-guesser", view)
    assert refused.status_code == 409 and "closed" in refused.json()["error"]


def test_a_closed_room_names_who_closed_it_shows_everyone_the_key_and_takes_no_move(
        client: TestClient) -> None:
    """Issue 41: a closed room looked alive. Its view said only ``closed``: every page kept
    its clue and turn, no seat learned who closed it, and the guessers never saw the key.
    Now the view names the seat and name the creator closed it from, every seat gets the
    whole key (only once closed: an open room's guesser and spectator never do), and a
    move is refused with a message that says so."""
    room = client.post("/api/rooms", json={"people": [], "open_seats": True}).json()
    creator = join(client, room, "red-guesser", "Ann", creator=room["creator"]).json()
    friend = join(client, room, "blue-guesser", "Bob").json()
    seats = {"red-guesser": creator["token"], "blue-guesser": friend["token"]}

    def seen(seat: str | None) -> Any:
        query = f"?token={seats[seat]}" if seat else ""
        return client.get(f"/api/rooms/{room['id']}{query}")

    for seat in (*seats, None):  # open: no key for a guesser or a spectator
        response = seen(seat)
        hidden(response.text)
        assert response.json()["room"]["closed_by"] is None
    view = seen("red-guesser").json()
    assert not view["over"] and view["your_turn"]
    unknown = client.post(f"/api/rooms/{room['id']}/close",
                          json={"creator": room["creator"], "seat": "red-guesser"})
    assert unknown.status_code == 400
    closed = client.post(f"/api/rooms/{room['id']}/close",
                         json={"creator": room["creator"], "token": seats["red-guesser"]})
    assert closed.status_code == 200, closed.text
    assert closed.json()["room"]["seat"] == "red-guesser"  # the closer's own page
    for seat in (*seats, None):
        shown = seen(seat).json()
        assert shown["room"]["closed"] and not shown["over"] and not shown["your_turn"]
        assert shown["room"]["closed_by"] == {"by": "creator", "seat": "red-guesser",
                                              "name": "Ann"}
        assert len(shown["key_at_end"]) == 25 and shown["seed_digits"]
    key = shown["key_at_end"]
    assert sorted(set(key)) == ["assassin", "blue", "bystander", "red"]
    for event in events(client, {**room, "seats": seats}, "blue-guesser"):
        assert event["room"]["closed_by"]["name"] == "Ann" and event["key_at_end"] == key
    refused = guess_on(client, {**room, "seats": seats}, "red-guesser", view)
    assert refused.status_code == 409
    assert refused.json()["error"] == ("the room is closed (Ann (red-guesser) closed it): it "
                                       "takes no more moves; start a new room from the "
                                       "start page")
    assert refused.json()["view"]["key_at_end"] == key
    # closing again changes nothing, and says the same
    again = client.post(f"/api/rooms/{room['id']}/close", json={"creator": room["creator"]})
    assert again.json()["room"]["closed_by"]["name"] == "Ann"


def test_a_room_closed_for_idleness_says_so(tmp_path: Path) -> None:
    clock = Clock()
    with app_client(tmp_path / "games.sqlite3", RoomLimits(idle=600.0), clock) as client:
        room = new_room(client, ["red-guesser"])
        clock.now += 601
        view = view_of(client, room, "red-guesser")
        assert view["room"]["closed_by"] == {"by": "idle", "seat": None, "name": None}
        assert len(view["key_at_end"]) == 25
        refused = guess_on(client, room, "red-guesser", view)
        assert refused.status_code == 409
        assert "nobody played in it for a long while" in refused.json()["error"]


def test_bad_room_settings_are_refused(client: TestClient) -> None:
    for body, words in (({"settings": {"role": "spymaster"}}, "unknown room setting"),
                        ({"settings": {"seed": 5}}, "unknown room setting"),
                        ({"settings": {"level": "godlike"}}, "level"),
                        ({"people": ["red-captain"]}, "unknown seat"),
                        ({"people": "red-guesser"}, "list of seat names"),
                        ({"extra": 1}, "unknown field")):
        response = client.post("/api/rooms", json=body)
        assert response.status_code == 400 and words in response.json()["error"], body
    assert client.post("/api/rooms", content=b"people=x").status_code == 415


def test_room_and_stream_limits(tmp_path: Path) -> None:
    limits = RoomLimits(rooms=2, room_streams=2, stream_seconds=1.0)
    with app_client(tmp_path / "games.sqlite3", limits) as client:
        room = new_room(client, ["red-guesser"])
        other = new_room(client, ["red-guesser"])
        full = client.post("/api/rooms", json={"people": ["red-guesser"]})
        assert full.status_code == 503 and "open rooms" in full.json()["error"]
        client.post(f"/api/rooms/{other['id']}/close", json={"creator": other["creator"]})
        new_room(client, ["red-guesser"])  # a closed room makes way (it is deleted)
        assert client.get(f"/api/rooms/{other['id']}").status_code == 404
        statuses: list[int] = []
        first = threading.Thread(target=lambda: statuses.append(
            client.get(f"/api/rooms/{room['id']}/events").status_code))
        first.start()
        until(lambda: client.app.state.rooms.stream_count(),  # type: ignore[attr-defined]
              "the stream to open")
        # Spectators get half the room's streams: the seats keep theirs.
        second = client.get(f"/api/rooms/{room['id']}/events")
        assert second.status_code == 429 and "most spectators" in second.json()["error"]
        seated = threading.Thread(target=lambda: statuses.append(client.get(
            f"/api/rooms/{room['id']}/events?token={room['seats']['red-guesser']}"
        ).status_code))
        seated.start()
        until(lambda: client.app.state.rooms.stream_count() == 2,  # type: ignore[attr-defined]
              "the stream to open")
        token = room["seats"]["blue-guesser"]
        third = client.get(f"/api/rooms/{room['id']}/events?token={token}")
        assert third.status_code == 429 and "live connections" in third.json()["error"]
        first.join()
        seated.join()
        assert statuses == [200, 200]
        assert client.app.state.rooms.stream_count() == 0  # type: ignore[attr-defined]


def test_idle_rooms_expire(tmp_path: Path) -> None:
    clock = Clock()
    limits = RoomLimits(rooms=2, idle=600.0)
    with app_client(tmp_path / "games.sqlite3", limits, clock) as client:
        room = new_room(client, ["red-guesser"])
        clock.now += 600
        second = new_room(client, ["red-guesser"])  # the first is idle 600 s, not past it
        assert client.post("/api/rooms", json={}).status_code == 503  # two open rooms
        clock.now += 1
        assert view_of(client, room, "red-guesser")["room"]["closed"]  # idle past 600 s
        assert not view_of(client, second, None)["room"]["closed"]
        clock.now += 600  # the second is closed when next seen
        assert view_of(client, second, None)["room"]["closed"]
        new_room(client, [])  # and the closed rooms make way for a new one


def test_a_database_of_the_first_rooms_layout_is_brought_up_to_date(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with app_client(database) as client:
        room = new_room(client, ["red-guesser"])
    with sqlite3.connect(database) as old:  # as the first version of rooms stored it
        old.executescript("ALTER TABLE rooms DROP COLUMN key_seen; "
                          "ALTER TABLE rooms DROP COLUMN guessers_seated; "
                          "ALTER TABLE rooms DROP COLUMN closed_by; "
                          "ALTER TABLE rooms DROP COLUMN open_seats; DROP TABLE members;")
    with app_client(database) as client:
        view = view_of(client, room, "red-guesser")
        assert view["your_turn"] and not view["room"]["open_seats"]  # as they were made
        assert join(client, room, "blue-guesser").status_code == 403
        assert new_room(client, [])["view"]["room"]["open_seats"]


def test_a_database_from_before_rooms_named_who_closed_them_is_brought_up_to_date(
        tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with app_client(database) as client:
        room = new_room(client, ["red-guesser"])
        closed = new_room(client, [])
        client.post(f"/api/rooms/{closed['id']}/close", json={"creator": closed["creator"]})
    with sqlite3.connect(database) as old:  # as issue 41's version found it
        old.executescript("ALTER TABLE rooms DROP COLUMN key_seen; "
                          "ALTER TABLE rooms DROP COLUMN guessers_seated; "
                          "ALTER TABLE rooms DROP COLUMN closed_by;")
    with app_client(database) as client:
        assert view_of(client, room, "red-guesser")["room"]["closed_by"] is None
        assert view_of(client, closed, None)["room"]["closed_by"]["by"] == "idle"
        client.post(f"/api/rooms/{room['id']}/close", json={"creator": room["creator"]})
        assert view_of(client, room, None)["room"]["closed_by"] == {
            "by": "creator", "seat": None, "name": None}


def test_rooms_survive_a_restart_and_old_databases_open(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with sqlite3.connect(database) as old:  # a games file from before rooms
        old.executescript("CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                          "config TEXT NOT NULL); CREATE TABLE moves (game TEXT NOT NULL, "
                          "number INTEGER NOT NULL, move TEXT NOT NULL, "
                          "PRIMARY KEY (game, number));")
    with app_client(database) as client:
        room = new_room(client, ["red-guesser"])
        view = view_of(client, room, "red-guesser")
        view = guess_on(client, room, "red-guesser", view).json()
    with app_client(database) as client:  # a new server on the same file
        again = view_of(client, room, "red-guesser")
        assert again["moves"] == view["moves"] and again["room"] == view["room"]
        assert events(client, room, "red-guesser", since=view["room"]["version"]) == []
        while not again["over"]:
            response = guess_on(client, room, "red-guesser", again)
            assert response.status_code == 200, response.text
            again = response.json()


def join(client: TestClient, room: dict[str, Any], seat: str, name: str = "Ann",
         **extra: Any) -> Any:
    return client.post(f"/api/rooms/{room['id']}/join", json={"seat": seat, "name": name,
                                                               **extra})


def test_people_choose_their_seats_from_the_room_link(client: TestClient) -> None:
    room = new_room(client, [])  # nobody sits yet: the AI seats wait
    first = view_of(client, room, None)
    assert first["moves"] == 0 and first["room"]["waiting"]
    assert first["room"]["joinable"] == list(first["room"]["seats"])
    # Ann takes the spymaster seat with its own link, from the creator
    token = room["seats"]["red-spymaster"]
    ann = client.post(f"/api/rooms/{room['id']}/seat", json={"token": token, "person": True})
    assert ann.status_code == 200, ann.text
    view = ann.json()
    assert view["your_turn"] and view["room"]["seat"] == "red-spymaster"
    assert all(card["key"] for card in view["cards"])  # a spymaster sees the key
    # Guesser seats are shared: two people join the red guessers.
    bob = join(client, room, "red-guesser", "  Bob   Lee ").json()
    cat = join(client, room, "red-guesser", "Cat").json()
    assert bob["token"] != cat["token"]
    spectator = view_of(client, room, None)
    assert spectator["room"]["names"]["red-guesser"] == ["Bob Lee", "Cat"]
    # people guess in this deal: its spymaster seats are shut to the room's link
    assert spectator["room"]["joinable"] == ["red-guesser", "blue-guesser"]
    shut_out = join(client, room, "red-spymaster", "Eve")
    assert shut_out.status_code == 409 and "shows the key" in shut_out.json()["error"]
    hidden(json.dumps(shut_out.json()["view"]))
    # Ann clues with her token; Bob or Cat guesses with theirs; blue is the AI's.
    word = next(w for w in ("planet", "ocean", "music", "winter", "garden")
                if client.post(f"/api/rooms/{room['id']}/check",
                               json={"token": token, "word": w}).json()["legal"])
    clued = client.post(f"/api/rooms/{room['id']}/moves",
                        json={"token": token, "move": "clue", "word": word, "number": 1,
                              "expect": view_of(client, room, None)["expect"]})
    assert clued.status_code == 200, clued.text
    seen = client.get(f"/api/rooms/{room['id']}?token={cat['token']}").json()
    hidden(json.dumps(seen))
    assert seen["your_turn"] and seen["room"]["seat"] == "red-guesser"
    card = next(c for c in seen["cards"] if c["revealed"] is None)
    touched = client.post(f"/api/rooms/{room['id']}/moves",
                          json={"token": bob["token"], "move": "guess", "index": card["index"],
                                "expect": seen["expect"]})
    assert touched.status_code == 200, touched.text
    assert touched.json()["cards"][card["index"]]["revealed"]


def test_names_and_seat_choices_are_checked(client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    for body, status, words in (
            ({"seat": "red-captain", "name": "Ann"}, 400, "seat must be"),
            ({"seat": "red-guesser"}, 400, "say your name"),
            ({"seat": "red-guesser", "name": "   "}, 400, "say your name"),
            ({"seat": "red-guesser", "name": "x" * 25}, 400, "at most 24"),
            ({"seat": "red-guesser", "name": "Ann\u0000"}, 400, "letters, digits"),
            ({"seat": "red-guesser", "name": "Ann\u202e"}, 400, "letters, digits"),
            ({"seat": "red-guesser", "name": "\u3164"}, 400, "a letter or a digit"),
            ({"seat": "red-guesser", "name": "\u2800"}, 400, "a letter or a digit"),
            ({"seat": "red-guesser", "name": "\u0301\u0301"}, 400, "a letter or a digit"),
            ({"seat": "red-guesser", "name": "a" + "\u0489" * 23}, 400, "marks on a letter"),
            ({"seat": "red-guesser", "name": "\u0e01" + "\u0e47" * 22}, 400, "marks on"),
            ({"seat": "red-guesser", "name": "a" + "\u034f" * 22}, 400, "marks on"),
            ({"seat": "red-guesser", "name": "\uff21\uff29"}, 400, "'AI' names"),
            ({"seat": "red-guesser", "name": "(A.I.)"}, 400, "'AI' names"),
            ({"seat": "red-guesser", "name": 7}, 400, "field 'name' must be a string"),
            ({"seat": "red-guesser", "name": "Ann", "admin": True}, 400, "unknown field"),
            ({"seat": "red-guesser", "name": "Ann", "creator": "forged"}, 403, "creator")):
        response = client.post(f"/api/rooms/{room['id']}/join", json=body)
        assert response.status_code == status and words in response.json()["error"], body
    assert join(client, {"id": "nope"}, "red-guesser").status_code == 404
    # A room whose seats go only by their own links: the room's link seats no one, but
    # the creator still may.
    closed_seats = client.post("/api/rooms", json={"people": [], "open_seats": False}).json()
    refused = join(client, closed_seats, "blue-guesser")
    assert refused.status_code == 403 and "own links" in refused.json()["error"]
    assert view_of(client, closed_seats, None)["room"]["joinable"] == []
    assert join(client, closed_seats, "blue-guesser",
                creator=closed_seats["creator"]).status_code == 200
    assert client.post("/api/rooms", json={"open_seats": "yes"}).status_code == 400
    crowd = new_room(client, [])
    for number in range(FAST.room_people):
        assert join(client, crowd, "blue-guesser", f"P{number}").status_code == 200
    full = join(client, crowd, "red-guesser", "One more")
    assert full.status_code == 409 and "most people (32)" in full.json()["error"]
    assert view_of(client, crowd, None)["room"]["joinable"] == []
    assert join(client, crowd, "red-guesser", creator=crowd["creator"]).status_code == 409
    for name in ("José", "Nguye\u0302\u0303n", "\u0e2a\u0e38\u0e48", "李雷",
                 "\U0001f468\u200d\U0001f469 Fam", "Ai Lin"):
        assert person_name(name) == name
    client.post(f"/api/rooms/{room['id']}/close", json={"creator": room["creator"]})
    assert join(client, room, "blue-guesser").status_code == 409


def test_a_new_deal_in_the_same_room_keeps_seats_and_links(client: TestClient) -> None:
    room = new_room(client, ["red-guesser"])
    token = room["seats"]["red-guesser"]
    early = client.post(f"/api/rooms/{room['id']}/again", json={"token": token})
    assert early.status_code == 409 and "not over" in early.json()["error"]
    view = view_of(client, room, "red-guesser")
    while not view["over"]:
        view = guess_on(client, room, "red-guesser", view).json()
    ended = view
    assert client.post(f"/api/rooms/{room['id']}/again",
                       json={"token": "wrong"}).status_code == 403
    again = client.post(f"/api/rooms/{room['id']}/again", json={"token": token})
    assert again.status_code == 200, again.text
    fresh = again.json()
    hidden(again.text)
    assert not fresh["over"] and fresh["room"]["seats"] == ended["room"]["seats"]
    assert fresh["room"]["version"] == ended["room"]["version"] + 1
    assert [c["word"] for c in fresh["cards"]] != [c["word"] for c in ended["cards"]]
    # A second "play again" from another page finds the new game under way.
    assert client.post(f"/api/rooms/{room['id']}/again",
                       json={"creator": room["creator"]}).status_code == 409
    # Every seat's link holds the same seat in the new game, and the streams follow it.
    streamed = events(client, room, "blue-guesser", since=ended["room"]["version"])
    assert streamed and streamed[-1]["room"]["version"] == fresh["room"]["version"]
    assert [c["word"] for c in streamed[-1]["cards"]] == [c["word"] for c in fresh["cards"]]


def test_open_streams_end_when_the_server_stops(tmp_path: Path) -> None:
    """Ctrl-C makes uvicorn wait for open responses: ``codenames serve`` ends the streams."""
    limits = RoomLimits(stream_seconds=60.0, heartbeat=0.1)
    with app_client(tmp_path / "games.sqlite3", limits) as client:
        room = new_room(client, ["red-guesser"])
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        stopper = threading.Timer(0.3, rooms.stop_streams)
        stopper.start()
        started = time.monotonic()
        response = client.get(f"/api/rooms/{room['id']}/events")
        assert response.status_code == 200 and "event: view" in response.text
        assert time.monotonic() - started < 30  # ended by the stop, not by its 60 seconds
        assert rooms.stream_count() == 0


CLUE_WORDS = ("planet", "ocean", "melody", "tundra", "orbit", "harvest", "lantern", "meadow")


VARIANT_SEATS = {"standard": ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser"),
                 "coop": ("spymaster", "guesser"),
                 "three-player": ("red-spymaster", "blue-spymaster", "guesser")}


@pytest.mark.parametrize(("variant", "people"), [
    (variant, list(c)) for variant, seats in VARIANT_SEATS.items()
    for size in range(len(seats) + 1) for c in itertools.combinations(seats, size)],
    ids=lambda value: value if isinstance(value, str) else "+".join(value) or "nobody")
def test_every_seat_combination_plays_with_each_seat_seeing_its_own(
        tmp_path: Path, variant: str, people: list[str]) -> None:
    """In every variant, people in these seats and the AI in the others: each person moves
    only on their turn, sees the key only as a spymaster, and every AI seat moves by itself
    (co-op's spymaster covering a card for the virtual team, too); with nobody at the table
    the game waits until someone sits down."""
    database = tmp_path / "games.sqlite3"
    with app_client(database) as client:
        room = new_room(client, people, variant=variant)
        assert list(room["seats"]) == list(VARIANT_SEATS[variant])
        first = view_of(client, room, None)
        assert first["room"]["variant"] == variant
        assert (first["level"] is not None) is (variant == "standard")
        if not people:
            assert first["room"]["waiting"] and first["moves"] == 0
            guesser = VARIANT_SEATS[variant][1]
            room["seats"] = {guesser: join(client, room, guesser).json()["token"]}
            people = [guesser]
        covered = 0
        for _ in range(80):
            views = {seat: view_of(client, room, seat) for seat in people}
            for seat, view in views.items():
                if seat.endswith("guesser"):
                    hidden(json.dumps(view))
                else:
                    assert all(card["key"] for card in view["cards"])
            sample = next(iter(views.values()))
            if sample["over"]:
                break
            turn = sample["room"]["current_seat"]
            assert turn in people  # the AI seats moved up to a person's turn
            assert [s for s, v in views.items() if v["your_turn"]] == [turn]
            token = room["seats"][turn]
            url = f"/api/rooms/{room['id']}/moves"
            if sample["phase"] == "cover":  # an agent of the team the view names
                team = sample["cover"]["team"]
                assert variant != "coop" or team != sample["starting_team"]  # the virtual one
                card = next(c for c in views[turn]["cards"]
                            if c["revealed"] is None and c["key"] == team)
                response = client.post(url, json={"token": token, "move": "cover",
                                                  "index": card["index"],
                                                  "expect": sample["expect"]})
                assert response.status_code == 200, response.text
                covered += 1
                continue
            assert sample["cover"] is None
            if turn.endswith("spymaster"):
                word = next(w for w in CLUE_WORDS if client.post(
                    f"/api/rooms/{room['id']}/check",
                    json={"token": token, "word": w}).json()["legal"])
                body = {"move": "clue", "word": word, "number": 1}
            else:
                card = next(c for c in views[turn]["cards"] if c["revealed"] is None)
                body = {"move": "guess", "index": card["index"]}
            response = client.post(url, json={"token": token, **body,
                                               "expect": sample["expect"]})
            assert response.status_code == 200, response.text
        else:
            raise AssertionError("the game did not end in 80 person moves")
    with sqlite3.connect(database) as db:
        stored = [json.loads(move) for (move,) in db.execute(
            "SELECT move FROM moves JOIN rooms ON rooms.game = moves.game "
            "WHERE rooms.id = ? ORDER BY number", (room["id"],))]
    assert {move["seat"] for move in stored if move["by"] == "person"} <= set(people)
    assert all(move["by"] in ("person", "ai") for move in stored)
    if variant == "coop" and "spymaster" in people:  # co-op's virtual turns: the person's
        assert covered == sum(move["move"] == "cover" for move in stored) > 0


def test_a_variant_room_refuses_the_seats_of_another(client: TestClient) -> None:
    wrong = client.post("/api/rooms", json={"settings": {"variant": "coop"},
                                            "people": ["red-guesser"]})
    assert wrong.status_code == 400 and "seats (coop): spymaster, guesser" in wrong.json()["error"]
    room = new_room(client, [], variant="three-player")
    refused = join(client, room, "blue-guesser")
    assert refused.status_code == 400 and "plays three-player" in refused.json()["error"]
    assert client.post("/api/rooms", json={"settings": {"variant": "five"}}).status_code == 400
    solo = client.post("/api/games", json={"variant": "coop"})
    assert solo.status_code == 400 and "room's setting" in solo.json()["error"]


def test_a_new_deal_and_the_sweep_delete_what_no_one_can_open_again(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"

    def count(table: str) -> int:
        with sqlite3.connect(database) as db:
            return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    clock = Clock()
    with app_client(database, RoomLimits(idle=600.0), clock) as client:
        room = new_room(client, ["red-guesser"])
        token = room["seats"]["red-guesser"]
        view = view_of(client, room, "red-guesser")
        while not view["over"]:
            view = guess_on(client, room, "red-guesser", view).json()
        moves = count("moves")
        assert client.post(f"/api/rooms/{room['id']}/again", json={"token": token}
                           ).status_code == 200
        assert count("games") == 1 and count("moves") < moves  # the finished game is gone
        join(client, room, "blue-guesser")
        clock.now += 601
        new_room(client, [])  # the sweep closes the idle room ...
        assert view_of(client, room, None)["room"]["closed"]
        clock.now += 601
        new_room(client, [])  # ... and a further idle later deletes it, and all it held
        assert client.get(f"/api/rooms/{room['id']}").status_code == 404
        assert count("rooms") == 2 and count("games") == 2 and count("members") == 0
        assert count("seats") == 8


def test_a_room_game_is_not_open_to_the_solo_api(client: TestClient, tmp_path: Path) -> None:
    room = new_room(client, ["red-guesser"])
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        (game_id,) = db.execute("SELECT game FROM rooms WHERE id = ?", (room["id"],)).fetchone()
    assert client.get(f"/api/games/{game_id}").status_code == 404
    moved = client.post(f"/api/games/{game_id}/moves", json={"move": "guess", "index": 0})
    assert moved.status_code == 404


def test_a_stream_ends_quietly_when_its_room_is_deleted(tmp_path: Path) -> None:
    clock = Clock()
    limits = RoomLimits(idle=600.0, stream_seconds=5.0, heartbeat=0.1)
    with app_client(tmp_path / "games.sqlite3", limits, clock) as client:
        room = new_room(client, ["red-guesser"])
        client.post(f"/api/rooms/{room['id']}/close", json={"creator": room["creator"]})
        ended: list[Any] = []
        stream = threading.Thread(target=lambda: ended.append(
            client.get(f"/api/rooms/{room['id']}/events")))
        stream.start()
        until(lambda: client.app.state.rooms.stream_count(),  # type: ignore[attr-defined]
              "the stream to open")
        clock.now += 601
        new_room(client, [])  # the sweep deletes the room closed for longer than idle
        stream.join(10)
        assert not stream.is_alive() and ended[0].status_code == 200  # no server error
        assert client.get(f"/api/rooms/{room['id']}").status_code == 404


def test_creating_and_closing_rooms_keeps_the_database_bounded(tmp_path: Path) -> None:
    """Closed rooms were not counted and lived a further idle period (24 h), so a loop of
    create and close grew the database without bound. Closed rooms count against the
    server's cap, and the oldest of them make way for a new room."""
    database = tmp_path / "games.sqlite3"
    with app_client(database, RoomLimits(rooms=3)) as client:
        first = new_room(client, ["red-guesser"])
        for _ in range(12):
            room = new_room(client, ["red-guesser"])
            closed = client.post(f"/api/rooms/{room['id']}/close",
                                 json={"creator": room["creator"]})
            assert closed.status_code == 200
        with sqlite3.connect(database) as db:
            rooms, games = (db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                            for table in ("rooms", "games"))
        assert rooms <= 3 and games <= 3
        assert not view_of(client, first, None)["room"]["closed"]  # open rooms stay
        assert client.get(f"/api/rooms/{room['id']}").status_code == 200  # the newest too
        new_room(client, [])
        new_room(client, [])  # the closed rooms made way
        full = client.post("/api/rooms", json={})  # three open rooms: the cap
        assert full.status_code == 503 and "open rooms" in full.json()["error"]


def test_spectators_cannot_take_the_seats_live_connections(tmp_path: Path) -> None:
    """Spectators (no token) filled every live connection of the server, so the seats of
    other rooms could not follow their games. Spectators get at most half the server's
    connections, as they get half a room's."""
    limits = RoomLimits(streams=4, room_streams=4, stream_seconds=60.0)
    with app_client(tmp_path / "games.sqlite3", limits) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        watched, other, played = (new_room(client, ["red-guesser"]) for _ in range(3))
        statuses: list[int] = []

        def hold(url: str) -> threading.Thread:
            """An event stream held open in a thread until the server stops them."""
            count = rooms.stream_count()
            thread = threading.Thread(
                target=lambda: statuses.append(client.get(url).status_code))
            thread.start()
            until(lambda: rooms.stream_count() > count, "the stream to open")
            return thread

        held = [hold(f"/api/rooms/{watched['id']}/events") for _ in range(2)]
        refused = client.get(f"/api/rooms/{other['id']}/events")
        assert refused.status_code == 503 and "spectators" in refused.json()["error"]
        token = played["seats"]["red-guesser"]
        held.append(hold(f"/api/rooms/{played['id']}/events?token={token}"))
        assert rooms.stream_count() == 3  # a seat still gets in
        rooms.stop_streams()
        for thread in held:
            thread.join(10)
        assert statuses == [200, 200, 200]


def test_a_token_sees_the_key_only_while_its_seat_is_held_by_a_person(
        client: TestClient) -> None:
    """Someone who sat down as a spymaster through the room's link kept reading the key
    with their token after the seat went back to the AI, and after a stranger sat down in
    it. Now a seat handed to the AI shows its holders no key until they take it back, and
    once someone else sits down there, they watch as spectators."""
    room = new_room(client, [])
    url = f"/api/rooms/{room['id']}"
    ann = join(client, room, "red-spymaster", "Ann").json()["token"]

    def seen(token: str) -> Any:
        response = client.get(f"{url}?token={token}")
        assert response.status_code == 200, response.text
        return response

    handed = client.post(f"{url}/seat", json={"token": ann, "person": False})
    assert handed.status_code == 200
    hidden(handed.text)
    stepped_out = seen(ann)
    hidden(stepped_out.text)  # she left the seat: no key, but it is still hers to take back
    assert stepped_out.json()["room"]["seat"] == "red-spymaster"
    back = client.post(f"{url}/seat", json={"token": ann, "person": True})
    assert all(card["key"] for card in back.json()["cards"])
    # The creator hands her seat to the AI (she left the table): no key for her either.
    assert client.post(f"{url}/seat", json={"creator": room["creator"], "seat": "red-spymaster",
                                            "person": False}).status_code == 200
    hidden(seen(ann).text)
    streamed = events(client, {**room, "seats": {"red-spymaster": ann}}, "red-spymaster")
    hidden(json.dumps(streamed[0]))
    # Eve sits down in the seat the AI holds: it is hers now, and Ann watches.
    eve = join(client, room, "red-spymaster", "Eve").json()
    assert all(card["key"] for card in eve["view"]["cards"])
    watching = seen(ann)
    hidden(watching.text)
    assert watching.json()["room"]["seat"] is None
    assert watching.json()["room"]["names"]["red-spymaster"] == ["Eve"]
    for path, body in (("seat", {"person": True}), ("check", {"word": "planet"}),
                       ("moves", {"move": "pass", "expect": watching.json()["expect"]})):
        refused = client.post(f"{url}/{path}", json={"token": ann, **body})
        assert refused.status_code == 403 and "no longer" in refused.json()["error"], path
    assert all(card["key"] for card in seen(eve["token"]).json()["cards"])  # Eve's seat


LONG_STREAMS = RoomLimits(stream_seconds=60.0, heartbeat=0.1)


def open_stream(client: TestClient, url: str) -> tuple[threading.Thread, list[Any]]:
    """An event stream read in a thread, returned once the server counts it open (its
    first view read); the thread puts the response in the list when the stream ends."""
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    count = rooms.stream_count()
    ended: list[Any] = []
    thread = threading.Thread(target=lambda: ended.append(client.get(url)))
    thread.start()
    until(lambda: rooms.stream_count() > count, "the stream to open")
    return thread, ended


def ended_by_itself(client: TestClient, thread: threading.Thread) -> bool:
    """Whether the stream ends without the server stopping (ended then, if not)."""
    thread.join(10)
    ended = not thread.is_alive()
    client.app.state.rooms.stop_streams()  # type: ignore[attr-defined]
    thread.join(10)
    return ended


def test_an_open_stream_stops_showing_a_seat_someone_else_sat_down_in(tmp_path: Path) -> None:
    """A room's event stream decided its token's seat once, when it opened: after Ann handed
    her spymaster seat to the AI and Bob sat down in it, the stream Ann's page had open
    sent her Bob's view, with the key. It now reads the token's seat (as a GET does) for
    every view, and ends when the seat is no longer the token's; the page reconnects and
    sees the room as a spectator."""
    with app_client(tmp_path / "games.sqlite3", LONG_STREAMS) as client:
        room = new_room(client, [])
        url = f"/api/rooms/{room['id']}"
        ann = join(client, room, "red-spymaster", "Ann").json()["token"]
        assert client.post(f"{url}/seat", json={"token": ann, "person": False}).status_code == 200
        thread, ended = open_stream(client, f"{url}/events?token={ann}")
        bob = join(client, room, "red-spymaster", "Bob")
        assert bob.status_code == 200 and all(c["key"] for c in bob.json()["view"]["cards"])
        stopped = ended_by_itself(client, thread)
        streamed = views_sent(ended[0].text)  # no key in any of them
        assert streamed and all(v["room"]["version"] < bob.json()["view"]["room"]["version"]
                                for v in streamed)
        assert stopped
        # the page reconnects from the last view it had, and watches
        since = streamed[-1]["room"]["version"]
        watching = events(client, {**room, "seats": {"ann": ann}}, "ann", since=since)
        assert [v["room"]["seat"] for v in watching] == [None]
        assert watching[0]["room"]["names"]["red-spymaster"] == ["Bob"]


def test_an_open_stream_shows_no_key_of_the_next_deal_to_a_seat_it_lost(
        tmp_path: Path) -> None:
    """HIGH: Ann's open stream, after she lost her spymaster seat to Bob, sent her the key of
    the deal Bob then started with "Play again". It ends when Bob sits down now."""
    with app_client(tmp_path / "games.sqlite3", LONG_STREAMS) as client:
        room = new_room(client, [])
        url = f"/api/rooms/{room['id']}"
        ann = join(client, room, "red-spymaster", "Ann").json()  # before the guessers sit
        assassin = next(c["index"] for c in ann["view"]["cards"] if c["key"] == "assassin")
        assert client.post(f"{url}/seat", json={"token": ann["token"],
                                                "person": False}).status_code == 200
        guesser = client.post(f"{url}/seat", json={"token": room["seats"]["red-guesser"],
                                                   "person": True}).json()
        assert guesser["room"]["current_seat"] == "red-guesser"  # the AI's clue
        over = client.post(f"{url}/moves", json={
            "token": room["seats"]["red-guesser"], "move": "guess", "index": assassin,
            "expect": guesser["expect"]})
        assert over.status_code == 200 and over.json()["over"], over.text
        thread, ended = open_stream(client, f"{url}/events?token={ann['token']}")
        bob = join(client, room, "red-spymaster", "Bob").json()["token"]
        again = client.post(f"{url}/again", json={"token": bob})
        assert again.status_code == 200 and not again.json()["over"]
        stopped = ended_by_itself(client, thread)
        streamed = views_sent(ended[0].text, keys=True)
        new_deal = again.json()["expect"]["deal"]
        assert streamed and all(v["expect"]["deal"] != new_deal for v in streamed)
        assert stopped
        since = streamed[-1]["room"]["version"]
        watching = events(client, {**room, "seats": {"ann": ann["token"]}}, "ann", since=since)
        assert [(v["room"]["seat"], v["expect"]["deal"]) for v in watching] == [(None, new_deal)]


def streamed_until_stopped(client: TestClient, room: dict[str, Any], token: str,
                           changes: Any) -> list[dict[str, Any]]:
    """The views ``token``'s stream sends while ``changes()`` runs, the stream opened before
    and ended by the server's stop after them (a stop still sends what was stored before)."""
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.append(
        client.get(f"/api/rooms/{room['id']}/events?token={token}").text))
    reader.start()
    until(lambda: rooms.stream_count(), "the stream to open")
    assert rooms.stream_count() == 1
    changes()
    rooms.stop_streams()
    reader.join()
    views = [json.loads(line[len("data: "):]) for line in seen[0].splitlines()
             if line.startswith("data: ")]
    for view in views:
        hidden(json.dumps(view))
    return views


def test_a_stream_follows_its_tokens_seat_now_not_the_one_it_opened_with(
        tmp_path: Path) -> None:
    """An event stream resolved its token's seat once, when it opened: Ann, who sat down as
    red spymaster through the room's link and handed the seat to the AI, kept her stream
    open; when Eve sat down in the seat, and again in the next deal after "Play again", the
    stream sent Ann Eve's key. Now each event is the view of the seat the token holds then,
    as a GET would show it, and a stream whose token lost its seat ends (the page reconnects
    as a spectator)."""
    limits = RoomLimits(stream_seconds=60.0, heartbeat=30.0)
    with app_client(tmp_path / "games.sqlite3", limits) as client:
        room = new_room(client, [])  # the spymasters sit before the guessers
        url = f"/api/rooms/{room['id']}"
        ann = join(client, room, "red-spymaster", "Ann").json()["token"]
        assert client.post(f"{url}/seat", json={"token": ann, "person": False}).status_code == 200
        eve: dict[str, Any] = {}

        def eve_sits_down() -> None:
            eve.update(join(client, room, "red-spymaster", "Eve").json())
            assert all(card["key"] for card in eve["view"]["cards"])

        revoked = streamed_until_stopped(client, room, ann, eve_sits_down)
        # the stream ended once her seat was someone else's: no view of Eve's seat; the
        # page's reconnect (as a GET) watches as a spectator
        assert [view["room"]["seat"] for view in revoked] == ["red-spymaster"]
        now = client.get(f"{url}?token={ann}").json()
        assert now["room"]["seat"] is None and now["room"]["names"]["red-spymaster"] == ["Eve"]
        client.app.state.rooms.stopping = False  # type: ignore[attr-defined]

        def play_again() -> None:
            # Eve hands the seat to the AI, the red guesser plays the deal out, and deals
            # again; Eve takes her seat back in the new deal.
            assert client.post(f"{url}/seat", json={"token": eve["token"],
                                                    "person": False}).status_code == 200
            view = client.post(f"{url}/seat", json={"token": room["seats"]["red-guesser"],
                                                    "person": True}).json()
            while not view["over"]:
                view = guess_on(client, room, "red-guesser", view).json()
            # nobody holds a guesser seat as it is dealt, so Eve's token, of the last deal,
            # may take her seat back by the room link's rule
            assert client.post(f"{url}/seat", json={"token": room["seats"]["red-guesser"],
                                                    "person": False}).status_code == 200
            again = client.post(f"{url}/again", json={"token": room["seats"]["red-guesser"]})
            assert again.status_code == 200, again.text
            back = client.post(f"{url}/seat", json={"token": eve["token"], "person": True})
            assert all(card["key"] for card in back.json()["cards"])
            eve["view"] = back.json()

        dealt = streamed_until_stopped(client, room, ann, play_again)
        assert dealt[-1]["room"]["version"] == eve["view"]["room"]["version"]
        assert not dealt[-1]["over"] and dealt[-1]["room"]["seat"] is None


def test_reading_an_idle_room_writes_nothing(tmp_path: Path) -> None:
    """A GET of a room idle past ``idle`` closed it in the database (a read that wrote, by a
    second copy of the sweep's rule). Now the store reads it as the sweep will leave it
    (closed, its version one further) and writes nothing; the next sweep closes it."""
    clock, database = Clock(), tmp_path / "games.sqlite3"
    with app_client(database, RoomLimits(idle=600.0), clock) as client:
        room = new_room(client, ["red-guesser"])
        before = view_of(client, room, "red-guesser")
        clock.now += 601

        def stored() -> list[Any]:
            with sqlite3.connect(database) as db:
                return list(db.execute("SELECT version, closed, active FROM rooms"))

        kept = stored()
        for _ in range(2):
            seen = view_of(client, room, "red-guesser")
            assert seen["room"]["closed"] and not seen["your_turn"]
            assert seen["room"]["version"] == before["room"]["version"] + 1
        assert stored() == kept
        new_room(client, [])  # the sweep closes it, as the reads showed it
        assert view_of(client, room, "red-guesser")["room"] == seen["room"]


def test_a_seat_lost_while_a_request_waited_for_the_room_is_not_served(
        client: TestClient) -> None:
    """Third review, finding 3: a token's seat was read before the room's lock, so Ann, who
    had handed her spymaster seat to the AI, could take it back with a request that waited
    while Eve sat down in it, and was answered with the key. The seat is read again under
    the lock: Ann is refused and sees nothing."""
    from codenames_ai.web.roomsapi import seat_change

    room = new_room(client, [])
    url = f"/api/rooms/{room['id']}"
    ann = join(client, room, "red-spymaster", "Ann").json()["token"]
    assert client.post(f"{url}/seat", json={"token": ann, "person": False}).status_code == 200
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    answers: dict[str, Any] = {}
    paths = {"seat": {"person": True}, "check": {"word": "planet"}}
    with rooms.locked(room["id"]):

        def send(path: str, body: dict[str, Any]) -> None:
            answers[path] = client.post(f"{url}/{path}", json={"token": ann, **body})

        threads = [threading.Thread(target=send, args=item) for item in paths.items()]
        for thread in threads:
            thread.start()
        until(lambda: rooms.waiting(room["id"]) >= 1 + len(paths),
              "both requests to queue behind the lock", timeout=30)
        assert rooms.waiting(room["id"]) == 1 + len(paths)
        # Eve sits down in the seat the AI holds, as a join does under the lock.
        seat_change(rooms, rooms.room(room["id"]), "red-spymaster", True, member=("eve", "Eve"))
    for thread in threads:
        thread.join(30)
    for path in paths:
        refused = answers[path]
        assert refused.status_code == 403 and "no longer" in refused.json()["error"], path
        assert "cards" not in refused.json() and "key" not in refused.text


def shut(view: dict[str, Any]) -> bool:
    """Whether the room's link offers no spymaster seat (the key) in this view."""
    return not any(seat.endswith("spymaster") for seat in view["room"]["joinable"])


def test_a_guesser_cannot_read_the_key_by_sitting_in_an_ai_spymaster_seat(
        client: TestClient) -> None:
    """Review r1, MEDIUM: the red guesser sat down in the AI's red spymaster seat through
    the room's link, was answered with the 25 keys, and handed the seat back to the AI,
    leaving only a name. Now, once a person has sat at a guesser seat of the deal, the
    room's link (the creator's too) seats no one in a spymaster seat until the game is
    over: it cannot tell a newcomer from that guesser in another tab."""
    room = new_room(client, ["red-guesser"])
    assert shut(view_of(client, room, "red-guesser")) and shut(view_of(client, room, None))
    for seat in ("red-spymaster", "blue-spymaster"):
        for extra in ({}, {"creator": room["creator"]}):
            refused = join(client, room, seat, "Bob", **extra)
            assert refused.status_code == 409, refused.text
            assert "a person has sat at a guesser seat of this deal" in refused.json()["error"]
            assert "token" not in refused.json()
            hidden(refused.text)
    assert view_of(client, room, None)["room"]["names"]["red-spymaster"] == []
    assert join(client, room, "blue-guesser", "Cat").status_code == 200  # guessers still sit


def test_a_spymaster_seat_stays_shut_for_the_deal_whatever_the_guessers_do(
        client: TestClient) -> None:
    """Every way a person comes to a guesser seat shuts the spymaster seats for the deal,
    and handing the guesser seat to the AI (by its holder or by the creator) does not open
    them again: the guesser's token may take the seat back."""
    by_link = new_room(client, [])
    assert not shut(view_of(client, by_link, None))  # nobody at the table yet
    bob = join(client, by_link, "red-guesser", "Bob").json()["token"]
    assert shut(view_of(client, by_link, None))
    url = f"/api/rooms/{by_link['id']}"
    assert client.post(f"{url}/seat", json={"token": bob, "person": False}).status_code == 200
    assert view_of(client, by_link, None)["room"]["seats"]["red-guesser"] == "ai"
    assert shut(view_of(client, by_link, None))
    assert join(client, by_link, "red-spymaster", "Bob again").status_code == 409

    by_own_link = new_room(client, [])  # the guessers' own seat link, taken up
    url = f"/api/rooms/{by_own_link['id']}"
    taken = client.post(f"{url}/seat", json={"token": by_own_link["seats"]["blue-guesser"],
                                             "person": True})
    assert taken.status_code == 200 and shut(taken.json())
    assert client.post(f"{url}/seat", json={"creator": by_own_link["creator"],
                                            "seat": "blue-guesser",
                                            "person": False}).status_code == 200
    assert join(client, by_own_link, "blue-spymaster", "Dan").status_code == 409

    coop = new_room(client, [], variant="coop")
    assert join(client, coop, "guesser", "Eve").status_code == 200
    assert join(client, coop, "spymaster", "Eve's twin").status_code == 409


def test_a_spymaster_sits_before_the_guessers_and_keeps_the_seat_for_the_deal(
        client: TestClient) -> None:
    """The spymaster who sat down before anyone guessed keeps the seat: handed to the AI,
    their own token takes it back, as does the seat's own link (the creator's to give);
    no newcomer does. Once the game is over the seats open for the next deal, and a new
    deal shuts them again if a person holds a guesser seat as it is dealt."""
    room = new_room(client, [])
    url = f"/api/rooms/{room['id']}"
    ann = join(client, room, "red-spymaster", "Ann").json()
    assert all(card["key"] for card in ann["view"]["cards"])
    assert join(client, room, "red-guesser", "Bob").status_code == 409  # Ann in a tab?
    bob = room["seats"]["red-guesser"]  # the seat's own link, from the creator
    assert client.post(f"{url}/seat", json={"token": bob, "person": True}).status_code == 200
    assert shut(view_of(client, room, None))
    assert client.post(f"{url}/seat", json={"token": ann["token"],
                                            "person": False}).status_code == 200
    assert join(client, room, "red-spymaster", "Eve").status_code == 409
    back = client.post(f"{url}/seat", json={"token": ann["token"], "person": True})
    assert back.status_code == 200 and all(card["key"] for card in back.json()["cards"])
    assert client.post(f"{url}/seat", json={"creator": room["creator"], "seat": "red-spymaster",
                                            "person": False}).status_code == 200
    assert join(client, room, "red-spymaster", "Eve").status_code == 409
    own = client.post(f"{url}/seat", json={"token": room["seats"]["red-spymaster"],
                                           "person": True})
    assert own.status_code == 200 and all(card["key"] for card in own.json()["cards"])
    # the red guessers touch the assassin: the game is over, the key shown to all
    assassin = next(c["index"] for c in ann["view"]["cards"] if c["key"] == "assassin")
    assert client.post(f"{url}/seat", json={"creator": room["creator"], "seat": "red-spymaster",
                                            "person": False}).status_code == 200  # AI clues
    guesser = view_of(client, {**room, "seats": {"bob": bob}}, "bob")
    assert guesser["room"]["current_seat"] == "red-guesser", guesser["room"]
    over = client.post(f"{url}/moves", json={"token": bob, "move": "guess", "index": assassin,
                                             "expect": guesser["expect"]})
    assert over.status_code == 200 and over.json()["over"], over.text
    assert not shut(over.json())  # for the next deal
    cat = join(client, room, "blue-spymaster", "Cat").json()["token"]
    again = client.post(f"{url}/again", json={"token": cat})
    # Bob holds the red guessers' seat as the deal is dealt: Cat's seat, taken by the
    # room's link, goes back to the AI, and her token does not take it back this deal
    assert again.status_code == 200 and not any(card["key"] for card in again.json()["cards"])
    assert again.json()["room"]["seats"]["blue-spymaster"] == "ai" and shut(again.json())
    assert client.post(f"{url}/seat", json={"token": cat, "person": True}).status_code == 409
    assert join(client, room, "red-spymaster", "Eve").status_code == 409

    quiet = new_room(client, [], variant="coop")  # a new deal with no guesser seated
    url = f"/api/rooms/{quiet['id']}"
    spymaster = join(client, quiet, "spymaster", "Ann").json()
    assassin = next(c["index"] for c in spymaster["view"]["cards"] if c["key"] == "assassin")
    word = next(w for w in CLUE_WORDS if client.post(
        f"{url}/check", json={"token": spymaster["token"], "word": w}).json()["legal"])
    assert join(client, quiet, "guesser", "Eve").status_code == 409
    eve = quiet["seats"]["guesser"]
    assert client.post(f"{url}/seat", json={"token": eve, "person": True}).status_code == 200
    clued = client.post(f"{url}/moves", json={"token": spymaster["token"], "move": "clue",
                                              "word": word, "number": 1,
                                              "expect": spymaster["view"]["expect"]})
    ended = client.post(f"{url}/moves", json={"token": eve, "move": "guess", "index": assassin,
                                              "expect": clued.json()["expect"]})
    assert ended.json()["over"], ended.text
    assert client.post(f"{url}/seat", json={"token": eve, "person": False}).status_code == 200
    dealt = client.post(f"{url}/again", json={"token": spymaster["token"]})
    assert dealt.status_code == 200 and dealt.json()["room"]["guess_shut"]  # Ann holds the key
    left = client.post(f"{url}/seat", json={"token": spymaster["token"], "person": False})
    assert left.json()["room"]["joinable"] == ["spymaster"]  # nobody guessed yet


def test_a_room_of_the_last_layout_keeps_its_spymaster_seats_shut_until_the_next_deal(
        tmp_path: Path) -> None:
    """Who sat at a guesser seat of a deal dealt before the rule is unknown: the safe side."""
    database = tmp_path / "games.sqlite3"
    with app_client(database) as client:
        room = new_room(client, [])
    with sqlite3.connect(database) as old:
        old.executescript("ALTER TABLE rooms DROP COLUMN key_seen; "
                          "ALTER TABLE members DROP COLUMN game; "
                          "ALTER TABLE rooms DROP COLUMN guessers_seated;")
    with app_client(database) as client:
        assert shut(view_of(client, room, None))
        assert join(client, room, "red-spymaster").status_code == 409


def test_one_client_cannot_take_the_servers_live_connections(tmp_path: Path) -> None:
    """Review r1, MEDIUM: one client made 13 rooms and opened 32 streams with the seat
    tokens of each, filling the server's 400 live connections, so someone else's room got
    503. Now one seat token holds a few streams and one client (its address) a share of
    the server's, 429 past them; the others still get theirs."""
    limits = RoomLimits(streams=6, client_streams=3, token_streams=2, stream_seconds=60.0)
    app = create_app(tmp_path / "games.sqlite3", new_seed=itertools.count(3).__next__,
                     limits=limits, clock=Clock())
    with TestClient(app, client=("203.0.113.7", 40000)) as attacker:
        victim = TestClient(app, client=("198.51.100.9", 40000))
        rooms = app.state.rooms
        statuses: list[int] = []

        def hold(client: TestClient, url: str) -> threading.Thread:
            """An event stream held open in a thread until the server stops them."""
            count = rooms.stream_count()
            thread = threading.Thread(
                target=lambda: statuses.append(client.get(url).status_code))
            thread.start()
            until(lambda: rooms.stream_count() > count, "the stream to open")
            return thread

        own = [new_room(attacker, ["red-guesser", "blue-guesser"]) for _ in range(2)]
        url = f"/api/rooms/{own[0]['id']}/events?token="
        held = [hold(attacker, url + own[0]["seats"]["red-guesser"]) for _ in range(2)]
        third = attacker.get(url + own[0]["seats"]["red-guesser"])
        assert third.status_code == 429, third.text
        assert third.json()["error"].startswith("this seat's link has its most live")
        held.append(hold(attacker, url + own[0]["seats"]["blue-guesser"]))
        other = attacker.get(f"/api/rooms/{own[1]['id']}/events?token="
                             f"{own[1]['seats']['red-guesser']}")
        assert other.status_code == 429, other.text
        assert other.json()["error"].startswith("your address has its most live")
        spectating = attacker.get(f"/api/rooms/{own[1]['id']}/events")
        assert spectating.status_code == 429  # a spectator's stream counts too
        assert rooms.stream_count() == 3
        room = new_room(victim, ["red-guesser"])
        held.append(hold(victim, f"/api/rooms/{room['id']}/events?token="
                                 f"{room['seats']['red-guesser']}"))
        assert rooms.stream_count() == 4  # someone else's room still follows its game
        rooms.stop_streams()
        for thread in held:
            thread.join(10)
        assert statuses == [200] * 4
        assert rooms.stream_count() == 0
        rooms.stopping = False  # the counts were given back: the token's page follows again
        again = hold(attacker, url + own[0]["seats"]["red-guesser"])
        assert rooms.stream_count() == 1
        rooms.stop_streams()
        again.join(10)
        assert statuses == [200] * 5


def test_a_person_who_saw_the_key_by_the_room_link_cannot_guess_in_that_deal(
        client: TestClient) -> None:
    """Review r2, MEDIUM (way A): someone sat down in the AI's red spymaster seat through the
    room's link, saw the 25 keys, handed the seat back and sat down with the red guessers by
    the same link. Now, once a person has held a spymaster seat of the deal through the
    room's link, the guesser seats are shut to that link (the creator's too) until the game
    is over; a guesser seat's own link still takes its seat."""
    room = new_room(client, [])
    url = f"/api/rooms/{room['id']}"
    xavier = join(client, room, "red-spymaster", "Xavier").json()
    assert all(card["key"] for card in xavier["view"]["cards"])
    assert xavier["view"]["room"]["guess_shut"]
    assert client.post(f"{url}/seat", json={"token": xavier["token"],
                                            "person": False}).status_code == 200
    spectator = view_of(client, room, None)["room"]
    assert spectator["guess_shut"]
    assert spectator["joinable"] == ["red-spymaster", "blue-spymaster"]
    for seat in ("red-guesser", "blue-guesser"):
        for extra in ({}, {"creator": room["creator"]}):  # the creator's page cannot tell
            refused = join(client, room, seat, "Xavier", **extra)
            assert refused.status_code == 409, refused.text
            assert "seen the key" in refused.json()["error"] and "token" not in refused.json()
            hidden(refused.text)
    own = client.post(f"{url}/seat", json={"token": room["seats"]["red-guesser"],
                                           "person": True})
    assert own.status_code == 200 and own.json()["room"]["seat"] == "red-guesser"


def test_nobody_starts_a_deal_holding_a_guesser_seat_and_the_key(client: TestClient) -> None:
    """Review r2, MEDIUM (way B): the red guesser sat down in the red spymaster seat through
    the room's link once the game was over, and "again" dealt a deal whose key that token
    showed while the same person's guesser token had the turn. Now a spymaster seat taken
    through the room's link goes back to the AI at a new deal when a person holds a guesser
    seat, and the token that took it may not take it back until that deal is over."""
    room = new_room(client, [])
    url = f"/api/rooms/{room['id']}"
    guesser = join(client, room, "red-guesser", "Xavier").json()
    view = guesser["view"]
    while not view["over"]:
        response = guess_on(client, {**room, "seats": {"x": guesser["token"]}}, "x", view)
        assert response.status_code == 200, response.text
        view = response.json()
    spymaster = join(client, room, "red-spymaster", "Xavier")  # for the next deal
    assert spymaster.status_code == 200, spymaster.text
    token = spymaster.json()["token"]
    dealt = client.post(f"{url}/again", json={"token": guesser["token"]})
    assert dealt.status_code == 200, dealt.text
    assert dealt.json()["room"]["seats"]["red-spymaster"] == "ai"
    assert dealt.json()["room"]["key_shut"] and not dealt.json()["room"]["guess_shut"]
    mine = client.get(f"{url}?token={token}")
    assert mine.status_code == 200 and not any(card["key"] for card in mine.json()["cards"])
    back = client.post(f"{url}/seat", json={"token": token, "person": True})
    assert back.status_code == 409 and "a guesser seat" in back.json()["error"], back.text
    hidden(back.text)
    assert join(client, room, "red-spymaster", "Xavier").status_code == 409
    # the seat's own link, which only the creator gives, still seats a spymaster
    own = client.post(f"{url}/seat", json={"token": room["seats"]["red-spymaster"],
                                           "person": True})
    assert own.status_code == 200 and all(card["key"] for card in own.json()["cards"])


def test_the_creator_sits_at_a_spymaster_seat_and_friends_join_the_guessers_by_the_link(
        client: TestClient) -> None:
    """The start page seats its creator through ``join`` with the creator's token: that
    shuts no guesser seat (the creator holds every seat's link anyway), so the room fills
    by its link as before."""
    room = new_room(client, [])
    ann = join(client, room, "red-spymaster", "Ann", creator=room["creator"])
    assert ann.status_code == 200 and not ann.json()["view"]["room"]["guess_shut"]
    assert join(client, room, "red-guesser", "Bob").status_code == 200
    assert join(client, room, "blue-spymaster", "Cat").status_code == 409  # Bob guesses
