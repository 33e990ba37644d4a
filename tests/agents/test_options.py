"""An agent's options are read from its constructor (``agents/options.py``): every registered
id offers exactly the keyword parameters its factory takes, with their defaults and types, so
the registry cannot drift from the agents."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import pytest

from codenames_ai.agents.options import NO_DEFAULT, Help, Option, options_of
from codenames_ai.agents.registry import (
    REGISTRY,
    AgentSpec,
    load_entry_point,
    make_agent,
    register,
    registered,
)
from codenames_ai.core import ConfigError, Guess, Role


def _parameters(factory: Any) -> dict[str, inspect.Parameter]:
    """The keyword parameters ``factory`` takes, read another way than ``options_of``: a
    dataclass's init fields; else each class's signature, following ``**options`` to its
    base (a subclass's parameter of the same name is the one that counts)."""
    if isinstance(factory, type) and dataclasses.is_dataclass(factory):
        init = {f.name for f in dataclasses.fields(factory) if f.init}
        return {name: p for name, p in inspect.signature(factory).parameters.items()
                if name in init}
    found: dict[str, inspect.Parameter] = {}
    for cls in factory.__mro__:
        if cls is object or "__init__" not in vars(cls):
            continue
        signature = inspect.signature(cls)  # without self
        for name, parameter in signature.parameters.items():
            if parameter.kind is not parameter.VAR_KEYWORD:
                found.setdefault(name, parameter)
        if not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            break
    return found


@pytest.mark.parametrize("spec", registered(), ids=lambda spec: spec.agent_id)
def test_a_registered_ids_options_are_its_constructors_parameters(spec: AgentSpec) -> None:
    factory = load_entry_point(str(spec.factory))
    parameters = _parameters(factory)
    options = {option.name: option for option in spec.options}
    assert spec.declared is None  # none declared by hand beside the constructor
    assert set(spec.withheld) <= set(parameters)
    assert set(options) == set(parameters) - set(spec.withheld)
    for name, option in options.items():
        assert option.default == parameters[name].default, name
        assert option.help, f"{spec.agent_id}: option {name} has no help"
        # The type and the default agree: the default is a value of the option's kind.
        if option.default is not NO_DEFAULT:
            option.check(option.default, spec.agent_id)
    for name, value in spec.defaults:  # the registry's own defaults are options it takes
        assert name in options, name
        options[name].check(value, spec.agent_id)


def test_the_kinds_follow_the_types_and_the_help_its_annotation() -> None:
    class Base:
        def __init__(self, *, size: Annotated[int, Help("how many")] = 2,
                     rate: float = 0.5, loud: bool = False, name: str | None = None,
                     folder: Annotated[Path | str | None, Help("where", identity=False)] = None,
                     words: Sequence[str] = ("a",), model: str | tuple[str, ...] = "m",
                     mode: Annotated[str, Help("how", choices=("x", "y"))] = "x",
                     anything: dict[str, int] | None = None) -> None:
            pass

    class Child(Base):
        # Its own default for ``size``; the rest passes on to Base.
        def __init__(self, *, extra: int = 1, size: int = 3, **options: Any) -> None:
            super().__init__(size=size, **options)

    assert options_of(Child) == (
        Option("size", "int", "", default=3), Option("rate", "float", default=0.5),
        Option("loud", "bool", default=False),
        Option("name", "str", optional=True, default=None),
        Option("folder", "path", "where", optional=True, identity=False, default=None),
        Option("words", "words", default=("a",)), Option("model", "words", default="m"),
        Option("mode", "str", "how", choices=("x", "y"), default="x"),
        Option("anything", "object", optional=True, default=None),
        Option("extra", "int", default=1))
    assert [o.name for o in options_of(Child, withheld=("loud", "mode"))] == [
        "size", "rate", "name", "folder", "words", "model", "anything", "extra"]
    with pytest.raises(TypeError, match=r"withheld options \['colour'\] are not parameters"):
        options_of(Child, withheld=("colour",))


@dataclass
class _Planner:
    depth: Annotated[int, Help("moves looked ahead")] = 2
    agent_id: str = field(default="planner-v1", init=False)  # not an option

    def guess(self, view: object) -> Guess:
        return Guess(0)


def test_a_dataclass_agents_options_are_its_init_fields() -> None:
    assert options_of(_Planner) == (Option("depth", "int", "moves looked ahead", default=2),)


def test_a_plugin_may_read_its_options_from_its_signature(scratch_ids: list[str]) -> None:
    register("planner-v1", _Planner, role=Role.GUESSER, options="signature")
    scratch_ids.append("planner-v1")
    planner = make_agent("planner-v1", depth=4)
    assert isinstance(planner, _Planner) and planner.depth == 4
    assert planner.agent_id == "planner-v1(depth=4)"
    with pytest.raises(ConfigError, match="option 'depth' takes a whole number, not 'deep'"):
        make_agent("planner-v1", depth="deep")
    register("planner-v2", _Planner, role=Role.GUESSER, options="signature",
             withheld=("width",))
    scratch_ids.append("planner-v2")
    with pytest.raises(ConfigError, match=r"agent 'planner-v2': cannot read its options from "
                                          r"the signature of .*_Planner: withheld options "
                                          r"\['width'\] are not parameters"):
        make_agent("planner-v2")
    with pytest.raises(ConfigError, match="withheld options are left out of those read from "
                                          "the signature"):
        register("planner-v3", _Planner, role=Role.GUESSER, withheld=("depth",))


def test_a_default_once_hidden_in_the_constructor_is_its_option() -> None:
    # The threshold baseline gives at most 3, its base 4: the option says so.
    threshold = REGISTRY["glove-threshold-spymaster-v1"].option("max_number")
    assert threshold is not None and threshold.default == 3
    ev = REGISTRY["glove-ev-spymaster-v1"].option("max_number")
    assert ev is not None and ev.default == 4
    # The ensemble's config sets its risk: it takes none, as before.
    assert REGISTRY["ensemble-ev-spymaster-v1"].option("risk") is None
    # The people guesser reads with its own minds: no --model for it.
    assert REGISTRY["people-guesser-v2"].option("model") is None
    assert REGISTRY["panel-guesser-v2"].option("model") is not None
