"""The fast solver agrees with a deliberately simple exhaustive search.

2,080 small-deck deals (ranks A-5 and A-6) across every preset: the compiled
solver's solvable / unsolvable verdict must equal the plain-Python search's
(tests/reference_solver.py: no pruning, only duplicate detection), and every
"solved" must be verified by the rule engine.
"""

from collections import Counter

import pytest
from reference_solver import is_solvable

import bakers_lab as bl

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
    for ranks, columns, count in SHAPES:
        r = small_rules(name, ranks, columns)
        for seed in range(count):
            d = bl.seeded_deal(seed, variant=r)
            expected = is_solvable(bl.GameState.from_deal(d))
            result = bl.solve(d, max_nodes=10_000_000)
            assert result.outcome == ("solved" if expected else "unsolvable"), (r, seed)
            assert result.verified == expected
            verdicts[result.outcome] += 1
    assert sum(verdicts.values()) == 260
    if name != "good_measure":  # the small Good Measure boards are all solvable
        assert verdicts["unsolvable"] >= 20 and verdicts["solved"] >= 20, verdicts


def test_reference_search_finds_unsolvable_and_solvable():
    r = small_rules("bakers_dozen", 5, 4)
    answers = {is_solvable(bl.GameState.from_deal(bl.seeded_deal(s, variant=r))) for s in range(20)}
    assert answers == {True, False}
