"""A room: one standard game whose four seats are each held by people (on their own devices)
or by the AI, and the view each seat may see.

Which AI plays an empty seat: a team with no person in it plays at the room's level (the
level's agents, as the blue team of a solo game); an AI seat on a team with a person in it
(an AI spymaster for people guessing, say) uses the default agents, as a solo player's
teammate does: an AI guesser whose team's clues a person gives reads them with the guesser
for a person's clues (``partner_guesser``), unless the room chose one. The choice is made
when the AI seat first moves after a change of seats.

While no seat is held by a person, the AI seats wait: a room whose people have all left (or
that nobody has sat down in yet) does not play itself out.

A guesser seat (or a spectator) never sees the key of face-down cards; a spymaster seat does.
At the end every seat gets the whole key (``key_at_end``), as in a solo game.

Choosing a seat through the room's own link (where its creator allows it): any guesser seat,
shared with whoever sits there; a spymaster seat only while the AI holds it, since it shows
the key, and only until a person has sat at a guesser seat of the deal (or once the game is
over, for the next deal): the link cannot tell a newcomer from a guesser in another tab, who
would read the key, hand the seat back to the AI and guess on. A new deal starts that rule
again from the seats people hold as it is dealt. A token holds one seat for good (joining
gives a new one), so a guesser's token never shows the key and a spymaster's never guesses;
a seat's own link, which only the room's creator gives, may always take its seat.
Whoever sits down through the room's link is named to the whole table while the seat is
theirs.

A token sees what its seat shows only while a person holds the seat: once the seat is handed
to the AI (by its holder, or by the room's creator), its holders have stepped out and see no
key, though they may take the seat back; once someone else sits down in it through the
room's link, those who sat down there before lose it and their tokens watch as spectators
(they may choose a seat again). A seat's own link is the seat itself (the creator's to give):
it may always take its seat back.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from disarm import skeleton_key

from ..core import ConfigError, Role, Team
from ..core.errors import quoted_some
from .games import GameConfig, SeatMap, WebGame

# The seats of a room in each variant, by the name their links and the API use, with the
# team and role each plays. ``None``: co-op's players' team (whichever starts the deal), or
# three-player's one guesser, who guesses for both teams.
SEATS: dict[str, SeatMap] = {
    "standard": {"red-spymaster": (Team.RED, Role.SPYMASTER),
                 "red-guesser": (Team.RED, Role.GUESSER),
                 "blue-spymaster": (Team.BLUE, Role.SPYMASTER),
                 "blue-guesser": (Team.BLUE, Role.GUESSER)},
    "coop": {"spymaster": (None, Role.SPYMASTER), "guesser": (None, Role.GUESSER)},
    "three-player": {"red-spymaster": (Team.RED, Role.SPYMASTER),
                     "blue-spymaster": (Team.BLUE, Role.SPYMASTER),
                     "guesser": (None, Role.GUESSER)},
}
def room_config(data: dict[str, Any], seed: int) -> GameConfig:
    """A room's game settings, as its request model read them (``schema.RoomSettings``: a
    game alone's but a role or a seed), dealt from ``seed`` (``ConfigError`` says what is
    wrong)."""
    return GameConfig.from_dict({**data, "role": "guess", "seed": seed})


MAX_NAME = 24
MAX_MARKS = 3  # a Thai tone on a vowel, Vietnamese decomposed: a letter carries two or three
ZERO_WIDTH_JOINER = "\u200d"


def person_name(data: object) -> str:
    """The name a person sits down under, checked: 1 to 24 printable characters."""
    if not isinstance(data, str) or not data.strip():
        raise ConfigError(f"say your name (1 to {MAX_NAME} characters) to sit down")
    name = " ".join(data.split())
    if len(name) > MAX_NAME:
        raise ConfigError(f"a name has at most {MAX_NAME} characters")
    # Control and format characters (the joiner of emoji sequences aside) could hide a name
    # or turn the text around it; a name must show at least one letter or digit.
    if any(unicodedata.category(c)[0] == "C" and c != ZERO_WIDTH_JOINER for c in name):
        raise ConfigError("a name is letters, digits, spaces and punctuation only")
    if not any(unicodedata.category(c)[0] in "LN" and not c.isspace()
               and unicodedata.name(c, "").find("FILLER") < 0 for c in name):
        raise ConfigError("a name needs a letter or a digit")
    marks = 0
    for c in name:  # accents, not a pile of them spilling over the names around it
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ConfigError(f"a name has at most {MAX_MARKS} marks on a letter")
    if looks_like_ai(name):
        raise ConfigError("'AI' names the computer's seats: choose another name")
    return name


def _skeleton(text: str) -> str:
    """The Unicode TR39 confusable skeleton of ``text`` (folded to lower case, as the
    maintained ``disarm`` key is), its letters and digits only."""
    return "".join(c for c in skeleton_key(text) if c.isalnum())


# "AI" however it is cased: "al" and "ai", since a capital I and a small l are one glyph in
# most sans-serif type.
_AI_SKELETONS = frozenset(_skeleton(spelling) for spelling in ("AI", "Ai", "ai"))


def looks_like_ai(name: str) -> bool:
    """Whether ``name`` would read as "AI" (the computer's seats) on a room's page.

    Names are compared on their confusable skeleton (Unicode TR39, from ``disarm``'s
    tables, not a hand list), punctuation and spaces left out: full-width and bold
    letters, Greek "ΑΙ", Cyrillic "АІ", small capitals "ᴀɪ" and "(A.I.)" all read as "AI";
    so do "Al" and, case folded with it, "AL" and "al".
    """
    return _skeleton(name) in _AI_SKELETONS


def seat_names(data: object, variant: str) -> frozenset[str]:
    """A list of seat names of the ``variant`` from a request, checked."""
    seats = ", ".join(SEATS[variant])
    if not isinstance(data, list) or not all(isinstance(n, str) for n in data):
        raise ConfigError(f"people must be a list of seat names: {seats}")
    wrong = sorted(set(data) - set(SEATS[variant]))
    if wrong:
        raise ConfigError(f"unknown seat(s) {quoted_some(wrong)}; seats ({variant}): {seats}")
    return frozenset(data)


def room_game(config: GameConfig, moves: list[dict[str, Any]] | None = None, *,
              people: frozenset[str] = frozenset()) -> WebGame:
    """A room's game: its variant's seats, those in ``people`` moved by people, the others
    by the AI."""
    return WebGame(config, moves, seats=SEATS[config.variant], people=people)


def refuse_seat(game: WebGame, members: int, limit: int, seat: str, *,
                guessers_seated: bool, key_seen: bool = False, anywhere: bool = False,
                back: bool = False) -> str | None:
    """Why the room's link may not seat someone in ``seat`` now, or None if it may
    (``members``: how many sat down by the link so far, ``limit`` the most it may seat;
    ``guessers_seated``: whether a person has held a guesser seat of this deal;
    ``key_seen``: whether a person has held a spymaster seat of this deal through the
    room's link (not the creator's, who holds every seat's link anyway); ``anywhere``:
    the room's creator, who may also sit where a person holds the
    key; ``back``: a person who sat down by the link taking their own seat back, who is
    neither counted again nor kept from a spymaster seat they hold)."""
    if not back and members >= limit:
        return f"this room has seated its most people ({limit}); start another room"
    # The link cannot tell a newcomer from someone already at the table in another tab:
    # the key read at one seat would be used at the other, whichever came first.
    if game.seats[seat][1] is not Role.SPYMASTER:
        if key_seen and not game.state.is_over:
            return (f"a person has sat at a spymaster seat of this deal through the room's "
                    f"link and seen the key, and the room's link cannot tell you from them: "
                    f"the guesser seats, {seat} too, open again to it once this game is over; "
                    "or ask the room's creator for the seat's own link")
        return None
    # Whoever comes by the link may be one of the deal's guessers in another tab: the key
    # would be theirs to read, then the seat handed back to the AI and the guessing go on.
    if guessers_seated and not game.state.is_over:
        return (f"the {seat} seat shows the key, and a person has sat at a guesser seat of "
                "this deal, whom the room's link cannot tell from you: its spymaster seats "
                "open again once this game is over; or ask the room's creator for the "
                "seat's own link")
    if not (anywhere or back) and seat in game.people:
        return (f"the {seat} seat is taken, and it shows the key: ask whoever sits there "
                "for the seat's link, or choose another seat")
    return None
