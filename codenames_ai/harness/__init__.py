"""Tournaments: reproducible self-play at scale, on every core or on a Ray cluster."""

from .backends import Backend, PoolBackend, SerialBackend
from .report import print_summary, write_plots
from .results import ResultsFolder, read_results, read_spec
from .run import make_backend, run_tournament, write_summary
from .spec import AgentRef, GameTask, Mode, TeamRef, TournamentSpec
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

__all__ = [
    "AgentRef", "Backend", "Failure", "GameCounts", "GameTask", "MatchupFigures", "Mode",
    "PoolBackend", "Rating", "ResultsFolder", "SerialBackend", "Summary", "TeamFigures",
    "TeamRef", "TournamentSpec", "make_backend", "print_summary", "read_results", "read_spec",
    "run_tournament", "summarize", "wilson", "without_timing", "write_plots", "write_summary",
]
