"""What ``codenames watch`` and ``codenames play`` share: the rule set, the cards and the
clue rules their options describe."""

from __future__ import annotations

from pathlib import Path

from ..agents.registry import takes_option
from ..core import ClueValidator, Layout, RuleSet, custom, edition, guess_limit, variant
from ..core.errors import ConfigError
from ..decks import default_deck, read_deck
from ..pictures import PictureDeck, load_deck


def build_rules(
    edition_name: str,
    *,
    variant_name: str = "standard",
    guess_limit_name: str = "classic",
    layout_overrides: dict[str, int | bool | None] | None = None,
    clue_rules_name: str | None = None,
) -> RuleSet:
    """The rule set the command-line options describe (custom counts only for ``custom``)."""
    overrides = {k: v for k, v in (layout_overrides or {}).items() if v is not None}
    if edition_name == "custom":
        base = edition("words").layout
        fields = {**base.__dict__, **overrides}
        rules = custom(Layout(**fields))
    else:
        if overrides:
            raise ConfigError(
                f"layout options ({', '.join('--' + k.replace('_', '-') for k in overrides)}) "
                "need --edition custom"
            )
        rules = edition(edition_name)
    rules = rules.with_options(variant=variant(variant_name),
                               guess_limit=guess_limit(guess_limit_name))
    if clue_rules_name is not None:
        rules = rules.with_options(clue_rules=clue_rules_name)
    return rules


def deck_for(rules: RuleSet, deck: Path | None) -> tuple[tuple[str, ...], PictureDeck | None]:
    """The cards to deal from (the user's deck if given, else the shipped one; enough for
    the grid), and the user's picture deck, whose captions the agents, the clue rules and
    the board must be given (``None`` for words and the shipped pictures)."""
    needed = rules.layout.cells
    if deck is None:
        return default_deck(rules.edition, needed=needed), None
    if deck.is_dir() or deck.suffix.lower() == ".tsv":
        pictures = load_deck(deck, needed=needed)
        return pictures.names, pictures
    return read_deck(deck, needed=needed), None


def picture_options(agent: str, deck: PictureDeck | None) -> dict[str, object]:
    """``pictures=`` for an agent that reads pictures, when a user's picture deck is in play."""
    return {"pictures": deck.captions} if deck and takes_option(agent, "pictures") else {}


def deck_validator(rules: RuleSet, deck: PictureDeck | None) -> ClueValidator | None:
    """The clue rules for a user's picture deck (its tags); ``None``: the rule set's own."""
    if deck is None:
        return None
    from ..legality.validator import validator_for

    return validator_for(rules.clue_rules, deck.captions)
