"""The compiled play loops of the players who plan (numba, nopython, cached):
``search-N`` (:func:`play_search`) and ``undo-U`` (:func:`play_undo`).

See :mod:`.players` for what they do and why every game ends.  Both score
positions exactly as ``careful`` does (:func:`._players.judge`, the same noise
drawn from the same generator in the same order), so at their lowest setting
they play ``careful``'s games move for move.  They work on the solver core's
records (:mod:`._core`): ``step`` plays a move and its automatic foundation
moves on the trail, ``undo_to`` takes them back, ``encode`` / ``decode`` store
a position in a row of bytes, and the position key ``b.hsh`` is order-free.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bakers_lab.solve._codes import (
    CAPPED,
    EMPTY_NONE,
    P_EMPTY,
    P_NCOLS,
    P_RANKS,
    PATIENCE,
    PILE,
    SOLVED,
    STOP,
    STOPPED,
    STUCK,
    TRAIL_W,
    WON,
)
from bakers_lab.solve._core import (
    ONE,
    autoplay,
    decode,
    dfs,
    doom_applies,
    encode,
    gen_moves,
    heap_pop,
    heap_push,
    home_count,
    hot,
    init_board,
    is_lost,
    just_moved,
    moves_again,
    new_rng,
    step,
    tt_has,
    tt_seen,
    undo_to,
    xorshift,
)
from bakers_lab.solve._players import WIN_SCORE, judge


@hot
def put(tt, h1, h2):
    """Insert key (h1, h2) into table ``tt`` as :func:`._core.tt_seen` does;
    returns the slot it wrote, or -1 if the key was there already (so that a
    search can clear just the slots it used)."""
    mask = np.uint64(tt.shape[0] - 1)
    k1 = h1 | ONE
    i0 = h1 & mask
    for probe in range(8):
        i = (i0 + np.uint64(probe)) & mask
        if tt[i, 0] == 0:
            tt[i, 0] = k1
            tt[i, 1] = h2
            return np.int64(i)
        if tt[i, 0] == k1 and tt[i, 1] == h2:
            return np.int64(-1)
    tt[i0, 0] = k1
    tt[i0, 1] = h2
    return np.int64(i0)


@hot
def line_moves(b, env, trail, tp, plan):
    """The moves of the line that trail rows ``[0, tp)`` hold from the position
    on board ``b`` (left as it was), into ``plan``; returns how many: each row
    not made by the automatic moves of the step before it is a move."""
    n = 0
    i = 0
    while i < tp:
        m = trail[i, 0] | (trail[i, 1] << 6) | (trail[i, 2] << 12)
        plan[n] = m
        n += 1
        i = step(b, env, m, trail, i)
    undo_to(b, env, trail, tp, 0)
    return n


@hot
def shorten(b, env, plan, n, trail, tp, buf, line, keys, row):
    """Take the detours out of the winning line ``plan[:n]`` from the position on
    board ``b`` (left as it was); returns the new length and the positions it
    generated.  From each position of the line it plays the move that reaches
    the latest position of the line (the line's own move if none skips ahead),
    so the line it leaves is no longer, still wins, and passes only through
    positions of the old one.  A position counts as reached only when it is
    the same card for card, columns in the same places (``row`` is scratch for
    that comparison): the moves after it name columns by their place."""
    t = tp
    encode(b, env, line, 0)
    keys[0, 0] = b.hsh[0]
    keys[0, 1] = b.hsh[1]
    for i in range(n):
        t = step(b, env, plan[i], trail, t)
        encode(b, env, line, i + 1)
        keys[i + 1, 0] = b.hsh[0]
        keys[i + 1, 1] = b.hsh[1]
    undo_to(b, env, trail, t, tp)
    width = line.shape[1]
    made = 0
    out = 0
    i = 0
    t = tp
    while i < n:
        c = gen_moves(b, env, buf, False)
        reach = i + 1
        pick = plan[i]
        for a in range(c):
            m = buf[a]
            t2 = step(b, env, m, trail, t)
            made += 1
            for j in range(n, reach, -1):
                if keys[j, 0] == b.hsh[0] and keys[j, 1] == b.hsh[1]:
                    encode(b, env, row, 0)
                    same = True
                    for w in range(width):
                        if row[0, w] != line[j, w]:
                            same = False
                            break
                    if same:
                        reach = j
                        pick = m
                        break
            undo_to(b, env, trail, t2, t)
        plan[out] = pick  # out <= i: the moves still to read are not overwritten
        out += 1
        t = step(b, env, pick, trail, t)
        i = reach
    undo_to(b, env, trail, t, tp)
    return out, made


@njit(cache=True, nogil=True)  # the page can tick while it runs
def play_search(b, env, N, W, seed, cap, patience, trail, max_moves, tt_bits, stt_bits, control):
    """Play one game as ``search-N`` from the position on board ``b``; returns
    (result, trail length, positions considered, decisions).

    Before each move: score every move as ``careful`` does (positions already
    had in this game are skipped); then, unless a move wins at once, spend
    the rest of the ``N`` positions in two halves.  First a dive for a win
    (:func:`._core.dfs` in a random order, the solver's rules, ``N // 2``
    positions, its seed from the game's and the decision's number); then,
    while fewer than ``N`` positions have been considered, expand the
    best-scoring stored position (best first, as :func:`._core.gbfs`, without
    the moves the solver's rules 2 and 7 show pointless), never storing a
    position seen before in this search or in the game, nor expanding one the
    dead-end test calls lost.  Play the first move of the line to a win if
    either found one (and then the rest of that line), else of the line to
    the best-scoring position considered.  ``control[STOP]`` set by another
    thread ends the game within one position's expansion, or one dive
    (result STOPPED)."""
    P = env.P
    decksize = 4 * P[P_RANKS]
    width = decksize + P[P_NCOLS] + 4
    init_board(b, env)
    hsh = b.hsh
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    rng = new_rng(seed)
    buf = np.zeros(max_moves, np.int64)
    S = N + max_moves + 1 if N > 1 else 1
    store = np.empty((S, width), np.uint8)
    parent = np.empty(S, np.int64)
    pmove = np.empty(S, np.int64)
    first = np.empty(S, np.int64)
    held = np.full(S, -1, np.int64)  # what just_moved said of the move to each (rule 7)
    hk = np.empty(S, np.int64)
    hv = np.empty(S, np.int32)
    stt = np.zeros((1 << stt_bits, 2), np.uint64)
    slots = np.empty(S + 1, np.int64)
    plan = np.empty(max(S, cap + 1), np.int64)
    nplan = 0
    dive = N // 2
    # the dive's own trail (a line of at most ``cap`` moves) and table
    dtrail = np.empty((2 * cap + decksize + 8 if dive > 0 else 1, TRAIL_W), np.int64)
    dbits = 10
    while (1 << dbits) < 2 * dive:
        dbits += 1
    # a winning line's positions and keys, for taking its detours out
    line = np.empty((cap + 2, width), np.uint8)
    lkeys = np.empty((cap + 2, 2), np.uint64)
    row = np.empty((1, width), np.uint8)
    iplan = 0
    # the dead-end test the search prunes with: the doom check in the extended form
    # where that applies (rule 6 of .fast); careful's own score keeps its form
    ext = doom_applies(P, True) and not doom_applies(P, False)

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
        if control[STOP] != 0:
            return STOPPED, tp, nodes, decisions
        if iplan < nplan:
            mv = plan[iplan]  # a player who has seen a win plays it out
            iplan += 1
        else:
            if stall >= patience:
                return PATIENCE, tp, nodes, decisions
            nplan = 0
            iplan = 0
            n = gen_moves(b, env, buf, False)
            best = -1
            best_key = np.int64(0)
            mv = np.int64(0)
            nst = 1
            nlog = 0
            nheap = 0
            win = -1
            considered = 0
            if N > 1:
                encode(b, env, store, 0)
                slots[0] = put(stt, hsh[0], hsh[1])
                nlog = 1
            # every move, scored as careful scores it
            for a in range(n):
                m = buf[a]
                t2 = step(b, env, m, trail, tp)
                if not tt_has(tt, hsh[0], hsh[1]):
                    nodes += 1
                    considered += 1
                    noise = np.int64(xorshift(rng) & np.uint64(1023))
                    value, lost = judge(b, env, W, N > 1)
                    if ext and N > 1:
                        lost = is_lost(b, env, True, True)
                    key = value * 1024 + noise
                    if best < 0 or key < best_key:
                        best = a
                        best_key = key
                        mv = m
                    if N > 1 and value > WIN_SCORE:
                        slot = put(stt, hsh[0], hsh[1])
                        if slot >= 0:
                            slots[nlog] = slot
                            nlog += 1
                            if not lost:
                                encode(b, env, store, nst)
                                parent[nst] = 0
                                pmove[nst] = m
                                first[nst] = m
                                held[nst] = just_moved(m, t2 - tp)
                                nheap = heap_push(hk, hv, nheap, key, nst)
                                nst += 1
                undo_to(b, env, trail, t2, tp)
            if best < 0:
                return STUCK, tp, nodes, decisions
            # a move that wins at once needs no search
            deep = N > 1 and best_key >= WIN_SCORE * 1024 + 1024
            if deep and dive > 0 and considered < N:
                # a dive for a win: depth first in a random order, as the
                # solver's restarts (each decision's dive is a fresh one)
                dseed = (seed ^ ((decisions + 1) * 0x9E3779B97F4A7C15)) & 0x7FFFFFFFFFFFFFFF
                # (a line longer than the decisions left would be cut off by the cap)
                budget = min(dive, N - considered)
                found, used, dtp = dfs(b, env, budget, dseed, dbits, cap - decisions, max_moves,
                                       dtrail, True, True, True)  # fmt: skip
                nodes += used
                considered += used
                undo_to(b, env, dtrail, dtp, 0)
                if found == SOLVED:
                    nplan = line_moves(b, env, dtrail, dtp, plan)
                    win = 0
            # then best first, until N positions have been considered
            if deep and win < 0:
                while win < 0 and nheap > 0 and considered < N:
                    if control[STOP] != 0:
                        return STOPPED, tp, nodes, decisions
                    k, nheap = heap_pop(hk, hv, nheap)
                    decode(b, env, store, k)
                    init_board(b, env)
                    c = gen_moves(b, env, buf, True)
                    for a in range(c):
                        m = buf[a]
                        if moves_again(m, held[k]):
                            continue  # rule 7: the parent has this child
                        t2 = step(b, env, m, trail, tp)
                        if not tt_has(tt, hsh[0], hsh[1]):
                            slot = put(stt, hsh[0], hsh[1])
                            if slot >= 0:
                                slots[nlog] = slot
                                nlog += 1
                                nodes += 1
                                considered += 1
                                noise = np.int64(xorshift(rng) & np.uint64(1023))
                                value, lost = judge(b, env, W, True)
                                if ext:
                                    lost = is_lost(b, env, True, True)
                                if value == WIN_SCORE:
                                    parent[nst] = k
                                    pmove[nst] = m
                                    win = nst
                                    nst += 1
                                else:
                                    key = value * 1024 + noise
                                    if key < best_key:
                                        best_key = key
                                        mv = first[k]
                                    if not lost and nst < S:
                                        encode(b, env, store, nst)
                                        parent[nst] = k
                                        pmove[nst] = m
                                        first[nst] = first[k]
                                        held[nst] = just_moved(m, t2 - tp)
                                        nheap = heap_push(hk, hv, nheap, key, nst)
                                        nst += 1
                        undo_to(b, env, trail, t2, tp)
                        if win >= 0 or considered >= N:
                            break
            if N > 1:
                # back to the position in play; the search's table cleared for the next
                decode(b, env, store, 0)
                init_board(b, env)
                for i in range(nlog):
                    if slots[i] >= 0:
                        stt[slots[i], 0] = 0
                        stt[slots[i], 1] = 0
            if win >= 0 and nplan == 0:
                # best first's winning line, from the stored positions' parents
                d = 0
                k = win
                while k > 0:
                    plan[d] = pmove[k]
                    d += 1
                    k = parent[k]
                for i in range(d // 2):
                    plan[i], plan[d - 1 - i] = plan[d - 1 - i], plan[i]
                nplan = d
            if win >= 0:
                # a player who has seen a win plays it without its detours (a line
                # longer than the decisions left is cut off by the cap as it is)
                if decisions + nplan <= cap:
                    nplan, made = shorten(b, env, plan, nplan, trail, tp, buf, line, lkeys, row)
                    nodes += made
                mv = plan[0]
                iplan = 1
        tp = step(b, env, mv, trail, tp)
        tt_seen(tt, hsh[0], hsh[1])
        decisions += 1
        now = home_count(b)
        stall = 0 if now > home else stall + 1
        home = now


@njit(cache=True, nogil=True)  # the page can tick while it runs
def play_undo(
    b, env, U, W, seed, cap, patience, rewind, restart, trail, max_moves, tt_bits, control
):
    """Play one game as ``undo-U`` from the position on board ``b``; returns
    (result, trail length, positions considered, decisions in the final line,
    moves taken back).

    It plays ``careful``'s move at every new position.  When the game gets
    stuck (no move to a new position, out of patience, or, while it may still
    take moves back, a position the dead-end test calls lost) and fewer than
    ``U`` moves have been taken back, it takes back the last move and plays the
    next-best move of that position not tried yet (and not called lost),
    taking back further while a position has none left.  Positions left behind
    stay in the game's table: it never returns to one.

    A run of ``rewind`` moves without a new best count of cards home (the
    count itself, where cards never leave the foundations), or a line as long
    as ``cap``, is given up as a whole when the player may take back that many:
    back to where the run began.  ``patience`` counts as ``careful`` counts.

    Restarts: once a try has taken back ``restart`` moves (0: never) without a
    win, and the player may still take back its whole line, it starts over from
    the deal with a fresh table (the take-backs of the line counted), ``restart``
    doubled for the new try, and on the k-th new try the noise that breaks ties
    spans k + 1 points of score instead of less than one (so moves up to k
    points apart may come in either order); the first try is untouched, so a game with at
    most ``restart`` take-backs is the same as without restarts.  Long runs of
    chronological backtracking get stuck under one early mistake (heavy-tailed,
    as the solver's restarts in :mod:`.fast` are there for); a new try with a
    loosened order leaves it.  ``control[STOP]`` set by another thread ends
    the game at its next step (result STOPPED)."""
    P = env.P
    decksize = 4 * P[P_RANKS]
    init_board(b, env)
    hsh = b.hsh
    tt = np.zeros((1 << tt_bits, 2), np.uint64)
    rng = new_rng(seed)
    buf = np.zeros(max_moves, np.int64)
    # each position of the line: its moves best first (a slice of the flat
    # stack), the next to try, the trail pointer, stall and cards home
    fmove = np.empty(16 * (cap + 1), np.int64)
    fkey = np.empty(16 * (cap + 1), np.int64)
    flost = np.empty(16 * (cap + 1), np.bool_)  # lost, or a move a retry skips
    lstart = np.zeros(cap + 1, np.int64)
    lcount = np.zeros(cap + 1, np.int64)
    lnext = np.zeros(cap + 1, np.int64)
    ltp = np.zeros(cap + 1, np.int64)
    lstall = np.zeros(cap + 1, np.int64)
    lrun = np.zeros(cap + 1, np.int64)  # moves since the line's best count home
    lbest = np.zeros(cap + 1, np.int64)
    llost = np.zeros(cap + 1, np.bool_)
    lheld = np.full(cap + 1, -1, np.int64)  # what just_moved said of the move here
    top = 0

    tp = autoplay(b, env, trail, 0)
    tp0 = tp
    tt_seen(tt, hsh[0], hsh[1])
    ext = doom_applies(P, True) and not doom_applies(P, False)
    llost[0] = is_lost(b, env, True, ext)
    nodes = 0
    takebacks = 0
    attempt = 0  # tries of the deal started over
    budget = restart  # take-backs this try may spend before the player starts over
    since = 0  # take-backs at the start of this try
    d = 0  # moves in the line
    stall = 0
    run = 0
    best = home_count(b)
    listed = False
    while True:
        home = home_count(b)
        if home == decksize:
            return WON, tp, nodes, d, takebacks
        if control[STOP] != 0:
            return STOPPED, tp, nodes, d, takebacks
        if d >= cap and takebacks >= U:
            return CAPPED, tp, nodes, d, takebacks
        if 0 < budget <= takebacks - since and takebacks + d < U:
            # this try has spent its share: start the deal over, every move taken back
            takebacks += d
            tp = undo_to(b, env, trail, tp, tp0)
            d = 0
            top = 0
            listed = False
            stall = 0
            run = 0
            best = home_count(b)
            tt[:, :] = 0
            tt_seen(tt, hsh[0], hsh[1])
            attempt += 1
            budget *= 2
            since = takebacks
        end = -1
        mv = np.int64(-1)
        # a run of moves that brought nothing new home: back to where it began,
        # if the player may take back that many
        fruitless = stall >= patience
        if not fruitless and (run >= rewind or d >= cap):
            fruitless = takebacks + d - _run_start(lrun, d) <= U
        if fruitless:
            end = PATIENCE
        elif d >= cap or (llost[d] and takebacks < U):
            end = STUCK
        else:
            if not listed:
                # this position's moves, scored as careful scores them, best first
                n = gen_moves(b, env, buf, False)
                if top + n > fmove.shape[0]:
                    size = 2 * fmove.shape[0] + n
                    fm = np.empty(size, np.int64)
                    fk = np.empty(size, np.int64)
                    fl = np.empty(size, np.bool_)
                    fm[:top] = fmove[:top]
                    fk[:top] = fkey[:top]
                    fl[:top] = flost[:top]
                    fmove, fkey, flost = fm, fk, fl
                cnt = 0
                for a in range(n):
                    m = buf[a]
                    # rules 2 and 7 of .fast: a move that empties a column for good
                    # (onto another column) or moves again the cards just moved
                    src = m & 63
                    idle = (P[P_EMPTY] == EMPTY_NONE and src < PILE and (m >> 6) & 63 < PILE
                            and (m >> 12) == b.lens[src]) or moves_again(m, lheld[d])  # fmt: skip
                    t2 = step(b, env, m, trail, tp)
                    if not tt_has(tt, hsh[0], hsh[1]):
                        nodes += 1
                        noise = np.int64(xorshift(rng) & np.uint64(1023))
                        value, lost = judge(b, env, W, True)
                        if ext:
                            lost = is_lost(b, env, True, True)
                        # a new try weighs moves within ``attempt`` points of each other alike
                        key = value * 1024 + noise * (attempt + 1)
                        lost = lost or idle
                        # insertion after every equal key: the first is careful's choice
                        j = top + cnt
                        while j > top and fkey[j - 1] > key:
                            fkey[j] = fkey[j - 1]
                            fmove[j] = fmove[j - 1]
                            flost[j] = flost[j - 1]
                            j -= 1
                        fkey[j] = key
                        fmove[j] = m
                        flost[j] = lost
                        cnt += 1
                    undo_to(b, env, trail, t2, tp)
                lstart[d] = top
                lcount[d] = cnt
                lnext[d] = 0
                top += cnt
                listed = True
            mv = _next_move(b, env, tt, fmove, flost, lstart, lcount, lnext, d, trail, tp,
                            takebacks < U)  # fmt: skip
            if mv < 0:
                end = STUCK
        if end == PATIENCE:
            s = _run_start(lrun, d)
            if takebacks + d - s > U:
                return end, tp, nodes, d, takebacks
            takebacks += d - s - 1
            d = s + 1
        while mv < 0:
            # stuck: take moves back while the player may
            if takebacks >= U or d == 0:
                return end, tp, nodes, d, takebacks
            d -= 1
            tp = undo_to(b, env, trail, tp, ltp[d])
            takebacks += 1
            stall = lstall[d]
            run = lrun[d]
            best = lbest[d]
            top = lstart[d] + lcount[d]
            mv = _next_move(b, env, tt, fmove, flost, lstart, lcount, lnext, d, trail, tp,
                            takebacks < U)  # fmt: skip
            end = STUCK
        ltp[d] = tp
        lstall[d] = stall
        lrun[d] = run
        lbest[d] = best
        before = home_count(b)
        t2 = step(b, env, mv, trail, tp)
        lheld[d + 1] = just_moved(mv, t2 - tp)
        tp = t2
        tt_seen(tt, hsh[0], hsh[1])
        llost[d + 1] = is_lost(b, env, True, ext)
        d += 1
        listed = False
        now = home_count(b)
        stall = 0 if now > before else stall + 1
        run = 0 if now > best else run + 1
        best = max(best, now)


@hot
def _run_start(lrun, d):
    """Where the line's run of moves without a new best count home began: the
    position after the last move that set one (or the deal)."""
    s = d - 1
    while s > 0 and lrun[s] > 0:
        s -= 1
    return s


@hot
def _next_move(b, env, tt, fmove, flost, lstart, lcount, lnext, d, trail, tp, may_undo):
    """The next move to try at line position ``d`` (the board is there): the
    best not tried yet whose position has not been had; after the first, one
    the dead-end test calls lost only when no move may be taken back any more.
    -1 if none is left."""
    hsh = b.hsh
    while lnext[d] < lcount[d]:
        i = lstart[d] + lnext[d]
        lnext[d] += 1
        if lnext[d] > 1 and may_undo and flost[i]:
            continue
        m = fmove[i]
        t2 = step(b, env, m, trail, tp)
        had = tt_has(tt, hsh[0], hsh[1])
        undo_to(b, env, trail, t2, tp)
        if not had:
            return m
    return np.int64(-1)
