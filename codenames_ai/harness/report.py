"""Showing a tournament summary: rich tables in the terminal and PNG plots (matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from .spec import Mode
from .summary import MatchupFigures, Summary, TeamFigures, wilson


def _interval(figures: MatchupFigures | TeamFigures) -> str:
    low, high = figures.win_rate_95
    return f"{100 * figures.win_rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def print_summary(summary: Summary, console: Console | None = None) -> None:
    console = console or Console()
    games = summary.games
    console.print(f"[bold]{summary.mode.value}[/] tournament on {summary.edition}, seed "
                  f"{summary.seed}: {games.played} games played, {games.failed} "
                  f"failed, {games.scheduled - games.finished} still to play")
    if summary.mode is Mode.TWO_TEAM:
        table = Table(title="Matchups (win rate of the first team, Wilson 95%)")
        for column in ("first team", "second team", "games", "first wins", "no winner",
                       "mean turns"):
            table.add_column(column, justify="left" if "team" in column else "right")
        for m in summary.matchups:
            table.add_row(m.teams[0], m.teams[1], str(m.games), _interval(m),
                          str(m.no_winner), f"{m.mean_game_turns:.2f}")
        console.print(table)
    table = Table(title="Teams")
    columns = ("team", "games", "wins (Wilson 95%)", "own turns", "assassin /100",
               "clue precision", "mean clue", "ms/clue", "ms/guess")
    for column in columns:
        table.add_column(column, justify="left" if column == "team" else "right")
    for label, t in summary.teams.items():
        table.add_row(label, str(t.games), _interval(t), f"{t.mean_turns:.2f}",
                      f"{t.assassin_per_100:.1f}", f"{t.clue_precision:.3f}",
                      f"{t.mean_clue_number:.2f}", f"{t.ms_per_clue:.2f}",
                      f"{t.ms_per_guess:.3f}")
    console.print(table)
    table = Table(title="Ratings (openskill Plackett-Luce; ordinal = mu - 3 sigma)")
    for column in ("agent", "ordinal", "mu", "sigma", "rated games"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in summary.ranked:
        table.add_row(r.agent, f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}",
                      str(r.games))
    console.print(table)
    if summary.unrated:  # listed apart: an unrated agent's ordinal is only its prior
        console.print("Not ranked (no rated game: it played on every team of its games, or "
                      f"none finished): {', '.join(r.agent for r in summary.unrated)}")
    for failure in summary.failures[:10]:
        console.print(f"game {failure.game} failed: {failure.reason}")


# A plot grows with its teams (the matrix by their square): past this many it is unreadable,
# and its image would outgrow the memory (441 teams asked for 18 GB).
MAX_PLOTTED_TEAMS = 30


def write_plots(summary: Summary, folder: Path) -> list[Path]:
    """The win-rate matrix (or bars), turn and clue-number distributions, as PNG files; none
    for more than ``MAX_PLOTTED_TEAMS`` teams (the summary holds their figures)."""
    if len(summary.teams) > MAX_PLOTTED_TEAMS:
        return []
    import matplotlib

    matplotlib.use("Agg")  # files only; no screen here or in CI
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    teams = summary.teams
    labels = list(teams)
    paths = []

    figure, axes = plt.subplots(figsize=(5 + 1.6 * len(labels), 2.5 + 1.2 * len(labels)))
    if summary.mode is Mode.TWO_TEAM:
        _plot_matrix(summary, labels, figure, axes)
    else:
        _plot_bars(summary, labels, axes)
    figure.tight_layout()
    paths.append(_save(figure, folder / "win_rate.png"))

    distributions: tuple[tuple[str, str, dict[str, Mapping[int, int]]], ...] = (
        ("turns.png", "Own turns per game", {t: teams[t].turn_counts for t in labels}),
        ("clue_numbers.png", "Clue numbers", {t: teams[t].clue_number_counts for t in labels}))
    for name, title, counts_by_team in distributions:
        figure = _plot_distribution(plt, title, labels, counts_by_team)
        paths.append(_save(figure, folder / name))
    plt.close("all")
    return paths


def _plot_matrix(summary: Summary, labels: list[str], figure: Any, axes: Any) -> None:
    """Each row team's win rate against each column team, with its Wilson interval."""
    size = len(labels)
    matrix = [[float("nan")] * size for _ in range(size)]
    text: dict[tuple[int, int], str] = {}
    for m in summary.matchups:
        a, b = labels.index(m.teams[0]), labels.index(m.teams[1])
        if a == b or not m.games:
            continue
        low, high = m.win_rate_95
        matrix[a][b] = m.win_rate
        matrix[b][a] = m.losses / m.games
        text[(a, b)] = f"{100 * m.win_rate:.0f}%\n[{100 * low:.0f}-{100 * high:.0f}]"
        back_low, back_high = wilson(m.losses, m.games)
        text[(b, a)] = (f"{100 * matrix[b][a]:.0f}%\n"
                        f"[{100 * back_low:.0f}-{100 * back_high:.0f}]")
    image = axes.imshow(matrix, vmin=0, vmax=1, cmap="RdYlGn")
    for (row, column), value in text.items():
        axes.text(column, row, value, ha="center", va="center", fontsize=8)
    axes.set_xticks(range(size), labels, rotation=30, ha="right", fontsize=8)
    axes.set_yticks(range(size), labels, fontsize=8)
    axes.set_title("Row team's win rate against the column team\n(Wilson 95% interval)")
    figure.colorbar(image, ax=axes)


def _plot_bars(summary: Summary, labels: list[str], axes: Any) -> None:
    """Each team's win rate (a race, or the cooperative mode) with its Wilson interval."""
    teams = summary.teams
    rates = [teams[t].win_rate for t in labels]
    errors = [[r - teams[t].win_rate_95[0] for r, t in zip(rates, labels, strict=True)],
              [teams[t].win_rate_95[1] - r for r, t in zip(rates, labels, strict=True)]]
    axes.barh(labels, rates, xerr=errors, color="tab:green", capsize=4)
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate (Wilson 95% interval)")
    axes.set_title(f"{summary.mode.value} win rate")


def _plot_distribution(plt: Any, title: str, labels: list[str],
                       counts_by_team: dict[str, Mapping[int, int]]) -> Any:
    """A figure of each team's shares of ``counts_by_team``, the bars side by side."""
    figure, axes = plt.subplots(figsize=(7, 4))
    width = 0.8 / max(1, len(labels))
    ticks: set[int] = set()
    for position, label in enumerate(labels):
        counts = counts_by_team[label]
        total = sum(counts.values()) or 1
        xs = sorted(counts)
        ticks.update(xs)
        shift = (position - (len(labels) - 1) / 2) * width  # bars side by side on x
        axes.bar([x + shift for x in xs], [counts[x] / total for x in xs],
                 width=width, label=label)
    axes.set_xticks(sorted(ticks))
    axes.set_title(title)
    axes.set_ylabel("share")
    axes.legend(fontsize=8)
    figure.tight_layout()
    return figure


def _save(figure: Any, path: Path) -> Path:
    # Cropped to what is drawn: the matrix keeps square cells, so a figure sized for its
    # labels left wide empty margins beside it.
    figure.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.1)
    return path
