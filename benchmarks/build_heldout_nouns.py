"""Build ``heldout_nouns.txt``: common, concrete English nouns that no shipped deck holds.

Boards dealt from it test spymasters on words they were never tuned on. Run from the project
root after ``apt-get install -y wordnet-base``: ``python benchmarks/build_heldout_nouns.py``.

A word is kept when its most frequent WordNet 3.0 sense (the highest tagged count in
``cntlist.rev``; for never-tagged words, the first noun sense of a word that is only a noun)
is a noun in a concrete lexicographer file, written in lower case there (no proper names);
it is alphabetic, at least 3 letters, its own singular lemma, common (wordfreq Zipf >= 3.3),
known to GloVe, breaks no clue rule on its own (names, acronyms, foreign words), is not
offensive and is in none of ``wordlists/words.txt``, ``words-large.txt`` or the tags of
``pictures.tsv``, nor in a short hand-kept list of names and unkind words. The most common
``--size`` (at most a fifth of them people) are written in alphabetical order.

WordNet is read straight from its files: Debian's package has no ``lexnames`` file, which
nltk's reader needs, but each data line carries its lexicographer file number.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import wordfreq

from codenames_ai.agents.vocabulary import offensive_words
from codenames_ai.decks import read_word_list, wordlists_dir
from codenames_ai.legality.analysis import analyze
from codenames_ai.legality.language import lexicon
from codenames_ai.pictures import shipped_deck
from codenames_ai.vectors import load_model

HERE = Path(__file__).resolve().parent
WORDNET = Path("/usr/share/wordnet")
MIN_ZIPF = 3.3
# Lexicographer file numbers (WordNet's lexnames(5WN)) of the concrete noun files.
CONCRETE = {5: "noun.animal", 6: "noun.artifact", 8: "noun.body", 13: "noun.food",
            17: "noun.object", 18: "noun.person", 20: "noun.plant", 27: "noun.substance"}
# Common nouns for people are most of the candidates (roles: nurse, mayor...); a board full of
# them plays unlike Codenames, so they are capped.
PEOPLE_SHARE = 0.2
# Let through by the filters above, kept off boards by hand (read once over the output):
# names and brands; insults and words a table may find hurtful or awkward; and words WordNet
# files as things that a player would not take for a thing.
EXCLUDED = frozenset("""
bobby calif dell khan manila mart mayo mike nova piper sierra stein superman yahoo
atheist babe bender cannabis cocaine condom coward dope fanny fetus filth heroin idiot liar
lingerie loser marijuana mistress moron murderer nipple opium slave sperm stripper terrorist
testosterone traitor uterus voodoo womb
cache formulation import innovation instrumentation mankind nobody obstruction precursor
repository sham stigma
""".split())
NOUN_TYPE = "1"  # the synset type digit of a noun sense key (2 verb, 3 adj, 4 adv, 5 adj)


@dataclass
class Tagged:
    """A lemma's tagged counts in ``cntlist.rev``: the total per part of speech digit, and its
    most frequent noun sense (number and count)."""

    totals: dict[str, int] = field(default_factory=dict)
    noun_sense: int = 0
    noun_count: int = -1

    @property
    def mostly_noun(self) -> bool:
        noun = self.totals.get(NOUN_TYPE, 0)
        return noun > 0 and all(noun > total for pos, total in self.totals.items()
                                if pos != NOUN_TYPE)


def read_index(pos: str) -> dict[str, list[int]]:
    """Lemma -> synset offsets, most frequent sense first, from ``index.<pos>``."""
    offsets: dict[str, list[int]] = {}
    for line in (WORDNET / f"index.{pos}").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):  # the licence header
            continue
        fields = line.split()
        synsets = int(fields[2])
        offsets[fields[0]] = [int(offset) for offset in fields[-synsets:]]
    return offsets


def read_counts() -> dict[str, Tagged]:
    """Tagged counts per lemma from ``cntlist.rev`` (``lemma%type:...  sense  count``)."""
    tagged: dict[str, Tagged] = {}
    for line in (WORDNET / "cntlist.rev").read_text(encoding="utf-8").splitlines():
        key, number, count = line.split()
        lemma, _, rest = key.partition("%")
        pos = "3" if rest[0] == "5" else rest[0]  # satellites are adjectives
        entry = tagged.setdefault(lemma, Tagged())
        entry.totals[pos] = entry.totals.get(pos, 0) + int(count)
        # Ties go to the lower sense number, WordNet's own frequency order.
        if pos == NOUN_TYPE and (int(count), -int(number)) > (entry.noun_count,
                                                               -entry.noun_sense):
            entry.noun_sense, entry.noun_count = int(number), int(count)
    return tagged


def noun_synset(data: bytes, offset: int) -> tuple[int, list[str]]:
    """The lexicographer file number and the words (as written) of the noun synset at
    ``offset`` in ``data.noun`` (offsets are byte positions)."""
    line = data[offset:data.index(b"\n", offset)].decode("utf-8").split()
    words = [line[4 + 2 * i] for i in range(int(line[3], 16))]
    return int(line[1]), words


def concrete_nouns() -> dict[str, str]:
    """WordNet lemmas whose most frequent sense is a concrete, lower-case noun, with the
    lexicographer file of that sense."""
    nouns = read_index("noun")
    others = {lemma for pos in ("verb", "adj", "adv") for lemma in read_index(pos)}
    counts = read_counts()
    data = (WORDNET / "data.noun").read_bytes()
    kept: dict[str, str] = {}
    for lemma, offsets in nouns.items():
        if not (lemma.isascii() and lemma.isalpha() and len(lemma) >= 3):
            continue
        tagged = counts.get(lemma)
        if tagged is not None:
            if not tagged.mostly_noun:
                continue
            offset = offsets[tagged.noun_sense - 1]
        elif lemma in others:
            continue  # never tagged and also a verb or adjective: its main sense is unknown
        else:
            offset = offsets[0]
        lexfile, words = noun_synset(data, offset)
        if lexfile in CONCRETE and lemma in words:  # as written: "Turkey" would not match
            kept[lemma] = CONCRETE[lexfile]
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500)
    args = parser.parse_args()
    if not (WORDNET / "data.noun").is_file():
        raise SystemExit(f"no WordNet under {WORDNET}: apt-get install -y wordnet-base")
    decks = wordlists_dir()
    shipped = set(read_word_list(decks / "words.txt")) | set(read_word_list(
        decks / "words-large.txt"))
    shipped |= {tag for card in shipped_deck().cards for tag in card.tags}
    shipped = {word.lower() for word in shipped}
    offensive = offensive_words()
    model = load_model()
    lex = lexicon()
    candidates: list[tuple[float, str, str]] = []
    for word, lexfile in concrete_nouns().items():
        zipf = wordfreq.zipf_frequency(word, "en")
        if (zipf < MIN_ZIPF or word in shipped or word in EXCLUDED or word not in model
                or analyze(word).intrinsic):
            continue
        lemmas = lex.lemmas(word)
        # Singular base forms only (no scissors), never a verb form (casting) or an adjective
        # or adverb (concrete, female), as in wordlists/build_large_deck.py.
        if (lemmas.get("NOUN") != (word,) or set(lemmas) & {"ADJ", "ADV", "PROPN"}
                or any(word not in forms for forms in lemmas.values())):
            continue
        if offensive & {word, *(lemma for forms in lemmas.values() for lemma in forms)}:
            continue
        candidates.append((zipf, word, lexfile))
    candidates.sort(key=lambda item: (-item[0], item[1]))
    people = int(args.size * PEOPLE_SHARE)
    best = [word for _, word, lexfile in candidates if lexfile == "noun.person"][:people]
    best += [word for _, word, lexfile in candidates if lexfile != "noun.person"][
        : args.size - len(best)]
    lines = [
        "# Held-out nouns: common, concrete English nouns in no shipped deck (words.txt,",
        "# words-large.txt, pictures.tsv tags). Built by benchmarks/build_heldout_nouns.py from",
        f"# WordNet 3.0 (most frequent sense a noun in {', '.join(sorted(CONCRETE.values()))}),",
        f"# wordfreq Zipf >= {MIN_ZIPF}, singular, in GloVe, not offensive; the most common "
        f"{len(best)}, at most {PEOPLE_SHARE:.0%} people; sorted.",
    ]
    out = HERE / "heldout_nouns.txt"
    out.write_text("\n".join(lines + sorted(best)) + "\n", encoding="utf-8")
    print(f"wrote {len(best)} nouns of {len(candidates)} candidates to {out}")


if __name__ == "__main__":
    main()
