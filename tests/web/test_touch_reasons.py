"""Each AI touch carries its reason in the web's history (issue 41): the clue it served and
how sure the guesser was, for a bonus touch the earlier clue. The guesser never knows the key,
so the reasons are shown to every seat as the touches are made; they are kept in the stored
moves (as an AI clue's are), and a game stored before touches had reasons still loads."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app
from codenames_ai.web.games import GameConfig, WebGame

from .test_api import assert_no_hidden_identity, client, new_game  # noqa: F401  (the fixture)

# Words only a spymaster's key could tell (a card word aside): a reason must hold none.
KEY_WORDS = ("assassin", "bystander", "other team", "red agent", "blue agent")


def clue(client: TestClient, game_id: str, view: dict[str, Any], word: str,  # noqa: F811
         number: int) -> dict[str, Any]:
    played = client.post(f"/api/games/{game_id}/moves",
                         json={"move": "clue", "word": word, "number": number,
                               "expect": view["expect"]})
    assert played.status_code == 200, played.text
    return dict(played.json())


def ai_touches(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry for entry in view["log"] if entry["event"] == "guess"]


def test_an_ai_touch_in_the_history_carries_its_reason(client: TestClient) -> None:  # noqa: F811
    game_id, view = new_game(client, role="spymaster")
    view = clue(client, game_id, view, "ocean", 2)
    touches = [e for e in ai_touches(view) if e["team"] == "red"]
    assert touches  # the person's clue, touched by the AI guesser
    first = touches[0]
    assert first["reason"].startswith("for 'ocean 2', its closest card: ")
    assert first["reason_numbers"].startswith(f"{first['word'].upper()} for 'ocean 2' (clue); ")
    # Every AI touch has one, the other team's too (blue's turn follows).
    assert all(entry.get("reason") for entry in ai_touches(view))
    # The stored moves keep them: a restarted server shows the same.
    assert client.get(f"/api/games/{game_id}").json()["log"] == view["log"]


def test_a_guesser_sees_the_ai_s_reasons_while_playing_and_they_hold_no_key(
        client: TestClient) -> None:  # noqa: F811
    # The person guesses for red; blue's AI guesser touches between their turns.
    response = client.post("/api/games", json={"role": "guess"})
    game_id, view = response.json()["id"], response.json()["view"]
    reasons: list[str] = []
    for _ in range(12):
        if view["over"]:
            break
        card = next(c for c in view["cards"] if c["revealed"] is None)
        raw = client.post(f"/api/games/{game_id}/moves",
                          json={"move": "guess", "index": card["index"],
                                "expect": view["expect"]})
        assert_no_hidden_identity(raw.text)
        view = raw.json()
        reasons = [e["reason"] for e in ai_touches(view) if e["team"] == "blue"]
        if reasons and not view["over"]:
            break
    assert reasons and not view["over"]  # shown during the game
    for reason in reasons:
        assert not any(word in reason for word in KEY_WORDS), reason


def test_the_same_seed_gives_the_same_reasons_and_old_moves_without_them_load(
        tmp_path: Path) -> None:
    def played() -> list[dict[str, Any]]:
        game = WebGame.solo(GameConfig(role="spymaster", seed=11))
        game.ai_moves()  # blue starts
        game.person_move({"move": "clue", "word": "vehicle", "number": 3})
        game.ai_moves()
        return game.moves

    moves = played()
    assert moves == played()
    guesses = [m for m in moves if m["move"] == "guess" and m["by"] == "ai"]
    assert guesses and all(m["plain"] and m["why"] for m in guesses)
    # A game stored before touches had reasons: its guess moves have no "why" nor "plain".
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__)) as first:
        game_id, view = new_game(first, role="spymaster")
        view = clue(first, game_id, view, "ocean", 2)
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT number, move FROM moves WHERE game = ?", (game_id,)).fetchall()
        for number, stored in rows:
            move = json.loads(stored)
            if move["move"] == "guess":
                old = {k: v for k, v in move.items() if k not in ("why", "plain")}
                db.execute("UPDATE moves SET move = ? WHERE game = ? AND number = ?",
                           (json.dumps(old), game_id, number))
    with TestClient(create_app(database)) as restarted:
        loaded = restarted.get(f"/api/games/{game_id}").json()
    assert [e["text"] for e in loaded["log"]] == [e["text"] for e in view["log"]]
    assert not any("reason" in e for e in loaded["log"])
