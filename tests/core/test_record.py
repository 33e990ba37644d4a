"""Game records: byte-identical per seed, round trips, replay, and damaged files."""

from __future__ import annotations

import hashlib
import json

import pytest

from codenames_ai.agents import RandomGuesser, RandomSpymaster
from codenames_ai.core import (
    PICTURES,
    WORDS,
    GameRecord,
    RecordError,
    Seats,
    Variant,
    play_game,
    replay,
)


def random_seats(deck: tuple[str, ...]) -> Seats:
    return Seats.standard(
        red_spymaster=RandomSpymaster(deck), red_guesser=RandomGuesser(stop_probability=0.3),
        blue_spymaster=RandomSpymaster(deck), blue_guesser=RandomGuesser(stop_probability=0.3))


def test_same_seed_and_agents_give_byte_identical_records(deck: tuple[str, ...]) -> None:
    first = play_game(WORDS, random_seats(deck), seed=5, deck=deck).to_jsonl()
    second = play_game(WORDS, random_seats(deck), seed=5, deck=deck).to_jsonl()
    other = play_game(WORDS, random_seats(deck), seed=6, deck=deck).to_jsonl()
    assert first == second
    assert first != other


def test_record_round_trips_and_replays_to_the_outcome(deck: tuple[str, ...]) -> None:
    rules = PICTURES.with_options(variant=Variant.THREE_PLAYER)
    guesser = RandomGuesser(stop_probability=0.3)
    seats = Seats.three_player(red_spymaster=RandomSpymaster(deck),
                               blue_spymaster=RandomSpymaster(deck), guesser=guesser)
    record = play_game(rules, seats, seed=9, deck=deck)
    text = record.to_jsonl()
    parsed = GameRecord.from_jsonl(text)
    assert parsed == record
    assert parsed.to_jsonl() == text
    assert replay(parsed).outcome == record.outcome
    header = json.loads(text.splitlines()[0])
    assert header["seed"] == 9 and header["agents"]["red guesser"] == "random-guesser-v1"


@pytest.fixture
def text(deck: tuple[str, ...]) -> str:
    return play_game(WORDS, random_seats(deck), seed=3, deck=deck).to_jsonl()


def test_a_truncated_record_is_rejected(text: str) -> None:
    lines = text.splitlines()
    with pytest.raises(RecordError, match="truncated"):
        GameRecord.from_jsonl("\n".join(lines[:-3]) + "\n")
    with pytest.raises(RecordError, match="line 3 is not valid JSON"):
        GameRecord.from_jsonl("\n".join(lines[:2] + [lines[2][:10]]))
    with pytest.raises(RecordError, match="empty file"):
        GameRecord.from_jsonl("")


def test_a_tampered_record_is_rejected(text: str) -> None:
    lines = text.splitlines()
    row = json.loads(lines[1])
    row["word"] = row["word"] + "x"
    lines[1] = json.dumps(row)
    with pytest.raises(RecordError, match="checksum mismatch"):
        GameRecord.from_jsonl("\n".join(lines) + "\n")


def test_a_record_copied_with_windows_line_endings_is_read_as_written(text: str) -> None:
    """Review, low: a CRLF copy (a text-mode transfer) said "checksum mismatch: the record
    was changed or cut". The checksum is checked on the lines as written, CR dropped."""
    crlf = text.replace("\n", "\r\n")
    parsed = GameRecord.from_jsonl(crlf)
    assert parsed == GameRecord.from_jsonl(text) and parsed.to_jsonl() == text
    assert replay(parsed).outcome == parsed.outcome
    # Lines changed, then copied: still refused.
    row = json.loads(text.splitlines()[1])
    row["word"] += "x"
    edited = "\n".join([text.splitlines()[0], json.dumps(row), *text.splitlines()[2:]])
    with pytest.raises(RecordError, match="checksum mismatch"):
        GameRecord.from_jsonl(edited.replace("\n", "\r\n") + "\r\n")
    # Some lines CRLF, others not: not a copy's doing; the message says what it sees.
    lines = text.splitlines()
    mixed = "\r\n".join(lines[:2]) + "\n" + "\n".join(lines[2:]) + "\n"
    with pytest.raises(RecordError, match=f"checksum mismatch: .* \\(1 of its {len(lines)} "
                                          "lines end in CRLF, Windows line endings, the "
                                          "others in LF alone\\)"):
        GameRecord.from_jsonl(mixed)


def test_an_edited_record_with_a_fresh_checksum_fails_replay(text: str) -> None:
    record = GameRecord.from_jsonl(text)
    board = record.board
    swapped = board.__class__(board.words, tuple(reversed(board.key)), board.starting_team)
    forged = GameRecord(record.rules, record.seed, swapped, record.agents, record.events,
                        record.outcome)
    with pytest.raises(RecordError, match="event"):
        replay(GameRecord.from_jsonl(forged.to_jsonl()))


def test_a_record_with_a_wrong_outcome_fails_replay(text: str) -> None:
    record = GameRecord.from_jsonl(text)
    winner = record.outcome.winner
    assert winner is not None
    wrong = record.outcome.__class__(winner.other, record.outcome.reason, record.outcome.turns)
    forged = GameRecord(record.rules, record.seed, record.board, record.agents, record.events,
                        wrong)
    with pytest.raises(RecordError, match="the events lead to"):
        replay(forged)


def test_a_record_of_another_version_or_format_is_rejected(text: str) -> None:
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["version"] = 99
    with pytest.raises(RecordError, match="version 99 is not supported"):
        GameRecord.from_jsonl("\n".join([json.dumps(header)] + lines[1:]))
    with pytest.raises(RecordError, match="not a codenames-ai/record header"):
        GameRecord.from_jsonl('{"kind": "something"}\n')


def resigned(text: str, change: dict[str, object], line: int = 0) -> str:
    """``text`` with its header (or its ``line``) changed and the end line's checksum
    computed again, as someone editing a shared record would."""
    lines = text.splitlines()[:-1]
    header = json.loads(lines[line])
    for path, value in change.items():
        *parents, last = path.split(".")
        target = header
        for part in parents:
            target = target[int(part) if isinstance(target, list) else part]
        target[int(last) if isinstance(target, list) else last] = value
    lines[line] = json.dumps(header, separators=(",", ":"))
    digest = hashlib.sha256(("\n".join(lines) + "\n").encode()).hexdigest()
    end = {"kind": "end", "lines": len(lines), "sha256": digest}
    return "\n".join([*lines, json.dumps(end, separators=(",", ":"))]) + "\n"


def test_a_resigned_record_of_an_unknown_edition_or_a_seed_of_another_type_is_refused(
        text: str) -> None:
    assert GameRecord.from_jsonl(resigned(text, {})) == GameRecord.from_jsonl(text)
    with pytest.raises(RecordError, match="unknown edition 'zzz'; choose one of: words, "
                                          "pictures, custom"):
        GameRecord.from_jsonl(resigned(text, {"rules.edition": "zzz"}))
    with pytest.raises(RecordError, match="seed must be a whole number, got True"):
        GameRecord.from_jsonl(resigned(text, {"seed": True}))
    assert GameRecord.from_jsonl(resigned(text, {"seed": -1})).seed == -1  # --seed -1 is one


def test_a_resigned_record_whose_key_does_not_fit_its_layout_is_named(text: str) -> None:
    # It was refused only when replayed, without the file's name (fifth hostile review).
    with pytest.raises(RecordError, match=r"^shared.jsonl: key has 0 blue cards; the layout "
                                          r"needs \d"):
        GameRecord.from_jsonl(resigned(text, {"board.key": ["red"] * 25}),
                              source="shared.jsonl")


def test_a_resigned_record_of_a_huge_clue_or_card_is_refused_in_a_short_line(
        text: str) -> None:
    # A 5 MB clue word took 8 s and came back twice in a 10 MB message of Python reprs; a
    # custom board of 20,000-letter cards printed megabytes (sixth hostile review).
    assert json.loads(text.splitlines()[1])["event"] == "clue"
    with pytest.raises(RecordError) as refused:
        replay(GameRecord.from_jsonl(resigned(text, {"word": "a" * 100_000}, line=1)))
    message = str(refused.value)
    assert len(message) < 800 and "InvalidClue(" not in message, message
    assert ('"rule":"too-long","reason":"a clue of 100,000 characters is not one English word '
            '(the limit is 45)"') in message
    with pytest.raises(RecordError, match="board: card 1 has 256 characters; a card is at "
                                          "most 255$"):
        GameRecord.from_jsonl(resigned(text, {"rules.edition": "custom",
                                              "board.words.0": "x" * 256}))
