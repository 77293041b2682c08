"""The strength dial: skill curves, per-deal effort, where a claim sits on the dial, the
charts of both, and the shipped curves rising with the dial."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from chart_text import overlapping_texts

import bakers_lab as bl
from bakers_lab.display import plots
from bakers_lab.files.datadir import shipped_table
from bakers_lab.study.claims import claims_table, load_surveys, located_claims
from bakers_lab.study.skill import Crossing, crossing, family_setting, locate, skill_curve
from bakers_lab.study.stats import paired_comparison

#: Win probability of each setting in the synthetic survey.
SETTINGS = {
    "careful": 0.45,
    "search-10": 0.55,
    "search-100": 0.7,
    "search-1000": 0.85,
    "search-10000": 0.97,
    "undo-10": 0.5,
    "undo-100": 0.65,
    "undo-1000": 0.8,
    "undo-100000": 0.96,
    "undo-1000000": 0.98,
}


def synthetic(n: int = 400) -> pd.DataFrame:
    """``n`` deals: each deal has a difficulty u, and a setting of strength p wins it
    when u < p, so a stronger setting wins every deal a weaker one wins."""
    rng = np.random.default_rng(5)
    u = rng.random(n)
    inv = rng.integers(0, 12, n)
    frames = []
    for player, p in SETTINGS.items():
        frames.append(pd.DataFrame({
            "deal": pd.Series(range(1, n + 1), dtype=object), "variant": "bakers_dozen",
            "player": player, "outcome": np.where(u < p, "won", "lost"),
            "f_inversions": inv.astype(np.int16),
        }))  # fmt: skip
    frames.append(pd.DataFrame({
        "deal": pd.Series(range(1, n + 1), dtype=object), "variant": "bakers_dozen",
        "player": "solver", "outcome": "won", "f_inversions": inv.astype(np.int16),
    }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def test_skill_curve_counts_each_setting_and_careful_is_the_lowest():
    t = synthetic()
    curve = skill_curve(t, "search")
    assert curve["setting"].tolist() == [1, 10, 100, 1000, 10000]
    assert curve["player"].tolist() == ["careful", "search-10", "search-100", "search-1000",
                                        "search-10000"]  # fmt: skip
    for row in curve.itertuples():
        mine = t[t["player"] == row.player]
        assert row.won == (mine["outcome"] == "won").sum() and row.n == 400
        assert row.ci_low < row.rate < row.ci_high
    assert skill_curve(t, "undo")["setting"].tolist() == [0, 10, 100, 1000, 100000, 1000000]
    # careful on more deals than the dial's settings: only the common deals count
    more = pd.concat([t, t[t["player"] == "careful"].assign(deal=lambda d: d["deal"] + 1000)])
    assert skill_curve(more, "search")["n"].tolist() == [400] * 5
    with pytest.raises(ValueError, match="family must be one of search, undo, not 'deep'"):
        skill_curve(t, "deep")
    with pytest.raises(ValueError, match="no search-N player"):
        skill_curve(t[t["player"] == "solver"], "search")


def test_effort_is_the_smallest_setting_that_won():
    t = synthetic()
    eff = bl.effort(t, "search")
    wide = t.pivot(index="deal", columns="player", values="outcome")
    for deal, least in zip(eff["deal"], eff["search_effort"], strict=True):
        won = [s for p, s in (("careful", 1), ("search-10", 10), ("search-100", 100),
                              ("search-1000", 1000), ("search-10000", 10000))
               if wide.loc[deal, p] == "won"]  # fmt: skip
        assert (least is pd.NA and not won) or least == min(won)
    assert eff["search_effort"].dtype == "Int64" and len(eff) == 400
    assert eff["search_effort"].isna().sum() == (wide["search-10000"] == "lost").sum()


def test_a_crossing_interpolates_on_the_log_of_the_setting():
    curve = pd.DataFrame({"family": "search", "setting": [1, 100], "rate": [0.5, 0.9],
                          "ci_low": [0.4, 0.8], "ci_high": [0.6, 1.0]})  # fmt: skip
    c = crossing(curve, 0.7)
    assert c.setting == pytest.approx(10.0)
    assert c.low == pytest.approx(10**0.5) and c.high == pytest.approx(10**1.5)
    assert c.text("positions a move") == "about 10 positions a move (95 %: 3.2–32)"
    assert crossing(curve, 0.45).below and crossing(curve, 0.45).text().startswith("at its")
    assert crossing(curve, 0.95).setting is None
    undo = curve.assign(family="undo", setting=[0, 99])
    assert crossing(undo, 0.7).setting == pytest.approx(9.0)
    enter, leave = locate(curve, 0.6, 0.8)
    assert enter.setting == pytest.approx(10**0.5) and leave.setting == pytest.approx(10**1.5)
    assert Crossing("undo", 0.5, 7.0, None, 20.0).text() == "about 7 (95 %: at most 20)"
    with pytest.raises(
        ValueError, match=r"^locate: a band needs low at most high, not 0.8 and 0.6$"
    ):
        locate(curve, 0.8, 0.6)
    with pytest.raises(
        ValueError,
        match=r"^locate: curve must be a skill curve \(bl.skill_curve\), not an empty DataFrame$",
    ):
        locate(pd.DataFrame(), 0.5, 0.6)


def test_family_setting():
    assert family_setting("search-300") == ("search", 300)
    assert family_setting("undo-0") == ("undo", 0)
    assert family_setting("careful") == ("search", 1)
    assert family_setting("lookahead-2") is None and family_setting("search-x") is None


def test_claims_are_located_on_the_dial():
    t = synthetic()
    located = located_claims(t)
    row = located[(located["family"] == "search") & (located["low"] == 0.75)].iloc[0]
    rate = skill_curve(t, "search").set_index("setting")["rate"]
    assert rate[100] < 0.75 and rate[1000] > 0.8  # both crossings lie between them
    step = rate[1000] - rate[100]
    assert row["enters"] == pytest.approx(10 ** (2 + (0.75 - rate[100]) / step), rel=1e-6)
    leaves = 10 ** (2 + (math.nextafter(0.8, 1) - rate[100]) / step)
    assert row["leaves"] == pytest.approx(leaves, rel=1e-6)
    assert row["enters_low"] < row["enters"] < row["enters_high"]
    verdicts = claims_table(t).set_index("claim")["verdict"]
    careful = verdicts["won about 75–80 % of the time with careful play"]
    assert careful.startswith(
        "search-N reaches 75 % at about 170 positions a move (95 %: "
        "82–370) and passes 80 % at about 420 (95 %: 210–860) (400 deals)"
    )
    assert "undo-N reaches 75 %" in careful
    good = verdicts["a good player wins nearly always"]
    assert "perfect play (the solver, 100.0 %) is the ceiling, not a player" in good


def test_skill_curve_chart(show_chart):
    t = synthetic()
    fig = plots.skill_curve_chart(t)
    search, undo = fig.axes
    assert search.get_xscale() == "log" and undo.get_xscale() == "symlog"
    assert search.get_ylabel() == "win rate (%)"
    assert "positions it considers before each move" in search.get_xlabel()
    legend = [x.get_text() for x in fig.legends[0].get_texts()]
    assert any("75–80 %" in x for x in legend)
    assert not any("seed 003" in x for x in legend)  # a claim about another variant
    assert "400 deals a setting" in fig.get_suptitle()
    assert overlapping_texts(fig) == []
    show_chart(fig, "skill_curve_chart")
    one = plots.skill_curve_chart(t, family="undo")
    assert len(one.axes) == 1 and overlapping_texts(one) == []
    with pytest.raises(ValueError, match="family must be one of search, undo or None"):
        plots.skill_curve_chart(t, family="x")
    with pytest.raises(ValueError, match="no search-N or undo-N player"):
        plots.skill_curve_chart(t[t["player"].isin(["solver", "careful"])])


def test_planning_chart(show_chart):
    t = synthetic()
    fig = plots.planning_chart(t, "f_inversions", groups=3)
    assert len(fig.axes) == 2
    lines = [ln for ln in fig.axes[0].containers]
    assert len(lines) == 3
    assert overlapping_texts(fig) == []
    show_chart(fig, "planning_chart")


@pytest.fixture(scope="module")
def shipped() -> pd.DataFrame:
    return load_surveys(shipped_table())


@pytest.mark.parametrize("variant", ["bakers_dozen", "bakers_dozen_return"])
@pytest.mark.parametrize("family", ["search", "undo"])
def test_shipped_curves_rise_with_the_dial(shipped, variant, family):
    table = shipped[shipped["variant"] == variant]
    if not table["player"].str.startswith(f"{family}-").any():
        pytest.skip(f"no {family}-N survey of {variant} shipped")
    curve = skill_curve(table, family)
    assert len(curve) >= 8 and curve["n"].min() == 2000  # careful's rows are the lowest
    players = curve["player"].tolist()
    for weaker, stronger in itertools.pairwise(players):
        pair = paired_comparison(table, stronger, weaker).iloc[0]
        # never a drop beyond noise: no significant fall at the 1 % level
        assert not (pair["diff"] < 0 and pair["p_value"] < 0.01), (weaker, stronger, pair)
    assert curve["rate"].iloc[-1] - curve["rate"].iloc[0] > 0.3
    if variant == "bakers_dozen":  # both dials reach near the solver's 99.8 %
        assert curve["rate"].iloc[-1] >= 0.98


# -- refusals (issue 41): one line naming the problem ------------------------------------------


def _small() -> pd.DataFrame:
    """Three deals of careful, search-10 and search-100, and the solver."""
    rows = [(d, p, o) for p, outs in (("careful", "lwl"), ("search-10", "wwl"),
                                      ("search-100", "www"), ("solver", "www"))
            for d, o in zip((1, 2, 3), outs, strict=True)]  # fmt: skip
    return pd.DataFrame({
        "deal": [d for d, _, _ in rows], "variant": "bakers_dozen",
        "player": [p for _, p, _ in rows],
        "outcome": [{"w": "won", "l": "lost"}[o] for _, _, o in rows],
    })  # fmt: skip


DIAL_WORDS = (
    "a search-N player has N from 1 to 1,000,000 (positions it considers before each move), "
    "written without leading zeros, like search-300"
)


@pytest.mark.parametrize("name", ["search-abc", "search-0", "search-05"])
def test_skill_curve_refuses_names_that_only_look_like_a_setting(name):
    t = _small().replace("search-10", name)
    for call, who in ((skill_curve, "skill_curve"), (bl.effort, "effort")):
        with pytest.raises(ValueError) as info:
            call(t, "search")
        assert str(info.value) == (
            f"{who}: the player {name} is not a setting of the search dial; {DIAL_WORDS}"
        )
    assert family_setting(name) is None


def test_skill_curve_refuses_a_table_without_dial_players_and_deals_that_are_not_integers():
    t = _small()
    with pytest.raises(ValueError) as info:
        skill_curve(t[t["player"].isin(["careful", "solver"])], "search")
    assert (
        str(info.value) == "skill_curve: no search-N player in the table; players: careful, solver"
    )
    with pytest.raises(ValueError) as info:
        skill_curve(t.assign(deal=[str(d) for d in t["deal"]]), "search")
    assert str(info.value) == (
        "skill_curve: table has 12 rows whose deal is not an integer (the first: '1' (str)); "
        "deal numbers are integers"
    )
    with pytest.raises(ValueError) as info:
        bl.effort(t.assign(deal=t["deal"].astype(float)), "search")
    assert str(info.value) == (
        "effort: table has 12 rows whose deal is not an integer (the first: 1.0 (float)); "
        "deal numbers are integers"
    )
    with pytest.raises(ValueError) as info:
        bl.effort(t["deal"], "search")
    assert str(info.value) == (
        "effort: table must be a survey DataFrame (bl.survey or bl.read_survey), not a Series "
        "of 12 values"
    )


def test_unresolved_rows_are_no_games_and_a_warning_counts_them():
    t = _small()
    t.loc[(t["player"] == "search-10") & (t["deal"] == 2), "outcome"] = "unresolved"
    with pytest.warns(UserWarning) as caught:
        curve = skill_curve(t, "search")
    assert [str(w.message) for w in caught] == [
        "skill_curve left out 1 unresolved game (neither won nor lost) and, at every "
        "setting, the deal it was on"
    ]
    # deal 2 is left out at every setting: each is judged on deals 1 and 3
    assert curve[["player", "won", "lost", "n"]].values.tolist() == [
        ["careful", 0, 2, 2], ["search-10", 1, 1, 2], ["search-100", 2, 0, 2]]  # fmt: skip
    assert curve.attrs["unresolved"] == 1
    with pytest.warns(UserWarning, match=r"^effort left out 1 unresolved game "):
        eff = bl.effort(t, "search")
    assert eff["deal"].tolist() == [1, 3]


LEVEL = "must be a win rate as a fraction above 0 and below 1 (0.75 for 75 %), not"


@pytest.mark.parametrize(
    ("level", "shown"),
    [
        ("0.5", "'0.5' (str)"),
        (None, "None (NoneType)"),
        (math.nan, "nan (float)"),
        (True, "True (bool)"),
        (0, "0 (int)"),
        (1, "1 (int)"),
        (2, "2 (int)"),
        (1.0, "1.0 (float)"),
    ],
)
def test_a_level_is_a_win_rate_strictly_between_0_and_1(level, shown):
    curve = skill_curve(_small(), "search")
    with pytest.raises(ValueError) as info:
        crossing(curve, level)
    assert str(info.value) == f"crossing: level {LEVEL} {shown}"
    with pytest.raises(ValueError) as info:
        locate(curve, level, 0.9)
    assert str(info.value) == f"locate: low {LEVEL} {shown}"
    with pytest.raises(ValueError) as info:
        locate(curve, 0.1, level)
    assert str(info.value) == f"locate: high {LEVEL} {shown}"


def test_an_empty_curve_is_refused_in_one_line():
    for call in (lambda c: crossing(c, 0.5), lambda c: locate(c, 0.5, 0.6)):
        with pytest.raises(ValueError) as info:
            call(skill_curve(_small(), "search").iloc[:0])
        assert str(info.value).endswith(
            ": curve must be a skill curve (bl.skill_curve), not an empty DataFrame"
        )
    with pytest.raises(ValueError) as info:
        crossing(pd.Series([0.5] * 30), 0.5)
    assert str(info.value) == (
        "crossing: curve must be a skill curve (bl.skill_curve), not a Series of 30 values"
    )


def test_a_claim_no_setting_reaches_says_so_in_true_words():
    t = synthetic()
    weak = t[~t["player"].isin(["search-1000", "search-10000"])]  # search's top: about 70 %
    located = located_claims(weak)
    words = located.set_index(["family", "low"])["words"]
    top = skill_curve(weak, "search").iloc[-1]
    assert top["player"] == "search-100" and top["rate"] == 0.72
    assert words[("search", 0.75)] == (
        "search-N does not reach 75 % at the strongest setting surveyed (search-100: 72.0 %)"
    )
    assert words[("search", 0.95)] == (
        "search-N does not reach 95 % at the strongest setting surveyed (search-100: 72.0 %)"
    )
    assert not any("at beyond" in w or "at at" in w for w in located["words"])


def test_located_claims_refuses_what_is_not_a_survey_table():
    t = synthetic()
    for data, message in (
        (5, "located_claims: data must be a survey DataFrame (bl.survey or bl.read_survey) or "
            "a data folder's path, not 5 (int)"),
        (pd.DataFrame(), "located_claims: table has no rows"),
        (pd.concat([t, t]), "located_claims: table repeats 4,400 (deal, variant, player) rows "
         "(the first: deal 1 of careful, bakers_dozen); a survey table has one row each "
         "(drop_duplicates)"),
        (t.assign(outcome=t["outcome"].where(t["deal"] != 7)),
         "located_claims: table has 11 rows with no outcome"),
        (t[t["player"].isin(["careful", "solver"])],
         "located_claims: no search-N or undo-N player in the table; players: careful, solver"),
        (t.assign(variant="good_measure"), "located_claims: no strength dial of three settings "
         "or more (careful's included) is surveyed for a claim's variant (bakers_dozen, "
         "bakers_dozen_return)"),
    ):  # fmt: skip
        with pytest.raises(ValueError) as info:
            located_claims(data)
        assert str(info.value) == message
