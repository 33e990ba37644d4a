"""Word vectors: the default model (GloVe 6B 50d, installed by pip), any gensim-readable
file, a memory-mapped cache checked against its manifest, and phrases for multi-word cards."""

from ..files import default_cache_dir
from .default import BUILDERS, load_model, unconverted
from .formats import VectorFormat, detect_format, parse_format, read_vectors
from .model import WordVectors
from .shipped import DEFAULT_MODEL
from .store import ModelInfo, ModelStore

__all__ = ["BUILDERS", "DEFAULT_MODEL", "ModelInfo", "ModelStore", "VectorFormat", "WordVectors",
           "default_cache_dir", "detect_format", "load_model", "parse_format", "read_vectors",
           "unconverted"]
