"""A game with people in it: seats for each role, the summary afterwards, saving the record."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

from ..agents.explain import ClueExplanation, TouchExplanation
from ..agents.levels import ai_seat, opposing_team
from ..agents.registry import check_agent, make_agent, partner_guesser, takes_option
from ..core import (
    DEFAULT_LEVEL,
    ClueGiven,
    ClueValidator,
    ConfigError,
    GameRecord,
    GuessMade,
    InvalidClue,
    Level,
    PlayRole,
    Role,
    RuleSet,
    Seats,
    Team,
    Variant,
    replay,
)
from ..output import write_file
from ..render import board_legend, describe_event, describe_outcome, render_view
from .terminal import Console, HumanGuesser, HumanSpymaster

# The roles a person plays in the terminal (watching is `codenames watch`).
ROLES = tuple(r.value for r in PlayRole if r is not PlayRole.WATCH)


def seats_for_role(role: str, rules: RuleSet, console: Console, *, spymaster_id: str,
                   guesser_id: str | None, spymaster_options: dict[str, Any] | None = None,
                   guesser_options: dict[str, Any] | None = None, checked: bool = True,
                   time_limit: float | None = None, validator: ClueValidator | None = None,
                   level: Level | str = DEFAULT_LEVEL) -> tuple[RuleSet, Seats, Team | None]:
    """The rule set (variant set for the role), the seats, and the person's team (``None``
    when the person plays for both teams). ``validator`` checks a person's clues when the
    game has its own (a user's picture deck). ``level`` sets the opposing team's agents when
    there is one (the guess and spymaster roles); the person's own AIs are the same at every
    level. ``guesser_id`` ``None``: each AI guesser is the one for whoever gives its team's
    clues (``partner_guesser``): the people guesser beside the person's clues, the default
    beside an AI spymaster. The ids are checked even when no seat of this game takes one (the
    other team's guesser at easy and normal is the level's own), so a wrong id is never
    silently unused."""
    opposing_team(level)  # an unknown level is refused before any AI is built
    check_agent(spymaster_id, role=Role.SPYMASTER, seat="the AI spymaster")
    for agent_id in _guesser_ids(guesser_id, person_clues=role == "spymaster"):
        check_agent(agent_id, role=Role.GUESSER, seat="the AI guesser")

    def spymaster(team: Team) -> Any:
        agent_id, options = ai_seat(level, Role.SPYMASTER, team, spymaster_id,
                                    spymaster_options or {}, variant=played.variant,
                                    people={Team.RED})
        return make_agent(agent_id, role=Role.SPYMASTER, seat="the AI spymaster", **options)

    def guesser(team: Team) -> Any:
        # The person gives red's clues in the spymaster role (they play red).
        agent_id = partner_guesser(guesser_id, person_clues=role == "spymaster"
                                   and team is Team.RED)
        options = _taken(agent_id, guesser_options or {}, chosen=guesser_id is not None)
        agent_id, options = ai_seat(level, Role.GUESSER, team, agent_id, options,
                                    variant=played.variant, people={Team.RED})
        return make_agent(agent_id, role=Role.GUESSER, seat="the AI guesser", **options)

    if role not in ROLES:
        raise ConfigError(f"unknown role {role!r}; choose one of: {', '.join(ROLES)}, or use "
                          "`codenames watch`")
    # The person plays red (for_variant asks co-op and three-player's one guesser for red).
    person: Any = (HumanSpymaster(console, checked=checked, time_limit=time_limit,
                                  validator=validator)
                   if role == "spymaster" else HumanGuesser(console, time_limit=time_limit))
    person_role = Role.SPYMASTER if role == "spymaster" else Role.GUESSER

    def seat(seat_role: Role, ai: Callable[[Team], Any]) -> Callable[[Team], Any]:
        return lambda team: person if (seat_role, team) == (person_role, Team.RED) else ai(team)

    played = rules.with_options(variant=PlayRole(role).variant)
    seats = Seats.for_variant(played.variant, spymaster=seat(Role.SPYMASTER, spymaster),
                              guesser=seat(Role.GUESSER, guesser))
    return played, seats, (Team.RED if played.variant is Variant.STANDARD else None)


def _guesser_ids(guesser_id: str | None, *, person_clues: bool) -> set[str]:
    """The AI guessers' ids a game of the role may seat: the one chosen, or the default
    beside an AI spymaster and, when a person gives clues, the one beside them."""
    return {partner_guesser(guesser_id, person_clues=False),
            partner_guesser(guesser_id, person_clues=person_clues)}


def _taken(agent_id: str, options: dict[str, Any], *, chosen: bool) -> dict[str, Any]:
    """The options an AI is built with: all of them for an agent the person chose (one it
    does not take is refused, naming it); for one chosen for them, only those it takes (the
    people guesser thinks with its own minds, so ``--model`` is for the other AIs)."""
    if chosen:
        return dict(options)
    return {name: value for name, value in options.items() if takes_option(agent_id, name)}


def paired_explanations(record: GameRecord, seats: Seats
                        ) -> list[tuple[ClueGiven | InvalidClue, ClueExplanation | None]]:
    """Each clue of the game with its spymaster's explanation (a team's k-th clue is its
    spymaster's k-th explanation; agents that do not explain give ``None``)."""
    pending = {team: list(getattr(seats.spymaster(team), "explanations", []))
               for team in (Team.RED, Team.BLUE)}
    return [(event, pending[event.team].pop(0) if pending[event.team] else None)
            for event in record.events if isinstance(event, ClueGiven | InvalidClue)]


def touch_explanations(seats: Seats) -> dict[tuple[int, int], TouchExplanation]:
    """The AI guessers' reasons for their touches, by (turn, card index): a card is touched
    once a game, and one guesser may play for both teams (three-player, co-op)."""
    guessers = {id(seat): seat for seat in (seats.guesser(Team.RED), seats.guesser(Team.BLUE))}
    return {(reason.turn, reason.index): reason for seat in guessers.values()
            for reason in getattr(seat, "touch_explanations", [])}


def summary(record: GameRecord, seats: Seats, *, explain: bool) -> list[str]:
    """Who won, in how many turns, and each clue with the guesses it got: an AI's clue with
    its reasons in plain words (``ClueExplanation.plain``), each AI touch under it with its
    reason (``TouchExplanation.plain``), and with ``explain`` the AIs' own accounts too
    (scores, margin, runners-up; the touches' numbers)."""
    coop_team = record.board.starting_team if record.rules.variant is Variant.COOP else None
    lines = [describe_outcome(record.outcome, coop_team=coop_team), "Clues:"]
    guesses: dict[int, list[str]] = {}
    touched: dict[int, list[GuessMade]] = {}
    for event in record.events:
        if isinstance(event, GuessMade):
            mark = "ok" if event.identity is event.team.agent else event.identity.value
            guesses.setdefault(event.turn, []).append(f"{event.word} ({mark})")
            touched.setdefault(event.turn, []).append(event)
    reasons = touch_explanations(seats)
    for event, explanation in paired_explanations(record, seats):
        if not isinstance(event, ClueGiven):
            continue
        why = "" if explanation is None else explanation.plain().rstrip(".") + "; "
        lines.append(f"  turn {event.turn} {event.team.value}: {event.clue} -> {why}guessed "
                     f"{', '.join(guesses.get(event.turn, [])) or 'nothing'}")
        if explain and explanation is not None:
            lines.append(f"      why: {explanation.describe()}")
        for guess in touched.get(event.turn, []):
            reason = reasons.get((guess.turn, guess.index))
            if reason is not None:
                lines.append(f"      {guess.word.upper()}: {reason.plain()}")
                if explain:
                    lines.append(f"        numbers: {reason.describe()}")
    return lines


def last_moves(record: GameRecord, seats: Seats, console: Console) -> list[str]:
    """The moves the person was not shown before the game ended: after their last prompt
    (their last touch, the other team's winning turn, the assassin)."""
    seen = max((seat.seen for _, seat in seats.labelled()
                if isinstance(seat, HumanGuesser | HumanSpymaster)), default=0)
    return [describe_event(event, console.deck) for event in record.events[seen:]]


def key_board(record: GameRecord, console: Console,
              validator: ClueValidator | None = None) -> list[str]:
    """The final board with the whole key, for the end of the game."""
    final = replay(record, validator=validator)
    watcher = final.spymaster_view(final.current_team)  # the game is over: anyone sees it
    return ["The key:",
            render_view(watcher, color=console.color, width=console.width,
                        tags=console.tags, deck=console.deck),
            board_legend(key=True, color=console.color, width=console.line_width)]


def person_moved(seats: Seats) -> bool:
    """Whether a person at this game made a move (a clue, a guess, a pass or a cover)."""
    return any(seat.moves for _, seat in seats.labelled()
               if isinstance(seat, HumanGuesser | HumanSpymaster))


def kept(record: GameRecord, seats: Seats, console: Console) -> bool:
    """Whether the game is saved: a game the person quit, as they answered "Save it?"; a
    game someone won, always; a game they left otherwise (the end of input, Ctrl-C), only if
    they made a move in it (one with no move of theirs holds nothing its seed does not deal
    again, and ``codenames play < /dev/null`` would leave a file behind at every run)."""
    if console.keep is not None:
        return console.keep
    return record.outcome.winner is not None or person_moved(seats)


def default_save_path(seed: int, role: str) -> Path:
    """A new file in the user's games folder, named by the time and the role, and the seed
    when it is short: a secret seed's 39 digits would make a path no terminal line holds
    (the record keeps the seed). A name taken already gets a number."""
    folder = Path(platformdirs.user_data_dir("codenames-ai", appauthor=False)) / "games"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    name = f"{stamp}-{role}" + (f"-seed{seed}" if len(str(seed)) <= SHORT_SEED else "")
    path, number = folder / f"{name}.jsonl", 2
    while path.exists() or path.is_symlink():
        path, number = folder / f"{name}-{number}.jsonl", number + 1
    return path


SHORT_SEED = 12  # digits: a seed typed with --seed; a secret one has about 39


def save(record: GameRecord, path: Path) -> Path:
    """Write the game's record to ``path`` all at once (``ConfigError`` if it cannot be)."""
    return write_file(path, record.to_jsonl(), "--save", record=True)
