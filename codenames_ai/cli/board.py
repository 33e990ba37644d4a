"""A board typed on the command line (``codenames clue``, ``guess`` and ``check``): its cards,
its key and the rule set the key fits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core import (
    MAX_CARDS,
    WORDS,
    Board,
    Clue,
    ClueContext,
    ConfigError,
    DeckError,
    EditionName,
    GameSettings,
    Identity,
    LayoutOverrides,
    RuleSet,
    SpymasterView,
    Team,
    check_clue,
    normalize_word,
    parse_key,
    starting_team_of,
)
from ..core.errors import quoted


def split_cards(text: str, option: str = "--board", *, required: bool = True) -> list[str]:
    """The cards of a comma-separated list (a card may hold spaces: ``ice cream``)."""
    cards = [card.strip() for card in text.split(",") if card.strip()]
    if len(cards) > MAX_CARDS:
        raise ConfigError(f"{option} lists {len(cards):,} cards; a board holds at most "
                          f"{MAX_CARDS}")
    if required and not cards:
        raise ConfigError(f"{option} has no cards; list them separated by commas, e.g. "
                          "'apple,ice cream,bear'")
    # Words separated by spaces read as one card; a single card that really holds a space
    # is written with a comma after it.
    if "," not in text and len(text.split()) > 1:
        raise ConfigError(f"{option} has no commas, so {quoted(text)} would be one card; "
                          "separate the cards with commas ('apple,ice cream,bear'), or end a "
                          "single card that holds a space with a comma ('ice cream,')")
    return cards


def covered_cards(board: list[str], revealed: list[str]) -> set[str]:
    """The revealed cards' compared forms; ``ConfigError`` for one that is not on the board
    (a typo would judge another board than the one meant)."""
    covered = {normalize_word(w) for w in revealed}
    unknown = covered - {normalize_word(w) for w in board}
    if unknown:
        raise ConfigError(f"--revealed names cards that are not on the board: "
                          f"{', '.join(quoted(card) for card in sorted(unknown))}; list "
                          "only cards of --board")
    return covered


def check_distinct(board: list[str]) -> None:
    """``ConfigError`` when the board lists a card twice."""
    if len({normalize_word(w) for w in board}) != len(board):
        raise ConfigError("--board lists the same card twice; every card must be distinct")


def spymaster_view(board: list[str], key: Sequence[Identity], revealed: list[str], team: Team,
                   rules: RuleSet) -> SpymasterView:
    """``team``'s spymaster's view of a board and key typed on the command line, the cards
    of ``revealed`` covered, at the first clue."""
    check_distinct(board)
    covered = covered_cards(board, revealed)
    dealt = Board(words=tuple(board), key=tuple(key), starting_team=starting_team_of(key))
    return SpymasterView.from_board(dealt, [normalize_word(w) in covered for w in board],
                                    rules, team)


def typed_key(text: str, size: int) -> tuple[Identity, ...]:
    """``--key``: the core's key letters (``parse_key``), one per card of ``--board``."""
    try:
        return parse_key(text, size, source="--key")
    except DeckError as exc:
        raise ConfigError(str(exc)) from None


def key_rules(key: Sequence[Identity], edition_name: EditionName | None,
              clue_rules: str) -> RuleSet:
    """The rule set of the layout the key is for; the key must fit it as the rules say
    (Words: 25 cards, 9/8 agents, 7 bystanders, 1 assassin). ``None``: Pictures for 20 cards,
    else Words. ``custom``: any counts with an agent for each team."""
    if edition_name is None:
        edition_name = EditionName.PICTURES if len(key) == 20 else EditionName.WORDS
    counts = Counter(key)
    starting = starting_team_of(key)
    if edition_name is EditionName.CUSTOM:
        try:
            layout = LayoutOverrides(
                rows=1, cols=len(key), first_team_agents=counts[starting.agent],
                second_team_agents=counts[starting.other.agent], double_agent=False,
                bystanders=counts[Identity.BYSTANDER], assassins=counts[Identity.ASSASSIN])
            GameSettings(edition=edition_name, layout=layout)  # the key fills its grid
        except ConfigError as exc:
            raise ConfigError(f"--key is not a custom layout: {exc}; give each team at least "
                              "one agent (R and B)") from None
        return GameSettings(edition=edition_name, layout=layout,
                            clue_rules=clue_rules).to_rules()
    rules = GameSettings(edition=edition_name, clue_rules=clue_rules).to_rules()
    try:
        Board(words=tuple(map(str, range(len(key)))), key=tuple(key),
              starting_team=starting).check_fits(rules.layout)
    except DeckError as exc:
        fits = rules.layout
        raise ConfigError(
            f"--key does not fit a {edition_name.value} board ({fits.cells} cards: "
            f"{fits.starting_team_cards} for the starting team, "
            f"{fits.second_team_agents} for the other, {fits.bystanders} "
            f"bystanders, {fits.assassins} assassin): the {exc}; fix --board and "
            "--key, or give --edition custom for another layout") from None
    return rules


def check_guess_clue(clue: Clue, cards: list[str], rules: str) -> None:
    """The clue rules for ``guess``: the core's (one word, not a visible card, a number from 0
    to the face-up cards or unlimited), then the rule set's word rules, as a game checks a
    spymaster's clue."""
    from ..legality.check import check_clue_word

    context = ClueContext(rules=WORDS.with_options(clue_rules="basic"), team=Team.RED,
                          visible_words=tuple(cards), covered_words=(),
                          cards_left=len(cards))
    violation = check_clue(clue, context)
    if violation is None:
        word_rules = check_clue_word(clue.word, cards, rules)
        violation = word_rules[0] if word_rules else None
    if violation is not None:
        number_rules = {"number-range", "zero-clue-off", "unlimited-clue-off"}
        option = "--number" if violation.rule in number_rules else "--clue"
        raise ConfigError(f"{option} breaks the [{violation.rule}] rule: {violation.message}")
