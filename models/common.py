"""What every mind build script shares: the word list a mind is built for.

A mind covers broad everyday English, not just our decks, so that a user's own deck works:
the 80,000 most frequent lower-case alphabetic words of wordfreq's English list, every card of
the shipped word decks (phrases as ``ice_cream``) and every picture tag. Deterministic: the
same installed wordfreq gives the same list.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = ROOT / "models"
WORDLISTS_DIR = ROOT / "wordlists"
FREQUENT_WORDS = 80_000
_WORD = re.compile(r"^[a-z]+$")


def deck_cards() -> list[str]:
    """Every card of the shipped word decks and every picture tag, as mind keys."""
    keys: list[str] = []
    for path in sorted(WORDLISTS_DIR.glob("words*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                keys.append(re.sub(r"[\s\-]+", "_", line.lower()))
    for line in (WORDLISTS_DIR / "pictures.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        keys.extend(line.split("\t", 1)[1].split())
    return keys


def mind_words() -> list[str]:
    """The words (and deck phrases) a mind is built for, frequent words first, no repeats."""
    import wordfreq

    frequent = [w for w in wordfreq.top_n_list("en", 200_000) if _WORD.match(w)]
    return list(dict.fromkeys(frequent[:FREQUENT_WORDS] + deck_cards()))


if __name__ == "__main__":
    words = mind_words()
    print(len(words), words[:10], words[-5:])
