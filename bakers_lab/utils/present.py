"""The library's tables for people: percentages with one decimal, intervals as
"46.5–47.6 %", p-values as "< 0.001" or three figures, counts with thousands
separators, and column names in words.  The tables the functions return keep their
raw numbers (for computing); :func:`for_people` is for showing them.

>>> import pandas as pd
>>> rates = pd.DataFrame({"player": ["careful"], "deals": [32000], "won": [15061],
...     "lost": [16939], "unresolved": [0], "rate": [0.470656], "ci_low": [0.465191],
...     "ci_high": [0.476128]})
>>> for_people(rates).iloc[0].tolist()
['careful', '32,000', '15,061', '16,939', '0', '47.1 %', '46.5–47.6 %']
>>> list(for_people(rates).columns)
['player', 'deals', 'won', 'lost', 'unresolved', 'win rate', '95 % interval']
>>> p_text(2.4e-114), p_text(0.0213), p_text(float("nan"))
('< 0.001', '0.0213', '—')
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from pandas.io.formats.style import Styler

__all__ = [
    "COLUMN_WORDS",
    "GAME_NUMBER_COLUMNS",
    "fixed",
    "for_people",
    "p_text",
    "percent",
    "span",
    "styled",
]

#: Column names in words (a column not named here keeps its name).
COLUMN_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "rate": "win rate",
        "a": "player A",
        "b": "player B",
        "a_rate": "A's win rate",
        "b_rate": "B's win rate",
        "diff": "A minus B (points)",
        "a_only": "deals only A won",
        "b_only": "deals only B won",
        "p_value": "p-value (McNemar)",
        "nodes": "positions searched",
        "nodes_expanded": "nodes expanded",
        "nodes_generated": "nodes generated",
        "max_frontier": "largest frontier",
        "share_solved": "share solved",
        "optimal": "shortest solutions",
        "share_optimal": "share shortest",
        "median_length": "median length (moves)",
        "median_nodes_expanded": "median nodes expanded",
        "median_nodes_generated": "median nodes generated",
        "median_max_frontier": "median largest frontier",
        "median_seconds": "median seconds",
        "extra": "moves beyond the shortest",
        "auc_drop": "AUC lost when the group is shuffled",
        "group": "family of features",
        "measure": "its feature in the straight line",
        "odds_ratio": "odds of losing, per SD more",
        "p_value_wald": "p-value (Wald, odds of 1)",
        "odds_span": "95 % interval (odds)",
        "drop_span": "95 % interval (AUC lost)",
        "median_moves": "median moves",
        "median_par": "median par",
        "median_excess": "median moves above par",
        "median_excess_pct": "median % above par",
        "at_par": "won in par",
        "low_value": "lowest value",
        "high_value": "highest value",
        "search_effort": "smallest search-N that wins",
        "undo_effort": "smallest undo-N that wins",
        "ended": "how it ended",
        "lower_bound": "no win shorter than (moves)",
        "length": "length (moves)",
        "budget": "budget (positions)",
    }
)
#: Pairs of interval columns, each shown as one column "low–high", and its name.
_SPANS = (
    ("ci_low", "ci_high", "95 % interval", "%"),
    ("diff_low", "diff_high", "95 % interval (points)", "points"),
    ("low", "high", "95 % interval", ""),
    ("odds_low", "odds_high", "95 % interval (odds)", ""),
    ("drop_low", "drop_high", "95 % interval (AUC lost)", ""),
)
_PERCENT = ("rate", "a_rate", "b_rate", "share_solved", "share_optimal", "at_par")
_POINTS = ("diff",)


def counted(n: int, word: str) -> str:
    """``n`` with thousands separators and ``word``, plural unless ``n`` is 1.

    >>> counted(1, "node"), counted(3321, "node"), counted(0, "move")
    ('1 node', '3,321 nodes', '0 moves')
    """
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def percent(x: object) -> str:
    """A fraction as a percentage with one decimal: ``0.4707`` → ``'47.1 %'``."""
    v = float(x)  # type: ignore[arg-type]
    return "—" if math.isnan(v) else f"{100 * v:.1f} %"


def span(low: object, high: object, unit: str = "%") -> str:
    """An interval of fractions: ``'46.5–47.6 %'``; ``unit="points"``: a difference
    in percentage points, ``'−7.6 to −6.4 points'``; ``unit=""``: the numbers as
    they are, three figures."""
    lo, hi = float(low), float(high)  # type: ignore[arg-type]
    if math.isnan(lo) or math.isnan(hi):
        return "—"
    if unit == "%":
        return f"{100 * lo:.1f}–{100 * hi:.1f} %"
    if unit == "points":
        return f"{_signed(100 * lo)} to {_signed(100 * hi)} points"
    return f"{lo:.3g} to {hi:.3g}"


def p_text(p: object) -> str:
    """A p-value for people: ``'< 0.001'`` below a thousandth, else three figures."""
    v = float(p)  # type: ignore[arg-type]
    if math.isnan(v):
        return "—"
    return "< 0.001" if v < 0.001 else f"{v:.3g}"


def fixed(v: float, places: int, *, sign: bool = False) -> str:
    """``v`` with ``places`` decimals, minus as a minus sign, and never a signed zero
    (``−0.0004`` rounds to ``'0.000'``); ``sign``: ``+`` before a positive number.

    >>> fixed(-0.0004, 3), fixed(-0.25, 2), fixed(0.04, 1, sign=True), fixed(float("nan"), 2)
    ('0.000', '−0.25', '+0.0', '—')
    """
    if math.isnan(v):
        return "—"
    text = f"{v:{'+' if sign else ''}.{places}f}"
    if text.lstrip("+-").strip("0.") == "":  # it rounds to zero: no sign but a plus
        text = text.lstrip("+-")
        return ("+" if sign else "") + text
    return text.replace("-", "−")


def _signed(v: float) -> str:
    return fixed(v, 1, sign=True)


#: Columns of game numbers: shown as PySolFC's "Select game" takes them, digits only
#: (123456789012345, never 123,456,789,012,345).
GAME_NUMBER_COLUMNS = frozenset({"deal", "game", "game_number"})


def _count(v: object) -> str:
    if _missing(v):
        return "—"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) or (hasattr(v, "is_integer") and float(v).is_integer()):  # type: ignore[arg-type]
        return f"{int(v):,}"  # type: ignore[call-overload]
    x = float(v)  # type: ignore[arg-type]
    # three figures, but never "3.21e+03": a median of counts such as 3,210.5 reads whole
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def _missing(v: object) -> bool:
    import pandas as pd  # here, not at the top: the solver's words need no pandas

    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def for_people(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` (a win-rate table, a ladder, a comparison …) with every
    cell as text a person reads, intervals joined, columns named in words."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"for_people takes a pandas DataFrame, not {type(table).__name__}")
    out = pd.DataFrame(index=table.index)
    joined = {c for lo, hi, _, _ in _SPANS if lo in table and hi in table for c in (lo, hi)}
    for col in table.columns:
        name = str(col)
        values = table[col]
        if name in joined:
            for lo, hi, words, unit in _SPANS:
                if name == lo:
                    out[words] = [
                        span(a, b, unit) for a, b in zip(table[lo], table[hi], strict=True)
                    ]
            continue
        if name in GAME_NUMBER_COLUMNS:  # as a person types it into PySolFC: no commas
            out[COLUMN_WORDS.get(name, name)] = [
                "—" if _missing(v) else str(int(v)) for v in values
            ]
        elif name in _PERCENT:
            out[COLUMN_WORDS.get(name, name)] = [percent(v) for v in values]
        elif name in _POINTS:
            out[COLUMN_WORDS[name]] = [
                "—" if math.isnan(float(v)) else _signed(100 * float(v)) for v in values
            ]
        elif name.startswith("p_value"):
            out[COLUMN_WORDS.get(name, name)] = [p_text(v) for v in values]
        elif pd.api.types.is_bool_dtype(values):
            out[COLUMN_WORDS.get(name, name)] = ["yes" if v else "no" for v in values]
        elif pd.api.types.is_numeric_dtype(values):
            out[COLUMN_WORDS.get(name, name)] = [_count(v) for v in values]
        else:
            out[COLUMN_WORDS.get(name, name)] = ["—" if _missing(v) else str(v) for v in values]
    return out.reset_index(drop=True)


#: A cell that reads as a number (a count, a percentage, an interval, a p-value).
_NUMBER_LIKE = re.compile(r"[-+<>−–—0-9., %]*[0-9—][-+<>−–—0-9., %a-z]*")


def styled(table: pd.DataFrame) -> Styler:
    """``table`` as a notebook shows it to a reader: no index, the headers and
    text left-aligned, columns of numbers (as :func:`for_people` writes them)
    right-aligned, and long text wrapping within the notebook's width instead
    of running off its right edge.

    >>> import pandas as pd
    >>> t = for_people(pd.DataFrame({"player": ["careful"], "rate": [0.47]}))
    >>> "text-align: right" in styled(t).to_html()
    True
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"styled takes a pandas DataFrame, not {type(table).__name__}")
    numbers = [
        c
        for c in table.columns
        if len(table) and all(_NUMBER_LIKE.fullmatch(str(v)) for v in table[c])
    ]
    # a gap between columns wherever the table is shown (JupyterLab pads its tables,
    # the app's page does not: "1" right-aligned beside "medium" read "1 medium")
    gap = "padding: 3px 8px"
    style = table.style.hide(axis="index").set_properties(
        **{"text-align": "left", "white-space": "normal", "vertical-align": "top"}
    )
    style = style.set_table_styles(
        [
            {"selector": "th", "props": f"text-align: left; {gap}; vertical-align: bottom"},
            {"selector": "td", "props": gap},
        ]
    )
    if numbers:
        style = style.set_properties(subset=numbers, **{"text-align": "right"})
        style = style.set_table_styles(
            {c: [{"selector": "th", "props": "text-align: right"}] for c in numbers},
            overwrite=False,
        )  # the numbers' headers over them, right-aligned
    return style
