"""Which rows and columns of a survey table a function works on: one variant's rows,
a value chosen from a column, the deal features asked for.  Each refuses what the
table does not hold in one line that lists what it does.

>>> import pandas as pd
>>> t = pd.DataFrame({"variant": ["bakers_dozen"], "player": ["solver"], "f_x": [1.0]})
>>> choose(t, "variant", None)
'bakers_dozen'
>>> choose(t, "player", "careful")
Traceback (most recent call last):
...
ValueError: unknown player 'careful'; the table holds: solver
>>> feature_names(t)
['f_x']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from bakers_lab.study.tablecheck import check_survey, listed
from bakers_lab.utils.validate import describe

__all__ = [
    "check_feature",
    "checked_features",
    "choose",
    "column_values",
    "feature_names",
    "variant_rows",
]


def column_values(table: pd.DataFrame, column: str) -> list[str]:
    """The distinct values of ``column`` that occur in ``table``, as sorted strings."""
    return sorted({str(v) for v in pd.unique(table[column])})


def choose(table: pd.DataFrame, column: str, value: object, where: str = "") -> str:
    """``value`` checked against the table's ``column``; ``None``: the only value there is."""
    names = column_values(table, column)
    if value is None:
        if len(names) == 1:
            return names[0]
        if not names:
            raise ValueError(f"the table has no rows{where}")
        raise ValueError(
            f"the table holds {len(names)} {column}s{where} ({', '.join(names)}); "
            f"pass {column}= one of them"
        )
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"unknown {column} {value!r}{where}; the table holds: {', '.join(names)}")
    return value


def variant_rows(
    table: pd.DataFrame, variant: object, who: str | None, **checks: Any
) -> tuple[pd.DataFrame, str]:
    """The rows of one variant (``None``: the table's only variant) and its name, once
    :func:`~bakers_lab.study.tablecheck.check_survey` has checked ``table`` for ``who`` (with
    ``checks``, its other arguments; ``who=None``: the caller checked it already)."""
    if who is not None:
        check_survey(table, who=who, **checks)
    name = choose(table, "variant", variant)
    return table[table["variant"].astype(str) == name], name


def feature_names(table: pd.DataFrame) -> list[str]:
    """The names of the table's deal-feature columns (``f_*``), in the table's order."""
    return [str(c) for c in table.columns if str(c).startswith("f_")]


def check_feature(table: pd.DataFrame, feature: object) -> str:
    """``feature`` if it names one of the table's ``f_*`` columns; else one line listing them."""
    names = feature_names(table)
    if not isinstance(feature, str) or feature not in names:
        allowed = listed(names, 8) if names else "none: the table has no f_* columns"
        raise ValueError(f"unknown feature {describe(feature)}; the table's features: {allowed}")
    return feature


def checked_features(
    table: object, who: str, features: Sequence[object], **checks: Any
) -> list[str]:
    """``features`` as the names of ``table``'s ``f_*`` columns, once ``table`` is
    checked for ``who`` (:func:`~bakers_lab.study.tablecheck.check_survey` with ``checks``:
    those columns stored as numbers, with no missing value); an unknown name is
    refused."""
    known = (
        [f for f in features if isinstance(f, str) and f in table.columns]
        if isinstance(table, pd.DataFrame)
        else []
    )
    check_survey(table, who=who, features=list(dict.fromkeys(known)), **checks)
    assert isinstance(table, pd.DataFrame)
    return [check_feature(table, f) for f in features]
