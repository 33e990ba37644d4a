"""The web app's JSON API through the framework's test client: every endpoint, information
hiding in the raw responses, bad input, and games that survive a restart."""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from codenames_ai.agents.levels import LEVELS, Level
from codenames_ai.agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    PERSON_PARTNER_GUESSER,
    make_agent,
    takes_option,
)
from codenames_ai.core import Role, Team
from codenames_ai.web.app import MAX_BODY, create_app
from codenames_ai.web.games import GameConfig, WebGame
from codenames_ai.web.limits import RoomLimits

IDENTITY_IN_KEY = re.compile(r'"key":\s*"')


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app with fresh deals from seeds 3, 4, 5, ... (the same boards on every run)."""
    with TestClient(create_app(tmp_path / "games.sqlite3",
                               new_seed=itertools.count(3).__next__)) as test_client:
        yield test_client


def new_game(client: TestClient, **settings: Any) -> tuple[str, dict[str, Any]]:
    response = client.post("/api/games", json=settings)
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["view"]


def assert_no_hidden_identity(raw: str) -> None:
    """A guesser's response carries no identity of a face-down card, anywhere."""
    assert not IDENTITY_IN_KEY.search(raw)
    data = json.loads(raw)
    view = data.get("view", data)
    for card in view["cards"]:
        assert card["key"] is None
    if not view["over"]:
        assert view["explanations"] == []
        assert view["key_at_end"] is None and view["seed_digits"] is None
        assert view["config"]["seed"] is None  # the seed deals the key


def test_pages_and_static_files(client: TestClient) -> None:
    for path in ("/", "/game/anything"):
        page = client.get(path)
        assert page.status_code == 200 and "<title>Codenames AI</title>" in page.text
    assert "function render" in client.get("/static/app.js").text
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/index.py").status_code == 404
    for path in ("/static/icon.svg", "/favicon.ico"):  # the icon, also at the classic address
        icon = client.get(path)
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        assert icon.text.startswith("<svg")


def test_options(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert options["roles"] == ["guess", "spymaster", "coop", "watch"]
    assert "glove-ev-spymaster-v1" in options["spymasters"]
    assert options["defaults"]["role"] == "guess"
    assert options["defaults"]["level"] == "normal"
    assert [level["name"] for level in options["levels"]] == ["easy", "normal", "hard"]
    assert options["levels"][0]["description"] == LEVELS[Level.EASY].description
    assert options["level_roles"] == ["guess", "spymaster"]


def test_an_agent_this_server_cannot_build_is_not_offered_and_is_refused_with_the_hint(
        client: TestClient) -> None:
    from codenames_ai.agents import REGISTRY, register
    from codenames_ai.core import Role
    from codenames_ai.extras import Requirement

    needs = Requirement("the 'telepathy' extra", "pip install 'codenames-ai[telepathy]'",
                        lambda: False)
    register("mind-reader-v1", "codenames_ai.agents.baselines:RandomSpymaster",
             role=Role.SPYMASTER, requires=[needs])
    try:
        assert "mind-reader-v1" not in client.get("/api/options").json()["spymasters"]
        refused = client.post("/api/games", json={"spymaster": "mind-reader-v1"})
        assert refused.status_code == 400
        assert refused.json()["error"] == ("agent 'mind-reader-v1' needs the 'telepathy' "
                                           "extra: pip install 'codenames-ai[telepathy]'")
    finally:
        REGISTRY.pop("mind-reader-v1")


@pytest.mark.parametrize("role", ["guess", "coop"])
def test_a_whole_game_as_guesser_never_sees_the_key(client: TestClient, role: str) -> None:
    response = client.post("/api/games", json={"role": role})
    assert_no_hidden_identity(response.text)
    game_id, view = response.json()["id"], response.json()["view"]
    for _ in range(60):
        if view["over"]:
            break
        assert view["your_turn"] and view["phase"] == "guess"
        card = next(c for c in view["cards"] if c["revealed"] is None)
        raw = client.post(f"/api/games/{game_id}/moves",
                          json={"move": "guess", "index": card["index"],
                                "expect": view["expect"]})
        assert raw.status_code == 200, raw.text
        assert_no_hidden_identity(raw.text)
        view = raw.json()
        assert view["cards"][card["index"]]["revealed"] is not None
    assert view["over"] and view["outcome"]
    # Once the game is over: the AI's reasons, in plain words, each with its turn and team...
    assert view["explanations"]
    clues = [e for e in view["log"] if e["event"] == "clue"]
    for why in view["explanations"]:
        assert why["plain"].startswith("aimed at ") and " aims at " in why["detail"]
        assert {"turn": why["turn"], "team": why["team"], "word": why["clue"],
                "number": why["number"]}.items() <= next(
            c for c in clues if c["turn"] == why["turn"]).items()
    # ... and the whole key, for the end screen (the cards' own key stays the seat's view).
    key = view["key_at_end"]
    assert len(key) == 25 and key.count("assassin") == 1
    assert all(c["revealed"] in (None, key[c["index"]]) for c in view["cards"])
    seed = view["config"]["seed"]  # shown once the game is over: it deals the same board
    assert view["seed_digits"] == str(seed)
    watched = client.post("/api/games", json={"role": "watch", "seed": seed}).json()["view"]
    assert [c["word"] for c in watched["cards"]] == [c["word"] for c in view["cards"]]
    late = client.post(f"/api/games/{game_id}/moves",
                       json={"move": "pass", "expect": view["expect"]})
    assert late.status_code == 409 and "the game is over" in late.json()["error"]
    assert_no_hidden_identity(client.get(f"/api/games/{game_id}").text)


def test_the_spymaster_sees_the_key_and_clues_are_checked(client: TestClient) -> None:
    game_id, view = new_game(client, role="spymaster")
    assert view["your_turn"] and view["phase"] == "clue"
    assert all(card["key"] for card in view["cards"])
    board_word = view["cards"][0]["word"]
    verdict = client.post(f"/api/games/{game_id}/check", json={"word": board_word}).json()
    assert verdict == {"legal": False, "rule": "board-word", "message": verdict["message"]}
    refused = client.post(f"/api/games/{game_id}/moves",
                          json={"move": "clue", "word": board_word, "number": 1,
                                "expect": view["expect"]})
    assert refused.status_code == 409 and "[board-word]" in refused.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["moves"] == view["moves"]
    assert client.post(f"/api/games/{game_id}/check", json={"word": "ocean"}).json()["legal"]
    played = client.post(f"/api/games/{game_id}/moves",
                         json={"move": "clue", "word": "ocean", "number": 2,
                               "expect": view["expect"]})
    assert played.status_code == 200
    assert "red spymaster: ocean: 2" in " ".join(played.json()["history"])


def test_a_fresh_deal_from_a_secret_128_bit_seed(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        made = [client.post("/api/games", json={"role": role}).json()
                for role in ("spymaster", "spymaster", "watch")]
        first, second = made[0]["view"], made[1]["view"]
        assert [c["word"] for c in first["cards"]] != [c["word"] for c in second["cards"]]
        for game in made:  # no role sees the seed before the end
            # (the deal is secret and random: the AI may end a game as it is made, say
            # when blue starts and touches the assassin; then the seed is shown)
            over = game["view"]["over"]
            assert (game["view"]["config"]["seed"] is None) is not over
            assert (client.get(f"/api/games/{game['id']}").json()["config"]["seed"]
                    is None) is not over
            stored = client.app.state.store.load(game["id"])[0]["seed"]  # type: ignore[attr-defined]
            assert isinstance(stored, int) and 0 <= stored < 2**128
        assert client.get("/api/options").json()["defaults"]["seed"] is None


@pytest.mark.parametrize("role", ["guess", "spymaster", "coop"])
def test_a_chosen_seed_is_only_for_watching(client: TestClient, role: str) -> None:
    refused = client.post("/api/games", json={"role": role, "seed": 3})
    assert refused.status_code == 400 and "only to watch" in refused.json()["error"]
    assert client.post("/api/games", json={"seed": 3}).status_code == 400  # role guess
    big = 2**128 - 1
    watched = client.post("/api/games", json={"role": "watch", "seed": big})
    assert watched.status_code == 201
    over = client.post("/api/games", json={"role": "watch", "seed": 2**128})
    assert over.status_code == 400 and "2**128 - 1" in over.json()["error"]


def test_watching_steps_one_move_at_a_time(client: TestClient) -> None:
    game_id, view = new_game(client, role="watch")
    assert view["you"] is None and all(card["key"] for card in view["cards"])
    assert view["moves"] == 0
    stepped = client.post(f"/api/games/{game_id}/moves",
                          json={"move": "step", "expect": view["expect"]}).json()
    assert stepped["moves"] == 1 and stepped["history"][0].startswith("Turn 1")
    while not stepped["over"]:
        stepped = client.post(f"/api/games/{game_id}/moves",
                              json={"move": "step", "expect": stepped["expect"]}).json()
    # A step past the end is refused (it answered 200 and changed nothing).
    late = client.post(f"/api/games/{game_id}/moves",
                       json={"move": "step", "expect": stepped["expect"]})
    assert late.status_code == 409 and late.json()["error"] == "the game is over"


def test_pictures_in_the_browser_view(client: TestClient) -> None:
    _, view = new_game(client, role="guess", edition="pictures")
    assert (view["rows"], view["cols"]) == (4, 5)
    assert all(card["picture"] and len(card["tags"]) >= 3 for card in view["cards"])


@pytest.mark.parametrize(("body", "status", "message"), [
    (b"{oops", 400, "not valid JSON"),
    (b'"guess"', 400, "a move must be a JSON object"),
    (b'{"move": "guess", "index": 99}', 409, "card 99 is not on the board"),
    (b'{"move": "guess"}', 409, "needs the card's index"),
    # The move's model reads its fields' types: one line naming the field.
    (b'{"move": "guess", "index": "a"}', 400, "field 'index' must be a whole number"),
    (b'{"move": "guess", "index": true}', 400, "field 'index' must be a whole number"),
    (b'{"move": "clue", "word": "ocean", "number": 1}', 409, "a clue is not allowed now"),
    (b'{"move": "fly"}', 409, "unknown move 'fly'"),
    (b'{"move": "step"}', 409, "'step' is for watching"),
    (b'{"move": "pass", "expect": {"deal": "DEAL", "moves": 9}}', 409, "out of date"),
    (b'{"move": "pass", "expect": {"deal": "0123456789abcdef", "moves": 0}}', 409,
     "an earlier deal"),
    # A field that would be ignored may be a typo the sender thinks was read.
    (b'{"move": "guess", "idx": 3}', 400, "unknown field(s) 'idx'; send the move and its"),
    (b'{"move": "pass", "team": "blue"}', 400, "unknown field(s) 'team'"),
])
def test_bad_moves_change_nothing(client: TestClient, body: bytes, status: int,
                                  message: str) -> None:
    game_id, view = new_game(client, role="guess")
    if b"expect" not in body and body.startswith(b'{"'):  # as the page sends every move
        body = body[:-1] + b', "expect": ' + json.dumps(view["expect"]).encode() + b"}"
    body = body.replace(b"DEAL", view["expect"]["deal"].encode())
    response = client.post(f"/api/games/{game_id}/moves", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == status and message in response.json()["error"]
    after = client.get(f"/api/games/{game_id}").json()
    assert after == view


def test_guessing_a_revealed_card_and_double_submits(client: TestClient) -> None:
    game_id, view = new_game(client, role="guess")
    card = next(c for c in view["cards"] if c["revealed"] is None)["index"]
    move = {"move": "guess", "index": card, "expect": view["expect"]}
    first = client.post(f"/api/games/{game_id}/moves", json=move)
    assert first.status_code == 200
    again = client.post(f"/api/games/{game_id}/moves", json=move)
    assert again.status_code == 409 and "out of date" in again.json()["error"]
    after = first.json()
    if after["your_turn"] and after["phase"] == "guess":
        repeat = client.post(f"/api/games/{game_id}/moves",
                             json={"move": "guess", "index": card, "expect": after["expect"]})
        assert repeat.status_code == 409 and "already revealed" in repeat.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == after


def test_every_move_must_say_what_its_page_saw(client: TestClient) -> None:
    """A move without ``expect`` (two devices, say) is refused: neither is played."""
    game_id, view = new_game(client, role="guess")
    card = next(c for c in view["cards"] if c["revealed"] is None)["index"]
    for device in ("phone", "laptop"):
        sent = client.post(f"/api/games/{game_id}/moves", json={"move": "guess", "index": card})
        assert sent.status_code == 400, device
        assert sent.json()["error"].startswith('a move must send "expect"')
    watched_id, watched = new_game(client, role="watch")
    step = client.post(f"/api/games/{watched_id}/moves", json={"move": "step", "expect": 0})
    assert step.status_code == 400  # a bare count names no deal
    assert client.get(f"/api/games/{game_id}").json() == view
    assert client.get(f"/api/games/{watched_id}").json() == watched


def test_bad_settings_unknown_games_and_big_bodies(client: TestClient) -> None:
    for settings, message in (({"role": "king"}, "role 'king' is not one of"),
                              ({"sead": 1}, "unknown setting(s) 'sead'"),
                              ({"role": "watch", "seed": "x"}, "'seed' must be a whole number"),
                              ({"spymaster": "glove-guesser-v1"}, "not a registered spymaster"),
                              ([], "must be a JSON object")):
        response = client.post("/api/games", json=settings)
        assert response.status_code == 400 and message in response.json()["error"]
    assert client.get("/api/games/unknown").status_code == 404
    # An id as long as a request line holds is quoted cut short (it came back whole).
    for path in (f"/api/games/{'x' * 10_000}", f"/api/rooms/{'x' * 10_000}"):
        unknown = client.get(path)
        assert unknown.status_code == 404 and len(unknown.content) < 200, path
        assert f"'{'x' * 40}...'" in unknown.json()["error"]
    assert client.post("/api/games/unknown/moves", json={"move": "pass"}).status_code == 404
    assert client.post("/api/games/unknown/check", json={"word": "x"}).status_code == 404
    big = client.post("/api/games", content=b" " * (MAX_BODY + 1),
                      headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert client.get("/api/options").status_code == 200  # the server is still up


def test_games_survive_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__)) as first:
        game_id, view = new_game(first, role="guess")
        card = next(c for c in view["cards"] if c["revealed"] is None)["index"]
        played = first.post(f"/api/games/{game_id}/moves",
                            json={"move": "guess", "index": card,
                                  "expect": view["expect"]}).json()
    with TestClient(create_app(database)) as second:
        assert second.get(f"/api/games/{game_id}").json() == played


def test_the_level_is_a_setting_stored_with_the_game(client: TestClient, tmp_path: Path) -> None:
    game_id, view = new_game(client, role="guess")
    assert view["config"]["level"] == "normal"  # the default for a new game
    assert view["level"] == {"name": "normal",
                             "description": LEVELS[Level.NORMAL].description}
    easy_id, easy = new_game(client, role="spymaster", level="easy")
    assert easy["config"]["level"] == "easy"
    assert new_game(client, role="coop")[1]["level"] is None  # no opposing team to set
    refused = client.post("/api/games", json={"level": "impossible"})
    assert refused.status_code == 400
    assert "level 'impossible' is not one of easy, normal, hard" in refused.json()["error"]
    # A game stored before levels existed was played against today's hard team.
    database = tmp_path / "games.sqlite3"
    with sqlite3.connect(database) as db:
        (stored,) = db.execute("SELECT config FROM games WHERE id = ?", (game_id,)).fetchone()
        old = {k: v for k, v in json.loads(stored).items() if k != "level"}
        db.execute("UPDATE games SET config = ? WHERE id = ?", (json.dumps(old), game_id))
    client.app.state.store.close()  # type: ignore[attr-defined]  # one server per file
    with TestClient(create_app(database)) as restarted:
        assert restarted.get(f"/api/games/{game_id}").json()["config"]["level"] == "hard"
        assert restarted.get(f"/api/games/{easy_id}").json()["config"]["level"] == "easy"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_level_chooses_the_blue_team_against_a_person(level: str) -> None:
    def agent_ids(role: str) -> dict[tuple[Team, Role], str]:
        game = WebGame.solo(GameConfig(role=role, level=level, seed=3))
        return {(team, seat): game._agent(team, seat).agent_id
                for team in Team for seat in Role}

    for role in ("guess", "spymaster"):
        ids = agent_ids(role)
        for seat in Role:
            person_id = DEFAULT_SPYMASTER if seat is Role.SPYMASTER else DEFAULT_GUESSER
            options = {"risk": "normal"} if takes_option(person_id, "risk") else {}
            agent_id, agent_options = LEVELS[Level(level)].agent(seat, person_id, options)
            built = make_agent(agent_id, role=seat, **agent_options).agent_id
            assert ids[(Team.BLUE, seat)] == built
            if role == "spymaster" and seat is Role.GUESSER:  # it reads the person's clues
                assert ids[(Team.RED, seat)] == PERSON_PARTNER_GUESSER
                continue
            # hard: the same agents as the person's team; below it, others
            assert (ids[(Team.BLUE, seat)] == ids[(Team.RED, seat)]) is (level == "hard")
    # The person's own AIs, and both teams when watching, are the same at every level.
    watched = agent_ids("watch")
    assert all(watched[(Team.BLUE, seat)] == watched[(Team.RED, seat)] for seat in Role)
    assert agent_ids("guess")[(Team.RED, Role.SPYMASTER)] == watched[(Team.RED, Role.SPYMASTER)]


class Clock:
    """The time a test's server lives by, moved on by hand (nothing sleeps)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def solo_rows(database: Path) -> tuple[int, int]:
    """(games played alone, their moves) as the database holds them."""
    with sqlite3.connect(database) as db:
        solo = "SELECT id FROM games WHERE id NOT IN (SELECT game FROM rooms)"
        games = db.execute(f"SELECT COUNT(*) FROM ({solo})").fetchone()[0]
        moves = db.execute(f"SELECT COUNT(*) FROM moves WHERE game IN ({solo})").fetchone()[0]
    return int(games), int(moves)


def test_a_server_keeps_at_most_its_limit_of_games_played_alone(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__,
                               limits=RoomLimits(games=2))) as client:
        for _ in range(2):
            new_game(client, role="guess")
        refused = client.post("/api/games", json={"role": "guess"})
        assert refused.status_code == 503
        assert refused.json()["error"] == ("this server has its most games under way (2); "
                                           "try again later")
        assert solo_rows(database)[0] == 2  # nothing was stored for the refused one
        # rooms have their own limit
        assert client.post("/api/rooms", json={"people": ["red-guesser"]}).status_code == 201


def test_a_game_played_alone_ends_after_its_idle_time_and_is_deleted(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    clock = Clock()
    limits = RoomLimits(games=1, game_idle=3600.0)
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__, limits=limits,
                               clock=clock)) as client:
        game_id, view = new_game(client, role="watch")
        clock.now += 3000
        stepped = client.post(f"/api/games/{game_id}/moves",
                              json={"move": "step", "expect": view["expect"]})
        assert stepped.status_code == 200  # a move: the hour starts again
        clock.now += 3000
        assert client.get(f"/api/games/{game_id}").status_code == 200
        clock.now += 601
        for ended in (client.get(f"/api/games/{game_id}"),
                      client.post(f"/api/games/{game_id}/moves",
                                  json={"move": "step", "expect": stepped.json()["expect"]}),
                      client.post(f"/api/games/{game_id}/check", json={"word": "ocean"})):
            assert ended.status_code == 404
            assert ended.json()["error"] == (f"game {game_id!r} ended after 1 hour without a "
                                             "move, and is deleted; start a new one")
        assert solo_rows(database) == (1, 1)  # deleted by the next sweep ...
        new_game(client, role="watch")  # ... when a game is made, which frees its place
        assert solo_rows(database) == (1, 0)


def test_a_game_stored_before_games_had_an_activity_time_lasts_from_its_creation(
        tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    clock = Clock()
    limits = RoomLimits(game_idle=3600.0)
    with TestClient(create_app(database, limits=limits, clock=clock,
                               new_seed=itertools.count(3).__next__)) as client:
        game_id, view = new_game(client, role="watch")
    with sqlite3.connect(database) as old:  # as an earlier version stored its games
        old.execute("ALTER TABLE games DROP COLUMN active")
    clock.now += 3000
    with TestClient(create_app(database, limits=limits, clock=clock)) as client:
        assert client.get(f"/api/games/{game_id}").json() == view
        clock.now += 601
        assert client.get(f"/api/games/{game_id}").status_code == 404


def clients_of(app: Any, *hosts: str) -> list[TestClient]:
    """Clients of one server, each from its own address."""
    return [TestClient(app, client=(host, 40000)) for host in hosts]


def test_one_client_cannot_fill_the_server_with_games(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    clock = Clock()
    limits = RoomLimits(games=3, client_games=2, game_idle=3600.0)
    app = create_app(database, new_seed=itertools.count(3).__next__, limits=limits,
                     clock=clock)
    with TestClient(app):
        first, same, other, third = clients_of(app, "2001:db8::1", "2001:db8::2:3",
                                               "192.0.2.7", "192.0.2.8")
        for client in (first, same):  # one IPv6 /64 is one client
            new_game(client, role="guess")
        refused = first.post("/api/games", json={"role": "guess"})
        assert refused.status_code == 429
        assert refused.json()["error"] == (
            "you started 2 games in the last 1 hour, this server's most for one client; go on "
            "with one of them, or try again later")
        assert solo_rows(database)[0] == 2  # nothing stored for the refused one
        new_game(other, role="guess")  # others still play ...
        full = third.post("/api/games", json={"role": "guess"})
        assert full.status_code == 503  # ... until the server's own cap, which needs two
        clock.now += 3601  # a day later (here an hour) the first client's games have ended
        new_game(first, role="guess")


def test_watching_never_locks_anyone_out_of_playing(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    clock = Clock()
    limits = RoomLimits(games=1, watch_games=2, client_watch_games=3, game_idle=3600.0)
    app = create_app(database, new_seed=itertools.count(3).__next__, limits=limits,
                     clock=clock)
    with TestClient(app):
        watcher, other, player = clients_of(app, "192.0.2.1", "192.0.2.2", "192.0.2.3")
        oldest, view = new_game(watcher, role="watch")
        clock.now += 1
        idlest, _ = new_game(watcher, role="watch")
        clock.now += 1
        assert watcher.post(f"/api/games/{oldest}/moves",
                            json={"move": "step", "expect": view["expect"]}).status_code == 200
        clock.now += 1
        newest, _ = new_game(watcher, role="watch")  # the watched game idle longest goes
        assert watcher.get(f"/api/games/{idlest}").status_code == 404
        assert watcher.get(f"/api/games/{oldest}").status_code == 200
        assert watcher.get(f"/api/games/{newest}").status_code == 200
        assert watcher.post("/api/games", json={"role": "watch"}).status_code == 429
        new_game(other, role="watch")  # another client still watches ...
        new_game(player, role="guess")  # ... and a game to play is not counted with them
        assert solo_rows(database)[0] == 3
