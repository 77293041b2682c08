"""The exercise checks against submissions that attack the checker (issue 51): what the
student's process sends back is plain data, read by the checker, never unpickled; time
is kept by the parent, which kills the whole process group; counting sees a search that
takes its moves from the position itself.

Each hostile submission is judged wrong with its own sentence, the checker's process is
unchanged (nothing of the submission ran in it) and no process of the submission is left.
"""

from __future__ import annotations

import gc
import os
import struct
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest
from procs import alive, descendants
from submissions import bfs_goal_late_own_moves

from bakers_lab.solve.search import Problem
from bakers_lab.teach import search_check
from bakers_lab.teach.cases import SEARCH_CASES
from bakers_lab.teach.search_check import ReferenceRuns, check_search

FEW = SEARCH_CASES[:3]  # micro deals: each check takes a second or two
MARK = Path(os.environ.get("TMPDIR", "/tmp")) / f"bakers_lab_grader_{os.getpid()}"
RUNS = ReferenceRuns()


def _ran_here(*_: object) -> None:
    """What an unpickled answer would run: note which process ran it, then stall."""
    MARK.write_text(str(os.getpid()))
    time.sleep(25)


class _RunsCode(str):
    """A move text that runs :func:`_ran_here` when it is unpickled."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_ran_here, (str(self),))


def returns_code(problem: Problem) -> list[str]:
    """A wrong one-move line whose move would run code (and sleep 25 s) in whoever
    unpickles it: it once patched the checker's replay and scored 7 of 7."""
    return [_RunsCode("KS>F")]


def _answer_pipe() -> Connection:
    return next(o for o in gc.get_objects() if isinstance(o, Connection) and o.writable)


def writes_half_a_message(problem: Problem) -> None:
    os.write(_answer_pipe().fileno(), struct.pack("!i", 100) + b"x" * 10)
    time.sleep(30)


def writes_no_answer(problem: Problem) -> None:
    body = b'{"returned": {"kind": "line", "line": [], "stats": "all fine"'
    os.write(_answer_pipe().fileno(), struct.pack("!i", len(body)) + body)
    os._exit(0)


def forks_and_exits(problem: Problem) -> None:
    if os.fork() == 0:  # the grandchild: would outlive the check by a minute
        time.sleep(60)
        os._exit(0)
    MARK.with_suffix(".forked").write_text(str(os.getpid()))
    os._exit(0)


@pytest.fixture(autouse=True)
def _no_marks():
    for path in (MARK, MARK.with_suffix(".forked")):
        path.unlink(missing_ok=True)
    yield
    for path in (MARK, MARK.with_suffix(".forked")):
        path.unlink(missing_ok=True)


def _gone(pids: list[int]) -> bool:
    for _ in range(100):  # the kill is sent before the check returns; zombies go at once
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _check(fn, seconds: float = 10):
    before = descendants(os.getpid())
    replay = vars(search_check)["replay"]
    report = check_search(fn, cases=FEW, seconds=seconds, quiet=True, references=RUNS)
    assert vars(search_check)["replay"] is replay  # the checker's own code, untouched
    left = descendants(os.getpid(), besides=before)
    assert _gone(left), f"processes of the submission left: {left}"
    assert not report.passed and report.failure is not None
    return report


def test_an_answer_that_would_run_code_is_read_as_text_and_judged():
    r = _check(returns_code)
    assert not MARK.exists()  # nothing was unpickled, in the checker or anywhere
    assert r.failure.check == "legal"
    assert (
        r.failure.sentence
        == "move 1 of your line, KS>F, is not allowed: "
        + (r.failure.sentence.split("is not allowed: ", 1)[1])
    )
    assert r.failure.sentence.startswith("move 1 of your line, KS>F, is not allowed: ")


def test_half_a_message_is_out_of_time():
    r = _check(writes_half_a_message, seconds=2)
    assert r.failure.check == "returns"
    assert (
        r.failure.sentence == "your function did not return within 2 s on the micro deck, seed 1000"
    )


def test_an_answer_not_sent_by_the_check_is_named_as_such():
    r = _check(writes_no_answer)
    assert r.failure.sentence == (
        "your function's process sent back something that is not an answer on the micro "
        "deck, seed 1000 (it is not JSON): the check reads only the answer it sends itself"
    )


def test_a_search_that_forks_and_exits_leaves_no_process():
    r = _check(forks_and_exits)
    assert MARK.with_suffix(".forked").exists()  # the fork did happen
    assert r.failure.sentence == (
        "your function ended its process on the micro deck, seed 1000 (exit code 0)"
    )


def test_goal_late_through_the_positions_own_moves_is_counted():
    r = check_search(bfs_goal_late_own_moves, cases=SEARCH_CASES[:8], quiet=True, references=RUNS)
    assert r.failure is not None and r.failure.check == "goal", r.summary()
    assert r.failure.sentence.startswith("it tests the goal too late: after generating a winning")
    assert [c.name for c in r.checks if c.passed is False] == ["goal"]
