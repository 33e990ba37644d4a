"""Build ``wordlists/derivations.tsv``: English words derived from another word by a suffix
(whaler <- whale, pianist <- piano, chairmanship <- chairman), for the clue rule "no form of a
visible board word".

Run by hand, never imported by the package:

    apt-get install -y wordnet-base
    python wordlists/build_derivations.py

Source: WordNet 3.0's derivationally-related-form pointers (``+``), which link word senses.
A pair is kept when both are single words, the longer one is the shorter plus a suffix
(a shared beginning of at least three letters that covers all but the last two letters of the
base, and at most seven letters added), and the linked sense is the derived word's most
frequent sense in its part of speech. That last test keeps the rules from following a rare
sense: WordNet links BUTTER to BUTT and LETTER to LET (one who butts; one who lets a house),
but those are not the words people mean, so BUTTER stays a legal clue with BUTT visible.
"""

from __future__ import annotations

from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent / "derivations.tsv"
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
HEADER = (
    "# derived<TAB>base: a word and the word it is derived from by a suffix.\n"
    "# Built by wordlists/build_derivations.py from WordNet 3.0 (Copyright 2006 by Princeton\n"
    "# University, used under the WordNet 3.0 licence; see models/wordnet-3.0.md).\n"
)


def _synset_pos(code: str) -> str:
    return "a" if code == "s" else code


def read_synsets() -> dict[tuple[str, str], tuple[list[str], list[tuple[str, str, str, str]]]]:
    """(offset, pos) -> (words, pointers) from the data.* files (format: wndb(5WN))."""
    synsets = {}
    for pos, name in POS_FILES.items():
        for line in (WORDNET_DIR / f"data.{name}").open(encoding="latin-1"):
            if line.startswith("  "):  # the licence header
                continue
            fields = line.split(" |")[0].split()
            offset, kind, count = fields[0], fields[2], int(fields[3], 16)
            words = [fields[4 + 2 * i].lower().split("(")[0] for i in range(count)]
            at = 4 + 2 * count
            pointers = [tuple(fields[at + 1 + 4 * k: at + 5 + 4 * k])
                        for k in range(int(fields[at]))]
            synsets[(offset, _synset_pos(kind))] = (words, pointers)
        assert pos in {p for _, p in synsets}
    return synsets  # type: ignore[return-value]


def first_senses() -> dict[tuple[str, str], str]:
    """(lemma, pos) -> the offset of its most frequent sense (index.* lists senses by
    frequency)."""
    first = {}
    for pos, name in POS_FILES.items():
        for line in (WORDNET_DIR / f"index.{name}").open(encoding="latin-1"):
            if line.startswith("  "):
                continue
            fields = line.split()
            lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
            offsets = fields[6 + pointer_count:]
            assert len(offsets) == synset_count, line
            first[(lemma, pos)] = offsets[0]
    return first


def _shared_start(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def is_suffixation(base: str, derived: str) -> bool:
    shared = _shared_start(base, derived)
    return (len(derived) > len(base) and shared >= 3 and shared >= len(base) - 2
            and len(derived) - shared <= 7)


def derivations() -> dict[str, set[str]]:
    synsets, first = read_synsets(), first_senses()
    found: dict[str, set[str]] = {}
    for (offset, pos), (words, pointers) in synsets.items():
        for symbol, target, target_pos, source_target in pointers:
            source, goal = int(source_target[:2], 16), int(source_target[2:], 16)
            if symbol != "+" or not source or not goal:
                continue
            word = words[source - 1]
            other = synsets[(target, _synset_pos(target_pos))][0][goal - 1]
            if not (word.isalpha() and other.isalpha() and word.isascii() and other.isascii()):
                continue
            # Each link is stored from both ends; keep it from the derived word's end, and
            # only when this is the derived word's everyday sense.
            if is_suffixation(other, word) and first.get((word, pos)) == offset:
                found.setdefault(word, set()).add(other)
    return found


def main() -> None:
    table = derivations()
    lines = [f"{derived}\t{base}" for derived in sorted(table) for base in sorted(table[derived])]
    OUT.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(lines)} pairs, {len(table)} derived words")


if __name__ == "__main__":
    main()
