"""Who gives the clues decides the web's AI guesser (``partner_guesser``): with the guesser
left to the default (""), a team whose spymaster seat a person holds guesses with
``PERSON_PARTNER_GUESSER``, a team whose clues the AI gives with ``DEFAULT_GUESSER`` (both
people-guesser-v2 since the people model is shared); a chosen guesser is kept. Solo games
and rooms are the same ``WebGame``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from codenames_ai.agents.registry import DEFAULT_GUESSER, PERSON_PARTNER_GUESSER
from codenames_ai.core import ConfigError, Team
from codenames_ai.web.app import create_app
from codenames_ai.web.games import PERSON, GameConfig, Offer, WebGame
from codenames_ai.web.rooms import room_game


def guessers(game: WebGame) -> dict[Team, str]:
    """The agent id in each team's guesser seat ("person" for a person's)."""
    seats = game._seats()
    return {team: ("person" if seat is PERSON else seat.agent_id)
            for team, seat in ((Team.RED, seats.red_guesser), (Team.BLUE, seats.blue_guesser))}


def test_a_person_at_the_spymaster_seat_gets_the_people_guesser() -> None:
    game = WebGame.solo(GameConfig(role="spymaster", level="hard", seed=3))
    assert game.config.guesser == ""  # the default: by who gives the clues
    assert guessers(game) == {Team.RED: PERSON_PARTNER_GUESSER, Team.BLUE: DEFAULT_GUESSER}


def test_beside_the_ai_spymaster_the_guesser_stays_the_default() -> None:
    game = WebGame.solo(GameConfig(role="guess", level="hard", seed=3))
    assert guessers(game) == {Team.RED: "person", Team.BLUE: DEFAULT_GUESSER}
    watched = WebGame.solo(GameConfig(role="watch", seed=3))
    assert guessers(watched) == {Team.RED: DEFAULT_GUESSER, Team.BLUE: DEFAULT_GUESSER}


def test_a_chosen_guesser_is_kept_beside_a_persons_clues() -> None:
    game = WebGame.solo(GameConfig(role="spymaster", level="hard", seed=3,
                                   guesser=DEFAULT_GUESSER))
    assert guessers(game) == {Team.RED: DEFAULT_GUESSER, Team.BLUE: DEFAULT_GUESSER}


def test_a_rooms_guessers_follow_who_holds_each_spymaster_seat() -> None:
    config = GameConfig(level="hard", seed=3)
    red_clues = room_game(config, people=frozenset({"red-spymaster"}))
    assert guessers(red_clues) == {Team.RED: PERSON_PARTNER_GUESSER, Team.BLUE: DEFAULT_GUESSER}
    both = room_game(config, people=frozenset({"red-spymaster", "blue-spymaster"}))
    assert guessers(both) == {Team.RED: PERSON_PARTNER_GUESSER,
                              Team.BLUE: PERSON_PARTNER_GUESSER}
    # Co-op's one spymaster seat gives the players' team's clues, whichever team starts.
    coop = room_game(GameConfig(variant="coop", seed=3), people=frozenset({"spymaster"}))
    team = coop.state.board.starting_team
    assert coop._agent(team, coop.seats["guesser"][1]).agent_id == PERSON_PARTNER_GUESSER


def test_the_default_is_offered_and_an_unoffered_guesser_is_still_refused() -> None:
    offer = Offer.parse("default")
    assert offer.guessers == tuple(dict.fromkeys((DEFAULT_GUESSER, PERSON_PARTNER_GUESSER)))
    offer.check(GameConfig())  # "" is by who gives the clues
    with pytest.raises(ConfigError, match="guesser 'glove-guesser-v1' is not offered by this "
                                          "server; choose one of: people-guesser-v2"):
        offer.check(GameConfig(guesser="glove-guesser-v1"))
    with pytest.raises(ConfigError, match="guesser 'panel-spymaster-v3' is not a registered "
                                          "guesser"):
        GameConfig(guesser="panel-spymaster-v3").check()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3",
                               new_seed=itertools.count(3).__next__)) as test_client:
        yield test_client


def test_the_pages_default_settings_give_a_person_spymaster_the_people_guesser(
        client: TestClient) -> None:
    assert client.get("/api/options").json()["defaults"]["guesser"] == ""
    # The page sends no guesser: the server's default applies, and the AI guesses the clue.
    created = client.post("/api/games", json={"role": "spymaster"})
    assert created.status_code == 201, created.text
    game_id, view = created.json()["id"], created.json()["view"]
    assert view["config"]["guesser"] == ""
    played = client.post(f"/api/games/{game_id}/moves",
                         json={"move": "clue", "word": "ocean", "number": 2,
                               "expect": view["expect"]})
    assert played.status_code == 200, played.text
    assert any(entry["event"] == "guess" and entry["team"] == "red"
               for entry in played.json()["log"])
