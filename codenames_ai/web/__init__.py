"""The web app (``codenames serve``): ``app.create_app`` builds it; ``schema`` is its JSON
API's contract and docs/web-api.md the page written from it (``apidoc``)."""
