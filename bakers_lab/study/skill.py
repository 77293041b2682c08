"""The strength dial: how a player's win rate grows with planning, where a claimed
win rate sits on the dial, and how much planning each deal takes.

The players who plan (:mod:`bakers_lab.solve.players`) have a dial in units a
person understands: ``search-N`` considers N positions before each move,
``undo-N`` may take back N moves in a game.  At their lowest setting both are
``careful`` (``search-1``, ``undo-0``), so ``careful``'s rows stand for that setting
when a survey has no row of it.

>>> import pandas as pd
>>> t = pd.DataFrame({"deal": [1, 2, 1, 2], "variant": "bakers_dozen",
...     "player": ["careful", "careful", "search-100", "search-100"],
...     "outcome": ["lost", "won", "won", "won"]})
>>> skill_curve(t, "search")[["setting", "won", "n", "rate"]].to_dict("records")
[{'setting': 1, 'won': 1, 'n': 2, 'rate': 0.5}, {'setting': 100, 'won': 2, 'n': 2, 'rate': 1.0}]
>>> effort(t, "search")["search_effort"].tolist()
[100, 1]

**Locating a claim.**  The curve is read as a function of log10 of the setting
(log10 of the setting + 1 for ``undo``, whose dial starts at 0) and
interpolated linearly between surveyed settings.  A claimed band ``low``–``high``
is *entered* where the rate first reaches ``low`` and *left* where it first
passes ``high``.  The 95 % range of each crossing inverts the Wilson band: the
earliest setting whose upper bound reaches the level and the earliest whose
lower bound does.  A rate outside the surveyed settings is never extrapolated:
the crossing is then "below the lowest" or "beyond the strongest" setting.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bakers_lab.study.rows import variant_rows
from bakers_lab.study.stats import wilson_interval
from bakers_lab.study.tablecheck import check_survey, dial_setting, kind_of, listed
from bakers_lab.utils.validate import describe, is_bool

__all__ = [
    "CURVE_COLUMNS",
    "FAMILIES",
    "LOWEST_SETTING",
    "Crossing",
    "crossing",
    "effort",
    "family_setting",
    "locate",
    "readable",
    "skill_curve",
]

#: The dial families and what one unit of each dial is, in words.
FAMILIES = {
    "search": "positions considered before each move",
    "undo": "moves taken back in a game",
}
#: Columns of :func:`skill_curve`.
CURVE_COLUMNS = (
    "family",
    "setting",
    "player",
    "won",
    "lost",
    "n",
    "rate",
    "ci_low",
    "ci_high",
)
#: Each dial's lowest setting, the one ``careful`` plays: search-1 (a move's own
#: consequences only) and undo-0 (no move taken back).
LOWEST_SETTING = {"search": 1, "undo": 0}


def family_setting(player: str) -> tuple[str, int] | None:
    """``(family, setting)`` of a player name on a dial (``careful`` is the lowest
    setting of both, reported as search's); None for any other player, and for a
    name that is no setting (``search-05``, ``search-0``).

    >>> family_setting("undo-50"), family_setting("careful"), family_setting("greedy")
    (('undo', 50), ('search', 1), None)
    """
    if player == "careful":
        return "search", 1
    return dial_setting(player)


def _family(family: object) -> str:
    if not isinstance(family, str) or family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {describe(family)}")
    return family


def family_rows(
    rows: pd.DataFrame, family: str, who: str = "skill_curve"
) -> tuple[pd.DataFrame, dict[int, str]]:
    """The rows of one family's players and ``setting -> player name``, on the deals
    every surveyed setting resolved (``careful`` stands for the lowest setting when
    that setting has no rows of its own, on the same deals).  Unresolved rows are no
    games: they and their deals are left out, and a warning says how many."""
    players = rows["player"].astype(str)
    settings: dict[int, str] = {}
    for p in players.unique():
        fs = dial_setting(p)
        if fs is not None and fs[0] == family:
            settings[fs[1]] = p
    if not settings:
        variants = sorted(set(rows["variant"].astype(str)))
        raise ValueError(
            f"{who}: no {family}-N player in the table for variant {listed(variants)}; "
            f"players: {listed(sorted(set(players)))}"
        )
    if LOWEST_SETTING[family] not in settings and (players == "careful").any():
        settings[LOWEST_SETTING[family]] = "careful"
    mine = rows[players.isin(list(settings.values())).to_numpy()]
    unresolved = (mine["outcome"].astype(str) == "unresolved").to_numpy()
    if unresolved.any():
        n = int(unresolved.sum())
        warnings.warn(
            f"{who} left out {n:,} unresolved game{'s' * (n != 1)} (neither won nor lost) "
            f"and, at every setting, the deal{'s they were' if n != 1 else ' it was'} on",
            stacklevel=3,
        )
        mine = mine[~unresolved]
    counts = mine.groupby("deal")["player"].nunique()
    deals = set(counts.index[counts == len(settings)])
    mine = mine[mine["deal"].isin(deals).to_numpy()]
    mine.attrs["unresolved"] = int(unresolved.sum())
    return mine, dict(sorted(settings.items()))


def _dial_table(
    table: object, family: object, variant: object, who: str
) -> tuple[pd.DataFrame, str, str, dict[int, str]]:
    """``table`` checked for ``who`` (a survey with a player of ``family``'s dial and
    no name that only looks like one), then the family, one variant's rows of its
    players and its settings."""
    dial = family if isinstance(family, str) and family in FAMILIES else None
    check_survey(table, who=who, dial=dial)
    fam = _family(family)
    rows, vname = variant_rows(table, variant, None)
    mine, settings = family_rows(rows, fam, who)
    return mine, vname, fam, settings


def skill_curve(table: pd.DataFrame, family: str, *, variant: str | None = None) -> pd.DataFrame:
    """The win rate at each surveyed setting of ``family``'s dial (``search`` or
    ``undo``), weakest first: one row per setting with :data:`CURVE_COLUMNS`
    (``n`` the deals played, ``rate`` won / n with its 95 % Wilson interval), on
    the deals that every surveyed setting played.
    ``variant=None``: the table's only variant.  A player's game is won or lost;
    an ``unresolved`` row (a table built by hand) is no game: it and its deal are
    left out at every setting, a warning says how many, and ``attrs["unresolved"]``
    keeps the count."""
    rows, _, fam, settings = _dial_table(table, family, variant, "skill_curve")
    players = rows["player"].astype(str)
    outcome = rows["outcome"].astype(str)
    out = []
    for setting, name in settings.items():
        mine = outcome[players == name]
        won, lost = int((mine == "won").sum()), int((mine == "lost").sum())
        lo, hi = wilson_interval(won, won + lost)
        out.append((fam, setting, name, won, lost, won + lost,
                    won / (won + lost) if won + lost else math.nan, lo, hi))  # fmt: skip
    curve = pd.DataFrame(out, columns=list(CURVE_COLUMNS))
    curve.attrs["unresolved"] = rows.attrs.get("unresolved", 0)
    return curve


def effort(table: pd.DataFrame, family: str, *, variant: str | None = None) -> pd.DataFrame:
    """For each deal, the smallest surveyed setting of ``family`` that won it
    (column ``search_effort`` or ``undo_effort``; missing, ``<NA>``, when no surveyed
    setting won it), with ``deal`` and ``variant`` to join on.

    The settings are the surveyed ones, so the effort is known only up to the next
    setting below it: a deal of effort 300 was lost at the setting surveyed below
    300 (or won at every setting).  Unresolved rows are left out as
    :func:`skill_curve` leaves them out."""
    mine, vname, fam, settings = _dial_table(table, family, variant, "effort")
    level = {name: s for s, name in settings.items()}
    won = mine[mine["outcome"].astype(str) == "won"]
    least = won.assign(s=won["player"].astype(str).map(level)).groupby("deal")["s"].min()
    deals = pd.Series(sorted(int(d) for d in mine["deal"].unique()), dtype=object)
    column = pd.array([least.get(d, pd.NA) for d in deals], dtype="Int64")
    return pd.DataFrame({"deal": deals, "variant": vname, f"{fam}_effort": column})


@dataclass(frozen=True)
class Crossing:
    """Where a curve reaches ``level``: the setting (interpolated), and the 95 %
    range of settings (from the Wilson band); None where the surveyed settings do
    not reach it (``below``: the lowest setting is past it already)."""

    family: str
    level: float
    setting: float | None
    low: float | None
    high: float | None
    below: bool = False

    def text(self, unit: str = "") -> str:
        """The crossing in words: "about 330 positions a move (95 %: 210–520)".

        >>> Crossing("search", 0.75, 330.0, 212.0, None).text("positions a move")
        'about 330 positions a move (95 %: at least 210)'
        """
        if self.below:
            return "at its lowest setting (careful) already"
        if self.setting is None:
            return "beyond the strongest setting surveyed"
        what = f"about {round_setting(self.setting)}" + (f" {unit}" if unit else "")
        if self.low is None and self.high is None:
            return what
        if self.low is None:
            return f"{what} (95 %: at most {round_setting(self.high or 0)})"
        if self.high is None:
            return f"{what} (95 %: at least {round_setting(self.low)})"
        return f"{what} (95 %: {round_setting(self.low)}–{round_setting(self.high)})"


def round_setting(x: float) -> str:
    """Two significant figures, as a reader would quote a dial setting: 3.4, 330, 1,200."""
    return f"{float(f'{x:.2g}'):,.0f}" if x >= 10 else f"{x:.2g}"


def dial_scale(family: str, settings: np.ndarray) -> np.ndarray:
    """Settings as positions on the dial's axis: log10 of the setting (of setting + 1 for
    ``undo``, whose dial starts at 0)."""
    out: np.ndarray = np.log10(settings + (1 if family == "undo" else 0))
    return out


def dial_unscale(family: str, x: float) -> float:
    """The setting at position ``x`` of the dial's axis (:func:`dial_scale` undone)."""
    return float(10**x - (1 if family == "undo" else 0))


def first_reach(xs: np.ndarray, ys: np.ndarray, level: float) -> float | None:
    """The first x where the piecewise-linear curve (xs, ys) reaches ``level``
    from below; None if it never does (or starts at or above it: -inf)."""
    if ys[0] >= level:
        return -math.inf
    for i in range(1, len(xs)):
        if ys[i] >= level:
            t = (level - ys[i - 1]) / (ys[i] - ys[i - 1])
            return float(xs[i - 1] + t * (xs[i] - xs[i - 1]))
    return None


def _level(value: object, name: str, who: str) -> float:
    """A win rate ``value`` strictly between 0 and 1 (a fraction; any real number type
    but bool), as a float; anything else refused in one line naming ``name``."""
    x = math.nan
    if not is_bool(value) and isinstance(value, numbers.Real):
        try:
            x = float(value)
        except (OverflowError, ValueError):
            x = math.nan
    if not 0 < x < 1:  # NaN fails too
        raise ValueError(
            f"{who}: {name} must be a win rate as a fraction above 0 and below 1 (0.75 for "
            f"75 %), not {describe(value)}"
        )
    return x


def _check_curve(curve: object, who: str) -> pd.DataFrame:
    """``curve`` if it is a non-empty :func:`skill_curve` table, else one line."""
    need = ["family", "setting", "rate", "ci_low", "ci_high"]
    if not isinstance(curve, pd.DataFrame) or curve.empty:
        raise ValueError(
            f"{who}: curve must be a skill curve (bl.skill_curve), not {kind_of(curve)}"
        )
    missing = [c for c in need if c not in curve.columns]
    if missing:
        raise ValueError(
            f"{who}: curve lacks the column{'s' * (len(missing) > 1)} {', '.join(missing)}; "
            f"a skill curve (bl.skill_curve) has {', '.join(CURVE_COLUMNS)}"
        )
    families = sorted({str(f) for f in curve["family"]})
    if len(families) != 1 or families[0] not in FAMILIES:
        raise ValueError(
            f"{who}: curve's family must be one of {', '.join(FAMILIES)} in every row, "
            f"not {listed(families, 3)}"
        )
    for c in need[1:]:
        col = curve[c]
        if not pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype):
            raise ValueError(f"{who}: curve's column {c} must hold numbers")
    return curve


def crossing(curve: pd.DataFrame, level: float) -> Crossing:
    """Where a :func:`skill_curve` first reaches the win rate ``level`` (a
    fraction above 0 and below 1), with the 95 % range of settings from its Wilson
    band."""
    return _crossing(_check_curve(curve, "crossing"), _level(level, "level", "crossing"))


def _crossing(curve: pd.DataFrame, level: float) -> Crossing:
    family = str(curve["family"].iloc[0])
    xs = dial_scale(family, curve["setting"].to_numpy(dtype=float))
    at = first_reach(xs, curve["rate"].to_numpy(dtype=float), level)
    early = first_reach(xs, curve["ci_high"].to_numpy(dtype=float), level)
    late = first_reach(xs, curve["ci_low"].to_numpy(dtype=float), level)
    if at == -math.inf:
        return Crossing(family, level, None, None, None, below=True)

    def back(x: float | None) -> float | None:
        return None if x is None or x == -math.inf else dial_unscale(family, x)

    return Crossing(family, level, back(at), back(early), back(late))


def locate(curve: pd.DataFrame, low: float, high: float) -> tuple[Crossing, Crossing]:
    """Where a :func:`skill_curve` enters the band ``low``–``high`` (fractions
    above 0 and below 1, ``low`` at most ``high``) and where it leaves it."""
    curve = _check_curve(curve, "locate")
    lo, hi = _level(low, "low", "locate"), _level(high, "high", "locate")
    if lo > hi:
        raise ValueError(f"locate: a band needs low at most high, not {lo:g} and {hi:g}")
    return _crossing(curve, lo), _crossing(curve, math.nextafter(hi, 2.0))


def readable(curve: pd.DataFrame) -> pd.DataFrame:
    """A :func:`skill_curve` for people: the setting with its unit, the player,
    deals won of deals played, the win rate with one decimal and its interval.

    >>> c = pd.DataFrame({"family": ["undo"], "setting": [50], "player": ["undo-50"],
    ...     "won": [30], "lost": [10], "n": [40], "rate": [0.75], "ci_low": [0.5995],
    ...     "ci_high": [0.8577]})
    >>> readable(c).iloc[0].tolist()
    ['50', 'undo-50', '30 of 40', '75.0 %', '60.0–85.8 %']
    """
    family = str(curve["family"].iloc[0]) if len(curve) else "search"
    return pd.DataFrame(
        {
            FAMILIES[family]: [f"{int(s):,}" for s in curve["setting"]],
            "player": curve["player"].tolist(),
            "won": [
                f"{int(w):,} of {int(n):,}" for w, n in zip(curve["won"], curve["n"], strict=True)
            ],
            "win rate": [f"{100 * r:.1f} %" for r in curve["rate"]],
            "95 % interval": [
                f"{100 * lo:.1f}–{100 * hi:.1f} %"
                for lo, hi in zip(curve["ci_low"], curve["ci_high"], strict=True)
            ],
        }
    )
