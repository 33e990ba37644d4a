"""The command line's shape: each command in a module of its own, none longer than a screen."""

from __future__ import annotations

import inspect

from codenames_ai.cli.app import app

MOST_LINES = 60  # issue 28: no command function over 60 lines


def _commands() -> dict[str, object]:
    return {info.name or "": info.callback for info in app.registered_commands}


def test_every_command_has_a_module_of_its_own_named_after_it() -> None:
    commands = _commands()
    assert set(commands) == {"clue", "guess", "agents", "tournament", "report", "serve",
                             "watch", "play", "replay", "check"}
    for name, callback in commands.items():
        assert inspect.getmodule(callback).__name__ == f"codenames_ai.cli.{name}", name


def test_no_command_function_is_over_60_lines() -> None:
    for name, callback in _commands().items():
        lines, _ = inspect.getsourcelines(callback)
        assert len(lines) <= MOST_LINES, f"{name}: {len(lines)} lines"
