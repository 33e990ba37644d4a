"""The terminal game behind ``codenames play``: people as agents at a prompt (``terminal``:
guesser and spymaster, with optional clue checks and time limits), game sessions with their
summaries (``session``), and safe writing of saved games and records (``output``)."""
