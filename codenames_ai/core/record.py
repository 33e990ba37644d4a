"""Game records as JSON Lines, and replay.

A record is a header line (format, version, seed, rules, agents, board), one line per
event, an outcome line and an end line holding the line count and a SHA-256 of every line
before it. No clock times are written, so the same seed and agents give a byte-identical
record. ``replay`` re-plays the events through the rules and checks each one, in time linear in
their number, for a game of at most ``MAX_RECORD_TURNS`` turns.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Clue, Cover, Guess, Pass
from .board import Board, check_deck, check_word_cards
from .cards import Team
from .clues import ClueValidator, code_points, control_characters
from .errors import CodenamesError, RecordError
from .events import (
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
    event_from_dict,
    event_to_dict,
)
from .jsonlimits import JSONRefused, load_limited
from .rules import MAX_CARDS, RuleSet
from .state import EndReason, GameState, Outcome

RECORD_FORMAT = "codenames-ai/record"
RECORD_VERSION = 1
# The most turns a record is replayed for: codenames watch --max-turns allows no more, and a
# real game ends within a few dozen. Every turn may time out with no touch, so without a
# limit a valid record could hold a game of any length.
MAX_RECORD_TURNS = 10_000
# The most lines a record of that many turns has: a turn makes at most two events that
# uncover no card (its clue, then a pass or a timeout), a card at most two (a timeout, then
# the cover made for it), and the header, outcome, end and a stop are four more.
MAX_RECORD_LINES = 2 * (MAX_RECORD_TURNS + 1) + 2 * MAX_CARDS + 4


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    return {
        "winner": outcome.winner.value if outcome.winner else None,
        "reason": outcome.reason.value,
        "turns": outcome.turns,
        "coop_score": outcome.coop_score,
        "coop_rating": outcome.coop_rating,
    }


def outcome_from_dict(data: dict[str, Any]) -> Outcome:
    try:
        winner = data["winner"]
        return Outcome(
            winner=Team(winner) if winner is not None else None,
            reason=EndReason(data["reason"]),
            turns=int(data["turns"]),
            coop_score=data.get("coop_score"),
            coop_rating=data.get("coop_rating"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed outcome {data!r}: {exc}") from None


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to show, check and replay one finished game."""

    rules: RuleSet
    seed: int | None
    board: Board
    agents: tuple[tuple[str, str], ...]
    events: tuple[Event, ...]
    outcome: Outcome

    @classmethod
    def from_state(cls, state: GameState, *, seed: int | None,
                   agents: tuple[tuple[str, str], ...] = ()) -> GameRecord:
        if state.outcome is None:
            raise RecordError("a record can only be made of a finished game")
        return cls(state.rules, seed, state.board, agents, state.events, state.outcome)

    def to_jsonl(self) -> str:
        """The record as JSON Lines text (ends with a newline)."""
        _, lines = self._rows_and_lines()
        return "\n".join(lines) + "\n"

    def to_rows(self) -> list[dict[str, Any]]:
        """The record's lines as JSON objects, for embedding it in another JSON document."""
        rows, _ = self._rows_and_lines()
        return rows

    def _rows_and_lines(self) -> tuple[list[dict[str, Any]], list[str]]:
        rows: list[dict[str, Any]] = [{
            "kind": "header",
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "agents": dict(self.agents),
            "board": self.board.to_dict(),
        }]
        rows += [{"kind": "event", **event_to_dict(event)} for event in self.events]
        rows.append({"kind": "outcome", **outcome_to_dict(self.outcome)})
        lines = [_dump(row) for row in rows]
        rows.append({"kind": "end", "lines": len(lines), "sha256": _digest(lines)})
        lines.append(_dump(rows[-1]))
        return rows, lines

    @classmethod
    def from_rows(cls, rows: list[dict[str, Any]], *, source: str = "record") -> GameRecord:
        """The inverse of ``to_rows``, with every check of ``from_jsonl``."""
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise RecordError(f"{source}: a record must be a list of JSON objects")
        return cls.from_jsonl("\n".join(_dump(row) for row in rows), source=source)

    @classmethod
    def from_jsonl(cls, text: str, *, source: str = "record") -> GameRecord:
        """Parse a record; ``RecordError`` names the line and the problem for anything
        malformed, truncated or modified."""
        lines = text.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            raise RecordError(f"{source}: empty file, not a game record")
        # A copy made in text mode on Windows ends every line in CRLF. A record's line never
        # holds a raw CR (JSON escapes it), so dropping it gives back the lines as written,
        # and the checksum is checked on those: the same bytes, nothing else accepted.
        crlf = sum(line.endswith("\r") for line in lines)
        if crlf == len(lines):
            lines = [line[:-1] for line in lines]
        rows = [_load(line, number, source) for number, line in enumerate(lines, start=1)]
        header, end = rows[0], rows[-1]
        if header.get("kind") != "header" or header.get("format") != RECORD_FORMAT:
            raise RecordError(f"{source}: line 1 is not a {RECORD_FORMAT} header")
        if header.get("version") != RECORD_VERSION:
            raise RecordError(f"{source}: record version {header.get('version')!r} is not "
                              f"supported (this toolkit reads version {RECORD_VERSION})")
        if end.get("kind") != "end":
            raise RecordError(f"{source}: truncated: the last line ({len(lines)}) is not the "
                              "end line; the game was not written completely")
        if end.get("lines") != len(lines) - 1 or end.get("sha256") != _digest(lines[:-1]):
            mixed = (f" ({crlf} of its {len(lines)} lines end in CRLF, Windows line "
                     "endings, the others in LF alone)" if crlf else "")
            raise RecordError(f"{source}: checksum mismatch: the record was changed or cut "
                              f"after it was written{mixed}")
        body, outcome_row = rows[1:-2], rows[-2]
        if outcome_row.get("kind") != "outcome":
            raise RecordError(f"{source}: line {len(lines) - 1} should be the outcome")
        for number, row in enumerate(body, start=2):
            if row.get("kind") != "event":
                raise RecordError(f"{source}: line {number} should be an event")
        _refuse_control_characters(rows[:-1], source)
        try:
            record = cls._from_checked_rows(header, body, outcome_row)
            record.board.check_fits(record.rules.layout)  # here, where the file is named
            cards = record.board.words
            if record.rules.edition == "words":  # a Words board holds a word deck's cards
                check_word_cards(cards, len(cards), source="board")
            else:  # a custom board may hold pictures
                check_deck(cards, len(cards), source="board")
            return record
        except CodenamesError as exc:
            raise RecordError(f"{source}: {exc}") from None
        except (KeyError, AttributeError, TypeError) as exc:
            raise RecordError(f"{source}: malformed header: {exc}") from None

    @classmethod
    def _from_checked_rows(cls, header: dict[str, Any], body: list[dict[str, Any]],
                           outcome_row: dict[str, Any]) -> GameRecord:
        seed = header["seed"]
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"seed must be a whole number, got {seed!r}")
        agents = header.get("agents", {})
        return cls(
            rules=RuleSet.from_dict(header["rules"]),
            seed=seed,
            board=Board.from_dict(header["board"]),
            agents=tuple((str(k), str(v)) for k, v in agents.items()),
            events=tuple(event_from_dict(row) for row in body),
            outcome=outcome_from_dict(outcome_row),
        )


def check_record_length(text: str, *, source: str = "record") -> None:
    """``RecordError`` for a record of more lines than a game of ``MAX_RECORD_TURNS``
    turns has: refused before its lines are parsed, which takes time in proportion."""
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_RECORD_LINES:
        raise RecordError(f"{source}: the record holds {lines:,} lines, more than a game of "
                          f"{MAX_RECORD_TURNS:,} turns has ({MAX_RECORD_LINES:,}), the "
                          "longest replayed (codenames watch --max-turns plays no more; a "
                          "real game ends within a few dozen turns)")


def replay_steps(record: GameRecord, *, validator: ClueValidator | None = None,
                 source: str = "record") -> Iterator[tuple[tuple[Event, ...], GameState]]:
    """Re-play ``record`` move by move, yielding the events each move produced and the
    state after it (the same state object, advanced). Checks like ``replay``."""
    try:
        state = GameState(record.rules, record.board, validator=validator)
    except CodenamesError as exc:
        raise RecordError(f"{source}: cannot set up the recorded game: {exc}") from None
    recorded = record.events
    position = 0
    while position < len(recorded):
        event = recorded[position]
        where = f"{source}: event {position + 1} ({type(event).__name__})"
        _check_length(state, event, source)
        before = state.event_count  # not len(state.events): a copy of the whole history
        try:
            _apply_recorded(state, event)
        except CodenamesError as exc:
            raise RecordError(f"{where}: the rules do not allow it: {exc}") from None
        produced = state.events_since(before)
        if produced != recorded[position:position + len(produced)]:
            raise RecordError(f"{where}: the rules give {_brief(produced)} but the record "
                              f"says {_brief(recorded[position:position + len(produced)])}")
        position += len(produced)
        yield produced, state
    if state.outcome != record.outcome:
        raise RecordError(f"{source}: the events lead to {state.outcome!r} but the record "
                          f"says {record.outcome!r}")


def _check_length(state: GameState, event: Event, source: str) -> None:
    """A move past turn ``MAX_RECORD_TURNS`` is refused; the stop of a game at that limit
    (an ``Abandoned`` event on the turn after) is not."""
    if state.turn > MAX_RECORD_TURNS and not isinstance(event, Abandoned):
        raise RecordError(f"{source}: the game goes on past turn {MAX_RECORD_TURNS:,}, the "
                          "most a record is replayed for (codenames watch --max-turns plays "
                          "no more; a real game ends within a few dozen turns)")


def _brief(events: Sequence[Event]) -> str:
    """Events as a message shows them: their JSON, each text cut short (a record's text is
    anyone's, and may be megabytes)."""
    return ", ".join(_dump({key: value[:117] + "..." if isinstance(value, str)
                            and len(value) > 120 else value
                            for key, value in event_to_dict(event).items()})
                     for event in events)


def replay(record: GameRecord, *, validator: ClueValidator | None = None,
           source: str = "record") -> GameState:
    """Re-play ``record``'s events through the rules and return the final state.

    Every event must be what the rules produce for that move on that board, and the game
    must end with the recorded outcome; otherwise ``RecordError`` says where it differs.
    """
    last = deque(replay_steps(record, validator=validator, source=source), maxlen=1)
    if not last:
        raise RecordError(f"{source}: the record has no moves")
    return last[0][1]


def _apply_recorded(state: GameState, event: Event) -> None:
    if isinstance(event, ClueGiven | InvalidClue):
        state.apply(Clue(event.clue.word, event.clue.number))
    elif isinstance(event, GuessMade):
        state.apply(Guess(event.index))
    elif isinstance(event, Passed):
        state.apply(Pass())
    elif isinstance(event, TimedOut):
        state.forfeit()
    elif isinstance(event, Forfeited):
        state.forfeit(event.reason)
    elif isinstance(event, Covered):
        if event.reason is CoverReason.TIMEOUT:
            raise RecordError("a timeout cover must follow its timeout event")
        state.apply(Cover(event.index))
    elif isinstance(event, Abandoned):
        state.abandon(EndReason(event.reason))


def _refuse_control_characters(rows: list[dict[str, Any]], source: str) -> None:
    """No text of a record may steer a terminal or hide in a clue: a record is shared, and
    anyone can edit one and recompute its checksum. Picture cards keep their emoji (joiners
    and flag tags); a clue is held to the core's rule for clue words."""
    for number, row in enumerate(rows, start=1):
        for text in _strings(row):
            hidden = control_characters(text, emoji=True)
            if hidden:
                raise RecordError(
                    f"{source}: line {number} holds control or format characters "
                    f"({code_points(hidden)}); "
                    "a game record has none, so the file is damaged or was edited: do not "
                    "use it")
        word = row.get("word") if row.get("event") in ("clue", "invalid-clue") else None
        if isinstance(word, str) and control_characters(word):
            raise RecordError(
                f"{source}: line {number}: the clue holds format characters "
                f"({code_points(control_characters(word))}) that no clue word has; the file is "
                "damaged or was edited: do not use it")


def _strings(value: object) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _dump(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def _load(line: str, number: int, source: str) -> dict[str, Any]:
    where = f"{source}: line {number}"
    try:
        row = load_limited(line)
    except JSONRefused as exc:
        raise RecordError(f"{where} {exc}; the file is damaged or not a game record") from None
    if not isinstance(row, dict):
        raise RecordError(f"{where} is not a JSON object")
    return row


def _digest(lines: list[str]) -> str:
    return hashlib.sha256(("\n".join(lines) + "\n").encode()).hexdigest()
