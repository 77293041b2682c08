"""The strongest lower bound of :func:`bakers_lab.shortest` (numba, nopython,
cached): the fewest further tableau moves that break every deadlock, counted
exactly by a small branch-and-bound search instead of a greedy packing.  See
:mod:`.shortest` ("The lower bound", item 5) for why it is admissible.

The cards of a position (bit ``x`` of a uint64 is card ``x``) that make a
tableau move from now on form a set *M*.  The stuck cards are in it (counted
by :func:`._deadlocks.quick_bound`), and whatever the moves, *M*:

- holds a card of every cycle of the deadlock graph (:func:`._deadlocks.deadlocks`);
- holds, for each card ``x`` of *M* with a landing set
  (:func:`._deadlocks._landing`), a card of that set, or ``x`` moves twice
  (the set's *again* element, one per set);
- holds no king where empty columns stay empty, and no card whose parents are
  all at home or beneath it: those cannot make a tableau move.

Each card of *M* past the stuck ones is a tableau move of its own, and each
*again* a second move of its card, so the least size of such a choice is a
lower bound.  :func:`hitting_set` finds it by iterative deepening from the
greedy packing's count (a lower bound already): "is there a choice of k
cards?" branches on an unmet constraint with the fewest options, the first
option taken in one branch and refused in the others, and cuts a branch when
a greedy packing of what is left needs more than is left to spend.  A search
that runs past :data:`BRANCHES` gives up and keeps the count proven so far.
"""

from __future__ import annotations

import numpy as np

from bakers_lab.solve._codes import EMPTY_ANY, EMPTY_NONE, P_EMPTY, P_FRET, P_RANKS, SCRATCH
from bakers_lab.solve._core import hot, rank_of
from bakers_lab.solve._deadlocks import (
    AGAIN,
    CARDS,
    bit_mask,
    cycle_through,
    deadlock_graph,
    landing_set,
    low_bit,
    on_cycles,
    packed,
    popcount,
    shortest_cycle,
)

#: A deepening step gives up after this many branches (the bound stays sound:
#: it keeps the count proven before).
BRANCHES = 3000
#: The count is raised at most this far past the greedy packing.
MOST_RAISED = 6
#: Deepest branch: a count past 40 is more than a position can need here.
DEPTH = 64
# the parts of the scratch array (uint64)
_ADJ, _LEVELS, _LAND, _LX = 0, 52, 116, 168
_STACK = 220  # seven rows of DEPTH: the search's stack
_SPARE = _STACK + 7 * DEPTH  # a copy of the landing sets for the greedy packing
#: Size of the scratch array :func:`hitting_set` takes (it holds
#: :func:`._deadlocks.deadlocks`' too).
assert SCRATCH == _SPARE + 52  # (._codes.SCRATCH: Python sizes the scratch with it)
_NO = np.uint64(0)
_ONE = np.uint64(1)


@hot
def _family(b, env, scratch):
    """Fill the scratch array: each card's arrows (among the cards not stuck),
    the stuck cards' landing sets and the landing set of each other card that
    some constraint may choose (0: none needed).  Returns (the cards not
    stuck, how many landing sets of stuck cards, the cards that can make no
    tableau move, whether any constraint is there at all)."""
    P = env.P
    adj = scratch[_ADJ : _ADJ + 52]
    land = scratch[_LAND : _LAND + 52]
    lx = scratch[_LX : _LX + 52]
    stuck, avail, nland = deadlock_graph(b, env, adj, land)
    for x in range(52):
        adj[x] &= avail
    nomove = _NO
    cyc = on_cycles(adj, avail)
    todo = cyc  # the cards a constraint may choose
    for i in range(nland):
        todo |= land[i] & CARDS
    if P[P_FRET] == 0 and P[P_EMPTY] != EMPTY_ANY:
        top = P[P_RANKS]
        # each card a constraint may choose needs a landing of its own, whose
        # cards may be chosen in turn
        seen = _NO
        todo &= avail
        while todo != 0:
            x = low_bit(todo)
            bx = bit_mask(x)
            todo &= ~bx
            seen |= bx
            lx[x] = 0
            if rank_of(x) == top:
                if P[P_EMPTY] == EMPTY_NONE:
                    nomove |= bx  # a king: no empty column will take it
                continue
            c = b.loc_col[x]
            j = b.loc_dep[x]
            if not _can_land(b, env, c, j, x):
                nomove |= bx
                continue
            u = landing_set(b, env, c, j, x, stuck)
            lx[x] = u
            todo |= u & avail & ~seen
    else:
        for x in range(52):
            lx[x] = 0
    return avail, nland, nomove, cyc != 0 or nland != 0


@hot
def _can_land(b, env, c, j, x):
    """Whether card x, at depth j of column c, has a parent that is neither
    at home nor beneath it."""
    rest = env.PAR[x]
    while rest != 0:
        p = low_bit(rest)
        rest &= rest - _ONE
        cp = b.loc_col[p]
        if cp >= 0 and not (cp == c and b.loc_dep[p] < j):
            return True
    return False


@hot
def _open_landing(lx, x, chosen, again):
    """Whether chosen card x has a landing set no chosen card meets and its
    second move was not chosen."""
    u = lx[x]
    return u != 0 and (again & bit_mask(x)) == 0 and (u & CARDS & chosen) == 0


@hot
def _unmet(scratch, nland, alive, avail, excl, active, again):
    """The unmet constraint with the fewest options: (0 none is unmet, 1 found,
    2 one has no option left; its cards one may still choose; its again
    element: a stuck card's set number + 1, 64 + card + 1 for another card's,
    or 0).  ``alive``: the cards not chosen; ``excl``: cards refused;
    ``active``: the stuck cards' sets whose again was not chosen; ``again``:
    the other cards whose again was chosen."""
    adj = scratch[_ADJ : _ADJ + 52]
    levels = scratch[_LEVELS : _LEVELS + 64]
    land = scratch[_LAND : _LAND + 52]
    lx = scratch[_LX : _LX + 52]
    chosen = avail & ~alive
    best = 99
    options = _NO
    tag = 0
    for i in range(nland):
        if (active >> np.uint64(i)) & _ONE:
            u = land[i]
            if (u & CARDS & chosen) == 0:
                ch = u & CARDS & ~excl
                n = popcount(ch)
                t = 0
                if (u & AGAIN) != 0:
                    n += 1
                    t = i + 1
                if n < best:
                    best, options, tag = n, ch, t
                    if n == 0:
                        return 2, options, tag
    rest = chosen
    while rest != 0:
        x = low_bit(rest)
        rest &= rest - _ONE
        if _open_landing(lx, x, chosen, again):
            u = lx[x]
            ch = u & CARDS & ~excl
            n = popcount(ch)
            t = 0
            if (u & AGAIN) != 0:
                n += 1
                t = 64 + x + 1
            if n < best:
                best, options, tag = n, ch, t
                if n == 0:
                    return 2, options, tag
    on = on_cycles(adj, alive)
    if on != 0:
        length, src = shortest_cycle(adj, on, levels, 99)
        if src >= 0:
            ch = cycle_through(adj, on, levels, src, length) & ~excl
            n = popcount(ch)
            if n == 0:
                return 2, ch, 0  # a cycle of refused cards only
            if n < best:
                best, options, tag = n, ch, 0
    if best == 99:
        return 0, options, tag
    return 1, options, tag


@hot
def _packing(scratch, nland, alive, avail, active, again):
    """How many unmet constraints with no card in common, greedily, smallest
    first: each needs a move of its own, so more than the moves left cuts
    the branch."""
    adj = scratch[_ADJ : _ADJ + 52]
    levels = scratch[_LEVELS : _LEVELS + 64]
    land = scratch[_LAND : _LAND + 52]
    lx = scratch[_LX : _LX + 52]
    chosen = avail & ~alive
    pending = _NO  # chosen cards whose landing set is unmet
    rest = chosen
    while rest != 0:
        x = low_bit(rest)
        rest &= rest - _ONE
        if _open_landing(lx, x, chosen, again):
            pending |= bit_mask(x)
    count = 0
    used = _NO
    while True:
        size = 99
        pick = -1
        card = -1
        for i in range(nland):
            if (active >> np.uint64(i)) & _ONE:
                u = land[i]
                if (u & CARDS & chosen) == 0 and (u & used & CARDS) == 0:
                    n = popcount(u)
                    if n < size:
                        size, pick = n, i
        r2 = pending
        while r2 != 0:
            x = low_bit(r2)
            r2 &= r2 - _ONE
            u = lx[x]
            if (u & used & CARDS) == 0:
                n = popcount(u)
                if n < size:
                    size, card, pick = n, x, -1
        src = -1
        length = 99
        on = _NO
        if size > 2:
            on = on_cycles(adj, alive & ~used)
            if on != 0:
                length, src = shortest_cycle(adj, on, levels, size)
        if src >= 0:
            used |= cycle_through(adj, on, levels, src, length)
        elif card >= 0:
            used |= lx[card] & CARDS
            pending &= ~bit_mask(card)
        elif pick >= 0:
            used |= land[pick] & CARDS
            active &= ~(_ONE << np.uint64(pick))
        else:
            return count
        count += 1


@hot
def _choice_of(scratch, nland, avail, nomove, k):
    """1 if the constraints can be met with k moves, 0 if not, -1 when the
    search gave up (:data:`BRANCHES`)."""
    st = scratch[_STACK : _STACK + 7 * DEPTH]
    s_alive = st[0:DEPTH]
    s_excl = st[DEPTH : 2 * DEPTH]
    s_act = st[2 * DEPTH : 3 * DEPTH]
    s_again = st[3 * DEPTH : 4 * DEPTH]
    s_opt = st[4 * DEPTH : 5 * DEPTH]
    s_tag = st[5 * DEPTH : 6 * DEPTH]
    s_k = st[6 * DEPTH : 7 * DEPTH]
    active = _NO
    for i in range(nland):
        active |= _ONE << np.uint64(i)
    if _dive(scratch, nland, avail, nomove, active, k):
        return 1
    depth = 0
    branches = 0
    alive = avail
    excl = nomove
    again = _NO
    left = k
    entering = True
    while True:
        if entering:
            entering = False
            branches += 1
            if branches > BRANCHES:
                return -1
            status, options, tag = _unmet(scratch, nland, alive, avail, excl, active, again)
            if status == 0:
                return 1
            if (
                status == 1
                and left > 0
                and depth < DEPTH
                and _packing(scratch, nland, alive, avail, active, again) <= left
            ):
                s_alive[depth] = alive
                s_excl[depth] = excl
                s_act[depth] = active
                s_again[depth] = again
                s_opt[depth] = options
                s_tag[depth] = tag
                s_k[depth] = left
                depth += 1
        if depth == 0:
            return 0
        f = depth - 1
        if s_opt[f] != 0:  # the likeliest card; the later branches refuse it
            e = bit_mask(_best(scratch, nland, s_alive[f], avail, s_act[f], s_again[f], s_opt[f]))
            s_opt[f] &= ~e
            alive = s_alive[f] & ~e
            excl = s_excl[f]
            active = s_act[f]
            again = s_again[f]
            s_excl[f] |= e
            left = np.int64(s_k[f]) - 1
            entering = True
        elif s_tag[f] != 0:  # the second move last: it meets this constraint only
            t = np.int64(s_tag[f]) - 1
            alive = s_alive[f]
            excl = s_excl[f]
            active = s_act[f]
            again = s_again[f]
            if t >= 64:
                again |= bit_mask(t - 64)
            else:
                active &= ~(_ONE << np.uint64(t))
            s_tag[f] = 0
            left = np.int64(s_k[f]) - 1
            entering = True
        else:
            depth -= 1


@hot
def _best(scratch, nland, alive, avail, active, again, options):
    """The card of ``options`` likeliest to be in a fewest choice: the one in
    the most unmet landing sets, then on a cycle, then with no landing set of
    its own to meet."""
    adj = scratch[_ADJ : _ADJ + 52]
    land = scratch[_LAND : _LAND + 52]
    lx = scratch[_LX : _LX + 52]
    chosen = avail & ~alive
    on = on_cycles(adj, alive)
    best = -1
    top = -1
    rest = options
    while rest != 0:
        e = low_bit(rest)
        be = bit_mask(e)
        rest &= ~be
        score = 0
        for i in range(nland):
            if (active >> np.uint64(i)) & _ONE:
                u = land[i]
                if (u & be) != 0 and (u & CARDS & chosen) == 0:
                    score += 4
        r2 = chosen
        while r2 != 0:
            x = low_bit(r2)
            r2 &= r2 - _ONE
            if (lx[x] & be) != 0 and _open_landing(lx, x, chosen, again):
                score += 4
        if (on & be) != 0:
            score += 2
        if lx[e] == 0:
            score += 1
        if score > top:
            top = score
            best = e
    return best


@hot
def _dive(scratch, nland, avail, nomove, active, k):
    """Whether taking each unmet constraint's likeliest option (:func:`_best`;
    its second move if it has no card left) meets them all with k moves: the
    search's first branch, without its cuts, which settles most positions."""
    alive = avail
    again = _NO
    for _ in range(k + 1):
        status, options, tag = _unmet(scratch, nland, alive, avail, nomove, active, again)
        if status != 1:
            return status == 0
        if options != 0:
            alive &= ~bit_mask(_best(scratch, nland, alive, avail, active, again, options))
        else:
            t = np.int64(tag) - 1
            if t >= 64:
                again |= bit_mask(t - 64)
            else:
                active &= ~(_ONE << np.uint64(t))
    return False


@hot
def hitting_set(b, env, scratch):
    """The fewest further tableau moves the constraints of this module's
    docstring need (stuck cards not counted), at least the greedy packing of
    :func:`._deadlocks.deadlocks` (run here on the graph built once).
    ``scratch``: :data:`SCRATCH` uint64."""
    avail, nland, nomove, any_ = _family(b, env, scratch)
    if not any_:
        return 0  # no cycle, no landing set: the packing is empty too
    for i in range(nland):
        scratch[_SPARE + i] = scratch[_LAND + i]
    adj = scratch[_ADJ : _ADJ + 52]
    levels = scratch[_LEVELS : _LEVELS + 64]
    k = packed(adj, levels, scratch[_SPARE : _SPARE + 52], nland, avail)
    most = k + MOST_RAISED
    while k < most:
        if _choice_of(scratch, nland, avail, nomove, k) != 0:
            return k
        k += 1
    return k
