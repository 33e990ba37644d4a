"""A panel of minds: word models trained on different data and objectives (co-occurrence,
a sentence encoder, a dictionary) that judge clues together.

A clue is only as good as it is for the mind it suits least: the panel spymaster simulates a
guesser on each mind, judges danger by the most pessimistic one, and gives the number the
minds agree on. It reads its partner from the game history (which cards were touched after
each clue), so it learns which minds its guesser resembles and never repeats a clue that
failed. A mind that lacks a board card abstains on that card.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core.actions import UNLIMITED, Clue, Cover, Guess, GuesserAction, Pass
from ..core.clues import normalize_word
from ..core.errors import ModelError
from ..core.events import ClueGiven, Covered, GuessMade
from ..core.views import GuesserView, PublicView, SpymasterView
from ..pictures import NO_PICTURES, Captions, shipped_captions
from ..vectors import WordVectors, load_model
from ..vectors.manifest import CheckedFolder
from ..vectors.model import DEFAULT_PICTURE_MEANING, PICTURE_MEANINGS
from ..vectors.store import ModelStore
from .explain import Alternative, ClueExplanation, ScoredCard
from .space import BoardKey, Calibration, ClueSpace, calibrate
from .spymasters import ASSASSIN, BYSTANDER, OPPONENT, OWN, _code
from .vocabulary import cached_clue_vocabulary

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

DEFAULT_MINDS = ("glove-6b-50d", "minilm-l6-words", "wordnet-3.0")
# How a player would name what each mind knows, for explanations.
MIND_LABELS = {
    "glove-6b-50d": "word use",
    "minilm-l6-words": "meaning",
    "wordnet-3.0": "the dictionary",
}
PANEL_VOCABULARY = 25_000
CANDIDATES_FILE = "candidates.txt"  # kept in the panel's cache folder
# Familiar clue words only: common (Zipf >= 3.3, i.e. about twice per million words) and
# listed by lemminflect in their base form as a noun, adjective or verb. This keeps out rare
# words (butte, vane), slang and fragments (tho, nuke), names (collin) and inflected forms
# that read oddly as clues (lays, downs).
MIN_ZIPF = 3.3
_CLUE_POS = ("NOUN", "ADJ", "VERB")


@dataclass(frozen=True)
class Mind:
    """One model of the panel: its vectors and how similar unrelated words look in it."""

    name: str
    model: WordVectors
    calibration: Calibration

    @property
    def label(self) -> str:
        return MIND_LABELS.get(self.name, self.name)

    def card_z(self, cards: Sequence[str], vectors: FloatArray,
               meaning: str = DEFAULT_PICTURE_MEANING, pictures: Captions = NO_PICTURES
               ) -> FloatArray:
        """Similarity of each card to each row of ``vectors`` in this mind's standard units,
        shape (cards, V); a card this mind cannot read is a row of NaN (it abstains).
        ``pictures``: the captions of the picture deck in play."""
        out = np.full((len(cards), len(vectors)), np.nan, dtype=np.float32)
        for i, card in enumerate(cards):
            try:
                row = self.model.card_scores([card], vectors, meaning, pictures=pictures)[0]
            except ModelError:
                continue
            out[i] = (row - self.calibration.mean) / self.calibration.std
        return out

    def word_vector(self, word: str) -> FloatArray | None:
        if word not in self.model and not self.model.has_subwords:
            return None
        return self.model.word_vector(word)


@functools.cache
def _offensive() -> frozenset[str]:
    from .vocabulary import offensive_words

    return offensive_words()


def familiar(word: str, min_zipf: float = MIN_ZIPF) -> bool:
    """A clue word most players know at once (see ``MIN_ZIPF``), and not offensive (checked
    here again: a vocabulary cached before the offensive list grew may hold such words)."""
    from ..legality.analysis import family
    from ..legality.lexicon import lexicon
    lex = lexicon()
    if lex.zipf(word) < min_zipf:
        return False
    offensive = _offensive()
    if word in offensive or family(word, lex) & offensive:
        return False
    lemmas = lex.lemmas(word)
    return any(word in lemmas.get(pos, ()) for pos in _CLUE_POS)


class Panel:
    """Minds that judge together. Candidates are familiar clue words every mind knows; each
    mind's rows of them are kept as unit matrices for one product per board."""

    def __init__(self, minds: Sequence[Mind], candidates: Sequence[str],
                 cache_folder: Path | None = None) -> None:
        if not minds:
            raise ValueError("a panel needs at least one mind")
        self.minds = tuple(minds)
        self.words = tuple(candidates)
        if not self.words:
            raise ModelError("the panel's minds share no familiar clue word")
        self.matrices = []
        for mind in self.minds:
            rows = np.array([mind.model.index(w) for w in self.words], dtype=np.intp)
            matrix = np.ascontiguousarray(mind.model.unit_matrix[rows], dtype=np.float32)
            matrix.flags.writeable = False
            self.matrices.append(matrix)
        # Legality is decided once for the candidate list, in its own cache file.
        self.filters = ClueSpace(self.minds[0].model, self.words, self.matrices[0],
                                 self.minds[0].calibration, cache_folder)
        self._normal = {normalize_word(w): i for i, w in enumerate(self.words)}
        self._board: tuple[BoardKey, FloatArray] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.minds)

    def index(self, word: str) -> int | None:
        return self._normal.get(normalize_word(word))

    def legal_mask(self, clue_rules: str, visible_words: tuple[str, ...],
                   pictures: Captions | None = None) -> npt.NDArray[np.bool_]:
        return self.filters.legal_mask(clue_rules, visible_words, pictures)

    def board_z(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                pictures: Captions = NO_PICTURES) -> FloatArray:
        """Every candidate's similarity to every card in every mind, in standard units:
        shape (minds, cards, V), NaN where a mind cannot read a card. Kept for the last
        board: both spymasters of a game, every turn, ask for the same one."""
        board = self._board
        key = (cards, meaning, tuple(pictures.get(card, ()) for card in cards))
        if board is None or board[0] != key:
            z = np.stack([mind.card_z(cards, matrix, meaning, pictures)
                          for mind, matrix in zip(self.minds, self.matrices, strict=True)])
            unread = np.isnan(z).all(axis=(0, 2))
            if unread.any():
                missing = ", ".join(repr(cards[i]) for i in np.flatnonzero(unread))
                raise ModelError(f"no mind of the panel ({', '.join(self.names)}) can read "
                                 f"the card {missing}; replace it in your deck with a common "
                                 "English word")
            z.flags.writeable = False
            board = (key, z)
            self._board = board
        return board[1]

    def clue_z(self, word: str, cards: Sequence[str], meaning: str = DEFAULT_PICTURE_MEANING,
               pictures: Captions = NO_PICTURES) -> FloatArray:
        """One word's similarity to ``cards`` in every mind, shape (minds, cards); a mind
        that lacks the word or a card abstains (NaN)."""
        out = np.full((len(self.minds), len(cards)), np.nan, dtype=np.float32)
        for m, mind in enumerate(self.minds):
            vector = mind.word_vector(word)
            if vector is not None:
                out[m] = mind.card_z(cards, vector[None, :], meaning, pictures)[:, 0]
        return out


@functools.lru_cache(maxsize=4)
def shared_panel(minds: tuple[str, ...] = DEFAULT_MINDS, vocabulary_size: int = PANEL_VOCABULARY,
                 cache_dir: str | None = None, min_zipf: float | None = MIN_ZIPF,
                 known_by: tuple[str, ...] = ()) -> Panel:
    """The panel of these minds, built once per process (loading and calibrating each mind,
    then the familiar candidates every mind knows, most frequent first). A lower
    ``min_zipf`` admits rarer words; ``None`` keeps every candidate of the lead mind's clue
    vocabulary (the speed benchmarks use it to reach 25k and 50k candidates). Candidates
    must also be words the models ``known_by`` know (leave-one-mind-out measurement keeps
    the full panel's vocabulary while leaving a mind out of the judging)."""
    models = [load_model(name, cache_dir=cache_dir) for name in minds]
    knowers = models + [load_model(name, cache_dir=cache_dir) for name in known_by]
    lead = models[0]
    folder = _panel_folder(ModelStore(cache_dir), lead.name, minds + known_by,
                           vocabulary_size, min_zipf)
    words = _read_candidates(folder)
    if words is not None:  # a mind rebuilt since may have lost words
        words = [w for w in words if all(w in m for m in knowers)]
    if not words:
        pool = cached_clue_vocabulary(lead, cache_dir, size=max(2 * vocabulary_size, 50_000))
        words = [w for w in pool if all(w in m for m in knowers[1:])
                 and (min_zipf is None or familiar(w, min_zipf))][:vocabulary_size]
        if folder is not None:
            with contextlib.suppress(OSError):  # a read-only cache costs the next run seconds
                CheckedFolder(folder).write(CANDIDATES_FILE,
                                            ("\n".join(words) + "\n").encode("utf-8"))
    built = []
    for name, model in zip(minds, models, strict=True):
        rows = np.array([model.index(w) for w in words], dtype=np.intp)
        built.append(Mind(name, model, calibrate(model, tuple(words),
                                                 model.unit_matrix[rows])))
    return Panel(built, words, folder)


def _panel_folder(store: ModelStore, lead: str, minds: tuple[str, ...], size: int,
                  min_zipf: float | None) -> Path | None:
    """Where the panel's candidates and legality filters are kept: one folder per set of
    minds, size, familiarity and offensive list (so editing the list rebuilds them)."""
    if not store.has(lead):
        return None
    offensive = hashlib.sha256(" ".join(sorted(_offensive())).encode()).hexdigest()[:8]
    folder = store.path(lead) / f"panel-{'+'.join(minds)}-{size}-{min_zipf}-{offensive}"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    return folder


def _read_candidates(folder: Path | None) -> list[str] | None:
    """The candidates an earlier run kept, if their file passes its check."""
    data = CheckedFolder(folder).read(CANDIDATES_FILE) if folder is not None else None
    return data.decode("utf-8").split() or None if data else None


@dataclass
class PartnerModel:
    """What the spymaster has learnt about its guesser from the touches after its clues:
    how much each mind explains them (a posterior over minds) and which clues failed."""

    weights: npt.NDArray[np.float64]
    failed: frozenset[str] = frozenset()
    given: frozenset[str] = frozenset()
    leftovers: tuple[str, ...] = ()  # targets of our earlier clues still face up
    touches: int = 0
    early_stops: float = 0.0  # share of our clues it stopped short of, without a miss


@dataclass(frozen=True)
class PanelConfig:
    """Settings of the panel spymaster, in each mind's standard units (z).

    The simulated guesser on each mind sees similarities with Gaussian noise of ``noise``,
    touches cards best first, stops below ``stop_z`` after its first touch or after the
    number. A clue's value per mind is the expected own cards found (plus ``win_bonus`` when
    that finishes the team) minus the expected cost of the card that ends the turn; the
    panel's value mixes the worst mind (``pessimism``) with the partner-weighted mean.
    """

    # Measured on leave-one-mind-out races (tuning boards, seeds 10000+): a mind outside
    # the panel disagrees with it by about one standard unit per card, so the simulated
    # guesser gets that much noise, and a wrong card costs more than a same-mind guesser's.
    noise: float = 1.1
    samples: int = 24
    shortlist: int = 96
    stop_z: float = 1.4
    assassin_cost: float = 14.0
    opponent_cost: float = 2.5
    bystander_cost: float = 0.8
    win_bonus: float = 3.0
    pessimism: float = 0.8
    rarity_cost: float = 0.08  # per Zipf unit below 5: prefer the more familiar word
    max_number: int = 4
    learn_rate: float = 1.0  # how fast the posterior over minds follows the touches
    weight_floor: float = 0.15  # no mind is ever ignored: an unseen mind may think like it
    composite: bool = False  # simulate one guesser on the most pessimistic reading
    timid_shift: float = 1.0  # stop_z raised by this x the share of clues it stopped short of


def _rarity(words: Sequence[str]) -> npt.NDArray[np.float64]:
    """Zipf units below 5 (about 10 per million words) of each word."""
    import wordfreq

    return np.array([max(0.0, 5.0 - wordfreq.zipf_frequency(w, "en")) for w in words],
                    dtype=np.float64)


class PanelSpymaster:
    """The default spymaster: clues that a panel of different minds agrees on. ``pictures``
    are the captions of the picture deck it plays with (default: the shipped emoji deck,
    ``pictures.shipped_captions``)."""

    agent_id = "panel-spymaster-v2"

    def __init__(self, *, minds: Sequence[str] = DEFAULT_MINDS,
                 vocabulary_size: int = PANEL_VOCABULARY, cache_dir: Path | str | None = None,
                 config: PanelConfig | None = None, panel: Panel | None = None,
                 picture_meaning: str = DEFAULT_PICTURE_MEANING,
                 model: str | None = None, min_zipf: float | None = MIN_ZIPF,
                 known_by: tuple[str, ...] = (), pictures: Captions | None = None) -> None:
        if model is not None:  # ``--model NAME``: a panel of that one mind
            minds = (model,)
        if picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {picture_meaning!r}; choose one of "
                             f"{', '.join(PICTURE_MEANINGS)}")
        self.panel = panel or shared_panel(tuple(minds), vocabulary_size,
                                           None if cache_dir is None else str(cache_dir),
                                           min_zipf, tuple(known_by))
        self.config = config or PanelConfig()
        self.picture_meaning = picture_meaning
        self.pictures = shipped_captions() if pictures is None else pictures
        self.explanations: list[ClueExplanation] = []
        self._rarity = _rarity(self.panel.words) * self.config.rarity_cost
        self._rng = np.random.default_rng(0)

    @property
    def last_explanation(self) -> ClueExplanation | None:
        return self.explanations[-1] if self.explanations else None

    def start_game(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.explanations = []

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        """Do the work its panel shares between agents on a board (the cards' legality, the
        standardised similarities) before the game, so a timed move is this agent's own."""
        assert self.panel is not None
        self.panel.legal_mask(clue_rules, words, self.pictures)
        self.panel.board_z(words, self.picture_meaning, self.pictures)

    # -- reading the partner ------------------------------------------------------------
    def read_partner(self, view: PublicView) -> PartnerModel:
        """Replay the game so far: after each of our clues, how likely was each touch under
        each mind (a softmax over the cards face up at that moment)? A clue failed when its
        turn found no own card or touched another card before the number was reached."""
        cfg = self.config
        log_like = np.zeros(len(self.panel.minds))
        face_up = set(range(len(view.words)))
        own = view.team.agent
        given: set[str] = set()
        failed: set[str] = set()
        touches = 0
        current: ClueGiven | None = None
        found = 0
        missed = False
        leftovers: list[str] = []
        numbered = stopped_short = 0

        def close() -> None:
            nonlocal numbered, stopped_short
            if current is None or not isinstance(current.clue.number, int):
                return
            if current.clue.number > 0:
                numbered += 1
                stopped_short += not missed and found < current.clue.number
            if found == 0 or (missed and found < max(current.clue.number, 1)):
                failed.add(normalize_word(current.clue.word))

        for event in view.history:
            if isinstance(event, ClueGiven):
                if current is not None:
                    close()
                current = event if event.team is view.team else None
                found, missed = 0, False
                if current is not None:
                    given.add(normalize_word(event.clue.word))
            elif isinstance(event, GuessMade):
                if current is not None and event.team is view.team and event.turn == current.turn:
                    cards = sorted(face_up)
                    z = self.panel.clue_z(current.clue.word, [view.words[i] for i in cards],
                                          self.picture_meaning, self.pictures)
                    picked = cards.index(event.index)
                    for m in range(len(self.panel.minds)):
                        row = z[m]
                        if np.isnan(row[picked]):
                            continue
                        row = np.where(np.isnan(row), np.nanmean(row), row)
                        log_like[m] += float(row[picked] - np.log(np.exp(row).sum()))
                    touches += 1
                    if event.identity is own:
                        found += 1
                    else:
                        missed = True
                face_up.discard(event.index)
            elif isinstance(event, Covered):
                face_up.discard(event.index)
        close()  # asked for a clue: every earlier clue of ours is over
        for explanation in self.explanations:
            leftovers.extend(t.word for t in explanation.targets
                             if t.word in {view.words[i] for i in face_up})
        posterior = np.exp(cfg.learn_rate * (log_like - log_like.max()))
        posterior /= posterior.sum()
        weights = cfg.weight_floor / len(posterior) + (1 - cfg.weight_floor) * posterior
        return PartnerModel(weights / weights.sum(), frozenset(failed), frozenset(given),
                            tuple(dict.fromkeys(leftovers)), touches,
                            stopped_short / numbered if numbered else 0.0)

    # -- choosing the clue ----------------------------------------------------------------
    def give_clue(self, view: SpymasterView) -> Clue:
        own_identity = view.team.agent
        face_up = sorted(view.unrevealed, key=lambda i: view.key[i] is not own_identity)
        codes = np.array([_code(view.key[i], own_identity) for i in face_up], dtype=np.int8)
        n_own = int((codes == OWN).sum())
        if not n_own:
            raise ModelError(f"{view.team.value} has no agents left to find; nothing to clue")
        partner = self.read_partner(view)
        legal = self.panel.legal_mask(view.rules.clue_rules, view.visible_words,
                                      self.pictures).copy()
        for word in partner.given:  # never the same clue twice, above all not a failed one
            index = self.panel.index(word)
            if index is not None:
                legal[index] = False
        if not legal.any():
            raise ModelError(f"none of the panel's {len(self.panel.words):,} clue words is "
                             "legal on this board; use a larger vocabulary")
        z_all = self.panel.board_z(view.words, self.picture_meaning,
                                   self.pictures)[:, face_up, :]  # (M, n, V)
        z = _fill_abstentions(z_all)
        rows = self._shortlist(z, codes, n_own, legal, view.cards_left(view.team))
        values, numbers, per_mind = self._values(z[:, :, rows], codes, n_own,
                                                 view.cards_left(view.team),
                                                 view.cards_left(view.team.other), partner)
        values -= self._rarity[rows][:, None]
        best_row, best_col = np.unravel_index(int(np.argmax(values)), values.shape)
        row = int(rows[best_row])
        number = int(numbers[best_col])
        best_per_row = values.max(axis=1)
        runners = [r for r in np.argsort(-best_per_row, kind="stable") if r != best_row][:3]
        alternatives = tuple(
            Alternative(Clue(self.panel.words[int(rows[r])],
                             int(numbers[int(np.argmax(values[r]))])), float(best_per_row[r]))
            for r in runners)
        words = tuple(view.words[i] for i in face_up)
        explanation = self._explain(words, codes, z_all[:, :, row], row, number,
                                    float(values[best_row, best_col]), alternatives, partner,
                                    per_mind[:, best_row, best_col])
        self.explanations.append(explanation)
        return explanation.clue

    def _shortlist(self, z: FloatArray, codes: npt.NDArray[np.int8], n_own: int,
                   legal: npt.NDArray[np.bool_], own_left: int) -> IntArray:
        """Candidates worth simulating: best by the gap between the k-th target as the
        least convinced mind sees it and the most dangerous other card as the most worried
        mind sees it (the assassin counted one unit closer)."""
        cfg = self.config
        target = z[:, :n_own, :].min(axis=0)  # (n_own, V): the least convinced mind
        danger = z[:, n_own:, :].max(axis=0)  # (n_bad, V): the most worried mind
        if danger.shape[0]:
            danger = danger + (codes[n_own:] == ASSASSIN)[:, None].astype(np.float32)
            bad = danger.max(axis=0)
        else:
            bad = np.full(z.shape[2], -np.inf, dtype=np.float32)
        ks = min(cfg.max_number, n_own, own_left)
        best = -np.sort(-target, axis=0)[:ks]  # (k, V)
        weights = np.arange(1, ks + 1, dtype=np.float32) ** 0.6
        score = ((best - bad) * weights[:, None]).max(axis=0)
        score = np.where(legal, score - self._rarity.astype(np.float32), -np.inf)
        size = min(cfg.shortlist, int(legal.sum()))
        return np.sort(np.argpartition(-score, size - 1)[:size])

    def _values(self, z: FloatArray, codes: npt.NDArray[np.int8], n_own: int, own_left: int,
                opponent_left: int, partner: PartnerModel
                ) -> tuple[npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64]]:
        """Expected outcome of each (candidate, number) for a guesser on each mind; then
        the panel's value: ``pessimism`` x the worst mind + the rest x the partner-weighted
        mean. Returns (values (R, numbers), numbers, per-mind values (M, R, numbers))."""
        cfg = self.config
        if cfg.composite:  # one guesser as doubtful as the least convinced, most worried mind
            z = np.concatenate([z[:, :n_own].min(axis=0, keepdims=True),
                                z[:, n_own:].max(axis=0, keepdims=True)], axis=1)
            partner = PartnerModel(np.ones(1))
        minds, n, count = z.shape
        noisy = z.transpose(0, 2, 1)[:, :, None, :] + cfg.noise * self._rng.standard_normal(
            (minds, count, cfg.samples, n), dtype=np.float32)
        other = noisy[..., n_own:]
        if other.shape[-1]:
            worst = np.argmax(other, axis=-1)
            best_other = np.take_along_axis(other, worst[..., None], axis=-1)[..., 0]
            wrong = codes[n_own:][worst]
        else:
            best_other = np.full(noisy.shape[:-1], -np.inf, dtype=np.float32)
            wrong = np.zeros(noisy.shape[:-1], dtype=np.int8)
        ahead = (noisy[..., :n_own] > best_other[..., None]).sum(axis=-1)
        # A guesser seen stopping short of our numbers is modelled as a more careful one.
        stop = cfg.stop_z + cfg.timid_shift * partner.early_stops
        willing = np.maximum((noisy >= stop).sum(axis=-1), 1)
        cost = np.array([0.0, cfg.opponent_cost, cfg.bystander_cost, cfg.assassin_cost])
        if opponent_left <= 1:
            cost[OPPONENT] = cfg.assassin_cost  # their last card loses the game
        numbers = np.arange(1, min(cfg.max_number, own_left, n_own) + 1)
        per_mind = np.empty((minds, count, numbers.size), dtype=np.float64)
        for j, tries in enumerate(numbers):
            attempts = np.minimum(tries, willing)
            found = np.minimum(attempts, ahead)
            hit = ahead < attempts
            value = found + cfg.win_bonus * (found >= own_left) - hit * cost[wrong]
            per_mind[:, :, j] = value.mean(axis=-1)
        mean = np.tensordot(partner.weights, per_mind, axes=1)
        values = cfg.pessimism * per_mind.min(axis=0) + (1 - cfg.pessimism) * mean
        return values, numbers, per_mind

    def _explain(self, words: tuple[str, ...], codes: npt.NDArray[np.int8], z: FloatArray,
                 row: int, number: int, score: float, alternatives: tuple[Alternative, ...],
                 partner: PartnerModel, per_mind: npt.NDArray[np.float64]) -> ClueExplanation:
        """Targets as the panel ranks them; the most dangerous card as the most worried mind
        sees it; a sentence a player can read."""
        consensus = np.nanmean(z, axis=0)
        own = np.flatnonzero(codes == OWN)
        targets = own[np.argsort(-consensus[own], kind="stable")][:number]
        bad = np.flatnonzero(codes != OWN)
        worried = np.nanmax(np.where(np.isnan(z), -np.inf, z), axis=0)
        danger = None
        margin = float(np.nanmin(z[:, targets]))
        if bad.size:
            worst = bad[int(np.argmax(worried[bad]))]
            danger = ScoredCard(words[worst], float(worried[worst]))
            margin -= float(worried[worst])
        clue = Clue(self.panel.words[row], number)
        agree = [m.label for m, zm in zip(self.panel.minds, z, strict=True)
                 if not np.isnan(zm[targets]).all() and np.nanmin(zm[targets]) >= 1.5]
        names = " and ".join(w.upper() for w in (words[t] for t in targets))
        reasons = []  # about the board, for players
        if agree:
            reasons.append(f"linked to '{clue.word}' by {_join(agree)}")
        if danger is not None:
            kind = {OPPONENT: "the other team's", BYSTANDER: "a bystander",
                    ASSASSIN: "the assassin"}[int(codes[words.index(danger.word)])]
            reasons.append(f"kept away from {danger.word.upper()} ({kind})")
        if partner.failed:
            reasons.append(f"not repeating {', '.join(sorted(partner.failed))}, which did not "
                           "work")
        open_targets = [w.upper() for w in (words[t] for t in targets) if w in partner.leftovers]
        if open_targets:
            reasons.append(f"{_join(open_targets)} also left over from an earlier clue")
        about_minds = []  # how it reads its partner: for describe() only
        if partner.touches:
            best = int(np.argmax(partner.weights))
            about_minds.append(f"your touches so far fit {self.panel.minds[best].label} best")
        notes = "; ".join([f"aimed at {names}", *reasons, *about_minds]) + "."
        return ClueExplanation(
            clue, tuple(ScoredCard(words[t], float(consensus[t])) for t in targets), danger,
            margin, score, alternatives, notes, tuple(reasons))

    def choose_cover(self, view: SpymasterView) -> Cover:
        """Cover the card that hurts this team most while face up: an own agent the panel
        finds close to a dangerous card, or (co-op) a virtual agent close to ours."""
        own = view.team.agent
        mine = [i for i in view.unrevealed if view.key[i] is own]
        theirs = [i for i in view.unrevealed if view.key[i] is not own]

        def harm(index: int) -> float:
            others = [i for i in (theirs if view.key[index] is own else mine) if i != index]
            if not others:
                return 0.0
            z = self.panel.clue_z(view.words[index], [view.words[i] for i in others],
                                  pictures=self.pictures)
            return 0.0 if np.isnan(z).all() else float(np.nanmax(z))

        return Cover(max(view.cover_candidates, key=lambda i: (harm(i), -i)))


def _fill_abstentions(z: FloatArray) -> FloatArray:
    """Where a mind cannot read a card, it takes the mean of the minds that can, so it
    neither vetoes nor favours that card."""
    if not np.isnan(z).any():
        return z
    mean = np.nanmean(z, axis=0, keepdims=True)
    return np.where(np.isnan(z), mean, z).astype(np.float32)


def _mean_of_readers(z: FloatArray) -> FloatArray:
    """The mean over minds of each column, -inf where no mind reads the card."""
    known = ~np.isnan(z)
    count = known.sum(axis=0)
    total = np.where(known, z, 0.0).sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), -np.inf).astype(np.float32)


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass
class PanelGuesser:
    """The default guesser: a card's fit to the clue is the mean over the minds that know
    both, in standard units; it stops below ``stop_z`` after its first touch or after the
    number, and spends the extra touch on a card left over from an earlier clue only when it
    fits that clue clearly (``leftover_z``). A clue no mind knows is read through its base
    form (running -> run). ``pictures`` are the captions of the picture deck it plays with
    (default: the shipped emoji deck, ``pictures.shipped_captions``)."""

    minds: Sequence[str] = DEFAULT_MINDS
    vocabulary_size: int = PANEL_VOCABULARY
    cache_dir: Path | str | None = None
    stop_z: float = 1.6
    leftover_z: float = 2.2
    picture_meaning: str = DEFAULT_PICTURE_MEANING
    panel: Panel | None = None
    model: str | None = None  # ``--model NAME``: a panel of that one mind
    pictures: Captions | None = None
    agent_id: str = "panel-guesser-v2"
    _rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def __post_init__(self) -> None:
        if self.picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {self.picture_meaning!r}; choose one "
                             f"of {', '.join(PICTURE_MEANINGS)}")
        if self.model is not None:
            self.minds = (self.model,)
        if self.pictures is None:
            self.pictures = shipped_captions()
        if self.panel is None:
            self.panel = shared_panel(tuple(self.minds), self.vocabulary_size,
                                      None if self.cache_dir is None else str(self.cache_dir))

    def start_game(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def fit(self, word: str, view: GuesserView) -> tuple[tuple[int, ...], FloatArray] | None:
        """Face-up cards and their fit to ``word`` (None when no mind knows it)."""
        assert self.panel is not None and self.pictures is not None
        face_up = view.unrevealed
        cards = [view.words[i] for i in face_up]
        for form in _forms(word):
            z = self.panel.clue_z(form, cards, self.picture_meaning, self.pictures)
            if not np.isnan(z).all():
                return face_up, _mean_of_readers(z)
        return None

    def guess(self, view: GuesserView) -> GuesserAction:
        number = view.clue.number
        made = view.guesses_made
        on_clue = number is UNLIMITED or (isinstance(number, int) and made < number)
        if on_clue:
            fitted = self.fit(view.clue.word, view)
            if fitted is not None:
                face_up, fit = fitted
                best = int(np.argmax(fit))
                if made == 0 or fit[best] >= self.stop_z:
                    return Guess(face_up[best])
        leftover = self.best_leftover(view)
        if leftover is not None and (leftover[1] >= self.leftover_z or not made):
            return Guess(leftover[0])
        if view.can_pass:
            return Pass()
        fitted = self.fit(view.clue.word, view)
        if fitted is not None:  # a 0 clue with nothing left over: the card least like it
            return Guess(fitted[0][int(np.argmin(fitted[1]))])
        return Guess(int(self._rng.choice(view.unrevealed)))

    def best_leftover(self, view: GuesserView) -> tuple[int, float] | None:
        """The face-up card that best fits one of this team's earlier clues with targets
        still unfound."""
        from .guessers import open_clues

        best: tuple[int, float] | None = None
        for clue, missing in open_clues(view):
            if missing <= 0:
                continue
            fitted = self.fit(clue, view)
            if fitted is None:
                continue
            i = int(np.argmax(fitted[1]))
            if best is None or float(fitted[1][i]) > best[1]:
                best = (fitted[0][i], float(fitted[1][i]))
        return best


def _forms(word: str) -> list[str]:
    """The clue as given, in lower case, then its base forms."""
    from ..legality.lexicon import lexicon

    forms = [word, word.strip().lower()]
    for lemmas in lexicon().lemmas(word.strip().lower()).values():
        forms.extend(lemmas)
    return list(dict.fromkeys(f for f in forms if f))


__all__ = ["DEFAULT_MINDS", "Mind", "Panel", "PanelConfig", "PanelGuesser",
           "PanelSpymaster", "PartnerModel", "familiar", "shared_panel"]
