"""The notebooks in notebooks/ run from top to bottom (executed with nbclient on a real
kernel), so they never rot. Whole notebooks take tens of seconds: they are behind the
``slow`` marker (``pytest -m slow``); the default run checks on a real kernel that every
cell compiles and every import in them resolves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebooks need the test extra")
nbclient = pytest.importorskip("nbclient", reason="the notebooks need the test extra")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_the_three_notebooks() -> None:
    assert [p.stem for p in NOTEBOOKS] == ["01-what-makes-a-good-clue", "02-comparing-models",
                                           "03-bring-your-own-agent"]


def test_every_cell_compiles_and_every_import_resolves_on_a_kernel(tmp_path: Path) -> None:
    imports = []
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                tree = ast.parse(cell.source, filename=f"{path.name}: a cell")
                imports += [ast.unparse(node) for node in ast.walk(tree)
                            if isinstance(node, ast.Import | ast.ImportFrom)]
    assert any("codenames_ai" in line for line in imports)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "\n".join([*imports, "print('imported')"]))])
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = notebook.cells[0].outputs
    assert [o.get("text") for o in outputs] == ["imported\n"], outputs


@pytest.mark.slow
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
