"""People's pair clues: given the cards a person linked in one Codenames Duet clue, what does a
spymaster say?

Run by hand: ``python -m benchmarks.pairs --data ../shared/humandata [--spymasters ID,ID]
[--limit N] [--examples 5] [--seed 0] [--cache-dir DIR] [--write-figures]``. ``--data`` is a
folder holding ``duet-clues-val.jsonl`` (Shaikh et al. 2023; kept outside the repository and
never copied into it). Every row whose person aimed at 2 or more targets becomes one board
through the rules core: the targets are our agents, the row's assassins are assassins (a custom
layout, one row of cards), its bystanders are bystanders, plus one card of the other team (the
core needs each team to hold an agent; Duet has no other team), drawn from the shipped Words
deck. The seed orders the cards and draws that card. Each spymaster gives one clue from our
spymaster's view of the first turn. Per spymaster it prints the share of clues whose word
matches the person's in base form (lower case, lemmas by ``codenames_ai.legality.lexicon``; a
match is a shared form), with a 95% Wilson interval, the share of clues numbered 2 or more, the
mean clue number, and the rows skipped with why; the people's own clue number on the same rows
for context; ``--examples N`` rows side by side. Rows whose person's clue breaks the classic
clue rules on its board are skipped for everyone: no spymaster may give it. ``--write-figures``
writes the README's table and figures to ``docs/figures/pairs.json`` and puts them in the
README (``benchmarks/figures.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from codenames_ai import __version__
from codenames_ai.agents import make_agent
from codenames_ai.agents.registry import DEFAULT_SPYMASTER
from codenames_ai.core import (
    Board,
    Clue,
    ClueContext,
    CodenamesError,
    GameState,
    Identity,
    Layout,
    ModelError,
    Role,
    RuleSet,
    Spymaster,
    Team,
    check_clue,
    custom,
    derive_seed,
    resolve_validator,
)
from codenames_ai.decks import default_deck
from codenames_ai.harness.summary import wilson
from codenames_ai.legality.language import lexicon

from . import figures

DATA_FILE = "duet-clues-val.jsonl"
OURS = Team.RED


@dataclass(frozen=True)
class Row:
    """One person's clue from the file (its line number, 1-based)."""

    line: int
    targets: tuple[str, ...]
    assassins: tuple[str, ...]
    bystanders: tuple[str, ...]
    clue: str

    @property
    def words(self) -> tuple[str, ...]:
        return self.targets + self.assassins + self.bystanders


@dataclass
class Tally:
    """One spymaster's clues over the rows it answered."""

    matches: int = 0
    numbers: list[int] = field(default_factory=list)
    illegal: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    examples: list[tuple[Row, Clue]] = field(default_factory=list)


def read_rows(path: Path) -> list[Row]:
    rows = []
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.strip():
            data = json.loads(text)
            rows.append(Row(line, tuple(data["targets"]), tuple(data["assassins"]),
                            tuple(data["bystanders"]), str(data["clue"]).strip()))
    return rows


def base_forms(word: str) -> frozenset[str]:
    """The word in lower case and its lemmas under every part of speech."""
    plain = word.strip().lower()
    return frozenset({plain, *(lemma.lower() for lemmas in lexicon().lemmas(plain).values()
                               for lemma in lemmas)})


def same_base(a: str, b: str) -> bool:
    return bool(base_forms(a) & base_forms(b))


def rules_for(row: Row) -> RuleSet:
    """A custom layout for the row's cards plus the other team's one agent, in one row."""
    layout = Layout(rows=1, cols=len(row.words) + 1, first_team_agents=len(row.targets),
                    second_team_agents=1, double_agent=False, bystanders=len(row.bystanders),
                    assassins=len(row.assassins))
    return custom(layout)


def persons_clue(row: Row) -> Clue:
    return Clue(row.clue, len(row.targets))


def rule_broken(rules: RuleSet, row: Row, extra: tuple[str, ...] = ()) -> str | None:
    """The clue rule the person's clue breaks beside the row's cards (and ``extra``)."""
    context = ClueContext(rules=rules, team=OURS, visible_words=row.words + extra,
                          covered_words=(), cards_left=len(row.targets))
    violation = check_clue(persons_clue(row), context, resolve_validator(rules.clue_rules))
    return None if violation is None else violation.rule


def board_for(row: Row, deck: tuple[str, ...], seed: int) -> GameState:
    """The row's board at its first turn, our team to clue. The other team's card is the
    first deck word (in a seeded order) not on the row that leaves the person's clue legal."""
    rules = rules_for(row)
    rng = random.Random(derive_seed(seed, f"pairs row {row.line}"))
    on_row = {w.lower() for w in row.words}
    candidates = [w for w in deck if w.lower() not in on_row]
    rng.shuffle(candidates)
    other = next(w for w in candidates if rule_broken(rules, row, (w,)) is None)
    cards = ([(w, OURS.agent) for w in row.targets]
             + [(w, Identity.ASSASSIN) for w in row.assassins]
             + [(w, Identity.BYSTANDER) for w in row.bystanders] + [(other, OURS.other.agent)])
    rng.shuffle(cards)
    board = Board(words=tuple(w for w, _ in cards), key=tuple(k for _, k in cards),
                  starting_team=OURS)
    return GameState(rules, board)


def row_problem(row: Row) -> str | None:
    """Why the row cannot be a board for anyone, or ``None``."""
    if len({w.lower() for w in row.words}) != len(row.words):
        return "a card twice on the row"
    broken = rule_broken(rules_for(row), row)
    return None if broken is None else f"person's clue breaks the rule {broken!r}"


def run(rows: list[Row], labels: list[str], seed: int, cache_dir: str | None,
        examples: int) -> tuple[dict[str, Tally], dict[str, list[str]], list[Row]]:
    deck = default_deck()
    common: dict[str, list[str]] = {}
    usable = []
    for row in rows:
        problem = row_problem(row)
        if problem is None:
            usable.append(row)
        else:
            common.setdefault(problem, []).append(row.clue)
    tallies: dict[str, Tally] = {}
    for label in labels:
        options = {} if cache_dir is None else {"cache_dir": cache_dir}
        spymaster: Spymaster = make_agent(label, role=Role.SPYMASTER, **options)
        tally = tallies[label] = Tally()
        for row in usable:
            state = board_for(row, deck, seed)
            start_game = getattr(spymaster, "start_game", None)
            if callable(start_game):
                start_game(derive_seed(seed, f"pairs spymaster row {row.line}"))
            try:
                clue = spymaster.give_clue(state.spymaster_view(OURS))
            except ModelError as exc:
                tally.skipped[f"no clue: {exc}"] += 1
                continue
            tally.illegal += state.check_clue(clue) is not None
            tally.matches += same_base(clue.word, row.clue)
            # 0 and unlimited (expert clues) count as 0 here.
            tally.numbers.append(clue.number if isinstance(clue.number, int) else 0)
            if len(tally.examples) < examples:
                tally.examples.append((row, clue))
    return tallies, common, usable


def report(tallies: dict[str, Tally], common: dict[str, list[str]], usable: list[Row],
           all_rows: list[Row]) -> None:
    print(f"\nrows skipped for every spymaster: {sum(map(len, common.values()))}"
          + "".join(f"; {len(clues)} {why} ({', '.join(clues)})" for why, clues in common.items()))
    header = (f"{'spymaster':28} {'rows':>4} {'same base form % [95% CI]':>26} {'N>=2 %':>7} "
              f"{'mean N':>6} {'illegal':>7}  skipped")
    print(header)
    print("-" * len(header))
    for label, t in tallies.items():
        n = len(t.numbers)
        low, high = wilson(t.matches, n)
        share = 100 * t.matches / n if n else 0.0
        multi = 100 * sum(x >= 2 for x in t.numbers) / n if n else 0.0
        mean = sum(t.numbers) / n if n else 0.0
        skipped = ", ".join(f"{k} x{v}" for k, v in t.skipped.items()) or "0"
        cell = f"{share:5.1f} [{100 * low:4.1f}-{100 * high:5.1f}]"
        print(f"{label:28} {n:4d} {cell:>26} {multi:7.1f} {mean:6.2f} {t.illegal:7d}  {skipped}")
    people = [len(r.targets) for r in usable]
    mean_people = sum(people) / len(people) if people else 0.0
    print(f"{'people (the data)':28} {len(people):4d} {'(the reference)':>26} "
          f"{100.0 if people else 0.0:7.1f} {mean_people:6.2f}")
    print(f"people's number on the usable rows: {dict(sorted(Counter(people).items()))}; in the "
          f"whole file: {dict(sorted(Counter(len(r.targets) for r in all_rows).items()))}")
    for label, t in tallies.items():
        if t.examples:
            print(f"\nexamples, {label}:")
        for row, clue in t.examples:
            print(f"  line {row.line:3d}  targets {'+'.join(row.targets):28} "
                  f"person {row.clue}: {len(row.targets)}   spymaster {clue}")


def readme_figures(tallies: dict[str, Tally], usable: list[Row]) -> dict[str, str]:
    """The README's table (each spymaster's matches with their interval, its clues for 2+
    cards, its mean number; the people's own), the rows, and each spymaster's matches and
    clues for 2+ as the prose says them (keys by id: ``multi_panel_spymaster_v3``)."""
    rows = ["| spymaster | same clue as the person (base form) | aims at 2+ cards | mean N |",
            "|---|---|---|---|"]
    said = {"rows": str(len(usable))}
    for label, t in tallies.items():
        n = max(len(t.numbers), 1)
        low, high = wilson(t.matches, len(t.numbers))
        multi = 100 * sum(x >= 2 for x in t.numbers) / n
        rows.append(f"| {label} | {100 * t.matches / n:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"
                    f" | {multi:.1f}% | {sum(t.numbers) / n:.2f} |")
        key = label.replace("-", "_").replace(":", "_").replace(".", "_").lower()
        said[f"matches_{key}"] = str(t.matches)
        said[f"multi_{key}"] = f"{multi:.1f}%"
    people = [len(r.targets) for r in usable]
    rows.append(f"| people (the data) | | 100.0% | {sum(people) / max(len(people), 1):.2f} |")
    return {"table": "\n".join(rows), **said}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None,
                        help=f"folder holding {DATA_FILE} (outside the repository)")
    parser.add_argument("--spymasters", default=f"{DEFAULT_SPYMASTER},glove-ev-spymaster-v1",
                        help="comma-separated registry ids")
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N rows with 2+ targets")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/pairs.json and the README's figures")
    args = parser.parse_args(argv)
    commit = figures.git_commit()  # the code measured, before anything changes
    given = sys.argv[1:] if argv is None else argv
    path = args.data / DATA_FILE if args.data is not None else None
    if path is None or not path.is_file():
        where = "no --data given" if path is None else f"{path} not found"
        sys.exit(f"benchmarks.pairs: {where}; it needs the people's Codenames Duet clues "
                 f"({DATA_FILE}, kept outside the repository): pass --data DIR, the folder "
                 "of a copy, e.g. --data ../shared/humandata")
    started = time.perf_counter()
    all_rows = read_rows(path)
    rows = [r for r in all_rows if len(r.targets) >= 2][:args.limit]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    print("python -m benchmarks.pairs " + shlex.join(given))
    print(f"codenames-ai {__version__}; file {path.resolve()} (sha256 {digest}), "
          f"{len(all_rows)} rows; rows with 2+ targets, in file order: {len(rows)}"
          + (f" (--limit {args.limit})" if args.limit is not None else ""))
    print("board: a custom 1-row layout of the row's cards: targets = our agents, assassins, "
          "bystanders, plus one other-team agent drawn from the shipped Words deck (the core "
          "needs one); cards shuffled and that card drawn from --seed "
          f"{args.seed}; classic clue rules; the spymaster's view of our first turn")
    print("match: the clue word and the person's share a base form (lower case or a "
          "lemminflect lemma of any part of speech)")
    labels = [s.strip() for s in args.spymasters.split(",") if s.strip()]
    try:
        tallies, common, usable = run(rows, labels, args.seed, args.cache_dir, args.examples)
    except CodenamesError as exc:
        sys.exit(f"benchmarks.pairs: {exc}")
    report(tallies, common, usable, all_rows)
    seconds = time.perf_counter() - started
    print(f"\n{seconds:.1f} s")
    if args.write_figures:
        figures.write("pairs", figures.command_line("benchmarks.pairs", given),
                      {**readme_figures(tallies, usable), "time": figures.seconds_text(seconds)},
                      commit=commit)


if __name__ == "__main__":
    main()
