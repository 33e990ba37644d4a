"""``codenames clue`` and ``codenames guess``: one move of an AI on a board you type in."""

from __future__ import annotations

import json
from collections import Counter
from enum import StrEnum
from typing import Annotated

import typer

from ..agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER
from ..core import (
    WORDS,
    Board,
    Clue,
    ClueContext,
    ConfigError,
    DeckError,
    Guess,
    GuesserView,
    Identity,
    Layout,
    Phase,
    Role,
    RuleSet,
    SpymasterView,
    Team,
    check_clue,
    clue_number_to_json,
    custom,
    edition,
    normalize_word,
    parse_clue_number,
)

_KEY_LETTERS = {"R": Identity.RED, "B": Identity.BLUE, "N": Identity.BYSTANDER,
                "A": Identity.ASSASSIN}


class EditionName(StrEnum):
    words = "words"
    pictures = "pictures"
    custom = "custom"


def split_cards(text: str, option: str = "--board", *, required: bool = True) -> list[str]:
    """The cards of a comma-separated list (a card may hold spaces: ``ice cream``)."""
    cards = [card.strip() for card in text.split(",") if card.strip()]
    if required and not cards:
        raise ConfigError(f"{option} has no cards; list them separated by commas, e.g. "
                          "'apple,ice cream,bear'")
    # Words separated by spaces read as one card; a single card that really holds a space
    # is written with a comma after it.
    if "," not in text and len(text.split()) > 1:
        raise ConfigError(f"{option} has no commas, so {_shown(text)} would be one card; "
                          "separate the cards with commas ('apple,ice cream,bear'), or end a "
                          "single card that holds a space with a comma ('ice cream,')")
    return cards


def _shown(text: str, limit: int = 40) -> str:
    """User text quoted for a message, cut short."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _table(board: list[str], key: list[Identity] | None, revealed: list[str], team: Team,
           rules: RuleSet) -> tuple[dict[str, object], list[Identity | None]]:
    """The public fields of a view for a board typed on the command line."""
    if len({normalize_word(w) for w in board}) != len(board):
        raise ConfigError("--board lists the same card twice; every card must be distinct")
    covered = {normalize_word(w) for w in revealed}
    unknown = covered - {normalize_word(w) for w in board}
    if unknown:
        raise ConfigError(f"--revealed names cards that are not on the board: "
                          f"{', '.join(_shown(card) for card in sorted(unknown))}; list "
                          "only cards of --board")
    shown: list[Identity | None] = [
        (key[i] if key else team.agent) if normalize_word(w) in covered else None
        for i, w in enumerate(board)]
    red = sum(1 for k in key or [] if k is Identity.RED)
    starting = Team.RED if red >= sum(1 for k in key or [] if k is Identity.BLUE) else Team.BLUE
    left = {t: sum(1 for i, w in enumerate(board) if key and key[i] is t.agent
                   and shown[i] is None) for t in Team}
    fields: dict[str, object] = dict(
        rules=rules, team=team, words=tuple(board), revealed=tuple(shown),
        starting_team=starting, current_team=team, phase=Phase.CLUE, turn=1,
        red_left=left[Team.RED], blue_left=left[Team.BLUE], leftover=0, history=())
    return fields, shown


def parse_key(text: str, size: int) -> list[Identity]:
    letters = "".join(text.split()).upper()  # spaces may group the letters: "RRRRR BBBBB"
    if len(letters) != size:
        raise ConfigError(f"--key has {len(letters)} letters but the board has {size} cards; "
                          "give one letter per card in board order (R, B, N, A)")
    bad = sorted(set(letters) - set(_KEY_LETTERS))
    if bad:
        shown = ", ".join(ch if ch.isprintable() else repr(ch) for ch in bad)
        raise ConfigError(f"--key has letters {shown}; use R (red), B (blue), N (bystander), "
                          "A (assassin)")
    return [_KEY_LETTERS[ch] for ch in letters]


def key_rules(key: list[Identity], edition_name: EditionName | None,
              clue_rules: str) -> RuleSet:
    """The rule set of the layout the key is for; the key must fit it as the rules say
    (Words: 25 cards, 9/8 agents, 7 bystanders, 1 assassin). ``None``: Pictures for 20 cards,
    else Words. ``custom``: any counts with an agent for each team."""
    if edition_name is None:
        edition_name = EditionName.pictures if len(key) == 20 else EditionName.words
    counts = Counter(key)
    starting = Team.RED if counts[Identity.RED] >= counts[Identity.BLUE] else Team.BLUE
    if edition_name is EditionName.custom:
        try:
            layout = Layout(rows=1, cols=len(key), first_team_agents=counts[starting.agent],
                            second_team_agents=counts[starting.other.agent],
                            double_agent=False, bystanders=counts[Identity.BYSTANDER],
                            assassins=counts[Identity.ASSASSIN])
        except ConfigError as exc:
            raise ConfigError(f"--key is not a custom layout: {exc}; give each team at least "
                              "one agent (R and B)") from None
        rules = custom(layout)
    else:
        rules = edition(edition_name.value)
        try:
            Board(words=tuple(map(str, range(len(key)))), key=tuple(key),
                  starting_team=starting).check_fits(rules.layout)
        except DeckError as exc:
            layout = rules.layout
            raise ConfigError(
                f"--key does not fit a {edition_name.value} board ({layout.cells} cards: "
                f"{layout.starting_team_cards} for the starting team, "
                f"{layout.second_team_agents} for the other, {layout.bystanders} "
                f"bystanders, {layout.assassins} assassin): the {exc}; fix --board and "
                "--key, or give --edition custom for another layout") from None
    return rules.with_options(clue_rules=clue_rules)


def check_guess_clue(clue: Clue, cards: list[str]) -> None:
    """The core's clue rules for ``guess``: one word, not a visible card, a number from 0
    to the face-up cards (or unlimited)."""
    context = ClueContext(rules=WORDS.with_options(clue_rules="basic"), team=Team.RED,
                          visible_words=tuple(cards), covered_words=(),
                          cards_left=len(cards))
    violation = check_clue(clue, context)
    if violation is not None:
        option = "--clue" if violation.rule in {"one-word", "board-word"} else "--number"
        raise ConfigError(f"{option} breaks the [{violation.rule}] rule: {violation.message}")


def clue(
    board: Annotated[str, typer.Option(help="The cards, comma-separated, in grid order.")],
    key: Annotated[str, typer.Option(help="One letter per card: R red, B blue, N bystander, "
                                          "A assassin.")],
    team: Annotated[str, typer.Option(help="The team to give a clue for: red or blue.")],
    revealed: Annotated[str, typer.Option(help="Cards already covered, comma-separated.")] = "",
    spymaster: Annotated[str, typer.Option(help="Agent id or module:Class.")]
    = DEFAULT_SPYMASTER,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the agent.")] = None,
    clue_rules: Annotated[str, typer.Option(help="classic, strict, flexible, pictures.")]
    = "classic",
    edition_name: Annotated[EditionName | None, typer.Option(
        "--edition", help="The layout the key must fit: words (25 cards: 9/8 agents, 7 "
                          "bystanders, 1 assassin), pictures (20: 8/7/4/1) or custom (any "
                          "counts). Default: pictures for 20 cards, else words.")] = None,
    explain: Annotated[bool, typer.Option(help="Say why: targets, feared card, runners-up.")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The AI spymaster's clue for a board and key you give."""
    from ..agents.registry import make_agent

    try:
        side = Team(team.strip().lower())
    except ValueError:
        raise ConfigError(f"--team must be red or blue, not {_shown(team)}") from None
    cards = split_cards(board)
    identities = parse_key(key, len(cards))
    rules = key_rules(identities, edition_name, clue_rules)
    fields, _ = _table(cards, identities, split_cards(revealed, "--revealed", required=False),
                       side, rules)
    if fields[f"{side.value}_left"] == 0:
        raise ConfigError(f"{side.value} has no agents left to find on this board")
    view = SpymasterView(**fields, key=tuple(identities), cover_team=None,  # type: ignore[arg-type]
                         cover_candidates=())
    agent = make_agent(spymaster, role=Role.SPYMASTER, seat="--spymaster",
                       **({"model": model} if model else {}))
    given = agent.give_clue(view)
    explanation = getattr(agent, "last_explanation", None)
    if as_json:
        payload: dict[str, object] = {"clue": given.word,
                                      "number": clue_number_to_json(given.number)}
        if explain and explanation is not None:
            payload["explanation"] = explanation.to_dict()
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    typer.echo(f"{given.word} {given.number}")
    if explain and explanation is not None:
        typer.echo(explanation.describe())


def guess(
    board: Annotated[str, typer.Option(help="The face-up cards, comma-separated.")],
    clue_word: Annotated[str, typer.Option("--clue", help="The clue word.")],
    number: Annotated[str, typer.Option(help="The clue number (0, 1, 2, ... or unlimited).")],
    guesser: Annotated[str, typer.Option(help="Agent id or module:Class.")] = DEFAULT_GUESSER,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the agent.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The AI guesser's guesses for a clue, in order, assuming each one is right, and where it
    would stop."""
    from ..agents.registry import make_agent

    cards = split_cards(board)
    try:
        clue_number = parse_clue_number(number)
    except ValueError as exc:
        raise ConfigError(f"--number: {exc}") from None
    the_clue = Clue(clue_word.strip(), clue_number)
    check_guess_clue(the_clue, cards)
    agent = make_agent(guesser, role=Role.GUESSER, seat="--guesser",
                       **({"model": model} if model else {}))
    fields, shown = _table(cards, None, [], Team.RED, WORDS.with_options(clue_rules="basic"))
    picks: list[str] = []
    limit = clue_number + 1 if isinstance(clue_number, int) and clue_number > 0 else len(cards)
    stopped = "it runs out of guesses"
    while len(picks) < min(limit, len(cards)):
        fields.update(revealed=tuple(shown), phase=Phase.GUESS)
        view = GuesserView(**fields, clue=the_clue, guesses_made=len(picks),  # type: ignore[arg-type]
                           guesses_left=None if limit == len(cards) else limit - len(picks),
                           can_pass=bool(picks))
        action = agent.guess(view)
        if not isinstance(action, Guess):
            stopped = "it stops (not confident enough)"
            break
        picks.append(cards[action.index])
        shown[action.index] = Team.RED.agent
    if as_json:
        typer.echo(json.dumps({"clue": the_clue.word, "number": clue_number_to_json(clue_number),
                               "guesses": picks, "stop": stopped}, ensure_ascii=False))
        return
    for i, card in enumerate(picks, start=1):
        typer.echo(f"{i}. {card}")
    typer.echo(f"then {stopped}")
