"""``codenames serve``: the web app (FastAPI on uvicorn) with one page and a JSON API.

    GET  /                        the page (also /game/{id}: the same page, opened on a game)
    GET  /static/{file}           its script and style sheet
    GET  /api/options             roles, editions, decks, rules, strengths, agents
    POST /api/games               new game from settings -> {"id", "view"}
    GET  /api/games/{id}          the game as this client may see it
    POST /api/games/{id}/moves    {"move": clue|guess|pass|cover|step, ..., "expect": n}
    POST /api/games/{id}/check    {"word"}: is this clue legal now, and if not, which rule

Every error is a 4xx JSON body ``{"error": "..."}``; the game is unchanged by a refused move.
``expect`` is the number of moves the client has seen: a double submit or a stale page gets
409 instead of playing twice.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from ..agents.registry import REGISTRY
from ..core import CodenamesError, ConfigError, IllegalActionError, Role
from .games import CLUE_RULES, DECKS, ROLES, STRENGTHS, GameConfig, WebGame
from .store import GameStore, MoveConflict

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024  # bytes; a move or a game's settings are far smaller
CACHED_GAMES = 64


class HTTPProblem(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Games:
    """Games in memory (recently used) over the store, one lock per game."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: OrderedDict[str, WebGame] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def get(self, game_id: str) -> WebGame:
        game = self._cache.get(game_id)
        if game is None:
            loaded = self.store.load(game_id)
            if loaded is None:
                raise HTTPProblem(404, f"no game {game_id!r} (it may have been made on another "
                                       "server); start a new one")
            config, moves = loaded
            game = WebGame(GameConfig.from_dict(config), moves)
        self._cache[game_id] = game
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)
        return game

    def forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)


def create_app(database: Path) -> FastAPI:
    app = FastAPI(title="codenames-ai", docs_url=None, redoc_url=None, openapi_url=None)
    store = GameStore(database)
    games = Games(store)
    app.state.store = store

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return _error(413, f"the request body is over {MAX_BODY} bytes")
        if request.method == "POST" and len(await request.body()) > MAX_BODY:
            return _error(413, f"the request body is over {MAX_BODY} bytes")
        response: Response = await call_next(request)
        return response

    @app.exception_handler(HTTPProblem)
    async def problem(request: Request, exc: HTTPProblem) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/static/{name}")
    async def static(name: str) -> FileResponse:
        path = STATIC / name
        if name not in {"app.js", "style.css"} or not path.is_file():
            raise HTTPProblem(404, f"no file {name!r}")
        return FileResponse(path)

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "roles": list(ROLES), "editions": ["words", "pictures"], "decks": list(DECKS),
            "clue_rules": list(CLUE_RULES), "strengths": list(STRENGTHS),
            "guess_limits": ["classic", "strict"],
            "spymasters": [s.agent_id for s in REGISTRY.values()
                           if s.role is Role.SPYMASTER and "minilm" not in s.agent_id
                           and "ensemble" not in s.agent_id],
            "guessers": [s.agent_id for s in REGISTRY.values()
                         if s.role is Role.GUESSER and "minilm" not in s.agent_id],
            "defaults": GameConfig().to_dict(),
        }

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> dict[str, Any]:
        data = await _json(request)
        if isinstance(data, dict) and data.get("seed") is None:
            data = {**data, "seed": secrets.randbelow(2**31)}  # no seed: a fresh deal
        try:
            config = GameConfig.from_dict(data)
        except ConfigError as exc:
            raise HTTPProblem(400, str(exc)) from None

        def start() -> dict[str, Any]:
            try:
                game = WebGame(config)
                moves = game.ai_moves() if config.role != "watch" else []
            except CodenamesError as exc:
                raise HTTPProblem(400, str(exc)) from None
            game_id = store.create(config.to_dict())
            store.append(game_id, 0, moves)
            games._cache[game_id] = game
            return {"id": game_id, "view": game.view()}

        return await run_in_threadpool(start)

    @app.get("/api/games/{game_id}")
    async def show(game_id: str) -> dict[str, Any]:
        def read() -> dict[str, Any]:
            with games.lock(game_id):
                return games.get(game_id).view()
        return await run_in_threadpool(read)

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        data = await _json(request)
        if not isinstance(data, dict):
            raise HTTPProblem(400, "a move must be a JSON object")

        def play() -> dict[str, Any]:
            with games.lock(game_id):
                game = games.get(game_id)
                expect = data.get("expect")
                if expect is not None and expect != len(game.moves):
                    raise HTTPProblem(409, f"this page is out of date: the game has "
                                           f"{len(game.moves)} moves, the page saw {expect}; "
                                           "reload it")
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
                    games.forget(game_id)  # rebuilt from the store: nothing half-applied
                    raise HTTPProblem(409, str(exc)) from None
                try:
                    store.append(game_id, first, made)
                except MoveConflict as exc:
                    games.forget(game_id)
                    raise HTTPProblem(409, f"{exc}; reload the page") from None
                return game.view()

        return await run_in_threadpool(play)

    @app.post("/api/games/{game_id}/check")
    async def check(game_id: str, request: Request) -> dict[str, Any]:
        data = await _json(request)
        if not isinstance(data, dict):
            raise HTTPProblem(400, "send {\"word\": ...}")

        def run() -> dict[str, Any]:
            with games.lock(game_id):
                return games.get(game_id).check_clue(data.get("word"))
        return await run_in_threadpool(run)

    return app


async def _json(request: Request) -> Any:
    body = await request.body()
    try:
        return json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HTTPProblem(400, f"the request body is not valid JSON ({exc})") from None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
