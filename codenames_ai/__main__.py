"""``python -m codenames_ai``: the ``codenames`` command."""

from .cli.app import main

main()
