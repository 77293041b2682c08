"""The layered search: every position reachable from a start, each seen once,
a group at a time, so that a proof of a loss needs memory for one group only.

Why it is exhaustive
--------------------
A card that has left its dealt place never counts as undealt again (even if
it comes back to lie on the card it was dealt on), and where foundation cards
never come back a card sent home stays home.  So every position has a
*fingerprint*: for each column, how many of its dealt cards have never moved
(they are the deepest ones: a card above a never-moved card is a dealt card
that has not moved either, or a moved card), and, where home is one-way, how
many cards are on each foundation pile.  No move lowers any of these counts
... in the sense that matters: a move either keeps the fingerprint (it moves a
card, or a run, that has moved before from one column to another) or it
moves a never-moved card (its column's count drops) or sends a card home
(a pile's count rises).  Define the *layer* as the number of dealt cards
that have moved plus, where home is one-way, the number of cards home: a move
that changes the fingerprint raises the layer by one or two, a move that
keeps it keeps the layer.  Hence:

- the positions of one fingerprint (a *group*) reach each other only
  through positions of the same fingerprint, and any other position they
  reach lies in a higher layer;
- so once every group of the layers below ``L`` has been searched, every
  position of layer ``L`` that is reachable at all has been *found* (as an
  entry of its group), and searching each group of layer ``L`` from its
  entries, with duplicates detected inside the group only, finds every
  reachable position of that layer exactly once.

Searching the layers in order therefore visits every reachable position once,
while holding in memory only one group's positions at a time; the entries of
later groups wait in files (the frontier).  A won position, if one is
reachable, is found; if none is found when no layer has entries left, no
sequence of moves wins: that is the proof ``layers``.

Where foundation cards may come back (``foundation_return``) home is not
one-way: a card can go home and come back.  Then the fingerprint is the
never-moved counts alone, and the layer the number of dealt cards moved; the
foundations are part of a position inside its group.  The argument above only
used that no move lowers the fingerprint's counts and that a move changing
them raises the layer, which still holds: a card sent home from its dealt
place has left it (its column's count drops), and a return from a foundation
moves a card that had left its dealt place already.  (Spanish Patience's
alternate-colour piles: a pile's height is one-way, which card lies where on
it is part of the position.)

The pruning rules of the solver (:mod:`.fast`) that the layered search keeps,
and why each holds here:

- Rule 1, safe foundation moves made at once, and rule 2, a column's last
  card not moved onto another column where empty columns stay empty: each
  maps every solution to one, no longer, that the pruned moves allow (their
  arguments in :mod:`.fast` are about positions, not about the search), so
  by induction on the length of a shortest solution the positions the pruned
  moves leave out are never needed: a reachable winning position stays
  reachable.
- Rule 3, columns interchangeable: a position is written with its runs on
  empty bases in no particular column (:mod:`._layers`), and the duplicate
  check's hashes do not depend on the order of the columns.
- Rules 4 and 6, the dead-position test: a property of the position alone;
  a position it refutes has no winning line, so it is counted and not
  searched.
- Rule 5, transpositions: here the exact set of the group's positions (two
  64-bit hashes a position; a wrong "seen" needs two positions of one group to
  agree on both, below 10**-18 for groups of 10**10 positions), never a table
  that forgets.

Left out: rule 7 (cards just moved are not moved again at once).  Its
argument needs the position's parent, and a position of the layered search is
stored without its parent; full duplicate detection finds those children to
be seen already anyway.

Finding the winning line
------------------------
Every entry written to a later group carries the *ref* (layer, bucket, row)
of the entry of its own group whose search found it.  When a won position is
found, the chain of refs gives the entries the line passes through, one per
group, back to the start; the line inside each group, from its entry to the
position that left it, is found again by a search of that one group.  The
whole line is then replayed by the rule engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.rules import Rules
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import kernels
from bakers_lab.solve.fast import core_board, core_env, move_buffer_size, trail_moves

__all__ = [
    "RECORD",
    "GroupTooLarge",
    "Outcome",
    "Problem",
    "Searcher",
    "ref_of",
    "ref_parts",
]

#: A frontier row: the group's key, the ref of the entry whose search found it
#: (-1: the start), and the position (one byte a card, :mod:`._layers`): 68 bytes.
RECORD = np.dtype([("key", "<i8"), ("ref", "<i8"), ("pos", "u1", (codes.WIDTH,))])

# refs: layer (7 bits) | bucket (12 bits) | row (40 bits)
_ROW_BITS = 40
_BUCKET_BITS = 12


def ref_of(layer: int, bucket: int, row: int) -> int:
    """The ref of row ``row`` of bucket ``bucket`` of layer ``layer``.

    >>> ref_parts(ref_of(40, 3, 12345))
    (40, 3, 12345)
    """
    return (layer << (_ROW_BITS + _BUCKET_BITS)) | (bucket << _ROW_BITS) | row


def ref_parts(ref: int) -> tuple[int, int, int]:
    """(layer, bucket, row) of a ref (:func:`ref_of`)."""
    row = ref & ((1 << _ROW_BITS) - 1)
    bucket = (ref >> _ROW_BITS) & ((1 << _BUCKET_BITS) - 1)
    return ref >> (_ROW_BITS + _BUCKET_BITS), bucket, row


class GroupTooLarge(MemoryError):
    """A group's positions outgrew the memory a worker may use."""


@dataclass(frozen=True)
class Problem:
    """A layered search's fixed part: the rules and the start (after its
    automatic foundation moves).

    >>> import bakers_lab as bl
    >>> p = Problem.of(bl.GameState.from_deal(bl.deal(5)))
    >>> p.first_layer  # (its automatic moves: six cards leave their places, for home)
    6
    >>> p
    Problem(rules='bakers_dozen', start=<0 cards home>)
    """

    rules: Rules
    start: GameState

    @classmethod
    def of(cls, start: GameState) -> Problem:
        return cls(start.rules, start.copy())

    def __repr__(self) -> str:
        return f"Problem(rules={self.rules.name!r}, start=<{self.start.cards_home} cards home>)"

    @property
    def env(self) -> codes.Env:
        return core_env(self.rules)

    @property
    def one_way_home(self) -> bool:
        return not self.rules.foundation_return

    def lenv(self) -> codes.LEnv:
        g = self.start
        ncols = self.rules.columns
        width = self.rules.deck_size + 1
        cols = np.zeros((ncols, width), dtype=np.int64)
        lens = np.zeros(ncols, dtype=np.int64)
        for i, col in enumerate(g.columns):
            lens[i] = len(col)
            cols[i, : len(col)] = [c.index for c in col]
        ru = np.zeros(ncols, dtype=np.int64)
        radix = 1
        for c in range(ncols):
            ru[c] = radix
            radix *= int(lens[c]) + 1
        rh = np.zeros(4, dtype=np.int64)
        if self.one_way_home:
            for s in range(4):
                rh[s] = radix
                radix *= self.rules.ranks + 1
        if radix >= 1 << 62:
            raise ValueError(
                f"the layered search names a group by a number below 2**62; these "
                f"{ncols} columns need {radix.bit_length()} bits"
            )
        return kernels.new_lenv(cols, lens, ru, rh)  # type: ignore[no-any-return]

    def start_record(self) -> tuple[np.ndarray, list[Move], bool, int]:
        """The start as a frontier record (after its automatic moves), those
        moves, whether it is won already, and its layer."""
        env = self.env
        lenv = self.lenv()
        b = core_board(self.start, env)
        trail = np.zeros((self.rules.deck_size + 8, codes.TRAIL_W), dtype=np.int64)
        u = np.zeros(self.rules.columns, dtype=np.int64)
        row = np.zeros((1, codes.WIDTH), dtype=np.uint8)
        tp, key, won = kernels.start_of_search(b, env, lenv, trail, u, row)
        rec = np.zeros(1, dtype=RECORD)
        rec["key"] = key
        rec["ref"] = -1
        rec["pos"] = row
        layer = np.zeros(1, dtype=np.int64)
        kernels.layers_of(lenv, rec["key"].copy(), layer)
        return rec, trail_moves(trail, int(tp)), bool(won), int(layer[0])

    @property
    def first_layer(self) -> int:
        return self.start_record()[3]


@dataclass(frozen=True)
class Outcome:
    """What searching some groups found: the counts, and, if a win was
    reached, the ref of the entry whose group search led to it (``won``).
    Where a probe (a short run of the solver) won from a frontier row rather
    than the search itself, ``won_key`` and ``won_pos`` are that row and
    ``won_moves`` the probe's line from it."""

    groups: int = 0
    entries: int = 0
    positions: int = 0
    lost: int = 0
    written: int = 0
    children: int = 0
    largest: int = 0
    won: int | None = None
    won_key: int = -1
    won_pos: tuple[int, ...] = ()
    won_moves: tuple[str, ...] = ()
    #: The row written with the most cards home (its ref, key, position and
    #: cards home): where a short run of the solver is likeliest to win.
    best_ref: int = -1
    best_key: int = -1
    best_pos: tuple[int, ...] = ()
    best_home: int = -1

    def __post_init__(self) -> None:  # (read back from JSON: lists)
        object.__setattr__(self, "won_pos", tuple(self.won_pos))
        object.__setattr__(self, "won_moves", tuple(self.won_moves))
        object.__setattr__(self, "best_pos", tuple(self.best_pos))

    def __add__(self, other: Outcome) -> Outcome:
        """Counts added, the larger table kept, the first win and the most
        advanced row kept."""
        won = self if self.won is not None else other
        best = self if self.best_home >= other.best_home else other
        return dataclasses.replace(
            won,
            **{f: getattr(self, f) + getattr(other, f) for f in _SUMMED},
            **{f: getattr(best, f) for f in _BEST},
            largest=max(self.largest, other.largest),
        )


#: The fields of :class:`Outcome` that add up, and those of its most advanced row.
_SUMMED = ("groups", "entries", "positions", "lost", "written", "children")
_BEST = ("best_ref", "best_key", "best_pos", "best_home")


#: Depth of the group search's stacks (deeper positions become roots of their own).
_CAP = 2048
#: Positions between two returns of the kernel (for progress and Ctrl-C).
_STEPS = 1 << 20
#: Rows of the output buffer (17 MB).
_OUT_ROWS = 1 << 18
_NO_TARGET = np.array([np.uint64(2**64 - 1), 0, 0, 0], dtype=np.uint64)


class Searcher:
    """The arrays of the group search for one problem, reused group after group.

    ``memory`` bounds the bytes of a group's table of positions (16 bytes a
    slot, kept at most half full): a group that needs more raises
    :class:`GroupTooLarge`.
    """

    def __init__(self, problem: Problem, memory: int) -> None:
        r = problem.rules
        self.problem = problem
        self.env = problem.env
        self.lenv = problem.lenv()
        self.memory = memory
        self.board = core_board(problem.start, self.env)
        ncols = r.columns
        moves = move_buffer_size(r)
        # (empty, not zeroed: the search reads only what it wrote)
        self.trail = np.empty((2 * _CAP + r.deck_size + 64, codes.TRAIL_W), dtype=np.int64)
        self.mstack = np.empty((_CAP, moves), dtype=np.int64)
        self.nmov = np.zeros(_CAP, dtype=np.int64)
        self.idx = np.zeros(_CAP, dtype=np.int64)
        self.tp_at = np.zeros(_CAP + 1, dtype=np.int64)
        self.uu = np.zeros((2, ncols), dtype=np.int64)
        self.on = np.zeros(53, dtype=np.int64)
        self.cache = np.zeros((1 << 20, 2), dtype=np.uint64)
        self.out = np.empty((_OUT_ROWS, codes.WIDTH), dtype=np.uint8)
        self.out_key = np.empty(_OUT_ROWS, dtype=np.int64)
        self.out_ref = np.empty(_OUT_ROWS, dtype=np.int64)
        self.n_out = 0  # rows waiting in the output buffer

    def _table(self, n: int) -> np.ndarray:
        slots = 1 << max(10, (4 * n - 1).bit_length())
        return self._new_table(slots)

    def _new_table(self, slots: int) -> np.ndarray:
        if slots * 16 > self.memory:
            raise GroupTooLarge(
                f"a group needs a table of {in_bytes(slots * 16)}, over the "
                f"{in_bytes(self.memory)} a worker may use"
            )
        return np.zeros((slots, 2), dtype=np.uint64)

    def search(
        self,
        key: int,
        roots: np.ndarray,
        refs: np.ndarray,
        emit: Callable[[np.ndarray, np.ndarray, np.ndarray], None],
        tick: Callable[[int], None] | None = None,
        target: np.ndarray = _NO_TARGET,
    ) -> tuple[int, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
        """Search group ``key`` from ``roots`` (uint8 rows) whose refs are
        ``refs``; ``emit(keys, refs, rows)`` takes the positions found in later
        groups, ``tick(positions)`` hears of progress.  Returns (status, st,
        the found root's index or -1, roots, their refs, roots_from): ``status`` is
        ``_layers.DONE`` or ``_layers.FOUND`` (``st[S_FOUND]`` trail rows lead
        from that root to a won position, or to ``target``)."""
        n = len(roots)
        cap = max(16, 2 * n)
        rt = np.zeros((cap, codes.WIDTH), dtype=np.uint8)
        rt[:n] = roots
        rref = np.zeros(cap, dtype=np.int64)
        rref[:n] = refs
        rfrom = np.full(cap, -1, dtype=np.int64)
        st = np.zeros(codes.ST_SIZE, dtype=np.int64)
        st[codes.S_DEPTH] = -1
        st[codes.S_NROOTS] = n
        st[codes.S_OUT] = self.n_out  # (rows from earlier groups wait in the buffer)
        seen = self._table(n)
        last = 0
        while True:
            status = kernels.close(
                self.board,
                self.env,
                self.lenv,
                np.int64(key),
                rt,
                rref,
                rfrom,
                st,
                seen,
                self.cache,
                self.trail,
                self.mstack,
                self.nmov,
                self.idx,
                self.tp_at,
                self.uu,
                self.on,
                self.out,
                self.out_key,
                self.out_ref,
                target,
                np.int64(_STEPS),
            )
            if status == codes.GROW:
                bigger = self._new_table(2 * len(seen))
                kernels.regrow(seen, bigger)
                seen = bigger
            elif status == codes.ROOTS:
                rt = np.concatenate([rt, np.zeros_like(rt)])
                rref = np.concatenate([rref, np.zeros_like(rref)])
                rfrom = np.concatenate([rfrom, np.full_like(rfrom, -1)])
            elif status == codes.FLUSH or status in (codes.DONE, codes.FOUND):
                self.n_out = int(st[codes.S_OUT])
                if status == codes.FLUSH:
                    self.flush(emit)
                    st[codes.S_OUT] = 0
                else:
                    found = int(st[codes.S_ROOT]) - 1 if status == codes.FOUND else -1
                    if tick is not None:
                        tick(int(st[codes.S_NEW]) - last)
                    return int(status), st, found, rt, rref, rfrom
            if tick is not None and status == codes.STEPS:
                tick(int(st[codes.S_NEW]) - last)
                last = int(st[codes.S_NEW])

    def flush(self, emit: Callable[[np.ndarray, np.ndarray, np.ndarray], None]) -> None:
        """Hand the rows waiting in the output buffer to ``emit``."""
        k = self.n_out
        if k:
            emit(self.out_key[:k].copy(), self.out_ref[:k].copy(), self.out[:k].copy())
            self.n_out = 0

    def process(
        self,
        records: np.ndarray,
        base_refs: np.ndarray,
        emit: Callable[[np.ndarray, np.ndarray, np.ndarray], None],
        tick: Callable[[int], None] | None = None,
    ) -> Outcome:
        """Search every group of ``records`` (frontier rows of one layer, any
        order; row ``i``'s ref is ``base_refs[i]``)."""
        order = np.argsort(records["key"], kind="stable")
        keys = records["key"][order]
        cuts = np.flatnonzero(np.diff(keys)) + 1
        starts = np.concatenate([[0], cuts])
        ends = np.concatenate([cuts, [len(keys)]])
        total = Outcome()
        for a, z in zip(starts.tolist(), ends.tolist(), strict=True):
            rows = order[a:z]
            status, st, found, _, rref, _ = self.search(
                int(keys[a]), records["pos"][rows], base_refs[rows], emit, tick
            )
            one = Outcome(
                groups=1,
                entries=z - a,
                positions=int(st[codes.S_NEW]),
                lost=int(st[codes.S_LOST]),
                written=int(st[codes.S_EMITTED]),
                children=int(st[codes.S_CHILDREN]),
                largest=int(st[codes.S_SEEN]),
            )
            if status == codes.FOUND:
                # won: the entry whose search (or whose added root's) reached it
                self.n_out = 0
                return total + dataclasses.replace(one, won=int(rref[found]))
            total = total + one
        return total

    def line(self, key: int, root: np.ndarray, target: np.ndarray) -> list[Move]:
        """The moves, inside group ``key``, from position ``root`` (one row)
        to ``target`` (see :func:`._layers.close`)."""
        moves: list[Move] = []
        self.n_out = 0
        status, st, found, rt, _, _ = self.search(
            key, root[None, :], np.zeros(1, dtype=np.int64), _drop, None, target
        )
        if status != codes.FOUND:
            raise RuntimeError("the layered search lost a line it had found (a bug)")
        n = int(st[codes.S_FOUND])
        tail = trail_moves(self.trail, n)
        if found > 0:
            # the line starts at a root the search added: first the line to it
            moves = self.line(key, root, self.target_of(key, rt[found : found + 1]))
        return moves + tail

    def state_of(self, key: int, row: np.ndarray) -> GameState:
        """The position of a frontier row (``row``: one row, 2-D) of group ``key``."""
        from bakers_lab.model.cards import Card

        u = np.zeros(self.problem.rules.columns, dtype=np.int64)
        kernels.decode(self.board, self.env, self.lenv, np.int64(key), row, 0, u, self.on)
        b = self.board
        cols = [[Card.from_index(int(x)) for x in b.cols[c, : b.lens[c]]] for c in range(len(u))]
        piles = [[Card.from_index(int(x)) for x in b.piles[s, : b.plen[s]]] for s in range(4)]
        return GameState(self.problem.rules, cols, piles)

    def target_of(self, key: int, row: np.ndarray) -> np.ndarray:
        """The target (for :func:`._layers.close`) of the position in ``row``."""
        u = np.zeros(self.problem.rules.columns, dtype=np.int64)
        kernels.decode(self.board, self.env, self.lenv, np.int64(key), row, 0, u, self.on)
        h1, h2 = kernels.hashes(self.board)
        return np.array([np.uint64(key), h1, h2, 0], dtype=np.uint64)


def in_bytes(n: int) -> str:
    """A size for a person: ``in_bytes(3 << 29)`` is ``'1.5 GiB'``.

    >>> in_bytes(128 << 10), in_bytes(3 << 29), in_bytes(700)
    ('128 KiB', '1.5 GiB', '700 bytes')
    """
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.3g} {unit}"
    return f"{n} bytes"


def _drop(keys: np.ndarray, refs: np.ndarray, rows: np.ndarray) -> None:
    """An emit that keeps nothing (finding a line writes no frontier)."""


WIN_TARGET = np.array([0, 0, 0, 1], dtype=np.uint64)


def records(keys: np.ndarray, refs: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Frontier records from the kernel's output arrays."""
    rec = np.empty(len(keys), dtype=RECORD)
    rec["key"] = keys
    rec["ref"] = refs
    rec["pos"] = rows
    return rec
