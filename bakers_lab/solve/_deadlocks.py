"""The deadlock analysis behind the lower bounds of :func:`bakers_lab.shortest`
(numba, nopython, cached): the cards not home and the stuck cards
(:func:`quick_bound`), and a greedy packing of the deadlock graph's cycles and
of the stuck cards' landing sets (:func:`deadlocks`).  See :mod:`.shortest`
for why each is admissible; :mod:`._hitting` counts the same deadlocks
exactly.  Card sets are uint64 bit sets (bit ``x``: card ``x``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bakers_lab.solve._codes import (
    EMPTY_ANY,
    P_EMPTY,
    P_FBUILD,
    P_FRET,
    P_NCOLS,
    P_RANKS,
    P_SEQ,
    P_TBUILD,
    SAME_SUIT,
)
from bakers_lab.solve._core import builds_on, home_count, hot, lies_bad, rank_of

#: The 52 cards' bits, and a bit past them: a landing set's second move of its
#: stuck card (an element no other set holds: see :func:`landing_set`).
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
    adj = scratch[:52]
    levels = scratch[52:116]
    land = scratch[116:168]
    _stuck, avail, nland = deadlock_graph(b, env, adj, land)
    return packed(adj, levels, land, nland, avail)


@hot
def packed(adj, levels, land, nland, avail):
    """The greedy packing of :func:`deadlocks` on a graph and landing sets
    :func:`deadlock_graph` built (``avail``: the cards not stuck); it uses
    ``levels`` (64) and wipes the landing sets it packs."""
    # the cards each card is pointed to by, and the pairs pointing both ways
    radj = levels[:52]  # (free until the cycle search below needs the levels)
    radj[:] = 0
    rest = avail
    while rest != 0:
        x = low_bit(rest)
        rest &= rest - np.uint64(1)
        a = adj[x] & avail
        while a != 0:
            y = low_bit(a)
            a &= a - np.uint64(1)
            radj[y] |= bit_mask(x)
    for x in range(52):
        if (avail & bit_mask(x)) != 0:
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
                n = popcount(u)
                if n < size:
                    size = n
                    pick = i
        if size > 1 and pairs:
            # a pair pointing both ways (a cycle of two): the card with the
            # fewest such partners first, and its partner with the fewest
            x = _fewest(radj, avail, avail)
            if x >= 0:
                y = _fewest(radj, avail, radj[x] & avail)
                avail &= ~(bit_mask(x) | bit_mask(y))
                count += 1
                continue
            pairs = False
        length = 99
        src = -1
        if size > 3:
            length, src = shortest_cycle(adj, on_cycles(adj, avail), levels, size)
        if src >= 0:
            avail &= ~cycle_through(adj, avail, levels, src, length)
        elif pick >= 0:
            avail &= ~land[pick]
            land[pick] = 0
        else:
            return count
        count += 1
    return count


@hot
def deadlock_graph(b, env, adj, land):
    """Fill ``adj`` (52: each card's arrows, see :func:`deadlocks`) and ``land``
    (52: the stuck cards' landing sets, where the rules allow them); returns
    (the stuck cards, the others, how many landing sets)."""
    P = env.P
    ncols = P[P_NCOLS]
    stuck = np.uint64(0)
    avail = np.uint64(0)
    for c in range(ncols):
        for j in range(b.lens[c]):
            x = b.cols[c, j]
            adj[x] = _higher(b.mins[c, j])
            if lies_bad(b.mins[c, j], x):
                stuck |= bit_mask(x)
            else:
                avail |= bit_mask(x)
    nland = 0
    if stuck != 0 and P[P_FRET] == 0 and P[P_EMPTY] != EMPTY_ANY:
        top = P[P_RANKS]
        for c in range(ncols):
            for j in range(b.lens[c]):
                x = b.cols[c, j]
                if (stuck & bit_mask(x)) != 0 and rank_of(x) < top:
                    u = landing_set(b, env, c, j, x, stuck)
                    if u != 0:
                        land[nland] = u
                        nland += 1
    return stuck, avail, nland


@hot
def _fewest(radj, avail, among):
    """The card of ``among`` with the fewest partners (``radj``) in ``avail``,
    at least one; -1 if none has any."""
    best = -1
    fewest = 99
    rest = among
    while rest != 0:
        x = low_bit(rest)
        rest &= rest - np.uint64(1)
        n = popcount(radj[x] & avail)
        if 0 < n < fewest:
            fewest = n
            best = x
            if n == 1:
                break
    return best


@njit(cache=True, inline="always")
def bit_mask(x):
    """The uint64 with bit ``x`` set."""
    return np.uint64(1) << np.uint64(x)


@njit(cache=True, inline="always")
def popcount(x):
    """The number of set bits of a uint64 (the SWAR count)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@hot
def landing_set(b, env, c, j, t, stuck):
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
        p = low_bit(rest)
        rest &= rest - np.uint64(1)
        cp = b.loc_col[p]
        if cp < 0:
            continue  # home for good (no returns)
        jp = b.loc_dep[p]
        if cp == c:
            if jp < j:
                continue  # beneath t: never uncovered while t lies there
            out |= bit_mask(p)  # above t: it must move away first, and not home
            continue
        blockers = np.uint64(0)
        for k in range(jp + 1, b.lens[cp]):
            y = b.cols[cp, k]
            if (conflict & bit_mask(y)) != 0:
                blockers |= bit_mask(y)
        again = lies_bad(b.mins[cp, jp], t)  # t would lie above a lower card of its suit
        if blockers == 0 and not again:
            return np.uint64(0)  # p can take t for good with no other card's detour
        out |= blockers | bit_mask(p)
        if again:
            out |= AGAIN  # or t makes a second tableau move
    if (out & stuck) != 0:
        return np.uint64(0)
    return out


@hot
def on_cycles(adj, alive):
    """``alive`` less the cards no arrow (within it) leaves or reaches, again
    and again: what is left holds every cycle."""
    while True:
        into = np.uint64(0)
        keep = np.uint64(0)
        rest = alive
        while rest != 0:
            x = low_bit(rest)
            rest &= rest - np.uint64(1)
            a = adj[x] & alive
            if a != 0:
                keep |= bit_mask(x)
                into |= a
        keep &= into
        if keep == alive:
            return alive
        alive = keep


@hot
def shortest_cycle(adj, alive, levels, limit):
    """(length, a card on it) of a shortest cycle within ``alive`` shorter than
    ``limit``, or (limit, -1): a search by levels from each card."""
    best = limit
    best_src = -1
    rest = alive
    while rest != 0:
        src = low_bit(rest)
        rest &= rest - np.uint64(1)
        bs = bit_mask(src)
        seen = bs
        front = bs
        for depth in range(1, best):
            nxt = np.uint64(0)
            f = front
            while f != 0:
                u = low_bit(f)
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
def cycle_through(adj, alive, levels, src, length):
    """The cards of a cycle of ``length`` through ``src`` within ``alive``
    (one :func:`shortest_cycle` found): the levels again, then back."""
    bs = bit_mask(src)
    levels[0] = bs
    seen = bs
    for depth in range(1, length):
        nxt = np.uint64(0)
        f = levels[depth - 1]
        while f != 0:
            u = low_bit(f)
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
            u = low_bit(f)
            f &= f - np.uint64(1)
            if (adj[u] & bit_mask(v)) != 0:
                break
        v = u
        out |= bit_mask(v)
    return out


#: De Bruijn's sequence for 64 bits and where each lowest bit lands in it:
#: ``low_bit`` in a multiplication and a table look-up instead of a loop.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_AT = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_AT[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i
del _i


@njit(cache=True, inline="always")
def low_bit(x):
    """The index of the lowest set bit of a nonzero uint64."""
    low = x & (~x + np.uint64(1))
    return _DEBRUIJN_AT[(low * _DEBRUIJN) >> np.uint64(58)]
