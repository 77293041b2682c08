"""Invariants of the compiled core: the incremental position key and bad-card
counts equal a from-scratch computation after any sequence of moves and undos."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import bakers_lab as bl
from bakers_lab.solve import _core as C
from bakers_lab.solve.fast import _Z1, _Z2, _ZP1, _ZP2, _arrays, rules_vector


def _aux(cols, lens, piles, plen, P, ncols):
    lc, ld = np.empty(52, np.int64), np.zeros(52, np.int64)
    r1, r2 = np.zeros(ncols, np.uint64), np.zeros(ncols, np.uint64)
    h, bad = np.zeros(2, np.uint64), np.zeros(ncols, np.int64)
    C.init_aux(cols, lens, piles, plen, P, _Z1, _Z2, _ZP1, _ZP2, lc, ld, r1, r2, h, bad)
    return lc, ld, r1, r2, h, bad


@given(st.sampled_from(bl.variant_names()), st.integers(0, 10**6))
def test_incremental_key_equals_fresh_key(variant, seed):
    r = bl.rules(variant)
    g = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
    P = rules_vector(r)
    cols, lens, piles, plen = _arrays(g)
    lc, ld, r1, r2, h, bad = _aux(cols, lens, piles, plen, P, r.columns)
    trail = np.zeros((2000, C.TRAIL_W), np.int64)
    buf = np.zeros(3000, np.int64)
    rng = random.Random(seed)
    tp = 0
    for _ in range(150):
        n = C.gen_moves(cols, lens, piles, plen, P, buf)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        tp = C.move_cards(
            m & 63,
            (m >> 6) & 63,
            m >> 12,
            cols,
            lens,
            piles,
            plen,
            lc,
            ld,
            r1,
            r2,
            h,
            bad,
            _Z1,
            _Z2,
            _ZP1,
            _ZP2,
            trail,
            tp,
            True,
        )
        tp = C.autoplay(
            cols, lens, piles, plen, lc, ld, r1, r2, h, bad, _Z1, _Z2, _ZP1, _ZP2, trail, tp, P
        )
        if rng.random() < 0.25:
            tp = C.undo_to(
                max(0, tp - 2),
                tp,
                cols,
                lens,
                piles,
                plen,
                lc,
                ld,
                r1,
                r2,
                h,
                bad,
                _Z1,
                _Z2,
                _ZP1,
                _ZP2,
                trail,
            )
        *_, h2, bad2 = _aux(cols, lens, piles, plen, P, r.columns)
        assert list(h) == list(h2)
        assert list(bad) == list(bad2)


def test_key_ignores_column_order():
    g = bl.GameState.from_deal(bl.deal(7))
    P = rules_vector(g.rules)
    cols, lens, piles, plen = _arrays(g)
    h1 = _aux(cols, lens, piles, plen, P, 13)[4]
    order = np.arange(13)[::-1]
    h2 = _aux(cols[order].copy(), lens[order].copy(), piles, plen, P, 13)[4]
    assert list(h1) == list(h2)
