"""The manual as built by ``make docs`` (build/docs/html), which runs these tests after the
build; ``make test`` leaves them out (it does not build the manual).

- every public name has its page in the reference;
- every code example of the guides ran at the build and left its output, with no error;
- the site in a browser at 1280 px: the home page, each guide, a rendered notebook with its
  charts, the reference of ``bl.strength``, the search box finding "strength"; no request
  leaves 127.0.0.1.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import free_port, shoot

import bakers_lab
from bakers_lab.cli import MANUAL

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "docs" / "html"
GUIDES = ("getting-started", "guides/players", "guides/analysts", "guides/teachers")

pytestmark = pytest.mark.skipif(
    not (SITE / "index.html").exists(), reason="the manual is not built (make docs builds it)"
)


def inventory() -> dict[str, str]:
    """The Python objects of the site's ``objects.inv``: name to its page and anchor."""
    raw = (SITE / "objects.inv").read_bytes()
    head = b"".join(raw.splitlines(keepends=True)[:4])
    text = zlib.decompress(raw[len(head) :]).decode("utf-8")
    found = {}
    for line in text.splitlines():
        m = re.match(r"(\S+)\s+py:(\w+)\s+-?\d+\s+(\S+)", line)
        if m:
            found[m.group(1)] = m.group(3).replace("$", m.group(1))
    return found


def public_modules():
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    return generate.public_modules(), generate.homes()


def test_every_public_name_has_its_page_in_the_reference():
    objects = inventory()
    modules, homes = public_modules()
    missing = []
    for module in modules:
        for name in module.__all__:
            home = homes[(name, id(getattr(module, name)))]
            if f"{home}.{name}" not in objects:
                missing.append(f"{module.__name__}.{name}")
    assert not missing, f"no page for {missing}"
    assert len(modules) > 50 and len(objects) > 500
    # the bl namespace page links every name of bakers_lab.__all__ to its page
    namespace = (SITE / "_generated" / "api" / "bakers_lab.html").read_text(encoding="utf-8")
    for name in bakers_lab.__all__:
        assert f">bl.{name}<" in namespace.replace('<span class="pre">', "").replace(
            "</span>", ""
        ), name


def test_bl_strength_has_its_signature_docstring_and_example():
    objects = inventory()
    page = objects["bakers_lab.study.strength.strength"]
    html = (SITE / page.split("#")[0]).read_text(encoding="utf-8")
    entry = html[html.index('id="bakers_lab.study.strength.strength"') :][:20_000]
    assert "explain_moves" in entry  # the signature
    assert "How good a person is, from their games" in entry  # the docstring
    assert "strength(" in entry and "you_only" in entry  # its example


@pytest.mark.parametrize("guide", GUIDES)
def test_every_example_of_the_guides_ran_at_the_build(guide):
    html = (SITE / f"{guide}.html").read_text(encoding="utf-8")
    cells = re.findall(r'<div class="cell docutils container"', html)
    outputs = re.findall(r'<div class="cell_output docutils container"', html)
    source = (ROOT / "docs" / f"{guide}.md").read_text(encoding="utf-8")
    shown = [
        block
        for block in re.findall(r"```\{code-cell\} ipython3\n(.*?)```", source, re.S)
        if "remove-cell" not in block
    ]
    assert len(cells) == len(shown) > 0
    printing = [b for b in shown if "print(" in b]
    assert len(outputs) >= len(printing), "an example printed nothing"
    assert "output traceback" not in html and "Traceback (most recent call last)" not in html


def test_the_claims_page_is_the_commands_table():
    from bakers_lab.study.claims import claims_table, format_claims

    table = format_claims(claims_table(None), markdown=True)  # data/'s, as the command
    page = (SITE / "_generated" / "claims.html").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ")][1:]
    assert page.count('<tr class="row-') == len(rows) + 1  # and the header
    for row in rows:
        claim = row.split(" | ")[0].removeprefix("| ")
        assert claim.replace("'", "\u2019") in page or claim in page, claim


def test_no_page_shows_a_path_of_the_machine_that_built_it():
    # the notebooks' parameters and the app's files were shown as /home/.../bakers_lab/...
    pages = [*SITE.rglob("*.html"), SITE / "searchindex.js"]
    assert len(pages) > 50
    assert [str(p.relative_to(SITE)) for p in pages if str(ROOT) in p.read_text("utf-8")] == []


def test_the_command_help_ends_with_where_the_manual_is():
    from inprocess import run_cli

    proc = run_cli("--help")
    assert proc.stdout.rstrip().splitlines()[-1] == MANUAL
    assert "build/docs/html/index.html" in MANUAL
    assert (ROOT / "build" / "docs" / "html" / "index.html").exists()


# -- in a browser ------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    port = free_port()
    handler = functools.partial(_Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


def _visit(page, url: str, name: str) -> None:
    response = page.goto(url)
    assert response is not None and response.ok, url
    page.wait_for_load_state("networkidle")
    shoot(page, name)
    assert page.refused == [], f"{url} asked for {page.refused}"


def test_the_home_page_and_each_guide_in_a_browser(page, site):
    _visit(page, f"{site}/index.html", "docs_home")
    assert "A toolkit for Baker\u2019s Dozen solitaire" in page.locator("main").inner_text()
    for card in ("For players", "For analysts", "For teachers"):
        assert page.get_by_text(card, exact=True).first.is_visible()
    for guide in GUIDES:
        _visit(page, f"{site}/{guide}.html", "docs_" + guide.replace("/", "_"))
        heading = page.locator("main h1").first
        assert heading.is_visible()
        box = heading.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1280


def test_a_rendered_notebook_shows_its_charts(page, site):
    _visit(page, f"{site}/_generated/notebooks/02_win_rates.html", "docs_notebook_02")
    charts = page.locator("main img")
    assert charts.count() >= 2
    for i in range(charts.count()):
        width = charts.nth(i).evaluate("img => img.naturalWidth")
        assert width > 100, "a chart that did not load"
    # the fresh survey's progress bar, a widget that cannot run here, is not shown as the
    # text it had when it appeared ("survey: 0%| | 0/10") after the survey's table
    assert re.search(r"\| 0/\d+ \[", page.locator("main").inner_text()) is None


def test_a_rendered_notebook_shows_its_widgets_as_still_pictures(page, site):
    # a widget cannot run in the manual: the replay of notebook 01 is shown as it first
    # appears in Jupyter (its still picture: the step's words and the board), not as an
    # empty space
    _visit(page, f"{site}/_generated/notebooks/01_replay.html", "docs_notebook_01")
    replay = page.locator(".cell_output", has_text="start: 0 of")
    assert replay.count() >= 1
    board = replay.first.locator(".bakers-lab-board svg")
    board.scroll_into_view_if_needed()
    shoot(page, "docs_notebook_01_replay")
    box = board.bounding_box()
    assert box is not None and box["width"] > 300 and box["x"] + box["width"] <= 1280
    assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 0


def test_the_reference_of_bl_strength(page, site):
    objects = inventory()
    _visit(page, f"{site}/{objects['bakers_lab.study.strength.strength']}", "docs_strength")
    entry = page.locator('[id="bakers_lab.study.strength.strength"]')
    assert entry.is_visible()
    assert "strength(" in entry.inner_text()


def test_the_search_box_finds_strength(page, site):
    _visit(page, f"{site}/index.html", "docs_home_for_search")
    page.goto(f"{site}/search.html?q=strength")
    results = page.locator("#search-results li")
    results.first.wait_for()
    texts = [results.nth(i).inner_text() for i in range(min(results.count(), 20))]
    shoot(page, "docs_search_strength")
    assert any("strength" in t.lower() for t in texts)
    assert page.refused == []
