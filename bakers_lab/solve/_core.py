"""The compiled search core (numba, nopython, cached).  See :mod:`.fast` for
the public API and for why each pruning rule is sound.

Two records (named tuples of arrays, which numba compiles like structs) carry
everything a function works on:

- :data:`._codes.Board`, the position being searched and what is derived from it:
  ``cols[c, j]``, the card id (``suit * 13 + rank - 1``) at depth ``j`` of
  column ``c`` (0 = deepest), ``lens[c]`` its length; ``piles[s, j]`` /
  ``plen[s]``, foundation pile ``s`` (the pile whose Ace is of suit ``s``);
  ``loc_col[x]`` / ``loc_dep[x]``, where card ``x`` lies (a column, or
  ``-1 - s`` for pile ``s``); ``raw1`` / ``raw2``, each column's Zobrist
  hashes, ``mix1`` / ``mix2`` the same mixed, and ``hsh``, the position key;
  ``bad[c]``, the cards of column ``c`` above a lower card of their suit, and
  ``mins[c, j]``, the lowest rank per suit among its cards below depth ``j``
  (see :func:`lies_bad`); ``topr``, the scratch of the move generator;
  ``lim`` and ``info[0]``, that of the doom check (the rounds it took);
  ``info[1]``, the most cards home in any position a search has entered
  (best-first: stored), which the portfolio reads (:func:`run`).  Moves
  change a board in place and are undone from the *trail* (one row a move:
  see ``TRAIL_W``).
- :data:`Env`, what stays fixed through a search: ``P``, the rules as
  integers (indices ``P_*`` of :mod:`._codes`), the Zobrist tables ``Z1``, ``Z2``
  (card at a depth of a column) and ``ZP1``, ``ZP2`` (card on a pile), and
  the doom check's tables ``PAR`` and ``HOME`` (:func:`fill_env`; the record is made by
  :func:`.kernels.new_env`).

A *stack id* names a column (``0 … ncols-1``) or a pile (``PILE + s``).  A move
is encoded as ``src | dst << 6 | count << 12``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bakers_lab.solve import _codes
from bakers_lab.solve._codes import (  # the codes and records Python shares (see ._codes)
    ALT_COLOUR,
    ANY_SUIT,
    BUDGET,
    EMPTY_ANY,
    EMPTY_KING,
    EMPTY_NONE,
    P_EMPTY,
    P_FBUILD,
    P_FRET,
    P_NCOLS,
    P_RANKS,
    P_SEQ,
    P_TBUILD,
    PILE,
    RUN_GBFS,
    RUN_RDFS,
    SAME_SUIT,
    SOLVED,
    UNSOLVABLE,
    Board,  # noqa: F401 (numba's cache index of an older version names it here)
    Env,  # noqa: F401 (as Board)
)

#: The decorator of every compiled helper that allocates nothing: no inlining
#: (each is compiled once, not once per call site: a fresh compile takes a
#: third of the time) and no reference counting (numba's default increments
#: and decrements the count of every array in the records on each call, two
#: atomic operations per array, which cost more than the work of ``step``;
#: the callers hold the arrays, so the counts are never needed here).
#: Functions that allocate (``new_board``, the searches) keep the default.
hot = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # (_nrt: not in the stubs)

U30 = np.uint64(30)
U27 = np.uint64(27)
U31 = np.uint64(31)
U33 = np.uint64(33)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
M3 = np.uint64(0xFF51AFD7ED558CCD)
M4 = np.uint64(0xC4CEB9FE1A85EC53)
ONE = np.uint64(1)


@njit(cache=True, inline="always")
def mix1(z):
    z = (z ^ (z >> U30)) * M1
    z = (z ^ (z >> U27)) * M2
    return z ^ (z >> U31)


@njit(cache=True, inline="always")
def mix2(z):
    z = (z ^ (z >> U33)) * M3
    z = (z ^ (z >> U33)) * M4
    return z ^ (z >> U33)


@njit(cache=True, inline="always")
def rank_of(c):
    return c % 13 + 1


@njit(cache=True, inline="always")
def is_red(c):
    return c >= 26


@njit(cache=True, inline="always")
def builds_on(c, under, tbuild):
    """Card c may lie on card ``under`` in the tableau."""
    if rank_of(under) != rank_of(c) + 1:
        return False
    if tbuild == ANY_SUIT:
        return True
    if tbuild == SAME_SUIT:
        return c // 13 == under // 13
    return is_red(c) != is_red(under)


@njit(cache=True, inline="always")
def empty_takes(c, P):
    e = P[P_EMPTY]
    return e == EMPTY_ANY or (e == EMPTY_KING and rank_of(c) == P[P_RANKS])


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def lies_bad(mins, x):
    """Whether card x lies above a lower card of its suit, on cards whose lowest
    rank per suit is ``mins`` (packed 4 bits a suit, 15: none)."""
    return (mins >> (4 * (x // 13))) & 15 < rank_of(x)


@njit(cache=True, inline="always")
def with_card(mins, x):
    """``mins`` (see :func:`lies_bad`) once card x lies on those cards."""
    sh = 4 * (x // 13)
    r = rank_of(x)
    if (mins >> sh) & 15 < r:
        return mins
    return (mins & ~(15 << sh)) | (r << sh)


#: A board record around the given stacks (:func:`._codes.new_board`, compiled).
new_board = njit(cache=True)(_codes.new_board)


@hot
def init_board(b, env):
    """Fill locations, hashes and bad counts from the stacks."""
    ncols = env.P[P_NCOLS]
    b.loc_col[:] = -99
    b.hsh[0] = 0
    b.hsh[1] = 0
    for c in range(ncols):
        b.raw1[c] = 0
        b.raw2[c] = 0
        b.bad[c] = 0
        b.mins[c, 0] = 0xFFFF
        for j in range(b.lens[c]):
            x = b.cols[c, j]
            b.loc_col[x] = c
            b.loc_dep[x] = j
            b.raw1[c] ^= env.Z1[x, j]
            b.raw2[c] ^= env.Z2[x, j]
            b.bad[c] += lies_bad(b.mins[c, j], x)
            b.mins[c, j + 1] = with_card(b.mins[c, j], x)
        b.mix1[c] = mix1(b.raw1[c])
        b.mix2[c] = mix2(b.raw2[c])
        b.hsh[0] += b.mix1[c]
        b.hsh[1] += b.mix2[c]
    for s in range(4):
        for j in range(b.plen[s]):
            x = b.piles[s, j]
            b.loc_col[x] = -1 - s
            b.loc_dep[x] = j
            b.hsh[0] += env.ZP1[s, x]
            b.hsh[1] += env.ZP2[s, x]


@hot
def home_count(b):
    return b.plen[0] + b.plen[1] + b.plen[2] + b.plen[3]


@njit(cache=True, inline="always")
def remix(b, c):
    """Bring column c's mixed hashes, and so the position key, up to date with
    its raw hashes."""
    new1 = mix1(b.raw1[c])
    new2 = mix2(b.raw2[c])
    b.hsh[0] += new1 - b.mix1[c]
    b.hsh[1] += new2 - b.mix2[c]
    b.mix1[c] = new1
    b.mix2[c] = new2


@hot
def move_cards(b, env, src, dst, count, trail, tp, record):
    """Move ``count`` cards from stack ``src`` to stack ``dst`` (no legality check),
    updating locations, hashes and bad counts; push it on the trail if ``record``.
    Returns the new trail pointer.  Without ``record`` (taking a trail row back)
    the bad counts are left to the caller, which has them in the row.

    The position key is a sum (mod 2**64) of one term per column and one per
    card on a foundation, so it can be updated in any order and does not
    depend on the order of the columns."""
    cols, lens, piles, plen = b.cols, b.lens, b.piles, b.plen
    hsh = b.hsh
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
        trail[tp, 6] = b.bad[src] if src < PILE else 0
        trail[tp, 7] = b.bad[dst] if dst < PILE else 0
        tp += 1
    # take the cards off the source
    if src < PILE:
        start = lens[src] - count
        for j in range(start, lens[src]):
            x = cols[src, j]
            b.raw1[src] ^= env.Z1[x, j]
            b.raw2[src] ^= env.Z2[x, j]
            if record:
                b.bad[src] -= lies_bad(b.mins[src, j], x)
        remix(b, src)
    else:
        s = src - PILE
        start = plen[s] - count
        for j in range(start, plen[s]):
            x = piles[s, j]
            hsh[0] -= env.ZP1[s, x]
            hsh[1] -= env.ZP2[s, x]
    # put them on the destination, in the same order
    for k in range(count):
        x = cols[src, start + k] if src < PILE else piles[src - PILE, start + k]
        if dst < PILE:
            j = lens[dst]
            cols[dst, j] = x
            lens[dst] = j + 1
            b.loc_col[x] = dst
            b.loc_dep[x] = j
            if record:
                b.bad[dst] += lies_bad(b.mins[dst, j], x)
            b.mins[dst, j + 1] = with_card(b.mins[dst, j], x)
        else:
            s2 = dst - PILE
            piles[s2, plen[s2]] = x
            plen[s2] += 1
            b.loc_col[x] = -1 - s2
            b.loc_dep[x] = plen[s2] - 1
            hsh[0] += env.ZP1[s2, x]
            hsh[1] += env.ZP2[s2, x]
    if dst < PILE:
        for j in range(lens[dst] - count, lens[dst]):
            x = cols[dst, j]
            b.raw1[dst] ^= env.Z1[x, j]
            b.raw2[dst] ^= env.Z2[x, j]
        remix(b, dst)
    if src < PILE:
        lens[src] = start
    else:
        plen[src - PILE] = start
    return tp


@njit(cache=True, inline="always")
def suit_fits(t, s, tb):
    """A card of suit ``s`` may lie on a card of suit ``t`` (ranks aside)."""
    return (
        tb == ANY_SUIT
        or (tb == SAME_SUIT and t == s)
        or (tb == ALT_COLOUR and (t >= 2) != (s >= 2))
    )


@hot
def safe_to_home(b, env, c):
    """Card c (a column top) may go home now and be sure it is never needed in
    the tableau (rule 1 of :mod:`.fast`)."""
    P = env.P
    plen = b.plen
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
        if suit_fits(t, s, tb) and plen[t] < r - 1:
            return False
    return True


@hot
def autoplay(b, env, trail, tp):
    """Play every safe foundation move until none is left; returns the trail pointer."""
    changed = True
    while changed:
        changed = False
        for i in range(env.P[P_NCOLS]):
            if b.lens[i] > 0:
                c = b.cols[i, b.lens[i] - 1]
                if safe_to_home(b, env, c):
                    tp = move_cards(b, env, i, PILE + c // 13, 1, trail, tp, True)
                    changed = True
    return tp


@hot
def step(b, env, m, trail, tp):
    """Play encoded move ``m`` and then every safe foundation move, recording
    them on the trail; returns the new trail pointer.

    The position before the move must have no safe foundation move left (as
    every position the searches and players reach has).  Then after a move
    between columns only the new top of the source column can be safe (the
    foundations are as they were, and the moved cards were tops before), so
    the full scan runs only when it is: the same moves, in the same order."""
    src = m & 63
    dst = (m >> 6) & 63
    tp = move_cards(b, env, src, dst, m >> 12, trail, tp, True)
    if src < PILE and dst < PILE:
        n = b.lens[src]
        if n == 0 or not safe_to_home(b, env, b.cols[src, n - 1]):
            return tp
    return autoplay(b, env, trail, tp)


@hot
def undo_to(b, env, trail, tp, target):
    """Take back the trail's moves down to pointer ``target``; returns ``target``."""
    while tp > target:
        tp -= 1
        src = trail[tp, 0]
        dst = trail[tp, 1]
        move_cards(b, env, dst, src, trail[tp, 2], trail, tp, False)
        if src < PILE:
            b.bad[src] = trail[tp, 6]
        if dst < PILE:
            b.bad[dst] = trail[tp, 7]
    return tp


@hot
def is_dead(b, env):
    """True if some card above a lower card of its suit has every parent home or
    buried beneath it (the simple test of rule 4 of :mod:`.fast`)."""
    P = env.P
    if P[P_FRET] != 0 or P[P_FBUILD] != SAME_SUIT or P[P_EMPTY] == EMPTY_ANY:
        return False
    top = P[P_RANKS]
    tb = P[P_TBUILD]
    for c in range(P[P_NCOLS]):
        mins = 0xFFFF  # lowest rank seen per suit, 4 bits a suit
        for j in range(b.lens[c]):
            x = b.cols[c, j]
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
                    if suit_fits(t, s, tb):
                        p = t * 13 + r  # the card of suit t, rank r + 1
                        if b.plen[t] >= r + 1:
                            continue  # home for good
                        if b.loc_col[p] == c and b.loc_dep[p] < j and P[P_SEQ] == 0:
                            continue  # buried under x (a run could carry x away with it)
                        usable = True
                        break
                if not usable:
                    return True
            else:
                mins = (mins & ~(15 << (4 * s))) | (r << (4 * s))
    return False


@hot
def doom_applies(P, extended):
    """Whether :func:`is_doomed` works under these rules: single-card moves, and
    (unless ``extended``) same-suit foundations that keep their cards and empty
    columns that take no ordinary card."""
    if P[P_SEQ] != 0:
        return False
    return extended or (P[P_FRET] == 0 and P[P_FBUILD] == SAME_SUIT and P[P_EMPTY] != EMPTY_ANY)


#: Bit ``13 * t`` for each suit ``t``: the Aces; shifted left by ``r``, the
#: cards of rank ``r + 1`` (the doom check keeps its facts as 52-bit sets).
ACES = np.uint64((1 << 0) | (1 << 13) | (1 << 26) | (1 << 39))
#: The black (clubs, spades: suits 0, 1) and red (suits 2, 3) Aces.
BLACK_ACES = np.uint64((1 << 0) | (1 << 13))
RED_ACES = np.uint64((1 << 26) | (1 << 39))


@njit(cache=True, inline="always")
def bit(x):
    return ONE << np.uint64(x)


@njit(cache=True, inline="always")
def rank_cards(r, tb, s):
    """The cards of rank ``r + 1`` a card of suit ``s`` may lie on, as a bit set
    (``r`` from 0: ``rank_cards(0, …)`` are Aces)."""
    if tb == ANY_SUIT:
        return ACES << np.uint64(r)
    if tb == SAME_SUIT:
        return bit(s * 13 + r)
    return (RED_ACES if s < 2 else BLACK_ACES) << np.uint64(r)


#: Bits past the cards that the doom check keeps set in A (KING_BIT) and in G
#: (ACE_BIT): a card whose ``PAR`` holds KING_BIT can always move away (a top
#: card where an empty column takes it), one whose ``HOME`` holds ACE_BIT can
#: always go home once it can move (an Ace).
KING_BIT = np.uint64(1 << 62)
ACE_BIT = np.uint64(1 << 63)


@njit(cache=True)
def fill_env(P, PAR, HOME):
    """Fill the bit sets the doom check reads, per card ``x`` of rules ``P``:
    ``PAR[x]`` (the parents x may move onto, as a tableau build allows) and
    ``HOME[x]`` (the cards any one of which at home lets a foundation take x:
    the card below it in its suit; with alternate-colour foundations any card
    one rank lower of the other colour)."""
    top = P[P_RANKS]
    tb = P[P_TBUILD]
    for x in range(52):
        r = rank_of(x)
        s = x // 13
        if r < top:
            PAR[x] = rank_cards(r, tb, s)
        elif r == top and P[P_EMPTY] == EMPTY_KING:
            PAR[x] = KING_BIT
        if r == 1:
            HOME[x] = ACE_BIT
        elif P[P_FBUILD] == SAME_SUIT:
            HOME[x] = bit(x - 1)
        else:
            HOME[x] = rank_cards(r - 2, ALT_COLOUR, s)


@hot
def is_doomed(b, env):
    """True if some card can provably never reach home: a least fixed point
    over a relaxed game (see :mod:`.fast`, rules 4 and 6).

    A: the cards that can be uncovered some time (every card above can move
    away); M: the cards that can move away from where they lie (home, onto an
    uncoverable parent that is not home — or, with foundation returns, onto
    any card that can reach home — or, where an empty column takes it, into an
    empty column once one can exist); G: the cards that can reach home (in M
    and the foundations can take them).  Each is a set of card ids, one bit a
    card.  Facts start false and are derived only from facts already derived,
    so every fact that real play makes true is derived too.  ``info[0]``: how
    many rounds the fixed point took, counting the last one that finds
    nothing new.  Once every card can reach home that round is not run: every
    card then can move away and was uncovered when it was scanned (only the
    scan derives those facts), and any empty column that can exist was seen,
    so the next round would change nothing."""
    P = env.P
    PAR, HOME = env.PAR, env.HOME
    ncols = P[P_NCOLS]
    top = P[P_RANKS]
    any_empty = P[P_EMPTY] == EMPTY_ANY
    fret = P[P_FRET] != 0
    same = P[P_FBUILD] == SAME_SUIT
    A = KING_BIT
    M = np.uint64(0)
    G = ACE_BIT
    deck = 4 * top
    home = 0  # cards G holds
    for s in range(4):
        for k in range(b.plen[s]):
            G |= bit(b.piles[s, k])
        home += b.plen[s]
    # an empty column can exist some time (it only matters where one takes any card)
    space = False
    if any_empty:
        for c in range(ncols):
            if b.lens[c] == 0:
                space = True
    # lim[c]: the depth in column c where a round's scan starts (every card
    # above it is in A and M already, so scanning them would change nothing)
    lim = b.lim
    for c in range(ncols):
        lim[c] = b.lens[c] - 1
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        for c in range(ncols):
            for j in range(lim[c], -1, -1):
                x = b.cols[c, j]
                bx = bit(x)
                if (A & bx) == 0:
                    A |= bx
                    changed = True
                if (G & HOME[x]) != 0 or (((A | G) if fret else A) & PAR[x]) != 0 or space:
                    M |= bx
                    changed = True
                else:
                    lim[c] = j
                    break  # x cannot move away: nothing beneath it is uncovered
            else:
                lim[c] = -1
                if any_empty and not space:
                    space = True
                    changed = True
        if same:
            for s in range(4):
                for k in range(b.plen[s], top):
                    bx = bit(s * 13 + k)
                    if (G & bx) != 0:
                        continue
                    if (M & bx) != 0 and (k == 0 or (G & (bx >> ONE)) != 0):
                        G |= bx
                        home += 1
                        changed = True
                    else:
                        break
        else:
            for x in range(52):  # (M holds only cards of the deck)
                bx = bit(x)
                if (G & bx) == 0 and (M & bx) != 0 and (G & HOME[x]) != 0:
                    G |= bx
                    home += 1
                    changed = True
        if home == deck:
            b.info[0] = rounds + 1 if changed else rounds
            return False
    b.info[0] = rounds
    return home != deck


@hot
def is_lost(b, env, use_doom, extended):
    """The dead-position test that applies to these rules (rules 4 and 6 of
    :mod:`.fast`): the doom check where it applies (``extended``: in its
    extended form), else the simple test.  The players call it with
    ``extended=False``: their evaluation must stay what it was."""
    if use_doom and doom_applies(env.P, extended):
        return is_doomed(b, env)
    b.info[0] = 0
    return is_dead(b, env)


@hot
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


@hot
def tt_has(tt, h1, h2):
    """Whether key (h1, h2) is in the table (:func:`tt_seen` without inserting)."""
    mask = np.uint64(tt.shape[0] - 1)
    k1 = h1 | ONE
    i0 = h1 & mask
    for probe in range(8):
        i = (i0 + np.uint64(probe)) & mask
        if tt[i, 0] == 0:
            return False
        if tt[i, 0] == k1 and tt[i, 1] == h2:
            return True
    return False


#: Weights of the depth-first search's move ordering (see :func:`evaluate`).
DFS_WEIGHTS = np.array([4, 4, 1, 0, 0], dtype=np.int64)


@hot
def evaluate(b, env, weights, rounds, depth):
    """Score of a position, lower is better: weighted cards not home, cards
    that must visit the tableau, cards above each suit's next foundation card,
    rounds the doom check took, and path length."""
    P = env.P
    ranks = P[P_RANKS]
    nbad = 0
    for c in range(P[P_NCOLS]):
        nbad += b.bad[c]
    block = 0
    for s in range(4):
        if b.plen[s] < ranks:
            x = s * 13 + b.plen[s]
            col = b.loc_col[x]
            if col >= 0:
                block += b.lens[col] - 1 - b.loc_dep[x]
    return (
        weights[0] * (4 * ranks - home_count(b))
        + weights[1] * nbad
        + weights[2] * block
        + weights[3] * rounds
        + weights[4] * depth
    )


@njit(cache=True)
def new_rng(seed):
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x2545F4914F6CDD1D)
    if rng[0] == 0:
        rng[0] = ONE
    return rng


@hot
def xorshift(state):
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


@hot
def gen_moves(b, env, out, prune=True):
    """Legal moves (with ``prune``, minus those rule 2 of :mod:`.fast` shows
    pointless); returns how many.  Without ``prune`` they are exactly the moves
    :meth:`~bakers_lab.model.game.GameState.legal_moves` lists (players make those)."""
    P = env.P
    cols, lens, piles, plen = b.cols, b.lens, b.piles, b.plen
    ncols = P[P_NCOLS]
    tb = P[P_TBUILD]
    same_f = P[P_FBUILD] == SAME_SUIT
    n = 0
    # the first empty column, and the rank of each column's top card (0: empty),
    # so a card's targets are found by comparing ranks
    empty = -1
    topr = b.topr
    for d in range(ncols):
        if lens[d] == 0:
            topr[d] = 0
            if empty < 0:
                empty = d
        else:
            topr[d] = rank_of(cols[d, lens[d] - 1])
    for i in range(ncols):
        L = lens[i]
        if L == 0:
            continue
        x = cols[i, L - 1]
        if same_f:  # only the pile of its own suit can take it
            if pile_takes(x // 13, x, piles, plen, P):
                out[n] = i | ((PILE + x // 13) << 6) | (1 << 12)
                n += 1
        else:
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
            want = rank_of(c) + 1
            for d in range(ncols):
                if topr[d] == want and d != i and builds_on(c, cols[d, lens[d] - 1], tb):
                    out[n] = i | (d << 6) | (cnt << 12)
                    n += 1
            if empty >= 0 and k > 0 and empty_takes(c, P):
                out[n] = i | (empty << 6) | (cnt << 12)
                n += 1
    if P[P_FRET] != 0:
        for s in range(4):
            if plen[s] > 0:
                c = piles[s, plen[s] - 1]
                want = rank_of(c) + 1
                for d in range(ncols):
                    if topr[d] == want and builds_on(c, cols[d, lens[d] - 1], tb):
                        out[n] = (PILE + s) | (d << 6) | (1 << 12)
                        n += 1
                if empty >= 0 and empty_takes(c, P):
                    out[n] = (PILE + s) | (empty << 6) | (1 << 12)
                    n += 1
    return n


@hot
def just_moved(m, rows):
    """Rule 7 of :mod:`.fast`: the stamp ``column | count << 6`` of the cards
    move ``m`` put on a column when its step made ``rows`` trail rows (1: no
    automatic foundation move followed); else -1 (nothing to hold still)."""
    dst = (m >> 6) & 63
    if rows != 1 or dst >= PILE:
        return -1
    return dst | ((m >> 12) << 6)


@hot
def moves_again(m, stamp):
    """Whether move ``m`` moves again the cards of ``stamp`` (see :func:`just_moved`):
    from that column, as many cards (so the same bottom card)."""
    return stamp >= 0 and (m & 63) == (stamp & 63) and (m >> 12) == (stamp >> 6)


@njit(cache=True)
def dfs(
    b, env, budget, seed, tt_bits, max_depth, max_moves, trail, use_doom, again=True, shuffle=False
):
    """Depth-first search with a transposition table and ordered moves, from
    the position on board ``b`` (filled by :func:`init_board`).

    Returns (status, nodes, trail length).  ``status`` is SOLVED (the trail
    holds the solution), UNSOLVABLE (every position reachable under the sound
    prunings was visited) or BUDGET (stopped by the node budget or depth cap).
    ``again=False`` turns rule 7 of :mod:`.fast` off (for tests).
    """
    decksize = 4 * env.P[P_RANKS]
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    rng = new_rng(seed)

    # the generated moves of every node on the path, one flat stack:
    # node d's moves are mstack[base[d] : base[d] + nmov[d]].  A path of d
    # moves, or d kept moves on the stack, took d generated nodes, so a small
    # budget needs small arrays (the probe run would spend more time clearing
    # arrays sized for max_depth than searching); a long path keeps at most
    # 48 moves a step on average (lost children included: they are tested
    # when entered), and a branch that would need more is cut (``truncated``)
    room = min(max_depth, budget) + 1
    mcap = min(max_depth * 48, budget) + max_moves
    mstack = np.empty(mcap, np.int64)
    base = np.zeros(room + 1, np.int64)
    nmov = np.zeros(room, np.int64)
    idx = np.zeros(room, np.int64)
    tp_at = np.zeros(room + 1, np.int64)
    # node d was entered by moving the cards held[d] names (rule 7), or -1
    held = np.full(room + 1, -1, np.int64)
    keys = np.zeros(max_moves, np.int64)
    buf = np.zeros(max_moves, np.int64)

    tp = autoplay(b, env, trail, 0)
    nodes = 1
    if home_count(b) == decksize:
        return SOLVED, nodes, tp
    if is_lost(b, env, True, True):
        return UNSOLVABLE, nodes, tp
    tt_seen(tt, b.hsh[0], b.hsh[1])
    b.info[1] = home_count(b)
    truncated = False
    depth = 0
    fresh = True
    while True:
        if fresh:
            # generate the moves of this node; keep those that lead to a new
            # position not yet lost, ordered by the score of that position
            tp_at[depth] = tp
            n = gen_moves(b, env, buf)
            kept = 0
            for k in range(n):
                # a tie-break for every child, kept or not: the order of the kept
                # ones is then the order all children would have (with rule 7 off too)
                noise = np.int64(xorshift(rng) & np.uint64(1023))
                if again and moves_again(buf[k], held[depth]):
                    continue  # rule 7: the parent has this child
                t2 = step(b, env, buf[k], trail, tp)
                nodes += 1
                if home_count(b) == decksize:
                    return SOLVED, nodes, t2
                # the dead-position test waits until the child is entered: the
                # children a search never enters (a solution or the budget came
                # first, or it was reached meanwhile) then never cost one
                if not tt_has(tt, b.hsh[0], b.hsh[1]):
                    if shuffle:
                        keys[kept] = noise  # a random order (a restart of its own)
                    else:
                        keys[kept] = evaluate(b, env, DFS_WEIGHTS, 0, 0) * 1024 + noise
                    buf[kept] = buf[k]
                    kept += 1
                undo_to(b, env, trail, t2, tp)
                if nodes >= budget:
                    return BUDGET, nodes, tp
            n = kept
            # insertion sort by key
            for a in range(1, n):
                kk = keys[a]
                mm = buf[a]
                c = a - 1
                while c >= 0 and keys[c] > kk:
                    keys[c + 1] = keys[c]
                    buf[c + 1] = buf[c]
                    c -= 1
                keys[c + 1] = kk
                buf[c + 1] = mm
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
            tp = step(b, env, m, trail, tp)
            if tt_has(tt, b.hsh[0], b.hsh[1]) or is_lost(b, env, use_doom, True):
                # reached meanwhile in a sibling's subtree, or lost (a lost
                # position never enters the table, so a sibling's subtree that
                # reaches it tests it again: the same answer)
                tp = undo_to(b, env, trail, tp, tp_at[depth])
                continue
            tt_seen(tt, b.hsh[0], b.hsh[1])  # (new: this puts it in the table)
            b.info[1] = max(b.info[1], home_count(b))
            if depth + 1 >= max_depth:
                truncated = True
                tp = undo_to(b, env, trail, tp, tp_at[depth])
            else:
                held[depth + 1] = just_moved(m, tp - tp_at[depth])
                depth += 1
                fresh = True
        else:
            if depth == 0:
                return (BUDGET if truncated else UNSOLVABLE), nodes, tp
            depth -= 1
            tp = undo_to(b, env, trail, tp, tp_at[depth])


@hot
def encode(b, env, store, k):
    """Write the position into row k of ``store`` (cards, 255 ends a stack)."""
    w = 0
    for c in range(env.P[P_NCOLS]):
        for j in range(b.lens[c]):
            store[k, w] = b.cols[c, j]
            w += 1
        store[k, w] = 255
        w += 1
    for s in range(4):
        for j in range(b.plen[s]):
            store[k, w] = b.piles[s, j]
            w += 1
        store[k, w] = 255
        w += 1


@hot
def decode(b, env, store, k):
    """Set the board's stacks from row k of ``store`` (then :func:`init_board`)."""
    w = 0
    for c in range(env.P[P_NCOLS]):
        n = 0
        while store[k, w] != 255:
            b.cols[c, n] = store[k, w]
            n += 1
            w += 1
        b.lens[c] = n
        w += 1
    for s in range(4):
        n = 0
        while store[k, w] != 255:
            b.piles[s, n] = store[k, w]
            n += 1
            w += 1
        b.plen[s] = n
        w += 1


@hot
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


@hot
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
        c = a + 1
        m = a if (c >= n or hk[a] <= hk[c]) else c
        if hk[i] <= hk[m]:
            break
        hk[i], hk[m] = hk[m], hk[i]
        hv[i], hv[m] = hv[m], hv[i]
        i = m
    return val, n


@njit(cache=True)
def gbfs(b, env, budget, seed, tt_bits, max_moves, weights, trail, use_doom, again=True):
    """Greedy best-first search from the position on board ``b``: always
    expand the stored position with the best score.  Finds solutions fast;
    its result is SOLVED, UNSOLVABLE (the frontier ran dry: every reachable
    position was expanded) or BUDGET.  On SOLVED the trail holds the solution
    from the start.  ``again=False`` turns rule 7 of :mod:`.fast` off (for tests)."""
    P = env.P
    ncols = P[P_NCOLS]
    decksize = 4 * P[P_RANKS]
    width = decksize + ncols + 4
    cap = budget + 1
    store = np.empty((cap, width), np.uint8)
    parent = np.empty(cap, np.int32)
    pmove = np.empty(cap, np.int32)
    gdepth = np.zeros(cap, np.int32)
    held = np.empty(cap, np.int32)  # what :func:`just_moved` said of the move to each
    hk = np.empty(cap, np.int64)
    hv = np.empty(cap, np.int32)
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    buf = np.zeros(max_moves, np.int64)
    rng = new_rng(seed)

    tp0 = autoplay(b, env, trail, 0)
    if home_count(b) == decksize:
        return SOLVED, 1, tp0
    if is_lost(b, env, True, True):
        return UNSOLVABLE, 1, tp0
    tt_seen(tt, b.hsh[0], b.hsh[1])
    most = home_count(b)
    nstored = 1
    encode(b, env, store, 0)
    parent[0] = -1
    pmove[0] = 0
    held[0] = -1
    nheap = heap_push(hk, hv, 0, 0, 0)
    nodes = 1
    found = -1
    complete = True
    while nheap > 0 and found < 0:
        k, nheap = heap_pop(hk, hv, nheap)
        decode(b, env, store, k)
        init_board(b, env)
        n = gen_moves(b, env, buf)
        for a in range(n):
            m = buf[a]
            if again and moves_again(m, held[k]):
                continue  # rule 7: the parent has this child
            t2 = step(b, env, m, trail, tp0)
            nodes += 1
            if not tt_seen(tt, b.hsh[0], b.hsh[1]):
                if home_count(b) == decksize:
                    parent[nstored] = k
                    pmove[nstored] = m
                    found = nstored
                    nstored += 1
                elif not is_lost(b, env, use_doom, True):
                    if nstored >= cap:
                        complete = False
                    else:
                        encode(b, env, store, nstored)
                        parent[nstored] = k
                        pmove[nstored] = m
                        gdepth[nstored] = gdepth[k] + 1
                        held[nstored] = just_moved(m, t2 - tp0)
                        score = evaluate(b, env, weights, b.info[0], gdepth[nstored])
                        most = max(most, home_count(b))
                        key = score * 4096 + np.int64(xorshift(rng) & np.uint64(4095))
                        nheap = heap_push(hk, hv, nheap, key, nstored)
                        nstored += 1
            undo_to(b, env, trail, t2, tp0)
            if found >= 0:
                break
        if nodes >= budget and found < 0:
            b.info[1] = most
            return BUDGET, nodes, tp0
    b.info[1] = most
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
    decode(b, env, store, 0)
    init_board(b, env)
    tp = tp0
    for i in range(d - 1, -1, -1):
        tp = step(b, env, path[i], trail, tp)
    return SOLVED, nodes, tp


@njit(cache=True, nogil=True)  # the page can tick while it runs
def run(kind, cols, lens, piles, plen, env, budget, seed, tt_bits, max_depth, max_moves, trail, w):
    """One search from the position in the stacks (left unchanged): ``kind``
    RUN_DFS (ordered depth-first), RUN_RDFS (depth-first in a random order) or
    RUN_GBFS (best-first with weights ``w``); returns what the search returns
    and the most cards home in a position it reached (``info[1]``; 0 when it
    stopped at the start).  One call from Python instead of three (board,
    fill, search): a record argument costs the dispatcher more than a small
    search."""
    b = new_board(cols.copy(), lens.copy(), piles.copy(), plen.copy())
    init_board(b, env)
    if kind == RUN_GBFS:
        status, nodes, tp = gbfs(b, env, budget, seed, tt_bits, max_moves, w, trail, True)
    else:
        status, nodes, tp = dfs(
            b, env, budget, seed, tt_bits, max_depth, max_moves, trail, True, True, kind == RUN_RDFS
        )
    return status, nodes, tp, b.info[1]
