"""Make docs/web-game.png, the README's picture of the end of a game in the browser, again:

    python docs/web_game_png.py            # the seed below; --find searches for another

The real ``codenames serve`` runs on a free port and its own database, its one secret seed
replaced by ``SEED`` (as tests/web/serve_red_first.py does: only this script, no part of the
package, does so). A person plays red's guesser against the normal level through the HTTP
API, as the page would: for each clue, the cards the default AI guesser touches for it (a
stand-in for a careful person; it sees what the page shows, never the key). Headless
Chromium (Debian's, driven by Playwright as the browser tests drive it) then opens the game's
page and photographs it whole.

``--find`` plays the seeds from 0 in memory (the same ``WebGame`` the server plays, so the
same moves) and prints the first whose game the person wins with a clue for two and a clue
for three in its history: the picture shows a win and clues for more than one card.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

SEED = 1  # found by --find: a win, with clues for two and three
HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
WIDTH = 1100  # the page's column is narrower: a wider window adds only margins
SETTINGS = {"role": "guess"}  # every other setting the start page's default


def person_moves(seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The person's moves in the game dealt from ``seed`` (in memory, as the server plays
    it), and the game's last view."""
    from codenames_ai.agents.registry import DEFAULT_GUESSER, make_agent
    from codenames_ai.core import Role, Team
    from codenames_ai.web.games import GameConfig, WebGame

    game = WebGame.solo(GameConfig.from_dict({**SETTINGS, "seed": seed}))
    game.ai_moves()
    person = make_agent(DEFAULT_GUESSER, role=Role.GUESSER)
    moves: list[dict[str, Any]] = []
    while not game.state.is_over:
        move = person.guess(game.state.guesser_view(Team.RED)).to_dict()
        moves.append(move)
        game.person_move(move)
        game.ai_moves()
    return moves, game.view(game.person_seat)


def wanted(view: dict[str, Any]) -> bool:
    """Won by the person, with a clue for two and a clue for three."""
    numbers = {entry.get("number") for entry in view["log"] if entry["event"] == "clue"}
    return view["winner"] == "red" and {2, 3} <= numbers


def find(first: int, count: int) -> int:
    for seed in range(first, first + count):
        moves, view = person_moves(seed)
        numbers = sorted({e.get("number") for e in view["log"] if e["event"] == "clue"},
                         key=str)
        print(f"seed {seed}: {view['winner']} wins on turn {view['turn']}, clues for "
              f"{numbers}", flush=True)
        if wanted(view):
            return seed
    raise SystemExit(f"no seed in {first}..{first + count - 1} gives a win with clues for "
                     "two and three")


def serve(seed: int) -> None:
    """``codenames serve`` (the arguments after ``--serve SEED``), dealing from ``seed``."""
    from codenames_ai.core import SEED_BITS
    from codenames_ai.core import board as core_board

    def randbits(bits: int) -> int:
        assert bits == SEED_BITS, bits
        return seed

    core_board.secrets = SimpleNamespace(  # type: ignore[assignment,attr-defined]
        randbits=randbits)
    sys.argv = ["codenames", *sys.argv[3:]]
    runpy.run_module("codenames_ai", run_name="__main__", alter_sys=True)


def call(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        f"{base}{path}", method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def photograph(seed: int, out: Path) -> dict[str, Any]:
    """Play the seed's game through a real server and photograph its end page to ``out``."""
    from playwright.sync_api import sync_playwright

    moves, expected = person_moves(seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(seed), "serve", "--port", str(port),
             "--db", str(Path(folder) / "games.sqlite3")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=os.environ.copy())
        try:
            deadline = time.monotonic() + 120
            while True:  # until the API answers
                try:
                    call(base, "/api/options")
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            created = call(base, "/api/games", SETTINGS)
            view: dict[str, Any] = created["view"]
            for move in moves:
                view = call(base, f"/api/games/{created['id']}/moves",
                            {**move, "expect": view["expect"]})
            assert view["log"] == expected["log"] and wanted(view), "the server played " \
                "another game than the one in memory"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                     args=FLAGS, headless=True)
                page = browser.new_page(viewport={"width": WIDTH, "height": 800})
                page.goto(f"{base}/game/{created['id']}")
                page.wait_for_selector("body[data-state=over]", state="attached")
                page.wait_for_selector("#history .turn")
                page.screenshot(path=str(out), full_page=True)
                browser.close()
        finally:
            server.terminate()
            server.wait(30)
    return view


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--find", action="store_true",
                        help="search the seeds from --seed for one to photograph")
    parser.add_argument("--out", type=Path, default=HERE / "web-game.png")
    args = parser.parse_args()
    seed = find(args.seed, 200) if args.find else args.seed
    view = photograph(seed, args.out)
    clues = [e["text"] for e in view["log"] if e["event"] == "clue"]
    print(f"seed {seed}: {view['outcome']} ({len(clues)} clues: {'; '.join(clues)}) -> "
          f"{args.out}")


if __name__ == "__main__":
    main()
