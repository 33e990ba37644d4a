"""Build the WordNet 3.0 mind: one word vector per covered word, from a hand-built lexicon only.

Run by hand, never imported by the package:

    apt-get install -y wordnet-base
    python models/build_wordnet.py            # writes models/wordnet-3.0.npz, prints the checks

Recipe: every word is a mixture of its senses, weighted by their SemCor tag counts (cntlist.rev)
plus a prior falling with sense rank, so the common senses dominate; an inflected form that
WordNet lacks (knives) takes its morphy base forms' senses. A sense's features are the synsets it
reaches (itself; hypernyms up to 4 steps and hyponyms up to 2, decaying with distance; part/whole,
substance, member; derivation; domain; similar-to/also-see; antonyms) and dictionary lemmas: the
words of its own and its neighbours' glosses and examples and the lemmas of its synsets, while a
word also names itself, so a clue that appears in a card's definition (the DETECT paper's
dictionary relevance) shares a feature with that card. The word x feature matrix is TF-IDF
weighted and L2-normalised per block (synsets, lemmas), reduced by a randomized truncated SVD to
D dimensions, centred and L2-normalised; rows are stored as int8 with one float32 scale each.

The data files are parsed here directly (their format is wndb(5WN)): nltk's reader refuses paths
outside its data folders and wants a lexnames file Debian does not ship.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MODELS_DIR, WORDLISTS_DIR, mind_words  # noqa: E402

WORDNET_DIR = Path("/usr/share/wordnet")
OUT = MODELS_DIR / "wordnet-3.0.npz"
SOURCE = "WordNet 3.0 (Princeton, WordNet licence) from Debian wordnet-base"
LICENCE = (  # the WordNet licence asks that its notice travel with every copy
    "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Used under the "
    "WordNet 3.0 licence; its full text is in models/wordnet-3.0.md."
)
BUILD_COMMAND = "apt-get install -y wordnet-base && python models/build_wordnet.py"
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

# Pointer symbols of wndb(5WN), grouped by how much a Codenames player feels them.
HYPERNYM = {"@", "@i"}
RELATION_GROUPS: dict[str, set[str]] = {
    "part": {"#m", "#s", "#p", "%m", "%s", "%p"},
    "derivation": {"+", "\\", "<", "="},
    "domain": {";c", ";r", ";u", "-c", "-r", "-u"},
    "similar": {"&", "^", "$", "*", ">"},
    "antonym": {"!"},
}

# Morphy's detachment rules (morphy(7WN)); exceptions come from the *.exc files.
SUFFIXES: dict[str, list[tuple[str, str]]] = {
    "n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "r": [],
}

# Function words that WordNet happens to list (a = vitamin A, in = inch, ...): not gloss content.
STOPWORDS = set(
    "a an the and or but nor of to in on at by for with from into onto upon as than then that "
    "this these those there here which who whom whose what when where why how it its is are was "
    "were be been being am do does did done have has had having not no so such very more most "
    "less least some any all each every either neither other another one ones two same many much "
    "few several can could may might must shall should will would etc esp e g i ie eg often "
    "usually especially also used use using something someone somebody thing things make made "
    "kind sort type form part act way state quality relating characterized".split()
)

RELATED_TUNE = [
    ("cut", "scissors"), ("cut", "knife"), ("sea", "fish"), ("space", "moon"),
    ("music", "piano"), ("fire", "dragon"), ("tree", "apple"), ("cold", "winter"),
    ("hospital", "doctor"), ("money", "bank"), ("ocean", "whale"), ("night", "moon"),
    ("sky", "star"), ("fire", "flame"), ("river", "water"), ("bird", "eagle"),
    ("cat", "tiger"), ("king", "crown"), ("bread", "toast"), ("milk", "cheese"),
    ("horse", "saddle"), ("snow", "ice"), ("rain", "cloud"), ("write", "pen"),
    ("read", "book"), ("time", "clock"), ("hand", "finger"), ("foot", "shoe"),
    ("car", "wheel"), ("school", "teacher"), ("court", "judge"), ("ship", "anchor"),
    ("war", "soldier"), ("gun", "bullet"), ("storm", "thunder"), ("farm", "cow"),
    ("jungle", "monkey"), ("fruit", "banana"), ("metal", "iron"), ("light", "lamp"),
]
# Written before any tuning and never tuned against: the honest figure.
RELATED_HOLDOUT = [
    ("sword", "blade"), ("wedding", "bride"), ("music", "violin"), ("ocean", "wave"),
    ("beach", "sand"), ("space", "rocket"), ("planet", "orbit"), ("cold", "frost"),
    ("fire", "smoke"), ("medicine", "vaccine"), ("money", "wallet"), ("bee", "hive"),
    ("spider", "web"), ("egg", "chicken"), ("kitchen", "chef"), ("theater", "actor"),
    ("bird", "feather"), ("dog", "wolf"), ("insect", "bug"), ("snake", "cobra"),
    ("rain", "umbrella"), ("face", "beard"), ("head", "skull"), ("bone", "skeleton"),
    ("eye", "lens"), ("time", "watch"), ("letter", "mail"), ("post", "stamp"),
    ("flower", "tulip"), ("tree", "oak"), ("gold", "coin"), ("jewel", "diamond"),
    ("game", "chess"), ("sport", "football"), ("knight", "armor"), ("mouse", "cheese"),
    ("cook", "pan"), ("soup", "spoon"), ("sew", "needle"), ("paint", "brush"),
]
NEIGHBOUR_PROBES = "scissors ocean doctor piano dragon bank apple winter knife moon".split()


@dataclass(frozen=True)
class Recipe:
    """The weights the build is tuned by (recorded in the file's meta)."""

    dims: int = 180  # the most that keeps 52k int8 rows under 10 MB
    rank_prior: float = 3.0  # pseudo-count of sense k is rank_prior / k, added to its tag count
    noun_bias: float = 2.0  # noun senses' weight times this: cards are things (a watch, a bug)
    hyper_decay: float = 0.4  # weight of a hypernym d steps up is hyper_decay ** d
    hyper_depth: int = 4
    hypo_decay: float = 0.6
    hypo_depth: int = 2
    hypo_spread: float = 0.5  # a hyponym's weight is divided by (number of siblings) ** this
    relations: dict[str, float] = field(  # one hop each
        default_factory=lambda: {
            "part": 1.0, "derivation": 1.0, "domain": 1.0, "similar": 1.0, "antonym": 1.0,
        }
    )
    example_weight: float = 1.0  # gloss example words, relative to the definition's
    neighbour_gloss: float = 0.3  # glosses of one-hop neighbours, relative to the sense's own
    blocks: dict[str, float] = field(  # block weights after weighting and row normalisation
        default_factory=lambda: {"synsets": 1.0, "lemmas": 1.5}
    )
    weighting: str = "tfidf"  # or "ppmi": it separated related from random pairs less well
    context_alpha: float = 0.75  # PPMI context-distribution smoothing
    eigen_power: float = 0.0  # rows = U * S ** eigen_power
    seed: int = 0


@dataclass
class WordNet:
    """The parts of the database the build uses, synsets numbered 0..n-1."""

    index: dict[str, dict[str, list[int]]]  # pos -> lemma -> synsets in sense-number order
    counts: dict[tuple[str, str, int], int]  # (lemma, pos, sense number) -> SemCor tag count
    exceptions: dict[str, dict[str, list[str]]]  # pos -> inflected form -> base forms
    members: list[list[str]]  # synset -> its lemmas
    pointers: list[list[tuple[str, int]]]  # synset -> (symbol, target synset)
    definitions: list[str]
    examples: list[str]


def read_wordnet(folder: Path = WORDNET_DIR) -> WordNet:
    ids: dict[tuple[str, int], int] = {}
    members: list[list[str]] = []
    raw_pointers: list[list[tuple[str, str, int]]] = []
    definitions: list[str] = []
    examples: list[str] = []
    for pos, name in POS_FILES.items():
        for line in (folder / f"data.{name}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):  # the licence header
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            ids[(pos, int(fields[0]))] = len(members)
            n_words = int(fields[3], 16)
            members.append([fields[4 + 2 * i].lower().split("(")[0] for i in range(n_words)])
            at = 4 + 2 * n_words
            n_pointers = int(fields[at])
            ptrs = fields[at + 1 : at + 1 + 4 * n_pointers]
            raw_pointers.append(
                [(ptrs[i], ptrs[i + 2], int(ptrs[i + 1])) for i in range(0, len(ptrs), 4)]
            )
            quoted = re.findall(r'"([^"]*)"', gloss)
            examples.append(" ".join(quoted))
            definitions.append(re.sub(r'"[^"]*"', " ", gloss))

    def target(pos: str, offset: int) -> int:
        return ids[("a" if pos == "s" else pos, offset)]

    pointers = [[(sym, target(p, off)) for sym, p, off in row] for row in raw_pointers]
    index: dict[str, dict[str, list[int]]] = {}
    exceptions: dict[str, dict[str, list[str]]] = {}
    for pos, name in POS_FILES.items():
        index[pos] = {}
        for line in (folder / f"index.{name}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            n_senses, n_ptr_kinds = int(fields[2]), int(fields[3])
            offsets = fields[6 + n_ptr_kinds : 6 + n_ptr_kinds + n_senses]
            index[pos][fields[0]] = [ids[(pos, int(o))] for o in offsets]
        exceptions[pos] = {}
        for line in (folder / f"{name}.exc").read_text(encoding="utf-8").splitlines():
            form, *bases = line.split()
            exceptions[pos][form] = bases
    ss_pos = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
    counts: dict[tuple[str, str, int], int] = {}
    for line in (folder / "cntlist.rev").read_text(encoding="utf-8").splitlines():
        key, sense, count = line.split()
        lemma, _, rest = key.partition("%")
        counts[(lemma, ss_pos[rest[0]], int(sense))] = int(count)
    return WordNet(index, counts, exceptions, members, pointers, definitions, examples)


def base_forms(wn: WordNet, word: str, pos: str) -> list[str]:
    """WordNet lemmas a form inflects (morphy): knives -> knife, ran -> run."""
    found = list(wn.exceptions[pos].get(word, []))
    for suffix, ending in SUFFIXES[pos]:
        if word.endswith(suffix) and len(word) > len(suffix):
            found.append(word[: -len(suffix)] + ending)
    return [b for b in dict.fromkeys(found) if b != word and b in wn.index[pos]]


def lemmas_of(wn: WordNet, word: str) -> dict[str, list[str]]:
    """pos -> the lemmas a word stands for: itself where WordNet lists it in that part of speech,
    else its base forms there (so `saw` keeps the tool and its verb but not `see`)."""
    found: dict[str, list[str]] = {}
    for pos in POS_FILES:
        lemmas = [word] if word in wn.index[pos] else base_forms(wn, word, pos)
        if lemmas:
            found[pos] = lemmas
    return found


def sense_weights(
    wn: WordNet, word: str, rank_prior: float, noun_bias: float = 1.0
) -> dict[int, float]:
    """synset -> share of the word's use: tag count plus a prior falling with sense rank."""
    weights: dict[int, float] = defaultdict(float)
    for pos, lemmas in lemmas_of(wn, word).items():
        bias = noun_bias if pos == "n" else 1.0
        for lemma in lemmas:
            for rank, synset in enumerate(wn.index[pos][lemma], start=1):
                count = wn.counts.get((lemma, pos, rank), 0)
                weights[synset] += bias * (count + rank_prior / rank)
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}


def content_lemmas(wn: WordNet, text: str, vocab: set[str]) -> list[str]:
    """The WordNet lemmas a gloss mentions: words, their base forms, and two-word phrases."""
    tokens = re.findall(r"[a-z]+(?:['-][a-z]+)*", text.lower())
    found: list[str] = []
    for i, token in enumerate(tokens):
        if i + 1 < len(tokens) and f"{token}_{tokens[i + 1]}" in vocab:
            found.append(f"{token}_{tokens[i + 1]}")
        token = token.replace("-", "_")
        if token in STOPWORDS or len(token) < 2:
            continue
        forms = [token] if token in vocab else []
        if "_" in token:  # fire-breathing also mentions fire
            forms += [part for part in token.split("_") if part in vocab]
        for pos in POS_FILES:
            forms += base_forms(wn, token, pos)
        found += [f for f in dict.fromkeys(forms) if f not in STOPWORDS]
    return found


def adjacency(wn: WordNet, symbols: set[str]) -> sp.csr_matrix:
    rows, cols = zip(
        *[(s, t) for s, row in enumerate(wn.pointers) for sym, t in row if sym in symbols],
        strict=True,
    )
    n = len(wn.pointers)
    a = sp.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(n, n))
    a.data[:] = 1.0  # a pointer given twice (lexical + semantic) counts once
    return a


def sense_features(wn: WordNet, recipe: Recipe) -> tuple[sp.csr_matrix, sp.csr_matrix, list[str]]:
    """Per synset: the synsets it reaches (weighted), and the dictionary lemmas it carries."""
    n = len(wn.pointers)
    hyper = adjacency(wn, HYPERNYM)
    reach = sp.identity(n, np.float32, format="csr")
    step = sp.identity(n, np.float32, format="csr")
    for d in range(1, recipe.hyper_depth + 1):
        step = step @ hyper
        reach = reach + recipe.hyper_decay**d * step
    # so a general word (insect) is not all hyponyms: their total weight grows slower than count
    children = np.asarray(hyper.sum(axis=0)).ravel()
    hypo = sp.diags(1.0 / np.maximum(children, 1.0) ** recipe.hypo_spread) @ hyper.T
    step = sp.identity(n, np.float32, format="csr")
    for d in range(1, recipe.hypo_depth + 1):
        step = step @ hypo
        reach = reach + recipe.hypo_decay**d * step
    one_hop = hyper + hyper.T
    for group, symbols in RELATION_GROUPS.items():
        rel = adjacency(wn, symbols)
        reach = reach + recipe.relations[group] * rel
        one_hop = one_hop + rel
    one_hop.data[:] = 1.0

    vocab = sorted({lemma for pos in wn.index.values() for lemma in pos})
    column = {lemma: j for j, lemma in enumerate(vocab)}
    lemma_set = set(vocab)
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for s in range(n):
        for text, weight in ((wn.definitions[s], 1.0), (wn.examples[s], recipe.example_weight)):
            for lemma in content_lemmas(wn, text, lemma_set):
                rows.append(s)
                cols.append(column[lemma])
                vals.append(weight)
    gloss = sp.csr_matrix((vals, (rows, cols)), shape=(n, len(vocab)), dtype=np.float32)
    members = sp.csr_matrix(
        (
            np.ones(sum(len(m) for m in wn.members), np.float32),
            ([s for s, m in enumerate(wn.members) for _ in m],
             [column[lemma] for m in wn.members for lemma in m]),
        ),
        shape=(n, len(vocab)),
    )
    spread = sp.identity(n, np.float32, format="csr") + recipe.neighbour_gloss * one_hop
    lemmas = spread @ gloss + members
    return reach.tocsr(), lemmas.tocsr(), vocab


def sense_matrix(wn: WordNet, words: list[str], n: int, recipe: Recipe) -> sp.csr_matrix:
    """words x synsets: each word's sense shares."""
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for i, word in enumerate(words):
        for synset, w in sense_weights(wn, word, recipe.rank_prior, recipe.noun_bias).items():
            rows.append(i)
            cols.append(synset)
            vals.append(w)
    return sp.csr_matrix((vals, (rows, cols)), shape=(len(words), n), dtype=np.float32)


def ppmi(m: sp.csr_matrix, alpha: float) -> sp.csr_matrix:
    """Positive pointwise mutual information, with smoothed context probabilities."""
    m = m.tocoo()
    row_p = np.asarray(m.sum(axis=1)).ravel() / m.sum()
    col = np.asarray(m.sum(axis=0)).ravel() ** alpha
    col_p = col / col.sum()
    cell_p = m.data / m.sum()
    pmi = np.log(cell_p / (row_p[m.row] * col_p[m.col]))
    keep = pmi > 0
    return sp.csr_matrix(
        (pmi[keep].astype(np.float32), (m.row[keep], m.col[keep])), shape=m.shape
    )


def tfidf(m: sp.csr_matrix) -> sp.csr_matrix:
    m = m.tocsr().copy()
    df = np.bincount(m.indices, minlength=m.shape[1])
    m.data *= np.log(m.shape[0] / np.maximum(df, 1))[m.indices].astype(np.float32)
    return m


def l2_rows(m: sp.csr_matrix) -> sp.csr_matrix:
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    return sp.diags(1.0 / np.maximum(norms, 1e-12)).astype(np.float32) @ m


def randomized_svd(x: sp.csr_matrix, k: int, seed: int, n_iter: int = 5) -> tuple[
    np.ndarray, np.ndarray
]:
    """Left singular vectors and values of the top k (Halko, Martinsson and Tropp's scheme)."""
    rng = np.random.default_rng(seed)
    q = x @ rng.standard_normal((x.shape[1], k + 20)).astype(np.float32)
    for _ in range(n_iter):
        q, _ = np.linalg.qr(q)
        q = x @ (x.T @ q)
    q, _ = np.linalg.qr(q)
    small = (x.T @ q).T  # (k + 20) x features
    u, s, _ = np.linalg.svd(small @ small.T)  # its Gram matrix: same left vectors, s squared
    return (q @ u)[:, :k], np.sqrt(s[:k])


def features(wn: WordNet, words: list[str], recipe: Recipe) -> tuple[list[str], sp.csr_matrix]:
    """The covered words and their weighted sparse features: synsets reached, then lemmas."""
    reach, lemmas, vocab = sense_features(wn, recipe)
    column = {lemma: j for j, lemma in enumerate(vocab)}
    covered = [w for w in words if lemmas_of(wn, w)]
    senses = sense_matrix(wn, covered, reach.shape[0], recipe)
    own_rows, own_cols = zip(  # the word names itself: the feature glosses that mention it share
        *[(i, column[lemma]) for i, word in enumerate(covered)
          for pos_lemmas in lemmas_of(wn, word).values() for lemma in pos_lemmas],
        strict=True,
    )
    own = sp.csr_matrix((np.ones(len(own_rows), np.float32), (own_rows, own_cols)),
                        shape=(len(covered), len(vocab)))
    own.data[:] = 1.0

    def weigh(m: sp.csr_matrix) -> sp.csr_matrix:
        return l2_rows(ppmi(m, recipe.context_alpha) if recipe.weighting == "ppmi" else tfidf(m))

    blocks = [
        recipe.blocks["synsets"] * weigh(senses @ reach),
        recipe.blocks["lemmas"] * weigh(senses @ lemmas + own),
    ]
    return covered, sp.hstack(blocks).tocsr()


def build(wn: WordNet, words: list[str], recipe: Recipe) -> tuple[list[str], np.ndarray]:
    """The covered words and their unit-length float vectors."""
    covered, x = features(wn, words, recipe)
    u, s = randomized_svd(x, recipe.dims, recipe.seed)
    vectors = u * s**recipe.eigen_power
    vectors -= vectors.mean(axis=0)  # no shared offset: unrelated words sit near cosine 0
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return covered, vectors.astype(np.float32)


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scales = (np.abs(vectors).max(axis=1) / 127).astype(np.float32)
    return np.round(vectors / scales[:, None]).astype(np.int8), scales


# ---- checks ---------------------------------------------------------------------------------


def deck(name: str) -> list[str]:
    lines = (WORDLISTS_DIR / name).read_text(encoding="utf-8").splitlines()
    return [re.sub(r"[\s\-]+", "_", w.strip().lower()) for w in lines
            if w.strip() and not w.startswith("#")]


class Mind:
    """The dequantized, unit-length vectors, as the consumer sees them."""

    def __init__(self, words: list[str], vectors: np.ndarray, scales: np.ndarray) -> None:
        v = vectors.astype(np.float32) * scales[:, None]
        self.vectors = v / np.linalg.norm(v, axis=1, keepdims=True)
        self.words = words
        self.row = {w: i for i, w in enumerate(words)}

    def cos(self, a: str, b: str) -> float:
        return float(self.vectors[self.row[a]] @ self.vectors[self.row[b]])

    def neighbours(self, word: str, k: int = 8) -> list[str]:
        sims = self.vectors @ self.vectors[self.row[word]]
        best = np.argsort(-sims)[: k + 1]
        return [self.words[i] for i in best if self.words[i] != word][:k]


def separation(mind: Mind, related: list[tuple[str, str]], seed: int = 0) -> dict[str, object]:
    """Related pairs against 400 random card pairs: how many clear the random pairs' 95th pct."""
    cards = [c for c in deck("words.txt") if c in mind.row]
    rng = np.random.default_rng(seed)
    random_cos: list[float] = []
    while len(random_cos) < 400:
        a, b = rng.choice(len(cards), 2, replace=False)
        random_cos.append(mind.cos(cards[a], cards[b]))
    pairs = [(a, b) for a, b in related if a in mind.row and b in mind.row]
    rel = np.array([mind.cos(a, b) for a, b in pairs])
    rnd = np.array(random_cos)
    p95 = float(np.percentile(rnd, 95))
    return {
        "related_mean": round(float(rel.mean()), 3), "related_sd": round(float(rel.std()), 3),
        "random_mean": round(float(rnd.mean()), 3), "random_sd": round(float(rnd.std()), 3),
        "random_p95": round(p95, 3), "pairs_covered": len(pairs),
        "share_above_p95": round(float((rel > p95).mean()), 3),
        "below": [f"{a}/{b} {c:.2f}" for (a, b), c in zip(pairs, rel, strict=True) if c <= p95],
    }


def checks(mind: Mind) -> dict[str, object]:
    small, large = deck("words.txt"), deck("words-large.txt")
    return {
        "coverage": {
            "words.txt": f"{sum(c in mind.row for c in small)}/{len(small)}",
            "words-large.txt": f"{sum(c in mind.row for c in large)}/{len(large)}",
            "missing_words.txt": [c for c in small if c not in mind.row],
            "missing_words-large.txt": [c for c in large if c not in mind.row],
        },
        "tuning_pairs": separation(mind, RELATED_TUNE),
        "holdout_pairs": separation(mind, RELATED_HOLDOUT),
        "neighbours": {w: mind.neighbours(w) for w in NEIGHBOUR_PROBES if w in mind.row},
    }


def main() -> None:
    start = time.time()
    recipe = Recipe()
    wn = read_wordnet()
    words = mind_words()
    covered, floats = build(wn, words, recipe)
    vectors, scales = quantize(floats)
    figures = checks(Mind(covered, vectors, scales))
    figures["words_covered"] = f"{len(covered)}/{len(words)}"
    figures["build_seconds"] = round(time.time() - start)
    meta = {
        "source": SOURCE, "licence": LICENCE, "build_command": BUILD_COMMAND, "D": recipe.dims,
        "recipe": __doc__.split("Recipe: ", 1)[1].split("\n\n")[0].replace("\n", " "),
        "weights": asdict(recipe), "figures": figures,
    }
    np.savez_compressed(OUT, words=np.array(covered), vectors=vectors, scales=scales,
                        meta=np.array(json.dumps(meta)))
    print(json.dumps(figures, indent=1))
    print(f"{OUT}: {len(covered)} words x {recipe.dims}, {OUT.stat().st_size / 1e6:.1f} MB, "
          f"{figures['build_seconds']} s")


if __name__ == "__main__":
    main()
