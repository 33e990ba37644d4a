"""The web reads moves with the core's codec: an unknown move is told every move its route
accepts (a game alone also takes "step", which the page sends to watch AI-only games)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .test_api import client, new_game  # noqa: F401  (the fixture)
from .test_rooms_api import new_room


def test_a_game_alone_lists_step_among_its_moves(client: TestClient) -> None:  # noqa: F811
    game_id, view = new_game(client, role="guess")
    refused = client.post(f"/api/games/{game_id}/moves",
                          json={"move": "fly", "expect": view["expect"]})
    assert refused.status_code == 409
    assert refused.json()["error"] == ("unknown move 'fly'; moves are clue, guess, pass, "
                                       "cover, step")


def test_a_room_lists_the_moves_it_takes(client: TestClient) -> None:  # noqa: F811
    room = new_room(client, ["red-guesser"])
    view = client.get(f"/api/rooms/{room['id']}?token={room['seats']['red-guesser']}").json()
    refused = client.post(f"/api/rooms/{room['id']}/moves",
                          json={"token": room["seats"]["red-guesser"], "move": "step",
                                "expect": view["expect"]})
    assert refused.status_code == 409
    assert refused.json()["error"] == "unknown move 'step'; moves are clue, guess, pass, cover"
