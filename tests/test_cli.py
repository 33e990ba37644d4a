"""The command line, through typer's runner, through ``main()`` (the real entry point that
turns our errors into one line) in this process, and as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codenames_ai import __version__
from codenames_ai.cli.app import app
from codenames_ai.core import GameRecord, replay
from tests.cli_main import run_main

runner = CliRunner()
in_process = run_main  # the entry point in this process


def codenames(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the installed console entry point in a fresh process."""
    return subprocess.run([sys.executable, "-c", "from codenames_ai.cli.app import main; main()",
                           *args], capture_output=True, text=True, timeout=120)


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_watch_prints_the_board_every_turn_and_the_outcome() -> None:
    result = runner.invoke(app, ["watch", "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "Words edition, 5x5" in result.output
    assert "Turn 1 · " in result.output and " spymaster: " in result.output
    assert result.output.count("    A ") >= 3  # the board, again after each turn
    assert " wins on turn " in result.output


def test_watch_explain_gives_each_touch_its_reason_under_it() -> None:
    result = runner.invoke(app, ["watch", "--seed", "3", "--explain"])
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n")
    touch = lines.index("  blue touches 'coat': blue agent")
    assert lines[touch + 1].startswith("    why: for 'suit 2', its closest card: sure; the next "
                                       "closest, SHOE, was close too. COAT for 'suit 2' ")
    touched = [i for i, line in enumerate(lines) if " touches '" in line]
    assert all(lines[i + 1].startswith("    why: ") for i in touched)


@pytest.mark.parametrize(("args", "ending"), [
    (["--edition", "pictures"], "Red wins on turn 6: all of its agents are covered."),
    (["--variant", "coop"],
     "Blue wins on turn 11: all of its agents are covered. Co-op score 3: Solid."),
    (["--variant", "three-player", "--guess-limit", "strict"],
     "Blue wins on turn 9: all of its agents are covered."),
    (["--edition", "custom", "--rows", "4", "--cols", "4", "--first-agents", "5",
      "--second-agents", "5", "--bystanders", "4", "--assassins", "1"],
     "Red wins on turn 4: all of its agents are covered."),
])
def test_watch_editions_and_variants(args: list[str], ending: str) -> None:
    result = runner.invoke(app, ["watch", "--seed", "3", *args])
    assert result.exit_code == 0, result.output
    assert ending in result.output.splitlines(), result.output  # the seed's one ending


def test_watch_record_twice_gives_identical_files_and_replays(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert runner.invoke(app, ["watch", "--seed", "1", "--record", str(first)]).exit_code == 0
    assert runner.invoke(app, ["watch", "--seed", "1", "--record", str(second)]).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    record = GameRecord.from_jsonl(first.read_text())
    assert replay(record).outcome == record.outcome
    shown = runner.invoke(app, ["replay", str(first)])
    assert shown.exit_code == 0 and "wins on turn" in shown.output


def test_bad_input_is_one_clear_line_and_exit_1(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("one\ntwo\nthree\n")
    dup = tmp_path / "dup.txt"
    dup.write_text("\n".join([f"w{i}" for i in range(30)] + ["w1"]))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"kind": "header"\n')
    cases = {
        ("watch", "--deck", str(small)): "has 3 cards but a board needs 25",
        ("watch", "--deck", str(dup)): "'w1' appears twice",
        ("watch", "--deck", str(tmp_path / "missing.txt")): "no such word list",
        ("watch", "--edition", "custom", "--rows", "3", "--cols", "3"): "3x3 grid has 9 cards",
        ("watch", "--bystanders", "3"): "--bystanders need --edition custom",
        ("replay", str(broken)): "line 1 is not valid JSON",
        ("replay", str(tmp_path / "none.jsonl")): "cannot read the record",
    }
    for args, message in cases.items():
        result = in_process(*args)
        assert result.returncode == 1, (args, result.stderr)
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert result.stderr.count("\n") == 1


def test_errors_of_a_real_process_are_the_same_one_line(tmp_path: Path) -> None:
    """A few of the errors above from the console entry point in fresh processes (run side
    by side): the same line on the real stderr, exit code 1."""
    small = tmp_path / "small.txt"
    small.write_text("one\ntwo\nthree\n")
    cases = [("watch", "--deck", str(small)),
             ("models", "info", "ghost", "--cache-dir", str(tmp_path / "cache")),
             ("guess", "--board", "dog,cat", "--clue", "pet", "--number", "two")]
    with ThreadPoolExecutor(len(cases)) as pool:
        results = list(pool.map(lambda args: codenames(*args), cases))
    for args, result in zip(cases, results, strict=True):
        assert (result.returncode, result.stderr) == (1, in_process(*args).stderr), args
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, args


def test_unknown_edition_is_a_usage_error_without_traceback() -> None:
    result = codenames("watch", "--edition", "duet")
    assert result.returncode == 2
    assert "'duet' is not one of" in result.stderr and "Traceback" not in result.stderr


def test_check_says_legal_or_names_every_broken_rule() -> None:
    legal = runner.invoke(app, ["check", "ocean", "--board", "WHALE,ship"])
    assert legal.exit_code == 0 and legal.output.strip() == "legal"
    night = runner.invoke(app, ["check", "night", "--board", "Knight,apple"])
    assert night.exit_code == 1
    assert "illegal [homophone]: 'night' sounds like KNIGHT on the board" in night.output
    ice = runner.invoke(app, ["check", "ice", "--board", "ice cream,APPLE", "--json"])
    assert ice.exit_code == 1
    assert '"rule": "compound-part"' in ice.output and '"legal": false' in ice.output
    covered = runner.invoke(app, ["check", "knives", "--board", "KNIFE,dog",
                                  "--revealed", "knife"])
    assert covered.exit_code == 0
    # A revealed card not on the board was ignored: the verdict was for another board.
    typo = runner.invoke(app, ["check", "ocean", "--board", "KNIFE,dog", "--revealed", "knif"])
    assert typo.exit_code == 1 and "--revealed names cards that are not on the board: " \
                                   "'knif'" in str(typo.exception)
    strict = runner.invoke(app, ["check", "hat", "--board", "cat", "--rules", "strict"])
    assert strict.exit_code == 1 and "[rhyme]" in strict.output
    assert runner.invoke(app, ["check", "hat", "--board", "cat"]).exit_code == 0


def test_models_add_list_info_remove(tmp_path: Path) -> None:
    vectors = tmp_path / "glove.txt"
    vectors.write_text("ocean 0.1 0.2 0.3\nsea 0.1 0.2 0.31\npiano 0.9 -0.2 0.1\n")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    added = runner.invoke(app, ["models", "add", "mine", str(vectors), *cache])
    assert added.exit_code == 0, added.output
    assert "added mine: 3 words x 3 dimensions" in added.output
    listed = runner.invoke(app, ["models", "list", *cache])
    assert listed.exit_code == 0 and "mine" in listed.output
    assert "glove-6b-50d" in listed.output and "converted on first use" in listed.output
    shown = runner.invoke(app, ["models", "info", "mine", *cache])
    assert "dimensions:  3" in shown.output and "first words: ocean, sea, piano" in shown.output
    assert runner.invoke(app, ["models", "remove", "mine", *cache]).exit_code == 0
    assert "mine" not in runner.invoke(app, ["models", "list", *cache]).output


def test_models_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("ocean 0.1 0.2 0.3\nsea 0.1\n")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    cases = {
        ("models", "add", "mine", str(ragged), *cache): "ragged.txt: line 2 has 1 values",
        ("models", "add", "mine", str(tmp_path / "nope.bin"), *cache): "no such file",
        ("models", "add", "Mine!", str(ragged), *cache): "must be lower-case",
        ("models", "info", "ghost", *cache): "no model named 'ghost'",
        ("models", "add", "mine", str(ragged), "--format", "npz", *cache): "unknown vector format",
    }
    for args, message in cases.items():
        result = in_process(*args)
        assert result.returncode == 1, (args, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr, result.stderr



@pytest.mark.parametrize("kind", ["a named pipe", "a folder", "a device"])
def test_models_add_names_what_a_path_that_is_not_a_file_is(tmp_path: Path, kind: str
                                                             ) -> None:
    """A path that exists but is not a regular file was "no such file"; the message says
    what it is, and a named pipe is never waited on nor a device read."""
    path = {"a named pipe": tmp_path / "fifo", "a folder": tmp_path / "folder",
            "a device": Path("/dev/zero")}[kind]
    if kind == "a named pipe":
        os.mkfifo(path)
    elif kind == "a folder":
        path.mkdir()
    result = in_process("models", "add", "mine", str(path), "--cache-dir", str(tmp_path / "c"))
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == (f"error: {path}: it is {kind}, not a regular file; give "
                                     "the word-vector file itself"), result.stderr


BOARD = ("bank,river,piano,guitar,ocean,whale,apple,dog,cat,school,church,office,prince,sun,"
         "tissue,moon,star,knife,fork,bridge,car,train,ship,plane,horse")
KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"


def test_clue_gives_a_legal_clue_with_its_reasons() -> None:
    result = runner.invoke(app, ["clue", "--board", BOARD, "--key", KEY, "--team", "red",
                                 "--explain", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["explanation"]["targets"] and payload["explanation"]["danger"]
    cards = BOARD.split(",")
    red = {c for c, k in zip(cards, KEY, strict=True) if k == "R"}
    assert {t["word"] for t in payload["explanation"]["targets"]} <= red
    # The number is a JSON number (only 'unlimited' is a string).
    assert payload["number"] == len(payload["explanation"]["targets"])
    from codenames_ai.legality.check import check_clue_word

    assert check_clue_word(payload["clue"], cards, "classic") == []
    blue = ["clue", "--board", BOARD, "--key", KEY, "--team", "blue"]
    aims = {t["word"] for t in json.loads(runner.invoke(
        app, [*blue, "--explain", "--json"]).output)["explanation"]["targets"]}
    assert "sun" in aims  # with every card face up, blue's best clue is for SUN (glow: 3)
    covered = runner.invoke(app, [*blue, "--revealed", "sun,star"])
    assert covered.exit_code == 0, covered.output
    explained = runner.invoke(app, [*blue, "--revealed", "sun,star", "--explain", "--json"])
    payload = json.loads(explained.output)
    # The text answer is the clue the agent explains, aimed at blue cards still face down,
    # and legal against the cards left face up.
    assert covered.output == f"{payload['clue']} {payload['number']}\n"
    aims = {t["word"] for t in payload["explanation"]["targets"]}
    blue_left = {c for c, k in zip(cards, KEY, strict=True) if k == "B"} - {"sun", "star"}
    assert aims and aims <= blue_left and payload["number"] == len(aims)
    face_up = [c for c in cards if c not in {"sun", "star"}]
    assert check_clue_word(payload["clue"], face_up, "classic") == []


def test_guess_lists_guesses_in_order_and_where_it_stops() -> None:
    result = runner.invoke(app, ["guess", "--board", BOARD, "--clue", "music", "--number", "2",
                                 "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload["guesses"][:2]) == {"piano", "guitar"}
    assert payload["stop"]
    assert (payload["clue"], payload["number"]) == ("music", 2)
    unlimited = runner.invoke(app, ["guess", "--board", BOARD, "--clue", "music", "--number",
                                    "unlimited", "--json"])
    assert json.loads(unlimited.output)["number"] == "unlimited"


def test_guess_holds_a_clue_to_the_games_clue_rules() -> None:
    """A clue a game would refuse (not a word, a proper name in either case, a control
    character) is refused by ``guess`` too, naming the rule and the option; ``--rules`` picks
    the rule set as ``check`` does."""
    cases = {("zzqxj",): "--clue breaks the [not-a-word] rule",
             ("Rapunzel",): "--clue breaks the [proper-name] rule",
             ("rapunzel",): "--clue breaks the [proper-name] rule",
             ("mu\u200bsic",): "--clue breaks the [characters] rule",
             ("zzqxj", "--rules", "flexible"): "--clue breaks the [not-a-word] rule"}
    for (word, *options), message in cases.items():
        result = run_main("guess", "--board", BOARD, "--clue", word, "--number", "2", *options)
        assert (result.returncode, result.stdout) == (1, ""), (word, result)
        assert message in result.stderr, (word, result.stderr)
    too_many = run_main("guess", "--board", "dog,cat", "--clue", "pet", "--number", "3")
    assert "--number breaks the [number-range] rule" in too_many.stderr, too_many.stderr
    wide = run_main("guess", "--board", BOARD, "--clue", "\uff2d\uff35\uff33\uff29\uff23",
                    "--number", "2", "--json")
    assert wide.returncode == 0, wide.stderr
    assert set(json.loads(wide.stdout)["guesses"][:2]) == {"piano", "guitar"}


def test_clue_and_guess_bad_input() -> None:
    cases = {
        ("clue", "--board", "a,b,c", "--key", "RB", "--team", "red"): "--key has 2 letters",
        ("clue", "--board", "a,b,c", "--key", "RBX", "--team", "red"): "letters X",
        ("clue", "--board", "a,b,c", "--key", "RBN", "--team", "green"): "red or blue",
        ("clue", "--board", "dog,cat,sun", "--key", "RBN", "--team", "red",
         "--revealed", "dog", "--edition", "custom"): "red has no agents left",
        ("clue", "--board", "dog,qwzxkk,sun", "--key", "RBN", "--team", "red",
         "--edition", "custom"): "qwzxkk",
        ("clue", "--board", "dog,cat,sun", "--key", "RBN", "--team", "red",
         "--edition", "custom", "--clue-rules", "strictt"): "clue_rules 'strictt' is not one of",
        ("guess", "--board", "dog,cat", "--clue", "pet", "--number", "two"): "not a whole",
        ("clue", "--board", BOARD, "--key", KEY, "--team", "red",
         "--spymaster", "genius-v9"): "unknown agent 'genius-v9'",
    }
    for args, message in cases.items():
        result = in_process(*args)
        assert result.returncode == 1, (args, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr, result.stderr


CUSTOM_BOARD = ("burger,fridge,scissors,knife,ocean,piano,dragon,bank,apple,winter,moon,glue,"
                "river,doctor,cake,laptop,sofa,bucket,candle,garlic,hammer,pillow,rocket,tiger,"
                "violin")


def test_the_default_spymaster_clues_a_custom_deck_and_says_why() -> None:
    result = runner.invoke(app, ["clue", "--board", CUSTOM_BOARD, "--key",
                                 "RRRRRRRRRBBBBBBBBNNNNNNNA", "--team", "red", "--explain"])
    assert result.exit_code == 0, result.output
    word, number = result.output.splitlines()[0].split()
    assert word.isalpha() and 1 <= int(number) <= 4
    assert "linked to" in result.output
    # The plain words about the feared card follow the margin the detail shows.
    payload = json.loads(runner.invoke(app, ["clue", "--board", CUSTOM_BOARD, "--key",
                                             "RRRRRRRRRBBBBBBBBNNNNNNNA", "--team", "red",
                                             "--explain", "--json"]).output)["explanation"]
    danger = payload["danger"]["word"].upper()
    said = f"kept away from {danger}" if payload["margin"] > 0 else f"a risk: {danger}"
    assert said in payload["plain"] and said in result.output


def test_a_card_no_mind_reads_is_one_clear_line() -> None:
    board = CUSTOM_BOARD.replace("burger", "qzxvbnm")
    result = in_process("clue", "--board", board, "--key", "RRRRRRRRRBBBBBBBBNNNNNNNA",
                        "--team", "red")
    assert result.returncode == 1
    assert "qzxvbnm" in result.stderr and len(result.stderr.strip().splitlines()) == 1
