"""An agent's options, read from its constructor: each keyword parameter's name, type and
default, and its help from ``Annotated[int, Help("...")]``, so that the options the registry
offers are exactly what the constructor takes (never a second list beside it that drifts).

A class whose ``__init__`` passes ``**options`` on to its base takes the base's options too
(its own parameters replace the base's of the same name); a dataclass's are its fields."""

from __future__ import annotations

import dataclasses
import inspect
import os
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from ..core.errors import ConfigError
from ..pictures import Captions
from ..vectors.model import PICTURE_MEANINGS

NO_DEFAULT: Any = inspect.Parameter.empty


@dataclass(frozen=True)
class Help:
    """What a constructor parameter is for, as its users read it in ``codenames agents``:
    ``max_number: Annotated[int, Help("the largest number it gives")] = 4``. ``choices``:
    the only values it takes; ``identity=False``: it does not change how the agent plays (a
    cache folder), so the id an agent records leaves it out."""

    text: str
    choices: tuple[str, ...] = ()
    identity: bool = True


@dataclass(frozen=True)
class Option:
    """A constructor option an agent's users may set.

    ``kind`` is what a value may be: ``str``, ``int``, ``float``, ``bool``, ``words`` (a word
    or a list of words), ``path`` or ``object`` (a Python value, from Python only).
    ``identity`` options change how the agent plays and are recorded in its id; the others
    (a cache folder) do not. ``default``: the constructor's (``NO_DEFAULT`` when it has
    none, or for an option declared by hand)."""

    name: str
    kind: str
    help: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False  # None is a valid value
    identity: bool = True
    default: Any = field(default=NO_DEFAULT)

    KINDS = ("str", "int", "float", "bool", "words", "path", "object")

    def check(self, value: Any, agent: str) -> Any:
        """``value`` as the constructor takes it (lists of words become tuples); a
        ``ConfigError`` naming the agent, the option and what it takes otherwise."""
        if value is None and self.optional:
            return None
        wanted = {"str": "a string", "int": "a whole number", "float": "a number",
                  "bool": "true or false", "words": "a word or a list of words",
                  "path": "a folder path", "object": "a value"}[self.kind]
        if not _is_kind(value, self.kind):
            raise ConfigError(f"agent {agent!r}: option {self.name!r} takes {wanted}, not "
                              f"{short_repr(value)}")
        if self.choices and value not in self.choices:
            raise ConfigError(f"agent {agent!r}: option {self.name!r} is one of "
                              f"{', '.join(self.choices)}, not {short_repr(value)}")
        if self.kind == "words" and isinstance(value, list):
            return tuple(value)
        if self.kind == "float":
            return float(value)
        return value

    def describe(self) -> str:
        kind = "|".join(self.choices) if self.choices else self.kind
        return f"{self.name}: {kind}" + (" (or none)" if self.optional else "")


# The parameters many agents share, typed and explained once.
CacheDir = Annotated[Path | str | None, Help("model cache folder (default: the user cache)",
                                             identity=False)]
VocabularySize = Annotated[int, Help("clue words considered, most frequent first")]
PictureMeaning = Annotated[str, Help("how a picture's tags make its meaning",
                                     choices=PICTURE_MEANINGS)]
# The deck in play, not a choice of play: a game on a user's picture deck passes its captions.
DeckCaptions = Annotated[Captions | None, Help(
    "the picture deck's captions: card -> tags (Python only; default: the shipped deck)",
    identity=False)]


def options_of(factory: Callable[..., Any], *, withheld: Iterable[str] = ()
               ) -> tuple[Option, ...]:
    """The options ``factory`` (a class or function) takes: its keyword parameters with
    their kinds (from the types), defaults and help, base classes' first; less the
    ``withheld`` ones (each must be one of them). Raises ``TypeError`` or ``NameError`` when
    its signature cannot be read."""
    found: dict[str, Option] = {}
    for owner, parameters in reversed(_constructors(factory)):
        hints = _hints(owner)
        for parameter in parameters:
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                found[parameter.name] = _option(parameter.name, hints.get(parameter.name, Any),
                                                parameter.default)
    unknown = set(withheld) - set(found)
    if unknown:
        raise TypeError(f"withheld options {sorted(unknown)} are not parameters of "
                        f"{getattr(factory, '__qualname__', factory)}")
    return tuple(option for name, option in found.items() if name not in set(withheld))


def _constructors(factory: Callable[..., Any]
                  ) -> list[tuple[Any, list[inspect.Parameter]]]:
    """The functions that take ``factory``'s options, each with its parameters: a class's
    own ``__init__`` and, while it passes ``**options`` on, its bases' (nearest first)."""
    if not isinstance(factory, type):
        return [(factory, list(inspect.signature(factory).parameters.values()))]
    chain = []
    for cls in factory.__mro__:
        if cls is object or "__init__" not in vars(cls):
            continue
        parameters = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]
        chain.append((cls, parameters))
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return chain


def _hints(owner: Any) -> dict[str, Any]:
    """The resolved types of ``owner``'s parameters: a dataclass's fields, each resolved in
    its own class's module; a class's ``__init__``'s; a function's."""
    if isinstance(owner, type) and dataclasses.is_dataclass(owner):
        return typing.get_type_hints(owner, include_extras=True)
    function = vars(owner)["__init__"] if isinstance(owner, type) else owner
    return typing.get_type_hints(function, include_extras=True)


def _option(name: str, hint: Any, default: Any) -> Option:
    extras: tuple[Any, ...] = ()
    if typing.get_origin(hint) is Annotated:
        hint, *rest = typing.get_args(hint)
        extras = tuple(rest)
    about = next((e for e in extras if isinstance(e, Help)), Help(""))
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union,
                                                                   types.UnionType) else (hint,)
    kinds = tuple(m for m in members if m is not type(None))
    optional = len(kinds) < len(members) or default is None
    return Option(name, _kind(kinds), about.text, about.choices, optional, about.identity,
                  default)


def _kind(members: tuple[Any, ...]) -> str:
    """The option kind of a parameter typed as the union of ``members`` (None left out)."""
    simple = {(bool,): "bool", (int,): "int", (float,): "float", (str,): "str"}
    if members in simple:
        return simple[members]
    if Path in members and set(members) <= {Path, str}:
        return "path"
    if members and all(m is str or _words(m) for m in members):
        return "words"
    return "object"


def _words(hint: Any) -> bool:
    """Whether ``hint`` is a sequence of strings (``tuple[str, ...]``, ``Sequence[str]``)."""
    origin = typing.get_origin(hint)
    return (isinstance(origin, type) and issubclass(origin, Iterable)
            and not issubclass(origin, str)
            and typing.get_args(hint) in ((str,), (str, Ellipsis)))


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "object":
        return True
    if isinstance(value, bool):
        return kind == "bool"
    if kind == "words":
        return isinstance(value, str) or (
            isinstance(value, list | tuple) and all(isinstance(w, str) for w in value))
    wanted: dict[str, type | tuple[type, ...]] = {
        "str": str, "int": int, "float": (int, float), "bool": bool,
        "path": (str, os.PathLike)}
    return isinstance(value, wanted[kind])


def short_repr(value: Any) -> str:
    """``repr(value)``, cut to 60 characters for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

