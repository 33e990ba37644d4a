"""The command line under hostile input: every input error is one line on stderr starting
with ``error:``, exit code 1, no traceback and no half-written file. Regressions of the
adversarial probes (records that crashed the parser, wrong-role seats, output files at
folders and devices, nonsense numbers, boards without commas, keys off the layout, the seed
shown before the game), and hypothesis probes of the record parser and of the values the
commands parse.

Commands run in-process through ``main()`` (the real entry point that turns our errors into
one line), with the random agents so that no word-vector model is loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenames_ai.agents import RandomGuesser, RandomSpymaster
from codenames_ai.core import (
    WORDS,
    Clue,
    CodenamesError,
    GameRecord,
    Seats,
    play_game,
    replay,
)
from codenames_ai.core import board as core_board
from codenames_ai.decks import default_deck
from codenames_ai.legality import PRESETS
from codenames_ai.render import render_game

from ..cli_main import run_main
from ..conftest import probe_examples

SPYMASTER, GUESSER = "random-spymaster-v1", "random-guesser-v1"
WATCH = ["watch", f"--red-spymaster={SPYMASTER}", f"--blue-spymaster={SPYMASTER}",
         f"--red-guesser={GUESSER}", f"--blue-guesser={GUESSER}"]
PLAY = ["play", f"--spymaster={SPYMASTER}", f"--guesser={GUESSER}"]
QUIT = "quit\ny\nn\n"  # leave at the first prompt, without saving
BOARD = ("bank,river,piano,guitar,ocean,whale,apple,dog,cat,school,church,office,prince,sun,"
         "tissue,moon,star,knife,fork,bridge,car,train,ship,plane,horse")
KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"
# CLI_PROBE_EXAMPLES=2000 for a longer probe; the default keeps the file fast (ten times as
# many under HYPOTHESIS_PROFILE=explore).
EXAMPLES = int(os.environ.get("CLI_PROBE_EXAMPLES", probe_examples(30)))
FAST = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@dataclass
class Run:
    code: int
    out: str
    err: str


def run(*args: str, stdin: str = "") -> Run:
    """``codenames ARGS`` in this process, through ``main()``."""
    done = run_main(*args, stdin=stdin)
    return Run(done.returncode, done.stdout, done.stderr)


def codenames(*args: str, stdin: str = "") -> Run:
    """``codenames ARGS`` as a real process: the real stderr and exit code."""
    done = subprocess.run([sys.executable, "-m", "codenames_ai", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)
    return Run(done.returncode, done.stdout, done.stderr)


def assert_error(result: Run, *fragments: str) -> None:
    """Exit 1 and exactly one line on stderr, ``error: ...``, holding every fragment."""
    assert result.code == 1, (result.code, result.out[-300:], result.err)
    assert len(result.err.splitlines()) == 1 and result.err.endswith("\n"), result.err
    assert result.err.startswith("error: ") and "Traceback" not in result.err, result.err
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)


def assert_clean(result: Run) -> None:
    """What every input must give: success, or our one error line."""
    assert result.code in (0, 1), (result.code, result.err)
    if result.code == 1:
        assert_error(result)


# --- 1. records that crashed the parser -------------------------------------------------


@cache
def record_lines() -> tuple[str, ...]:
    """A real record of a short game between the random agents."""
    deck = default_deck()
    seats = Seats.standard(
        red_spymaster=RandomSpymaster(deck), red_guesser=RandomGuesser(stop_probability=0.3),
        blue_spymaster=RandomSpymaster(deck), blue_guesser=RandomGuesser(stop_probability=0.3))
    return tuple(play_game(WORDS, seats, seed=5, deck=deck).to_jsonl().splitlines())


def seal(lines: list[str]) -> str:
    """The lines with a fresh end line, as someone editing a record on purpose would write:
    the checksum no longer hides what the parser does with the damage."""
    body = lines[:-1] if '"kind":"end"' in lines[-1] else lines
    digest = hashlib.sha256(("\n".join(body) + "\n").encode("utf-8", "surrogatepass"))
    end = json.dumps({"kind": "end", "lines": len(body), "sha256": digest.hexdigest()},
                     separators=(",", ":"))
    return "\n".join([*body, end]) + "\n"


def damaged(line: int, change: tuple[str, str]) -> str:
    lines = list(record_lines())
    assert change[0] in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(change[0], change[1], 1)
    return seal(lines)


DEEP = '"seed":' + "[" * 2000 + "]" * 2000


@pytest.mark.parametrize(("line", "change", "message"), [
    (1, ('"seed":5', DEEP), "line 1 nests arrays or objects 2001 deep"),
    (1, ('"seed":5', '"seed":' + "9" * 5000), "line 1 holds a number 5000 characters long"),
    (2, ('"turn":1', '"turn":' + "1" * 5000), "line 2 holds a number 5000 characters long"),
    (1, ('"seed":5', '"seed":"\\ud800"'), "line 1 holds a string that is not valid Unicode"),
    (2, ('"team":"', '"team":"\\udfff'), "line 2 holds a string that is not valid Unicode"),
    (1, ('"seed":5', '"seed":NaN'), "line 1 is not valid JSON (NaN is not a JSON number)"),
    (1, ('"seed":5', '"seed":1e999'), "line 1 holds the number 1e999, too large"),
])
def test_replay_refuses_a_record_that_crashed_the_parser(
        tmp_path: Path, line: int, change: tuple[str, str], message: str) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(damaged(line, change), encoding="utf-8")
    result = run("replay", str(path))
    assert_error(result, f"{path}: {message}")
    assert result.out == ""


def test_replay_of_a_deep_record_is_one_line_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(damaged(1, ('"seed":5', DEEP)), encoding="utf-8")
    assert_error(codenames("replay", str(path)), str(path), "line 1 nests")


def test_a_record_the_rules_refuse_halfway_prints_nothing_but_the_error(
        tmp_path: Path) -> None:
    lines = list(record_lines())
    last_event = max(i for i, line in enumerate(lines) if '"kind":"event"' in line)
    lines[last_event] = lines[last_event].replace('"turn":', '"turn":1', 1)
    path = tmp_path / "edited.jsonl"
    path.write_text(seal(lines), encoding="utf-8")
    result = run("replay", str(path))
    assert_error(result, f"{path}: event ")  # names the file, not "record"
    assert result.out == ""


# --- 2. an agent of the wrong role in a seat --------------------------------------------


@pytest.mark.parametrize(("args", "seat"), [
    ([*WATCH, f"--red-spymaster={GUESSER}"], "--red-spymaster needs a spymaster"),
    ([*WATCH, f"--blue-spymaster={GUESSER}"], "--blue-spymaster needs a spymaster"),
    ([*WATCH, f"--red-guesser={SPYMASTER}"], "--red-guesser needs a guesser"),
    ([*WATCH, f"--blue-guesser={SPYMASTER}"], "--blue-guesser needs a guesser"),
    ([*PLAY, f"--spymaster={GUESSER}"], "the AI spymaster needs a spymaster"),
    ([*PLAY, f"--guesser={SPYMASTER}"], "the AI guesser needs a guesser"),
    ([*PLAY, "--role=coop", f"--spymaster={GUESSER}"], "the AI spymaster needs a spymaster"),
    ([*PLAY, "--role=watch", f"--guesser={SPYMASTER}"], "--red-guesser needs a guesser"),
    ([*WATCH, "--variant=coop", f"--blue-guesser={GUESSER}"], "coop play has no such seat"),
    ([*WATCH, "--variant=three-player", f"--blue-guesser={GUESSER}"],
     "three-player play has no such seat"),
])
def test_a_seat_of_the_wrong_role_is_one_line(args: list[str], seat: str) -> None:
    result = run(*args, stdin=QUIT)
    assert_error(result, seat)
    assert result.out == ""


# --- 3. output files at folders, devices, /proc and /sys ----------------------------------


def targets(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "folder"
    folder.mkdir(exist_ok=True)
    places = [folder, Path("/dev/full"), Path("/proc/codenames.jsonl"),
              Path("/sys/codenames.jsonl"), tmp_path / "a-file" / "game.jsonl"]
    (tmp_path / "a-file").write_text("not a folder\n")
    return [p for p in places if p.parent.exists()]


@pytest.mark.parametrize("command", [
    [*WATCH, "--record"], [*PLAY, "--save"], [*PLAY, "--role=watch", "--save"],
    ["report", "TOURNAMENT", "--plots"],
])
def test_an_output_file_that_cannot_be_written_is_one_line_before_the_game(
        tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "tournament").mkdir()
    command = [str(tmp_path / "tournament") if a == "TOURNAMENT" else a for a in command]
    for target in targets(tmp_path):
        if command[-1] == "--plots" and target.name == "folder":
            continue  # --plots takes a folder
        result = run(*command, str(target), stdin=QUIT)
        assert_error(result, str(target), command[-1])
        assert result.out == ""  # refused before the game, not after it
        if target.parent == Path("/proc"):  # it exists: "no such file" misled
            assert "cannot write in /proc (it takes no new files)" in result.err, result.err
    assert stat.S_ISCHR(Path("/dev/full").stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "folder", "tournament"]
    assert not any((tmp_path / "folder").iterdir())


def test_a_record_is_written_whole_over_the_old_file_keeping_its_mode_and_link(
        tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    assert run(*WATCH, "--seed=1", f"--record={old}").code == 0  # only a record is replaced
    old.chmod(0o640)
    link = tmp_path / "latest.jsonl"
    link.symlink_to(old)
    assert run(*WATCH, "--seed=2", f"--record={link}").code == 0
    assert link.is_symlink() and stat.S_IMODE(old.stat().st_mode) == 0o640
    assert GameRecord.from_jsonl(old.read_text()).seed == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.jsonl", "old.jsonl"]


# --- 4. guess: the clue and its number --------------------------------------------------


@pytest.mark.parametrize(("clue", "number", "message"), [
    ("fruit", "-1", "--number breaks the [number-range] rule"),
    ("fruit", "1" * 23, "--number breaks the [number-range] rule"),
    ("fruit", "9" * 5000, "--number: clue number '999999999999'... is 5000 characters"),
    ("fruit", "many", "--number: clue number 'many' is not a whole number"),
    ("", "1", "--clue breaks the [one-word] rule"),
    ("ice cream", "1", "--clue breaks the [one-word] rule"),
    ("Piano", "1", "--clue breaks the [board-word] rule: 'Piano' is a word on the board"),
])
def test_guess_refuses_a_clue_against_the_rules(clue: str, number: str, message: str) -> None:
    result = run("guess", f"--board={BOARD}", f"--clue={clue}", f"--number={number}",
                 f"--guesser={GUESSER}")
    assert_error(result, message)


def test_guess_with_a_legal_clue_still_guesses() -> None:
    result = run("guess", f"--board={BOARD}", "--clue=music", "--number=unlimited",
                 f"--guesser={GUESSER}")
    assert result.code == 0 and "then " in result.out


TOO_MANY_CARDS = ",".join(f"card{i}" for i in range(626))


@pytest.mark.parametrize("args", [
    ["guess", "--clue=animal", "--number=unlimited", f"--guesser={GUESSER}"],
    ["clue", "--key=R", "--team=red", f"--spymaster={SPYMASTER}"],
    ["check", "wolf"],
])
def test_a_board_of_more_cards_than_a_game_holds_is_one_line(args: list[str]) -> None:
    # 2,000 cards with an unlimited clue took 49 s and 1.8 GB; 6,000 more than 200 s.
    result = run(*args, f"--board={TOO_MANY_CARDS}")
    assert_error(result, "--board lists 626 cards; a board holds at most 625")


# --- 5. numbers that parse but make no sense ----------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    ([*PLAY, "--time-limit=-5"], "--time-limit must be a number of seconds above 0"),
    ([*PLAY, "--time-limit=0"], "--time-limit must be"),
    ([*PLAY, "--time-limit=nan"], "--time-limit must be"),
    ([*PLAY, "--time-limit=inf"], "--time-limit must be"),
    ([*PLAY, "--time-limit=1e300"], "at most 86400"),
    ([*PLAY, f"--seed={2 ** 128}"], "--seed must be a whole number of at most 128 bits"),
    ([*WATCH, "--max-turns=-1"], "--max-turns must be a whole number from 1 to 10000"),
    ([*WATCH, "--max-turns=0"], "--max-turns must be"),
    ([*WATCH, f"--max-turns={10 ** 22}"], "--max-turns must be"),
    ([*WATCH, f"--seed=-{2 ** 130}"], "--seed must be"),
    ([*WATCH, "--edition=custom", "--rows=0"], "at least one row and one column"),
    ([*WATCH, "--edition=custom", "--rows=26", "--cols=25"],
     "a 26x25 grid has 650 cards; a board holds at most 625"),
    ([*WATCH, "--edition=custom", "--bystanders=-5"], "bystanders must not be negative"),
    ([*WATCH, "--edition=custom", "--first-agents=-1"], "must not be negative"),
    ([*WATCH, "--rows=4"], "--rows need --edition custom"),
])
def test_a_nonsense_number_is_one_line(args: list[str], message: str) -> None:
    result = run(*args, stdin=QUIT)
    assert_error(result, message)
    assert result.out == ""


@pytest.mark.parametrize(("option", "message"), [
    ("--games=-1", "games must be at least 1"),
    ("--games=0", "games must be at least 1"),
    ("--max-turns=0", "max_turns must be from 1 to 10,000"),
    # Past the most a game record holds, `codenames replay` would refuse its games.
    ("--max-turns=10001", "max_turns must be from 1 to 10,000, got 10001"),
    ("--move-time-limit=nan", "move_time_limit"),
    ("--move-time-limit=-5", "move_time_limit"),
    ("--workers=0", "--workers must be a whole number from 1 to 4096"),
    ("--batch-size=-3", "--batch-size must be a whole number from 1 to 100000"),
])
def test_a_tournament_refuses_nonsense_numbers(tmp_path: Path, option: str,
                                                message: str) -> None:
    result = run("tournament", f"--out={tmp_path / 'runs'}", f"--spymasters={SPYMASTER}",
                 f"--guessers={GUESSER}", "--backend=serial", "--quiet", "--games=2", option)
    assert_error(result, message)


# --- 6. boards and keys -------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["guess", "--board=apple bear cat dog", "--clue=fruit", "--number=1",
     f"--guesser={GUESSER}"],
    ["check", "--board=apple bear cat", "--", "fruit"],
    ["check", "--board=apple,bear", "--revealed=apple bear", "--", "fruit"],
    ["clue", f"--board={BOARD.replace(',', ' ')}", f"--key={KEY}", "--team=red",
     f"--spymaster={SPYMASTER}"],
])
def test_a_board_without_commas_says_to_use_commas(args: list[str]) -> None:
    assert_error(run(*args), "has no commas", "separate the cards with commas")


def test_a_single_card_with_a_space_is_written_with_a_comma() -> None:
    assert run("check", "--board=ice cream,", "--", "ocean").code == 0


@pytest.mark.parametrize(("board", "message"), [
    ("mermaid,mermaid", "--board: 'mermaid' appears twice (cards 1 and 2)"),
    ("mermaid,MERMAID", "--board: 'MERMAID' appears twice (cards 1 and 2)"),
    ("mermaid,?!...", "--board: card 2 ('?!...') is not a word"),
    ("mermaid," + "q" * 10_000, "--board: card 2 has 10,000 characters; a card is at most 45"),
])
def test_check_refuses_a_board_a_deck_could_not_hold(board: str, message: str) -> None:
    assert_error(run("check", f"--board={board}", "--", "ocean"), message)


@pytest.mark.parametrize(("board", "key", "message"), [
    (BOARD.rsplit(",", 1)[0], KEY[:-1], "the board has 24 cards; the layout needs 25"),
    (BOARD, KEY[:-1] + "N", "the key has 8 bystander cards; the layout needs 7"),
    (BOARD, "RRRRRRRRRBBBBBBBBBNNNNNNA", "the key has 9 blue cards; the layout needs 8"),
    (BOARD, "RRRRRRRRRBBBBBBBBNNNNNNAA", "the key has 6 bystander cards"),
    (BOARD, KEY[:-1] + "X", "--key has letters X"),
    ("dog,cat,sun", "RBN", "does not fit a words board"),
])
def test_a_key_off_the_layout_is_refused_naming_the_layout(board: str, key: str,
                                                           message: str) -> None:
    result = run("clue", f"--board={board}", f"--key={key}", "--team=red",
                 f"--spymaster={SPYMASTER}")
    assert_error(result, message)
    assert "--key" in result.err and ("--edition custom" in result.err or "letters" in message)


@pytest.mark.parametrize(("board", "key", "edition"), [
    (BOARD, KEY, None),
    (BOARD, "RRRRR RRRRB BBBBB BBNNN NNNNA", "words"),
    (",".join(BOARD.split(",")[:20]), "RRRRRRRRBBBBBBBNNNNA", None),  # Pictures: 8/7/4/1
    (BOARD.rsplit(",", 1)[0], KEY[:-1], "custom"),  # no assassin: only when asked for
    ("dog,cat,sun", "RBN", "custom"),
])
def test_keys_that_fit_the_layout_still_get_a_clue(board: str, key: str,
                                                   edition: str | None) -> None:
    result = run("clue", f"--board={board}", f"--key={key}", "--team=red",
                 f"--spymaster={SPYMASTER}", *([f"--edition={edition}"] if edition else []))
    assert result.code == 0, result.err
    assert len(result.out.split()) == 2


def test_a_custom_key_needs_an_agent_for_each_team() -> None:
    result = run("clue", "--board=dog,cat,sun", "--key=RRN", "--team=red", "--edition=custom",
                 f"--spymaster={SPYMASTER}")
    assert_error(result, "--key is not a custom layout")


# --- 7. the seed of a game a person plays -------------------------------------------------


def test_play_shows_the_seed_only_after_the_game() -> None:
    result = run(*PLAY, "--seed=3", stdin="A1\n" + QUIT)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    seeded = [i for i, line in enumerate(lines) if "seed" in line.lower()]
    assert [lines[i] for i in seeded] == ["Seed 3: codenames play --seed 3 deals this board "
                                          "again."]
    assert seeded[0] == len(lines) - 2  # after the outcome, the clues and the key
    assert lines[-1].startswith("Play again?")  # then only the offer of another game
    assert any("stopped" in line for line in lines[:seeded[0]])


def test_a_new_game_shows_its_seed_at_the_end_and_it_replays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The secret source made repeatable: with the real one, a deal where the other team
    # starts and loses on its first turn (a game won, so saved) came once in a while.
    monkeypatch.setattr(core_board, "secrets", SimpleNamespace(
        randbits=random.Random(7).getrandbits))
    first = run(*PLAY, stdin=QUIT)
    assert first.code == 0
    *shown, last, again = first.out.splitlines()
    assert again.startswith("Play again?")
    seed = last.split()[1].rstrip(":")
    assert last.startswith("Seed ") and not any(seed in line for line in shown[:1])
    assert run(*PLAY, f"--seed={seed}", stdin=QUIT).out == first.out


# --- properties: the record parser ------------------------------------------------------


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(["\ud800", "x\udfffy", "red", "blue", "assassin", "clue", "guess", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6)


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    """A real record with one line changed: a value replaced, a field removed, or the raw
    text cut, spliced or repeated; usually re-sealed so the damage reaches the parser."""
    lines = list(record_lines())
    index = draw(st.integers(0, len(lines) - 1))
    row = json.loads(lines[index])
    how = draw(st.sampled_from(["value", "drop", "text", "lines"]))
    if how == "value":
        row[draw(st.sampled_from(sorted(row)))] = draw(JSON_VALUES)
        lines[index] = json.dumps(row, ensure_ascii=draw(st.booleans()))
    elif how == "drop":
        del row[draw(st.sampled_from(sorted(row)))]
        lines[index] = json.dumps(row)
    elif how == "text":
        line = lines[index]
        start = draw(st.integers(0, len(line)))
        end = draw(st.integers(start, min(len(line), start + 20)))
        insert = draw(st.text(max_size=6) | st.sampled_from(["[" * 3000, "9" * 5000, "NaN",
                                                             '"\\ud800"', "1e999", "-0"]))
        lines[index] = line[:start] + insert + line[end:]
    else:
        other = draw(st.integers(0, len(lines) - 1))
        lines[index], lines[other] = lines[other], lines[index]
    if draw(st.booleans()):
        return "\n".join(lines) + "\n"
    return seal(lines)


@FAST
@given(text=mutated_records())
def test_a_mutated_record_raises_only_our_error(text: str) -> None:
    try:
        record = GameRecord.from_jsonl(text, source="probe.jsonl")
        replay(record, source="probe.jsonl")
        blocks = list(render_game(record, source="probe.jsonl"))
    except CodenamesError as exc:
        assert "\n" not in str(exc)
    else:
        assert blocks


# --- properties: values the commands parse ----------------------------------------------


CARD_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
NUMBER_TEXT = st.one_of(st.integers().map(str), CARD_TEXT,
                        st.sampled_from(["unlimited", "∞", "inf", " 2 ", "+1", "0", "1e3"]))
BOARDS = st.one_of(
    CARD_TEXT, st.just(BOARD), st.lists(CARD_TEXT, min_size=1, max_size=26).map(",".join),
    st.builds(lambda at, card: ",".join(card if i == at else c
                                        for i, c in enumerate(BOARD.split(","))),
              st.integers(0, 24), CARD_TEXT))  # a real board with one card replaced
KEYS = st.one_of(CARD_TEXT, st.just(KEY), st.text("RBNA ", max_size=27),
                 st.permutations(KEY).map("".join))


@FAST
@given(board=BOARDS, clue=CARD_TEXT, number=NUMBER_TEXT)
def test_guess_values_never_crash(board: str, clue: str, number: str) -> None:
    assert_clean(run("guess", f"--board={board}", f"--clue={clue}", f"--number={number}",
                     f"--guesser={GUESSER}"))


@FAST
@given(board=BOARDS, key=KEYS, team=st.sampled_from(["red", "blue", "Blue ", "green", ""]),
       revealed=st.one_of(st.just(""), CARD_TEXT, st.sampled_from(["bank", "bank,river"])),
       edition=st.sampled_from([None, "words", "pictures", "custom"]))
def test_clue_values_never_crash(board: str, key: str, team: str, revealed: str,
                                 edition: str | None) -> None:
    assert_clean(run("clue", f"--board={board}", f"--key={key}", f"--team={team}",
                     f"--revealed={revealed}", f"--spymaster={SPYMASTER}",
                     *([f"--edition={edition}"] if edition else [])))


@FAST
@given(clue=CARD_TEXT, board=BOARDS, revealed=st.one_of(st.just(""), CARD_TEXT),
       rules=st.sampled_from(["classic", "strict", "flexible"]))
def test_check_values_never_crash(clue: str, board: str, revealed: str, rules: str) -> None:
    result = run("check", f"--board={board}", f"--revealed={revealed}", f"--rules={rules}",
                 "--", clue)
    if result.err:
        assert_error(result)
    else:  # the verdict: exit 0 and "legal", or exit 1 and a line per broken rule
        verdicts = result.out.splitlines()
        if result.code == 0:
            assert verdicts == ["legal"], result
        else:
            assert verdicts and all(v.startswith("illegal [") for v in verdicts), result


@settings(max_examples=max(EXAMPLES // 3, 10), deadline=None)
@given(max_turns=st.integers(), seed=st.integers(-(2 ** 140), 2 ** 140),
       time_limit=st.floats() | st.none())
def test_numeric_options_never_crash(max_turns: int, seed: int,
                                     time_limit: float | None) -> None:
    assert_clean(run(*WATCH, f"--max-turns={max_turns}", f"--seed={seed}"))
    limit = [] if time_limit is None else [f"--time-limit={time_limit!r}"]
    assert_clean(run(*PLAY, f"--seed={seed}", *limit, stdin=QUIT))


# --- records that would write control sequences to a terminal (issue 29, second round,
# finding 4) --------------------------------------------------------------------------

# Sets the terminal's title, clears the screen and writes the clipboard (OSC 52).
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZWNobyBvd25lZA==\x07"


def edited_record(card: str | None = None, clue: str | None = None) -> str:
    """The real record under the 'basic' clue rules, with the first card and the first clue
    replaced and the checksum recomputed, as anyone can."""
    rows = [json.loads(line) for line in record_lines()[:-1]]
    rows[0]["rules"]["clue_rules"] = "basic"
    if card is not None:
        old = rows[0]["board"]["words"][0]
        rows[0]["board"]["words"][0] = card
        for row in rows[1:]:
            if row.get("word") == old:
                row["word"] = card
    if clue is not None:
        first = next(row for row in rows if row.get("event") == "clue")
        first["word"] = clue
    return seal([json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in rows])


@pytest.mark.parametrize(("card", "clue", "message"), [
    (f"{ESCAPES}gravity", None, "line 1 holds control or format characters (U+001B, U+0007)"),
    (None, f"{ESCAPES}gravity", "line 2 holds control or format characters (U+001B, U+0007)"),
    (None, "grav\u202eity", "line 2 holds control or format characters (U+202E)"),
    (None, "gra\U000e0041vity", "line 2: the clue holds format characters (U+E0041)"),
    ("grav\u00adity", None, "line 1 holds control or format characters (U+00AD)"),
    ("gravity!!!", None, "board: card 1 ('gravity!!!') is not a word"),
])
def test_replay_refuses_a_record_with_control_characters_in_one_line(
        tmp_path: Path, card: str | None, clue: str | None, message: str) -> None:
    path = tmp_path / "edited.jsonl"
    path.write_text(edited_record(card, clue), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "codenames_ai", "replay", str(path)],
                          capture_output=True, timeout=120)
    assert b"\x1b" not in done.stdout + done.stderr and b"\x07" not in done.stderr
    assert_error(Run(done.returncode, done.stdout.decode(), done.stderr.decode()),
                 f"{path}: {message}")
    assert done.stdout == b""


def test_the_unedited_record_under_basic_rules_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(edited_record(), encoding="utf-8")
    result = run("replay", str(path))
    assert result.code == 0, result.err
    assert "basic clue rules" in result.out


@pytest.mark.parametrize("rules", ["basic", *PRESETS])
@pytest.mark.parametrize("word", ["grav\x1bity", "gravity\x07", "grav\u202eity", "\ufeffgravity",
                                  "grav\u00adity", "\x9b2Jgravity", "gra\U000e0041vity"])
def test_a_clue_with_a_control_character_breaks_every_rule_set(rules: str, word: str) -> None:
    from codenames_ai.core import GameState, deal

    rule_set = WORDS.with_options(clue_rules=rules)
    state = GameState(rule_set, deal(rule_set, default_deck(), 3))
    violation = state.check_clue(Clue(word, 1))
    assert violation is not None and violation.rule == "characters", violation
    assert "control or format characters (U+" in violation.message


def test_a_clue_of_bytes_that_are_not_utf8_is_named_so() -> None:
    # A terminal or command line in another encoding: Python carries the bytes 0xFF 0xFE as
    # U+DCFF U+DCFE, which the rule called control characters that steer the screen.
    done = subprocess.run([sys.executable, "-m", "codenames_ai", "check", b"ab\xff\xfec",
                           "--board", "apple,bear"], capture_output=True, timeout=60)
    assert done.stdout.decode().strip() == (
        "illegal [characters]: a clue is a word made of letters; this one holds bytes that are "
        "not text in UTF-8 (0xFE, 0xFF): type it again as UTF-8 text")


def test_the_joiners_some_scripts_spell_with_are_no_control_characters() -> None:
    from codenames_ai.core import GameState, deal

    rule_set = WORDS.with_options(clue_rules="basic")
    board = deal(rule_set, default_deck(), 3)
    state = GameState(rule_set, board)
    assert state.check_clue(Clue("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", 1)) is None
    # ... but a joiner hidden in a board word does not make it another word.
    word = board.words[0].lower()
    hidden = word[:2] + "\u200d" + word[2:]
    violation = state.check_clue(Clue(hidden, 1))
    assert violation is not None and violation.rule == "board-word"


def test_the_renderer_writes_control_characters_from_data_visibly() -> None:
    """Defence in depth: whatever reaches the renderer (a record built in a program, a deck
    the record check does not know), it never writes a control character it was given."""
    from codenames_ai.core import ClueGiven, GameState, Team, deal
    from codenames_ai.core.board import Board
    from codenames_ai.render import describe_event, render_board, render_view

    rule_set = WORDS.with_options(clue_rules="basic")
    dealt = deal(rule_set, default_deck(), 3)
    board = Board((f"{ESCAPES}gravity", *dealt.words[1:]), dealt.key, dealt.starting_team)
    shown = "\n".join([
        render_view(GameState(rule_set, board).spymaster_view(Team.RED)),
        render_board(board.words, [None] * 25, 5, board.key, color=True),
        describe_event(ClueGiven(1, Team.RED, Clue(f"sun{ESCAPES}\u202e", 2))),
    ])
    ours = re.sub("\x1b\\[[0-9;]*m", "", shown)  # the renderer's own colours
    assert "\x1b" not in ours and "\x07" not in ours and "\u202e" not in ours
    assert "\\x1b]0;pwned\\x07" in shown and "\\u202e" in shown
    # The renderer's own colours are still there.
    assert "\x1b[0m" in shown
