"""Word vectors: the default model (GloVe 6B 50d, installed by pip), any gensim-readable
file, a memory-mapped cache, phrases for multi-word cards, and the clue vocabulary."""

from .default import BUILDERS, DEFAULT_MODEL, load_model
from .formats import VectorFormat, detect_format, parse_format, read_vectors
from .model import WordVectors
from .store import ModelInfo, ModelStore, default_cache_dir
from .vocabulary import DEFAULT_VOCABULARY_SIZE, cached_clue_vocabulary, clue_vocabulary

__all__ = ["BUILDERS", "DEFAULT_MODEL", "DEFAULT_VOCABULARY_SIZE", "ModelInfo", "ModelStore",
           "VectorFormat", "WordVectors", "cached_clue_vocabulary", "clue_vocabulary",
           "default_cache_dir", "detect_format", "load_model", "parse_format", "read_vectors"]
