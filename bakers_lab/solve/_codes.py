"""The numbers and records the compiled searches and their Python callers share.

Nothing here imports numba: the searches compiled ahead of time (see
:mod:`.kernels`) are called from Python with these records and codes, and
the kernels compiled by numba (:mod:`._core` and its siblings) import them
from here, so that both sides read one definition.

- :data:`Board`, :data:`Env` (see :mod:`._core`) and :data:`LEnv` (see
  :mod:`._layers`): named tuples of arrays, which numba compiles like structs.
- The codes: indices into the rules vector ``P``, the build rules, stack ids,
  search results, the trail's width, the kinds of :func:`._core.run`, the
  players' policies and results, A*'s bounds, the layered search's places
  and states.

>>> b = new_board(np.zeros((13, 20), np.int64), np.zeros(13, np.int64),
...               np.zeros((4, 13), np.int64), np.zeros(4, np.int64))
>>> type(b).__name__, b.mins.shape, len(Env._fields), len(LEnv._fields)
('Board', (13, 21), 7, 6)
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

# indices into the rules array P
P_NCOLS, P_RANKS, P_TBUILD, P_EMPTY, P_SEQ, P_FBUILD, P_FRET, P_MAXLEN = range(8)
# tableau_build / foundation_build / empty_column codes
ANY_SUIT, SAME_SUIT, ALT_COLOUR = 0, 1, 2
EMPTY_NONE, EMPTY_KING, EMPTY_ANY = 0, 1, 2
# Stack ids: columns 0 … 51 (a Rules record allows up to 52 columns, one card each),
# foundation piles PILE … PILE + 3; a move packs two ids in 6 bits each, so PILE + 3 < 64.
PILE = 56
MAX_COLUMNS = 52
assert MAX_COLUMNS <= PILE and PILE + 3 < 64
# search results (the solver's and A*'s: OPTIMAL is A*'s word for SOLVED)
SOLVED, UNSOLVABLE, BUDGET = 0, 1, 2
OPTIMAL = SOLVED
# trail columns: src, dst, count, card, kind (0 onto card, 1 foundation, 2 empty), target,
# and the bad counts (see Board) of the source and destination columns before the move
TRAIL_W = 8
#: The kinds of :func:`._core.run`.
RUN_DFS, RUN_RDFS, RUN_GBFS = 0, 1, 2

# the players' policies
RANDOM, GREEDY, CAREFUL = 0, 1, 2
# game results: all cards home, stuck (no move to a new position), out of patience
# (too many decisions in a row without a card going home), out of moves (the cap);
# stopped by the caller (control[STOP] set: Ctrl-C, see ._interrupt)
WON, STUCK, PATIENCE, CAPPED, STOPPED = 0, 1, 2, 3, 4
#: the stop flag's index in a search's ``control`` array (as in ._interrupt)
STOP = 0

#: A*: no line found yet, the upper bound before any.
NO_LINE = 1 << 30
#: The bounds A* can search with, weakest first (see :mod:`._shortest`).
CARDS_NOT_HOME, DETOURS, DEADLOCKS, HITTING_SET = 0, 1, 2, 3
#: The scratch words the exact deadlock bound needs (see :mod:`._hitting`).
SCRATCH = 720

# the layered search: the one-byte codes of a card's place (see ._layers)
ON_EMPTY = 52
HOME = 53  # 53 … 56: on pile s
UNMOVED = 57
ABSENT = 255
#: The width of a position row: one byte a card.
WIDTH = 52
# what the group search (._layers.close) returns
DONE, STEPS, FLUSH, GROW, ROOTS, FOUND = range(6)
# its state's slots (the caller reads the counts)
S_ROOT, S_DEPTH, S_OUT, S_NEW, S_CHILDREN, S_SEEN, S_NROOTS, S_FOUND, S_EMITTED, S_LOST = range(10)
ST_SIZE = 12

#: The position and what is derived from it (see :mod:`._core`).
Board = namedtuple(
    "Board",
    [
        "cols",
        "lens",
        "piles",
        "plen",
        "loc_col",
        "loc_dep",
        "raw1",
        "raw2",
        "mix1",
        "mix2",
        "hsh",
        "bad",
        "mins",
        "topr",
        "lim",
        "info",
    ],
)
#: The rules vector, the Zobrist tables and the doom check's card tables
#: (see :func:`.kernels.new_env`): fixed through a search.
Env = namedtuple("Env", ["P", "Z1", "Z2", "ZP1", "ZP2", "PAR", "HOME"])
#: What stays fixed through a layered search, beside :data:`Env`:
#: ``start_cols`` / ``start_lens``, the start position's columns (the dealt places);
#: ``c0`` / ``d0``, each card's column and depth there (-1: not in a column at the start);
#: ``ru`` / ``rh``, the key's radix of each column's never-moved count and of each pile's
#: height (all 0 where foundation cards may come back: home is then not one-way).
LEnv = namedtuple("LEnv", ["start_cols", "start_lens", "c0", "d0", "ru", "rh"])


def new_board(cols: Any, lens: Any, piles: Any, plen: Any) -> Any:
    """A board record around the given stacks (int64 arrays; the derived arrays
    are filled by :func:`._core.init_board`).  Plain Python that numba also
    compiles (:func:`._core.new_board`): one definition for both sides."""
    ncols = lens.shape[0]
    return Board(
        cols,
        lens,
        piles,
        plen,
        np.full(52, -99, np.int64),
        np.zeros(52, np.int64),
        np.zeros(ncols, np.uint64),
        np.zeros(ncols, np.uint64),
        np.zeros(ncols, np.uint64),
        np.zeros(ncols, np.uint64),
        np.zeros(2, np.uint64),
        np.zeros(ncols, np.int64),
        np.zeros((ncols, cols.shape[1] + 1), np.int64),
        np.zeros(ncols, np.int64),
        np.zeros(ncols, np.int64),
        np.zeros(2, np.int64),
    )


def new_lenv(cols: np.ndarray, lens: np.ndarray, ru: np.ndarray, rh: np.ndarray) -> Any:
    """The fixed tables of a layered search from the start's ``cols`` (int64,
    columns × width) and ``lens`` (int64), and the radixes ``ru`` (int64,
    columns) and ``rh`` (int64, 4)."""
    c0 = np.full(52, -1, np.int64)
    d0 = np.full(52, -1, np.int64)
    for c in range(lens.shape[0]):
        for j in range(lens[c]):
            c0[cols[c, j]] = c
            d0[cols[c, j]] = j
    return LEnv(cols.copy(), lens.copy(), c0, d0, ru, rh)
