"""bakers_lab.teach: deliberately wrong submissions, each caught with the right sentence,
and every reference algorithm passing every check of its promise."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest
from submissions import (
    astar_no_reopening,
    astar_textbook,
    bfs_goal_late,
    bfs_never_marks,
    bfs_right,
    bfs_with_a_stack,
)

from bakers_lab.solve.heuristics import cards_not_home, detours
from bakers_lab.teach import (
    HEURISTIC_CASES,
    PROMISES,
    SEARCH_CASES,
    Case,
    ReferenceRuns,
    check_heuristic,
    check_search,
)
from bakers_lab.teach.cases import flicker
from bakers_lab.teach.results import Failure, HeuristicReport, SearchReport
from bakers_lab.teach.spaces import state_space


def _failure(report: SearchReport | HeuristicReport) -> Failure:
    """The report's headline failure (the test expects one)."""
    assert report.failure is not None, report.summary()
    return report.failure


def _caught(
    fn: Any, promise: str, refs: ReferenceRuns, fails: tuple[str, int] | None = None
) -> tuple[SearchReport, Failure]:
    """``fn`` checked as ``promise`` on the micro deck: the report and its headline
    failure, which must be of the check and on the seed of ``fails`` where given."""
    r = check_search(fn, promise, cases=MICRO, quiet=True, references=refs)
    f = _failure(r)
    if fails is not None:
        assert (f.check, f.case) == (fails[0], Case("micro", fails[1])), r.summary()
    return r, f


@pytest.fixture(scope="module")
def refs() -> ReferenceRuns:
    """The reference runs, shared by the checks of this file (they never change: each
    check finds the same results as with runs of its own, in a fraction of the time)."""
    return ReferenceRuns()


MICRO = SEARCH_CASES[:10]  # micro seeds 1000-1009: the first wrong lines show up here
MICRO_POSITIONS = HEURISTIC_CASES[:20]


# -- submissions (and tests/submissions.py) ------------------------------------
def bfs_illegal(problem):  # plays the second move first
    node = bfs_right(problem)
    if node is None:
        return None
    line = node.solution()
    return [line[1], *line]


def bfs_behind_the_back(problem):  # searches a problem of its own
    from bakers_lab.solve.search import GameProblem

    return bfs_right(GameProblem(problem.initial))


def bfs_forever(problem):
    while True:
        pass


def bfs_memory(problem):
    hoard = []
    while True:
        hoard.append(bytearray(10_000_000))


def bfs_crashes(problem):
    moves = problem.actions(problem.initial)
    return moves[len(moves)]  # one past the end


def twice_cards_not_home(state):
    return 2 * cards_not_home(state)


def one_more(state):
    return cards_not_home(state) + 1


def per_column(state):  # raises on an empty column
    return sum(len(c) // len(c) for c in state.columns) + cards_not_home(state) - 2


def halves(state):
    return cards_not_home(state) / 2


def below_zero(state):
    return cards_not_home(state) - 3


def slow_heuristic(state):
    time.sleep(1)
    return 0


# -- searches ---------------------------------------------------------------------
@pytest.mark.parametrize("name", list(PROMISES))
def test_every_reference_passes_its_promise(name, refs):
    # a generous time limit: the machine is shared, and the limit is tested elsewhere
    r = check_search(PROMISES[name].reference, name, seconds=60, quiet=True, references=refs)
    assert r.passed, str(r)
    assert r.points == r.possible == len(r.checks)
    assert r.failures == ()


def test_right_submissions_pass(refs):
    r = check_search(bfs_right, "breadth_first", seconds=60, quiet=True, references=refs)
    assert r.summary() == "bfs_right (as breadth_first): every check passed (7 of 7) on 33 deals"
    assert check_search(astar_textbook, "astar", seconds=60, quiet=True, references=refs).passed


def test_depth_first_sold_as_breadth_first(refs):
    r, f = _caught(bfs_with_a_stack, "breadth_first", refs, fails=("shortest", 1004))
    assert f.sentence == (
        "your line has 16 moves, a shortest one 12: it explores the newest node first: "
        "a stack, not a queue (depth-first search)"
    )
    assert [label for label, _ in f.lines] == ["your line", "a shortest line"]
    assert [len(m or ()) for _, m in f.lines] == [16, 12]
    assert "the smallest failing case, the micro deck, seed 1004: your line" in r.summary()
    assert {c.name: c.passed for c in r.checks}["legal"] is True


def test_goal_tested_too_late(refs):
    r, f = _caught(bfs_goal_late, "breadth_first", refs, fails=("goal", 1004))
    assert f.sentence == (
        "it tests the goal too late: after generating a winning position it expanded 5 more "
        "positions; test each child when it is generated"
    )
    assert {c.name: c.passed for c in r.checks}["shortest"] is True


def test_positions_never_marked_seen(refs):
    r = check_search(bfs_never_marks, "breadth_first", quiet=True, references=refs)
    f = _failure(r)
    assert f.case == Case("micro", 1002)  # three positions that lead back to each other
    assert "it never marks positions as seen" in f.sentence
    once = next(c for c in r.checks if c.name == "once")
    assert once.passed is False and "it expands the same position more than once" in once.report


def test_astar_without_reopening_under_an_inconsistent_heuristic(refs):
    r, f = _caught(astar_no_reopening, "astar", refs, fails=("shortest", 1004))
    assert f.sentence == (
        "your line has 13 moves, a shortest one 12: it never reopens a position: under an "
        "inconsistent heuristic, like this one, a shorter path can reach a position after it "
        "was expanded, and A* must then put it back on the frontier (with the heuristic flicker)"
    )
    passed = {c.name: c.passed for c in r.checks}
    assert passed == {
        "returns": True,
        "legal": True,
        "gives_up": True,
        "shortest": False,
        "once": True,
        "efficient": True,
    }


def test_illegal_move_named_with_its_reason(refs):
    _, f = _caught(bfs_illegal, "breadth_first", refs, fails=("legal", 1004))
    assert f.sentence == "move 1 of your line, 2C>F, is not allowed: no foundation takes 2C now"


def test_search_around_the_problem_is_refused(refs):
    _, f = _caught(bfs_behind_the_back, "breadth_first", refs)
    assert f.case == Case("micro", 1002)  # 1000 and 1001 have no move at all
    assert f.sentence.startswith("your function never asked the problem for a move")


def test_never_returns_is_stopped_and_reported(refs):
    r = check_search(bfs_forever, "breadth_first", seconds=1, quiet=True, references=refs)
    assert (
        _failure(r).sentence
        == "your function did not return within 1 s on the micro deck, seed 1000"
    )
    assert [c.passed for c in r.checks] == [False] + [None] * 6
    assert r.points == 0 and r.possible == 7


def test_memory_eater_is_stopped(refs):
    r = check_search(bfs_memory, "breadth_first", megabytes=200, quiet=True, references=refs)
    assert (
        _failure(r).sentence
        == "your function used more than 200 MB of memory on the micro deck, seed 1000"
    )


def test_student_traceback_is_trimmed_to_their_code(refs):
    _, f = _caught(bfs_crashes, "breadth_first", refs)
    assert (
        f.sentence
        == "your function raised IndexError on the micro deck, seed 1000: list index out of range"
    )
    assert "in bfs_crashes" in f.trace and "moves[len(moves)]" in f.trace
    assert "bakers_lab" not in f.trace and f.trace.endswith("IndexError: list index out of range")


def test_report_is_frozen_scored_and_shown(refs):
    r = check_search(bfs_with_a_stack, "breadth_first", cases=MICRO, quiet=True, references=refs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.checks = ()  # type: ignore[misc]
    assert (r.points, r.possible, r.score) == (6, 7, 6 / 7)
    assert r.grade(7) == 6.0 and r.grade(3) == 2.57
    assert r.check("shortest").passed is False and r.check("once").passed is True
    with pytest.raises(
        ValueError, match="unknown check 'admissible'; this report's checks: returns"
    ):
        r.check("admissible")
    with pytest.raises(AssertionError, match="a stack, not a queue"):
        r.assert_passed()
    html = r._repr_html_()
    assert "<svg" in html and "a stack, not a queue" in html and "your line" in html
    text = str(r)
    assert "classroom_micro, seed 1004" in text and "a shortest line" in text


# -- heuristics -------------------------------------------------------------------
def test_state_space_distances_agree_with_breadth_first():
    from bakers_lab.solve.search import breadth_first

    for case in HEURISTIC_CASES[20:25]:
        s = state_space(case)
        r = breadth_first(case.deal())
        assert s.distance[0] == (len(r.solution) if r.solution is not None else float("inf"))


def test_library_heuristics_judged_right():
    r = check_heuristic(detours, better_than="cards_not_home", quiet=True)
    assert r.passed, str(r)
    assert r.positions == 15_564
    names = [i.name for i in r.informed]
    assert names == ["detours", "zero", "cards_not_home", "burial"]
    ratio = {i.name: i.mean_ratio for i in r.informed}
    assert ratio["zero"] == 0 < ratio["cards_not_home"] < ratio["detours"] <= 1
    r = check_heuristic(flicker, cases=MICRO_POSITIONS, quiet=True)
    assert {c.name: c.passed for c in r.checks} == {
        "runs": True,
        "goal": True,
        "admissible": True,
        "consistent": False,
    }


def test_double_cards_not_home_overestimates():
    r = check_heuristic(twice_cards_not_home, quiet=True)
    f = next(f for f in r.failures if f.check == "admissible")
    assert f.case == Case("micro", 1004)
    assert (
        f.sentence == "your heuristic says 2, but this position is won in 1 move: it overestimates"
    )
    assert f.values == (("h", "2"), ("true distance", "1"))
    assert len(f.lines[0][1] or ()) == 1
    c = next(f for f in r.failures if f.check == "consistent")
    assert c.case == Case("micro", 1004)  # a move between positions that can be won
    assert c.sentence == (
        "the move 3S>F lowers your heuristic from 2 to 0, by 2, but a move costs 1: it is not "
        "consistent (A* with it must reopen positions)"
    )
    assert c.values == (
        ("move", "3S>F"),
        ("h before", "2"),
        ("h after", "0"),
        ("true distance before", "1"),
        ("true distance after", "0"),
    )
    assert _failure(r).check == "admissible"  # the headline: the same deal, the first check


def test_not_zero_at_the_goal():
    r = check_heuristic(one_more, cases=MICRO_POSITIONS, quiet=True)
    f = _failure(r)
    assert f.check == "goal"
    assert f.sentence == "this position is won, yet your heuristic says 1: it must be 0 at the goal"
    assert f.case.position(f.position).is_won


def test_raises_on_an_empty_column():
    r = check_heuristic(per_column, cases=MICRO_POSITIONS, quiet=True)
    f = _failure(r)
    assert f.check == "runs"
    assert f.sentence == (
        "on this position your heuristic raised ZeroDivisionError: "
        "integer division or modulo by zero"
    )
    assert any(len(col) == 0 for col in f.case.position(f.position).columns)
    assert "in per_column" in f.trace and "bakers_lab" not in f.trace
    assert [c.passed for c in r.checks] == [False, None, None, None]


def test_non_integer_and_negative_values():
    r = check_heuristic(halves, cases=MICRO_POSITIONS, quiet=True)
    assert _failure(r).sentence == (
        "on this position your heuristic returned 5.5, not a whole number: a heuristic counts moves"
    )
    r = check_heuristic(below_zero, cases=MICRO_POSITIONS, quiet=True)
    assert "returned -1, a negative number" in _failure(r).sentence


def test_slow_heuristic_is_stopped():
    r = check_heuristic(slow_heuristic, seconds=1, cases=MICRO_POSITIONS, quiet=True)
    assert _failure(r).sentence == "your heuristic did not rate the 597 positions within 1 s"


def test_not_better_than_cards_not_home():
    r = check_heuristic(
        cards_not_home, better_than="cards_not_home", cases=MICRO_POSITIONS, quiet=True
    )
    better = r.checks[-1]
    assert better.passed is False
    assert better.report.startswith(
        "it is not better than cards_not_home: its mean of h / true distance is"
    )
    assert r.failures == ()


def test_no_check_passes_on_no_case():
    # cases=() (or a deck filter that leaves none) said "every check passed on 0 deals",
    # and check_heuristic(cases=()) raised IndexError (issue 51)
    from bakers_lab.solve.search import breadth_first
    from bakers_lab.teach.cases import SEARCH_CASES

    with pytest.raises(ValueError, match=r"^cases holds no deal of the decks breadth_first is "):
        check_search(breadth_first, "breadth_first", cases=())
    medium = tuple(c for c in SEARCH_CASES if c.deck not in PROMISES["breadth_first"].decks)
    with pytest.raises(ValueError, match=r"a check on no deal would pass anything$"):
        check_search(breadth_first, "breadth_first", cases=medium)
    with pytest.raises(ValueError, match=r"^cases holds no deal: a check on no position would"):
        check_heuristic(detours, cases=())
    with pytest.raises(TypeError, match=r"^cases must be a tuple of Case \(like SEARCH_CASES\)"):
        check_search(breadth_first, cases=[1, 2])  # type: ignore[arg-type]


def test_a_heuristic_in_halves_of_any_number_type_is_no_whole_number():
    # numpy float32 and Fraction values were cut by int(): detours + 0.5, which
    # overestimates, passed 4 of 4 (issue 51)
    from fractions import Fraction

    import numpy as np

    def fraction_half(state):
        return Fraction(detours(state)) + Fraction(1, 2)

    def float32_half(state):
        return np.float32(detours(state)) + np.float32(0.5)

    def float32_whole(state):
        return np.float32(detours(state))

    few = HEURISTIC_CASES[:20]
    for h, shown in ((fraction_half, "Fraction(27, 2)"), (float32_half, "np.float32(13.5)")):
        r = check_heuristic(h, cases=few, quiet=True)
        assert not r.passed and r.points == 0 and r.failure is not None
        assert r.failure.sentence == (
            f"on this position your heuristic returned {shown}, not a whole number: a "
            f"heuristic counts moves"
        )
    assert check_heuristic(float32_whole, cases=few, quiet=True).passed


def test_the_sandbox_hears_no_half_message_and_leaves_no_process():
    # half a message on the answer pipe made the checker wait 60 s and raise OSError;
    # processes a submission forked outlived the check (issue 51)
    import gc
    import os
    import struct
    from multiprocessing.connection import Connection

    from bakers_lab.teach.sandbox import Died, OutOfTime, Returned, run_limited

    def half_a_message() -> None:
        pipe = next(o for o in gc.get_objects() if isinstance(o, Connection) and o.writable)
        os.write(pipe.fileno(), struct.pack("!i", 100) + b"x" * 10)
        time.sleep(30)

    began = time.monotonic()
    assert run_limited(half_a_message, seconds=2) == OutOfTime(2)
    print("half a message: answered in", round(time.monotonic() - began, 1), "s")

    def fork_and_leave() -> int:
        child = os.fork()
        if child == 0:  # the grandchild: would live on for a minute
            time.sleep(60)
            os._exit(0)
        return child

    outcome = run_limited(fork_and_leave, seconds=10)
    assert isinstance(outcome, Returned) and isinstance(outcome.value, int)
    grandchild = outcome.value
    for _ in range(100):  # the kill is sent before run_limited returns; the zombie goes
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        with open(f"/proc/{grandchild}/stat") as stat:
            assert stat.read().split()[2] == "Z", "the grandchild still runs"

    def liar() -> None:  # a length past the limit
        pipe = next(o for o in gc.get_objects() if isinstance(o, Connection) and o.writable)
        os.write(pipe.fileno(), struct.pack("!i", -1) + struct.pack("!Q", 2**62))
        os._exit(0)

    assert isinstance(run_limited(liar, seconds=10), Died)
