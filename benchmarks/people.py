"""People's clues: how well a guesser reads a person who gives the clues.

Run by hand: ``python -m benchmarks.people --data ../shared/humandata [--guessers ID ...]
[--cache-dir DIR] [--halves] [--write-figures]``. ``--write-figures`` writes the table (and with
``--halves`` the held-out figures) to ``docs/figures/people.json`` and puts them in the README
(``benchmarks/figures.py``).

The data are published studies of people playing Codenames. They are not part of this
repository and must not be copied into it (their authors state no licence): point ``--data``
at a folder holding a copy of these two files (the development splits):

* ``guesses-12word-dev.json``: 12-word boards; a person clued 3 intended words, and 8-11 other
  people each guessed 3 words (Mills, Prescott and Phillips, human vs GPT-4 Codenames).
* ``duet-guesses-val.jsonl`` with ``duet-clues-val.jsonl`` (same rows, in the same order):
  Codenames Duet; the words left on a board, a person's clue, the cards their partner touched,
  and the clue giver's targets and assassins (Shaikh et al. 2023, Codenames Duet).

Each guesser is asked through its own ``guess`` method, seeing what a guesser sees: the face-up
cards and the clue, with the number the person meant (3 on the 12-word boards, the person's
targets in Duet), and no feedback between touches, as the people in the studies had none (a
touched card is shown as one of its own team's). It touches until it passes or reaches the
number. Printed beside people's own level:

* 12-word: the share of the intended words among its touches (found / 3), the share of its
  touches that are intended, the share of first touches on an intended word, and how often it
  stopped before the number;
* Duet: the share of clues whose first touch is a card the person touched (over the clues
  where the person touched one), and assassin touches per 100 clues (over all clues).

The people guesser's settings were fitted on these splits. ``--halves`` says by how much that
flatters it: for each half of the boards and clues (odd and even rows), it picks the best of
``SETTINGS_TRIED`` on that half (by found + first + Duet agreement) and measures it on the
other half.

``--calibration`` checks the people model's read-right chance, the spymaster's measure of a
clue (``ReadingWeights.read_centre`` / ``read_width``): on each half of the 12-word boards it
fits the logistic of the gap between the weakest intended word's fit and the best other
card's to the share of people whose three touches were the three intended words, and on the
other half prints the chance it predicts against people's share, overall and by predicted
chance (a reliability table).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codenames_ai.agents import make_agent
from codenames_ai.agents.registry import DEFAULT_GUESSER, PERSON_PARTNER_GUESSER
from codenames_ai.core import (
    WORDS,
    Clue,
    Guess,
    Guesser,
    GuesserView,
    Identity,
    Phase,
    PublicView,
    Role,
    RuleSet,
    Team,
)

from . import figures as doc_figures

# The people guesser's settings tried when they were fitted: mind weights (GloVe, MiniLM,
# WordNet, EAT), the backward reading's weight and people's answers' weight.
SETTINGS_TRIED = tuple(
    ((("glove-6b-50d", g), ("minilm-l6-words", m), ("wordnet-3.0", w), ("eat-associations", e)),
     backward, direct)
    for (g, m, w, e), backward, direct in (
        ((1, 1, 1, 1), 0.0, 0.0), ((0.5, 1, 0.5, 2), 1.5, 0.0), ((0.5, 1, 0.5, 2), 1.5, 0.3),
        ((0.5, 2, 1, 3), 1.5, 0.6), ((0.5, 2, 1, 3), 2.5, 0.6), ((0.5, 2, 1, 3), 2.5, 0.3),
        ((0.5, 2, 1, 3), 2.5, 1.0), ((0.5, 1, 0.5, 2), 2.5, 0.6), ((1, 2, 1, 3), 1.5, 0.3)))

TWELVE = "guesses-12word-dev.json"
DUET_GUESSES = "duet-guesses-val.jsonl"
DUET_CLUES = "duet-clues-val.jsonl"


@dataclass(frozen=True)
class PersonClue:
    """One person's clue on a board: the cards, the clue and its number, the cards the
    clue giver meant, the assassins (empty where the study had none) and what people
    touched (one list per person)."""

    words: tuple[str, ...]
    clue: str
    number: int
    intended: frozenset[str]
    assassins: frozenset[str]
    touched: tuple[tuple[str, ...], ...]


def read_twelve(folder: Path) -> list[PersonClue]:
    rows = json.loads((folder / TWELVE).read_text(encoding="utf-8"))
    return [PersonClue(tuple(w.lower() for w in row["words"]), row["clue"].lower(),
                       len(row["intended_words"]),
                       frozenset(w.lower() for w in row["intended_words"]), frozenset(),
                       tuple(tuple(w.lower() for w in r) for r in row["responses"]))
            for row in rows]


def read_duet(folder: Path) -> list[PersonClue]:
    guesses = _jsonl(folder / DUET_GUESSES)
    clues = _jsonl(folder / DUET_CLUES)
    if len(guesses) != len(clues):
        sys.exit(f"{folder}: {DUET_GUESSES} has {len(guesses)} rows and {DUET_CLUES} "
                 f"{len(clues)}; they must be the same rows in the same order")
    out = []
    for guess, clue in zip(guesses, clues, strict=True):
        # the study's touches are typed text, some with a trailing comma ("center,")
        touched = tuple(t for t in (re.sub(r"[^a-z ]", "", g.lower()).strip()
                                    for g in guess["guesses"]) if t)
        out.append(PersonClue(tuple(guess["board"]), guess["clue"].lower(),
                              len(clue["targets"]), frozenset(clue["targets"]),
                              frozenset(clue["assassins"]), (touched,) if touched else ()))
    return out


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def touches(guesser: Guesser, item: PersonClue, rules: RuleSet, opponents: int) -> list[str]:
    """The cards ``guesser`` touches on the person's clue, in order, up to its number, with
    ``opponents`` of the other cards the other team's (as its view says)."""
    revealed: list[Identity | None] = [None] * len(item.words)
    made: list[str] = []
    guesser.start_game(0)
    while len(made) < item.number:
        table = PublicView.table(rules, item.words, revealed, Team.RED, phase=Phase.GUESS,
                                 red_left=item.number - len(made), blue_left=opponents)
        view = GuesserView.of_table(table, Clue(item.clue, item.number),
                                    guesses_made=len(made),
                                    guesses_left=item.number + 1 - len(made))
        action = guesser.guess(view)
        if not isinstance(action, Guess):
            break
        revealed[action.index] = Identity.RED
        made.append(item.words[action.index])
    return made


def rules_for(assassins: int) -> RuleSet:
    """The standard rules with the study's number of assassins (the guesser prices them)."""
    standard = WORDS
    return replace(standard, layout=replace(standard.layout, assassins=assassins,
                                            bystanders=standard.layout.bystanders + 1
                                            - assassins))


def twelve_figures(guesser: Guesser, items: Sequence[PersonClue]) -> dict[str, float]:
    rules = rules_for(1)
    found = touched = first = stopped = 0
    for item in items:
        # the study told no one what the 9 other cards were: a standard key's shares of the
        # cards not the team's (8 of 16 the other team's, 1 the assassin)
        made = touches(guesser, item, rules, opponents=(len(item.words) - item.number) // 2)
        hits = sum(word in item.intended for word in made)
        found += hits
        touched += len(made)
        first += bool(made) and made[0] in item.intended
        stopped += len(made) < item.number
    intended = sum(item.number for item in items)
    return {"found": found / intended, "precision": found / max(touched, 1),
            "first": first / len(items), "stopped": stopped / len(items)}


def duet_figures(guesser: Guesser, items: Sequence[PersonClue]) -> dict[str, float]:
    rules = rules_for(3)
    agree = asked = assassins = 0
    for item in items:
        made = touches(guesser, item, rules, opponents=0)  # Duet: no other team
        assassins += sum(word in item.assassins for word in made)
        if item.touched:
            asked += 1
            agree += bool(made) and made[0] in item.touched[0]
    return {"agree": agree / asked, "assassins": 100 * assassins / len(items)}


def people_level(twelve: Sequence[PersonClue], duet: Sequence[PersonClue]) -> dict[str, float]:
    """People's own figures: the share of their guesses that are the intended words, of
    their first guesses; in Duet, how often the partner's first touch was a target, and
    their assassin touches per 100 clues."""
    guesses = [(t, item) for item in twelve for t in item.touched]
    in_duet = [item for item in duet if item.touched]
    return {
        "found": sum(len(set(t) & item.intended) for t, item in guesses)
        / sum(len(t) for t, _ in guesses),
        "first": sum(t[0] in item.intended for t, item in guesses) / len(guesses),
        "duet_target": sum(item.touched[0][0] in item.intended for item in in_duet)
        / len(in_duet),
        "assassins": 100 * sum(w in item.assassins for item in duet for t in item.touched
                               for w in t) / len(duet),
    }


def halves(twelve: Sequence[PersonClue], duet: Sequence[PersonClue],
           cache_dir: str | None) -> list[dict[str, float]]:
    """Fit on one half, measure on the other (see the module's docstring)."""
    from codenames_ai.agents.panel import PeopleGuesser

    def figures(setting: Any, rows: int) -> dict[str, float]:
        weights, backward, direct = setting
        guesser = PeopleGuesser(weights=weights, backward=backward, direct=direct,
                                cache_dir=cache_dir)
        return {**twelve_figures(guesser, twelve[rows::2]), **duet_figures(guesser, duet[rows::2])}

    measured = []
    for fitted in (0, 1):
        best = max(SETTINGS_TRIED, key=lambda setting: sum(
            figures(setting, fitted)[k] for k in ("found", "first", "agree")))
        held = figures(best, 1 - fitted)
        print(f"fitted on the {'even' if fitted == 0 else 'odd'} rows: weights "
              f"{[w for _, w in best[0]]}, backward {best[1]}, direct {best[2]}; on the other "
              f"half: found {held['found']:.1%}, first {held['first']:.1%}, Duet agree "
              f"{held['agree']:.1%}, assassins/100 {held['assassins']:.2f}")
        measured.append(held)
    return measured


def read_right_rows(twelve: Sequence[PersonClue], cache_dir: str | None
                    ) -> list[tuple[float, float]]:
    """Per 12-word board: the gap, in the people model's fit, between the weakest intended
    word and the best other card, and the share of the people whose three touches were the
    three intended words."""
    from codenames_ai.agents.panel import PeopleGuesser

    guesser = PeopleGuesser(cache_dir=cache_dir)
    rules = rules_for(1)
    rows = []
    for item in twelve:
        table = PublicView.table(rules, item.words, (None,) * len(item.words), Team.RED,
                                 phase=Phase.GUESS, red_left=item.number,
                                 blue_left=len(item.words) // 2)
        view = GuesserView.of_table(table, Clue(item.clue, item.number),
                                    guesses_left=item.number + 1)
        fitted = guesser.fit(item.clue, view)
        triples = [set(t) == set(item.intended) for t in item.touched if len(t) == 3]
        if fitted is None or not triples:
            continue
        _, fit = fitted
        meant = [w in item.intended for w in item.words]
        pairs = list(zip(fit, meant, strict=True))
        gap = min(f for f, m in pairs if m) - max(f for f, m in pairs if not m)
        rows.append((float(gap), sum(triples) / len(triples)))
    return rows


# The logistics ``--calibration`` chooses among: centre and width of the chance people read a
# clue right, from the gap (``ReadingWeights.read_centre`` / ``read_width``).
CENTRES = tuple(c / 2 for c in range(-12, 9))
WIDTHS = (2.0, 3.0, 4.0, 5.0, 6.5, 8.0, 10.0)
BINS = ((0.0, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 1.01))


def calibration(twelve: Sequence[PersonClue], cache_dir: str | None) -> list[dict[str, Any]]:
    """For each half of the boards: the logistic of the read-right chance fitted on it (the
    likeliest of ``CENTRES`` x ``WIDTHS``), and on the other half the mean chance it predicts
    against the share of people who read the clue right, overall and by predicted chance."""
    import math

    rows = read_right_rows(twelve, cache_dir)

    def chance(gap: float, centre: float, width: float) -> float:
        return 1 / (1 + math.exp(-(gap - centre) / width))

    def log_likelihood(part: Sequence[tuple[float, float]], centre: float, width: float
                       ) -> float:
        total = 0.0
        for gap, share in part:
            p = min(max(chance(gap, centre, width), 1e-4), 1 - 1e-4)
            total += share * math.log(p) + (1 - share) * math.log(1 - p)
        return total

    out = []
    for fitted in (0, 1):
        part, held = rows[fitted::2], rows[1 - fitted::2]
        centre, width = max(((c, w) for c in CENTRES for w in WIDTHS),
                            key=lambda cw: log_likelihood(part, *cw))
        predicted = [chance(gap, centre, width) for gap, _ in held]
        table = []
        for low, high in BINS:
            chosen = [(p, s) for p, (_, s) in zip(predicted, held, strict=True) if low <= p < high]
            if chosen:
                table.append({"bin": f"{low:.1f}-{min(high, 1.0):.1f}", "boards": len(chosen),
                              "predicted": sum(p for p, _ in chosen) / len(chosen),
                              "people": sum(s for _, s in chosen) / len(chosen)})
        result = {"fitted_on": "even" if fitted == 0 else "odd", "centre": centre,
                  "width": width, "boards": len(held),
                  "predicted": sum(predicted) / len(held),
                  "people": sum(s for _, s in held) / len(held), "table": table}
        print(f"read right, fitted on the {result['fitted_on']} boards: centre {centre}, "
              f"width {width}; on the other {len(held)}: predicted {result['predicted']:.1%}, "
              f"people {result['people']:.1%}")
        for row in table:
            print(f"  predicted {row['bin']}: {row['boards']:3} boards, predicted "
                  f"{row['predicted']:.1%}, people {row['people']:.1%}")
        out.append(result)
    return out


def calibration_text(held: Sequence[dict[str, Any]]) -> str:
    """Both held-out halves' reliability as the README says them."""
    return "; ".join(
        f"fitted on the {h['fitted_on']} boards (centre {h['centre']}, width {h['width']}), "
        f"the other half predicted {h['predicted']:.1%} against people's {h['people']:.1%}"
        for h in held)


def readme_table(people: dict[str, float], guessers: dict[str, dict[str, float]]) -> str:
    """The README's table: people's own figures, then each guesser's."""
    rows = ["| guesser | 12-word: intended words found | of its touches intended | first touch "
            "intended | stopped before the number | Duet: first touch one the person made | "
            "assassin touches / 100 Duet clues |", "|---|---|---|---|---|---|---|",
            f"| people (their own guesses) | {people['found']:.1%} | {people['found']:.1%} | "
            f"{people['first']:.1%} | - | {people['duet_target']:.1%} (first touch a target) | "
            f"{people['assassins']:.2f} |"]
    rows += [f"| `{name}` | {f['found']:.1%} | {f['precision']:.1%} | {f['first']:.1%} | "
             f"{f['stopped']:.1%} | {f['agree']:.1%} | {f['assassins']:.2f} |"
             for name, f in guessers.items()]
    return "\n".join(rows)


def halves_text(held: Sequence[dict[str, float]]) -> str:
    """Both held-out halves as the README says them."""
    def pair(key: str) -> str:
        return f"{held[0][key]:.1%} and {held[1][key]:.1%}"
    return (f"{pair('found')} of the intended words, first touches {pair('first')}, "
            f"Duet {pair('agree')}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="folder with a copy of the studies' files (never the repository)")
    parser.add_argument("--guessers", nargs="+",
                        default=[DEFAULT_GUESSER, PERSON_PARTNER_GUESSER])
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--halves", action="store_true",
                        help="also fit the people guesser on half the data, measure the rest")
    parser.add_argument("--calibration", action="store_true",
                        help="also fit the read-right chance on half the 12-word boards and "
                             "check it on the rest")
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/people.json and the README's figures")
    args = parser.parse_args(argv)
    commit = doc_figures.git_commit()  # the code measured, before anything changes
    started = time.perf_counter()
    missing = [name for name in (TWELVE, DUET_GUESSES, DUET_CLUES)
               if not (args.data / name).is_file()]
    if missing:
        sys.exit(f"{args.data}: no {', '.join(missing)}; point --data at a folder holding "
                 "a copy of the studies' files (see this module's docstring)")
    try:
        twelve, duet = read_twelve(args.data), read_duet(args.data)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSON or its fields
        sys.exit(f"{args.data}: a file is not in the studies' format ({type(exc).__name__}: "
                 f"{exc}); copy the files again from the source named in this module")
    people = people_level(twelve, duet)
    print(f"people's clues from {args.data} (read in place, not part of the repository): "
          f"{len(twelve)} 12-word boards, {len(duet)} Duet clues")
    print(f"{'guesser':<24} {'12w found':>9} {'precise':>8} {'first':>6} {'stopped':>8} "
          f"{'duet agree':>10} {'assassins/100':>13} {'s':>5}")
    print(f"{'people':<24} {people['found']:>9.1%} {people['found']:>8.1%} "
          f"{people['first']:>6.1%} {'-':>8} {people['duet_target']:>10.1%} "
          f"{people['assassins']:>13.2f} {'-':>5}")
    print("  (people: the share of their guesses that are the intended words; duet: how "
          "often the partner's first touch was a target)")
    measured: dict[str, dict[str, float]] = {}
    for name in args.guessers:
        guesser = make_agent(name, role=Role.GUESSER, cache_dir=args.cache_dir)
        start = time.perf_counter()
        w = twelve_figures(guesser, twelve)
        d = duet_figures(guesser, duet)
        seconds = time.perf_counter() - start
        measured[name] = {**w, **d}
        print(f"{name:<24} {w['found']:>9.1%} {w['precision']:>8.1%} {w['first']:>6.1%} "
              f"{w['stopped']:>8.1%} {d['agree']:>10.1%} {d['assassins']:>13.2f} "
              f"{seconds:>5.0f}")
    table_seconds = time.perf_counter() - started
    held = halves(twelve, duet, args.cache_dir) if args.halves else []
    calibrated = calibration(twelve, args.cache_dir) if args.calibration else []
    if args.write_figures:
        given = sys.argv[1:] if argv is None else list(argv)
        written = {"table": readme_table(people, measured),
                   "time": doc_figures.seconds_text(table_seconds),
                   "people_assassins": f"{people['assassins']:.2f}",
                   **{f"assassins_{name.replace('-', '_')}": f"{f['assassins']:.2f}"
                      for name, f in measured.items()}}
        if held:
            written["halves"] = halves_text(held)
            written["halves_time"] = doc_figures.seconds_text(
                time.perf_counter() - started - table_seconds)
        if calibrated:
            written["calibration"] = calibration_text(calibrated)
        doc_figures.write("people", doc_figures.command_line("benchmarks.people", given),
                          written, commit=commit)


if __name__ == "__main__":
    main()
