"""A board typed on the command line (``codenames clue``, ``guess`` and ``check``): its cards,
its key and the rule set the key fits."""

from __future__ import annotations

from collections import Counter

from ..core import (
    MAX_CARDS,
    WORDS,
    Board,
    Clue,
    ClueContext,
    ConfigError,
    DeckError,
    EditionName,
    Identity,
    Layout,
    Phase,
    RuleSet,
    Team,
    check_clue,
    custom,
    edition,
    normalize_word,
)
from ..core.errors import quoted

_KEY_LETTERS = {"R": Identity.RED, "B": Identity.BLUE, "N": Identity.BYSTANDER,
                "A": Identity.ASSASSIN}


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


def board_fields(board: list[str], key: list[Identity] | None, revealed: list[str], team: Team,
           rules: RuleSet) -> tuple[dict[str, object], list[Identity | None]]:
    """The public fields of a view for a board typed on the command line."""
    if len({normalize_word(w) for w in board}) != len(board):
        raise ConfigError("--board lists the same card twice; every card must be distinct")
    covered = covered_cards(board, revealed)
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
        edition_name = EditionName.PICTURES if len(key) == 20 else EditionName.WORDS
    counts = Counter(key)
    starting = Team.RED if counts[Identity.RED] >= counts[Identity.BLUE] else Team.BLUE
    if edition_name is EditionName.CUSTOM:
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
