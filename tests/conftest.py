"""Shared fixtures and hypothesis settings for the bakers_lab tests.

Before the tests start, the compiled searches are compiled once into numba's
cache (tests/warm.py: the solver, then A* and the players side by side; set-up,
``make venv``, has built them already, and then this takes about two seconds).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings
from warm import warm

from bakers_lab.display.app.serve import without_iri_checks

#: The tests run two at a time on two cores (``make test``), and each test's kernels and
#: child processes inherit this: one thread each for scikit-learn's OpenMP and for BLAS,
#: which would otherwise start a thread per core in every process and make them wait on
#: each other (the report's four loss models: 23 s beside two busy cores, 14 s with one
#: thread).  A value set outside is kept.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

# nbformat imports jsonschema (the notebook and exercise tests, at collection, in each
# worker): without its IRI checks, as the app's server does, a second sooner
without_iri_checks()

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Where the chart tests leave each chart, for a person to look at.
CHARTS = Path("/tmp/bakers_lab_charts")

#: The test files that take longest (a minute or more each on a loaded 2-core
#: machine: browsers, notebook kernels, forked checks, child processes), longest
#: first.  They run first, so that ``make test``'s two workers (each file on one)
#: do not end with one of them still running a long file while the other waits.
SLOW_FIRST = (
    "test_notebooks.py",
    "test_browser.py",
    "test_browser_stepper.py",
    "test_browser_report.py",
    "test_teach.py",
    "test_exercises.py",
    "test_interrupts.py",
    "test_browser_app.py",
    "test_app_server.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`SLOW_FIRST` first, in its order; the tests of a file keep
    theirs, and the other files theirs after them."""

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable


def pytest_configure(config: pytest.Config) -> None:
    # the app's journal of games ("My games"): never the person's own, in any test or
    # in the apps and kernels the tests start
    os.environ["BAKERS_LAB_JOURNAL"] = os.path.join(tempfile.mkdtemp(), "journal.parquet")
    if hasattr(config, "workerinput"):
        return  # a pytest-xdist worker: the controller warmed the cache already
    docs = Path(__file__).resolve().parent / "docs"
    if config.args and all(Path(a).resolve().is_relative_to(docs) for a in config.args):
        return  # the manual's tests (make docs): they read the built site, and solve nothing
    try:
        seconds = warm()
    except RuntimeError as exc:
        raise pytest.UsageError(str(exc)) from None
    if seconds > 10:
        print(f"compiled the searches into numba's cache in {seconds:.0f} s", file=sys.stderr)


def pytest_sessionfinish(session: pytest.Session) -> None:
    # ``make references``: each test process adds the answers it computed to the record
    references = sys.modules.get("references")
    if references is not None:
        references.write_recorded()


@pytest.fixture
def show_chart() -> Callable[..., Path]:
    """``show_chart(fig, name, dpi=100)``: the chart saved as ``CHARTS/name.png`` for a
    person to look at (a drawn chart, more than 5 kB); the file's path."""

    def show(fig: Figure, name: str, dpi: int = 100) -> Path:
        CHARTS.mkdir(parents=True, exist_ok=True)
        path = CHARTS / f"{name}.png"
        fig.savefig(path, dpi=dpi)
        assert path.stat().st_size > 5000, f"{name}: an empty chart"
        return path

    return show


# -- the browser tests' Chromium and web app (their helpers: tests/test_browser.py) -------
# One of each for each test process, shared by every file that asks for them: starting
# Chromium, and the app with its compiled searches, once, not once a file.


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (skipped, saying why, without it)."""
    from test_browser import CHROMIUM, STEP_MS

    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs it: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    sync_api.expect.set_options(timeout=STEP_MS)
    with sync_api.sync_playwright() as pw:
        try:
            chromium = pw.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--headless", "--no-sandbox", "--disable-gpu"],
            )
        except Exception as exc:  # a browser that will not start: say why, do not fail
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {exc}".splitlines()[0])
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    """A page of its own (a new browser context) at 1280 px, watched for what it fetches:
    ``page.refused`` lists what it asked of anywhere but this computer."""
    from test_browser import offline_context

    context, refused = offline_context(browser)
    p = context.new_page()
    p.refused = refused  # what the page tried to fetch from elsewhere
    try:
        yield p
    finally:
        if not p.is_closed():  # (a test may close it itself, as a person closes a tab)
            p.close(run_before_unload=True)  # as a person closes the tab: the kernel ends
        context.close()


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    """``bakers-lab app`` on a free port: (its address, its process id)."""
    from test_browser import free_port, server

    tmp = tmp_path_factory.mktemp("app")
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "bakers_lab.cli", "app", "--port", str(port), "--no-browser"]
    with server(command, base + "voila/static/", tmp / "app.log", cwd=tmp) as proc:
        yield base, proc.pid
