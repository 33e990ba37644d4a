"""docs/web-api.md, written from the app's ``openapi.json`` (the routes' descriptions, bodies
and answers, and the models of ``schema``), so the page documenting the API cannot drift from
it. ``python -m codenames_ai.web.apidoc --write`` writes the schema's snapshot
(docs/web-api.openapi.json) and the page from it after a change; ``--check`` says whether both
are up to date (tests/web/test_api_docs.py checks the same)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC = DOCS / "web-api.md"
SNAPSHOT = DOCS / "web-api.openapi.json"
COMMAND = "python -m codenames_ai.web.apidoc --write"
METHODS = ("get", "post", "put", "patch", "delete")

INTRO = f"""\
# The web app's JSON API

<!-- Written by `{COMMAND}` from the app's openapi.json: edit
the routes' docstrings and the models (codenames_ai/web/schema.py), then run it. -->

`codenames serve` runs one page and this JSON API (`codenames_ai/web`: `app.py` the app and
its guard, `solo.py` games played alone, `roomsapi.py` rooms, `schema.py` every body and
answer as a model). The page (`static/app.js`, `static/rooms.js`) uses nothing else. The
server serves the API's contract as `/openapi.json` (OpenAPI); this page is written from
it, and `tests/web/test_api_docs.py` fails when it is stale or when the schema moves from
its snapshot, `docs/web-api.openapi.json` (both written again by
`{COMMAND}`). FastAPI's own `/docs` page stays off: it loads its script and style sheet from
a CDN, which an offline server cannot reach and the page's Content-Security-Policy
(`script-src 'self'`) refuses.
"""


def openapi() -> dict[str, Any]:
    """The schema the app serves (built on an empty games file, which it does not depend on)."""
    from .app import create_app  # the app imports the agents: only when asked

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "games.sqlite3")
        try:
            return app.openapi()
        finally:
            app.state.store.close()  # what the app's shutdown would do


def snapshot(schema: dict[str, Any]) -> str:
    """The schema as its snapshot file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def stale() -> list[Path]:
    """The files ``--write`` would change."""
    schema = openapi()
    return [path for path, text in ((SNAPSHOT, snapshot(schema)), (DOC, markdown(schema)))
            if not path.is_file() or path.read_text(encoding="utf-8") != text]


def markdown(schema: dict[str, Any]) -> str:
    """The page: the introduction, what every request shares, each tag's routes, the models."""
    parts = [INTRO, schema["info"].get("description", "").strip() + "\n"]
    for tag in schema.get("tags", []):
        parts.append(f"## {tag['name']}\n\n{tag.get('description', '').strip()}\n")
        for path, item in schema["paths"].items():
            for method in METHODS:
                operation = item.get(method)
                if operation is not None and tag["name"] in operation.get("tags", ()):
                    parts.append(_route(method, path, operation))
    parts.append("## Models\n\nThe bodies and answers above, by name. A body's field marked "
                 "*required* must be sent; the others may be left out (their default shown). "
                 "An answer has every field listed but those marked *optional*.\n")
    models = schema.get("components", {}).get("schemas", {})
    bodies = _bodies(schema, models)
    for name, model in models.items():
        parts.append(_model(name, model, body=name in bodies))
    return "\n".join(parts)


def _bodies(schema: dict[str, Any], models: dict[str, Any]) -> set[str]:
    """The models a request body is or holds."""
    names: set[str] = set()
    todo = [operation["requestBody"] for item in schema["paths"].values()
            for operation in item.values() if "requestBody" in operation]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.rsplit("/", 1)[-1] not in names:
                names.add(ref.rsplit("/", 1)[-1])
                todo.append(models.get(ref.rsplit("/", 1)[-1], {}))
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return names


def _route(method: str, path: str, operation: dict[str, Any]) -> str:
    """One route's section: what it does, what it takes and what it answers."""
    lines = [f"### {method.upper()} {path}", operation.get("description", "").strip()]
    taken = [f"{where} `{p['name']}`{'' if p.get('required') else ' (optional)'}"
             + (f": {p['description']}" if p.get("description") else "")
             for p in operation.get("parameters", [])
             for where in [{"path": "Path", "query": "Query", "header": "Header"}[p["in"]]]]
    if taken:
        lines.append("Takes: " + "; ".join(taken) + ".")
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        lines.append(f"Body: {_kind(body['schema'])}.")
    answers = ["Answers:"]
    for status, answer in sorted(operation.get("responses", {}).items()):
        content = answer.get("content", {})
        shown = (_kind(content["application/json"]["schema"])
                 if "application/json" in content and content["application/json"].get("schema")
                 else " or ".join(f"`{kind}`" for kind in content) or "")
        why = answer.get("description", "")
        why = "" if why == "Successful Response" else why
        answers.append("- " + " ".join(part for part in (status, shown, why and f"({why})")
                                       if part))
    lines.append("\n".join(answers))
    return "\n\n".join(line for line in lines if line) + "\n"


def _model(name: str, model: dict[str, Any], *, body: bool) -> str:
    """One model's section: its description and its fields (or its values); ``body``: a
    request's (its required fields marked), else an answer's (its optional ones marked)."""
    lines = [f"### `{name}`", model.get("description", "").strip()]
    if "enum" in model:
        lines.append("One of " + _values(model["enum"]) + ".")
    required = set(model.get("required", ()))
    fields = []
    for field, about in model.get("properties", {}).items():
        notes = (["*required*"] if body and field in required
                 else ["*optional*"] if not body and field not in required
                 else [f"default `{_json(about['default'])}`"] if "default" in about else [])
        text = f"- `{field}`: {_kind(about)}" + (f" ({', '.join(notes)})" if notes else "")
        fields.append(text + (f": {about['description']}" if about.get("description") else ""))
    if model.get("additionalProperties") is True:
        fields.append("- and the fields of the event's kind (the record format's)")
    if fields:
        lines.append("\n".join(fields))
    return "\n\n".join(line for line in lines if line) + "\n"


def _kind(schema: dict[str, Any]) -> str:
    """A schema's type in words, models linked to their section."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{name.lower()})"
    if "anyOf" in schema:
        return " or ".join(_kind(option) for option in schema["anyOf"])
    if "enum" in schema:
        return "one of " + _values(schema["enum"])
    if "const" in schema:
        return f"`{_json(schema['const'])}`"
    kind = schema.get("type")
    if kind == "array":
        return "list of " + _kind(schema.get("items", {}))
    if kind == "object":
        inner = schema.get("additionalProperties")
        return "object of " + _kind(inner) if isinstance(inner, dict) else "object"
    names = {"string": "string", "integer": "whole number", "boolean": "true or false",
             "number": "number", "null": "null"}
    return names.get(str(kind), "any JSON")


def _values(values: list[Any]) -> str:
    return ", ".join(f"`{_json(value)}`" for value in values)


def _json(value: Any) -> str:
    """A JSON value as the page shows it: strings quoted only when empty."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return '""'
    return str(value) if not isinstance(value, list | dict) else repr(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codenames_ai.web.apidoc",
                                     description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true",
                        help=f"write {SNAPSHOT.name} and {DOC.name} again")
    action.add_argument("--check", action="store_true",
                        help=f"are {SNAPSHOT.name} and {DOC.name} up to date?")
    args = parser.parse_args(argv)
    if args.write:
        schema = openapi()
        SNAPSHOT.write_text(snapshot(schema), encoding="utf-8")
        DOC.write_text(markdown(schema), encoding="utf-8")
        print(f"wrote {SNAPSHOT} and {DOC}")
        return 0
    changed = stale()
    for path in changed:
        print(f"{path} is stale: run {COMMAND}", file=sys.stderr)
    if not changed:
        print(f"{SNAPSHOT.name} and {DOC.name} are up to date")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
