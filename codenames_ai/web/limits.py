"""How much a server takes of rooms, games played alone and live connections
(``create_app(limits=...)``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class RoomLimits:
    """``rooms``: rooms per server, open or closed (a closed room is kept to show how it
    ended until a new room needs its place; a new one past the open rooms gets 503);
    ``streams``: live
    event connections per server (503) and ``room_streams`` per room (429), of which
    spectators may take half; ``room_people``:
    people who may sit down through a room's link (409 past it); ``idle``:
    seconds without a change after which a room is closed; ``heartbeat``: seconds between
    the comments that keep an idle event stream open through proxies; ``stream_seconds``:
    how long one event connection lasts before the browser reconnects (resuming from its
    last event), short because a server being stopped (Ctrl-C) waits for the open
    responses to end; ``poll``: seconds between a stream's looks at its room's version.
    ``games``: games played alone (``/api/games``) a server keeps (a new one past it gets
    503); ``game_idle``: seconds without a move after which such a game ends and is
    deleted. Both are counted, like rooms, when a new one is made."""

    rooms: int = 200
    streams: int = 400
    room_streams: int = 32
    room_people: int = 32
    idle: float = 24 * 3600.0
    heartbeat: float = 15.0
    stream_seconds: float = 10.0
    poll: float = 0.25
    games: int = 1000
    game_idle: float = 24 * 3600.0
