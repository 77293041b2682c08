"""The compiled search core (numba, nopython, cached).  See :mod:`.fast` for
the public API and for why each pruning rule is sound.

Everything here works on plain integer arrays:

- ``cols[c, j]``: card id (``suit * 13 + rank - 1``) at depth ``j`` of column
  ``c`` (0 = deepest), ``lens[c]`` its length;
- ``piles[s, j]`` / ``plen[s]``: foundation pile ``s`` (the pile whose Ace is
  of suit ``s``);
- ``P``: the rules as integers (indices ``P_*`` below).

A *stack id* names a column (``0 … ncols-1``) or a pile (``PILE + s``).  A move
is encoded as ``src | dst << 6 | count << 12``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
# search results
SOLVED, UNSOLVABLE, BUDGET = 0, 1, 2
# trail columns: src, dst, count, card, kind (0 onto card, 1 foundation, 2 empty), target
TRAIL_W = 6

U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U33 = np.uint64(33)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
M3 = np.uint64(0xFF51AFD7ED558CCD)
M4 = np.uint64(0xC4CEB9FE1A85EC53)
ONE = np.uint64(1)


@njit(cache=True)
def mix1(z):
    z = (z ^ (z >> U30)) * M1
    z = (z ^ (z >> U27)) * M2
    return z ^ (z >> U31)


@njit(cache=True)
def mix2(z):
    z = (z ^ (z >> U33)) * M3
    z = (z ^ (z >> U33)) * M4
    return z ^ (z >> U33)


@njit(cache=True)
def rank_of(c):
    return c % 13 + 1


@njit(cache=True)
def is_red(c):
    return c >= 26


@njit(cache=True)
def builds_on(c, under, tbuild):
    """Card c may lie on card ``under`` in the tableau."""
    if rank_of(under) != rank_of(c) + 1:
        return False
    if tbuild == ANY_SUIT:
        return True
    if tbuild == SAME_SUIT:
        return c // 13 == under // 13
    return is_red(c) != is_red(under)


@njit(cache=True)
def empty_takes(c, P):
    e = P[P_EMPTY]
    return e == EMPTY_ANY or (e == EMPTY_KING and rank_of(c) == P[P_RANKS])


@njit(cache=True)
def pile_takes(s, c, piles, plen, P):
    n = plen[s]
    r = rank_of(c)
    if n == 0:
        return r == 1 and c // 13 == s
    top = piles[s, n - 1]
    if r != rank_of(top) + 1 or r > P[P_RANKS]:
        return False
    if P[P_FBUILD] == SAME_SUIT:
        return c // 13 == s
    return is_red(c) != is_red(top)


@njit(cache=True)
def column_bad(cols, lens, c):
    """Cards of column c that lie above a lower card of their own suit.
    (The lowest rank seen per suit is packed 4 bits a suit: no allocation.)"""
    mins = 0xFFFF
    bad = 0
    for j in range(lens[c]):
        x = cols[c, j]
        sh = 4 * (x // 13)
        r = rank_of(x)
        m = (mins >> sh) & 15
        if m < r:
            bad += 1
        else:
            mins = (mins & ~(15 << sh)) | (r << sh)
    return bad


@njit(cache=True)
def move_cards(
    src,
    dst,
    count,
    cols,
    lens,
    piles,
    plen,
    loc_col,
    loc_dep,
    raw1,
    raw2,
    hsh,
    bad,
    Z1,
    Z2,
    ZP1,
    ZP2,
    trail,
    tp,
    record,
):
    """Move ``count`` cards from stack ``src`` to stack ``dst`` (no legality check),
    updating locations, hashes and bad counts; push it on the trail if ``record``.
    Returns the new trail pointer.

    The position key is a sum (mod 2**64) of one term per column and one per
    card on a foundation, so it can be updated in any order and does not
    depend on the order of the columns."""
    if record:
        if src < PILE:
            card = cols[src, lens[src] - count]
        else:
            card = piles[src - PILE, plen[src - PILE] - 1]
        trail[tp, 0] = src
        trail[tp, 1] = dst
        trail[tp, 2] = count
        trail[tp, 3] = card
        if dst >= PILE:
            trail[tp, 4] = 1
            trail[tp, 5] = dst - PILE
        elif lens[dst] == 0:
            trail[tp, 4] = 2
            trail[tp, 5] = -1
        else:
            trail[tp, 4] = 0
            trail[tp, 5] = cols[dst, lens[dst] - 1]
        tp += 1
    # take the cards off the source
    if src < PILE:
        start = lens[src] - count
        old = raw1[src]
        old2 = raw2[src]
        for j in range(start, lens[src]):
            x = cols[src, j]
            raw1[src] ^= Z1[x, j]
            raw2[src] ^= Z2[x, j]
        hsh[0] += mix1(raw1[src]) - mix1(old)
        hsh[1] += mix2(raw2[src]) - mix2(old2)
    else:
        s = src - PILE
        start = plen[s] - count
        for j in range(start, plen[s]):
            x = piles[s, j]
            hsh[0] -= ZP1[s, x]
            hsh[1] -= ZP2[s, x]
    # put them on the destination, in the same order
    for k in range(count):
        x = cols[src, start + k] if src < PILE else piles[src - PILE, start + k]
        if dst < PILE:
            j = lens[dst]
            cols[dst, j] = x
            lens[dst] = j + 1
            loc_col[x] = dst
            loc_dep[x] = j
        else:
            s2 = dst - PILE
            piles[s2, plen[s2]] = x
            plen[s2] += 1
            loc_col[x] = -1 - s2
            loc_dep[x] = plen[s2] - 1
            hsh[0] += ZP1[s2, x]
            hsh[1] += ZP2[s2, x]
    if dst < PILE:
        old = raw1[dst]
        old2 = raw2[dst]
        for j in range(lens[dst] - count, lens[dst]):
            x = cols[dst, j]
            raw1[dst] ^= Z1[x, j]
            raw2[dst] ^= Z2[x, j]
        hsh[0] += mix1(raw1[dst]) - mix1(old)
        hsh[1] += mix2(raw2[dst]) - mix2(old2)
        bad[dst] = column_bad(cols, lens, dst)
    if src < PILE:
        lens[src] = start
        bad[src] = column_bad(cols, lens, src)
    else:
        plen[src - PILE] = start
    return tp


@njit(cache=True)
def safe_to_home(c, plen, P):
    """Card c (a column top) may go home now and be sure it is never needed in
    the tableau (see the module docstring of :mod:`.fast`)."""
    r = rank_of(c)
    s = c // 13
    if P[P_FBUILD] != SAME_SUIT:
        return r == 1 and plen[s] == 0
    if plen[s] != r - 1:
        return False
    if r <= 2:
        return True
    tb = P[P_TBUILD]
    for t in range(4):
        if (
            tb == ANY_SUIT
            or (tb == SAME_SUIT and t == s)
            or (tb == ALT_COLOUR and (t >= 2) != (s >= 2))
        ) and plen[t] < r - 1:
            return False
    return True


@njit(cache=True)
def autoplay(
    cols, lens, piles, plen, loc_col, loc_dep, raw1, raw2, hsh, bad, Z1, Z2, ZP1, ZP2, trail, tp, P
):
    """Play every safe foundation move until none is left; returns the trail pointer."""
    ncols = P[P_NCOLS]
    changed = True
    while changed:
        changed = False
        for i in range(ncols):
            if lens[i] > 0:
                c = cols[i, lens[i] - 1]
                if safe_to_home(c, plen, P):
                    tp = move_cards(
                        i,
                        PILE + c // 13,
                        1,
                        cols,
                        lens,
                        piles,
                        plen,
                        loc_col,
                        loc_dep,
                        raw1,
                        raw2,
                        hsh,
                        bad,
                        Z1,
                        Z2,
                        ZP1,
                        ZP2,
                        trail,
                        tp,
                        True,
                    )
                    changed = True
    return tp


@njit(cache=True)
def step(
    m,
    cols,
    lens,
    piles,
    plen,
    loc_col,
    loc_dep,
    raw1,
    raw2,
    hsh,
    bad,
    Z1,
    Z2,
    ZP1,
    ZP2,
    trail,
    tp,
    P,
):
    """Play encoded move ``m`` and then every safe foundation move, recording
    them on the trail; returns the new trail pointer."""
    tp = move_cards(
        m & 63,
        (m >> 6) & 63,
        m >> 12,
        cols,
        lens,
        piles,
        plen,
        loc_col,
        loc_dep,
        raw1,
        raw2,
        hsh,
        bad,
        Z1,
        Z2,
        ZP1,
        ZP2,
        trail,
        tp,
        True,
    )
    return autoplay(
        cols,
        lens,
        piles,
        plen,
        loc_col,
        loc_dep,
        raw1,
        raw2,
        hsh,
        bad,
        Z1,
        Z2,
        ZP1,
        ZP2,
        trail,
        tp,
        P,
    )


@njit(cache=True)
def undo_to(
    tp_target,
    tp,
    cols,
    lens,
    piles,
    plen,
    loc_col,
    loc_dep,
    raw1,
    raw2,
    hsh,
    bad,
    Z1,
    Z2,
    ZP1,
    ZP2,
    trail,
):
    while tp > tp_target:
        tp -= 1
        move_cards(
            trail[tp, 1],
            trail[tp, 0],
            trail[tp, 2],
            cols,
            lens,
            piles,
            plen,
            loc_col,
            loc_dep,
            raw1,
            raw2,
            hsh,
            bad,
            Z1,
            Z2,
            ZP1,
            ZP2,
            trail,
            tp,
            False,
        )
    return tp


@njit(cache=True)
def is_dead(cols, lens, plen, loc_col, loc_dep, P):
    """True if some card can provably never reach its foundation (see :mod:`.fast`)."""
    if P[P_FRET] != 0 or P[P_FBUILD] != SAME_SUIT or P[P_EMPTY] == EMPTY_ANY:
        return False
    top = P[P_RANKS]
    tb = P[P_TBUILD]
    for c in range(P[P_NCOLS]):
        mins = 0xFFFF  # lowest rank seen per suit, 4 bits a suit
        for j in range(lens[c]):
            x = cols[c, j]
            s = x // 13
            r = rank_of(x)
            if (mins >> (4 * s)) & 15 < r:
                # x lies above a lower card of its suit: it must move to the tableau
                if r == top:
                    if P[P_EMPTY] != EMPTY_KING:
                        return True
                    continue
                usable = False
                for t in range(4):
                    if (
                        tb == ANY_SUIT
                        or (tb == SAME_SUIT and t == s)
                        or (tb == ALT_COLOUR and (t >= 2) != (s >= 2))
                    ):
                        p = t * 13 + r  # the card of suit t, rank r + 1
                        if plen[t] >= r + 1:
                            continue  # home for good
                        if loc_col[p] == c and loc_dep[p] < j and P[P_SEQ] == 0:
                            continue  # buried under x (a run could carry x away with it)
                        usable = True
                        break
                if not usable:
                    return True
            else:
                mins = (mins & ~(15 << (4 * s))) | (r << (4 * s))
    return False


@njit(cache=True)
def tt_seen(tt, h1, h2):
    """Insert the key (h1, h2) into the table ``tt`` (rows of two uint64); True
    if it was there already.  A full probe window overwrites its first slot
    (forgetting is always sound)."""
    mask = np.uint64(tt.shape[0] - 1)
    k1 = h1 | ONE
    i0 = h1 & mask
    for probe in range(8):
        i = (i0 + np.uint64(probe)) & mask
        if tt[i, 0] == 0:
            tt[i, 0] = k1
            tt[i, 1] = h2
            return False
        if tt[i, 0] == k1 and tt[i, 1] == h2:
            return True
    tt[i0, 0] = k1
    tt[i0, 1] = h2
    return False


#: Weights of the depth-first search's move ordering (see :func:`evaluate`).
DFS_WEIGHTS = np.array([4, 4, 1, 0, 0], dtype=np.int64)


@njit(cache=True)
def evaluate(lens, plen, bad, loc_col, loc_dep, P, weights, rounds, depth):
    """Score of a position, lower is better: weighted cards not home, cards
    that must visit the tableau, cards above each suit's next foundation card,
    rounds the doom check took, and path length."""
    ranks = P[P_RANKS]
    home = plen[0] + plen[1] + plen[2] + plen[3]
    nbad = 0
    for c in range(P[P_NCOLS]):
        nbad += bad[c]
    block = 0
    for s in range(4):
        if plen[s] < ranks:
            x = s * 13 + plen[s]
            col = loc_col[x]
            if col >= 0:
                block += lens[col] - 1 - loc_dep[x]
    return (
        weights[0] * (4 * ranks - home)
        + weights[1] * nbad
        + weights[2] * block
        + weights[3] * rounds
        + weights[4] * depth
    )


@njit(cache=True)
def new_aux(ncols):
    """Scratch of a search: card locations, column hashes, position key, bad
    counts, and the doom check's arrays."""
    return (
        np.full(52, -99, np.int64),
        np.zeros(52, np.int64),
        np.zeros(ncols, np.uint64),
        np.zeros(ncols, np.uint64),
        np.zeros(2, np.uint64),
        np.zeros(ncols, np.int64),
        np.zeros(52, np.bool_),
        np.zeros(52, np.bool_),
        np.zeros(52, np.bool_),
        np.zeros(2, np.int64),
    )


@njit(cache=True)
def new_rng(seed):
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x2545F4914F6CDD1D)
    if rng[0] == 0:
        rng[0] = ONE
    return rng


@njit(cache=True)
def gen_moves(cols, lens, piles, plen, P, out, prune=True):
    """Legal moves (with ``prune``, minus those rule 2 of :mod:`.fast` shows
    pointless); returns how many.  Without ``prune`` they are exactly the moves
    :meth:`~bakers_lab.game.GameState.legal_moves` lists (players make those)."""
    ncols = P[P_NCOLS]
    tb = P[P_TBUILD]
    n = 0
    empty = -1
    for d in range(ncols):
        if lens[d] == 0:
            empty = d
            break
    for i in range(ncols):
        L = lens[i]
        if L == 0:
            continue
        x = cols[i, L - 1]
        for s in range(4):
            if pile_takes(s, x, piles, plen, P):
                out[n] = i | ((PILE + s) << 6) | (1 << 12)
                n += 1
        kmin = L - 1
        if P[P_SEQ] != 0:
            while kmin > 0 and builds_on(cols[i, kmin], cols[i, kmin - 1], tb):
                kmin -= 1
        for k in range(L - 1, kmin - 1, -1):
            c = cols[i, k]
            cnt = L - k
            if prune and k == 0 and P[P_EMPTY] == EMPTY_NONE:
                continue  # emptying a column for good never helps
            for d in range(ncols):
                if d != i and lens[d] > 0 and builds_on(c, cols[d, lens[d] - 1], tb):
                    out[n] = i | (d << 6) | (cnt << 12)
                    n += 1
            if empty >= 0 and k > 0 and empty_takes(c, P):
                out[n] = i | (empty << 6) | (cnt << 12)
                n += 1
    if P[P_FRET] != 0:
        for s in range(4):
            if plen[s] > 0:
                c = piles[s, plen[s] - 1]
                for d in range(ncols):
                    if lens[d] > 0 and builds_on(c, cols[d, lens[d] - 1], tb):
                        out[n] = (PILE + s) | (d << 6) | (1 << 12)
                        n += 1
                if empty >= 0 and empty_takes(c, P):
                    out[n] = (PILE + s) | (empty << 6) | (1 << 12)
                    n += 1
    return n


@njit(cache=True)
def xorshift(state):
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


@njit(cache=True)
def dfs(
    cols,
    lens,
    piles,
    plen,
    P,
    Z1,
    Z2,
    ZP1,
    ZP2,
    budget,
    seed,
    tt_bits,
    max_depth,
    max_moves,
    trail,
    use_doom,
):
    """Depth-first search with a transposition table and ordered moves.

    Returns (status, nodes, trail length).  ``status`` is SOLVED (the trail
    holds the solution), UNSOLVABLE (every position reachable under the sound
    prunings was visited) or BUDGET (stopped by the node budget or depth cap).
    """
    ncols = P[P_NCOLS]
    decksize = 4 * P[P_RANKS]
    loc_col, loc_dep, raw1, raw2, hsh, bad, fM, fG, fA, finfo = new_aux(ncols)
    init_aux(cols, lens, piles, plen, P, Z1, Z2, ZP1, ZP2, loc_col, loc_dep, raw1, raw2, hsh, bad)
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    rng = new_rng(seed)

    # the generated moves of every node on the path, one flat stack:
    # node d's moves are mstack[base[d] : base[d] + nmov[d]]
    mcap = max_depth * 24 + max_moves
    mstack = np.zeros(mcap, np.int64)
    base = np.zeros(max_depth + 1, np.int64)
    nmov = np.zeros(max_depth, np.int64)
    idx = np.zeros(max_depth, np.int64)
    tp_at = np.zeros(max_depth + 1, np.int64)
    keys = np.zeros(max_moves, np.int64)
    buf = np.zeros(max_moves, np.int64)

    tp = 0
    tp = autoplay(
        cols,
        lens,
        piles,
        plen,
        loc_col,
        loc_dep,
        raw1,
        raw2,
        hsh,
        bad,
        Z1,
        Z2,
        ZP1,
        ZP2,
        trail,
        tp,
        P,
    )
    nodes = 1
    if plen[0] + plen[1] + plen[2] + plen[3] == decksize:
        return SOLVED, nodes, tp
    if is_lost(cols, lens, plen, loc_col, loc_dep, P, fM, fG, fA, True, finfo):
        return UNSOLVABLE, nodes, tp
    tt_seen(tt, hsh[0], hsh[1])
    truncated = False
    depth = 0
    fresh = True
    while True:
        if fresh:
            # generate and order the moves of this node
            tp_at[depth] = tp
            n = gen_moves(cols, lens, piles, plen, P, buf)
            for k in range(n):
                m = buf[k]
                t2 = step(
                    m,
                    cols,
                    lens,
                    piles,
                    plen,
                    loc_col,
                    loc_dep,
                    raw1,
                    raw2,
                    hsh,
                    bad,
                    Z1,
                    Z2,
                    ZP1,
                    ZP2,
                    trail,
                    tp,
                    P,
                )
                score = evaluate(lens, plen, bad, loc_col, loc_dep, P, DFS_WEIGHTS, 0, 0)
                undo_to(
                    tp,
                    t2,
                    cols,
                    lens,
                    piles,
                    plen,
                    loc_col,
                    loc_dep,
                    raw1,
                    raw2,
                    hsh,
                    bad,
                    Z1,
                    Z2,
                    ZP1,
                    ZP2,
                    trail,
                )
                keys[k] = score * 1024 + np.int64(xorshift(rng) & np.uint64(1023))
            # insertion sort by key
            for a in range(1, n):
                kk = keys[a]
                mm = buf[a]
                b = a - 1
                while b >= 0 and keys[b] > kk:
                    keys[b + 1] = keys[b]
                    buf[b + 1] = buf[b]
                    b -= 1
                keys[b + 1] = kk
                buf[b + 1] = mm
            if base[depth] + n > mcap:
                n = 0  # out of room: cut this branch, and say so
                truncated = True
            for k in range(n):
                mstack[base[depth] + k] = buf[k]
            base[depth + 1] = base[depth] + n
            nmov[depth] = n
            idx[depth] = 0
            fresh = False
        if idx[depth] < nmov[depth]:
            m = mstack[base[depth] + idx[depth]]
            idx[depth] += 1
            tp = step(
                m,
                cols,
                lens,
                piles,
                plen,
                loc_col,
                loc_dep,
                raw1,
                raw2,
                hsh,
                bad,
                Z1,
                Z2,
                ZP1,
                ZP2,
                trail,
                tp,
                P,
            )
            nodes += 1
            if plen[0] + plen[1] + plen[2] + plen[3] == decksize:
                return SOLVED, nodes, tp
            if tt_seen(tt, hsh[0], hsh[1]) or is_lost(
                cols, lens, plen, loc_col, loc_dep, P, fM, fG, fA, use_doom, finfo
            ):
                tp = undo_to(
                    tp_at[depth],
                    tp,
                    cols,
                    lens,
                    piles,
                    plen,
                    loc_col,
                    loc_dep,
                    raw1,
                    raw2,
                    hsh,
                    bad,
                    Z1,
                    Z2,
                    ZP1,
                    ZP2,
                    trail,
                )
            elif depth + 1 >= max_depth:
                truncated = True
                tp = undo_to(
                    tp_at[depth],
                    tp,
                    cols,
                    lens,
                    piles,
                    plen,
                    loc_col,
                    loc_dep,
                    raw1,
                    raw2,
                    hsh,
                    bad,
                    Z1,
                    Z2,
                    ZP1,
                    ZP2,
                    trail,
                )
            else:
                depth += 1
                fresh = True
            if nodes >= budget:
                return BUDGET, nodes, tp
        else:
            if depth == 0:
                return (BUDGET if truncated else UNSOLVABLE), nodes, tp
            depth -= 1
            tp = undo_to(
                tp_at[depth],
                tp,
                cols,
                lens,
                piles,
                plen,
                loc_col,
                loc_dep,
                raw1,
                raw2,
                hsh,
                bad,
                Z1,
                Z2,
                ZP1,
                ZP2,
                trail,
            )


@njit(cache=True)
def init_aux(cols, lens, piles, plen, P, Z1, Z2, ZP1, ZP2, loc_col, loc_dep, raw1, raw2, hsh, bad):
    """Fill locations, hashes and bad counts from cols/piles."""
    ncols = P[P_NCOLS]
    loc_col[:] = -99
    hsh[0] = 0
    hsh[1] = 0
    for c in range(ncols):
        raw1[c] = 0
        raw2[c] = 0
        for j in range(lens[c]):
            x = cols[c, j]
            loc_col[x] = c
            loc_dep[x] = j
            raw1[c] ^= Z1[x, j]
            raw2[c] ^= Z2[x, j]
        hsh[0] += mix1(raw1[c])
        hsh[1] += mix2(raw2[c])
        bad[c] = column_bad(cols, lens, c)
    for s in range(4):
        for j in range(plen[s]):
            x = piles[s, j]
            loc_col[x] = -1 - s
            loc_dep[x] = j
            hsh[0] += ZP1[s, x]
            hsh[1] += ZP2[s, x]


@njit(cache=True)
def encode(cols, lens, piles, plen, P, store, k):
    """Write the position into row k of ``store`` (cards, 255 ends a stack)."""
    w = 0
    for c in range(P[P_NCOLS]):
        for j in range(lens[c]):
            store[k, w] = cols[c, j]
            w += 1
        store[k, w] = 255
        w += 1
    for s in range(4):
        for j in range(plen[s]):
            store[k, w] = piles[s, j]
            w += 1
        store[k, w] = 255
        w += 1


@njit(cache=True)
def decode(store, k, P, cols, lens, piles, plen):
    w = 0
    for c in range(P[P_NCOLS]):
        n = 0
        while store[k, w] != 255:
            cols[c, n] = store[k, w]
            n += 1
            w += 1
        lens[c] = n
        w += 1
    for s in range(4):
        n = 0
        while store[k, w] != 255:
            piles[s, n] = store[k, w]
            n += 1
            w += 1
        plen[s] = n
        w += 1


@njit(cache=True)
def heap_push(hk, hv, n, key, val):
    i = n
    hk[i] = key
    hv[i] = val
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] <= hk[i]:
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return n + 1


@njit(cache=True)
def heap_pop(hk, hv, n):
    val = hv[0]
    n -= 1
    hk[0] = hk[n]
    hv[0] = hv[n]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        b = a + 1
        m = a if (b >= n or hk[a] <= hk[b]) else b
        if hk[i] <= hk[m]:
            break
        hk[i], hk[m] = hk[m], hk[i]
        hv[i], hv[m] = hv[m], hv[i]
        i = m
    return val, n


@njit(cache=True)
def gbfs(
    cols,
    lens,
    piles,
    plen,
    P,
    Z1,
    Z2,
    ZP1,
    ZP2,
    budget,
    seed,
    tt_bits,
    max_moves,
    weights,
    trail,
    use_doom,
):
    """Greedy best-first search: always expand the stored position with the
    best score.  Finds solutions fast; its result is SOLVED, UNSOLVABLE (the
    frontier ran dry: every reachable position was expanded) or BUDGET.
    On SOLVED the trail holds the solution from the start."""
    ncols = P[P_NCOLS]
    decksize = 4 * P[P_RANKS]
    width = decksize + ncols + 4
    cap = budget + 1
    store = np.empty((cap, width), np.uint8)
    parent = np.empty(cap, np.int32)
    pmove = np.empty(cap, np.int32)
    gdepth = np.zeros(cap, np.int32)
    hk = np.empty(cap, np.int64)
    hv = np.empty(cap, np.int32)
    loc_col, loc_dep, raw1, raw2, hsh, bad, fM, fG, fA, finfo = new_aux(ncols)
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    buf = np.zeros(max_moves, np.int64)
    rng = new_rng(seed)

    init_aux(cols, lens, piles, plen, P, Z1, Z2, ZP1, ZP2, loc_col, loc_dep, raw1, raw2, hsh, bad)
    tp0 = autoplay(
        cols,
        lens,
        piles,
        plen,
        loc_col,
        loc_dep,
        raw1,
        raw2,
        hsh,
        bad,
        Z1,
        Z2,
        ZP1,
        ZP2,
        trail,
        0,
        P,
    )
    if plen[0] + plen[1] + plen[2] + plen[3] == decksize:
        return SOLVED, 1, tp0
    if is_lost(cols, lens, plen, loc_col, loc_dep, P, fM, fG, fA, True, finfo):
        return UNSOLVABLE, 1, tp0
    tt_seen(tt, hsh[0], hsh[1])
    nstored = 1
    encode(cols, lens, piles, plen, P, store, 0)
    parent[0] = -1
    pmove[0] = 0
    nheap = heap_push(hk, hv, 0, 0, 0)
    nodes = 1
    found = -1
    complete = True
    while nheap > 0 and found < 0:
        k, nheap = heap_pop(hk, hv, nheap)
        decode(store, k, P, cols, lens, piles, plen)
        init_aux(
            cols, lens, piles, plen, P, Z1, Z2, ZP1, ZP2, loc_col, loc_dep, raw1, raw2, hsh, bad
        )
        n = gen_moves(cols, lens, piles, plen, P, buf)
        for a in range(n):
            m = buf[a]
            t2 = step(
                m,
                cols,
                lens,
                piles,
                plen,
                loc_col,
                loc_dep,
                raw1,
                raw2,
                hsh,
                bad,
                Z1,
                Z2,
                ZP1,
                ZP2,
                trail,
                tp0,
                P,
            )
            nodes += 1
            if not tt_seen(tt, hsh[0], hsh[1]):
                home = plen[0] + plen[1] + plen[2] + plen[3]
                if home == decksize:
                    parent[nstored] = k
                    pmove[nstored] = m
                    found = nstored
                    nstored += 1
                elif not is_lost(
                    cols, lens, plen, loc_col, loc_dep, P, fM, fG, fA, use_doom, finfo
                ):
                    if nstored >= cap:
                        complete = False
                    else:
                        encode(cols, lens, piles, plen, P, store, nstored)
                        parent[nstored] = k
                        pmove[nstored] = m
                        gdepth[nstored] = gdepth[k] + 1
                        score = evaluate(
                            lens, plen, bad, loc_col, loc_dep, P, weights, finfo[0], gdepth[nstored]
                        )
                        key = score * 4096 + np.int64(xorshift(rng) & np.uint64(4095))
                        nheap = heap_push(hk, hv, nheap, key, nstored)
                        nstored += 1
            undo_to(
                tp0,
                t2,
                cols,
                lens,
                piles,
                plen,
                loc_col,
                loc_dep,
                raw1,
                raw2,
                hsh,
                bad,
                Z1,
                Z2,
                ZP1,
                ZP2,
                trail,
            )
            if found >= 0:
                break
        if nodes >= budget and found < 0:
            return BUDGET, nodes, tp0
    if found < 0:
        return (UNSOLVABLE if complete else BUDGET), nodes, tp0
    # rebuild the path: collect moves back to the root, replay them forward
    path = np.empty(nstored, np.int64)
    d = 0
    k = found
    while parent[k] >= 0:
        path[d] = pmove[k]
        d += 1
        k = parent[k]
    if tp0 + 2 * d + decksize + 2 > trail.shape[0]:
        return BUDGET, nodes, tp0  # a path longer than the trail can hold
    decode(store, 0, P, cols, lens, piles, plen)
    init_aux(cols, lens, piles, plen, P, Z1, Z2, ZP1, ZP2, loc_col, loc_dep, raw1, raw2, hsh, bad)
    tp = tp0
    for i in range(d - 1, -1, -1):
        m = path[i]
        tp = step(
            m,
            cols,
            lens,
            piles,
            plen,
            loc_col,
            loc_dep,
            raw1,
            raw2,
            hsh,
            bad,
            Z1,
            Z2,
            ZP1,
            ZP2,
            trail,
            tp,
            P,
        )
    return SOLVED, nodes, tp


@njit(cache=True)
def is_doomed(cols, lens, plen, loc_col, loc_dep, P, M, G, A, info):
    """True if some card can provably never reach home: a least fixed point
    over a relaxed game (see :mod:`.fast`, rule 4).  M, G, A: scratch bool[52].

    A[x]: x can be uncovered some time (every card above it can move away);
    M[x]: x can move away from where it lies (home, or onto an uncoverable
    parent that is not home); G[x]: x can reach home (M[x] and its suit's lower
    card can).  Facts start false and are derived only from facts already
    derived, so every fact that real play makes true is derived too."""
    if P[P_FRET] != 0 or P[P_FBUILD] != SAME_SUIT or P[P_EMPTY] == EMPTY_ANY or P[P_SEQ] != 0:
        return False
    ncols = P[P_NCOLS]
    tb = P[P_TBUILD]
    top = P[P_RANKS]
    king_empty = P[P_EMPTY] == EMPTY_KING
    for x in range(52):
        M[x] = False
        G[x] = False
        A[x] = False
    for s in range(4):
        for k in range(plen[s]):
            G[s * 13 + k] = True
    changed = True
    info[0] = 0
    while changed:
        changed = False
        info[0] += 1
        for c in range(ncols):
            ok = True
            for j in range(lens[c] - 1, -1, -1):
                x = cols[c, j]
                if not ok:
                    break
                if not A[x]:
                    A[x] = True
                    changed = True
                if not M[x]:
                    r = rank_of(x)
                    s = x // 13
                    can = r == 1 or G[x - 1]
                    if not can and r < top:
                        for t in range(4):
                            if (
                                tb == ANY_SUIT
                                or (tb == SAME_SUIT and t == s)
                                or (tb == ALT_COLOUR and (t >= 2) != (s >= 2))
                            ):
                                p = t * 13 + r
                                if plen[t] <= r and A[p]:
                                    can = True
                                    break
                    if not can and r == top and king_empty:
                        can = True
                    if can:
                        M[x] = True
                        changed = True
                ok = M[x]
        for s in range(4):
            for k in range(plen[s], top):
                x = s * 13 + k
                if G[x]:
                    continue
                if M[x] and (k == 0 or G[x - 1]):
                    G[x] = True
                    changed = True
                else:
                    break
    for s in range(4):
        if not G[s * 13 + top - 1]:
            return True
    return False


@njit(cache=True)
def is_lost(cols, lens, plen, loc_col, loc_dep, P, M, G, A, use_doom, info):
    """The dead-position test that applies to these rules (rule 4 of :mod:`.fast`)."""
    if (
        use_doom
        and P[P_FRET] == 0
        and P[P_FBUILD] == SAME_SUIT
        and P[P_EMPTY] != EMPTY_ANY
        and P[P_SEQ] == 0
    ):
        return is_doomed(cols, lens, plen, loc_col, loc_dep, P, M, G, A, info)
    info[0] = 0
    return is_dead(cols, lens, plen, loc_col, loc_dep, P)
