"""docs/web-api.md documents the web API (FastAPI's /docs would load its script from a CDN,
which an offline server cannot reach): every route of the app has its section, and every
section is a route of the app."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.routing import APIRoute

from codenames_ai.web.app import create_app, routers

DOC = Path(__file__).parents[2] / "docs" / "web-api.md"


def documented() -> set[tuple[str, str]]:
    return {(method, path) for method, path in
            re.findall(r"^### (GET|POST|PUT|PATCH|DELETE) (\S+)$", DOC.read_text(), re.M)}


def served(tmp_path: Path) -> set[tuple[str, str]]:
    app = create_app(tmp_path / "games.sqlite3")
    routes = {(method, route.path) for router in routers() for route in router.routes
              if isinstance(route, APIRoute) for method in route.methods}
    # a route added to the app itself, outside the routers, would be missed
    assert {(method, route.path) for route in app.routes if isinstance(route, APIRoute)
            for method in route.methods} <= routes
    return routes


def test_every_route_is_documented_and_every_documented_route_is_served(tmp_path: Path
                                                                        ) -> None:
    routes = served(tmp_path)
    assert len(routes) > 15  # the page, the games alone and the rooms
    assert routes - documented() == set(), "routes missing from docs/web-api.md"
    assert documented() - routes == set(), "docs/web-api.md documents routes the app lacks"


def test_fastapis_own_docs_which_need_a_cdn_stay_off(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3")
    assert app.docs_url is None and app.redoc_url is None
    assert app.openapi_url == "/openapi.json"  # the schema itself is served
