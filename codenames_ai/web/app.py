"""``codenames serve``: the web app (FastAPI on uvicorn) with one page and a JSON API.

    GET  /                        the page (also /game/{id}: the same page, opened on a game)
    GET  /static/{file}           its script, style sheet and icon (also at /favicon.ico)
    GET  /api/options             roles, editions, decks, rules, strengths, levels, agents
    POST /api/games               new game from settings -> {"id", "view"}
    GET  /api/games/{id}          the game as this client may see it
    POST /api/games/{id}/moves    {"move": clue|guess|pass|cover|step, ..., "expect": {...}}
    POST /api/games/{id}/check    {"word"}: is this clue legal now, and if not, which rule
    GET  /room/{id}               the same page, opened on a room (``roomsapi``: its API)

Every error is a 4xx JSON body ``{"error": "..."}`` (503 when the games database fails); the
game is unchanged by a refused or failed move. Every move sends ``expect``, the last view's
``expect``: the deal the page shows and the number of its moves the page has seen. A move
without it gets 400; a double submit, a stale page or a move meant for an earlier deal gets
409 instead of being played.

Hidden information: a game with a person in it is dealt from a fresh 128-bit secret seed
(``secrets``), shown to nobody until the game is over. A chosen seed is accepted only for
watching AI-only games: with this toolkit anyone can compute the board a known seed deals,
so a chosen seed in a game with a guesser would hand the guesser the key. (A chosen seed may
equal a secret one only by guessing 128 bits, so no domain separation is needed, and the seed
shown after a game deals that same board in ``watch``.)

Every request passes ``Guard`` first: bodies are read up to ``MAX_BODY`` bytes while they
arrive and refused with 413 past it, POSTs must be ``application/json`` (415), and every
response carries the security headers.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, MutableMapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..agents.levels import LEVELS
from ..core import CodenamesError, ConfigError, IllegalActionError, secret_seed
from ..core.choices import CLUE_RULE_NAMES, EDITION_NAMES, GUESS_LIMIT_NAMES
from ..core.jsonlimits import JSONRefused, load_limited
from .clients import Started, client_key
from .games import (
    DECKS,
    LEVEL_ROLES,
    ROLES,
    STRENGTHS,
    GameConfig,
    Offer,
    WebGame,
)
from .intake import BODY_SECONDS, Intake
from .limits import RoomLimits
from .store import BUSY_TIMEOUT, GameStore, MoveConflict, StoreError, StoreGone

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"app.js": "text/javascript", "rooms.js": "text/javascript",
                "style.css": "text/css", "icon.svg": "image/svg+xml"}
MAX_BODY = 16 * 1024  # bytes; a move or a game's settings are far smaller
MAX_DEPTH = 16  # nesting of JSON arrays and objects; a request needs 2
MAX_DIGITS = 40  # digits of a JSON number; a seed has at most 39 (128 bits)
CACHED_GAMES = 64

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # a game's address is its only key: never send it on
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger(__name__)


class HTTPProblem(Exception):
    """A refusal: ``status`` and ``message``, and ``extra`` fields for the JSON body (a
    refused room move sends the fresh ``view`` with its 409)."""

    def __init__(self, status: int, message: str, *,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
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

    @contextmanager
    def changing(self, game_id: str) -> Iterator[WebGame]:
        """The game, locked, for a change that either completes or leaves no trace."""
        with self.locked(game_id):
            game = self.get(game_id)
            try:
                yield game
            except BaseException:
                self.forget(game_id)
                raise

    def get(self, game_id: str) -> WebGame:
        """The game (call with its lock held)."""
        # a room's game moves only through the rooms' API, which checks seats
        active = self.store.solo_active(game_id)
        if active is not None and self.store.clock() - active > self.limits.game_idle:
            self.forget(game_id)
            raise HTTPProblem(404, f"game {game_id!r} ended after {_span(self.limits.game_idle)} "
                                   "without a move, and is deleted; start a new one")
        with self._guard:
            game = self._cache.get(game_id) if active is not None else None
        if game is None:
            loaded = None if active is None else self.store.load(game_id)
            if loaded is None:
                raise HTTPProblem(404, f"no game {game_id!r} (it may have been made on another "
                                       "server); start a new one")
            config, moves = loaded
            game = WebGame(GameConfig.from_stored(config), moves)
            game.game_id = game_id
        self.put(game_id, game)
        return game

    def put(self, game_id: str, game: WebGame) -> None:
        with self._guard:
            self._cache[game_id] = game
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._guard:
            self._cache.pop(game_id, None)

    def sizes(self) -> tuple[int, int]:
        """(games in memory, locks held): both bounded, for tests and monitoring."""
        with self._guard:
            return len(self._cache), len(self._locks)


def create_app(database: Path, *, timeout: float = BUSY_TIMEOUT,
               new_seed: Callable[[], int] | None = None,
               limits: RoomLimits | None = None,
               body_seconds: float = BODY_SECONDS,
               clock: Callable[[], float] = time.time,
               offer: Offer | None = None) -> FastAPI:
    """The app over the games in ``database`` (``StoreError`` if it is not a games file).
    ``timeout``: seconds a write waits for a lock held by another connection before the
    request gets 503. ``new_seed``: where fresh deals come from (default: 128 secret bits).
    ``limits``: how many rooms, games played alone and live connections the server takes,
    and how long they last idle. ``clock``: the time stored games are active at and expire
    by (seconds).
    ``body_seconds``: how long a request body may take to arrive (``intake``).
    ``offer``: the AIs clients may choose (default: every agent this install can build)."""
    fresh_seed = new_seed or secret_seed
    offer = offer or Offer.parse("all")
    limits = limits or RoomLimits()
    store = GameStore(database, timeout=timeout, clock=clock)  # held until the app shuts down

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()  # another server may open the database now

    app = FastAPI(title="codenames-ai", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    games = Games(store, limits=limits)
    # What each client started lately. Watched games are evicted, so more are started than
    # kept: ten times what the server keeps (12,000 short entries by default) bounds memory.
    started = Started(window=limits.game_idle, size=10 * (limits.games + limits.watch_games),
                      clock=clock)
    app.state.store = store
    app.state.games = games
    app.state.offer = offer
    app.state.intake = Intake(seconds=body_seconds)
    app.add_middleware(Guard, intake=app.state.intake)

    @app.exception_handler(HTTPProblem)
    async def problem(request: Request, exc: HTTPProblem) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def routing(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # An unknown path or method: the same {"error": ...} body as every other refusal.
        return _error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")

    @app.exception_handler(StoreError)
    async def unavailable(request: Request, exc: StoreError) -> JSONResponse:
        retry = "" if isinstance(exc, StoreGone) else ": try again in a moment"
        return _error(503, f"{exc}; nothing was changed{retry}")

    @app.exception_handler(MemoryError)
    async def out_of_memory(request: Request, exc: MemoryError) -> JSONResponse:
        # What a request was building is dropped with it; the server goes on.
        log.error("out of memory on %s %s", request.method, request.url.path)
        return _error(503, "the server is out of memory for this request; nothing was "
                           "changed: try again later, or with the default AIs",
                      headers={"Retry-After": "60"})

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/static/{name}")
    async def static(name: str) -> FileResponse:
        path = STATIC / name
        if name not in STATIC_FILES or not path.is_file():
            raise HTTPProblem(404, f"no file {name!r}")
        return FileResponse(path, media_type=STATIC_FILES[name])

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        # The page links its icon; browsers and tools that ask for the classic name get it too.
        return FileResponse(STATIC / "icon.svg", media_type=STATIC_FILES["icon.svg"],
                            headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "roles": list(ROLES), "editions": list(EDITION_NAMES), "decks": list(DECKS),
            "clue_rules": list(CLUE_RULE_NAMES), "strengths": list(STRENGTHS),
            "guess_limits": list(GUESS_LIMIT_NAMES),
            # How well the opposing (blue) team plays; only the roles listed have one.
            "levels": [{"name": team.level.value, "description": team.description}
                       for team in LEVELS.values()],
            "level_roles": list(LEVEL_ROLES),
            # Only agents this install can build (an extra's model may not be built).
            # Only the AIs this server offers (``codenames serve --agents``).
            "spymasters": list(offer.spymasters), "guessers": list(offer.guessers),
            "defaults": {**GameConfig().to_dict(), "seed": None},
        }

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> dict[str, Any]:
        data = await _json(request)
        if isinstance(data, dict) and data.get("seed") is None:
            data = {**data, "seed": fresh_seed()}  # no seed: a fresh secret deal
        elif isinstance(data, dict) and data.get("role", "guess") != "watch":
            raise HTTPProblem(400, "a seed can be chosen only to watch an AI-only game "
                                   "(role 'watch'): anyone can compute the key a known seed "
                                   "deals, so a game with a person gets a secret seed, shown "
                                   "when it is over; leave the seed out")
        try:
            config = GameConfig.from_dict(data)
            offer.check(config)
        except ConfigError as exc:
            raise HTTPProblem(400, str(exc)) from None
        if config.variant != "standard":
            raise HTTPProblem(400, "variant is a room's setting (POST /api/rooms); a game alone "
                                   "plays co-op with the role 'coop'")

        watching = config.role == "watch"
        client = ("watch " if watching else "play ") + client_key(
            request.client.host if request.client else None)

        def start() -> dict[str, Any]:
            most = limits.client_watch_games if watching else limits.client_games
            if not started.admit(client, most):
                kind = "games to watch" if watching else "games"
                raise HTTPProblem(429, f"you started {most} {kind} in the last "
                                       f"{_span(limits.game_idle)}, this server's most for "
                                       "one client; go on with one of them, or try again "
                                       "later")
            try:
                return make()
            except BaseException:  # nothing was made: it does not count
                started.withdraw(client)
                raise

        def make() -> dict[str, Any]:
            swept = store.sweep(idle=limits.idle, solo_idle=limits.game_idle)
            app.state.rooms.forget_versions(swept.changed)
            if watching:  # the idlest watched games make room: watching locks no one out
                for game_id in store.drop_idlest("watch", keep=limits.watch_games - 1):
                    games.forget(game_id)
            elif swept.games - store.solo_count("watch") >= limits.games:
                raise HTTPProblem(503, f"this server has its most games under way "
                                       f"({limits.games}); try again later")
            try:
                game = WebGame(config)
                moves = game.ai_moves() if not watching else []
            except CodenamesError as exc:
                raise HTTPProblem(400, str(exc)) from None
            game_id = store.create(config.to_dict(), moves)
            game.game_id = game_id
            games.put(game_id, game)
            return {"id": game_id, "view": game.view()}

        return await run_in_threadpool(start)

    @app.get("/api/games/{game_id}")
    async def show(game_id: str) -> dict[str, Any]:
        def read() -> dict[str, Any]:
            with games.locked(game_id):
                return games.get(game_id).view()
        return await run_in_threadpool(read)

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        data = await _json(request)
        if not isinstance(data, dict):
            raise HTTPProblem(400, "a move must be a JSON object")

        def play() -> dict[str, Any]:
            with games.changing(game_id) as game:
                stale = check_expect(game, data)
                if stale:
                    raise HTTPProblem(409, f"{stale}; reload it")
                first = len(game.moves)
                try:
                    if data.get("move") == "step":
                        if game.person is not None:
                            raise IllegalActionError("'step' is for watching AI-only games")
                        made = game.ai_moves(limit=1)
                    else:
                        made = [game.person_move(data)]
                        made += game.ai_moves()
                except IllegalActionError as exc:
                    raise HTTPProblem(409, str(exc)) from None
                try:  # on any failure `changing` drops the game: it is rebuilt from the store
                    store.append(game_id, first, made)
                except MoveConflict as exc:
                    raise HTTPProblem(409, f"{exc}; reload the page") from None
                return game.view()

        return await run_in_threadpool(play)

    @app.post("/api/games/{game_id}/check")
    async def check(game_id: str, request: Request) -> dict[str, Any]:
        data = await _json(request)
        if not isinstance(data, dict):
            raise HTTPProblem(400, "send {\"word\": ...}")

        def run() -> dict[str, Any]:
            with games.locked(game_id):
                return games.get(game_id).check_clue(data.get("word"))
        return await run_in_threadpool(run)

    @app.get("/room/{room_id}", include_in_schema=False)
    async def room_page(room_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    from .roomsapi import add_room_routes  # it builds on this module's Games and errors
    add_room_routes(app, store, fresh_seed=fresh_seed, limits=limits)
    return app


class Guard:
    """ASGI middleware in front of every route: security headers on every response, the
    body read while it arrives and refused with 413 past ``MAX_BODY`` (a chunked upload
    is never read whole), and POSTs only as JSON (415 otherwise: a cross-origin form or
    ``text/plain`` POST, which a browser sends without asking, is refused). A body must
    arrive whole within the intake's seconds (408 otherwise), and one still arriving when
    the server stops gets 503 (``intake``); both close the connection."""

    def __init__(self, app: ASGIApp, *, intake: Intake) -> None:
        self.app = app
        self.intake = intake

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                extra = dict(SECURITY_HEADERS)
                if api:
                    extra["cache-control"] = "no-store"
                headers += [(k.encode(), v.encode()) for k, v in extra.items()
                            if k.encode() not in present]
                message = {**message, "headers": headers}
            await send(message)

        async def refuse(status: int, text: str) -> None:
            await _error(status, text)(scope, receive, send_with_headers)

        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                await refuse(415, "send the request body as JSON, with the header "
                                  "Content-Type: application/json")
                return
        length = headers.get("content-length")
        too_big = f"the request body is over {MAX_BODY} bytes"
        if length is not None and not (length.isdigit() and len(length) <= 12
                                       and int(length) <= MAX_BODY):
            await refuse(413 if length.isdigit() else 400,
                         too_big if length.isdigit() else "bad Content-Length header")
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.intake.seconds
        while True:
            message = await self.intake.receive(receive, deadline)
            if message is None:  # the client stopped sending, or the server is stopping
                stopping = self.intake.stopped
                await _error(503 if stopping else 408,
                             "the server is stopping: send the request again once it is back"
                             if stopping else f"the request body did not arrive within "
                             f"{self.intake.seconds:g} seconds",
                             headers={"Connection": "close"})(scope, receive, send_with_headers)
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > MAX_BODY:
                await refuse(413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        try:
            await self.app(scope, replay, send_with_headers)
        except Exception:
            log.exception("internal error on %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await refuse(500, "internal error: the server's log has the details")
            raise


def check_expect(game: WebGame, data: dict[str, Any]) -> str | None:
    """Why a move's ``expect`` says its page is stale (the caller answers 409), or None;
    ``HTTPProblem`` 400 if the move has no ``expect`` or a malformed one."""
    try:
        return game.stale(data.get("expect"))
    except ValueError as exc:
        raise HTTPProblem(400, str(exc)) from None


def _span(seconds: float) -> str:
    """A length of time in words: '24 hours', '30 minutes', '5 seconds'."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return f"{seconds / size:g} {unit}{'' if seconds == size else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


async def _json(request: Request) -> Any:
    return parse_json(await request.body())


def parse_json(body: bytes) -> Any:
    """A request body as JSON, or ``HTTPProblem`` 400 saying what is wrong with it: not UTF-8,
    not JSON, nested deeper than ``MAX_DEPTH``, a number longer than ``MAX_DIGITS``
    characters, ``NaN``/``Infinity``, or a string that is not valid Unicode."""
    try:
        return load_limited(body, max_depth=MAX_DEPTH, max_number=MAX_DIGITS)
    except JSONRefused as exc:
        raise HTTPProblem(400, f"the request body {exc}") from None


def _error(status: int, message: str, *, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)
