"""Invariants of the compiled core: the incremental position key and bad-card
counts equal a from-scratch computation after any sequence of moves and undos."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import bakers_lab as bl
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import _core as C
from bakers_lab.solve.fast import _arrays, core_board, core_env


def _fresh(b: codes.Board, env: codes.Env) -> codes.Board:
    """A board with the same stacks, everything derived computed from scratch."""
    f = C.new_board(b.cols.copy(), b.lens.copy(), b.piles.copy(), b.plen.copy())
    C.init_board(f, env)
    return f


def _walk_start(
    r: bl.Rules, seed: int
) -> tuple[codes.Env, codes.Board, np.ndarray, np.ndarray, random.Random]:
    """What a random walk from seeded deal ``seed`` needs: env, board, trail,
    move buffer and the walk's random source."""
    env = core_env(r)
    b = core_board(bl.GameState.from_deal(bl.seeded_deal(seed, variant=r)), env)
    trail = np.zeros((2000, codes.TRAIL_W), np.int64)
    return env, b, trail, np.zeros(3000, np.int64), random.Random(seed)


@given(st.sampled_from(bl.variant_names()), st.integers(0, 10**6))
def test_incremental_key_equals_fresh_key(variant, seed):
    r = bl.rules(variant)
    env, b, trail, buf, rng = _walk_start(r, seed)
    tp = 0
    for _ in range(150):
        n = C.gen_moves(b, env, buf)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        tp = C.move_cards(b, env, m & 63, (m >> 6) & 63, m >> 12, trail, tp, True)
        tp = C.autoplay(b, env, trail, tp)
        if rng.random() < 0.25:
            tp = C.undo_to(b, env, trail, tp, max(0, tp - 2))
        f = _fresh(b, env)
        assert list(b.hsh) == list(f.hsh)
        assert list(b.bad) == list(f.bad)
        assert list(b.loc_col) == list(f.loc_col)
        assert list(b.mix1) == list(f.mix1) and list(b.mix2) == list(f.mix2)
        for c in range(r.columns):  # the lowest ranks below each depth
            assert list(b.mins[c, : b.lens[c] + 1]) == list(f.mins[c, : f.lens[c] + 1])


def test_key_ignores_column_order():
    g = bl.GameState.from_deal(bl.deal(7))
    env = core_env(g.rules)
    cols, lens, piles, plen = _arrays(g)
    order = np.arange(13)[::-1]
    a = C.new_board(cols, lens, piles, plen)
    b = C.new_board(cols[order].copy(), lens[order].copy(), piles.copy(), plen.copy())
    C.init_board(a, env)
    C.init_board(b, env)
    assert list(a.hsh) == list(b.hsh)


@given(st.sampled_from(bl.variant_names()), st.integers(0, 10**6))
def test_step_scans_for_automatic_moves_only_when_needed(variant, seed):
    """``step`` skips the full scan for safe foundation moves after a move between
    columns when the source's new top is not safe: it records the same trail rows,
    in the same order, as the move followed by a full ``autoplay``."""
    r = bl.rules(variant)
    g = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
    env = core_env(r)
    a, b = core_board(g, env), core_board(g, env)
    ta = np.zeros((2000, codes.TRAIL_W), np.int64)
    tb = np.zeros((2000, codes.TRAIL_W), np.int64)
    buf = np.zeros(3000, np.int64)
    rng = random.Random(seed)
    pa = C.autoplay(a, env, ta, 0)
    pb = C.autoplay(b, env, tb, 0)
    for _ in range(150):
        n = C.gen_moves(a, env, buf)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        pa = C.step(a, env, m, ta, pa)
        pb = C.move_cards(b, env, m & 63, (m >> 6) & 63, m >> 12, tb, pb, True)
        pb = C.autoplay(b, env, tb, pb)
        assert pa == pb
        assert (ta[:pa] == tb[:pb]).all()
        assert list(a.hsh) == list(b.hsh)


def _doom_reference(b: codes.Board, r: bl.Rules) -> tuple[bool, int]:
    """The doom check's fixed point as first written (one flag a card, every
    round a full sweep of the columns from the top): (lost, rounds)."""
    top, ncols = r.ranks, r.columns
    fret = r.foundation_return
    same = r.foundation_build == "same_suit"

    def parents(x: int) -> list[int]:
        rank, s = x % 13 + 1, x // 13
        out = []
        for t in range(4):
            fits = {
                "any_suit": True,
                "same_suit": t == s,
                "alternate_colour": (t >= 2) != (s >= 2),
            }[r.tableau_build]
            if fits:
                out.append(t * 13 + rank)
        return out

    def home_ready(x: int, G: list[bool]) -> bool:
        rank = x % 13 + 1
        if rank == 1:
            return True
        if same:
            return G[x - 1]
        return any((t >= 2) != (x // 13 >= 2) and G[t * 13 + rank - 2] for t in range(4))

    M, G, A = [False] * 52, [False] * 52, [False] * 52
    for s in range(4):
        for k in range(b.plen[s]):
            G[b.piles[s, k]] = True
    space = r.empty_column == "any" and any(b.lens[c] == 0 for c in range(ncols))
    changed, rounds = True, 0
    while changed:
        changed, rounds = False, rounds + 1
        for c in range(ncols):
            ok = True
            for j in range(b.lens[c] - 1, -1, -1):
                x = b.cols[c, j]
                if not ok:
                    break
                if not A[x]:
                    A[x] = changed = True
                if not M[x]:
                    rank = x % 13 + 1
                    can = (
                        home_ready(x, G)
                        or (rank < top and any(A[p] or (fret and G[p]) for p in parents(x)))
                        or (rank == top and r.empty_column == "king")
                        or space
                    )
                    if can:
                        M[x] = changed = True
                ok = M[x]
            if r.empty_column == "any" and ok and not space:
                space = changed = True
        for x in range(52):
            if x % 13 < top and not G[x] and M[x] and home_ready(x, G):
                G[x] = changed = True
    return not all(G[s * 13 + k] for s in range(4) for k in range(top)), rounds


@given(st.sampled_from(bl.variant_names()), st.integers(0, 10**6))
def test_doom_check_equals_its_reference(variant, seed):
    """The compiled doom check (bit sets, per-card tables, scans resumed where
    they stopped, no closing round once every card can reach home) reaches the
    fixed point of its first, plain form, in the same number of rounds, on
    positions along random games of every preset (single-card moves: where the
    check applies)."""
    r = bl.rules(variant)
    if r.move_unit != "card":
        return
    env, b, trail, buf, rng = _walk_start(r, seed)
    tp = C.autoplay(b, env, trail, 0)
    for _ in range(120):
        lost = C.is_doomed(b, env)
        assert (lost, int(b.info[0])) == _doom_reference(b, r)
        n = C.gen_moves(b, env, buf)
        if n == 0:
            break
        tp = C.step(b, env, buf[rng.randrange(n)], trail, tp)
