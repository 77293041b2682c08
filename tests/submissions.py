"""Searches written as a student writes them (the textbook's code against ``Problem``
and ``Node``), right and with the mistakes a class makes: what tests/test_teach.py
hands to ``bakers_lab.teach`` and benchmarks/teach.py times.

>>> from bakers_lab.solve.search import GameProblem
>>> from bakers_lab.teach.cases import SEARCH_CASES
>>> problem = GameProblem(SEARCH_CASES[4].deal())
>>> len(bfs_right(problem).solution()), len(bfs_with_a_stack(problem).solution())
(12, 16)
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Callable

from bakers_lab.model.moves import Move
from bakers_lab.solve.search import Node, Problem


def breadth_first(
    problem: Problem, *, stack: bool = False, goal_late: bool = False, marks: bool = True
) -> Node | None:
    """Breadth-first graph search, the goal tested when a node is generated; or with one
    mistake: ``stack`` takes the newest node first (depth-first search sold as
    breadth-first), ``goal_late`` tests the goal when a node is taken from the queue,
    ``marks=False`` keeps no set of positions seen (a tree search)."""
    node = Node(problem.initial)
    if problem.goal_test(node.state):
        return node
    frontier = deque([node])
    reached = {problem.key(node.state)}
    while frontier:
        node = frontier.pop() if stack else frontier.popleft()
        if goal_late and problem.goal_test(node.state):
            return node
        for child in node.expand(problem):
            if not goal_late and problem.goal_test(child.state):
                return child
            s = problem.key(child.state)
            if not marks or s not in reached:
                reached.add(s)
                frontier.append(child)
    return None


def astar(problem: Problem, h: Callable[..., int], *, reopens: bool = True) -> Node | None:
    """A* with reopening, ties first in, first out; ``reopens=False``: a closed set
    that is never reopened (wrong under an inconsistent heuristic)."""
    start = Node(problem.initial)
    count = itertools.count()
    frontier = [(h(start.state), next(count), start)]
    best = {problem.key(start.state): 0}
    closed: set[bytes] = set()
    while frontier:
        _, _, node = heapq.heappop(frontier)
        k = problem.key(node.state)
        if k in closed or best[k] < node.path_cost:  # a shorter path reached it since
            continue
        if problem.goal_test(node.state):
            return node
        if not reopens:
            closed.add(k)
        for child in node.expand(problem):
            s = problem.key(child.state)
            if s not in closed and child.path_cost < best.get(s, 10**9):
                best[s] = child.path_cost
                heapq.heappush(frontier, (child.path_cost + h(child.state), next(count), child))
    return None


# The submissions by the names their reports give them.
def bfs_right(problem: Problem) -> Node | None:
    return breadth_first(problem)


def bfs_with_a_stack(problem: Problem) -> Node | None:
    return breadth_first(problem, stack=True)


def bfs_goal_late(problem: Problem) -> Node | None:
    return breadth_first(problem, goal_late=True)


def bfs_never_marks(problem: Problem) -> Node | None:
    return breadth_first(problem, marks=False)


def astar_textbook(problem: Problem, h: Callable[..., int]) -> Node | None:
    return astar(problem, h)


def astar_no_reopening(problem: Problem, h: Callable[..., int]) -> Node | None:
    return astar(problem, h, reopens=False)


def bfs_goal_late_own_moves(problem: Problem) -> list[Move] | None:
    """Breadth-first search, the goal tested late, its moves taken from the position
    (``state.legal_moves()``) instead of ``problem.actions``: the check must count its
    expansions all the same (issue 51: it passed 7 of 7)."""
    start: list[Move] = []
    frontier = deque([(problem.initial, start)])
    reached = {problem.key(problem.initial)}
    while frontier:
        state, line = frontier.popleft()
        if problem.goal_test(state):
            return line
        for move in state.legal_moves():
            child = problem.result(state, move)
            if problem.key(child) not in reached:
                reached.add(problem.key(child))
                frontier.append((child, [*line, move]))
    return None
