"""The report of a slice of the shipped tables: as text, what notebook 03 and the notebooks
say; as HTML, as a reader meets it: opened in Chromium at 1280 px, nothing runs off
the page, no feature is named by its column name, par is no player, and the loss model
is the one notebook 03 shows.

The survey is a slice of the shipped tables (deals 1-1,000: six players, the solver and
the par table) written as one survey directory, so the report has every section.
The screenshot goes to ``tests/screenshots/report.png`` (git-ignored).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from test_browser import VIEWPORT, shot_path

import bakers_lab as bl
from bakers_lab.display.report import Report, build_report, report_text, write_html
from bakers_lab.files.table import MANIFEST, for_disk

DATA = Path(__file__).resolve().parent.parent / "data"
SLICE = ("bakers_dozen_players_1-10000", "bakers_dozen_players_1-32000", "bakers_dozen_1-32000",
         "bakers_dozen_shortest_1-1000")  # fmt: skip


def shipped_slice(out: Path, deals: int = 1000) -> Path:
    """Deals 1 to ``deals`` of the shipped Baker's Dozen tables (random, greedy,
    careful, lookahead-2, lookahead-3, the solver and par) as one survey in ``out``."""
    parts = [bl.read_survey(DATA / name) for name in SLICE]
    table = pd.concat([p[p["deal"] <= deals] for p in parts], ignore_index=True)
    table = table.astype({"player": str, "variant": str})
    table = table.sort_values(["deal", "player"], kind="stable").reset_index(drop=True)
    out.mkdir(parents=True)
    for_disk(table).to_parquet(out / "chunk-000000.parquet", index=False)
    config = {"format": 2, "variant": "bakers_dozen", "players": sorted(set(table["player"])),
              "deals": deals, "chunk_size": deals, "max_nodes": 5_000_000}  # fmt: skip
    (out / MANIFEST).write_text(json.dumps(config), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Report:
    """The report of :func:`shipped_slice` (its four loss models fitted once, for every
    test of this file)."""
    survey = shipped_slice(tmp_path_factory.mktemp("report") / "bakers_dozen_1-1000")
    return build_report(survey, progress=False)


@pytest.fixture(scope="module")
def report_file(report, tmp_path_factory) -> Path:
    return write_html(report, tmp_path_factory.mktemp("html") / "report.html")


def test_the_report_fits_the_page_in_words(report_file, browser):
    page = browser.new_page(viewport=VIEWPORT)
    try:
        elsewhere: list[str] = []
        page.on("request", lambda r: None if r.url.startswith(("file:", "data:"))
                else elsewhere.append(r.url))  # fmt: skip
        page.goto(report_file.as_uri())
        width = page.evaluate("document.scrollingElement.scrollWidth")
        text = page.evaluate("document.body.innerText")
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => "
            "e.getBoundingClientRect().right > 1280).map(e => e.tagName)"
        )
        headings = page.locator("h2, h3").all_inner_texts()
        page.screenshot(path=str(shot_path("report")), full_page=True)
    finally:
        page.close()
    assert width <= VIEWPORT["width"], f"the page is {width} px wide: {wide[:5]}"
    assert wide == []
    assert re.findall(r"\bf_[a-z_]+", text) == []  # features in words, never by column name
    assert elsewhere == []  # it stands alone
    # the loss model of every player that wins and loses at least 5 %, by its name
    ladder = ("random", "greedy", "careful", "lookahead-2", "lookahead-3", "solver")
    loss = [h for h in headings if h.split(", ")[0] in ladder]
    assert loss == ["greedy, Baker's Dozen", "careful, Baker's Dozen",
                    "lookahead-2, Baker's Dozen", "lookahead-3, Baker's Dozen"]  # fmt: skip
    assert "No loss model for random in Baker's Dozen: it wins 0.8 % of its deals" in text
    assert "For careful, the deal explains" in text
    # par is a column, never a player
    assert "shortest" not in text
    assert "Of the 1,000 deals of the par table, 962 have it proven" in text


def test_the_report_says_what_the_notebooks_say(report):
    from bakers_lab.study.predict import FEATURE_GROUPS, loss_predictors

    rep = report
    assert "shortest" not in set(rep.rates["player"])
    assert len(rep.par) == 1000 and int(rep.par["par"].notna().sum()) == 962
    # a loss model for each player that wins and loses at least 5 %: not random, not solver
    assert [m.player for m in rep.models] == ["greedy", "careful", "lookahead-2", "lookahead-3"]
    assert rep.notes[:2] == (
        "No loss model for random in Baker's Dozen: it wins 0.8 % of its deals (under 5 %), "
        "too few to tell the deals apart by.",
        "No loss model for solver in Baker's Dozen: it loses 0.2 % of its deals (under 5 %), "
        "too few to tell the deals apart by.",
    )
    careful = next(m for m in rep.models if m.player == "careful")
    same = loss_predictors(rep.table, "careful")
    assert (careful.logistic_auc, careful.trees_auc) == (same.logistic_auc, same.trees_auc)
    assert careful.strongest_feature() == FEATURE_GROUPS[careful.strongest][0]
    text = report_text(rep)
    assert careful.summary()[:60] in text.replace("\n", " ")
    assert not re.search(r"\bf_[a-z]", text)  # features in words
    assert "shortest" not in text
