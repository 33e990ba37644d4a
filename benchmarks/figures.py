"""The figures the docs quote, kept in generated files so the docs cannot drift from them.

A benchmark run with ``--write-figures`` writes ``docs/figures/<name>.json``: the command as
run, the date, the git commit, the machine's CPUs (``2 CPUs``) and its figures, each the exact
text the docs quote (a number with its unit, a sentence's list of numbers, a whole Markdown
table). Figures no command here measures again in reasonable time (the blind readers' rounds,
the suite's time measured by hand, the hostile reviews' memory figures, long or load-bound
benchmarks) are kept the same way, as records: ``recorded`` says how they were made.

The README and ``docs/*.md`` quote a figure between two HTML comments, invisible once
rendered::

    the game starts after about <!-- figure firstrun.first_run -->12 s<!-- /figure -->

where ``firstrun`` names the file and ``first_run`` the key (``command``, ``date``,
``commit`` and ``cpus`` quote the file's own fields). A whole table is quoted with the
comments on lines of their own and a blank line on either side of it, a command with the
comments outside its backticks (blank lines and backticks around a figure do not count).
``tests/test_doc_figures.py`` fails when a quote differs from its file, names a file or key
that does not exist, a file holds a figure no doc quotes, or a page states a measurement (a
number of seconds, minutes, bytes, games per second or a percentage) outside a quote. A number
that is chosen, not measured (a limit, a timeout, a goal: ``a body over <!-- setting -->16
KB<!-- /setting -->``), is marked as a setting instead. A file with ``recorded`` is a record
(figures no command here can measure again in reasonable time: ``recorded`` says how they were
made, ``commit`` names the commits measured); one without it is written by the benchmark its
``command`` names, with ``--write-figures``. Writing a figures file puts its
figures in the docs at once (see the diff); ``python -m benchmarks.figures`` checks the docs
against the files, and ``--write`` puts every file's figures in them (after a record was
edited by hand).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"
FORMAT = "codenames-ai/doc-figures"
# <!-- figure NAME.KEY -->TEXT<!-- /figure -->; TEXT may span lines (a whole table).
QUOTE = re.compile(r"<!-- figure ([a-z0-9-]+)\.([a-z0-9_]+) -->(.*?)<!-- /figure -->", re.S)
FIELDS = ("command", "date", "commit", "cpus")  # a file's own fields, quotable like its figures
# <!-- setting -->TEXT<!-- /setting -->: a number someone chose (a limit, a timeout, a goal).
SETTING = re.compile(r"<!-- setting -->(.*?)<!-- /setting -->", re.S)


def documents(root: Path = ROOT) -> list[Path]:
    """The files whose figures are kept: the README and the pages in docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Quote:
    """One quoted figure: where it is, what it names and the text the document shows."""

    document: Path
    line: int
    name: str
    key: str
    text: str


def quotes(document: Path) -> list[Quote]:
    text = document.read_text(encoding="utf-8")
    return [Quote(document, text.count("\n", 0, m.start()) + 1, m[1], m[2], m[3])
            for m in QUOTE.finditer(text)]


def named_blocks(document: Path) -> dict[str, str]:
    """The files a page shows whole: its code blocks whose first line is ``# NAME.py``,
    by name (``my_spymaster.py`` in docs/api.md)."""
    text = document.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(# ([\w.-]+\.py)\n.*?)```", text, flags=re.S)
    return {name: block for block, name in blocks}


def load(name: str, folder: Path = FIGURES) -> dict[str, object]:
    path = folder / f"{name}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"{path} is not a figures file (format {FORMAT!r})")
    return document


def value(document: Mapping[str, object], key: str) -> str | None:
    """The text a quote of ``key`` must show, or None when the file has no such key."""
    if key in FIELDS:
        field = document.get(key)
        return field if isinstance(field, str) else None
    figures = document.get("figures")
    found = figures.get(key) if isinstance(figures, dict) else None
    return found if isinstance(found, str) else None


def disagreements(root: Path = ROOT) -> list[str]:
    """Every quote that differs from its figures file, one line each (none: the docs agree)."""
    problems = []
    folder = root / "docs" / "figures"
    for document in documents(root):
        for quote in quotes(document):
            where = f"{quote.document.relative_to(root)}:{quote.line}"
            if not (folder / f"{quote.name}.json").is_file():
                problems.append(f"{where}: no figures file docs/figures/{quote.name}.json")
                continue
            expected = value(load(quote.name, folder), quote.key)
            if expected is None:
                problems.append(f"{where}: docs/figures/{quote.name}.json has no {quote.key!r}")
            elif bare(quote.text)[1] != expected:
                problems.append(f"{where}: {quote.name}.{quote.key} quotes {quote.text!r}, "
                                f"the file holds {expected!r}")
    return problems


def bare(shown: str) -> tuple[str, str, str]:
    """A quote's text as (what comes before the figure, the figure, what comes after): the
    blank lines around a block (a Markdown table needs them) and the backticks of a code
    span (a command; a comment inside one would show) are the document's, not the figure's."""
    found = re.fullmatch(r"(\s*`?)(.*?)(`?\s*)", shown, re.S)
    assert found is not None  # the pattern matches any text
    return found[1], found[2], found[3]


def rewrite(text: str, name: str, document: Mapping[str, object]) -> str:
    """``text`` with every quote of file ``name`` showing the file's figures."""

    def current(match: re.Match[str]) -> str:
        if match[1] != name:
            return match[0]
        figure = value(document, match[2])
        if figure is None:
            raise KeyError(f"docs/figures/{name}.json has no {match[2]!r}, which the docs quote")
        lead, _, trail = bare(match[3])
        return f"<!-- figure {name}.{match[2]} -->{lead}{figure}{trail}<!-- /figure -->"

    return QUOTE.sub(current, text)


def update_docs(name: str, root: Path = ROOT) -> list[Path]:
    """Put the figures of ``docs/figures/<name>.json`` in every document quoting them."""
    document = load(name, root / "docs" / "figures")
    changed = []
    for path in documents(root):
        before = path.read_text(encoding="utf-8")
        after = rewrite(before, name, document)
        if after != before:
            path.write_text(after, encoding="utf-8")
            changed.append(path)
    return changed


def git_commit(root: Path = ROOT) -> str:
    """The short commit of the checkout, ``+ local changes`` when tracked files differ (the
    docs and their figures aside: writing figures changes them, and no measurement reads
    them)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=root, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no",
                                  "--", ".", ":!README.md", ":!docs"],
                                 capture_output=True, text=True, cwd=root,
                                 check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + (" + local changes" if changed else "")


def command_line(module: str, argv: list[str]) -> str:
    """The command that measures the figures (as run, but for ``--write-figures``)."""
    return shlex.join(["python", "-m", module, *(a for a in argv if a != "--write-figures")])


def write(name: str, command: str, figures: Mapping[str, str], *, commit: str,
          root: Path = ROOT) -> Path:
    """Write ``docs/figures/<name>.json`` for a run of ``command`` on ``commit`` (the
    checkout's as the run started, ``git_commit()``), put its figures in the docs that quote
    them, and say which changed."""
    folder = root / "docs" / "figures"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    document = {"format": FORMAT, "command": command,
                "date": datetime.now(UTC).date().isoformat(), "commit": commit,
                "cpus": f"{os.cpu_count()} CPUs", "figures": dict(figures)}
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    changed = update_docs(name, root)
    print(f"wrote {path.relative_to(root)}; figures changed in: "
          + (", ".join(str(p.relative_to(root)) for p in changed) or "no document"))
    return path


def seconds_text(seconds: float) -> str:
    """A wall time as the docs say it: ``12 s`` under two minutes, else ``2 min 45 s``."""
    whole = round(seconds)
    return f"{whole} s" if whole < 120 else f"{whole // 60} min {whole % 60} s"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="put every figures file's figures in the docs")
    args = parser.parse_args(argv)
    if args.write:
        for path in sorted(FIGURES.glob("*.json")):
            for changed in update_docs(path.stem):
                print(f"{changed.relative_to(ROOT)}: figures of {path.name} put in")
    problems = disagreements()
    print("\n".join(problems) or "every quoted figure agrees with docs/figures/")
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
