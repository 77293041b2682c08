"""Invariants of the compiled core: the incremental position key and bad-card
counts equal a from-scratch computation after any sequence of moves and undos."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import bakers_lab as bl
from bakers_lab.solve import _core as C
from bakers_lab.solve.fast import _arrays, _board, _env


def _fresh(b: C.Board, env: C.Env) -> C.Board:
    """A board with the same stacks, everything derived computed from scratch."""
    f = C.new_board(b.cols.copy(), b.lens.copy(), b.piles.copy(), b.plen.copy())
    C.init_board(f, env)
    return f


@given(st.sampled_from(bl.variant_names()), st.integers(0, 10**6))
def test_incremental_key_equals_fresh_key(variant, seed):
    r = bl.rules(variant)
    g = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
    env = _env(r)
    b = _board(g, env)
    trail = np.zeros((2000, C.TRAIL_W), np.int64)
    buf = np.zeros(3000, np.int64)
    rng = random.Random(seed)
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


def test_key_ignores_column_order():
    g = bl.GameState.from_deal(bl.deal(7))
    env = _env(g.rules)
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
    env = _env(r)
    a, b = _board(g, env), _board(g, env)
    ta = np.zeros((2000, C.TRAIL_W), np.int64)
    tb = np.zeros((2000, C.TRAIL_W), np.int64)
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
