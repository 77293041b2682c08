"""The teaching searches (bakers_lab.solve.search): they agree with each other and
with the fast solver, their node counts are pinned, their traces add up, and bad
input gets a clear message."""

import math
import re
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import bakers_lab as bl
import bakers_lab.solve.search as search_module
from bakers_lab.solve.heuristics import HEURISTICS, burial, cards_not_home, detours, heuristic
from bakers_lab.solve.search import (
    ALGORITHMS,
    CLASSROOM,
    DEFAULT_MAX_NODES,
    Event,
    GameProblem,
    Node,
    Problem,
    SearchResult,
    astar,
    beam,
    breadth_first,
    classroom_deal,
    depth_first,
    depth_limited,
    greedy_best_first,
    ida_star,
    iterative_deepening,
    run,
    uniform_cost,
    weighted_astar,
)

#: The complete searches, each of which must settle every small deal.  All but
#: depth-first search also promise a shortest solution.
COMPLETE = {
    "breadth_first": breadth_first,
    "depth_first": depth_first,
    "uniform_cost": uniform_cost,
    "iterative_deepening": iterative_deepening,
    "astar/cards_not_home": lambda d: astar(d, "cards_not_home"),
    "astar/detours": lambda d: astar(d, "detours"),
    "ida_star/cards_not_home": lambda d: ida_star(d, "cards_not_home"),
    "ida_star/detours": lambda d: ida_star(d, "detours"),
}
SHORTEST = [name for name in COMPLETE if name != "depth_first"]

#: Unsolvable "medium" deals whose search spaces are not trivial (tens to
#: hundreds of positions): the proofs of "no solution" must agree too.
MEDIUM_UNSOLVABLE = [11, 12, 14, 23, 26, 43, 51, 53]


def wins(deal, solution) -> bool:
    """Replay a solution on the rule engine from the deal."""
    g = bl.GameState.from_deal(deal)
    for move in solution:
        g.play(move)
    return g.is_won


def check_agreement(deal, names) -> bool:
    """Run the named complete searches on ``deal``; return whether it is solvable."""
    verdict = bl.solve(deal).outcome
    assert verdict in ("solved", "unsolvable"), deal
    results = {name: COMPLETE[name](deal) for name in names}
    for name, r in results.items():
        if verdict == "solved":
            assert r.status == "solved" and r.solution is not None, (deal, name, r)
            assert wins(deal, r.solution), (deal, name)
        else:
            assert (r.status, r.solution) == ("no solution", None), (deal, name, r)
    lengths = {name: len(r.solution or []) for name, r in results.items() if name in SHORTEST}
    assert len(set(lengths.values())) <= 1, (deal, lengths)
    if verdict == "solved" and "depth_first" in results:
        assert len(results["depth_first"].solution or []) >= max(lengths.values(), default=0)
    return verdict == "solved"


def test_complete_searches_agree_on_200_micro_deals():
    verdicts = Counter(check_agreement(classroom_deal(s, "micro"), COMPLETE) for s in range(200))
    assert verdicts[True] >= 50 and verdicts[False] >= 50, verdicts


def test_complete_searches_agree_on_tiny_deals():
    # iterative deepening repeats its work once per depth: only on the first 8 deals
    names = [n for n in COMPLETE if n != "iterative_deepening"]
    verdicts = Counter(
        check_agreement(classroom_deal(s, "tiny"), COMPLETE if s < 8 else names) for s in range(40)
    )
    assert verdicts[True] >= 20 and verdicts[False] >= 3, verdicts


def test_complete_searches_prove_medium_deals_unsolvable():
    for seed in MEDIUM_UNSOLVABLE:
        assert not check_agreement(classroom_deal(seed, "medium"), COMPLETE)


# -- exact node counts, like perft tables -------------------------------------
CASES = {
    "breadth_first": lambda d: breadth_first(d),
    "depth_first": lambda d: depth_first(d),
    "depth_limited": lambda d: depth_limited(d, 10),
    "iterative_deepening": lambda d: iterative_deepening(d),
    "uniform_cost": lambda d: uniform_cost(d),
    "greedy_best_first": lambda d: greedy_best_first(d, "burial"),
    "astar/cards_not_home": lambda d: astar(d, "cards_not_home"),
    "astar/detours": lambda d: astar(d, "detours"),
    "weighted_astar": lambda d: weighted_astar(d, "burial", 2),
    "beam": lambda d: beam(d, "burial", 3),
    "ida_star/cards_not_home": lambda d: ida_star(d, "cards_not_home"),
    "ida_star/detours": lambda d: ida_star(d, "detours"),
}

#: (status, moves, nodes expanded, nodes generated, max frontier) of a search
Pinned = tuple[str, int | None, int, int, int]
#: The deals of the pinned counts, in the order of :data:`PINNED_COUNTS`' columns.
PINNED_DEALS = (("tiny", 0), ("tiny", 13), ("medium", 23))


def won(moves: int, expanded: int, generated: int, frontier: int) -> Pinned:
    """A search that solved the deal in ``moves``, after so many nodes."""
    return ("solved", moves, expanded, generated, frontier)


def unsolved(status: str) -> Callable[[int, int, int], Pinned]:
    """A search that ended with ``status`` and no solution, after so many nodes."""
    return lambda expanded, generated, frontier: (status, None, expanded, generated, frontier)


cut = unsolved("depth limit reached")
beam_cut = unsolved("beam width reached")
none = unsolved("no solution")
#: Each case on each of :data:`PINNED_DEALS`, like a perft table: exact figures that change
#: only when a search's behaviour does.
PINNED_COUNTS: dict[str, tuple[Pinned, Pinned, Pinned]] = {
    "breadth_first": (won(13, 124, 336, 28), won(14, 100, 264, 20), none(134, 361, 32)),
    "depth_first": (won(19, 22, 55, 11), won(26, 28, 79, 21), none(134, 361, 26)),
    "depth_limited": (cut(167, 497, 11), cut(207, 565, 15), none(396, 1100, 19)),
    "iterative_deepening": (won(13, 1334, 3897, 14), won(14, 2026, 5508, 20), none(1027, 3127, 19)),
    "uniform_cost": (won(13, 128, 342, 28), won(14, 101, 265, 20), none(134, 361, 32)),
    "greedy_best_first": (won(13, 13, 30, 17), won(14, 14, 41, 27), none(281, 746, 26)),
    "astar/cards_not_home": (won(13, 15, 33, 16), won(14, 31, 84, 22), none(134, 361, 32)),
    "astar/detours": (won(13, 13, 30, 17), won(14, 14, 32, 18), none(134, 361, 37)),
    "weighted_astar": (won(13, 13, 30, 17), won(14, 14, 41, 27), none(249, 676, 35)),
    "beam": (won(13, 33, 96, 3), won(14, 36, 98, 3), beam_cut(19, 60, 3)),
    "ida_star/cards_not_home": (won(13, 39, 97, 8), won(14, 82, 238, 20), none(995, 2966, 19)),
    "ida_star/detours": (won(13, 13, 28, 8), won(14, 14, 41, 20), none(1639, 4611, 19)),
}
#: (deck, seed, case): what the case's search gives on that deal.
PINNED = {
    (*deal, case): counts[i]
    for case, counts in PINNED_COUNTS.items()
    for i, deal in enumerate(PINNED_DEALS)
}


@pytest.mark.parametrize(("deck", "seed"), PINNED_DEALS)
def test_pinned_node_counts(deck, seed):
    deal = classroom_deal(seed, deck)
    for case, search in CASES.items():
        r = search(deal)
        moves = len(r.solution) if r.solution is not None else None
        got = (r.status, moves, r.nodes_expanded, r.nodes_generated, r.max_frontier)
        assert got == PINNED[deck, seed, case], (deck, seed, case)
        if r.solution is not None:
            assert wins(deal, r.solution)


def test_results_are_deterministic():
    deal = classroom_deal(5, "tiny")
    for case, search in CASES.items():
        assert search(deal) == search(deal), case  # every field but seconds and start


# -- traces -----------------------------------------------------------------------
#: How each case is called through run(), with trace=True.
RUN_PARAMS: dict[str, tuple[str, dict[str, object]]] = {
    "breadth_first": ("breadth_first", {}),
    "depth_first": ("depth_first", {}),
    "depth_limited": ("depth_limited", {"limit": 10}),
    "iterative_deepening": ("iterative_deepening", {}),
    "uniform_cost": ("uniform_cost", {}),
    "greedy_best_first": ("greedy_best_first", {"h": "burial"}),
    "astar/cards_not_home": ("astar", {"h": "cards_not_home"}),
    "astar/detours": ("astar", {"h": "detours"}),
    "weighted_astar": ("weighted_astar", {"h": "burial", "weight": 2}),
    "beam": ("beam", {"h": "burial", "width": 3}),
    "ida_star/cards_not_home": ("ida_star", {"h": "cards_not_home"}),
    "ida_star/detours": ("ida_star", {"h": "detours"}),
}


def fields(e: Event) -> tuple:
    return (e.kind, e.node_id, e.parent_id, e.depth, e.f_or_g_value, e.move_text)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize(("deck", "seed"), [("tiny", 0), ("medium", 23)])
def test_trace_matches_counts(case, deck, seed):
    deal = classroom_deal(seed, deck)
    r = CASES[case](deal)
    assert r.trace == ()
    name, params = RUN_PARAMS[case]
    t = run(name, deal, trace=True, **params)
    assert t == SearchResult(**{**vars(r), "trace": t.trace})  # tracing changes nothing else
    kinds = Counter(e.kind for e in t.trace)
    assert kinds["expand"] == t.nodes_expanded
    assert kinds["generate"] == t.nodes_generated
    assert set(kinds) <= {"generate", "expand", "prune", "goal"}
    # nodes are numbered in the order they are generated; other events name generated nodes
    generated = [e for e in t.trace if e.kind == "generate"]
    assert [e.node_id for e in generated] == list(range(t.nodes_generated))
    born: dict[int, Event] = {}
    for e in t.trace:
        if e.kind == "generate":
            born[e.node_id] = e
            assert (e.parent_id is None) == (e.depth == 0) == (e.move_text == "")
        else:
            assert fields(born[e.node_id])[1:] == fields(e)[1:]
    if t.status == "solved":
        assert kinds["goal"] == 1 and t.trace[-1].kind == "goal"
        # the goal's ancestry in the trace spells out the solution
        moves, event = [], t.trace[-1]
        while event.parent_id is not None:
            moves.append(event.move_text)
            event = born[event.parent_id]
        assert moves[::-1] == [str(m) for m in t.solution or []]
    else:
        assert kinds["goal"] == 0


def test_trace_values_are_what_the_search_orders_by():
    deal = classroom_deal(0, "tiny")
    g = bl.GameState.from_deal(deal)
    root_values = {
        "breadth_first": 0,
        "uniform_cost": 0,
        "greedy_best_first": burial(g),
        "astar/detours": detours(g),
        "weighted_astar": 2 * burial(g),
        "beam": burial(g),
        "ida_star/detours": detours(g),
    }
    for case, value in root_values.items():
        name, params = RUN_PARAMS[case]
        t = run(name, deal, trace=True, **params)
        assert t.trace[0] == Event("generate", 0, None, 0, value, ""), case
        if case in ("uniform_cost", "astar/detours"):  # f never falls along an expansion order
            expanded = [e.f_or_g_value for e in t.trace if e.kind == "expand"]
            assert expanded == sorted(expanded), case


# -- the parts ------------------------------------------------------------------
def test_node_path_and_solution():
    p = GameProblem(classroom_deal(8, "micro"))
    root = Node(p.initial)
    children = root.expand(p)
    assert [str(c.move) for c in children] == ["AD>F", "AD>2D"]
    grandchild = children[0].expand(p)[0]
    assert grandchild.depth == grandchild.path_cost == 2
    assert grandchild.path() == [root, children[0], grandchild]
    assert [str(m) for m in grandchild.solution()] == ["AD>F", str(grandchild.move)]
    assert repr(children[0]) == "Node(id=None, depth=1, path_cost=1, move='AD>F')"
    assert repr(root) == "Node(id=None, depth=0, path_cost=0)"
    assert p.initial.history == ()  # result() never touches the state it is given


def test_searches_leave_the_position_alone():
    g = bl.GameState.from_deal(classroom_deal(0, "tiny"))
    before = g.key(), g.history
    r = astar(g, "detours")
    assert r.solved and (g.key(), g.history) == before
    assert r.start is not None and r.start.key() == g.key()


def test_search_from_a_position_in_progress():
    g = bl.GameState.from_deal(classroom_deal(0, "tiny"))
    full = breadth_first(g)
    assert full.solution is not None
    g.play(full.solution[0])
    rest = breadth_first(g)
    assert rest.solution is not None and len(rest.solution) == len(full.solution) - 1
    assert wins(classroom_deal(0, "tiny"), [full.solution[0], *rest.solution])


def test_a_problem_with_its_own_goal():
    class FourHome(GameProblem):
        def goal_test(self, state: bl.GameState) -> bool:
            return state.cards_home >= 4

    deal = classroom_deal(0, "tiny")
    r = breadth_first(FourHome(deal))
    assert r.solution is not None
    g = bl.GameState.from_deal(deal)
    for m in r.solution:
        g.play(m)
    assert g.cards_home == 4 and len(r.solution) >= 4
    assert isinstance(FourHome(deal), Problem)
    with pytest.raises(TypeError):
        Problem(g)  # type: ignore[abstract]


def test_result_repr_is_one_line():
    r = breadth_first(classroom_deal(8, "micro"))
    assert repr(r) == (
        "SearchResult(algorithm='breadth_first', status='solved', moves=13, "
        "nodes_expanded=25, nodes_generated=38, max_frontier=4)"
    )
    none = breadth_first(classroom_deal(0, "micro"))
    assert repr(none) == (
        "SearchResult(algorithm='breadth_first', status='no solution', "
        "nodes_expanded=1, nodes_generated=1, max_frontier=0)"
    )
    assert isinstance(r, SearchResult) and r.solved and not none.solved


def test_depth_limit_below_and_at_the_shortest_solution():
    deal = classroom_deal(0, "tiny")  # shortest solution: 13 moves
    assert depth_limited(deal, 12).status == "depth limit reached"
    r = depth_limited(deal, 13)
    assert r.solution is not None and len(r.solution) == 13 and wins(deal, r.solution)
    r = depth_limited(deal, 40)
    assert r.solution is not None and 13 <= len(r.solution) <= 40 and wins(deal, r.solution)
    assert iterative_deepening(deal, max_depth=5).status == "depth limit reached"


def test_weighted_astar_and_beam():
    for seed in range(12):
        deal = classroom_deal(seed, "tiny")
        best = astar(deal, "detours")
        for w in (1, 1.5, 3):
            r = weighted_astar(deal, "detours", w)
            assert r.solved == best.solved
            if r.solution is not None and best.solution is not None:
                assert len(best.solution) <= len(r.solution) <= w * len(best.solution)
                assert wins(deal, r.solution)
        wide = beam(deal, "detours", 10**6)  # nothing dropped: breadth-first search
        assert wide.status == best.status
        assert len(wide.solution or []) == len(best.solution or [])
        narrow = beam(deal, "burial", 1)
        assert narrow.max_frontier <= 1
        assert narrow.status in ("solved", "beam width reached", "no solution")
        if narrow.solution is not None:
            assert wins(deal, narrow.solution)


# -- heuristics -------------------------------------------------------------------
def reachable_states(deal, limit=5_000):
    """Every position reachable from ``deal`` (small decks only)."""
    p = GameProblem(deal)
    seen = {p.key(p.initial): p.initial}
    todo = [p.initial]
    while todo:
        state = todo.pop()
        for move in p.actions(state):
            nxt = p.result(state, move)
            k = p.key(nxt)
            if k not in seen:
                seen[k] = nxt
                todo.append(nxt)
                assert len(seen) < limit
    return p, list(seen.values())


#: The tiny deck under rules where the argument of ``detours`` must still hold.
TINY_VARIANTS = {
    "bakers_dozen": CLASSROOM["tiny"],
    "foundation_return": CLASSROOM["tiny"].replace(foundation_return=True),
    "empty_any": CLASSROOM["tiny"].replace(empty_column="any"),
    "empty_king": CLASSROOM["tiny"].replace(empty_column="king", king_step=False),
}


@pytest.mark.parametrize("variant", list(TINY_VARIANTS))
def test_admissible_heuristics_are_consistent_and_zero_at_the_goal(variant):
    for seed in (0, 1, 13):
        p, states = reachable_states(bl.seeded_deal(seed, variant=TINY_VARIANTS[variant]))
        assert len(states) > 50
        for h in (cards_not_home, detours):
            for state in states:
                assert h(state) >= 0
                if state.is_won:
                    assert h(state) == 0
                for move in p.actions(state):
                    assert h(state) <= 1 + h(p.result(state, move)), (h, seed, str(move))


@pytest.mark.parametrize("variant", ["foundation_return", "empty_any"])
def test_shortest_solutions_under_other_rules(variant):
    for seed in range(6):
        deal = bl.seeded_deal(seed, variant=TINY_VARIANTS[variant])
        results = [breadth_first(deal), astar(deal, "detours"), ida_star(deal, "detours")]
        assert len({r.status for r in results}) == 1, (variant, seed)
        assert len({len(r.solution or []) for r in results}) == 1, (variant, seed)
        assert all(r.solution is None or wins(deal, r.solution) for r in results)


def test_admissible_heuristics_never_overestimate():
    # along a shortest solution, h never exceeds the moves still to play
    for seed in range(10):
        deal = classroom_deal(seed, "tiny")
        r = breadth_first(deal)
        if r.solution is None:
            continue
        g = bl.GameState.from_deal(deal)
        for left in range(len(r.solution), -1, -1):
            assert cards_not_home(g) <= detours(g) <= left
            if left:
                g.play(r.solution[len(r.solution) - left])


def test_detours_falls_back_where_its_proof_fails():
    for name in ("spanish_patience", "house_sequences"):
        g = bl.GameState.from_deal(bl.seeded_deal(3, variant=name))
        assert detours(g) == cards_not_home(g) == 52, name
    g = bl.GameState.from_deal(bl.seeded_deal(3))
    assert detours(g) > cards_not_home(g)
    sp = bl.GameState.from_deal(bl.seeded_deal(3, variant="spanish_patience"))
    assert burial(sp) == 3 * 52


def test_burial_is_not_admissible():
    deck = bl.Rules(ranks=2, columns=4, cards_per_column=2)
    g = bl.GameState.from_text("Foundations: C-2 D-2\nAH AS\n2S\n2H\n:\n", variant=deck)
    r = breadth_first(g)
    assert r.solution is not None and len(r.solution) == 4
    assert detours(g) == 4 < burial(g) == 13


def test_heuristic_lookup():
    assert set(HEURISTICS) == {"zero", "cards_not_home", "detours", "burial"}
    assert heuristic("cards_not_home") is cards_not_home

    def cards_home(state: bl.GameState) -> int:
        return state.cards_home

    assert heuristic(cards_home) is cards_home  # any function of a state will do
    deal = classroom_deal(0, "tiny")
    assert astar(deal, "zero").solution == uniform_cost(deal).solution


# -- classroom decks ------------------------------------------------------------
def test_classroom_decks():
    assert list(CLASSROOM) == ["micro", "tiny", "small", "medium"]
    for name, r in CLASSROOM.items():
        assert r.columns * r.cards_per_column + r.aces_at_start == 4 * r.ranks, name
        d = classroom_deal(7, name)
        assert d.rules == r and d == bl.seeded_deal(7, variant=r)
    assert classroom_deal(3) == classroom_deal(3, "small")


def test_breadth_first_finishes_on_small_deals():
    r = breadth_first(classroom_deal(2, "small"))
    assert r.solution is not None and r.nodes_generated < DEFAULT_MAX_NODES


# -- limits and bad input -----------------------------------------------------------
#: Parameters of the algorithms that need them, for a full 52-card deal.
FULL_DEAL_PARAMS: dict[str, dict[str, object]] = {
    "depth_limited": {"limit": 60},
    "greedy_best_first": {"h": "cards_not_home"},
    "astar": {"h": "detours"},
    "weighted_astar": {"h": "detours", "weight": 1.5},
    "beam": {"h": "detours", "width": 50},
    "ida_star": {"h": "detours"},
}


def test_full_deal_stops_at_the_node_limit():
    deal = bl.seeded_deal(1)  # 52 cards: far too many positions for breadth-first search
    r = breadth_first(deal, max_nodes=2_000)
    assert (r.status, r.solution, r.nodes_generated) == ("stopped after 2,000 nodes", None, 2000)
    for name in ALGORITHMS:
        r = run(name, deal, max_nodes=300, trace=True, **FULL_DEAL_PARAMS.get(name, {}))
        assert r.nodes_generated <= 300, name
        assert r.status == "stopped after 300 nodes", (name, r)
        assert sum(e.kind == "generate" for e in r.trace) == r.nodes_generated


def test_stopped_search_on_a_small_deal():
    deal = classroom_deal(0, "tiny")
    r = iterative_deepening(deal, max_nodes=100)
    assert (r.status, r.nodes_generated, r.solution) == ("stopped after 100 nodes", 100, None)
    r = uniform_cost(deal, max_nodes=342)  # exactly what it needs
    assert (r.status, r.nodes_generated) == ("solved", 342)
    r = uniform_cost(deal, max_nodes=341)
    assert (r.status, r.nodes_generated) == ("stopped after 341 nodes", 341)
    for max_nodes in (3896, 3897):  # iterative deepening needs 3897 nodes
        r = iterative_deepening(deal, max_nodes=max_nodes, trace=True)
        assert r.nodes_generated == max_nodes == len([e for e in r.trace if e.kind == "generate"])
        assert r.solved == (max_nodes == 3897)


#: The search module without its type hints, to pass it what the hints forbid.
loose: Any = search_module


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda d: run("bfs", d), ValueError, "unknown algorithm 'bfs'; known: breadth_first, "
         "depth_first, depth_limited, iterative_deepening, uniform_cost, greedy_best_first, "
         "astar, weighted_astar, beam, ida_star"),
        (lambda d: run("astar", d, h="manhattan"), ValueError,
         "unknown heuristic 'manhattan'; known: zero, cards_not_home, detours, burial"),
        (lambda d: loose.astar(d, 5), TypeError, "h must be a function of a GameState or one "
         "of zero, cards_not_home, detours, burial, not 5 (int)"),
        (lambda d: breadth_first(d, max_nodes=0), ValueError,
         "max_nodes must be an integer at least 1, not 0"),
        (lambda d: loose.depth_first(d, max_nodes=1e6), ValueError,
         "max_nodes must be an integer, not 1000000.0 (float)"),
        (lambda d: depth_limited(d, 0), ValueError, "limit must be an integer at least 1, not 0"),
        (lambda d: loose.depth_limited(d, 2.5), ValueError,
         "limit must be an integer, not 2.5 (float)"),
        (lambda d: iterative_deepening(d, max_depth=-1), ValueError,
         "max_depth must be an integer at least 1, not -1"),
        (lambda d: beam(d, "detours", 0), ValueError, "width must be an integer at least 1, not 0"),
        (lambda d: beam(d, "detours", True), ValueError,
         "width must be an integer, not True (bool)"),
        (lambda d: weighted_astar(d, "detours", 0.5), ValueError,
         "weight must be a number at least 1, not 0.5"),
        (lambda d: loose.weighted_astar(d, "detours", "2"), ValueError,
         "weight must be a number at least 1, not '2' (str)"),
        (lambda d: weighted_astar(d, "detours", math.nan), ValueError,
         "weight must be a number at least 1, not nan (float)"),
        (lambda d: loose.uniform_cost(d, trace="yes"), ValueError,
         "trace must be True or False, not 'yes' (str)"),
        (lambda d: loose.breadth_first(417), TypeError,
         "a search takes a Problem, a Deal or a GameState, not 417 (int)"),
        (lambda d: loose.GameProblem("deal 1"), TypeError,
         "GameProblem takes a Deal or a GameState, not 'deal 1' (str)"),
        (lambda d: classroom_deal(1, "huge"), ValueError,
         "unknown deck 'huge'; known: micro, tiny, small, medium"),
    ],
)  # fmt: skip
def test_bad_input(call, error, message):
    deal = classroom_deal(0, "micro")
    with pytest.raises(error, match=re.escape(message)):
        call(deal)


def test_an_optimal_search_given_an_inadmissible_heuristic_says_so():
    deal = classroom_deal(0, "tiny")
    with pytest.warns(UserWarning, match=re.escape(
        "astar with the heuristic 'burial', which may overestimate the moves still needed: "
        "the solution it finds need not be a shortest one (the admissible heuristics: zero, "
        "cards_not_home, detours)"
    )):  # fmt: skip
        astar(deal, "burial")
    with pytest.warns(UserWarning, match="ida_star with the heuristic 'burial'"):
        ida_star(deal, "burial")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        astar(deal, "detours")  # admissible: not a word
        weighted_astar(deal, "burial", 2)  # promises no shortest solution: not a word


def test_compare_says_how_many_moves_an_inadmissible_heuristic_costs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = search_module.compare(
            [8], [("astar", {"h": "detours"}), ("greedy_best_first", {"h": "burial"})], deck="small"
        )
    assert t["length"].tolist() == [19.0, 20.0]
    assert t["optimal"].tolist() == [True, False] and t["extra"].tolist() == [0, 1]
