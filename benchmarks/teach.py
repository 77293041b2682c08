"""How long the checks of bakers_lab.teach take on a correct submission (issue 42's goal: 30 s).

    python benchmarks/teach.py              # medians of 3 runs
    python benchmarks/teach.py --repeat 5

Runs ``check_search`` on a breadth-first search and an A* written as a student
would (the textbook's code against ``Problem`` and ``Node``: the right submissions
of tests/submissions.py, which tests/test_teach.py checks too; A* is run with
``detours`` and with ``flicker``, as its promise says), and ``check_heuristic``
on ``detours`` (with ``better_than="cards_not_home"``), each ``--repeat`` times;
prints each run's seconds, the median and whether it is within the 30 s goal.
Each check runs the student's function in a child process while the reference
search runs in the parent, so it uses two cores.  Figures are printed, not
asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bakers_lab.solve.heuristics import detours
from bakers_lab.teach import check_heuristic, check_search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from submissions import astar_textbook, bfs_right  # the right submissions of the tests

GOAL_SECONDS = 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each check (default 3)")
    args = parser.parse_args()
    jobs: list[tuple[str, Callable[[], object]]] = [
        ("check_search(breadth_first)", lambda: check_search(bfs_right, quiet=True)),
        ("check_search(astar)", lambda: check_search(astar_textbook, "astar", quiet=True)),
        (
            "check_heuristic(detours)",
            lambda: check_heuristic(detours, better_than="cards_not_home", quiet=True),
        ),
    ]
    for label, job in jobs:
        seconds = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            report = job()
            seconds.append(time.perf_counter() - t0)
            assert report.passed, report  # type: ignore[attr-defined]
        median = statistics.median(seconds)
        verdict = "within" if median <= GOAL_SECONDS else "OVER"
        runs = ", ".join(f"{s:.1f}" for s in seconds)
        print(f"{label:<30} median {median:5.1f} s ({runs}): {verdict} the {GOAL_SECONDS} s goal")


if __name__ == "__main__":
    main()
