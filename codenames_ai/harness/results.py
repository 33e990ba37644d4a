"""A tournament's results folder: ``tournament.json`` (the spec) and ``games.jsonl``.

Every game result is appended as one line and fsync'd as soon as the game ends, so a crash
(even ``kill -9``) loses at most the games in flight. A torn last line, the only damage such
a crash can leave, is cut off when the folder is opened again; finished games are never
rewritten, and a game already in the file is never played again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..core.errors import ConfigError
from .spec import TournamentSpec

FORMAT = "codenames-ai/tournament"
VERSION = 1
SPEC_FILE = "tournament.json"
GAMES_FILE = "games.jsonl"


class ResultsFolder:
    """Opens (or creates) a results folder for ``spec`` and appends game results."""

    def __init__(self, root: Path, spec: TournamentSpec) -> None:
        self.root = root
        self.spec = spec
        self.games_path = root / GAMES_FILE
        self._file: IO[str] | None = None
        root.mkdir(parents=True, exist_ok=True)
        saved = read_spec(root)
        if saved is None:
            _write_atomic(root / SPEC_FILE, _spec_document(spec))
        elif saved.fingerprint() != spec.fingerprint():
            raise ConfigError(
                f"{root} holds a different tournament ({_difference(saved, spec)}); to "
                f"continue it, run: codenames tournament --out {root} (with no other options), "
                "or choose another --out")
        elif saved.games != spec.games:
            _write_atomic(root / SPEC_FILE, _spec_document(spec))  # extended or shortened
        self.done = _repair_and_index(self.games_path)

    def missing(self) -> list[int]:
        """Games of the schedule not in the file yet, in order."""
        return [i for i in range(self.spec.games) if i not in self.done]

    def append(self, result: dict[str, Any]) -> None:
        """Write one result durably; a game already written is ignored."""
        index = int(result["game"])
        if index in self.done:
            return
        if self._file is None:
            self._file = self.games_path.open("a", encoding="utf-8")
        self._file.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done.add(index)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ResultsFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_spec(root: Path) -> TournamentSpec | None:
    """The spec a results folder was made for, or None for a new/empty folder."""
    path = root / SPEC_FILE
    if not path.exists():
        if (root / GAMES_FILE).exists():
            raise ConfigError(f"{root} has {GAMES_FILE} but no {SPEC_FILE}; it was not made by "
                              "codenames tournament, or the spec was deleted")
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the tournament spec ({exc}); the folder is "
                          "damaged") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ConfigError(f"{path} is not a codenames-ai tournament spec")
    if document.get("version") != VERSION:
        raise ConfigError(f"{path}: spec version {document.get('version')!r} is not supported "
                          f"(this toolkit reads version {VERSION})")
    try:
        return TournamentSpec.from_dict(document["spec"])
    except (KeyError, ConfigError) as exc:
        raise ConfigError(f"{path}: {exc}") from None


def read_results(root: Path) -> Iterator[dict[str, Any]]:
    """Every complete result line of a folder, in file order (a torn last line is skipped)."""
    path = root / GAMES_FILE
    if not path.exists():
        return
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.endswith("\n"):
                return  # torn by a crash mid-write; the game will be played again
            try:
                result = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{path}: line {number} is damaged ({exc.msg}); finished "
                                  "lines are never rewritten, so the file was changed by "
                                  "hand") from None
            yield result


def read_results_in_order(root: Path) -> Iterator[dict[str, Any]]:
    """Every complete result, in schedule order, holding one result in memory at a time
    (a pass over the file finds where each game's line starts)."""
    path = root / GAMES_FILE
    if not path.exists():
        return
    starts: dict[int, int] = {}
    with path.open("rb") as handle:
        offset = 0
        for line in handle:
            if not line.endswith(b"\n"):
                break
            match = _GAME_FIELD.match(line)
            game = int(match.group(1)) if match else int(json.loads(line)["game"])
            starts.setdefault(game, offset)
            offset += len(line)
        for game in sorted(starts):
            handle.seek(starts[game])
            yield json.loads(handle.readline())


_GAME_FIELD = re.compile(rb'\{"game":(\d+)[,}]')


def _repair_and_index(path: Path) -> set[int]:
    """Cut a torn last line off and return the games already finished."""
    if not path.exists():
        return set()
    with path.open("rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            handle.truncate(end)
            handle.flush()
            os.fsync(handle.fileno())
    return {int(result["game"]) for result in read_results(path.parent)}


def _spec_document(spec: TournamentSpec) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "fingerprint": spec.fingerprint(),
            "spec": spec.to_dict()}


def _write_atomic(path: Path, document: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    with temporary.open("rb") as handle:
        os.fsync(handle.fileno())
    temporary.replace(path)


def _difference(saved: TournamentSpec, given: TournamentSpec) -> str:
    old, new = saved.to_dict(), given.to_dict()
    keys = [k for k in sorted(set(old) | set(new)) if k != "games" and old.get(k) != new.get(k)]
    return "different " + ", ".join(keys) if keys else "different settings"
