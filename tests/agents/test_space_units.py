"""Clue spaces as units: scores, the board cache and the legality mask of a ``ClueSpace``;
an ``EnsembleSpace``'s shared words and mean standard scores; the project's own build of a
space from a tiny model; and the EV spymaster's shortlist, whose pruning must give the same
list as ranking every candidate, on many random boards."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.agents.space import ClueSpace, EnsembleSpace, calibrate, clue_space
from codenames_ai.agents.spymasters import Board, EVSpymaster
from codenames_ai.agents.vocabulary import vocabulary_file
from codenames_ai.core import Team
from codenames_ai.decks import default_deck
from codenames_ai.vectors import ModelStore, WordVectors
from codenames_ai.vectors.manifest import CheckedFolder

from .tiny_space import CARDS, CLUES, cosine, game, load_tiny, make_space

# -- a random tiny space: 8 dimensions, 24 cards of the Words deck, 300 clue words ------------

DECK_CARDS = default_deck("words")[:24]
CLUE_WORDS = tuple(f"clue{i:03d}" for i in range(300))


def random_table(seed: int, words: tuple[str, ...]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {w: rng.normal(size=8) for w in words}


@pytest.fixture(scope="module")
def random_spaces(tmp_path_factory: pytest.TempPathFactory) -> tuple[ClueSpace, ClueSpace]:
    """Two models of the same cards; the second lacks every 7th clue word."""
    folder = tmp_path_factory.mktemp("random")
    spaces = []
    for seed, words in ((1, CLUE_WORDS), (2, tuple(w for i, w in enumerate(CLUE_WORDS)
                                                  if i % 7))):
        model = load_tiny(folder / f"m{seed}", random_table(seed, DECK_CARDS + words),
                          name=f"random{seed}")
        rows = np.array([model.index(w) for w in words], dtype=np.intp)
        matrix = np.ascontiguousarray(model.unit_matrix[rows])
        spaces.append(ClueSpace(model, words, matrix, calibrate(model, words, matrix)))
    return spaces[0], spaces[1]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> WordVectors:
    return load_tiny(tmp_path_factory.mktemp("tiny"))


# -- ClueSpace -------------------------------------------------------------------------------


def test_scores_are_the_cosines_of_candidates_and_cards(tiny: WordVectors) -> None:
    space = make_space(tiny)
    cards = ("knife", "scissors", "glue")
    scores = space.scores(None, cards)
    assert scores.shape == (len(space.words), 3)
    cut = space.words.index("cut")
    assert scores[cut] == pytest.approx([0.60, 0.56, 0.12], abs=1e-5)
    some = np.array([cut, space.words.index("chef")], dtype=np.intp)
    assert space.scores(some, cards) == pytest.approx(scores[some], abs=1e-6)
    assert space.scores(some, cards)[1] == pytest.approx([0.55, 0, 0], abs=1e-5)


def test_the_board_scores_are_kept_for_the_last_few_boards(tiny: WordVectors) -> None:
    space = make_space(tiny)
    first = space.board_scores(("knife", "glue"))
    assert first.shape == (2, len(space.words)) and not first.flags.writeable
    assert space.board_scores(("knife", "glue")) is first
    other = space.board_scores(("glue", "knife"))
    assert other is not first and np.array_equal(other, first[::-1])
    assert space.board_scores(("knife", "glue")) is first  # both boards kept
    for card in CARDS:  # more boards than the cache holds: the first is dropped
        space.board_scores((card,))
    again = space.board_scores(("knife", "glue"))
    assert again is not first and np.array_equal(again, first)


def test_the_basic_legal_mask_removes_face_up_card_words_in_any_case(tiny: WordVectors) -> None:
    space = make_space(tiny)
    mask = space.legal_mask("basic", ("KNIFE", "Glue ", "river"))
    banned = {w for w, legal in zip(space.words, mask, strict=True) if not legal}
    assert banned == {"knife", "glue", "river"}
    assert space.index("Knife") == space.words.index("knife") and space.index("zyx") is None


def test_a_space_built_by_the_project_from_a_tiny_model_plays_like_the_hand_built_one(
        tiny: WordVectors) -> None:
    # clue_space keeps the model's frequent dictionary words as candidates (KNIVES too: the
    # classic rules forbid it next to KNIFE), and calibrates on the deck cards the model knows.
    space = clue_space(tiny, vocabulary_size=100)
    assert set(space.words) <= set(CLUES) | set(CARDS)
    assert {"cut", "chef", "music", "knife"} <= set(space.words)
    assert space.calibration.std > 0
    assert space.calibration.quantiles == tuple(sorted(space.calibration.quantiles))
    agent = EVSpymaster(space=space)
    agent.start_game(0)
    board = "knife:R scissors:R apple:R piano:R pear:B horse:B drum:B river:N bread:N glue:A"
    assert agent.give_clue(game(board).spymaster_view(Team.RED)).word == "knives"
    state = game(board, clue_rules="classic")
    # (Its number depends on the calibration: most cosines of this tiny model are 0 or 1.)
    assert agent.give_clue(state.spymaster_view(Team.RED)).word == "cut"


def test_a_stored_vocabulary_naming_a_word_the_model_lost_is_built_again(
        tmp_path: Path) -> None:
    """Review, low: a model whose words, vectors and description were changed together (its
    manifest updated) kept the vocabulary file beside it, which named a word now gone:
    ``model.index`` gave None, a TypeError traceback. Such a vocabulary is stale."""
    model = load_tiny(tmp_path)
    before = clue_space(model, vocabulary_size=100, cache_dir=tmp_path)
    assert "chef" in before.words
    store = ModelStore(tmp_path)
    folder = store.path("tiny")
    words = json.loads((folder / "words.json").read_text())
    gone = words.index("chef")
    (folder / "words.json").write_text(json.dumps(words[:gone] + words[gone + 1:]))
    np.save(folder / "vectors.npy", np.delete(np.load(folder / "vectors.npy"), gone, axis=0))
    meta = json.loads((folder / "meta.json").read_text())
    meta["vocabulary"] -= 1
    (folder / "meta.json").write_text(json.dumps(meta))
    CheckedFolder(folder).list_files(["words.json", "vectors.npy", "meta.json"])
    space = clue_space(store.open("tiny"), vocabulary_size=100, cache_dir=tmp_path)
    assert set(space.words) == set(before.words) - {"chef"}
    kept = CheckedFolder(folder).read(vocabulary_file(100))
    assert kept is not None and kept.decode().split() == list(space.words)


# -- EnsembleSpace ---------------------------------------------------------------------------


def test_an_ensemble_keeps_the_words_every_model_knows_in_the_first_ones_order(
        random_spaces: tuple[ClueSpace, ClueSpace]) -> None:
    one, two = random_spaces
    ensemble = EnsembleSpace([one, two])
    assert ensemble.words == tuple(w for i, w in enumerate(CLUE_WORDS) if i % 7)
    assert EnsembleSpace([two, one]).words == ensemble.words
    assert ensemble.name == "random1+random2"
    with pytest.raises(ValueError, match="at least two"):
        EnsembleSpace([one])


def test_an_ensemble_scores_the_mean_of_each_models_standard_units(
        random_spaces: tuple[ClueSpace, ClueSpace]) -> None:
    one, two = random_spaces
    ensemble = EnsembleSpace([one, two])
    cards = DECK_CARDS[:5]
    scores = ensemble.scores(None, cards)
    for row in (0, 17, len(ensemble.words) - 1):
        word = ensemble.words[row]
        expected = np.mean([
            [(cosine(s.model, word, c) - s.calibration.mean) / s.calibration.std for c in cards]
            for s in (one, two)], axis=0)
        assert scores[row] == pytest.approx(expected, abs=1e-4)
    picked = np.array([3, 1], dtype=np.intp)
    assert ensemble.scores(picked, cards) == pytest.approx(scores[picked], abs=1e-5)
    # The ensemble's calibration is of its own (standard) scores: about mean 0, spread 1.
    assert abs(ensemble.calibration.mean) < 0.3 and 0.6 < ensemble.calibration.std < 1.4


# -- the EV spymaster's shortlist: pruned == unpruned -------------------------------------------


def unpruned_shortlist(board: Board, size: int, max_number: int) -> np.ndarray:
    """The shortlist as ``EVSpymaster._shortlist`` documents it, ranking every candidate:
    legal candidates whose nearest card is an own card (all legal ones by that lead when
    fewer than ``size``), the best ``size`` by max over k of (k-th own card - nearest other
    card) x k^0.6."""
    sims = board.similarity
    n_own = board.own_count
    own, bad = sims[:, :n_own], sims[:, n_own:].max(axis=1)
    lead = np.where(board.legal, own.max(axis=1) - bad, -np.inf)
    positive = np.flatnonzero(lead > 0)
    if positive.size < size:
        return np.sort(np.argsort(-lead, kind="stable")[: min(size, int(board.legal.sum()))])
    ks = np.arange(1, min(max_number, n_own) + 1)
    best = -np.sort(-own[positive], axis=1)[:, : ks.size]
    score = ((best - bad[positive, None]) * ks ** 0.6).max(axis=1)
    return np.sort(positive[np.argsort(-score, kind="stable")[:size]])


def random_board(rng: random.Random) -> str:
    """12 of the 24 cards: 2-6 red (to play), 2-5 blue, one assassin, bystanders."""
    cards = rng.sample(DECK_CARDS, 12)
    red, blue = rng.randint(2, 6), rng.randint(2, 5)
    marks = ["R"] * red + ["B"] * blue + ["A"] + ["N"] * (12 - red - blue - 1)
    rng.shuffle(marks)
    return " ".join(f"{c}:{m}" for c, m in zip(cards, marks, strict=True))


@pytest.mark.parametrize("kind", ["clue-space", "ensemble"])
def test_the_pruned_shortlist_is_the_unpruned_one_on_random_boards(
        kind: str, random_spaces: tuple[ClueSpace, ClueSpace]) -> None:
    space = random_spaces[0] if kind == "clue-space" else EnsembleSpace(list(random_spaces))
    rng = random.Random(2024)
    boards = pruned_some = 0
    for _ in range(150):
        layout = random_board(rng)
        size, max_number = rng.choice((4, 8, 16, 32)), rng.randint(1, 4)
        agent = EVSpymaster(space=space, max_number=max_number)
        board = agent.read_board(game(layout).spymaster_view(Team.RED))
        got = agent._shortlist(board, size)
        expected = unpruned_shortlist(board, size, max_number)
        assert np.array_equal(got, expected), (layout, size, max_number)
        assert board.legal[got].all()
        # Did the pruning step drop anything here (ceiling below the size-th best lead)?
        sims = board.similarity
        lead = sims[:, : board.own_count].max(axis=1) - sims[:, board.own_count:].max(axis=1)
        lead = lead[board.legal & (lead > 0)]
        if lead.size > size:
            boards += 1
            ceiling = lead * min(max_number, board.own_count) ** 0.6
            pruned_some += bool((ceiling < np.sort(lead)[-size]).any())
    assert boards >= 50 and pruned_some >= 20  # the pruning step was exercised


def test_the_shortlist_of_a_board_with_few_safe_clues_takes_the_best_leads(
        tiny: WordVectors) -> None:
    # Board A of the spymaster tests: only a few candidates have an own card nearest; the
    # shortlist is filled up by lead, and never holds an illegal (face-up card) word.
    space = make_space(tiny)
    agent = EVSpymaster(space=space)
    layout = ("knife:R scissors:R apple:R piano:R pear:B horse:B drum:B river:N bread:N "
              "radio:N moon:N glue:A")
    board = agent.read_board(game(layout).spymaster_view(Team.RED))
    got = agent._shortlist(board, 6)
    assert np.array_equal(got, unpruned_shortlist(board, 6, 4))
    words = {space.words[i] for i in got}
    assert {"cut", "chef", "music"} <= words
    assert not words & {"knife", "scissors", "apple", "piano"}

