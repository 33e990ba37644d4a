"""Files a person names are read only if they are regular files (issue 29, second round,
finding 3): a named pipe given to ``codenames replay``, ``codenames tournament`` (as the
spec, or in the results folder) or the norms build waited for ever for a writer, and a
device such as ``/dev/tty`` was "No such device or address". Each is now one line saying
what the path is, at once; the commands run as real processes with a timeout, so a wait
fails the test instead of hanging it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_ai.files import NotRegular, open_regular, read_bounded

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")

MAIN = [sys.executable, "-c", "from codenames_ai.cli.app import main; main()"]
CHEAP = ["--spymasters", "random-spymaster-v1", "--guessers", "random-guesser-v1"]
PIPE = "it is a named pipe, not a regular file"


def codenames(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MAIN, *args], capture_output=True, text=True, timeout=120,
                          cwd=folder, stdin=subprocess.DEVNULL)


def assert_one_line(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr, done.stderr


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_the_bounded_reader_refuses_a_fifo_a_device_and_a_folder(
        tmp_path: Path, fifo: Path) -> None:
    for path, kind in ((fifo, "a named pipe"), (Path(os.devnull), "a device"),
                       (tmp_path, "a folder")):
        with pytest.raises(NotRegular, match=f"^it is {kind}, not a regular file$"):
            read_bounded(path, 10)
    (tmp_path / "file").write_bytes(b"text")
    with open_regular(tmp_path / "file") as handle:
        assert handle.read() == b"text"


@pytest.mark.parametrize("args", [
    ["replay", "pipe"], ["tournament", "pipe", "--out", "out"], ["play", "--deck", "pipe"],
    ["models", "build", "norms", "--norms", "pipe", "--name", "mine", "--cache-dir", "cache"],
])
def test_a_named_pipe_is_refused_at_once(tmp_path: Path, fifo: Path, args: list[str]) -> None:
    done = codenames(tmp_path, *args)
    assert_one_line(done, "pipe: cannot read")
    assert_one_line(done, PIPE)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["games.jsonl", "tournament.json"])
def test_a_named_pipe_in_a_results_folder_is_refused(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    done = codenames(tmp_path, "tournament", *CHEAP, "--games", "2", "--backend", "serial",
                     "--out", "out", "--quiet")
    assert done.returncode == 0, done.stderr
    (out / name).unlink()
    os.mkfifo(out / name)
    done = codenames(tmp_path, "report", "out")
    assert_one_line(done, f"{Path('out') / name}")
    assert_one_line(done, PIPE)
    assert_one_line(codenames(tmp_path, "tournament", "--out", "out", "--quiet"), PIPE)


@pytest.mark.skipif(shutil.which("setsid") is None, reason="no setsid here")
def test_a_device_is_named_as_one(tmp_path: Path) -> None:
    # setsid: no controlling terminal, where opening /dev/tty said "No such device".
    done = subprocess.run(["setsid", *MAIN, "replay", "/dev/tty"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert_one_line(done, "/dev/tty: cannot read the record (it is a device, not a regular "
                          "file)")


def test_a_regular_file_over_the_bound_is_still_too_large(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        handle.truncate((64 << 20) + 1)  # sparse: no disk used
    assert_one_line(codenames(tmp_path, "replay", "big.jsonl"),
                    "big.jsonl: cannot read the record (larger than 64 MB")
