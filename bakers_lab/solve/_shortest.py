"""The compiled core of :func:`bakers_lab.shortest`: A* over the positions of
:mod:`._core` (numba, nopython, cached).  See :mod:`.shortest` for the public
API and for why the lower bound is admissible and each pruning keeps a
shortest win.

A *node* is a stored position: its cards (:func:`._core.encode`), the node it
was reached from and the move, ``g`` (moves played from the start, automatic
foundation moves included) and ``h`` (the lower bound: :mod:`._deadlocks`,
:mod:`._hitting`).  A table maps each
position key to its node, so a position reached again by a shorter line is
updated and searched again (the bound need not be consistent), never stored
twice.  The arrays grow by doubling, so memory follows the nodes stored, not
the budget.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bakers_lab.solve._codes import (
    BUDGET,
    CARDS_NOT_HOME,
    DEADLOCKS,
    HITTING_SET,
    NO_LINE,
    OPTIMAL,
    P_FBUILD,
    P_NCOLS,
    P_RANKS,
    P_SEQ,
    PILE,
    SAME_SUIT,
    SCRATCH,
    STOP,
    UNSOLVABLE,
)
from bakers_lab.solve._core import (
    autoplay,
    decode,
    encode,
    gen_moves,
    home_count,
    hot,
    init_board,
    is_lost,
    just_moved,
    moves_again,
    safe_to_home,
    step,
    undo_to,
)
from bakers_lab.solve._deadlocks import lower_bound, quick_bound
from bakers_lab.solve._hitting import hitting_set

# The results of :func:`astar` (OPTIMAL, UNSOLVABLE, BUDGET), NO_LINE (no line found
# yet: the upper bound before any), and the bounds :func:`astar` can search with,
# weakest first: the cards not home (CARDS_NOT_HOME); and the stuck cards (DETOURS);
# and the deadlocks packed greedily (DEADLOCKS, :func:`._deadlocks.lower_bound`); and
# the deadlocks counted exactly (HITTING_SET, :func:`._hitting.hitting_set`, the
# default): all in ._codes, which Python reads without numba.


@hot
def _quick(b, env, level):
    """The quick bound at ``level`` (see :data:`DEADLOCKS`)."""
    if level == CARDS_NOT_HOME:
        return 4 * env.P[P_RANKS] - home_count(b)
    return quick_bound(b, env)


@hot
def full_bound(b, env, scratch, level):
    """The full bound at ``level`` (see :data:`DEADLOCKS`)."""
    if level == HITTING_SET:
        return strongest_bound(b, env, scratch)
    if level == DEADLOCKS:
        return lower_bound(b, env, scratch)
    return _quick(b, env, level)


@hot
def strongest_bound(b, env, scratch):
    """:func:`._deadlocks.quick_bound` plus, with same-suit foundations and
    single-card moves, :func:`._hitting.hitting_set` (``scratch``:
    :data:`._hitting.SCRATCH` uint64)."""
    P = env.P
    h = quick_bound(b, env)
    if P[P_FBUILD] == SAME_SUIT and P[P_SEQ] == 0:
        h += hitting_set(b, env, scratch)
    return h


@hot
def _last_move(b, m, rows):
    """The card move ``m`` just put on a column and the card it uncovered, when
    it moved one card between columns with no automatic move after it (the
    moves :func:`_commutes` may reorder); else (-1, -1)."""
    src = m & 63
    dst = (m >> 6) & 63
    if rows != 1 or src >= PILE or dst >= PILE or (m >> 12) != 1 or b.lens[src] == 0:
        return np.int16(-1), np.int16(-1)
    return np.int16(b.cols[dst, b.lens[dst] - 1]), np.int16(b.cols[src, b.lens[src] - 1])


@hot
def _commutes(b, env, m, x, w):
    """Whether move ``m`` (of this position) could have been played before the
    move that led here, which put card ``x`` on a column and uncovered card
    ``w`` (:func:`_last_move`), reaching the same position in as many moves,
    and comes first in the order of cards moved: one card between columns,
    onto a card, none of the four columns shared, no automatic move after
    it, and its card lower than ``x`` (see :mod:`.shortest`, "Moves in either
    order")."""
    src = m & 63
    dst = (m >> 6) & 63
    if src >= PILE or dst >= PILE or (m >> 12) != 1:
        return False
    ls = b.lens[src]
    ld = b.lens[dst]
    if ld == 0 or ls < 2:
        return False
    y = b.cols[src, ls - 1]
    q = b.cols[dst, ld - 1]
    if y >= x or y == w or q == x or q == w:  # noqa: SIM109 (compiled: plain comparisons)
        return False
    return not safe_to_home(b, env, b.cols[src, ls - 2])


@hot
def _find(tk, h1, h2):
    """The slot of key (h1, h2) in the table ``tk`` or the empty slot where it
    goes (linear probing; the table never fills: it grows first)."""
    mask = np.uint64(tk.shape[0] - 1)
    k1 = h1 | np.uint64(1)
    i = h1 & mask
    while True:
        if tk[i, 0] == 0 or (tk[i, 0] == k1 and tk[i, 1] == h2):
            return np.int64(i)
        i = (i + np.uint64(1)) & mask


@njit(cache=True)
def _grow_table(tk, ti):
    """The table twice as large, keys re-placed."""
    n = tk.shape[0] * 2
    nk = np.zeros((n, 2), np.uint64)
    ni = np.zeros(n, np.int32)
    for i in range(tk.shape[0]):
        if tk[i, 0] != 0:
            j = _find(nk, tk[i, 0], tk[i, 1])
            nk[j, 0] = tk[i, 0]
            nk[j, 1] = tk[i, 1]
            ni[j] = ti[i]
    return nk, ni


@njit(cache=True)
def _grow2(a, n):
    """``a`` (rows) with room for ``n`` rows."""
    out = np.empty((n, a.shape[1]), a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _grow1(a, n):
    """``a`` with room for ``n`` entries."""
    out = np.empty(n, a.dtype)
    out[: a.shape[0]] = a
    return out


@hot
def _push(hk, hv, n, key, val):
    i = n
    hk[i] = key
    hv[i] = val
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] < hk[i] or (hk[p] == hk[i] and hv[p] <= hv[i]):
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return n + 1


@hot
def _pop(hk, hv, n):
    key = hk[0]
    val = hv[0]
    n -= 1
    hk[0] = hk[n]
    hv[0] = hv[n]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        c = a + 1
        m = a
        if c < n and (hk[c] < hk[a] or (hk[c] == hk[a] and hv[c] < hv[a])):
            m = c
        if hk[i] < hk[m] or (hk[i] == hk[m] and hv[i] <= hv[m]):
            break
        hk[i], hk[m] = hk[m], hk[i]
        hv[i], hv[m] = hv[m], hv[i]
        i = m
    return key, val, n


#: A heap key: f in the high bits, then h (lower first: deeper first among
#: equal f), the node index breaking the last ties (first stored first).
H_BITS = 16


#: How a node treats the moves that commute with its last move
#: (:func:`_commutes`): CUT them (the same positions come by the other order),
#: KEEP them (as short a line came with another last move), or search ONLY
#: them (the node was searched with them cut: now the rest of its children).
CUT, KEEP, ONLY = 0, 1, 2


#: :func:`astar`'s ``control`` array: STOP is set by the caller to end the
#: search (as if the budget ran out); NODES and BOUND are reported by the search
#: every :data:`REPORT` nodes.
NODES, BOUND = 1, 2  # (STOP = 0, see ._codes)
REPORT = 1 << 16


@njit(cache=True, nogil=True)
def astar(b, env, budget, upper, max_moves, trail, level, control):
    """A* from the position on board ``b`` (filled by :func:`._core.init_board`),
    its automatic foundation moves played first.

    ``upper``: the length of a known win (:data:`NO_LINE` if none): lines as
    long are not searched.  Returns (status, nodes generated, best length,
    lower bound, the moves of the best line found here, nodes stored).
    ``status`` is OPTIMAL (no shorter win exists than the best length: a line
    found here, or ``upper`` itself when the moves are empty), UNSOLVABLE (no
    win: only without ``upper``) or BUDGET (the bound is what was proven).
    The moves are those the search chose, first move first; :func:`._core.step`
    replays each with its automatic foundation moves.  ``level`` picks the
    bound (:data:`DEADLOCKS`, the strongest, by default: the others are for
    showing what a better bound saves).  ``control`` (3 int64, see
    :data:`STOP`) lets another thread follow the search and stop it: the
    search releases the GIL."""
    P = env.P
    ncols = P[P_NCOLS]
    deck = 4 * P[P_RANKS]
    width = deck + ncols + 4
    # stored nodes: the root, and at most one a node generated (a budget's
    # worth, and the children of the last expansion)
    most = budget + max_moves + 1
    cap = min(1 << 12, most)
    store = np.empty((cap, width), np.uint8)
    parent = np.empty(cap, np.int32)
    pmove = np.empty(cap, np.int32)
    gval = np.empty(cap, np.int32)
    hval = np.empty(cap, np.int32)
    held = np.empty(cap, np.int32)
    exact = np.empty(cap, np.uint8)  # the dead-end test and the full bound were run
    # the last move of the shortest line known (:func:`_last_move`) and how
    # the moves it commutes with are treated (:data:`CUT`)
    lastx = np.empty(cap, np.int16)
    lastw = np.empty(cap, np.int16)
    order = np.empty(cap, np.uint8)
    expanded = np.empty(cap, np.uint8)
    tk = np.zeros((1 << 13, 2), np.uint64)
    ti = np.zeros(1 << 13, np.int32)
    hk = np.empty(cap, np.int64)
    hv = np.empty(cap, np.int32)
    buf = np.zeros(max_moves, np.int64)
    scratch = np.zeros(SCRATCH, np.uint64)

    tp0 = autoplay(b, env, trail, 0)
    g0 = tp0
    nodes = 1
    best = upper
    goal = -1  # the node of the best win found here
    if home_count(b) == deck:
        return OPTIMAL, nodes, g0, g0, np.zeros(0, np.int64), 0
    if is_lost(b, env, True, True):
        return UNSOLVABLE, nodes, NO_LINE, NO_LINE, np.zeros(0, np.int64), 0
    h = full_bound(b, env, scratch, level)
    bound = g0 + h
    if bound >= best:
        return OPTIMAL, nodes, best, best, np.zeros(0, np.int64), 0
    encode(b, env, store, 0)
    parent[0] = -1
    pmove[0] = 0
    gval[0] = g0
    hval[0] = h
    held[0] = -1
    exact[0] = 1
    lastx[0] = -1
    lastw[0] = -1
    order[0] = CUT
    expanded[0] = 0
    slot = _find(tk, b.hsh[0], b.hsh[1])
    tk[slot, 0] = b.hsh[0] | np.uint64(1)
    tk[slot, 1] = b.hsh[1]
    ti[slot] = 0
    nstored = 1
    nheap = _push(hk, hv, 0, ((g0 + h) << H_BITS) | h, 0)
    status = UNSOLVABLE
    reported = 0
    while nheap > 0:
        key, k, nheap = _pop(hk, hv, nheap)
        f = key >> H_BITS
        if f >= best:
            status = OPTIMAL
            break
        if f != gval[k] + hval[k]:
            continue  # stale: reached again by a shorter line, or its bound raised
        bound = max(bound, f)
        if nodes >= budget:
            status = BUDGET
            break
        if nodes >= reported + REPORT:
            reported = nodes
            control[NODES] = nodes
            control[BOUND] = bound
            if control[STOP] != 0:
                status = BUDGET
                break
        decode(b, env, store, k)
        init_board(b, env)
        g = gval[k]
        if exact[k] == 0:
            # stored with the quick bound: the dead-end test and the full bound
            # now, when it comes up (most stored positions never do)
            exact[k] = 1
            if is_lost(b, env, True, True):
                hval[k] = NO_LINE
                continue
            h = full_bound(b, env, scratch, level)
            if h > hval[k]:
                hval[k] = h
                if g + h < best:
                    nheap = _push(hk, hv, nheap, ((g + h) << H_BITS) | h, k)
                continue
        n = gen_moves(b, env, buf)
        expanded[k] = 1
        x = lastx[k] if order[k] != KEEP else -1
        only = order[k] == ONLY
        if only:
            order[k] = KEEP
        for a in range(n):
            m = buf[a]
            if moves_again(m, held[k]):
                continue  # rule 7: the parent has this child
            if x >= 0 and _commutes(b, env, m, x, lastw[k]) != only:
                continue  # the same position, by the moves in the other order
            t2 = step(b, env, m, trail, tp0)
            nodes += 1
            g2 = g + (t2 - tp0)
            if home_count(b) == deck:
                if g2 < best:
                    best = g2
                    goal = nstored  # stored below as a node of its own
                    h2 = 0
                else:
                    undo_to(b, env, trail, t2, tp0)
                    continue
            else:
                h2 = _quick(b, env, level)
                if g2 + h2 >= best:
                    undo_to(b, env, trail, t2, tp0)
                    continue
            slot = _find(tk, b.hsh[0], b.hsh[1])
            if tk[slot, 0] != 0:
                j = ti[slot]
                if gval[j] <= g2:
                    if goal == nstored:
                        goal = j
                    elif gval[j] == g2 and order[j] == CUT and lastx[j] >= 0:
                        nx, nw = _last_move(b, m, t2 - tp0)
                        if nx != lastx[j] or nw != lastw[j]:
                            # as short a line with another last move: the moves
                            # cut for the first one are searched too
                            order[j] = KEEP
                            if expanded[j] != 0 and hval[j] < NO_LINE:
                                order[j] = ONLY
                                if nheap >= hk.shape[0]:
                                    hk = _grow1(hk, hk.shape[0] * 2)
                                    hv = _grow1(hv, hv.shape[0] * 2)
                                fj = ((g2 + hval[j]) << H_BITS) | hval[j]
                                nheap = _push(hk, hv, nheap, fj, j)
                    undo_to(b, env, trail, t2, tp0)
                    continue
                # a shorter line to a stored position: update it, search it again.  The
                # line may reach it with its columns in another order (the key does not
                # depend on the order: two empty columns, or a column refilled): its board
                # is stored again as this line leaves it, for its moves are columns'
                # numbers on that board, and the line is replayed move by move
                encode(b, env, store, j)
                gval[j] = g2
                parent[j] = k
                pmove[j] = m
                held[j] = just_moved(m, t2 - tp0)
                lastx[j], lastw[j] = _last_move(b, m, t2 - tp0)
                order[j] = CUT
                if goal == nstored:
                    goal = j
                elif hval[j] < NO_LINE:  # (not dead)
                    if nheap >= hk.shape[0]:
                        hk = _grow1(hk, hk.shape[0] * 2)
                        hv = _grow1(hv, hv.shape[0] * 2)
                    nheap = _push(hk, hv, nheap, ((g2 + hval[j]) << H_BITS) | hval[j], j)
                undo_to(b, env, trail, t2, tp0)
                continue
            if nstored >= cap:
                # half as much again (a node is stored only when generated, so never
                # more than the budget allows), and the table kept at most 4/5 full:
                # linear probing stays quick, and at half full it took 320 MB of
                # a 10,000,000-node search's 1 GB
                cap = min(cap + cap // 2, most)
                store = _grow2(store, cap)
                parent = _grow1(parent, cap)
                pmove = _grow1(pmove, cap)
                gval = _grow1(gval, cap)
                hval = _grow1(hval, cap)
                held = _grow1(held, cap)
                exact = _grow1(exact, cap)
                lastx = _grow1(lastx, cap)
                lastw = _grow1(lastw, cap)
                order = _grow1(order, cap)
                expanded = _grow1(expanded, cap)
                while tk.shape[0] < cap + cap // 4:
                    tk, ti = _grow_table(tk, ti)
                slot = _find(tk, b.hsh[0], b.hsh[1])
            encode(b, env, store, nstored)
            parent[nstored] = k
            pmove[nstored] = m
            gval[nstored] = g2
            hval[nstored] = h2
            held[nstored] = just_moved(m, t2 - tp0)
            exact[nstored] = 1 if h2 == 0 else 0
            lastx[nstored], lastw[nstored] = _last_move(b, m, t2 - tp0)
            order[nstored] = CUT
            expanded[nstored] = 0
            tk[slot, 0] = b.hsh[0] | np.uint64(1)
            tk[slot, 1] = b.hsh[1]
            ti[slot] = nstored
            if h2 > 0:
                if nheap >= hk.shape[0]:
                    hk = _grow1(hk, hk.shape[0] * 2)
                    hv = _grow1(hv, hv.shape[0] * 2)
                nheap = _push(hk, hv, nheap, ((g2 + h2) << H_BITS) | h2, nstored)
            nstored += 1
            undo_to(b, env, trail, t2, tp0)
    if status == UNSOLVABLE and best < NO_LINE:
        status = OPTIMAL
    if status == OPTIMAL:
        bound = best
    nout = 0
    k = goal
    while k > 0:
        nout += 1
        k = parent[k]
    path = np.empty(nout, np.int64)
    k = goal
    for i in range(nout - 1, -1, -1):
        path[i] = pmove[k]
        k = parent[k]
    return status, nodes, best, bound, path, nstored


@njit(cache=True)
def replay(b, env, path, trail):
    """Play ``path`` (moves :func:`astar` chose) from the position on board
    ``b`` with every automatic foundation move; returns the trail length."""
    tp = autoplay(b, env, trail, 0)
    for m in path:
        tp = step(b, env, m, trail, tp)
    return tp
