"""The compiled play loop of the human-like players (numba, nopython, cached).

See :mod:`.players` for the public API, the policies and why a game always ends.
It works on the same records and helpers as the solver's core (:mod:`._core`):
a :data:`~._codes.Board` (the position and what is derived from it) and an
:data:`~._core.Env` (rules and hash tables); ``step`` plays a move and its
automatic foundation moves and records both on the trail, ``undo_to`` takes
them back, and the position key (``b.hsh``) is the solver's order-free hash.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the policies, the game results and the stop flag's index (see ._codes)
from bakers_lab.solve._codes import (
    CAPPED,
    EMPTY_NONE,
    GREEDY,
    P_EMPTY,
    P_FBUILD,
    P_NCOLS,
    P_RANKS,
    PATIENCE,
    PILE,
    RANDOM,
    SAME_SUIT,
    STOP,
    STOPPED,
    STUCK,
    WON,
)
from bakers_lab.solve._core import (
    autoplay,
    gen_moves,
    home_count,
    hot,
    init_board,
    is_lost,
    new_rng,
    rank_of,
    step,
    tt_has,
    tt_seen,
    undo_to,
    xorshift,
)

# evaluation weights, by index: cards not home, low cards buried, empty columns, traps
W_HOME, W_LOW, W_SPACE, W_TRAPS = range(4)
#: Score of a won position (lower is better); a win sooner scores lower still.
WIN_SCORE = -(1 << 40)
#: How much a position the doom check calls lost weighs, in inversions.
DOOMED = 50


@hot
def score(b, env, W):
    """The careful player's evaluation of a position, lower is better (see
    :mod:`.players` for each term and the tip it comes from)."""
    return judge(b, env, W, False)[0]


@hot
def judge(b, env, W, doom):
    """The careful player's evaluation of a position (:func:`score`) and whether
    the dead-end test calls it lost (worked out where the evaluation weighs
    traps or ``doom`` asks; else False): the planners prune such positions."""
    P = env.P
    lens, loc_col, loc_dep = b.lens, b.loc_col, b.loc_dep
    ranks = P[P_RANKS]
    ncols = P[P_NCOLS]
    home = home_count(b)
    if home == 4 * ranks:
        return WIN_SCORE, False
    total = W[W_HOME] * (4 * ranks - home)
    if W[W_LOW] != 0:
        low = 0
        for s in range(4):
            for r in range(2):  # Aces weigh 2 a card above them, Twos 1
                x = s * 13 + r
                col = loc_col[x]
                if col >= 0:
                    low += (2 - r) * (lens[col] - 1 - loc_dep[x])
        total += W[W_LOW] * low
    if W[W_SPACE] != 0:
        empty = 0
        for c in range(ncols):
            if lens[c] == 0:
                empty += 1
        # an empty column is lost ground where it takes nothing, room where it does
        total += W[W_SPACE] * (empty if P[P_EMPTY] == EMPTY_NONE else -empty)
    lost = False
    if W[W_TRAPS] != 0 or doom:
        lost = is_lost(b, env, True, False)
    if W[W_TRAPS] != 0:
        nbad = 0
        for c in range(ncols):
            nbad += b.bad[c]
        if lost:
            nbad += DOOMED
        total += W[W_TRAPS] * nbad
    return total, lost


@hot
def dig_depths(b, P, out):
    """For each column, how many cards lie above its shallowest *wanted* card (one
    the foundations take next: the lowest rank of its suit not yet home; with
    alternate-colour foundations, the lowest rank left in the tableau); 1023 if none."""
    cols, lens, plen = b.cols, b.lens, b.plen
    ncols = P[P_NCOLS]
    low = 99
    for c in range(ncols):
        for j in range(lens[c]):
            r = rank_of(cols[c, j])
            if r < low:
                low = r
    for c in range(ncols):
        out[c] = 1023
        for j in range(lens[c]):
            x = cols[c, j]
            r = rank_of(x)
            wanted = r == low if P[P_FBUILD] != SAME_SUIT else r == plen[x // 13] + 1
            if wanted:
                out[c] = lens[c] - 1 - j  # deeper cards come first: the last one wins


@hot
def on_line(lh1, lh2, n, h1, h2):
    for i in range(n):
        if lh1[i] == h1 and lh2[i] == h2:
            return True
    return False


@njit(cache=True, nogil=True)  # the page can tick while it runs
def play_board(b, env, policy, depth, W, seed, cap, patience, trail, max_moves, tt_bits, control):
    """Play one game from the position on board ``b``; returns (result, trail
    length, positions evaluated, decisions).  The trail holds every move,
    automatic foundation moves included.  ``control[STOP]`` set by another
    thread ends the game before its next decision (result STOPPED)."""
    P = env.P
    ncols = P[P_NCOLS]
    decksize = 4 * P[P_RANKS]
    init_board(b, env)
    hsh = b.hsh
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    rng = new_rng(seed)
    buf = np.zeros(max_moves, np.int64)
    dig = np.zeros(ncols, np.int64)
    # the look-ahead's stacks: level l is the position l + 1 moves into a line
    lbuf = np.zeros((depth, max_moves), np.int64)
    lcount = np.zeros(depth, np.int64)
    lidx = np.zeros(depth, np.int64)
    ltp = np.zeros(depth, np.int64)
    lh1 = np.zeros(depth, np.uint64)
    lh2 = np.zeros(depth, np.uint64)

    tp = autoplay(b, env, trail, 0)
    tt_seen(tt, hsh[0], hsh[1])
    nodes = 0
    decisions = 0
    stall = 0
    home = home_count(b)
    while True:
        if home == decksize:
            return WON, tp, nodes, decisions
        if decisions >= cap:
            return CAPPED, tp, nodes, decisions
        if stall >= patience:
            return PATIENCE, tp, nodes, decisions
        if control[STOP] != 0:
            return STOPPED, tp, nodes, decisions
        n = gen_moves(b, env, buf, False)
        if policy == GREEDY:
            dig_depths(b, P, dig)
        best = -1
        best_key = np.int64(0)
        for a in range(n):
            m = buf[a]
            src = m & 63
            greedy_key = np.int64(1 << 40)
            if policy == GREEDY:
                if (m >> 6) & 63 >= PILE:
                    greedy_key = np.int64(a)  # home moves first, in move order
                elif src < PILE:
                    # dig toward the next wanted card, then from the tallest column
                    greedy_key = np.int64(1 << 20) + dig[src] * 1024 + 1023 - b.lens[src]
            t2 = step(b, env, m, trail, tp)
            if not tt_has(tt, hsh[0], hsh[1]):
                nodes += 1
                noise = np.int64(xorshift(rng) & np.uint64(1023))
                if policy == RANDOM:
                    key = noise
                elif policy == GREEDY:
                    key = greedy_key
                else:
                    value = score(b, env, W)
                    if depth > 1 and value > WIN_SCORE:
                        # every line of up to depth moves that starts with this one
                        lh1[0] = hsh[0]
                        lh2[0] = hsh[1]
                        ltp[0] = t2
                        lcount[0] = gen_moves(b, env, lbuf[0], False)
                        lidx[0] = 0
                        lvl = 0
                        while lvl >= 0:
                            if lidx[lvl] < lcount[lvl]:
                                mm = lbuf[lvl, lidx[lvl]]
                                lidx[lvl] += 1
                                t3 = step(b, env, mm, trail, ltp[lvl])
                                if not tt_has(tt, hsh[0], hsh[1]) and not on_line(
                                    lh1, lh2, lvl + 1, hsh[0], hsh[1]
                                ):
                                    nodes += 1
                                    v = score(b, env, W)
                                    if v == WIN_SCORE:
                                        v = WIN_SCORE + lvl + 1  # sooner is better
                                    if v < value:
                                        value = v
                                    if v > WIN_SCORE + depth and lvl + 2 < depth:
                                        lvl += 1
                                        lh1[lvl] = hsh[0]
                                        lh2[lvl] = hsh[1]
                                        ltp[lvl] = t3
                                        lcount[lvl] = gen_moves(b, env, lbuf[lvl], False)
                                        lidx[lvl] = 0
                                        continue
                                undo_to(b, env, trail, t3, ltp[lvl])
                            else:
                                if lvl > 0:
                                    undo_to(b, env, trail, ltp[lvl], ltp[lvl - 1])
                                lvl -= 1
                    key = value * 1024 + noise
                if best < 0 or key < best_key:
                    best = a
                    best_key = key
            undo_to(b, env, trail, t2, tp)
        if best < 0:
            return STUCK, tp, nodes, decisions
        tp = step(b, env, buf[best], trail, tp)
        tt_seen(tt, hsh[0], hsh[1])
        decisions += 1
        now = home_count(b)
        stall = 0 if now > home else stall + 1
        home = now
