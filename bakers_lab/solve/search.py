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
16
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
out, so node counts are the same on every run and every machine.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ..deals import Deal, seeded_deal
from ..game import GameState
from ..moves import Move
from ..rules import Rules
from ..validate import as_bool, as_int, describe, is_bool
from .heuristics import HEURISTICS, Heuristic, heuristic

__all__ = [
    "ALGORITHMS",
    "CLASSROOM",
    "DEFAULT_MAX_NODES",
    "HEURISTICS",
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
    "depth_first",
    "depth_limited",
    "greedy_best_first",
    "ida_star",
    "iterative_deepening",
    "run",
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
    node they expand, :meth:`prune` for each node they drop, report their
    frontier's size with :meth:`frontier_size`, and end with :meth:`result`.
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

    def expand(self, node: Node) -> Iterator[Node]:
        """Expand ``node``: its children, one per action, until the budget runs out."""
        self.nodes_expanded += 1
        self._record("expand", node)
        for move in self.problem.actions(node.state):
            if not self._may_generate():
                return
            child = node.child(self.problem, move, id=self.nodes_generated)
            self.nodes_generated += 1
            self._record("generate", child)
            yield child

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
            status = f"stopped after {self.nodes_generated} nodes"
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
        for child in search.expand(node):
            s = problem.key(child.state)
            if s in reached:
                search.prune(child)
            elif problem.goal_test(child.state):
                return search.result(child)
            else:
                reached.add(s)
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
        for child in search.expand(node):
            s = problem.key(child.state)
            if s in reached:
                search.prune(child)
            else:
                reached.add(s)
                frontier.append(child)
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
    reached = {frontier[0][1]: 0}  # the shallowest depth each position was reached at
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
            for child in search.expand(node):
                k = problem.key(child.state)
                if reached.get(k, math.inf) <= child.depth:
                    search.prune(child)
                else:
                    reached[k] = child.depth
                    frontier.append((child, k))
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
    """Nodes ordered by ``f``, lowest first; ties first in, first out."""

    def __init__(self, f: Callable[[Node], float]) -> None:
        self.f = f
        self._heap: list[tuple[float, int, Node]] = []
        self._count = itertools.count()

    def add(self, node: Node) -> None:
        heapq.heappush(self._heap, (self.f(node), next(self._count), node))

    def pop(self) -> Node:
        return heapq.heappop(self._heap)[2]

    def __len__(self) -> int:
        return len(self._heap)


def best_first(
    problem: Problem | Deal | GameState,
    f: Callable[[Node], float],
    *,
    algorithm: str = "best_first",
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """Best-first graph search: always expand the frontier node with the lowest ``f``.

    Uniform-cost, greedy best-first, A* and weighted A* are this search with
    different ``f``.  A goal is recognised when it is taken from the frontier,
    not when generated: a cheaper path to it might still be waiting.  A
    position reached again by a cheaper path goes back on the frontier; the
    old node, when its turn comes, is dropped.
    """
    problem = as_problem(problem)
    search = Tracker(algorithm, problem, max_nodes, trace, value=f)
    node = search.root()
    frontier = PriorityQueue(f)
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
    return best_first(
        problem,
        lambda node: node.path_cost,
        algorithm="uniform_cost",
        max_nodes=max_nodes,
        trace=trace,
    )


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
    return best_first(
        problem,
        lambda node: h(node.state),
        algorithm="greedy_best_first",
        max_nodes=max_nodes,
        trace=trace,
    )


def astar(
    problem: Problem | Deal | GameState,
    h: Heuristic | str,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    trace: bool = False,
) -> SearchResult:
    """A*: best-first search on f = g + h.  Shortest solutions when ``h`` is
    admissible (never overestimates the moves still needed)."""
    h = heuristic(h)
    return best_first(
        problem,
        lambda node: node.path_cost + h(node.state),
        algorithm="astar",
        max_nodes=max_nodes,
        trace=trace,
    )


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
    return best_first(
        problem,
        lambda node: node.path_cost + w * h(node.state),
        algorithm="weighted_astar",
        max_nodes=max_nodes,
        trace=trace,
    )


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
            for child in search.expand(node):
                s = problem.key(child.state)
                if s in reached:
                    search.prune(child)
                elif problem.goal_test(child.state):
                    return search.result(child)
                else:
                    reached.add(s)
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
    reached = {frontier[0][1]: 0}  # the lowest path cost each position was reached at
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
            for child in search.expand(node):
                k = problem.key(child.state)
                if reached.get(k, math.inf) <= child.path_cost:
                    search.prune(child)
                else:
                    reached[k] = child.path_cost
                    frontier.append((child, k))
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
