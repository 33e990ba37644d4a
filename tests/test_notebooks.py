"""The notebooks in notebooks/ run from top to bottom (executed with nbclient on a real
kernel), so they never rot."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebooks need the test extra")
nbclient = pytest.importorskip("nbclient", reason="the notebooks need the test extra")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_the_three_notebooks() -> None:
    assert [p.stem for p in NOTEBOOKS] == ["01-what-makes-a-good-clue", "02-comparing-models",
                                           "03-bring-your-own-agent"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in notebook.cells for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    printed = "".join(o.get("text", "") for c in notebook.cells for o in c.get("outputs", [])
                      if o.get("output_type") == "stream")
    assert printed.strip(), "a notebook that prints nothing shows nothing"
