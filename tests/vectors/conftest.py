"""Tiny real vector files in every format, built by the tests (no network, nothing large)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gensim.models import FastText, KeyedVectors
from gensim.models.fasttext import save_facebook_model

WORDS = ["ocean", "sea", "wave", "piano", "music", "guitar", "ice_cream", "ice", "cream",
         "dessert", "the", "paris", "shit", "table"]


def tiny_vectors() -> KeyedVectors:
    rng = np.random.default_rng(7)
    vectors = KeyedVectors(vector_size=4, count=0, dtype=np.float32)
    matrix = rng.normal(size=(len(WORDS), 4)).astype(np.float32)
    matrix[1] = matrix[0] + 0.05  # sea close to ocean
    vectors.add_vectors(WORDS, matrix)
    return vectors


@pytest.fixture(scope="session")
def vector_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("vectors")
    vectors = tiny_vectors()
    files = {
        "word2vec-text": folder / "tiny.txt",
        "word2vec-bin": folder / "tiny.bin",
        "glove": folder / "glove.txt",
        "fasttext-vec": folder / "tiny.vec",
        "gensim": folder / "tiny.kv",
        "fasttext-bin": folder / "fast.bin",
    }
    vectors.save_word2vec_format(str(files["word2vec-text"]), binary=False)
    vectors.save_word2vec_format(str(files["word2vec-bin"]), binary=True)
    vectors.save_word2vec_format(str(files["glove"]), binary=False, write_header=False)
    vectors.save_word2vec_format(str(files["fasttext-vec"]), binary=False)
    vectors.save(str(files["gensim"]))
    sentences = [["the", "ocean", "wave", "sea"], ["piano", "music", "guitar"]] * 20
    model = FastText(vector_size=4, window=2, min_count=1, epochs=2, seed=1, workers=1,
                     bucket=1000)
    model.build_vocab(corpus_iterable=sentences)
    model.train(corpus_iterable=sentences, total_examples=len(sentences), epochs=2)
    save_facebook_model(model, str(files["fasttext-bin"]))
    return files
