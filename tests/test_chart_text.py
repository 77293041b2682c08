"""Every chart of plots.py, drawn from the shipped surveys as the notebooks draw them: no
text runs into another or off the figure, and no chart is wider than a notebook shows
without shrinking its text (10 inches at 100 dpi: 1,000 px of JupyterLab at 1280 px)."""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from chart_text import cut_texts, drawn, overlapping_texts
from matplotlib.figure import Figure

from bakers_lab.display import plots
from bakers_lab.files.datadir import shipped_table
from bakers_lab.solve import search
from bakers_lab.study import predict
from bakers_lab.study.claims import load_surveys

SHOWN = Path(__file__).parent / "screenshots" / "charts"


@pytest.fixture(scope="module")
def shipped():
    return load_surveys(shipped_table())  # what a pip install draws from


def _cases(t) -> dict[str, Callable[[], Figure]]:
    bd = t[(t["variant"] == "bakers_dozen") & (t["deal"].astype(int) <= 2000)]
    tiny = search.classroom_deal(0, "tiny")
    # one loss model for both of its charts, shuffled 3 times as notebook 03's test run does
    model = functools.cache(lambda: predict.loss_model(bd, "careful", repeats=3))
    return {
        "win_rate_chart": lambda: plots.win_rate_chart(t, variant="bakers_dozen"),
        "win_rate_chart/return": lambda: plots.win_rate_chart(t, variant="bakers_dozen_return"),
        "lookahead_chart": lambda: plots.lookahead_chart(t, variant="bakers_dozen"),
        "odds_ratio_chart": lambda: plots.odds_ratio_chart(model()),
        "decile_chart": lambda: plots.decile_chart(bd, "f_inversions"),
        "effort_chart": lambda: plots.effort_chart(bd, "f_blocked_cards"),
        "variant_chart": lambda: plots.variant_chart(t),
        "par_chart": lambda: plots.par_chart(bd),
        "skill_curve_chart": lambda: plots.skill_curve_chart(t, variant="bakers_dozen"),
        "skill_curve_chart/return": lambda: plots.skill_curve_chart(
            t, variant="bakers_dozen_return"
        ),
        "planning_chart": lambda: plots.planning_chart(
            t, "f_blocked_cards", variant="bakers_dozen"
        ),
        "search_chart": lambda: plots.search_chart(search.compare(range(6), deck="tiny")),
        "importance_chart": lambda: plots.importance_chart(model()),
        "feature_effect_chart": lambda: plots.feature_effect_chart(
            t, ["f_depth_aces", "f_deep_low_cards", "f_depth_twos"], variant="bakers_dozen"
        ),
        "frontier_chart": lambda: plots.frontier_chart(
            search.astar(tiny, "detours", trace=True), upto=20
        ),
        "search_tree_chart": lambda: plots.search_tree_chart(
            search.breadth_first(tiny, trace=True), upto=200
        ),
        "search_tree_chart/numbered": lambda: plots.search_tree_chart(
            search.astar(tiny, "detours", trace=True), upto=30
        ),
    }


def test_every_chart_function_is_checked(shipped):
    charts = {
        name
        for name in plots.__all__
        if name.endswith("_chart") and inspect.isfunction(getattr(plots, name))
    }
    covered = {case.split("/")[0] for case in _cases(shipped)}
    assert charts == covered


def test_no_chart_text_overlaps_or_is_cut_and_charts_fit_a_notebook(shipped):
    SHOWN.mkdir(parents=True, exist_ok=True)
    problems = {}
    for case, make in _cases(shipped).items():
        fig = make()
        renderer = drawn(fig, png=SHOWN / f"{case.replace('/', '_')}.png")  # drawn once
        found = {"overlap": overlapping_texts(fig, renderer), "cut": cut_texts(fig, renderer)}
        if fig.get_size_inches()[0] > 11:
            found["width"] = [f"{fig.get_size_inches()[0]:.1f} in"]
        found = {k: v for k, v in found.items() if v}
        if found:
            problems[case] = found
    assert problems == {}


def _range(words: str) -> tuple[float, float]:
    low, _, high = words.partition("–")
    return float(low.replace(",", "")), float((high or low).replace(",", ""))


def test_planning_chart_groups_are_disjoint_ranges_of_the_feature(shipped):
    # notebook 03 cut f_deep_low_cards into "1–4, 4–6, 6–7, 7–11": the deals of a value
    # split between two groups.  The groups must be disjoint ranges, ties together.
    fig = plots.planning_chart(shipped, "f_deep_low_cards", variant="bakers_dozen")
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    spans = [_range(label.split()[1]) for label in labels]
    assert len(spans) >= 3
    for (_, high), (low, _) in itertools.pairwise(spans):
        assert high < low, labels
    # and each group holds every deal of its values: the counts add up to the deals
    bd = shipped[shipped["variant"] == "bakers_dozen"]
    deals = bd[bd["player"].astype(str).str.startswith("search-")].drop_duplicates("deal")
    x = deals["f_deep_low_cards"].astype(int)
    counts = [int(label.split("(")[1].split()[0].replace(",", "")) for label in labels]
    assert counts == [int(((x >= lo) & (x <= hi)).sum()) for lo, hi in spans]
    assert sum(counts) == len(deals)


def test_value_groups_keeps_ties_together():
    group, words = plots.value_groups([0, 1, 2, 3, 4, 4, 4, 5, 6, 6, 7, 12], 4)
    assert words == ["0–2", "3–4", "5", "6–12"]
    assert group.tolist() == [0, 0, 0, 1, 1, 1, 1, 2, 3, 3, 3, 3]
    assert plots.value_groups([5, 5, 5, 5, 6], 4)[1] == ["5", "6"]  # fewer: 5 is 4 of 5
    assert plots.value_groups([3.0], 4)[1] == ["3"]
    with pytest.raises(ValueError, match="values must be a non-empty list of numbers, not"):
        plots.value_groups([], 4)
