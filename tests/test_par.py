"""Par beside the winners' games: the shipped par table of Baker's Dozen 1-1,000, the
excess of every other player's wins over it, and its chart."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from chart_text import cut_texts, overlapping_texts

import bakers_lab as bl
from bakers_lab.display.plots import par_chart
from bakers_lab.study.par import excess, excess_summary, pars

DATA = Path(__file__).resolve().parent.parent / "data"
PARS = DATA / "bakers_dozen_shortest_1-1000"


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    """Deals 1-100: par, the solver and three players."""
    parts = [bl.read_survey(PARS)]
    parts += [bl.read_survey(DATA / n) for n in ("bakers_dozen_1-32000",
                                                  "bakers_dozen_players_1-32000")]  # fmt: skip
    out = pd.concat([p[p["deal"] <= 100] for p in parts], ignore_index=True)
    return out


def test_every_win_is_at_least_par_and_the_summary_counts_them(table):
    e = excess(table)
    assert (e["excess"] >= 0).all() and (e["moves"] - e["par"] == e["excess"]).all()
    proven = pars(table)["par"].notna()
    assert set(e["deal"]) <= set(pars(table).loc[proven, "deal"])
    s = excess_summary(table)
    wins = table[(table["player"] != "shortest") & (table["outcome"] == "won")]
    for player, row in s.iterrows():
        mine = wins[(wins["player"] == player) & wins["deal"].isin(e["deal"])]
        assert row["wins"] == len(mine), player
    # par is the fewest: the solver's line is never shorter, and on these deals longer
    assert s.loc["solver", "excess"] > 0


def test_a_win_below_par_means_the_tables_do_not_belong_together(table):
    bad = table.copy()
    shortest = (bad["player"] == "shortest") & (bad["deal"] == 1)
    bad.loc[shortest, "par"] = 200
    with pytest.raises(ValueError, match=r"won deal 1 in \d+ moves, fewer than its par 200"):
        excess(bad)


def test_a_table_without_par_says_what_to_run(table):
    with pytest.raises(ValueError, match="no rows of the player shortest: run a survey"):
        pars(table[table["player"] != "shortest"])
    with pytest.raises(ValueError, match="lacks the column par: a survey with --players short"):
        pars(table.drop(columns=["par"]))


def test_par_chart(table, tmp_path):
    fig = par_chart(table)
    fig.savefig(tmp_path / "par.png", dpi=80)
    left, right = fig.axes
    assert left.get_title().startswith("Par of each deal, Baker's Dozen\n100 deals")
    p = pars(table)
    proven = int(p["par"].notna().sum())
    bounded = int((p["par"].isna() & p["par_bound"].notna()).sum())
    assert proven + bounded == 99  # 64 cannot be won: it has neither
    legend = left.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()][:2] == [
        f"par proven (n = {proven})",
        f"not proven: at least (n = {bounded})",
    ]
    ticks = [t.get_text().split("  (")[0] for t in right.get_yticklabels()]
    assert ticks == ["solver", "lookahead-2", "careful", "greedy"]  # strongest first
    assert overlapping_texts(fig) == [] and cut_texts(fig) == []


def test_the_par_summaries_check_their_table_first(table):
    for call, who in ((excess_summary, "excess_summary"), (excess, "excess"), (pars, "pars")):
        with pytest.raises(ValueError) as info:
            call(table["deal"])
        assert str(info.value) == (
            f"{who}: table must be a survey DataFrame (bl.survey or bl.read_survey), not a "
            f"Series of {len(table):,} values"
        )
    doubled = pd.concat([table, table.iloc[:3]], ignore_index=True)
    with pytest.raises(ValueError) as info:
        excess_summary(doubled)
    first = table.iloc[0]
    assert str(info.value) == (
        f"excess_summary: table repeats 3 (deal, variant, player) rows (the first: deal "
        f"{first['deal']} of {first['player']}, bakers_dozen); a survey table has one row each "
        "(drop_duplicates)"
    )
    gap = table.assign(moves=table["moves"].astype("float64"))
    gap.loc[5, "moves"] = float("nan")
    with pytest.raises(ValueError) as info:
        excess_summary(gap)
    assert str(info.value) == "excess_summary: table's column moves has 1 missing value"
    with pytest.raises(ValueError) as info:
        pars(table.drop(columns=["par"]))
    assert str(info.value) == (
        "pars: table lacks the column par: a survey with --players shortest has it"
    )
