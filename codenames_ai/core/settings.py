"""A game's settings as one typed value, which every front end parses into: the command line,
the web's setup form, a tournament spec and the learning environment. ``to_rules`` is the one
way from settings to the core's ``RuleSet``.

``from_mapping`` reads names (JSON, TOML: ``{"edition": "words", "layout": {"rows": 4}}``) and
``from_string`` the text form ``edition=custom,rows=4,bystanders=3``; a wrong value gets one
message naming the setting and what it may be.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any, TypeVar

from .choices import DEFAULT_LEVEL, Level
from .errors import ConfigError, quoted, quoted_some
from .rules import (
    WORDS_LAYOUT,
    ClueRulesName,
    EditionName,
    GuessLimit,
    Layout,
    RuleSet,
    Variant,
    custom,
    edition,
)

Named = TypeVar("Named", bound=Enum)

# Clue rules besides the presets: the core's own checks only, or house rules (a preset's
# checks switched on or off one by one, ``legality.rules``; checked by name when played).
BASIC_CLUE_RULES = "basic"
HOUSE_PREFIX = "house:"
CLUE_RULES_CHOICES = (*(c.value for c in ClueRulesName), BASIC_CLUE_RULES,
                      HOUSE_PREFIX + "RULE+RULE...")


@dataclass(frozen=True)
class LayoutOverrides:
    """The counts a custom layout changes from the Words layout (``None``: the Words
    count). Only ``edition`` ``custom`` takes any."""

    rows: int | None = None
    cols: int | None = None
    first_team_agents: int | None = None
    second_team_agents: int | None = None
    double_agent: bool | None = None
    bystanders: int | None = None
    assassins: int | None = None

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            _check_layout_value(f"layout.{name}", name, value)

    def given(self) -> dict[str, int | bool]:
        """The counts set, by name."""
        return {name: value for name, value in asdict(self).items() if value is not None}

    def applied_to(self, base: Layout) -> Layout:
        """``base`` with these counts (``ConfigError`` if the key no longer fills the grid)."""
        return Layout(**{**asdict(base), **self.given()})

    @classmethod
    def from_mapping(cls, mapping: object) -> LayoutOverrides:
        """Overrides from names and numbers, e.g. ``{"rows": 4, "double_agent": false}``."""
        if not isinstance(mapping, Mapping):
            raise ConfigError("setting 'layout' must be a table of counts (rows, cols, ...)")
        _refuse_unknown(mapping, LAYOUT_FIELDS, "layout.")
        return cls(**dict(mapping))


LAYOUT_FIELDS = tuple(f.name for f in fields(LayoutOverrides))


@dataclass(frozen=True)
class GameSettings:
    """Everything chosen before a game that decides its rules, and the level of the team
    playing against a person. ``clue_rules`` ``None``: the edition's own; the seconds are a
    budget per clue and per guess for every seat (``None``: no limit)."""

    edition: EditionName = EditionName.WORDS
    variant: Variant = Variant.STANDARD
    layout: LayoutOverrides = field(default_factory=LayoutOverrides)
    clue_rules: str | None = None
    guess_limit: GuessLimit = GuessLimit.CLASSIC
    clue_seconds: float | None = None
    guess_seconds: float | None = None
    level: Level = DEFAULT_LEVEL

    def __post_init__(self) -> None:
        for name, kind in (("edition", EditionName), ("variant", Variant),
                           ("guess_limit", GuessLimit), ("level", Level)):
            if not isinstance(getattr(self, name), kind):
                raise ConfigError(f"setting {name!r} must be a member of {kind.__name__}, got "
                                  f"{getattr(self, name)!r} (GameSettings.from_mapping reads "
                                  "names)")
        if not isinstance(self.layout, LayoutOverrides):
            raise ConfigError(f"setting 'layout' must be a LayoutOverrides, got "
                              f"{self.layout!r}")
        if self.clue_rules is not None:
            _check_clue_rules(self.clue_rules)
        for name in ("clue_seconds", "guess_seconds"):
            _check_seconds(name, getattr(self, name))
        given = self.layout.given()
        if given and self.edition is not EditionName.CUSTOM:
            raise ConfigError(f"layout settings ({', '.join(given)}) need edition custom, "
                              f"not {self.edition.value}")
        if given:
            self.layout.applied_to(WORDS_LAYOUT)  # a key that does not fill its grid

    # --- reading ------------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, mapping: object) -> GameSettings:
        """Settings from names (a web page's JSON, a tournament spec's table): each enum by
        its value, ``layout`` a table of counts, seconds as numbers; a missing or ``None``
        setting keeps its default. ``ConfigError`` names the first wrong setting and what it
        may be (or, for a custom layout whose key does not fill its grid, how to fix it)."""
        if not isinstance(mapping, Mapping):
            raise ConfigError("the game settings must be a table of names (a JSON object)")
        _refuse_unknown(mapping, SETTING_FIELDS, "")
        values: dict[str, Any] = {}
        for name, value in mapping.items():
            if value is None:
                continue
            if name in _NAMED:
                values[name] = _member(_NAMED[name], name, value)
            elif name == "layout":
                values[name] = LayoutOverrides.from_mapping(value)
            elif name == "clue_rules":
                values[name] = _text(name, value)
            else:  # the seconds, checked by __post_init__
                values[name] = value
        return cls(**values)

    @classmethod
    def from_string(cls, text: str) -> GameSettings:
        """Settings from their text form, ``name=value`` separated by commas: the names of
        ``to_dict`` with the layout's counts on their own (``edition=custom,rows=4``)."""
        mapping: dict[str, Any] = {}
        layout: dict[str, Any] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            name, equals, value = (s.strip() for s in part.partition("="))
            if not equals or not name:
                raise ConfigError(f"setting {quoted(part)} must be written name=value")
            target = layout if name in LAYOUT_FIELDS else mapping
            if name in target:
                raise ConfigError(f"setting {quoted(name)} is given twice")
            target[name] = parse_setting(name, value)
        if layout:
            mapping["layout"] = layout
        return cls.from_mapping(mapping)

    # --- writing ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready table (enums as their values); ``from_mapping`` reads it back."""
        return {"edition": self.edition.value, "variant": self.variant.value,
                "layout": self.layout.given(), "clue_rules": self.clue_rules,
                "guess_limit": self.guess_limit.value, "clue_seconds": self.clue_seconds,
                "guess_seconds": self.guess_seconds, "level": self.level.value}

    def to_string(self) -> str:
        """The text form of the settings that differ from the defaults (``from_string``)."""
        default = GameSettings().to_dict()
        parts = [f"{name}={_written(value)}" for name, value in self.to_dict().items()
                 if name != "layout" and value != default[name]]
        parts += [f"{name}={_written(value)}" for name, value in self.layout.given().items()]
        return ",".join(parts)

    def to_rules(self) -> RuleSet:
        """The core's rule set for these settings (the level is not a rule: it chooses the
        other team's AIs)."""
        if self.edition is EditionName.CUSTOM:
            rules = custom(self.layout.applied_to(WORDS_LAYOUT))
        else:
            rules = edition(self.edition.value)
        rules = rules.with_options(variant=self.variant, guess_limit=self.guess_limit,
                                   clue_time_limit=self.clue_seconds,
                                   guess_time_limit=self.guess_seconds)
        if self.clue_rules is not None:
            rules = rules.with_options(clue_rules=self.clue_rules)
        return rules


SETTING_FIELDS = tuple(f.name for f in fields(GameSettings))
_NAMED: dict[str, type[Enum]] = {"edition": EditionName, "variant": Variant,
                                 "guess_limit": GuessLimit, "level": Level}


def parse_setting(name: str, text: str) -> object:
    """One setting's value as a command line or the text form gives it (``"4"`` for a
    count, ``"yes"`` for the double agent, ``"30"`` for seconds): the type ``from_mapping``
    reads, checked there."""
    if name == "double_agent":
        answers = {"true": True, "yes": True, "false": False, "no": False}
        if text.lower() not in answers:
            raise ConfigError(f"layout.double_agent {quoted(text)} is not one of true, false")
        return answers[text.lower()]
    if name in LAYOUT_FIELDS:
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"layout.{name} must be a whole number, got "
                              f"{quoted(text)}") from None
    if name in ("clue_seconds", "guess_seconds"):
        try:
            return float(text)
        except ValueError:
            raise ConfigError(f"{name} must be a number of seconds, got {quoted(text)}") from None
    return text


def _member(kind: type[Named], name: str, value: object) -> Named:
    """The member of ``kind`` whose value is ``value`` (any case, spaces around ignored, as
    ``choose`` reads a name), or the message naming them all."""
    text = _text(name, value)
    for member in kind:
        if member.value == text.strip().lower():
            return member
    raise ConfigError(f"{name} {quoted(text)} is not one of "
                      f"{', '.join(str(m.value) for m in kind)}")


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"setting {name!r} must be a string")
    return value


def _check_clue_rules(name: object) -> None:
    """A preset, ``basic`` or house rules by name (their checks are the legality layer's)."""
    if not isinstance(name, str):
        raise ConfigError("setting 'clue_rules' must be a string")
    presets = {c.value for c in ClueRulesName} | {BASIC_CLUE_RULES}
    house = name.startswith(HOUSE_PREFIX) and len(name) > len(HOUSE_PREFIX)
    if name not in presets and not house:
        raise ConfigError(f"clue_rules {quoted(name)} is not one of "
                          f"{', '.join(CLUE_RULES_CHOICES)}")


def _check_seconds(name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not (value > 0 and math.isfinite(value)):
        raise ConfigError(f"{name} must be a positive, finite number of seconds, got "
                          f"{value!r}")


def _check_layout_value(where: str, name: str, value: object) -> None:
    if value is None:
        return
    if name == "double_agent":
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, got {value!r}")
    elif isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where} must be a whole number, got {value!r}")


def _refuse_unknown(mapping: Mapping[Any, Any], known: tuple[str, ...], prefix: str) -> None:
    unknown = sorted(str(key) for key in mapping if key not in known)
    if unknown:
        raise ConfigError(f"unknown setting(s) {quoted_some(prefix + u for u in unknown)}; "
                          f"known: {', '.join(prefix + k for k in known)}")


def _written(value: object) -> str:
    """A value in the text form."""
    return str(value).lower() if isinstance(value, bool) else str(value)
