"""Tables for people (present.py): every cell as text, intervals joined, names in words."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.utils.present import for_people, p_text, percent, span


def test_formats():
    assert percent(0.470656) == "47.1 %" and percent(math.nan) == "—"
    assert span(0.465191, 0.476128) == "46.5–47.6 %"
    assert span(-0.0759, -0.0639, "points") == "−7.6 to −6.4 points"
    assert span(0.81, 1.25, "") == "0.81 to 1.25"
    assert [p_text(p) for p in (0.0, 2.4e-114, 0.000999, 0.001, 0.02134, 0.5)] == [
        "< 0.001", "< 0.001", "< 0.001", "0.001", "0.0213", "0.5",
    ]  # fmt: skip


def test_a_ladder_reads_in_words():
    rows = pd.DataFrame(
        {
            "deal": list(range(1, 11)) * 2,
            "variant": "bakers_dozen",
            "player": ["greedy"] * 10 + ["careful"] * 10,
            "outcome": ["won"] * 2 + ["lost"] * 8 + ["won"] * 6 + ["lost"] * 4,
        }
    )
    shown = for_people(bl.ladder(rows))
    assert list(shown.columns) == [
        "player A", "player B", "deals", "A's win rate", "B's win rate", "A minus B (points)",
        "95 % interval (points)", "deals only A won", "deals only B won", "p-value (McNemar)",
    ]  # fmt: skip
    row = shown.iloc[0]
    assert (row["player A"], row["A's win rate"], row["B's win rate"]) == (
        "greedy", "20.0 %", "60.0 %",
    )  # fmt: skip
    assert row["A minus B (points)"] == "−40.0" and row["deals only B won"] == "4"
    assert row["95 % interval (points)"].endswith(" points")
    # every cell is text, nothing printed as a raw fraction
    assert all(isinstance(v, str) for v in shown.to_numpy().ravel())


def test_refuses_what_is_not_a_table():
    with pytest.raises(ValueError, match="for_people takes a pandas DataFrame, not list"):
        for_people([1, 2])


def test_missing_cells_read_as_a_dash():
    shown = for_people(
        pd.DataFrame({"won": [pd.NA, 3], "x": [None, "a"], "n": pd.array([1, None], dtype="Int64")})
    )
    assert shown.to_dict("list") == {"won": ["—", "3"], "x": ["—", "a"], "n": ["1", "—"]}


def test_game_numbers_are_shown_as_typed():
    # the lost-games table printed game 123456789012345 as "123,456,789,012,345", which
    # PySolFC's "Select game" does not take (issue 52); counts keep their separators
    t = pd.DataFrame({"deal": [123_456_789_012_345, 4], "nodes": [200_303, 5]})
    shown = for_people(t)
    assert shown["deal"].tolist() == ["123456789012345", "4"]
    assert shown["positions searched"].tolist() == ["200,303", "5"]
