"""The remembered answers of the slow reference searches (tests/references.py) are the
searches' own: a fixed sample of them computed afresh each run, and a word when the
record no longer matches its sources."""

from __future__ import annotations

import warnings

import pytest
import references
from reference_solver import is_solvable
from test_solver_agreement import small_rules

import bakers_lab as bl
from bakers_lab.solve.search import breadth_first, classroom_deal


def test_the_record_matches_its_sources():
    if references.RECORDING:
        pytest.skip("recording: every answer is computed now")
    if not references.CURRENT:
        warnings.warn(
            "tests/data/references.json was recorded from other sources (the rule engine, "
            "the teaching search or the reference search changed): the tests computed "
            "every answer again, which is slow; record them anew with `make references`",
            stacklevel=1,
        )
    assert references.fingerprint() == references.fingerprint()  # the same bytes, one hash


@pytest.mark.parametrize("name", bl.variant_names())
def test_a_sample_of_the_exhaustive_searchs_answers_is_its_own(name):
    r = small_rules(name, 5, 4)
    for seed in (0, 1, 64, 129):  # seeds the agreement test uses
        state = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
        kept = references.remembered("solvable", state)
        if references.CURRENT and not references.RECORDING:
            assert kept != "?", (name, seed)  # the record holds what the tests ask
        assert kept in ("?", is_solvable(state)), (name, seed)


@pytest.mark.parametrize(
    ("deck", "seed"), [("micro", 0), ("micro", 119), ("tiny", 7), ("small", 0)]
)
def test_a_sample_of_breadth_first_searchs_lengths_is_its_own(deck, seed):
    d = classroom_deal(seed, deck=deck)
    kept = references.remembered("bfs", bl.GameState.from_deal(d))
    if references.CURRENT and not references.RECORDING:
        assert kept != "?", (deck, seed)
    r = breadth_first(d, max_nodes=3_000_000)
    length = len(r.solution) if r.solution is not None else None
    assert kept in ("?", length), (deck, seed)


def test_an_answer_recorded_wrong_is_seen(monkeypatch):
    state = bl.GameState.from_deal(bl.seeded_deal(3, variant=small_rules("bakers_dozen", 5, 4)))
    truth = is_solvable(state)
    monkeypatch.setitem(references._KNOWN, references.key("solvable", state), not truth)
    assert references.remembered("solvable", state) != is_solvable(state)
