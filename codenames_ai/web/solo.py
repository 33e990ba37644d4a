"""The games played alone (or watched): their routes, as the app's ``APIRouter``.

    GET  /api/options             roles, editions, decks, rules, strengths, levels, agents
    POST /api/games               new game from settings -> {"id", "view"}
    GET  /api/games/{id}          the game as this client may see it
    POST /api/games/{id}/moves    {"move": clue|guess|pass|cover|step, ..., "expect": {...}}
    POST /api/games/{id}/check    {"word"}: is this clue legal now, and if not, which rule

``app`` says what every route shares (errors, ``expect``, hidden information).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from ..agents.levels import LEVELS
from ..core import CodenamesError, ConfigError, IllegalActionError
from ..core.choices import CLUE_RULE_NAMES, EDITION_NAMES, GUESS_LIMIT_NAMES
from .clients import client_key
from .games import DECKS, LEVEL_ROLES, ROLES, STRENGTHS, GameConfig, WebGame
from .http import (
    MOVE_FIELDS,
    HTTPProblem,
    Server,
    check_expect,
    json_body,
    refuse_unknown,
    server_of,
    span,
)
from .roomsapi import rooms_of
from .store import MoveConflict, StoreFull

router = APIRouter()


@router.get("/api/options")
async def options(request: Request) -> dict[str, Any]:
    offer = server_of(request).offer
    return {
        "roles": list(ROLES), "editions": list(EDITION_NAMES), "decks": list(DECKS),
        "clue_rules": list(CLUE_RULE_NAMES), "strengths": list(STRENGTHS),
        "guess_limits": list(GUESS_LIMIT_NAMES),
        # How well the opposing (blue) team plays; only the roles listed have one.
        "levels": [{"name": team.level.value, "description": team.description}
                   for team in LEVELS.values()],
        "level_roles": list(LEVEL_ROLES),
        # Only the AIs this server offers (``codenames serve --agents``) and can build.
        "spymasters": list(offer.spymasters), "guessers": list(offer.guessers),
        "defaults": {**GameConfig().to_dict(), "seed": None},
    }


@router.post("/api/games", status_code=201)
async def new_game(request: Request) -> dict[str, Any]:
    server = server_of(request)
    config = game_config(await json_body(request), server)
    watching = config.role == "watch"
    client = ("watch " if watching else "play ") + client_key(
        request.client.host if request.client else None)

    def start() -> dict[str, Any]:
        limits = server.limits
        most = limits.client_watch_games if watching else limits.client_games
        with server.started.counted(client, most) as admitted:
            if not admitted:
                kind = "games to watch" if watching else "games"
                raise HTTPProblem(429, f"you started {most} {kind} in the last "
                                       f"{span(limits.game_idle)}, this server's most for one "
                                       "client; go on with one of them, or try again later")
            return make_game(request, config)

    return await run_in_threadpool(start)


def game_config(data: Any, server: Server) -> GameConfig:
    """The settings of a new game alone, with a fresh secret seed unless it is watched
    (``HTTPProblem`` 400 says what is wrong)."""
    if isinstance(data, dict) and data.get("seed") is None:
        data = {**data, "seed": server.fresh_seed()}  # no seed: a fresh secret deal
    elif isinstance(data, dict) and data.get("role", "guess") != "watch":
        raise HTTPProblem(400, "a seed can be chosen only to watch an AI-only game "
                               "(role 'watch'): anyone can compute the key a known seed "
                               "deals, so a game with a person gets a secret seed, shown "
                               "when it is over; leave the seed out")
    try:
        config = GameConfig.from_dict(data)
        server.offer.check(config)
    except ConfigError as exc:
        raise HTTPProblem(400, str(exc)) from None
    if config.variant != "standard":
        raise HTTPProblem(400, "variant is a room's setting (POST /api/rooms); a game alone "
                               "plays co-op with the role 'coop'")
    return config


def make_game(request: Request, config: GameConfig) -> dict[str, Any]:
    """Deal and store a new game (the AIs move first where it is theirs to start), after the
    idle ones are swept and, to watch, the idlest watched ones make room."""
    server = server_of(request)
    store, limits, watching = server.store, server.limits, config.role == "watch"
    swept = store.sweep(idle=limits.idle, solo_idle=limits.game_idle)
    rooms_of(request).changed(swept.changed)
    full = HTTPProblem(503, f"this server has its most games under way ({limits.games}); "
                            "try again later")
    if not watching and swept.games - store.solo_count("watch") >= limits.games:
        raise full
    try:
        game = WebGame.solo(config)
        moves = game.ai_moves() if not watching else []
    except CodenamesError as exc:
        raise HTTPProblem(400, str(exc)) from None
    # The caps are counted again as the game is stored, in one transaction: games made
    # meanwhile may have filled the server. The idlest watched games make room for one to
    # watch: watching locks no one out.
    if watching:
        game_id, gone = store.create_watched(config.to_dict(), moves, most=limits.watch_games)
        for idlest in gone:
            server.games.forget(idlest)
    else:
        try:
            game_id = store.create(config.to_dict(), moves, most=limits.games)
        except StoreFull:
            raise full from None
    game.game_id = game_id
    server.games.put(game_id, game)
    return {"id": game_id, "view": shown(game)}


@router.get("/api/games/{game_id}")
async def show(game_id: str, request: Request) -> dict[str, Any]:
    games = server_of(request).games

    def read() -> dict[str, Any]:
        with games.locked(game_id):
            return shown(games.get(game_id))
    return await run_in_threadpool(read)


@router.post("/api/games/{game_id}/moves")
async def move(game_id: str, request: Request) -> dict[str, Any]:
    data = await json_body(request)
    if not isinstance(data, dict):
        raise HTTPProblem(400, "a move must be a JSON object")
    refuse_unknown(data, MOVE_FIELDS, "the move and its fields")
    server = server_of(request)

    def play() -> dict[str, Any]:
        with server.games.changing(game_id) as game:
            stale = check_expect(game, data)
            if stale:
                raise HTTPProblem(409, f"{stale}; reload it")
            first = len(game.moves)
            made = played(game, data)
            try:  # on any failure `changing` drops the game: it is rebuilt from the store
                server.store.append(game_id, first, made)
            except MoveConflict as exc:
                raise HTTPProblem(409, f"{exc}; reload the page") from None
            return shown(game)

    return await run_in_threadpool(play)


def shown(game: WebGame) -> dict[str, Any]:
    """The game as the person playing it sees it (when watching, as a spectator)."""
    return game.view(game.person_seat)


def played(game: WebGame, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Play a person's move and the AIs' answers, or one AI move of a watched game ("step");
    409 says why a move cannot be played."""
    try:
        if data.get("move") == "step":
            if game.seats:
                raise IllegalActionError("'step' is for watching AI-only games")
            if game.state.is_over:
                raise IllegalActionError("the game is over")
            return game.ai_moves(limit=1)
        return [game.person_move(data), *game.ai_moves()]
    except IllegalActionError as exc:
        raise HTTPProblem(409, str(exc)) from None


@router.post("/api/games/{game_id}/check")
async def check(game_id: str, request: Request) -> dict[str, Any]:
    data = await json_body(request)
    if not isinstance(data, dict):
        raise HTTPProblem(400, "send {\"word\": ...}")
    games = server_of(request).games

    def run() -> dict[str, Any]:
        with games.locked(game_id):
            return games.get(game_id).check_clue(data.get("word"))
    return await run_in_threadpool(run)
