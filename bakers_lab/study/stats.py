"""Win rates with confidence intervals, paired comparisons, the straight line of the
loss model.

Every function reads a survey table (one row per (deal, variant, player), see
:mod:`bakers_lab.study.survey`) and returns a tidy DataFrame: one row per thing
estimated, with the estimate, its interval and the number of deals behind it.
Intervals are 95 % unless said otherwise.  Unresolved rows (the solver ran out
of budget) are never guessed: they are left out, and each docstring says so.

>>> lo, hi = wilson_interval(75, 100)
>>> round(lo, 3), round(hi, 3)
(0.657, 0.825)

**What the tests assume.**  The deals of a survey are treated as independent
draws from the deals of a variant (PySolFC numbers index pseudo-random
shuffles).  Two players (or two variants) compared on the *same* deals are
paired: a deal that is easy for one is easy for the other, so the comparison
uses only how often they *disagree* (McNemar), which is far more sensitive than
comparing two independent rates.  statsmodels is imported inside the functions
that need it, so that ``import bakers_lab`` stays fast.
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from bakers_lab.study.rows import checked_features, choose, column_values, variant_rows
from bakers_lab.study.tablecheck import check_survey
from bakers_lab.utils.validate import as_int, describe, is_bool, shown_int

__all__ = [
    "PAIRED_COLUMNS",
    "LossModel",
    "ablation",
    "hardest_deals",
    "held_out_split",
    "ladder",
    "logistic_model",
    "paired_comparison",
    "player_order",
    "rate_by_decile",
    "wilson_interval",
    "win_rates",
]

#: z for a two-sided 95 % interval.
_Z95 = 1.959963984540054
#: Columns of :func:`paired_comparison`, :func:`ladder` (and :func:`ablation`, after ``tip``).
PAIRED_COLUMNS = (
    "a",
    "b",
    "deals",
    "a_rate",
    "b_rate",
    "diff",
    "diff_low",
    "diff_high",
    "a_only",
    "b_only",
    "p_value",
)
_DECILE_COLUMNS = (
    "feature",
    "player",
    "bin",
    "low_value",
    "high_value",
    "deals",
    "won",
    "rate",
    "ci_low",
    "ci_high",
)


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95 % by default).

    Well behaved at 0 and at ``trials``, unlike the normal approximation.
    ``trials == 0`` gives ``(0.0, 1.0)``: nothing is known.
    """
    trials = as_int(trials, "trials", low=0)
    successes = as_int(successes, "successes", low=0)
    if successes > trials:
        raise ValueError(
            f"successes must be an integer from 0 to trials ({shown_int(trials)}), "
            f"not {shown_int(successes)}"
        )
    if is_bool(z) or not isinstance(z, int | float) or not 0 < z < math.inf:
        raise ValueError(f"z must be a positive number (1.96 for 95 %), not {describe(z)}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials  # int / int: exact to a float however large they are
    inv = 1 / trials
    z2 = float(z) * float(z)
    centre = (p + z2 * inv / 2) / (1 + z2 * inv)
    half = z * math.sqrt(p * (1 - p) * inv + z2 * inv * inv / 4) / (1 + z2 * inv)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Win rate per (variant, player) of a survey table, over the resolved deals;
    each variant's players weakest first (:func:`player_order`).

    Columns: ``deals``, ``won``, ``lost``, ``unresolved``, ``rate`` (won /
    (won + lost)), ``ci_low``, ``ci_high`` (95 % Wilson interval of the rate).
    For the solver, *won* means solvable.  Unresolved deals are counted, not
    guessed: if all of them were losses the rate would be ``won / deals``.
    """
    check_survey(table, who="win_rates")
    rows = []
    for (variant, player), g in table.groupby(["variant", "player"], observed=True, sort=True):
        counts = g["outcome"].astype(str).value_counts()
        won, lost = int(counts.get("won", 0)), int(counts.get("lost", 0))
        unresolved = int(counts.get("unresolved", 0))
        resolved = won + lost
        lo, hi = wilson_interval(won, resolved)
        rows.append(
            {
                "variant": str(variant),
                "player": str(player),
                "deals": len(g),
                "won": won,
                "lost": lost,
                "unresolved": unresolved,
                "rate": won / resolved if resolved else float("nan"),
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    columns = ["variant", "player", "deals", "won", "lost", "unresolved", "rate", "ci_low"]
    out = pd.DataFrame(rows, columns=[*columns, "ci_high"])
    # each variant's players weakest first (player_order), not by their names' letters
    keys = [(str(r["variant"]), player_order(str(r["player"]))) for r in rows]
    order = sorted(range(len(out)), key=keys.__getitem__)
    return out.iloc[order].reset_index(drop=True)


def rate_sentence(row: Any) -> str:
    """One row of :func:`win_rates` as the survey command prints it; a player that
    resolved none of its games says so (no rate of 0 of 0).

    >>> t = pd.DataFrame({"deal": [1, 2, 3], "variant": "bakers_dozen", "player": "solver",
    ...                   "outcome": ["won", "lost", "unresolved"]})
    >>> rate_sentence(win_rates(t).iloc[0])  # doctest: +NORMALIZE_WHITESPACE
    'bakers_dozen solver: won 1 of 2 resolved = 50.00 % (95 % Wilson interval
     9.45-90.55 %); unresolved 1'
    >>> rate_sentence(win_rates(t.assign(outcome="unresolved")).iloc[0])
    'bakers_dozen solver: resolved none of its 3 games (every one unresolved)'
    """
    won, lost = int(row["won"]), int(row["lost"])
    head = f"{row['variant']} {row['player']}"
    if won + lost == 0:
        n = int(row["deals"])
        return f"{head}: resolved none of its {n:,} game{'s' * (n != 1)} (every one unresolved)"
    return (
        f"{head}: won {won} of {won + lost} resolved = {100 * row['rate']:.2f} % (95 % Wilson "
        f"interval {100 * row['ci_low']:.2f}-{100 * row['ci_high']:.2f} %); unresolved "
        f"{int(row['unresolved'])}"
    )


def _outcomes(rows: pd.DataFrame, player: str, what: str) -> pd.Series:
    """One player's outcomes (str) indexed by deal; a deal given twice is refused."""
    mine = rows[rows["player"].astype(str) == player]
    twice = mine["deal"].duplicated()
    if twice.any():
        deal = mine["deal"][twice].iloc[0]
        raise ValueError(
            f"deal {deal} appears {int((mine['deal'] == deal).sum())} times for {what}; "
            "a survey table has one row per (deal, variant, player)"
        )
    return pd.Series(mine["outcome"].astype(str).to_numpy(), index=mine["deal"].to_numpy())


# -- paired comparisons ----------------------------------------------------------------------


def _newcombe_paired(
    both: int, a_only: int, b_only: int, neither: int, z: float = _Z95
) -> tuple[float, float]:
    """Newcombe's (1998) method 10 interval for a paired difference of proportions.

    The square-and-add of the two Wilson intervals, with the correlation ``phi``
    of the paired outcomes (its numerator shrunk by ``n/2`` towards 0 when
    positive, as in the paper; ``phi = 0`` when a margin is empty).
    """
    n = both + a_only + b_only + neither
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = wilson_interval(both + a_only, n, z)
    l2, u2 = wilson_interval(both + b_only, n, z)
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    cross = both * neither - a_only * b_only
    if margins == 0:
        phi = 0.0
    else:
        numerator = max(cross - n / 2, 0.0) if cross > 0 else float(cross)
        phi = numerator / math.sqrt(margins)
    down = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0))
    up = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0))
    diff = (a_only - b_only) / n
    return max(-1.0, diff - down), min(1.0, diff + up)


def _mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value (binomial test of the discordant pairs)."""
    if a_only + b_only == 0:
        return 1.0
    from statsmodels.stats.contingency_tables import (  # type: ignore[import-untyped, unused-ignore]
        mcnemar,
    )

    return float(mcnemar([[0, a_only], [b_only, 0]], exact=True).pvalue)


def paired_row(a: str, b: str, xa: pd.Series, xb: pd.Series, what: str) -> dict[str, object]:
    """One row of :data:`PAIRED_COLUMNS`: players ``a`` and ``b`` on the deals both
    resolved, from their outcomes ``xa`` and ``xb`` indexed by deal (McNemar's exact test,
    Newcombe's interval of the difference); ``what`` names the comparison in the error
    raised when they share no resolved deal."""
    both = pd.concat([xa.rename("a"), xb.rename("b")], axis=1, join="inner")
    resolved = both[(both["a"] != "unresolved") & (both["b"] != "unresolved")]
    n = len(resolved)
    if n == 0:
        raise ValueError(
            f"{a!r} and {b!r} have no resolved deal in common ({what}): {a!r} resolved "
            f"{int((xa != 'unresolved').sum())} deals, {b!r} {int((xb != 'unresolved').sum())}, "
            f"{len(both)} deals shared"
        )
    wa, wb = resolved["a"] == "won", resolved["b"] == "won"
    n_both, a_only = int((wa & wb).sum()), int((wa & ~wb).sum())
    b_only, neither = int((~wa & wb).sum()), int((~wa & ~wb).sum())
    low, high = _newcombe_paired(n_both, a_only, b_only, neither)
    return {
        "a": a,
        "b": b,
        "deals": n,
        "a_rate": (n_both + a_only) / n,
        "b_rate": (n_both + b_only) / n,
        "diff": (a_only - b_only) / n,
        "diff_low": low,
        "diff_high": high,
        "a_only": a_only,
        "b_only": b_only,
        "p_value": _mcnemar_exact(a_only, b_only),
    }


def _paired_frame(rows: list[dict[str, object]], **attrs: object) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(PAIRED_COLUMNS))
    df.attrs.update(attrs, level=0.95, interval="Newcombe method 10", test="McNemar exact")
    return df


def paired_comparison(
    table: pd.DataFrame,
    a: str,
    b: str,
    *,
    by: str = "player",
    variant: str | None = None,
    player: str | None = None,
) -> pd.DataFrame:
    """Two players (or two variants) compared on the deals both resolved: one row.

    ``by="player"``: ``a`` and ``b`` are players of one ``variant`` (``None``:
    the table's only variant).  ``by="variant"``: ``a`` and ``b`` are variants,
    played by ``player`` (``None``: the table's only player); deal number *k*
    of one variant is paired with deal number *k* of the other (the same seed,
    dealt under other rules).  The two are joined on ``deal``; a deal missing
    on either side, or unresolved on either side, is left out.

    Columns: ``a``, ``b``, ``deals`` (the paired deals), ``a_rate``, ``b_rate``
    (win rates on those deals), ``diff`` (``a_rate - b_rate``), ``diff_low``,
    ``diff_high`` (its 95 % interval), ``a_only`` (deals ``a`` won and ``b``
    lost), ``b_only`` and ``p_value``.

    The interval is Newcombe's method 10 for paired proportions (Statistics
    in Medicine 17, 1998, 2635-2650): the Wilson intervals of the two rates
    combined with the correlation of the pairs.  It stays inside [-1, 1] and
    keeps close to 95 % coverage for small counts and rates near 0 or 1,
    where a Wald interval does not.  The p-value is McNemar's exact test,
    two-sided: if ``a`` and ``b`` were equally strong, each deal that one wins
    and the other loses would be equally likely either way, so ``a_only`` is
    Binomial(``a_only + b_only``, 1/2); the concordant deals carry no
    information about the difference.  1.0 when no deal is discordant.  Both
    assume the deals are independent; neither corrects for testing many pairs.

    >>> t = pd.DataFrame({"deal": [1, 2, 3, 1, 2, 3], "variant": "bakers_dozen",
    ...     "player": ["careful"] * 3 + ["greedy"] * 3,
    ...     "outcome": ["won", "won", "lost", "won", "lost", "lost"]})
    >>> r = paired_comparison(t, "careful", "greedy").iloc[0]
    >>> int(r.deals), int(r.a_only), int(r.b_only), float(r.p_value)
    (3, 1, 0, 1.0)
    """
    check_survey(table, who="paired_comparison")
    if by == "player":
        if player is not None:
            raise ValueError(
                f"player= is for by='variant'; with by='player' a and b are the players, "
                f"not {player!r}"
            )
        rows, vname = variant_rows(table, variant, None)
        where = f" for variant {vname!r}"
        a = choose(rows, "player", a, where)
        b = choose(rows, "player", b, where)
        if a == b:
            raise ValueError(f"a and b are both {a!r}; compare two different players")
        xa, xb = _outcomes(rows, a, repr(a)), _outcomes(rows, b, repr(b))
        what = f"variant {vname!r}"
        attrs: dict[str, object] = {"by": by, "variant": vname}
    elif by == "variant":
        if variant is not None:
            raise ValueError(
                f"variant= is for by='player'; with by='variant' a and b are the variants, "
                f"not {variant!r}"
            )
        pname = choose(table, "player", player)
        rows = table[table["player"].astype(str) == pname]
        where = f" for player {pname!r}"
        a = choose(rows, "variant", a, where)
        b = choose(rows, "variant", b, where)
        if a == b:
            raise ValueError(f"a and b are both {a!r}; compare two different variants")
        va = rows[rows["variant"].astype(str) == a]
        vb = rows[rows["variant"].astype(str) == b]
        xa, xb = _outcomes(va, pname, repr(a)), _outcomes(vb, pname, repr(b))
        what = f"player {pname!r}"
        attrs = {"by": by, "player": pname}
    else:
        raise ValueError(f"by must be 'player' or 'variant', not {describe(by)}")
    return _paired_frame([paired_row(a, b, xa, xb, what)], **attrs)


#: The players of the ladder, weakest first (the solver is perfect play).
LADDER = ("random", "greedy", "careful", "lookahead-2", "lookahead-3", "lookahead-4", "solver")
_DIAL = re.compile(r"(search|undo)-([0-9]+)", re.ASCII)


def player_order(player: str) -> tuple[int, int, str]:
    """A sort key that puts players weakest first, as the tables show them: the
    ladder (``random`` … ``lookahead-4``, with ``careful``'s ablations after
    ``careful``), then each strength dial's settings by their number
    (``search-3`` before ``search-10``), then any other player by name, and the
    solver, the ceiling, last.

    >>> sorted(["solver", "undo-10", "search-10", "search-3", "careful-no_traps", "careful"],
    ...        key=player_order)
    ['careful', 'careful-no_traps', 'search-3', 'search-10', 'undo-10', 'solver']
    """
    if player == "solver":
        return (4, 0, "")
    if player in LADDER:
        return (0, 2 * LADDER.index(player), "")
    if player.startswith("careful-"):
        return (0, 2 * LADDER.index("careful") + 1, player)
    m = _DIAL.fullmatch(player)
    if m:
        return (1 if m.group(1) == "search" else 2, int(m.group(2)), "")
    return (3, 0, player)


def ladder(
    table: pd.DataFrame, players: Sequence[str] | None = None, *, variant: str | None = None
) -> pd.DataFrame:
    """Paired comparisons of each adjacent pair of ``players``: one row per pair.

    ``players=None``: the players of :data:`LADDER` that the table holds, weakest first.

    Row *i* compares ``a = players[i]`` with ``b = players[i + 1]`` on the
    deals both resolved, exactly as :func:`paired_comparison` does (same
    columns, Newcombe 95 % intervals, exact McNemar p-values, each pair on its
    own common deals).  List the players strongest first to read each ``diff``
    as what one step down the ladder costs.  The p-values are not corrected for
    the number of steps.

    >>> t = pd.DataFrame({"deal": [1, 2] * 3, "variant": "bakers_dozen",
    ...     "player": ["solver"] * 2 + ["careful"] * 2 + ["random"] * 2,
    ...     "outcome": ["won", "won", "won", "lost", "lost", "lost"]})
    >>> ladder(t, ["solver", "careful", "random"])[["a", "b", "diff"]].values.tolist()
    [['solver', 'careful', 0.5], ['careful', 'random', 0.5]]
    """
    check_survey(table, who="ladder", min_players=2)
    if players is None:
        present = set(table["player"].astype(str))
        players = [p for p in LADDER if p in present]
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError(f"players must be a list of player names, not {describe(players)}")
    if len(players) < 2:
        raise ValueError(f"a ladder needs at least 2 players, not {len(players)}")
    rows, vname = variant_rows(table, variant, None)
    names = [choose(rows, "player", p, f" for variant {vname!r}") for p in players]
    for p in names:
        if names.count(p) > 1:
            raise ValueError(f"player {p!r} is given {names.count(p)} times; give each once")
    series = {p: _outcomes(rows, p, repr(p)) for p in names}
    what = f"variant {vname!r}"
    pairs = [paired_row(a, b, series[a], series[b], what) for a, b in itertools.pairwise(names)]
    return _paired_frame(pairs, by="player", variant=vname)


def ablation(
    table: pd.DataFrame, *, base: str = "careful", variant: str | None = None
) -> pd.DataFrame:
    """What each tip of ``base`` is worth: every ``f"{base}-no_{tip}"`` player against ``base``.

    One row per ablated player found in the table: ``tip`` and the columns of
    :func:`paired_comparison` with ``a`` the player without the tip and ``b``
    the full ``base`` player, so a negative ``diff`` is what the tip wins (95 %
    Newcombe interval, exact McNemar p-value, on the deals both resolved).
    Rows are sorted by ``diff``: the most valuable tip first.  The p-values are
    not corrected for the number of tips.

    >>> t = pd.DataFrame({"deal": [1, 2] * 2, "variant": "bakers_dozen",
    ...     "player": ["careful"] * 2 + ["careful-no_aces"] * 2,
    ...     "outcome": ["won", "won", "won", "lost"]})
    >>> ablation(t)[["tip", "diff"]].values.tolist()
    [['aces', -0.5]]
    """
    rows, vname = variant_rows(table, variant, "ablation")
    where = f" for variant {vname!r}"
    base = choose(rows, "player", base, where)
    prefix = f"{base}-no_"
    ablated = [
        p for p in column_values(rows, "player") if p.startswith(prefix) and len(p) > len(prefix)
    ]
    if not ablated:
        raise ValueError(
            f"no player named '{prefix}<tip>'{where}; the table holds: "
            f"{', '.join(column_values(rows, 'player'))}"
        )
    xbase = _outcomes(rows, base, repr(base))
    what = f"variant {vname!r}"
    found = [paired_row(p, base, _outcomes(rows, p, repr(p)), xbase, what) for p in ablated]
    df = _paired_frame(found, by="player", variant=vname)
    df.insert(0, "tip", [p[len(prefix) :] for p in ablated])
    df = df.sort_values(["diff", "tip"], kind="stable").reset_index(drop=True)
    df.attrs.update(base=base)
    return df


def hardest_deals(
    table: pd.DataFrame, *, variant: str | None = None, player: str | None = None
) -> pd.DataFrame:
    """The deals the solver won but ``player`` lost, hardest for the solver first.

    ``player=None``: the strongest player of :data:`LADDER` (below the solver) that the
    table holds.  One row per deal: that player's row (its game, to replay), with
    ``nodes`` replaced by the solver's effort on the deal.
    """
    rows, vname = variant_rows(table, variant, "hardest_deals", numbers=("nodes",))
    if player is None:
        present = set(rows["player"].astype(str))
        humans = [p for p in LADDER[:-1] if p in present]
        if not humans:
            raise ValueError(f"no human-like player in the table for variant {vname!r}")
        player = humans[-1]
    player = choose(rows, "player", player, f" for variant {vname!r}")
    solver = rows[rows["player"] == "solver"]
    if solver.empty:
        raise ValueError(f"no solver rows for variant {vname!r}: hardness is the solver's effort")
    effort = solver.set_index("deal")["nodes"]
    won = set(solver.loc[solver["outcome"] == "won", "deal"])
    lost = rows[(rows["player"] == player) & (rows["outcome"] == "lost") & rows["deal"].isin(won)]
    lost = lost.assign(nodes=lost["deal"].map(effort))
    return lost.sort_values("nodes", ascending=False, kind="stable").reset_index(drop=True)


# -- win rate by feature ---------------------------------------------------------------------


def _value_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def rate_by_decile(
    table: pd.DataFrame,
    feature: str,
    *,
    player: str | None = None,
    variant: str | None = None,
) -> pd.DataFrame:
    """Win rate per decile of a deal feature, per player.

    The bins are deciles of ``feature`` over the distinct deals of the variant
    (``pd.qcut(..., 10, duplicates="drop")``), the same bins for every player.
    Features are small integers with many ties, so there are often fewer than
    ten bins, and a bin holds every deal of its values.  ``player=None``: every
    player of the variant.

    Columns: ``feature``, ``player``, ``bin`` (the feature values in the bin,
    e.g. ``"3–7"``), ``low_value``, ``high_value``, ``deals`` (the player's
    resolved deals in the bin: unresolved ones are left out), ``won``,
    ``rate``, ``ci_low``, ``ci_high`` (95 % Wilson interval; ``rate`` is NaN
    and the interval 0–1 for a bin with no resolved deal).

    >>> t = pd.DataFrame({"deal": [1, 2, 3, 4], "variant": "bakers_dozen",
    ...     "player": "greedy", "outcome": ["won", "won", "lost", "lost"],
    ...     "f_x": [0, 0, 5, 5]})
    >>> rate_by_decile(t, "f_x")[["bin", "deals", "rate"]].values.tolist()
    [['0', 2, 1.0], ['5', 2, 0.0]]
    """
    feature = checked_features(table, "rate_by_decile", [feature])[0]
    rows, vname = variant_rows(table, variant, None)
    if player is None:
        players = column_values(rows, "player")
    else:
        players = [choose(rows, "player", player, f" for variant {vname!r}")]
    per_deal = rows.drop_duplicates("deal")[feature].astype("float64")
    if per_deal.nunique() == 1:
        edges = np.array([per_deal.iloc[0] - 0.5, per_deal.iloc[0]])
    else:
        _, edges = pd.qcut(per_deal, 10, duplicates="drop", retbins=True)
    deal_bin = pd.cut(per_deal, edges, include_lowest=True, labels=False)
    number = int if pd.api.types.is_integer_dtype(rows[feature]) else float
    bins = []
    for i in range(len(edges) - 1):
        values = per_deal[deal_bin == i]
        if len(values):
            low, high = number(values.min()), number(values.max())
            label = _value_text(low) if low == high else f"{_value_text(low)}–{_value_text(high)}"
            bins.append((i, label, low, high))
    out = []
    for p in players:
        mine = rows[rows["player"].astype(str) == p]
        outcome = mine["outcome"].astype(str)
        mine = mine[outcome != "unresolved"]
        won = (mine["outcome"].astype(str) == "won").to_numpy()
        where = pd.cut(mine[feature].astype("float64"), edges, include_lowest=True, labels=False)
        where = where.to_numpy()
        for i, label, low, high in bins:
            inside = where == i
            n, w = int(inside.sum()), int(won[inside].sum())
            lo, hi = wilson_interval(w, n)
            out.append(
                {
                    "feature": feature,
                    "player": p,
                    "bin": label,
                    "low_value": low,
                    "high_value": high,
                    "deals": n,
                    "won": w,
                    "rate": w / n if n else float("nan"),
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
    df = pd.DataFrame(out, columns=list(_DECILE_COLUMNS))
    df.attrs.update(variant=vname, level=0.95, interval="Wilson")
    return df


# -- loss model ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LossModel:
    """A logistic regression of losing on a player's deals, with held-out accuracy:
    the straight line of the loss model (:func:`logistic_model`; the loss model
    itself is :func:`~bakers_lab.loss_model`, which draws this line on one feature per family
    and grows trees beside it).

    ``odds_ratios``: one row per feature kept, columns ``feature``,
    ``odds_ratio`` (the odds of losing multiply by this for one standard
    deviation more of the feature, the others held fixed), ``low``, ``high``
    (95 % Wald interval), ``p_value_wald`` (Wald test of odds ratio 1; a paired
    comparison's ``p_value`` is McNemar's, another test).  ``auc``:
    the held-out ROC AUC (the chance that a lost test deal is rated more likely
    to be lost than a won one; 0.5 is guessing; NaN if the test deals hold only
    one outcome).  ``dropped``: features left out, with the reason in ``notes``.
    """

    player: str
    variant: str
    n_train: int
    n_test: int
    lost_train: int
    lost_test: int
    odds_ratios: pd.DataFrame
    auc: float
    dropped: tuple[str, ...]
    notes: tuple[str, ...]
    test_size: float
    seed: int
    method: str

    def __repr__(self) -> str:
        return (
            f"LossModel(player={self.player!r}, variant={self.variant!r}, "
            f"n_train={self.n_train}, n_test={self.n_test}, auc={self.auc:.3f}, "
            f"features={len(self.odds_ratios)}, dropped={len(self.dropped)})"
        )

    def __str__(self) -> str:
        head = (
            f"Loss model for {self.player!r} on {self.variant!r}: logistic regression of "
            f"losing on {len(self.odds_ratios)} standardised features, fitted on "
            f"{self.n_train:,} deals ({self.lost_train:,} lost); held out {self.n_test:,} deals "
            f"({self.lost_test:,} lost, test_size={self.test_size}, seed={self.seed}): "
            f"AUC {self.auc:.3f}. Odds ratios per 1 SD with 95 % Wald intervals:"
        )
        body = self.odds_ratios.to_string(index=False, float_format=lambda v: f"{v:.3g}")
        return "\n".join([head, body, *self.notes])


def _independent(z: npt.NDArray[np.float64], tol: float = 1e-9) -> list[int]:
    """Columns of ``z`` (standardised) that are not linear combinations of earlier
    columns and the constant: a Gram-Schmidt pass on the Gram matrix."""
    x = np.column_stack([np.ones(len(z)), z])
    gram = x.T @ x
    kept = [0]
    for j in range(1, x.shape[1]):
        g_kk = gram[np.ix_(kept, kept)]
        g_kj = gram[kept, j]
        residual = gram[j, j] - g_kj @ np.linalg.solve(g_kk, g_kj)
        if residual > tol * gram[j, j]:
            kept.append(j)
    return [j - 1 for j in kept[1:]]


def rank_auc(scores: npt.NDArray[np.float64], positive: npt.NDArray[np.bool_]) -> float:
    """ROC AUC by the Mann-Whitney rank formula, ties counted half."""
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = pd.Series(scores).rank(method="average").to_numpy()
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _fit_logit(
    y: npt.NDArray[np.float64], x: npt.NDArray[np.float64], what: str
) -> tuple[Any, str]:
    """Fit by Newton's method, then BFGS if Newton fails; refuse what cannot be fitted."""
    from statsmodels.discrete.discrete_model import (  # type: ignore[import-untyped, unused-ignore]
        Logit,
    )

    design = np.column_stack([np.ones(len(x)), x])
    for method, maxiter in (("newton", 100), ("bfgs", 2000)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = Logit(y, design).fit(method=method, maxiter=maxiter, disp=0)
            except np.linalg.LinAlgError:
                continue
        names = {w.category.__name__ for w in caught}
        if "PerfectSeparationWarning" in names:
            break
        converged = bool(result.mle_retvals.get("converged", False))
        eta = design @ result.params
        finite = bool(np.all(np.isfinite(result.bse)))
        if converged and finite and float(np.max(np.abs(eta))) < 30:
            return result, method
    raise ValueError(
        f"the loss model for {what} cannot be fitted: the features separate the won "
        "from the lost deals (perfectly or nearly), so some odds ratios are infinite. "
        "Model fewer features (features=[...]) or survey more deals"
    )


def held_out_split(
    rows: pd.DataFrame, player: str, what: str, test_size: float, seed: int
) -> tuple[pd.DataFrame, npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """The split every loss model of a player uses: the player's resolved deals
    of ``rows`` sorted by deal number, ``round(test_size * n)`` of them held out
    by a permutation from ``numpy.random.default_rng(seed)``.  Returns (the
    deals' rows, training positions, held-out positions, lost per row); refuses
    a split without both outcomes among the training deals."""
    if isinstance(test_size, bool) or not isinstance(test_size, (int, float)):
        raise ValueError(f"test_size must be a number between 0 and 1, not {describe(test_size)}")
    if not 0 < test_size < 1:
        raise ValueError(f"test_size must be between 0 and 1 (exclusive), not {test_size}")
    seed = as_int(seed, "seed", low=0)
    _outcomes(rows, player, what)  # refuses a deal given twice
    mine = rows[rows["player"].astype(str) == player]
    mine = mine[mine["outcome"].astype(str) != "unresolved"]
    keys = [int(d) for d in mine["deal"]]
    mine = mine.iloc[sorted(range(len(keys)), key=keys.__getitem__)]
    n = len(mine)
    n_test = round(test_size * n)
    if n_test < 1 or n - n_test < 2:
        raise ValueError(
            f"{n} resolved deals for {what} cannot be split with test_size={test_size}: "
            "need at least 1 held-out and 2 training deals"
        )
    order = np.random.default_rng(seed).permutation(n)
    test_idx, train_idx = np.sort(order[:n_test]), np.sort(order[n_test:])
    lost = (mine["outcome"].astype(str) == "lost").to_numpy()
    lost_train = int(lost[train_idx].sum())
    if lost_train in (0, len(train_idx)):
        which = "lost none" if lost_train == 0 else "lost all"
        raise ValueError(
            f"{what} {which} of the {len(train_idx)} training deals: a loss model needs "
            "both won and lost deals"
        )
    return mine, train_idx, test_idx, lost


def logistic_model(
    table: pd.DataFrame,
    player: str,
    *,
    features: Sequence[str],
    variant: str | None = None,
    test_size: float = 0.3,
    seed: int = 0,
) -> LossModel:
    """The straight line of the loss model: a logistic regression of losing on
    ``features``, checked on held-out deals.  :func:`~bakers_lab.loss_model` draws it on one
    feature per family; give ``features`` yourself only when they do not measure
    the same thing (collinear features split one effect among meaningless
    coefficients).

    The player's resolved deals of ``variant`` (unresolved ones are dropped)
    are sorted by deal number and split by a permutation from
    ``numpy.random.default_rng(seed)``: ``round(test_size * n)`` deals are held
    out, the rest fit the model.  ``features`` (``f_*`` columns) are turned
    into z-scores with the mean and sample standard deviation of the training
    deals only.  Left out, and listed in ``dropped`` and ``notes``: features
    constant on the training deals, and features that are a linear combination
    of earlier ones there (e.g. ``f_depth_aces``, the sum of the four
    ``f_depth_ace_*`` when no Ace starts home).

    The model: ``log odds(lost) = b0 + sum(b_j * z_j)``, fitted by maximum
    likelihood (statsmodels ``Logit``; Newton's method, BFGS if that fails; the
    warnings of a failed attempt are swallowed).  It assumes independent deals
    and log-odds linear in each feature.  ``odds_ratios`` holds ``exp(b_j)`` per
    one training standard deviation, its 95 % Wald interval and p-value
    (asymptotic: trust them only with dozens of losses per feature; not
    corrected for testing many features).  ``auc`` is measured on the
    held-out deals only.

    No regularisation: when the training deals hold only one outcome, or the
    features separate won from lost (infinite odds ratios), a ValueError says
    so instead of returning a penalised fit whose intervals would mean nothing.
    """
    if isinstance(features, str) or not isinstance(features, Sequence):
        check_survey(table, who="logistic_model")
        raise ValueError(f"features must be a list of f_* column names, not {describe(features)}")
    chosen = checked_features(table, "logistic_model", features)
    rows, vname = variant_rows(table, variant, None)
    player = choose(rows, "player", player, f" for variant {vname!r}")
    what = f"player {player!r}, variant {vname!r}"
    if not chosen:
        raise ValueError("features is empty; give at least one f_* column")
    for f in chosen:
        if chosen.count(f) > 1:
            raise ValueError(f"feature {f!r} is given {chosen.count(f)} times; give each once")
    mine, train_idx, test_idx, lost = held_out_split(rows, player, what, test_size, seed)
    seed = as_int(seed, "seed", low=0)
    x_all = mine[chosen].to_numpy(dtype=np.float64)
    y_train, y_test = lost[train_idx], lost[test_idx]
    lost_train = int(y_train.sum())

    x_train = x_all[train_idx]
    mean, sd = x_train.mean(axis=0), x_train.std(axis=0, ddof=1)
    notes: list[str] = []
    dropped: list[str] = []
    varying = [j for j in range(len(chosen)) if sd[j] > 0]
    for j in range(len(chosen)):
        if sd[j] == 0:
            dropped.append(chosen[j])
            notes.append(
                f"dropped {chosen[j]}: constant ({_value_text(mean[j])}) on the training deals"
            )
    z_all = (x_all[:, varying] - mean[varying]) / sd[varying]
    independent = _independent(z_all[train_idx])
    for k, j in enumerate(varying):
        if k not in independent:
            dropped.append(chosen[j])
            notes.append(
                f"dropped {chosen[j]}: a linear combination of earlier features "
                "on the training deals"
            )
    kept = [chosen[varying[k]] for k in independent]
    if not kept:
        raise ValueError(f"no feature varies on the training deals of {what}")
    z_all = z_all[:, independent]

    result, method = _fit_logit(y_train.astype(np.float64), z_all[train_idx], what)
    if method != "newton":
        notes.append(f"fitted with {method}: Newton's method did not converge")
    params = np.asarray(result.params, dtype=np.float64)
    ci = np.asarray(result.conf_int(0.05), dtype=np.float64)
    pvalues = np.asarray(result.pvalues, dtype=np.float64)
    odds = pd.DataFrame(
        {
            "feature": kept,
            "odds_ratio": np.exp(params[1:]),
            "low": np.exp(ci[1:, 0]),
            "high": np.exp(ci[1:, 1]),
            "p_value_wald": pvalues[1:],
        }
    )
    odds.attrs.update(level=0.95, interval="Wald", per="1 SD of the training deals")
    eta_test = params[0] + z_all[test_idx] @ params[1:]
    auc = rank_auc(eta_test, y_test)
    if math.isnan(auc):
        notes.append("AUC undefined: the held-out deals hold only one outcome")
    return LossModel(
        player=player,
        variant=vname,
        n_train=len(train_idx),
        n_test=len(test_idx),
        lost_train=lost_train,
        lost_test=int(y_test.sum()),
        odds_ratios=odds,
        auc=auc,
        dropped=tuple(dropped),
        notes=tuple(notes),
        test_size=float(test_size),
        seed=seed,
        method=method,
    )
