"""The web API's contract: a pydantic model for every request body and every answer of the
``/api`` routes, so the routes, ``openapi.json``, ``docs/web-api.md`` (``apidoc``) and the
page agree by a type rather than by convention.

Request bodies refuse fields they do not know (a typo the sender thinks was read) and take
numbers and flags only as JSON numbers and ``true``/``false``; what a body means (is the
move legal, is the seat free) stays with the routes and the core. ``refusal`` turns what
pydantic found wrong with a body into the project's one-line ``{"error": ...}``.

Answers are the dicts the game builds (``WebGame.view``, ``room_view``), checked against
these models on the way out and sent with only the keys they have (``exclude_unset``), so
the JSON the page gets keeps its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, StrEnum
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..agents.spymasters import Strength
from ..core import Identity, Phase, Role, Team
from ..core.choices import Level
from ..core.errors import quoted, quoted_some
from ..core.rules import GuessLimit, Variant
from .games import EXPECT_NEEDED, GameConfig

# --- the game's settings ----------------------------------------------------------------------


# The core's choices as the web offers them (``GameConfig.check``; tests/web/test_api_docs.py
# holds each to the list GET /api/options gives): the core's enum where the web offers all of
# it (guess limit, level, variant), a part of it here.


class WebRole(StrEnum):
    """The part the person plays in a game alone (the core's ``PlayRole`` but three-player,
    which is a room's variant)."""

    GUESS = "guess"
    SPYMASTER = "spymaster"
    COOP = "coop"
    WATCH = "watch"


class WebEdition(StrEnum):
    """The boxed editions the web deals (the core's ``EditionName`` but a custom layout)."""

    WORDS = "words"
    PICTURES = "pictures"


class WebDeck(StrEnum):
    """The shipped decks; "" is the edition's own."""

    DEFAULT = ""
    WORDS = "words"
    WORDS_LARGE = "words-large"
    PICTURES = "pictures"


class WebClueRules(StrEnum):
    """The clue-rule presets (the core's ``ClueRulesName``; no house rules); "" is the
    edition's default."""

    DEFAULT = ""
    CLASSIC = "classic"
    STRICT = "strict"
    FLEXIBLE = "flexible"
    PICTURES = "pictures"


class Body(BaseModel):
    """A request body: a JSON object whose unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")
    # How a refusal names the body, its fields and what to send instead.
    WHAT: ClassVar[str] = "the request body"
    NOUN: ClassVar[str] = "field"
    SEND: ClassVar[str] = "the fields this route takes"
    WRONG: ClassVar[str] = ""  # the one refusal of anything wrong in this object, if set

    @classmethod
    def unknown(cls, names: Sequence[str]) -> str:
        """The refusal of fields this body does not take."""
        return f"unknown {cls.NOUN}(s) {quoted_some(names)}; send {cls.SEND}"


_DEFAULT = GameConfig()


class RoomSettings(Body):
    """A room's game settings, each optional (its seats say who plays, and its deal is
    secret: no role, no seed)."""

    WHAT: ClassVar[str] = "the room's settings"
    NOUN: ClassVar[str] = "room setting"

    edition: WebEdition = WebEdition(_DEFAULT.edition)
    deck: WebDeck = Field(WebDeck(_DEFAULT.deck),
                          description='the deck; "" the edition\'s own')
    clue_rules: WebClueRules = Field(WebClueRules(_DEFAULT.clue_rules),
                                     description='which clues are legal; "" the edition\'s own')
    guess_limit: GuessLimit = Field(GuessLimit(_DEFAULT.guess_limit),
                                    description="how many guesses a clue allows: classic "
                                                "(its number + 1) or strict")
    strength: Strength = Field(Strength(_DEFAULT.strength),
                               description="how much risk the AI spymaster's clues take")
    level: Level = Field(Level(_DEFAULT.level),
                         description="how well the other (blue) team plays")
    spymaster: StrictStr = Field(_DEFAULT.spymaster,
                                 description="the AI spymaster's registry id, one of those "
                                             "GET /api/options offers")
    guesser: StrictStr = Field(_DEFAULT.guesser,
                               description='the AI guesser\'s registry id; "" by who gives '
                                           "the clues")
    variant: Variant = Field(Variant(_DEFAULT.variant),
                             description="a room's player count: standard, coop or "
                                         "three-player (a game alone's follows its role)")

    @classmethod
    def unknown(cls, names: Sequence[str]) -> str:
        return (f"unknown room setting(s) {quoted_some(names)}; known: "
                f"{', '.join(cls.model_fields)} (a room has no role or seed: its seats say "
                "who plays, and its deal is secret)")

    def given(self) -> dict[str, Any]:
        """The settings the request gave, by name (the rest are ``GameConfig``'s defaults)."""
        return self.model_dump(mode="json", exclude_unset=True)


class SoloSettings(RoomSettings):
    """A game alone's settings, each optional: a room's, with the person's role and (only to
    watch an AI-only game) the seed."""

    WHAT: ClassVar[str] = "the game settings"
    NOUN: ClassVar[str] = "setting"

    role: WebRole = Field(WebRole(_DEFAULT.role),
                          description="the part you play; watch: AIs only")
    seed: StrictInt | None = Field(
        None, description="the deal, only to watch (role watch); a game with a person gets "
                          "a secret one, shown when it is over")

    @classmethod
    def unknown(cls, names: Sequence[str]) -> str:
        return (f"unknown setting(s) {quoted_some(names)}; known: "
                f"{', '.join(sorted(cls.model_fields))}")


# --- request bodies ---------------------------------------------------------------------------


class Expect(Body):
    """What the page last received: the deal it shows and how many moves it saw."""

    WRONG: ClassVar[str] = EXPECT_NEEDED

    deal: StrictStr
    moves: StrictInt = Field(ge=0)


class MoveBody(Body):
    """A move (the core's codec: clue, guess, pass, cover; "step" for one AI move of a
    watched game) and the page's ``expect``."""

    WHAT: ClassVar[str] = "a move"
    SEND: ClassVar[str] = "the move and its fields"

    move: StrictStr | None = Field(None, description="clue, guess, pass, cover (or step)")
    word: StrictStr | None = Field(None, description="a clue's word")
    number: StrictInt | StrictStr | None = Field(
        None, description="a clue's number: 0-9 or 'unlimited'")
    index: StrictInt | None = Field(None, description="the card guessed or covered (from 0)")
    expect: Expect | None = Field(None, description="the last view's expect (required)")


class RoomMoveBody(MoveBody):
    """A move from a room's seat."""

    SEND: ClassVar[str] = "the move, its fields and your token"

    token: StrictStr | None = Field(None, description="the seat's token")


class WordBody(Body):
    """A word to check as a clue now."""

    WHAT: ClassVar[str] = 'the word to check ({"word": ...})'
    SEND: ClassVar[str] = "word"

    word: StrictStr | None = Field(None, description="the clue word to check")


class RoomWordBody(WordBody):
    """A spymaster seat's word to check."""

    SEND: ClassVar[str] = "word and token"

    token: StrictStr | None = Field(None, description="the seat's token")


class NewRoom(Body):
    """A new room: its settings, the seats its creator's people hold, and whether people may
    choose a seat with the room's link."""

    SEND: ClassVar[str] = "settings, people and open_seats"

    settings: RoomSettings = Field(default_factory=lambda: RoomSettings.model_validate({}))
    people: list[StrictStr] = Field(
        default_factory=list, description="a list of seat names held by people from the start "
                                          "(red-spymaster, red-guesser, ...)")
    open_seats: StrictBool = Field(
        True, description="true: people choose a seat with the room's link; false: only with "
                          "each seat's own link")


class JoinBody(Body):
    """Sitting down by the room's link (or the creator's)."""

    SEND: ClassVar[str] = "seat and name"

    seat: StrictStr = Field(description="the name of one of the room's seats")
    name: StrictStr | None = Field(None, description="your name, 1 to 24 characters")
    creator: StrictStr | None = Field(None, description="the creator's token: sit anywhere")


class SeatBody(Body):
    """A seat handed to the AI or taken back: by its token, or by the creator (to the AI)."""

    person: StrictBool = Field(description="true: take the seat; false: hand it to the AI")
    token: StrictStr | None = Field(None, description="the seat's token")
    creator: StrictStr | None = Field(None, description="the creator's token")
    seat: StrictStr | None = Field(None, description="with creator: the seat to hand over")


class AgainBody(Body):
    """A new deal once the game is over: from a seat's token or the creator's."""

    SEND: ClassVar[str] = "token or creator"

    token: StrictStr | None = Field(None, description="the seat's token")
    creator: StrictStr | None = Field(None, description="the creator's token")


class CloseBody(Body):
    """Closing a room: the creator's token, and the seat the creator sits in, if any."""

    SEND: ClassVar[str] = "creator and token"

    creator: StrictStr | None = Field(None, description="the creator's token")
    token: StrictStr | None = Field(None, description="the creator's seat token, if any")


# --- answers ----------------------------------------------------------------------------------


class Answer(BaseModel):
    """An answer's object: checked on the way out, sent with the keys the route gave."""

    model_config = ConfigDict(extra="forbid")


class Problem(Answer):
    """A refusal (4xx, 503): what is wrong and what to do; a refused room move has the fresh
    ``view`` too."""

    error: str
    view: RoomView | None = None


class Card(Answer):
    index: int
    word: str
    picture: str | None = Field(description="the emoji of a Pictures card")
    tags: list[str]
    revealed: Identity | None = Field(description="what the card turned out to be, once "
                                                  "touched")
    key: Identity | None = Field(description="a face-down card's identity: only in a "
                                             "spymaster's view")
    recent: bool = Field(description="touched since this seat's last move")


class LogEntry(Answer):
    """One event (the record format's fields), its line of text and whether it is recent;
    an AI's touch with its ``reason``."""

    model_config = ConfigDict(extra="allow")

    event: str
    turn: int
    text: str
    recent: bool
    team: Team | None = None
    reason: str | None = None
    reason_numbers: str | None = None


class Explanation(Answer):
    """Why an AI gave a clue (shown once the game is over)."""

    turn: int
    team: Team
    clue: str
    number: int | str
    plain: str
    detail: str


class ShownSettings(Answer):
    """The game's settings as the view shows them (the seed ``null`` until it is over)."""

    role: WebRole
    edition: WebEdition
    deck: WebDeck
    clue_rules: WebClueRules
    guess_limit: GuessLimit
    strength: Strength
    level: Level
    seed: int | None
    spymaster: str
    guesser: str
    variant: Variant


class TeamOnly(Answer):
    team: Team


class Seat(Answer):
    team: Team
    role: Role


class Left(Answer):
    red: int
    blue: int


class ShownClue(Answer):
    word: str
    number: int | str
    guesses_left: int | None


class Expected(Answer):
    deal: str
    moves: int


class Coop(Answer):
    score: int | None
    rating: str | None


class LevelShown(Answer):
    name: Level
    description: str


class GameView(Answer):
    """A game as one seat (or a spectator) may see it."""

    config: ShownSettings = Field(
        description="the game's settings (seed null until the game is over)")
    rows: int
    cols: int
    edition: str
    clue_rules: str
    cards: list[Card] = Field(description='the board, card by card, as this seat may see it')
    turn: int
    phase: Phase = Field(description='what the game waits for')
    variant: Variant
    cover: TeamOnly | None = Field(
        description="whose agent the spymaster covers (co-op's virtual turn, or a penalty)")
    current_team: Team
    current_role: Role | None
    starting_team: Team
    left: Left
    clue: ShownClue | None = Field(description='the clue the guessers play, while they guess')
    history: list[str] = Field(description='the game so far, a line of text for each event')
    log: list[LogEntry] = Field(description='the same events with their turn, team and card')
    you: Seat | None = Field(description='the team and role this seat plays (null: a spectator)')
    your_turn: bool = Field(description='whether the game waits for this seat')
    can_pass: bool
    moves: int = Field(description='how many moves the game has')
    expect: Expected = Field(description='what the next move sends back')
    over: bool
    outcome: str | None = Field(description='who won and why, in a line, once over')
    winner: Team | None
    coop: Coop | None
    explanations: list[Explanation] = Field(description='why the AI gave each clue, once over')
    key_at_end: list[Identity] | None = Field(
        description='the whole key, once over (or the room closed)')
    seed_digits: str | None = Field(description="the deal's seed in digits, once over")
    level: LevelShown | None = Field(description="the other team's level (games against it)")


class ClosedBy(Answer):
    by: Literal["creator", "idle"]
    seat: str | None
    name: str | None


class RoomShown(Answer):
    """A room's seats and state, as every seat sees them."""

    id: str
    version: int = Field(description='moves on with every change of the room')
    closed: bool
    closed_by: ClosedBy | None
    seat: str | None = Field(description="the seat this token holds (null: a spectator)")
    current_seat: str | None = Field(description='the seat whose move it is')
    variant: Variant
    seats: dict[str, Literal["person", "ai"]] = Field(
        description='who plays each seat: a person or the AI')
    names: dict[str, list[str]] = Field(description="who sat down at each seat by the room's link")
    open_seats: bool
    joinable: list[str] = Field(description="the seats the room's link may seat someone in now")
    key_shut: bool = Field(
        description="spymaster seats shut to the room's link (a guesser sat down)")
    guess_shut: bool = Field(
        description="guesser seats shut to the room's link (it showed someone the key)")
    waiting: bool = Field(description='nobody sits at the table: the AI seats wait')


class RoomView(GameView):
    """A room's game as one seat sees it, with the room."""

    room: RoomShown


class NewGameAnswer(Answer):
    id: str
    view: GameView


class ClueCheck(Answer):
    legal: bool
    rule: str | None
    message: str


class LevelOption(Answer):
    name: Level
    description: str


class Defaults(ShownSettings):
    """The settings a new game has unless the form changes them."""


class Options(Answer):
    """The choices of a new game, and the AIs this server offers."""

    roles: list[WebRole]
    editions: list[WebEdition]
    decks: list[WebDeck]
    clue_rules: list[WebClueRules]
    strengths: list[Strength]
    guess_limits: list[GuessLimit]
    levels: list[LevelOption]
    level_roles: list[WebRole]
    spymasters: list[str]
    guessers: list[str]
    defaults: Defaults


class NewRoomAnswer(Answer):
    id: str
    creator: str = Field(description="the creator's token (closes the room, deals again)")
    seats: dict[str, str] = Field(description="each seat's token, for its own link")
    view: RoomView


class Joined(Answer):
    token: str
    view: RoomView


Problem.model_rebuild()

# --- refusals ---------------------------------------------------------------------------------

_KINDS = {"int_type": "a whole number", "int_parsing": "a whole number",
          "string_type": "a string", "bool_type": "true or false", "list_type": "a list",
          "dict_type": "a JSON object", "model_type": "a JSON object",
          "model_attributes_type": "a JSON object"}


def refusal(errors: Sequence[Any], annotation: object) -> str:
    """One line saying what is wrong with a request, from FastAPI's validation ``errors``
    (those of the body, read by the model ``annotation`` names, or of the query)."""
    body = _body_in(annotation)
    wrong = next((model.WRONG for e in errors if body is not None
                  for model in _models_on(body, tuple(e.get("loc", ()))) if model.WRONG), "")
    if wrong:
        return wrong
    extra = [e for e in errors if e.get("type") == "extra_forbidden"]
    if extra:
        parent = tuple(extra[0]["loc"][:-1])
        names = sorted(str(e["loc"][-1]) for e in extra if tuple(e["loc"][:-1]) == parent)
        return _model_at(body, parent).unknown(names)
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    if body is not None and _union_tagged(body, loc):
        # pydantic answers each member of a union apart, tagged with its name (number.int):
        # one refusal for the field, naming every kind it may be.
        loc = loc[:-1]
        kinds = [_KINDS.get(e.get("type", ""), "") for e in errors
                 if tuple(e.get("loc", ()))[:-1] == loc]
        return f"{_model_at(body, loc[:-1]).NOUN} {quoted(str(loc[-1]))} must be " + \
            " or ".join(kind for kind in kinds if kind)
    if loc[:1] != ("body",) or body is None:
        return f"{'.'.join(map(str, loc[1:])) or 'the request'}: {first.get('msg', '')}"
    if len(loc) == 1:
        what = body.WHAT
        if first.get("type") == "missing":
            return f"the request body is empty: send {what} as a JSON object"
        return f"{what} must be a JSON object"
    return _field_refusal(first, body, loc)


def _union_tagged(body: type[Body], loc: tuple[Any, ...]) -> bool:
    """Whether ``loc`` ends in a union member's tag (``("body", "number", "int")``): its
    next to last part is a field of plain values, not of a nested model."""
    if len(loc) < 3 or not isinstance(loc[-1], str) or not isinstance(loc[-2], str):
        return False
    field = _model_at(body, loc[:-2]).model_fields.get(loc[-2])
    return field is not None and _body_in(field.annotation) is None


def _field_refusal(error: Any, body: type[Body], loc: tuple[Any, ...]) -> str:
    """The refusal of one field's value, naming the field (``settings.level``)."""
    model = _model_at(body, loc[:-1])
    name = ".".join(str(part) for part in loc[1:] if isinstance(part, str))
    if isinstance(loc[-1], int):
        name += f"[{loc[-1]}]"
    kind, given = error.get("type", ""), error.get("input")
    field = model.model_fields.get(str(loc[-1]))
    about = f": {field.description}" if field is not None and field.description else ""
    inner = _body_in(field.annotation) if field is not None else None
    if inner is not None and _KINDS.get(kind) == "a JSON object":
        return f"{inner.WHAT} must be a JSON object"
    if kind == "missing":
        return f"{model.NOUN} {quoted(name)} is missing{about}"
    if kind == "enum":
        shown = f" {quoted(given)}" if isinstance(given, str) else ""
        allowed = _enum_in(field.annotation) if field is not None else None
        values = (", ".join(str(m.value) or "(default)" for m in allowed) if allowed
                  else error.get("ctx", {}).get("expected", ""))
        return f"{name}{shown} is not one of {values}"
    if kind in _KINDS:
        return f"{model.NOUN} {quoted(name)} must be {_KINDS[kind]}{about}"
    return f"{model.NOUN} {quoted(name)}: {error.get('msg', '')}"


def _model_at(body: type[Body] | None, loc: tuple[Any, ...]) -> type[Body]:
    """The model of the object at ``loc`` (("body", "settings") -> ``RoomSettings``)."""
    return _models_on(body or Body, loc)[-1]


def _models_on(body: type[Body], loc: tuple[Any, ...]) -> list[type[Body]]:
    """The models along ``loc``, from the body's to the innermost one it reaches (the one
    whose field the last part names, if that field holds a model)."""
    models = [body]
    for part in loc[1:]:
        field = models[-1].model_fields.get(part) if isinstance(part, str) else None
        inner = _body_in(field.annotation) if field is not None else None
        if inner is not None:
            models.append(inner)
    return models


def _body_in(annotation: Any) -> type[Body] | None:
    """The ``Body`` model an annotation holds (``Expect | None`` -> ``Expect``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, Body):
        return annotation
    return next((found for arg in get_args(annotation) if (found := _body_in(arg))), None)


def _enum_in(annotation: Any) -> type[Enum] | None:
    """The enum an annotation holds (``Level | None`` -> ``Level``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation
    return next((found for arg in get_args(annotation) if (found := _enum_in(arg))), None)


# --- the contract's prose (``openapi.json``'s description and tags; ``apidoc`` writes it) ---

TITLE = "codenames-ai"
API_VERSION = "1"
OPENAPI_URL = "/openapi.json"
DESCRIPTION = r"""## What every request shares

- **Errors.** Every refusal is a JSON body `{"error": "one line: what is wrong, what to do"}`
  with a 4xx status; 503 when the games database or the server's memory fails (with
  `Retry-After` for memory), and for a server full of games or rooms. A refused or failed
  request changes nothing. An unknown path or method gets 404/405 with the same body. A
  stored game this version cannot replay (a row edited by hand, a move stored under rules
  an upgrade changed) gets 410 on every request for it, or for its room, and the server's log
  says why in one line, once. A request still unanswered when a stopping server's wait is
  over (<!-- setting -->5 s<!-- /setting --> after Ctrl-C) gets 503 too; an AI move it asked
  for may or may not have been stored, so read the game again.
  An error quotes what the client sent only cut short and escaped (`core.errors.quoted`:
  40 characters, invisible and bidirectional characters as `\u202e`), and names at most
  five unknown fields or settings, then how many more.
- **Bodies.** A POST must be `Content-Type: application/json` (415 otherwise), at most
  <!-- setting -->16 KiB<!-- /setting --> (413), arrive within the intake's seconds (408; 503
  while the server stops), and be JSON
  nested at most 16 deep with numbers of at most 40 characters (400). A request refused
  before its body was read closes its connection; bytes that are not HTTP/1.1 get 400 with
  the same JSON body; an `Upgrade` (WebSocket) is answered as plain HTTP.
- **Hosts and origins.** A request whose `Host` is not localhost, an IP address or a name
  the server was given (`codenames serve --host`, `--allowed-host`) gets 400; a POST whose
  `Origin` is another site's (not the request's own host and port, nor a name given) gets
  403. A request with no `Origin` (not from a browser page) is not refused for it.
- **Headers.** Every answer carries a strict Content-Security-Policy, `nosniff`, `DENY`
  framing and `no-referrer`; answers under `/api/` are `Cache-Control: no-store`.
- **`expect`.** Every move sends the last view's `expect` (`{"deal": ..., "moves": n}`, the
  deal the page shows and how many moves it saw): 400 without it, 409 when it is stale (a
  double submit, another page moved first, a move meant for an earlier deal).
- **Moves** are the core's codec (`codenames_ai.core.action_from_dict`):
  `{"move": "clue", "word": "ocean", "number": 2}` (number 0-9 or `"unlimited"`),
  `{"move": "guess", "index": 7}`, `{"move": "pass"}`, `{"move": "cover", "index": 7}`;
  games alone also take `{"move": "step"}` (one AI move of a watched game). An unknown
  move gets 409 listing the moves the route takes; a field a move does not take (besides
  `expect`, and a room's `token`) gets 400 naming it.
- **Models.** Every body is read by its model (below): an unknown field, a field of the
  wrong type (numbers and `true`/`false` only as JSON's own, never as strings) or a setting
  outside its choices gets 400 with one line naming the field, never FastAPI's 422.
- **Views.** A game's view (`view` below) has the cards (`word`, `picture`, `tags`,
  `revealed`, `key`: a face-down card's identity only for a spymaster's seat), `turn`,
  `phase`, `current_team`, `current_role`, `clue`, `history`, `log`, `you`, `your_turn`,
  `can_pass`, `moves`, `expect`, `over`, `outcome`, `winner`, and, once the game is over,
  `key_at_end`, `explanations` and `seed_digits` (the seed is `null` in `config` until then).
  In `log`, an AI's touch has `reason` (why, in a player's words) and `reason_numbers`
  (the guesser's scores), shown to every seat as it is made: the guesser never knows the
  key. A game stored before touches had reasons has neither.
  A room's view adds `room` (`id`, `version`, `closed`, `closed_by`, `seat`, `current_seat`,
  `variant`, `seats`, `names`, `open_seats`, `joinable`, `key_shut`, `guess_shut`,
  `waiting`). `closed_by` is `null` while the room is open; once closed, `{"by": "creator",
  "seat", "name"}` (the seat and
  name the creator closed it from, each `null` when there was none) or `{"by": "idle"}` (with
  `seat` and `name` `null`: nobody played for the server's idle time). A closed room's game
  stops where it is: every seat's view then has `key_at_end`, `explanations` and
  `seed_digits` as at a game's end; an open room's guesser seat and spectators never see the
  key of a face-down card."""
ROOMS = """\
A seat is held by its token (in the seat's link); the creator's token closes the room, deals
again without a seat, and hands a seat to the AI.

**Who may see the key.** A token holds one seat for good: no route moves it to another
(sitting down again gives a new token), so a guesser's token never shows the key and a
spymaster's never guesses. Sitting down through `join` (the room's link, or the creator's)
cannot tell a newcomer from someone already at the table in another tab, so `join` seats no
one in a spymaster seat once a person has sat at a guesser seat of the deal (by `join`, by a
guesser seat's own link taking its seat, or holding it as the deal is dealt), until that game
is over: a guesser could otherwise read the key, hand the seat back to the AI and guess on.
Handing the guesser seat to the AI does not open them again (its token may take it back).
The view says so (`room.key_shut`, and no spymaster seat in `joinable`). The same holds the
other way round: once a person has sat at a spymaster seat of the deal through `join` (the
room's link; not the creator's `join`, since the creator holds every seat's link anyway) and
seen the key, `join` seats no one in a guesser seat, the creator's included, until that game
is over: they could otherwise hand the seat back and guess knowing every card
(`room.guess_shut`, and no guesser seat in `joinable`). A guesser or spymaster seat's own
link, which only the creator gives, may always take its seat: to swap roles, or to seat
spymasters and guessers who all came by the room's link, the creator sends the seat's own
link. Once the game is over, anyone may sit anywhere for the next deal; "again" deals it,
and the rule starts again from the seats people hold then, with one change: when a person
holds a guesser seat as it is dealt, a spymaster seat someone sat down in through `join`
goes back to the AI, so nobody starts a deal holding both (the seat's own link takes it
again). A token from `join` that takes its seat back (`seat` with `"person": true`) in a
later deal than it sat down in follows `join`'s rule, since it may be anyone's. What no rule
can stop: the creator, or a spymaster given a seat's own link, could also sit with the
guessers in another tab; where that matters, make the room with `"open_seats": false` and
send each seat's own link to its holder only."""
# What the core's enums in the contract mean to a client, in place of their docstrings (which
# speak of Python, and would move the snapshot whenever the core's are reworded).
CORE_ENUMS = {
    "Team": "One of the two teams.",
    "Role": "A seat at the table: spymasters see the key, guessers do not.",
    "Identity": "What the key says a card is.",
    "Phase": "What the game waits for: a clue, a guess, a cover (co-op's virtual turn or a "
             "penalty), or nothing (over).",
    "GuessLimit": "How many guesses a numbered clue allows: classic, its number + 1; strict, "
                  "its number, + 1 only while the team has cards left over from its own "
                  "earlier clues (clues 0 and unlimited: no limit under both).",
    "Variant": "Who plays: standard (two teams), coop (two players against the game), "
               "three-player (one guesser for both teams).",
    "Strength": "How much risk the AI spymaster's clues take.",
    "Level": "How well the team playing against a person plays: only the other team changes.",
}
TAGS = [
    {"name": "The page", "description": "The page and its files (not JSON)."},
    {"name": "Games alone", "description": "A game played alone against the AI, or an "
                                          "AI-only game watched."},
    {"name": "Rooms", "description": ROOMS},
]
