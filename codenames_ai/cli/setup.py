"""What ``codenames watch`` and ``codenames play`` share besides their ``GameSettings``: the
cards and the clue rules of the deck their options name."""

from __future__ import annotations

from pathlib import Path

from ..agents.registry import takes_option
from ..core import ClueValidator, RuleSet
from ..decks import default_deck, read_deck
from ..pictures import PictureDeck, load_deck


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
