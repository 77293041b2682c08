"""Every notebook in notebooks/ runs top to bottom on a fresh kernel, and is stored clean.

The notebooks are found by globbing, so notebooks added later are tested without a change
here.  A notebook's parameters (its second cell, tagged ``parameters`` as papermill
expects) can be made smaller for the test in ``PARAMETERS``; a notebook not named there
runs with its own.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from notebook_parameters import small_parameters
from test_browser import VIEWPORT, jupyterlab, lab_errors, offline_context, shot_path

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
FILES = sorted(NOTEBOOKS.glob("*.ipynb"))
#: The notebooks run here: all but the exercises, whose copy in notebooks/ is the
#: student's (its stubs raise NotImplementedError by design); tests/test_exercises.py
#: runs it as a student does, and the teacher's copy through nbgrader's autograder.
RUN = [f for f in FILES if f.name != "05_exercises.ipynb"]
#: Of those, the ones nbclient runs here: notebook 01's one run is in JupyterLab
#: (tests/test_browser.py steps its replay there, then checks what it saved as here).
RUN_HERE = [f for f in RUN if f.name != "01_replay.ipynb"]
#: Source of the ``parameters`` cell for the test run, by notebook file name (the
#: manual's build runs them with the same).
PARAMETERS = small_parameters()
#: A hang guard: a cell that runs this long has hung (the notebooks' cells take seconds;
#: how long a notebook takes is not a test's business).
TIMEOUT = 600
#: What a run of each notebook must not show (in any output or widget): the mistakes
#: issue 39 found in them.
NEVER_SHOWN = {
    # a median of 3,210.5 nodes among whole numbers
    "04_search_algorithms.ipynb": ["e+0"],
}


def parameters_cell(nb):
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "one cell tagged 'parameters'"
    return cells[0]


def test_there_are_notebooks():
    assert "01_replay.ipynb" in [f.name for f in FILES]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """``executed(path)``: the notebook at ``path`` run top to bottom on a fresh kernel
    (nbclient, with the test's parameters), once for this module; the path of the run
    copy, saved with its outputs (the JupyterLab test below opens it)."""
    folder = tmp_path_factory.mktemp("executed")
    done: dict[str, Path] = {}

    def run(path: Path) -> Path:
        if path.name not in done:
            nb = nbformat.read(path, as_version=4)
            if path.name in PARAMETERS:
                parameters_cell(nb).source = PARAMETERS[path.name]
            client = nbclient.NotebookClient(
                nb,
                timeout=TIMEOUT,  # per cell
                kernel_name="python3",
                resources={"metadata": {"path": str(NOTEBOOKS)}},  # the kernel's cwd
            )
            client.execute()  # raises CellExecutionError, naming the cell, on any error
            nbformat.write(nb, folder / path.name)
            done[path.name] = folder / path.name
        return done[path.name]

    return run


@pytest.mark.parametrize("path", RUN_HERE, ids=[f.name for f in RUN_HERE])
def test_notebook_runs_on_a_fresh_kernel(path, executed):
    assert_ran_well(nbformat.read(executed(path), as_version=4), path.name)


def assert_ran_well(nb, name: str) -> None:
    """A notebook run top to bottom shows no error, none of :data:`NEVER_SHOWN`, and
    no sentence as plain text."""
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    assert [cell.execution_count for cell in nb.cells if cell.cell_type == "code"][-1], "ran"
    shown = shown_text(nb)
    for words in NEVER_SHOWN.get(name, []):
        assert words not in shown, f"{name} shows {words!r}"
    assert plain_sentences(nb) == []


def plain_sentences(nb) -> list[str]:
    """Long sentences an executed notebook shows as plain text: JupyterLab draws plain
    text preformatted with ``word-break: break-all``, which splits words mid-word at
    the edge ("par is 6 / 3 moves"); sentences are shown as HTML paragraphs instead
    (``bakers_lab.model.render.Sentences``).  A line counts when it is over 100 characters
    of at least 12 words."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if out.get("output_type") == "stream":
                text = str(out.get("text", ""))
            elif set(data) == {"text/plain"}:  # shown as text (a widget shows its view)
                text = str(data["text/plain"])
            else:
                continue
            for line in text.splitlines():
                if len(line) > 100 and len(re.findall(r"[A-Za-z]{2,}", line)) >= 12:
                    found.append(line)
    return found


def shown_text(nb) -> str:
    """Everything an executed notebook shows in words: its outputs' text and HTML and
    the values of its widgets (their state, which the run stores in the notebook)."""
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(str(out.get("text", "")))
            for mime in ("text/plain", "text/html"):
                parts.append(str(out.get("data", {}).get(mime, "")))
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    for model in state.get("state", {}).values():
        value = model.get("state", {}).get("value")
        if isinstance(value, str):
            parts.append(value)
    return "\n".join(parts)


def test_notebook_03_looks_for_the_loss_within_the_surveys_budget():
    # the hardest deal's replay, explained within a smaller budget than the survey's,
    # called a deal the table beside it says the solver won "not known winnable"; the
    # test run does not look (FIND_LOSS = False: half a minute), so the call is read here
    nb = nbformat.read(NOTEBOOKS / "03_loss_predictors.ipynb", as_version=4)
    assert "FIND_LOSS = True" in parameters_cell(nb).source
    calls = [c.source for c in nb.cells if "Replay(game" in c.source]
    assert len(calls) == 1
    assert "Replay(game, find_loss=FIND_LOSS, budget=DEFAULT_MAX_NODES)" in calls[0]
    assert "from bakers_lab.solve import DEFAULT_MAX_NODES" in calls[0]
    from bakers_lab.solve import DEFAULT_MAX_NODES, solve

    assert inspect.signature(solve).parameters["max_nodes"].default == DEFAULT_MAX_NODES


def test_notebook_01_says_how_to_play_in_jupyter():
    # "click a card" did nothing in JupyterLab: there the board is played with the
    # buttons under the picture, which the text must name as the widget labels them
    from bakers_lab.display.widgets import Board

    nb = nbformat.read(NOTEBOOKS / "01_replay.ipynb", as_version=4)
    at = next(i for i, c in enumerate(nb.cells) if c.source.startswith("Board("))
    text = nb.cells[at - 1].source
    assert "click a card" not in text.lower()
    board = Board(1)
    labels = [
        row.children[0].value
        for row in board.children
        if hasattr(row, "children") and hasattr(row.children[0], "value")
    ]
    labels = [label for label in labels if isinstance(label, str) and label.endswith(":")]
    assert labels == ["Move a card:", "to:", "All legal moves:"]
    for label in labels:
        assert f"*{label}*" in text, label
    assert "*undo*" in text and "*Can I still win?*" in text


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


# -- the notebooks as JupyterLab shows them (Chromium; skipped without it) --------------
#: Notebooks whose every chart and table the browser looks at in JupyterLab at 1280 px.
LOOKED_AT = ["02_win_rates.ipynb", "03_loss_predictors.ipynb", "04_search_algorithms.ipynb"]
#: A chart may be shown this much smaller than it was drawn, and its text still reads
#: (the smallest text, 7 points at 100 dpi, stays above 7 pixels).
SHRINK = 0.72
#: JavaScript: true once every picture in the notebook's outputs is loaded.
PICTURES_LOADED = """() => {
  const pictures = [...document.querySelectorAll('.jp-OutputArea-output img')];
  return pictures.length > 0 && pictures.every(i => i.complete && i.naturalWidth > 0);
}"""


@pytest.fixture(scope="module")
def looked_at_lab(tmp_path_factory, executed):
    """One JupyterLab server over the runs of the notebooks of :data:`LOOKED_AT`: the
    URL that opens one, ``{name}`` to fill in."""
    ran = [executed(NOTEBOOKS / name) for name in LOOKED_AT]
    with jupyterlab(tmp_path_factory.mktemp("lab"), LOOKED_AT, source=ran[0].parent) as url:
        yield url


@pytest.fixture(scope="module")
def lab_context(browser):
    """One browser context for the notebooks of :data:`LOOKED_AT`, opened one after the
    other as a person opens them (JupyterLab's page is loaded from the browser's cache
    after the first); what they tried to fetch from elsewhere: ``refused``."""
    context, refused = offline_context(browser)
    try:
        yield context, refused
    finally:
        context.close()


@pytest.mark.parametrize("name", LOOKED_AT)
def test_jupyterlab_shows_every_chart_and_table_within_the_notebook_width(
    lab_context, name, looked_at_lab
):
    """Each chart and table of the notebook as JupyterLab shows it at 1280 px: saved
    as a screenshot to look at, no chart shrunk past reading, no table wider than the
    notebook (a person would have to scroll sideways to read it).  The notebook is the
    run of :func:`test_notebook_runs_on_a_fresh_kernel` (one run a notebook), opened
    with its outputs as a person opens a notebook they ran."""
    context, _ = lab_context
    page = context.new_page()
    try:
        look_at_notebook(page, name, looked_at_lab)
    finally:
        page.close()


def look_at_notebook(page, name: str, lab: str) -> None:
    """The checks of the test above on the notebook ``name``, opened in ``page`` from the
    JupyterLab at ``lab``."""
    stem = name.removesuffix(".ipynb")
    # a workspace of its own: the lab does not reopen the notebooks looked at before
    page.goto(lab.format(name=name).replace("/lab/tree/", f"/lab/workspaces/{stem}/tree/"))
    page.locator(".jp-Notebook").first.wait_for()
    page.wait_for_function(PICTURES_LOADED)
    assert page.locator(".jp-Notebook").count() == 1
    assert lab_errors(page) == []

    def look_at(part, name: str) -> None:
        """A screenshot of the whole of ``part``: the window is made as tall as it
        (the notebook then shows it whole; its width, 1280 px, stays)."""
        height = part.evaluate("e => e.getBoundingClientRect().height")
        page.set_viewport_size({**VIEWPORT, "height": max(VIEWPORT["height"], int(height) + 200)})
        part.scroll_into_view_if_needed()
        part.screenshot(path=str(shot_path(name)))
        page.set_viewport_size(VIEWPORT)

    charts = page.locator(".jp-OutputArea-output img")
    assert charts.count() > 0
    unreadable = []
    for i in range(charts.count()):
        chart = charts.nth(i)
        shown, drawn = chart.evaluate("i => [i.clientWidth, i.naturalWidth]")
        look_at(chart, f"lab_{stem}_chart_{i + 1}")
        if shown < SHRINK * drawn:
            unreadable.append(f"chart {i + 1} is shown {shown} px wide of {drawn}")
    tables = page.locator(".jp-OutputArea-output.jp-RenderedHTMLCommon:has(table)")
    for i in range(tables.count()):
        table = tables.nth(i)
        look_at(table, f"lab_{stem}_table_{i + 1}")
        inner, room = table.evaluate("o => [o.scrollWidth, o.clientWidth]")
        if inner > room + 1:
            unreadable.append(f"table {i + 1} is {inner} px wide in {room} px")
    assert unreadable == []
