"""docs/reading/reader.py, run as readers run it: games against a real spymaster, played
both by direct calls and through a server, which must print the same.

A direct call loads the clue rules' language data (a few seconds), so calls that do not
depend on each other run side by side, and each direct call runs alongside the same call
through the server. The default run plays a game through the server with one direct call
at the end; the game played both ways, call by call, is behind the ``slow`` marker.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from codenames_ai.core import WORDS, Identity, Team, deal
from codenames_ai.decks import read_word_list

from .waiting import until

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docs" / "reading" / "reader.py"
DECK = ROOT / "benchmarks" / "heldout_nouns.txt"
SPYMASTER = "glove-gap-spymaster-v1"
SOCKET = ".server.sock"

Result = subprocess.CompletedProcess[str]
Servers = list[subprocess.Popen[str]]


def run(folder: Path, *args: str) -> Result:
    return subprocess.run([sys.executable, str(SCRIPT), "--dir", str(folder), *args],
                          capture_output=True, text=True, timeout=120, check=False)


def shown(result: Result) -> str:
    """What a reader sees, checked for anything that would give the spymaster away."""
    text = result.stdout + result.stderr
    assert SPYMASTER not in text and "seed" not in text.lower(), text
    return text


def in_process(folder: Path, *args: str) -> Result:
    """The script's ``main()`` in this process, freshly imported (it keeps a game in
    memory)."""
    spec = importlib.util.spec_from_file_location("reader_in_process", SCRIPT)
    assert spec is not None and spec.loader is not None
    reader = importlib.util.module_from_spec(spec)
    out, err = io.StringIO(), io.StringIO()
    sys.modules[spec.name] = reader  # for its dataclasses; only while it runs
    try:
        spec.loader.exec_module(reader)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = reader.main(["--dir", str(folder), *args])
    finally:
        del sys.modules[spec.name]
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def together(*calls: tuple[Path, tuple[str, ...]]) -> list[Result]:
    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(lambda call: run(call[0], *call[1]), calls))


def passed(result: Result) -> str:
    assert result.returncode == 0, result.stderr
    return shown(result)


def refused(result: Result) -> str:
    """A bad input: one line, exit code 1, no traceback."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert len(shown(result).strip().splitlines()) == 1, shown(result)
    return result.stderr


def same(direct: Result, served: Result) -> Result:
    assert (served.returncode, served.stdout, served.stderr) == (
        direct.returncode, direct.stdout, direct.stderr)
    return direct


def snapshot(folder: Path) -> Path:
    """A copy of a direct reading, to try bad inputs on while the game goes on in it."""
    copy = folder.with_name(f"{folder.name}-{len(list(folder.parent.iterdir()))}")
    shutil.copytree(folder, copy)
    return copy


@pytest.fixture
def servers() -> Iterator[Servers]:
    """The servers a test starts, killed at its end if they still run."""
    started: Servers = []
    yield started
    for server in started:
        if server.poll() is None:
            server.kill()
            server.wait()


def serve(folder: Path, servers: Servers) -> subprocess.Popen[str]:
    """A server for folder, once it listens (callers then wait while it loads the game)."""
    (folder / SOCKET).unlink(missing_ok=True)  # left by a killed one
    server = subprocess.Popen([sys.executable, str(SCRIPT), "--dir", str(folder), "serve"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    servers.append(server)

    def listening() -> bool:
        assert server.poll() is None, server.stderr.read() if server.stderr else ""
        return (folder / SOCKET).exists()

    until(listening, "the server to listen")
    return server


def ask(folder: Path, request: bytes) -> dict[str, object]:
    """A raw request to the server for folder, and its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(str(folder / SOCKET))
        client.sendall(request)
        answer: dict[str, object] = json.loads(b"".join(iter(lambda: client.recv(65536), b"")))
    return answer


def cards(folder: Path, game: int = 0) -> tuple[list[str], str]:
    """The starting team's agents and the assassin of a scheduled game. The test is the
    experimenter: it may read the schedule to know the key."""
    board = json.loads((folder / ".schedule.json").read_text())["games"][game]["board"]
    dealt = deal(WORDS, read_word_list(DECK), board)
    own = [w for w, k in zip(dealt.words, dealt.key, strict=True)
           if k is dealt.starting_team.agent]
    return own, dealt.words[dealt.key.index(Identity.ASSASSIN)]


def test_a_blind_game_through_the_server(tmp_path: Path, servers: Servers) -> None:
    """Every command through one server, then direct calls that replay the files it wrote
    and must print what the server printed."""
    folder = tmp_path / "reading"
    assert "setup" in refused(run(folder, "show"))
    passed(run(folder, "setup", "--spymasters", SPYMASTER, "--games-per", "2", "--seed", "3"))
    own, assassin = cards(folder)
    before = snapshot(folder)
    server = serve(folder, servers)
    # A direct call loads the game while the server loads it, and prints the same.
    table = passed(same(*together((before, ("show",)), (folder, ("show",)))))
    assert "Game 1 of 2, turn 1." in table and "Clue:" in table
    assert "no card 'notacard'" in refused(run(folder, "touch", "notacard"))
    assert "invalid choice" in refused(run(folder, "rate", "great"))
    assert "a server already runs" in refused(run(folder, "serve"))
    touched = passed(run(folder, "touch", own[0]))
    assert touched.startswith(f"{own[0]}: one of your agents. The turn")
    assert "the turn is over" in passed(run(folder, "stop"))
    assert "Clue:" in passed(run(folder, "rate", "clear", "saw", "it", "at", "once"))
    assert "Lost: you touched the assassin." in passed(run(folder, "touch", assassin))
    assert "Next: next (game 2 of 2)." in passed(run(folder, "rate", "baffling"))
    assert "already rated" in refused(run(folder, "rate", "stretch"))
    assert "game is over" in refused(run(folder, "touch", own[1]))
    assert "already turned over" in refused(run(folder, "touch", own[0]))

    second_game = passed(run(folder, "next"))
    assert second_game.startswith("Game 2 of 2, turn 1.") and "Clue:" in second_game
    for request in (b"not json\n", b'{"argv": ["setup"]}\n', b"[]\n", b"x" * 100_000):
        answer = ask(folder, request)
        assert answer["code"] == 1 and str(answer["err"]).count("\n") == 1, answer
    assert passed(run(folder, "stop-server")) == "Server stopped.\n"
    assert server.wait(10) == 0 and not (folder / SOCKET).exists()
    assert "no server runs" in refused(run(folder, "stop-server"))

    # Direct calls replay the files the server wrote (in this process, where the models may
    # be loaded already; the slow test runs each in a process of its own).
    summary = in_process(folder, "summary", "--json")
    assert summary.returncode == 0, summary.stderr  # names the spymasters: the experimenter's
    row = json.loads(summary.stdout)["spymasters"][SPYMASTER]
    assert (row["games"], row["wins"], row["assassin_losses"]) == (1, 0, 1)
    assert row["verdicts"] == {"clear": 1, "stretch": 0, "baffling": 1}
    assert passed(in_process(folder, "show")) == second_game


@pytest.mark.slow
def test_one_blind_game(tmp_path: Path, servers: Servers) -> None:
    direct, served = tmp_path / "direct", tmp_path / "served"
    assert "setup" in refused(run(direct, "show"))
    passed(run(direct, "setup", "--spymasters", SPYMASTER, "--games-per", "2", "--seed", "3"))
    shutil.copytree(direct, served)  # the same schedule: the same games
    server = serve(served, servers)

    def both(*args: str) -> Result:
        """The same call direct and through the server: the same output, code and files."""
        result = same(*together((direct, args), (served, args)))
        assert (served / "actions.json").read_text() == (direct / "actions.json").read_text()
        return result

    own, assassin = cards(direct)

    before = snapshot(direct)
    table, unknown, verdict, *through_server, second = together(
        (before, ("show",)), (before, ("touch", "notacard")), (before, ("rate", "great")),
        (served, ("show",)), (served, ("touch", "notacard")), (served, ("rate", "great")),
        (served, ("serve",)))
    for alone, through in zip((table, unknown, verdict), through_server, strict=True):
        same(alone, through)
    assert "Game 1 of 2, turn 1." in passed(table) and "Clue:" in passed(table)
    assert "no card 'notacard'" in refused(unknown)
    assert "invalid choice" in refused(verdict)
    assert "a server already runs" in refused(second)

    assert passed(both("touch", own[0])).startswith(f"{own[0]}: one of your agents. The turn")
    server.kill()  # SIGKILL: the game is in the files, and a direct call goes on with it
    server.wait()
    assert "the turn is over" in passed(both("stop"))
    server = serve(served, servers)  # a new server replays the game
    assert "Clue:" in passed(both("rate", "clear", "saw", "it", "at", "once"))
    assert "Lost: you touched the assassin." in passed(both("touch", assassin))
    assert "Next: next (game 2 of 2)." in passed(both("rate", "baffling"))

    # Replayed by a direct call, these cost seconds each; the same main answers them.
    twice, over, again, alone = together(
        (served, ("rate", "stretch")), (served, ("touch", own[1])),
        (served, ("touch", own[0])), (direct, ("touch", own[0])))
    assert "already rated" in refused(twice)
    assert "game is over" in refused(over)
    assert "already turned over" in refused(same(alone, again))

    finished = snapshot(direct)
    summary, *following = together((finished, ("summary", "--json")),
                                   (direct, ("next",)), (served, ("next",)))
    assert summary.returncode == 0, summary.stderr  # names the spymasters: the experimenter's
    data = json.loads(summary.stdout)
    row = data["spymasters"][SPYMASTER]
    assert (row["games"], row["wins"], row["assassin_losses"]) == (1, 0, 1)
    assert row["verdicts"] == {"clear": 1, "stretch": 0, "baffling": 1}
    assert data["clues"][0]["note"] == "saw it at once"
    second_game = passed(same(*following))
    assert second_game.startswith("Game 2 of 2, turn 1.") and "Clue:" in second_game
    assert passed(run(served, "show")) == second_game  # the game the server kept
    for request in (b"not json\n", b'{"argv": ["setup"]}\n', b"[]\n", b"x" * 100_000):
        answer = ask(served, request)
        assert answer["code"] == 1 and str(answer["err"]).count("\n") == 1, answer
    assert passed(run(served, "show")) == second_game  # and it goes on

    assert passed(run(served, "stop-server")) == "Server stopped.\n"
    assert server.wait(10) == 0 and not (served / SOCKET).exists()
    server = serve(served, servers)
    server.terminate()  # SIGTERM, here while it loads the game
    assert server.wait(10) == 0 and not (served / SOCKET).exists()
    assert "no server runs" in refused(run(served, "stop-server"))


LEVEL_WORDS = re.compile(r"\b(easy|normal|hard|level|seed|panel|wordnet|glove|minilm)",
                         re.IGNORECASE)
MARK_OF = {"own": "OWN", "opponent": "OPP", "bystander": "BYS", "assassin": "ASSASSIN"}


def blind(result: Result) -> str:
    """A reader's output in a two-team game: nothing of the level, the agents or the key.
    Every card marked on the board is one the table saw touched (the live turn's touches,
    or an earlier turn's of either team, which the history lists), with its marks."""
    assert result.returncode == 0, result.stderr
    text = result.stdout + result.stderr
    assert not LEVEL_WORDS.search(text), LEVEL_WORDS.search(text)
    marked = set(re.findall(r"([a-z]+):(OWN|OPP|BYS|ASSASSIN)\b", text))
    touched = {(w, MARK_OF[k])
               for w, k in re.findall(r"([a-z]+) \((own|opponent|bystander|assassin)\)", text)}
    assert marked == touched, (marked, touched)
    return text


def red_cards(folder: Path, game: int = 0) -> tuple[Team, list[str], str, str]:
    """A two-team game's starting team, red's agents, a bystander and the assassin."""
    board = json.loads((folder / ".schedule.json").read_text())["games"][game]["board"]
    dealt = deal(WORDS, read_word_list(DECK), board)
    red = [w for w, k in zip(dealt.words, dealt.key, strict=True) if k is Team.RED.agent]
    return (dealt.starting_team, red, dealt.words[dealt.key.index(Identity.BYSTANDER)],
            dealt.words[dealt.key.index(Identity.ASSASSIN)])


def test_two_team_games_against_levels(tmp_path: Path) -> None:
    """The reader red against a level's team: the other team's first turn is played before
    the reader sees the board, each of its turns is shown once the reader's clue is rated,
    the level is never named, and the summary counts per level. In this process, each call
    a fresh import that replays the game from the actions (the models stay loaded)."""
    folder = tmp_path / "levels"
    unknown, both = together(
        (folder, ("setup", "--levels", "extreme,easy", "--games-per", "1", "--seed", "7")),
        (folder, ("setup", "--levels", "easy", "--spymasters", SPYMASTER, "--games-per", "1",
                  "--seed", "7")))
    assert "'extreme' is not a level; known: easy, normal, hard" in refused(unknown)
    assert "not allowed with" in refused(both)
    assert in_process(folder, "setup", "--levels", "easy,hard", "--games-per", "1",
                      "--seed", "7").returncode == 0
    levels = [g["level"] for g in json.loads((folder / ".schedule.json").read_text())["games"]]
    assert levels == ["easy", "hard"]  # the seed's shuffle: game 1 against easy
    starting, red, bystander, assassin = red_cards(folder)
    assert starting is Team.BLUE  # so the other team has played before the first show

    table = blind(in_process(folder, "show"))
    assert table.startswith("Game 1 of 2, your turn 1. Your agents: ")
    assert "Their turn 1: " in table and "Clue: " in table
    face_down = [w for w in red if f"{w}:" not in table]
    touched = blind(in_process(folder, "touch", face_down[0]))
    assert touched.startswith(f"{face_down[0]}: one of your agents. The turn goes on")
    assert "The turn is over." in blind(in_process(folder, "touch", bystander))
    rated = blind(in_process(folder, "rate", "stretch", "one of two"))
    # The other team's second turn, as the table saw it, then the reader's second clue.
    assert re.search(r"^The other team played\. Their turn 2: \S+ \d+ -> ", rated, re.M), rated
    assert re.search(r"^Your turn 1: .* \[stretch\]$", rated, re.M), rated
    assert "Clue: " in rated
    over = blind(in_process(folder, "touch", assassin))
    assert "Lost: you touched the assassin." in over
    assert "Next: next (game 2 of 2)." in blind(in_process(folder, "rate", "baffling"))
    assert blind(in_process(folder, "next")).startswith("Game 2 of 2, your turn 1.")

    summary = in_process(folder, "summary", "--json")  # the experimenter's: names levels
    assert summary.returncode == 0, summary.stderr
    data = json.loads(summary.stdout)
    easy, hard = data["levels"]["easy"], data["levels"]["hard"]
    assert (easy["games"], easy["reader_wins"], easy["reader_turns_per_game"]) == (1, 0, [2])
    assert {k: n for k, n in easy["endings"].items() if n} == {"assassin-by-reader": 1}
    assert easy["verdicts"] == {"clear": 0, "stretch": 1, "baffling": 1}
    assert easy["verdict_shares"]["stretch"] == 0.5
    assert (hard["games"], hard["in_progress"]) == (0, 1)
    assert [c["level"] for c in data["clues"]] == ["easy", "easy", "hard"]
    text = in_process(folder, "summary").stdout
    assert "easy: games finished 1 (in progress 0), reader wins 0, reader's turns per game 2" \
        in text and "endings: assassin-by-reader 1" in text


@pytest.mark.slow
def test_a_two_team_game_replays_alike_in_every_process(tmp_path: Path,
                                                        servers: Servers) -> None:
    """The same two-team game by direct calls, each a new process that replays it from the
    actions, and through a server that keeps it: the same output and the same files."""
    direct, served = tmp_path / "direct", tmp_path / "served"
    passed(run(direct, "setup", "--levels", "easy,hard", "--games-per", "1", "--seed", "7"))
    shutil.copytree(direct, served)
    server = serve(served, servers)

    def both(*args: str) -> str:
        result = same(*together((direct, args), (served, args)))
        assert (served / "actions.json").read_text() == (direct / "actions.json").read_text()
        return blind(result)

    _, red, bystander, assassin = red_cards(direct)
    table = both("show")
    assert "Their turn 1: " in table
    both("touch", next(w for w in red if f"{w}:" not in table))
    both("touch", bystander)
    assert "The other team played. Their turn 2: " in both("rate", "clear")
    assert "Lost: you touched the assassin." in both("touch", assassin)
    both("rate", "clear")
    assert both("next").startswith("Game 2 of 2, your turn 1.")
    assert passed(run(served, "stop-server")) == "Server stopped.\n"
    assert server.wait(10) == 0
