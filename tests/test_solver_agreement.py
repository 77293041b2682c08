"""The fast solver agrees with a deliberately simple exhaustive search.

2,080 small-deck deals (ranks A-5 and A-6) across every preset: the compiled
solver's solvable / unsolvable verdict must equal the plain-Python search's
(tests/reference_solver.py: no pruning, only duplicate detection), and every
"solved" must be verified by the rule engine.  The depth-first and the
best-first search are also run alone on each deal (a verdict of the portfolio
can come from either), so every pruning rule, rule 7 (cards just moved are not
moved again at once) included, is checked in both.

The doom check's extended form (rule 6 of bakers_lab.solve.fast: foundation
returns, alternate-colour foundations, empty columns that take any card) is
also tested on its own: on positions along random playouts, every position it
calls lost must be unsolvable by the plain search, and it must fire often.
"""

import random
from collections import Counter

import numpy as np
import pytest
import references
from reference_solver import is_solvable

import bakers_lab as bl
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import _core as C
from bakers_lab.solve.fast import _WEIGHTS, core_board, core_env, trail_moves, verify_moves

SHAPES = [(5, 4, 130), (6, 4, 130)]  # (ranks, columns, deals) per preset


def small_rules(name: str, ranks: int, columns: int) -> bl.Rules:
    base = bl.rules(name)
    cards = 4 * ranks - base.aces_at_start
    if cards % columns:
        columns = 6 if cards % 6 == 0 else 2
    return base.replace(
        ranks=ranks, columns=columns, cards_per_column=cards // columns, name=f"{name}_a{ranks}"
    )


@pytest.mark.parametrize("name", bl.variant_names())
def test_fast_solver_agrees_with_exhaustive_search(name):
    verdicts: Counter = Counter()
    settled: Counter = Counter()
    for ranks, columns, count in SHAPES:
        r = small_rules(name, ranks, columns)
        for seed in range(count):
            d = bl.seeded_deal(seed, variant=r)
            expected = references.solvable(bl.GameState.from_deal(d))
            result = bl.solve(d, max_nodes=10_000_000)
            assert result.outcome == ("solved" if expected else "unsolvable"), (r, seed)
            assert result.verified == expected
            verdicts[result.outcome] += 1
            for kind in ("dfs", "rdfs", "gbfs"):
                alone = _alone(d, kind)
                assert alone in (expected, None), (r, seed, kind)
                settled[kind] += alone is not None
    assert sum(verdicts.values()) == 260
    assert min(settled["dfs"], settled["rdfs"], settled["gbfs"]) >= 250, settled
    if name != "good_measure":  # the small Good Measure boards are all solvable
        assert verdicts["unsolvable"] >= 20 and verdicts["solved"] >= 20, verdicts


def _alone(d: bl.Deal, kind: str, budget: int = 200_000) -> bool | None:
    """One run of the portfolio on its own, with the whole budget: whether the
    deal is solvable (a solution is replayed by the rule engine), or None if the
    budget ran out.  The portfolio's verdict can come from either run kind, so
    each is checked alone too (rule 7 of bakers_lab.solve.fast prunes both)."""
    g = bl.GameState.from_deal(d)
    r = g.rules
    env = core_env(r)
    b = core_board(g, env)
    trail = np.zeros((4000, codes.TRAIL_W), dtype=np.int64)
    max_moves = r.columns * r.ranks * (r.columns + 2) + 4 * (r.columns + 2) + 8
    if kind in ("dfs", "rdfs"):  # rdfs: children in a random order
        status, _, tp = C.dfs(
            b, env, budget, 1, 19, 1000, max_moves, trail, True, True, kind == "rdfs"
        )
    else:
        w = np.array(_WEIGHTS[0], dtype=np.int64)
        status, _, tp = C.gbfs(b, env, budget, 0, 19, max_moves, w, trail, True)
    if status == codes.BUDGET:
        return None
    if status == codes.SOLVED:
        _, won = verify_moves(g, trail_moves(trail, int(tp)))
        assert won
    return status == codes.SOLVED


def test_reference_search_finds_unsolvable_and_solvable():
    r = small_rules("bakers_dozen", 5, 4)
    answers = {is_solvable(bl.GameState.from_deal(bl.seeded_deal(s, variant=r))) for s in range(20)}
    assert answers == {True, False}


EXTENDED = ["bakers_dozen_return", "spanish_patience", "spanish_patience_ii", "house_empty_any"]


def _lost(g: bl.GameState) -> bool:
    env = core_env(g.rules)
    return bool(C.is_lost(core_board(g, env), env, True, True))


@pytest.mark.parametrize("name", EXTENDED)
def test_extended_doom_is_sound(name):
    r = small_rules(name, 5, 4)
    env = core_env(r)
    assert C.doom_applies(env.P, True) and not C.doom_applies(env.P, False)
    fired = 0
    rng = random.Random(name)
    for seed in range(60):
        g = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
        for _ in range(12):
            if _lost(g):
                fired += 1
                assert not references.solvable(g), (name, seed, g.to_text())
                break
            moves = g.legal_moves()
            if not moves or g.is_won:
                break
            g.play(rng.choice(moves))
    assert fired >= 5, (name, fired)
