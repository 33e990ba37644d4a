"""``codenames serve``: the web app (FastAPI on uvicorn) with one page and a JSON API.

    GET  /                        the page (also /game/{id}: the same page, opened on a game)
    GET  /static/{file}           its script, style sheet and icon (also at /favicon.ico)
    GET  /api/options             roles, editions, decks, rules, strengths, levels, agents
    POST /api/games               new game from settings -> {"id", "view"}
    GET  /api/games/{id}          the game as this client may see it
    POST /api/games/{id}/moves    {"move": clue|guess|pass|cover|step, ..., "expect": {...}}
    POST /api/games/{id}/check    {"word"}: is this clue legal now, and if not, which rule
    GET  /room/{id}               the same page, opened on a room (``roomsapi``: its API)

The games alone's routes are the ``solo`` router, the rooms' the ``roomsapi`` router, and the
page's the ``pages`` router below; ``http`` holds what they share (``HTTPProblem``, ``Games``,
``Server``), so no router imports this module. Every body and answer of the API is a model of
``schema``: the app serves them as ``/openapi.json``, and docs/web-api.md is written from that
(``apidoc``). FastAPI's own /docs page loads its script from a CDN, so it stays off.

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
response carries the security headers. Against DNS rebinding (a page of evil.example whose
name the attacker points at 127.0.0.1, which the browser then lets read and write this
server as its own origin), a request is served only for a ``Host`` the server is reached by
(400 otherwise), and a POST from a browser page only from the server's own origin (403).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..core import secret_seed
from ..core.errors import quoted
from . import roomsapi, solo
from .clients import Started
from .games import Offer
from .http import MAX_DEPTH, MAX_DIGITS, Games, HTTPProblem, Server, error
from .intake import BODY_SECONDS, Intake
from .limits import RoomLimits
from .roomsapi import Rooms
from .schema import API_VERSION, CORE_ENUMS, DESCRIPTION, OPENAPI_URL, TAGS, TITLE, Problem, refusal
from .store import BUSY_TIMEOUT, GameStore, StoreError, StoreGone

__all__ = ["MAX_BODY", "MAX_DEPTH", "MAX_DIGITS", "Guard", "create_app", "routers"]

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"app.js": "text/javascript", "rooms.js": "text/javascript",
                "style.css": "text/css", "icon.svg": "image/svg+xml"}
MAX_BODY = 16 * 1024  # bytes; a move or a game's settings are far smaller

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


def create_app(database: Path, *, timeout: float = BUSY_TIMEOUT,
               new_seed: Callable[[], int] | None = None,
               limits: RoomLimits | None = None,
               body_seconds: float = BODY_SECONDS,
               clock: Callable[[], float] = time.time,
               offer: Offer | None = None,
               hosts: Collection[str] | None = None) -> FastAPI:
    """The app over the games in ``database`` (``StoreError`` if it is not a games file).
    ``timeout``: seconds a write waits for a lock held by another connection before the
    request gets 503. ``new_seed``: where fresh deals come from (default: 128 secret bits).
    ``limits``: how many rooms, games played alone and live connections the server takes,
    and how long they last idle. ``clock``: the time stored games are active at and expire
    by (seconds).
    ``body_seconds``: how long a request body may take to arrive (``intake``).
    ``offer``: the AIs clients may choose (default: every agent this install can build).
    ``hosts``: the names a request's ``Host`` may give besides ``localhost`` and an IP
    address (``codenames serve`` passes its ``--host`` and ``--allowed-host`` names); None
    checks no ``Host`` (the test client's ``testserver``). A POST from a browser page is
    refused from any other origin either way."""
    limits = limits or RoomLimits()
    store = GameStore(database, timeout=timeout, clock=clock)  # held until the app shuts down

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()  # another server may open the database now

    # redirect_slashes off: a target without its leading slash was redirected to the
    # client's own Host header (307 to http://evil.example/); it is a JSON 404 like any path.
    app = FastAPI(title=TITLE, description=DESCRIPTION, version=API_VERSION, docs_url=None,
                  redoc_url=None, openapi_url=OPENAPI_URL, openapi_tags=TAGS,
                  lifespan=lifespan, redirect_slashes=False)
    # What each client started lately. Watched games are evicted, so more are started than
    # kept: ten times what the server keeps (12,000 short entries by default) bounds memory.
    started = Started(window=limits.game_idle, size=10 * (limits.games + limits.watch_games),
                      clock=clock)
    server = Server(store=store, games=Games(store, limits=limits), limits=limits,
                    offer=offer or Offer.parse("all"), fresh_seed=new_seed or secret_seed,
                    started=started)
    app.state.server = server
    app.state.store, app.state.games, app.state.offer = store, server.games, server.offer
    app.state.rooms = Rooms(store, limits=limits, started=Started(
        window=limits.idle, size=10 * limits.rooms, clock=clock))
    app.state.intake = Intake(seconds=body_seconds)
    # localhost and addresses are served anyway; a name given is also an origin's (a proxy's)
    names = None if hosts is None else frozenset(
        n for n in map(_name, hosts) if not _served(n, frozenset()))
    app.add_middleware(Guard, intake=app.state.intake, hosts=names)
    add_error_handlers(app)
    for router in routers():
        app.include_router(router)
    app.openapi = lambda: contract(app)  # type: ignore[method-assign]
    return app


def contract(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI schema, as it answers: a body or query its model refuses gets 400
    (``add_error_handlers``), never FastAPI's 422, whose answer and models are left out; the
    core's enums are described for a client (``CORE_ENUMS``)."""
    if app.openapi_schema is None:
        schema = FastAPI.openapi(app)
        for item in schema["paths"].values():
            for operation in item.values():
                refused = operation.get("responses", {}).pop("422", None)
                read = "requestBody" in operation or any(
                    p["in"] != "path" for p in operation.get("parameters", ()))
                if refused is not None and read and "400" not in operation["responses"]:
                    operation["responses"]["400"] = {
                        "description": "a body or query its model refuses",
                        "content": {"application/json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}}}}
        models = schema.get("components", {}).get("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            models.pop(name, None)
        for name, model in models.items():
            if name in CORE_ENUMS:
                model["description"] = CORE_ENUMS[name]
        app.openapi_schema = schema
    return app.openapi_schema


def routers() -> tuple[APIRouter, ...]:
    """Every route of the app, as its routers (docs/web-api.md documents them)."""
    return pages, solo.router, roomsapi.router


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal as a JSON body ``{"error": ...}`` with its status."""

    @app.exception_handler(HTTPProblem)
    async def problem(request: Request, exc: HTTPProblem) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # A body (or query) the route's model refuses: 400 in one line naming the field,
        # not FastAPI's 422 list.
        route = request.scope.get("route")
        field = route.body_field if isinstance(route, APIRoute) else None
        return error(400, refusal(exc.errors(), field.field_info.annotation if field else None))

    @app.exception_handler(StarletteHTTPException)
    async def routing(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # An unknown path or method: the same {"error": ...} body as every other refusal.
        # The path is the client's text, quoted cut short like any other.
        return error(exc.status_code, f"{request.method} {quoted(request.url.path)}: "
                                      f"{exc.detail}")

    @app.exception_handler(StoreError)
    async def unavailable(request: Request, exc: StoreError) -> JSONResponse:
        retry = "" if isinstance(exc, StoreGone) else ": try again in a moment"
        return error(503, f"{exc}; nothing was changed{retry}")

    @app.exception_handler(MemoryError)
    async def out_of_memory(request: Request, exc: MemoryError) -> JSONResponse:
        # What a request was building is dropped with it; the server goes on.
        log.error("out of memory on %s %s", request.method, request.url.path)
        return error(503, "the server is out of memory for this request; nothing was "
                          "changed: try again later, or with the default AIs",
                     headers={"Retry-After": "60"})


# The page, opened on nothing, a game or a room, and its files.
pages = APIRouter(tags=["The page"])
PAGE: dict[int | str, dict[str, Any]] = {200: {"content": {"text/html": {}},
                                               "description": "the page"}}
ICON: dict[int | str, dict[str, Any]] = {200: {"content": {"image/svg+xml": {}},
                                               "description": "the icon"}}
STATIC_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"description": "the file"},
    404: {"model": Problem, "description": "any other name"}}


@pages.get("/", response_class=FileResponse, responses=PAGE)
async def page() -> FileResponse:
    """The page (HTML)."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


@pages.get("/game/{game_id}", response_class=FileResponse, responses=PAGE)
async def game_page(game_id: str) -> FileResponse:
    """The same page, opened on a game."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


@pages.get("/room/{room_id}", response_class=FileResponse, responses=PAGE)
async def room_page(room_id: str) -> FileResponse:
    """The same page, opened on a room."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


@pages.get("/static/{name}", response_class=FileResponse, responses=STATIC_ANSWERS)
async def static(name: str) -> FileResponse:
    """The page's files: `app.js`, `rooms.js`, `style.css`, `icon.svg`."""
    path = STATIC / name
    if name not in STATIC_FILES or not path.is_file():
        raise HTTPProblem(404, f"no file {quoted(name)}")
    return FileResponse(path, media_type=STATIC_FILES[name])


@pages.get("/favicon.ico", response_class=FileResponse, responses=ICON)
async def favicon() -> FileResponse:
    """The page's icon (SVG)."""
    # The page links its icon; browsers and tools that ask for the classic name get it too.
    return FileResponse(STATIC / "icon.svg", media_type=STATIC_FILES["icon.svg"],
                        headers={"Cache-Control": "max-age=86400"})


class Guard:
    """ASGI middleware in front of every route: security headers on every response, the
    body read while it arrives and refused with 413 past ``MAX_BODY`` (a chunked upload
    is never read whole), and POSTs only as JSON (415 otherwise: a cross-origin form or
    ``text/plain`` POST, which a browser sends without asking, is refused). A body must
    arrive whole within the intake's seconds (408 otherwise), and one still arriving when
    the server stops gets 503 (``intake``); both close the connection."""

    def __init__(self, app: ASGIApp, *, intake: Intake, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.intake = intake
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reply = _Reply(scope, receive, send)
        refused = _refusal(scope, self.hosts)
        if refused is not None:
            await reply.error(*refused)
            return
        body = await self._body(receive, reply)
        if body is None:
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        try:
            await self.app(scope, replay, reply.send)
        except asyncio.CancelledError:
            # The server stopped before the answer was ready (its responses' wait was over):
            # the client is told so in JSON, not by uvicorn's plain-text 500.
            if not reply.started:
                await reply.error(503, CUT_SHORT, headers={"Connection": "close"})
            raise
        except Exception:
            log.exception("internal error on %s %s", scope.get("method"), scope.get("path"))
            if not reply.started:
                await reply.error(500, "internal error: the server's log has the details")
            raise

    async def _body(self, receive: Receive, reply: _Reply) -> bytes | None:
        """The whole body as it arrives, or None once refused (too big, too slow, the
        server stopping) or the client has gone."""
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.intake.seconds
        while True:
            message = await self.intake.receive(receive, deadline)
            if message is None:  # the client stopped sending, or the server is stopping
                stopping = self.intake.stopped
                await reply.error(503 if stopping else 408,
                                  "the server is stopping: send the request again once it is "
                                  "back" if stopping else f"the request body did not arrive "
                                  f"within {self.intake.seconds:g} seconds",
                                  headers={"Connection": "close"})
                return None
            if message["type"] != "http.request":  # the client went away
                return None
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > MAX_BODY:
                await reply.error(413, TOO_BIG)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


TOO_BIG = f"the request body is over {MAX_BODY} bytes"
CUT_SHORT = ("the server stopped before this request was answered; once it is back, reload "
             "to see whether it was carried out")


def _refusal(scope: Scope, hosts: frozenset[str] | None) -> tuple[int, str] | None:
    """Why the request's headers refuse it before its body is read (a ``Host`` the server
    is not reached by, a POST from another origin or not sent as JSON, a Content-Length past
    ``MAX_BODY`` or not a number), or None."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1")
               for k, v in scope.get("headers", [])}
    host = headers.get("host", "")
    if hosts is not None and not _served(_name(host), hosts):
        return 400, (f"this server is not reached by the name {quoted(host)} (a page of "
                     "another site may have pointed its name here): open it by its address "
                     "or localhost; behind a proxy, give the proxy's name to codenames serve "
                     "--allowed-host")
    origin = headers.get("origin")
    if scope.get("method") == "POST" and origin is not None and not _own_origin(
            origin, host, hosts or frozenset()):
        return 403, (f"a page of another site ({quoted(origin)}) may not change games here: "
                     "play on this server's own page")
    if scope.get("method") == "POST":
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, ("send the request body as JSON, with the header "
                         "Content-Type: application/json")
    length = headers.get("content-length")
    if length is not None and not (length.isdigit() and len(length) <= 12
                                   and int(length) <= MAX_BODY):
        return (413, TOO_BIG) if length.isdigit() else (400, "bad Content-Length header")
    return None


def _name(host: str) -> str:
    """The name or address in a ``Host`` header (or an origin's host part), lower case,
    without its port, brackets or final dot."""
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 address, [::1]:8000; nothing else after the bracket
        address, _, rest = host[1:].partition("]")
        return address if rest == "" or re.fullmatch(r":\d+", rest) else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _served(name: str, hosts: frozenset[str]) -> bool:
    """Whether a request for ``name`` is one for this server: localhost, any IP address (no
    page of another site has an address for its origin, so no rebinding comes by one; the
    port is not checked, so a container's or a proxy's mapped port still works), or a name
    it was given."""
    if name == "localhost" or name in hosts:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _own_origin(origin: str, host: str, hosts: frozenset[str]) -> bool:
    """Whether a browser's ``Origin`` is the server's own: the same host and port as the
    request's ``Host``, or a name it was given (a proxy's public origin)."""
    scheme, _, where = origin.partition("://")
    if scheme not in ("http", "https") or not where:
        return False  # "null": a sandboxed frame, a file, a redirect from elsewhere
    return where.lower() == host.strip().lower() or _name(where) in hosts


class _Reply:
    """The response side of one request: every response gets the security headers (and
    ``no-store`` under /api/); ``started`` says whether one has begun."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope, self.receive, self._send = scope, receive, send
        self.api = str(scope.get("path", "")).startswith("/api/")
        self.started = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            headers = list(message.get("headers", []))
            present = {name.lower() for name, _ in headers}
            extra = dict(SECURITY_HEADERS)
            if self.api:
                extra["cache-control"] = "no-store"
            headers += [(k.encode(), v.encode()) for k, v in extra.items()
                        if k.encode() not in present]
            message = {**message, "headers": headers}
        await self._send(message)

    async def error(self, status: int, text: str, *,
                    headers: dict[str, str] | None = None) -> None:
        await error(status, text, headers=headers)(self.scope, self.receive, self.send)
