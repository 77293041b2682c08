"""The fast solver on real deals: verified solutions, sound verdicts, determinism."""

import pytest

import bakers_lab as bl
from bakers_lab.solve.fast import _portfolio


def test_deal_1_solved_and_replayed():
    r = bl.solve(bl.deal(1))
    assert r.outcome == "solved" and r.verified and r.deal == 1
    g = bl.GameState.from_deal(bl.deal(1))
    g.play_all(r.solution)
    assert g.is_won
    assert len(r.moves) >= 52  # every card goes home, automatic moves included
    assert sum(m.to_foundation for m in r.moves) == 52


def test_published_unsolvable_deals_are_proved():
    # Freecell Solver's authors: PySolFC deals 64 and 477 are unsolvable
    for n in (64, 477):
        r = bl.solve(n)
        assert r.outcome == "unsolvable" and r.moves == () and not r.verified


def test_no_solvable_deal_called_unsolvable():
    # of deals 1-120 only 64 is unsolvable (published); a small budget may leave
    # some unresolved, but must never call a solvable deal unsolvable
    verdicts = {n: bl.solve(n, max_nodes=100_000).outcome for n in range(1, 121)}
    assert [n for n, v in verdicts.items() if v == "unsolvable"] == [64]
    assert sum(v == "solved" for v in verdicts.values()) >= 110


def test_deterministic():
    a = bl.solve(146, max_nodes=200_000)
    b = bl.solve(146, max_nodes=200_000)
    assert (a.outcome, a.moves, a.nodes) == (b.outcome, b.moves, b.nodes)


def test_position_in_progress():
    g = bl.GameState.from_deal(bl.deal(5))
    g.play(g.legal_moves()[0])
    r = bl.solve(g)
    assert r.outcome == "solved" and r.verified
    h = g.copy()
    h.play_all(r.solution)
    assert h.is_won
    assert len(g.history) == 1  # the caller's game is not touched


@pytest.mark.parametrize("variant", bl.variant_names())
def test_every_preset_solves_and_verifies(variant):
    results = [bl.solve(n, variant=variant, max_nodes=300_000) for n in (1, 2, 3)]
    for r in results:
        assert r.variant == variant and r.outcome in ("solved", "unsolvable", "unresolved")
        assert r.verified == (r.outcome == "solved")
        if r.solved:
            g = bl.GameState.from_deal(bl.deal(r.deal, variant=variant))
            g.play_all(r.solution)
            assert g.is_won
    assert any(r.solved for r in results)


def test_spanish_patience_solution_names_piles_only_when_needed():
    for n in range(1, 6):
        r = bl.solve(n, variant="spanish_patience", max_nodes=300_000)
        if r.solved:
            assert all(m.pile is None or m.card.rank > 1 for m in r.moves)
            return
    pytest.fail("no Spanish Patience deal among 1-5 solved")


def test_budget_is_respected_and_reported():
    r = bl.solve(417, max_nodes=20_000)
    assert r.outcome == "unresolved" and 20_000 <= r.nodes <= 20_000 + 500


def test_portfolio_spends_exactly_the_budget():
    for budget in (1, 999, 5_000, 123_457, 3_000_000):
        runs = _portfolio(budget)
        assert sum(b for _, b, _ in runs) == budget and all(b > 0 for _, b, _ in runs)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"position": 1, "max_nodes": 0}, ValueError, "max_nodes must be a positive int"),
    ({"position": "7"}, TypeError, "solve takes a Deal, a GameState or a game number"),
    ({"position": 1, "variant": "nope"}, bl.UnknownVariantError, "unknown variant 'nope'"),
])
def test_bad_arguments(kwargs, error, message):
    position = kwargs.pop("position")
    with pytest.raises(error, match=message):
        bl.solve(position, **kwargs)


def test_variant_mismatch_refused():
    with pytest.raises(ValueError, match="variant= is only for game numbers"):
        bl.solve(bl.deal(3), variant="good_measure")


def test_result_json():
    r = bl.solve(5)
    data = r.to_json()
    assert data["moves"] == [str(m) for m in r.moves] and data["deal"] == 5
