"""The layers and what each may import. The rules core imports the standard library only
(the README's "What is here" map); every other package imports only the layers below it, so that
(for example) the word vectors know nothing of clue strategy, and the web app and the
learning environment do not depend on the terminal game."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import codenames_ai
import codenames_ai.core

PACKAGE = Path(codenames_ai.__file__).parent
CORE = Path(codenames_ai.core.__file__).parent

# Modules at the top of the package that serve every layer.
SHARED = {"__init__", "files", "output", "environment", "extras", "deckfiles", "decks",
          "pictures", "render", "lazy", "once"}
# What each part may import from codenames_ai (besides itself).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "__init__": set(),
    "files": set(),
    "output": {"core", "files"},
    "environment": set(),
    "lazy": set(),
    "once": set(),
    "extras": {"core"},
    "deckfiles": {"core", "files"},
    "decks": {"core", "deckfiles", "files", "pictures"},
    "pictures": {"core", "deckfiles", "files"},
    "render": {"core", "pictures"},
    "legality": {"core", "__init__", "files", "deckfiles", "decks", "pictures", "once"},
    "vectors": {"core", "__init__", "files", "environment", "deckfiles", "decks", "pictures",
                "once"},
    "agents": {"core", "legality", "vectors"} | SHARED - {"render"},
    "harness": {"core", "legality", "vectors", "agents"} | SHARED,
    "play": {"core", "legality", "vectors", "agents"} | SHARED,
    "web": {"core", "legality", "vectors", "agents"} | SHARED,
    "env": {"core", "legality", "vectors", "agents"} | SHARED,
    "cli": {"core", "legality", "vectors", "agents", "harness", "play", "web", "env"} | SHARED,
    "__main__": {"cli"},
}


def part_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def imported_parts(path: Path) -> set[str]:
    """The parts of codenames_ai that a module imports (absolute or relative)."""
    found = set()
    package = list(path.relative_to(PACKAGE).parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names = [(node.module or "").split(".")]
            else:
                base = package[:len(package) - (node.level - 1)]
                module = base + (node.module.split(".") if node.module else [])
                if module:
                    names = [["codenames_ai", *module]]
                else:  # from .. import name: each name is a part
                    names = [["codenames_ai", alias.name] for alias in node.names]
        else:
            continue
        for name in names:
            if name[0] == "codenames_ai":
                target = name[1] if len(name) > 1 else "__init__"
                found.add(target if (PACKAGE / target).is_dir()
                          or (PACKAGE / f"{target}.py").exists() else "__init__")
    return found


def test_every_part_has_a_place_in_the_layers() -> None:
    parts = {part_of(path) for path in PACKAGE.rglob("*.py")}
    assert parts <= set(ALLOWED), f"give these a layer: {sorted(parts - set(ALLOWED))}"


def test_each_part_imports_only_the_layers_below_it() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        part = part_of(path)
        for target in imported_parts(path) - {part} - ALLOWED[part]:
            wrong.append(f"{path.relative_to(PACKAGE)} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_core_imports_only_the_standard_library_and_itself() -> None:
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level > 0:
                    assert node.level == 1, f"{path.name} reaches outside the core"
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in {"io", "os", "pathlib", "socket", "subprocess", "shutil"}, (
                    f"{path.name} imports {name}: the core does no I/O")


def module_of(path: Path) -> str:
    """``codenames_ai.core.state`` for ``core/state.py``; a package's ``__init__`` is the
    package itself."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(path): path for path in PACKAGE.rglob("*.py")}


def imported_modules(path: Path) -> set[str]:
    """The modules of codenames_ai that a module imports, anywhere in it (inside functions
    and ``TYPE_CHECKING`` blocks too): ``from .x import name`` is module ``x``, or ``x.name``
    when that is a module of its own."""
    module = module_of(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            relative = package[:len(package) - node.level + 1] + (
                [node.module] if node.module else [])
            base = (node.module or "") if node.level == 0 else ".".join(relative)
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:  # codenames_ai.core.state.GameState
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


KNOWN_CIRCLES: set[tuple[str, str]] = set()  # none: keep it so


def test_no_two_modules_import_each_other() -> None:
    imports = {module: imported_modules(path) for module, path in MODULES.items()}
    circles = {(a, b) for a, targets in imports.items() for b in targets
               if a < b and a in imports.get(b, set())}
    assert circles <= KNOWN_CIRCLES, "import circles: " + ", ".join(
        f"{a} <-> {b}" for a, b in sorted(circles - KNOWN_CIRCLES))
