"""Teaching search: the textbook algorithms on Baker's Dozen, with traces.

The shape is the one of *Artificial Intelligence: A Modern Approach* (and
aima-python's ``search.py``): a :class:`Problem` says what the moves are, a
:class:`Node` is a position with the path that reached it, and each algorithm
is one short function that reads like the book's pseudocode.

>>> import bakers_lab as bl
>>> from bakers_lab.solve.search import astar, breadth_first, classroom_deal
>>> d = classroom_deal(8, deck="micro")         # 12 cards, A-3, in two columns
>>> print(d.to_text())
AC 2C 2S AS 2H AD
3H 3D 3C 3S AH 2D
<BLANKLINE>
>>> r = breadth_first(d)
>>> r  # doctest: +NORMALIZE_WHITESPACE
SearchResult(algorithm='breadth_first', status='solved', moves=13,
             nodes_expanded=25, nodes_generated=38, max_frontier=4)
>>> " ".join(str(m) for m in r.solution[6:9])
'2C>3S AC>F 2C>F'
>>> astar(d, h="detours").nodes_expanded        # just as short, less work
13
>>> bl.GameState.from_deal(d).play_all(r.solution).is_won
True

Every move counts as one step, and nothing goes to a foundation by itself:
unlike :func:`bakers_lab.solve` (which plays safe foundation moves at once),
these searches see every move, so a solution's length is the plain number of
moves and the trees are the ones the textbook draws.

What every search shares lives in :class:`Tracker`: it counts the nodes
expanded and generated and the largest frontier, times the search, and with
``trace=True`` records one :class:`Event` per step, in the one trace format
that every view of a search reads.  It also holds the budget: a search never
generates more than ``max_nodes`` nodes (default :data:`DEFAULT_MAX_NODES`),
and one that needs more stops with status ``"stopped after N nodes"``.  Every
node a search keeps was generated, so the budget bounds its memory as well
as its time; it counts generated nodes, like the ``nodes`` of
:func:`bakers_lab.solve`.

Duplicate positions are detected with :meth:`GameState.key`, which ignores
the order of the columns.  Children come in the order of
:meth:`GameState.legal_moves`, and priority queues break ties first in, first
out (A* first toward the deeper node), so node counts are the
same on every run and every machine.

Views of many searches: :func:`compare` runs a lineup of algorithms
(:data:`LINEUP`) on many deals, one table row per deal and algorithm;
:func:`summarize` sums such a table up per algorithm; :func:`step_up` gives one
full deal to teaching searches and to the fast solver, side by side.  Charts of
these tables and of one search's trace are in :mod:`bakers_lab.display.plots`, a
step-by-step viewer of a trace in :mod:`bakers_lab.display.widgets`.
"""

from __future__ import annotations

import heapq
import inspect
import itertools
import math
import time
import warnings
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import pandas as pd

from bakers_lab.model.deals import Deal, seeded_deal
from bakers_lab.model.deals import deal as pysolfc_deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.rules import Rules
from bakers_lab.solve.fast import DEFAULT_MAX_NODES as FAST_MAX_NODES
from bakers_lab.solve.fast import solve as fast_solve
from bakers_lab.solve.heuristics import HEURISTICS, Heuristic, heuristic
from bakers_lab.utils.validate import as_bool, as_int, describe, is_bool

__all__ = [
    "ADMISSIBLE",
    "ALGORITHMS",
    "CLASSROOM",
    "COMPARE_COLUMNS",
    "DEFAULT_MAX_NODES",
    "HEURISTICS",
    "LINEUP",
    "STEP_UP",
    "AlgorithmSpec",
    "Event",
    "EventKind",
    "GameProblem",
    "Node",
    "PriorityQueue",
    "Problem",
    "SearchResult",
    "Tracker",
    "as_problem",
    "astar",
    "beam",
    "best_first",
    "breadth_first",
    "classroom_deal",
    "compare",
    "deck_name",
    "depth_first",
    "depth_limited",
    "greedy_best_first",
    "ida_star",
    "iterative_deepening",
    "run",
    "step_up",
    "summarize",
    "uniform_cost",
    "weighted_astar",
]

#: Nodes a search may generate unless told otherwise: enough for breadth-first
#: search on the "small" classroom deck; on a full 52-card deal, 15-30 seconds
#: and about 300 MB before breadth-first search stops.
DEFAULT_MAX_NODES = 200_000

SOLVED = "solved"
NO_SOLUTION = "no solution"  # the search space ran dry: no solution exists
CUTOFF = "depth limit reached"  # no solution within the limit; positions lay beyond it
BEAM_CUT = "beam width reached"  # no solution found; the beam dropped positions


# -- the problem ------------------------------------------------------------
class Problem(ABC):
    """A search problem whose states are positions (:class:`GameState`).

    Subclass it to change what counts as a move or a goal; :class:`GameProblem`
    is the game itself.
    """

    def __init__(self, initial: GameState) -> None:
        self.initial = initial

    @abstractmethod
    def actions(self, state: GameState) -> list[Move]:
        """The moves that can be made in ``state``."""

    @abstractmethod
    def result(self, state: GameState, move: Move) -> GameState:
        """The position after ``move``: a new state (``state`` is left as it is)."""

    @abstractmethod
    def goal_test(self, state: GameState) -> bool:
        """Whether ``state`` is a goal."""

    def step_cost(self, state: GameState, move: Move, next_state: GameState) -> int:
        """The cost of one move: 1."""
        return 1

    def key(self, state: GameState) -> bytes:
        """Equal for states that are the same position (columns in any order)."""
        return state.key()


class GameProblem(Problem):
    """Win the game from a deal or a position.

    Actions are the legal moves, each costs 1, and no move is made
    automatically: a solution is the plain list of moves, foundation moves
    included, and its length is its cost.

    >>> from bakers_lab.solve.search import classroom_deal
    >>> p = GameProblem(classroom_deal(8, deck="micro"))
    >>> [str(m) for m in p.actions(p.initial)]
    ['AD>F', 'AD>2D']
    >>> p.goal_test(p.result(p.initial, p.actions(p.initial)[0]))
    False
    """

    def __init__(self, position: Deal | GameState) -> None:
        if isinstance(position, Deal):
            initial = GameState.from_deal(position)
        elif isinstance(position, GameState):
            initial = position.copy()
        else:
            raise TypeError(f"GameProblem takes a Deal or a GameState, not {describe(position)}")
        super().__init__(initial)

    def actions(self, state: GameState) -> list[Move]:
        return state.legal_moves()

    def result(self, state: GameState, move: Move) -> GameState:
        next_state = state.copy()
        next_state.play(move)
        return next_state

    def goal_test(self, state: GameState) -> bool:
        return state.is_won

    def __repr__(self) -> str:
        return f"GameProblem({self.initial!r})"


def as_problem(position: Problem | Deal | GameState) -> Problem:
    """A :class:`Problem` as it is; a deal or position wrapped in :class:`GameProblem`."""
    if isinstance(position, Problem):
        return position
    if isinstance(position, Deal | GameState):
        return GameProblem(position)
    raise TypeError(f"a search takes a Problem, a Deal or a GameState, not {describe(position)}")


# -- nodes -------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """A node of the search tree: a state and the path that reached it.

    ``id`` numbers the nodes of one search in the order they were generated
    (the root is 0); nodes made outside a search have ``None``.
    """

    state: GameState
    parent: Node | None = None
    move: Move | None = None
    path_cost: int = 0
    depth: int = 0
    id: int | None = None

    def child(self, problem: Problem, move: Move, id: int | None = None) -> Node:
        """The node reached by ``move``."""
        state = problem.result(self.state, move)
        cost = self.path_cost + problem.step_cost(self.state, move, state)
        return Node(state, self, move, cost, self.depth + 1, id)

    def expand(self, problem: Problem) -> list[Node]:
        """The children: one node per action, in the order of ``problem.actions``."""
        return [self.child(problem, move) for move in problem.actions(self.state)]

    def path(self) -> list[Node]:
        """The nodes from the root to this one."""
        nodes = []
        node: Node | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def solution(self) -> list[Move]:
        """The moves from the root to this node."""
        return [node.move for node in self.path()[1:] if node.move is not None]

    def __repr__(self) -> str:
        move = f", move='{self.move}'" if self.move is not None else ""
        return f"Node(id={self.id}, depth={self.depth}, path_cost={self.path_cost}{move})"


# -- results and traces ------------------------------------------------------
#: What a step of a trace did: a node generated, expanded, pruned (a duplicate or over a
#: bound), or the goal reached.
EventKind = Literal["generate", "expand", "prune", "goal"]


@dataclass(frozen=True, slots=True)
class Event:
    """One step of a search, as every view of a trace reads it.

    ``kind`` is ``generate`` (a node was created; the root too), ``expand``
    (its children are about to be generated), ``prune`` (a node was dropped: a
    duplicate position, or cut by a depth limit, a cost bound or the beam
    width) or ``goal`` (the solution's last node; always the last event).
    ``f_or_g_value`` is what the algorithm orders nodes by: the path cost g
    for the uninformed searches, h for greedy and beam search, f = g + h (or
    g + w·h) for A*, weighted A* and IDA*.  ``move_text`` is the move that led
    to the node (``""`` for a root).
    """

    kind: EventKind
    node_id: int
    parent_id: int | None
    depth: int
    f_or_g_value: float
    move_text: str


@dataclass(frozen=True)
class SearchResult:
    """What a search did.

    ``status`` is ``"solved"`` (``solution`` wins), ``"no solution"`` (the
    search covered every reachable position: none is won), ``"depth limit
    reached"`` (none within the depth limit, and positions lay beyond it),
    ``"beam width reached"`` (the beam ran dry after dropping positions) or
    ``"stopped after N nodes"`` (it needed more than ``max_nodes`` nodes).
    ``solution`` is ``None`` unless solved.  ``nodes_generated`` counts every
    node created, roots included (iterative deepening and IDA* make one per
    pass); ``max_frontier`` is the largest number of nodes waiting to be
    expanded at once.  ``trace`` holds the :class:`Event` list of a search
    run with ``trace=True``.
    """

    algorithm: str
    solution: list[Move] | None
    nodes_expanded: int
    nodes_generated: int
    max_frontier: int
    seconds: float = field(compare=False)
    status: str
    trace: tuple[Event, ...] = field(default=(), repr=False)
    #: The position searched from (for replays and pictures; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def solved(self) -> bool:
        """True when a solution was found."""
        return self.solution is not None

    def __repr__(self) -> str:
        moves = f"moves={len(self.solution)}, " if self.solution is not None else ""
        return (
            f"SearchResult(algorithm={self.algorithm!r}, status={self.status!r}, {moves}"
            f"nodes_expanded={self.nodes_expanded}, nodes_generated={self.nodes_generated}, "
            f"max_frontier={self.max_frontier})"
        )


# -- what every search shares --------------------------------------------------
class Tracker:
    """The bookkeeping of one search: node counts, the node budget, the trace, the clock.

    The algorithms call :meth:`root` once (per pass), :meth:`expand` for each
    node they expand (or :meth:`expand_cheaper`, which also drops the children
    reached before at no greater cost), :meth:`prune` for each node they drop,
    report their frontier's size with :meth:`frontier_size`, and end with
    :meth:`result`.
    ``value`` is what the algorithm orders nodes by (the trace shows it).
    """

    def __init__(
        self,
        algorithm: str,
        problem: Problem,
        max_nodes: int = DEFAULT_MAX_NODES,
        trace: bool = False,
        value: Callable[[Node], float] = lambda node: node.path_cost,
    ) -> None:
        self.algorithm = algorithm
        self.problem = problem
        self.max_nodes = as_int(max_nodes, "max_nodes", low=1)
        self.value = value
        self.events: list[Event] | None = [] if as_bool(trace, "trace") else None
        self.nodes_expanded = 0
        self.nodes_generated = 0
        self.max_frontier = 0
        #: True once the search has needed more than ``max_nodes`` nodes: it must stop.
        self.out_of_nodes = False
        self._t0 = time.perf_counter()

    def _may_generate(self) -> bool:
        if self.nodes_generated >= self.max_nodes:
            self.out_of_nodes = True
        return not self.out_of_nodes

    def _record(self, kind: EventKind, node: Node) -> None:
        if self.events is not None:
            assert node.id is not None
            parent = node.parent.id if node.parent is not None else None
            move = str(node.move) if node.move is not None else ""
            self.events.append(Event(kind, node.id, parent, node.depth, self.value(node), move))

    def root(self) -> Node:
        """Generate the root node.  (Beyond the budget it is made but not counted,
        and :attr:`out_of_nodes` ends the pass at once.)"""
        node = Node(self.problem.initial, id=self.nodes_generated)
        if self._may_generate():
            self.nodes_generated += 1
            self._record("generate", node)
        return node

    def expand(self, node: Node, reached: set[bytes] | None = None) -> Iterator[Node]:
        """Expand ``node``: its children, one per action, until the budget runs out.

        With ``reached`` (the positions a graph search has met), a child whose
        position is in it is pruned, and each other child's position is added.
        """
        self.nodes_expanded += 1
        self._record("expand", node)
        for move in self.problem.actions(node.state):
            if not self._may_generate():
                return
            child = node.child(self.problem, move, id=self.nodes_generated)
            self.nodes_generated += 1
            self._record("generate", child)
            if reached is None:
                yield child
                continue
            s = self.problem.key(child.state)
            if s in reached:
                self.prune(child)
            else:
                reached.add(s)
                yield child

    def expand_cheaper(
        self, node: Node, reached: dict[bytes, float], cost: Callable[[Node], float]
    ) -> Iterator[tuple[Node, bytes]]:
        """Expand ``node``, keeping the children whose positions are reached more
        cheaply (by ``cost``: the depth, the path cost) than ever before, each with
        its position's key; ``reached`` holds the lowest cost of each position met,
        and a child that does not lower it is pruned."""
        for child in self.expand(node):
            s = self.problem.key(child.state)
            if reached.get(s, math.inf) <= cost(child):
                self.prune(child)
            else:
                reached[s] = cost(child)
                yield child, s

    def prune(self, node: Node) -> None:
        """Drop ``node``: a duplicate, or cut by a limit."""
        self._record("prune", node)

    def frontier_size(self, size: int) -> None:
        """Note the frontier's size (for ``max_frontier``)."""
        self.max_frontier = max(self.max_frontier, size)

    def result(self, outcome: Node | str) -> SearchResult:
        """The search's result: a goal node, or the status of a search that found none."""
        solution = None
        if isinstance(outcome, Node):
            self._record("goal", outcome)
            status, solution = SOLVED, outcome.solution()
        elif self.out_of_nodes:
            status = f"stopped after {self.nodes_generated:,} nodes"
        else:
            status = outcome
        return SearchResult(
            algorithm=self.algorithm,
            solution=solution,
            nodes_expanded=self.nodes_expanded,
            nodes_generated=self.nodes_generated,
            max_frontier=self.max_frontier,
            seconds=time.perf_counter() - self._t0,
            status=status,
            trace=tuple(self.events or ()),
            start=self.problem.initial,
        )


def _positive(value: object, name: str) -> int:
    return as_int(value, name, low=1)


def _weight(weight: object) -> float:
    if is_bool(weight) or not isinstance(weight, int | float) or not math.isfinite(weight):
        raise ValueError(f"weight must be a number at least 1, not {describe(weight)}")
    if weight < 1:
        raise ValueError(f"weight must be a number at least 1, not {weight}")
    return float(weight)


# -- uninformed search --------------------------------------------------------
def breadth_first(
    problem: Problem | Deal | GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Breadth-first graph search: shallowest nodes first (a FIFO queue).

    Finds a shortest solution.  A goal is recognised when it is generated
    (the textbook's early goal test), which saves expanding the last layer.
    """
    problem = as_problem(problem)
    search = Tracker("breadth_first", problem, max_nodes, trace)
    node = search.root()
    if problem.goal_test(node.state):
        return search.result(node)
    frontier = deque([node])
    reached = {problem.key(node.state)}  # positions in the frontier or expanded
    while frontier and not search.out_of_nodes:
        node = frontier.popleft()
        for child in search.expand(node, reached):  # a position reached before is pruned
            if problem.goal_test(child.state):
                return search.result(child)
            frontier.append(child)
        search.frontier_size(len(frontier))
    return search.result(NO_SOLUTION)


def depth_first(
    problem: Problem | Deal | GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Depth-first graph search: deepest nodes first (a LIFO stack).

    Complete here (the positions reachable from a deal are finite, and none is
    entered twice), but its solutions are usually far from shortest.  The
    children are pushed in move order, so the last move is tried first.
    """
    problem = as_problem(problem)
    search = Tracker("depth_first", problem, max_nodes, trace)
    node = search.root()
    frontier = [node]
    reached = {problem.key(node.state)}  # positions in the frontier or expanded
    while frontier and not search.out_of_nodes:
        node = frontier.pop()
        if problem.goal_test(node.state):
            return search.result(node)
        frontier.extend(search.expand(node, reached))  # a position reached before is pruned
        search.frontier_size(len(frontier))
    return search.result(NO_SOLUTION)


def depth_limited(
    problem: Problem | Deal | GameState,
    limit: int,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Depth-first search that expands no node at depth ``limit``.

    Status ``"depth limit reached"`` when there is no solution of at most
    ``limit`` moves but positions lay beyond the limit, ``"no solution"``
    when there is none at all.

    The textbook's tree search would meet the same position again and again
    (the same moves in another order), exponentially often.  So the search
    remembers the shallowest depth at which it has reached each position, and
    drops a node whose position it has already reached no deeper.  Every
    answer stays right: a position reached at depth d is searched (now or
    later in the pass) to depth ``limit - d``, which covers whatever a copy
    at depth d or deeper could find.  By induction on the moves left, every
    position within ``limit`` moves is reached at its true distance, so a
    solution within the limit is found.  A position first met at the limit
    may be reached shallower later and searched there after all; only if
    some position is reached at the limit and nowhere shallower is the
    answer ``"depth limit reached"``.  The price: memory for the positions
    reached, where the textbook's version keeps only the path.
    """
    problem = as_problem(problem)
    limit = _positive(limit, "limit")
    search = Tracker("depth_limited", problem, max_nodes, trace)
    return search.result(_depth_limited(problem, limit, search))


def _depth_limited(problem: Problem, limit: int, search: Tracker) -> Node | str:
    """One pass of :func:`depth_limited`: the goal node, ``CUTOFF`` or ``NO_SOLUTION``."""
    root = search.root()
    frontier = [(root, problem.key(root.state))]
    reached: dict[bytes, float] = {frontier[0][1]: 0}  # the shallowest depth of each position
    cut = []  # positions met at the limit (and not expanded there)
    while frontier and not search.out_of_nodes:
        node, s = frontier.pop()
        if reached[s] < node.depth:  # reached shallower since this node was pushed
            search.prune(node)
        elif problem.goal_test(node.state):
            return node
        elif node.depth == limit:
            search.prune(node)
            cut.append(s)
        else:
            frontier.extend(search.expand_cheaper(node, reached, lambda child: child.depth))
            search.frontier_size(len(frontier))
    return CUTOFF if any(reached[s] == limit for s in cut) else NO_SOLUTION


def iterative_deepening(
    problem: Problem | Deal | GameState,
    *,
    max_depth: int = 100,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Depth-limited search with limits 0, 1, 2, … ``max_depth``, until one
    finds a solution or proves there is none.

    Finds a shortest solution, like breadth-first search, while its frontier
    is only a depth-first stack (each pass also remembers the positions it
    reached: see :func:`depth_limited`).  It repeats the shallow passes'
    work, so its counts, which add up over all passes, exceed breadth-first
    search's.
    """
    problem = as_problem(problem)
    max_depth = _positive(max_depth, "max_depth")
    search = Tracker("iterative_deepening", problem, max_nodes, trace)
    for limit in range(max_depth + 1):
        outcome = _depth_limited(problem, limit, search)
        if outcome != CUTOFF or search.out_of_nodes:
            return search.result(outcome)
    return search.result(CUTOFF)


# -- best-first search ---------------------------------------------------------
class PriorityQueue:
    """Nodes ordered by ``f``, lowest first; among equal ``f``, by ``tie`` (lowest
    first) when given, then first in, first out."""

    def __init__(
        self, f: Callable[[Node], float], tie: Callable[[Node], float] | None = None
    ) -> None:
        self.f = f
        self.tie = tie
        self._heap: list[tuple[float, float, int, Node]] = []
        self._count = itertools.count()

    def add(self, node: Node) -> None:
        second = 0.0 if self.tie is None else self.tie(node)
        heapq.heappush(self._heap, (self.f(node), second, next(self._count), node))

    def pop(self) -> Node:
        return heapq.heappop(self._heap)[3]

    def __len__(self) -> int:
        return len(self._heap)


def best_first(
    problem: Problem | Deal | GameState,
    f: Callable[[Node], float],
    *,
    algorithm: str = "best_first",
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
    tie: Callable[[Node], float] | None = None,
) -> SearchResult:
    """Best-first graph search: always expand the frontier node with the lowest ``f``
    (among equal ``f``, the lowest ``tie``, then the first added).

    Uniform-cost, greedy best-first, A* and weighted A* are this search with
    different ``f``.  A goal is recognised when it is taken from the frontier,
    not when generated: a cheaper path to it might still be waiting.  A
    position reached again by a cheaper path goes back on the frontier; the
    old node, when its turn comes, is dropped.
    """
    problem = as_problem(problem)
    search = Tracker(algorithm, problem, max_nodes, trace, value=f)
    node = search.root()
    frontier = PriorityQueue(f, tie)
    frontier.add(node)
    reached = {problem.key(node.state): node}  # the best node for each position
    while frontier and not search.out_of_nodes:
        node = frontier.pop()
        if reached[problem.key(node.state)] is not node:  # a cheaper path came later
            search.prune(node)
            continue
        if problem.goal_test(node.state):
            return search.result(node)
        for child in search.expand(node):
            s = problem.key(child.state)
            if s not in reached or child.path_cost < reached[s].path_cost:
                reached[s] = child
                frontier.add(child)
            else:
                search.prune(child)
        search.frontier_size(len(frontier))
    return search.result(NO_SOLUTION)


def uniform_cost(
    problem: Problem | Deal | GameState,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Best-first search on the path cost g: cheapest solution.  (With every
    move costing 1 it expands nodes in breadth-first order, but tests goals
    later.)"""

    def g(node: Node) -> float:
        return node.path_cost

    return best_first(problem, g, algorithm="uniform_cost", max_nodes=max_nodes, trace=trace)


def greedy_best_first(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Best-first search on h alone: fast toward the goal, no promise of a
    short solution."""
    h = heuristic(h)

    def f(node: Node) -> float:
        return h(node.state)

    return best_first(problem, f, algorithm="greedy_best_first", max_nodes=max_nodes, trace=trace)


def astar(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """A*: best-first search on f = g + h.  Shortest solutions when ``h`` is
    admissible (never overestimates the moves still needed).

    Among nodes of equal f it expands the deepest first (the largest g: the one
    whose f rests least on the estimate h, so nearest a goal when h is good).
    Breaking those ties first in, first out instead sweeps each plateau of
    equal f breadth-first, and on Baker's Dozen, where many positions share an
    f, that expands several times the nodes for the same shortest solution.
    """
    h = heuristic(h)
    _warn_inadmissible("astar", h)

    def f(node: Node) -> float:
        return node.path_cost + h(node.state)

    return best_first(
        problem, f, algorithm="astar", max_nodes=max_nodes, trace=trace, tie=_deeper_first
    )


def _deeper_first(node: Node) -> float:
    """Ties of f toward the larger g (heapq pops the smallest key first)."""
    return -node.path_cost


def weighted_astar(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    weight: float,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Weighted A*: best-first search on f = g + weight·h, weight ≥ 1.

    Trusts h more than A* does: usually far fewer nodes; with an admissible h,
    a solution at most ``weight`` times longer than the shortest.
    """
    h = heuristic(h)
    w = _weight(weight)

    def f(node: Node) -> float:
        return node.path_cost + w * h(node.state)

    return best_first(problem, f, algorithm="weighted_astar", max_nodes=max_nodes, trace=trace)


# -- searches with little memory ------------------------------------------------
def beam(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    width: int,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Beam search: breadth-first, layer by layer, keeping only the ``width``
    children with the lowest h (ties in generation order).

    Memory and time grow only linearly with the depth, but it is incomplete:
    the dropped children may hold every solution (status ``"beam width
    reached"``).  A position generated once is never generated again.
    """
    problem = as_problem(problem)
    h = heuristic(h)
    width = _positive(width, "width")
    search = Tracker("beam", problem, max_nodes, trace, value=lambda node: h(node.state))
    node = search.root()
    if problem.goal_test(node.state):
        return search.result(node)
    layer = [node]
    reached = {problem.key(node.state)}
    dropped = False
    while layer and not search.out_of_nodes:
        children = []
        for node in layer:
            for child in search.expand(node, reached):
                if problem.goal_test(child.state):
                    return search.result(child)
                children.append(child)
        children.sort(key=lambda child: h(child.state))  # stable: ties keep their order
        for child in children[width:]:
            search.prune(child)
            dropped = True
        layer = children[:width]
        search.frontier_size(len(layer))
    return search.result(BEAM_CUT if dropped else NO_SOLUTION)


def ida_star(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Iterative-deepening A*: depth-first passes, each cut at a bound on
    f = g + h; the first bound is h of the start, each next one the lowest f
    the pass before cut.

    Shortest solutions with an admissible h, like A*: every bound is at most
    the shortest solution's length, and a goal is accepted only within the
    bound.  Like :func:`depth_limited`, each pass remembers the lowest g at
    which it reached each position and drops a node whose position it already
    reached no more cheaply; the next bound comes from the positions that were
    cut and not reached more cheaply later.
    """
    problem = as_problem(problem)
    h = heuristic(h)
    _warn_inadmissible("ida_star", h)

    def f(node: Node) -> float:
        return node.path_cost + h(node.state)

    search = Tracker("ida_star", problem, max_nodes, trace, value=f)
    bound: float = h(problem.initial)
    while not search.out_of_nodes:
        outcome = _f_limited(problem, f, bound, search)
        if isinstance(outcome, Node):
            return search.result(outcome)
        if outcome == math.inf:
            return search.result(NO_SOLUTION)
        bound = outcome
    return search.result(NO_SOLUTION)  # the result says the search was stopped


def _f_limited(
    problem: Problem, f: Callable[[Node], float], bound: float, search: Tracker
) -> Node | float:
    """One pass of IDA*: the goal node found, or the lowest f beyond ``bound``
    among the positions cut (``inf`` if none was)."""
    root = search.root()
    frontier = [(root, problem.key(root.state))]
    reached: dict[bytes, float] = {frontier[0][1]: 0}  # the lowest path cost of each position
    cut: dict[bytes, float] = {}  # positions cut by the bound, with their h
    while frontier and not search.out_of_nodes:
        node, s = frontier.pop()
        if reached[s] < node.path_cost:  # reached more cheaply since this node was pushed
            search.prune(node)
        elif f(node) > bound:
            search.prune(node)
            cut[s] = f(node) - node.path_cost
        elif problem.goal_test(node.state):
            return node
        else:
            frontier.extend(search.expand_cheaper(node, reached, lambda child: child.path_cost))
            search.frontier_size(len(frontier))
    # a cut position reached more cheaply later may have been searched after all
    beyond = [reached[s] + h_s for s, h_s in cut.items() if reached[s] + h_s > bound]
    return min(beyond, default=math.inf)


# -- by name -----------------------------------------------------------------
#: The algorithms by name (read-only), for :func:`run`.
ALGORITHMS: Mapping[str, Callable[..., SearchResult]] = MappingProxyType(
    {
        "breadth_first": breadth_first,
        "depth_first": depth_first,
        "depth_limited": depth_limited,
        "iterative_deepening": iterative_deepening,
        "uniform_cost": uniform_cost,
        "greedy_best_first": greedy_best_first,
        "astar": astar,
        "weighted_astar": weighted_astar,
        "beam": beam,
        "ida_star": ida_star,
    }
)


def run(name: str, problem: Problem | Deal | GameState, **params: object) -> SearchResult:
    """Run the algorithm called ``name`` with its parameters (``h`` may be a name).

    >>> run("beam", classroom_deal(8, deck="micro"), h="cards_not_home", width=1)
    ... # doctest: +NORMALIZE_WHITESPACE
    SearchResult(algorithm='beam', status='solved', moves=13,
                 nodes_expanded=13, nodes_generated=20, max_frontier=1)
    >>> run("a*", classroom_deal(8, deck="micro"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown algorithm 'a*'; known: breadth_first, depth_first, ..., ida_star
    """
    try:
        algorithm = ALGORITHMS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}") from None
    return algorithm(problem, **params)


# -- classroom decks -----------------------------------------------------------
#: Small decks for the classroom (read-only): Baker's Dozen rules on fewer
#: cards (Kings are the top rank).  Breadth-first search, measured on seeded
#: deals 0-199 (micro), 0-99 (tiny), 0-29 (small, medium):
#:
#: - ``micro``: A-3 in 2 columns of 6.  Trees small enough to draw (at most a
#:   few hundred nodes); about half the deals are unsolvable, a third of
#:   those without a single legal move.
#: - ``tiny``: A-3 in 3 columns of 4.  About a thousand nodes (at most 3,000),
#:   a twentieth of a second; one deal in seven unsolvable.
#: - ``small`` (the default): A-4 in 4 columns of 4.  Tens of thousands of
#:   nodes (at most about 100,000), a second or two.
#: - ``medium``: A-5 in 4 columns of 5.  Mostly tens of thousands of nodes,
#:   but some deals need more than :data:`DEFAULT_MAX_NODES`; A* with
#:   ``detours`` needs hundreds.  A third of the deals are unsolvable, some
#:   only after a search of thousands of positions.
CLASSROOM: Mapping[str, Rules] = MappingProxyType(
    {
        "micro": Rules(name="classroom_micro", ranks=3, columns=2, cards_per_column=6),
        "tiny": Rules(name="classroom_tiny", ranks=3, columns=3, cards_per_column=4),
        "small": Rules(name="classroom_small", ranks=4, columns=4, cards_per_column=4),
        "medium": Rules(name="classroom_medium", ranks=5, columns=4, cards_per_column=5),
    }
)


def classroom_deal(seed: int, deck: str = "small") -> Deal:
    """bakers_lab's seeded deal ``seed`` on a classroom deck (see :data:`CLASSROOM`).

    >>> print(classroom_deal(1, deck="tiny").to_text())
    2S AD 2D AC
    3D 3H AH 2C
    3C 3S 2H AS
    <BLANKLINE>
    >>> classroom_deal(1, deck="huge")
    Traceback (most recent call last):
    ...
    ValueError: unknown deck 'huge'; known: micro, tiny, small, medium
    """
    try:
        rules = CLASSROOM[deck]
    except (KeyError, TypeError):
        raise ValueError(f"unknown deck {deck!r}; known: {', '.join(CLASSROOM)}") from None
    return seeded_deal(seed, variant=rules)


# -- comparisons ------------------------------------------------------------------
#: An algorithm for :func:`compare` and :func:`step_up`: a name of
#: :data:`ALGORITHMS`, or a name with its parameters, like ``("astar", {"h": "detours"})``.
AlgorithmSpec = str | tuple[str, Mapping[str, object]]

#: The algorithms :func:`compare` runs unless told otherwise: the uninformed
#: searches, then the informed ones, each with the parameters of the pinned
#: node-count tests.
LINEUP: tuple[AlgorithmSpec, ...] = (
    "breadth_first",
    "depth_first",
    "iterative_deepening",
    "uniform_cost",
    ("greedy_best_first", {"h": "burial"}),
    ("astar", {"h": "cards_not_home"}),
    ("astar", {"h": "detours"}),
    ("weighted_astar", {"h": "burial", "weight": 2}),
    ("beam", {"h": "burial", "width": 3}),
    ("ida_star", {"h": "detours"}),
)

#: The heuristics that never overestimate (see :mod:`.heuristics`): A* and
#: IDA* with one of them return shortest solutions.
ADMISSIBLE: Mapping[str, Heuristic] = MappingProxyType(
    {name: HEURISTICS[name] for name in ("zero", "cards_not_home", "detours")}
)

#: The columns of :func:`compare`'s table, in order.
COMPARE_COLUMNS = (
    "deal",
    "deck",
    "algorithm",
    "solved",
    "status",
    "length",
    "nodes_expanded",
    "nodes_generated",
    "max_frontier",
    "seconds",
    "optimal",
    "extra",
)


@dataclass(frozen=True)
class _Entry:
    """One algorithm of a comparison: its name, parameters and label."""

    name: str
    params: Mapping[str, object]
    label: str

    @property
    def promises_shortest(self) -> bool:
        """Whether its solutions are shortest ones: breadth-first, uniform-cost
        and iterative deepening search; A*, IDA* and weighted A* with weight 1
        with an admissible heuristic."""
        if self.name in ("breadth_first", "uniform_cost", "iterative_deepening"):
            return True
        admissible = _admissible(self.params.get("h"))
        if self.name in ("astar", "ida_star"):
            return admissible
        return self.name == "weighted_astar" and admissible and self.params.get("weight") == 1

    def budget(self, max_nodes: int) -> int:
        """The node budget: its own ``max_nodes`` parameter, else ``max_nodes``."""
        return as_int(self.params.get("max_nodes", max_nodes), "max_nodes", low=1)

    def run(self, position: Deal, max_nodes: int) -> SearchResult:
        params = {**self.params, "max_nodes": self.budget(max_nodes)}
        return run(self.name, position, **params)


def _admissible(h: object) -> bool:
    """Whether ``h`` (a heuristic or its name) is one that never overestimates."""
    return (isinstance(h, str) and h in ADMISSIBLE) or any(h is f for f in ADMISSIBLE.values())


def _warn_inadmissible(algorithm: str, h: Heuristic) -> None:
    """A word when an algorithm that promises shortest solutions gets a heuristic
    that may overestimate: the promise no longer holds."""
    if not _admissible(h):
        warnings.warn(
            f"{algorithm} with the heuristic {_show(h)!r}, which may overestimate the moves "
            f"still needed: the solution it finds need not be a shortest one (the admissible "
            f"heuristics: {', '.join(ADMISSIBLE)})",
            stacklevel=3,
        )


def _show(value: object) -> str:
    return getattr(value, "__name__", None) or str(value)


def _entries(algorithms: object) -> list[_Entry]:
    """The algorithms of a comparison, checked: known names, parameters that fit
    their function, labels that tell them apart."""
    if isinstance(algorithms, str) or not isinstance(algorithms, Iterable):
        raise ValueError(
            f"algorithms must be a list of names or (name, parameters) pairs, like "
            f"['breadth_first', ('astar', {{'h': 'detours'}})], not {describe(algorithms)}"
        )
    entries = []
    for spec in algorithms:
        if isinstance(spec, str):
            name, params = spec, {}
        elif (
            isinstance(spec, tuple)
            and len(spec) == 2
            and isinstance(spec[0], str)
            and isinstance(spec[1], Mapping)
        ):
            name, params = spec[0], dict(spec[1])
        else:
            raise ValueError(
                f"an algorithm is a name or a (name, parameters) pair, like "
                f"('astar', {{'h': 'detours'}}), not {describe(spec)}"
            )
        if name not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
        try:
            inspect.signature(ALGORITHMS[name]).bind(None, **params)
        except TypeError as exc:
            raise ValueError(
                f"{name} cannot take the parameters {params!r}: {exc}; give them as "
                f"('{name}', {{...}}), like ('astar', {{'h': 'detours'}})"
            ) from None
        shown = [
            (_show(v) if _admissible(v) else f"{_show(v)}, inadmissible")
            if k == "h"
            else f"{k}={_show(v)}"
            for k, v in params.items()
        ]
        label = f"{name} ({', '.join(shown)})" if shown else name
        entries.append(_Entry(name, MappingProxyType(params), label))
    if not entries:
        raise ValueError("algorithms is empty; give at least one")
    labels = [e.label for e in entries]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise ValueError(f"each algorithm may appear once; twice: {', '.join(twice)}")
    return entries


def deck_name(rules: Rules) -> str:
    """The name of a classroom deck (``"tiny"``), else the rules' name."""
    for name, deck in CLASSROOM.items():
        if deck == rules:
            return name
    return rules.name


def _deals(deals: object, deck: str) -> list[tuple[int, Deal]]:
    """(label, deal) pairs: an int is a seed of ``deck``; a Deal is labelled by its
    seed or game number (by its place in the list when it has neither)."""
    if isinstance(deals, Deal | int) or not isinstance(deals, Iterable):
        raise ValueError(
            f"deals must be a list of seeds or Deals, like range(30), not {describe(deals)}"
        )
    out = []
    for i, item in enumerate(deals):
        if isinstance(item, Deal):
            number = item.seed if item.seed is not None else item.number
            out.append((i if number is None else number, item))
        else:
            seed = as_int(item, "a seed in deals", low=0)
            out.append((seed, classroom_deal(seed, deck)))
    if not out:
        raise ValueError("deals is empty; give at least one seed or Deal")
    return out


def compare(
    deals: Iterable[int | Deal],
    algorithms: Iterable[AlgorithmSpec] = LINEUP,
    *,
    deck: str = "small",
    max_nodes: int = DEFAULT_MAX_NODES,
) -> pd.DataFrame:
    """Run each of ``algorithms`` on each of ``deals``: one row per (deal, algorithm).

    ``deals``: seeds of classroom deals of ``deck`` (like ``range(30)``) or
    :class:`Deal` objects; ``algorithms``: names or (name, parameters) pairs
    (default :data:`LINEUP`); ``max_nodes``: each search's budget (an
    algorithm's own ``max_nodes`` parameter wins).

    Columns (:data:`COMPARE_COLUMNS`): ``deal`` (the seed, or the game
    number), ``deck`` (see :func:`deck_name`), ``algorithm`` (a label such as
    ``astar (detours)``; a categorical in the order given), ``solved``,
    ``status``, ``length`` (moves; NaN unless solved), the three node counts,
    ``seconds`` and ``optimal``: whether the solution is as short as the
    shortest that an algorithm promising shortest solutions found on that deal
    (breadth-first, uniform-cost and iterative deepening search, A* and IDA*
    with an admissible heuristic).  ``optimal`` is missing (``pd.NA``) where
    the row is not solved or no such algorithm solved the deal; ``extra`` is
    how many moves longer than that shortest solution it is (0 when optimal):
    what an inadmissible heuristic costs.

    >>> t = compare([0], ["breadth_first", ("greedy_best_first", {"h": "burial"})], deck="tiny")
    >>> t[["algorithm", "length", "nodes_expanded", "optimal"]]
                                      algorithm  length  nodes_expanded  optimal
    0                             breadth_first    13.0             124     True
    1  greedy_best_first (burial, inadmissible)    13.0              13     True
    """
    entries = _entries(algorithms)
    max_nodes = as_int(max_nodes, "max_nodes", low=1)
    rows = []
    for label, position in _deals(deals, deck):
        results = [(e, e.run(position, max_nodes)) for e in entries]
        lengths = [len(r.solution) for e, r in results if e.promises_shortest and r.solution]
        shortest = min(lengths, default=None)
        for e, r in results:
            length = len(r.solution) if r.solution is not None else None
            rows.append(
                {
                    "deal": label,
                    "deck": deck_name(position.rules),
                    "algorithm": e.label,
                    "solved": r.solved,
                    "status": r.status,
                    "length": math.nan if length is None else float(length),
                    "nodes_expanded": r.nodes_expanded,
                    "nodes_generated": r.nodes_generated,
                    "max_frontier": r.max_frontier,
                    "seconds": r.seconds,
                    "optimal": pd.NA if None in (length, shortest) else length == shortest,
                    "extra": (pd.NA if length is None or shortest is None else length - shortest),
                }
            )
    table = pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))
    table["algorithm"] = pd.Categorical(table["algorithm"], categories=[e.label for e in entries])
    table["optimal"] = table["optimal"].astype("boolean")
    table["extra"] = table["extra"].astype("Int64")
    return table


def summarize(table: pd.DataFrame) -> pd.DataFrame:
    """One row per algorithm of a :func:`compare` table, in its order.

    Columns: ``algorithm``; ``deals``; ``solved`` and ``share_solved`` (of the
    deals); ``optimal`` and ``share_optimal`` (of the solutions whose
    optimality is known: see :func:`compare`; NaN when none is);
    ``median_length`` (moves, of the solutions); the medians of the node
    counts and of ``seconds`` over all deals.
    """
    missing = [c for c in COMPARE_COLUMNS if c not in getattr(table, "columns", ())]
    if missing:
        raise ValueError(
            f"table must be a table of compare(); this one has no {', '.join(missing)}"
        )
    rows = []
    for algorithm, g in table.groupby("algorithm", observed=True, sort=True):
        known = g["optimal"].dropna()
        rows.append(
            {
                "algorithm": str(algorithm),
                "deals": len(g),
                "solved": int(g["solved"].sum()),
                "share_solved": float(g["solved"].mean()),
                "optimal": int(known.sum()),
                "share_optimal": float(known.mean()) if len(known) else math.nan,
                "median_length": float(g["length"].median()),
                "median_nodes_expanded": float(g["nodes_expanded"].median()),
                "median_nodes_generated": float(g["nodes_generated"].median()),
                "median_max_frontier": float(g["max_frontier"].median()),
                "median_seconds": float(g["seconds"].median()),
            }
        )
    return pd.DataFrame(rows)


#: The searches :func:`step_up` gives a full deal unless told otherwise.
STEP_UP: tuple[AlgorithmSpec, ...] = (
    ("astar", {"h": "detours"}),
    ("greedy_best_first", {"h": "burial"}),
)


def step_up(
    game: int | Deal = 1,
    algorithms: Iterable[AlgorithmSpec] = STEP_UP,
    *,
    variant: str | Rules = "bakers_dozen",
    max_nodes: int = DEFAULT_MAX_NODES,
) -> pd.DataFrame:
    """The step up to full deals: the same deal given to teaching searches
    (each within ``max_nodes`` nodes) and to the fast solver :func:`bakers_lab.solve`
    (within its own default budget), side by side.

    ``game`` is a PySolFC game number of ``variant`` or a :class:`Deal`.  One
    row per search, the fast solver last.  Columns: ``search``, ``status``
    (the solver's outcome: ``solved``, ``unsolvable``, ``unresolved``),
    ``solved``, ``length`` (moves, every move counted; NaN unless solved),
    ``nodes`` (generated: the solver's ``nodes`` count the same), ``budget``
    (the node budget) and ``seconds``.  The solver is called once with a
    budget of one node before it is timed, so that the compilation it does on
    its first call in a session is not counted.
    """
    entries = _entries(algorithms)
    max_nodes = as_int(max_nodes, "max_nodes", low=1)
    if isinstance(game, Deal):
        position = game
    else:
        position = pysolfc_deal(as_int(game, "game", low=1), variant)
    rows = []
    for e in entries:
        r = e.run(position, max_nodes)
        rows.append(
            {
                "search": e.label,
                "status": r.status,
                "solved": r.solved,
                "length": float(len(r.solution)) if r.solution is not None else math.nan,
                "nodes": r.nodes_generated,
                "budget": e.budget(max_nodes),
                "seconds": r.seconds,
            }
        )
    fast_solve(position, max_nodes=1)  # compiles (or loads) the solver: not timed
    s = fast_solve(position)
    rows.append(
        {
            "search": "bl.solve (the fast solver)",
            "status": s.outcome,
            "solved": s.outcome == "solved",
            "length": float(len(s.moves)) if s.outcome == "solved" else math.nan,
            "nodes": s.nodes,
            "budget": FAST_MAX_NODES,
            "seconds": s.seconds,
        }
    )
    return pd.DataFrame(rows)
