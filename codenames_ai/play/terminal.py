"""A person at the terminal as an agent: the guesser and the spymaster seats.

They read lines from a ``Console`` (standard input, a pipe or a test's list of lines), show the
table as it changed since their last move, and never let a bad line change the game: an unknown
card, a revealed card, an illegal clue or an empty line gets one message and a new prompt.
"""

from __future__ import annotations

import difflib
import re
import select
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn, TextIO, TypeVar

from ..core.actions import Clue, Cover, Guess, GuesserAction, Pass, parse_clue_number
from ..core.clues import ClueValidator, check_clue, normalize_word, resolve_validator
from ..core.errors import GameInterrupted, MoveTimedOut
from ..core.views import GuesserView, PublicView, SpymasterView, held_key
from ..pictures import PictureDeck
from ..render import board_legend, column_label, describe_event, fit, render_view, shown

HELP = """commands:
  WORD or a prefix (any case), or a coordinate like B3   touch that card
  pass                                                   stop guessing (after one guess)
  board                                                  show the board again
  help                                                   this text
  quit                                                   stop the game; you are asked
                                                         whether to save it
  Ctrl-C                                                 leave at once (the game is saved
                                                         if you made a move in it)"""
SPY_HELP = """commands:
  WORD NUMBER        give a clue (NUMBER: 0, 1, 2, ... or unlimited)
  board / help
  quit               stop the game; you are asked whether to save it
  Ctrl-C             leave at once (the game is saved if you made a move in it)"""

# The longest line read as one answer: a clue, a card or a command is a few dozen characters,
# and a bound keeps `codenames play < /dev/zero` from reading one endless line into memory.
MAX_LINE = 1000


class OutputLost(GameInterrupted):
    """Standard output cannot be written (a closed pipe, a full disk): the game stops, and
    the command ends with the ``OSError`` (``Console.lost``) as any command whose output
    fails does. A ``GameInterrupted``, so the runner does not blame the person's seat."""


class UnreadableInput(GameInterrupted):
    """A line of input that is not an answer (too long, a NUL byte, not text): the game
    stops as at the end of input, and the command then fails with ``str(self)``. A
    ``GameInterrupted`` so that the runner stops the game instead of blaming the seat."""


def read_line(prompt: str) -> str:
    """One line from standard input without its newline, at most ``MAX_LINE + 1``
    characters read (``EOFError`` at the end). On a terminal, ``input`` with its line
    editing (the terminal bounds a line)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline(MAX_LINE + 1)
    if not line:
        raise EOFError
    return line.removesuffix("\n")


@dataclass
class Console:
    """Lines in, text out. ``color`` only on a real terminal; ``width`` decides grid or list.

    How the person left a game is kept for its ending: ``keep`` is their answer to "Save
    it?" after ``quit`` (``None``: not asked), ``interrupted`` says Ctrl-C was pressed at a
    prompt (the command leaves after the game's ending, without "Play again?")."""

    read: Callable[[str], str] = read_line
    write: Callable[[str], None] = print
    color: bool = False
    width: int = 100
    # Lines wrapped at ``width`` between words (on a terminal; a pipe's reader has no screen).
    wrap: bool = False
    tags: bool = False  # Pictures: list the caption tags under the board
    deck: PictureDeck | None = None  # the picture deck in play (None: the shipped one)
    clock: Callable[[], float] = time.monotonic
    keep: bool | None = field(default=None, init=False)
    interrupted: bool = field(default=False, init=False)
    # Why the input cannot be read on (an over-long line, a NUL byte, not text): no
    # later prompt reads, and the command fails with this.
    refused: str | None = field(default=None, init=False)
    lost: OSError | None = field(default=None, init=False)  # why the output failed
    # The input ended (Ctrl-D): no later prompt reads, since a terminal would read on and
    # ask "Play again?" of a person who has left.
    ended: bool = field(default=False, init=False)
    lines: int = field(default=0, init=False)  # lines read, to name a refused one

    stream: TextIO | None = None  # a terminal to count down on (``None``: plain reads)

    def ask(self, prompt: str, *, seconds: float | None = None) -> str:
        """One line from the person. With ``seconds`` and a terminal, the time left is shown as
        it runs out and the move is forfeited the moment it does (``MoveTimedOut``). A line
        that is no answer (``UnreadableInput``) stops the game, and every later prompt."""
        if self.refused is not None:
            raise UnreadableInput(self.refused)
        if self.lost is not None:
            raise OutputLost(str(self.lost))
        if self.ended:
            raise GameInterrupted("you left the game")
        try:
            if seconds is not None and self.stream is not None:
                line = self._ask_with_countdown(prompt, seconds)
            else:
                line = self.read(prompt)
            self.lines += 1
            return self._checked(line).strip()
        except UnicodeDecodeError as exc:
            self._refuse(f"line {self.lines + 1} is not {exc.encoding} text")
        except OSError as exc:  # the prompt could not be written (or a terminal hung up)
            self.lost = exc
            raise OutputLost(str(exc)) from None
        except KeyboardInterrupt:
            self.write("")
            self.interrupted = True
            raise GameInterrupted("you left the game (Ctrl-C)") from None
        except EOFError:
            self.ended = True
            self.write("")
            raise GameInterrupted("you left the game") from None

    def __post_init__(self) -> None:
        write = self.write

        def guarded(text: str) -> None:
            try:
                write(fit(text, self.line_width))
            except OSError as exc:
                self.lost = exc
                raise OutputLost(str(exc)) from None

        self.write = guarded

    @property
    def line_width(self) -> int | None:
        """The columns a line may take (``None``: any, through a pipe)."""
        return self.width if self.wrap else None

    def _checked(self, line: str) -> str:
        if "\0" in line:
            self._refuse(f"line {self.lines} holds a NUL byte, which is not text (a binary "
                         "file or a device like /dev/zero?)")
        if len(line.removesuffix("\n")) > MAX_LINE:
            self._refuse(f"line {self.lines} is longer than {MAX_LINE:,} characters, the most "
                         "an answer takes")
        return line

    def _refuse(self, reason: str) -> NoReturn:
        self.write("")
        self.refused = (f"standard input: {reason}; give one answer per line (a card, a clue "
                        "or a command)")
        raise UnreadableInput(self.refused) from None

    def _ask_with_countdown(self, prompt: str, seconds: float) -> str:
        assert self.stream is not None
        sys.stdout.write(prompt)
        sys.stdout.flush()
        deadline = self.clock() + seconds
        warned: set[int] = set()
        while True:
            left = deadline - self.clock()
            if left <= 0:
                self.write("")
                raise MoveTimedOut("out of time")
            ready, _, _ = select.select([self.stream], [], [], min(1.0, left))
            if ready:
                line = self.stream.readline(MAX_LINE + 1)
                if not line:
                    raise EOFError
                return line.strip()
            mark = next((m for m in (30, 10, 5) if left <= m and m not in warned), None)
            if mark is not None:
                warned.add(mark)
                sys.stdout.write(f"\n({mark} s left) {prompt}")
                sys.stdout.flush()

    def confirm_quit(self) -> None:
        answer = self.ask("Quit this game? [y/N] ").lower()
        if answer in {"y", "yes"}:
            save = self.ask("Save it to replay later? [Y/n] ").lower()
            self.keep = save not in {"n", "no"}
            raise GameInterrupted("you quit the game")


_A = TypeVar("_A", Clue, Cover, Guess, Pass)


class _Person:
    def __init__(self, console: Console, *, time_limit: float | None = None) -> None:
        self.console = console
        self.time_limit = time_limit
        self._seen = 0
        self._moves = 0

    @property
    def moves(self) -> int:
        """How many moves (clues, guesses, passes, covers) this person has made."""
        return self._moves

    def _made(self, action: _A) -> _A:
        self._moves += 1
        return action

    @property
    def seen(self) -> int:
        """How many of the game's events this seat has been shown."""
        return self._seen

    def news(self, view: PublicView) -> None:
        """What happened since this seat last looked."""
        for event in view.history[self._seen:]:
            self.console.write(describe_event(event))
        self._seen = len(view.history)

    def show(self, view: PublicView) -> None:
        """The board as this seat sees it: a spymaster's view shows the key."""
        c = self.console
        c.write(render_view(view, color=c.color, width=c.width, tags=c.tags, deck=c.deck))
        c.write(board_legend(key=held_key(view) is not None, color=c.color,
                             width=c.line_width))
        c.write(f"red {view.red_left} left, blue {view.blue_left} left; turn {view.turn}, "
                f"{view.current_team.value} to play (you are {view.team.value})")

    def prompt(self, label: str, started: float) -> str:
        """Ask within what is left of this move's time (the limit is per move, not per line)."""
        if self.time_limit is None:
            return self.console.ask(f"{label}> ")
        left = self.time_limit - (self.console.clock() - started)
        if left <= 0:
            self.check_time(started)
        return self.console.ask(f"{label} [{left:.0f} s]> ", seconds=left)

    def check_time(self, start: float) -> None:
        if self.time_limit is not None and self.console.clock() - start > self.time_limit:
            self.console.write(f"too late (over {self.time_limit:.0f} s): the move is forfeit")
            raise MoveTimedOut("out of time")

    def card(self, text: str, view: PublicView, allowed: Sequence[int]) -> int | None:
        """The card a person means: a coordinate, a word, or an unambiguous prefix."""
        cols = view.rules.layout.cols
        match = re.fullmatch(r"([A-Za-z]{1,2})(\d{1,2})", text)
        if match and not any(normalize_word(w) == normalize_word(text) for w in view.words):
            col = _column_index(match.group(1).upper())
            index = (int(match.group(2)) - 1) * cols + col
            if 0 <= col < cols and 0 <= index < len(view.words):
                return self._allowed(index, view, allowed)
            self.console.write(f"{text.upper()} is not on the grid")
            return None
        wanted = normalize_word(text)
        exact = [i for i, w in enumerate(view.words) if normalize_word(w) == wanted]
        if exact:
            return self._allowed(exact[0], view, allowed)
        prefixed = [i for i in allowed if normalize_word(view.words[i]).startswith(wanted)]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            names = ", ".join(view.words[i].upper() for i in prefixed)
            self.console.write(f"'{shown(text)}' could be {names}; type more letters")
        else:
            # shown: the person's own escape sequence must not steer the screen back at them
            close = _close_cards(wanted, view.words, allowed)
            self.console.write(f"no card '{shown(text)}' to choose; " + (
                f"did you mean {' or '.join(close)}?" if close
                else "type a card, a coordinate like B3, or 'help'"))
        return None

    def _allowed(self, index: int, view: PublicView, allowed: Sequence[int]) -> int | None:
        if index in allowed:
            return index
        word = view.words[index].upper()
        self.console.write(f"{word} is already revealed" if view.revealed[index] is not None
                           else f"{word} cannot be chosen now")
        return None


def _close_cards(wanted: str, words: Sequence[str], allowed: Sequence[int]) -> list[str]:
    """The cards a typo most likely meant (``'castle'`` for ``casle``), quoted: only cards that
    can be chosen now, since a face-up card is refused anyway; none when nothing is close."""
    names = {normalize_word(words[i]): words[i] for i in allowed}
    close = difflib.get_close_matches(wanted, names, n=2, cutoff=0.75)
    return [f"'{shown(names[name])}'" for name in close]


def _column_index(letters: str) -> int:
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


class HumanGuesser(_Person):
    """A person guessing for a team (or, in the three-player variant, for both)."""

    agent_id = "human-guesser"

    def guess(self, view: GuesserView) -> GuesserAction:
        self.news(view)
        if view.guesses_made == 0:
            self.show(view)
        self.console.write(_clue_line(view))
        start = self.console.clock()
        while True:
            text = self.prompt(f"{view.team.value} guess", start)
            command = text.lower()
            if not command:
                self.console.write("type a card, a coordinate like B3, 'pass' or 'help'")
            elif command == "help":
                self.console.write(HELP)
            elif command == "board":  # with the clue, which the board scrolled away
                self.show(view)
                self.console.write(_clue_line(view))
            elif command == "quit":
                self.console.confirm_quit()
            elif command == "pass":
                if view.can_pass:
                    self.check_time(start)
                    return self._made(Pass())
                self.console.write("make at least one guess before passing")
            else:
                index = self.card(text, view, view.unrevealed)
                if index is not None:
                    self.check_time(start)
                    return self._made(Guess(index))


def _clue_line(view: GuesserView) -> str:
    """The clue being guessed and how many guesses are left."""
    left = "unlimited" if view.guesses_left is None else str(view.guesses_left)
    return (f"{view.team.value.upper()} clue: {view.clue}  (guesses left: {left}"
            + (f", leftover cards: {view.leftover}" if view.leftover else "") + ")")


class HumanSpymaster(_Person):
    """A person giving clues. With ``checked`` (the default), an illegal clue is refused with
    the broken rule; without it ("table" mode) the clue stands and the rules penalise it."""

    agent_id = "human-spymaster"

    def __init__(self, console: Console, *, checked: bool = True,
                 time_limit: float | None = None,
                 validator: ClueValidator | None = None) -> None:
        super().__init__(console, time_limit=time_limit)
        self.checked = checked
        self.validator = validator  # the game's (a user's picture deck); None: the rule set's

    def give_clue(self, view: SpymasterView) -> Clue:
        self.news(view)
        self.show(view)
        start = self.console.clock()
        while True:
            text = self.prompt(f"{view.team.value} clue", start)
            command = text.lower()
            if command == "help" or not command:
                self.console.write(SPY_HELP)
                continue
            if command == "board":
                self.show(view)
                continue
            if command == "quit":
                self.console.confirm_quit()
                continue
            parts = text.rsplit(maxsplit=1)
            if len(parts) != 2:
                self.console.write("give a word and a number, e.g. 'ocean 2'")
                continue
            try:
                clue = Clue(parts[0], parse_clue_number(parts[1]))
            except ValueError as exc:
                self.console.write(str(exc))
                continue
            if self.checked:
                violation = check_clue(clue, view.clue_context(), self.validator
                                       or resolve_validator(view.rules.clue_rules))
                if violation is not None:
                    self.console.write(f"refused [{violation.rule}]: {violation.message}")
                    continue
            self.check_time(start)
            return self._made(clue)

    def choose_cover(self, view: SpymasterView) -> Cover:
        self.news(view)
        self.show(view)
        names = ", ".join(f"{view.words[i].upper()} ({column_label(i % view.rules.layout.cols)}"
                          f"{i // view.rules.layout.cols + 1})" for i in view.cover_candidates)
        self.console.write(f"cover one {view.cover_team.value if view.cover_team else ''} "
                           f"agent: {names}")
        start = self.console.clock()
        while True:
            text = self.prompt("cover", start)
            if text.lower() == "quit":
                self.console.confirm_quit()
                continue
            index = self.card(text, view, view.cover_candidates) if text else None
            if index is not None:
                return self._made(Cover(index))
