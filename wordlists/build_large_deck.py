"""Build ``words-large.txt``, the larger Words deck, from data the toolkit ships.

Run by hand from the project root: ``python wordlists/build_large_deck.py``. Candidates are
common English nouns (wordfreq frequency; lemminflect says noun, never adjective or adverb,
and the word is its own lemma: no plurals or verb forms) that
the default GloVe model knows and that pass the classic clue rules on their own (no names,
acronyms, foreign words, numbers, positions). They are ranked by cosine similarity to the centre
of the hand-written deck ``words.txt``, which favours concrete, picturable things like those of
the game, and the best ``--size`` are written in alphabetical order.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import wordfreq

from codenames_ai.agents.vocabulary import offensive_words, stopwords
from codenames_ai.decks import read_word_list
from codenames_ai.legality.analysis import analyze
from codenames_ai.legality.lexicon import lexicon
from codenames_ai.vectors import load_model

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1500)
    args = parser.parse_args()
    curated = read_word_list(HERE / "words.txt")
    model = load_model()
    lex = lexicon()
    centre = np.mean(model.card_matrix(list(curated)), axis=0)
    centre /= np.linalg.norm(centre)
    excluded = stopwords() | offensive_words() | set(curated)
    candidates = []
    for word in wordfreq.top_n_list("en", 60_000):
        if (not word.isalpha() or not word.isascii() or not 3 <= len(word) <= 10
                or word in excluded or word not in model or not 3.0 <= lex.zipf(word) <= 5.6):
            continue
        lemmas = lex.lemmas(word)
        if ("NOUN" not in lemmas or word not in lemmas["NOUN"] or analyze(word).intrinsic
                or set(lemmas) & {"ADJ", "ADV", "PROPN"}):
            continue
        # Singular base forms only: no plurals (minutes) and no verb forms (sitting).
        if any(word not in forms for pos, forms in lemmas.items() if pos != "NOUN"):
            continue
        if word.endswith("s") and "NOUN" in lex.lemmas(word[:-1]):
            continue
        candidates.append(word)
    scores = model.card_matrix(candidates) @ centre
    best = [candidates[i] for i in np.argsort(-scores)[: args.size]]
    lines = ["# codenames-ai larger Words deck: built by wordlists/build_large_deck.py from",
             "# wordfreq, lemminflect and GloVe (see that script); one card per line."]
    (HERE / "words-large.txt").write_text("\n".join(lines + sorted(best)) + "\n",
                                          encoding="utf-8")
    print(f"wrote {len(best)} cards from {len(candidates)} candidates")


if __name__ == "__main__":
    main()
