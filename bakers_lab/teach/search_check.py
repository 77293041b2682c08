"""``check_search``: run a student's search on unseen deals and judge it.

**What a student writes.**  A search is a function of a
:class:`~bakers_lab.solve.search.Problem` (and, for an informed search, of a
heuristic ``h(state) -> int`` too), with the signature of the reference
functions of :mod:`bakers_lab.solve.search`::

    def breadth_first(problem):            # uninformed: fn(problem)
        ...
        return node                        # the goal Node, or None: no solution
    def astar(problem, h):                 # informed: fn(problem, h)
        ...

It returns the goal :class:`~bakers_lab.solve.search.Node` it found (its
``solution()`` is the line), or ``None`` when the deal cannot be won.  A list of
moves, or a :class:`~bakers_lab.solve.search.SearchResult` (what the reference
functions return), is taken as well.  It must reach positions through the
problem (``problem.actions``, ``problem.result``, or ``node.expand(problem)``):
that is how the check counts what it does.

**What is checked** (one point each, those its promise makes): the search
returns within the time limit and the node budget; every line it returns is
legal (replayed by the rule engine) and wins; it says "no solution" only where
the reference proves there is none; the line is a shortest one; no position is
expanded twice; a winning position is recognised when it is generated; it
expands at most ``factor`` times the positions the reference expands.  Each is
judged on every deal of :data:`~bakers_lab.teach.cases.SEARCH_CASES`, smallest
first; a run that overstays its time limit or memory ends the check there.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move, MoveError
from bakers_lab.solve import search as ref
from bakers_lab.solve.heuristics import Heuristic, burial, detours
from bakers_lab.teach.cases import DECKS, SEARCH_CASES, Case, flicker
from bakers_lab.teach.recorder import OutOfNodes, RecordingProblem, SearchStats
from bakers_lab.teach.replay import replay
from bakers_lab.teach.results import Check, Failure, SearchReport
from bakers_lab.teach.sandbox import (
    MEMORY_MB,
    Died,
    OutOfMemory,
    OutOfTime,
    Raised,
    Returned,
    Unreadable,
    said,
    start_limited,
    stopped,
)
from bakers_lab.utils.validate import as_int, as_number, describe, shown

__all__ = ["PROMISES", "Promise", "ReferenceRun", "ReferenceRuns", "check_search", "textbook_astar"]


@dataclass(frozen=True)
class Promise:
    """What a search promises, and the reference it is judged against.

    ``reference``: the function of :mod:`bakers_lab.solve.search` it is measured
    against; ``heuristics``: for an informed search, the heuristics it is run with,
    each ``(name, h, consistent)`` (``()``: uninformed, called ``fn(problem)``);
    ``shortest``: its lines are shortest ones; ``expands_once``: it expands no
    position twice (under a consistent heuristic); ``goal_when_generated``: it
    recognises a win when the winning position is generated; ``queue``: its
    frontier is first in, first out (for the diagnosis); ``factor``: it may expand
    at most this many times the positions the reference expands (``None``: not
    checked); ``budget``: the node budget of a run, in multiples of the nodes
    breadth-first search generates on the deal; ``decks``: the decks of the
    cases it is run on.
    """

    name: str
    reference: Callable[..., ref.SearchResult]
    heuristics: tuple[tuple[str, Heuristic, bool], ...] = ()
    shortest: bool = False
    expands_once: bool = False
    goal_when_generated: bool = False
    queue: bool = False
    factor: float | None = None
    budget: int = 10
    decks: tuple[str, ...] = DECKS


_INFORMED = (("detours", detours, True), ("flicker", flicker, False))


def textbook_astar(problem: ref.Problem, h: Heuristic) -> ref.SearchResult:
    """A* as the textbook writes it: :func:`~bakers_lab.solve.search.best_first` on
    f = g + h, ties first in, first out.  The reference of the ``astar`` promise:
    :func:`~bakers_lab.solve.search.astar` breaks ties toward the deeper node and
    expands several times fewer positions; a student's A* need not."""
    return ref.best_first(problem, lambda node: node.path_cost + h(node.state), algorithm="astar")


#: The promises by name (read-only): ``check_search(fn, promise="astar")``.
PROMISES: Mapping[str, Promise] = MappingProxyType(
    {
        "breadth_first": Promise(
            "breadth_first",
            ref.breadth_first,
            shortest=True,
            expands_once=True,
            goal_when_generated=True,
            queue=True,
            factor=2,
        ),
        "depth_first": Promise("depth_first", ref.depth_first, expands_once=True),
        "iterative_deepening": Promise(
            "iterative_deepening",
            ref.iterative_deepening,
            shortest=True,
            factor=3,
            budget=40,
            decks=("micro", "tiny"),  # the passes on small deals take a minute
        ),
        "uniform_cost": Promise(
            "uniform_cost",
            ref.uniform_cost,
            shortest=True,
            expands_once=True,
            queue=True,
            factor=2,
        ),
        "greedy_best_first": Promise(
            "greedy_best_first", ref.greedy_best_first, (("burial", burial, False),)
        ),
        "astar": Promise(
            "astar", textbook_astar, _INFORMED, shortest=True, expands_once=True, factor=3
        ),
        "ida_star": Promise(
            "ida_star", ref.ida_star, _INFORMED, shortest=True, factor=4, budget=40
        ),
    }
)

#: After this many runs that crash or overrun the node budget the check stops.
_BROKEN = 3

#: The checks in the order a report lists them: (name, title).
CHECKS = (
    ("returns", "returns within the time limit and the node budget"),
    ("legal", "every line it returns is legal and wins"),
    ("gives_up", 'says "no solution" only where there is none'),
    ("shortest", "returns a shortest line"),
    ("once", "expands no position twice"),
    ("goal", "recognises a win as soon as it is generated"),
    ("efficient", "expands no more positions than it needs"),
)


@dataclass(frozen=True)
class _Run:
    """What the child process sent back, read and checked: ``kind`` is ``line``,
    ``none`` (no solution), ``budget`` (stopped by the node budget) or ``bad``
    (``what`` says what was returned)."""

    kind: str
    line: tuple[Move, ...] | None
    stats: SearchStats
    what: str = ""


_KINDS = ("line", "none", "budget", "bad")


def _line_of(out: object) -> tuple[str, list[str] | None, str]:
    """What a search returned, as (kind, the line's move texts, what); in the child."""
    if out is None:
        return "none", None, ""
    if isinstance(out, ref.SearchResult):
        if out.status.startswith("stopped"):  # its own budget ran out
            return "budget", None, ""
        if out.solution is None:
            return "none", None, ""
        return "line", [str(m) for m in out.solution], ""
    if isinstance(out, ref.Node):
        return "line", [str(m) for m in out.solution()], ""
    if isinstance(out, list | tuple) and all(isinstance(m, Move | str) for m in out):
        return "line", [str(m) for m in out], ""
    return "bad", None, describe(out)


def _student_job(
    fn: Callable[..., object], case: Case, h: Heuristic | None, budget: int
) -> Callable[[], dict[str, object]]:
    """The run of ``fn`` on ``case`` in the child: plain data (see :func:`_read_run`)."""

    def job() -> dict[str, object]:
        problem = RecordingProblem(case.deal(), max_nodes=budget)
        kind, line, what = "budget", None, ""
        try:
            with warnings.catch_warnings():  # astar's word on flicker: it never overestimates
                warnings.simplefilter("ignore", UserWarning)
                out = fn(problem) if h is None else fn(problem, h)
        except OutOfNodes:
            pass
        else:
            kind, line, what = _line_of(out)
        stats = problem.stats()
        counts = [getattr(stats, f) for f in _COUNTS]
        return {"kind": kind, "line": line, "stats": counts, "what": what}

    return job


_COUNTS = tuple(SearchStats.__dataclass_fields__)


def _read_run(value: object) -> _Run | None:
    """The run a child sent, checked field by field (None: it is not one): move
    texts parsed by the checker, counts whole numbers from 0."""
    if not isinstance(value, dict) or set(value) != {"kind", "line", "stats", "what"}:
        return None
    kind, texts, counts, what = value["kind"], value["line"], value["stats"], value["what"]
    if kind not in _KINDS or not isinstance(what, str):
        return None
    if not isinstance(counts, list) or len(counts) != len(_COUNTS):
        return None
    for field, n in zip(_COUNTS, counts, strict=True):
        if n is None and field == "expanded_after_goal":
            continue
        if type(n) is not int or n < 0:
            return None
    line: tuple[Move, ...] | None = None
    if kind == "line":
        if not isinstance(texts, list) or not all(
            isinstance(t, str) and len(t) < 20 for t in texts
        ):
            return None
        try:
            line = tuple(Move.parse(t) for t in texts)
        except MoveError:
            return None
    elif texts is not None:
        return None
    return _Run(kind, line, SearchStats(*counts), shown(what, 200))


@dataclass(frozen=True)
class ReferenceRun:
    """The reference's run on one case: its line and counts."""

    line: tuple[Move, ...] | None
    stats: SearchStats


class ReferenceRuns:
    """The reference's runs on the cases, kept for the next check: breadth-first
    search's run on each deal (the shortest line, and the node budget) and each
    promise's reference run.  They never change, so checks of many submissions (a
    class's, or a test suite's) can share one: ``check_search(fn, "astar",
    references=runs)``.

    >>> from bakers_lab.solve.search import breadth_first
    >>> from bakers_lab.teach.cases import SEARCH_CASES
    >>> runs = ReferenceRuns()
    >>> a = check_search(breadth_first, cases=SEARCH_CASES[:3], references=runs, quiet=True)
    >>> runs.shortest(SEARCH_CASES[2]) is runs.shortest(SEARCH_CASES[2])
    True
    """

    def __init__(self) -> None:
        self._shortest: dict[Case, ref.SearchResult] = {}
        self._runs: dict[tuple[object, Case, object], ReferenceRun] = {}

    def shortest(self, case: Case) -> ref.SearchResult:
        """Breadth-first search's run on the deal of ``case``."""
        if case not in self._shortest:
            self._shortest[case] = ref.breadth_first(case.deal())
        return self._shortest[case]

    def reference(self, promise: Promise, case: Case, h: Heuristic | None) -> ReferenceRun:
        """The run of ``promise``'s reference on ``case`` (with the heuristic ``h``)."""
        key = (promise.reference, case, h)
        if key not in self._runs:
            self._runs[key] = _reference(promise, case, h)
        return self._runs[key]


def _reference(promise: Promise, case: Case, h: Heuristic | None) -> ReferenceRun:
    problem = RecordingProblem(case.deal())
    with warnings.catch_warnings():  # "may overestimate": flicker does not, it is inconsistent
        warnings.simplefilter("ignore")
        r = promise.reference(problem) if h is None else promise.reference(problem, h)
    return ReferenceRun(None if r.solution is None else tuple(r.solution), problem.stats())


def _moves(line: tuple[Move, ...] | None) -> tuple[str, ...] | None:
    return None if line is None else tuple(str(m) for m in line)


def _twice(stats: SearchStats) -> str:
    return (
        f"it expands the same position more than once (one of them {stats.most_expansions} "
        f"times): it never marks positions as seen (keep the positions reached in a set and "
        f"skip a child whose position is in it)"
    )


def _longer(promise: Promise, stats: SearchStats, consistent: bool, n: int, best: int) -> str:
    """What a line longer than the shortest probably means."""
    head = f"your line has {n} moves, a shortest one {best}: "
    if promise.queue and stats.newest_taken > stats.oldest_taken:
        return head + "it explores the newest node first: a stack, not a queue (depth-first search)"
    if not consistent and stats.most_expansions <= 1:
        return head + (
            "it never reopens a position: under an inconsistent heuristic, like this one, a "
            "shorter path can reach a position after it was expanded, and A* must then put "
            "it back on the frontier"
        )
    if stats.expanded_after_goal == 0:
        return head + (
            "it returns the first line found, not the shortest: the goal is tested when a "
            "node is generated, not when it is taken from the frontier"
        )
    return head + "it returns a line longer than the shortest"


class _Judge:
    """Collects the smallest failure of each check over the runs, smallest first."""

    def __init__(self, promise: Promise) -> None:
        self.promise = promise
        self.failures: dict[str, Failure] = {}
        self.stopped: Case | None = None
        self.broken = 0  # runs that did not return a line or "no solution"

    def fail(self, check: str, failure: Failure) -> None:
        self.failures.setdefault(check, failure)
        if check == "returns":
            self.broken += 1
            if self.broken >= _BROKEN:
                self.stopped = failure.case

    def report(self, deals: int, seconds: float, label: str) -> SearchReport:
        p = self.promise
        asked = {
            "returns": True,
            "legal": True,
            "gives_up": True,
            "shortest": p.shortest,
            "once": p.expands_once,
            "goal": p.goal_when_generated,
            "efficient": p.factor is not None,
        }
        checks = []
        for name, title in CHECKS:
            if not asked[name]:
                continue
            if p.factor is not None:
                title = title.replace("than it needs", f"than {p.factor:g} times the reference's")
            if name in self.failures:
                f = self.failures[name]
                where = "" if str(f.case) in f.sentence else f"on {f.case}, "  # not twice
                checks.append(Check(name, title, False, 0.0, 1.0, where + f.sentence))
            elif self.stopped is not None:
                checks.append(
                    Check(
                        name,
                        title,
                        None,
                        0.0,
                        1.0,
                        f"not judged: the check stopped when your function failed, at "
                        f"{self.stopped}",
                    )
                )
            else:
                checks.append(Check(name, title, True, 1.0, 1.0, f"on all {deals} deals"))
        return SearchReport(label, tuple(checks), tuple(self.failures.values()), deals, seconds)


def _cases(cases: object) -> tuple[Case, ...]:
    """``cases`` as a tuple of :class:`Case`, or :class:`TypeError` saying what it is."""
    if not isinstance(cases, tuple | list) or not all(isinstance(c, Case) for c in cases):
        raise TypeError(f"cases must be a tuple of Case (like SEARCH_CASES), not {describe(cases)}")
    return tuple(cases)


def check_search(
    fn: Callable[..., object],
    promise: str | Promise = "breadth_first",
    *,
    seconds: float = 10,
    megabytes: int = MEMORY_MB,
    cases: tuple[Case, ...] = SEARCH_CASES,
    quiet: bool = False,
    references: ReferenceRuns | None = None,
) -> SearchReport:
    """Run the search ``fn`` on the deals of ``cases`` and judge it by ``promise``.

    ``promise``: the algorithm ``fn`` claims to be, a name of :data:`PROMISES`
    (``"breadth_first"``, ``"astar"``, ...) or a :class:`Promise`; ``seconds``:
    the time each run may take; ``megabytes``: the memory each run may take.
    Each run happens in a child process, so a search that never returns is
    stopped and reported.  See the module for what ``fn`` looks like and what is
    checked.  ``references``: reference runs kept from earlier checks (a
    :class:`ReferenceRuns`), to check many submissions without running the
    references again.

    >>> from bakers_lab.solve.search import breadth_first, depth_first
    >>> from bakers_lab.teach.cases import SEARCH_CASES
    >>> check_search(breadth_first, "breadth_first", cases=SEARCH_CASES[:8], quiet=True).summary()
    'breadth_first: every check passed (7 of 7) on 8 deals'
    >>> r = check_search(depth_first, "breadth_first", cases=SEARCH_CASES[:8], quiet=True)
    >>> print(*r.failure.sentence.split(": "), sep="\\n")
    your line has 16 moves, a shortest one 12
    it explores the newest node first
    a stack, not a queue (depth-first search)
    """
    if not callable(fn):
        raise TypeError(f"fn must be a search function, like breadth_first, not {describe(fn)}")
    if isinstance(promise, str):
        if promise not in PROMISES:
            raise ValueError(f"unknown promise {promise!r}; known: {', '.join(PROMISES)}")
        promise = PROMISES[promise]
    elif not isinstance(promise, Promise):
        raise TypeError(f"promise must be a name of PROMISES or a Promise, not {describe(promise)}")
    seconds = as_number(seconds, "seconds", low=0, high=3_600, low_open=True, unit=" (seconds)")
    megabytes = as_int(megabytes, "megabytes", low=10)
    t0 = time.perf_counter()
    label = getattr(fn, "__name__", promise.name)
    if label != promise.name:
        label = f"{label} (as {promise.name})"
    given = _cases(cases)
    cases = tuple(c for c in given if c.deck in promise.decks)
    if not cases:  # a check on no deal passes nothing
        decks = ", ".join(promise.decks)
        raise ValueError(
            f"cases holds no deal of the decks {promise.name} is checked on ({decks}): "
            f"a check on no deal would pass anything"
        )
    if not quiet:
        print(f"Checking {label} on {len(cases)} deals, smallest first ...", file=sys.stderr)
    judge = _Judge(promise)
    kept = ReferenceRuns() if references is None else references
    runs = promise.heuristics or ((None, None, True),)
    for case in sorted(cases):
        for h_name, h, consistent in runs:
            if judge.stopped is None:
                _judge_run(judge, fn, case, h_name, h, consistent, kept, seconds, megabytes)
    return judge.report(len(cases), time.perf_counter() - t0, label)


def _judge_run(
    judge: _Judge,
    fn: Callable[..., object],
    case: Case,
    h_name: str | None,
    h: Heuristic | None,
    consistent: bool,
    kept: ReferenceRuns,
    seconds: float,
    megabytes: int,
) -> None:
    """Run ``fn`` on one case (with one heuristic) and note what fails."""
    promise = judge.promise
    best = kept.shortest(case)
    budget = max(2_000, promise.budget * best.nodes_generated)
    pending = start_limited(_student_job(fn, case, h, budget), megabytes=megabytes)
    reference = kept.reference(promise, case, h)  # meanwhile, on the other core
    outcome = pending.wait(seconds)
    start = GameState.from_deal(case.deal())
    with_h = f" (with the heuristic {h_name})" if h_name else ""
    if promise.shortest or reference.line is None:
        shown_ref = (
            "a shortest line",
            _moves(None if best.solution is None else tuple(best.solution)),
        )
    else:
        shown_ref = ("the reference's line", _moves(reference.line))
    board = str(start)
    position = start.to_text()

    def failure(
        check: str,
        sentence: str,
        mine: tuple[str, ...] | None = None,
        lines: bool = True,
        trace: str = "",
    ) -> Failure:
        shown = (("your line", mine), shown_ref) if lines else ()
        return Failure(check, case, sentence + with_h, board, position, shown, (), trace)

    run = _read_run(outcome.value) if isinstance(outcome, Returned) else None
    if isinstance(outcome, Returned) and run is None:
        outcome = Unreadable("it is not a search's run")
    if not isinstance(outcome, Returned):
        trace = outcome.trace if isinstance(outcome, Raised) else ""
        judge.fail("returns", failure("returns", _stopped(outcome, case), lines=False, trace=trace))
        if isinstance(outcome, OutOfTime | OutOfMemory):
            judge.stopped = case  # each later case would wait as long, or fail the same way
        return
    assert run is not None
    stats = run.stats
    if run.kind == "budget":
        why = f"; {_twice(stats)}" if stats.most_expansions > 1 else ""
        judge.fail(
            "returns",
            failure(
                "returns",
                f"your function generated more than "
                f"{budget:,} positions, where the reference generates "
                f"{reference.stats.generated:,}{why}",
                lines=False,
            ),
        )
    elif run.kind == "bad":
        judge.fail(
            "returns",
            failure(
                "returns",
                f"your function returned {run.what}; a search "
                f"returns the goal Node it found, or None when there is "
                f"no solution",
                lines=False,
            ),
        )
        return
    elif stats.generated == 0 and reference.stats.generated > 1:
        judge.fail(
            "returns",
            failure(
                "returns",
                "your function never asked the problem for a move: search through "
                "problem.actions and problem.result (or node.expand(problem)), so that "
                "the check can see what it does",
                lines=False,
            ),
        )
        return
    mine = _moves(run.line)
    if run.kind == "line":
        assert run.line is not None
        wrong, _ = replay(case, run.line)
        if wrong is not None:
            judge.fail("legal", failure("legal", wrong, mine))
        elif promise.shortest and best.solution is not None and len(run.line) > len(best.solution):
            judge.fail(
                "shortest",
                failure(
                    "shortest",
                    _longer(promise, stats, consistent, len(run.line), len(best.solution)),
                    mine,
                ),
            )
    elif run.kind == "none" and best.solution is not None:
        judge.fail(
            "gives_up",
            failure(
                "gives_up",
                f"your function found no solution, but this "
                f"deal is won in {len(best.solution)} moves",
                mine,
            ),
        )
    if promise.expands_once and consistent and stats.most_expansions > 1:
        judge.fail("once", failure("once", _twice(stats), mine))
    if promise.goal_when_generated and run.kind == "line" and stats.expanded_after_goal:
        judge.fail(
            "goal",
            failure(
                "goal",
                f"it tests the goal too late: after generating a "
                f"winning position it expanded {stats.expanded_after_goal:,} "
                f"more positions; test each child when it is generated",
                mine,
            ),
        )
    if (
        promise.factor is not None
        and stats.expanded > promise.factor * reference.stats.expanded + 10
    ):
        judge.fail(
            "efficient",
            failure(
                "efficient",
                f"it expands {stats.expanded:,} positions "
                f"where the reference expands "
                f"{reference.stats.expanded:,}: more than "
                f"{promise.factor:g} times as many",
                mine,
            ),
        )


def _stopped(outcome: Raised | OutOfTime | OutOfMemory | Died | Unreadable, case: Case) -> str:
    """What stopped the student's search on ``case``, in one sentence."""
    if isinstance(outcome, OutOfTime):
        return f"your function did not return within {outcome.seconds:g} s on {case}"
    if isinstance(outcome, Raised):
        return f"your function raised {outcome.error} on {case}" + said(
            outcome.message, outcome.error
        )
    return stopped(outcome, "your function", f" on {case}")
