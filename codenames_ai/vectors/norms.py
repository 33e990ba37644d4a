"""Word vectors from people's word associations (association norms: how many people, shown a
cue word, answered with a response word).

Read from a ``cue,response,count`` file (comma- or tab-separated, header optional; SWOW-EN or
USF norms exported that way) with ``read_norms``, or from the Edinburgh Associative
Thesaurus' Pajek zip with ``read_eat``. ``association_vectors`` turns the counts into one
vector per word:

1. forward strength ``F[c, r] = count(c -> r) / every response's count for c``;
2. association in both directions, ``A = F + F^T``, each row then scaled to sum to 1 (``P``:
   one step of a walk over the links);
3. indirect links, ``M = P + indirect * P @ P`` (two steps; entries below ``indirect_floor``
   are dropped), so two cues that share responses are linked even if neither names the other;
4. positive PMI of ``M`` (context distribution smoothed by ``context_alpha``);
5. a randomized truncated SVD (fixed seed, one BLAS thread) to ``dims`` dimensions, rows
   scaled by the singular values to ``eigen_power``, centred and L2-normalised.

Words are keys as the minds use them: lower case, letters only, a phrase as ``ice_cream``.
A word is kept if it is a cue, or if people gave it as a response at least ``min_count``
times in all.

``american_spellings`` gives a British word's American forms under a few clean rules (see its
docstring); ``with_american_spellings`` gives such a form the British word's vector when the
norms lack it or hold it only as a rarer response, so a mind built from British norms (the EAT)
also knows ``color`` and reads ``theater`` as ``theatre``. ``with_base_forms`` gives an
inflection the norms lack (``installed``, ``knives``) the mean vector of its base forms.

Files are read with bounds (``MAX_LINE_BYTES`` per line, ``MAX_FILE_BYTES`` in all), and every
bad file is one ``ModelError`` line naming the file, the line and what to do.
"""

from __future__ import annotations

import csv
import functools
import html
import io
import itertools
import math
import re
import zipfile
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..core.errors import ModelError
from ..files import open_regular
from .formats import BOM

if TYPE_CHECKING:
    from .store import ModelInfo

MAX_LINE_BYTES = 1 << 20  # one cue,response,count line is a few dozen bytes
MAX_FILE_BYTES = 256 << 20  # SWOW-EN's cue,response,count export is about 30 MB
_LAYOUT = "each line must be cue,response,count (comma- or tab-separated, header optional)"
_TOKEN = re.compile(r"^[a-z]+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
FloatMatrix = npt.NDArray[np.float32]
# The two-step walk's bounds: the EAT's 321,544 pairs keep 13.4 million links (42 a pair);
# a star (one word linked to every other) keeps rows squared, so is refused.
WALK_LINKS_PER_PAIR = 200
MIN_WALK_LINKS = 2_000_000  # a small file may link all its words: 1,400 squared
WALK_BLOCK_PRODUCTS = 1 << 22  # P @ P products computed at once (a block of rows)


@dataclass(frozen=True)
class Norms:
    """Association counts between word keys, and each cue's total over all its responses
    (those that are not words, such as ``1066``, included)."""

    counts: dict[tuple[str, str], float]
    totals: dict[str, float]
    source: str


@dataclass(frozen=True)
class NormsRecipe:
    """The settings ``association_vectors`` is built by (recorded in a built mind's meta)."""

    dims: int = 200
    min_count: int = 2  # a word only ever given as a response needs this many answers in all
    indirect: float = 0.5  # weight of the two-step walk P @ P against the one-step P
    indirect_floor: float = 1e-4  # two-step entries below this are dropped (memory, time)
    context_alpha: float = 0.75  # PPMI context-distribution smoothing
    eigen_power: float = 1.0  # rows = U * S ** eigen_power (0.5 and 0 did worse on the EAT)
    power_iterations: int = 4  # of the randomized SVD
    seed: int = 0


# ---- keys ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=65_536)  # a pure function, asked for the same words all game
def word_key(text: str) -> str | None:
    """The mind key of a cue or response (``"Ice-Cream"`` -> ``ice_cream``, the EAT's
    ``&#39;BUS`` -> ``bus``), or None for anything that is not letters (``1066``, ``O'CLOCK``)."""
    if text.isascii() and text.isalpha() and text.islower():  # already a key: the same answer
        return text
    tokens = [t.strip("'") for t in re.split(r"[\s\-_]+", html.unescape(text).lower())]
    tokens = [t for t in tokens if t]
    if tokens and all(_TOKEN.match(t) for t in tokens):
        return "_".join(tokens)
    return None


def _add(counts: dict[tuple[str, str], float], totals: dict[str, float], cue: str,
         response: str, count: float) -> None:
    cue_key, response_key = word_key(cue), word_key(response)
    if cue_key is None:
        return
    totals[cue_key] = totals.get(cue_key, 0.0) + count
    if response_key is not None and response_key != cue_key and count > 0:
        pair = (cue_key, response_key)
        counts[pair] = counts.get(pair, 0.0) + count


# ---- a cue,response,count file ---------------------------------------------------------------


def read_norms(path: Path) -> Norms:
    """The norms in a ``cue,response,count`` file (see the module docstring); ``ModelError``
    naming the file and line for anything else."""
    counts: dict[tuple[str, str], float] = {}
    totals: dict[str, float] = {}
    delimiter = ""  # set by the first row: a tab in it, else a comma
    rows = 0
    for number, line in _text_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        first = not delimiter
        delimiter = delimiter or ("\t" if "\t" in line else ",")
        fields = _fields(line, delimiter)
        if len(fields) != 3:
            raise _bad(path, number, f"has {len(fields)} field{'s' * (len(fields) != 1)}; "
                                     f"{_LAYOUT}")
        count = _count(path, number, fields[2], header_allowed=first)
        if count is not None:
            rows += 1
            _add(counts, totals, fields[0], fields[1], count)
    if not rows:
        raise ModelError(f"{path}: no cue,response,count rows; {_LAYOUT}")
    if not counts:
        raise ModelError(f"{path}: no row links two words (cues and responses must be letters, "
                         "a phrase as 'ice cream'); check the columns are cue,response,count")
    return Norms(counts, totals, str(path))


def _text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Numbered lines of a text file, read with bounds; ``ModelError`` for a missing, empty,
    binary or too large file, or a line longer than ``MAX_LINE_BYTES``."""
    handle = _open(path)
    with handle:
        read = 0
        for number in itertools.count(1):
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                if number == 1:
                    raise ModelError(f"{path}: the file is empty; {_LAYOUT}")
                return
            read += len(raw)
            if read > MAX_FILE_BYTES:
                raise _too_large(path)
            text = _decode(path, number, raw.removeprefix(BOM) if number == 1 else raw)
            if len(raw) > MAX_LINE_BYTES:
                raise _bad(path, number, f"is longer than {MAX_LINE_BYTES >> 20} MB; {_LAYOUT}")
            yield number, text.rstrip("\r\n")


def _open(path: Path) -> IO[bytes]:
    try:
        if path.is_dir():
            raise ModelError(f"{path}: is a folder, not a norms file; give the "
                             "cue,response,count file itself")
        handle = open_regular(path)  # a named pipe or a device: one line, never a wait
    except FileNotFoundError:
        raise ModelError(f"{path}: no such file; give the path of a cue,response,count file"
                         ) from None
    except OSError as exc:
        raise ModelError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    if size > MAX_FILE_BYTES:
        handle.close()
        raise _too_large(path)
    return handle


def _decode(path: Path, number: int, raw: bytes) -> str:
    """A line as text (UTF-8, else Latin-1 as the EAT is); ``ModelError`` for binary bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if any(ord(ch) < 32 and ch not in "\t\r\n" for ch in text):
        raise _bad(path, number, "holds binary bytes: this is not a text file; give a "
                                 "cue,response,count CSV (or TSV) file")
    return text


def _fields(line: str, delimiter: str) -> list[str]:
    if delimiter == "\t":
        return [f.strip() for f in line.split("\t")]
    return [f.strip() for f in next(csv.reader(io.StringIO(line)), [])]


def _count(path: Path, number: int, field: str, *, header_allowed: bool) -> float | None:
    """The count of a row, or None for a header line (the first row only)."""
    if not _NUMBER.match(field):
        if header_allowed:
            return None
        raise _bad(path, number, f"has the count {field[:40]!r}, not a number; {_LAYOUT}")
    count = float(field)
    if count < 0 or not math.isfinite(count):
        raise _bad(path, number, f"has the count {field[:40]!r}; a count is a number of "
                                 "people, 0 or more")
    return count


def _bad(path: Path, number: int, what: str) -> ModelError:
    return ModelError(f"{path}: line {number:,} {what}")


def _too_large(path: Path) -> ModelError:
    return ModelError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MB, the most read from a "
                      "norms file; add up the counts per cue and response first")


# ---- the Edinburgh Associative Thesaurus -----------------------------------------------------


def read_eat(path: Path) -> Norms:
    """The EAT's stimulus -> response counts from its Pajek zip (``EATnew.zip``, holding
    ``EATnew.net``: ``*Vertices`` lines ``id "WORD"``, then ``*Arcs`` lines ``from to count``)."""
    lines = _eat_lines(path)
    names: dict[int, str] = {}
    counts: dict[tuple[str, str], float] = {}
    totals: dict[str, float] = {}
    section = ""
    for number, line in enumerate(lines, 1):
        if line.startswith("*"):
            section = line.split()[0].lower()
        elif section == "*vertices" and line.strip():
            vertex = re.match(r'\s*(\d+)\s+"(.*)"', line)
            if vertex is None:
                raise _bad(path, number, f"is not a vertex line (id \"WORD\"): {line[:60]!r}")
            names[int(vertex.group(1))] = vertex.group(2)
        elif section == "*arcs" and line.strip():
            cue, response, count = _arc(path, number, line, names)
            _add(counts, totals, cue, response, count)
    if not counts:
        raise ModelError(f"{path}: no *Arcs links between words; is it the EAT's Pajek file?")
    return Norms(counts, totals, str(path))


def _eat_lines(path: Path) -> list[str]:
    try:
        with zipfile.ZipFile(path) as archive:
            member = next((m for m in archive.infolist() if m.filename.endswith(".net")
                           and "EAT" in m.filename), None)
            if member is None:
                raise ModelError(f"{path}: holds no EAT .net file; give EATnew.zip")
            if member.file_size > MAX_FILE_BYTES:
                raise _too_large(path)
            data = archive.read(member)
    except FileNotFoundError:
        raise ModelError(f"{path}: no such file; give the EAT's Pajek zip (EATnew.zip)"
                         ) from None
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise ModelError(f"{path}: cannot read it as a zip ({exc})") from None
    return data.decode("latin-1").splitlines()


def _arc(path: Path, number: int, line: str, names: dict[int, str]) -> tuple[str, str, float]:
    parts = line.split()
    if len(parts) < 3 or not all(p.isdigit() for p in parts[:3]):
        raise _bad(path, number, f"is not an arc line (from to count): {line[:60]!r}")
    cue, response = int(parts[0]), int(parts[1])
    if cue not in names or response not in names:
        raise _bad(path, number, "links a vertex that *Vertices does not list")
    return names[cue], names[response], float(parts[2])


# ---- from counts to vectors ------------------------------------------------------------------


def vocabulary(norms: Norms, min_count: int) -> list[str]:
    """The words a mind gets, sorted: every cue that links to a word, and every response
    people gave at least ``min_count`` times in all."""
    given: dict[str, float] = {}
    cues: set[str] = set()
    for (cue, response), count in norms.counts.items():
        given[response] = given.get(response, 0.0) + count
        cues.add(cue)
    return sorted(cues | {w for w, n in given.items() if n >= min_count})


def strengths(norms: Norms, words: list[str]) -> Any:
    """The forward strengths ``F[cue, response] = count / cue total`` (scipy CSR)."""
    import scipy.sparse as sp

    index = {w: i for i, w in enumerate(words)}
    rows, cols, values = [], [], []
    for (cue, response), count in norms.counts.items():
        if cue in index and response in index:
            rows.append(index[cue])
            cols.append(index[response])
            values.append(count / norms.totals[cue])
    return sp.csr_matrix((np.array(values, np.float32), (rows, cols)),
                         shape=(len(words), len(words)))


def walk(forward: Any, recipe: NormsRecipe, *, max_links: int | None = None,
         source: str = "the norms") -> Any:
    """``P + indirect * P @ P`` where ``P`` is ``F + F^T`` with rows scaled to sum to 1.

    ``P @ P`` is computed a block of rows at a time (at most ``WALK_BLOCK_PRODUCTS`` products
    each) and each block's entries below ``indirect_floor`` are dropped at once, so memory
    holds one block and the kept links; ``ModelError`` naming ``source`` once more than
    ``max_links`` two-step links are kept (a word linked to every other one, a star, links
    every pair of words: rows squared)."""
    import scipy.sparse as sp

    both = (forward + forward.T).tocsr()
    both.setdiag(0)
    both.eliminate_zeros()
    sums = np.asarray(both.sum(axis=1), dtype=np.float64).ravel()
    step = (sp.diags((1.0 / np.maximum(sums, 1e-12)).astype(np.float32)) @ both).tocsr()
    if not recipe.indirect:
        return step
    # products up to each row: row i multiplies each of its links k by row k's links
    degree = np.diff(step.indptr).astype(np.int64)
    before = np.concatenate([[0], np.cumsum(degree[step.indices])])[step.indptr]
    blocks: list[Any] = []
    kept, start, rows = 0, 0, step.shape[0]
    while start < rows:
        end = int(np.searchsorted(before, before[start] + WALK_BLOCK_PRODUCTS, "right")) - 1
        end = min(max(end, start + 1), rows)
        block = (step[start:end] @ step).tocsr()
        block.data[block.data < recipe.indirect_floor] = 0
        block.eliminate_zeros()
        kept += block.nnz
        if max_links is not None and kept > max_links:
            raise ModelError(
                f"{source}: the two-step walk over these norms links more than "
                f"{max_links:,} word pairs (the most for {max_links // WALK_LINKS_PER_PAIR:,} "
                f"cue,response pairs, {WALK_LINKS_PER_PAIR} per pair); a few words linked to "
                "most others do this: drop such hub rows or split the file")
        blocks.append(block)
        start = end
    two = sp.vstack(blocks, format="csr") if blocks else step @ step
    return (step + recipe.indirect * two).tocsr()


def max_walk_links(norms: Norms) -> int:
    """The most two-step links ``walk`` keeps for ``norms``: ``WALK_LINKS_PER_PAIR`` per
    cue,response pair (at least ``MIN_WALK_LINKS``), so memory grows with the file's rows."""
    return max(WALK_LINKS_PER_PAIR * len(norms.counts), MIN_WALK_LINKS)


def ppmi(m: Any, alpha: float) -> Any:
    """Positive pointwise mutual information, context probabilities smoothed by ``alpha``."""
    import scipy.sparse as sp

    m = m.tocsr()
    total = float(m.sum())
    row_p = np.asarray(m.sum(axis=1), dtype=np.float64).ravel() / total
    col = np.asarray(m.sum(axis=0), dtype=np.float64).ravel() ** alpha
    col_p = col / col.sum()
    coo = m.tocoo()
    pmi = np.log(coo.data / total / (row_p[coo.row] * col_p[coo.col]))
    keep = pmi > 0
    return sp.csr_matrix((pmi[keep].astype(np.float32), (coo.row[keep], coo.col[keep])),
                         shape=m.shape)


def randomized_svd(x: Any, dims: int, seed: int, iterations: int
                   ) -> tuple[FloatMatrix, FloatMatrix]:
    """The top ``dims`` left singular vectors and values of a sparse matrix (Halko, Martinsson
    and Tropp's randomized scheme, with a fixed seed)."""
    rng = np.random.default_rng(seed)
    q = x @ rng.standard_normal((x.shape[1], dims + 20)).astype(np.float32)
    for _ in range(iterations):
        q, _ = np.linalg.qr(q)
        q = x @ (x.T @ q)
    q, _ = np.linalg.qr(q)
    small = np.asarray((x.T @ q).T)
    u, s, _ = np.linalg.svd(small @ small.T)
    return (q @ u)[:, :dims].astype(np.float32), np.sqrt(s[:dims]).astype(np.float32)


def association_vectors(norms: Norms, recipe: NormsRecipe = NormsRecipe()
                        ) -> tuple[list[str], FloatMatrix]:
    """The words of ``norms`` and their unit-length vectors (see the module docstring);
    ``ModelError`` when the norms hold too few words for ``recipe.dims``. Linear algebra runs
    on one BLAS thread: the same rows on any machine, and OpenBLAS's threads only slow the
    thin QR factorisations down."""
    from threadpoolctl import threadpool_limits

    words = vocabulary(norms, recipe.min_count)
    x = ppmi(walk(strengths(norms, words), recipe, max_links=max_walk_links(norms),
                  source=norms.source), recipe.context_alpha)
    linked = np.flatnonzero(np.diff(x.indptr) > 0)
    if len(linked) <= recipe.dims:
        raise ModelError(f"{norms.source}: {len(linked):,} linked words, too few for "
                         f"{recipe.dims} dimensions; give fewer dimensions (--dims) or more "
                         "norms")
    x = x[linked]
    with threadpool_limits(1):
        u, s = randomized_svd(x, recipe.dims, recipe.seed, recipe.power_iterations)
    vectors = u * s**recipe.eigen_power
    vectors -= vectors.mean(axis=0)  # no shared offset: unrelated words sit near cosine 0
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return [words[i] for i in linked], vectors.astype(np.float32)


# ---- British and American spellings ----------------------------------------------------------

# -ise words that stay -ise in American English (surprise, advertise) and -our words that are
# not the colour/color pattern (tour, four, devour): these are left alone.
_KEEP_ISE = set(
    "advertise advise apprise arise chastise circumcise comprise compromise concise demise "
    "despise devise disguise enterprise excise exercise expertise franchise guise improvise "
    "incise merchandise paradise poise praise precise premise promise raise reprise revise "
    "rise supervise surmise surprise televise treatise wise noise bruise cruise valise chemise "
    "porpoise tortoise mortise braise practise otherwise likewise clockwise sunrise".split())
_KEEP_OUR = set("tour detour contour devour scour four pour downpour sour hour your flour dour "
                "amour paramour troubadour velour succour".split())
_KEEP_TRE = {"timbre", "timbres", "macabre"}
_DOUBLE_L = set(  # stems that double their l before -ed/-ing/-er in British English only
    "travel cancel model label level fuel duel signal marvel jewel tunnel quarrel counsel dial "
    "total channel panel pedal rival shovel snorkel spiral stencil swivel towel yodel grovel "
    "funnel enamel equal initial pencil bevel barrel chisel revel ravel".split())
_WORDS = {  # single words
    "grey": "gray", "greys": "grays", "jewellery": "jewelry", "pyjamas": "pajamas",
    "plough": "plow", "ploughs": "plows", "mould": "mold", "mouldy": "moldy",
    "aluminium": "aluminum", "moustache": "mustache", "aeroplane": "airplane",
    "aeroplanes": "airplanes", "cosy": "cozy", "sceptic": "skeptic", "sceptical": "skeptical",
    "defence": "defense", "offence": "offense", "pretence": "pretense", "licence": "license",
    "practise": "practice", "practised": "practiced", "practising": "practicing",
    "manoeuvre": "maneuver", "doughnut": "donut", "doughnuts": "donuts",
    "programme": "program", "programmes": "programs", "ageing": "aging", "yoghurt": "yogurt",
    "sulphur": "sulfur", "foetus": "fetus", "encyclopaedia": "encyclopedia",
    "catalogue": "catalog", "catalogues": "catalogs", "analogue": "analog", "meagre": "meager",
}
_OUR_ENDINGS = ("", "s", "ed", "ing", "er", "ers", "ist", "ists", "ful", "able", "ably", "al",
                "ally", "ite", "ites", "less", "hood", "hoods", "ism", "y")
_ISE = re.compile(r"^([a-z]{3,}?)(is|ys)(e|es|ed|ing|er|ers|ation|ations|ational)$")
_TRE = re.compile(r"^([a-z]{2,}[tb])re(s?)$")
_LL = re.compile(r"^([a-z]+l)l(ed|ing|er|ers|or|ors)$")


def american_spellings(word: str) -> list[str]:
    """The American forms of a British spelling, by these rules (a word matching none gets
    none):

    - -our -> -or, with its endings (colour, humourless, favourite, behavioural); not tour,
      four, hour, devour, flour and the like;
    - -ise -> -ize and -yse -> -yze, with -ised, -ising, -iser, -isation (realise,
      organisation, analyse); not the -ise words American keeps (surprise, advertise,
      exercise, promise, ...);
    - -tre/-bre -> -ter/-ber (centre, theatre, metre, fibre); not timbre or macabre;
    - a doubled l before -ed/-ing/-er/-or for a list of stems (travelled, modelling,
      counsellor);
    - a short list of single words (grey, jewellery, pyjamas, plough, mould, aluminium,
      catalogue, analogue, defence, licence, programme, yoghurt, ...).

    ``american_forms`` decides which forms take the British word's vector."""
    found = [_WORDS[word]] if word in _WORDS else []
    found += _our(word) + _ise(word) + _tre(word) + _double_l(word)
    return [f for f in dict.fromkeys(found) if f != word]


def _our(word: str) -> list[str]:
    at = word.rfind("our")
    base, ending = word[: at + 3], word[at + 3 :]
    if at < 2 or ending not in _OUR_ENDINGS or base in _KEEP_OUR or base.endswith("tour"):
        return []
    return [word[:at] + "or" + ending]


def _ise(word: str) -> list[str]:
    match = _ISE.match(word)
    if match is None:
        return []
    stem, middle, ending = match.groups()
    base = stem + middle + "e"  # a long kept word inside (disguise) keeps it too
    if any(base == keep or (len(keep) >= 6 and base.endswith(keep)) for keep in _KEEP_ISE):
        return []
    return [stem + middle[0] + "z" + ending]


def _tre(word: str) -> list[str]:
    match = _TRE.match(word)
    if match is None or word in _KEEP_TRE:
        return []
    return [match.group(1) + "er" + match.group(2)]


def _double_l(word: str) -> list[str]:
    match = _LL.match(word)
    if match is None or match.group(1) not in _DOUBLE_L:
        return []
    return [match.group(1) + match.group(2)]


def evidence(norms: Norms) -> dict[str, float]:
    """How much the norms say about each word: infinite for a cue (about 100 people answered
    it), else how many times people gave it as a response."""
    given: dict[str, float] = dict.fromkeys(norms.totals, math.inf)
    for (_, response), count in norms.counts.items():
        given[response] = given.get(response, 0.0) + count
    return given


def american_forms(words: Iterable[str], known: Callable[[str], bool],
                   said: Mapping[str, float] | None = None) -> dict[str, str]:
    """American form -> the British word whose vector it takes (the first British word wins,
    in the order of ``words``): a form ``known`` accepts that ``words`` lacks, or, given the
    norms' ``evidence`` as ``said``, that they hold only as a rarer response than the British
    word (``theater``, given twice, takes ``theatre``, a cue; ``meter``, a cue, keeps its own)."""
    words = list(words)
    have = set(words)
    said = said or {}
    forms: dict[str, str] = {}
    for word in words:
        for form in american_spellings(word):
            rarer = said.get(form, 0.0) < said.get(word, 0.0)
            if (form not in have or rarer) and form not in forms and known(form):
                forms[form] = word
    return forms


def with_american_spellings(words: list[str], vectors: FloatMatrix, known: Callable[[str], bool],
                            said: Mapping[str, float] | None = None
                            ) -> tuple[list[str], FloatMatrix]:
    """``words`` and ``vectors`` with the ``american_forms`` of the words, each given its
    British word's vector (added, or replacing the form's own)."""
    forms = american_forms(words, known, said)
    row = {w: i for i, w in enumerate(words)}
    vectors = vectors.copy()
    added: list[str] = []
    for form, british in forms.items():
        if form in row:
            vectors[row[form]] = vectors[row[british]]
        else:
            added.append(form)
    if not added:
        return words, vectors
    extra = vectors[[row[forms[form]] for form in added]]
    return words + added, np.vstack([vectors, extra])


# ---- inflections ------------------------------------------------------------------------------


def base_forms(word: str, have: Container[str]) -> list[str]:
    """The base forms of an inflected word that ``have`` holds (lemminflect's lemmas, every
    part of speech): installed -> install, knives -> knife, ran -> run."""
    from lemminflect import getAllLemmas

    lemmas = [lemma for found in getAllLemmas(word).values() for lemma in found]
    return [b for b in dict.fromkeys(lemmas) if b != word and b in have]


def with_base_forms(words: list[str], vectors: FloatMatrix, candidates: Iterable[str]
                    ) -> tuple[list[str], FloatMatrix, int]:
    """``words`` and ``vectors`` plus each candidate the words lack that inflects words they
    have, with the mean of those words' vectors (unit length), and how many were added. People
    answer with base forms far more than with inflections, so ``installed`` is read as
    ``install``."""
    row = {w: i for i, w in enumerate(words)}
    added: list[str] = []
    rows: list[FloatMatrix] = []
    for word in dict.fromkeys(candidates):
        if word in row or "_" in word:
            continue
        bases = base_forms(word, row)
        if bases:
            mean = vectors[[row[b] for b in bases]].mean(axis=0)
            added.append(word)
            rows.append(mean / max(float(np.linalg.norm(mean)), 1e-12))
    if not added:
        return words, vectors, 0
    return words + added, np.vstack([vectors, np.stack(rows)]).astype(np.float32), len(added)


# ---- a mind in the model cache ---------------------------------------------------------------


def build_norms_model(path: Path, name: str, *, dims: int = NormsRecipe.dims,
                      cache_dir: Path | str | None = None, replace: bool = False) -> ModelInfo:
    """Build a mind from the norms file ``path`` into the model cache as ``name`` (then
    ``--model name`` works with agents). American forms wordfreq knows (Zipf >= 1) take the
    British word's vector where the norms lack them or hold them only as a rarer response, and
    inflections of the 80,000 most frequent words take their base forms' vectors."""
    from gensim.models import KeyedVectors

    from .default import BUILDERS
    from .store import ModelStore, check_name

    check_name(name)
    if name in BUILDERS:
        raise ModelError(f"{name!r} is a built-in model; choose another name for your norms")
    store = ModelStore(cache_dir)
    if store.has(name) and not replace:
        raise ModelError(f"a model named {name!r} is already cached ({store.info(name).source}); "
                         "choose another name or add --replace")
    norms = read_norms(path)
    words, vectors = with_american_spellings(*association_vectors(norms, NormsRecipe(dims=dims)),
                                             known=_wordfreq_knows, said=evidence(norms))
    words, vectors, _ = with_base_forms(words, vectors, _frequent_words())
    keyed = KeyedVectors(vector_size=vectors.shape[1], count=0, dtype=np.float32)
    keyed.add_vectors(words, vectors)
    return store.add_vectors(name, keyed, source=f"association norms {path.resolve()}",
                             vector_format="norms", replace=replace)


def _frequent_words(count: int = 80_000) -> list[str]:
    """wordfreq's most frequent lower-case alphabetic English words (as models/common.py's
    mind words)."""
    import wordfreq

    return [w for w in wordfreq.top_n_list("en", 200_000) if _TOKEN.match(w)][:count]


def _wordfreq_knows(word: str) -> bool:
    import wordfreq

    return bool(wordfreq.zipf_frequency(word.replace("_", " "), "en") >= 1.0)
