"""Views everywhere: what a seat sees is decided by the core alone. Every front end (the
learning environment, the terminal, the web, ``codenames clue`` / ``guess``, the renderer)
shows a table from a view the core built, and reads the key only out of a spymaster's view.
Before, the env read ``state.board.key`` behind a ``sees_key`` flag, ``render`` took a
``show_key`` flag, and ``clue`` / ``guess`` built their views by hand; a seat could be shown
the key by a mistake in one front end."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import codenames_ai
from codenames_ai.core import (
    WORDS,
    Board,
    Clue,
    GuesserView,
    Identity,
    Phase,
    PublicView,
    SpymasterView,
    Team,
    deal,
    held_key,
)
from codenames_ai.render import render_board, render_view
from tests.conftest import make_board, small_game, small_rules

PACKAGE = Path(codenames_ai.__file__).parent
CORE = PACKAGE / "core"
# The one type a key may be read from outside the core: the view the core built for a
# spymaster (an AI's ``give_clue(view)``, a person's prompt, the web's ``_key``); anything
# else goes through ``held_key`` or ``render_view``.
KEY_HOLDER = "SpymasterView"
# Reads of ``.key`` outside the core that are not a spymaster's view, each with why: none.
EXCEPTIONS: dict[str, str] = {}


def _spymaster_views(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters ``function`` declares as a spymaster's view."""
    arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
    return {a.arg for a in arguments
            if a.annotation is not None and ast.unparse(a.annotation) == KEY_HOLDER}


def unheld_key_reads(source: str, name: str) -> list[str]:
    """The ``.key`` reads in ``source`` whose receiver is not a parameter its function (or
    one around it: a lambda, a comprehension) declares a ``SpymasterView``, as
    "name:line: source"."""
    tree = ast.parse(source)
    holders: dict[ast.AST, set[str]] = {}
    found = []
    for node in ast.walk(tree):  # breadth first: a node's parent came before it
        held = holders.get(node, set())
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            held = held | _spymaster_views(node)
        for child in ast.iter_child_nodes(node):
            holders[child] = held
        if isinstance(node, ast.Attribute) and node.attr == "key":
            receiver = node.value
            if not (isinstance(receiver, ast.Name) and receiver.id in held):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def key_reads() -> list[str]:
    """``unheld_key_reads`` in every module outside the core, but the explained exceptions."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if CORE not in path.parents:
            name = str(path.relative_to(PACKAGE))
            found += [read for read in unheld_key_reads(path.read_text(encoding="utf-8"), name)
                      if f"{name}: {read.split(': ', 1)[1]}" not in EXCEPTIONS]
    return found


def test_outside_the_core_the_key_is_read_only_from_a_spymasters_view() -> None:
    assert key_reads() == []


def test_the_check_sees_a_key_read_behind_the_views() -> None:
    """The check itself: a front end reading the board's key, or a guesser's view's, is
    caught; a spymaster's view read in a lambda of its function is not."""
    source = (
        "def table(state, view: GuesserView):\n"
        "    return state.board.key, view.key\n"
        "def clue(view: SpymasterView):\n"
        "    return sorted(view.unrevealed, key=lambda i: view.key[i])\n")
    assert unheld_key_reads(source, "front.py") == ["front.py:2: state.board.key",
                                                    "front.py:2: view.key"]


# --- the core's constructors ------------------------------------------------------------------


def test_the_states_views_are_the_constructors_views() -> None:
    state = small_game()
    state.apply(Clue("fruit", 1))
    covered = [state.is_revealed(i) for i in range(9)]
    spymaster = SpymasterView.from_board(state.board, covered, state.rules, Team.RED,
                                         phase=Phase.GUESS, history=state.events)
    assert state.spymaster_view(Team.RED) == spymaster
    table = PublicView.from_board(state.board, covered, state.rules, Team.RED,
                                  phase=Phase.GUESS, history=state.events)
    assert state.public_view(Team.RED) == table
    assert state.guesser_view(Team.RED) == GuesserView.of_table(table, Clue("fruit", 1),
                                                               guesses_left=2)


def test_a_table_from_a_board_shows_the_covered_cards_and_counts_the_rest() -> None:
    board = make_board("R R R B B N N N A")
    covered = [True, False, False, True, False, False, False, False, False]
    table = PublicView.from_board(board, covered, small_rules(), Team.BLUE)
    assert table.revealed[:4] == (Identity.RED, None, None, Identity.BLUE)
    assert (table.red_left, table.blue_left) == (2, 1)
    assert table.starting_team is Team.RED and table.current_team is Team.BLUE
    assert held_key(table) is None
    assert not hasattr(table, "key")
    with pytest.raises(ValueError, match="3 covered flags for 9 cards"):
        PublicView.from_board(board, covered[:3], small_rules(), Team.RED)


def test_held_key_is_the_key_of_a_spymasters_view_and_nobody_elses() -> None:
    state = small_game()
    assert held_key(state.spymaster_view(Team.BLUE)) == state.board.key
    assert held_key(state.public_view(Team.BLUE)) is None
    state.apply(Clue("fruit", 1))
    assert held_key(state.guesser_view(Team.RED)) is None


def test_render_view_shows_the_key_exactly_when_the_view_holds_it() -> None:
    state = small_game()
    state.apply(Clue("fruit", 1))
    state.apply(next(iter(state.legal_actions())))
    with_key = render_view(state.spymaster_view(Team.RED))
    without = render_view(state.guesser_view(Team.RED))
    revealed = state.public_view(Team.RED).revealed
    assert with_key == render_board(state.board.words, revealed, 3, key=state.board.key)
    assert without == render_board(state.board.words, revealed, 3)
    assert " x  ink" in with_key and " x  " not in without


def test_the_env_observes_through_the_views() -> None:
    """The observation's key column is the spymaster's view's key, and zeros for a guesser."""
    pytest.importorskip("pettingzoo")
    from codenames_ai.env import CodenamesEnv

    env = CodenamesEnv(WORDS, clue_vocabulary=("alpha", "beta"))
    env.reset(seed=4)
    board = deal(WORDS, env.deck, 4)
    numbers = [identity.number for identity in board.key]
    for agent in env.possible_agents:
        cards = env.observe(agent)["observation"][: 3 * 25].reshape(25, 3)
        expected = numbers if agent.endswith("spymaster") else [0] * 25
        assert cards[:, 2].tolist() == expected, agent
        assert not cards[:, 1].any()  # nothing is covered yet
    assert isinstance(board, Board) and np.unique(numbers).tolist() == [1, 2, 3, 4]
