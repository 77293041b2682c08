"""A line offered for study is one a person can follow (bakers_lab.model.detours): the
solver's line from the position before the move that lost the shipped save of game 4
wanders (291 moves, the Queen of clubs between two Kings a dozen times); without its
detours it is legal, wins, and has none left.  Random walks show the same on any line,
and explain's lines (here and in test_coach.py) have no detour."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import bakers_lab as bl
from bakers_lab.cli import main
from bakers_lab.files.pysol import read_pysol_game
from bakers_lab.model.detours import detours, without_detours
from bakers_lab.model.game import GameState
from bakers_lab.study.coach import explain

LOST_4 = Path(__file__).resolve().parent / "data" / "pysolfc" / "bakers_dozen_4_lost.pso"


@pytest.fixture(scope="module")
def lost_4():
    """The shipped lost save of game 4: its start and moves."""
    saved = read_pysol_game(LOST_4)
    return GameState.from_deal(saved.deal), list(saved.moves)


def test_the_solvers_wandering_line_is_straightened(lost_4):
    start, moves = lost_4
    before = start.copy().play_all(moves[:92])  # the last position winnable (see explain)
    raw = bl.solve(before).moves
    assert len(raw) == 291 and Counter(map(str, raw))["QC>KS"] == 14
    assert len(detours(before, raw)) > 50
    line = without_detours(before, raw)
    assert before.copy().play_all(list(line)).is_won  # the rule engine replays it
    assert len(line) <= len(raw) // 2 and max(Counter(map(str, line)).values()) <= 4
    assert detours(before, line) == []
    assert without_detours(before, line) == line  # nothing left to take out


@pytest.mark.parametrize("seed", range(6))
def test_any_walk_keeps_its_end_and_loses_its_detours(seed):
    rng = random.Random(seed)
    start = GameState.from_deal(bl.deal(1 + seed, "bakers_dozen"))
    g = start.copy()
    for _ in range(40):  # a random walk: full of moves undone and cards moved twice
        legal = g.legal_moves()
        if not legal:
            break
        g.play(rng.choice(legal))
    walk = g.history
    line = without_detours(start, walk)
    assert start.copy().play_all(list(line)).key() == g.key()  # ends where the walk ends
    assert len(line) <= len(walk)
    assert detours(start, line) == []
    assert shortcuts_left(start, line) == []


def every_way(g: GameState, depth: int):
    """Every position within ``depth`` moves of ``g``, with the way there: all of them,
    as without_detours does not look (it looks only where few cards lie elsewhere)."""
    yield g.key(), ()
    if depth:
        for m in g.legal_moves():
            g.play(m)
            yield from ((k, (m, *way)) for k, way in every_way(g, depth - 1))
            g.undo()


def shortcuts_left(start: GameState, line) -> list[tuple[int, tuple]]:
    """Each (position, way) of up to 2 moves reaching a later position of ``line``
    sooner than the line does, found by trying every way: none, without detours."""
    g = start.copy()
    keys = [g.key()]
    for m in line:
        g.play(m)
        keys.append(g.key())
    last = {k: i for i, k in enumerate(keys)}
    g = start.copy()
    found = []
    for i, m in enumerate(line):
        found += [(i, way) for k, way in every_way(g, 2) if last.get(k, -1) - i > len(way)]
        g.play(m)
    return found


@pytest.mark.parametrize(
    ("variant", "number"),
    [("good_measure", 2), ("spanish_patience_ii", 1), ("portuguese_solitaire", 1)],
)
def test_no_shortcut_is_missed_in_a_solvers_line_of_each_family(variant, number):
    start = GameState.from_deal(bl.deal(number, variant))
    raw = bl.solve(start).moves
    line = without_detours(start, raw)
    assert start.copy().play_all(list(line)).is_won and len(line) < len(raw)
    assert shortcuts_left(start, raw) != []  # the solver's line has some: the check finds them
    assert shortcuts_left(start, line) == []


def test_explain_within_a_time_says_what_it_knows_and_a_longer_search_goes_on(lost_4):
    start, moves = lost_4
    quick = explain(start, moves, max_nodes=200_000, with_par=False)
    assert quick.status == "not_settled" and not quick.out_of_time
    lo = quick.winnable_until
    assert lo is not None and quick.winning_line  # the line from the last winnable position
    from_lo = start.copy().play_all(moves[:lo])
    assert from_lo.copy().play_all(list(quick.winning_line)).is_won
    assert detours(from_lo, quick.winning_line) == []
    assert f"winnable after {lo} moves (a winning line of {len(quick.winning_line)} moves" in (
        quick.summary()
    )
    timed = explain(start, moves, max_nodes=200_000, max_seconds=1e-9, with_par=False)
    assert timed.out_of_time and timed.solves == 0
    assert timed.summary() == (
        "not settled: the solver decided none of the positions within the 1e-09 seconds asked"
    )
    again = explain(start, moves, max_nodes=400_000, resume=quick, with_par=False)
    assert again.winnable_until is not None and again.winnable_until >= lo
    assert again.solves < 8  # it went on from what the quick search settled
    with pytest.raises(ValueError, match="resume is an explanation of another game"):
        explain(start, moves[:-1], resume=quick)
    with pytest.raises(TypeError, match="resume must be an Explanation"):
        explain(start, moves, resume="quick")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_seconds must be a number above 0"):
        explain(start, moves, max_seconds=0)


def test_the_cli_offers_the_longer_search_as_the_game_was_given(capsys):
    assert main(["explain", "--pysol", str(LOST_4), "--max-nodes", "100000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bakers_dozen game 4: not settled: winnable after ")
    assert out[1].startswith("winning line after move ")
    assert out[-1] == (
        f"a longer search may settle it: bakers-lab explain --pysol {LOST_4} --max-nodes 50000000"
    )
