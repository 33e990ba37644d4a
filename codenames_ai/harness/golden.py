"""Golden games: every registered agent id pinned by the games it plays.

The registry's rule is that an id's version moves when its behaviour changes. Here each
available id plays a few fixed games through the tournament harness (``play_task``, the one
place that builds seats and plays a game): a spymaster gives the clues for
``SPYMASTER_PARTNER``'s touches, a guesser touches for ``GUESSER_PARTNER``'s clues, and the
other team is ``OPPONENT``, on each seed of ``SEEDS`` and each edition of ``EDITIONS`` (no agent
declares an edition it cannot play, so every id plays both). A game is kept as the SHA-256 of
what happened in it: the seed, rules, board, every event and the outcome; not the record's
format version or the seats' names, which are not behaviour. ``tests/golden/games.json``
holds the digests; its test fails when an id's games change, so a refactor that was meant to
change nothing proves it, and a change of behaviour comes with a new id.

The digests are exact: the same on every run, process, test order, thread count and cache
state, but float rounding differs between CPUs and BLAS kernels, and an agent whose choice is a
near-tie (two clues of equal score) may break it the other way there. The file records where it
was pinned (``pinned_on``): on a machine that rounds differently the test reports a changed
game as skipped, with the note, rather than failing (it proves nothing there); on one like the
pinning machine it fails.

Regenerate the file after a deliberate change (with the new id registered):
``python -m codenames_ai.harness.golden --write``; ``--check`` says which ids changed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import Role
from ..core.errors import ConfigError

if TYPE_CHECKING:  # imported when used: importing this module loads no agents
    from .spec import TournamentSpec

SEEDS = (0, 1)
EDITIONS = ("words", "pictures")
# A fast, deterministic guesser of the panel's minds.
SPYMASTER_PARTNER = "panel-guesser-v2"
# The default spymaster when the games were pinned (DEFAULT_SPYMASTER), named here so that
# moving the default does not re-pin every guesser. Its clues are for two or three cards, so a
# guesser's order and stop rule show (panel-spymaster-v2 gives these guessers 1-clues only).
GUESSER_PARTNER = "panel-spymaster-v4"
# The cheapest pair, seeded by the game: weak, so the pinned team plays most of the board.
OPPONENT = ("random-spymaster-v1", "random-guesser-v1")
GOLDEN_FORMAT = "codenames-ai/golden-games"
GOLDEN_FILE = Path(__file__).resolve().parents[2] / "tests" / "golden" / "games.json"
WRITE_COMMAND = "python -m codenames_ai.harness.golden --write"


@dataclass(frozen=True)
class Pinned:
    """The digests of one id's golden games, by ``edition/seed``; ``skipped``: why it was not
    played here (an extra not installed), then it has no games."""

    agent_id: str
    games: Mapping[str, str]
    skipped: str = ""


def game_digest(rows: Iterable[Mapping[str, Any]]) -> str:
    """The SHA-256 of a record's rows (``GameRecord.to_rows``): the header's seed, rules and
    board, each event and the outcome, in order. Left out: the header's format, version and
    seats' agents (anything else a header may hold, such as a toolkit version) and the end
    line, whose own digest covers those."""
    kept = []
    for row in rows:
        kind = row.get("kind")
        if kind == "header":
            kept.append({key: row.get(key) for key in ("seed", "rules", "board")})
        elif kind in ("event", "outcome"):
            kept.append(dict(row))
    text = "\n".join(json.dumps(row, sort_keys=True, ensure_ascii=False) for row in kept)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def golden_spec(agent_id: str, role: Role, edition: str, seed: int) -> TournamentSpec:
    """The one-game ``TournamentSpec`` of ``agent_id``'s golden game on ``edition``/``seed``:
    its team (with its partner) as red, ``OPPONENT`` as blue."""
    from .spec import AgentRef, TeamRef, TournamentSpec

    team = TeamRef(agent_id, SPYMASTER_PARTNER) if role is Role.SPYMASTER \
        else TeamRef(GUESSER_PARTNER, agent_id)
    other = TeamRef(*OPPONENT)
    names = dict.fromkeys((team.spymaster, team.guesser, other.spymaster, other.guesser))
    return TournamentSpec(
        agents=tuple(AgentRef.of(name, name) for name in names),
        spymasters=tuple(dict.fromkeys((team.spymaster, other.spymaster))),
        guessers=tuple(dict.fromkeys((team.guesser, other.guesser))),
        explicit_matchups=((team, other),), games=1, seed=seed, edition=edition,
        swap_sides=False)


def pin(agent_id: str, role: Role, *, seeds: Iterable[int] = SEEDS,
        editions: Iterable[str] = EDITIONS) -> Pinned:
    """Play ``agent_id``'s golden games (one per edition and seed) and keep their digests."""
    from .games import play_task

    games = {}
    for edition in editions:
        for seed in seeds:
            spec = golden_spec(agent_id, role, edition, seed)
            result = play_task(spec, spec.task(0))
            if result["status"] != "ok":
                raise ConfigError(f"{agent_id}: the golden game {edition}/{seed} failed: "
                                  f"{result.get('reason', result['status'])}")
            # A forfeit is a crash the harness contained: a bug to fix, never a game to pin
            # (its reason is an exception's text, which may name this machine's paths).
            forfeit = next((row for row in result["record"] if row.get("event") == "forfeit"),
                           None)
            if forfeit is not None:
                raise ConfigError(f"{agent_id}: the golden game {edition}/{seed}: the "
                                  f"{forfeit['team']} {forfeit['role']} forfeited a move: "
                                  f"{forfeit['reason']}")
            games[f"{edition}/{seed}"] = game_digest(result["record"])
    return Pinned(agent_id, games)


def pin_all() -> list[Pinned]:
    """Every registered id: its games, or why it cannot be played here."""
    from ..agents.registry import registered

    found = []
    for spec in registered():
        problem = spec.problem()
        found.append(Pinned(spec.agent_id, {}, problem) if problem is not None
                     else pin(spec.agent_id, spec.role))
    return found


def pinned_on() -> dict[str, str]:
    """What decides float rounding on this machine, kept beside the digests (never in them):
    the CPU architecture, numpy's version and best SIMD target in use, the BLAS kernel."""
    import platform

    import numpy as np
    from threadpoolctl import threadpool_info

    try:  # numpy's own record of the SIMD code it dispatches to (what show_runtime prints)
        umath = importlib.import_module("numpy._core._multiarray_umath")
        features = umath.__cpu_features__
        simd = [t for t in umath.__cpu_dispatch__ if features.get(t)][-1:] or ["baseline"]
    except (ImportError, AttributeError):
        simd = ["unknown"]
    blas = sorted({str(i.get("architecture")) for i in threadpool_info()
                   if i.get("user_api") == "blas"})
    return {"machine": platform.machine(), "numpy": np.__version__, "numpy_simd": simd[0],
            "blas": "+".join(blas) or "unknown"}


def platform_note(path: Path = GOLDEN_FILE) -> str:
    """A line for a failure when the file was pinned on a machine that rounds differently
    (``""`` when it was pinned on one like this)."""
    stored, here = _read(path).get("pinned_on"), pinned_on()
    if stored == here:
        return ""
    return (f"Note: {path.name} was pinned on {json.dumps(stored)}, this machine is "
            f"{json.dumps(here)}. Float rounding differs between them: a game that changed "
            "only here may be a near-tie broken the other way, not a change of the agent "
            "(run --check on the pinning machine to tell)")


def _setup() -> dict[str, Any]:
    """What every golden game shares: a file made with other settings is stale as a whole."""
    return {"seeds": list(SEEDS), "editions": list(EDITIONS),
            "partners": {"spymaster": SPYMASTER_PARTNER, "guesser": GUESSER_PARTNER},
            "opponent": list(OPPONENT)}


def _read(path: Path) -> dict[str, Any]:
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != GOLDEN_FORMAT:
        raise ConfigError(f"{path}: not a golden-games file; regenerate it: {WRITE_COMMAND}")
    return document


def read_pinned(path: Path = GOLDEN_FILE) -> dict[str, dict[str, str]]:
    """The stored digests by id (ids skipped when it was written have none)."""
    ids = _read(path)["ids"]
    return {str(k): {str(g): str(d) for g, d in v.items()} for k, v in ids.items()}


def stale_setup(path: Path = GOLDEN_FILE) -> str:
    """Why the file's games are not this module's (other seeds, editions or partners), or
    ``""``: then every id would differ, and the line to show is this one."""
    document = _read(path)
    stored = {key: document.get(key) for key in _setup()}
    if stored == _setup():
        return ""
    return (f"{path.name} was pinned with {json.dumps(stored)}, the golden games are now "
            f"{json.dumps(_setup())}; regenerate it: {WRITE_COMMAND}")


def write_pinned(pinned: Iterable[Pinned], path: Path = GOLDEN_FILE) -> None:
    """Write the digests. An id skipped here (its extra is not installed) keeps the games
    stored for it, so regenerating without an extra does not unpin what another machine
    pinned; ids no longer registered are dropped."""
    previous: dict[str, dict[str, str]] = {}
    if path.exists():
        try:
            previous = read_pinned(path) if not stale_setup(path) else {}
        except (ConfigError, ValueError, KeyError, AttributeError):
            previous = {}  # unreadable or another format: written afresh
    ids = {p.agent_id: dict(p.games) if not p.skipped else previous.get(p.agent_id)
           for p in pinned}
    document = {
        "format": GOLDEN_FORMAT,
        "about": ("SHA-256 digests of each registered agent id's golden games "
                  "(codenames_ai/harness/golden.py), by edition/seed. After a deliberate change "
                  "of behaviour, register the agent under a new id (bump its version), then "
                  f"regenerate: {WRITE_COMMAND}"),
        **_setup(),
        "pinned_on": pinned_on(),
        "ids": {agent_id: games for agent_id, games in ids.items() if games},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def differences(pinned: Iterable[Pinned], stored: Mapping[str, Mapping[str, str]]
                ) -> list[str]:
    """What differs between the games played now and the stored digests, one line each."""
    lines = []
    played = {p.agent_id: p for p in pinned}
    changed = set()
    for agent_id, p in played.items():
        if p.skipped:
            continue
        if agent_id not in stored:
            lines.append(f"{agent_id}: a new id with no golden games; pin it: {WRITE_COMMAND}")
            continue
        for game in sorted(p.games.keys() | stored[agent_id].keys()):
            if stored[agent_id].get(game) == p.games.get(game):
                continue
            changed.add(agent_id)
            edition, _, seed = game.partition("/")
            lines.append(f"{agent_id}: its golden game on {edition}, seed {seed} changed. Bump "
                         "the id's version (a new id) if its behaviour was meant to change, or "
                         f"fix the regression; then regenerate with {WRITE_COMMAND}")
    for agent_id in stored:
        if agent_id not in played:
            lines.append(f"{agent_id}: pinned but no longer registered (a stale entry); "
                         f"regenerate with {WRITE_COMMAND}")
    shared = [a for a in (SPYMASTER_PARTNER, GUESSER_PARTNER, *OPPONENT) if a in changed]
    if shared:  # every game holds them: look at them first
        lines.insert(0, f"{', '.join(shared)} also play in the other ids' golden games (a "
                        "partner or the other team): look at them first, their change alone "
                        "changes the others' games")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="play the games, write the file")
    action.add_argument("--check", action="store_true", help="say which ids changed")
    parser.add_argument("--file", type=Path, default=GOLDEN_FILE,
                        help="the digests file (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_setup(args.file)
        if stale:
            print(stale)
            return 1
    pinned = pin_all()
    for p in pinned:
        if p.skipped:
            print(f"skipped {p.agent_id}: {p.skipped}", file=sys.stderr)
    if args.write:
        write_pinned(pinned, args.file)
        played = [p for p in pinned if not p.skipped]
        print(f"wrote {args.file}: {len(played)} ids, "
              f"{sum(len(p.games) for p in played)} games")
        return 0
    found = differences(pinned, read_pinned(args.file))
    note = platform_note(args.file) if found else ""
    print("\n".join([*found, note] if note else found) or "every id plays its golden games")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
