"""Every notebook in notebooks/ runs top to bottom on a fresh kernel, and is stored clean.

The notebooks are found by globbing, so notebooks added later are tested without a change
here.  A notebook's parameters (its second cell, tagged ``parameters`` as papermill
expects) can be made smaller for the test in ``PARAMETERS``; a notebook not named there
runs with its own.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
FILES = sorted(NOTEBOOKS.glob("*.ipynb"))
#: Source of the ``parameters`` cell for the test run, by notebook file name.
PARAMETERS = {
    "01_replay.ipynb": "GAME = 5\nVARIANT = 'bakers_dozen'\nPLAYER = 'careful'",
    "03_loss_predictors.ipynb": (  # one player's two models instead of two players'
        "DATA = None\nVARIANT = 'bakers_dozen'\nPLAYER = 'careful'\nCOMPARE = ['careful']\n"
        "SHUFFLES = 3\nHARDEST = 1"
    ),
    "04_search_algorithms.ipynb": (
        "DECK = 'tiny'\nDEALS = 10\nSEED = 0\nMAX_NODES = 20_000\nFULL_GAME = 1"
    ),
    "05_exercises.ipynb": "SEARCH_DEALS = 10\nHEURISTIC_DEALS = 20",  # the micro deals
}
#: A notebook must run top to bottom within this many seconds (fresh kernel included).
TIMEOUT = 120


def parameters_cell(nb):
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "one cell tagged 'parameters'"
    return cells[0]


def test_there_are_notebooks():
    assert "01_replay.ipynb" in [f.name for f in FILES]


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_notebook_runs_on_a_fresh_kernel(path):
    nb = nbformat.read(path, as_version=4)
    if path.name in PARAMETERS:
        parameters_cell(nb).source = PARAMETERS[path.name]
    client = nbclient.NotebookClient(
        nb,
        timeout=TIMEOUT,  # per cell; the whole run is held to it below
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},  # the kernel's cwd
    )
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    seconds = time.perf_counter() - t0
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    assert seconds < TIMEOUT, f"{path.name} took {seconds:.0f} s"


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_notebook_is_stored_clean_with_intro_and_parameters(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} is stored with outputs"
            assert cell.execution_count is None, f"cell {i} is stored with an execution count"
    assert nb.cells[0].cell_type == "markdown", "the first cell says what you will learn"
    assert nb.cells[1].cell_type == "code"
    assert parameters_cell(nb) is nb.cells[1], "the second cell holds the parameters"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
