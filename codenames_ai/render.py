"""Plain-text rendering of boards, events and outcomes. Returns strings; prints nothing.

Shared by everything that shows a game to people (the terminal, the web app, the
learning environment's text render, ``codenames replay``), so none of them imports another."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Sequence

import wcwidth

from .core.cards import Identity, Role, Team
from .core.clues import ClueValidator, control_characters
from .core.events import (
    Abandoned,
    ClueGiven,
    Covered,
    CoverReason,
    Event,
    Forfeited,
    GuessMade,
    InvalidClue,
    Passed,
    TimedOut,
)
from .core.record import GameRecord, replay_steps
from .core.rules import Variant
from .core.state import EndReason, GameState, Outcome
from .core.views import Phase, PublicView, held_key
from .pictures import PictureCard, PictureDeck, shipped_picture

_KEY_MARK = {Identity.RED: "r", Identity.BLUE: "b", Identity.BYSTANDER: ".",
             Identity.ASSASSIN: "x"}
_REVEALED_MARK = {Identity.RED: "R", Identity.BLUE: "B", Identity.BYSTANDER: "-",
                  Identity.ASSASSIN: "X"}
_IDENTITY_NAME = {Identity.RED: "red agent", Identity.BLUE: "blue agent",
                  Identity.BYSTANDER: "bystander", Identity.ASSASSIN: "the assassin"}


def column_label(col: int) -> str:
    """``A``, ``B``, ... ``Z``, ``AA``, ... as on a spreadsheet."""
    label = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


_REVEALED_STYLE = {Identity.RED: "\x1b[97;41m", Identity.BLUE: "\x1b[97;44m",
                   Identity.BYSTANDER: "\x1b[30;43m", Identity.ASSASSIN: "\x1b[97;40m"}
_KEY_STYLE = {Identity.RED: "\x1b[1;31m", Identity.BLUE: "\x1b[1;34m",
              Identity.BYSTANDER: "\x1b[33m", Identity.ASSASSIN: "\x1b[1;35m"}
_RESET = "\x1b[0m"


def shown(text: str) -> str:
    """``text`` with every character that could steer a terminal (ESC, BEL, a newline, a
    bidirectional override) written out visibly, as ``\\x1b``: cards, clues and reasons come
    from records and decks that anyone can edit. Emoji keep their joiners."""
    hidden = control_characters(text, emoji=True)
    if not hidden:
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if ch in hidden else ch
                   for ch in text)


def _picture(word: str, deck: PictureDeck | None) -> PictureCard | None:
    return shipped_picture(word) if deck is None else deck.card(word)


def card_label(word: str, deck: PictureDeck | None = None) -> str:
    """How a card shows on the grid: a word in capitals when revealed (see render_board);
    a picture as its emoji, or a user's image (a card of ``deck``) as its file name."""
    card = _picture(word, deck)
    if card is None or card.image is None:
        return shown(word)
    return f"[{shown(word)}]"


def picture_legend(words: Sequence[str], cols: int, deck: PictureDeck | None = None) -> str:
    """One line per picture card: coordinates, picture and caption tags (``--tags``)."""
    lines = []
    for i, word in enumerate(words):
        card = _picture(word, deck)
        if card is not None:
            lines.append(f"{column_label(i % cols)}{i // cols + 1:<3} "
                         f"{_pad(card_label(word, deck), 8)} {shown(' '.join(card.tags))}")
    return "\n".join(lines)


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (emoji are two wide, joiners none)."""
    width = wcwidth.wcswidth(text)
    return width if width >= 0 else len(text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def render_board(words: Sequence[str], revealed: Sequence[Identity | None], cols: int,
                 key: Sequence[Identity] | None = None, *, color: bool = False,
                 width: int | None = None, tags: bool = False,
                 deck: PictureDeck | None = None) -> str:
    """The grid with coordinates. Revealed cards are upper case with ``[R]``, ``[B]``,
    ``[-]`` (bystander) or ``[X]`` (assassin); with a ``key``, face-up cards show the key's
    mark (``r``, ``b``, ``.``, ``x``) for a spymaster or an observer. ``color`` adds ANSI
    colours; a grid wider than ``width`` becomes a list, one card per line. Picture cards show
    as their emoji; ``tags`` adds a legend with each picture's caption tags. ``deck`` is the
    picture deck in play (default: the shipped emoji deck)."""
    cells = []
    for i, word in enumerate(words):
        shown = revealed[i]
        label = card_label(word, deck)
        if shown is not None:
            cells.append(f"[{_REVEALED_MARK[shown]}] {label.upper()}")
        elif key is not None:
            cells.append(f" {_KEY_MARK[key[i]]}  {label}")
        else:
            cells.append(f"    {label}")
    cell_width = max(_width(cell) for cell in cells) + 2

    def paint(i: int, text: str) -> str:
        if not color:
            return text
        shown = revealed[i]
        style = (_REVEALED_STYLE[shown] if shown is not None
                 else _KEY_STYLE[key[i]] if key is not None else "")
        return f"{style}{text}{_RESET}" if style else text

    legend = f"\n{picture_legend(words, cols, deck)}" if tags else ""
    if width is not None and 4 + cell_width * cols > width:
        return "\n".join(paint(i, f"{column_label(i % cols)}{i // cols + 1:<3} {cell.strip()}")
                         for i, cell in enumerate(cells)) + legend
    header = "    " + "".join(column_label(c).ljust(cell_width) for c in range(cols))
    lines = [header.rstrip()]
    for r in range(0, len(cells), cols):
        row = "".join(paint(i, _pad(cells[i], cell_width)) for i in range(r, min(r + cols,
                                                                                len(cells))))
        lines.append(f"{r // cols + 1:>2}  " + row.rstrip())
    return "\n".join(lines) + legend


def board_legend(*, key: bool, color: bool = False, width: int | None = None) -> str:
    """What ``render_board``'s marks mean, for people new to the grid: one line for the
    covered cards, and with ``key`` one for the key's marks on face-down cards. ``color``
    paints each mark as the board does. A line wider than ``width`` breaks between its
    entries, never inside one ("[X] assassin" stays together)."""

    def mark(text: str, style: str) -> str:
        return f"{style}{text}{_RESET}" if color else text

    order = (Identity.RED, Identity.BLUE, Identity.BYSTANDER, Identity.ASSASSIN)
    lines = _entries("Covered cards, in capitals:",
                     [(f"{mark(f'[{_REVEALED_MARK[i]}]', _REVEALED_STYLE[i])} "
                       f"{_LEGEND_NAME[i]}") for i in order], width)
    if key:
        lines += _entries("The key on face-down cards:",
                          [f"{mark(_KEY_MARK[i], _KEY_STYLE[i])} {_LEGEND_NAME[i]}"
                           for i in order], width)
    return "\n".join(lines)


def _entries(head: str, entries: list[str], width: int | None) -> list[str]:
    """``head`` and the ``entries`` two spaces apart, on as few lines of ``width`` as they
    take; a continued line starts under the first entry."""
    lines = [f"{head} {entries[0]}"]
    for entry in entries[1:]:
        if width is not None and visible_width(lines[-1]) + 2 + visible_width(entry) > width:
            lines.append(" " * (len(head) + 1) + entry)
        else:
            lines[-1] += f"  {entry}"
    return lines


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    """Columns one line takes on a terminal: its colours take none, emoji two."""
    return _width(_ANSI.sub("", text))


def fit(text: str, width: int | None) -> str:
    """``text`` with every line wider than ``width`` columns wrapped between words, its
    continuation indented under it, so that the terminal never cuts a word in two. A word
    wider than the line (a path) stays whole. ``None``: unchanged (a pipe has no screen)."""
    if width is None:
        return text
    lines = []
    for line in text.split("\n"):
        if visible_width(line) <= width:
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
        lines += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                               break_on_hyphens=False) or [line]
    return "\n".join(lines)


_LEGEND_NAME = {Identity.RED: "red agent", Identity.BLUE: "blue agent",
                Identity.BYSTANDER: "bystander", Identity.ASSASSIN: "assassin"}


def render_view(view: PublicView, *, color: bool = False, width: int | None = None,
                tags: bool = False, deck: PictureDeck | None = None) -> str:
    """The board as ``view``'s seat sees it (``render_board``): with the key exactly when the
    view holds it (a spymaster's, or an observer's given one), never otherwise."""
    return render_board(view.words, view.revealed, view.rules.layout.cols, key=held_key(view),
                        color=color, width=width, tags=tags, deck=deck)


def _seen(state: GameState, show_key: bool) -> PublicView:
    """The view a replay shows: an observer's who holds the key, or the table's."""
    team = state.current_team
    return state.spymaster_view(team) if show_key else state.public_view(team)


def describe_event(event: Event, deck: PictureDeck | None = None) -> str:
    """One line for one event (its text from the record shown as ``shown`` does)."""
    return shown(_describe_event(event, deck))


def _describe_event(event: Event, deck: PictureDeck | None) -> str:
    if isinstance(event, ClueGiven):
        return f"Turn {event.turn} · {event.team.value} spymaster: {event.clue}"
    if isinstance(event, InvalidClue):
        return (f"Turn {event.turn} · {event.team.value} spymaster: {event.clue} is invalid "
                f"[{event.rule}]: {event.reason}. The turn ends.")
    if isinstance(event, GuessMade):
        return (f"  {event.team.value} touches '{card_label(event.word, deck)}': "
                f"{_IDENTITY_NAME[event.identity]}")
    if isinstance(event, Passed):
        return f"  {event.team.value} stops guessing"
    if isinstance(event, TimedOut):
        move = "clue" if event.role is Role.SPYMASTER else "guess"
        return f"  {event.team.value} {event.role.value} ran out of time: the {move} is forfeit"
    if isinstance(event, Forfeited):
        move = "clue" if event.role is Role.SPYMASTER else "guess"
        return (f"  {event.team.value} {event.role.value} failed ({event.reason}): the {move} "
                "is forfeit")
    if isinstance(event, Covered):
        why = {CoverReason.PENALTY: "penalty for the invalid clue",
               CoverReason.VIRTUAL_TURN: "the virtual team's turn",
               CoverReason.TIMEOUT: "chosen by the engine after a timeout"}[event.reason]
        return (f"  {event.chooser.value} spymaster covers {event.team.value} agent "
                f"'{card_label(event.word, deck)}' ({why})")
    if isinstance(event, Abandoned):
        why = "at the turn limit" if event.reason == "turn-limit" else "by a player who quit"
        return f"Turn {event.turn} · the game is stopped {why}"
    raise TypeError(f"unknown event {event!r}")


def describe_outcome(outcome: Outcome, *, coop_team: Team | None = None) -> str:
    """One line for the outcome; ``coop_team`` names the players' team in co-op games."""
    return shown(_describe_outcome(outcome, coop_team))


def _describe_outcome(outcome: Outcome, coop_team: Team | None) -> str:
    if outcome.winner is None:
        return (f"No winner: stopped after {outcome.turns} "
                f"turn{'' if outcome.turns == 1 else 's'}.")
    if coop_team is not None and outcome.winner is not coop_team:
        why = ("you touched the assassin" if outcome.reason is EndReason.ASSASSIN
               else "the virtual team's agents are all covered")
        return f"The virtual team ({outcome.winner.value}) wins on turn {outcome.turns}: {why}."
    loser = outcome.winner.other.value
    why = ("all of its agents are covered" if outcome.reason is EndReason.AGENTS_COVERED
           else f"{loser} touched the assassin")
    line = f"{outcome.winner.value.capitalize()} wins on turn {outcome.turns}: {why}."
    if outcome.coop_score is not None:
        line += f" Co-op score {outcome.coop_score}: {outcome.coop_rating}."
    return line


def render_game(record: GameRecord, *, show_key: bool = True,
                validator: ClueValidator | None = None, tags: bool = False,
                source: str = "record", deck: PictureDeck | None = None) -> Iterator[str]:
    """The game turn by turn: the opening board and what its marks mean, each event, the
    board after each turn, and the outcome. Without ``show_key`` the seed, which deals the
    whole key, is shown only after the outcome of a game someone won. Replays the record,
    so a damaged record raises ``RecordError`` naming ``source``. ``tags`` shows picture
    captions under the opening board; ``deck`` is the picture deck the game was played with
    (give ``validator`` its captions too)."""
    layout = record.rules.layout
    # The seed deals the whole key: with the key hidden, it waits for the game's end.
    seed = f", seed {record.seed}" if show_key else ""
    yield shown(f"{record.rules.edition.capitalize()} edition, {layout.rows}x{layout.cols}, "
           f"{record.rules.variant.value} play, {record.rules.guess_limit.value} guess limit, "
           f"{record.rules.clue_rules} clue rules{seed}. "
           f"{record.board.starting_team.value.capitalize()} starts"
           + (" and is the players' team." if record.rules.variant is Variant.COOP else "."))
    start = GameState(record.rules, record.board, validator=validator)
    yield render_view(_seen(start, show_key), tags=tags, deck=deck)
    yield board_legend(key=show_key)
    for produced, state in replay_steps(record, validator=validator, source=source):
        for event in produced:
            yield describe_event(event, deck)
        if state.phase is Phase.CLUE or state.is_over:
            yield (f"  red {state.cards_left(Team.RED)} left · blue "
                   f"{state.cards_left(Team.BLUE)} left")
            yield render_view(_seen(state, show_key), deck=deck)
    coop_team = record.board.starting_team if record.rules.variant is Variant.COOP else None
    yield describe_outcome(record.outcome, coop_team=coop_team)
    if not show_key and record.outcome.winner is not None and record.seed is not None:
        yield f"Dealt from seed {record.seed}."  # decided: the key is no longer a secret
