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

from fastapi import APIRouter

from ..agents.levels import LEVELS
from ..core import CodenamesError, ConfigError, IllegalActionError
from ..core.choices import CLUE_RULE_NAMES, EDITION_NAMES, GUESS_LIMIT_NAMES
from .games import DECKS, LEVEL_ROLES, ROLES, STRENGTHS, GameConfig, WebGame
from .http import (
    ClientDep,
    HTTPProblem,
    LimitedRoute,
    Server,
    ServerDep,
    answers,
    check_expect,
    span,
)
from .roomsapi import Rooms, RoomsDep
from .schema import ClueCheck, GameView, MoveBody, NewGameAnswer, Options, SoloSettings, WordBody
from .store import MoveConflict, StoreFull

router = APIRouter(route_class=LimitedRoute, tags=["Games alone"])


@router.get("/api/options", **answers(Options))
async def options(server: ServerDep) -> dict[str, Any]:  # async: built in memory, no thread
    """The choices of a new game: `roles`, `editions`, `decks`, `clue_rules`, `strengths`,
    `guess_limits`, `levels` (`name`, `description`), `level_roles`, the `spymasters` and
    `guessers` this server offers (`codenames serve --agents`), and `defaults`."""
    offer = server.offer
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


@router.post("/api/games", **answers(
    NewGameAnswer, 201,
    _400="a bad, unknown or unoffered setting, or a seed with a person",
    _429="past a client's most games in the idle window",
    _503="with the server's most games under way"))
def new_game(settings: SoloSettings, server: ServerDep, rooms: RoomsDep, client: ClientDep
             ) -> dict[str, Any]:
    """A new game from its settings (each optional). `guesser` `""`, the default, is by
    who gives the clues (`people-guesser-v2` beside a person's clues and beside the AI
    spymaster alike, since both read through one people model); `seed` only with role
    `watch`: a game with a person gets a secret seed. Answers `{"id", "view"}`."""
    config = game_config(settings.given(), server)
    watching = config.role == "watch"
    limits = server.limits
    most = limits.client_watch_games if watching else limits.client_games
    with server.started.counted(("watch " if watching else "play ") + client,
                                most) as admitted:
        if not admitted:
            kind = "games to watch" if watching else "games"
            raise HTTPProblem(429, f"you started {most} {kind} in the last "
                                   f"{span(limits.game_idle)}, this server's most for one "
                                   "client; go on with one of them, or try again later")
        return make_game(server, rooms, config)


def game_config(data: dict[str, Any], server: Server) -> GameConfig:
    """The settings of a new game alone (as ``SoloSettings`` read them), with a fresh secret
    seed unless it is watched (``HTTPProblem`` 400 says what is wrong)."""
    if data.get("seed") is None:
        data = {**data, "seed": server.fresh_seed()}  # no seed: a fresh secret deal
    elif data.get("role", "guess") != "watch":
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


def make_game(server: Server, rooms: Rooms, config: GameConfig) -> dict[str, Any]:
    """Deal and store a new game (the AIs move first where it is theirs to start), after the
    idle ones are swept (their rooms' streams woken) and, to watch, the idlest watched ones
    make room."""
    store, limits, watching = server.store, server.limits, config.role == "watch"
    swept = store.sweep(idle=limits.idle, solo_idle=limits.game_idle)
    rooms.changed(swept.changed)
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


@router.get("/api/games/{game_id}", **answers(
    GameView, _404="an unknown game, or one ended idle", _410="a stored game this version "
                                                             "cannot replay"))
def show(game_id: str, server: ServerDep) -> dict[str, Any]:
    """The game as this client may see it."""
    games = server.games
    with games.locked(game_id):
        return shown(games.get(game_id))


@router.post("/api/games/{game_id}/moves", **answers(
    GameView,
    _400="without `expect`, or a body that is not a move (an unknown field, a field of the "
         "wrong type)",
    _404="an unknown game",
    _409="a stale `expect`, an illegal move (the reason, e.g. `[board-word] ...`), `step` in "
         "a game with a person or in a game that is over"))
def move(game_id: str, sent: MoveBody, server: ServerDep) -> dict[str, Any]:
    """A move (above) with `expect`. Answers the view after the person's move and the AIs'
    answers (or one AI move for `step`)."""
    data = sent.model_dump(exclude_unset=True)
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


@router.post("/api/games/{game_id}/check", **answers(
    ClueCheck, _400="a body that is not `{\"word\": ...}`", _404="an unknown game"))
def check(game_id: str, sent: WordBody, server: ServerDep) -> dict[str, Any]:
    """Would `word` be a legal clue now? `rule` is the id of the rule it breaks."""
    games = server.games
    with games.locked(game_id):
        return games.get(game_id).check_clue(sent.word)
