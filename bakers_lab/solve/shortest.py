"""Shortest wins: the fewest moves that win a deal, proven by A*.

>>> import bakers_lab as bl
>>> r = bl.shortest(5)
>>> r.outcome, r.par, r.lower_bound, r.verified
('optimal', 63, 63, True)
>>> len(bl.solve(5).moves)              # the solver's line is a win, not a short one
67

Every move counts, foundation moves included, as PySolFC counts them: a win
of a full deal has at least 52 moves, one per card sent home, and every move
between columns adds one.  A player's game and ``par`` are counted alike.

How it works
------------
:func:`shortest` first asks :func:`~bakers_lab.solve.fast.solve` for a win (its
length is an upper bound) or a proof that there is none.  Then A* (compiled,
:mod:`._shortest`) searches the positions in order of *f = g + h*: ``g``, the
moves played to reach a position, ``h`` a lower bound on the moves still
needed (:func:`._shortest.strongest_bound`).  A position reached again by a shorter
line is searched again, so the bound need not be consistent.  When every
position left has *f* at least the length of the best win known, no shorter
win exists: the result is ``optimal``.  A new position is stored with the
quick part of the bound (cards not home, stuck cards); the dead-end test and
the full bound run when it comes up for search (most stored positions never
do), and if the bound rose it goes back into the queue.  When the budget (positions generated)
runs out first, the smallest *f* left is a proven lower bound: every win
passes through some position left, and its *f* is at most that win's length.

The lower bound, and why it is admissible
-----------------------------------------
*h* = the cards not home, plus the *stuck* cards, plus the fewest further
moves that break every *deadlock* (the deadlock graph's cycles and the
*landing sets* of the cards that move; same-suit foundations and single-card
moves; with sequence moves, stuck runs instead; with alternate-colour
foundations, the cards not home alone).  Items 1 to 4 are the ``deadlocks``
bound (its deadlocks packed greedily), item 5 the default ``hitting_set``.

1. **Cards not home.**  A move sends at most one card home, and each card not
   home must get there.
2. **Stuck cards** (the ``detours`` of the teaching heuristics): a card lying
   above a lower card of its own suit.  That lower card must go home first
   (a same-suit foundation is built from the Ace up), and it cannot move
   while the stuck card covers it, so the stuck card must first leave by a
   tableau move.  A move moves one card, so each stuck card gets a tableau
   move of its own, besides its foundation move.  With sequence moves a run
   can carry several stuck cards, so each *stuck run* counts once: a maximal
   built run holding a stuck card.  Two such runs of one column are split
   where a card does not build on the one beneath, and that pair stays
   together until the upper one moves, which takes the upper run's first
   stuck card with it; so the first tableau moves of the two runs' stuck
   cards are different moves.
3. **Deadlock cycles** (after Paul & Helmert, SoCS 2016).  Call a card *direct*
   if it makes no tableau move: its first move takes it home, from where it
   lies now.  Draw an arrow from card ``t`` to card ``u`` when ``u`` is of the
   same suit as, and higher than, some card ``d`` lying beneath ``t`` (stuck
   cards are the arrows from a card to itself).  If ``t`` is direct it goes
   home before ``d`` can leave, so before ``d`` goes home, so before ``u``
   goes home (the suit is built in order).  Along a cycle
   ``t1 -> t2 -> ... -> t1`` of direct cards each card would go home before
   the next: impossible.  So every cycle holds a card that makes a tableau
   move.  Cycles with no card in common need different cards, so the number
   of disjoint cycles found (shortest first, greedily, among the cards that
   are not stuck; any packing is a lower bound) is a lower bound on the
   further cards that must make a tableau move, each one a move of its own.
   The argument uses first-home times only, so it holds with foundation
   returns (a returned card must go home again, by a move of its own) and
   whatever empty columns take.

4. **Landing sets** (same rules as 3, foundations that keep their cards,
   empty columns that take no ordinary card).  A stuck card ``t`` must make a
   tableau move, onto a parent ``p`` (one rank higher, of a suit the tableau
   build allows), and ``p`` must then be uncovered.  Let ``d`` be any card
   beneath ``t``: ``t`` leaves before ``d`` can, so a direct card ``x`` lying
   above ``p`` that is higher than a card of its suit beneath ``t`` would go
   home before ``t`` leaves (to uncover ``p``) and after that card goes home:
   impossible, so such an ``x`` makes a tableau move, or ``p`` moves away
   first (a tableau move of ``p``; a parent beneath ``t`` is never uncovered
   in time, one above ``t`` must move away first, one at home stays there),
   or ``t`` lands elsewhere.  And if ``p`` lies above a lower card of ``t``'s
   suit, ``t`` is stuck again there: it makes a second tableau move, or ``p``
   moved first.  So when no parent is free of all these, some card of the
   *landing set* (each parent, the cards ``x`` above it, and ``t``'s second
   move) makes a tableau move.  Sets holding a stuck card are dropped (its
   move is counted already); the rest are packed with the cycles of 3: sets
   and cycles with no card in common (a second move of ``t`` is in one set
   only) need different moves.

5. **The deadlocks counted exactly** (:mod:`._hitting`; the rules of 4).
   Let *M* be the cards that make a tableau move from now on, in some win.
   It holds the stuck cards (2) and a card of every cycle (3).  The argument
   of 4 holds for any card that makes a tableau move, not only a stuck one
   (it uses only that the card leaves before the cards beneath it can): so
   for each card of *M* with a landing set, *M* holds a card of that set or
   the card moves twice.  Where empty columns take no card, a king never
   moves, and neither does a card whose parents are all at home or beneath
   it: *M* holds none of them.  Each card of *M* makes a tableau move of its
   own (one card a move), and each second move is another, so the fewest
   such moves over every choice of *M* that meets all this is a lower bound;
   the packing of 3 and 4 is one (disjoint constraints need different
   moves), so this is never below it.  A small branch-and-bound search finds
   the fewest (an unmet constraint's options in turn; a branch is cut when
   a greedy packing of what is unmet needs more moves than are left), and
   if it runs too long it keeps the count proven so far.

The counts are of different moves (foundation moves; tableau moves of stuck
cards; further tableau moves, one a packed set or cycle, or one a card of
*M* or a second move), so their sum is admissible.
``tests/test_shortest.py`` checks it on the classroom decks: the bound at
every position of a shortest win is at most the moves left.

What the search leaves out, and why a shortest win survives
-----------------------------------------------------------
The search runs on the positions of :mod:`.fast`, with four of its rules:

- **Safe foundation moves are made at once** (rule 1 of :mod:`.fast`), and
  counted as moves.  Its argument turns any win from the position with the
  card in place into one with the card home that is no longer: the moves of
  that card are dropped, the automatic move is added, nothing else changes.
- **A column's last card is not moved onto another column when empty
  columns stay empty** (rule 2).  Leaving it in place and skipping that move
  gives a win one move shorter: every later move is legal as before (its
  cards can be put on it in its own column just the same).
- **Columns are interchangeable** (rule 3): positions that differ only in
  the order of the columns have the same shortest wins.
- **Cards just moved are not moved again at once** (rule 7): such a move
  reaches a position the parent reaches in one move (or the parent itself),
  with the same automatic moves after it, so a line through it is longer
  than one that skips the first move.  When a position is searched with the
  shortest line known to it, its parent's line is shorter by one move, so no
  shortest line to any position needs such a move.
- **Dead positions are cut** (the dead-end test of rules 4 and 6): they have
  no win at all.
- **Moves in either order are searched in one** (a partial-order
  reduction; :func:`._shortest._commutes`).  Say move ``a`` (card ``x``)
  led from ``P`` to this position ``S`` and move ``b`` (card ``y``) is
  legal here, each taking one card between columns onto a card, the four
  columns all different, neither followed by an automatic move.  Then ``b``
  was legal in ``P`` too, ``a`` is legal after ``b`` (its columns did not
  change, and the foundations are as in ``P``: only a source column's new
  top can go home after a move, and those are the tops of ``S`` after ``b``,
  which did not go), and both orders reach the same position in two moves.
  So when ``y`` is lower than ``x``, ``b`` is not searched from ``S``.  Why a
  shortest win survives: among the shortest wins the search may play, take
  the first in the order of the cards moved, move by move.  It never plays
  such a pair with the higher card first (the other order is a shortest win
  too, and earlier), so each of its positions, searched with its own last
  move, keeps the next move.  The search stores one last move per position;
  when as short a line with another last move reaches a position, the
  position keeps every move from then on, and if it was searched already,
  it is searched again for the moves it left out.  So every position of that
  first shortest win is searched with each of its shortest lines' last
  moves, and none of them cuts the next move.  (Rule 7 is safe with any of
  them: a line that moves a card twice running is never shortest.)

``tests/test_shortest.py`` checks the whole: on every classroom deck,
``shortest`` finds exactly the length of the teaching breadth-first search,
which plays every move and nothing automatically.

Memory of the A* search
-----------------------
A stored position costs about 140 bytes (its cards, its line, its place in
the table and in the queue); the arrays grow as positions are stored, so a
search takes what it stores, not what its budget would allow.  Positions
whose *f* reaches the best win known are never stored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import kernels
from bakers_lab.solve._interrupt import stop_flag, until_compiled_interrupted
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_bool, as_int, describe

if TYPE_CHECKING:
    import pandas as pd
from bakers_lab.solve.fast import (
    MAX_NODES,
    Proof,
    SolverError,
    check_result,
    core_board,
    core_env,
    deal_and_proof,
    move_buffer_size,
    solve,
    trail_moves,
    verify_moves,
)

__all__ = [
    "BOUNDS",
    "DEFAULT_MAX_NODES",
    "PAR_BOUND",
    "PAR_NODES",
    "SHORTEST_OUTCOMES",
    "ShortestOutcome",
    "ShortestResult",
    "bounds_compared",
    "lower_bound",
    "shortest",
]

#: Default budget of :func:`shortest`: positions the A* search generates.
DEFAULT_MAX_NODES = 10_000_000
#: The budget where par is shown to a player (the app, :func:`~bakers_lab.study.coach.explain`):
#: a tenth of the default, so a tenth of its time and memory at most.
PAR_NODES = 1_000_000
#: The bound of those searches: quicker a node than the default, it proves about
#: as many within :data:`PAR_NODES` (deals 1-40: 31 against 32, in a median
#: 0.35 s against 0.69 s, 2.6 s against 10.6 s at most; benchmarks/shortest.py).
PAR_BOUND = "deadlocks"
#: The lower bounds A* can search with, weakest first (see "The lower bound"
#: above): the cards not home (item 1); and the stuck cards (2); and the
#: deadlocks packed greedily (3, 4); and the deadlocks counted exactly (5,
#: the default).  The weaker ones are for seeing what a better bound saves.
BOUNDS: dict[str, int] = {
    "cards_not_home": codes.CARDS_NOT_HOME,
    "detours": codes.DETOURS,
    "deadlocks": codes.DEADLOCKS,
    "hitting_set": codes.HITTING_SET,
}

#: What a search for the shortest win found: a line proven shortest (``"optimal"``), a
#: win not proven shortest, a proof that there is none, or nothing within the budget.
ShortestOutcome = Literal["optimal", "solved", "unsolvable", "unresolved"]
#: The outcomes: ``optimal`` (a win proven shortest), ``solved`` (a win, and a
#: lower bound below its length: the budget ran out first), ``unsolvable``
#: (no win exists) and ``unresolved`` (neither a win nor a proof).
SHORTEST_OUTCOMES: tuple[ShortestOutcome, ...] = ("optimal", "solved", "unsolvable", "unresolved")


@dataclass(frozen=True)
class ShortestResult:
    """What :func:`shortest` found.

    ``moves`` is the shortest win found (automatic foundation moves included;
    ``verified``: the rule engine replayed it to a win); ``lower_bound`` is
    proven: no win has fewer moves.  ``par`` is the length of a win proven
    shortest (``optimal``), else None.  ``nodes`` counts the positions
    generated, by the solver's first search and by A*.

    >>> r = ShortestResult("unresolved", lower_bound=64, deal=3)
    >>> r.par, r.lower_bound, r.verdict()
    (None, 64, 'no win found yet; any win takes at least 64 moves')
    """

    outcome: ShortestOutcome
    moves: tuple[Move, ...] = ()
    lower_bound: int = 0
    nodes: int = 0
    seconds: float = 0.0
    verified: bool = False
    variant: str = "bakers_dozen"
    deal: int | None = None
    #: The position that was searched (for pictures and replays; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)
    #: How an ``unsolvable`` verdict was proven (see :data:`.fast.PROOFS`).
    proof: Proof | None = None

    def __post_init__(self) -> None:
        check_result(self, SHORTEST_OUTCOMES, ("nodes", "lower_bound"))
        won = self.outcome in ("optimal", "solved")
        if won != bool(self.moves) and not (won and self.start is not None
                                             and self.start.is_won):  # fmt: skip
            raise ValueError(f"{self.outcome} results {'need' if won else 'have no'} moves")
        if self.outcome == "optimal" and self.lower_bound != len(self.moves):
            raise ValueError(
                f"an optimal result's lower_bound is its length, {len(self.moves)}, "
                f"not {self.lower_bound}"
            )
        if self.outcome == "solved" and self.lower_bound >= len(self.moves):
            raise ValueError(
                f"a solved result's lower_bound is below its length, {len(self.moves)}: "
                f"{self.lower_bound} would make it optimal"
            )

    def __repr__(self) -> str:
        where, how = deal_and_proof(self.deal, self.proof)
        return (
            f"ShortestResult(outcome={self.outcome!r}, moves={len(self.moves)}, "
            f"lower_bound={self.lower_bound}, nodes={self.nodes}, {where}"
            f"variant={self.variant!r}{how})"
        )

    @property
    def par(self) -> int | None:
        """The fewest moves that win, when proven (``optimal``); else None."""
        return len(self.moves) if self.outcome == "optimal" else None

    @property
    def solution(self) -> str:
        """The moves as text, separated by spaces."""
        return " ".join(str(m) for m in self.moves)

    def verdict(self) -> str:
        """The finding in words, for players: ``"the shortest win takes 63 moves"``."""
        n = len(self.moves)
        if self.outcome == "optimal":
            return f"the shortest win takes {n} moves"
        if self.outcome == "solved":
            return f"a win in {n} moves is known; none takes fewer than {self.lower_bound}"
        if self.outcome == "unsolvable":
            return "no sequence of moves wins"
        return f"no win found yet; any win takes at least {self.lower_bound} moves"

    def par_words(self, name: str = "par") -> str | None:
        """Par for a player (called ``name``), or None when there is no win:
        ``"par is 63 moves"``, or, before it is proven, ``"par is not proven
        yet, at least 64 moves (a win in 67 is known)"``.

        >>> ShortestResult("solved", (Move.parse("AD>F"),) * 67, 64).par_words()
        'par is not proven yet, at least 64 moves (a win in 67 is known)'
        """
        n = len(self.moves)
        if self.outcome == "optimal":
            return f"{name} is {counted(n, 'move')}"
        if self.outcome == "solved":
            return (
                f"{name} is not proven yet, at least {counted(self.lower_bound, 'move')} "
                f"(a win in {n} is known)"
            )
        return None

    def summary(self) -> str:
        """One sentence: what was found, with how much work."""
        what = f"game {self.deal}" if self.deal is not None else "the position"
        return (
            f"{self.variant} {what}: {self.verdict()}; "
            f"{counted(self.nodes, 'node')}, {self.seconds:.3f} s"
        )

    def _repr_html_(self) -> str:
        import html

        text = f"<p><b>{html.escape(self.summary())}</b></p>"
        return text + (self.start.to_html(highlight=()) if self.start is not None else "")

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``bakers-lab shortest --json``."""
        return {
            "deal": self.deal,
            "variant": self.variant,
            "outcome": self.outcome,
            "par": self.par,
            "lower_bound": self.lower_bound,
            "moves": [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "verified": self.verified,
            "proof": self.proof,
        }


def shortest(
    position: Deal | GameState | int,
    *,
    variant: str | Rules | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    bound: str = "hitting_set",
) -> ShortestResult:
    """The fewest moves that win a deal, a position in progress, or a PySolFC
    game number, with a winning line that long (see the module docstring).
    ``bound`` is one of :data:`BOUNDS`: every one proves the same par, the
    stronger ones within fewer positions.

    ``max_nodes`` (1 to :data:`.fast.MAX_NODES`) bounds the positions A*
    generates; the solver's first search has its own default budget.  The
    result is deterministic for the same position, rules and budget.  At the
    default budget a search stores at most a few million positions, under
    1 GiB.

    >>> r = shortest(64)
    >>> r.outcome, r.proof
    ('unsolvable', 'deadlock')
    >>> r = shortest(1, max_nodes=1000)    # too small a budget: a line and a bound
    >>> r.outcome, len(r.moves), r.lower_bound
    ('solved', 73, 66)
    """
    t0 = time.perf_counter()
    start, number = start_of(position, variant, who="shortest")
    max_nodes = as_int(max_nodes, "max_nodes", low=1, high=MAX_NODES)
    _check_bound(bound)
    r = start.rules
    first = solve(start)
    nodes = first.nodes

    def result(outcome: ShortestOutcome, moves: tuple[Move, ...] = (), bound: int = 0,
               proof: Proof | None = None) -> ShortestResult:  # fmt: skip
        return ShortestResult(
            outcome, moves, bound, nodes, time.perf_counter() - t0, bool(moves) or start.is_won,
            r.name, number, start, proof,
        )  # fmt: skip

    if first.outcome == "unsolvable":
        return result("unsolvable", proof=first.proof)
    best = first.moves
    upper = len(best) if first.outcome == "solved" else codes.NO_LINE
    env = core_env(r)
    board = core_board(start, env)
    trail = np.empty((4 * r.deck_size + 16, codes.TRAIL_W), dtype=np.int64)
    try:
        status, used, length, bound, path, _stored = until_compiled_interrupted(
            lambda control: kernels.astar(
                board, env, max_nodes, upper, move_buffer_size(r), trail, BOUNDS[bound], control
            ),
            stop_flag(3),
            "shortest",
        )
    except MemoryError:
        raise MemoryError(
            f"the positions of a search of {max_nodes:,} nodes do not fit in memory: "
            "pass a smaller max_nodes"
        ) from None
    nodes += int(used)
    if len(path) > 0:
        best = _replay(start, env, path)
        if len(best) != length:
            raise SolverError(f"shortest: a line of {length} moves replayed as {len(best)}")
    if status == codes.UNSOLVABLE:
        return result("unsolvable", proof="exhausted")
    if status == codes.OPTIMAL:
        return result("optimal", best, len(best))
    if not best:
        return result("unresolved", bound=int(bound))
    return result("solved", best, min(int(bound), len(best) - 1))


def _replay(start: GameState, env: codes.Env, path: np.ndarray) -> tuple[Move, ...]:
    """The moves of an A* line (with its automatic moves), replayed by the rule engine."""
    r = start.rules
    b = core_board(start, env)
    trail = np.empty((2 * len(path) + r.deck_size + 8, codes.TRAIL_W), dtype=np.int64)
    tp = kernels.replay(b, env, path, trail)
    moves, won = verify_moves(start, trail_moves(trail, int(tp)), who="shortest")
    if not won:
        raise SolverError("shortest: the line found does not win when replayed")
    return moves


def lower_bound(state: GameState, *, bound: str = "hitting_set") -> int:
    """The moves ``state`` still needs to be won, at least: the bound A* searches
    with (one of :data:`BOUNDS`; see the module docstring), on the position as
    it is (no automatic foundation moves first).

    >>> from bakers_lab import GameState, deal
    >>> g = GameState.from_deal(deal(11))
    >>> lower_bound(g, bound="detours"), lower_bound(g, bound="deadlocks"), lower_bound(g)
    (59, 64, 65)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"lower_bound takes a GameState, not {describe(state)}")
    _check_bound(bound)
    env = core_env(state.rules)
    scratch = np.zeros(codes.SCRATCH, dtype=np.uint64)
    return int(kernels.full_bound(core_board(state, env), env, scratch, BOUNDS[bound]))


def _check_bound(bound: object) -> None:
    if not isinstance(bound, str) or bound not in BOUNDS:
        raise ValueError(f"bound must be one of {', '.join(BOUNDS)}, not {describe(bound)}")


def bounds_compared(
    position: Deal | GameState | int,
    *,
    variant: str | Rules | None = None,
    max_nodes: int = PAR_NODES,
    python: bool = True,
) -> pd.DataFrame:
    """What a better lower bound saves, on one deal: the teaching A* in Python
    (:func:`~bakers_lab.solve.search.astar` with ``detours``; with ``python``)
    beside the compiled A* with each of :data:`BOUNDS`, each within
    ``max_nodes`` positions.

    One row per search: ``search``, ``bound``, ``outcome`` (the compiled
    searches': optimal, solved, unsolvable or unresolved; the Python one's:
    solved, when it proved its line shortest, or its status), ``moves`` (the
    shortest win found), ``lower_bound`` (proven; the Python search reports
    none), ``nodes`` (generated; the compiled searches' include the fast
    solver's first search for an upper bound) and ``seconds``.

    >>> t = bounds_compared(5, max_nodes=20_000, python=False)
    >>> t[["bound", "outcome", "moves"]].to_dict("list")  # doctest: +NORMALIZE_WHITESPACE
    {'bound': ['cards_not_home', 'detours', 'deadlocks', 'hitting_set'],
     'outcome': ['solved', 'solved', 'optimal', 'optimal'], 'moves': [67, 67, 63, 63]}
    """
    import pandas as pd

    from bakers_lab.solve import search

    start, _ = start_of(position, variant, who="bounds_compared")
    max_nodes = as_int(max_nodes, "max_nodes", low=1, high=MAX_NODES)
    python = as_bool(python, "python")
    rows: list[dict[str, object]] = []
    if python:
        t0 = time.perf_counter()
        found = search.astar(start, "detours", max_nodes=max_nodes)
        rows.append({
            "search": "A* in Python", "bound": "detours",
            "outcome": found.status,
            "moves": len(found.solution) if found.solution is not None else None,
            "lower_bound": None, "nodes": found.nodes_generated,
            "seconds": time.perf_counter() - t0,
        })  # fmt: skip
    shortest(start, max_nodes=1)  # compiles (or loads) the search: not timed
    for name in BOUNDS:
        r = shortest(start, max_nodes=max_nodes, bound=name)
        rows.append({
            "search": "A* compiled", "bound": name, "outcome": r.outcome,
            "moves": len(r.moves) if r.moves else None, "lower_bound": r.lower_bound,
            "nodes": r.nodes, "seconds": r.seconds,
        })  # fmt: skip
    out = pd.DataFrame(rows)
    return out.astype({"moves": "Int64", "lower_bound": "Int64"})
