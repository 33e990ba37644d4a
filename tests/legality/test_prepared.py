"""The prepared lexicon (one SQLite file in the cache) answers every question the clue rules ask
exactly as the packages' tables do, and a file that is not one it wrote is refused, never read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from codenames_ai.core.errors import DeckError
from codenames_ai.decks import default_deck
from codenames_ai.legality.analysis import analyze_card, derivation_bases, family
from codenames_ai.legality.language import lexicon
from codenames_ai.legality.lexicon import Lexicon
from codenames_ai.legality.prepared import (
    PreparedLexicon,
    find_prepared,
    prepare_lexicon,
    prepared_path,
)

METHODS = ("lemmas", "phones", "stems", "zipf", "best_other_language", "parts_of_speech",
           "in_lexicon", "proper_noun", "in_dictionary", "in_any_dictionary",
           "capitalized_only", "in_cmu", "derived_from", "is_known")
# Words that test each table: inflections, names, CMU's corrected entries, a derivation,
# foreign words, capitals, a word no table lists, punctuation, digits.
ODD = ["knives", "geese", "oxford", "cinderella", "paris", "tokyo", "rainforest", "doorknob",
       "pianist", "whaler", "bonjour", "schadenfreude", "snerfwump", "don't", "123", "a",
       "teammates", "chairman", "unlock", "happily", "evening", "seahorse", "rapunzel"]
UNLISTED = ["snerfwump", "qzxvbnm", "Knives", "Oxford", "Cinderella", "ÉCOLE"]


@pytest.fixture(scope="module")
def live() -> Lexicon:
    found = lexicon()
    return found if isinstance(found, Lexicon) else Lexicon()


@pytest.fixture(scope="module")
def sample_words() -> list[str]:
    return sorted(set(ODD) | {w.lower() for w in default_deck("words")[:120]}
                  - {"snerfwump"})


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, live: Lexicon,
             sample_words: list[str]) -> PreparedLexicon:
    path = prepared_path(tmp_path_factory.mktemp("cache"))
    path.parent.mkdir(parents=True)
    prepare_lexicon(path, live, words=sample_words)
    return PreparedLexicon(path)


def test_every_answer_is_the_packages_answer(live: Lexicon, prepared: PreparedLexicon,
                                             sample_words: list[str]) -> None:
    for word in sample_words + UNLISTED:
        for method in METHODS:
            assert getattr(prepared, method)(word) == getattr(live, method)(word), (word, method)


def test_a_card_is_analysed_alike_from_either(live: Lexicon, prepared: PreparedLexicon) -> None:
    for word in ("teammates", "rainforest", "pianist", "chairman", "knives"):
        assert family(word, prepared) == family(word, live)
        assert derivation_bases(word, prepared) == derivation_bases(word, live)
    assert analyze_card("teammates").compound >= {"team", "mate"}


def test_the_prepared_file_holds_every_listed_word_once(live: Lexicon) -> None:
    words = live.listed_words()
    assert {"knives", "oxford", "bonjour", "rainforest"} <= words
    assert len(words) > 500_000


def _copy(prepared: PreparedLexicon, tmp_path: Path) -> Path:
    root = tmp_path / "cache"
    path = prepared_path(root)
    path.parent.mkdir(parents=True)
    path.write_bytes(prepared.path.read_bytes())
    return root


def test_a_file_with_a_view_or_trigger_is_refused_unread(prepared: PreparedLexicon,
                                                         tmp_path: Path) -> None:
    root = _copy(prepared, tmp_path)
    assert find_prepared(root) is not None
    with sqlite3.connect(prepared_path(root)) as db:
        db.execute("CREATE VIEW sneaky AS SELECT * FROM words")
    assert find_prepared(root) is None
    with pytest.raises(DeckError, match="its tables are not the prepared lexicon's.*delete"):
        PreparedLexicon(prepared_path(root))


def test_a_file_for_another_version_or_not_sqlite_is_refused(prepared: PreparedLexicon,
                                                             tmp_path: Path) -> None:
    root = _copy(prepared, tmp_path)
    with sqlite3.connect(prepared_path(root)) as db:
        db.execute("UPDATE meta SET value = 'older' WHERE key = 'signature'")
    with pytest.raises(DeckError, match="prepared for another version"):
        PreparedLexicon(prepared_path(root))
    prepared_path(root).write_bytes(b"not a database at all" * 100)
    assert find_prepared(root) is None
    prepared_path(root).unlink()
    assert find_prepared(root) is None


def test_a_row_that_does_not_decode_is_refused_with_how_to_rebuild(
        prepared: PreparedLexicon, tmp_path: Path) -> None:
    root = _copy(prepared, tmp_path)
    with sqlite3.connect(prepared_path(root)) as db:
        db.execute("UPDATE words SET lemmas = '[[[' WHERE word = 'knives'")
        db.execute("UPDATE words SET flags = 'many' WHERE word = 'geese'")
        db.execute("UPDATE words SET other = 'fr:lots' WHERE word = 'paris'")
    damaged = PreparedLexicon(prepared_path(root))
    with pytest.raises(DeckError, match="the lemmas of 'knives' do not decode"):
        damaged.lemmas("knives")
    with pytest.raises(DeckError, match="the row of 'geese' does not decode"):
        damaged.in_cmu("geese")
    with pytest.raises(DeckError, match="the row of 'paris' does not decode"):
        damaged.best_other_language("paris")
    assert damaged.phones("oxford")  # the other rows still answer
