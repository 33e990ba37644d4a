"""Figures of a tournament, computed from its game results in schedule order.

Per matchup and per team: games, wins with a Wilson 95% interval, mean turns, assassin losses
per 100 games, clue precision (own cards found in a clue's turn, up to its number, over the
numbers given), mean clue number, and the time per spymaster and guesser move. Over all
agents: openskill (Plackett-Luce) ratings, fed the games in schedule order so the same games
always give the same ratings. Timing is the only part that differs between two runs.

``summarize`` returns a ``Summary``: frozen rows whose ``to_dict`` is ``summary.json``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from openskill.models import PlackettLuce

from ..core.cards import Team
from ..core.events import ClueGiven, Covered, GuessMade
from ..core.record import GameRecord
from ..core.state import EndReason
from .games import OK
from .spec import Mode, TournamentSpec

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 0 for no trials)."""
    if trials == 0:
        return (0.0, 0.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding would leave 0.9999999999999999.
    return (0.0 if successes == 0 else max(0.0, centre - half),
            1.0 if successes == trials else min(1.0, centre + half))


@dataclass(frozen=True)
class GameCounts:
    """Games scheduled, finished (played or failed), played and failed."""

    scheduled: int
    finished: int
    played: int
    failed: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameCounts:
        return cls(int(data["scheduled"]), int(data["finished"]), int(data["played"]),
                   int(data["failed"]))


@dataclass(frozen=True)
class MatchupFigures:
    """One matchup: its teams, and the games, wins and losses of the first team."""

    teams: tuple[str, ...]
    games: int
    wins: int
    losses: int
    no_winner: int
    win_rate: float
    win_rate_95: tuple[float, float]  # Wilson 95% interval
    mean_game_turns: float

    def to_dict(self) -> dict[str, Any]:
        return {"teams": list(self.teams), "games": self.games, "wins": self.wins,
                "losses": self.losses, "no_winner": self.no_winner, "win_rate": self.win_rate,
                "win_rate_95": list(self.win_rate_95), "mean_game_turns": self.mean_game_turns}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchupFigures:
        return cls(tuple(data["teams"]), data["games"], data["wins"], data["losses"],
                   data["no_winner"], data["win_rate"], _pair(data["win_rate_95"]),
                   data["mean_game_turns"])


@dataclass(frozen=True)
class TeamFigures:
    """One team (``"spymaster+guesser"``) over all its games. ``mean_coop_score`` is for
    co-op tournaments only."""

    games: int
    wins: int
    win_rate: float
    win_rate_95: tuple[float, float]  # Wilson 95% interval
    mean_turns: float  # own turns per game
    assassin_per_100: float
    clue_precision: float
    mean_clue_number: float
    clues: int
    turn_counts: Mapping[int, int]  # own turns -> games, ascending
    clue_number_counts: Mapping[int, int]  # clue number -> clues, ascending
    ms_per_clue: float
    ms_per_guess: float
    mean_coop_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
            "win_rate_95": list(self.win_rate_95), "mean_turns": self.mean_turns,
            "assassin_per_100": self.assassin_per_100, "clue_precision": self.clue_precision,
            "mean_clue_number": self.mean_clue_number, "clues": self.clues,
            "turn_counts": {str(k): v for k, v in self.turn_counts.items()},
            "clue_number_counts": {str(k): v for k, v in self.clue_number_counts.items()},
            "ms_per_clue": self.ms_per_clue, "ms_per_guess": self.ms_per_guess,
            **({"mean_coop_score": self.mean_coop_score}
               if self.mean_coop_score is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TeamFigures:
        return cls(data["games"], data["wins"], data["win_rate"], _pair(data["win_rate_95"]),
                   data["mean_turns"], data["assassin_per_100"], data["clue_precision"],
                   data["mean_clue_number"], data["clues"],
                   {int(k): v for k, v in data["turn_counts"].items()},
                   {int(k): v for k, v in data["clue_number_counts"].items()},
                   data["ms_per_clue"], data["ms_per_guess"], data.get("mean_coop_score"))


@dataclass(frozen=True)
class Rating:
    """An agent's openskill rating (ordinal = mu - 3 sigma) and the games that rated it."""

    agent: str
    mu: float
    sigma: float
    ordinal: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rating:
        return cls(data["agent"], data["mu"], data["sigma"], data["ordinal"], data["games"])


@dataclass(frozen=True)
class Failure:
    """A game that could not be played, and why."""

    game: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Failure:
        return cls(data["game"], data["reason"])


@dataclass(frozen=True)
class Summary:
    """A tournament's figures (``summary.json`` is ``to_dict``; ``from_dict`` reads it).
    ``teams`` keeps the spec's team order; ``ratings`` are the ranked agents best first,
    then the unrated ones (no rated game: e.g. a guesser shared by every team) by name;
    ``failures`` are the first 50."""

    tournament: str  # the spec's fingerprint
    mode: Mode
    edition: str
    seed: int
    games: GameCounts
    seconds: float  # summed game wall times
    matchups: tuple[MatchupFigures, ...]
    teams: Mapping[str, TeamFigures]
    ratings: tuple[Rating, ...]
    failures: tuple[Failure, ...]

    @property
    def ranked(self) -> tuple[Rating, ...]:
        """The agents with rated games, best first: only they have a place in a ranking (an
        unrated agent's ordinal is its prior, which says nothing about how it plays)."""
        return tuple(r for r in self.ratings if r.games)

    @property
    def unrated(self) -> tuple[Rating, ...]:
        """The agents no game rated, by name."""
        return tuple(sorted((r for r in self.ratings if not r.games), key=lambda r: r.agent))

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``summary.json``."""
        return {
            "tournament": self.tournament,
            "mode": self.mode.value,
            "edition": self.edition,
            "seed": self.seed,
            "games": self.games.to_dict(),
            "seconds": self.seconds,
            "matchups": [m.to_dict() for m in self.matchups],
            "teams": {label: t.to_dict() for label, t in self.teams.items()},
            "ratings": [r.to_dict() for r in self.ratings],
            "failures": [f.to_dict() for f in self.failures],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Summary:
        """A summary from ``to_dict`` (e.g. ``summary.json``); ``KeyError`` or ``ValueError``
        on anything else."""
        return cls(data["tournament"], Mode(data["mode"]), data["edition"], data["seed"],
                   GameCounts.from_dict(data["games"]), data["seconds"],
                   tuple(MatchupFigures.from_dict(m) for m in data["matchups"]),
                   {label: TeamFigures.from_dict(t) for label, t in data["teams"].items()},
                   tuple(Rating.from_dict(r) for r in data["ratings"]),
                   tuple(Failure.from_dict(f) for f in data["failures"]))


def _pair(values: Any) -> tuple[float, float]:
    low, high = values
    return (low, high)


@dataclass
class TeamTally:
    games: int = 0
    wins: int = 0
    assassin_losses: int = 0
    turns: Counter[int] = field(default_factory=Counter)  # own turns per game
    clue_numbers: Counter[int] = field(default_factory=Counter)
    found: int = 0  # own cards found within clue numbers
    asked: int = 0  # sum of clue numbers
    coop: bool = False
    coop_score: int = 0
    clue_moves: int = 0
    clue_seconds: float = 0.0
    guess_moves: int = 0
    guess_seconds: float = 0.0

    def figures(self) -> TeamFigures:
        low, high = wilson(self.wins, self.games)
        return TeamFigures(
            games=self.games,
            wins=self.wins,
            win_rate=_ratio(self.wins, self.games),
            win_rate_95=(round(low, 4), round(high, 4)),
            mean_turns=_mean(self.turns),
            assassin_per_100=round(100 * self.assassin_losses / self.games, 2)
            if self.games else 0.0,
            clue_precision=_ratio(self.found, self.asked),
            mean_clue_number=_mean(self.clue_numbers),
            clues=sum(self.clue_numbers.values()),
            turn_counts=dict(sorted(self.turns.items())),
            clue_number_counts=dict(sorted(self.clue_numbers.items())),
            ms_per_clue=_ms(self.clue_seconds, self.clue_moves),
            ms_per_guess=_ms(self.guess_seconds, self.guess_moves),
            mean_coop_score=_ratio(self.coop_score, self.games, 3) if self.coop else None,
        )


@dataclass
class MatchupTally:
    teams: tuple[str, ...]
    games: int = 0
    wins: int = 0  # of the first team
    losses: int = 0
    game_turns: int = 0

    def figures(self) -> MatchupFigures:
        low, high = wilson(self.wins, self.games)
        return MatchupFigures(self.teams, self.games, self.wins, self.losses,
                              self.games - self.wins - self.losses, _ratio(self.wins, self.games),
                              (round(low, 4), round(high, 4)),
                              _ratio(self.game_turns, self.games, 2))


def summarize(spec: TournamentSpec, results: Iterable[dict[str, Any]]) -> Summary:
    """The summary of a tournament's results, given in schedule order (as
    ``read_results_in_order`` reads them); games beyond the spec are left out. Streams: holds
    one game at a time."""
    teams = {t.label: TeamTally(coop=spec.mode is Mode.COOP) for t in spec.teams}
    matchups = [MatchupTally(tuple(t.label for t in m)) for m in spec.matchups]
    ratings = _Ratings(a.label for a in spec.agents)
    failures: list[Failure] = []
    board_entries: list[tuple[list[str], tuple[int, int]]] = []  # of the board in progress
    board_now = -1
    seconds = 0.0
    finished = failed = 0
    last = -1
    for result in results:
        index = int(result["game"])
        if not 0 <= index < spec.games:
            continue
        if index <= last:
            raise ValueError("summarize needs results in schedule order, each game once")
        last = index
        finished += 1
        if result.get("status") != OK:
            failed += 1
            if len(failures) < 50:  # the first ones, with their reasons
                failures.append(Failure(index, str(result.get("reason", ""))))
            continue
        record = GameRecord.from_rows(result["record"], source=f"game {result['game']}")
        seconds += float(result.get("seconds", 0.0))
        sides = _sides(spec, result, record)
        for team, label in sides:
            _tally(teams[label], record, team, result.get("moves", {}), spec.mode)
        matchup = matchups[int(result["matchup"])]
        matchup.games += 1
        matchup.game_turns += record.outcome.turns
        if spec.mode is Mode.TWO_TEAM:
            _score_two_team(matchup, sides, record, ratings)
            continue
        if int(result["board"]) != board_now:  # a race's teams are rated board by board
            ratings.rate_board(board_entries)
            board_entries, board_now = [], int(result["board"])
        board_entries.append(_score_race(matchup, sides, record))
    ratings.rate_board(board_entries)
    return Summary(
        tournament=spec.fingerprint(),
        mode=spec.mode,
        edition=spec.edition,
        seed=spec.seed,
        games=GameCounts(spec.games, finished, finished - failed, failed),
        seconds=round(seconds, 3),
        matchups=tuple(m.figures() for m in matchups),
        teams={label: tally.figures() for label, tally in teams.items()},
        ratings=ratings.table(),
        failures=tuple(failures),
    )


def _score_two_team(matchup: MatchupTally, sides: list[tuple[Team, str]],
                    record: GameRecord, ratings: _Ratings) -> None:
    """A two-team game's result: the matchup's wins or losses (its first team's), and both
    teams' ratings (a game with no winner is a draw)."""
    winner = record.outcome.winner
    labels = {team: label for team, label in sides}
    if winner is not None:
        if labels[winner] == matchup.teams[0]:
            matchup.wins += 1
        else:
            matchup.losses += 1
    ratings.rate([_members(label) for _, label in sides],
                 [1 if winner is None or team is winner else 2 for team, _ in sides])


def _score_race(matchup: MatchupTally, sides: list[tuple[Team, str]],
                record: GameRecord) -> tuple[list[str], tuple[int, int]]:
    """A race's (or a cooperative game's) result in its matchup, and the team's entry for its
    board's rating: a win ranks by its own turns, a loss by how long it held out."""
    team, label = sides[0]
    winner = record.outcome.winner
    if winner is team:
        matchup.wins += 1
    else:
        matchup.losses += 1
    rank = (0, _own_turns(record, team)) if winner is team else (1, -record.outcome.turns)
    return _members(label), rank


def without_timing(summary: Summary) -> Summary:
    """The summary with its clock figures (game seconds, ms per clue and per guess) at 0:
    what must be equal across backends and runs."""
    return replace(summary, seconds=0.0, teams={
        label: replace(t, ms_per_clue=0.0, ms_per_guess=0.0)
        for label, t in summary.teams.items()})


def _sides(spec: TournamentSpec, result: dict[str, Any], record: GameRecord
           ) -> list[tuple[Team, str]]:
    """(side, team label) of the teams that played."""
    if result.get("blue") is not None:
        return [(Team.RED, result["red"]), (Team.BLUE, result["blue"])]
    return [(record.board.starting_team, result["red"])]


def _members(label: str) -> list[str]:
    spymaster, _, guesser = label.partition("+")
    return [spymaster, guesser]


def _own_turns(record: GameRecord, team: Team) -> int:
    return len({event.turn for event in record.events
                if getattr(event, "team", None) is team and not isinstance(event, Covered)})


def _tally(tally: TeamTally, record: GameRecord, team: Team, moves: dict[str, Any],
           mode: Mode) -> None:
    outcome = record.outcome
    tally.games += 1
    tally.wins += outcome.winner is team
    tally.assassin_losses += outcome.reason is EndReason.ASSASSIN and outcome.winner is not team
    tally.turns[_own_turns(record, team)] += 1
    if mode is Mode.COOP and outcome.coop_score is not None:
        tally.coop_score += outcome.coop_score
    number = 0
    found = 0
    for event in record.events:
        if isinstance(event, ClueGiven) and event.team is team:
            tally.found += min(found, number)
            number = event.clue.number if isinstance(event.clue.number, int) else 0
            found = 0
            if isinstance(event.clue.number, int):
                tally.clue_numbers[number] += 1
                tally.asked += number
        elif isinstance(event, GuessMade) and event.team is team \
                and event.identity is team.agent:
            found += 1
    tally.found += min(found, number)
    side = "" if mode is Mode.COOP else f"{team.value} "
    clue_moves, clue_seconds = moves.get(f"{side}spymaster", (0, 0.0))
    guess_moves, guess_seconds = moves.get(f"{side}guesser", (0, 0.0))
    tally.clue_moves += int(clue_moves)
    tally.clue_seconds += float(clue_seconds)
    tally.guess_moves += int(guess_moves)
    tally.guess_seconds += float(guess_seconds)


class _Ratings:
    def __init__(self, labels: Iterable[str]) -> None:
        self.model = PlackettLuce()
        self.ratings = {label: self.model.rating(name=label) for label in labels}
        self.games: Counter[str] = Counter()

    def rate(self, teams: list[list[str]], ranks: list[int]) -> None:
        """One match; an agent on more than one of its teams (self-play, a shared guesser)
        learns nothing from it and keeps its rating."""
        counts = Counter(label for team in teams for label in team)
        rated = self.model.rate([[self.ratings[label] for label in team] for team in teams],
                                ranks=[float(r) for r in ranks])
        for team, new in zip(teams, rated, strict=True):
            for label, rating in zip(team, new, strict=True):
                if counts[label] == 1:
                    self.ratings[label] = rating
                    self.games[label] += 1

    def rate_board(self, entries: list[tuple[list[str], tuple[int, int]]]) -> None:
        """Single-team and co-op: the teams that played one board, ranked by how they did
        (won first, then fewer turns)."""
        if len(entries) > 1:
            order = sorted({rank for _, rank in entries})
            self.rate([m for m, _ in entries], [order.index(r) + 1 for _, r in entries])

    def table(self) -> tuple[Rating, ...]:
        rows = [Rating(label, round(r.mu, 3), round(r.sigma, 3), round(r.ordinal(), 3),
                       self.games[label])
                for label, r in self.ratings.items()]
        # Unrated agents last: their ordinal is the prior, not a place in the ranking.
        return tuple(sorted(rows, key=lambda row: (not row.games, -row.ordinal if row.games
                                                   else 0.0, row.agent)))


def _ratio(part: float, whole: float, digits: int = 4) -> float:
    return round(part / whole, digits) if whole else 0.0


def _mean(counts: Counter[int]) -> float:
    total = sum(counts.values())
    return round(sum(k * v for k, v in counts.items()) / total, 3) if total else 0.0


def _ms(seconds: float, moves: int) -> float:
    return round(1000 * seconds / moves, 3) if moves else 0.0
