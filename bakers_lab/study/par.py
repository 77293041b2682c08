"""Par and how far above it the winners play: the shortest win of each deal
(player ``shortest`` of a survey, :func:`~bakers_lab.shortest`) beside every
other player's winning games of the same deals.

A survey with ``--players shortest`` records ``par`` (the fewest moves that
win, where A* proved it) and ``par_bound`` (a proven lower bound where it did
not).  :func:`excess` puts each other player's won game beside the par of its
deal; :func:`excess_summary` gives, per player, how many moves above par the
median win is.

>>> import pandas as pd
>>> rows = pd.DataFrame({
...     "deal": [1, 1, 2, 2], "variant": "bakers_dozen",
...     "player": ["shortest", "careful", "shortest", "careful"],
...     "outcome": ["won", "won", "won", "lost"], "moves": [67, 134, 70, 90],
...     "par": pd.array([67, None, None, None], dtype="Int64"),
...     "par_bound": pd.array([67, None, 66, None], dtype="Int64")})
>>> excess(rows)[["deal", "player", "moves", "par", "excess"]].to_dict("records")
[{'deal': 1, 'player': 'careful', 'moves': 134, 'par': 67, 'excess': 67}]
"""

from __future__ import annotations

import pandas as pd

from bakers_lab.study.tablecheck import check_survey

__all__ = ["PAR", "as_column", "excess", "excess_summary", "pars"]

#: The survey "player" whose rows are the par table, not a player.
PAR = "shortest"


def as_column(table: pd.DataFrame) -> pd.DataFrame:
    """Par as a column, never a player: ``table`` without the rows of ``shortest``
    (the par table), whose ``par`` and ``par_bound`` go onto every other row of the
    same deal and variant (missing where the par table has no row of it).  A
    table without such rows comes back as it is; ``player`` keeps its dtype (a
    categorical loses the category ``shortest``).

    >>> rows = pd.DataFrame({"deal": [1, 1], "variant": "bakers_dozen",
    ...     "player": ["shortest", "careful"], "outcome": ["won", "won"],
    ...     "par": pd.array([67, None], dtype="Int64"),
    ...     "par_bound": pd.array([67, None], dtype="Int64")})
    >>> as_column(rows)[["player", "par", "par_bound"]].to_dict("records")
    [{'player': 'careful', 'par': 67, 'par_bound': 67}]
    """
    check_survey(table, who="as_column")
    is_par = (table["player"].astype(str) == PAR).to_numpy()
    if not is_par.any():
        return table
    par = table[is_par]
    rest = table[~is_par].copy()

    def keys(t: pd.DataFrame) -> pd.MultiIndex:
        return pd.MultiIndex.from_arrays([t["variant"].astype(str), t["deal"]])

    for column in ("par", "par_bound"):
        values = (
            pd.Series(par[column].to_numpy(), index=keys(par))
            if column in par.columns
            else pd.Series(pd.NA, index=keys(par), dtype="Int64")
        )
        rest[column] = pd.array(values.reindex(keys(rest)).to_numpy(), dtype="Int64")
    if (
        isinstance(rest["player"].dtype, pd.CategoricalDtype)
        and PAR in rest["player"].cat.categories
    ):
        rest["player"] = rest["player"].cat.remove_categories([PAR])
    return rest.reset_index(drop=True)


def pars(table: pd.DataFrame) -> pd.DataFrame:
    """One row per deal with ``par`` (proven) and ``par_bound``: the rows of
    ``shortest``, or, where par is already a column (:func:`as_column`, as
    :func:`bakers_lab.study.claims.load_surveys` gives it), one row of each deal that
    has a par or a bound; a ValueError when there are none."""
    check_survey(table, who="pars")
    return _pars(table, "pars")


def _pars(table: pd.DataFrame, who: str) -> pd.DataFrame:
    missing = [c for c in ("par", "par_bound") if c not in table.columns]
    if missing:
        raise ValueError(
            f"{who}: table lacks the column {missing[0]}: a survey with --players shortest has it"
        )
    rows = table[table["player"].astype(str) == PAR]
    if rows.empty:  # par as a column
        known = table[table["par"].notna() | table["par_bound"].notna()]
        rows = known.drop_duplicates(["deal", "variant"])
    if rows.empty:
        raise ValueError(
            f"{who}: table has no rows of the player shortest: run a survey with --players "
            "...,shortest (or pass it beside one)"
        )
    return rows


def excess(table: pd.DataFrame) -> pd.DataFrame:
    """Every won game of a player other than ``shortest`` on a deal whose par is
    proven: ``deal``, ``variant``, ``player``, ``moves``, ``par`` and
    ``excess`` (moves above par; never negative, as par is the fewest)."""
    check_survey(table, who="excess", numbers=("moves",))
    return _excess(table, "excess")


def _excess(table: pd.DataFrame, who: str) -> pd.DataFrame:
    par = _pars(table, who)
    proven = par[par["par"].notna()][["deal", "variant", "par"]].astype({"variant": str})
    others = table[
        (table["player"].astype(str) != "shortest") & (table["outcome"].astype(str) == "won")
    ][["deal", "variant", "player", "moves"]].astype({"variant": str, "player": str})
    out = others.merge(proven, on=["deal", "variant"], how="inner")
    out["par"] = out["par"].astype(int)
    out["excess"] = out["moves"].astype(int) - out["par"]
    if (out["excess"] < 0).any():
        bad = out[out["excess"] < 0].iloc[0]
        raise ValueError(
            f"{bad['player']} won deal {bad['deal']} in {bad['moves']} moves, fewer than "
            f"its par {bad['par']}: the tables do not belong together"
        )
    return out.reset_index(drop=True)


def excess_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per player (rows), over the won games on deals with a proven par: ``wins``,
    the median ``moves`` and ``par``, the median ``excess`` and ``excess_pct``
    (moves above par as a share of par), and ``at_par``, the share won in par."""
    check_survey(table, who="excess_summary", numbers=("moves",))
    e = _excess(table, "excess_summary")
    g = e.assign(pct=100 * e["excess"] / e["par"]).groupby("player")
    return pd.DataFrame(
        {
            "wins": g.size(),
            "moves": g["moves"].median(),
            "par": g["par"].median(),
            "excess": g["excess"].median(),
            "excess_pct": g["pct"].median(),
            "at_par": g["excess"].apply(lambda s: float((s == 0).mean())),
        }
    ).sort_values("excess")
