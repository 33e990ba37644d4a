"""The README's Python examples run as written (like a doctest)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})


API_PAGE = README.parent / "docs" / "api.md"


def api_blocks() -> tuple[str, str]:
    """The API page's quick tour and its plugin walkthrough (``# my_spymaster.py``)."""
    blocks = re.findall(r"```python\n(.*?)```", API_PAGE.read_text(), flags=re.S)
    tours = [b for b in blocks if not b.startswith("# my_spymaster.py")]
    plugins = [b for b in blocks if b.startswith("# my_spymaster.py")]
    assert len(tours) == 1 and len(plugins) == 1, "the API page has one tour and one plugin"
    return tours[0], plugins[0]


def test_the_api_page_runs() -> None:
    exec(compile(api_blocks()[0], str(API_PAGE), "exec"), {"__name__": "api"})


def test_readme_opens_with_the_two_quickstart_commands() -> None:
    text = README.read_text()
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quickstart, flags=re.S)
    assert commands == ["pip install -e . && codenames play",
                        "pip install -e '.[test]' && pytest"]


def test_readme_tournament_spec_is_valid() -> None:
    import tomllib

    from codenames_ai.harness import TournamentSpec

    blocks = re.findall(r"```toml\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README shows no tournament spec"
    for block in blocks:
        spec = TournamentSpec.from_dict(tomllib.loads(block))
        assert spec.agent("bold").options == (("risk", "bold"),)
