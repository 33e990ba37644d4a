"""Files the toolkit locks or writes in place in a folder are never followed through a
symbolic link (issue 29, second round, finding 09): a results folder from someone else (a
tarball keeps symbolic links) whose ``tournament.lock`` linked to one of your files had that
file truncated and a process id written into it, and the run went on; a named pipe there
was "File or stream is not seekable". ``games.jsonl`` (cut at a torn line, then appended
to) and the web server's database lock had the same open. Each is now refused in one line,
and the file the link points to keeps its bytes. Real files, real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_ai.files import NotRegular, file_lock
from codenames_ai.web.store import GameStore, StoreError

pytestmark = pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW") or not hasattr(os, "mkfifo"),
                                reason="no O_NOFOLLOW or named pipes here")

MAIN = [sys.executable, "-c", "from codenames_ai.cli.app import main; main()"]
CHEAP = ["--spymasters", "random-spymaster-v1", "--guessers", "random-guesser-v1"]
PRECIOUS = b"precious line 1\nprecious line 2\n{\"game\":"  # ends torn, like a cut result
LINK = "it is a symbolic link, not a regular file"
PIPE = "it is a named pipe, not a regular file"


def codenames(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MAIN, *args], capture_output=True, text=True, timeout=120,
                          cwd=folder, stdin=subprocess.DEVNULL)


def assert_one_line(done: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    for part in parts:
        assert part in done.stderr, done.stderr


def precious(tmp_path: Path) -> Path:
    path = tmp_path / "precious.txt"
    path.write_bytes(PRECIOUS)
    return path


def test_the_lock_refuses_a_link_and_a_pipe_and_changes_nothing(tmp_path: Path) -> None:
    target = precious(tmp_path)
    (tmp_path / "link.lock").symlink_to(target)
    with pytest.raises(NotRegular, match=f"^{LINK}$"), file_lock(tmp_path / "link.lock"):
        pass
    assert target.read_bytes() == PRECIOUS
    os.mkfifo(tmp_path / "pipe.lock")
    with pytest.raises(NotRegular, match=f"^{PIPE}$"), file_lock(tmp_path / "pipe.lock"):
        pass
    with file_lock(tmp_path / "new.lock"):  # a missing lock file is still made
        assert (tmp_path / "new.lock").read_text() == f"{os.getpid()}\n"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("finished")
    done = codenames(folder, "tournament", *CHEAP, "--games", "2", "--seed", "1",
                     "--backend", "serial", "--out", "out", "--quiet")
    assert done.returncode == 0, done.stderr
    return folder / "out"


@pytest.mark.parametrize("name", ["tournament.lock", "games.jsonl"])
def test_a_link_in_a_results_folder_is_refused_and_its_target_kept(
        finished: Path, tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for file in finished.iterdir():
        (out / file.name).write_bytes(file.read_bytes())
    target = precious(tmp_path)
    (out / name).unlink(missing_ok=True)
    (out / name).symlink_to(target)
    done = codenames(tmp_path, "tournament", "--out", "out", "--games", "3", "--quiet")
    assert_one_line(done, str(Path("out") / name), LINK)
    assert target.read_bytes() == PRECIOUS
    assert (out / name).is_symlink()


def test_a_pipe_as_the_tournament_lock_is_named(finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for file in finished.iterdir():
        if file.name != "tournament.lock":
            (out / file.name).write_bytes(file.read_bytes())
    os.mkfifo(out / "tournament.lock")
    done = codenames(tmp_path, "tournament", "--out", "out", "--games", "3", "--quiet")
    assert_one_line(done, str(Path("out") / "tournament.lock"), PIPE)


def test_the_web_database_lock_is_never_followed(tmp_path: Path) -> None:
    target = precious(tmp_path)
    (tmp_path / "games.sqlite3.lock").symlink_to(target)
    with pytest.raises(StoreError, match="games.sqlite3.lock is a symbolic link"):
        GameStore(tmp_path / "games.sqlite3")
    assert target.read_bytes() == PRECIOUS
    (tmp_path / "games.sqlite3.lock").unlink()
    os.mkfifo(tmp_path / "games.sqlite3.lock")
    with pytest.raises(StoreError, match="games.sqlite3.lock is a named pipe"):
        GameStore(tmp_path / "games.sqlite3")
