"""bl.shortest: the fewest moves that win, proven by A*.

The teaching breadth-first search (every move, nothing automatic, no pruning
but duplicate positions) is the reference: on the classroom decks and on small
decks of every preset, shortest's length equals its length, deal by deal, and
the lower bound never exceeds the moves left anywhere along a shortest win.
"""

import json
import re

import pandas as pd
import pytest
import references
from test_solver_agreement import small_rules

import bakers_lab as bl
from bakers_lab.cli import main
from bakers_lab.solve.search import CLASSROOM, classroom_deal
from bakers_lab.solve.shortest import (
    BOUNDS,
    ShortestResult,
    bounds_compared,
    lower_bound,
    shortest,
)

# (deck, seeds): the breadth-first reference takes about 0.01 s a deal on the
# micro and tiny decks, 0.5 s on small and 1 s on medium, 0.7 s on the presets'
# A-3 decks; ``benchmarks/shortest.py --agreement`` runs a few hundred of each
CLASSROOM_SEEDS = {"micro": 120, "tiny": 120, "small": 8, "medium": 3}


def check_against_reference(d: bl.Deal) -> tuple[int | None, list[bl.Move]]:
    expected = references.shortest_length(d)  # the teaching breadth-first search's
    r = shortest(d)
    if expected is None:
        assert r.outcome == "unsolvable" and r.moves == () and r.par is None, (d, r)
        return None, []
    assert r.outcome == "optimal", (d, r)
    assert r.par == len(r.moves) == r.lower_bound == expected, (d, r, expected)
    assert r.verified
    g = bl.GameState.from_deal(d)
    assert g.play_all(list(r.moves)).is_won
    return expected, list(r.moves)


def bound_never_exceeds_moves_left(d: bl.Deal, moves: list[bl.Move]) -> None:
    g = bl.GameState.from_deal(d)
    for i, m in enumerate(moves):
        assert lower_bound(g) <= len(moves) - i, (d, i)
        g.play(m)
    assert lower_bound(g) == 0


@pytest.mark.parametrize("deck", list(CLASSROOM))
def test_classroom_decks_equal_breadth_first(deck):
    assert set(CLASSROOM_SEEDS) == set(CLASSROOM)
    won = lost = 0
    for seed in range(CLASSROOM_SEEDS[deck]):
        d = classroom_deal(seed, deck=deck)
        length, moves = check_against_reference(d)
        if length is None:
            lost += 1
        else:
            won += 1
            bound_never_exceeds_moves_left(d, moves)
    assert won >= CLASSROOM_SEEDS[deck] // 3, (won, lost)
    assert lost > 0 or deck in ("small", "medium"), (won, lost)


@pytest.mark.parametrize("name", bl.variant_names())
def test_small_decks_of_every_preset_equal_breadth_first(name):
    """Every rule the search prunes by or bounds with: sequence moves, empty
    columns, foundation returns, alternate-colour foundations."""
    won = 0
    for ranks, seeds in ((3, 8),):
        r = small_rules(name, ranks, 4)
        for seed in range(seeds):
            d = bl.seeded_deal(seed, variant=r)
            length, moves = check_against_reference(d)
            if length is not None:
                won += 1
                bound_never_exceeds_moves_left(d, moves)
    assert won >= 2


def test_full_deals_no_longer_than_the_solver_and_bounds_below_every_line():
    for n in (1, 5, 9):
        s = bl.solve(n)
        r = shortest(n)
        assert r.outcome == "optimal" and r.deal == n
        assert len(r.moves) <= len(s.moves)
        assert r.par is not None
        assert lower_bound(bl.GameState.from_deal(bl.deal(n))) <= r.par
    assert shortest(5).par == 63 and len(bl.solve(5).moves) == 67
    # a budget too small to prove: the solver's line, and a bound below it and below par
    r = shortest(1, max_nodes=1000)
    assert r.outcome == "solved" and r.par is None
    assert r.lower_bound < len(r.moves) and r.lower_bound <= 67 == shortest(1).par
    assert r.verified and r.summary().startswith(
        f"bakers_dozen game 1: a win in {len(r.moves)} moves is known; none takes fewer than "
    )


def test_other_presets_on_full_deals():
    for variant in ("good_measure", "house_sequences", "spanish_patience", "bakers_dozen_return"):
        s = bl.solve(3, variant=variant)
        r = shortest(3, variant=variant, max_nodes=20_000)
        assert r.variant == variant
        if s.outcome == "solved":
            assert r.outcome in ("optimal", "solved") and r.verified
            assert r.lower_bound <= len(r.moves) <= len(s.moves)
        else:
            assert r.outcome == s.outcome


#: A position of Spanish Patience II (any card to an empty column) as PySolFC's Solver
#: asked about it: A* reached a position again by a shorter line with its columns in
#: another order, and replayed a move meant for an empty column onto 10S ("KS>TS").
SPANISH_II = """Foundations: C-3 H-A D-A S-0
5S 9C 8C
5H 3S QC KH
6H JD KC
6S JC 4H 3D
5D 9H 9S 8S
4D 6C KS
2H 7C
JH 7S TD 4S 3H
KD QH
2S 8H QS 8D 7D 6D 5C
QD JS TC 9D
2D TS 4C TH
AS 7H
"""


def test_a_position_reached_again_in_another_column_order_replays():
    g = bl.GameState.from_text(SPANISH_II, "spanish_patience_ii")
    r = shortest(g, max_nodes=100_000)
    assert r.verified and r.outcome in ("optimal", "solved")
    assert g.copy().play_all(list(r.moves)).is_won
    assert len(r.moves) <= len(bl.solve(g).moves)


def test_unsolvable_and_won_positions():
    r = shortest(64)
    assert (r.outcome, r.proof, r.moves, r.par) == ("unsolvable", "deadlock", (), None)
    assert r.summary() == "bakers_dozen game 64: no sequence of moves wins; 1 node, " + (
        f"{r.seconds:.3f} s"
    )
    g = bl.GameState.from_deal(bl.deal(5)).play_all(list(shortest(5).moves))
    won = shortest(g)
    assert (won.outcome, won.par, won.lower_bound) == ("optimal", 0, 0)


def test_in_progress_counts_the_moves_left():
    r = shortest(5)
    g = bl.GameState.from_deal(bl.deal(5)).play_all(list(r.moves[:10]))
    assert shortest(g).par == 63 - 10


def test_bad_arguments():
    for bad in (0, -1, True, 1.5, "10", 10**13):
        with pytest.raises((ValueError, TypeError), match="max_nodes must be an integer"):
            shortest(5, max_nodes=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="shortest takes a Deal, a GameState or a game number"):
        shortest("7")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="lower_bound takes a GameState, not 5"):
        lower_bound(5)  # type: ignore[arg-type]
    for wrong in ("A*", None, 2):
        with pytest.raises(ValueError, match=re.escape(
            "bound must be one of cards_not_home, detours, deadlocks, hitting_set, not "
        )):  # fmt: skip
            shortest(5, bound=wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="python must be True or False, not 1"):
        bounds_compared(5, python=1)  # type: ignore[arg-type]


def test_every_bound_proves_the_same_par_and_the_stronger_ones_with_fewer_nodes():
    for seed in range(12):
        d = classroom_deal(seed, deck="small")
        found = {b: shortest(d, bound=b) for b in BOUNDS}
        assert len({(r.outcome, len(r.moves)) for r in found.values()}) == 1, seed
    t = bounds_compared(1, max_nodes=20_000)
    assert t["bound"].tolist() == [
        "detours", "cards_not_home", "detours", "deadlocks", "hitting_set"
    ]  # fmt: skip
    assert t["search"].tolist() == ["A* in Python", *["A* compiled"] * 4]
    compiled = t.iloc[1:]
    # game 1: only the deadlocks prove par (67) within the budget; the others bound it
    assert compiled["outcome"].tolist() == ["solved", "solved", "optimal", "optimal"]
    assert compiled["moves"].tolist() == [73, 73, 67, 67]
    lows = compiled["lower_bound"].tolist()
    assert lows[0] <= lows[1] < lows[2] == lows[3] == 67
    nodes = compiled["nodes"].tolist()
    assert nodes[3] < nodes[2] < nodes[0]


def test_result_record():
    moves = shortest(3, max_nodes=10).moves
    r = ShortestResult("solved", moves, lower_bound=64, deal=3)
    assert repr(r) == (
        f"ShortestResult(outcome='solved', moves={len(moves)}, lower_bound=64, nodes=0, "
        "deal=3, variant='bakers_dozen')"
    )
    with pytest.raises(ValueError, match="outcome must be one of optimal, solved, unsolvable"):
        ShortestResult("won")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="an optimal result's lower_bound is its length"):
        ShortestResult("optimal", moves=r.moves, lower_bound=3)
    with pytest.raises(ValueError, match="a solved result's lower_bound is below its length"):
        ShortestResult("solved", moves=r.moves, lower_bound=len(r.moves))
    with pytest.raises(ValueError, match="unsolvable results have no moves"):
        ShortestResult("unsolvable", moves=r.moves)
    with pytest.raises(ValueError, match="proof is only for an unsolvable outcome"):
        ShortestResult("unresolved", proof="deadlock")
    assert r.to_json()["par"] is None and r.to_json()["lower_bound"] == 64


def test_cli(capsys):
    assert main(["shortest", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bakers_dozen game 5: the shortest win takes 63 moves; ")
    assert len(out[1].split()) == 63
    assert main(["shortest", "64", "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert (j["outcome"], j["par"], j["proof"]) == ("unsolvable", None, "deadlock")
    with pytest.raises(SystemExit) as stop:
        main(["shortest", "5", "--max-nodes", "0"])
    assert stop.value.code == 2
    assert "argument --max-nodes: must be an integer from 1 to 1000000000000, not 0" in (
        capsys.readouterr().err
    )


def test_survey_column_par(tmp_path):
    t = bl.survey("5,64", players="solver,shortest", out=tmp_path / "s", progress=False)
    rows = {(int(r.deal), r.player): r for r in t.itertuples()}
    best = rows[(5, "shortest")]
    assert (best.outcome, best.moves, best.par, best.par_bound) == ("won", 63, 63, 63)
    assert rows[(5, "solver")].moves == 67 and pd.isna(rows[(5, "solver")].par)
    lost = rows[(64, "shortest")]
    assert (lost.outcome, lost.proof) == ("lost", "deadlock")
    assert pd.isna(lost.par) and pd.isna(lost.par_bound)
    assert str(t["par"].dtype) == "Int64"
    g = bl.GameState.from_deal(bl.deal(5)).play_all(best.solution)
    assert g.is_won


def test_ctrl_c_stops_a_long_search_at_once():
    """A Ctrl-C ends the search and the next search is whole.  Ctrl-C is pressed
    again until it is heard, as a person would: Python drops a KeyboardInterrupt
    that lands in a finaliser run by the garbage collector ("Exception ignored
    in ..."), and in the full suite, under load, a first press was now and then
    never heard.  How soon it is heard is a benchmark's figure; the presses are
    3 s apart, far longer than the search takes to stop."""
    import _thread
    import signal
    import threading

    shortest(5, max_nodes=10)  # compiled (or loaded) before the signal
    # Python's own Ctrl-C handler, as a terminal gives it: a test run started as a
    # background job (``make test &``) inherits SIGINT ignored, and then
    # interrupt_main() does nothing at all
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    heard = threading.Event()
    pressing = threading.Lock()
    presses: list[int] = []

    def press() -> None:
        while not heard.wait(3.0 if presses else 1.0) and len(presses) < 20:
            with pressing:
                if not heard.is_set():
                    presses.append(1)
                    _thread.interrupt_main()

    threading.Thread(target=press, daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            shortest(3)  # 10 million nodes, about 25 s when left alone
    finally:
        with pressing:
            heard.set()
        signal.signal(signal.SIGINT, before)
    assert 1 <= len(presses) < 20
    assert shortest(5).par == 63  # and the next search is whole


def test_the_exact_count_of_deadlocks_is_never_below_the_packing_nor_above_par():
    """Deals 1-30 from the start: the bounds rise weakest to strongest (all of
    them admissible on the classroom decks above), and the exact count is above
    the greedy packing on deals 11, 14 and 22, below their par (68, 73, 67)."""
    par = {11: 68, 14: 73, 22: 67}
    above = []
    for n in range(1, 31):
        g = bl.GameState.from_deal(bl.deal(n))
        b = [lower_bound(g, bound=name) for name in BOUNDS]
        assert b == sorted(b) and b[-1] == lower_bound(g), n
        if b[-1] > b[-2]:
            above.append(n)
            assert b[-1] == b[-2] + 1 and b[-1] < par.get(n, 99), n
    assert above == [11, 14, 22, 28]
    with pytest.raises(ValueError, match=r"bound must be one of .*, not 'exact' \(str\)"):
        lower_bound(bl.GameState.from_deal(bl.deal(1)), bound="exact")
