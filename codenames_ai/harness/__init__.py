"""Tournaments: reproducible self-play at scale, on every core or on a Ray cluster.

The names below are imported on first use (PEP 562), so that importing one part (the spec's
``Mode``, say) does not load the backends, the ratings and the tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .backends import Backend, PoolBackend, SerialBackend
    from .report import print_summary, write_plots
    from .results import ResultsFolder, read_results, read_spec
    from .run import make_backend, run_tournament, write_summary
    from .spec import BACKENDS, AgentRef, GameTask, Mode, TeamRef, TournamentSpec
    from .summary import (
        Failure,
        GameCounts,
        MatchupFigures,
        Rating,
        Summary,
        TeamFigures,
        summarize,
        wilson,
        without_timing,
    )

# Each public name and the submodule it comes from.
_SOURCES = {
    **dict.fromkeys(("Backend", "PoolBackend", "SerialBackend"), "backends"),
    **dict.fromkeys(("print_summary", "write_plots"), "report"),
    **dict.fromkeys(("ResultsFolder", "read_results", "read_spec"), "results"),
    **dict.fromkeys(("make_backend", "run_tournament", "write_summary"), "run"),
    **dict.fromkeys(("BACKENDS", "AgentRef", "GameTask", "Mode", "TeamRef", "TournamentSpec"),
                    "spec"),
    **dict.fromkeys(("Failure", "GameCounts", "MatchupFigures", "Rating", "Summary",
                     "TeamFigures", "summarize", "wilson", "without_timing"), "summary"),
}

__all__ = [
    "BACKENDS", "AgentRef", "Backend", "Failure", "GameCounts", "GameTask", "MatchupFigures",
    "Mode", "PoolBackend", "Rating", "ResultsFolder", "SerialBackend", "Summary", "TeamFigures",
    "TeamRef", "TournamentSpec", "make_backend", "print_summary", "read_results", "read_spec",
    "run_tournament", "summarize", "wilson", "without_timing", "write_plots", "write_summary",
]


__getattr__, __dir__ = lazy_exports(__name__, _SOURCES, __all__)
