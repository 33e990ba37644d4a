"""``codenames serve`` as the browser tests run it: a real process on a free port and its own
database, which a test may kill (as a crash) and start again on the same port and file. Its
deals come from known seeds in which red starts (serve_red_first.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from ..waiting import until

RED_FIRST = Path(__file__).with_name("serve_red_first.py")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, database: Path, *args: str, sigint_ignored: bool = False) -> None:
        self.args = args  # more of serve's options
        # Started as a background job of a shell without job control is: Ctrl-C ignored.
        self.sigint_ignored = sigint_ignored
        self.port = free_port()
        self.database = database
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[str] | None = None
        self.announced = ""  # the first line serve printed (its address)

    def start(self) -> None:
        """Start serving and wait until the API answers (60 s at most)."""
        self.process = subprocess.Popen(
            [sys.executable, str(RED_FIRST), "serve", "--port", str(self.port),
             "--db", str(self.database), *self.args], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "SERVE_SIGINT": "ignore" if self.sigint_ignored else ""})
        process = self.process

        def answers() -> bool:
            try:
                urllib.request.urlopen(f"{self.base}/api/options", timeout=2).read()
                return True
            except OSError:
                if process.poll() is not None:
                    output = process.stdout.read() if process.stdout else ""
                    raise RuntimeError(f"the server did not start: {output}") from None
                return False

        try:
            until(answers, "the server to answer", timeout=60)
        except AssertionError:
            process.kill()
            raise
        assert self.process.stdout is not None
        self.announced = self.process.stdout.readline()

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(10)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # no goodbye: as a crash or a pulled plug
        self.process.wait(10)
