"""What every route of the web app shares: the refusal they raise (``HTTPProblem``), the games
in memory over the store (``Games``), the shared state routes take through ``Depends``
(``ServerDep``, ``ClientDep``), and how a request's JSON body is read (``LimitedRoute``:
within the JSON limits, before the route's request model reads it). The app (``app``), the
games alone (``solo``) and the rooms (``roomsapi``) build on this module, and it on none of
them."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar, cast

from fastapi import Depends, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel

from ..core import CodenamesError
from ..core.errors import quoted
from ..core.jsonlimits import JSONRefused, load_limited
from .clients import Started, client_key
from .games import GameConfig, Offer, WebGame
from .limits import RoomLimits
from .schema import Problem
from .store import GameStore, GameUnreadable

log = logging.getLogger(__name__)

MAX_DEPTH = 16  # nesting of JSON arrays and objects; a request needs 2
MAX_DIGITS = 40  # digits of a JSON number; a seed has at most 39 (128 bits)
CACHED_GAMES = 64

Held = TypeVar("Held")


class HTTPProblem(HTTPException):
    """A refusal: ``status`` and ``message``, and ``extra`` fields for the JSON body (a
    refused room move sends the fresh ``view`` with its 409). An ``HTTPException``, so one
    raised while FastAPI reads a body (``LimitedRequest``) reaches the app's handler whole."""

    def __init__(self, status: int, message: str, *,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message
        self.extra = extra or {}



@dataclass
class _Slot:
    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


class Games:
    """Games in memory (the ``size`` most recently used) over the store, one lock per game.

    A lock exists only while a request holds or waits for it, so unknown or finished ids
    leave nothing behind. A game changed under ``changing`` is dropped from memory if the
    change fails in any way (a refused move, a failed write), so the next request rebuilds
    it from the store: memory never keeps a move the store does not have. A game that has
    not moved for ``limits.game_idle`` seconds has ended: it is refused, and the next sweep
    (when a game is made) deletes it.
    """

    def __init__(self, store: GameStore, *, limits: RoomLimits, size: int = CACHED_GAMES
                 ) -> None:
        self.store = store
        self.limits = limits
        self.size = size
        self._cache: OrderedDict[str, WebGame] = OrderedDict()
        self._locks: dict[str, _Slot] = {}
        self._guard = threading.Lock()
        # stored games this version cannot rebuild (the ``size`` last found), refused at once
        self._unreadable: OrderedDict[str, str] = OrderedDict()

    @contextmanager
    def locked(self, game_id: str) -> Iterator[None]:
        with self._guard:
            slot = self._locks.setdefault(game_id, _Slot())
            slot.users += 1
        try:
            with slot.lock:
                yield
        finally:
            with self._guard:
                slot.users -= 1
                if slot.users == 0:
                    del self._locks[game_id]

    def changing(self, game_id: str) -> AbstractContextManager[WebGame]:
        """The game, locked, for a change that either completes or leaves no trace."""
        return self.held(game_id, self.get)

    @contextmanager
    def held(self, key: str, read: Callable[[str], Held]) -> Iterator[Held]:
        """What ``read`` gives for ``key``, locked; if the change made to it fails, it is
        dropped from memory, so the next read rebuilds it from the store, where a failed
        change left no trace."""
        with self.locked(key):
            item = read(key)
            try:
                yield item
            except BaseException:
                self.forget(key)
                raise

    def get(self, game_id: str) -> WebGame:
        """The game (call with its lock held)."""
        # a room's game moves only through the rooms' API, which checks seats
        active = self.store.solo_active(game_id)
        if active is not None and self.store.clock() - active > self.limits.game_idle:
            self.forget(game_id)
            raise HTTPProblem(404, f"game {quoted(game_id)} ended after "
                                   f"{span(self.limits.game_idle)} without a move, and is "
                                   "deleted; start a new one")
        with self._guard:
            game = self._cache.get(game_id) if active is not None else None
        if game is None:
            game = None if active is None else self.replay(
                game_id, f"game {quoted(game_id)}",
                lambda config, moves: WebGame.solo(GameConfig.from_stored(config), moves))
            if game is None:
                raise HTTPProblem(404, f"no game {quoted(game_id)} (it may have been made "
                                       "on another server); start a new one")
            game.game_id = game_id
        self.put(game_id, game)
        return game

    def replay(self, game_id: str, name: str,
               build: Callable[[dict[str, Any], list[dict[str, Any]]], WebGame]
               ) -> WebGame | None:
        """The stored game ``game_id`` rebuilt by ``build`` from its settings and moves
        (None for an unknown id). One this version cannot rebuild (a row edited by hand, a
        clue stored under rules an upgrade changed) is refused with 410, the same every
        time, and logged in one line the first time (``name``: what the client asked for)."""
        with self._guard:
            refused = self._unreadable.get(game_id)
        if refused is None:
            try:
                loaded = self.store.load(game_id)
                return None if loaded is None else build(*loaded)
            except (GameUnreadable, CodenamesError) as exc:
                log.warning("stored game %s cannot be replayed: %s: %s", game_id,
                            type(exc).__name__, " ".join(str(exc).split())[:300])
            refused = (f"{name}: its stored settings or moves cannot be replayed by this "
                       "version of codenames-ai (the server's log says why); start a new one")
            with self._guard:
                self._unreadable[game_id] = refused
                while len(self._unreadable) > self.size:
                    self._unreadable.popitem(last=False)
        raise HTTPProblem(410, refused)

    def put(self, game_id: str, game: WebGame) -> None:
        with self._guard:
            self._cache[game_id] = game
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._guard:
            self._cache.pop(game_id, None)

    def waiting(self, game_id: str) -> int:
        """Requests holding or waiting for ``game_id``'s lock (for tests)."""
        with self._guard:
            slot = self._locks.get(game_id)
            return slot.users if slot is not None else 0

    def sizes(self) -> tuple[int, int]:
        """(games in memory, locks held): both bounded, for tests and monitoring."""
        with self._guard:
            return len(self._cache), len(self._locks)


@dataclass(frozen=True)
class Server:
    """What the routes of one app share (``app.state.server``)."""

    store: GameStore
    games: Games
    limits: RoomLimits
    offer: Offer
    fresh_seed: Callable[[], int]  # where fresh deals come from
    started: Started  # what each client started lately


def server_of(request: Request) -> Server:
    return cast(Server, request.app.state.server)


async def _server(request: Request) -> Server:
    return server_of(request)  # async: no trip to the threadpool for an attribute


async def _client(request: Request) -> str:
    return client_key(request.client.host if request.client else None)


# What a route takes through ``Depends``: the app's shared state, and who is asking (its
# network address as ``client_key`` counts it).
ServerDep = Annotated[Server, Depends(_server)]
ClientDep = Annotated[str, Depends(_client)]


def check_expect(game: WebGame, data: dict[str, Any]) -> str | None:
    """Why a move's ``expect`` says its page is stale (the caller answers 409), or None;
    ``HTTPProblem`` 400 if the move has no ``expect`` or a malformed one."""
    try:
        return game.stale(data.get("expect"))
    except ValueError as exc:
        raise HTTPProblem(400, str(exc)) from None


def span(seconds: float) -> str:
    """A length of time in words: '24 hours', '30 minutes', '5 seconds'."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return f"{seconds / size:g} {unit}{'' if seconds == size else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


class LimitedRequest(Request):
    """A request whose JSON body is read within the limits (``parse_json``): FastAPI reads a
    route's body through ``json()`` before its request model sees it."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class LimitedRoute(APIRoute):
    """A route whose body FastAPI reads as a ``LimitedRequest`` (the routers' route class)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def limited(request: Request) -> Response:
            return await handler(LimitedRequest(request.scope, request.receive))
        return limited


def parse_json(body: bytes) -> Any:
    """A request body as JSON, or ``HTTPProblem`` 400 saying what is wrong with it: not UTF-8,
    not JSON, nested deeper than ``MAX_DEPTH``, a number longer than ``MAX_DIGITS``
    characters, ``NaN``/``Infinity``, or a string that is not valid Unicode."""
    try:
        return load_limited(body, max_depth=MAX_DEPTH, max_number=MAX_DIGITS)
    except JSONRefused as exc:
        raise HTTPProblem(400, f"the request body {exc}") from None


def error(status: int, message: str, *, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def answers(model: type[BaseModel] | None, status: int = 200, **refusals: str
            ) -> dict[str, Any]:
    """A route's answer for its decorator: ``model`` (its keys sent as the route gave them,
    none added), and the refusals it may send, by status (``_409="why"``), for the schema."""
    problems: dict[int | str, dict[str, Any]] = {
        int(code.lstrip("_")): {"model": Problem, "description": why}
        for code, why in refusals.items()}
    return {"response_model": model, "response_model_exclude_unset": True,
            "status_code": status, "responses": problems}
