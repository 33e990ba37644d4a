"""The panel spymaster: clues that a panel of different minds agrees on.

A clue is only as good as it is for the mind it suits least: the spymaster simulates a
guesser on each mind, judges danger by the most pessimistic one, and gives the number the
minds agree on. It reads its partner from the game history (``partner``), so it learns which
minds its guesser resembles and never repeats a clue that failed. A mind that lacks a board
card abstains on that card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from ...core.actions import Clue, Cover
from ...core.errors import ModelError
from ...core.views import PublicView, SpymasterView
from ...pictures import shipped_captions
from ...vectors.model import DEFAULT_PICTURE_MEANING, PICTURE_MEANINGS
from ..explain import Alternative, ClueExplanation, ExplainsClues, ScoredCard, danger_reason
from ..options import CacheDir, DeckCaptions, Help, PictureMeaning, VocabularySize
from ..spymasters import ASSASSIN, BYSTANDER, OPPONENT, OWN
from .build import MIN_ZIPF, PANEL_VOCABULARY, shared_panel
from .minds import DEFAULT_MINDS, PEOPLE_MINDS, AgreeingMinds, OneMind, ReadyPanel
from .partner import PartnerModel, PartnerReader
from .tables import fill_abstentions

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]


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
    # Over the rest of the game: a card no clue singles out well will take turns of its own
    # later, so finding it now is worth more. Each own card's worth is its expected turns
    # alone (from its best solo margin, a logistic of centre ``hard_centre``, width
    # ``hard_width``) over the easiest card's, blended in by ``hardness`` (0: every card 1).
    hardness: float = 0.0
    hard_centre: float = 1.5
    hard_width: float = 0.75
    hard_cap: float = 4.0
    derived_cost: float = 0.0  # a derived form (icy, mathematical) where people say the base
    nounless_cost: float = 0.0  # a word with no noun reading (pathetic, fashionable)
    # A word people seldom say (vague or abstract: comprise, oxidation; names: dirk): this
    # much for one never given as an association, nothing from 100 times on (log scale).
    said_cost: float = 0.0
    # A clue for N cards must be read right: the panel's guessers (mixed as the value is)
    # find all N with at least this chance (0: any number the value prefers).
    read_right: float = 0.0
    # Which mind is "the worst" for ``pessimism``: 0 the lowest value, 1 the second lowest
    # (one mind blind to a link, as GloVe to servant -> BUTLER, does not veto it alone).
    worst_rank: int = 0
    # Before its first touch, how likely the partner thinks like each mind (by name; a mind
    # not named weighs 1): people's associations first for a partner who is a person.
    prior: tuple[tuple[str, float], ...] = ()
    # A clue for 1 card must single it out: in the partner-weighted mixture of the minds, its
    # best own card stands at least this far (standard units) above every face-down card
    # not ours (0: no such rule). A near tie is a coin flip for a person.
    single_out: float = 0.0


# panel-spymaster-v3, for a partner who may be a person or any mind. Chosen on
# leave-one-mind-out races with all four minds (tuning boards, seeds 10000+) and by blind
# readers: the races hardly move between these settings (wins 66-70%), so the choice leans
# to what a person reads: people's associations weigh most in the mixture, one mind blind
# to a link does not veto it, cards no clue singles out are paired early, a clue for N
# cards must be read right and one for 1 must single its card out, and nouns are preferred.
# A bolder listener (noise 0.5, read_right 0.3, pessimism 0.2: more clues for 2-3) lost
# readers three games of 25 on the assassin and read far less clearly (docs/reading.md).
PEOPLE_CONFIG = PanelConfig(pessimism=0.4, worst_rank=1, prior=(("eat-associations", 3.0),),
                            hardness=2.0, derived_cost=0.3, said_cost=0.2, read_right=0.4,
                            single_out=1.0, nounless_cost=0.3)
ConfigOption = Annotated[PanelConfig | None, Help("a PanelConfig (Python only)")]


@dataclass(frozen=True)
class _BoardWork:
    """What a spymaster keeps for one board, for every clue of the game: each card's
    similarity to every candidate as the least convinced and as the most worried mind sees
    it, (cards, V) each."""

    made_for: tuple[tuple[str, ...], str]  # the board's cards and the picture meaning
    low: FloatArray
    high: FloatArray


class PanelSpymaster(ExplainsClues):
    """The default spymaster: clues that a panel of different minds agrees on. ``pictures``
    are the captions of the picture deck it plays with (default: the shipped emoji deck,
    ``pictures.shipped_captions``)."""

    agent_id = "panel-spymaster-v2"

    def __init__(self, *, minds: AgreeingMinds = DEFAULT_MINDS,
                 vocabulary_size: VocabularySize = PANEL_VOCABULARY, cache_dir: CacheDir = None,
                 config: ConfigOption = None,
                 panel: ReadyPanel = None,
                 picture_meaning: PictureMeaning = DEFAULT_PICTURE_MEANING,
                 model: OneMind = None,
                 min_zipf: Annotated[float | None, Help(
                     "familiarity floor of clue words")] = MIN_ZIPF,
                 known_by: Annotated[tuple[str, ...], Help(
                     "minds every clue word must be known by")] = (),
                 pictures: DeckCaptions = None) -> None:
        if model is not None:  # ``--model NAME``: a panel of that one mind
            minds = (model,)
        if picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {picture_meaning!r}; choose one of "
                             f"{', '.join(PICTURE_MEANINGS)}")
        self.panel = panel or shared_panel(tuple(minds), vocabulary_size, cache_dir, min_zipf,
                                           tuple(known_by))
        self.config = config or PanelConfig()
        self.picture_meaning = picture_meaning
        self.pictures = shipped_captions() if pictures is None else pictures
        super().__init__()
        self._word_cost = self.panel.rarity * self.config.rarity_cost
        if self.config.derived_cost:
            self._word_cost = self._word_cost + self.config.derived_cost * self.panel.derived
        if self.config.nounless_cost:
            self._word_cost = self._word_cost + self.config.nounless_cost * self.panel.nounless
        if self.config.said_cost:
            unsaid = 1 - np.log10(1 + np.minimum(self.panel.said, 99)) / 2
            self._word_cost = self._word_cost + self.config.said_cost * unsaid
        self._word_cost32 = self._word_cost.astype(np.float32)
        named = dict(self.config.prior)
        self._prior = np.array([named.get(name, 1.0) for name in self.panel.names]) \
            if named else None
        self._reader: PartnerReader | None = None
        self._board: _BoardWork | None = None

    def start_game(self, seed: int) -> None:
        super().start_game(seed)
        self._reader = None
        self._board = None

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        """Do the work its panel shares between agents on a board (the cards' legality, the
        standardised similarities) before the game, so a timed move is this agent's own."""
        assert self.panel is not None
        self.panel.legal_mask(clue_rules, words, self.pictures)
        if words:
            self.panel.board_bounds(words, self.picture_meaning, self.pictures)

    def model_names(self) -> tuple[str, ...]:
        """The models of its panel's minds."""
        return self.panel.names

    # -- reading the partner ------------------------------------------------------------
    def read_partner(self, view: PublicView) -> PartnerModel:
        """The game so far: after each of our clues, how likely was each touch under each
        mind (a softmax over the cards face up at that moment)? A clue failed when its turn
        found no own card or touched another card before the number was reached. Reads only
        the events since the last call of the same game."""
        reader = self._reader
        if reader is None or not reader.follows(view):
            reader = PartnerReader(view.words, view.team, len(self.panel.minds))
            self._reader = reader
        reader.read(view, self.panel, self.picture_meaning, self.pictures)
        return reader.model([[t.word for t in e.targets] for e in self.explanations],
                            self.config.learn_rate, self.config.weight_floor, self._prior)

    # -- choosing the clue ----------------------------------------------------------------
    def _table(self, view: SpymasterView,
               refuse: Callable[[PartnerModel], npt.NDArray[np.bool_]] | None = None
               ) -> tuple[list[int], npt.NDArray[np.int8], int, PartnerModel,
                          npt.NDArray[np.bool_]]:
        """What every clue starts from: the face-up cards, own agents first, then the other
        kinds in turn (a simulated guesser's worst touch is found kind by kind), each in board
        order; their kinds; how many are ours; the partner as read; the legal candidates
        never given before (nor any ``refuse`` names, given the partner)."""
        face_up = sorted(view.unrevealed, key=lambda i: view.key[i].standing(view.team))
        codes = np.array([view.key[i].standing(view.team) for i in face_up], dtype=np.int8)
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
        if refuse is not None:
            legal &= ~refuse(partner)
        if not legal.any():
            raise ModelError(f"none of the panel's {len(self.panel.words):,} clue words is "
                             "legal on this board; use a larger vocabulary")
        return face_up, codes, n_own, partner, legal

    def give_clue(self, view: SpymasterView) -> Clue:
        face_up, codes, n_own, partner, legal = self._table(view)
        work = self._board_work(view.words)  # the same for every clue of the game
        cards = np.array(face_up, dtype=np.intp)
        rows, bad = self._shortlist(work, cards, codes, n_own, legal,
                                    view.cards_left(view.team))
        worth = self._worth(work, cards[:n_own], bad, legal)
        words = tuple(view.words[i] for i in face_up)
        block = fill_abstentions(self.panel.board_block(words, rows, self.picture_meaning,
                                                        self.pictures))
        values, numbers, per_mind = self._values(block, codes, n_own,
                                                 view.cards_left(view.team),
                                                 view.cards_left(view.team.other), partner,
                                                 worth)
        values -= self._word_cost[rows][:, None]
        best_row, best_col = np.unravel_index(int(np.argmax(values)), values.shape)
        row = int(rows[best_row])
        number = int(numbers[best_col])
        best_per_row = values.max(axis=1)
        runners = [r for r in np.argsort(-best_per_row, kind="stable") if r != best_row][:3]
        alternatives = tuple(
            Alternative(Clue(self.panel.words[int(rows[r])],
                             int(numbers[int(np.argmax(values[r]))])), float(best_per_row[r]))
            for r in runners)
        chosen = self.panel.board_block(words, np.array([row]), self.picture_meaning,
                                        self.pictures)[:, :, 0]
        explanation = self._explain(words, codes, chosen, row, number,
                                    float(values[best_row, best_col]), alternatives, partner,
                                    per_mind[:, best_row, best_col])
        self.explanations.append(explanation)
        return explanation.clue

    def _board_work(self, words: tuple[str, ...]) -> _BoardWork:
        made_for = (words, self.picture_meaning)
        if self._board is None or self._board.made_for != made_for:
            low, high = self.panel.board_bounds(words, self.picture_meaning, self.pictures)
            self._board = _BoardWork(made_for, low, high)
        return self._board

    def _shortlist(self, work: _BoardWork, cards: IntArray, codes: npt.NDArray[np.int8],
                   n_own: int, legal: npt.NDArray[np.bool_], own_left: int
                   ) -> tuple[IntArray, FloatArray]:
        """Candidates worth simulating: best by the gap between the k-th target as the
        least convinced mind sees it and the most dangerous other card as the most worried
        mind sees it (the assassin counted one unit closer)."""
        cfg = self.config
        target = work.low[cards[:n_own]]  # (n_own, V)
        bad = np.full(work.high.shape[1], -np.inf, dtype=np.float32)
        if len(cards) > n_own:
            bad = work.high[cards[n_own:]].max(axis=0)
            assassins = cards[n_own:][codes[n_own:] == ASSASSIN]
            if assassins.size:
                np.maximum(bad, (work.high[assassins] + np.float32(1)).max(axis=0), out=bad)
        ks = min(cfg.max_number, n_own, own_left)
        best = _top(target, ks)  # (k, V)
        weights = np.arange(1, ks + 1, dtype=np.float32) ** 0.6
        score = ((best - bad) * weights[:, None]).max(axis=0)
        score = np.where(legal, score - self._word_cost32, -np.inf)
        size = min(cfg.shortlist, int(legal.sum()))
        return np.sort(np.argpartition(-score, size - 1)[:size]), bad

    def _worth(self, work: _BoardWork, own: IntArray, bad: FloatArray,
               legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64] | None:
        """Each own card's worth over the rest of the game (see ``PanelConfig.hardness``):
        1 for the card easiest to clue alone, more for cards no clue singles out well."""
        cfg = self.config
        if cfg.hardness <= 0 or len(own) < 2:
            return None
        gaps = np.where(legal, work.low[own] - bad, -np.inf).max(axis=1).astype(np.float64)
        chance = 1 / (1 + np.exp(-(gaps - cfg.hard_centre) / cfg.hard_width))
        turns = 1 / np.maximum(chance, 1 / cfg.hard_cap)
        worth: npt.NDArray[np.float64] = 1 + cfg.hardness * (turns / turns.min() - 1)
        return worth

    def _values(self, z: FloatArray, codes: npt.NDArray[np.int8], n_own: int, own_left: int,
                opponent_left: int, partner: PartnerModel,
                worth: npt.NDArray[np.float64] | None = None
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
        # Common random numbers: every candidate meets the same simulated guessers (one
        # draw per card, mind and sample), so candidates are compared on equal terms.
        noise = self._rng.standard_normal((n, minds, 1, cfg.samples), dtype=np.float32)
        noisy = np.empty((n, minds, count, cfg.samples), dtype=np.float32)  # card-major
        np.add(z.transpose(1, 0, 2)[:, :, :, None], cfg.noise * noise, out=noisy)
        cost = np.array([0.0, cfg.opponent_cost, cfg.bystander_cost, cfg.assassin_cost])
        if opponent_left <= 1:
            cost[OPPONENT] = cfg.assassin_cost  # their last card loses the game
        best_other, penalty = _best_other(noisy, codes, cost)
        ahead = (noisy[:n_own] > best_other).sum(axis=0)
        # A guesser seen stopping short of our numbers is modelled as a more careful one.
        stop = cfg.stop_z + cfg.timid_shift * partner.early_stops
        willing = np.maximum((noisy >= stop).sum(axis=0), 1)
        numbers = np.arange(1, min(cfg.max_number, own_left, n_own) + 1)
        per_mind = np.empty((minds, count, numbers.size), dtype=np.float64)
        unread = np.zeros((count, numbers.size), dtype=bool)
        gained = None  # the worth of the first k own cards the guesser touches, by k
        if worth is not None:
            order = np.argsort(-noisy[:n_own], axis=0, kind="stable")
            gained = np.concatenate([np.zeros((1, *order.shape[1:])),
                                     np.cumsum(worth[order], axis=0)])
        for j, tries in enumerate(numbers):
            attempts = np.minimum(tries, willing)
            found = np.minimum(attempts, ahead)
            hit = ahead < attempts
            got = found if gained is None else np.take_along_axis(gained, found[None], 0)[0]
            value = got + cfg.win_bonus * (found >= own_left) - hit * penalty
            per_mind[:, :, j] = value.mean(axis=-1)
            if cfg.read_right and tries > 1:
                every = (found >= tries).mean(axis=-1)  # (minds, count)
                chance = cfg.pessimism * _worst(every, cfg.worst_rank) + (
                    1 - cfg.pessimism) * (partner.weights @ every)
                unread[:, j] = chance < cfg.read_right
        if cfg.single_out and n > n_own:
            mixed = np.tensordot(partner.weights, z, axes=1)  # (cards, candidates)
            unread[:, 0] = mixed[:n_own].max(axis=0) - mixed[n_own:].max(axis=0) \
                < cfg.single_out
        mean = np.tensordot(partner.weights, per_mind, axes=1)
        values = cfg.pessimism * _worst(per_mind, cfg.worst_rank) + (1 - cfg.pessimism) * mean
        if not unread.all():  # on a board where nothing reads right, the best of the rest
            values[unread] = -np.inf
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
        reasons = board_reasons(clue.word, agree, danger, margin, codes, words)
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
        candidates = list(view.cover_candidates)
        z = self.panel.words_z([view.words[i] for i in candidates], view.words,
                               self.pictures)  # (minds, candidates, cards)
        face_up = np.zeros(len(view.words), dtype=bool)
        face_up[list(view.unrevealed)] = True
        is_own = np.array([identity is own for identity in view.key])

        def harm(row: int, index: int) -> float:
            others = face_up & (~is_own if is_own[index] else is_own)
            others[index] = False
            if not others.any():
                return 0.0
            near = z[:, row, others]
            return 0.0 if np.isnan(near).all() else float(np.nanmax(near))

        harms = {index: harm(row, index) for row, index in enumerate(candidates)}
        return Cover(max(candidates, key=lambda i: (harms[i], -i)))


class PeoplePanelSpymaster(PanelSpymaster):
    """The default spymaster (``panel-spymaster-v3``): the panel with people's associations
    and ``PEOPLE_CONFIG``; every option of ``PanelSpymaster`` still applies."""

    agent_id = "panel-spymaster-v3"

    def __init__(self, *, minds: AgreeingMinds = PEOPLE_MINDS,
                 config: ConfigOption = PEOPLE_CONFIG,
                 **options: Any) -> None:
        super().__init__(minds=minds, config=config or PEOPLE_CONFIG, **options)


def board_reasons(clue: str, agree: Sequence[str], danger: ScoredCard | None, margin: float,
                  codes: npt.NDArray[np.int8], words: Sequence[str]) -> list[str]:
    """The reasons about the board a player reads: which minds link the clue to its
    targets, and the most dangerous card (what it is, kept away from or a risk)."""
    reasons = []
    if agree:
        reasons.append(f"linked to '{clue}' by {_join(agree)}")
    if danger is not None:
        kind = {OPPONENT: "the other team's", BYSTANDER: "a bystander",
                ASSASSIN: "the assassin"}[int(codes[list(words).index(danger.word)])]
        reasons.append(danger_reason(clue, danger.word, margin, kind))
    return reasons


def _top(rows: FloatArray, k: int) -> FloatArray:
    """The ``k`` largest values of each column, largest first, shape (k, columns): an
    insertion network over the few rows (the same numbers as a sort, without sorting each
    column)."""
    top = np.full((k, rows.shape[1]), -np.inf, dtype=np.float32)
    for row in rows:
        carry = row
        for level in top:
            higher = np.maximum(level, carry)
            carry = np.minimum(level, carry)
            level[...] = higher
    return top


def _worst(per_mind: npt.NDArray[np.float64], rank: int) -> npt.NDArray[np.float64]:
    """The ``rank``-th lowest of the minds' values (axis 0): 0 the minimum."""
    rank = min(rank, len(per_mind) - 1)
    worst: npt.NDArray[np.float64] = per_mind.min(axis=0) if rank == 0 else \
        np.partition(per_mind, rank, axis=0)[rank]
    return worst


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _best_other(noisy: npt.NDArray[np.float32], codes: npt.NDArray[np.int8],
                cost: npt.NDArray[np.float64]
                ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]:
    """The best-scoring card not ours for each simulated guesser, kind by kind (the cards
    come grouped by kind), and the cost of touching it: on a tie the earlier card, as the
    guesser would take it."""
    best_other = np.full(noisy.shape[1:], -np.inf, dtype=np.float32)
    penalty = np.zeros(noisy.shape[1:], dtype=np.float64)
    for kind in (OPPONENT, BYSTANDER, ASSASSIN):
        cards = np.flatnonzero(codes == kind)
        if cards.size:
            nearest = noisy[cards[0]:cards[-1] + 1].max(axis=0)
            penalty[nearest > best_other] = cost[kind]
            np.maximum(best_other, nearest, out=best_other)
    return best_other, penalty
