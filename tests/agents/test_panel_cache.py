"""The panel's shared work: one panel per configuration, prepared once in the cache and read
back without its models, per-deck tables and legality rows, the bounded cache of other cards,
and the partner read incrementally. On a tiny model the test writes and adds to a store."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.agents import space
from codenames_ai.agents.lru import BoundedCache
from codenames_ai.agents.panel import Mind, Panel, PanelSpymaster, shared_panel
from codenames_ai.agents.panel import build as panel_build
from codenames_ai.agents.panel.partner import PartnerReader
from codenames_ai.agents.space import LegalClues
from codenames_ai.core import Clue, Guess, Team
from codenames_ai.decks import default_deck
from codenames_ai.legality import CandidateFilter, deckrows
from codenames_ai.legality.deckrows import known_legal
from codenames_ai.legality.rules import clue_rules
from codenames_ai.legality.validator import LegalityValidator
from codenames_ai.vectors.manifest import CheckedFolder

from .test_panel import CARDS, panel, spymaster, state
from .tiny_space import load_tiny, vectors

DECK = default_deck("words")


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model store holding a tiny model that knows some Words deck cards."""
    folder = tmp_path_factory.mktemp("cache")
    table = vectors()
    rng = np.random.default_rng(7)
    for word in DECK[:40]:  # deck cards in random directions, so the deck table has rows
        table.setdefault(word, rng.standard_normal(len(next(iter(table.values())))))
    load_tiny(folder, table)
    return folder


def fresh(tiny_cache: Path) -> Panel:
    """The tiny panel as a new process would get it (nothing kept in this one)."""
    panel_build._PANELS.clear()
    return shared_panel(("tiny",), 500, tiny_cache, None)


def test_one_panel_however_shared_panel_is_called(tiny_cache: Path) -> None:
    first = fresh(tiny_cache)
    assert shared_panel(("tiny",), 500, str(tiny_cache), None, ()) is first
    assert shared_panel(["tiny"], 500.0, tiny_cache, min_zipf=None) is first  # type: ignore[arg-type]


def test_a_prepared_panel_is_read_back_without_loading_its_model(tiny_cache: Path) -> None:
    built = fresh(tiny_cache)  # the first: built from the model, then prepared in the cache
    board = tuple(c for c in DECK[:40] if c in built.minds[0].model)[:25]
    built.board_z(board)  # the first board of the deck makes its table
    built.legal_mask("classic", board)  # ... and its legality rows
    again = fresh(tiny_cache)
    assert again is not built and again.words == built.words
    assert again.minds[0].calibration == built.minds[0].calibration
    assert again.minds[0]._model is None  # not loaded yet
    z = again.board_z(board)
    mask = again.legal_mask("classic", board)
    assert again.minds[0]._model is None  # a deck board: tables and stored legality only
    direct = Panel([Mind("tiny", built.minds[0].model, built.minds[0].calibration)],
                   built.words)
    assert np.allclose(z, direct.board_z(board), atol=1e-5, equal_nan=True)
    expected = CandidateFilter(built.words, "classic").legal_mask(board)
    assert np.array_equal(mask, expected)


def test_a_card_outside_the_decks_is_computed_and_kept(tiny_cache: Path) -> None:
    p = fresh(tiny_cache)
    board = tuple(w for w in vectors() if w not in DECK)[:3]  # not Words deck cards
    z = p.board_z(board)
    assert p.minds[0]._model is not None and len(p._cards) == 3
    assert np.array_equal(p.board_z(board[::-1]), z[:, ::-1])
    assert len(p._cards) == 3


def test_a_damaged_table_is_made_again(tiny_cache: Path) -> None:
    p = fresh(tiny_cache)
    board = tuple(c for c in DECK[:40] if c in p.minds[0].model)[:5]
    z = p.board_z(board)
    prepared = next(tiny_cache.glob("models/tiny/panel-*/prepared-*"))
    table = next(prepared.glob("table-*.npy"))
    table.write_bytes(table.read_bytes()[:-4096])  # cut short
    assert CheckedFolder(prepared).problem([table.name])
    again = fresh(tiny_cache)
    assert np.allclose(again.board_z(board), z, equal_nan=True)
    assert not CheckedFolder(prepared).problem([table.name])


def test_stored_legality_rows_answer_as_the_filter_does(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    words = ("cut", "knives", "fruit", "apples", "music", "drummer", "water", "river", "ice",
             "iceberg", "moonlight", "bread")
    deck = tuple((card, ()) for card in DECK)
    rng = np.random.default_rng(3)
    boards = [tuple(rng.choice(DECK, 25, replace=False)) for _ in range(5)]
    boards.append(("knife", "apple", "drum", "moon", "river"))  # deck cards seen
    reference = CandidateFilter(words, "classic")
    writer = LegalClues(words, tmp_path, [deck])
    for board in boards:
        if set(board) <= set(DECK):
            assert np.array_equal(writer.legal_mask("classic", board),
                                  reference.legal_mask(board))
    # A new process: nothing shared in memory, only what the writer kept in the folder.
    monkeypatch.setattr(space, "_SHARED_FILTERS", BoundedCache(8))
    monkeypatch.setattr(space, "_SHARED_DECK_ROWS", BoundedCache(8))
    reader = LegalClues(words, tmp_path, [deck])
    for board in boards:
        if set(board) <= set(DECK):
            assert np.array_equal(reader.legal_mask("classic", board),
                                  reference.legal_mask(board))
    assert reader._filters == {}  # answered from the stored rows alone
    outside = ("knife", "zebra crossing")
    assert np.array_equal(reader.legal_mask("classic", outside), reference.legal_mask(outside))


def test_the_bounded_cache_drops_the_least_recently_used_and_builds_once_per_key() -> None:
    cache: BoundedCache[str, list[int]] = BoundedCache(2)
    a = cache.get_or_build("a", lambda: [1])
    cache.get_or_build("b", lambda: [2])
    assert cache.get("a") is a  # a is now the most recent
    cache.put("c", [3])
    assert cache.get("b") is None and cache.get("a") is a and len(cache) == 2
    results: list[list[int]] = []
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        results.append(cache.get_or_build("d", lambda: [4]))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r is results[0] for r in results)
    with pytest.raises(ValueError):
        BoundedCache(0)


def test_reading_the_partner_bit_by_bit_equals_reading_the_whole_game() -> None:
    game = state()
    agent = spymaster(panel())
    game.apply(agent.give_clue(game.spymaster_view(Team.RED)))  # cut 2
    midway = game.spymaster_view(Team.RED)
    game.apply(Guess(CARDS.index("knife")))
    game.apply(Guess(CARDS.index("pear")))  # a bystander: the turn ends
    game.apply(Clue("water", 1))  # blue
    game.forfeit()
    view = game.spymaster_view(Team.RED)
    p = panel()
    stepwise = PartnerReader(view.words, Team.RED, 2)
    stepwise.read(midway, p, "mean", {})
    assert stepwise.follows(view)
    stepwise.read(view, p, "mean", {})
    whole = PartnerReader(view.words, Team.RED, 2)
    whole.read(view, p, "mean", {})
    a = stepwise.model([["knife", "scissors"]], 1.0, 0.15)
    b = whole.model([["knife", "scissors"]], 1.0, 0.15)
    assert np.array_equal(a.weights, b.weights)
    assert (a.failed, a.given, a.leftovers, a.touches, a.early_stops) == \
        (b.failed, b.given, b.leftovers, b.touches, b.early_stops) == \
        (frozenset({"cut"}), frozenset({"cut"}), ("scissors",), 2, 0.0)
    other_game = state().spymaster_view(Team.RED)
    assert not stepwise.follows(other_game)  # a new game: read from the start


def test_a_spymaster_reads_each_new_game_from_its_start() -> None:
    agent = spymaster(panel())
    first = state()
    first.apply(agent.give_clue(first.spymaster_view(Team.RED)))
    first.apply(Guess(CARDS.index("pear")))
    first.forfeit()
    assert agent.read_partner(first.spymaster_view(Team.RED)).touches == 1
    assert agent.read_partner(state().spymaster_view(Team.RED)).touches == 0


def test_several_words_read_at_once_as_one_by_one() -> None:
    p = panel(drop_b=("pear",))
    words = ["cut", "blade", "knife", "nonsense"]
    together = p.words_z(words, CARDS)
    for i, word in enumerate(words):
        assert np.allclose(together[:, i], p.clue_z(word, CARDS), equal_nan=True)


def test_covering_picks_the_own_agent_closest_to_danger() -> None:
    agent = PanelSpymaster(panel=panel())
    # The cover phase of a co-op game, asked of red's own agents (which one is closest to a
    # card of another kind is what decides).
    plain = state().spymaster_view(Team.RED)
    own = tuple(i for i in plain.unrevealed if plain.key[i] is Team.RED.agent)
    view = dataclasses.replace(plain, cover_candidates=own)
    harm = {}
    for index in view.unrevealed:
        if view.key[index] is Team.RED.agent:
            others = [view.words[i] for i in view.unrevealed if view.key[i] is not
                      Team.RED.agent]
            harm[index] = float(np.nanmax(agent.panel.clue_z(view.words[index], others)))
    expected = max(view.cover_candidates, key=lambda i: (harm.get(i, 0.0), -i))
    assert agent.choose_cover(view).index == expected


def test_a_quick_checked_file_is_found_cut_or_overwritten(tmp_path: Path) -> None:
    folder = CheckedFolder(tmp_path)
    data = np.arange(200_000, dtype=np.float32).tobytes()
    folder.write("table.bin", data, quick=True)
    assert folder.entries()["table.bin"]["checksum"].startswith("crc32-quick:")
    assert folder.problem(["table.bin"]) == "" and folder.read("table.bin") == data
    (tmp_path / "table.bin").write_bytes(data[:-8])
    assert "bytes" in folder.problem(["table.bin"])
    (tmp_path / "table.bin").write_bytes(b"\xff" * 4 + data[4:])  # the first block is sampled
    assert "checksum" in folder.problem(["table.bin"])
    assert folder.read("table.bin") is None


def test_the_rules_core_reads_an_ai_clue_from_the_deck_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the rows this test makes: rows another test remembered in this process (strict
    # ones of the same words, say) would answer the last question below.
    monkeypatch.setattr(deckrows, "_KNOWN", [])
    monkeypatch.setattr(space, "_SHARED_DECK_ROWS", BoundedCache(8))
    words = ("cut", "knives", "fruit", "apples", "music", "drummer", "water", "moonlight")
    deck = tuple((card, ()) for card in DECK)
    board = ("knife", "apple", "drum", "moon", "river")
    keys = [(card, ()) for card in board]
    mask = LegalClues(words, tmp_path, [deck]).legal_mask("classic", board)  # rows remembered
    assert not mask.all() and mask.any()
    validator = LegalityValidator(clue_rules("classic"))
    for word, legal in zip(words, mask, strict=True):
        assert known_legal("classic", word, keys) is bool(legal)
        assert (validator.check_against(word, board) is None) is bool(legal)
    assert not known_legal("classic", "saxophone", keys)  # not a candidate: analysed
    assert not known_legal("classic", "cut", [*keys, ("zebra crossing", ())])  # off the deck
    assert not known_legal("strict", "cut", keys)  # rows of another rule set
