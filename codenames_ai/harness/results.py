"""A tournament's results folder: ``tournament.json`` (the spec) and ``games.jsonl``.

Every game result is appended as one line and fsync'd as soon as the game ends, so a crash
(even ``kill -9``) loses at most the games in flight. A torn last line, the only damage such
a crash can leave, is cut off when the folder is opened again; finished games are never
rewritten, and a game already in the file is never played again.

A run holds ``tournament.lock`` in the folder (an ``flock``, released by the kernel however
the run ends), so a second run on the same folder is refused instead of playing every game
twice. ``tournament.json`` must still match the fingerprint written with it (an edited spec
would take the games for another tournament's), and every line read back is checked (a JSON
object with the fields a result has, and the teams, matchup and board the schedule gives
its game): a line changed by hand is reported by file and line number, never half-used.
A line longer than any game's (``MAX_RESULT_LINE_BYTES``) is refused the same way, after
reading no more of it than that, so a results file of any size is read in bounded memory.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..core.errors import ConfigError
from ..core.jsonlimits import MAX_NUMBER, JSONRefused, load_limited
from ..core.rules import RuleSet
from ..files import (
    LineTooLong,
    LockBusy,
    NotRegular,
    atomic_write,
    bounded_lines,
    file_lock,
    open_in_place,
    open_regular,
    read_bounded,
)
from .spec import PLUGIN, TournamentSpec

FORMAT = "codenames-ai/tournament"
VERSION = 1
SPEC_FILE = "tournament.json"
GAMES_FILE = "games.jsonl"
LOCK_FILE = "tournament.lock"
STATUSES = ("ok", "failed")  # games.OK, games.FAILED (games imports the agents; this not)
SCHEDULE_FIELDS = ("matchup", "board", "red", "blue")
# The most read of tournament.json: a spec of a few agents is a few kB.
MAX_SPEC_DOCUMENT_BYTES = 4 << 20
# The most read of one line of games.jsonl: a game's line is about 5 kB, a game of 10,000
# turns (the most codenames watch plays) a few MB. A tournament may hold tens of GB, so the
# file is only ever read a line at a time.
MAX_RESULT_LINE_BYTES = 16 << 20
HAND_EDITED = ("finished lines are never rewritten, so the file was changed by hand: restore "
               "it from a copy, or delete that line to play its game again")


class ResultsFolder:
    """Opens (or creates) a results folder for ``spec`` and appends game results."""

    def __init__(self, root: Path, spec: TournamentSpec) -> None:
        self.root = root
        self.spec = spec
        self.games_path = root / GAMES_FILE
        self._file: IO[str] | None = None
        self._lock: contextlib.ExitStack | None = None
        created = _make_folder(root)
        try:
            self._lock = _lock(root)
            saved = read_spec(root)
            if saved is None:
                _write_atomic(root / SPEC_FILE, _spec_document(spec))
            elif saved.fingerprint() != spec.fingerprint():
                raise ConfigError(
                    f"{root} holds a different tournament ({_difference(saved, spec)}); to "
                    f"continue it, run: codenames tournament --out {root} (with no other "
                    "options), or choose another --out")
            self.done = _repair_and_index(self.games_path, spec)  # checked before changed
            if saved is not None and saved.games != spec.games:  # extended or shortened
                _write_atomic(root / SPEC_FILE, _spec_document(spec, recorded_plugins(root)))
        except OSError as exc:
            self._undo(created)
            raise ConfigError(f"cannot use {root} as the results folder: "
                              f"{exc.strerror or exc}; choose another --out") from None
        except BaseException:
            self._undo(created)
            raise

    def _undo(self, created: list[Path]) -> None:
        """Leave nothing behind but what was there: the lock, and the folders just made."""
        self.close()
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                (folder / LOCK_FILE).unlink(missing_ok=True)
                folder.rmdir()

    def note_plugins(self, located: dict[str, Path]) -> None:
        """Record where this run loaded the tournament's plugin modules, so that it resumes
        from any folder (``import_plugin``'s ``recorded``)."""
        recorded = recorded_plugins(self.root)
        if located and {**recorded, **located} != recorded:
            _write_atomic(self.root / SPEC_FILE, _spec_document(self.spec,
                                                                {**recorded, **located}))

    def missing(self) -> list[int]:
        """Games of the schedule not in the file yet, in order."""
        return [i for i in range(self.spec.games) if i not in self.done]

    def append(self, result: dict[str, Any]) -> None:
        """Write one result durably; a game already written is ignored."""
        index = int(result["game"])
        if index in self.done:
            return
        line = json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            if self._file is None:
                self._file = os.fdopen(_open_games(self.games_path, os.O_WRONLY | os.O_APPEND
                                                   | os.O_CREAT), "a", encoding="utf-8")
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:  # a full disk: a torn line at most, cut off on the next run
            raise ConfigError(f"cannot write to {self.games_path}: {exc.strerror or exc}; "
                              "the finished games are kept: make room and run the same "
                              "command to play the rest") from None
        self.done.add(index)

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
        if self._lock is not None:
            self._lock.close()  # releases the flock
            self._lock = None

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
        document = load_limited(read_bounded(path, MAX_SPEC_DOCUMENT_BYTES))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the tournament spec: {exc.strerror or exc}"
                          ) from None
    except JSONRefused as exc:
        raise ConfigError(f"{path}: cannot read the tournament spec (it {exc}); the folder "
                          "is damaged") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ConfigError(f"{path} is not a codenames-ai tournament spec")
    if document.get("version") != VERSION:
        raise ConfigError(f"{path}: spec version {document.get('version')!r} is not supported "
                          f"(this toolkit reads version {VERSION})")
    if not isinstance(document.get("spec"), dict):
        raise ConfigError(f"{path}: no 'spec' table; the folder is damaged")
    try:
        spec = TournamentSpec.from_dict(document["spec"])
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    # The fingerprint was written with the spec its games were played for: a spec edited
    # by hand since would take those games for another tournament's.
    stored = document.get("fingerprint")
    if stored != spec.fingerprint():
        raise ConfigError(f"{path} was changed since its games were played: its fingerprint "
                          f"is {str(stored)[:40]!r}, its settings give {spec.fingerprint()!r}; "
                          "restore it from a copy, or start a new folder (another --out)")
    return spec


def parse_result(line: bytes | str, where: str, spec: TournamentSpec | None = None
                 ) -> dict[str, Any]:
    """One line of ``games.jsonl`` as a result; ``ConfigError`` naming ``where`` (file and
    line) if it is not one. With ``spec``, a game of its schedule must also name the teams,
    matchup and board the schedule gives it."""
    try:
        result = load_limited(line)
    except JSONRefused as exc:
        raise ConfigError(f"{where} is damaged (it {exc}); {HAND_EDITED}") from None
    problem = _result_problem(result, spec)
    if problem:
        raise ConfigError(f"{where} is not a game result ({problem}); {HAND_EDITED}")
    if spec is not None and result["status"] == "ok" and result["game"] < spec.games:
        problem = _record_problem(result["record"], result["game"],
                                  spec.task(result["game"]).seed, _rules_of(spec))
        if problem:
            raise ConfigError(f"{where}: {problem}, so {SPEC_FILE} was changed after its "
                              "games were played; restore it, or play the new settings "
                              "with another --out")
    return result  # type: ignore[no-any-return]


def _result_problem(result: Any, spec: TournamentSpec | None) -> str:
    if not isinstance(result, dict):
        return f"a JSON {type(result).__name__.replace('list', 'array')}, not an object"
    game = result.get("game")
    if not isinstance(game, int) or isinstance(game, bool) or game < 0:
        return "'game' must be a game number"
    status = result.get("status")
    if status not in STATUSES:
        return f"'status' must be one of {', '.join(STATUSES)}"
    if status == "ok":
        if not isinstance(result.get("record"), list):
            return "'record' must be a list of rows"
        seconds = result.get("seconds", 0.0)
        if not _is_number(seconds) or seconds < 0:
            return "'seconds' must be a number of at least 0"
        moves = result.get("moves", {})
        if not isinstance(moves, dict) or not all(_is_tally(m) for m in moves.values()):
            return ("'moves' must map seats to [moves, seconds], a whole number and a number, "
                    "neither below 0")
    elif not isinstance(result.get("reason", ""), str):
        return "'reason' must be text"
    if spec is not None and game < spec.games:
        from .games import schedule_entry  # games imports the agents: only when checking

        task = spec.task(game)
        expected = schedule_entry(task)
        for key in SCHEDULE_FIELDS:
            if result.get(key) != expected[key]:
                return (f"game {game} has {key} {repr(result.get(key))[:80]}, the schedule "
                        f"says {expected[key]!r}")
    return ""


def _record_problem(record: list[Any], game: int, seed: int, rules: dict[str, Any]) -> str:
    """The game's own record must say it was played from the schedule's seed under the
    spec's rules: the spec's fingerprint is only checked against itself, so a spec edited
    with its fingerprint recomputed would otherwise mix games of two rule sets."""
    header = record[0] if record else None
    if not isinstance(header, dict) or header.get("kind") != "header":
        return ""  # not a record at all: the record reader names what is wrong with it
    if header.get("seed") != seed:
        return f"game {game} was played from seed {header.get('seed')!r}, the schedule says {seed}"
    played = _known_rules(header.get("rules"))
    if played != rules:
        keys = sorted(k for k in set(rules) | set(played or {})
                      if played is None or played.get(k) != rules.get(k))
        return (f"game {game} was played under other rules than tournament.json's "
                f"(different {', '.join(keys) or 'rules'})")
    return ""


def _known_rules(rules: Any) -> dict[str, Any] | None:
    """A record's rules with the defaults of keys added since it was written filled in
    (``RuleSet.from_dict``); None if they are no rule set."""
    try:
        return RuleSet.from_dict(rules).to_dict() if isinstance(rules, dict) else None
    except ConfigError:
        return None


@functools.lru_cache(maxsize=8)
def _rules_of(spec: TournamentSpec) -> dict[str, Any]:
    """The rules every game of ``spec`` is recorded with (computed once per spec)."""
    return spec.rules().to_dict()


def _is_tally(value: Any) -> bool:
    """A seat's [moves, seconds]: a whole number of moves and the seconds they took."""
    if not (isinstance(value, list) and len(value) == 2):
        return False
    moves, seconds = value
    return (isinstance(moves, int) and not isinstance(moves, bool) and moves >= 0
            and _is_number(seconds) and seconds >= 0)


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or isinstance(value, float) and math.isfinite(value)


def read_results(root: Path, spec: TournamentSpec | None = None
                 ) -> Iterator[dict[str, Any]]:
    """Every complete result line of a folder, in file order (a torn last line is skipped);
    ``ConfigError`` naming the line for one that is not a result (with ``spec``, or whose
    game the schedule gives other teams, matchup or board)."""
    path = root / GAMES_FILE
    if not path.exists():
        return
    with _open_results(path) as handle:
        for number, line in _lines(handle, path):
            if not line.endswith(b"\n"):
                return  # torn by a crash mid-write; the game will be played again
            yield parse_result(line, f"{path}: line {number}", spec)


class ResultsInOrder:
    """Every complete result, in schedule order, holding one result in memory at a time
    (a pass over the file finds where each game's line starts). A game's first line is the
    one given; every line is checked (``parse_result``), with ``spec`` against its schedule
    too. ``where`` names the line of the result last given."""

    def __init__(self, root: Path, spec: TournamentSpec | None = None) -> None:
        self.path = root / GAMES_FILE
        self.spec = spec
        self.where = str(self.path)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        starts: dict[int, tuple[int, int]] = {}  # game: (offset, line number)
        with _open_results(self.path) as handle:
            offset = 0
            for number, line in _lines(handle, self.path):
                if not line.endswith(b"\n"):
                    break
                match = _GAME_FIELD.match(line)
                game = int(match.group(1)) if match else -1
                if game < 0 or game in starts:
                    # A line not given below (a later line of a game is left out) is
                    # checked now, by the check codenames tournament makes of every line.
                    game = parse_result(line, f"{self.path}: line {number}", self.spec
                                        )["game"]
                starts.setdefault(game, (offset, number))
                offset += len(line)
            for game in sorted(starts):
                offset, number = starts[game]
                handle.seek(offset)
                self.where = f"{self.path}: line {number}"
                _, line = next(_lines(handle, self.path, first=number), (number, b""))
                yield parse_result(line, self.where, self.spec)


def read_results_in_order(root: Path, spec: TournamentSpec | None = None
                          ) -> Iterator[dict[str, Any]]:
    """``ResultsInOrder`` as a plain iterator."""
    return iter(ResultsInOrder(root, spec))


# The game number of a line as the toolkit writes it, read without parsing the line. No
# longer than a number load_limited takes: a longer one goes through parse_result, which
# refuses it in one line (int() of 4,301 digits is a ValueError).
_GAME_FIELD = re.compile(rb'\{"game":(\d{1,%d})[,}]' % MAX_NUMBER)


def _lines(handle: IO[bytes], path: Path, *, first: int = 1) -> Iterator[tuple[int, bytes]]:
    """The numbered lines of the results file ``path`` (``bounded_lines``); ``ConfigError``
    naming the file and the line for one longer than any game's."""
    try:
        yield from bounded_lines(handle, MAX_RESULT_LINE_BYTES, first=first)
    except LineTooLong as exc:
        raise ConfigError(f"{path}: {exc} (a game's result is a few kB); {HAND_EDITED}"
                          ) from None


@contextlib.contextmanager
def _open_results(path: Path) -> Iterator[IO[bytes]]:
    try:
        handle = open_regular(path)  # a named pipe would block, a device never end
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        yield handle


def _open_games(path: Path, flags: int) -> int:
    """``games.jsonl`` opened to be cut or appended to: never through a symbolic link
    (``open_in_place``), which would change the file it points to."""
    try:
        return open_in_place(path, flags)
    except NotRegular as exc:
        raise ConfigError(f"{path}: {exc}, so it is not written; a results folder holds "
                          f"its own {GAMES_FILE}: replace it with a copy of the file, or "
                          "choose another --out") from None


def _repair_and_index(path: Path, spec: TournamentSpec) -> set[int]:
    """Cut a torn last line off and return the games already finished, each line checked
    against ``spec``'s schedule (so a line changed by hand stops the run before any game)."""
    if not path.exists() and not path.is_symlink():
        return set()
    with os.fdopen(_open_games(path, os.O_RDWR), "rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        end = _complete_end(handle, size)
        if end is not None and end < size:
            handle.truncate(end)
            handle.flush()
            os.fsync(handle.fileno())
    return {int(result["game"]) for result in read_results(path.parent, spec)}


_BACK_BLOCK = 1 << 16  # bytes read at a time when looking back for the last newline


def _complete_end(handle: IO[bytes], size: int) -> int | None:
    """Where the last complete line of the file ends (0 if it has none), found reading back
    from its end (a results file may hold tens of GB) no further than one line's length: a
    crash tears no more than the line it was writing. None if what follows the last newline
    is longer than a line may be: not a torn line, so it is not cut (the reading of the
    lines names it)."""
    position = end = size
    while position > 0 and size - position <= MAX_RESULT_LINE_BYTES:
        start = max(0, position - _BACK_BLOCK)
        handle.seek(start)
        newline = handle.read(position - start).rfind(b"\n")
        if newline >= 0:
            end = start + newline + 1
            break
        position = start
    else:
        end = position  # 0: no newline at all; else none within a line's length of the end
    return end if size - end <= MAX_RESULT_LINE_BYTES else None


def torn_line(root: Path) -> int | None:
    """The number of the last line of ``games.jsonl`` if it is cut short (no newline: a
    run stopped mid-write), else ``None``; such a line is left out and its game played
    again by the next run."""
    path = root / GAMES_FILE
    try:
        with open_regular(path) as handle:
            lines = 0
            last = b"\n"
            while chunk := handle.read(1 << 20):
                lines += chunk.count(b"\n")
                last = chunk[-1:]
    except OSError:
        return None
    return lines + 1 if last != b"\n" else None


def _make_folder(root: Path) -> list[Path]:
    """Create ``root`` and its missing parents; the folders made, outermost first."""
    if root.exists() and not root.is_dir():
        raise ConfigError(f"{root} is a file, not a folder; give --out a folder (it is made "
                          "if missing)")
    missing = [folder for folder in (root, *root.parents) if not folder.exists()]
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        for folder in missing:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise ConfigError(f"cannot make the results folder {root}: {exc.strerror or exc}; "
                          "choose another --out") from None
    return missing[::-1]


def _lock(root: Path) -> contextlib.ExitStack:
    """Hold ``LOCK_FILE`` for this run (closing the stack releases it); ``ConfigError`` if
    another run holds it."""
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(file_lock(root / LOCK_FILE, wait=False))
    except NotRegular as exc:  # a link could point at any file of the person running
        raise ConfigError(f"{root / LOCK_FILE}: {exc}, so it is not used as the lock; delete "
                          "it (a run makes its own), or choose another --out") from None
    except LockBusy as busy:
        who = f" (process {busy.holder})" if busy.holder else ""
        raise ConfigError(f"{root} is in use by another codenames tournament{who}; wait "
                          "for it to end, or choose another --out") from None
    return stack


def _spec_document(spec: TournamentSpec, plugins: dict[str, Path] | None = None
                   ) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "fingerprint": spec.fingerprint(),
            "spec": spec.to_dict(),
            **({"plugin_files": {module: str(path) for module, path in sorted(plugins.items())}}
               if plugins else {})}


def recorded_plugins(root: Path) -> dict[str, Path]:
    """Where the tournament in ``root`` loaded its plugin modules from, by module name
    (empty for a new folder, or one whose tournament had no plugin). Where the code is, not
    what the games are: outside the spec and its fingerprint."""
    path = root / SPEC_FILE
    if not path.is_file():
        return {}
    try:
        document = load_limited(read_bounded(path, MAX_SPEC_DOCUMENT_BYTES))
    except (OSError, JSONRefused):
        return {}  # read_spec names the problem
    files = document.get("plugin_files", {}) if isinstance(document, dict) else {}
    if not isinstance(files, dict) or not all(
            isinstance(module, str) and PLUGIN.match(module) and isinstance(file, str)
            and Path(file).is_absolute() for module, file in files.items()):
        raise ConfigError(f"{path}: 'plugin_files' must map module names to absolute file "
                          "paths; the folder is damaged")
    return {module: Path(file) for module, file in files.items()}


def _write_atomic(path: Path, document: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"))


def _difference(saved: TournamentSpec, given: TournamentSpec) -> str:
    old, new = saved.to_dict(), given.to_dict()
    keys = [k for k in sorted(set(old) | set(new)) if k != "games" and old.get(k) != new.get(k)]
    return "different " + ", ".join(keys) if keys else "different settings"
