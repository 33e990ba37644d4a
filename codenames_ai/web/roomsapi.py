"""The rooms' part of the JSON API (see ``rooms`` for the game and ``store`` for the tables):

    POST /api/rooms                      {"settings": {...}, "people": [seat, ...],
                                          "open_seats": true|false}
                                         -> {"id", "creator", "seats": {seat: token}, "view"}
    GET  /api/rooms/{id}?token=T         the room as seat T sees it (no token: a spectator)
    POST /api/rooms/{id}/join            {"seat", "name"} (or with "creator" where the room's
                                         link seats no one): sit down -> {"token", "view"}
    POST /api/rooms/{id}/again           {"token"} or {"creator"}: a new deal once the game
                                         is over, same settings, seats and links
    POST /api/rooms/{id}/moves           {"token", "move": clue|guess|pass|cover, ..., "expect"}
    POST /api/rooms/{id}/seat            {"token", "person": true|false}: take the seat back
                                         from the AI, or hand it to the AI
    POST /api/rooms/{id}/check           {"token", "word"}: the spymaster's live clue check
    POST /api/rooms/{id}/close           {"creator", "token"?}: close the room (its creator
                                         only; the token names the seat closing it)
    GET  /api/rooms/{id}/events?token=T&since=N   server-sent events: the seat's view each
                                         time the room's version moves past N (or the
                                         ``Last-Event-ID`` a reconnecting browser sends)

A seat is held by its token (128 secret bits, in the seat's link, or given to a person who
sits down through the room's link when ``open_seats``). A token sees its seat's view (a
spymaster's key) only while a person holds the seat: handed to the AI, the seat shows its
holders no key until they take it back; and once someone sits down in it through the room's
link, the tokens of those who sat there before through the link watch as spectators (403 for
a move, a seat change or a check; they may join again). Several people share a seat, and the
first move sent wins: every move must echo its page's last ``expect`` (the deal it shows and
how many moves it saw; 400 without it), so the second, or a move meant for the deal before
"again", gets 409 with the fresh view. After a person's move or a change of seats, the AI
seats move in the same request, under the room's lock; the store's move numbering refuses a
move stored twice.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from ..core import CodenamesError, ConfigError, IllegalActionError, Role
from ..core.errors import quoted
from .clients import Started
from .games import GameConfig, WebGame
from .http import (
    CACHED_GAMES,
    ClientDep,
    Games,
    HTTPProblem,
    LimitedRoute,
    ServerDep,
    answers,
    check_expect,
    span,
)
from .limits import RoomLimits
from .rooms import person_name, refuse_seat, room_config, room_game, seat_names
from .schema import (
    AgainBody,
    CloseBody,
    ClueCheck,
    JoinBody,
    Joined,
    NewRoom,
    NewRoomAnswer,
    Problem,
    RoomMoveBody,
    RoomView,
    RoomWordBody,
    SeatBody,
)
from .store import LEFT, GameStore, MoveConflict, StoreFull

MAX_VERSION_DIGITS = 12


@dataclass(frozen=True)
class Room:
    """A room as the store has it now, and its game (with the seats people hold)."""

    room_id: str
    game: WebGame
    version: int
    closed: bool
    closed_by: dict[str, Any] | None  # the seat and name the creator closed it from
    open_seats: bool
    guessers_seated: bool  # a person has held a guesser seat of this deal
    key_seen: bool  # a person has held a spymaster seat of this deal by the room's link
    names: dict[str, list[str]]  # seat -> who sat down there by the room's link
    members: int  # how many sat down by the room's link, those who lost their seat too
    people_limit: int  # how many the room's link may seat (the server's limit)


class Rooms(Games):
    """The rooms' games in memory over the store (one lock per room, as ``Games``), the
    count of open event streams, and the change notifications they wait on.

    Everything about a room but its game's replay is read from the store at each request;
    the game kept in memory is used only while the store has the same deal and as many
    moves. A change made by this process (the only one: one server per database, see
    ``store``) wakes the room's streams; no change comes from another process."""

    def __init__(self, store: GameStore, *, limits: RoomLimits, started: Started,
                 size: int = CACHED_GAMES) -> None:
        super().__init__(store, limits=limits, size=size)
        self.started = started  # the rooms each client made lately
        self._streams: dict[str, int] = {}
        self._watchers: dict[str, int] = {}  # of those, the streams of spectators
        self._clients: dict[str, int] = {}  # the open streams by client (``client_key``)
        self._tokens: dict[str, int] = {}  # and by the seat token they follow
        # the wake-ups of each room's open streams, with the event loop each waits in
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.stopping = False  # the server is stopping: open event streams end now

    def stop_streams(self) -> None:
        """End every open event stream now (the server is stopping; browsers resume from
        their last event once it is back). Safe from any thread."""
        self.stopping = True
        with self._guard:
            rooms = list(self._waiting)
        self.changed(rooms)

    def changed(self, room_ids: list[str]) -> None:
        """Wake the streams of these rooms (changed, closed or deleted). Safe from any
        thread: each stream's event is set in its own loop."""
        with self._guard:
            waiting = [w for room_id in room_ids for w in self._waiting.get(room_id, ())]
        for loop, event in waiting:
            loop.call_soon_threadsafe(event.set)

    def room(self, room_id: str) -> Room:
        """The room as the store has it, with its game (call with its lock held)."""
        info = self.store.room(room_id, idle=self.limits.idle)
        if info is None:
            raise HTTPProblem(404, f"no room {quoted(room_id)} (it may have been made on another "
                                   "server); start a new one")
        with self._guard:
            game = self._cache.get(room_id)
        # Loaded again after a new deal, or a change kept from memory (one that failed)
        if game is None or (game.game_id, len(game.moves)) != (info["game"], info["moves"]):
            game = self.replay(str(info["game"]), f"the game of room {quoted(room_id)}",
                               lambda config, moves: room_game(GameConfig.from_stored(config),
                                                               moves))
            if game is None:
                raise HTTPProblem(404, f"room {quoted(room_id)} has lost its game")
            game.game_id = str(info["game"])
        game.people = set(info["people"])
        self.put(room_id, game)
        return Room(room_id, game, int(info["version"]), bool(info["closed"]),
                    info["closed_by"], bool(info["open_seats"]),
                    bool(info["guessers_seated"]), bool(info["key_seen"]), dict(info["names"]),
                    int(info["members"]),
                    self.limits.room_people)

    def changing_room(self, room_id: str) -> AbstractContextManager[Room]:
        """The room, locked, for a change that either completes or leaves no trace (the
        game is dropped from memory if it fails)."""
        return self.held(room_id, self.room)

    def open_stream(self, room_id: str, *, spectator: bool, client: str,
                    token: str | None) -> asyncio.Event:
        """Count a new event stream, refused past the limits; one client (``client_key``)
        gets a share of the server's streams and one seat token a few, so that one client
        cannot take every live connection with rooms of its own; spectators (who need no
        secret) get at most half a room's streams and half the server's, so they cannot
        crowd out the seats, of their room or of any other. ``token``: the seat's (None for
        a spectator). The event the room's changes set."""
        limits = self.limits
        with self._guard:
            if token is not None and self._tokens.get(token, 0) >= limits.token_streams:
                raise HTTPProblem(429, f"this seat's link has its most live connections "
                                       f"({limits.token_streams}, one a page): close a page "
                                       "that follows it (another tab?), or try again later")
            if self._clients.get(client, 0) >= limits.client_streams:
                raise HTTPProblem(429, f"your address has its most live connections to "
                                       f"this server's rooms ({limits.client_streams}, one a "
                                       "page): close some pages (other tabs?), or try again "
                                       "later")
            if sum(self._streams.values()) >= self.limits.streams:
                raise HTTPProblem(503, f"this server has its most live connections "
                                       f"({self.limits.streams}); try again later")
            spectators = max(1, self.limits.streams // 2)
            if spectator and sum(self._watchers.values()) >= spectators:
                raise HTTPProblem(503, f"this server has its most spectators' live "
                                       f"connections ({spectators}); try again later")
            if self._streams.get(room_id, 0) >= self.limits.room_streams:
                raise HTTPProblem(429, f"this room has its most live connections "
                                       f"({self.limits.room_streams}); close a page of it")
            watchers = max(1, self.limits.room_streams // 2)
            if spectator and self._watchers.get(room_id, 0) >= watchers:
                raise HTTPProblem(429, f"this room has its most spectators ({watchers}); try "
                                       "again later")
            _count(self._streams, room_id, 1)
            _count(self._clients, client, 1)
            if token is not None:
                _count(self._tokens, token, 1)
            if spectator:
                _count(self._watchers, room_id, 1)
            event = asyncio.Event()
            self._waiting.setdefault(room_id, set()).add((asyncio.get_running_loop(), event))
            return event

    def close_stream(self, room_id: str, event: asyncio.Event, *, spectator: bool,
                     client: str, token: str | None) -> None:
        with self._guard:
            _count(self._streams, room_id, -1)
            _count(self._clients, client, -1)
            if token is not None:
                _count(self._tokens, token, -1)
            if spectator:
                _count(self._watchers, room_id, -1)
            waiting = self._waiting.get(room_id, set())
            waiting -= {w for w in waiting if w[1] is event}
            if not waiting:
                self._waiting.pop(room_id, None)

    def stream_count(self) -> int:
        with self._guard:
            return sum(self._streams.values())


def _count(counts: dict[str, int], key: str, change: int) -> None:
    counts[key] = counts.get(key, 0) + change
    if not counts[key]:
        del counts[key]


def room_view(room: Room, seat: str | None) -> dict[str, Any]:
    """What a seat (None: a spectator) receives: its view of the game and the room."""
    game = room.game
    # A closed room's game is over for good: every seat sees the key, the AI's reasons and
    # the seed, as at a game's end. An open room's guesser seat never does (WebGame.view).
    view = game.view(seat, reveal=room.closed)
    view["room"] = {"id": room.room_id, "version": room.version, "closed": room.closed,
                    "closed_by": closed_by(room),
                    "seat": seat, "current_seat": game.current_seat,
                    "variant": game.config.variant,
                    "seats": {name: "person" if name in game.people else "ai"
                              for name in game.seats},
                    "names": {name: room.names.get(name, []) for name in game.seats},
                    "open_seats": room.open_seats,
                    # the seats the room's link may sit someone in now
                    "joinable": [name for name in game.seats if room.open_seats
                                 and not room.closed
                                 and refuse(room, name) is None],
                    # a person has sat at a guesser seat of this deal, which is not over:
                    # the spymaster seats are shut to the room's link (``refuse_seat``)
                    "key_shut": room.guessers_seated and not game.state.is_over,
                    # a person has held a spymaster seat of this deal through the room's
                    # link, which is not over: the guesser seats are shut to that link
                    "guess_shut": room.key_seen and not game.state.is_over,
                    # nobody sits at the table: the AI seats wait for someone to sit down
                    "waiting": not game.people and not game.state.is_over}
    if room.closed:
        view["your_turn"] = view["can_pass"] = False
    return view


def closed_by(room: Room) -> dict[str, Any] | None:
    """Who closed the room, for every page to say: ``{"by": "creator", "seat", "name"}`` (the
    seat and name the creator closed it from, each None when it had none) or ``{"by":
    "idle"}`` (nobody played for the server's idle time); None while it is open."""
    if not room.closed:
        return None
    if room.closed_by is None:
        return {"by": "idle", "seat": None, "name": None}
    return {"by": "creator", "seat": room.closed_by.get("seat"),
            "name": room.closed_by.get("name")}


router = APIRouter(route_class=LimitedRoute, tags=["Rooms"])


async def rooms_of(request: Request) -> Rooms:
    """The app's rooms (``app.state.rooms``)."""
    rooms = request.app.state.rooms
    assert isinstance(rooms, Rooms)
    return rooms


RoomsDep = Annotated[Rooms, Depends(rooms_of)]
# A seat's token in a query (none: a spectator)
TokenQuery = Annotated[str | None, Query(description="the seat's token (none: a spectator)")]
SinceQuery = Annotated[str | None, Query(description="the room version the page has seen")]
LastEventId = Annotated[str | None, Header(description="the last event a reconnecting "
                                                       "browser received (wins over since)")]


def seat_for(rooms: Rooms, room_id: str, token: object, *, required: bool) -> str | None:
    """The seat ``token`` holds (403 for a wrong one, or none where one is required)."""
    if token is None and not required:
        return None
    store = rooms.store
    seat = store.seat_of(room_id, token) if isinstance(token, str) and token else None
    if seat == LEFT:  # someone else sat down in this person's seat: they watch now
        if required:
            raise HTTPProblem(403, "you no longer hold a seat in this room: someone else "
                                   "sat down in yours after it went to the AI; choose a "
                                   "seat from the room's link")
        return None
    if seat is None:
        if store.room(room_id, idle=rooms.limits.idle) is None:
            raise HTTPProblem(404, f"no room {quoted(room_id)}; start a new one")
        raise HTTPProblem(403, "this link holds no seat of this room: ask for the "
                               "seat's link again")
    return seat


def held_seat(rooms: Rooms, room_id: str, token: object) -> str:
    """The seat ``token`` holds, where a request needs one. A route that changes the room
    reads it twice: before the room's lock, so a stranger is refused without touching the
    room, and again under it, since the seat may have changed hands while it waited."""
    seat = seat_for(rooms, room_id, token, required=True)
    assert seat is not None
    return seat


def refuse(room: Room, seat: str, *, anywhere: bool = False, back: bool = False
           ) -> str | None:
    """Why the room's link may not seat someone in ``seat`` now (``rooms.refuse_seat``)."""
    return refuse_seat(room.game, room.members, room.people_limit, seat,
                       guessers_seated=room.guessers_seated, key_seen=room.key_seen,
                       anywhere=anywhere, back=back)


def check_seat(room: Room, seat: str) -> None:
    game = room.game
    if seat not in game.seats:
        raise HTTPProblem(400, f"seat must be one of: {', '.join(game.seats)} (this room "
                               f"plays {game.config.variant})")


def closed_message(room: Room) -> str:
    """Why a closed room takes no move or change, and what to do instead."""
    who = closed_by(room) or {}
    name, seat = who.get("name"), who.get("seat")
    by = (f"{name} ({seat}) closed it" if name and seat else f"the {seat} seat closed it"
          if seat else "its creator closed it" if who.get("by") == "creator"
          else "nobody played in it for a long while")
    return (f"the room is closed ({by}): it takes no more moves; start a new room from the "
            "start page")


def check_open(room: Room) -> None:
    if room.closed:
        raise HTTPProblem(409, closed_message(room))


def require_creator(rooms: Rooms, room_id: str, creator: object, doing: str) -> None:
    """Refuse (404 or 403) unless ``creator`` is the room's creator token."""
    if not (isinstance(creator, str) and creator and rooms.store.is_creator(room_id, creator)):
        if rooms.store.room(room_id, idle=rooms.limits.idle) is None:
            raise HTTPProblem(404, f"no room {quoted(room_id)}")
        raise HTTPProblem(403, f"only the room's creator (with the creator's link) may "
                               f"{doing}")


def change(rooms: Rooms, room: Room, first: int, made: list[dict[str, Any]], *,
           seat: tuple[str, bool] | None = None, member: tuple[str, str] | None = None,
           close: dict[str, str | None] | None = None, by_link: bool = False) -> Room:
    """Store a change of the room (its game's new moves, a seat, a member, its closing),
    wake its streams, and read it back as the store now has it. ``by_link``: the seat is
    taken by a person who came by the room's link (sitting down, or taking their seat
    back from an earlier deal; not the creator), who sees the key if it is a spymaster
    seat."""
    key_seen = (by_link and seat is not None and seat[1]
                and room.game.seats[seat[0]][1] is Role.SPYMASTER)
    try:
        rooms.store.room_change(room.room_id, room.game.game_id, first, made, seat=seat,
                                member=member, close=close,
                                guessers_seated=guessers_in(room.game, room.game.people),
                                key_seen=key_seen)
    except MoveConflict:
        raise HTTPProblem(409, "the game moved on meanwhile (another page stored a move "
                               "first); the page shows the game as it is now") from None
    rooms.changed([room.room_id])
    return rooms.room(room.room_id)


def seat_change(rooms: Rooms, room: Room, seat: str, person: bool, *,
                member: tuple[str, str] | None = None, by_link: bool = False) -> Room:
    """Give ``seat`` to people or to the AI (``member``: someone sitting down by the
    room's link, with their token and name), and let the AI seats move at once, in one
    stored change (the AI plays the seat now if it is its turn)."""
    game = room.game
    first = len(game.moves)
    if person:
        game.people.add(seat)
    else:
        game.people.discard(seat)
    return change(rooms, room, first, game.ai_moves(), seat=(seat, person), member=member,
                  by_link=by_link)


def guessers_in(game: WebGame, people: Collection[str]) -> bool:
    """Whether a person holds a guesser seat of ``game`` (which shuts its spymaster seats
    to the room's link until the deal is over: ``rooms.refuse_seat``)."""
    return any(game.seats[seat][1] is Role.GUESSER for seat in people)


@router.post("/api/rooms", **answers(
    NewRoomAnswer, 201, _400="unknown fields, bad settings or seats",
    _429="past a client's most rooms in the idle window",
    _503="with the server's most rooms open"))
def new_room(sent: NewRoom, server: ServerDep, rooms: RoomsDep, client: ClientDep
             ) -> dict[str, Any]:
    """A new room: its `settings` (a game alone's, with `variant`, without `role` and
    `seed`), the seats people hold from the start (`people`: `red-spymaster`,
    `red-guesser`, ...) and whether people may choose a seat with the room's link
    (`open_seats`). Answers `{"id", "creator", "seats": {seat: token}, "view"}`."""
    try:
        config = room_config(sent.settings.given(), server.fresh_seed())
        server.offer.check(config)
        people = seat_names(sent.people, config.variant)
    except ConfigError as exc:
        raise HTTPProblem(400, str(exc)) from None
    most = rooms.limits.client_rooms
    with rooms.started.counted(client, most) as admitted:
        if not admitted:
            raise HTTPProblem(429, f"you made {most} rooms in the last "
                                   f"{span(rooms.limits.idle)}, this server's most for one "
                                   "client; go on in one of them, or try again later")
        return make_room(rooms, config, people, sent.open_seats)


def make_room(rooms: Rooms, config: GameConfig, people: frozenset[str], open_seats: bool
              ) -> dict[str, Any]:
    """Deal and store a new room, after the idle ones are swept (503 with too many)."""
    store, limits = rooms.store, rooms.limits
    # closed rooms count too (the oldest make way), so creating and closing rooms
    # in a loop cannot fill the disk
    swept = store.sweep(idle=limits.idle, solo_idle=limits.game_idle, rooms=limits.rooms)
    rooms.changed(swept.changed)
    full = HTTPProblem(503, f"this server has its most open rooms ({limits.rooms}); try "
                            "again later")
    if swept.rooms >= limits.rooms:
        raise full
    try:
        game = room_game(config, people=people)
        moves = game.ai_moves()
    except CodenamesError as exc:
        raise HTTPProblem(400, str(exc)) from None
    try:  # counted again as it is stored: rooms made meanwhile may have filled the server
        room_id, creator, tokens = store.create_room(
            config.to_dict(), moves, {name: name in people for name in game.seats},
            open_seats=open_seats, guessers_seated=guessers_in(game, people),
            most=limits.rooms)
    except StoreFull:
        raise full from None
    with rooms.locked(room_id):
        return {"id": room_id, "creator": creator, "seats": tokens,
                "view": room_view(rooms.room(room_id), None)}


@router.get("/api/rooms/{room_id}", **answers(
    RoomView, _403="a token that holds no seat", _404="an unknown room"))
def show(room_id: str, rooms: RoomsDep, token: TokenQuery = None) -> dict[str, Any]:
    """The room's view for the seat `token` holds (none: a spectator)."""
    return read_view(rooms, room_id, token)[1]


@router.post("/api/rooms/{room_id}/moves", **answers(
    RoomView, _400="without `expect`, or a body that is not a move", _403="a token without "
                                                                        "a seat",
    _409="with the fresh `view`: a closed room (the message says who closed it: \"the room is "
         "closed (Ann (red-guesser) closed it): it takes no more moves; ...\"), a stale "
         "`expect` or an illegal move"))
def move(room_id: str, sent: RoomMoveBody, rooms: RoomsDep) -> dict[str, Any]:
    """A move (above) from the seat `token` holds, with `expect`. Answers the room's view
    after the move and the AIs' answers."""
    data = sent.model_dump(exclude_unset=True)
    held_seat(rooms, room_id, sent.token)  # a stranger is refused before the lock
    with rooms.changing_room(room_id) as room:
        seat = held_seat(rooms, room_id, sent.token)  # still theirs, under the lock
        game = room.game

        def conflict(message: str) -> HTTPProblem:
            return HTTPProblem(409, message, extra={"view": room_view(room, seat)})

        if room.closed:
            raise conflict(closed_message(room))
        stale = check_expect(game, data)
        if stale:
            raise conflict(f"{stale} (someone else may have moved first); here is the "
                           "game as it is now")
        first = len(game.moves)
        try:
            made = [game.seat_move(seat, data)] + game.ai_moves()
        except IllegalActionError as exc:
            raise conflict(str(exc)) from None
        return room_view(change(rooms, room, first, made), seat)


@router.post("/api/rooms/{room_id}/seat", **answers(
    RoomView, _400="a bad body", _403="a token or creator token that may not",
    _409="a closed room, or a token from `join` of an earlier deal taking back a seat shut "
         "to `join` (with `view`)"))
def take(room_id: str, sent: SeatBody, rooms: RoomsDep) -> dict[str, Any]:
    """`{"token", "person": true|false}` takes the seat back from the AI or hands it to the
    AI; `{"creator", "seat", "person": false}` hands any seat to the AI (someone left the
    table without doing it), answered with the spectators' view."""
    data, person = sent.model_dump(exclude_unset=True), sent.person
    seat_of_change(rooms, room_id, data, person)  # a stranger is refused before the lock
    with rooms.changing_room(room_id) as room:
        seat, shown = seat_of_change(rooms, room_id, data, person)  # under the lock
        check_open(room)
        check_seat(room, seat)
        # a token that came by the room's link in an earlier deal takes its seat back by
        # that link's rule (it may be the same person as someone seated since)
        by_link = (person and "creator" not in data
                   and rooms.store.name_of(room_id, data["token"]) is not None)
        earlier = by_link and rooms.store.joined_before_deal(room_id, data["token"])
        refused = refuse(room, seat, back=True) if earlier else None
        if refused:
            raise HTTPProblem(409, refused, extra={"view": room_view(room, shown)})
        return room_view(seat_change(rooms, room, seat, person, by_link=earlier), shown)


def seat_of_change(rooms: Rooms, room_id: str, data: dict[str, Any], person: bool
                   ) -> tuple[str, str | None]:
    """The seat a change of holder is for, and the seat whose view the answer shows: a
    seat's own token, or the creator handing any seat to the AI (someone left the table
    without doing it), who is answered with the spectators' view."""
    if "creator" not in data:
        own = held_seat(rooms, room_id, data.get("token"))
        return own, own
    seat = data.get("seat")
    require_creator(rooms, room_id, data.get("creator"), "hand another person's seat to the AI")
    if not isinstance(seat, str):
        raise HTTPProblem(400, "seat must be the name of one of the room's seats")
    if person:
        raise HTTPProblem(400, "the creator may only hand a seat to the AI; a person takes "
                               "a seat with its own link")
    return seat, None


@router.post("/api/rooms/{room_id}/join", **answers(
    Joined, _400="an unknown seat, field or a bad name", _403="where the room's link seats "
                                                              "no one",
    _409="the room is closed, the seat or room is full, or the seat is shut to `join` (a "
         "spymaster's while `key_shut`, a guesser's while `guess_shut`: above; with `view`)"))
def join(room_id: str, sent: JoinBody, rooms: RoomsDep) -> dict[str, Any]:
    """Sit down in `seat` under `name` by the room's link (or anywhere, with `creator`,
    where seats go by their own links). Answers `{"token", "view"}`."""
    try:
        name = person_name(sent.name)
    except ConfigError as exc:
        raise HTTPProblem(400, str(exc)) from None
    if sent.creator is not None:
        require_creator(rooms, room_id, sent.creator,
                        "sit anywhere in a room whose seats go by their own links")
    return sit_down(rooms, room_id, sent.seat, name, by_creator=sent.creator is not None)


def sit_down(rooms: Rooms, room_id: str, seat: str, name: str, *, by_creator: bool
             ) -> dict[str, Any]:
    """Seat a person who comes by the room's link (or the creator's) -> their token."""
    with rooms.changing_room(room_id) as room:
        check_open(room)
        check_seat(room, seat)
        if not by_creator and not room.open_seats:
            raise HTTPProblem(403, "this room's seats are given by their own links: "
                                   "ask the room's creator for one")
        # the creator holds every seat's link anyway, but the room has its most people
        refused = refuse(room, seat, anywhere=by_creator)
        if refused:
            raise HTTPProblem(409, refused, extra={"view": room_view(room, None)})
        token = secrets.token_urlsafe(16)
        # the creator, who holds every seat's link anyway, shuts no guesser seat by sitting
        # at a spymaster seat (so a room made with its creator at one fills by the link)
        seated = seat_change(rooms, room, seat, True, member=(token, name),
                             by_link=not by_creator)
        return {"token": token, "view": room_view(seated, seat)}


@router.post("/api/rooms/{room_id}/again", **answers(
    RoomView, _403="a token or creator token that may not",
    _409="the game is not over (with `view`), or the room is closed"))
def again(room_id: str, sent: AgainBody, server: ServerDep, rooms: RoomsDep
          ) -> dict[str, Any]:
    """`{"token"}` or `{"creator"}`: a new deal once the game is over, same settings and
    seats, but a spymaster seat taken through `join` goes back to the AI when a person holds
    a guesser seat (above). Answers the view of the new deal."""
    by_creator = "creator" in sent.model_fields_set
    seat: str | None = None
    if by_creator:
        require_creator(rooms, room_id, sent.creator, "deal again without a seat")
    else:
        held_seat(rooms, room_id, sent.token)  # a stranger is refused before the lock
    with rooms.changing_room(room_id) as room:
        if not by_creator:  # still theirs, under the lock
            seat = held_seat(rooms, room_id, sent.token)
        check_open(room)
        if not room.game.state.is_over:
            raise HTTPProblem(409, "the game is not over (someone may have dealt "
                                   "again already)", extra={"view": room_view(room, seat)})
        deal_again(rooms, room, server.fresh_seed())
        return room_view(rooms.room(room_id), seat)


def deal_again(rooms: Rooms, room: Room, seed: int) -> None:
    """Store the room's new deal, from ``seed``: a spymaster seat someone sat down in
    through the room's link goes back to the AI when a person holds a guesser seat, so
    nobody starts a deal holding both."""
    game = room.game
    by_link = {seat for seat in game.people if room.names.get(seat)
               and game.seats[seat][1] is Role.SPYMASTER}
    to_ai = by_link if guessers_in(game, game.people) else set()
    try:
        config = GameConfig.from_dict({**game.config.to_dict(), "seed": seed})
        fresh = room_game(config, people=frozenset(game.people - to_ai))
        moves = fresh.ai_moves()
    except CodenamesError as exc:
        raise HTTPProblem(400, str(exc)) from None
    fresh.game_id = rooms.store.room_new_game(
        room.room_id, config.to_dict(), moves,
        guessers_seated=guessers_in(fresh, fresh.people),
        key_seen=bool(by_link - to_ai), to_ai=sorted(to_ai))
    rooms.put(room.room_id, fresh)
    rooms.changed([room.room_id])


@router.post("/api/rooms/{room_id}/check", **answers(
    ClueCheck, _403="a token that holds no seat", _404="an unknown room"))
def check(room_id: str, sent: RoomWordBody, rooms: RoomsDep) -> dict[str, Any]:
    """`{"token", "word"}`: the spymaster's live clue check, as a game alone's."""
    seat_for(rooms, room_id, sent.token, required=True)
    with rooms.locked(room_id):
        seat_for(rooms, room_id, sent.token, required=True)  # still a seat
        return rooms.room(room_id).game.check_clue(sent.word)


@router.post("/api/rooms/{room_id}/close", **answers(
    RoomView, _400="an unknown field", _403="another creator token, or a token that holds "
                                            "no seat",
    _404="an unknown room"))
def close(room_id: str, sent: CloseBody, rooms: RoomsDep) -> dict[str, Any]:
    """`{"creator"}`, and the `token` of the seat the creator sits in, if any (named to the
    table as who closed the room). Answers the closed room's view for that seat (without a
    token, the spectators'); closing a closed room changes nothing."""
    creator, token = sent.creator, sent.token
    require_creator(rooms, room_id, creator, "close it")
    with rooms.changing_room(room_id) as room:
        # the seat the creator sits in (if any) is named to the table as who closed it
        seat = seat_for(rooms, room_id, token, required=False)
        if not room.closed:
            name = rooms.store.name_of(room_id, token) if seat and token else None
            room = change(rooms, room, len(room.game.moves), [],
                          close={"seat": seat, "name": name})
        return room_view(room, seat)


@router.get("/api/rooms/{room_id}/events", response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {}}, "description": "the seat's view, as events"},
    400: {"model": Problem, "description": "a `since` that is not a version number"},
    404: {"model": Problem, "description": "an unknown room"},
    429: {"model": Problem, "description": "past a seat token's live connections (8), a "
          "client's (40, one address, an IPv6 one by its /64) or the room's (32)"},
    503: {"model": Problem, "description": "past the server's live connections (400)"}})
async def events(room_id: str, rooms: RoomsDep, client: ClientDep, token: TokenQuery = None,
                 since: SinceQuery = None, last_event_id: LastEventId = None
                 ) -> StreamingResponse:
    """Server-sent events (`text/event-stream`): `event: view` with `id:` the room's version
    and the seat's view as data, each time the version moves past `since` (or the
    `Last-Event-ID` header of a reconnecting browser), and keep-alive comments; the stream
    ends after a few seconds and the browser reconnects. Each event is the view of the seat
    the token holds when the event is sent (as a GET shows it), not when the stream opened:
    a token whose seat someone else sat down in receives the spectators' view from then on.
    A room idle past the server's idle time reads as closed (its version one further)
    without a change being written."""
    seen = version_seen(since, last_event_id)
    # 403 for a wrong token, 404 for an unknown room
    seat, first = await run_in_threadpool(read_view, rooms, room_id, token)
    counted = (client, token if seat is not None else None)
    woken = rooms.open_stream(room_id, spectator=seat is None, client=counted[0],
                              token=counted[1])
    # Started here, the generator is closed (and the count released) even if the response
    # never reads it: the event loop finalizes a started async generator it drops.
    chunks = stream(rooms, room_id, (token, seat), woken, first, seen, counted)
    await chunks.__anext__()
    return StreamingResponse(chunks, media_type="text/event-stream", headers={
        "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def version_seen(since: str | None, last_event_id: str | None) -> int:
    """The room version the page has seen: ``since``, or the ``Last-Event-ID`` a reconnecting
    browser sends (which wins); -1 for none."""
    seen = -1
    for given in (since, last_event_id):
        if given is not None and given != "":
            if not (given.isascii() and given.isdigit() and len(given) <= MAX_VERSION_DIGITS):
                raise HTTPProblem(400, "since and Last-Event-ID must be a version number")
            seen = int(given)
    return seen


def read_view(rooms: Rooms, room_id: str, token: str | None
              ) -> tuple[str | None, dict[str, Any]]:
    """The seat ``token`` holds NOW and the room as that seat sees it, read together under
    the room's lock, so that no one sits down in the seat between the two (a token whose
    seat went to someone else watches as a spectator)."""
    with rooms.locked(room_id):
        seat = seat_for(rooms, room_id, token, required=False)
        return seat, room_view(rooms.room(room_id), seat)


def room_version(rooms: Rooms, room_id: str) -> int | None:
    """The room's version as the store has it (None: deleted)."""
    info = rooms.store.room(room_id, idle=rooms.limits.idle)
    return None if info is None else int(info["version"])


async def stream(rooms: Rooms, room_id: str, holder: tuple[str | None, str | None],
                 woken: asyncio.Event, first: dict[str, Any], since: int,
                 counted: tuple[str, str | None]) -> AsyncIterator[str]:
    """The view of the seat a token holds (``holder``: the token and its seat when the
    stream opened) each time the room's version moves past ``since``, with keep-alives,
    until the stream's time is up, the server stops or the token loses that seat (the
    browser reconnects, and its new stream shows what the token may see now). It waits on
    ``woken``, which this process's changes of the room set; at each keep-alive it also
    reads the version, which an idle room's closing moves. ``counted``: the client and the
    token it was counted under (``Rooms.open_stream``)."""
    limits = rooms.limits
    token, seat = holder
    try:
        yield ""  # primed by the route: from here on, `finally` runs however the stream ends
        view: dict[str, Any] | None = first
        seen = since
        yield "retry: 1000\n\n"
        clock = asyncio.get_running_loop().time
        ends = clock() + limits.stream_seconds
        stopped = rooms.stopping
        while True:
            if view is not None and view["room"]["version"] != seen:
                seen = view["room"]["version"]
                yield f"id: {seen}\nevent: view\ndata: {json.dumps(view)}\n\n"
            left = ends - clock()
            if stopped or left <= 0:
                return  # the browser reconnects, from the last event id
            try:
                await asyncio.wait_for(woken.wait(), min(limits.heartbeat, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
            woken.clear()  # before the read: a change after it wakes the stream again
            # read before the room: what was stored before the server stopped is still sent
            stopped = rooms.stopping
            version = await run_in_threadpool(room_version, rooms, room_id)
            if version is None:
                return  # the room was deleted: the page's retry is told so
            view = None
            if version != seen:
                try:  # the token's seat now, never the one it opened with
                    holds, view = await run_in_threadpool(read_view, rooms, room_id, token)
                except HTTPProblem:
                    return
                if holds != seat:
                    return  # someone else sat down in it: this stream's view is no more
    finally:
        rooms.close_stream(room_id, woken, spectator=seat is None, client=counted[0],
                           token=counted[1])
