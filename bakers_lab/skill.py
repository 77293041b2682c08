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
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .stats import _check_table, _variant_rows, wilson_interval
from .validate import describe

__all__ = [
    "CURVE_COLUMNS",
    "FAMILIES",
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
_LOWEST = {"search": 1, "undo": 0}
_NAME = re.compile(r"(search|undo)-([0-9]+)", re.ASCII)


def family_setting(player: str) -> tuple[str, int] | None:
    """``(family, setting)`` of a player name on a dial (``careful`` is the lowest
    setting of both, reported as search's); None for any other player.

    >>> family_setting("undo-50"), family_setting("careful"), family_setting("greedy")
    (('undo', 50), ('search', 1), None)
    """
    if player == "careful":
        return "search", 1
    m = _NAME.fullmatch(player)
    return (m.group(1), int(m.group(2))) if m else None


def _family(family: object) -> str:
    if not isinstance(family, str) or family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {describe(family)}")
    return family


def _family_rows(rows: pd.DataFrame, family: str) -> tuple[pd.DataFrame, dict[int, str]]:
    """The rows of one family's players and ``setting -> player name``, on the deals
    every surveyed setting played (``careful`` stands for the lowest setting when
    that setting has no rows of its own, on the same deals)."""
    players = rows["player"].astype(str)
    settings: dict[int, str] = {}
    for p in players.unique():
        m = _NAME.fullmatch(p)
        if m and m.group(1) == family:
            settings[int(m.group(2))] = p
    if not settings and not (players == "careful").any():
        raise ValueError(f"the table has no {family}-N player (and no careful, its lowest setting)")
    if settings:
        own = rows[players.isin(list(settings.values()))]
        counts = own.groupby("deal")["player"].nunique()
        deals = set(counts.index[counts == len(settings)])
    else:
        deals = set(rows["deal"])
    if _LOWEST[family] not in settings and (players == "careful").any():
        settings[_LOWEST[family]] = "careful"
    mine = rows[players.isin(list(settings.values())) & rows["deal"].isin(deals)]
    return mine, dict(sorted(settings.items()))


def skill_curve(table: pd.DataFrame, family: str, *, variant: str | None = None) -> pd.DataFrame:
    """The win rate at each surveyed setting of ``family``'s dial (``search`` or
    ``undo``), weakest first: one row per setting with :data:`CURVE_COLUMNS`
    (``n`` the deals played, ``rate`` won / n with its 95 % Wilson interval), on
    the deals that every surveyed setting played.
    ``variant=None``: the table's only variant.  A player's game is always won or
    lost, so no deal is left out."""
    _check_table(table)
    fam = _family(family)
    rows, _ = _variant_rows(table, variant)
    rows, settings = _family_rows(rows, fam)
    players = rows["player"].astype(str)
    outcome = rows["outcome"].astype(str)
    out = []
    for setting, name in settings.items():
        mine = outcome[players == name]
        won, lost = int((mine == "won").sum()), int((mine == "lost").sum())
        lo, hi = wilson_interval(won, won + lost)
        out.append((fam, setting, name, won, lost, won + lost,
                    won / (won + lost) if won + lost else math.nan, lo, hi))  # fmt: skip
    return pd.DataFrame(out, columns=list(CURVE_COLUMNS))


def effort(table: pd.DataFrame, family: str, *, variant: str | None = None) -> pd.DataFrame:
    """For each deal, the smallest surveyed setting of ``family`` that won it
    (column ``search_effort`` or ``undo_effort``; missing, ``<NA>``, when no surveyed
    setting won it), with ``deal`` and ``variant`` to join on.

    The settings are the surveyed ones, so the effort is known only up to the next
    setting below it: a deal of effort 300 was lost at the setting surveyed below
    300 (or won at every setting)."""
    _check_table(table)
    fam = _family(family)
    rows, vname = _variant_rows(table, variant)
    mine, settings = _family_rows(rows, fam)
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
        what = f"about {_round(self.setting)}" + (f" {unit}" if unit else "")
        if self.low is None and self.high is None:
            return what
        if self.low is None:
            return f"{what} (95 %: at most {_round(self.high or 0)})"
        if self.high is None:
            return f"{what} (95 %: at least {_round(self.low)})"
        return f"{what} (95 %: {_round(self.low)}–{_round(self.high)})"


def _round(x: float) -> str:
    """Two significant figures, as a reader would quote a dial setting: 3.4, 330, 1,200."""
    return f"{float(f'{x:.2g}'):,.0f}" if x >= 10 else f"{x:.2g}"


def _scale(family: str, settings: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.log10(settings + (1 if family == "undo" else 0))
    return out


def _unscale(family: str, x: float) -> float:
    return float(10**x - (1 if family == "undo" else 0))


def _first_reach(xs: np.ndarray, ys: np.ndarray, level: float) -> float | None:
    """The first x where the piecewise-linear curve (xs, ys) reaches ``level``
    from below; None if it never does (or starts at or above it: -inf)."""
    if ys[0] >= level:
        return -math.inf
    for i in range(1, len(xs)):
        if ys[i] >= level:
            t = (level - ys[i - 1]) / (ys[i] - ys[i - 1])
            return float(xs[i - 1] + t * (xs[i] - xs[i - 1]))
    return None


def crossing(curve: pd.DataFrame, level: float) -> Crossing:
    """Where a :func:`skill_curve` first reaches the win rate ``level`` (a
    fraction), with the 95 % range of settings from its Wilson band."""
    need = {"family", "setting", "rate", "ci_low", "ci_high"}
    if not isinstance(curve, pd.DataFrame) or curve.empty or not need <= set(curve):
        raise ValueError(f"curve must be a non-empty skill_curve table, not {describe(curve)}")
    family = str(curve["family"].iloc[0])
    xs = _scale(family, curve["setting"].to_numpy(dtype=float))
    at = _first_reach(xs, curve["rate"].to_numpy(dtype=float), level)
    early = _first_reach(xs, curve["ci_high"].to_numpy(dtype=float), level)
    late = _first_reach(xs, curve["ci_low"].to_numpy(dtype=float), level)
    if at == -math.inf:
        return Crossing(family, level, None, None, None, below=True)

    def back(x: float | None) -> float | None:
        return None if x is None or x == -math.inf else _unscale(family, x)

    return Crossing(family, level, back(at), back(early), back(late))


def locate(curve: pd.DataFrame, low: float, high: float) -> tuple[Crossing, Crossing]:
    """Where a :func:`skill_curve` enters the band ``low``–``high`` (fractions)
    and where it leaves it."""
    if not 0 <= low <= high <= 1:
        raise ValueError(f"a band needs 0 <= low <= high <= 1, not {low!r}–{high!r}")
    return crossing(curve, low), crossing(curve, math.nextafter(high, 2.0))


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
