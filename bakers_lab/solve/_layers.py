"""The compiled kernels of the layered search (:mod:`.layers` says why it is
sound and how a run is laid out; :mod:`.prove` is the public API).

A position of the layered search belongs to a *group*: the positions with the
same number of never-moved cards in each column (and, where foundation cards
never come back, the same number of cards home on each pile).  A group is
named by an integer key, a mixed-radix number of those counts (:func:`key_of`),
and its *layer* is how many cards have left their dealt place plus how many
are home (:func:`layers_of`): every move that changes the key raises the layer.

A position inside its group is written as one byte a card (:func:`encode`):
the card it lies on (0-51), ``ON_EMPTY`` (the deepest card of a column whose
dealt cards have all moved), ``HOME + s`` (on foundation pile ``s``),
``UNMOVED`` (still in its dealt place: where, the key says) or ``ABSENT``
(not in a small deck).  Columns holding no dealt card are interchangeable, so
this writing does not say which of them holds which run; :func:`decode` puts
the runs into them in card order.

Every kernel takes its arrays with explicit shapes and dtypes (documented at
each), no literal flags and no closures, so that they can be compiled ahead
of time as they are compiled here at first use.

The group search :func:`close` is a state machine over arrays its caller
owns: it returns to the caller every ``max_steps`` positions, when its output
rows are full, when its table of positions needs to grow, when its list of
roots is full, and when it ends; the caller acts and calls again with the
same arrays.  So a search of any size is cut into steps a person can watch
and interrupt, and no position is lost between them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the places, the states, the row width and LEnv (see ._codes)
from bakers_lab.solve._codes import (
    ABSENT,
    DONE,
    FLUSH,
    FOUND,
    GROW,
    HOME,
    ON_EMPTY,
    P_NCOLS,
    P_RANKS,
    PILE,
    ROOTS,
    S_CHILDREN,
    S_DEPTH,
    S_EMITTED,
    S_FOUND,
    S_LOST,
    S_NEW,
    S_NROOTS,
    S_OUT,
    S_ROOT,
    S_SEEN,
    STEPS,
    UNMOVED,
    WIDTH,
    LEnv,  # noqa: F401 (numba's cache index of an older version names it here)
)
from bakers_lab.solve._core import (
    ONE,
    autoplay,
    gen_moves,
    hot,
    init_board,
    is_lost,
    rank_of,
    step,
    undo_to,
)


@hot
def key_of(b, lenv, u):
    """The group key of the board whose never-moved counts are ``u``."""
    k = np.int64(0)
    for c in range(u.shape[0]):
        k += u[c] * lenv.ru[c]
    for s in range(4):
        k += b.plen[s] * lenv.rh[s]
    return k


@hot
def unkey(lenv, key, u, plen):
    """The never-moved counts ``u`` (and, where home is one-way, the pile
    heights ``plen``) that ``key`` names; the inverse of :func:`key_of`."""
    k = key
    for s in range(3, -1, -1):
        if lenv.rh[s] > 0:
            plen[s] = k // lenv.rh[s]
            k -= plen[s] * lenv.rh[s]
    for c in range(u.shape[0] - 1, -1, -1):
        u[c] = k // lenv.ru[c]
        k -= u[c] * lenv.ru[c]


@hot
def moved_on(lenv, trail, t0, t1, u_in, u_out):
    """``u_out``: the never-moved counts after the trail rows ``t0 … t1 - 1``
    (a move and its automatic foundation moves), from ``u_in`` before them.
    A moved unit's deepest card is never-moved only if it is in its dealt
    column below the never-moved count: then it and every card above it have
    now moved (cards above a never-moved card are dealt cards or moved ones)."""
    for c in range(u_in.shape[0]):
        u_out[c] = u_in[c]
    for r in range(t0, t1):
        src = trail[r, 0]
        if src < PILE:
            x = trail[r, 3]
            if lenv.c0[x] == src and lenv.d0[x] < u_out[src]:
                u_out[src] = lenv.d0[x]


@hot
def key_delta(lenv, trail, t0, t1, u, uc):
    """How the trail rows ``t0 … t1 - 1`` (a move and its automatic
    foundation moves) change the group key, from never-moved counts ``u``;
    where they change a count, ``uc`` gets the counts after them.  Returns
    (the change, whether ``uc`` was written).  The change is 0 exactly when
    the key stays: counts only fall and pile heights only rise, and a pile's
    radix exceeds every count's share of the key."""
    delta = np.int64(0)
    copied = False
    for r in range(t0, t1):
        src = trail[r, 0]
        dst = trail[r, 1]
        if src < PILE:
            x = trail[r, 3]
            cur = uc[src] if copied else u[src]
            if lenv.c0[x] == src and lenv.d0[x] < cur:
                if not copied:
                    for c in range(u.shape[0]):
                        uc[c] = u[c]
                    copied = True
                delta += (lenv.d0[x] - cur) * lenv.ru[src]
                uc[src] = lenv.d0[x]
        else:
            delta -= lenv.rh[src - PILE]
        if dst >= PILE:
            delta += lenv.rh[dst - PILE]
    return delta, copied


@hot
def encode(b, u, out, k):
    """Write the board (never-moved counts ``u``) into row ``k`` of ``out``
    (uint8, rows × :data:`WIDTH`)."""
    for x in range(WIDTH):
        out[k, x] = ABSENT
    for c in range(u.shape[0]):
        for j in range(b.lens[c]):
            x = b.cols[c, j]
            if j < u[c]:
                out[k, x] = UNMOVED
            elif j == 0:
                out[k, x] = ON_EMPTY
            else:
                out[k, x] = b.cols[c, j - 1]
    for s in range(4):
        for j in range(b.plen[s]):
            out[k, b.piles[s, j]] = HOME + s


@hot
def decode(b, env, lenv, key, rows, k, u, on):
    """Set the board (and ``u``) to row ``k`` of ``rows`` in the group ``key``,
    then fill its derived arrays.  ``on`` (int64, 53) is scratch."""
    ncols = env.P[P_NCOLS]
    unkey(lenv, key, u, b.plen)
    for x in range(53):
        on[x] = -1
    for x in range(WIDTH):
        v = rows[k, x]
        if v < 52:
            on[v] = x
    for s in range(4):
        b.plen[s] = 0
    for r in range(1, 14):  # piles in rank order
        for x in range(WIDTH):
            v = rows[k, x]
            if v >= HOME and v < HOME + 4 and rank_of(x) == r:
                s = v - HOME
                b.piles[s, b.plen[s]] = x
                b.plen[s] += 1
    nxt = 0  # the next run on an empty base, in card order
    for c in range(ncols):
        n = u[c]
        for j in range(n):
            b.cols[c, j] = lenv.start_cols[c, j]
        top = -1
        if n > 0:
            top = b.cols[c, n - 1]
        else:
            while nxt < WIDTH and rows[k, nxt] != ON_EMPTY:
                nxt += 1
            if nxt < WIDTH:
                top = nxt
                b.cols[c, 0] = nxt
                n = 1
                nxt += 1
        while top >= 0 and on[top] >= 0:
            top = on[top]
            b.cols[c, n] = top
            n += 1
        b.lens[c] = n
    init_board(b, env)


@hot
def set_add(tab, h1, h2):
    """Insert (h1, h2) into the exact set ``tab`` (uint64, 2**k × 2; never
    overwrites: the caller keeps it at most half full); True if it was new."""
    mask = np.uint64(tab.shape[0] - 1)
    k1 = h1 if h1 != 0 else ONE  # (0 marks an empty slot)
    i = k1 & mask
    while True:
        if tab[i, 0] == 0:
            tab[i, 0] = k1
            tab[i, 1] = h2
            return True
        if tab[i, 0] == k1 and tab[i, 1] == h2:
            return False
        i = (i + ONE) & mask


@njit(cache=True)
def regrow(tab, bigger):
    """Copy every key of ``tab`` into the empty, larger set ``bigger``."""
    for i in range(tab.shape[0]):
        if tab[i, 0] != 0:
            set_add(bigger, tab[i, 0], tab[i, 1])


@hot
def cache_add(cache, h1, h2):
    """A forgetful set (uint64, 2**k × 2): True if (h1, h2) was not in it (then
    it is now, in place of whatever held its slot)."""
    mask = np.uint64(cache.shape[0] - 1)
    k1 = h1 | ONE
    i = h1 & mask
    if cache[i, 0] == k1 and cache[i, 1] == h2:
        return False
    cache[i, 0] = k1
    cache[i, 1] = h2
    return True


@njit(cache=True)
def close(
    b,
    env,
    lenv,
    key,
    roots,
    roots_ref,
    roots_from,
    st,
    seen,
    cache,
    trail,
    mstack,
    nmov,
    idx,
    tp_at,
    uu,
    on,
    out,
    out_key,
    out_ref,
    target,
    max_steps,
):
    """Search the group ``key`` from its roots, one step of a state machine.

    Arrays (the caller's, kept between calls):

    - ``roots`` (uint8, R × WIDTH), ``roots_ref`` and ``roots_from`` (int64,
      R): the positions to start from, ``st[S_NROOTS]`` of them; an entry's
      ref names the row it came from and its ``roots_from`` is -1; a root the
      search added (a position at the depth cap) has its finder's ref and, in
      ``roots_from``, the index of the root whose search reached it.
    - ``st`` (int64, ST_SIZE): the state and the counts (``S_*``).
    - ``seen`` (uint64, 2**k × 2): the group's positions so far (exact).
    - ``cache`` (uint64, 2**k × 2): positions written out lately (forgetful:
      it only spares writing a row twice).
    - ``trail`` (int64, (2 cap + 64) × TRAIL_W), ``mstack`` (int64, cap ×
      moves), ``nmov``, ``idx`` (int64, cap), ``tp_at`` (int64, cap + 1),
      ``uu`` (int64, 2 × columns): the group's never-moved counts and a
      child's; ``on`` (int64, 53): scratch.
    - ``out`` (uint8, O × WIDTH), ``out_key``, ``out_ref`` (int64, O): the
      positions found in later groups, ``st[S_OUT]`` of them.
    - ``target`` (uint64, 4): for finding a line, the key and the two hashes
      of the position sought, and 1 in ``target[3]`` to seek a won
      position instead (then the key is ignored); 0 in ``target[3]`` and
      ``target[0]`` = 2**64 - 1 to seek nothing.

    Returns ``DONE`` (every root searched), ``STEPS`` (``max_steps``
    positions since the call), ``FLUSH`` (``out`` is full: write it and set
    ``st[S_OUT]`` to 0), ``GROW`` (``seen`` is half full: :func:`regrow`
    it), ``ROOTS`` (``roots`` is full: make it larger) or ``FOUND`` (a won
    position or the target was reached: the trail's first ``st[S_FOUND]``
    rows lead to it from root ``st[S_ROOT] - 1``; without a target, a won
    position: the search stops there).
    """
    deck = 4 * env.P[P_RANKS]
    cap = nmov.shape[0]
    steps = 0
    seek_win = target[3] == 1
    seek_pos = target[3] == 0 and target[0] != np.uint64(0xFFFFFFFFFFFFFFFF)
    while True:
        depth = st[S_DEPTH]
        if depth < 0:
            # start the next root
            r = st[S_ROOT]
            if r >= st[S_NROOTS]:
                return DONE
            st[S_ROOT] = r + 1
            decode(b, env, lenv, key, roots, r, uu[0], on)
            if not set_add(seen, b.hsh[0], b.hsh[1]):
                continue
            st[S_SEEN] += 1
            st[S_NEW] += 1
            depth = 0
            tp_at[0] = 0
            nmov[0] = gen_moves(b, env, mstack[0])
            idx[0] = 0
            st[S_DEPTH] = 0
            steps += 1
        if steps >= max_steps:
            return STEPS
        if st[S_OUT] >= out.shape[0]:
            return FLUSH
        if st[S_NROOTS] >= roots.shape[0]:
            return ROOTS
        if 2 * st[S_SEEN] > seen.shape[0]:
            return GROW
        if idx[depth] >= nmov[depth]:
            # every move of this position tried: back to its parent
            if depth == 0:
                st[S_DEPTH] = -1
                continue
            depth -= 1
            undo_to(b, env, trail, tp_at[depth + 1], tp_at[depth])
            st[S_DEPTH] = depth
            continue
        m = mstack[depth, idx[depth]]
        idx[depth] += 1
        t0 = tp_at[depth]
        t1 = step(b, env, m, trail, t0)
        st[S_CHILDREN] += 1
        delta, copied = key_delta(lenv, trail, t0, t1, uu[0], uu[1])
        uc = uu[1] if copied else uu[0]
        won = b.plen[0] + b.plen[1] + b.plen[2] + b.plen[3] == deck
        k2 = key + delta
        if seek_win and won:
            st[S_FOUND] = t1
            return FOUND
        if (
            seek_pos
            and target[0] == np.uint64(k2)
            and target[1] == b.hsh[0]
            and target[2] == b.hsh[1]
        ):
            st[S_FOUND] = t1
            return FOUND
        if won:
            if not seek_pos:
                # a win needs no search of its own: the line is found from here
                st[S_FOUND] = t1
                return FOUND
        elif k2 == key:
            if set_add(seen, b.hsh[0], b.hsh[1]):
                st[S_SEEN] += 1
                if is_lost(b, env, True, True):
                    st[S_LOST] += 1
                elif depth + 1 >= cap:
                    # too deep for the stacks: a root of its own, searched later
                    # (it leaves the set, so that root is searched)
                    st[S_SEEN] -= 1
                    unset(seen, b.hsh[0], b.hsh[1])
                    n = st[S_NROOTS]
                    encode(b, uu[0], roots, n)
                    roots_ref[n] = roots_ref[st[S_ROOT] - 1]
                    roots_from[n] = st[S_ROOT] - 1
                    st[S_NROOTS] = n + 1
                else:
                    st[S_NEW] += 1
                    steps += 1
                    depth += 1
                    tp_at[depth] = t1
                    nmov[depth] = gen_moves(b, env, mstack[depth])
                    idx[depth] = 0
                    st[S_DEPTH] = depth
                    continue
        else:
            h1 = b.hsh[0] + np.uint64(k2) * np.uint64(0x9E3779B97F4A7C15)
            if cache_add(cache, h1, b.hsh[1]):
                if is_lost(b, env, True, True):
                    st[S_LOST] += 1
                else:
                    n = st[S_OUT]
                    encode(b, uc, out, n)
                    out_key[n] = k2
                    out_ref[n] = roots_ref[st[S_ROOT] - 1]
                    st[S_OUT] = n + 1
                    st[S_EMITTED] += 1
        undo_to(b, env, trail, t1, t0)
    return DONE  # (never reached)


@hot
def unset(tab, h1, h2):
    """Take (h1, h2) out of the exact set (backward-shift deletion, so that
    every other key stays reachable by its probe)."""
    mask = np.uint64(tab.shape[0] - 1)
    k1 = h1 if h1 != 0 else ONE
    i = k1 & mask
    while tab[i, 0] != 0:
        if tab[i, 0] == k1 and tab[i, 1] == h2:
            break
        i = (i + ONE) & mask
    if tab[i, 0] == 0:
        return
    j = i
    while True:
        j = (j + ONE) & mask
        if tab[j, 0] == 0:
            break
        home = tab[j, 0] & mask  # (where its probe starts: see set_add)
        # move j's key into the hole i unless its home lies cyclically in (i, j]
        if (j > i and (home <= i or home > j)) or (j < i and (home <= i and home > j)):
            tab[i, 0] = tab[j, 0]
            tab[i, 1] = tab[j, 1]
            i = j
    tab[i, 0] = 0
    tab[i, 1] = 0


@njit(cache=True)
def hashes(b):
    """The board's two position hashes."""
    return b.hsh[0], b.hsh[1]


@njit(cache=True)
def start_of_search(b, env, lenv, trail, u, row):
    """Play the start's automatic foundation moves (recorded on ``trail``),
    write the start into ``row`` (uint8, 1 × WIDTH) with its never-moved counts
    ``u`` (int64, columns: set here) and return (trail length, key, won)."""
    tp = 0
    for c in range(u.shape[0]):
        u[c] = b.lens[c]
    from_ = np.zeros(u.shape[0], np.int64)
    for c in range(u.shape[0]):
        from_[c] = u[c]
    tp = autoplay(b, env, trail, 0)
    moved_on(lenv, trail, 0, tp, from_, u)
    encode(b, u, row, 0)
    deck = 4 * env.P[P_RANKS]
    won = b.plen[0] + b.plen[1] + b.plen[2] + b.plen[3] == deck
    return tp, key_of(b, lenv, u), won


@njit(cache=True)
def layers_of(lenv, keys, out):
    """``out[i]``: the layer of group ``keys[i]`` (int64 arrays)."""
    ncols = lenv.start_lens.shape[0]
    u = np.zeros(ncols, np.int64)
    plen = np.zeros(4, np.int64)
    for i in range(keys.shape[0]):
        unkey(lenv, keys[i], u, plen)
        n = 0
        for c in range(ncols):
            n += lenv.start_lens[c] - u[c]
        if lenv.rh[0] > 0:
            n += plen[0] + plen[1] + plen[2] + plen[3]
        out[i] = n
