"""Levels: how fast the opposing AI team plays at each level, and how often a person wins.

Run by hand: ``python -m benchmarks.levels [--games 200] [--workers N] [--cache-dir DIR]
[--write-figures]`` (workers: one per core by default). ``--write-figures`` writes the table the
README quotes, and the run's wall time, to ``docs/figures/levels.json`` and puts them in the
README (``benchmarks/figures.py``).

Two measurements per level (``codenames_ai.agents.levels``), on boards dealt from the shipped
Words deck as in ``codenames play``, seeds 0 to games - 1:

* **Pace**: the level's opposing team plays alone (a single-team race of up to 25 turns on the
  standard board; it starts, so it has 9 agents). Prints how often it clears its agents, the
  median and mean turns it needs when it does, and its assassin losses per 100 races.
* **A person-like team**: full games, the person's seats (red) against the level's team (blue);
  the starting team is the deal's. Nobody here is a person, so two stand-ins bracket one: the
  game's own AI spymaster with a guesser that thinks with only one of its four minds
  (``shares a mind``: the spymaster's clues are checked against that mind, optimistic), and
  a spymaster that judges without the guesser's mind (``foreign mind``: like a person whose
  associations the AI cannot read, pessimistic). The guesser's mind turns with the seed
  (GloVe, MiniLM, WordNet, people's associations). Prints the person's win rate with a 95%
  Wilson interval, how the games ended, and the opposing team's agents left when the person
  won.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from codenames_ai.agents import make_agent
from codenames_ai.agents.evaluation import single_team
from codenames_ai.agents.levels import Level, ai_seat
from codenames_ai.agents.panel import PEOPLE_MINDS
from codenames_ai.agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER
from codenames_ai.core import WORDS, Role, Seats, Team, Variant, play_game
from codenames_ai.decks import default_deck
from codenames_ai.harness.summary import wilson

from . import figures

STAND_INS = ("shares a mind", "foreign mind")


def opposing_agents(level: Level, cache_dir: str | None) -> tuple[Any, Any]:
    """The level's team (blue), seated against a person (red) as every game seats it."""
    agents = []
    for role, person in ((Role.SPYMASTER, DEFAULT_SPYMASTER), (Role.GUESSER, DEFAULT_GUESSER)):
        agent_id, options = ai_seat(level, role, Team.BLUE, person, {"cache_dir": cache_dir},
                                    variant=Variant.STANDARD, people={Team.RED})
        agents.append(make_agent(agent_id, role=role, **options))
    return agents[0], agents[1]


def person_agents(stand_in: str, mind: str, cache_dir: str | None) -> tuple[Any, Any]:
    options: dict[str, Any] = {}
    if stand_in == "foreign mind":
        options = {"minds": tuple(m for m in PEOPLE_MINDS if m != mind),
                   "known_by": PEOPLE_MINDS}
    spymaster = make_agent(DEFAULT_SPYMASTER, role=Role.SPYMASTER, cache_dir=cache_dir,
                           **options)
    guesser = make_agent(DEFAULT_GUESSER, role=Role.GUESSER, cache_dir=cache_dir,
                         minds=(mind,))
    return spymaster, guesser


def pace(job: tuple[str, int, str | None]) -> dict[str, Any]:
    level, games, cache_dir = job
    deck = default_deck("words")
    spymaster, guesser = opposing_agents(Level(level), cache_dir)
    start = time.perf_counter()
    races = [single_team(WORDS, deck, seed, spymaster, guesser) for seed in range(games)]
    cleared = [r.turns for r in races if r.won]
    return {"level": level, "games": games, "cleared": len(cleared),
            "median": statistics.median(cleared) if cleared else float("nan"),
            "mean": statistics.fmean(cleared) if cleared else float("nan"),
            "assassin": 100 * sum(r.assassin for r in races) / games,
            "seconds": time.perf_counter() - start}


def person(job: tuple[str, str, int, str | None]) -> dict[str, Any]:
    level, stand_in, games, cache_dir = job
    deck = default_deck("words")
    blue = opposing_agents(Level(level), cache_dir)
    reds = {mind: person_agents(stand_in, mind, cache_dir) for mind in PEOPLE_MINDS}
    start = time.perf_counter()
    wins = 0
    endings: Counter[str] = Counter()
    left: list[int] = []
    for seed in range(games):
        red = reds[PEOPLE_MINDS[seed % len(PEOPLE_MINDS)]]
        seats = Seats.standard(red_spymaster=red[0], red_guesser=red[1],
                               blue_spymaster=blue[0], blue_guesser=blue[1])
        record = play_game(WORDS, seats, seed=seed, deck=deck)
        outcome = record.outcome
        won = outcome.winner is Team.RED
        wins += won
        endings[f"{'won' if won else 'lost'}: {outcome.reason.value}"] += 1
        if won:
            final = record.events  # the opposing team's agents left at the end
            found = sum(1 for e in final if getattr(e, "identity", None) is Team.BLUE.agent)
            left.append(record.board.count(Team.BLUE.agent) - found)
    low, high = wilson(wins, games)
    return {"level": level, "stand_in": stand_in, "games": games, "wins": wins,
            "low": low, "high": high, "endings": dict(endings),
            "left": statistics.fmean(left) if left else float("nan"),
            "seconds": time.perf_counter() - start}


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def readme_table(paces: list[dict[str, Any]], people: list[dict[str, Any]]) -> str:
    """The README's table of the levels: pace, then each stand-in's win rate."""
    head = ("| level | other team alone: clears its 9 agents | turns it needs (median / mean) "
            "| its assassin per 100 races | a person-like team wins: shares a mind "
            "| foreign mind |")
    rows = [head, "|---|---|---|---|---|---|"]
    for p in paces:
        wins = [r for s in STAND_INS for r in people
                if r["level"] == p["level"] and r["stand_in"] == s]
        stands = [f"{percent(r['wins'] / r['games'])} [{100 * r['low']:.1f}-"
                  f"{100 * r['high']:.1f}]" for r in wins]
        rows.append(f"| `{p['level']}` | {percent(p['cleared'] / p['games'])} | "
                    f"{p['median']:g} / {p['mean']:.1f} | {p['assassin']:.1f} | "
                    + " | ".join(stands) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/levels.json and the README's table")
    args = parser.parse_args(argv)
    commit = figures.git_commit()  # the code measured, before anything changes
    start = time.perf_counter()
    levels = [level.value for level in Level]
    with ProcessPoolExecutor(args.workers) as pool:
        paces = list(pool.map(pace, [(lv, args.games, args.cache_dir) for lv in levels]))
        people = list(pool.map(person, [(lv, s, args.games, args.cache_dir)
                                        for lv in levels for s in STAND_INS]))
    print(f"Pace of the opposing team alone ({args.games} single-team races of up to 25 "
          "turns, 9 agents)")
    print(f"{'level':8} {'clears':>8} {'median turns':>13} {'mean turns':>11} "
          f"{'assassin/100':>13}")
    for p in paces:
        print(f"{p['level']:8} {100 * p['cleared'] / p['games']:7.1f}% {p['median']:13.1f} "
              f"{p['mean']:11.2f} {p['assassin']:13.1f}")
    print(f"\nA person-like team against it ({args.games} full games per row)")
    print(f"{'level':8} {'stand-in':14} {'wins % [95% CI]':>20} {'their agents left':>18}  "
          "endings")
    for r in people:
        endings = ", ".join(f"{k} {v}" for k, v in sorted(r["endings"].items()))
        print(f"{r['level']:8} {r['stand_in']:14} {100 * r['wins'] / r['games']:5.1f} "
              f"[{100 * r['low']:4.1f}-{100 * r['high']:5.1f}] {r['left']:18.1f}  {endings}")
    if args.write_figures:
        argv_given = sys.argv[1:] if argv is None else argv
        figures.write("levels", figures.command_line("benchmarks.levels", argv_given),
                      {"table": readme_table(paces, people), "games": str(args.games),
                       "time": figures.seconds_text(time.perf_counter() - start)},
                      commit=commit)


if __name__ == "__main__":
    main()
