"""Build the EAT mind: one word vector per word, from people's word associations only.

Run by hand, never imported by the package:

    python models/build_eat.py [PATH/EATnew.zip]   # writes models/eat-associations.npz

The Edinburgh Associative Thesaurus (Kiss, Armstrong, Milroy and Piper, 1968-71) showed 8,210
stimulus words to about 100 people each and counted the first word each person answered. Its
Pajek version (EATnew.zip, from github bavla/Nets data/Pajek/dic/EAT/) is read with
codenames_ai.vectors.norms.read_eat; the default path is the shared copy on the build machine.

Recipe: forward strength P(response|cue) = count / the cue's total; association in both
directions, A = F + F^T, rows scaled to sum to 1 (P); indirect links, M = P + 0.5 P @ P (two
steps, entries below 1e-4 dropped), so two cues that share responses are linked; positive PMI
of M (context smoothing 0.75); randomized truncated SVD (seed 0, one BLAS thread) to 200
dimensions, rows = U S (scaled by the singular values), centred and L2-normalised. Words: lower
case, letters only (EAT phrases as a_b), a cue or a response given at least twice; the file
keeps those among models/common.mind_words(). The American spelling of a British word (colour
-> color) takes the British word's vector when mind_words has it and the EAT lacks it or holds
it only as a response given less often than the British word (theater, given twice; theatre is
a cue). A word that is no cue and that people gave fewer than MIN_EVIDENCE (10) times in all is
left out, so the mind abstains on it: its vector rests on a handful of answers (automobile,
given 4 times, came out nearest to relation and tennis, and the panel clued it so). A mind
word the EAT lacks that inflects EAT words (installed, knives; lemminflect's lemmas) takes the
mean of their vectors. A deck card or picture tag the EAT never saw or left out (pizza, ninja)
takes the weighted mean of the EAT vectors of the 10 EAT stimulus words nearest to it
by the mean cosine of the shipped WordNet and MiniLM minds; the meta lists each one. Rows are
stored as int8 with one float32 scale each.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import wordfreq

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from build_wordnet import (  # noqa: E402
    RELATED_HOLDOUT,
    RELATED_TUNE,
    Mind,
    checks,
    quantize,
)
from common import MODELS_DIR, WORDLISTS_DIR, deck_cards, mind_words  # noqa: E402

from codenames_ai.vectors.norms import (  # noqa: E402
    Norms,
    NormsRecipe,
    american_forms,
    association_vectors,
    evidence,
    read_eat,
    with_american_spellings,
    with_base_forms,
)
from codenames_ai.vectors.shipped import read_shipped  # noqa: E402

EAT_ZIP = Path("/work/shared/humandata/eat/EATnew.zip")
OUT = MODELS_DIR / "eat-associations.npz"
SOURCE = ("Edinburgh Associative Thesaurus (Kiss, Armstrong, Milroy and Piper, 1968-71), "
          "Pajek version EATnew.zip (V. Batagelj, 2013)")
LICENCE = "Open Government Licence v3"
ATTRIBUTION = "Edinburgh Associative Thesaurus, University of Edinburgh, Open Government Licence v3"
BUILD_COMMAND = "python models/build_eat.py [PATH/EATnew.zip]"
BACKOFF_MINDS = ("wordnet-3.0", "minilm-l6-words")
BACKOFF_NEIGHBOURS = 10
NEIGHBOUR_PROBES = "gold piano doctor ocean scissors dragon bank apple winter knife moon".split()
# Two cards and the word people link them with (the human data's README): its rank among words
# scored by min(cos(word, a), cos(word, b)).
LINKS = [("gold", "silver", ("metal",)), ("piano", "guitar", ("music", "instrument")),
         ("chair", "table", ("furniture",)), ("lion", "tiger", ("cat", "animal")),
         ("king", "queen", ("royal", "crown")), ("apple", "banana", ("fruit",)),
         ("doctor", "nurse", ("hospital",)), ("car", "train", ("transport", "travel"))]
FAMILIAR_ZIPF = 3.3  # the panel's floor for clue words
MIN_EVIDENCE = 10  # answers in all for a word that is no cue (a cue has about 100)


def back_off(words: list[str], vectors: np.ndarray, stimuli: set[str], cards: list[str]
             ) -> tuple[list[str], np.ndarray, dict[str, list[str]]]:
    """Vectors for the cards (and picture tags) the EAT lacks and a model cannot read from
    their parts either: the weighted mean of the EAT vectors of the stimulus words nearest to
    them (not stop words) by the mean cosine of the other shipped minds that know the card."""
    row = {w: i for i, w in enumerate(words)}
    stop = set((WORDLISTS_DIR / "stopwords.txt").read_text(encoding="utf-8").split())
    anchors = [w for w in words if w in stimuli and w not in stop and len(w) > 2]
    minds = []
    for name in BACKOFF_MINDS:
        other_words, other = read_shipped(name)
        index = {w: i for i, w in enumerate(other_words)}
        known = np.array([a in index for a in anchors])
        matrix = other[[index.get(a, 0) for a in anchors]]
        minds.append((index, other, known, matrix / np.linalg.norm(matrix, axis=1)[:, None]))
    missing = [c for c in dict.fromkeys(cards)
               if c not in row and not all(part in row for part in c.split("_"))]
    added: list[str] = []
    rows: list[np.ndarray] = []
    used: dict[str, list[str]] = {}
    for card in missing:
        judges = [m for m in minds if card in m[0]]  # the minds that know the card
        if not judges:
            continue
        mean = np.zeros(len(anchors))
        for index, other, known, matrix in judges:  # anchors all of them know
            own = other[index[card]] / np.linalg.norm(other[index[card]])
            mean += np.where(known, matrix @ own / len(judges), -np.inf)
        best = np.argsort(-mean)[:BACKOFF_NEIGHBOURS]
        weights = np.maximum(mean[best], 1e-3)
        vector = (weights[:, None] * vectors[[row[anchors[i]] for i in best]]).sum(axis=0)
        added.append(card)
        rows.append(vector / np.linalg.norm(vector))
        used[card] = [anchors[i] for i in best[:5]]
    return words + added, np.vstack([vectors, *rows]) if rows else vectors, used


def link_ranks(mind: Mind, groups: dict[str, np.ndarray]) -> dict[str, object]:
    """For each pair: the rank of the linking word among the words of each group, by
    min(cos(word, a), cos(word, b)), and the top 5 familiar words."""
    result: dict[str, object] = {}
    for a, b, links in LINKS:
        score = np.minimum(mind.vectors @ mind.vectors[mind.row[a]],
                           mind.vectors @ mind.vectors[mind.row[b]])
        score[[mind.row[a], mind.row[b]]] = -9.0
        order = np.argsort(-score)
        ranks = {}
        for group, members in groups.items():
            ranked = {mind.words[i]: r for r, i in enumerate((i for i in order if members[i]),
                                                             1)}
            ranks[group] = ranked
        result[f"{a}+{b}"] = {
            **{link: {group: ranks[group].get(link) for group in groups} for link in links},
            "top_familiar": [mind.words[i] for i in order if groups["familiar"][i]][:5],
        }
    return result


def own_neighbours(mind: Mind, own: np.ndarray, word: str, k: int = 8) -> list[str]:
    """The nearest of the words the EAT itself holds (no added spellings, inflections or
    backed-off cards)."""
    sims = np.where(own, mind.vectors @ mind.vectors[mind.row[word]], -9.0)
    return [mind.words[i] for i in np.argsort(-sims)[: k + 1] if mind.words[i] != word][:k]


def given_as_response(norms: Norms, words: list[str], american: dict[str, str]
                      ) -> np.ndarray:
    """How many times people gave each word as an association (summed over every cue): how
    readily people say it. An American spelling counts its British word's; an inflection or
    a backed-off card, which the EAT never heard, 0."""
    given: dict[str, float] = {}
    for (_, response), count in norms.counts.items():
        given[response] = given.get(response, 0.0) + count
    return np.array([given.get(american.get(w, w), 0.0) for w in words], dtype=np.float32)


def main() -> None:
    start = time.time()
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else EAT_ZIP
    recipe = NormsRecipe()
    norms = read_eat(source)
    eat_words, floats = association_vectors(norms, recipe)
    wanted = mind_words()
    known = set(wanted)
    said = evidence(norms)
    kept = [i for i, w in enumerate(eat_words) if w in known and said[w] >= MIN_EVIDENCE]
    words, floats = [eat_words[i] for i in kept], floats[kept]
    eat_set = set(words)
    american = american_forms(words, known.__contains__, said)
    words, floats = with_american_spellings(words, floats, known.__contains__, said)
    words, floats, inflected = with_base_forms(words, floats, wanted)
    words, floats, backed_off = back_off(words, floats, set(norms.totals), deck_cards())
    order = {w: i for i, w in enumerate(wanted)}
    ranked = sorted(range(len(words)), key=lambda i: order[words[i]])  # frequent words first
    words, floats = [words[i] for i in ranked], floats[ranked]
    vectors, scales = quantize(floats)
    mind = Mind(words, vectors, scales)
    familiar = np.array([wordfreq.zipf_frequency(w.replace("_", " "), "en") >= FAMILIAR_ZIPF
                         for w in words])
    own = np.array([w in eat_set for w in words])
    figures = checks(mind)
    figures["neighbours"] = {w: mind.neighbours(w) for w in NEIGHBOUR_PROBES if w in mind.row}
    figures["neighbours_eat_words"] = {w: own_neighbours(mind, own, w) for w in NEIGHBOUR_PROBES}
    figures["links"] = link_ranks(mind, {"all": np.ones(len(words), bool), "familiar": familiar,
                                         "eat_words": own})
    figures["words"] = {
        "eat_vocabulary": len(eat_words), "eat_stimuli": len(norms.totals), "kept": len(kept),
        "american_spellings": len(american), "inflections": inflected,
        "backed_off_cards": len(backed_off),
        "total": len(words), "familiar": int(familiar.sum()),
    }
    figures["build_seconds"] = round(time.time() - start)
    meta = {
        "source": SOURCE, "licence": LICENCE, "attribution": ATTRIBUTION,
        "build_command": BUILD_COMMAND, "D": recipe.dims,
        "recipe": __doc__.split("Recipe: ", 1)[1].split("\n\n")[0].replace("\n", " "),
        "weights": {**asdict(recipe), "backoff_minds": BACKOFF_MINDS,
                    "backoff_neighbours": BACKOFF_NEIGHBOURS},
        "american_spellings": american, "backed_off": backed_off, "figures": figures,
        "pair_sets": {"tuning": RELATED_TUNE, "holdout": RELATED_HOLDOUT},
    }
    np.savez_compressed(OUT, words=np.array(words), vectors=vectors, scales=scales,
                        said=given_as_response(norms, words, american),
                        meta=np.array(json.dumps(meta)))
    print(json.dumps(figures, indent=1))
    print(f"{OUT}: {len(words)} words x {recipe.dims}, {OUT.stat().st_size / 1e6:.1f} MB, "
          f"{figures['build_seconds']} s")


if __name__ == "__main__":
    main()
