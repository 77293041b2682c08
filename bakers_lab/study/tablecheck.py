"""Checking a survey table at the public edge, as :mod:`.validate` checks scalars.

Every study function (win rates, the ladder, loss models, skill curves, effort,
located claims, ratings, par) takes a survey table: one row per (deal, variant,
player), as :func:`bakers_lab.study.survey` and :func:`bakers_lab.read_survey` make it.
:func:`check_survey` is the one check they call before any work: it names the
first thing wrong in one line, in the same words everywhere, and never prints
the table (or a Series, or a pyarrow message) into the message.

>>> import pandas as pd
>>> t = pd.DataFrame({"deal": [1, 2], "variant": "bakers_dozen", "player": "careful",
...                   "outcome": ["won", "lost"]})
>>> check_survey(t, who="win_rates")
>>> check_survey(t["deal"], who="win_rates")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: win_rates: table must be a survey DataFrame (...), not a Series of 2 values
>>> check_survey(pd.concat([t, t]), who="win_rates")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: win_rates: table repeats 2 (deal, variant, player) rows (the first: deal 1 ...
>>> check_survey(t, who="skill_curve", dial="search")
Traceback (most recent call last):
...
ValueError: skill_curve: no search-N player in the table; players: careful
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd

from bakers_lab.utils.validate import describe, is_bool, shown

__all__ = ["NEEDED", "OUTCOMES", "check_survey", "dial_setting", "kind_of", "listed"]

#: The columns every survey table has (DESIGN.md's schema lists the rest).
NEEDED = ("deal", "variant", "player", "outcome")
#: A row's outcome: for a player, how the game ended; for the solver, won = solvable.
OUTCOMES = ("won", "lost", "unresolved")
#: A dial player's name: ``search-N`` or ``undo-N``, N without a leading zero.
_DIAL = re.compile(r"(search|undo)-(0|[1-9][0-9]*)", re.ASCII)


def dial_setting(player: object) -> tuple[str, int] | None:
    """``(family, N)`` of a dial player's name, ``search-N`` or ``undo-N`` with N in
    the dial's range (:data:`bakers_lab.solve.players.DIALS`) and written without a
    leading zero, as :class:`~bakers_lab.Player` names it; None for any other name.

    >>> dial_setting("search-300"), dial_setting("undo-0")
    (('search', 300), ('undo', 0))
    >>> dial_setting("search-0"), dial_setting("search-05"), dial_setting("search-abc")
    (None, None, None)
    """
    from bakers_lab.solve.players import DIALS

    m = _DIAL.fullmatch(player) if isinstance(player, str) else None
    if m is None or len(m.group(2)) > 7:
        return None
    low, high, _ = DIALS[m.group(1)]
    n = int(m.group(2))
    return (m.group(1), n) if low <= n <= high else None


def _dial_words(family: str) -> str:
    """What a name of ``family``'s dial is, in words (for a message)."""
    from bakers_lab.solve.players import DIALS

    low, high, what = DIALS[family]
    return (
        f"a {family}-N player has N from {low} to {high:,} ({what}), written without "
        f"leading zeros, like {family}-300"
    )


def _check_dial(
    who: str, present: Sequence[str], dials: Sequence[str], error: type[Exception]
) -> None:
    """Refuse names that look like a setting of ``dials`` but are not one, then a
    table without any player of ``dials``."""
    _check_dial_names(who, present, dials, error)
    if not any(s is not None and s[0] in dials for s in map(dial_setting, present)):
        wanted = " or ".join(f"{d}-N" for d in dials)
        raise error(f"{who}: no {wanted} player in the table; players: {listed(present)}")


def _check_dial_names(
    who: str, present: Sequence[str], dials: Sequence[str], error: type[Exception]
) -> None:
    """Refuse names that look like a setting of ``dials`` but are not one."""
    for family in dials:
        odd = [p for p in present if p.startswith(f"{family}-") and dial_setting(p) is None]
        if odd:
            which = (
                f"the player {listed(odd)} is"
                if len(odd) == 1
                else f"the players {listed(odd, 3)} are"
            )
            raise error(f"{who}: {which} not a setting of the {family} dial; {_dial_words(family)}")


def _check_numbers(
    head: str, table: pd.DataFrame, names: Sequence[str], what: str, error: type[Exception]
) -> None:
    """Refuse a column of ``names`` that is not stored as numbers or has a gap."""
    for f in names:
        col = table[f]
        if not (pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col)):
            stored = (
                "text" if col.dtype == object or pd.api.types.is_string_dtype(col) else col.dtype
            )
            raise error(f"{head}'s {what} {f} is stored as {stored}, not as numbers")
        gaps = int(col.isna().sum())
        if gaps:
            raise error(f"{head}'s {what} {f} has {gaps:,} missing value{'s' * (gaps > 1)}")


def kind_of(value: object) -> str:
    """What a value is, in a few words that never print a table's contents.

    >>> kind_of(pd.Series([1, 2, 3]))
    'a Series of 3 values'
    >>> kind_of({"deal": [1]})
    'a dict (dict)'
    >>> kind_of(pd.DataFrame())
    'an empty DataFrame'
    """
    if isinstance(value, pd.DataFrame) and value.empty:
        return "an empty DataFrame"
    if isinstance(value, dict):
        return "a dict (dict)"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value):,} items"
    return describe(value)  # a DataFrame, Series or array by its size, never its contents


def listed(names: Sequence[str], most: int = 12) -> str:
    """Names for a message: the first ``most`` of them, and how many more there are."""
    more = f" and {len(names) - most:,} more" if len(names) > most else ""
    return ", ".join(shown(n, 40) for n in names[:most]) + more


def _rows(n: int, what: str) -> str:
    return f"{n:,} row{'s' if n != 1 else ''} {what}"


def _strings(column: pd.Series) -> pd.Series:
    """Which values of ``column`` are non-empty strings."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        cats = column.cat.categories
        good = cats.map(lambda v: isinstance(v, str) and v != "")
        ok = np.asarray(good, dtype=bool)
        codes = column.cat.codes.to_numpy()
        return pd.Series(np.where(codes >= 0, ok[np.maximum(codes, 0)], False), index=column.index)
    if _text_dtype(column.dtype):
        return (column.notna() & (column != "")).fillna(False).astype(bool)
    if pd.api.types.infer_dtype(column, skipna=False) == "string":  # all str: a fast path
        return column != ""
    return column.map(lambda v: isinstance(v, str) and v != "")


def _text_dtype(dtype: object) -> bool:
    """``dtype`` is one of pandas' text types (``str``, ``string``), not ``object``."""
    return pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype)


def _integers(column: pd.Series) -> pd.Series:
    """Which values of ``column`` are integers (never bools, floats or strings)."""
    if pd.api.types.is_integer_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
        return pd.Series(True, index=column.index)
    if pd.api.types.infer_dtype(column, skipna=False) == "integer":  # Python ints: fast path
        return pd.Series(True, index=column.index)
    return column.map(lambda v: isinstance(v, (int, np.integer)) and not is_bool(v))


def check_survey(
    table: object,
    *,
    who: str,
    columns: Sequence[str] = (),
    features: Sequence[str] = (),
    numbers: Sequence[str] = (),
    players: Collection[str] = (),
    dial: str | Sequence[str] | None = None,
    dial_names: Sequence[str] = (),
    min_players: int = 0,
    error: type[Exception] = ValueError,
) -> None:
    """Refuse ``table`` unless it is a survey table ``who`` (the function's name,
    first word of every message) can use.

    Checked in this order, the first thing wrong named in one line: a pandas
    DataFrame with rows; the columns of :data:`NEEDED` and ``columns``; deal
    numbers that are integers; players and variants that are non-missing
    strings; outcomes from :data:`OUTCOMES`; no (deal, variant, player) twice;
    ``features`` (and the other columns ``numbers``) stored as numbers with no
    missing value; every player of ``players`` present; with ``dial`` (``search``
    or ``undo``, or both), no player named like a setting of it that is not one
    (``search-05``, ``search-0``: :func:`dial_setting`) and a player of it
    present; with ``dial_names`` (dial families), only the first of those two;
    at least ``min_players`` players.  Raises ``error``
    (``ValueError`` unless a module's own error class is given).
    """
    head = f"{who}: table"
    if not isinstance(table, pd.DataFrame):
        raise error(
            f"{head} must be a survey DataFrame (bl.survey or bl.read_survey), not {kind_of(table)}"
        )
    if table.empty:
        raise error(f"{head} has no rows")
    need = list(dict.fromkeys([*NEEDED, *columns, *features, *numbers]))
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise error(
            f"{head} lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
            f"a survey table (bl.survey or bl.read_survey) has {', '.join(NEEDED)}, ..."
        )
    deal = table["deal"]
    bad = ~_integers(deal).to_numpy(dtype=bool)
    if bad.any():
        first = deal[bad].iloc[0]
        first = first.item() if isinstance(first, np.generic) else first
        raise error(
            f"{head} has {_rows(int(bad.sum()), 'whose deal is not an integer')} "
            f"(the first: {describe(first)}); deal numbers are integers"
        )
    for name in ("player", "variant"):
        bad = ~_strings(table[name]).to_numpy(dtype=bool)
        if bad.any():
            raise error(f"{head} has {_rows(int(bad.sum()), f'with no {name}')}")
    outcome = table["outcome"]
    if not isinstance(outcome.dtype, pd.CategoricalDtype) and not _text_dtype(outcome.dtype):
        outcome = outcome.astype(object)  # (a category or text is checked as it is: faster)
    missing_outcome = outcome.isna().to_numpy()
    if missing_outcome.any():
        raise error(f"{head} has {_rows(int(missing_outcome.sum()), 'with no outcome')}")
    wrong = ~outcome.isin(OUTCOMES).to_numpy()
    if wrong.any():
        raise error(
            f"{head} has {_rows(int(wrong.sum()), 'with another outcome')} (the first: "
            f"{describe(outcome[wrong].iloc[0])}); every outcome is won, lost or unresolved"
        )
    twice = table.duplicated(["deal", "variant", "player"]).to_numpy()
    if twice.any():
        n = int(twice.sum())
        row = table[twice].iloc[0]
        deal_text = shown(str(row["deal"]), 40)
        raise error(
            f"{head} repeats {n:,} (deal, variant, player) row{'s' * (n != 1)} (the first: deal "
            f"{deal_text} of {shown(str(row['player']), 40)}, {shown(str(row['variant']), 40)}); "
            "a survey table has one row each (drop_duplicates)"
        )
    _check_numbers(head, table, features, "feature", error)
    _check_numbers(head, table, numbers, "column", error)
    present = sorted({str(p) for p in table["player"].unique()})
    absent = [p for p in players if p not in present]
    if absent:
        raise error(f"{head} has no {', '.join(absent)} rows; players: {listed(present)}")
    if dial is not None:
        _check_dial(who, present, (dial,) if isinstance(dial, str) else tuple(dial), error)
    _check_dial_names(who, present, dial_names, error)
    if len(present) < min_players:
        raise error(
            f"{head} has {len(present)} player{'s' * (len(present) != 1)} "
            f"({listed(present)}); {who} needs at least {min_players}"
        )
