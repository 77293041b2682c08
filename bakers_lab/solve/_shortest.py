"""The compiled core of :func:`bakers_lab.shortest`: A* over the positions of
:mod:`._core` (numba, nopython, cached).  See :mod:`.shortest` for the public
API and for why the lower bound is admissible and each pruning keeps a
shortest win.

A *node* is a stored position: its cards (:func:`._core.encode`), the node it
was reached from and the move, ``g`` (moves played from the start, automatic
foundation moves included) and ``h`` (:func:`lower_bound`).  A table maps each
position key to its node, so a position reached again by a shorter line is
updated and searched again (the bound need not be consistent), never stored
twice.  The arrays grow by doubling, so memory follows the nodes stored, not
the budget.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._core import (
    EMPTY_ANY,
    P_EMPTY,
    P_FBUILD,
    P_FRET,
    P_NCOLS,
    P_RANKS,
    P_SEQ,
    P_TBUILD,
    SAME_SUIT,
    autoplay,
    builds_on,
    decode,
    encode,
    gen_moves,
    home_count,
    hot,
    init_board,
    is_lost,
    just_moved,
    lies_bad,
    moves_again,
    rank_of,
    step,
    undo_to,
)

# results of :func:`astar`
OPTIMAL, UNSOLVABLE, BUDGET = 0, 1, 2
#: No line found yet: the upper bound before any.
NO_LINE = 1 << 30
#: The 52 cards' bits, and a bit past them: a landing set's second move of its
#: stuck card (an element no other set holds: see :func:`_landing`).
CARDS = np.uint64((1 << 52) - 1)
AGAIN = np.uint64(1 << 63)


@hot
def quick_bound(b, env):
    """Moves still needed, at least, cheaply: the cards not home, plus
    (same-suit foundations) one tableau move for each *stuck block*: a card
    above a lower card of its suit, or, with sequence moves, a built run
    holding one.  See :mod:`.shortest` for the proof."""
    P = env.P
    h = 4 * P[P_RANKS] - home_count(b)
    if P[P_FBUILD] != SAME_SUIT:
        return h
    ncols = P[P_NCOLS]
    if P[P_SEQ] == 0:
        for c in range(ncols):
            h += b.bad[c]
        return h
    tb = P[P_TBUILD]
    for c in range(ncols):
        stuck = False  # the block being scanned holds a stuck card
        for j in range(b.lens[c]):
            x = b.cols[c, j]
            if j > 0 and not builds_on(x, b.cols[c, j - 1], tb):
                if stuck:
                    h += 1
                stuck = False
            if lies_bad(b.mins[c, j], x):
                stuck = True
        if stuck:
            h += 1
    return h


@hot
def lower_bound(b, env, scratch):
    """:func:`quick_bound` plus, with same-suit foundations and single-card
    moves, the :func:`deadlocks` packed (see :mod:`.shortest`)."""
    P = env.P
    h = quick_bound(b, env)
    if P[P_FBUILD] == SAME_SUIT and P[P_SEQ] == 0:
        h += deadlocks(b, env, scratch)
    return h


#: The bounds :func:`astar` can search with, weakest first: the cards not
#: home; and the stuck cards; and the deadlocks (:func:`lower_bound`, the default).
CARDS_NOT_HOME, DETOURS, DEADLOCKS = 0, 1, 2


@hot
def _quick(b, env, level):
    """The quick bound at ``level`` (see :data:`DEADLOCKS`)."""
    if level == CARDS_NOT_HOME:
        return 4 * env.P[P_RANKS] - home_count(b)
    return quick_bound(b, env)


@hot
def _full(b, env, scratch, level):
    """The full bound at ``level`` (see :data:`DEADLOCKS`)."""
    if level == DEADLOCKS:
        return lower_bound(b, env, scratch)
    return _quick(b, env, level)


@njit(cache=True, inline="always")
def _higher(mins):
    """The cards of each suit higher than the lowest of that suit in ``mins``
    (see :func:`._core.lies_bad`), as a 52-bit set (bit ``suit * 13 + rank - 1``)."""
    out = np.uint64(0)
    for s in range(4):
        m = (mins >> (4 * s)) & 15
        if m < 13:
            out |= ((np.uint64(1) << np.uint64(13 - m)) - np.uint64(1)) << np.uint64(s * 13 + m)
    return out


@hot
def deadlocks(b, env, scratch):
    """How many cards not lying above a lower card of their suit must still
    make a tableau move, at least: a greedy packing of disjoint *deadlocks*
    (see :mod:`.shortest`), smallest first.  A deadlock is a set of cards
    one of which must make a tableau move:

    - a cycle of the *deadlock graph*: card t points to card u when u is
      higher than some card of u's suit lying beneath t;
    - the *landing set* of a stuck card t (one above a lower card of its
      suit, which must make a tableau move): for each parent p it could land
      on, p itself, and the cards above p that are higher than some card of
      their suit beneath t (none of them can go home before t leaves).

    Stuck cards are counted by the caller and left out.  ``scratch``: 168
    uint64 (each card's arrows, the cycle search's levels, the landing sets)."""
    P = env.P
    ncols = P[P_NCOLS]
    adj = scratch[:52]
    levels = scratch[52:116]
    land = scratch[116:168]
    stuck = np.uint64(0)
    avail = np.uint64(0)
    for c in range(ncols):
        for j in range(b.lens[c]):
            x = b.cols[c, j]
            adj[x] = _higher(b.mins[c, j])
            if lies_bad(b.mins[c, j], x):
                stuck |= _bit(x)
            else:
                avail |= _bit(x)
    nland = 0
    if stuck != 0 and P[P_FRET] == 0 and P[P_EMPTY] != EMPTY_ANY:
        top = P[P_RANKS]
        for c in range(ncols):
            for j in range(b.lens[c]):
                x = b.cols[c, j]
                if (stuck & _bit(x)) != 0 and rank_of(x) < top:
                    u = _landing(b, env, c, j, x, stuck)
                    if u != 0:
                        land[nland] = u
                        nland += 1
    # the cards each card is pointed to by, and the pairs pointing both ways
    radj = levels[:52]  # (free until the cycle search below needs the levels)
    radj[:] = 0
    rest = avail
    while rest != 0:
        x = _low_bit(rest)
        rest &= rest - np.uint64(1)
        a = adj[x] & avail
        while a != 0:
            y = _low_bit(a)
            a &= a - np.uint64(1)
            radj[y] |= _bit(x)
    for x in range(52):
        if (avail & _bit(x)) != 0:
            adj[x] &= avail
            radj[x] &= adj[x]  # now: the cards x points to and is pointed to by
    count = 0
    pairs = True  # some pair may be left
    while avail != 0:
        # the smallest landing set left whole
        size = 99
        pick = -1
        for i in range(nland):
            u = land[i]
            if u != 0 and (u & ~avail & CARDS) == 0:
                n = _popcount(u)
                if n < size:
                    size = n
                    pick = i
        if size > 1 and pairs:
            # a pair pointing both ways (a cycle of two): the card with the
            # fewest such partners first, and its partner with the fewest
            x = _fewest(radj, avail, avail)
            if x >= 0:
                y = _fewest(radj, avail, radj[x] & avail)
                avail &= ~(_bit(x) | _bit(y))
                count += 1
                continue
            pairs = False
        length = 99
        src = -1
        if size > 3:
            length, src = _shortest_cycle(adj, _on_cycles(adj, avail), levels, size)
        if src >= 0:
            avail &= ~_cycle_through(adj, avail, levels, src, length)
        elif pick >= 0:
            avail &= ~land[pick]
            land[pick] = 0
        else:
            return count
        count += 1
    return count


@hot
def _fewest(radj, avail, among):
    """The card of ``among`` with the fewest partners (``radj``) in ``avail``,
    at least one; -1 if none has any."""
    best = -1
    fewest = 99
    rest = among
    while rest != 0:
        x = _low_bit(rest)
        rest &= rest - np.uint64(1)
        n = _popcount(radj[x] & avail)
        if 0 < n < fewest:
            fewest = n
            best = x
            if n == 1:
                break
    return best


@njit(cache=True, inline="always")
def _bit(x):
    return np.uint64(1) << np.uint64(x)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@hot
def _landing(b, env, c, j, t, stuck):
    """The landing set of stuck card t at depth j of column c (see
    :func:`deadlocks`), or 0 when it gives nothing: some parent is free to
    take t for good, or a stuck card is in the set already.  The bit
    :data:`AGAIN` stands for a second tableau move of t: it is in the set
    when some parent lies above a lower card of t's suit (t would be stuck
    there again)."""
    conflict = _higher(b.mins[c, j])  # cards that must go home after t leaves
    rest = env.PAR[t]
    out = np.uint64(0)
    while rest != 0:
        p = _low_bit(rest)
        rest &= rest - np.uint64(1)
        cp = b.loc_col[p]
        if cp < 0:
            continue  # home for good (no returns)
        jp = b.loc_dep[p]
        if cp == c:
            if jp < j:
                continue  # beneath t: never uncovered while t lies there
            out |= _bit(p)  # above t: it must move away first, and not home
            continue
        blockers = np.uint64(0)
        for k in range(jp + 1, b.lens[cp]):
            y = b.cols[cp, k]
            if (conflict & _bit(y)) != 0:
                blockers |= _bit(y)
        again = lies_bad(b.mins[cp, jp], t)  # t would lie above a lower card of its suit
        if blockers == 0 and not again:
            return np.uint64(0)  # p can take t for good with no other card's detour
        out |= blockers | _bit(p)
        if again:
            out |= AGAIN  # or t makes a second tableau move
    if (out & stuck) != 0:
        return np.uint64(0)
    return out


@hot
def _on_cycles(adj, alive):
    """``alive`` less the cards no arrow (within it) leaves or reaches, again
    and again: what is left holds every cycle."""
    while True:
        into = np.uint64(0)
        keep = np.uint64(0)
        rest = alive
        while rest != 0:
            x = _low_bit(rest)
            rest &= rest - np.uint64(1)
            a = adj[x] & alive
            if a != 0:
                keep |= _bit(x)
                into |= a
        keep &= into
        if keep == alive:
            return alive
        alive = keep


@hot
def _shortest_cycle(adj, alive, levels, limit):
    """(length, a card on it) of a shortest cycle within ``alive`` shorter than
    ``limit``, or (limit, -1): a search by levels from each card."""
    best = limit
    best_src = -1
    rest = alive
    while rest != 0:
        src = _low_bit(rest)
        rest &= rest - np.uint64(1)
        bs = _bit(src)
        seen = bs
        front = bs
        for depth in range(1, best):
            nxt = np.uint64(0)
            f = front
            while f != 0:
                u = _low_bit(f)
                f &= f - np.uint64(1)
                nxt |= adj[u]
            nxt &= alive
            if (nxt & bs) != 0:
                best = depth
                best_src = src
                break
            nxt &= ~seen
            if nxt == 0:
                break
            seen |= nxt
            front = nxt
        if best <= 2:
            break  # (no card points to itself here: none is shorter)
    return best, best_src


@hot
def _cycle_through(adj, alive, levels, src, length):
    """The cards of a cycle of ``length`` through ``src`` within ``alive``
    (one :func:`_shortest_cycle` found): the levels again, then back."""
    bs = _bit(src)
    levels[0] = bs
    seen = bs
    for depth in range(1, length):
        nxt = np.uint64(0)
        f = levels[depth - 1]
        while f != 0:
            u = _low_bit(f)
            f &= f - np.uint64(1)
            nxt |= adj[u]
        nxt &= alive & ~seen
        seen |= nxt
        levels[depth] = nxt
    out = bs
    v = src
    for depth in range(length - 1, 0, -1):
        f = levels[depth]
        u = -1
        while f != 0:
            u = _low_bit(f)
            f &= f - np.uint64(1)
            if (adj[u] & _bit(v)) != 0:
                break
        v = u
        out |= _bit(v)
    return out


#: De Bruijn's sequence for 64 bits and where each lowest bit lands in it:
#: ``_low_bit`` in a multiplication and a table look-up instead of a loop.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_AT = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_AT[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i
del _i


@njit(cache=True, inline="always")
def _low_bit(x):
    """The index of the lowest set bit of a nonzero uint64."""
    low = x & (~x + np.uint64(1))
    return _DEBRUIJN_AT[(low * _DEBRUIJN) >> np.uint64(58)]


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


#: :func:`astar`'s ``control`` array: STOP is set by the caller to end the
#: search (as if the budget ran out); NODES and BOUND are reported by the search
#: every :data:`REPORT` nodes.
STOP, NODES, BOUND = 0, 1, 2
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
    tk = np.zeros((1 << 13, 2), np.uint64)
    ti = np.zeros(1 << 13, np.int32)
    hk = np.empty(cap, np.int64)
    hv = np.empty(cap, np.int32)
    buf = np.zeros(max_moves, np.int64)
    scratch = np.zeros(168, np.uint64)

    tp0 = autoplay(b, env, trail, 0)
    g0 = tp0
    nodes = 1
    best = upper
    goal = -1  # the node of the best win found here
    if home_count(b) == deck:
        return OPTIMAL, nodes, g0, g0, np.zeros(0, np.int64), 0
    if is_lost(b, env, True, True):
        return UNSOLVABLE, nodes, NO_LINE, NO_LINE, np.zeros(0, np.int64), 0
    h = _full(b, env, scratch, level)
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
            h = _full(b, env, scratch, level)
            if h > hval[k]:
                hval[k] = h
                if g + h < best:
                    nheap = _push(hk, hv, nheap, ((g + h) << H_BITS) | h, k)
                continue
        n = gen_moves(b, env, buf)
        for a in range(n):
            m = buf[a]
            if moves_again(m, held[k]):
                continue  # rule 7: the parent has this child
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
                    undo_to(b, env, trail, t2, tp0)
                    continue
                # a shorter line to a stored position: update it, search it again
                gval[j] = g2
                parent[j] = k
                pmove[j] = m
                held[j] = just_moved(m, t2 - tp0)
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
                # more than the budget allows), and the table kept at most half full
                cap = min(cap + cap // 2, most)
                store = _grow2(store, cap)
                parent = _grow1(parent, cap)
                pmove = _grow1(pmove, cap)
                gval = _grow1(gval, cap)
                hval = _grow1(hval, cap)
                held = _grow1(held, cap)
                exact = _grow1(exact, cap)
                while tk.shape[0] < 2 * cap:
                    tk, ti = _grow_table(tk, ti)
                slot = _find(tk, b.hsh[0], b.hsh[1])
            encode(b, env, store, nstored)
            parent[nstored] = k
            pmove[nstored] = m
            gval[nstored] = g2
            hval[nstored] = h2
            held[nstored] = just_moved(m, t2 - tp0)
            exact[nstored] = 1 if h2 == 0 else 0
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
