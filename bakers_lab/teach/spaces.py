"""Whole state spaces of small deals, with every position's true distance to a win.

:func:`state_space` enumerates every position reachable from a deal
(breadth-first, forward), keeps every move between them, and then finds each
position's true distance, the fewest moves that win from it, by a breadth-first
search backward from the won positions over the reversed moves.  Positions
from which no line wins have distance ``inf``.  Sizes (measured): a micro deal
has at most a few hundred positions, a tiny one up to about 2,000, the two small
deals of :data:`~bakers_lab.teach.cases.HEURISTIC_CASES` 1,156 and 6,586.

>>> from bakers_lab.teach.cases import Case
>>> s = state_space(Case("micro", 1005))
>>> len(s.states), s.distance[0]
(55, 13.0)
>>> [str(m) for m in s.shortest_line(0)][:3]
['AH>F', '2H>F', 'AD>F']
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.teach.cases import Case

__all__ = ["Space", "state_space"]


@dataclass(frozen=True)
class Space:
    """Every position reachable from the deal of ``case``: ``states`` in
    breadth-first order from the deal (``states[0]``), ``edges`` the moves
    ``(from, to, move)`` between them (indices into ``states``), ``distance``
    each position's fewest moves to a win (``inf``: none wins)."""

    case: Case
    states: tuple[GameState, ...]
    edges: tuple[tuple[int, int, Move], ...]
    distance: tuple[float, ...]

    def shortest_line(self, start: int) -> list[Move]:
        """A shortest winning line from position ``start`` (empty if none wins)."""
        if math.isinf(self.distance[start]):
            return []
        out: dict[int, list[tuple[int, Move]]] = {}
        for a, b, m in self.edges:
            out.setdefault(a, []).append((b, m))
        line, at = [], start
        while self.distance[at] > 0:
            at, move = next((b, m) for b, m in out[at] if self.distance[b] == self.distance[at] - 1)
            line.append(move)
        return line


def state_space(case: Case) -> Space:
    """The whole state space of the deal of ``case`` (see the module)."""
    first = GameState.from_deal(case.deal())
    index = {first.key(): 0}
    states = [first]
    edges: list[tuple[int, int, Move]] = []
    queue = deque([0])
    while queue:
        i = queue.popleft()
        state = states[i]
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            key = child.key()
            j = index.get(key)
            if j is None:
                j = index[key] = len(states)
                states.append(child)
                queue.append(j)
            edges.append((i, j, move))
    into: list[list[int]] = [[] for _ in states]
    for a, b, _ in edges:
        into[b].append(a)
    distance = [math.inf] * len(states)
    back = deque(i for i, s in enumerate(states) if s.is_won)
    for i in back:
        distance[i] = 0
    while back:
        j = back.popleft()
        for i in into[j]:
            if math.isinf(distance[i]):
                distance[i] = distance[j] + 1
                back.append(i)
    return Space(case, tuple(states), tuple(edges), tuple(float(d) for d in distance))
