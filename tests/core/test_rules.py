"""Editions, layouts and rule-set options."""

from __future__ import annotations

import pytest

from codenames_ai.core import (
    PICTURES,
    WORDS,
    ConfigError,
    GuessLimit,
    Layout,
    RuleSet,
    Variant,
    coop_rating,
    custom,
    edition,
    guess_limit,
    variant,
)


def test_words_edition_is_5x5_with_9_8_7_1() -> None:
    layout = WORDS.layout
    assert (layout.rows, layout.cols, layout.cells) == (5, 5, 25)
    assert layout.starting_team_cards == 9
    assert (layout.second_team_agents, layout.bystanders, layout.assassins) == (8, 7, 1)
    assert layout.double_agent


def test_pictures_edition_is_5_wide_4_tall_with_8_7_4_1() -> None:
    layout = PICTURES.layout
    assert (layout.cols, layout.rows, layout.cells) == (5, 4, 20)
    assert layout.starting_team_cards == 8
    assert (layout.second_team_agents, layout.bystanders, layout.assassins) == (7, 4, 1)


def test_custom_layout_any_rectangle_and_counts_that_fit() -> None:
    layout = Layout(rows=6, cols=6, first_team_agents=11, second_team_agents=10,
                    double_agent=True, bystanders=12, assassins=2)
    rules = custom(layout)
    assert rules.edition == "custom" and rules.layout.cells == 36
    no_double = Layout(rows=2, cols=3, first_team_agents=2, second_team_agents=2,
                       double_agent=False, bystanders=2, assassins=0)
    assert no_double.starting_team_cards == 2


def test_impossible_layout_says_what_to_change() -> None:
    with pytest.raises(ConfigError, match=r"5x5 grid has 25 cards but the key has 26.*"
                                          r"set bystanders to 7"):
        Layout(rows=5, cols=5, first_team_agents=8, second_team_agents=8, double_agent=True,
               bystanders=8, assassins=1)
    with pytest.raises(ConfigError, match="fewer agents or a larger grid"):
        Layout(rows=2, cols=2, first_team_agents=3, second_team_agents=3, double_agent=False,
               bystanders=0, assassins=0)
    with pytest.raises(ConfigError, match="must not be negative"):
        Layout(rows=2, cols=2, first_team_agents=2, second_team_agents=2, double_agent=False,
               bystanders=-1, assassins=1)
    with pytest.raises(ConfigError, match="at least one agent"):
        Layout(rows=1, cols=2, first_team_agents=2, second_team_agents=0, double_agent=False,
               bystanders=0, assassins=0)
    with pytest.raises(ConfigError, match="at least one row"):
        Layout(rows=0, cols=2, first_team_agents=0, second_team_agents=0, double_agent=False,
               bystanders=0, assassins=0)


def test_unknown_names_are_clear_errors() -> None:
    assert edition("Words") is WORDS
    with pytest.raises(ConfigError, match="unknown edition 'duet'; choose one of: pictures"):
        edition("duet")
    assert variant("three-player") is Variant.THREE_PLAYER
    with pytest.raises(ConfigError, match="unknown variant 'solo'"):
        variant("solo")
    assert guess_limit("strict") is GuessLimit.STRICT
    with pytest.raises(ConfigError, match="unknown guess limit"):
        guess_limit("plus-two")
    with pytest.raises(ConfigError, match="unknown rule option"):
        WORDS.with_options(colour="green")


def test_time_limits_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="clue_time_limit must be a positive"):
        WORDS.with_options(clue_time_limit=0)


def test_rule_set_round_trips_through_a_dict() -> None:
    rules = PICTURES.with_options(variant=Variant.COOP, guess_limit=GuessLimit.STRICT,
                                  guess_time_limit=1.5)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    with pytest.raises(ConfigError, match="malformed rule set"):
        RuleSet.from_dict({"edition": "words"})


def test_coop_ratings_name_every_score_with_8_best() -> None:
    names = [coop_rating(score) for score in range(9)]
    assert len(set(names)) == 9
    assert coop_rating(12) == coop_rating(8)
