"""The ``codenames`` command line: parse, call the library, print."""
