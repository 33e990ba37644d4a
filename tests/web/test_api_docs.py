"""The web API's contract: every route is in the schema the app serves (``/openapi.json``),
the schema stays its snapshot (``docs/web-api.openapi.json``), and docs/web-api.md is written
from it (``python -m codenames_ai.web.apidoc --write``), so neither can drift from the app."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from codenames_ai.web import apidoc
from codenames_ai.web.app import create_app, routers
from codenames_ai.web.games import GameConfig
from codenames_ai.web.schema import CORE_ENUMS, RoomSettings, ShownSettings, SoloSettings

DOC = Path(__file__).parents[2] / "docs" / "web-api.md"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return apidoc.openapi()


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


def test_the_schema_is_its_snapshot(schema: dict[str, Any]) -> None:
    assert apidoc.SNAPSHOT.read_text(encoding="utf-8") == apidoc.snapshot(schema), (
        f"the web API's schema moved from docs/web-api.openapi.json: if the change is meant, "
        f"run {apidoc.COMMAND} (it writes docs/web-api.md too), and say so in the commit")


def test_the_api_page_is_written_from_the_schema(schema: dict[str, Any]) -> None:
    assert DOC.read_text(encoding="utf-8") == apidoc.markdown(schema), (
        f"docs/web-api.md is stale: run {apidoc.COMMAND}")


def test_the_check_command_says_what_to_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert apidoc.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_the_schema_is_served_and_fastapis_own_docs_which_need_a_cdn_stay_off(
        tmp_path: Path, schema: dict[str, Any]) -> None:
    app = create_app(tmp_path / "games.sqlite3")
    assert app.docs_url is None and app.redoc_url is None
    with TestClient(app) as client:
        for path in ("/docs", "/redoc"):
            assert client.get(path).status_code == 404
        served_schema = client.get("/openapi.json")
    assert served_schema.status_code == 200
    assert served_schema.headers["x-content-type-options"] == "nosniff"
    assert served_schema.json() == json.loads(apidoc.snapshot(schema))


def test_every_api_route_has_models_and_no_422(schema: dict[str, Any]) -> None:
    """Every /api route names its answer's model (the event stream its media type) and its
    body's; a refused body is a 400 ``Problem``, never FastAPI's 422."""
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            answers = operation["responses"]
            assert "422" not in answers, (method, path)
            if not path.startswith("/api/"):
                continue
            ok = answers.get("200") or answers["201"]
            assert "$ref" in str(ok["content"]) or "text/event-stream" in ok["content"], path
            if method == "post":
                body = operation["requestBody"]["content"]["application/json"]["schema"]
                assert "$ref" in body and "400" in answers, path
    assert "HTTPValidationError" not in schema["components"]["schemas"]


def test_the_settings_models_list_the_games_settings() -> None:
    """The schema's settings are GameConfig's, so the two cannot drift: a game alone's all of
    them, a room's all but role and seed, and the view's the same as the game's."""
    fields = set(GameConfig().to_dict())
    assert set(SoloSettings.model_fields) == fields
    assert set(RoomSettings.model_fields) == fields - {"role", "seed"}
    assert set(ShownSettings.model_fields) == fields
    assert SoloSettings().given() == {}  # nothing given: GameConfig's defaults decide
    defaults = SoloSettings.model_validate({}).model_dump(mode="json", exclude={"seed"})
    assert defaults == {k: v for k, v in GameConfig().to_dict().items() if k != "seed"}


def test_the_settings_choices_are_the_webs(schema: dict[str, Any], tmp_path: Path) -> None:
    """Each setting is an enum in the schema, of exactly the choices the server offers."""
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        options = client.get("/api/options").json()
    models = schema["components"]["schemas"]
    settings = models["SoloSettings"]["properties"]

    def choices(setting: str) -> list[str]:
        return list(models[settings[setting]["$ref"].rsplit("/", 1)[-1]]["enum"])

    for setting, offered in (("role", "roles"), ("edition", "editions"), ("deck", "decks"),
                             ("clue_rules", "clue_rules"), ("guess_limit", "guess_limits"),
                             ("strength", "strengths")):
        default = [""] if setting in ("deck", "clue_rules") else []  # the edition's own
        assert choices(setting) == [*default, *options[offered]], setting
    assert choices("level") == [entry["name"] for entry in options["levels"]]


def test_the_cores_enums_are_described_by_the_contract_not_their_docstrings(
        schema: dict[str, Any]) -> None:
    """A docstring of the core reworded moves no snapshot: each enum of the schema is the
    web's own (``Web...``) or described in ``schema.CORE_ENUMS``."""
    enums = {name: model for name, model in schema["components"]["schemas"].items()
             if "enum" in model}
    assert len(enums) >= 10
    for name, model in enums.items():
        assert name.startswith("Web") or model["description"] == CORE_ENUMS[name], name
