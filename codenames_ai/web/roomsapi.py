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
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from ..core import CodenamesError, ConfigError, IllegalActionError, Role
from ..core.errors import quoted
from .clients import Started, client_key
from .games import GameConfig, WebGame
from .http import (
    CACHED_GAMES,
    MOVE_FIELDS,
    Games,
    HTTPProblem,
    check_expect,
    parse_json,
    refuse_unknown,
    server_of,
    span,
)
from .limits import RoomLimits
from .rooms import person_name, refuse_seat, room_config, room_game, seat_names
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


router = APIRouter()


def rooms_of(request: Request) -> Rooms:
    """The app's rooms (``app.state.rooms``)."""
    rooms = request.app.state.rooms
    assert isinstance(rooms, Rooms)
    return rooms


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


async def body(request: Request) -> dict[str, Any]:
    data = parse_json(await request.body())
    if not isinstance(data, dict):
        raise HTTPProblem(400, "send a JSON object")
    return data


@router.post("/api/rooms", status_code=201)
async def new_room(request: Request) -> dict[str, Any]:
    data = await body(request)
    refuse_unknown(data, {"settings", "people", "open_seats"},
                   "settings, people and open_seats")
    open_seats = data.get("open_seats", True)
    if not isinstance(open_seats, bool):
        raise HTTPProblem(400, "open_seats must be true (people choose a seat with the "
                               "room's link) or false (only with each seat's own link)")
    server = server_of(request)
    try:
        config = room_config(data.get("settings", {}), server.fresh_seed())
        server.offer.check(config)
        people = seat_names(data.get("people", []), config.variant)
    except ConfigError as exc:
        raise HTTPProblem(400, str(exc)) from None
    rooms = rooms_of(request)
    client = client_key(request.client.host if request.client else None)

    def start() -> dict[str, Any]:
        most = rooms.limits.client_rooms
        with rooms.started.counted(client, most) as admitted:
            if not admitted:
                raise HTTPProblem(429, f"you made {most} rooms in the last "
                                       f"{span(rooms.limits.idle)}, this server's most for one "
                                       "client; go on in one of them, or try again later")
            return make_room(rooms, config, people, open_seats)

    return await run_in_threadpool(start)


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


@router.get("/api/rooms/{room_id}")
async def show(room_id: str, request: Request) -> dict[str, Any]:
    rooms, token = rooms_of(request), request.query_params.get("token")
    return (await run_in_threadpool(read_view, rooms, room_id, token))[1]


@router.post("/api/rooms/{room_id}/moves")
async def move(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)

    refuse_unknown(data, {*MOVE_FIELDS, "token"}, "the move, its fields and your token")

    def play() -> dict[str, Any]:
        held_seat(rooms, room_id, data.get("token"))  # a stranger is refused before the lock
        with rooms.changing_room(room_id) as room:
            seat = held_seat(rooms, room_id, data.get("token"))  # still theirs, under the lock
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

    return await run_in_threadpool(play)


@router.post("/api/rooms/{room_id}/seat")
async def take(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)
    person = data.get("person")
    if not isinstance(person, bool):
        raise HTTPProblem(400, "send {\"token\": ..., \"person\": true} to take the seat, "
                               "false to hand it to the AI")

    def run() -> dict[str, Any]:
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

    return await run_in_threadpool(run)


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


@router.post("/api/rooms/{room_id}/join")
async def join(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)
    refuse_unknown(data, {"seat", "name", "creator"}, "seat and name")
    seat = data.get("seat")
    if not isinstance(seat, str):
        raise HTTPProblem(400, "seat must be the name of one of the room's seats")
    try:
        name = person_name(data.get("name"))
    except ConfigError as exc:
        raise HTTPProblem(400, str(exc)) from None
    creator = data.get("creator")
    if creator is not None:
        await run_in_threadpool(require_creator, rooms, room_id, creator,
                                "sit anywhere in a room whose seats go by their own links")
    return await run_in_threadpool(sit_down, rooms, room_id, seat, name,
                                   by_creator=creator is not None)


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


@router.post("/api/rooms/{room_id}/again")
async def again(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)
    fresh_seed = server_of(request).fresh_seed

    def run() -> dict[str, Any]:
        seat: str | None = None
        if "creator" in data:
            require_creator(rooms, room_id, data.get("creator"), "deal again without a seat")
        else:
            held_seat(rooms, room_id, data.get("token"))  # a stranger is refused before the lock
        with rooms.changing_room(room_id) as room:
            if "creator" not in data:  # still theirs, under the lock
                seat = held_seat(rooms, room_id, data.get("token"))
            check_open(room)
            game = room.game
            if not game.state.is_over:
                raise HTTPProblem(409, "the game is not over (someone may have dealt "
                                       "again already)", extra={"view": room_view(room, seat)})
            # a spymaster seat someone sat down in through the room's link goes back to the
            # AI when a person holds a guesser seat: nobody starts a deal holding both
            by_link = {seat for seat in game.people if room.names.get(seat)
                       and game.seats[seat][1] is Role.SPYMASTER}
            to_ai = by_link if guessers_in(game, game.people) else set()
            try:
                config = GameConfig.from_dict({**game.config.to_dict(), "seed": fresh_seed()})
                fresh = room_game(config, people=frozenset(game.people - to_ai))
                moves = fresh.ai_moves()
            except CodenamesError as exc:
                raise HTTPProblem(400, str(exc)) from None
            fresh.game_id = rooms.store.room_new_game(
                room_id, config.to_dict(), moves,
                guessers_seated=guessers_in(fresh, fresh.people),
                key_seen=bool(by_link - to_ai), to_ai=sorted(to_ai))
            rooms.put(room_id, fresh)
            rooms.changed([room_id])
            return room_view(rooms.room(room_id), seat)

    return await run_in_threadpool(run)


@router.post("/api/rooms/{room_id}/check")
async def check(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)

    def run() -> dict[str, Any]:
        seat_for(rooms, room_id, data.get("token"), required=True)
        with rooms.locked(room_id):
            seat_for(rooms, room_id, data.get("token"), required=True)  # still a seat
            return rooms.room(room_id).game.check_clue(data.get("word"))
    return await run_in_threadpool(run)


@router.post("/api/rooms/{room_id}/close")
async def close(room_id: str, request: Request) -> dict[str, Any]:
    data, rooms = await body(request), rooms_of(request)
    refuse_unknown(data, {"creator", "token"}, "creator and token")
    creator, token = data.get("creator"), data.get("token")

    def run() -> dict[str, Any]:
        require_creator(rooms, room_id, creator, "close it")
        with rooms.changing_room(room_id) as room:
            # the seat the creator sits in (if any) is named to the table as who closed it
            seat = seat_for(rooms, room_id, token, required=False)
            if not room.closed:
                name = rooms.store.name_of(room_id, token) if seat and token else None
                room = change(rooms, room, len(room.game.moves), [],
                              close={"seat": seat, "name": name})
            return room_view(room, seat)
    return await run_in_threadpool(run)


@router.get("/api/rooms/{room_id}/events")
async def events(room_id: str, request: Request) -> StreamingResponse:
    rooms, token = rooms_of(request), request.query_params.get("token")
    since = version_seen(request)
    # 403 for a wrong token, 404 for an unknown room
    seat, first = await run_in_threadpool(read_view, rooms, room_id, token)
    client = client_key(request.client.host if request.client else None)
    counted = (client, token if seat is not None else None)
    woken = rooms.open_stream(room_id, spectator=seat is None, client=counted[0],
                              token=counted[1])
    # Started here, the generator is closed (and the count released) even if the response
    # never reads it: the event loop finalizes a started async generator it drops.
    chunks = stream(rooms, room_id, (token, seat), woken, first, since, counted)
    await chunks.__anext__()
    return StreamingResponse(chunks, media_type="text/event-stream", headers={
        "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def version_seen(request: Request) -> int:
    """The room version the page has seen: ``since``, or the ``Last-Event-ID`` a reconnecting
    browser sends (which wins); -1 for none."""
    since = -1
    for given in (request.query_params.get("since"), request.headers.get("last-event-id")):
        if given is not None and given != "":
            if not (given.isascii() and given.isdigit() and len(given) <= MAX_VERSION_DIGITS):
                raise HTTPProblem(400, "since and Last-Event-ID must be a version number")
            since = int(given)
    return since


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
