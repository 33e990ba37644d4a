"""A game's settings as one typed value: reading them (names, text), writing them back, every
message a wrong one gets, and the rule set they make, the same as each front end built."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from codenames_ai.core import (
    DEFAULT_LEVEL,
    PICTURES,
    WORDS,
    ConfigError,
    EditionName,
    GameSettings,
    GuessLimit,
    Layout,
    LayoutOverrides,
    Level,
    Variant,
    custom,
    edition,
)

CUSTOM = GameSettings(edition=EditionName.CUSTOM, variant=Variant.THREE_PLAYER,
                      layout=LayoutOverrides(rows=4, cols=6, bystanders=6, double_agent=False,
                                             first_team_agents=9),
                      clue_rules="house:form+letter", guess_limit=GuessLimit.STRICT,
                      clue_seconds=30.0, guess_seconds=12.5, level=Level.EASY)
EXAMPLES = [GameSettings(), CUSTOM,
            GameSettings(edition=EditionName.PICTURES, variant=Variant.COOP,
                         clue_rules="flexible", level=Level.HARD),
            GameSettings(clue_rules="basic", guess_seconds=1.0)]


@pytest.mark.parametrize("settings", EXAMPLES)
def test_settings_round_trip_through_names_and_through_text(settings: GameSettings) -> None:
    assert GameSettings.from_mapping(settings.to_dict()) == settings
    assert GameSettings.from_string(settings.to_string()) == settings


def test_the_defaults_are_the_words_edition_at_the_default_level() -> None:
    settings = GameSettings.from_mapping({})
    assert settings == GameSettings() == GameSettings.from_string("")
    assert settings.to_rules() == WORDS and settings.level is DEFAULT_LEVEL is Level.NORMAL
    assert settings.to_string() == ""
    assert settings.to_dict() == {
        "edition": "words", "variant": "standard", "layout": {}, "clue_rules": None,
        "guess_limit": "classic", "clue_seconds": None, "guess_seconds": None,
        "level": "normal"}
    # a missing setting and one given as null alike keep the default
    assert GameSettings.from_mapping({"edition": None, "layout": {"rows": None}}) == settings


def test_the_text_form_names_the_layouts_counts_on_their_own() -> None:
    text = CUSTOM.to_string()
    assert text == ("edition=custom,variant=three-player,clue_rules=house:form+letter,"
                    "guess_limit=strict,clue_seconds=30.0,guess_seconds=12.5,level=easy,"
                    "rows=4,cols=6,first_team_agents=9,double_agent=false,bystanders=6")
    assert GameSettings.from_string(" edition = custom , rows=4, cols = 6, bystanders=6, "
                                    "double_agent=no, first_team_agents=9,") == replace(
        GameSettings(edition=EditionName.CUSTOM), layout=CUSTOM.layout)


# What each front end built before it parsed through GameSettings: the command line's
# ``build_rules``, the web's ``GameConfig.rules`` and the tournament spec's ``rules``.
OLD_PATHS: list[tuple[dict[str, Any], Any]] = [
    # codenames watch --edition custom --rows 4 --bystanders 2 --variant coop
    ({"edition": "custom", "layout": {"rows": 4, "bystanders": 2}, "variant": "coop"},
     custom(Layout(**{**WORDS.layout.__dict__, "rows": 4, "bystanders": 2}))
     .with_options(variant=Variant.COOP, guess_limit=GuessLimit.CLASSIC)),
    # codenames play --edition pictures --guess-limit strict --clue-rules flexible
    ({"edition": "pictures", "guess_limit": "strict", "clue_rules": "flexible"},
     edition("pictures").with_options(variant=Variant.STANDARD, guess_limit=GuessLimit.STRICT)
     .with_options(clue_rules="flexible")),
    # the web: {"role": "coop", "edition": "pictures", "clue_rules": ""}
    ({"edition": "pictures", "variant": "coop"},
     PICTURES.with_options(guess_limit=GuessLimit.CLASSIC).with_options(variant=Variant.COOP)),
    # a tournament spec: mode = "coop", rules.move_time_limit = 5, house rules
    ({"edition": "words", "guess_limit": "strict", "clue_rules": "house:form",
      "variant": "coop", "clue_seconds": 5.0, "guess_seconds": 5.0},
     edition("words").with_options(guess_limit=GuessLimit.STRICT)
     .with_options(clue_rules="house:form").with_options(variant=Variant.COOP)
     .with_options(clue_time_limit=5.0, guess_time_limit=5.0)),
]


@pytest.mark.parametrize(("mapping", "built"), OLD_PATHS)
def test_to_rules_is_the_rule_set_each_front_end_built(mapping: dict[str, Any],
                                                       built: Any) -> None:
    assert GameSettings.from_mapping(mapping).to_rules() == built


def test_the_level_is_no_rule() -> None:
    assert GameSettings(level=Level.EASY).to_rules() == GameSettings().to_rules()


def test_a_name_is_read_in_any_case_with_spaces_around_as_the_core_reads_names() -> None:
    settings = GameSettings.from_mapping({"edition": " Words", "guess_limit": "Strict"})
    assert (settings.edition, settings.guess_limit) == (EditionName.WORDS, GuessLimit.STRICT)


ERRORS: list[tuple[object, str]] = [
    ([], "the game settings must be a table of names (a JSON object)"),
    ({"sead": 1, "edtion": "x"}, "unknown setting(s) 'edtion', 'sead'; known: edition, "
                                 "variant, layout, clue_rules, guess_limit, clue_seconds, "
                                 "guess_seconds, level"),
    ({"edition": "duet"}, "edition 'duet' is not one of words, pictures, custom"),
    ({"variant": "solo"}, "variant 'solo' is not one of standard, coop, three-player"),
    ({"guess_limit": "loose"}, "guess_limit 'loose' is not one of classic, strict"),
    ({"level": "impossible"}, "level 'impossible' is not one of easy, normal, hard"),
    ({"level": 3}, "setting 'level' must be a string"),
    ({"clue_rules": "loose"}, "clue_rules 'loose' is not one of classic, strict, flexible, "
                              "pictures, basic, house:RULE+RULE..."),
    ({"clue_rules": "house:"}, "clue_rules 'house:' is not one of"),
    ({"clue_rules": ["classic"]}, "setting 'clue_rules' must be a string"),
    ({"clue_seconds": 0}, "clue_seconds must be a positive, finite number of seconds, got 0"),
    ({"guess_seconds": float("inf")}, "guess_seconds must be a positive, finite number of "
                                      "seconds, got inf"),
    ({"guess_seconds": "10"}, "guess_seconds must be a positive, finite number of seconds, "
                              "got '10'"),
    ({"clue_seconds": True}, "clue_seconds must be a positive, finite number of seconds"),
    ({"layout": 4}, "setting 'layout' must be a table of counts (rows, cols, ...)"),
    ({"edition": "custom", "layout": {"row": 4}}, "unknown setting(s) 'layout.row'; known: "
                                                  "layout.rows, layout.cols"),
    ({"edition": "custom", "layout": {"rows": "4"}}, "layout.rows must be a whole number, "
                                                     "got '4'"),
    ({"edition": "custom", "layout": {"rows": True}}, "layout.rows must be a whole number"),
    ({"edition": "custom", "layout": {"double_agent": 1}}, "layout.double_agent must be true "
                                                           "or false, got 1"),
    ({"layout": {"rows": 4, "bystanders": 3}}, "layout settings (rows, bystanders) need "
                                               "edition custom, not words"),
    ({"edition": "custom", "layout": {"rows": 4}}, "a 4x5 grid has 20 cards but the key has "
                                                   "25 .*; set bystanders to 2"),
]


@pytest.mark.parametrize(("mapping", "message"), ERRORS)
def test_every_wrong_setting_gets_one_message_naming_it_and_what_it_may_be(
        mapping: object, message: str) -> None:
    pattern = message if ".*" in message else _literal(message)
    with pytest.raises(ConfigError, match=pattern):
        GameSettings.from_mapping(mapping)


TEXT_ERRORS = [
    ("edition", "setting 'edition' must be written name=value"),
    ("=words", "setting '=words' must be written name=value"),
    ("level=hard,level=easy", "setting 'level' is given twice"),
    ("edition=custom,rows=four", "layout.rows must be a whole number, got 'four'"),
    ("edition=custom,double_agent=maybe", "layout.double_agent 'maybe' is not one of true, "
                                          "false"),
    ("clue_seconds=soon", "clue_seconds must be a number of seconds, got 'soon'"),
    ("colour=red", "unknown setting(s) 'colour'"),
]


@pytest.mark.parametrize(("text", "message"), TEXT_ERRORS)
def test_the_text_form_refuses_what_it_cannot_read(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=_literal(message)):
        GameSettings.from_string(text)


def test_settings_built_in_python_are_checked_too() -> None:
    with pytest.raises(ConfigError, match=_literal(
            "setting 'edition' must be a member of EditionName, got 'words' "
            "(GameSettings.from_mapping reads names)")):
        GameSettings(edition="words")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="setting 'layout' must be a LayoutOverrides"):
        GameSettings(layout={"rows": 4})  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="need edition custom, not pictures"):
        GameSettings(edition=EditionName.PICTURES, layout=LayoutOverrides(assassins=2))
    with pytest.raises(ConfigError, match="a 5x5 grid has 25 cards but the key has 26"):
        GameSettings(edition=EditionName.CUSTOM, layout=LayoutOverrides(assassins=2))


def _literal(message: str) -> str:
    import re

    return re.escape(message)
