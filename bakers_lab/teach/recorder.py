"""A :class:`~bakers_lab.solve.search.Problem` that watches the search using it.

The checks hand a student's search a :class:`RecordingProblem` instead of the
plain game.  It answers exactly as :class:`~bakers_lab.solve.search.GameProblem`
does, and notes what the search asks of it:

- an **expansion** is a call of ``actions(state)`` (``Node.expand`` and the
  reference's ``Tracker.expand`` both make one per node expanded), or a
  position's children generated once more than it was asked for its moves (a
  search that takes its moves from ``state.legal_moves()`` and its children from
  ``result`` is counted all the same); it counts them per position, so a
  position expanded twice is seen;
- a **generation** is a call of ``result(state, move)``; past ``max_nodes`` of
  them the search is stopped with :class:`OutOfNodes` (a ``BaseException``, so a
  student's ``except Exception`` does not swallow it);
- the first winning position generated, and how many expansions came after it
  (a breadth-first search that tests goals when they are generated makes none);
- which generated position each expansion takes: the newest (a stack) or the
  oldest not yet expanded (a queue); the diagnosis of a depth-first search sold
  as breadth-first reads these counts.

>>> from bakers_lab.solve.search import breadth_first, classroom_deal
>>> p = RecordingProblem(classroom_deal(1005, deck="micro"))
>>> r = breadth_first(p)
>>> p.stats().expanded == r.nodes_expanded, p.stats().most_expansions
(True, 1)
>>> p.stats().expanded_after_goal, p.stats().oldest_taken > p.stats().newest_taken
(0, True)
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.solve.search import GameProblem, Problem

__all__ = ["OutOfNodes", "RecordingProblem", "SearchStats"]


class OutOfNodes(BaseException):
    """Raised inside a search that generates more positions than its budget."""


@dataclass(frozen=True)
class SearchStats:
    """What a search asked of its :class:`RecordingProblem`.

    ``expanded``: calls of ``actions``; ``generated``: calls of ``result``;
    ``most_expansions``: the most times one position was expanded (0 if none
    was); ``expanded_after_goal``: expansions after the first winning position
    was generated (``None`` if none was); ``newest_taken`` / ``oldest_taken``:
    expansions of the newest generated position / of the oldest one not yet
    expanded (where those differ).
    """

    expanded: int
    generated: int
    most_expansions: int
    expanded_after_goal: int | None
    newest_taken: int
    oldest_taken: int


class RecordingProblem(Problem):
    """The game from ``position``, counting what the search does (see the module)."""

    def __init__(self, position: Deal | GameState, max_nodes: int | None = None) -> None:
        self._game = GameProblem(position)
        super().__init__(self._game.initial)
        self.max_nodes = max_nodes
        self._expansions: Counter[bytes] = Counter()
        self._asked: Counter[bytes] = Counter()  # calls of actions, by position
        self._children: Counter[tuple[bytes, Move]] = Counter()  # calls of result
        self._generated = 0
        self._after_goal: int | None = None
        self._pending: deque[bytes] = deque()  # generated, in order (oldest first)
        self._newest: bytes | None = None
        self._newest_taken = 0
        self._oldest_taken = 0

    def _expand(self, key: bytes) -> None:
        """Note one expansion of the position ``key``."""
        while self._pending and self._pending[0] in self._expansions:
            self._pending.popleft()
        oldest = self._pending[0] if self._pending else None
        if oldest != self._newest:
            self._newest_taken += key == self._newest
            self._oldest_taken += key == oldest
        self._expansions[key] += 1
        if self._after_goal is not None:
            self._after_goal += 1

    def actions(self, state: GameState) -> list[Move]:
        key = state.key()
        self._asked[key] += 1
        if self._asked[key] > self._expansions[key]:
            self._expand(key)
        return self._game.actions(state)

    def result(self, state: GameState, move: Move) -> GameState:
        if self.max_nodes is not None and self._generated >= self.max_nodes:
            raise OutOfNodes(self._generated)
        parent = state.key()
        self._children[parent, move] += 1
        if self._children[parent, move] > self._expansions[parent]:  # moves not asked here
            self._expand(parent)
        child = self._game.result(state, move)
        self._generated += 1
        key = child.key()
        self._pending.append(key)
        self._newest = key
        if self._after_goal is None and child.is_won:
            self._after_goal = 0
        return child

    def goal_test(self, state: GameState) -> bool:
        return self._game.goal_test(state)

    def stats(self) -> SearchStats:
        """The counts so far."""
        return SearchStats(
            expanded=sum(self._expansions.values()),
            generated=self._generated,
            most_expansions=max(self._expansions.values(), default=0),
            expanded_after_goal=self._after_goal,
            newest_taken=self._newest_taken,
            oldest_taken=self._oldest_taken,
        )
