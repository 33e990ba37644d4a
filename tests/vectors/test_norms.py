"""Minds from word-association norms, on a real sample: every word response to 128 stimulus
words of the Edinburgh Associative Thesaurus (tests/data/eat-sample.csv, Open Government
Licence v3). Related words come out close, both directions of a link count, cues that share
responses are linked, a user's norms file becomes a cached model through the command line,
and every bad file is one line naming the file (and the line) with no traceback."""

from __future__ import annotations

import contextlib
import math
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.core.errors import ModelError
from codenames_ai.vectors import load_model
from codenames_ai.vectors.norms import (
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    Norms,
    NormsRecipe,
    american_spellings,
    association_vectors,
    base_forms,
    evidence,
    max_walk_links,
    read_eat,
    read_norms,
    strengths,
    vocabulary,
    walk,
    with_american_spellings,
    with_base_forms,
    word_key,
)
from codenames_ai.vectors.shipped import read_shipped, shipped_meta
from tests.cli_main import run_main

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "eat-sample.csv"
DIMS = 50


class Built:
    """The sample's mind, with cosines and the random-pair line to clear."""

    def __init__(self, norms: Norms, words: list[str], vectors: np.ndarray) -> None:
        self.norms, self.words, self.vectors = norms, words, vectors
        self.row = {w: i for i, w in enumerate(words)}
        cues = sorted(norms.totals)
        rng = np.random.default_rng(0)
        pairs = [rng.choice(len(cues), 2, replace=False) for _ in range(400)]
        self.random_p95 = float(np.percentile([self.cos(cues[a], cues[b]) for a, b in pairs],
                                              95))

    def cos(self, a: str, b: str) -> float:
        return float(self.vectors[self.row[a]] @ self.vectors[self.row[b]])


@pytest.fixture(scope="module")
def built() -> Built:
    norms = read_norms(SAMPLE)
    return Built(norms, *association_vectors(norms, NormsRecipe(dims=DIMS)))


def test_the_sample_reads_as_norms() -> None:
    norms = read_norms(SAMPLE)
    assert len(norms.totals) == 128
    assert norms.counts[("gold", "silver")] == 33  # 33 of about 100 people
    assert ("animal", "bear") in norms.counts  # below the comment lines and the header


def test_related_words_come_out_close_and_unrelated_ones_do_not(built: Built) -> None:
    for a, b in [("gold", "silver"), ("chair", "table"), ("lion", "tiger"),
                 ("doctor", "nurse"), ("piano", "violin"), ("cup", "saucer")]:
        assert built.cos(a, b) > built.random_p95, (a, b)
    assert built.cos("gold", "silver") > 0.5 > built.cos("gold", "banana")
    vectors = built.vectors
    assert vectors.shape == (len(built.words), DIMS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_word_only_given_as_a_response_is_linked_to_its_cues(built: Built) -> None:
    # Nobody was shown "guitar" in the sample; people gave it for drum, piano, music, song.
    assert "guitar" not in built.norms.totals and "guitar" in built.row
    assert built.cos("guitar", "drum") > built.random_p95
    assert built.cos("guitar", "drum") > built.cos("guitar", "gold")
    # A response given only once in all is dropped (min_count 2).
    given = {r for (_, r), n in built.norms.counts.items() if n == 1}
    once = next(w for w in sorted(given) if w not in built.norms.totals
                and sum(n for (_, r), n in built.norms.counts.items() if r == w) == 1)
    assert once not in built.row


def test_cues_that_share_responses_are_linked_though_neither_names_the_other(
        built: Built) -> None:
    counts = built.norms.counts
    for a, b in [("trumpet", "violin"), ("copper", "silver"), ("apple", "cherry")]:
        assert (a, b) not in counts and (b, a) not in counts
        shared = {r for (c, r) in counts if c == a} & {r for (c, r) in counts if c == b}
        assert len(shared) >= 5, (a, b)
        assert built.cos(a, b) > built.random_p95, (a, b)


def test_the_build_is_deterministic(built: Built) -> None:
    words, vectors = association_vectors(built.norms, NormsRecipe(dims=DIMS))
    assert words == built.words and np.allclose(vectors, built.vectors, atol=1e-5)


def test_word_keys() -> None:
    cases = {"Ice-Cream": "ice_cream", "ZEBRA CROSSING": "zebra_crossing", "&#39;BUS": "bus",
             "1066": None, "O'CLOCK": None, "café": None, "": None, " gold ": "gold"}
    for text, key in cases.items():
        assert word_key(text) == key, text


@pytest.mark.parametrize(("british", "american"), [
    ("colour", ["color"]), ("favourite", ["favorite"]), ("humourless", ["humorless"]),
    ("realise", ["realize"]), ("organisation", ["organization"]), ("analysed", ["analyzed"]),
    ("centre", ["center"]), ("theatre", ["theater"]), ("fibres", ["fibers"]),
    ("travelled", ["traveled"]), ("grey", ["gray"]), ("jewellery", ["jewelry"]),
    ("catalogue", ["catalog"]),
    # no rule applies
    ("tour", []), ("four", []), ("hour", []), ("devour", []), ("flour", []),
    ("surprise", []), ("advertising", []), ("exercise", []), ("promised", []), ("noise", []),
    ("timbre", []), ("macabre", []), ("filled", []), ("gold", []),
])
def test_american_spellings(british: str, american: list[str]) -> None:
    assert american_spellings(british) == american


def test_an_american_form_takes_the_british_vector_when_known_and_missing() -> None:
    words = ["colour", "theatre", "metre", "meter"]
    vectors = np.eye(4, dtype=np.float32)
    known = {"color", "theater", "meter"}.__contains__
    out_words, out = with_american_spellings(words, vectors, known)
    assert out_words == [*words, "color", "theater"]  # meter is there already
    assert (out[4] == vectors[0]).all() and (out[5] == vectors[1]).all()
    # Given the norms' evidence: a form they hold only as a rarer response takes the British
    # vector; one that is a cue (meter) keeps its own.
    words = ["theatre", "theater", "metre", "meter"]
    said = {"theatre": math.inf, "theater": 2.0, "metre": math.inf, "meter": math.inf}
    out_words, out = with_american_spellings(words, vectors, known, said)
    assert out_words == words
    assert (out[1] == vectors[0]).all() and (out[3] == vectors[3]).all()
    assert evidence(read_norms(SAMPLE))["guitar"] == 5 and evidence(read_norms(SAMPLE))["gold"] \
        == math.inf


def test_the_eat_pajek_zip_reads(tmp_path: Path) -> None:
    net = ('*Network EAT\n% a comment\n*Vertices 4\n1 "GOLD"\n2 "SILVER"\n3 "&#39;BUS"\n'
           '4 "1066"\n*Arcs\n1 2 33\n1 4 2\n3 1 1\n')
    path = tmp_path / "EATnew.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("EATnew.net", net.encode("latin-1"))
    norms = read_eat(path)
    assert norms.counts == {("gold", "silver"): 33, ("bus", "gold"): 1}
    assert norms.totals == {"gold": 35, "bus": 1}  # 1066 counts in gold's total
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    with pytest.raises(ModelError, match="cannot read it as a zip"):
        read_eat(tmp_path / "junk.zip")


def test_the_command_line_builds_a_mind_into_the_cache(tmp_path: Path) -> None:
    cache = ["--cache-dir", str(tmp_path)]
    args = ["models", "build", "norms", "--norms", str(SAMPLE), "--name", "eat-sample",
            "--dims", "20", *cache]
    result = run_main(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("built eat-sample: ") and "x 20 dimensions" in result.stdout
    model = load_model("eat-sample", cache_dir=tmp_path)
    unit = np.asarray(model.unit_matrix)
    gold = unit[model.words.index("gold")]
    assert gold @ unit[model.words.index("silver")] > gold @ unit[model.words.index("banana")]
    again = run_main(*args)
    assert again.returncode == 1 and "already cached" in again.stderr
    assert "--replace" in again.stderr
    assert run_main(*args, "--replace").returncode == 0
    listed = run_main("models", "list", *cache)
    assert "eat-sample" in listed.stdout and "association norms" in listed.stdout


def bad_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """Name -> (file, what its one-line message must say)."""
    def write(name: str, data: bytes) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    large = folder / "large.csv"
    with large.open("wb") as handle:  # sparse: no disk used
        handle.truncate(MAX_FILE_BYTES + 1)
    cases = {
        "missing": (folder / "nope.csv", "nope.csv: no such file"),
        "empty": (write("empty.csv", b""), "empty.csv: the file is empty"),
        "columns": (write("columns.csv", b"gold,silver,33\ngold,silver\n"),
                    "columns.csv: line 2 has 2 fields; each line must be cue,response,count"),
        "text count": (write("count.csv", b"cue,response,count\ngold,silver,many\n"),
                       "count.csv: line 2 has the count 'many', not a number"),
        "negative": (write("negative.csv", b"gold\tsilver\t-3\n"),
                     "negative.csv: line 1 has the count '-3'; a count is a number of people"),
        "binary": (write("binary.csv", b"PK\x03\x04\x00\x00gold,silver,3\n"),
                   "binary.csv: line 1 holds binary bytes: this is not a text file"),
        "long line": (write("long.csv", b"gold," + b"a" * MAX_LINE_BYTES + b",3\n"),
                      "long.csv: line 1 is longer than 1 MB"),
        "large": (large, f"large.csv: larger than {MAX_FILE_BYTES >> 20} MB"),
        "header only": (write("header.csv", b"cue,response,count\n"),
                        "header.csv: no cue,response,count rows"),
        "no words": (write("numbers.csv", b"1,2,3\n4,5,6\n"),
                     "numbers.csv: no row links two words"),
        "too few words": (write("few.csv", b"gold,silver,3\nsilver,gold,2\n"),
                          "few.csv: 2 linked words, too few for 200 dimensions"),
        "folder": (folder, "is a folder, not a norms file"),
    }
    if os.path.exists("/dev/zero"):
        cases["endless"] = (Path("/dev/zero"), "/dev/zero: cannot read it (it is a device, "
                            "not a regular file)")
    return cases


def test_every_bad_file_is_one_line_with_no_traceback(tmp_path: Path) -> None:
    for case, (path, message) in bad_files(tmp_path).items():
        result = run_main("models", "build", "norms", "--norms", str(path), "--name", "mine",
                          "--cache-dir", str(tmp_path / "cache"))
        assert result.returncode == 1, (case, result.stderr)
        assert message in result.stderr, (case, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, case
        assert "Traceback" not in result.stderr, case


@pytest.mark.parametrize(("args", "message"), [
    (["norms", "--name", "mine"], "needs --norms FILE"),
    (["norms", "--norms", str(SAMPLE)], "needs --norms FILE"),
    (["norms", "--norms", str(SAMPLE), "--name", "Mine!"], "must be lower-case"),
    (["norms", "--norms", str(SAMPLE), "--name", "glove-6b-50d"], "is a built-in model"),
    (["norms", "--norms", str(SAMPLE), "--name", "mine", "--dims", "0"],
     "--dims must be a whole number from 2 to 1000"),
    (["word2vec"], "buildable models: minilm, norms"),
])
def test_bad_build_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = run_main("models", "build", *args, "--cache-dir", str(tmp_path))
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1


def star_file(folder: Path, leaves: int) -> Path:
    """A norms file where one word (the hub) is linked to ``leaves`` other words and those to
    nothing else: its two-step walk links every pair of leaves."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = ["".join(letters[n // 26**p % 26] for p in range(3)) for n in range(leaves)]
    path = folder / f"star{leaves}.csv"
    path.write_text("".join(f"hub,leaf{name},3\n" for name in names), encoding="utf-8")
    return path


def walk_peak(norms: Norms) -> int:
    """The most bytes allocated while the sample's recipe walks ``norms`` (refused or not)."""
    import tracemalloc

    recipe = NormsRecipe()
    forward = strengths(norms, vocabulary(norms, recipe.min_count))
    tracemalloc.start()
    try:
        with contextlib.suppress(ModelError):
            walk(forward, recipe, max_links=max_walk_links(norms), source=norms.source)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_star_shaped_file_is_refused_in_one_line_with_bounded_memory(tmp_path: Path) -> None:
    # A 9,000-leaf star took 2.7 GB: its walk links 81 million pairs from 9,000 rows.
    star = star_file(tmp_path, 3_000)
    result = run_main("models", "build", "norms", "--norms", str(star), "--name", "star",
                      "--cache-dir", str(tmp_path / "cache"))
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert f"{star}: the two-step walk over these norms links more than 2,000,000 word pairs" \
        in result.stderr
    assert not (tmp_path / "cache" / "star").exists()
    # twice the leaves, four times the pairs: the walk's memory stays the same
    small, large = (walk_peak(read_norms(star_file(tmp_path, n))) for n in (3_000, 6_000))
    assert large < 1.3 * small < 200 << 20, (small, large)


def test_the_bounded_walk_keeps_every_link_of_real_norms() -> None:
    norms = read_norms(SAMPLE)
    recipe = NormsRecipe()
    forward = strengths(norms, vocabulary(norms, recipe.min_count))
    step = walk(forward, NormsRecipe(indirect=0))
    whole = step + recipe.indirect * (step @ step).multiply(step @ step >= recipe.indirect_floor)
    blocked = walk(forward, recipe, max_links=max_walk_links(norms))
    assert abs(blocked - whole).max() == 0 and blocked.nnz == whole.nnz


def test_the_shipped_eat_mind_credits_its_source_and_reads_american_spellings() -> None:
    meta = shipped_meta("eat-associations")
    assert meta["attribution"] == ("Edinburgh Associative Thesaurus, University of Edinburgh, "
                                   "Open Government Licence v3")
    assert meta["licence"] == "Open Government Licence v3"
    words, vectors = read_shipped("eat-associations")
    row = {w: i for i, w in enumerate(words)}
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    nearest = [words[i] for i in np.argsort(-(unit @ unit[row["gold"]]))[1:6]]
    assert "silver" in nearest
    for british, american in [("humour", "humor"), ("theatre", "theater"), ("armour", "armor"),
                              ("aeroplane", "airplane")]:
        assert (vectors[row[american]] == vectors[row[british]]).all()
    for british, american in [("colour", "color"), ("metre", "meter")]:  # cues of their own
        assert not (vectors[row[american]] == vectors[row[british]]).all()


def test_an_inflection_the_norms_lack_takes_its_base_forms_vector() -> None:
    words = ["knife", "install", "run"]
    vectors = np.eye(3, dtype=np.float32)
    out_words, out, added = with_base_forms(words, vectors, ["knives", "installed", "ran",
                                                             "knife", "zyxxq", "ice_cream"])
    assert out_words == [*words, "knives", "installed", "ran"] and added == 3
    assert (out[3] == vectors[0]).all() and (out[4] == vectors[1]).all()
    assert base_forms("saw", {"see", "saw"}) == ["see"]  # the word itself is not its base


def test_a_byte_order_mark_is_not_part_of_the_first_cue(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbfgold,silver,33\ngold,coin,5\n")
    assert read_norms(path).counts == {("gold", "silver"): 33, ("gold", "coin"): 5}
