"""``codenames serve``: the web app, on this machine or a network."""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import ConfigError
from .language import prepare_language_data
from .plugins import Plugins, load_plugins


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (default: this machine "
                                           "only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path | None, typer.Option(
        help="SQLite file for the games (default: in the user data folder).")] = None,
    agents: Annotated[str, typer.Option(
        help="The AIs clients may choose: all (every agent this install can build), default "
             "(the default AIs and the levels' AIs only, the smallest memory), or registry "
             "ids separated by commas, offered beside those.")] = "all",
    allowed_host: Annotated[list[str] | None, typer.Option(
        help="A name this server is reached by besides localhost and its IP addresses (a "
             "reverse proxy's public name, or this machine's name on the network); may be "
             "given more than once. Requests for any other name are refused, so that a page "
             "of another site cannot point its name here (DNS rebinding).")] = None,
    plugin: Plugins = None,
) -> None:
    """Play in the browser: a local web app with the AI spymaster and AI team-mates."""
    import platformdirs

    from ..web import serving
    from ..web.app import create_app
    from ..web.games import Offer
    from ..web.store import StoreDamaged, StoreError, StoreInUse

    # The agents, the port and the database are checked before anything says the server
    # started, the database last so that a refused start creates no database file.
    load_plugins(plugin)
    prepare_language_data()  # people type clues and decks: checked without the packages' tables
    offer = Offer.parse(agents)
    if not 0 <= port <= 65535:
        raise ConfigError(f"port {port} is not a port number (0 to 65535); choose one with "
                          "--port")
    listener = _listener(host, port)
    database = db or Path(platformdirs.user_data_dir("codenames-ai")) / "web-games.sqlite3"
    try:
        # the name the server listens on (an address is served anyway) and those given
        application = create_app(database, offer=offer, hosts=[host, *(allowed_host or [])])
    except (StoreInUse, StoreDamaged) as exc:  # each says what to do
        listener.close()
        raise ConfigError(str(exc)) from None
    except StoreError as exc:
        listener.close()
        raise ConfigError(f"{exc}; give --db a games file made by codenames serve, or a new "
                          "file name in a folder you can write") from None
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"codenames-ai web app on http://{shown}:{port}/  (games kept in {database}; "
               "Ctrl-C stops it)")

    serving.run(application, listener, say=lambda text: typer.echo(text, err=True))


def _listener(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port``, or one line that says why not and what to
    choose instead."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is already in use (another server?); "
                              "stop it or choose another port with --port") from None
        raise ConfigError(f"cannot listen on {host} port {port} ({exc.strerror or exc}); "
                          "choose another address with --host or port with --port") from None
    return listener
