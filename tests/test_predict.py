"""What predicts a loss (predict.py): families of features, the two models on one split,
grouped permutation importance, and the sentence made of the numbers."""

from __future__ import annotations

import dataclasses
import re

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.files.datadir import shipped_table
from bakers_lab.study.claims import load_surveys
from bakers_lab.study.features import FEATURES
from bakers_lab.study.predict import (
    FEATURE_GROUPS,
    LossPredictors,
    family_of,
    loss_predictors,
    representatives,
    variance_inflation,
)
from bakers_lab.study.stats import logistic_model

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def bakers():
    t = load_surveys(shipped_table())
    return t[t["variant"] == "bakers_dozen"]


@pytest.fixture(scope="module")
def careful(bakers):
    few = bakers[bakers["deal"].astype(int) <= 6000]
    return loss_predictors(few, "careful", repeats=5)


def test_every_feature_is_in_exactly_one_family():
    members = [f for group in FEATURE_GROUPS.values() for f in group]
    assert sorted(members) == sorted(FEATURES)
    assert len(set(members)) == len(members)


def test_the_representatives_do_not_measure_the_same_thing(bakers):
    rows = bakers[bakers["player"] == "careful"]
    vif = variance_inflation(rows, representatives(rows))
    assert set(vif.index) == set(representatives()) - {"f_kings_over_lower"}  # constant here
    assert vif.max() < 2
    # while the full set does: f_depth_aces is the sum of the four f_depth_ace_*
    everything = variance_inflation(rows, list(FEATURE_GROUPS["Aces buried"][:5]))
    assert everything.max() == float("inf")


def test_the_linear_model_is_the_line_on_the_representatives(bakers, careful):
    few = bakers[bakers["deal"].astype(int) <= 6000]
    linear = logistic_model(few, "careful", features=representatives(few))
    assert careful.logistic_auc == linear.auc
    assert careful.n_test == linear.n_test and careful.n_train == linear.n_train
    pd.testing.assert_frame_equal(careful.line.odds_ratios, linear.odds_ratios)
    assert 0.55 < careful.logistic_auc < 0.8 and 0.55 < careful.trees_auc < 0.8


def test_bl_loss_model_is_the_one_loss_model(bakers, careful):
    # the public name gives what the report, notebook 03 and the README show
    few = bakers[bakers["deal"].astype(int) <= 6000]
    same = bl.loss_model(few, "careful", repeats=5)
    assert isinstance(same, LossPredictors)
    assert (same.logistic_auc, same.trees_auc) == (careful.logistic_auc, careful.trees_auc)
    assert same.importance.equals(careful.importance)
    # one feature per family in its line, never the collinear 19
    line = list(same.line.odds_ratios["feature"])
    assert len({family_of(f) for f in line}) == len(line) <= len(FEATURE_GROUPS)


def test_the_trees_beside_the_line_one_row_per_family(careful):
    fam = careful.families
    assert list(fam.columns) == ["group", "feature", "odds_ratio", "odds_low", "odds_high",
                                 "p_value_wald", "auc_drop", "drop_low", "drop_high"]  # fmt: skip
    assert list(fam["group"]) == list(careful.importance["group"])
    assert list(fam["auc_drop"]) == list(careful.importance["auc_drop"])
    aces = fam.set_index("group").loc["Aces buried"]
    odds = careful.line.odds_ratios.set_index("feature").loc["f_depth_aces"]
    assert (aces["feature"], aces["odds_ratio"]) == ("f_depth_aces", odds["odds_ratio"])
    assert aces["odds_low"] > 1  # buried Aces make a loss likelier
    # the feature to chart is the strongest family's, by importance (not by odds)
    assert careful.strongest_feature() == FEATURE_GROUPS[careful.strongest][0]
    text = str(careful)
    assert text.startswith(careful.summary()) and "Aces buried (f_depth_aces): " in text


def test_each_p_value_is_named_for_its_test(careful):
    # notebook 03 called the regression's Wald p-values "p-value (McNemar)" (issue 52)
    from bakers_lab.utils.present import for_people

    for table in (careful.families, careful.line.odds_ratios):
        words = list(for_people(table).columns)
        assert "p-value (Wald, odds of 1)" in words and "p-value (McNemar)" not in words
    paired = pd.DataFrame({"a": ["careful"], "b": ["greedy"], "p_value": [0.5]})
    assert "p-value (McNemar)" in list(for_people(paired).columns)


def test_one_feature_per_family_in_the_line(bakers):
    few = bakers[bakers["deal"].astype(int) <= 2000]
    with pytest.raises(ValueError, match=re.escape(
        "features 'f_depth_aces' and 'f_depth_ace_c' are of one family (Aces buried); give "
        "at most one feature per family")):  # fmt: skip
        loss_predictors(few, "careful", features=["f_depth_aces", "f_depth_ace_c"])
    with pytest.raises(ValueError, match=re.escape("unknown feature 'f_nope' (str)")):
        loss_predictors(few, "careful", features=["f_nope"])
    other = loss_predictors(few, "careful", features=["f_depth_ace_c", "f_deep_low_cards"],
                            repeats=2)  # fmt: skip
    assert list(other.line.odds_ratios["feature"]) == ["f_depth_ace_c", "f_deep_low_cards"]
    fam = other.families.set_index("group")
    assert fam.loc["Aces buried", "feature"] == "f_depth_ace_c"
    assert fam["odds_ratio"].isna().sum() == len(FEATURE_GROUPS) - 2  # not in the line


def test_grouped_importance_is_sorted_with_intervals(careful):
    imp = careful.importance
    assert list(imp.columns) == ["group", "features", "auc_drop", "low", "high"]
    assert sorted(imp["group"]) == sorted(FEATURE_GROUPS)
    assert imp["auc_drop"].is_monotonic_decreasing
    assert (imp["low"] <= imp["auc_drop"]).all() and (imp["auc_drop"] <= imp["high"]).all()
    assert careful.strongest == imp["group"].iloc[0]
    assert imp["auc_drop"].iloc[0] > 0.02  # shuffling the strongest family costs the trees


def test_the_sentence_is_made_of_the_numbers(careful):
    text = careful.summary()
    assert text.startswith("For careful, the deal explains a little of a loss: on 1,800 held-out")
    assert f"{careful.logistic_auc:.2f}" in text and f"{careful.trees_auc:.2f}" in text
    # on these 1,800 deals the top two families' intervals overlap: no winner is named
    imp = careful.importance
    assert imp["low"].iloc[0] > 0 and imp["low"].iloc[0] < imp["high"].iloc[1]
    assert careful.what_matters_most() is None
    assert "The family that matters most" not in text
    top = careful.strongest
    assert f" {top[:1].upper()}{top[1:]} matters (shuffling it costs the trees " in text
    assert re.search(r"95 %: 0\.\d{3} to 0\.\d{3}\), but so much may another family", text)
    assert text.endswith("which family matters most, these deals cannot tell.")
    assert repr(careful).startswith("LossPredictors(player='careful', variant='bakers_dozen'")
    assert isinstance(careful, LossPredictors)


def test_what_matters_most_is_named_only_when_the_intervals_say_so(careful):
    imp = careful.importance.copy()
    overlap = imp.copy()  # the top family's interval reaches into the runner-up's
    overlap.loc[0, "low"] = overlap.loc[1, "high"] - 0.001
    overlap.loc[0, "low"] = max(overlap.loc[0, "low"], 0.001)
    overlap.loc[1, "high"] = overlap.loc[0, "low"] + 0.001
    told = dataclasses.replace(careful, importance=overlap)
    assert told.what_matters_most() is None
    assert "matters most:" not in told.summary()
    assert "which family matters most, these deals cannot tell." in told.summary()
    clear = imp.copy()  # the top family's interval above every other's
    clear.loc[0, "low"] = clear["high"].iloc[1:].max() + 0.001
    clear.loc[0, "high"] = max(clear.loc[0, "high"], clear.loc[0, "low"] + 0.001)
    named = dataclasses.replace(careful, importance=clear)
    assert named.what_matters_most() == careful.strongest
    assert f"The family that matters most: {careful.strongest} (shuffling it" in named.summary()
    nothing = imp.copy()
    nothing["low"] = -0.004  # every interval includes 0
    none = dataclasses.replace(careful, importance=nothing)
    assert none.what_matters_most() is None
    text = none.summary()
    assert f"No family measurably matters on these {careful.n_test:,} held-out deals" in text
    assert "−0.004 to" in text and "matters most" not in text


def test_results_repeat_and_bad_input_is_refused(bakers, careful):
    few = bakers[bakers["deal"].astype(int) <= 6000]
    again = loss_predictors(few, "careful", repeats=5)
    assert again.trees_auc == careful.trees_auc
    assert again.importance.equals(careful.importance)
    with pytest.raises(ValueError, match=re.escape("repeats must be an integer from 2 to 1000")):
        loss_predictors(few, "careful", repeats=1)
    with pytest.raises(ValueError, match=re.escape("test_size must be between 0 and 1")):
        loss_predictors(few, "careful", test_size=1.5)
    with pytest.raises(ValueError, match="unknown player 'nobody' for variant 'bakers_dozen'"):
        loss_predictors(few, "nobody")
