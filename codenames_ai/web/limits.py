"""How much a server takes of rooms, games played alone and live connections
(``create_app(limits=...)``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class RoomLimits:
    """``rooms``: rooms per server, open or closed (a closed room is kept to show how it
    ended until a new room needs its place; a new one past the open rooms gets 503);
    ``client_rooms``: how many rooms one client may make in ``idle`` seconds (429 past it),
    so that one client cannot take every room; ``streams``: live
    event connections per server (503) and ``room_streams`` per room (429), of which
    spectators may take half, ``client_streams`` per client and ``token_streams`` per seat
    token (429: a page holds one, so one client cannot take the server's with rooms of its
    own); ``room_people``:
    people who may sit down through a room's link (409 past it); ``idle``:
    seconds without a change after which a room is closed; ``heartbeat``: seconds between
    the comments that keep an idle event stream open through proxies; ``stream_seconds``:
    how long one event connection lasts before the browser reconnects (resuming from its
    last event), short because a server being stopped (Ctrl-C) waits for the open
    responses to end (a stream waits for its room's changes, and reads its version again at
    each heartbeat, which an idle room's closing moves).
    ``games``: games played alone (``/api/games``) with a person in them that a server keeps
    (a new one past it gets 503); ``client_games``: how many of those one client may start
    in ``game_idle`` seconds (429 past it), so that one client cannot fill the server;
    ``watch_games``: games of AIs only (role ``watch``) a server keeps, apart from the
    others: a new one past it deletes the one that moved least recently, so watching never
    locks anyone out of playing; ``client_watch_games``: how many of those one client may
    start in ``game_idle`` seconds (429), so that one client cannot churn everyone else's;
    ``game_idle``: seconds without a move after which a game played alone ends and is
    deleted. All are counted, like rooms, when a new game is made. A client is its network
    address (an IPv6 one by its /64, what one home or host is given)."""

    rooms: int = 200
    client_rooms: int = 40
    streams: int = 400
    room_streams: int = 32
    client_streams: int = 40  # a tenth of the server's
    token_streams: int = 8
    room_people: int = 32
    idle: float = 24 * 3600.0
    heartbeat: float = 15.0
    stream_seconds: float = 10.0
    games: int = 1000
    client_games: int = 50
    watch_games: int = 200
    client_watch_games: int = 20
    game_idle: float = 24 * 3600.0
