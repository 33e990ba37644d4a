"""Files and streams a person gives ``codenames play`` and ``codenames replay`` that cannot
be used end in one line on stderr and exit code 1, never a traceback (issue 29, finding 9):
an endless file (``/dev/zero``) as a deck, a captions file or a record; standard input
closed; standard output on a full disk."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_ai.files import TooLarge, read_bounded

from ..cli_main import run_main

MAIN = [sys.executable, "-c", "from codenames_ai.cli.app import main; main()"]
ZERO = Path("/dev/zero")
FULL = Path("/dev/full")
# A device is refused unopened (issue 29, second round, finding 3); before, /dev/zero was
# read up to the bound and refused as too large.
DEVICE = "it is a device, not a regular file"


def assert_one_line(code: int, err: str, *fragments: str) -> None:
    assert code == 1, err
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def test_a_bounded_read_takes_the_limit_and_refuses_one_byte_more(tmp_path: Path) -> None:
    path = tmp_path / "ten.txt"
    path.write_bytes(b"0123456789")
    assert read_bounded(path, 10) == b"0123456789"
    with pytest.raises(TooLarge, match=r"^larger than 9 bytes, the most read from such a file$"):
        read_bounded(path, 9)
    assert isinstance(TooLarge(9), OSError)


@pytest.mark.skipif(not ZERO.exists(), reason="no /dev/zero here")
def test_an_endless_deck_captions_file_or_record_is_one_line(tmp_path: Path) -> None:
    done = run_main("replay", str(ZERO))
    assert_one_line(done.returncode, done.stderr, "/dev/zero: cannot read the record",
                    DEVICE)
    for command in ("play", "watch"):
        done = run_main(command, "--deck", str(ZERO))
        assert_one_line(done.returncode, done.stderr, "/dev/zero: cannot read the word list",
                        DEVICE)
    # An emoji deck file and a picture folder's captions, both endless.
    (tmp_path / "deck.tsv").symlink_to(ZERO)
    done = run_main("play", "--edition", "pictures", "--deck", str(tmp_path / "deck.tsv"))
    assert_one_line(done.returncode, done.stderr, DEVICE)
    for captions in ("captions.csv", "captions.json"):
        folder = tmp_path / captions.replace(".", "-")
        folder.mkdir()
        (folder / captions).symlink_to(ZERO)
        done = run_main("play", "--edition", "pictures", "--deck", str(folder))
        assert_one_line(done.returncode, done.stderr,
                        f"{folder / captions}: cannot read the captions ({DEVICE})")


def test_play_with_standard_input_closed_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(["bash", "-c", 'exec "$@" <&-', "bash", *MAIN, "play", "--seed",
                           "21"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert_one_line(done.returncode, done.stderr, "standard input is closed")
    assert done.stdout == ""


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")
def test_play_with_standard_output_on_a_full_disk_is_one_line(tmp_path: Path) -> None:
    with FULL.open("w") as full:
        done = subprocess.run([*MAIN, "play", "--seed", "21"], stdin=subprocess.DEVNULL,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              cwd=tmp_path, env={**os.environ, "COLUMNS": "100"})
    assert_one_line(done.returncode, done.stderr,
                    "error: cannot write the output (No space left on device)")


def test_a_reader_that_leaves_ends_play_quietly_with_no_blame(tmp_path: Path) -> None:
    """Issue 29, second round, finding 4: `codenames play | head` was 'error: red guesser:
    crashed: BrokenPipeError'. The game is shown up to the first prompt, the reader closes
    its end, then a move comes: exit 141 and nothing on stderr, as a Unix tool."""
    process = subprocess.Popen([*MAIN, "play", "--seed", "3"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                               env={**os.environ, "COLUMNS": "100",
                                    "XDG_DATA_HOME": str(tmp_path / "data")})
    assert process.stdin is not None and process.stdout is not None
    try:
        shown = b""
        while not shown.endswith(b"red guess> "):
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, shown[-300:]
            shown += chunk
        process.stdout.close()  # the reader leaves (`| head` is done)
        _, err = process.communicate(b"A1\nA2\nA3\nA4\n", timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert err == b"", err
    assert process.returncode == 141
    assert not (tmp_path / "data").exists()  # the game could not be shown: not saved


def test_watch_with_standard_output_closed_is_one_line(tmp_path: Path) -> None:
    """`codenames watch >&-` exited 0 having shown nothing."""
    done = subprocess.run(["bash", "-c", 'exec "$@" >&-', "bash", *MAIN, "watch"],
                          capture_output=False, stderr=subprocess.PIPE, text=True,
                          timeout=120, cwd=tmp_path)
    assert_one_line(done.returncode, done.stderr, "standard output is closed")


def test_save_and_record_replace_only_a_game_record(tmp_path: Path) -> None:
    """Issue 29, second round, finding 5: --save overwrote any file, notes included."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for args in (["play", "--save", str(notes)], ["watch", "--record", str(notes)]):
        done = run_main(*args, stdin="quit\ny\ny\n")
        option = args[1]
        assert_one_line(done.returncode, done.stderr, f"{notes} exists and is not a game "
                        f"record, so it is not replaced; give {option} a new file name")
        assert notes.read_text() == "my notes\n"
    game = tmp_path / "game.jsonl"
    assert run_main("watch", "--seed", "3", "--record", str(game)).returncode == 0
    done = run_main("play", "--seed", "5", "--save", str(game), stdin="quit\ny\ny\n")
    assert done.returncode == 0, done.stderr
    assert '"seed":5' in game.read_text().splitlines()[0]  # our own record: replaced
