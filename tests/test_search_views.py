"""Views of the teaching searches: the comparison table (search.compare, summarize,
step_up), the charts (plots.search_chart, frontier_chart, search_tree_chart,
trace_table) and the trace viewer (widgets.TraceModel, TraceViewer).

The tables must repeat the node counts pinned in tests/test_search.py; the charts are
checked for what is on them; the viewer is driven through the ipywidgets API.  The
search chart and a tree drawing are saved to ``/tmp/bakers_lab_search/`` for a human
to look at.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch
from test_search import PINNED, RUN_PARAMS

import bakers_lab as bl
from bakers_lab.display import plots
from bakers_lab.display.plots import frontier_chart, search_chart, search_tree_chart, trace_table
from bakers_lab.solve.search import (
    CLASSROOM,
    COMPARE_COLUMNS,
    LINEUP,
    AlgorithmSpec,
    GameProblem,
    astar,
    breadth_first,
    classroom_deal,
    compare,
    ida_star,
    iterative_deepening,
    run,
    step_up,
    summarize,
)

SHOWN = Path("/tmp/bakers_lab_search")
#: compare() without its type hints, to pass it what the hints forbid.
loose_compare: Any = compare

#: The cases of tests/test_search.py as compare() runs them, and the label of each.
CASES = list(RUN_PARAMS)
SPECS = [RUN_PARAMS[case] for case in CASES]
LABELS = {
    "breadth_first": "breadth_first",
    "depth_first": "depth_first",
    "depth_limited": "depth_limited (limit=10)",
    "iterative_deepening": "iterative_deepening",
    "uniform_cost": "uniform_cost",
    "greedy_best_first": "greedy_best_first (burial, inadmissible)",
    "astar/cards_not_home": "astar (cards_not_home)",
    "astar/detours": "astar (detours)",
    "weighted_astar": "weighted_astar (burial, inadmissible, weight=2)",
    "beam": "beam (burial, inadmissible, width=3)",
    "ida_star/cards_not_home": "ida_star (cards_not_home)",
    "ida_star/detours": "ida_star (detours)",
}


def count(points: PathCollection) -> int:
    """How many points a scatter plot drew."""
    return int(np.asarray(points.get_offsets()).shape[0])


def legend_texts(ax: Axes) -> list[str]:
    legend = ax.get_legend()
    assert legend is not None
    return [t.get_text() for t in legend.get_texts()]


def save(fig: Figure, name: str) -> None:
    SHOWN.mkdir(parents=True, exist_ok=True)
    path = SHOWN / f"{name}.png"
    fig.savefig(path, dpi=80)
    assert path.stat().st_size > 5000


@pytest.fixture(scope="module")
def pinned_table() -> pd.DataFrame:
    """Every pinned case on tiny deals 0 and 13."""
    return compare([0, 13], SPECS, deck="tiny")


# -- compare ------------------------------------------------------------------------
def test_compare_repeats_the_pinned_counts(pinned_table):
    medium = compare([23], SPECS, deck="medium")
    for table, deck in ((pinned_table, "tiny"), (medium, "medium")):
        assert list(table.columns) == list(COMPARE_COLUMNS)
        assert list(table["algorithm"].cat.categories) == [LABELS[c] for c in CASES]
        for row, case in zip(table.itertuples(), CASES * table["deal"].nunique(), strict=True):
            assert row.algorithm == LABELS[case] and row.deck == deck
            length = None if math.isnan(row.length) else int(row.length)
            got = (row.status, length, row.nodes_expanded, row.nodes_generated, row.max_frontier)
            assert got == PINNED[deck, row.deal, case], (deck, row.deal, case)
            assert row.solved == (row.status == "solved")
            assert row.seconds >= 0
    assert medium["optimal"].isna().all()  # nobody solved the unsolvable deal


def test_compare_says_which_solutions_are_shortest(pinned_table):
    optimal = pinned_table.set_index(["deal", "algorithm"], drop=False)["optimal"]
    assert optimal.dtype == "boolean"
    for deal in (0, 13):
        assert not pd.isna(optimal[deal, "depth_first"]) and not optimal[deal, "depth_first"]
        assert pd.isna(optimal[deal, "depth_limited (limit=10)"])  # not solved
        for case in CASES:
            if case not in ("depth_first", "depth_limited"):
                assert optimal[deal, LABELS[case]], (deal, case)
    # with no search that promises shortest solutions, nothing is known
    alone = compare([0], ["depth_first", ("greedy_best_first", {"h": "burial"})], deck="tiny")
    assert alone["optimal"].isna().all() and alone["solved"].all()


def test_summarize(pinned_table):
    s = summarize(pinned_table).set_index("algorithm")
    assert list(s.index) == [LABELS[c] for c in CASES]
    assert s.loc["breadth_first"].to_dict() == {
        "deals": 2,
        "solved": 2,
        "share_solved": 1.0,
        "optimal": 2,
        "share_optimal": 1.0,
        "median_length": 13.5,
        "median_nodes_expanded": 112.0,  # (124 + 100) / 2
        "median_nodes_generated": 300.0,  # (336 + 264) / 2
        "median_max_frontier": 24.0,
        "median_seconds": pytest.approx(s.loc["breadth_first", "median_seconds"]),
    }
    depth_first = s.loc["depth_first"]
    assert (depth_first["optimal"], depth_first["share_optimal"]) == (0, 0.0)
    assert (depth_first["median_length"], depth_first["median_nodes_expanded"]) == (22.5, 25.0)
    limited = s.loc["depth_limited (limit=10)"]
    assert (limited["solved"], limited["share_solved"], limited["optimal"]) == (0, 0.0, 0)
    assert math.isnan(limited["share_optimal"]) and math.isnan(limited["median_length"])
    assert s.loc["ida_star (detours)", "median_nodes_expanded"] == 13.5


def test_compare_takes_deals_and_budgets():
    micro = bl.seeded_deal(8, variant=CLASSROOM["micro"])
    text = bl.Deal.from_text(classroom_deal(13, "micro").to_text(), variant=CLASSROOM["micro"])
    table = compare([micro, text], ["breadth_first"])
    assert table["deal"].tolist() == [8, 1]  # the seed; else the place in the list
    assert table["deck"].tolist() == ["micro", "micro"]
    assert table["nodes_generated"].tolist() == [38, breadth_first(text).nodes_generated]
    budgets: list[AlgorithmSpec] = ["breadth_first", ("uniform_cost", {"max_nodes": 342})]
    t = compare([0], budgets, deck="tiny", max_nodes=100)
    assert t["status"].tolist() == ["stopped after 100 nodes", "solved"]
    assert t["nodes_generated"].tolist() == [100, 342]
    assert t["solved"].tolist() == [False, True] and math.isnan(t["length"].iloc[0])
    assert pd.isna(t["optimal"].iloc[0]) and bool(t["optimal"].iloc[1])
    default = compare(range(2), deck="micro")
    assert default["algorithm"].nunique() == len(LINEUP) == 10
    assert default["deal"].tolist() == [0] * 10 + [1] * 10


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare([0], ["bfs"]), "unknown algorithm 'bfs'; known: breadth_first, "),
        (lambda: compare([0], ["astar"]), "astar cannot take the parameters {}: missing a "
         "required argument: 'h'; give them as ('astar', {...})"),
        (lambda: compare([0], [("beam", {"h": "detours", "wide": 3})]),
         "beam cannot take the parameters {'h': 'detours', 'wide': 3}"),
        (lambda: compare([0], ["depth_first", "depth_first"]),
         "each algorithm may appear once; twice: depth_first"),
        (lambda: compare([0], []), "algorithms is empty; give at least one"),
        (lambda: compare([0], "astar"), "algorithms must be a list of names or (name, "
         "parameters) pairs"),
        (lambda: loose_compare([0], [("astar", "detours")]),
         "an algorithm is a name or a (name, parameters) pair, like ('astar', {'h': 'detours'}), "
         "not ('astar', 'detours') (tuple)"),
        (lambda: loose_compare(5),
         "deals must be a list of seeds or Deals, like range(30), not 5 (int)"),
        (lambda: compare([]), "deals is empty; give at least one seed or Deal"),
        (lambda: compare([-1]), "a seed in deals must be an integer at least 0, not -1"),
        (lambda: compare([0], deck="huge"), "unknown deck 'huge'; known: micro, tiny, small"),
        (lambda: compare([0], max_nodes=0), "max_nodes must be an integer at least 1, not 0"),
        (lambda: summarize(pd.DataFrame({"deal": [1]})),
         "table must be a table of compare(); this one has no deck, algorithm"),
        (lambda: step_up(0), "game must be an integer at least 1, not 0"),
    ],
)  # fmt: skip
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# -- step_up ------------------------------------------------------------------------
def test_step_up_to_a_full_deal():
    t = step_up(1, max_nodes=500)
    solver = bl.solve(1)
    assert list(t.columns) == ["search", "status", "solved", "length", "nodes", "budget",
                               "seconds"]  # fmt: skip
    assert t["search"].tolist() == [
        "astar (detours)",
        "greedy_best_first (burial, inadmissible)",
        "bl.solve (the fast solver)",
    ]
    assert t["status"].tolist() == ["stopped after 500 nodes"] * 2 + ["solved"]
    assert t["nodes"].tolist() == [500, 500, solver.nodes]
    assert t["budget"].tolist() == [500, 500, 5_000_000]
    assert t["solved"].tolist() == [False, False, True]
    assert t["length"].iloc[2] == len(solver.moves) == 73
    assert (t["seconds"] >= 0).all()


def test_step_up_of_a_small_deal():
    t = step_up(classroom_deal(0, "tiny"), ["breadth_first", ("ida_star", {"h": "detours"})])
    assert t["status"].tolist() == ["solved"] * 3
    assert t["nodes"].tolist()[:2] == [336, 28]  # as pinned in tests/test_search.py
    assert t["length"].tolist()[:2] == [13.0, 13.0]


# -- charts -------------------------------------------------------------------------
def test_search_chart():
    algorithms: list[AlgorithmSpec] = ["breadth_first", "depth_first", ("astar", {"h": "detours"})]
    table = compare(range(6), algorithms, deck="tiny")
    fig = search_chart(table)
    save(fig, "search_chart_small")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "nodes expanded (log scale)"
    assert ax.get_ylabel() == "algorithm (median nodes expanded on the 4 solved deals)"
    boxes = [p for p in ax.patches if isinstance(p, PathPatch)]
    assert len(boxes) == 3
    # the boxes and medians are over the deals some algorithm solved; the others are points
    won = table[table["deal"].isin(table.loc[table["solved"], "deal"])]
    unwon = table["deal"].nunique() - won["deal"].nunique()
    assert unwon > 0  # tiny deals 0-5 hold an unwinnable one: the case this checks
    medians = won.groupby("algorithm", observed=True)["nodes_expanded"].median()
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        f"breadth_first\nsolved: median {medians['breadth_first']:,.0f}",
        f"depth_first\nsolved: median {medians['depth_first']:,.0f}",
        f"astar\n(detours)\nsolved: median {medians['astar (detours)']:,.0f}",
    ]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # the first algorithm on top
    title = ax.get_title()
    assert "Nodes expanded per algorithm: 6 tiny deals (A–3 in 3 columns of 4)" in title
    assert "deals 0–5" in title
    solved_deals = won["deal"].nunique()
    assert f"boxes: the {solved_deals} solved ({unwon} unsolved: points)" in (
        title.replace("\n", " ")
    )
    points = sum(count(c) for c in ax.collections if isinstance(c, PathCollection))
    assert points == len(table) == 18
    legend = legend_texts(ax)
    solved = int(table["solved"].sum())
    assert legend == [f"solved (n = {solved})", f"proved: no solution (n = {18 - solved})"]
    given = Figure()
    assert search_chart(table, ax=given.add_subplot()) is given
    with pytest.raises(ValueError, match=re.escape("table must be a table of compare()")):
        search_chart(table.drop(columns="status"))


def test_the_full_lineup_chart_is_saved_for_a_look():
    fig = search_chart(compare(range(12), deck="tiny"))
    assert len([p for p in fig.axes[0].patches if isinstance(p, PathPatch)]) == len(LINEUP)
    save(fig, "search_chart")


def test_trace_table_counts():
    r = breadth_first(classroom_deal(8, "micro"), trace=True)
    t = trace_table(r)
    assert list(t.columns) == list(plots.TRACE_COLUMNS)
    assert t.attrs == {"algorithm": "breadth_first", "status": "solved"}
    assert len(t) == 76 and t["event"].tolist() == list(range(1, 77))
    assert t["kind"].tolist()[:9] == ["generate", "expand", "generate", "generate", "expand",
                                      "generate", "expand", "generate", "prune"]  # fmt: skip
    assert t["frontier"].tolist()[:12] == [1, 0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 0]
    last = t.iloc[-1]
    assert (last["expanded"], last["generated"], last["frontier"]) == (25, 38, 0)
    assert t["parent_id"].isna().sum() == 2  # the root's generate and expand events
    assert trace_table(t) is t and trace_table(list(r.trace))["frontier"].equals(t["frontier"])


@pytest.mark.parametrize("case", CASES)
def test_the_frontier_of_a_trace_is_the_searchs_own(case):
    name, params = RUN_PARAMS[case]
    r = run(name, classroom_deal(0, "tiny"), trace=True, **params)
    t = trace_table(r)
    assert t["expanded"].iloc[-1] == r.nodes_expanded
    assert t["generated"].iloc[-1] == r.nodes_generated
    assert (t["frontier"] >= 0).all()
    # a duplicate child counts for a moment; beam search holds children it will drop
    high = r.max_frontier + 1 if name != "beam" else 4 * r.max_frontier
    assert r.max_frontier <= t["frontier"].max() <= high


def test_frontier_chart():
    r = iterative_deepening(classroom_deal(0, "tiny"), trace=True)
    t = trace_table(r)
    fig = frontier_chart(r, upto=100)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "event (step of the search)"
    assert ax.get_ylabel() == "frontier size (nodes)"
    lines = {line.get_label(): line for line in ax.get_lines()}
    shown = lines["frontier so far"]
    assert np.asarray(shown.get_ydata()).tolist() == t["frontier"].tolist()[:100]
    assert np.asarray(lines["events to come"].get_xdata()).shape == (len(t),)
    passes = [line for line in ax.get_lines() if line.get_color() == "tab:orange"]
    assert len(passes) == t["search_pass"].max() - 1 == 13
    assert "after event 100 of 7,787" in ax.get_title()
    whole = frontier_chart(astar(classroom_deal(0, "tiny"), "detours", trace=True)).axes[0]
    assert [line.get_label() for line in whole.get_lines()] == ["frontier so far"]
    assert "largest so far 17" in whole.get_title()
    with pytest.raises(ValueError, match=re.escape("upto must be an integer from 1 to 7787")):
        frontier_chart(r, upto=0)
    with pytest.raises(ValueError, match=re.escape("this astar result has no trace")):
        frontier_chart(astar(classroom_deal(0, "tiny"), "detours"))


def drawn_nodes(ax) -> int:
    """The nodes drawn in a tree chart (the ring around the current one left out)."""
    return sum(
        count(c)
        for c in ax.collections
        if isinstance(c, PathCollection) and len(c.get_facecolor()) != 0
    )


def test_search_tree_chart():
    r = astar(classroom_deal(0, "tiny"), "detours", trace=True)
    t = trace_table(r)
    fig = search_tree_chart(r, upto=37)
    ax = fig.axes[0]
    assert ax.get_ylabel() == "depth (moves from the start)"
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # the root on top
    assert drawn_nodes(ax) == t["generated"].iloc[36] == 26
    edges = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(edges) == 1 and len(edges[0].get_segments()) == 25  # one per node but the root
    legend = legend_texts(ax)
    assert legend == ["expanded", "on the frontier", "dropped", "goal", "node of event 37"]
    assert "after event 37 of 44: 26 nodes generated" in ax.get_title()
    assert "all 30 nodes of the search drawn" in ax.get_title()
    whole = search_tree_chart(r).axes[0]  # the goal found: its path drawn
    assert drawn_nodes(whole) == 30
    assert [len(c.get_segments()) for c in whole.collections if isinstance(c, LineCollection)] == [
        29,
        13,
    ]
    assert legend_texts(whole)[-1] == "path to the goal"


def test_a_big_tree_is_cut_and_says_so():
    r = breadth_first(classroom_deal(0, "tiny"), trace=True)
    fig = search_tree_chart(r, upto=500, limit=150)
    ax = fig.axes[0]
    assert drawn_nodes(ax) == 150
    assert "drawing only the first 150 of the 336 nodes generated" in ax.get_title()
    assert "node 260 of this event is not drawn" in ax.get_title()
    save(fig, "tree_breadth_first")
    save(search_tree_chart(astar(classroom_deal(0, "tiny"), "detours", trace=True), upto=40),
         "tree_astar")  # fmt: skip


# -- the trace viewer ---------------------------------------------------------------
widgets = pytest.importorskip("ipywidgets")  # an optional dependency (the notebooks extra)

from bakers_lab.display.widgets import TraceModel, TraceViewer  # noqa: E402

ASTAR_LINES = {
    1: "event 1 of 44: generate the root, node 0, at depth 0 (f = 13); frontier 1; "
    "expanded 0, generated 1",
    2: "event 2 of 44: expand node 0 at depth 0 (f = 13); frontier 0; expanded 1, generated 1",
    3: "event 3 of 44: generate node 1 at depth 1 by AD>F (f = 13); frontier 1; "
    "expanded 1, generated 2",
    37: "event 37 of 44: expand node 23 at depth 10 (f = 13); frontier 15; expanded 11, "
    "generated 26",
    44: "event 44 of 44: goal: node 29 at depth 13 (f = 13); frontier 16; "
    "expanded 13, generated 30 — solved: a solution of 13 moves",
}
HIGHLIGHTED = re.compile(r'data-card="(\w\w)" data-highlight="true"')


@pytest.fixture(scope="module")
def astar_trace():
    return astar(classroom_deal(0, "tiny"), "detours", trace=True)


def test_model_lines_counts_and_positions(astar_trace):
    m = TraceModel(astar_trace)
    assert len(m) == 44 and m.value_name == "f" and m.passes == 1
    for k, line in ASTAR_LINES.items():
        assert m.line(k) == line
    assert m.counts(37) == (11, 26, 15)
    # the goal node's position is the solution played from the deal
    goal = m.event(44).node_id
    played = bl.GameState.from_deal(classroom_deal(0, "tiny")).play_all(astar_trace.solution)
    assert m.state(goal).key() == played.key() and m.state(goal).is_won
    assert m.state(goal).history == played.history
    assert m.state(0).history == () and m.state(1).history[-1] == bl.Move.parse("AD>F")
    assert repr(m) == "<TraceModel of astar: 44 events; solved: a solution of 13 moves>"


def test_model_of_other_searches_says_their_values_and_passes():
    m = TraceModel(iterative_deepening(classroom_deal(8, "micro"), trace=True))
    assert m.value_name == "g" and m.passes == 14
    assert m.line(1) == (
        "event 1 of 731 (pass 1): generate the root of pass 1, node 0, at depth 0 (g = 0); "
        "frontier 1; expanded 0, generated 1"
    )
    unsolved = TraceModel(breadth_first(classroom_deal(0, "tiny"), max_nodes=40, trace=True))
    assert unsolved.line(unsolved.n).endswith("— stopped after 40 nodes")
    bare = TraceModel(list(unsolved.events), problem=classroom_deal(0, "tiny"))
    assert bare.value_name == "value" and bare.line(bare.n).endswith("— end of the trace")


def test_model_of_a_problem_of_ones_own():
    class FourHome(GameProblem):
        def goal_test(self, state: bl.GameState) -> bool:
            return state.cards_home >= 4

    problem = FourHome(classroom_deal(0, "tiny"))
    r = ida_star(problem, "cards_not_home", trace=True)
    m = TraceModel(r, problem=problem)
    assert m.state(m.event(m.n).node_id).cards_home == 4


def test_model_errors(astar_trace):
    with pytest.raises(ValueError, match=re.escape("a list of Events needs problem=")):
        TraceModel(list(astar_trace.trace))
    with pytest.raises(ValueError, match=re.escape("this astar result has no trace: run the")):
        TraceModel(astar(classroom_deal(0, "tiny"), "detours"))
    with pytest.raises(ValueError, match=re.escape("node 1's move AD>F is not legal in its")):
        TraceModel(astar_trace, problem=classroom_deal(1, "tiny"))  # another deal's trace
    m = TraceModel(astar_trace)
    with pytest.raises(ValueError, match=re.escape("step must be an integer from 1 to 44")):
        m.line(0)
    with pytest.raises(ValueError, match=re.escape("node 500 is not generated in this trace")):
        m.state(500)


def png(image) -> bytes:
    """An Image widget's picture."""
    return bytes(image.value)


def press(toggle):
    """A click on a ToggleButton (the play/pause button): its value flips, as in the browser."""
    toggle.value = not toggle.value


def test_viewer_steps_with_buttons_slider_and_play(astar_trace):
    w = TraceViewer(astar_trace)
    assert (w.slider.min, w.slider.max, w.play.min, w.play.max) == (1, 44, 1, 44)
    assert w.line.value == ASTAR_LINES[1]
    assert w.first.disabled and w.back.disabled and not w.next.disabled
    root_board, root_tree, root_frontier = w.board.value, png(w.tree), png(w.frontier)
    assert root_tree.startswith(b"\x89PNG") and root_frontier.startswith(b"\x89PNG")
    assert HIGHLIGHTED.findall(root_board) == []
    w.next.click()
    assert w.slider.value == w.play.value == 2 and w.line.value == ASTAR_LINES[2]
    assert w.board.value == root_board  # node 0 expanded: the same position
    w.next.click()
    assert w.line.value == ASTAR_LINES[3]
    assert w.board.value != root_board and HIGHLIGHTED.findall(w.board.value) == ["AD"]
    assert png(w.tree) != root_tree and png(w.frontier) != root_frontier
    w.slider.value = 37
    assert w.play.value == 37 and w.line.value == ASTAR_LINES[37] and w.step == 37
    w.play.value = 3  # the Play widget moves the slider
    assert w.slider.value == 3 and w.line.value == ASTAR_LINES[3]
    w.back.click()
    assert w.line.value == ASTAR_LINES[2]
    w.last.click()
    assert w.slider.value == 44 and w.line.value == ASTAR_LINES[44]
    assert w.next.disabled and w.last.disabled and not w.back.disabled
    w.first.click()
    assert w.slider.value == 1 and w.board.value == root_board
    w.speed.value = 1000
    assert w.play.interval == 1000


def test_viewer_of_a_bare_trace_and_a_small_tree(astar_trace):
    w = TraceViewer(list(astar_trace.trace), problem=classroom_deal(0, "tiny"), tree_nodes=10)
    w.last.click()
    assert w.line.value.endswith("— goal reached")
    with pytest.raises(ValueError, match=re.escape("tree_nodes must be an integer at least 1")):
        TraceViewer(astar_trace, tree_nodes=0)


def test_viewer_shows_the_frontier_and_jumps_to_expansions_and_the_goal(astar_trace):
    m = TraceModel(astar_trace)
    assert m.frontier(5) == [(1, 1, 13), (2, 1, 14), (3, 1, 14)]
    assert m.frontier_text(5) == (
        "frontier, lowest f first: node 1 (g 1, h 12, f 13); node 2 (g 1, h 13, f 14); "
        "node 3 (g 1, h 13, f 14)"
    )
    assert [m.next_expansion(k) for k in (1, 2, 5, 43, 44)] == [2, 6, 6, 44, 44]
    w = TraceViewer(astar_trace)
    w.expansion.click()
    assert w.step == 2 and m.event(2).kind == "expand"
    w.expansion.click()
    assert w.step == 6 and w.waiting.value == (  # node 1 taken off, its children not yet made
        "frontier, lowest f first: node 2 (g 1, h 13, f 14); node 3 (g 1, h 13, f 14)"
    )
    w.goal.click()
    assert w.step == 44 and m.event(44).kind == "goal"
    assert w.goal.disabled and w.expansion.disabled
    bfs = TraceModel(breadth_first(classroom_deal(0, "tiny"), trace=True))
    assert bfs.frontier_text(10).startswith("frontier, lowest g first: node 3 (g 1); node 4 (g 2)")


def test_viewer_plays_by_event_expansion_or_new_depth(astar_trace):
    m = TraceModel(astar_trace)
    expansions = m.stops("expansion")
    assert expansions == [k for k in range(1, 45) if m.event(k).kind in ("expand", "goal")]
    assert expansions[-1] == 44 and m.event(44).kind == "goal"
    depths = m.stops("depth")
    assert [m.event(k).depth for k in depths[:-1]] == list(range(len(depths) - 1))
    assert depths[-1] == 44 and m.stops("event") == list(range(1, 45))
    words = r"^unit must be one of event, expansion, depth, not 'x' \(str\)$"
    with pytest.raises(ValueError, match=words):
        m.stops("x")
    bfs = TraceModel(breadth_first(classroom_deal(0, "tiny"), trace=True))
    assert bfs.n > 600 and len(bfs.stops("depth")) < 20  # minutes of events in a few stops
    w = TraceViewer(astar_trace)
    w.stops.value = "expansion"
    assert (w.play.max, w.play.value) == (len(expansions), 1)
    w.play.value = 3  # the third stop: the third expansion
    assert w.step == expansions[2]
    w.slider.value = expansions[4] - 1  # a step between two stops: play goes on from the next
    assert w.play.value == 5
    w.stops.value = "depth"
    assert w.play.max == len(depths) and w.step == expansions[4] - 1
    w.play.value = len(depths)
    assert w.step == 44


def test_viewer_pauses_where_it_is_with_controls_above_the_pictures(astar_trace):
    """The one stepper of every replay: ■ pauses (the Play widget's own ■ went back to
    the first event), first goes to the start, and the controls sit on top."""
    w = TraceViewer(astar_trace)
    stepper, line, waiting, board, charts = w.children
    assert (stepper, line, waiting, board) == (w.stepper, w.line, w.waiting, w.board)
    assert charts.children == (w.frontier, w.tree)
    row, play = stepper.children
    assert row.children == (
        *(w.first, w.back, w.play_pause, w.next, w.last, w.expansion, w.goal),
        *(w.slider, w.speed, w.stops),
    )
    assert play is w.play
    assert w.play.layout.display == "none"
    w.stops.value = "expansion"
    expansions = w.model.stops("expansion")
    press(w.play_pause)
    assert w.play.playing and w.play_pause.description == "pause"
    w.play.value = 4  # the browser's timer: the fourth expansion
    assert w.step == expansions[3] and w.line.value == w.model.line(expansions[3])
    press(w.play_pause)
    assert (w.play.playing, w.step, w.play.value) == (False, expansions[3], 4)
    press(w.play_pause)  # on from where it paused
    w.play.value = 5
    assert w.step == expansions[4]
    w.goal.click()  # a jump takes over from play
    assert (w.play.playing, w.step, w.play.value) == (False, 44, len(expansions))
    w.first.click()
    assert (w.step, w.play.value, w.line.value) == (1, 1, ASTAR_LINES[1])


def test_tree_chart_numbers_its_nodes_while_they_stay_apart(astar_trace):
    def numbers(fig):
        return sorted(int(t.get_text()) for t in fig.axes[0].texts if t.get_text().isdigit())

    small = search_tree_chart(astar_trace, upto=10)
    assert numbers(small) == sorted(set(trace_table(astar_trace)["node_id"].iloc[:10]))
    assert numbers(search_tree_chart(astar_trace, upto=10, labels=False)) == [
        int(trace_table(astar_trace)["node_id"].iloc[9])  # the ringed node only
    ]
    wide = search_tree_chart(breadth_first(classroom_deal(0, "tiny"), trace=True), upto=300)
    assert len(numbers(wide)) == 1  # too many side by side: only the ringed node
    with pytest.raises(ValueError, match=r"^labels must be True or False, not 'yes' \(str\)$"):
        search_tree_chart(astar_trace, labels="yes")  # type: ignore[arg-type]
