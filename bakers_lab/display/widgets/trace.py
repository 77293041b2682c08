"""Step through a teaching search's trace: :class:`TraceModel` knows the counts and
positions after each event, :class:`TraceViewer` shows them with charts."""

from __future__ import annotations

import io
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from bakers_lab.display.widgets._common import StillView, make_button
from bakers_lab.display.widgets.stepper import Stepped, Stepper
from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.render import board_html
from bakers_lab.solve.search import Event, Problem, SearchResult, as_problem
from bakers_lab.utils.validate import as_int, describe

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["TraceModel", "TraceViewer"]

# -- what a trace viewer knows ----------------------------------------------------
#: What a play-through of a trace stops at (:meth:`TraceModel.stops`), in words.
PLAY_UNITS = {"event": "every event", "expansion": "each expansion", "depth": "each new depth"}
#: What each teaching search orders its nodes by (the ``value`` of its events).
_VALUE_NAMES = {
    "breadth_first": "g",
    "depth_first": "g",
    "depth_limited": "g",
    "iterative_deepening": "g",
    "uniform_cost": "g",
    "greedy_best_first": "h",
    "beam": "h",
    "best_first": "f",
    "astar": "f",
    "weighted_astar": "f",
    "ida_star": "f",
}


class TraceModel:
    """A search's trace, event by event: the counts after each event, the text
    of each step, and the position of each node.

    ``source`` is a :class:`~bakers_lab.solve.search.SearchResult` of a search
    run with ``trace=True`` (its problem is the game from ``result.start``
    unless ``problem`` is given: pass it for a :class:`Problem` of your own),
    or a list of :class:`~bakers_lab.solve.search.Event` (then ``problem``, a
    Problem, Deal or GameState, is needed).  Step ``k`` (1 … ``n``) is the
    trace after its ``k``-th event.

    A node's position is rebuilt by replaying the moves on its path from the
    problem's initial state (its ancestors' ids are in the trace), and kept,
    so each position is made once.
    """

    def __init__(
        self,
        source: SearchResult | Sequence[Event],
        problem: Problem | Deal | GameState | None = None,
    ) -> None:
        if isinstance(source, SearchResult):
            self.result: SearchResult | None = source
            events = source.trace
        else:
            self.result = None
            events = tuple(source)
        if problem is None:
            if self.result is None:
                raise ValueError(
                    "a list of Events needs problem=: the Problem, Deal or GameState "
                    "the search started from"
                )
            if self.result.start is None:
                raise ValueError("this result does not say where it started: pass problem=")
            problem = self.result.start
        self.problem = as_problem(problem)
        #: The trace with its counts (:func:`bakers_lab.display.plots.trace_table`).
        from bakers_lab.display import plots  # matplotlib, when a trace is first shown

        self.table = plots.trace_table(source if self.result is not None else events)
        self.events: tuple[Event, ...] = events
        self.n = len(self.events)
        self.algorithm = self.result.algorithm if self.result is not None else ""
        self.value_name = _VALUE_NAMES.get(self.algorithm, "value")
        self._born = {e.node_id: e for e in self.events if e.kind == "generate"}
        first = self.events[0]
        if first.kind != "generate" or first.parent_id is not None:
            raise ValueError(f"a trace starts by generating its root, not with {first}")
        self.passes = int(self.table["search_pass"].iloc[-1])
        self._states: dict[int, GameState] = {}
        self._columns = {
            name: self.table[name].to_numpy()
            for name in ("expanded", "generated", "frontier", "search_pass")
        }
        child = next((e for e in self.events if e.parent_id is not None), None)
        if child is not None:  # a trace of another problem fails here rather than later
            self._state(child.node_id)

    def _step(self, k: int) -> int:
        return as_int(k, "step", low=1, high=self.n)

    def event(self, k: int) -> Event:
        """The ``k``-th event (1 … ``n``)."""
        return self.events[self._step(k) - 1]

    def next_expansion(self, k: int) -> int:
        """The step of the first expansion (or the goal) after step ``k``; ``n`` if none."""
        k = self._step(k)
        return next(
            (j for j in range(k + 1, self.n + 1) if self.events[j - 1].kind in ("expand", "goal")),
            self.n,
        )

    def stops(self, unit: str = "event") -> list[int]:
        """The steps a play-through stops at, by ``unit``: ``"event"`` (every
        step), ``"expansion"`` (each node expanded, and the goal) or ``"depth"``
        (each step where the search first reaches a new depth), always ending at
        the last step: a breadth-first trace of thousands of events plays in a
        dozen stops by depth.

        >>> from bakers_lab.solve import search
        >>> m = TraceModel(search.breadth_first(search.classroom_deal(3, "micro"), trace=True))
        >>> m.stops("depth")[-1] == m.n and len(m.stops("depth")) < len(m.stops("expansion"))
        True
        """
        if not isinstance(unit, str) or unit not in PLAY_UNITS:
            raise ValueError(f"unit must be one of {', '.join(PLAY_UNITS)}, not {describe(unit)}")
        if unit == "event":
            return list(range(1, self.n + 1))
        if unit == "expansion":
            steps = [k for k, e in enumerate(self.events, 1) if e.kind in ("expand", "goal")]
        else:
            steps, deepest = [], -1
            for k, e in enumerate(self.events, 1):
                if e.depth > deepest:
                    steps.append(k)
                    deepest = e.depth
        if not steps or steps[-1] != self.n:
            steps.append(self.n)
        return steps

    def frontier(self, k: int, limit: int = 8) -> list[tuple[int, int, float]]:
        """The nodes waiting on the frontier after step ``k`` (generated, not yet
        expanded or dropped): (node, depth g, ordering value), lowest value first
        (ties: the deeper first, as A* takes them), at most ``limit``."""
        k = self._step(k)
        waiting: dict[int, Event] = {}
        for e in self.events[:k]:
            if e.kind == "generate":
                waiting[e.node_id] = e
            else:
                waiting.pop(e.node_id, None)
        ordered = sorted(waiting.values(), key=lambda e: (e.f_or_g_value, -e.depth, e.node_id))
        return [(e.node_id, e.depth, e.f_or_g_value) for e in ordered[:limit]]

    def frontier_text(self, k: int, limit: int = 8) -> str:
        """The frontier after step ``k`` in words, with g, h and f where the search
        orders by f = g + h: ``node 5 (g 3, h 10, f 13)``."""
        waiting = self.frontier(k, limit)
        total = self.counts(k)[2]
        if not waiting:
            return "frontier: empty"
        if self.value_name == "f" and self.algorithm == "astar":
            items = [f"node {n} (g {g}, h {v - g:g}, f {v:g})" for n, g, v in waiting]
        elif self.value_name == "g":
            items = [f"node {n} (g {g})" for n, g, _ in waiting]
        else:
            items = [f"node {n} (g {g}, {self.value_name} {v:g})" for n, g, v in waiting]
        more = f" … and {total - len(waiting)} more" if total > len(waiting) else ""
        return f"frontier, lowest {self.value_name} first: {'; '.join(items)}{more}"

    def counts(self, k: int) -> tuple[int, int, int]:
        """(expanded, generated, frontier) after ``k`` events."""
        i = self._step(k) - 1
        columns = self._columns
        return (
            int(columns["expanded"][i]),
            int(columns["generated"][i]),
            int(columns["frontier"][i]),
        )

    def line(self, k: int) -> str:
        """What step ``k`` shows: ``event 37 of 412: expand node 12 at depth 3
        (f = 14); frontier 9; expanded 12, generated 30``; at the last event
        followed by how the search ended."""
        k = self._step(k)
        e = self.events[k - 1]
        expanded, generated, frontier = self.counts(k)
        what = {"generate": "generate", "expand": "expand", "prune": "prune", "goal": "goal:"}
        search_pass = int(self._columns["search_pass"][k - 1])
        if e.kind == "generate" and e.parent_id is None:
            root = f"the root of pass {search_pass}" if self.passes > 1 else "the root"
            text = f"generate {root}, node {e.node_id}, at depth {e.depth}"
        else:
            text = f"{what[e.kind]} node {e.node_id} at depth {e.depth}"
        if e.kind == "generate" and e.parent_id is not None:
            text += f" by {e.move_text}"
        text += f" ({self.value_name} = {e.f_or_g_value:g})"
        where = f" (pass {search_pass})" if self.passes > 1 else ""
        line = (
            f"event {k} of {self.n}{where}: {text}; frontier {frontier}; "
            f"expanded {expanded}, generated {generated}"
        )
        if k == self.n:
            line += f" — {self.outcome}"
        return line

    @property
    def outcome(self) -> str:
        """How the search ended, in words."""
        r = self.result
        if r is not None and r.solution is not None:
            n = len(r.solution)
            return f"solved: a solution of {n} move{'' if n == 1 else 's'}"
        if r is not None:
            return r.status
        return "goal reached" if self.events[-1].kind == "goal" else "end of the trace"

    def state(self, node_id: int) -> GameState:
        """The position of node ``node_id`` (a new GameState)."""
        return self._state(node_id).copy()

    def _state(self, node_id: int) -> GameState:
        if node_id not in self._born:
            raise ValueError(f"node {node_id} is not generated in this trace")
        path = []
        node: int | None = node_id
        while node is not None and node not in self._states:
            path.append(node)
            node = self._born[node].parent_id
        state = self.problem.initial if node is None else self._states[node]
        for node in reversed(path):
            e = self._born[node]
            if e.parent_id is not None:
                move = next((m for m in self.problem.actions(state) if str(m) == e.move_text), None)
                if move is None:
                    raise ValueError(
                        f"node {node}'s move {e.move_text} is not legal in its parent's position: "
                        f"is this a trace of a search of this problem?"
                    )
                state = self.problem.result(state, move)
            self._states[node] = state
        return self._states[node_id]

    def title(self, k: int) -> str:
        """The picture's title at event ``k``: ``classroom_tiny seed 0: node 39 at
        depth 8, after 2H>F``."""
        e = self.event(k)
        start = self.problem.initial
        d = start.deal
        if d is None:
            name = start.rules.name
        elif d.number is not None:
            name = f"{d.rules.name} #{d.number}"
        elif d.seed is not None:
            name = f"{d.rules.name} seed {d.seed}"
        else:
            name = d.rules.name
        after = f", after {e.move_text}" if e.parent_id is not None else " (the start)"
        return f"{name}: node {e.node_id} at depth {e.depth}{after}"

    def html(self, k: int, *, layout: str = "row") -> str:
        """The picture of the node of event ``k``, the card that moved last outlined."""
        e = self.event(k)
        state = self._state(e.node_id)
        moved = Move.parse(e.move_text).card if e.parent_id is not None else None
        return board_html(
            state.columns,
            state.foundations,
            title=self.title(k),
            layout=layout,
            highlight=() if moved is None else moved,
        )

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        name = self.algorithm or "search"
        return f"<TraceModel of {name}: {self.n} events; {self.outcome}>"


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


class TraceViewer(StillView, Stepped, widgets.VBox):
    """Step through a search's trace event by event: the board of the event's
    node, the counts so far, the frontier's size over time and the tree
    explored so far.

    ``source`` and ``problem`` are what :class:`TraceModel` takes;
    ``layout`` is the board picture's layout; ``tree_nodes`` how many nodes the
    tree drawing holds at most (the first generated).  The step controls are
    a :class:`~.stepper.Stepper` (``stepper``, the one every replay uses), on
    top, where the pictures and the words cannot push them: the slider's
    value is the event; ``play`` (the browser's timer) moves it on, the
    buttons set it.  Controls: ``first``, ``back``, ``play_pause`` (pausing
    keeps the event), ``next``, ``last``, ``expansion`` (to the next node
    expanded), ``goal`` (to the end), ``play`` (its value counts stops),
    ``speed`` (ms per stop), ``stops`` (what play stops at: every event, each
    expansion or each new depth, :meth:`TraceModel.stops`), ``slider``,
    ``line`` (the event and the counts in words), ``waiting`` (the frontier's
    first nodes), ``board`` (the picture), ``frontier`` and ``tree`` (PNG images of
    :func:`~bakers_lab.display.plots.frontier_chart` and
    :func:`~bakers_lab.display.plots.search_tree_chart`).
    """

    def __init__(
        self,
        source: SearchResult | Sequence[Event],
        problem: Problem | Deal | GameState | None = None,
        *,
        layout: str = "row",
        tree_nodes: int = 200,
    ) -> None:
        self.model = model = TraceModel(source, problem)
        self._layout = layout
        self.tree_nodes = as_int(tree_nodes, "tree_nodes", low=1)
        n = model.n
        self.board = widgets.HTML(model.html(1, layout=layout))  # checks the layout
        self.line = widgets.HTML()
        self.expansion = make_button("next expansion", "forward", "on to the next node expanded")
        self.goal = make_button("to the goal", "flag-checkered", "to the end of the search")
        self.waiting = widgets.HTML()  # the frontier's first nodes, with g, h and f
        self.stops = widgets.ToggleButtons(
            options=[(words, unit) for unit, words in PLAY_UNITS.items()],
            value="event",
            description="play stops at",
            style={"description_width": "initial", "button_width": "auto"},
        )
        # the value changes when the slider is let go: each step draws two charts
        stepper = Stepper(
            1, n, noun="event", interval=600, speeds=(200, 3000, 100), speed_label="ms/stop",
            continuous_update=False, more=(self.expansion, self.goal), settings=(self.stops,),
        )  # fmt: skip
        self._follow(stepper, self._draw)
        self.frontier = widgets.Image(format="png")
        self.tree = widgets.Image(format="png")
        self.stops.observe(lambda change: self.stepper.stop_at(model.stops(change["new"])), "value")
        self.expansion.on_click(lambda _: self._go(model.next_expansion(self.step)))
        self.goal.on_click(lambda _: self._go(n))
        charts = widgets.HBox(  # the pictures keep their own heights
            [self.frontier, self.tree],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        # the controls on top, where the picture and the words cannot push them
        super().__init__([self.stepper, self.line, self.waiting, self.board, charts])
        self.add_class("bl-trace")
        self.line.add_class("bl-trace-line")
        self._draw(1)

    def _go(self, k: int) -> None:
        self.play.playing = False  # a step button takes over from play
        self.stepper.go(k)

    def _draw(self, k: int) -> None:
        from bakers_lab.display import plots  # (imported by the model already)

        m = self.model
        self.board.value = m.html(k, layout=self._layout)
        self.line.value = m.line(k)
        self.waiting.value = escape(m.frontier_text(k))
        self.frontier.value = _png(plots.frontier_chart(m.table, upto=k))
        self.tree.value = _png(plots.search_tree_chart(m.table, upto=k, limit=self.tree_nodes))
        self.expansion.disabled = self.goal.disabled = k == m.n
