"""The shipped verdicts the app answers from at once equal the solver's own."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.display.widgets.explorer import ExplorerModel
from bakers_lab.files.table import read_survey
from bakers_lab.study.known import SHIPPED_BUDGET, _verdicts, known_verdict

DATA = Path(__file__).resolve().parent.parent / "data"


def test_every_shipped_solver_survey_used_the_budget_the_verdicts_assume():
    budgets = {
        p.parent.name: json.loads(p.read_text())["max_nodes"]
        for p in DATA.glob("*/_survey.json")
        if "solver" in json.loads(p.read_text())["players"]
    }
    assert budgets, "no solver surveys in data/"
    assert set(budgets.values()) == {SHIPPED_BUDGET}, budgets


@pytest.mark.parametrize(
    ("deal", "variant"),
    [
        (64, "bakers_dozen"),
        (10843, "bakers_dozen"),
        (904, "good_measure"),
        (14, "portuguese_solitaire"),
    ],
)
def test_a_shipped_proof_is_the_solvers_proof(deal, variant):
    known = known_verdict(deal, variant)
    assert known is not None
    searched = bl.solve(deal, variant=variant)
    # outcome, nodes, proof, deal, variant: all but the time, as nothing was searched
    assert known == replace(searched, seconds=0.0)


def test_the_lost_and_open_deals_of_the_tables_are_all_there_and_nothing_else():
    # from the full surveys in data/, not from the compact table the verdicts are read from
    table = pd.concat(
        [
            read_survey(p.parent)
            for p in DATA.glob("*/_survey.json")
            if "solver" in json.loads(p.read_text())["players"]
        ]
    )
    solver = table[(table["player"] == "solver") & (table["outcome"] != "won")]
    solver = solver.drop_duplicates(["deal", "variant"])
    expected = {
        (v, int(d)): (o, int(n))
        for v, d, o, n in zip(
            solver["variant"], solver["deal"], solver["outcome"], solver["nodes"], strict=True
        )
    }
    assert {k: v[:2] for k, v in _verdicts().items()} == expected
    assert all(p is not None for o, _, p in _verdicts().values() if o == "lost")


def test_winnable_deals_deals_outside_the_tables_and_other_budgets_are_not_answered():
    assert known_verdict(1) is None  # winnable: its line must be found and replayed
    assert known_verdict(32_001) is None  # outside Baker's Dozen's 1-32,000
    assert known_verdict(2_001, "good_measure") is None  # outside the presets' 1-2,000
    open_417 = known_verdict(417)
    assert open_417 is not None
    assert (open_417.outcome, open_417.nodes) == ("unresolved", 5_000_453)
    assert known_verdict(417, budget=SHIPPED_BUDGET - 1) is None  # another budget: search
    proved = known_verdict(64, budget=1)  # a proof holds at any budget
    assert proved is not None and proved.outcome == "unsolvable"


def test_the_explorer_answers_game_417_from_the_tables():
    model = ExplorerModel()
    result = model.solve(417, "bakers_dozen")
    assert (result.outcome, result.nodes, result.seconds) == ("unresolved", 5_000_453, 0.0)
    assert model.shipped(417, "bakers_dozen")
    small = ExplorerModel(budget=1000)
    assert small.solve(417, "bakers_dozen").nodes <= 1_100
    assert not small.shipped(417, "bakers_dozen")
