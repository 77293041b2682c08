"""Proofs by relaxation: a necessary condition for winning, solved exactly by CP-SAT.

A winning game from a position is a schedule: every card of the tableau leaves
its place at some time, may rest on other cards on its way, and goes home.  The
schedule obeys a few rules that the search's dead-end test (the least fixed
point of :mod:`._core`) cannot state, because they are about *when*: a card
covered by another cannot move until that card has left; a card holds at most
one card directly at a time and cannot move while it holds one.  This module
writes those rules as a constraint model and hands it to OR-Tools' CP-SAT
solver.  If no schedule satisfies them, no game wins: the position is
**proven unsolvable**.

>>> import bakers_lab as bl
>>> from bakers_lab.solve.relax import relax
>>> relax(bl.deal(1)).verdict              # a winnable deal satisfies the model
'feasible'

The model (``rests`` = *R*, 1 by default)
-----------------------------------------
For each card *c* in the tableau (cards at home are gone for good) the model
has the times of its first *R* + 1 moves, ``m[c][0] < m[c][1] < …``, and the
time ``H[c]`` it goes home; ``has[c][i]`` says the card makes at least *i*
moves onto the tableau (*rests*) before it goes home.  Times are integers, one
move a time step, the position at time 0.

1. *Home last.*  With no rest the first move goes home: ``H = m[0]``; with
   exactly *i* ≤ *R* rests ``H = m[i]``; with more than *R*, ``H > m[R]`` (the
   moves after the *R*-th rest are not modelled).
2. *Foundations in order.*  ``H[c] > H[c − 1]`` for the card below *c* in its
   suit, unless that card is home already.
3. *A rest needs a parent.*  Rest *i* (``has[c][i]``) lies on one card *p* of
   the next rank that the tableau build lets *c* lie on (or, where an empty
   column takes *c*, in an empty column, which the model leaves free), during
   ``[m[c][i − 1], m[c][i])``; *p* is still in the tableau when *c* lands:
   ``m[c][i − 1] < H[p]``.
4. *One card at a time on a card, and a covered card does not move.*  For each
   card *p*, these intervals do not overlap: the time the card above *p* now
   stays there, ``[0, m[a][0])``; every modelled rest of another card on *p*;
   and ``[t, t + 1)`` for each modelled move *t* of *p* itself (its leaving,
   its rests' ends, its going home).
5. *One move at a time.*  No two modelled moves, of any cards, share a time.
6. *A move changes the card's place.*  A card's first rest is not on the card
   it lies on now, a rest not on the card of the rest before it; no two rests
   in a row are in empty columns, and a card at the bottom of its column does
   not start with one (moving a column's only card into an empty column is
   no move).

Why it is a relaxation (every winning game satisfies it)
--------------------------------------------------------
Take a winning game from the position, a sequence of moves at times 1, 2, ….
Foundations keep their cards and moves carry one card, so each tableau card *c*
moves at times ``t0 < t1 < … < tr``; its last move goes home (no foundation
card comes back), and each earlier move puts it on a card of the next rank that
the build allows, or into an empty column that takes it.  Set ``m[c][i] = ti``
for ``i ≤ min(r, R)``, ``has[c][i] = (r ≥ i)`` and ``H[c] = tr``: (1) holds by
construction, (2) because a pile takes its cards in order.  For (3): between
``ti−1`` and ``ti`` the card does not move, so it lies on the card it was put
on, which was in the tableau then.  For (4): at any time a card *p* holds at
most one card directly on it; the card above it at time 0 stays until its own
first move; a card on *p* stays until its next move; and *p* moves only when
nothing lies on it, which is at no time inside any of these intervals (at the
interval's ends another card moves, and one move moves one card).  So the
half-open intervals of (4) are pairwise disjoint.  (5) holds because the game
is a sequence, and (6) because a card lying on *p* cannot be put on *p*, and
the rule engine refuses a move that leaves the position as it was.  Every
condition compares times, so replacing the modelled times by their ranks
keeps it; the model's horizon, one more than the number of modelled moves,
loses no schedule.  An infeasible model therefore means no winning game: a
sound proof, whatever CP-SAT's search does, since it reports infeasibility
only when it has shown it (and ``unknown`` when its time ran out).

``tests/test_relax.py`` checks the argument on real games: every shipped
solution of deals 1–200, turned into its schedule, satisfies the model as
built here (the schedule's values fixed, CP-SAT finds the model feasible).

What it does not model: foundation returns, moves of runs and alternate-colour
foundations (a relaxation of those rules needs other conditions); a card's
moves after its *R*-th rest, and which cards lie on a card's later resting
places.  ``bl.solve(..., relax=T)`` tries it where the search leaves a
position open; measured, it has proved only deals that the search's dead-end
test refutes at their start (see "Deals left open" in :mod:`.fast`).
"""

from __future__ import annotations

import gc
import itertools
import time
from dataclasses import dataclass, field
from typing import Literal

from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve._interrupt import until_interrupted
from bakers_lab.utils.validate import as_int, as_number

__all__ = [
    "Relaxation",
    "RelaxationError",
    "Schedule",
    "applies",
    "relax",
    "schedule_fits",
    "schedule_of",
]

Verdict = Literal["infeasible", "feasible", "unknown"]

#: Rests modelled per card, by default.  One decides most deals fastest: on
#: Baker's Dozen's lost deals 64, 477, 1395, 1559, 2548, 2662, 2762 and 2929
#: it proves six within :data:`DEFAULT_LIMIT`; more rests make a stronger
#: model that CP-SAT decides more slowly.
DEFAULT_RESTS = 1
#: CP-SAT's deterministic time limit, by default.  Its unit is CP-SAT's own
#: measure of work, the same on every machine; on the 2-core test machine one
#: unit took 0.3 to 15 s.
DEFAULT_LIMIT = 2.0
#: Largest deterministic time limit :func:`relax` takes.
MAX_LIMIT = 1e6


class RelaxationError(ValueError):
    """A position or rules the relaxation does not model."""


@dataclass(frozen=True)
class Relaxation:
    """What the relaxation of a position found.

    ``verdict`` is ``infeasible`` (no schedule satisfies the model: the
    position is proven unsolvable), ``feasible`` (some schedule does: nothing
    is proven) or ``unknown`` (CP-SAT's time ran out first).
    """

    verdict: Verdict
    cards: int = 0
    rests: int = DEFAULT_RESTS
    seconds: float = field(default=0.0, compare=False)

    def __repr__(self) -> str:
        return f"Relaxation(verdict={self.verdict!r}, cards={self.cards}, rests={self.rests})"


@dataclass(frozen=True)
class Schedule:
    """The times of a won game, as the model names them (for tests and teaching).

    ``moves[c]`` are card ``c``'s move times in order (the last goes home);
    ``parents[c]`` the card each rest lay on (``-1``: an empty column).
    """

    moves: dict[int, tuple[int, ...]]
    parents: dict[int, tuple[int, ...]]

    def __repr__(self) -> str:
        return f"Schedule(<{len(self.moves)} cards>)"


def applies(rules: Rules) -> str | None:
    """Why the model does not fit ``rules``, or None when it does."""
    why = []
    if rules.move_unit != "card":
        why.append("runs move as a unit")
    if rules.foundation_build != "same_suit":
        why.append("foundations build in alternate colours")
    if rules.foundation_return:
        why.append("foundation cards may come back")
    return "; ".join(why) or None


def _rank(c: int) -> int:
    return c % 13 + 1


class _Model:
    """The CP-SAT model of a position (built once; optionally with a schedule fixed)."""

    def __init__(self, g: GameState, rests: int, horizon: int | None = None) -> None:
        from ortools.sat.python import cp_model  # a second's import: only when used

        self.cp = cp_model
        cols = [list(col) for col in g._cols]
        self.cards = [c for col in cols for c in col]
        tableau = set(self.cards)
        n = len(self.cards)
        big = horizon if horizon is not None else n * (rests + 2) + 1
        md = cp_model.CpModel()
        self.model = md
        self.m: dict[int, list[cp_model.IntVar]] = {}
        self.has: dict[int, list[cp_model.IntVar]] = {}
        self.H: dict[int, cp_model.IntVar] = {}
        self.on: dict[tuple[int, int, int], cp_model.IntVar] = {}
        self.free: dict[tuple[int, int], cp_model.IntVar] = {}
        occupancy: dict[int, list[cp_model.IntervalVar]] = {c: [] for c in self.cards}
        events: dict[int, list[cp_model.IntervalVar]] = {c: [] for c in self.cards}
        for c in self.cards:
            m = [md.new_int_var(1, big, f"m{c}_{i}") for i in range(rests + 1)]
            has = [md.new_constant(1)] + [
                md.new_bool_var(f"has{c}_{i}") for i in range(1, rests + 2)
            ]
            h = md.new_int_var(1, big, f"H{c}")
            self.m[c], self.has[c], self.H[c] = m, has, h
            for i in range(1, rests + 1):
                md.add_implication(has[i + 1], has[i])
                md.add(m[i] > m[i - 1]).only_enforce_if(has[i])
            for i in range(rests + 1):  # exactly i rests: move i goes home
                md.add(h == m[i]).only_enforce_if(has[i], ~has[i + 1])
            md.add(h > m[rests]).only_enforce_if(has[rests + 1])
            # the card's own moves, as unit intervals on its own resource
            events[c].append(md.new_fixed_size_interval_var(m[0], 1, f"e{c}_0"))
            for i in range(1, rests + 1):
                events[c].append(
                    md.new_optional_fixed_size_interval_var(m[i], 1, has[i], f"e{c}_{i}")
                )
            events[c].append(
                md.new_optional_fixed_size_interval_var(h, 1, has[rests + 1], f"eH{c}")
            )
        below = {above: b for col in cols for b, above in itertools.pairwise(col)}
        bottom = {col[0] for col in cols if col}
        for c in self.cards:
            pred = c - 1 if _rank(c) > 1 else None
            if pred is not None and pred in tableau:
                md.add(self.H[c] > self.H[pred])
            parents = [p for p in self.cards if g._builds_on(c, p)]  # the engine's test
            for i in range(1, rests + 1):
                options = []
                start, end = self.m[c][i - 1], self.m[c][i]
                size = md.new_int_var(0, big, f"d{c}_{i}")  # tied to the ends when present
                for p in parents:
                    x = md.new_bool_var(f"on{c}_{i}_{p}")
                    self.on[c, i, p] = x
                    if i == 1 and below.get(c) == p:
                        md.add(x == 0)  # a move puts a card on another card than its own
                    elif i > 1:
                        md.add_bool_or([~x, ~self.on[c, i - 1, p]])
                    options.append(x)
                    occupancy[p].append(
                        md.new_optional_interval_var(start, size, end, x, f"o{c}_{i}_{p}")
                    )
                    md.add(start < self.H[p]).only_enforce_if(x)
                if g._empty_takes(c):
                    f = md.new_bool_var(f"free{c}_{i}")
                    self.free[c, i] = f
                    options.append(f)
                    if i == 1 and c in bottom:
                        md.add(f == 0)  # from its own column's bottom: no move
                    elif i > 1:
                        md.add_bool_or([~f, ~self.free[c, i - 1]])
                md.add(sum(options) == self.has[c][i])
        for col in cols:
            for under, above in itertools.pairwise(col):
                md.add(self.m[under][0] > self.m[above][0])
                a0 = self.m[above][0]
                occupancy[under].append(md.new_interval_var(0, a0, a0, f"top{under}"))
        for c in self.cards:
            md.add_no_overlap(occupancy[c] + events[c])
        md.add_no_overlap([e for c in self.cards for e in events[c]])  # one move a time

    def fix(self, s: Schedule, rests: int) -> None:
        """Pin the model's variables to a won game's schedule (for the soundness test)."""
        md = self.model
        for c in self.cards:
            times, parents = s.moves[c], s.parents[c]
            k = len(times) - 1  # rests
            for i in range(1, rests + 2):
                md.add(self.has[c][i] == int(k >= i))
            for i in range(min(k, rests) + 1):
                md.add(self.m[c][i] == times[i])
            md.add(self.H[c] == times[-1])
            for i in range(1, min(k, rests) + 1):
                p = parents[i - 1]
                if p < 0:
                    md.add(self.free[c, i] == 1)
                else:
                    md.add(self.on[c, i, p] == 1)

    def solve(self, limit: float) -> Verdict:
        solver = self.cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        solver.parameters.max_deterministic_time = limit
        # Python keeps SIGINT: with OR-Tools' own handler (its default) a Ctrl-C
        # during a solve was swallowed, and after one, SIGINT killed the process
        solver.parameters.catch_sigint_signal = False
        try:
            status = until_interrupted(
                lambda: solver.solve(self.model), solver.stop_search, "relaxation"
            )
        except KeyboardInterrupt:
            status = None
        if status is None:
            # a solver stopped by stop_search aborts the interpreter ("terminate
            # called without an active exception") if it is still alive when
            # Python exits, as a reference cycle through the interrupted thread
            # keeps it: it goes now, before the KeyboardInterrupt is raised again
            del solver
            gc.collect()
            raise KeyboardInterrupt
        if status == self.cp.INFEASIBLE:
            return "infeasible"
        if status in (self.cp.FEASIBLE, self.cp.OPTIMAL):
            return "feasible"
        return "unknown"


def relax(
    position: object,
    *,
    variant: str | Rules | None = None,
    rests: int = DEFAULT_RESTS,
    limit: float = DEFAULT_LIMIT,
) -> Relaxation:
    """Decide the relaxation of a position (a deal, a game in progress or a game number).

    ``infeasible`` proves the position unsolvable (see the module's argument);
    ``rests`` (0 to 8) is how many of each card's rests are modelled, ``limit``
    CP-SAT's deterministic time (see :data:`DEFAULT_LIMIT`), after which the
    verdict is ``unknown``.  CP-SAT runs on one worker with a fixed seed, so
    the same call gives the same verdict everywhere.  Rules with sequence
    moves, alternate-colour foundations or foundation returns raise
    :class:`RelaxationError`.

    >>> import bakers_lab as bl
    >>> relax(1559).verdict            # Baker's Dozen game 1559 is lost
    'infeasible'
    """
    t0 = time.perf_counter()
    start, _ = start_of(position, variant, who="relax")
    rests = as_int(rests, "rests", low=0, high=8, error=RelaxationError)
    limit = as_number(limit, "limit", low=0, high=MAX_LIMIT, low_open=True,
                      unit=" (CP-SAT's deterministic time)", error=RelaxationError)  # fmt: skip
    why = applies(start.rules)
    if why is not None:
        raise RelaxationError(f"the relaxation does not model these rules: {why}")
    model = _Model(start, rests)
    verdict = model.solve(limit)
    return Relaxation(verdict, len(model.cards), rests, time.perf_counter() - t0)


def schedule_of(start: GameState, moves: list[Move] | tuple[Move, ...]) -> Schedule:
    """The schedule of a game played from ``start`` (replayed by the rule engine).

    Times count the moves from 1.  A card's parents are the cards it was put on.
    """
    g = start.copy()
    times: dict[int, list[int]] = {c: [] for col in g._cols for c in col}
    parents: dict[int, list[int]] = {c: [] for c in times}
    for t, move in enumerate(moves, start=1):
        played = g.play(move)
        c = played.card.index
        times[c].append(t)
        for col in g._cols:
            if col and col[-1] == c:
                parents[c].append(col[-2] if len(col) > 1 else -1)
                break
    return Schedule(
        {c: tuple(v) for c, v in times.items()}, {c: tuple(v) for c, v in parents.items()}
    )


def schedule_fits(start: GameState, s: Schedule, rests: int = DEFAULT_RESTS) -> bool:
    """Whether a won game's schedule satisfies the model of ``start`` (a test of soundness)."""
    horizon = max((t for v in s.moves.values() for t in v), default=1) + 1
    model = _Model(start, rests, horizon)
    model.fix(s, rests)
    return model.solve(DEFAULT_LIMIT) == "feasible"
