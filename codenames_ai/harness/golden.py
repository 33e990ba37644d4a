"""Golden games: every registered agent id pinned by the games it plays.

The registry's rule is that an id's version moves when its behaviour changes. Here each
available id plays a few fixed games through the tournament harness (the one place that
builds seats and plays a game): a spymaster gives the clues for ``SPYMASTER_PARTNER``'s
touches, a guesser touches for ``GUESSER_PARTNER``'s clues, both teams alike, on each seed of
``SEEDS`` and each edition of ``EDITIONS``. A game is kept as the SHA-256 of what happened in it
(the seed, rules, board, every event and the outcome; not the agents' options, which may name
folders of this machine). ``tests/golden/games.json`` holds the digests; its test fails when an
id's games change, so a refactor that was meant to change nothing proves it, and a change of
behaviour comes with a new id.

Regenerate the file after a deliberate change (with the new id registered):
``python -m codenames_ai.harness.golden --write``; ``--check`` says which ids changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import Role
from ..core.errors import ConfigError

SEEDS = (0, 1)
EDITIONS = ("words", "pictures")
SPYMASTER_PARTNER = "panel-guesser-v2"  # a fast guesser of the default panel's minds
GUESSER_PARTNER = "panel-spymaster-v2"
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
    board, each event and the outcome, in order; the agents' names and options and the end
    line's own digest are left out."""
    kept = []
    for row in rows:
        kind = row.get("kind")
        if kind == "header":
            kept.append({key: row.get(key) for key in ("seed", "rules", "board")})
        elif kind in ("event", "outcome"):
            kept.append(dict(row))
    text = "\n".join(json.dumps(row, sort_keys=True, ensure_ascii=False) for row in kept)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pin(agent_id: str, role: Role, *, seeds: Iterable[int] = SEEDS,
        editions: Iterable[str] = EDITIONS) -> Pinned:
    """Play ``agent_id``'s golden games (one per edition and seed) and keep their digests."""
    from .games import play_task
    from .spec import TournamentSpec

    spymaster, guesser = ((agent_id, SPYMASTER_PARTNER) if role is Role.SPYMASTER
                          else (GUESSER_PARTNER, agent_id))
    games = {}
    for edition in editions:
        for seed in seeds:
            spec = TournamentSpec.from_options(spymasters=[spymaster], guessers=[guesser],
                                               games=1, seed=seed, edition=edition,
                                               swap_sides=False)
            result = play_task(spec, spec.task(0))
            if result["status"] != "ok":
                raise ConfigError(f"{agent_id}: the golden game {edition}/{seed} failed: "
                                  f"{result.get('reason', result['status'])}")
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


def read_pinned(path: Path = GOLDEN_FILE) -> dict[str, dict[str, str]]:
    """The stored digests by id (ids skipped when it was written have none)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != GOLDEN_FORMAT:
        raise ConfigError(f"{path}: not a golden-games file; regenerate it: {WRITE_COMMAND}")
    return {str(k): {str(g): str(d) for g, d in v.items()} for k, v in document["ids"].items()}


def write_pinned(pinned: Iterable[Pinned], path: Path = GOLDEN_FILE) -> None:
    document = {
        "format": GOLDEN_FORMAT,
        "about": ("Digests of each registered agent id's golden games "
                  "(codenames_ai/harness/golden.py); regenerate after a deliberate change of "
                  f"behaviour, with a new id: {WRITE_COMMAND}"),
        "seeds": list(SEEDS), "editions": list(EDITIONS),
        "partners": {"spymaster": SPYMASTER_PARTNER, "guesser": GUESSER_PARTNER},
        "ids": {p.agent_id: dict(p.games) for p in pinned if not p.skipped},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, sort_keys=False) + "\n", encoding="utf-8")


def differences(pinned: Iterable[Pinned], stored: Mapping[str, Mapping[str, str]]
                ) -> list[str]:
    """What differs between the games played now and the stored digests, one line each."""
    lines = []
    played = {p.agent_id: p for p in pinned}
    for agent_id, p in played.items():
        if p.skipped:
            continue
        if agent_id not in stored:
            lines.append(f"{agent_id}: a new id with no golden games; pin it: {WRITE_COMMAND}")
            continue
        for game, digest in p.games.items():
            if stored[agent_id].get(game) != digest:
                lines.append(f"{agent_id}: its game {game} changed. If its behaviour was meant "
                             "to change, register it under a new id (bump the version) and "
                             f"regenerate: {WRITE_COMMAND}; if not, it is a regression")
    for agent_id in stored:
        if agent_id not in played:
            lines.append(f"{agent_id}: pinned but no longer registered; regenerate: "
                         f"{WRITE_COMMAND}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help=f"write {GOLDEN_FILE.name}")
    action.add_argument("--check", action="store_true", help="say which ids changed")
    args = parser.parse_args(argv)
    pinned = pin_all()
    for p in pinned:
        if p.skipped:
            print(f"skipped {p.agent_id}: {p.skipped}", file=sys.stderr)
    if args.write:
        write_pinned(pinned)
        print(f"wrote {GOLDEN_FILE} ({sum(len(p.games) for p in pinned)} games)")
        return 0
    found = differences(pinned, read_pinned())
    print("\n".join(found) or "every id plays its golden games")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
