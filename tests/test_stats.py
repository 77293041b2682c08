"""Statistics on synthetic survey tables whose answers are known exactly."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from bakers_lab.study import predict, stats
from bakers_lab.study.predict import loss_predictors
from bakers_lab.study.stats import (
    PAIRED_COLUMNS,
    LossModel,
    ablation,
    ladder,
    logistic_model,
    paired_comparison,
    rate_by_decile,
    wilson_interval,
    win_rates,
)

OUTCOMES = ["won", "lost", "unresolved"]


def make_table(
    rows: list[tuple[int, str, str, str]], features: dict[str, list[int]] | None = None
) -> pd.DataFrame:
    """A survey table from (deal, variant, player, outcome) rows, dtypes as read_survey gives."""
    deal, variant, player, outcome = zip(*rows, strict=True)
    df = pd.DataFrame(
        {
            "deal": pd.Series(list(deal), dtype=object),
            "variant": pd.Categorical(variant),
            "player": pd.Categorical(player),
            "outcome": pd.Categorical(outcome, categories=OUTCOMES),
            "moves": np.zeros(len(rows), dtype=np.int64),
            "nodes": np.ones(len(rows), dtype=np.int64),
        }
    )
    for name, values in (features or {}).items():
        df[name] = np.asarray(values, dtype=np.int16)
    return df


def paired_table() -> pd.DataFrame:
    """careful against greedy on 35 deals of bakers_dozen.

    Deals 1-15 both won, 16-20 both lost, 21-28 careful only (8), 29-30 greedy
    only (2); 31-33 unresolved for careful; 34-35 played by greedy only.  Deal
    numbers above 2**64 on the last ones, as PySolFC's range allows.
    """
    big = 2**64
    pattern = [("won", "won")] * 15 + [("lost", "lost")] * 5
    pattern += [("won", "lost")] * 8 + [("lost", "won")] * 2 + [("unresolved", "won")] * 3
    rows = []
    for k, (a, b) in enumerate(pattern, start=1):
        deal = k if k <= 30 else big + k
        rows.append((deal, "bakers_dozen", "careful", a))
        rows.append((deal, "bakers_dozen", "greedy", b))
    rows += [
        (big + 34, "bakers_dozen", "greedy", "won"),
        (big + 35, "bakers_dozen", "greedy", "lost"),
    ]
    return make_table(rows)


# -- Wilson and win rates ----------------------------------------------------------------------


def test_wilson_interval_known_values():
    assert wilson_interval(0, 10)[0] == 0.0
    z2 = 1.959963984540054**2
    assert wilson_interval(0, 10)[1] == pytest.approx(z2 / (10 + z2), abs=1e-12)  # 0.2775
    lo, hi = wilson_interval(10, 10)
    assert (lo, hi) == (pytest.approx(10 / (10 + z2), abs=1e-12), 1.0)  # type: ignore[comparison-overlap]
    from statsmodels.stats.proportion import (  # type: ignore[import-untyped, unused-ignore]
        proportion_confint,
    )

    for won, n in [(75, 100), (1, 3), (9981, 10000)]:
        expected = proportion_confint(won, n, alpha=0.05, method="wilson")
        assert wilson_interval(won, n) == pytest.approx(expected, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_win_rates_counts_unresolved_apart():
    r = win_rates(paired_table()).set_index("player")
    assert r.loc["careful", ["deals", "won", "lost", "unresolved"]].tolist() == [33, 23, 7, 3]
    assert r.loc["careful", "rate"] == 23 / 30
    assert r.loc["greedy", ["deals", "won", "lost"]].tolist() == [35, 21, 14]


# -- paired comparisons ------------------------------------------------------------------------


def test_paired_comparison_exact_counts_rates_and_mcnemar():
    df = paired_comparison(paired_table(), "careful", "greedy")
    assert list(df.columns) == list(PAIRED_COLUMNS)
    assert len(df) == 1
    r = df.iloc[0]
    assert (r["a"], r["b"], r["deals"], r["a_only"], r["b_only"]) == ("careful", "greedy", 30, 8, 2)
    assert r["a_rate"] == 23 / 30
    assert r["b_rate"] == 17 / 30
    assert r["diff"] == (8 - 2) / 30
    # McNemar exact: 2 * P(X <= 2), X ~ Binomial(10, 1/2) = 2 * 56 / 1024
    assert r["p_value"] == pytest.approx(0.109375, abs=1e-12)
    # Newcombe's interval of the same 2x2 table (15 both, 8, 2, 5 neither)
    assert (r["diff_low"], r["diff_high"]) == stats._newcombe_paired(15, 8, 2, 5)
    assert r["diff_low"] < r["diff"] < r["diff_high"]
    assert df.attrs["variant"] == "bakers_dozen"
    assert df.attrs["level"] == 0.95


def test_paired_comparison_is_antisymmetric_and_ignores_row_order():
    t = paired_table()
    ab = paired_comparison(t, "careful", "greedy").iloc[0]
    shuffled = t.sample(frac=1.0, random_state=1)
    ba = paired_comparison(shuffled, "greedy", "careful").iloc[0]
    assert ba["diff"] == -ab["diff"]
    assert (ba["a_only"], ba["b_only"], ba["p_value"]) == (2, 8, ab["p_value"])
    assert ba["diff_low"] == pytest.approx(-ab["diff_high"], abs=1e-12)
    assert ba["diff_high"] == pytest.approx(-ab["diff_low"], abs=1e-12)


@pytest.mark.parametrize(
    ("both", "a_only", "b_only", "neither", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:2635, method 10, to 4 places
        (36, 12, 2, 0, 0.0569, 0.3404),
        (18, 12, 2, 18, 0.0562, 0.3290),
        (53, 0, 0, 1, -0.0729, 0.0729),
        (0, 30, 0, 0, 0.8395, 1.0),
    ],
)
def test_newcombe_interval_matches_the_paper(both, a_only, b_only, neither, low, high):
    got = stats._newcombe_paired(both, a_only, b_only, neither)
    assert (round(got[0], 4), round(got[1], 4)) == (low, high)


def test_no_discordant_pairs_gives_p_value_one():
    rows = [(d, "bakers_dozen", p, "won" if d < 4 else "lost") for d in range(1, 6) for p in "ab"]
    r = paired_comparison(make_table(rows), "a", "b").iloc[0]
    assert (r["deals"], r["diff"], r["p_value"], r["a_only"], r["b_only"]) == (5, 0.0, 1.0, 0, 0)


def test_paired_comparison_by_variant():
    rows = []
    for d in range(1, 11):
        rows.append((d, "bakers_dozen", "careful", "won" if d <= 8 else "lost"))
        rows.append((d, "good_measure", "careful", "won" if d <= 3 else "lost"))
        rows.append((d, "good_measure", "greedy", "lost"))
    t = make_table(rows)
    r = paired_comparison(t, "bakers_dozen", "good_measure", by="variant", player="careful")
    assert r[["a", "b", "deals", "a_only", "b_only"]].iloc[0].tolist() == [
        "bakers_dozen",
        "good_measure",
        10,
        5,
        0,
    ]
    assert r.iloc[0]["p_value"] == pytest.approx(2 / 32, abs=1e-12)  # 2 * (1/2)**5
    with pytest.raises(ValueError, match=re.escape("the table holds 2 players (careful, greedy)")):
        paired_comparison(t, "bakers_dozen", "good_measure", by="variant")
    with pytest.raises(
        ValueError,
        match=re.escape("unknown variant 'spanish' for player 'careful'; the table holds: "),
    ):
        paired_comparison(t, "bakers_dozen", "spanish", by="variant", player="careful")


def test_paired_comparison_errors_name_what_is_allowed():
    t = paired_table()
    with pytest.raises(
        ValueError,
        match=re.escape(
            "unknown player 'lookahead-2' for variant 'bakers_dozen'; "
            "the table holds: careful, greedy"
        ),
    ):
        paired_comparison(t, "careful", "lookahead-2")
    with pytest.raises(ValueError, match=re.escape("unknown variant 'good_measure'; the table")):
        paired_comparison(t, "careful", "greedy", variant="good_measure")
    with pytest.raises(ValueError, match=re.escape("by must be 'player' or 'variant', not 'deal'")):
        paired_comparison(t, "careful", "greedy", by="deal")
    with pytest.raises(ValueError, match=re.escape("a and b are both 'careful'")):
        paired_comparison(t, "careful", "careful")
    two = pd.concat([t, t.assign(variant=pd.Categorical(["good_measure"] * len(t)))])
    with pytest.raises(
        ValueError,
        match=re.escape("the table holds 2 variants (bakers_dozen, good_measure); pass variant="),
    ):
        paired_comparison(two, "careful", "greedy")
    with pytest.raises(
        ValueError,
        match=re.escape(
            "paired_comparison: table lacks the column outcome; a survey table (bl.survey or "
            "bl.read_survey) has deal, variant, player, outcome, ..."
        ),
    ):
        paired_comparison(t.drop(columns="outcome"), "careful", "greedy")


def test_paired_comparison_no_common_deals():
    rows = [(1, "bakers_dozen", "a", "won"), (2, "bakers_dozen", "b", "won")]
    rows += [(3, "bakers_dozen", "a", "unresolved"), (3, "bakers_dozen", "b", "won")]
    with pytest.raises(
        ValueError,
        match=re.escape(
            "'a' and 'b' have no resolved deal in common (variant 'bakers_dozen'): "
            "'a' resolved 1 deals, 'b' 2, 1 deals shared"
        ),
    ):
        paired_comparison(make_table(rows), "a", "b")


def test_a_deal_given_twice_is_refused():
    rows = [(1, "bakers_dozen", "a", "won"), (1, "bakers_dozen", "a", "lost")]
    rows += [(1, "bakers_dozen", "b", "won")]
    with pytest.raises(ValueError) as info:
        paired_comparison(make_table(rows), "a", "b")
    assert str(info.value) == (  # every statistic refuses it, whatever its players
        "paired_comparison: table repeats 1 (deal, variant, player) row (the first: deal 1 of "
        "a, bakers_dozen); a survey table has one row each (drop_duplicates)"
    )


# -- ladder and ablation -----------------------------------------------------------------------


def ladder_table() -> pd.DataFrame:
    """20 deals: solver wins 19, careful 15, careful-no_aces 10, careful-no_kings 15
    (the same deals as careful), greedy 5; each player's wins are deals 1..k."""
    wins = {"solver": 19, "careful": 15, "careful-no_aces": 10, "careful-no_kings": 15, "greedy": 5}
    rows = [
        (d, "bakers_dozen", p, "won" if d <= k else "lost")
        for p, k in wins.items()
        for d in range(1, 21)
    ]
    return make_table(rows)


def test_ladder_compares_adjacent_players():
    df = ladder(ladder_table(), ["solver", "careful", "greedy"])
    assert list(df.columns) == list(PAIRED_COLUMNS)
    assert df[["a", "b", "deals", "a_only", "b_only"]].values.tolist() == [
        ["solver", "careful", 20, 4, 0],
        ["careful", "greedy", 20, 10, 0],
    ]
    assert df["diff"].tolist() == [4 / 20, 10 / 20]
    assert df["p_value"].tolist() == pytest.approx([2 / 16, 2 / 1024], abs=1e-12)
    with pytest.raises(ValueError, match=re.escape("a ladder needs at least 2 players, not 1")):
        ladder(ladder_table(), ["solver"])
    with pytest.raises(ValueError, match=re.escape("player 'solver' is given 2 times")):
        ladder(ladder_table(), ["solver", "careful", "solver"])
    with pytest.raises(ValueError, match=re.escape("players must be a list of player names")):
        ladder(ladder_table(), "solver")


def test_ablation_rows_sorted_by_what_each_tip_is_worth():
    df = ablation(ladder_table())
    assert list(df.columns) == ["tip", *PAIRED_COLUMNS]
    assert df[["tip", "a", "b", "a_only", "b_only"]].values.tolist() == [
        ["aces", "careful-no_aces", "careful", 0, 5],
        ["kings", "careful-no_kings", "careful", 0, 0],
    ]
    assert df["diff"].tolist() == [-5 / 20, 0.0]
    assert df["p_value"].iloc[1] == 1.0
    with pytest.raises(
        ValueError,
        match=re.escape("no player named 'greedy-no_<tip>' for variant 'bakers_dozen'"),
    ):
        ablation(ladder_table(), base="greedy")
    with pytest.raises(ValueError, match=re.escape("unknown player 'lookahead-2'")):
        ablation(ladder_table(), base="lookahead-2")


# -- win rate by decile ------------------------------------------------------------------------


def test_rate_by_decile_ten_bins_with_known_counts():
    # feature value v (0-9) on deals 10v+1 .. 10v+10; greedy wins v of them; careful wins all
    # but one unresolved deal per bin, which is left out of its counts
    rows, values = [], []
    for v in range(10):
        for k in range(10):
            deal = 10 * v + k + 1
            rows.append((deal, "bakers_dozen", "greedy", "won" if k < v else "lost"))
            rows.append((deal, "bakers_dozen", "careful", "unresolved" if k == 0 else "won"))
            values += [v, v]
    df = rate_by_decile(make_table(rows, {"f_x": values}), "f_x")
    assert list(df.columns) == list(stats._DECILE_COLUMNS)
    greedy = df[df["player"] == "greedy"]
    assert greedy["bin"].tolist() == [str(v) for v in range(10)]
    assert greedy["low_value"].tolist() == list(range(10))
    assert greedy["deals"].tolist() == [10] * 10
    assert greedy["won"].tolist() == list(range(10))
    assert greedy["rate"].tolist() == [v / 10 for v in range(10)]
    assert (greedy["ci_low"].iloc[3], greedy["ci_high"].iloc[3]) == wilson_interval(3, 10)
    careful = df[df["player"] == "careful"]
    assert careful["deals"].tolist() == [9] * 10
    assert careful["rate"].tolist() == [1.0] * 10
    assert df["player"].tolist() == ["careful"] * 10 + ["greedy"] * 10


def test_rate_by_decile_merges_tied_values():
    # 50 deals at 0, 30 at 1, 20 at 2, one at 7, one at 9: the deciles are 0 (10-40 %),
    # 1 (50-70 %), 2 (80-90 %) and 9, so qcut's unique edges 0, 1, 2, 9 give the bins
    # [0, 1], (1, 2], (2, 9]: every deal of a value lands in one bin
    values = [0] * 50 + [1] * 30 + [2] * 20 + [7, 9]
    rows = [(d, "bakers_dozen", "greedy", "won" if d % 2 else "lost") for d in range(1, 103)]
    df = rate_by_decile(make_table(rows, {"f_x": values}), "f_x", player="greedy")
    assert df["bin"].tolist() == ["0–1", "2", "7–9"]
    assert df["deals"].tolist() == [80, 20, 2]
    assert df["won"].tolist() == [40, 10, 1]
    assert (df["low_value"].tolist(), df["high_value"].tolist()) == ([0, 2, 7], [1, 2, 9])
    constant = rate_by_decile(make_table(rows, {"f_x": [4] * 102}), "f_x")
    assert constant[["bin", "deals", "won"]].values.tolist() == [["4", 102, 51]]


def test_rate_by_decile_errors():
    t = make_table([(1, "bakers_dozen", "greedy", "won")], {"f_x": [1], "f_y": [2]})
    with pytest.raises(
        ValueError, match=re.escape("unknown feature 'x' (str); the table's features: f_x, f_y")
    ):
        rate_by_decile(t, "x")
    with pytest.raises(ValueError, match=re.escape("unknown player 'solver'")):
        rate_by_decile(t, "f_x", player="solver")


# -- loss model --------------------------------------------------------------------------------


def loss_table(n: int = 1200, seed: int = 7) -> pd.DataFrame:
    """careful on n deals: losing depends strongly on f_signal, not on f_noise.

    f_sum = f_signal + f_noise (collinear), f_const = 3 (constant); the last 20
    deals are unresolved.  Deal numbers are offset by 2**64.
    """
    rng = np.random.default_rng(seed)
    signal = rng.integers(0, 21, n)
    noise = rng.integers(0, 21, n)
    p_lost = 1 / (1 + np.exp(-(-0.5 + 0.35 * (signal - 10))))
    lost = rng.random(n) < p_lost
    outcome = np.where(lost, "lost", "won").astype(object)
    outcome[-20:] = "unresolved"
    rows = [(2**64 + d, "bakers_dozen", "careful", str(o)) for d, o in enumerate(outcome)]
    return make_table(
        rows,
        {
            "f_signal": signal.tolist(),
            "f_noise": noise.tolist(),
            "f_sum": (signal + noise).tolist(),
            "f_const": [3] * n,
        },
    )


@pytest.fixture(scope="module")
def model() -> LossModel:
    return logistic_model(loss_table(), "careful", features=["f_signal", "f_noise", "f_sum",
                                                             "f_const"])  # fmt: skip


def test_the_line_names_its_features_the_all_feature_fit_is_retired():
    # the line of every f_* column at once (collinear: meaningless odds) is not offered
    with pytest.raises(TypeError, match="features"):
        logistic_model(loss_table(), "careful")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"^features is empty; give at least one f_\* column$"):
        logistic_model(loss_table(), "careful", features=[])


def test_the_line_finds_the_signal_and_ignores_the_noise(model):
    assert (model.player, model.variant, model.method) == ("careful", "bakers_dozen", "newton")
    assert model.n_train + model.n_test == 1180  # 1200 deals, 20 unresolved dropped
    assert model.n_test == round(0.3 * 1180)
    odds = model.odds_ratios.set_index("feature")
    columns = ["feature", "odds_ratio", "low", "high", "p_value_wald"]
    assert list(model.odds_ratios.columns) == columns
    assert list(odds.index) == ["f_signal", "f_noise"]
    assert odds.loc["f_signal", "low"] > 1  # per SD (about 6) of f_signal: exp(0.35 * 6) = 8
    assert 4 < odds.loc["f_signal", "odds_ratio"] < 16
    assert odds.loc["f_signal", "p_value_wald"] < 1e-12
    assert odds.loc["f_noise", "low"] < 1 < odds.loc["f_noise", "high"]
    assert model.auc > 0.8
    assert model.dropped == ("f_const", "f_sum")
    assert model.notes[0] == "dropped f_const: constant (3) on the training deals"
    assert "f_sum: a linear combination" in model.notes[1]
    assert repr(model) == (
        f"LossModel(player='careful', variant='bakers_dozen', n_train={model.n_train}, "
        f"n_test={model.n_test}, auc={model.auc:.3f}, features=2, dropped=2)"
    )
    assert f"held out {model.n_test} deals" in str(model)


def test_the_line_standardises_on_the_training_deals_only(model):
    # the documented split, redone by hand: sort by deal, permute with default_rng(0)
    from statsmodels.discrete.discrete_model import Logit  # type: ignore[import-untyped, unused-ignore]

    t = loss_table()
    t = t[t["outcome"] != "unresolved"]
    n = len(t)
    train = np.sort(np.random.default_rng(0).permutation(n)[round(0.3 * n) :])
    x = t[["f_signal", "f_noise"]].to_numpy(dtype=float)[train]
    y = (t["outcome"] == "lost").to_numpy(dtype=float)[train]
    raw = Logit(y, np.column_stack([np.ones(len(x)), x])).fit(disp=0)
    per_sd = np.exp(raw.params[1:] * x.std(axis=0, ddof=1))
    assert model.odds_ratios["odds_ratio"].to_numpy() == pytest.approx(per_sd, rel=1e-6)
    # same p-values: a z-score is a linear change of units
    assert model.odds_ratios["p_value_wald"].to_numpy() == pytest.approx(raw.pvalues[1:], rel=1e-6)


def test_the_line_is_deterministic_and_seeded():
    t = loss_table(n=400)
    a = logistic_model(t, "careful", features=["f_signal"], seed=3)
    b = logistic_model(t.sample(frac=1.0, random_state=5), "careful", features=["f_signal"], seed=3)
    pd.testing.assert_frame_equal(a.odds_ratios, b.odds_ratios)
    assert a.auc == b.auc
    c = logistic_model(t, "careful", features=["f_signal"], seed=4)
    assert c.odds_ratios["odds_ratio"].iloc[0] != a.odds_ratios["odds_ratio"].iloc[0]


def test_the_line_refuses_what_it_cannot_fit():
    t = loss_table(n=200)
    all_won = t.assign(outcome=pd.Categorical(["won"] * len(t), categories=OUTCOMES))
    with pytest.raises(
        ValueError,
        match=re.escape(
            "player 'careful', variant 'bakers_dozen' lost none of the 140 training deals"
        ),
    ):
        logistic_model(all_won, "careful", features=["f_signal"])
    separated = t.assign(
        outcome=pd.Categorical(np.where(t["f_signal"] > 10, "lost", "won"), categories=OUTCOMES)
    )
    with pytest.raises(ValueError, match=re.escape("cannot be fitted: the features separate")):
        logistic_model(separated, "careful", features=["f_signal", "f_noise"])
    with pytest.raises(ValueError, match=re.escape("unknown feature 'f_nope' (str)")):
        logistic_model(t, "careful", features=["f_nope"])
    with pytest.raises(ValueError, match=re.escape("features must be a list of f_* column names")):
        logistic_model(t, "careful", features="f_signal")
    with pytest.raises(ValueError, match=re.escape("test_size must be between 0 and 1")):
        logistic_model(t, "careful", features=["f_signal"], test_size=1.0)
    with pytest.raises(ValueError, match=re.escape("no feature varies on the training deals")):
        logistic_model(t, "careful", features=["f_const"])


def test_auc_is_the_mann_whitney_statistic_with_ties_half():
    scores = np.array([0.1, 0.4, 0.35, 0.8])
    assert stats.rank_auc(scores, np.array([False, False, True, True])) == 0.75
    assert stats.rank_auc(np.array([1.0, 1.0]), np.array([False, True])) == 0.5
    assert math.isnan(stats.rank_auc(np.array([1.0, 2.0]), np.array([True, True])))


# -- every study function checks its table first (issue 41) ------------------------------------


def _two_players(n: int = 30) -> pd.DataFrame:
    """``n`` deals of careful and solver with a feature; careful loses every third deal."""
    rows = [(d, "bakers_dozen", p, "lost" if p == "careful" and d % 3 == 0 else "won")
            for p in ("careful", "solver") for d in range(1, n + 1)]  # fmt: skip
    depth = [d % 7 for d in range(1, n + 1)] * 2
    return make_table(rows, {"f_depth_aces": depth, "f_inversions": depth[::-1]})


def test_win_rates_refuses_rows_with_no_player_or_variant():
    t = _two_players()
    t["player"] = t["player"].astype(object)
    t.loc[[0, 5], "player"] = [None, np.nan]
    with pytest.raises(ValueError) as info:
        stats.win_rates(t)
    assert str(info.value) == "win_rates: table has 2 rows with no player"
    t = _two_players().astype({"variant": object})
    t.loc[3, "variant"] = ""
    with pytest.raises(ValueError) as info:
        stats.win_rates(t)
    assert str(info.value) == "win_rates: table has 1 row with no variant"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"player": ["careful"]}, "table must be a survey DataFrame (bl.survey or "
         "bl.read_survey), not a dict (dict)"),
        (pd.DataFrame(), "table has no rows"),
        ("careful", "table must be a survey DataFrame (bl.survey or bl.read_survey), not "
         "'careful' (str)"),
        ([1, 2], "table must be a survey DataFrame (bl.survey or bl.read_survey), not a list "
         "of 2 items"),
    ],
)  # fmt: skip
def test_ladder_refuses_what_is_not_a_survey_table(table, message):
    with pytest.raises(ValueError) as info:
        stats.ladder(table)
    assert str(info.value) == f"ladder: {message}"


def test_ladder_needs_two_players():
    t = _two_players()
    with pytest.raises(ValueError) as info:
        stats.ladder(t[t["player"] == "solver"])
    assert str(info.value) == "ladder: table has 1 player (solver); ladder needs at least 2"


def test_loss_models_refuse_features_with_gaps_or_stored_as_text():
    t = _two_players().astype({"f_depth_aces": "float64"})
    t.loc[4, "f_depth_aces"] = np.nan
    for call, who in ((predict.loss_model, "loss_model"), (loss_predictors, "loss_predictors")):
        with pytest.raises(ValueError) as info:
            call(t, "careful", repeats=2)
        assert str(info.value) == f"{who}: table's feature f_depth_aces has 1 missing value"
    text = _two_players().astype({"f_inversions": str})
    with pytest.raises(ValueError) as info:
        predict.loss_model(text, "careful", features=["f_depth_aces"])
    assert (
        str(info.value)
        == "loss_model: table's feature f_inversions is stored as text, not as numbers"
    )
    with pytest.raises(ValueError) as info:
        stats.logistic_model(text, "careful", features=["f_inversions"])
    assert str(info.value) == (
        "logistic_model: table's feature f_inversions is stored as text, not as numbers"
    )
    with pytest.raises(ValueError) as info:
        stats.rate_by_decile(t, "f_depth_aces")
    assert str(info.value) == "rate_by_decile: table's feature f_depth_aces has 1 missing value"


def test_a_player_that_resolves_nothing_has_no_rate_in_words():
    rows = [(d, "bakers_dozen", "solver", "unresolved") for d in (1, 2, 3)]
    rows += [(d, "bakers_dozen", "careful", o) for d, o in ((1, "won"), (2, "lost"), (3, "won"))]
    lines = [stats.rate_sentence(r) for _, r in stats.win_rates(make_table(rows)).iterrows()]
    assert lines == [
        "bakers_dozen careful: won 2 of 3 resolved = 66.67 % (95 % Wilson interval "
        "20.77-93.85 %); unresolved 0",
        "bakers_dozen solver: resolved none of its 3 games (every one unresolved)",
    ]
