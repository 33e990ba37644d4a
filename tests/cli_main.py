"""``codenames ARGS`` through the CLI's own entry point in this process: a second faster than
a new process, and the models stay loaded. Real processes stay where the process itself is
under test (a pipe, a terminal, kill -9, the one-line errors of a real exit)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path


def run_main(*args: str, stdin: str = "", cwd: Path | None = None
             ) -> subprocess.CompletedProcess[str]:
    """Exit code, standard output and error of ``main()`` with ``args`` (and ``stdin``,
    in the folder ``cwd``). An exception ``main()`` lets through (a traceback for a user)
    fails the test."""
    from codenames_ai.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdin, os.getcwd()
    sys.argv, sys.stdin = ["codenames", *args], io.StringIO(stdin)
    code: object = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code or 0
    finally:
        sys.argv, sys.stdin = saved[0], saved[1]
        os.chdir(saved[2])
    assert isinstance(code, int)
    return subprocess.CompletedProcess(["codenames", *args], code, out.getvalue(),
                                       err.getvalue())
