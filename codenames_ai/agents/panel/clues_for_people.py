"""The spymaster that clues for people: people's reading finds the targets, every mind guards
the dangers.

It listens through ``PeopleReading``, the model the guesser beside a person reads with: for
each candidate clue and number N the targets are the N own cards people read best, and the
chance people find the first i of them is the model's read-right chance of the i-th's gap to
the best card not ours; the clue is valued by the own cards people are expected to find, the
cost of the card that ends the turn when they miss, and each card's worth over the rest of
the game. The panel's minds no longer vote on the targets; they veto:

- **dangers guarded by every mind**: a clue is refused when any mind, or the people model,
  puts the assassin (or the other team's last agent) near its targets, or when the most
  worried mind puts it above the weakest target as the least convinced mind sees it;
- **every target seen by people and by another mind**: each target is linked by at least
  ``link_minds`` minds, so no target rests on one mind alone (diesel -> TOY);
- **read right**: people touch all N targets first often enough (a clue for 1 must single
  its card out);
- **no vague neighbour of a failed clue**: a clue close to a clue that failed (in the minds'
  own similarity of the two words) is not given.

``ListenerConfig`` also holds rules blind readers tried that are off by default (a clarity bar
on every target, another kind of link for a failed card, tired cards): docs/reading.md has
their rounds.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from ...core.actions import Clue
from ...core.views import SpymasterView
from ..explain import Alternative, ClueExplanation, ScoredCard
from ..options import Help
from ..spymasters import ASSASSIN, OPPONENT, OWN
from .minds import PEOPLE_MINDS, AgreeingMinds
from .partner import PartnerModel
from .reading import PEOPLE_READING, PeopleReading, ReadingWeights
from .spymaster import PEOPLE_CONFIG, ConfigOption, PanelSpymaster, _join, board_reasons

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class ListenerConfig:
    """Settings of the spymaster that clues for people (fit units are ``PeopleReading``'s;
    similarities are each mind's standard units)."""

    shortlist: int = 160
    max_number: int = 4
    # Costs of the card that ends the turn, in own cards.
    assassin_cost: float = 14.0
    opponent_cost: float = 1.5
    bystander_cost: float = 0.5
    win_bonus: float = 3.0
    # A target is linked by a mind when its similarity there is at least ``link_z``; a clue
    # for 2+ needs every target linked by ``link_minds`` minds.
    link_z: float = 1.0
    link_minds: int = 2
    # Dangers, in every mind: the assassin (or the other team's last agent) refused within
    # ``danger_margin`` of the weakest target unless it is plainly unrelated there (below
    # ``danger_floor``), and refused outright at ``danger_z``. The people model's own margin
    # is in fit units.
    danger_margin: float = 0.5
    danger_floor: float = 0.5
    danger_z: float = 2.5
    people_margin: float = 3.0
    # Across the minds: the assassin as the most worried mind sees it stays this far below
    # the weakest target as the least convinced mind sees it (None: no such rule). A mind
    # outside the panel disagrees with it by about a unit per card.
    cross_margin: float | None = 0.0
    cross_floor: float = -np.inf  # ... unless every mind finds the assassin below this
    # People must touch every target first at least this often (by number, 1 then 2+).
    read_right_one: float = 0.6
    read_right: float = 0.5
    # Every target clear to people: its own chance of being one the clue giver meant
    # (``PeopleReading.find_chance``) at least ``clear_bar``. Blind readers rated 64% of the
    # clues whose weakest target stood at 0.7 or more clear and 5% baffling, against 8% and
    # 22% below it (the 2026-12-06 reading, round 1). Where nothing clears it, the bar comes
    # down by ``clear_step`` to ``clear_floor``: the clearest clue left.
    clear_bar: float = 0.0
    clear_step: float = 0.05
    clear_floor: float = 0.5
    # After a clue for a card failed, a later clue for it must link it through another mind
    # than the one that linked the failed clue best (its category, its use, its definition),
    # and at least ``other_kind_z`` there.
    other_kind: bool = False
    other_kind_z: float = 1.5
    # A card our clues aimed at ``tired_after`` times without its being found is aimed at
    # again only by a clue people read as clearly meaning it (find chance ``tired_bar``):
    # no card is clued three times by vague neighbours (0: no such rule).
    tired_after: int = 0
    tired_bar: float = 0.85
    # A candidate this close (mean standard units over the minds) to a clue that failed is a
    # neighbour of it: not given.
    neighbour_z: float = 3.0
    # Over the rest of the game: a card no clue singles out well will take turns of its own
    # later, so finding it now is worth more (as ``PanelConfig.hardness``).
    hardness: float = 1.5
    hard_cap: float = 4.0


LISTENER_CONFIG = ListenerConfig()


@dataclass(frozen=True)
class _Board:
    """What the spymaster keeps for one board: people's fit of every card to every candidate
    (cards, V). (The minds' similarities are read for the shortlist alone: ``board_block``.)"""

    made_for: tuple[tuple[str, ...], str]  # the board's cards and the picture meaning
    fit: FloatArray


class PeopleSpymaster(PanelSpymaster):
    """``panel-spymaster-v4``: clues whose targets people find, whose dangers no mind sees
    (see the module's docstring). ``reading``: the people model's settings; ``listener``:
    the rules above. Every option of ``PanelSpymaster`` still applies (its ``config`` prices
    the clue words: rarity, derived forms, words without a noun reading)."""

    agent_id = "panel-spymaster-v4"

    def __init__(self, *, minds: AgreeingMinds = PEOPLE_MINDS,
                 config: ConfigOption = PEOPLE_CONFIG,
                 listener: Annotated[ListenerConfig | None, Help(
                     "a ListenerConfig (Python only)")] = None,
                 reading: Annotated[ReadingWeights | None, Help(
                     "a ReadingWeights (Python only)")] = None, **options: Any) -> None:
        super().__init__(minds=minds, config=config, **options)
        self.listener = listener or LISTENER_CONFIG
        self.reading = PeopleReading(self.panel, reading or PEOPLE_READING)
        self._people: _Board | None = None

    def start_game(self, seed: int) -> None:
        super().start_game(seed)
        self._people = None

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        """Do the work shared between agents on a board (the cards' legality, people's fit
        of every card, kept with the panel's rows) before the game, so a timed move is this
        agent's own."""
        self.panel.legal_mask(clue_rules, words, self.pictures)
        if words:
            self.reading.board_fit(words, self.picture_meaning, self.pictures)

    def _people_board(self, words: tuple[str, ...]) -> _Board:
        made_for = (words, self.picture_meaning)
        if self._people is None or self._people.made_for != made_for:
            self.panel.check_readable(words, self.picture_meaning, self.pictures)
            fit = self.reading.board_fit(words, self.picture_meaning, self.pictures)
            self._people = _Board(made_for, fit)
        return self._people

    def give_clue(self, view: SpymasterView) -> Clue:
        face_up, codes, n_own, partner, legal = self._table(
            view, lambda partner: self._neighbours_of(partner.failed))
        board = self._people_board(view.words)
        cards = np.array(face_up, dtype=np.intp)
        fit = board.fit[cards]  # (cards, V), own first
        own_left = view.cards_left(view.team)
        opponent_left = view.cards_left(view.team.other)
        dangerous = codes == ASSASSIN
        if opponent_left <= 1:
            dangerous |= codes == OPPONENT
        rows = self._candidates(fit, codes, n_own, legal, own_left, dangerous)
        z = self.panel.board_block(tuple(view.words[i] for i in face_up), rows,
                                   self.picture_meaning, self.pictures)  # (minds, cards, R)
        f = fit[:, rows]  # (cards, R)
        worth = self._card_worth(fit, codes, n_own, legal)
        values, numbers, found_all = self._expect(f, codes, n_own, own_left, opponent_left,
                                                  worth)
        # the game plan: a failed card's next clue of another kind, no card aimed at again
        # and again by vague clues
        planned = self._another_kind(z, f, n_own, numbers, face_up, view.words, partner)
        planned &= self._not_tired(f, n_own, numbers, face_up, view.words)
        safe = self._safe(z, f, codes, n_own, numbers, dangerous)
        allowed = self._allowed(z, f, n_own, numbers, found_all) & safe & planned
        values = values - self._word_cost[rows][:, None]
        chosen = self._choose(values, f, n_own, numbers, allowed, safe, planned)
        best_row, best_col = np.unravel_index(int(np.argmax(chosen)), chosen.shape)
        number = int(numbers[best_col])
        best_per_row = chosen.max(axis=1)
        runners = list(itertools.islice(
            (r for r in np.argsort(-best_per_row, kind="stable")
             if r != best_row and np.isfinite(best_per_row[r])), 3))
        alternatives = tuple(
            Alternative(Clue(self.panel.words[int(rows[r])],
                             int(numbers[int(np.argmax(chosen[r]))])), float(best_per_row[r]))
            for r in runners)
        words = tuple(view.words[i] for i in face_up)
        explanation = self._explain_people(
            words, codes, z[:, :, best_row], f[:, best_row], int(rows[best_row]), number,
            float(chosen[best_row, best_col]), alternatives, partner,
            float(found_all[best_row, best_col]))
        self.explanations.append(explanation)
        return explanation.clue

    def _choose(self, values: npt.NDArray[np.float64], f: FloatArray, n_own: int,
                numbers: IntArray, allowed: npt.NDArray[np.bool_], safe: npt.NDArray[np.bool_],
                planned: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        """``values`` where a clue may be given (-inf elsewhere): the rules and the clarity
        bar; where nothing clears the bar, the bar lowered step by step (the clearest clue
        left); then the rules alone; then the safe clues of the plan; then the safe ones."""
        cfg = self.listener
        bar = cfg.clear_bar
        chosen = np.where(allowed & self._clear(f, n_own, numbers, bar), values, -np.inf)
        while not np.isfinite(chosen).any() and bar > cfg.clear_floor:
            bar = max(bar - cfg.clear_step, cfg.clear_floor)
            chosen = np.where(allowed & self._clear(f, n_own, numbers, bar), values, -np.inf)
        for fallback in (allowed, safe & planned, safe):
            if not np.isfinite(chosen).any():
                chosen = np.where(fallback, values, -np.inf)
        return chosen if np.isfinite(chosen).any() else values

    # -- the candidates -----------------------------------------------------------------
    def _candidates(self, fit: FloatArray, codes: npt.NDArray[np.int8], n_own: int,
                    legal: npt.NDArray[np.bool_], own_left: int,
                    dangerous: npt.NDArray[np.bool_]) -> IntArray:
        """Candidates worth simulating: best by the gap, in people's fit, between the k-th
        own card and the closest other card (a dangerous card counted ``people_margin``
        closer)."""
        cfg = self.listener
        bad = np.full(fit.shape[1], -np.inf, dtype=np.float32)
        if len(codes) > n_own:
            other = fit[n_own:] + np.float32(cfg.people_margin) * dangerous[n_own:, None]
            bad = other.max(axis=0)
        ks = min(cfg.max_number, n_own, own_left)
        best = -np.sort(-fit[:n_own], axis=0)[:ks]  # (k, V)
        weights = np.arange(1, ks + 1, dtype=np.float32) ** 0.6
        score = ((best - bad) * weights[:, None]).max(axis=0)
        score = np.where(legal, score - self._word_cost32 * 3, -np.inf)
        size = min(cfg.shortlist, int(legal.sum()))
        return np.sort(np.argpartition(-score, size - 1)[:size])

    def _card_worth(self, fit: FloatArray, codes: npt.NDArray[np.int8], n_own: int,
                    legal: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64] | None:
        """Each own card's worth over the rest of the game: 1 for the card easiest to clue
        alone, more for a card no clue singles out (its expected turns alone, from the best
        chance a person reads a 1-clue for it right)."""
        cfg = self.listener
        if cfg.hardness <= 0 or n_own < 2 or len(codes) == n_own:
            return None
        others = fit[n_own:].max(axis=0)
        gaps = np.where(legal, fit[:n_own] - others, -np.inf).max(axis=1)
        chance = self.reading.read_right_chance(gaps)
        turns = 1 / np.maximum(chance, 1 / cfg.hard_cap)
        worth: npt.NDArray[np.float64] = 1 + cfg.hardness * (turns / turns.min() - 1)
        return worth

    def _neighbours_of(self, failed: frozenset[str]) -> npt.NDArray[np.bool_]:
        """Candidates close to a clue that failed, in the mean of the minds' standard units:
        the next clue for its card should be a link of another kind."""
        near = np.zeros(len(self.panel.words), dtype=bool)
        for word in failed:
            index = self.panel.index(word)
            if index is not None:
                near |= self.panel.word_rows.get_or_build(
                    ("neighbours", word, self.listener.neighbour_z),
                    functools.partial(self._near, index))
        return near

    def _near(self, index: int) -> npt.NDArray[np.bool_]:
        """The candidates within ``neighbour_z`` of candidate ``index`` (read-only)."""
        total = np.zeros(len(self.panel.words), dtype=np.float64)
        for mind, matrix in zip(self.panel.minds, self.panel.matrices, strict=True):
            cosines = matrix @ matrix[index]
            total += (cosines - mind.calibration.mean) / mind.calibration.std
        near = total / len(self.panel.minds) >= self.listener.neighbour_z
        near.flags.writeable = False
        return near

    # -- a person's reading -------------------------------------------------------------
    def _expect(self, f: FloatArray, codes: npt.NDArray[np.int8], n_own: int, own_left: int,
                opponent_left: int, worth: npt.NDArray[np.float64] | None
                ) -> tuple[npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64]]:
        """Each (candidate, number)'s expected value and the chance people read it right
        (both (R, numbers)). People trust the number: for N they touch the N own cards they
        read best, and find the first i of them with the chance ``read_right_chance`` gives
        the i-th's gap to the best other card; a miss ends the turn at that card's cost."""
        cfg = self.listener
        count = f.shape[1]
        numbers = np.arange(1, min(cfg.max_number, own_left, n_own) + 1)
        order = _targets(f, n_own, int(numbers.max()))  # (k, R)
        top = np.take_along_axis(f[:n_own], order, axis=0).astype(np.float64)
        if len(codes) > n_own:
            other = f[n_own:]
            best_other = other.max(axis=0).astype(np.float64)
            cost = np.array([0.0, cfg.opponent_cost, cfg.bystander_cost, cfg.assassin_cost])
            if opponent_left <= 1:
                cost[OPPONENT] = cfg.assassin_cost  # their last card loses the game
            miss_cost = cost[codes[n_own:][np.argmax(other, axis=0)]]
        else:
            best_other = np.full(count, -np.inf)
            miss_cost = np.zeros(count)
        chance = self.reading.read_right_chance(top - best_other[None, :])  # (k, R)
        chance = np.minimum.accumulate(chance, axis=0)
        card_worth = np.ones_like(top) if worth is None else worth[order]
        gained = np.cumsum(card_worth * chance, axis=0)
        values = np.empty((count, numbers.size), dtype=np.float64)
        for j, tries in enumerate(numbers):
            read = chance[tries - 1]
            values[:, j] = gained[tries - 1] - (1 - read) * miss_cost + cfg.win_bonus * read * (
                tries >= own_left)
        return values, numbers, chance[numbers - 1].T

    # -- the rules ----------------------------------------------------------------------
    def _allowed(self, z: FloatArray, f: FloatArray, n_own: int, numbers: IntArray,
                 found_all: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """(R, numbers): read right, every target linked by enough minds."""
        cfg = self.listener
        bars = np.where(numbers == 1, cfg.read_right_one, cfg.read_right)
        read_right = found_all >= bars[None, :]
        targets = _targets(f, n_own, int(numbers.max()))  # (k, R) own rows, best first
        linked = np.take_along_axis(
            (np.nan_to_num(z[:, :n_own], nan=-np.inf) >= cfg.link_z).sum(axis=0),
            targets, axis=0)  # (k, R): minds linking the i-th target
        enough = np.minimum.accumulate(linked >= cfg.link_minds, axis=0)  # (k, R)
        linked_ok = np.stack([np.ones(f.shape[1], dtype=bool) if k == 1 else enough[k - 1]
                              for k in numbers], axis=1)
        allowed: npt.NDArray[np.bool_] = read_right & linked_ok
        return allowed

    def _clear(self, f: FloatArray, n_own: int, numbers: IntArray, bar: float
               ) -> npt.NDArray[np.bool_]:
        """(R, numbers): every target's chance of being meant, as people read it, at least
        ``bar``."""
        if bar <= 0:
            return np.ones((f.shape[1], numbers.size), dtype=bool)
        targets = _targets(f, n_own, int(numbers.max()))
        chance = self.reading.find_chance(np.take_along_axis(f[:n_own], targets, axis=0))
        clear = np.minimum.accumulate(chance >= bar, axis=0)  # (k, R)
        return np.ascontiguousarray(clear[numbers - 1].T)

    def _another_kind(self, z: FloatArray, f: FloatArray, n_own: int, numbers: IntArray,
                      face_up: list[int], words: tuple[str, ...], partner: PartnerModel
                      ) -> npt.NDArray[np.bool_]:
        """(R, numbers): no target of a failed clue linked again best by the mind that linked
        the failed clue best (``ListenerConfig.other_kind``)."""
        ok = np.ones((f.shape[1], numbers.size), dtype=bool)
        if not self.listener.other_kind or not partner.failed:
            return ok
        used = self._failed_minds(face_up[:n_own], words, partner)
        if not used:
            return ok
        targets = _targets(f, n_own, int(numbers.max()))  # (k, R)
        zz = np.nan_to_num(z[:, :n_own], nan=-np.inf)  # (minds, own, R)
        best_mind = zz.argmax(axis=0)  # (own, R)
        best_z = zz.max(axis=0)
        bad = np.zeros(best_mind.shape, dtype=bool)
        for row, minds in used.items():
            bad[row] = np.isin(best_mind[row], list(minds)) | (
                best_z[row] < self.listener.other_kind_z)
        hit = np.take_along_axis(bad, targets, axis=0)  # (k, R)
        spoiled = np.maximum.accumulate(hit, axis=0)
        return ~np.ascontiguousarray(spoiled[numbers - 1].T)

    def _not_tired(self, f: FloatArray, n_own: int, numbers: IntArray, face_up: list[int],
                   words: tuple[str, ...]) -> npt.NDArray[np.bool_]:
        """(R, numbers): no target our clues already aimed at ``tired_after`` times unless
        people read this clue as clearly meaning it (``ListenerConfig.tired_after``)."""
        cfg = self.listener
        ok = np.ones((f.shape[1], numbers.size), dtype=bool)
        if cfg.tired_after <= 0:
            return ok
        aimed: dict[str, int] = {}
        for explanation in self.explanations:
            for target in explanation.targets:
                aimed[target.word] = aimed.get(target.word, 0) + 1
        tired = np.array([aimed.get(words[i], 0) >= cfg.tired_after
                          for i in face_up[:n_own]])
        if not tired.any():
            return ok
        targets = _targets(f, n_own, int(numbers.max()))  # (k, R)
        chance = self.reading.find_chance(np.take_along_axis(f[:n_own], targets, axis=0))
        vague = tired[targets] & (chance < cfg.tired_bar)
        spoiled = np.maximum.accumulate(vague, axis=0)
        return ~np.ascontiguousarray(spoiled[numbers - 1].T)

    def _failed_minds(self, own: list[int], words: tuple[str, ...], partner: PartnerModel
                      ) -> dict[int, set[int]]:
        """For each face-up own card (its row among ``own``) a failed clue of ours aimed at,
        the minds that linked those clues to it best."""
        rows = {words[index]: row for row, index in enumerate(own)}
        used: dict[int, set[int]] = {}
        for explanation in self.explanations:
            word = explanation.clue.word
            if word not in partner.failed:
                continue
            for target in explanation.targets:
                row = rows.get(target.word)
                if row is None:
                    continue
                z = self.panel.clue_z(word, [target.word], self.picture_meaning,
                                      self.pictures)[:, 0]
                if not np.isnan(z).all():
                    used.setdefault(row, set()).add(int(np.nanargmax(z)))
        return used

    def _safe(self, z: FloatArray, f: FloatArray, codes: npt.NDArray[np.int8], n_own: int,
              numbers: IntArray, dangerous: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """(R, numbers): no mind, and not the people model, puts a dangerous card near the
        number's targets (or plainly near the clue)."""
        cfg = self.listener
        count = f.shape[1]
        safe = np.ones((count, numbers.size), dtype=bool)
        if not dangerous.any():
            return safe
        targets = _targets(f, n_own, int(numbers.max()))  # (k, R)
        danger_z = np.nan_to_num(z[:, dangerous], nan=-np.inf).max(axis=1)  # (minds, R)
        danger_f = f[dangerous].max(axis=0)  # (R,)
        own_z = np.nan_to_num(z[:, :n_own], nan=np.inf)
        for j, k in enumerate(numbers):
            weakest_z = np.take_along_axis(own_z, targets[None, :k], axis=1).min(axis=1)
            weakest_f = np.take_along_axis(f[:n_own], targets[:k], axis=0).min(axis=0)
            near = (danger_z >= cfg.danger_floor) & (danger_z > weakest_z - cfg.danger_margin)
            plain = danger_z >= cfg.danger_z
            worried = (near | plain).any(axis=0) | (danger_f > weakest_f - cfg.people_margin)
            if cfg.cross_margin is not None:
                least = np.where(np.isinf(weakest_z), np.nan, weakest_z)
                most = danger_z.max(axis=0)
                worried |= (most > np.nanmin(least, axis=0) - cfg.cross_margin) & (
                    most >= cfg.cross_floor)
            safe[:, j] = ~worried
        return safe

    # -- the explanation ----------------------------------------------------------------
    def _explain_people(self, words: tuple[str, ...], codes: npt.NDArray[np.int8],
                        z: FloatArray, f: FloatArray, row: int, number: int, score: float,
                        alternatives: tuple[Alternative, ...], partner: PartnerModel,
                        found_all: float) -> ClueExplanation:
        """Targets as people read them; the card the minds worry about most; a sentence a
        player can read."""
        own = np.flatnonzero(codes == OWN)
        targets = own[np.argsort(-f[own], kind="stable")][:number]
        chances = self.reading.find_chance(f[targets])
        clue = Clue(self.panel.words[row], number)
        worried = np.nanmax(np.where(np.isnan(z), -np.inf, z), axis=0)
        bad = np.flatnonzero(codes != OWN)
        danger = None
        filled = np.where(np.isnan(z), np.inf, z)
        margin = float(filled[:, targets].min())
        if bad.size:
            worst = bad[int(np.argmax(worried[bad]))]
            danger = ScoredCard(words[worst], float(worried[worst]))
            margin -= float(worried[worst])
        link = self.listener.link_z
        agree = [m.label for m, zm in zip(self.panel.minds, z, strict=True)
                 if not np.isnan(zm[targets]).any() and float(zm[targets].min()) >= link]
        reasons = board_reasons(clue.word, agree, danger, margin, codes, words)
        reasons.append(f"people find {'it' if number == 1 else f'all {number}'} first "
                       f"about {found_all:.0%} of the time")
        if partner.failed:
            reasons.append(f"not repeating {', '.join(sorted(partner.failed))}, which did not "
                           "work, nor a word close to it")
        notes = "; ".join([f"aimed at {_join([words[t].upper() for t in targets])}",
                           *reasons]) + "."
        return ClueExplanation(
            clue, tuple(ScoredCard(words[t], float(c)) for t, c in zip(targets, chances,
                                                                         strict=True)),
            danger, margin, score, alternatives, notes, tuple(reasons))


def _targets(f: FloatArray, n_own: int, k: int) -> IntArray:
    """The ``k`` own cards (rows of ``f[:n_own]``) people read best for each candidate,
    best first: (k, R)."""
    order: IntArray = np.argsort(-f[:n_own], axis=0, kind="stable")[:k]
    return order
