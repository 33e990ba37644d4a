"""The command line starts without importing what only some commands use: the web server,
plots, tournaments, the terminal renderer, the agents' word-vector strategies. Each command
imports what it needs when it runs, and the packages' re-exports are imported on first use
(so ``from codenames_ai.agents import make_agent`` still works). Speed is measured
(``python -X importtime -c "import codenames_ai.cli.app"``), not asserted here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

# Modules the command line must not import before a command asks for them.
LAZY = (
    # third-party: the web app, plots, tables, ratings, word-vector toolkits, clusters
    "fastapi", "uvicorn", "starlette", "matplotlib", "gensim", "nltk", "scipy", "ray",
    "pyarrow", "rich", "openskill", "threadpoolctl", "wcwidth", "multiprocessing",
    # our own: the agents' strategies, tournaments, the renderer, the games' front ends
    "codenames_ai.agents.panel", "codenames_ai.agents.guessers",
    "codenames_ai.agents.baselines", "codenames_ai.harness.run",
    "codenames_ai.harness.backends", "codenames_ai.harness.report",
    "codenames_ai.harness.summary", "codenames_ai.render", "codenames_ai.play",
    "codenames_ai.web", "codenames_ai.env",
)


def imported_by(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``statement``."""
    result = subprocess.run(
        [sys.executable, "-c", f"{statement}; import json, sys; "
                               "print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_the_command_line_imports_no_module_only_some_commands_use() -> None:
    modules = imported_by("import codenames_ai.cli.app")
    assert not modules & set(LAZY), f"imported at start: {sorted(modules & set(LAZY))}"


def test_the_package_imports_no_version_lookup_and_no_agents() -> None:
    modules = imported_by("import codenames_ai, codenames_ai.agents, codenames_ai.harness")
    assert "importlib.metadata" not in modules
    assert not {m for m in modules if m.startswith(("codenames_ai.agents.",
                                                     "codenames_ai.harness."))}


@pytest.mark.parametrize("package", ["codenames_ai.agents", "codenames_ai.harness"])
def test_every_re_exported_name_is_there_on_first_use(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
        assert name in dir(module)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_the_version_is_looked_up_on_first_use() -> None:
    import codenames_ai
    from codenames_ai import __version__

    assert __version__ == codenames_ai.__version__ and __version__[0].isdigit()
    with pytest.raises(AttributeError):
        codenames_ai.no_such_name  # noqa: B018
