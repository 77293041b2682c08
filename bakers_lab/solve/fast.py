"""The fast solver: every deal proven solvable (with a replayed solution) or unsolvable.

>>> import bakers_lab as bl
>>> r = bl.solve(bl.deal(1))
>>> r.outcome, r.verified, r.moves[0].card.rank >= 1
('solved', True, True)

The search is numba code (:mod:`._core`), compiled when the package is built
(:mod:`.kernels`: a wheel loads it at once, without numba), or by numba the
first time it runs where no compiled module fits.  One solve is a *portfolio*
of runs whose node budgets add up to ``max_nodes``: a short depth-first probe;
then restarts in pairs, with growing budgets, because the effort to find a
solution is heavy-tailed and a fresh start often finds at once what a long run
misses.  Each pair is a greedy best-first run (it stores the positions it
generates and always expands the one with the best score: cards not home,
cards that must visit the tableau, cards above the next foundation cards, how
entangled the columns are; varied weights and random tie-breaks) and a
depth-first run that takes the children in a random order.  The two fail on
different deals: every guided run can dig in the same wrong place (on Good
Measure deals 3, 10, 33, 36, 56 and 155, which no guided run of 5,000,000
nodes solves, a random order finds a solution in 734 to 46,969 nodes), and on
the Baker's Dozen deals a first guided run does not solve within 10,000 nodes,
short random-order runs succeed 5 to 10 times as often per node (see
:data:`_STAGES`); and last a depth-first search with a transposition table and
ordered moves, which proves most unsolvable deals (it steps into each child
once to score it and keeps the new ones; the dead-position test of rule 4 runs
when a kept child is entered, so children never entered, because a solution or
the end of the budget came first or a sibling's subtree reached them, never
pay for it). Where restarts get nowhere (after 1,500,000 nodes no run has
reached a position with a third of the deck home, on deals of Baker's Dozen's
shape) they stop early and the closing search gets the rest
(:data:`_SWITCH_AFTER`). Any run whose search space runs dry proves the deal
unsolvable.  The runs, their seeds and the switch are fixed, so the result is
the same on every machine for the same position, rules and budget.

Every rule is a parameter of the one compiled core, so all presets of
docs/rules.md and any :class:`~bakers_lab.model.rules.Rules` record are solved by it.

Pruning rules, and why each is sound
------------------------------------
"Sound" means: if the position has a solution, the pruned search still finds
one; so an exhausted search proves the position unsolvable.

1. **Safe foundation moves are made at once.**  A column's top card ``c`` of
   rank ``r`` goes home automatically when its pile takes it and either
   ``r <= 2`` or every card that could ever be put on ``c`` in the tableau
   (the rank ``r - 1`` cards of a suit the tableau build allows) is home —
   with same-suit foundations.  Argument: in the tableau ``c`` is useful only
   as a base for such a card.  Those cards are home (all cards of lower rank
   are, foundations being built in order), and even where a foundation card may
   return to the tableau, a returned card of rank below ``r`` can only carry
   other returned cards and so never uncovers a tableau card.  A Two is only a
   base for Aces, and an Ace is always better off at home (nothing is ever put
   on it).  So any solution from the position with ``c`` in place becomes one
   from the position with ``c`` home, by dropping the moves that put useless
   cards on ``c`` and turning moves of ``c`` itself into returns or nothing;
   the converted solution is no longer.  With alternate-colour foundations
   (Spanish Patience) the choice of pile matters, so only Aces go
   automatically (to their own pile; nothing can be put on an Ace).
2. **A column's last card (or whole run) is never moved onto another column
   when empty columns stay empty.**  Moving it leaves an empty column that
   can take nothing and covers the card it lands on; leaving it where it is
   keeps every option the move would open (cards can be put on it just the
   same, and it can still move anywhere later).  The position without the
   move dominates the one after it.
3. **Columns are interchangeable.**  The position key (two independent 64-bit
   hashes, each the sum over columns of a mixed Zobrist hash of the column, plus
   the foundation piles) does not depend on column order.
4. **Doomed positions are cut.**  With same-suit foundations that keep their
   cards, single-card moves and empty columns that take no ordinary card, a
   least fixed point over a relaxed game decides for every card whether it can
   *possibly* reach home.  Facts start false and are derived only from facts
   already derived: a card can be *uncovered* once every card above it can
   move away; a card can *move away* if the card below it in its suit can
   reach home (then it may go home itself) or if a parent for it (one rank
   higher, a suit the tableau build allows, not home) can be uncovered, or, for
   a King where an empty column takes Kings, always; a card can *reach home*
   if it can move away and the card below it in its suit can reach home.  Real
   play makes facts true in some order, and each step of that order is one of
   these derivations, so every fact real play can make true is derived: a card
   the fixed point leaves unable to reach home can never get there, and the
   position is lost.  (A King above a lower card of its suit, or a card whose
   every parent is home or buried beneath it, are the simplest cases.)  Where
   the fixed point does not apply (sequence moves), a simpler test cuts the
   position when a card above a lower card of its own suit has every parent
   home or buried beneath it (with sequence moves a parent beneath it still
   counts: a run may carry it away).
5. **Transpositions.**  A position already in the table is not searched again
   (it was searched, or is being searched higher on the current path).  The
   table has a fixed size (``2**tt_bits`` entries of 16 bytes); when a probe
   window is full an old entry is overwritten, which costs repeated work but
   never soundness.  A wrong "seen" needs two positions to agree on both 64-bit
   keys: with 10**8 positions the chance is below 10**-21.

6. **The doom check under the other rules.**  Rule 4's fixed point extends
   to foundation returns, alternate-colour foundations and empty columns that
   take any card; each change only *adds* derivations, so each fact real play
   makes true is still derived (the induction of rule 4 over the order in
   which real play makes facts true goes through unchanged):

   - *Foundation returns*: a card at home, or one that can reach home, may
     come back as a parent, so a parent counts when it can be uncovered in
     the tableau *or* can reach home (cards returned on top of a card only
     cover it more, so "every card now above it can move away" is still
     needed to uncover it).
   - *Alternate-colour foundations*: a card can go home once some card one
     rank lower of the other colour can reach home (an Ace: always), which
     is what any pile needs before taking it; which pile is not tracked.
     The position is lost when some card cannot reach home.
   - *Empty columns that take any card*: once some column can be emptied
     (one is empty now, or every card of a column can move away), every
     uncovered card can move away (into it).

   Sequence moves keep the simple test: a run carries cards that cannot move
   on their own, which the fixed point does not model.

7. **Cards just moved are not moved again at once.**  When a position ``X``
   was reached from its parent ``P`` by putting a card ``c`` (with the cards
   on it, under sequence moves) from a column or a foundation on a column, and
   no automatic foundation move followed, then ``X``'s moves of that same unit
   (``c`` and what lies on it, from where it now lies) are not searched.  Each
   of them leads to a position that is ``P`` itself or a child of ``P``: ``X``
   differs from ``P`` only in where the unit lies, so moving it again onto a
   column top or home (or into an empty column) gives the position the same
   move from ``P`` gives (every other column top, empty column and foundation
   of ``X`` is one of ``P``, because no automatic move changed any; moving it
   back where it came from gives ``P``, and one moved into an empty column
   gives ``P`` up to the order of columns); and ``P``'s moves are generated
   from its own stacks, with the same tests.  This survives the transposition
   table and the best-first runs: a position is expanded after its parent
   (in the depth-first search, ``P`` is on the path), so each child ``X``
   does not search is a child its parent generated — unless the parent held
   the same unit still by this rule, and then it is a child of the
   grandparent, and so on up to the root, which holds nothing.  So the
   positions expanded when a run ends without a solution still contain, with
   every position, each of its children, as in rule 5.  A unit whose move set
   off automatic foundation moves is free to move again: the foundations or
   the column tops may have changed.

The depth of a search path is capped (``max_depth``); a search that hit the
cap reports ``unresolved``, never ``unsolvable``.

Every ``solved`` result is replayed move by move by :class:`~bakers_lab.model.game.GameState`,
the rule engine, before it is returned: ``verified`` is that check.

Memory
------
A run's transposition table has ``2**tt_bits`` entries of 16 bytes, sized to
its own budget (``tt_bits`` = bits of ``2 * budget``, at most ``MAX_TT_BITS``
under the default ``table_mib`` of :func:`solve`, 256 MiB; a long budget
may allow more); a best-first run stores about 100 bytes per kept
position.  At the default budget the largest run is the closing depth-first
search: about a fifth of the budget, 2**21 entries = 32 MiB; 3,500,000 nodes,
2**23 entries = 128 MiB, after the switch of :data:`_SWITCH_AFTER`; half the
budget, 128 MiB, under sequence moves, where the doom check does not apply.
So one solve stays under 256 MiB.  ``benchmarks/solver.py`` measures it:
the peak RSS while solving (the kernel's mark reset after loading) minus the
RSS after importing bakers_lab and solving a small deal.

Deals left open
---------------
Baker's Dozen game 417 (unresolved for Freecell Solver's authors at 10**8
states) is still open: 10**9 nodes of an older portfolio (1,475 s) did not
settle it, and greedy best-first runs of 2,000,000 nodes (weights 0 and 3)
find no solution; nor does the closing depth-first search alone with a
table of 2**29 entries (8 GiB) in 96 CPU-minutes, about 4.6 billion nodes
(it runs 0.81M nodes a second with that table).  The deals left open at
the default budget used to look unsolvable (depth-first searches of
2 * 10**7 nodes do not exhaust them, and paths run thousands of moves
deep), but 1650, one of them, was solved once
depth-first runs in a random order joined the portfolio: some of the rest are
likely solvable too, out of reach of guided search.  Stronger dead-end checks
tried on samples of their positions (a parent counts only while it is not
home; too few parents for the cards a card's first uncovering needs) cut few
or none of them.  Game 6574 is unsolvable: the closing depth-first search
alone exhausts it within 2,041,849 nodes, twice what that search gets of the
default budget after full restarts; since the switch of
:data:`_SWITCH_AFTER` it gets 3,500,000, and ``solve(6574)`` proves it after
3,563,017 nodes.  Game 27548, open at the default budget, is unsolvable
too: ``solve(27548, max_nodes=200_000_000, max_depth=100_000)`` proves it
after 57,559,480 nodes (45 s); with the default ``max_depth`` a branch
outgrows the room a search path has (its depth, or its stack of moves,
both sized by ``max_depth``), is cut, and the search ends ``unresolved``
after 57,467,085.  With the default table 6174 stays open after 200,000,000
nodes (233 s), and so do 10242, 11447, 12889, 17522, 19461, 21009, 22282,
27074 and 31264 (138-245 s each; 12889, 17522, 19461, 22282 and 27074 with
``max_depth=100_000``).  Game 10242 is unsolvable: ``solve(10242,
max_nodes=200_000_000, max_depth=100_000, table_mib=8192)`` proves it after
176,809,006 nodes (386 s beside other jobs, 8.4 GB), where the same call
with the default table is still open after 200M (see "Long budgets").  With
``table_mib=8192`` and ``max_depth=100_000`` the others stay open after
200M nodes (164-375 s each).
A relaxation solved exactly (:mod:`.relax`: every card's leaving, rests and
going home as a schedule, with "covered until" and "one card on a card at a
time", handed to CP-SAT) proves most lost deals at their start (six of
Baker's Dozen's 64, 477, 1395, 1559, 2548, 2662, 2762, 2929 within its
default limit) but none of the 24 deals left open in Baker's Dozen 1-32,000
nor of Good Measure's 87 open deals 1-2,000: each start has a schedule.
The six it proves are all refuted by rule 4's dead-end test at the start
itself (``proof="deadlock"``, one node); the one lost deal of the eight that
needs a search (2548, 493,334 nodes) has a schedule, and so does every lost
deal that needs a search on the small decks of four presets (60 deals each,
5 ranks) and every position lost that way that random play reaches from
them (three presets, decks of 5 to 7 ranks, 40 deals each, 6 moves).  So
measured, the relaxation proves nothing the dead-end test does not.
A deadlock graph (cards as nodes, an edge where one card must move before
another can: covered by it, below it in its suit, its only parent covered
by it) proves no more: each such edge is a condition of the relaxation's
model (covered until, foundations in order, a rest on a parent that is
uncovered and in the tableau), so a cycle of them makes the model
infeasible, and on every open start the model has a schedule.
On a position of 417 that the closing search proves lost in 1,616,539 nodes
(1.5 s), the relaxation too finds a schedule (one rest a card modelled, 40 s),
so it is no cut for the positions where the search stalls either.
``solve(relax=T)`` tries it where the search leaves a deal open.
Random-order searches longer than the portfolio's (ten of them, seeds 1-10,
3,000,000 nodes a deal on top of the default budget; ``benchmarks/interleaved.py``)
settle some open deals: with a table each and 300,000 nodes each, Baker's
Dozen 12723 and 30037 (2,177,975 and 1,851,954 nodes; 380 and 441 moves)
and 9 of Good Measure's 87 (74, 192, 315, 355, 947, 1379, 1746, 1777, 1994);
interleaved 500 nodes at a time over one shared table (Freecell Solver's
``hw``), 12723 (782,479 nodes) and 9 others of Good Measure's (74, 168, 298,
315, 355, 430, 655, 947, 1746).  So the shared table is not what pays; the
two together solve 13 of the 87.  Game 417 stays open after 50,000,000
nodes of the interleaved searches (77 s).  With the portfolio's
pairs of restarts alone, twice the default budget (``max_nodes=10_000_000``)
solved 12723 (7,849,874 nodes) and 5 of those 13 Good Measure deals (315,
355, 655, 947, 1746), not 30037 nor the other 8.  So above the default
budget the restarts' extra share now goes to random-order runs of 300,000
nodes (:data:`_LONG_RUN`); at twice the default that solves Baker's Dozen
12723 and 30037 (6,159,423 and 5,833,338 nodes) and 10 of Good Measure's 87
(74, 192, 315, 355, 655, 947, 1379, 1746, 1777, 1994; 4.4M to 9.9M nodes).
Learning across runs does not pay here: keeping the positions a depth-first
run proves dead (its exhausted subtrees, cycles resolved as in Tarjan's
algorithm) and skipping them in later runs cut 6574's closing search only
from 2,041,849 to 1,884,755 nodes (the restarts, 3,981,360 nodes, proved
31,871 positions dead, most in places the closing search never visits) and
left every outcome of Baker's Dozen 1-1,500 as it was, with 0.2 % more nodes
and a quarter more time for the bookkeeping.

Long budgets
------------
A deal left open is not stuck for good: most of Good Measure's open deals
never get more than a third of the deck home in 5,000,000 nodes, yet some
are solvable, their solutions found only far past the default budget.  Of
12 open deals, the closing depth-first search alone, with 50,000,000 nodes
and a table of 2**26 entries (1 GiB), solved 185 and 74 (8.9M and 30.8M
nodes) and proved 241 and 137 unsolvable (5.5M, 26.9M); the other eight
stay open.  With 2**26 or 2**27 entries it also solves 168 after 25.4M
nodes (with the default 2**24 it is still open after 60M) and 443 after
140.1M; 131 and 82 stay open after 300M.  ``solve`` with
``max_nodes=50_000_000`` (the default table) settles five of the twelve,
and 168: its restarts and long runs solve 74, 168, 185, 192 and 298 (6.4M
to 21.6M nodes in all) and the closing search proves 241 (45,478,224); 29,
82, 98, 107, 108 and 131 stay open.  Before the long runs (the pairs of
restarts alone) it solved the same five after 8.9M to 26.5M nodes, and with
``max_nodes=140_000_000`` it proved 137 too (138,883,532 nodes with
``table_mib=1024``, 185 s; not measured again since).  Where the closing search gets most of a long
budget (deals whose restarts get nowhere: :data:`_SWITCH_AFTER`) the table
decides: Baker's Dozen 10242, above.  Giving the closing search half of a
long budget instead of a fifth was tried and dropped: on those twelve it
proves 241 sooner (30.5M) but loses 192, which the restarts solve after
26.5M.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

import numpy as np

from bakers_lab.model.cards import Card, Suit
from bakers_lab.model.deals import Deal, DealError, game_number
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Dest, IllegalMoveError, Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import kernels
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_bool, as_int, as_number, describe

__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_TABLE_MIB",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_TABLE_MIB",
    "PROOFS",
    "Outcome",
    "Proof",
    "SolveResult",
    "SolverError",
    "solve",
]

#: How an unsolvable verdict was proven (:attr:`SolveResult.proof`).
Proof = Literal["deadlock", "exhausted", "relaxation", "layers"]
#: The proofs, in the order of the ``proof`` column of a survey: ``deadlock``
#: (the dead-end test of rules 4 and 6 refutes the position itself, before
#: any move: some card can never get home), ``exhausted`` (a search ran out of
#: positions: every line was tried), ``relaxation`` (no schedule satisfies the
#: necessary conditions of :mod:`.relax`), ``layers`` (the layered search of
#: :func:`bakers_lab.prove` searched every reachable position: :mod:`.layers`).
PROOFS: tuple[Proof, ...] = get_args(Proof)
#: A solve's verdict (:attr:`SolveResult.outcome`).
Outcome = Literal["solved", "unsolvable", "unresolved"]
#: Largest CP-SAT deterministic time ``solve(relax=...)`` takes (that of :func:`.relax.relax`).
MAX_RELAX = 1e6

#: Default node budget of one solve: a few seconds at most on a laptop core.
DEFAULT_MAX_NODES = 5_000_000
#: Default size limit of one run's position table, in MiB: 2**24 entries of
#: 16 bytes (:data:`MAX_TT_BITS`).
DEFAULT_TABLE_MIB = 256
#: Largest table limit one call takes: 1 TiB.
MAX_TABLE_MIB = 1 << 20


def _table_bits(table_mib: int) -> int:
    """Bits of the largest table (16-byte entries, a power of two of them)
    that fits in ``table_mib`` MiB: 24 for the default 256.

    >>> _table_bits(256), _table_bits(1000), _table_bits(1024), _table_bits(1)
    (24, 25, 26, 16)
    """
    return table_mib.bit_length() - 1 + 16


#: Bits of the largest table at the default limit (24).
MAX_TT_BITS = _table_bits(DEFAULT_TABLE_MIB)
#: Longest search path before a branch is cut (then the result is ``unresolved``).
DEFAULT_MAX_DEPTH = 50_000
#: Largest budget one call takes: 10**12 nodes is weeks of search on one core.
MAX_NODES = 10**12
#: Longest search path one call takes (its arrays cost about 330 bytes a step: 33 MB).
MAX_DEPTH = 100_000


class SolverError(RuntimeError):
    """The solver produced a move list the rule engine does not accept (a bug)."""


_OUTCOMES = ("solved", "unsolvable", "unresolved")
#: The most seconds a result record may say it took (about 31 years).
_MAX_SECONDS = 1e9


def deal_and_proof(deal: int | None, proof: str | None) -> tuple[str, str]:
    """The ``deal=…, `` and ``, proof=…`` parts of a result's repr (empty when None).

    >>> deal_and_proof(417, None)
    ('deal=417, ', '')
    """
    where = f"deal={deal!r}, " if deal is not None else ""
    how = f", proof={proof!r}" if proof is not None else ""
    return where, how


def check_result(record: object, outcomes: Sequence[str], counts: Sequence[str]) -> None:
    """Check and normalise the fields a solver's result record shares (frozen:
    set through ``object.__setattr__``): ``outcome`` one of ``outcomes``,
    ``moves`` (a tuple of Moves), the non-negative integers named in
    ``counts``, ``seconds`` (a finite number, not negative), ``verified``,
    ``variant``, ``deal``, ``start`` and, where the record has one, ``proof``
    (only for an unsolvable outcome).  Raises ValueError."""
    r: Any = record
    if not isinstance(r.outcome, str) or r.outcome not in outcomes:
        raise ValueError(f"outcome must be one of {', '.join(outcomes)}, not {describe(r.outcome)}")
    if not isinstance(r.moves, tuple | list) or not all(isinstance(m, Move) for m in r.moves):
        raise ValueError(f"moves must be a tuple of Moves, not {describe(r.moves)}")
    object.__setattr__(r, "moves", tuple(r.moves))
    for name in counts:
        object.__setattr__(r, name, as_int(getattr(r, name), name, low=0, error=ValueError))
    seconds = as_number(r.seconds, "seconds", low=0, high=_MAX_SECONDS, error=ValueError)
    object.__setattr__(r, "seconds", seconds)
    object.__setattr__(r, "verified", as_bool(r.verified, "verified", error=ValueError))
    if not isinstance(r.variant, str):
        raise ValueError(f"variant must be a str, not {describe(r.variant)}")
    if r.deal is not None:
        try:
            object.__setattr__(r, "deal", game_number(r.deal))
        except DealError as exc:
            raise ValueError(f"deal: {exc}") from None
    if r.start is not None and not isinstance(r.start, GameState):
        raise ValueError(f"start must be a GameState or None, not {describe(r.start)}")
    proof = getattr(r, "proof", None)  # (a player's GameRecord has none)
    if proof is not None:
        if not isinstance(proof, str) or proof not in PROOFS:
            raise ValueError(
                f"proof must be one of {', '.join(PROOFS)} or None, not {describe(proof)}"
            )
        if r.outcome != "unsolvable":
            raise ValueError(
                f"proof is only for an unsolvable outcome, not {r.outcome}: pass proof=None"
            )


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``outcome`` is ``solved`` (``moves`` wins, automatic foundation moves
    included, and ``verified`` says the rule engine replayed it to a win),
    ``unsolvable`` (proved: no sequence of moves wins; ``proof`` says how, one
    of :data:`PROOFS`) or ``unresolved`` (the node budget ran out first).
    ``nodes`` counts positions generated.

    >>> r = SolveResult("unsolvable", deal=64, proof="deadlock")
    >>> r.proof, r.summary().split(": ", 1)[1][:44]
    ('deadlock', 'proven unsolvable: no sequence of moves wins')
    """

    outcome: Outcome
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    verified: bool = False
    variant: str = "bakers_dozen"
    deal: int | None = None
    restarts: int = field(default=0, compare=False)
    #: The position that was solved (for pictures and replays; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)
    #: How an ``unsolvable`` verdict was proven (:data:`PROOFS`); None otherwise.
    proof: Proof | None = None

    def __post_init__(self) -> None:
        check_result(self, _OUTCOMES, ("nodes", "restarts"))

    def __repr__(self) -> str:
        where, how = deal_and_proof(self.deal, self.proof)
        return (
            f"SolveResult(outcome={self.outcome!r}, moves={len(self.moves)}, "
            f"nodes={self.nodes}, {where}variant={self.variant!r}{how})"
        )

    def summary(self) -> str:
        """One sentence: what was found, with how much work."""
        what = f"game {self.deal}" if self.deal is not None else "the position"
        verdict = {
            "solved": f"solved in {len(self.moves)} moves (replayed by the rule engine)",
            "unsolvable": "proven unsolvable: no sequence of moves wins"
            + _PROOF_WORDS.get(self.proof or "", ""),
            "unresolved": "not settled within the node budget",
        }[self.outcome]
        work = f"{counted(self.nodes, 'node')}, {self.seconds:.3f} s"
        return f"{self.variant} {what}: {verdict}; {work}"

    def _repr_html_(self) -> str:
        import html

        text = f"<p><b>{html.escape(self.summary())}</b></p>"
        return text + (self.start.to_html(highlight=()) if self.start is not None else "")

    @property
    def solution(self) -> str:
        """The moves as text, separated by spaces (empty unless solved)."""
        return " ".join(str(m) for m in self.moves)

    @property
    def solved(self) -> bool:
        """True when a verified solution was found."""
        return self.outcome == "solved" and self.verified

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``bakers-lab solve --json``."""
        return {
            "deal": self.deal,
            "variant": self.variant,
            "outcome": self.outcome,
            "moves": [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "verified": self.verified,
            "proof": self.proof,
        }


#: How each proof reads in a summary, for players.
_PROOF_WORDS = {
    "deadlock": " (some card can never get home, whatever is played)",
    "exhausted": " (every line of play was tried)",
    "relaxation": " (the cards cannot all be moved home in any order that fits)",
    "layers": " (every reachable position was searched, none is won)",
}


def _splitmix_table(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    mask = (1 << 64) - 1
    state = seed
    out = np.empty(int(np.prod(shape)), dtype=np.uint64)
    for i in range(out.size):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out[i] = z ^ (z >> 31)
    out.flags.writeable = False
    return out.reshape(shape)


# Zobrist tables: fixed seeds, so results are the same on every machine.
_Z1 = _splitmix_table(1, (52, 53))
_Z2 = _splitmix_table(2, (52, 53))
_ZP1 = _splitmix_table(3, (4, 52))
_ZP2 = _splitmix_table(4, (4, 52))

_TBUILD = {
    "any_suit": codes.ANY_SUIT,
    "same_suit": codes.SAME_SUIT,
    "alternate_colour": codes.ALT_COLOUR,
}
_EMPTY = {"none": codes.EMPTY_NONE, "king": codes.EMPTY_KING, "any": codes.EMPTY_ANY}
_FBUILD = {"same_suit": codes.SAME_SUIT, "alternate_colour": codes.ALT_COLOUR}


def rules_vector(r: Rules) -> np.ndarray:
    """The rules as the integer vector the compiled core reads."""
    p = np.zeros(8, dtype=np.int64)
    p[codes.P_NCOLS] = r.columns
    p[codes.P_RANKS] = r.ranks
    p[codes.P_TBUILD] = _TBUILD[r.tableau_build]
    p[codes.P_EMPTY] = _EMPTY[r.empty_column]
    p[codes.P_SEQ] = 1 if r.move_unit == "sequence" else 0
    p[codes.P_FBUILD] = _FBUILD[r.foundation_build]
    p[codes.P_FRET] = 1 if r.foundation_return else 0
    p[codes.P_MAXLEN] = r.deck_size + 1
    return p


def _arrays(g: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    width = g.rules.deck_size + 1
    cols = np.zeros((g.rules.columns, width), dtype=np.int64)
    lens = np.zeros(g.rules.columns, dtype=np.int64)
    for i, col in enumerate(g.columns):
        lens[i] = len(col)
        cols[i, : len(col)] = [c.index for c in col]
    piles = np.zeros((4, 14), dtype=np.int64)
    plen = np.zeros(4, dtype=np.int64)
    for s, pile in enumerate(g.foundations):
        plen[s] = len(pile)
        piles[s, : len(pile)] = [c.index for c in pile]
    return cols, lens, piles, plen


def core_env(r: Rules) -> codes.Env:
    """The compiled core's fixed tables for these rules (:data:`._core.Env`)."""
    return cast(codes.Env, kernels.new_env(rules_vector(r), _Z1, _Z2, _ZP1, _ZP2))


def core_board(g: GameState, env: codes.Env) -> codes.Board:
    """A fresh board record of position ``g`` (:data:`._core.Board`), derived
    arrays filled in."""
    b = cast(codes.Board, kernels.new_board(*_arrays(g)))
    kernels.init_board(b, env)
    return b


#: Heuristic weights of the best-first runs, used in turn: cards not home,
#: cards that must visit the tableau (above a lower card of their suit), cards
#: above each suit's next card, rounds the doom check needed to settle (how
#: entangled the columns are), and path length.
_WEIGHTS = (
    (1, 1, 0, 1, 0),
    (2, 2, 0, 1, 0),
    (1, 1, 0, 0, 0),
    (1, 2, 0, 1, 0),
    (2, 2, 0, 0, 1),
    (3, 3, 0, 2, 0),
)
_WEIGHT_ARRAYS = tuple(np.array(w, dtype=np.int64) for w in _WEIGHTS)
_KINDS = {"dfs": codes.RUN_DFS, "rdfs": codes.RUN_RDFS, "gbfs": codes.RUN_GBFS}
#: Restarts in pairs, stage by stage: (best-first budget, random-order
#: depth-first budget, how many pairs); the last stage repeats.
#: ``benchmarks/portfolio.py`` measures why: on 134 deals of Baker's Dozen
#: 1-10,000 (24 seeds of each kind each), on the deals a first best-first run
#: does not solve within 10,000 nodes, a random-order run of 2,000-5,000
#: nodes succeeds 5 to 10 times as often per node as a best-first run of that
#: size, while on the easy deals short best-first runs are best; so both kinds
#: run from the start, short.  Longer runs (50,000 and 100,000 nodes) left
#: more deals open than more runs of 20,000.  On Baker's Dozen 1-32,000 these
#: stages settle exactly the deals the stages before them did (32 best-first
#: runs of 5,000 nodes, then pairs of 20,000) with 20 % fewer nodes.  A
#: best-first run stores every position it keeps (about 100 bytes each): the
#: largest, 20,000 nodes, needs about 2 MB.  Growing the last stage's pairs
#: along the Luby sequence (20,000 × 1 1 2 1 1 2 4 …, up to 16×) does not pay
#: either: on Good Measure 1-2,000 it solved 7 deals left open (185, 298, 315,
#: 655, 1703, 1755, 1994) and lost 10 that the many short pairs solve late (3,
#: 155, 162, 242, 445, 538, 627, 1252, 1308, 1419): 90 open instead of 87.
_STAGES = ((2_000, 3_000, 32), (5_000, 5_000, 32), (20_000, 20_000, 10**9))
#: The stages where foundation cards may come back (Baker's Dozen Return):
#: there the random-order runs pay less (a random order keeps taking cards
#: back from the foundations), and :data:`_STAGES` left 5 of deals 1-2,000 open
#: with 105M nodes where these, 32 best-first runs of 5,000 nodes alone and
#: then pairs of 20,000, leave 3 (417, 813, 1650) with 74M.
_STAGES_RETURN = ((5_000, 0, 32), (20_000, 20_000, 10**9))
#: Share of the budget (after the probe) that the restarts may use: with
#: the doom check most unsolvable deals are caught early, so the restarts get
#: more; without it (sequence moves) proofs need the depth-first search.
#: A smaller share trades late solutions for late proofs and loses on balance:
#: at 0.55, of the deals each shipped table settled after 2.7M nodes or left
#: open, Baker's Dozen 1-32,000 gains 3 proofs (6574, 25489, 29393) and loses
#: 3 solutions (1650, 7501, 21702), Good Measure 1-2,000 gains 2 solutions
#: and loses 11, Baker's Dozen Return loses 3.  Game 6574's proof needs
#: 2,041,849 nodes of the closing search and game 7501's solution 2,985,510
#: of restarts: together more than the default budget.
_RESTART_SHARE = {True: 0.8, False: 0.5}
#: Nodes after which restarts that have never reached a position with a
#: third of the deck home give way to the closing search
#: (:func:`_portfolio`, :func:`_few_home`): such a deal is most likely
#: unsolvable, and a proof needs one long depth-first search, not more
#: restarts.  Measured on Baker's Dozen 1-32,000 (every deal the solver had
#: not settled after 1,000,000 nodes, 53 of them, traced run by run): each
#: of the 14 deals solved after 1,500,000 nodes had by then reached a
#: position with at least 19 cards home, and each of the 8 proven unsolvable
#: later or left open though unsolvable (6574, 25489, 29393) none with more
#: than 16 (the 24 left open either way: 5 to 38).
#: Those three need 1.9M to 2.3M nodes of the closing search, more than the
#: fifth of the budget it gets after the restarts, and with the switch it
#: gets 3.5M.  Not where the measured tables say it costs solutions: on Good
#: Measure (five cards a column) 13 of the 40 deals solved after 1,500,000
#: nodes were solved by restarts that had not got 18 cards home by then;
#: with foundation returns and with sequence moves one each (Baker's Dozen
#: Return 599, House Sequences 1867).  A number of nodes, not a share of
#: the budget: the traces say nothing of smaller spends, and as a share (30 %)
#: it cost Baker's Dozen 1-2,000 ten solutions at ``max_nodes=100_000`` (27
#: left open instead of 17, no proof gained); below about 1.9M nodes of
#: budget the restarts end before it and nothing changes.
_SWITCH_AFTER = 1_500_000
#: Above the default budget, the restarts' extra share goes to random-order
#: depth-first runs of this many nodes each (:func:`_portfolio`), seeds from
#: :data:`_LONG_SEED` on, instead of more pairs of 20,000: on Good Measure's
#: deals the default budget leaves open, ten such runs (3,000,000 nodes more
#: a deal) solve 9 of 87 where the same nodes of pairs solve 5
#: (``benchmarks/interleaved.py``; "Long budgets" in this module's docstring).
#: Budgets up to the default run exactly as before.
_LONG_RUN = 300_000
#: The seed of the first long random-order run (then 2, 3, …).
_LONG_SEED = 1


def _doom_applies(r: Rules) -> bool:
    """Whether the least-fixed-point doom check (rules 4 and 6) works under these
    rules: every rule but sequence moves."""
    return r.move_unit == "card"


def _few_home(r: Rules) -> int:
    """Restarts that never reach a position with this many cards home give way
    to the closing search once the runs have spent :data:`_SWITCH_AFTER` nodes
    (0: they never do): a third of the deck, where the deal has at most four
    cards a column and the doom check applies in its first form or extended
    to alternate-colour foundations or empty columns (not where foundation
    cards may come back, nor under sequence moves)."""
    if r.foundation_return or not _doom_applies(r) or r.deck_size > 4 * r.columns:
        return 0
    return -(-r.deck_size // 3)


def _heard(most: int, got: int | None) -> int:
    """The most cards home reported so far, after a run reported ``got``
    (``None``: nothing sent)."""
    return most if got is None else max(most, got)


def _portfolio(
    max_nodes: int, doom: bool = True, returns: bool = False, few: int = 0
) -> Generator[tuple[str, int, int], int | None, None]:
    """The runs of one solve as (kind, budget, seed), their budgets summing to
    ``max_nodes``: a short depth-first probe, then pairs of restarts with
    growing budgets (:data:`_STAGES`: a best-first run, random tie-breaks and
    varied weights, then a depth-first run in a random order, kind ``rdfs``,
    with the same seed; where foundation cards may come back, the stages of
    :data:`_STAGES_RETURN`), then a depth-first search with what is left, the
    one that proves most unsolvable deals.  Above the default budget, what
    the restarts get beyond the default's share goes to random-order runs of
    :data:`_LONG_RUN` nodes, after the pairs the default budget has.

    The caller may ``send`` each run's most cards home (what :func:`_run`
    returns last): once the runs have spent :data:`_SWITCH_AFTER` nodes and
    none has reached a position with ``few`` cards home
    (:func:`_few_home`), the restarts stop and the closing search gets the
    rest.  Plain iteration sends nothing and never switches.

    A generator: a huge budget costs no memory before the runs that use it."""
    left = max_nodes
    probe = min(1_000, left)
    most = _heard(-1, (yield ("dfs", probe, 0)))  # -1 until a run reports
    left -= probe
    restarts = int(left * _RESTART_SHARE[doom])
    # what the restarts get beyond the default budget's share goes to long runs
    extra = max(0, restarts - int((DEFAULT_MAX_NODES - probe) * _RESTART_SHARE[doom]))
    restarts -= extra
    seed = 0
    for guided, shuffled, count in _STAGES_RETURN if returns else _STAGES:
        for _ in range(count):
            if restarts < guided or (0 <= most < few and max_nodes - left >= _SWITCH_AFTER):
                break
            most = _heard(most, (yield ("gbfs", guided, seed)))
            restarts -= guided
            left -= guided
            if shuffled > 0 and restarts >= shuffled:
                most = _heard(most, (yield ("rdfs", shuffled, seed)))
                restarts -= shuffled
                left -= shuffled
            seed += 1
    seed = _LONG_SEED
    while extra >= _LONG_RUN and not (0 <= most < few and max_nodes - left >= _SWITCH_AFTER):
        most = _heard(most, (yield ("rdfs", _LONG_RUN, seed)))
        extra -= _LONG_RUN
        left -= _LONG_RUN
        seed += 1
    if left > 0:
        yield ("dfs", left, 1)


@functools.lru_cache(maxsize=8192)
def _move(card: int, kind: int, target: int) -> Move:
    """The Move a trail row records (moves are immutable: each is built once)."""
    c = Card.from_index(card)
    if kind == 0:
        return Move(c, Card.from_index(target))
    if kind == 1:
        return Move(c, Dest.FOUNDATION, Suit(target))
    return Move(c, Dest.EMPTY)


def trail_moves(trail: np.ndarray, n: int) -> list[Move]:
    """The first ``n`` moves of a compiled search's trail (rows of card, kind, target) as
    :class:`~bakers_lab.model.moves.Move` objects."""
    rows = trail[:n, 3:6].tolist()
    return [_move(card, kind, target) for card, kind, target in rows]


def verify_moves(
    start: GameState, moves: Sequence[Move | str], who: str = "solver"
) -> tuple[tuple[Move, ...], bool]:
    """Replay on the rule engine; return the moves in canonical notation and
    whether they win (``who`` names the mover in the error of a refused move)."""

    def refused(n: int, m: Move | str, exc: Exception) -> SolverError:
        reason = exc.reason if isinstance(exc, IllegalMoveError) else str(exc)
        return SolverError(f"{who} move {n} ({m}) refused by the rule engine: {reason}")

    g = start.copy()
    return g.play_each(moves, refused), g.is_won


def move_buffer_size(r: Rules) -> int:
    """Most moves one position can have under these rules (the move buffers' size)."""
    maxrun = r.ranks if r.move_unit == "sequence" else 1
    return r.columns * maxrun * (r.columns + 2) + 4 * (r.columns + 2) + 8


def _trail(r: Rules, max_depth: int) -> np.ndarray:
    """The move trail of a search: a path holds at most ``max_depth`` moves, and
    automatic moves add at most one per card plus one per return from a
    foundation, so ``2 * max_depth`` + the deck bounds it."""
    # not zeroed: a search reads only rows it wrote (clearing 6 MB cost each
    # solve more than its search on most deals)
    return np.empty((2 * max_depth + r.deck_size + 8, codes.TRAIL_W), dtype=np.int64)


def _tt_bits(budget: int, max_bits: int) -> int:
    """Bits of a run's table: room for two entries a node of its budget, at
    least 2**12 and at most ``2**max_bits`` entries."""
    return max(12, min(max_bits, int(budget * 2 - 1).bit_length()))


def _run(
    kind: str,
    budget: int,
    seed: int,
    start: tuple[np.ndarray, ...],
    env: codes.Env,
    max_depth: int,
    max_moves: int,
    trail: np.ndarray,
    max_bits: int = MAX_TT_BITS,
) -> tuple[int, int, int, int]:
    """One run of the portfolio from ``start`` (the position's :func:`_arrays`):
    (status, nodes, trail length, the most cards home in a position it
    reached).  Kinds: ``dfs`` (ordered depth-first), ``rdfs`` (depth-first in
    a random order), ``gbfs`` (greedy best-first, weights ``_WEIGHTS[seed % 6]``).
    Its position table has ``2**tt_bits`` entries, enough for the budget, at
    most ``2**max_bits`` (see :func:`_table_bits`)."""
    tt_bits = _tt_bits(budget, max_bits)
    weights = _WEIGHT_ARRAYS[seed % len(_WEIGHTS)] if kind == "gbfs" else _WEIGHT_ARRAYS[0]
    cols, lens, piles, plen = start
    status, used, tp, most = kernels.run(
        _KINDS[kind],
        cols,
        lens,
        piles,
        plen,
        env,
        budget,
        seed,
        tt_bits,
        max_depth,
        max_moves,
        trail,
        weights,
    )
    return int(status), int(used), int(tp), int(most)


def solve(
    position: Deal | GameState | int,
    *,
    variant: str | Rules | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    table_mib: int = DEFAULT_TABLE_MIB,
    relax: float = 0.0,
) -> SolveResult:
    """Solve a deal, a position in progress, or a PySolFC game number.

    ``max_nodes`` bounds the work (positions generated, summed over restarts;
    1 to ``MAX_NODES``); ``max_depth`` the length of a search path (1 to
    ``MAX_DEPTH``); ``table_mib`` the memory of a run's table of positions
    seen (1 to ``MAX_TABLE_MIB`` MiB; the largest power of two of 16-byte
    entries that fits, and no more than the run's budget needs).  The result
    is deterministic for the same position, rules, budget and table size.

    The defaults settle almost every deal in seconds and under 256 MiB.  For
    the rest, a *long budget*, and with it a larger table: a table too small
    for its search forgets positions and searches them again, which on a
    long search costs more than the budget can make up (see the module's
    "Long budgets").  ``table_mib=max_nodes // 32_768`` gives every run room
    for two entries a node (1,024 MiB for 33,554,432 nodes); a run never
    takes more than its budget needs.  Long paths may need
    ``max_depth=MAX_DEPTH`` too.

    ``relax`` (0, the default, to :data:`MAX_RELAX`) is CP-SAT's deterministic
    time for the relaxation of :mod:`.relax`, tried when the search leaves the
    position open (single-card moves, same-suit foundations that keep their
    cards); where it finds no schedule the result is ``unsolvable`` with
    ``proof="relaxation"``.  Off by default: it has proved none of the deals
    the default budget leaves open (see the module's "Deals left open").  An
    unsolvable result says how it was proven: ``proof`` is ``deadlock`` (the
    dead-end test refutes the start itself), ``exhausted`` or ``relaxation``.

    >>> r = solve(64)                      # proven: no sequence of moves wins
    >>> r.outcome, r.deal, r.moves, r.proof
    ('unsolvable', 64, (), 'deadlock')
    >>> from bakers_lab import deal
    >>> r = solve(1)
    >>> r.outcome, GameState.from_deal(deal(1)).play_all(list(r.moves)).is_won
    ('solved', True)
    """
    t0 = time.perf_counter()
    start, number = start_of(position, variant, who="solve")
    max_nodes = as_int(max_nodes, "max_nodes", low=1, high=MAX_NODES)
    max_depth = as_int(max_depth, "max_depth", low=1, high=MAX_DEPTH)
    max_bits = _table_bits(as_int(table_mib, "table_mib", low=1, high=MAX_TABLE_MIB))
    r = start.rules
    relax = _relax_limit(relax, r)
    max_moves = move_buffer_size(r)
    trail = _trail(r, max_depth)
    nodes = 0
    outcome: Outcome = "unresolved"
    moves: tuple[Move, ...] = ()
    verified = False
    proof: Proof | None = None
    runs = 0
    env = core_env(r)
    stacks = _arrays(start)
    runs_of = _portfolio(max_nodes, _doom_applies(r), r.foundation_return, _few_home(r))
    most: int | None = None
    while True:
        try:
            kind, budget, seed = runs_of.send(most)
        except StopIteration:
            break
        try:
            status, used, tp, most = _run(
                kind, budget, seed, stacks, env, max_depth, max_moves, trail, max_bits
            )
        except MemoryError:
            mib = 2 ** _tt_bits(budget, max_bits) * 16 // 2**20
            raise MemoryError(
                f"a table of {mib:,} MiB for a run of {budget:,} nodes does not fit "
                f"in memory: pass a smaller table_mib (now {table_mib})"
            ) from None
        nodes += used
        runs += 1
        if status == codes.SOLVED:
            moves, verified = verify_moves(start, trail_moves(trail, tp))
            if not verified:
                raise SolverError("the solver's move list does not win when replayed")
            outcome = "solved"
            break
        if status == codes.UNSOLVABLE:
            outcome = "unsolvable"
            proof = "deadlock" if used == 1 and lost_at_once(start, env, trail) else "exhausted"
            break
    if outcome == "unresolved" and relax > 0:
        from bakers_lab.solve.relax import relax as relaxation

        if relaxation(start, limit=relax).verdict == "infeasible":
            outcome, proof = "unsolvable", "relaxation"
    return SolveResult(
        outcome, moves, nodes, time.perf_counter() - t0, verified, r.name, number, runs, start,
        proof,
    )  # fmt: skip


def _relax_limit(relax: object, r: Rules) -> float:
    """``solve``'s ``relax`` checked: a number from 0 to :data:`MAX_RELAX`, and
    above 0 only where the relaxation models the rules."""
    limit = as_number(relax, "relax", low=0, high=MAX_RELAX,
                      unit=" (CP-SAT's deterministic time; 0: not tried)")  # fmt: skip
    if limit > 0:
        from bakers_lab.solve.relax import applies

        why = applies(r)
        if why is not None:
            raise ValueError(f"relax: the relaxation does not model {r.name}'s rules: {why}")
    return limit


def lost_at_once(start: GameState, env: codes.Env, trail: np.ndarray) -> bool:
    """Whether the dead-end test (rules 4 and 6) refutes ``start`` itself, after
    its automatic foundation moves: a proof without search."""
    b = core_board(start, env)
    kernels.autoplay(b, env, trail, 0)
    return bool(kernels.is_lost(b, env, True, True))
