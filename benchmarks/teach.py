"""How long the checks of bakers_lab.teach take on a correct submission (issue 42's goal: 30 s).

    python benchmarks/teach.py              # medians of 3 runs
    python benchmarks/teach.py --repeat 5

Runs ``check_search`` on a breadth-first search and an A* written as a student
would (the textbook's code against ``Problem`` and ``Node``; A* is run with
``detours`` and with ``flicker``, as its promise says), and ``check_heuristic``
on ``detours`` (with ``better_than="cards_not_home"``), each ``--repeat`` times;
prints each run's seconds, the median and whether it is within the 30 s goal.
Each check runs the student's function in a child process while the reference
search runs in the parent, so it uses two cores.  Figures are printed, not
asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import statistics
import time
from collections import deque
from collections.abc import Callable

from bakers_lab.solve.heuristics import detours
from bakers_lab.solve.search import Node, Problem
from bakers_lab.teach import check_heuristic, check_search

GOAL_SECONDS = 30


def breadth_first(problem: Problem) -> Node | None:
    """Breadth-first graph search, goal tested when a node is generated."""
    node = Node(problem.initial)
    if problem.goal_test(node.state):
        return node
    frontier = deque([node])
    reached = {problem.key(node.state)}
    while frontier:
        node = frontier.popleft()
        for child in node.expand(problem):
            if problem.goal_test(child.state):
                return child
            s = problem.key(child.state)
            if s not in reached:
                reached.add(s)
                frontier.append(child)
    return None


def astar(problem: Problem, h: Callable[..., int]) -> Node | None:
    """A* with reopening, ties first in, first out."""
    start = Node(problem.initial)
    count = itertools.count()
    frontier = [(h(start.state), next(count), start)]
    best = {problem.key(start.state): 0}
    while frontier:
        _, _, node = heapq.heappop(frontier)
        if best[problem.key(node.state)] < node.path_cost:
            continue
        if problem.goal_test(node.state):
            return node
        for child in node.expand(problem):
            s = problem.key(child.state)
            if child.path_cost < best.get(s, 10**9):
                best[s] = child.path_cost
                heapq.heappush(frontier, (child.path_cost + h(child.state), next(count), child))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each check (default 3)")
    args = parser.parse_args()
    jobs: list[tuple[str, Callable[[], object]]] = [
        ("check_search(breadth_first)", lambda: check_search(breadth_first, quiet=True)),
        ("check_search(astar)", lambda: check_search(astar, "astar", quiet=True)),
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
