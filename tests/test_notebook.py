"""The notebooks run headless against a small study dataset."""

from __future__ import annotations

from pathlib import Path

import pytest
from study_fixtures import small_dataset  # noqa: F401  (fixture)

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_headless(path, small_dataset, monkeypatch):  # noqa: F811
    monkeypatch.setenv("UNOSIM_DATASET", str(small_dataset))
    notebook = jupytext.read(path)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the chart was not drawn"
