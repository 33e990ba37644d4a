"""Embedding spymasters: the expected-value spymaster and two published baselines.

All score every legal candidate clue against every face-up card in one matrix product
(``candidates @ cards.T``) and never give an illegal clue: candidates are filtered with the
game's own clue rules first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated

import numpy as np
import numpy.typing as npt

from ..core.actions import Clue, Cover
from ..core.cards import Standing
from ..core.errors import ModelError
from ..core.views import SpymasterView
from ..pictures import shipped_captions
from ..vectors.model import DEFAULT_PICTURE_MEANING, PICTURE_MEANINGS
from .explain import Alternative, ClueExplanation, ExplainsClues, ScoredCard
from .options import CacheDir, DeckCaptions, Help, PictureMeaning, VocabularySize
from .space import DEFAULT_VOCABULARY, ClueSpace, EnsembleSpace, clue_space

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

# A face-up card's code in the agents' arrays: its standing to the spymaster's team.
OWN, OPPONENT, BYSTANDER, ASSASSIN = (int(standing) for standing in Standing)
MaxNumber = Annotated[int, Help("the largest number it gives")]


@dataclass(frozen=True)
class Board:
    """A spymaster's reading of the table: face-up cards (own cards first), their identity
    codes, and the similarity of every candidate clue to every face-up card. Rows are the
    clue space's words; ``legal`` marks the rows that are legal clues now (illegal rows are
    kept, not copied out, and must be skipped)."""

    words: tuple[str, ...]  # face-up cards, own cards first
    codes: npt.NDArray[np.int8]  # OWN, OPPONENT, BYSTANDER, ASSASSIN per face-up card
    legal: npt.NDArray[np.bool_]  # (V,)
    similarity: FloatArray  # (V, len(words))
    own_left: int
    opponent_left: int

    @property
    def own_count(self) -> int:
        """Own cards are the first ``own_count`` columns."""
        return int((self.codes == OWN).sum())


class EmbeddingSpymaster(ExplainsClues):
    """Shared machinery: the clue space, reading the board, covers and explanations.
    ``pictures`` are the captions of the picture deck it plays with (default: the shipped
    emoji deck, ``pictures.shipped_captions``)."""

    agent_id = "embedding-spymaster"

    def __init__(self, *, model: Annotated[str | tuple[str, ...], Help(
                     "word-vector model(s); two or more make an ensemble")] = "glove-6b-50d",
                 vocabulary_size: VocabularySize = DEFAULT_VOCABULARY,
                 cache_dir: CacheDir = None, max_number: MaxNumber = 4,
                 space: Annotated[ClueSpace | EnsembleSpace | None, Help(
                     "a ready clue space (Python only)")] = None,
                 picture_meaning: PictureMeaning = DEFAULT_PICTURE_MEANING,
                 pictures: DeckCaptions = None) -> None:
        if max_number < 1:
            raise ValueError(f"max_number must be at least 1, got {max_number}")
        if space is None:
            names = (model,) if isinstance(model, str) else tuple(model)
            spaces = [clue_space(name, vocabulary_size=vocabulary_size, cache_dir=cache_dir)
                      for name in names]
            space = spaces[0] if len(spaces) == 1 else EnsembleSpace(spaces)
        self.space = space
        self.max_number = max_number
        if picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {picture_meaning!r}; choose one of "
                             f"{', '.join(PICTURE_MEANINGS)}")
        self.picture_meaning = picture_meaning
        self.pictures = shipped_captions() if pictures is None else pictures
        super().__init__()

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        """Do the work its clue space shares between agents on a board (the cards' legality,
        the similarity matrix) before the game, so a timed move is this agent's own."""
        self.space.legal_mask(clue_rules, words, self.pictures)
        if words:
            self.space.board_scores(words, self.picture_meaning, self.pictures)

    def model_names(self) -> tuple[str, ...]:
        """The models of its clue space."""
        return self.space.model_names()

    def read_board(self, view: SpymasterView) -> Board:
        own = view.team.agent
        face_up = sorted(view.unrevealed, key=lambda i: view.key[i] is not own)
        words = tuple(view.words[i] for i in face_up)
        codes = np.array([view.key[i].standing(view.team) for i in face_up], dtype=np.int8)
        if not (codes == OWN).any():
            raise ModelError(f"{view.team.value} has no agents left to find; nothing to clue")
        legal = self.space.legal_mask(view.rules.clue_rules, view.visible_words, self.pictures)
        if not legal.any():
            raise ModelError(
                f"none of the {len(self.space.words):,} candidate clues is legal on this "
                "board; use a larger vocabulary")
        similarity = self._similarity(view.words, face_up)
        return Board(words, codes, legal, similarity, view.cards_left(view.team),
                     view.cards_left(view.team.other))

    def _similarity(self, cards: tuple[str, ...], face_up: list[int]) -> FloatArray:
        """Every candidate's similarity to the ``face_up`` cards, shape (V, n): the face-up
        rows of the space's board matrix (computed once per board, card-major, so that
        reductions over cards run along contiguous memory)."""
        picked: FloatArray = self.space.board_scores(cards, self.picture_meaning,
                                                     self.pictures)[face_up].T
        return picked

    def clue_word(self, board: Board, row: int) -> str:
        return self.space.words[row]

    def explain(self, board: Board, row: int, number: int, score: float,
                alternatives: tuple[Alternative, ...], notes: str = "") -> ClueExplanation:
        sims = board.similarity[row]
        own = np.flatnonzero(board.codes == OWN)
        targets = own[np.argsort(-sims[own], kind="stable")][:number]
        bad = np.flatnonzero(board.codes != OWN)
        danger = None
        margin = float(sims[targets].min())
        if bad.size:
            worst = bad[int(np.argmax(sims[bad]))]
            danger = ScoredCard(board.words[worst], float(sims[worst]))
            margin -= float(sims[worst])
        clue = Clue(self.clue_word(board, row), number)
        return ClueExplanation(
            clue, tuple(ScoredCard(board.words[t], float(sims[t])) for t in targets),
            danger, margin, score, alternatives, notes)

    def choose_cover(self, view: SpymasterView) -> Cover:
        """Cover the card that hurts this team most while it stays face up: an own agent
        that looks like a dangerous card, or (co-op) a virtual agent that looks like ours."""
        own = view.team.agent
        candidates = list(view.cover_candidates)
        mine = [i for i in view.unrevealed if view.key[i] is own]
        theirs = [i for i in view.unrevealed if view.key[i] is not own]
        model = self.space.model

        def harm(index: int) -> float:
            others = theirs if view.key[index] is own else mine
            others = [i for i in others if i != index]
            if not others:
                return 0.0
            vector = model.card_vector(view.words[index], pictures=self.pictures)
            return float(np.max(model.card_matrix([view.words[i] for i in others],
                                                  pictures=self.pictures) @ vector))

        return Cover(max(candidates, key=lambda i: (harm(i), -i)))


@dataclass(frozen=True)
class EVConfig:
    """Risk settings of the expected-value spymaster.

    The simulated guesser sees similarities that differ from ours by Gaussian noise of
    ``noise`` calibration spreads, guesses in order, and stops below the ``stop_quantile`` of
    unrelated-pair similarities (after its first guess) or after the clue's number. A clue's
    value is the expected own cards found, plus ``win_bonus`` when that finishes the team, minus
    the expected costs of the card that ends the turn.
    """

    noise: float = 0.4
    samples: int = 32
    shortlist: int = 128
    stop_quantile: float | None = 0.95  # None: the guesser always tries the full number
    assassin_cost: float = 6.0
    opponent_cost: float = 1.0
    bystander_cost: float = 0.0
    win_bonus: float = 3.0
    risk: float = 1.0  # scales every cost: below 1 bolder, above 1 more careful
    adapt_to_score: bool = True  # a team behind takes more risk, a team ahead less


# Tuned on seeded boards (python -m benchmarks.agents; two-team duels against the threshold
# baseline): less noise and a stricter stop made clues more precise for a same-model guesser.
class Strength(Enum):
    """How much risk an EV spymaster's clues take: its ``risk`` option, which every front end
    offers as the AI's strength."""

    CAUTIOUS = "cautious"
    NORMAL = "normal"
    BOLD = "bold"


RISK_PRESETS = {
    Strength.CAUTIOUS.value: EVConfig(risk=1.6, noise=0.6, stop_quantile=0.97),
    Strength.NORMAL.value: EVConfig(),
    Strength.BOLD.value: EVConfig(risk=0.6, noise=0.3, stop_quantile=0.90),
}


class EVSpymaster(EmbeddingSpymaster):
    """Ranks clues by the expected outcome of the turn under a model of an uncertain guesser
    (a guesser whose similarities differ from ours), so clues need a margin another mind can
    see, not just a win on our own embedding."""

    agent_id = "ev-spymaster-v1"

    def __init__(self, *, config: Annotated[EVConfig | None, Help(
                     "an EVConfig (Python only)")] = None,
                 risk: Annotated[str | None, Help("how much risk its clues take",
                                                  choices=tuple(RISK_PRESETS))] = None,
                 **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        if risk is not None and risk not in RISK_PRESETS:
            raise ValueError(f"unknown risk {risk!r}; choose one of {sorted(RISK_PRESETS)}")
        self.config = config or RISK_PRESETS[risk or "normal"]

    def give_clue(self, view: SpymasterView) -> Clue:
        board = self.read_board(view)
        cfg = self.config
        calibration = self.space.calibration
        rows = self._shortlist(board, cfg.shortlist)
        sims = board.similarity[rows]  # (M, n)
        sigma = cfg.noise * calibration.std
        threshold = (calibration.quantile(cfg.stop_quantile) if cfg.stop_quantile is not None
                     else -np.inf)
        noisy = sims[:, None, :] + sigma * self._rng.standard_normal(
            (len(rows), cfg.samples, sims.shape[1]), dtype=np.float32)
        # The guesser touches cards best first. Without sorting: the own cards above the best
        # other card come first (``ahead`` of them), then that other card ends the turn; and it
        # only touches cards above its threshold (at least one).
        n_own = board.own_count  # own cards are the first columns
        other = noisy[:, :, n_own:]
        worst = np.argmax(other, axis=2)
        best_other = np.take_along_axis(other, worst[..., None], axis=2)[..., 0]
        wrong_code = board.codes[n_own:][worst]
        ahead = (noisy[:, :, :n_own] > best_other[..., None]).sum(axis=2)
        willing = np.maximum((noisy >= threshold).sum(axis=2), 1)
        cost = self._costs(board)
        numbers = np.arange(1, min(self.max_number, board.own_left) + 1)
        values = np.empty((len(rows), numbers.size), dtype=np.float64)
        for j, tries in enumerate(numbers):
            attempts = np.minimum(tries, willing)
            found = np.minimum(attempts, ahead)
            hit = ahead < attempts
            value = found + cfg.win_bonus * (found >= board.own_left)
            value = value - hit * cost[wrong_code]
            values[:, j] = value.mean(axis=1)
        best_row, best_col = np.unravel_index(int(np.argmax(values)), values.shape)
        number = int(numbers[best_col])
        best_per_row = values.max(axis=1)
        runner_rows = [r for r in np.argsort(-best_per_row, kind="stable") if r != best_row][:3]
        alternatives = tuple(
            Alternative(Clue(self.clue_word(board, int(rows[r])),
                             int(numbers[int(np.argmax(values[r]))])), float(best_per_row[r]))
            for r in runner_rows)
        explanation = self.explain(
            board, int(rows[best_row]), number, float(values[best_row, best_col]), alternatives,
            notes=f"expected cards this turn (guesser noise {sigma:.3f}, stops below "
                  f"{threshold:.2f})")
        self.explanations.append(explanation)
        return explanation.clue

    def _shortlist(self, board: Board, size: int) -> IntArray:
        """The legal candidates worth simulating: best by the gap between their k-th nearest
        own card and their nearest other card, for any k. Only clues whose nearest card is an
        own card can have a positive gap, so only those are ranked (unless too few are)."""
        by_card = board.similarity.T  # (cards, V): contiguous when the space computed it so
        n_own = board.own_count
        own = by_card[:n_own]  # own cards are the first rows
        bad = by_card[n_own:].max(axis=0)
        lead = np.where(board.legal, own.max(axis=0) - bad, -np.inf)
        pool = np.flatnonzero(lead > 0)
        if pool.size < size:
            legal_count = int(board.legal.sum())
            pool = np.argsort(-lead, kind="stable")[: min(size, legal_count)]
        ks = np.arange(1, min(self.max_number, n_own) + 1)
        weights = ks ** 0.6
        if pool.size > size:
            # A score lies between lead (k = 1) and lead x the largest weight, so a candidate
            # whose ceiling is below the size-th best lead cannot make the list: drop it
            # before the per-card sort (the same list, several times faster).
            floor = np.partition(lead[pool], pool.size - size)[pool.size - size]
            pool = pool[lead[pool] * weights[-1] >= floor]
        candidates = own[:, pool]  # (n_own, P)
        if ks.size < n_own:  # the ks.size best rows of each column, then only those sorted
            candidates = -np.partition(-candidates, ks.size - 1, axis=0)[: ks.size]
        best = -np.sort(-candidates, axis=0)[: ks.size]  # (k, P): k-th best own card
        score = ((best - bad[pool]) * weights[:, None]).max(axis=0)
        if pool.size <= size:
            return np.sort(pool)
        return np.sort(pool[np.argpartition(-score, size - 1)[:size]])

    def _costs(self, board: Board) -> npt.NDArray[np.float64]:
        cfg = self.config
        scale = cfg.risk
        if cfg.adapt_to_score:
            behind = board.own_left - board.opponent_left
            scale *= float(np.clip(1.0 - 0.08 * behind, 0.6, 1.4))
        opponent = cfg.opponent_cost * scale
        if board.opponent_left <= 1:
            opponent = cfg.assassin_cost  # their last card: giving it to them loses the game
        return np.array([0.0, opponent, cfg.bystander_cost * scale,
                         max(cfg.assassin_cost * scale, 2.0)])


class ThresholdSpymaster(EmbeddingSpymaster):
    """The AIIDE 2019 competition baseline, from its description: for groups of the 1-3 own
    words nearest a clue, the clue qualifies when its largest cosine distance to the group is
    below its smallest distance to any other card; the largest group whose worst distance is
    under ``threshold`` wins (ties: the smaller worst distance)."""

    agent_id = "threshold-spymaster-v1"

    def __init__(self, *, threshold: Annotated[float, Help("distance cut-off")] = 0.5,
                 max_number: MaxNumber = 3, **options: object) -> None:
        super().__init__(max_number=max_number, **options)  # type: ignore[arg-type]
        self.threshold = threshold

    def give_clue(self, view: SpymasterView) -> Clue:
        board = self.read_board(view)
        distance = 1.0 - board.similarity
        own = np.sort(distance[:, : board.own_count], axis=1)
        # An illegal clue qualifies for nothing: its nearest other card is at distance -inf.
        nearest_other = np.where(board.legal, distance[:, board.own_count:].min(axis=1),
                                 -np.inf)
        best: tuple[int, float, int] | None = None  # (k, worst distance, row)
        for k in range(min(self.max_number, own.shape[1]), 0, -1):
            worst_k = own[:, k - 1]
            ok = (worst_k < nearest_other) & (worst_k < self.threshold)
            if ok.any():
                row = int(np.flatnonzero(ok)[np.argmin(worst_k[ok])])
                best = (k, float(worst_k[row]), row)
                break
        notes = f"largest qualifying group under distance {self.threshold}"
        if best is None:  # nothing qualifies: the single closest own card
            margin = np.where(board.legal, own[:, 0] - distance[:, board.own_count:].min(axis=1),
                              np.inf)
            row = int(np.argmin(margin))
            best = (1, float(own[row, 0]), row)
            notes = "no group qualifies: the safest single-card clue"
        k, worst, row = best
        explanation = self.explain(board, row, k, 1.0 - worst, (), notes)
        self.explanations.append(explanation)
        return explanation.clue


class GapSpymaster(EmbeddingSpymaster):
    """The "gap" spymaster, from its description: score = (similarity of the n-th best target
    - highest similarity to any non-target) x n^0.6; the best (clue, n) wins."""

    agent_id = "gap-spymaster-v1"

    def __init__(self, *, exponent: Annotated[float, Help("reward for n")] = 0.6,
                 **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.exponent = exponent

    def give_clue(self, view: SpymasterView) -> Clue:
        board = self.read_board(view)
        sims = board.similarity
        own = -np.sort(-sims[:, : board.own_count], axis=1)
        bad = sims[:, board.own_count:].max(axis=1)
        ks = np.arange(1, min(self.max_number, own.shape[1]) + 1)
        scores = (own[:, : ks.size] - bad[:, None]) * ks ** self.exponent
        scores[~board.legal] = -np.inf
        row, col = np.unravel_index(int(np.argmax(scores)), scores.shape)
        explanation = self.explain(board, int(row), int(ks[col]), float(scores[row, col]), ())
        self.explanations.append(explanation)
        return explanation.clue
