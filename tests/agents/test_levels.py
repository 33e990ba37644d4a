"""Levels: which agents the team playing against a person gets, and that the person's own
team never changes."""

from __future__ import annotations

import pytest

from codenames_ai.agents.levels import LEVELS, Level, ai_seat, opposes_people, opposing_team
from codenames_ai.agents.panel import DEFAULT_MINDS
from codenames_ai.agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    LEVEL_GUESSER,
    LEVEL_SPYMASTER,
)
from codenames_ai.core import WORDS, ConfigError, Role, Team, Variant
from codenames_ai.play.session import seats_for_role
from codenames_ai.play.terminal import Console


def test_hard_plays_with_the_persons_own_agents_and_options() -> None:
    hard = opposing_team("hard")
    assert hard.agent(Role.SPYMASTER, "glove-ev-spymaster-v1", {"risk": "bold"}) == (
        "glove-ev-spymaster-v1", {"risk": "bold"})
    assert hard.agent(Role.GUESSER, "glove-guesser-v1", {"model": "m"}) == (
        "glove-guesser-v1", {"model": "m"})


@pytest.mark.parametrize(("level", "mind"), [(Level.EASY, "wordnet-3.0"),
                                             (Level.NORMAL, "glove-6b-50d")])
def test_below_hard_the_guesser_thinks_with_a_mind_its_spymaster_does_not_consult(
        level: Level, mind: str) -> None:
    team = opposing_team(level)
    spymaster_id, spymaster = team.agent(Role.SPYMASTER, DEFAULT_SPYMASTER,
                                         {"cache_dir": "/c", "model": "x", "risk": "bold"})
    guesser_id, guesser = team.agent(Role.GUESSER, DEFAULT_GUESSER, {"cache_dir": "/c"})
    # The levels keep the three-mind panel their pace was measured with, whatever the
    # default spymaster is.
    assert (spymaster_id, guesser_id) == (LEVEL_SPYMASTER, LEVEL_GUESSER)
    assert LEVEL_GUESSER == "panel-guesser-v2" != DEFAULT_GUESSER
    assert LEVEL_SPYMASTER == "panel-spymaster-v2" != DEFAULT_SPYMASTER
    assert mind not in spymaster["minds"] and set(spymaster["minds"]) | {mind} == set(
        DEFAULT_MINDS)
    assert spymaster["known_by"] == DEFAULT_MINDS  # clue words its guesser can read
    assert guesser["minds"] == (mind,)
    # the cache folder carries over; the options that would choose another mind do not
    assert spymaster["cache_dir"] == guesser["cache_dir"] == "/c"
    assert "model" not in spymaster and "risk" not in spymaster


def test_every_level_has_a_description_and_an_unknown_one_is_refused() -> None:
    assert [level.value for level in LEVELS] == ["easy", "normal", "hard"]
    assert all(team.description for team in LEVELS.values())
    with pytest.raises(ConfigError, match="unknown level 'insane'; choose one of: easy, "
                                          "normal, hard"):
        opposing_team("insane")


def test_the_terminal_seats_the_level_against_the_person_and_keeps_the_persons_team() -> None:
    console = Console(read=lambda prompt: "quit", write=lambda text: None)
    _, easy, person = seats_for_role("guess", WORDS, console, spymaster_id=DEFAULT_SPYMASTER,
                                     guesser_id=DEFAULT_GUESSER, level="easy")
    _, hard, _ = seats_for_role("guess", WORDS, console, spymaster_id=DEFAULT_SPYMASTER,
                                guesser_id=DEFAULT_GUESSER, level="hard")
    assert person is Team.RED
    assert easy.red_spymaster.agent_id == hard.red_spymaster.agent_id == DEFAULT_SPYMASTER
    assert hard.blue_guesser.agent_id == DEFAULT_GUESSER
    assert easy.blue_guesser.agent_id.startswith(f"{LEVEL_GUESSER}(")
    assert "wordnet-3.0" in easy.blue_guesser.agent_id
    assert "minds=" in easy.blue_spymaster.agent_id


def test_a_wrong_guesser_id_is_refused_even_when_the_level_takes_that_seat() -> None:
    console = Console(read=lambda prompt: "quit", write=lambda text: None)
    with pytest.raises(ConfigError, match="the AI guesser needs a guesser"):
        seats_for_role("guess", WORDS, console, spymaster_id=DEFAULT_SPYMASTER,
                       guesser_id=DEFAULT_SPYMASTER, level="normal")


@pytest.mark.parametrize(("team", "variant", "people", "leveled"), [
    (Team.BLUE, Variant.STANDARD, {Team.RED}, True),  # the team against the person
    (Team.RED, Variant.STANDARD, {Team.RED}, False),  # the person's own AI teammate
    (Team.RED, Variant.STANDARD, {Team.BLUE}, True),  # a room where people play blue
    (Team.BLUE, Variant.STANDARD, set(), False),  # an AI-only game
    (Team.BLUE, Variant.STANDARD, {Team.RED, Team.BLUE}, False),  # people on both teams
    (Team.BLUE, Variant.COOP, {None}, False),  # co-op has no other team
    (Team.BLUE, Variant.THREE_PLAYER, {None}, False),
])
def test_ai_seat_gives_the_levels_agents_only_to_the_team_against_people(
        team: Team, variant: Variant, people: set[Team | None], leveled: bool) -> None:
    chosen = (DEFAULT_SPYMASTER, {"cache_dir": "/c"})
    seat = ai_seat(Level.EASY, Role.SPYMASTER, team, *chosen, variant=variant, people=people)
    assert opposes_people(team, variant=variant, people=people) is leveled
    assert seat == (LEVELS[Level.EASY].agent(Role.SPYMASTER, *chosen) if leveled else chosen)
    # at hard the level's team is the person's own agents
    assert ai_seat(Level.HARD, Role.SPYMASTER, team, *chosen, variant=variant,
                   people=people) == chosen
