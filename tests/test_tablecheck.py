"""The one check of a survey table (bakers_lab/study/tablecheck.py): each mistake named in
one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bakers_lab.study.tablecheck import check_survey


def _table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "deal": [1, 2, 1, 2],
            "variant": "bakers_dozen",
            "player": ["careful", "careful", "search-10", "search-10"],
            "outcome": pd.Categorical(["won", "lost", "won", "won"]),
            "f_depth_aces": np.array([3, 4, 5, 6], dtype=np.int16),
        }
    )


def _with(column: str, values: list[object]) -> pd.DataFrame:
    t = _table()
    t[column] = values
    return t


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (pd.DataFrame(), "f: table has no rows"),
        (
            _table()["deal"],
            "f: table must be a survey DataFrame (bl.survey or bl.read_survey), "
            "not a Series of 4 values",
        ),
        (
            {"deal": [1]},
            "f: table must be a survey DataFrame (bl.survey or bl.read_survey), not a dict (dict)",
        ),
        (
            [1, 2],
            "f: table must be a survey DataFrame (bl.survey or bl.read_survey), "
            "not a list of 2 items",
        ),
        (
            "table",
            "f: table must be a survey DataFrame (bl.survey or bl.read_survey), not 'table' (str)",
        ),
        (
            _table().drop(columns="variant"),
            "f: table lacks the column variant; a survey table "
            "(bl.survey or bl.read_survey) has deal, variant, player, outcome, ...",
        ),
        (
            _with("deal", [1.0, 2.0, 1.0, 2.0]),
            "f: table has 4 rows whose deal is not an integer "
            "(the first: 1.0 (float)); deal numbers are integers",
        ),
        (
            _with("deal", ["1", 2, 1, 2]),
            "f: table has 1 row whose deal is not an integer "
            "(the first: '1' (str)); deal numbers are integers",
        ),
        (_with("player", [None, "careful", np.nan, "x"]), "f: table has 2 rows with no player"),
        (_with("variant", ["bakers_dozen", None, "a", "b"]), "f: table has 1 row with no variant"),
        (_with("outcome", ["won", np.nan, "won", "lost"]), "f: table has 1 row with no outcome"),
        (
            _with("outcome", ["won", "solved", "won", "lost"]),
            "f: table has 1 row with another "
            "outcome (the first: 'solved' (str)); every outcome is won, lost or unresolved",
        ),
        (
            pd.concat([_table()] * 3),
            "f: table repeats 8 (deal, variant, player) rows (the first: deal 1 of careful, "
            "bakers_dozen); a survey table has one row each (drop_duplicates)",
        ),
    ],
)
def test_each_mistake_is_named_in_one_line(table, message):
    with pytest.raises(ValueError) as e:
        check_survey(table, who="f")
    assert str(e.value) == message


@pytest.mark.parametrize("dtype", [object, "string", "category"])
def test_an_outcome_is_named_the_same_whatever_its_column_type(dtype):
    # (a categorical and a text column are checked as they are, an object one value by value)
    for values, message in (
        (["won", np.nan, "won", "lost"], "f: table has 1 row with no outcome"),
        (
            ["won", "solved", "won", "solved"],
            "f: table has 2 rows with another outcome (the first: 'solved' (str)); every "
            "outcome is won, lost or unresolved",
        ),
    ):
        table = _with("outcome", pd.Series(values).astype(dtype).tolist())
        table["outcome"] = table["outcome"].astype(dtype)
        assert table["outcome"].dtype == pd.Series(values).astype(dtype).dtype
        with pytest.raises(ValueError) as e:
            check_survey(table, who="f")
        assert str(e.value) == message


def test_features_players_and_dials():
    t = _table()
    check_survey(t, who="f", features=["f_depth_aces"], players=["careful"], dial="search")
    with pytest.raises(
        ValueError,
        match=r"^f: table's feature f_depth_aces is stored as text, "
        "not as numbers$",
    ):
        check_survey(
            _with("f_depth_aces", ["3", "4", "5", "6"]), who="f", features=["f_depth_aces"]
        )
    with pytest.raises(ValueError, match=r"^f: table's feature f_depth_aces has 1 missing value$"):
        check_survey(_with("f_depth_aces", [3, np.nan, 5, 6]), who="f", features=["f_depth_aces"])
    with pytest.raises(
        ValueError, match=r"^f: table has no solver rows; players: careful, search-10$"
    ):
        check_survey(t, who="f", players=["solver"])
    with pytest.raises(ValueError, match=r"^f: no undo-N player in the table; players: careful, "):
        check_survey(t, who="f", dial="undo")
    with pytest.raises(
        ValueError,
        match=r"^ladder: table has 1 player \(careful\); ladder needs "
        "at least 2$",
    ):
        check_survey(t[t.player == "careful"], who="ladder", min_players=2)


def test_a_twenty_digit_deal_number_is_an_integer():
    t = _table()
    t["deal"] = pd.Series([12345678901234567890, 2, 12345678901234567890, 2], dtype=object)
    check_survey(t, who="f")


def test_names_that_only_look_like_a_dial_setting_are_named():
    words = (
        "a search-N player has N from 1 to 1,000,000 (positions it considers before each "
        "move), written without leading zeros, like search-300"
    )
    for names, which in (
        (["search-05"], "the player search-05 is"),
        (["search-0", "search-abc"], "the players search-0, search-abc are"),
        (["search-1000001"], "the player search-1000001 is"),
    ):
        t = _table()
        t["player"] = [*names, "careful", "careful", "careful"][:4]
        with pytest.raises(ValueError) as e:
            check_survey(t.drop_duplicates(["deal", "player"]), who="f", dial="search")
        assert str(e.value) == f"f: {which} not a setting of the search dial; {words}"
    check_survey(_table().replace("search-10", "undo-0"), who="f", dial="undo")
    t = _table().replace("search-10", "greedy")
    with pytest.raises(ValueError) as e:
        check_survey(t, who="f", dial=("search", "undo"))
    assert str(e.value) == "f: no search-N or undo-N player in the table; players: careful, greedy"


def test_other_number_columns_and_a_single_repeated_row():
    t = _table().assign(nodes=[1.0, np.nan, 3.0, 4.0])
    with pytest.raises(ValueError) as e:
        check_survey(t, who="f", numbers=["nodes"])
    assert str(e.value) == "f: table's column nodes has 1 missing value"
    with pytest.raises(ValueError) as e:
        check_survey(_table(), who="f", numbers=["nodes"])
    assert str(e.value) == (
        "f: table lacks the column nodes; a survey table (bl.survey or bl.read_survey) has "
        "deal, variant, player, outcome, ..."
    )
    with pytest.raises(ValueError) as e:
        check_survey(pd.concat([_table(), _table().iloc[2:3]]), who="f")
    assert str(e.value) == (
        "f: table repeats 1 (deal, variant, player) row (the first: deal 1 of search-10, "
        "bakers_dozen); a survey table has one row each (drop_duplicates)"
    )


def test_a_bool_among_deal_numbers_and_an_empty_player_name_are_named():
    with pytest.raises(ValueError) as e:
        check_survey(_with("deal", pd.Series([True, 2, 1, 2], dtype=object)), who="f")
    assert str(e.value) == (
        "f: table has 1 row whose deal is not an integer (the first: True (bool)); deal "
        "numbers are integers"
    )
    t = _table()
    t["player"] = pd.array(["careful", "", "search-10", "search-10"], dtype="string")
    with pytest.raises(ValueError) as e:
        check_survey(t, who="f")
    assert str(e.value) == "f: table has 1 row with no player"
