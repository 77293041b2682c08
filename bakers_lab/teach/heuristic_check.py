"""``check_heuristic``: a student's heuristic against true distances.

A heuristic is a function ``h(state) -> int``: the moves a position still needs,
estimated (see :mod:`bakers_lab.solve.heuristics`).  The check rates every
position reachable from the deals of
:data:`~bakers_lab.teach.cases.HEURISTIC_CASES` (micro and tiny deals, and two
small ones: about 15,000 positions), in a child process with a time limit, and
compares with each position's true distance (:mod:`bakers_lab.teach.spaces`):

- **returns a whole number of moves, at least 0, on every position** (a crash
  shows the student's traceback and the position);
- **is 0 at the goal** (every won position);
- **admissible**: h ≤ the true distance wherever a win exists;
- **consistent**: h(s) ≤ 1 + h(t) for every move s → t (a move costs 1);
- optionally, **better informed** than a library heuristic (``better_than``):
  admissible and a higher mean of h / true distance.

Each failure names the smallest counterexample: the smallest deck, then seed,
then the position nearest a win; for consistency a move between positions that
can still be won comes first (one from a dead position only when there is no
other).
"""

from __future__ import annotations

import math
import numbers
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bakers_lab.model.game import GameState
from bakers_lab.solve.heuristics import HEURISTICS, Heuristic
from bakers_lab.teach.cases import HEURISTIC_CASES, Case
from bakers_lab.teach.results import Check, Failure, HeuristicReport, Informed
from bakers_lab.teach.sandbox import (
    MEMORY_MB,
    TRACE_CHARS,
    Outcome,
    OutOfTime,
    Raised,
    Returned,
    Unreadable,
    run_limited,
    said,
    stopped,
    student_traceback,
)
from bakers_lab.teach.spaces import Space, state_space
from bakers_lab.utils.validate import as_number, describe, is_bool, shown

__all__ = ["check_heuristic"]


@dataclass(frozen=True)
class _Bad:
    """A position where h went wrong: its index, and what happened (``raised``:
    the error line and the trimmed traceback; else the value, described)."""

    index: int
    what: str
    trace: str = ""


def _bad(index: int, what: str, trace: str = "") -> dict[str, object]:
    return {"bad": [index, what, trace]}


def _rate(h: Heuristic, states: Sequence[GameState]) -> Callable[[], object]:
    """The job the child runs: ``h`` on each state, as plain data (a list of whole
    numbers, or ``{"bad": [index, what, trace]}``; see :func:`_read_values`)."""

    def job() -> object:
        values: list[int] = []
        for i, state in enumerate(states):
            try:
                v = h(state.copy())
            except Exception as exc:
                what = f"raised {type(exc).__name__}" + said(str(exc), type(exc).__name__)
                return _bad(i, what, student_traceback(exc))
            if is_bool(v) or not isinstance(v, numbers.Real):
                return _bad(
                    i,
                    f"returned {describe(v)}: a heuristic returns a whole number of moves, like 3",
                )
            if not math.isfinite(v) or v != int(v):  # numpy's, Fraction, Decimal: exact
                shown_v = shown(repr(v), 40)
                return _bad(i, f"returned {shown_v}, not a whole number: a heuristic counts moves")
            if v < 0:
                return _bad(
                    i, f"returned {v!r}, a negative number: no position needs fewer than 0 moves"
                )
            values.append(int(v))
        return values

    return job


def _read_values(value: object, n: int) -> list[int] | _Bad | None:
    """The values a child sent for ``n`` positions, checked (None: not an answer)."""
    if isinstance(value, list):
        if len(value) == n and all(type(v) is int and v >= 0 for v in value):
            return value
        return None
    if isinstance(value, dict) and set(value) == {"bad"} and isinstance(value["bad"], list):
        parts = value["bad"]
        if len(parts) == 3 and type(parts[0]) is int and 0 <= parts[0] < n:
            what, trace = parts[1], parts[2]
            if isinstance(what, str) and isinstance(trace, str):
                return _Bad(parts[0], shown(what, 300), trace[:TRACE_CHARS])
    return None


def _mean_ratio(values: Sequence[float], distance: Sequence[float]) -> float:
    ratios = [v / d for v, d in zip(values, distance, strict=True) if 0 < d < math.inf]
    return sum(ratios) / len(ratios) if ratios else math.nan


def check_heuristic(
    h: Heuristic,
    *,
    better_than: str | None = None,
    seconds: float = 20,
    megabytes: int = MEMORY_MB,
    cases: tuple[Case, ...] = HEURISTIC_CASES,
    quiet: bool = False,
) -> HeuristicReport:
    """Check the heuristic ``h`` on every position reachable from ``cases`` (see the
    module); ``better_than``: a name of the library's heuristics (like
    ``"cards_not_home"``) that ``h`` must beat, or ``None``; ``seconds``: the time
    ``h`` may take over all positions.

    >>> from bakers_lab.solve.heuristics import detours
    >>> from bakers_lab.teach.cases import HEURISTIC_CASES
    >>> r = check_heuristic(detours, better_than="cards_not_home", cases=HEURISTIC_CASES[:20],
    ...                     quiet=True)
    >>> r.summary()
    'detours: every check passed (5 of 5) on 597 positions'
    >>> [(i.name, round(i.mean_ratio, 3)) for i in r.informed][:3]
    [('detours', 1.0), ('zero', 0.0), ('cards_not_home', 0.983)]
    """
    if not callable(h):
        raise TypeError(
            f"h must be a function of a position, like cards_not_home, not {describe(h)}"
        )
    if better_than is not None and better_than not in HEURISTICS:
        raise ValueError(
            f"unknown heuristic {better_than!r} for better_than; known: {', '.join(HEURISTICS)}"
        )
    seconds = as_number(seconds, "seconds", low=0, high=3_600, low_open=True, unit=" (seconds)")
    if not isinstance(cases, tuple | list) or not all(isinstance(c, Case) for c in cases):
        raise TypeError(
            f"cases must be a tuple of Case (like HEURISTIC_CASES), not {describe(cases)}"
        )
    if not cases:  # a check on no position passes nothing
        raise ValueError("cases holds no deal: a check on no position would pass anything")
    t0 = time.perf_counter()
    name = getattr(h, "__name__", "your heuristic")
    if not quiet:
        print(f"Checking {name} on every position of {len(cases)} deals ...", file=sys.stderr)
    spaces = [state_space(c) for c in sorted(cases)]
    where = [(s, i) for s in spaces for i in range(len(s.states))]
    states = [s.states[i] for s, i in where]
    distance = [s.distance[i] for s, i in where]
    outcome = run_limited(_rate(h, states), seconds=seconds, megabytes=megabytes)
    titles = {
        "runs": "returns a whole number of moves, at least 0, on every position",
        "goal": "is 0 at the goal",
        "admissible": "never overestimates (admissible)",
        "consistent": "drops by at most 1 in a move (consistent)",
    }
    if better_than is not None:
        titles["better"] = f"is admissible and better informed than {better_than}"
    failures: dict[str, Failure] = {}
    values: list[int] | None = None
    first = spaces[0].case

    def at(
        check: str,
        k: int,
        sentence: str,
        vals: tuple[tuple[str, str], ...] = (),
        trace: str = "",
        line: bool = True,
    ) -> Failure:
        space, i = where[k]
        state = space.states[i]
        lines = (
            (("a shortest line", tuple(str(m) for m in space.shortest_line(i))),)
            if (line and distance[k] < math.inf)
            else ()
        )
        return Failure(check, space.case, sentence, str(state), state.to_text(), lines, vals, trace)

    read = _read_values(outcome.value, len(states)) if isinstance(outcome, Returned) else None
    if isinstance(outcome, Returned) and read is None:
        outcome = Unreadable("it is not a value for each position")
    if isinstance(read, list):
        values = read
    elif isinstance(read, _Bad):
        bad = read
        failures["runs"] = at(
            "runs",
            bad.index,
            f"on this position your heuristic {bad.what}",
            trace=bad.trace,
            line=False,
        )
    else:
        failures["runs"] = Failure("runs", first, _stopped(outcome, seconds, len(states)))
    if values is not None:
        _judge(values, distance, where, spaces, failures, at, better_than)
    informed = []
    if values is not None:
        ok = all(v <= d for v, d in zip(values, distance, strict=True))
        informed.append(Informed(name, _mean_ratio(values, distance), ok))
    for lib_name, lib in HEURISTICS.items():
        if lib is h:
            continue
        lib_values = [lib(s) for s in states]
        informed.append(
            Informed(
                lib_name,
                _mean_ratio(lib_values, distance),
                all(v <= d for v, d in zip(lib_values, distance, strict=True)),
            )
        )
    checks = []
    for check, title in titles.items():
        if check in failures:
            f = failures[check]
            text = f.sentence if check == "better" else f"on {f.case}: {f.sentence}"
            checks.append(Check(check, title, False, 0.0, 1.0, text))
        elif values is None:
            checks.append(
                Check(
                    check,
                    title,
                    None,
                    0.0,
                    1.0,
                    "not judged: the heuristic did not rate every position",
                )
            )
        else:
            checks.append(Check(check, title, True, 1.0, 1.0, f"on all {len(states):,} positions"))
    shown = tuple(f for f in failures.values() if f.check != "better")  # no position to show
    return HeuristicReport(
        name, tuple(checks), shown, len(states), tuple(informed), time.perf_counter() - t0
    )


def _stopped(outcome: Outcome, seconds: float, n: int) -> str:
    if isinstance(outcome, OutOfTime):
        return f"your heuristic did not rate the {n:,} positions within {seconds:g} s"
    if isinstance(outcome, Raised):
        return f"your heuristic could not be run: {outcome.error}: {outcome.message}"
    assert not isinstance(outcome, Returned)  # read above
    return stopped(outcome, "your heuristic")


def _judge(
    values: list[int],
    distance: list[float],
    where: list[tuple[Space, int]],
    spaces: list[Space],
    failures: dict[str, Failure],
    at: Callable[..., Failure],
    better_than: str | None,
) -> None:
    """Note the smallest counterexample of each check on the rated positions."""
    offset = {}
    k = 0
    for s in spaces:
        offset[id(s)] = k
        k += len(s.states)

    def smallest(ks: list[int]) -> int:  # smallest case first, then nearest a win
        return min(ks, key=lambda k: (where[k][0].case, distance[k], k))

    goal = [k for k, d in enumerate(distance) if d == 0 and values[k] != 0]
    if goal:
        k = smallest(goal)
        failures["goal"] = at(
            "goal",
            k,
            f"this position is won, yet your heuristic says {values[k]}: it must be 0 at the goal",
            (("h", str(values[k])),),
        )
    over = [k for k, (v, d) in enumerate(zip(values, distance, strict=True)) if v > d]
    if over:
        k = smallest(over)
        failures["admissible"] = at(
            "admissible",
            k,
            f"your heuristic says {values[k]}, but this position is won in "
            f"{_moves(distance[k])}: it overestimates",
            (("h", str(values[k])), ("true distance", f"{distance[k]:.0f}")),
        )
    worst: tuple[object, int, int, str] | None = None
    for s in spaces:
        base = offset[id(s)]
        for a, b, move in s.edges:
            ha, hb = values[base + a], values[base + b]
            if ha > hb + 1:
                rank = (math.isinf(distance[base + a]), s.case, distance[base + a], base + a)
                if worst is None or rank < worst[0]:  # type: ignore[operator]
                    worst = (rank, base + a, base + b, str(move))
    if worst is not None:
        _, ka, kb, move_text = worst
        ha, hb = values[ka], values[kb]
        failures["consistent"] = at(
            "consistent",
            ka,
            f"the move {move_text} lowers your heuristic from {ha} to {hb}, by "
            f"{ha - hb}, but a move costs 1: it is not consistent (A* with it must reopen "
            f"positions)",
            (
                ("move", move_text),
                ("h before", str(ha)),
                ("h after", str(hb)),
                ("true distance before", _d(distance[ka])),
                ("true distance after", _d(distance[kb])),
            ),
        )
    if better_than is not None:
        lib = HEURISTICS[better_than]
        states = [s.states[i] for s, i in where]
        theirs = _mean_ratio([lib(x) for x in states], distance)
        mine = _mean_ratio(values, distance)
        if over or not mine > theirs:
            why = (
                "it is not admissible"
                if over
                else (f"its mean of h / true distance is {mine:.3f}, {better_than}'s {theirs:.3f}")
            )
            failures["better"] = Failure(
                "better", spaces[0].case, f"it is not better than {better_than}: {why}"
            )
            return


def _moves(d: float) -> str:
    return "1 move" if d == 1 else f"{d:.0f} moves"


def _d(d: float) -> str:
    return "no win" if math.isinf(d) else f"{d:.0f}"
