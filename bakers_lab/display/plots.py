"""Charts of a survey table: each function returns a matplotlib ``Figure``.

Every chart takes the survey table (or a result of :mod:`bakers_lab.study.stats`)
and an optional ``ax=``: given one, it draws there and returns that axes'
figure, so notebooks can compose charts; without one it makes its own
``Figure`` (constrained layout) without pyplot, so nothing here touches
matplotlib's global state or needs a display.  What they share:

- every rate is drawn with its 95 % interval (Wilson for a rate, Wald for an
  odds ratio) as error bars, and the number of deals is on the chart;
- a player has the same colour in every chart (:data:`PLAYER_COLOURS`, from
  matplotlib's colour-blind-friendlier ``tab10``; players not listed there get
  a colour of :data:`FALLBACK_COLOURS` picked from a checksum of their name);
- published claims are labelled horizontal bands (:data:`DEFAULT_CLAIMS`).

The teaching searches (:mod:`bakers_lab.solve.search`) have charts of their
own: :func:`search_chart` (nodes expanded per algorithm over many deals, from a
``compare`` table), and, from one search's trace, :func:`frontier_chart` and
:func:`search_tree_chart`, which the trace viewer of :mod:`bakers_lab.display.widgets`
draws at each step; :func:`trace_table` is the trace with its counts so far.

Only display code imports this module; the model (``bakers_lab`` itself) never
imports matplotlib.

>>> import pandas as pd
>>> t = pd.DataFrame({"deal": [1, 2, 1, 2], "variant": "bakers_dozen",
...     "player": ["solver", "solver", "careful", "careful"],
...     "outcome": ["won", "won", "won", "lost"]})
>>> fig = win_rate_chart(t)
>>> fig.axes[0].get_xlabel()
'win rate (resolved deals)'
"""

from __future__ import annotations

import math
import re
import textwrap
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import (
    FixedLocator,
    FuncFormatter,
    MaxNLocator,
    NullLocator,
    PercentFormatter,
)
from matplotlib.transforms import offset_copy

from bakers_lab.model.cards import rank_char
from bakers_lab.model.rules import rules, title, variant_names
from bakers_lab.solve.search import CLASSROOM, COMPARE_COLUMNS, Event, SearchResult
from bakers_lab.study.features import describe_features
from bakers_lab.study.par import excess, pars
from bakers_lab.study.predict import LossPredictors
from bakers_lab.study.rows import (
    check_feature,
    checked_features,
    choose,
    column_values,
    variant_rows,
)
from bakers_lab.study.skill import FAMILIES, family_rows, family_setting, skill_curve
from bakers_lab.study.stats import (
    LossModel,
    rate_by_decile,
    win_rates,
)
from bakers_lab.study.tablecheck import check_survey
from bakers_lab.utils.validate import as_bool, as_int, describe

__all__ = [
    "DEFAULT_CLAIMS",
    "FALLBACK_COLOURS",
    "PLAYER_COLOURS",
    "PLAYER_ORDER",
    "TRACE_COLUMNS",
    "Claim",
    "decile_chart",
    "effort_chart",
    "feature_effect_chart",
    "frontier_chart",
    "importance_chart",
    "lookahead_chart",
    "odds_ratio_chart",
    "par_chart",
    "planning_chart",
    "player_colour",
    "player_colours",
    "search_chart",
    "search_tree_chart",
    "skill_curve_chart",
    "trace_table",
    "value_groups",
    "variant_chart",
    "win_rate_chart",
]

#: The players in the order the charts show them: strongest first.
PLAYER_ORDER = (
    "solver",
    "lookahead-4",
    "lookahead-3",
    "lookahead-2",
    "careful",
    "greedy",
    "random",
)

#: One colour per known player, the same in every chart: the Okabe–Ito palette, which
#: readers with any common colour-vision deficiency tell apart.
PLAYER_COLOURS: Mapping[str, str] = MappingProxyType(
    {
        "solver": "#0072B2",  # blue
        "lookahead-4": "#CC79A7",  # reddish purple
        "lookahead-3": "#D55E00",  # vermillion
        "lookahead-2": "#56B4E9",  # sky blue
        "careful": "#E69F00",  # orange
        "greedy": "#009E73",  # bluish green
        "random": "#999999",  # grey
    }
)
#: Colours for other players (ablations such as ``careful-no_aces``): Paul Tol's
#: colour-blind-safe "muted" hues that the known players do not use.  A chart gives
#: the players it shows distinct ones (:func:`player_colours`).
FALLBACK_COLOURS = ("#882255", "#44AA99", "#332288", "#999933", "#DDCC77", "#117733")


def player_colour(player: str) -> str:
    """The colour of ``player``: fixed for the known players, and for any other
    name one of :data:`FALLBACK_COLOURS`, the same on every run (a chart of
    several such players uses :func:`player_colours`, which keeps them apart).

    >>> player_colour("careful"), player_colour("careful-no_aces") in FALLBACK_COLOURS
    ('#E69F00', True)
    """
    known = PLAYER_COLOURS.get(player)
    if known is not None:
        return known
    return FALLBACK_COLOURS[zlib.crc32(player.encode()) % len(FALLBACK_COLOURS)]


def player_colours(players: Iterable[str]) -> list[str]:
    """The colours of the ``players`` of one chart: the known players' own, and
    the others the fallback colours in turn (by name), so that no two share one
    while there are colours left.

    >>> player_colours(["careful", "careful-no_space", "careful-no_low_cards"])
    ['#E69F00', '#44AA99', '#882255']
    """
    names = list(players)
    others = sorted({p for p in names if p not in PLAYER_COLOURS})
    spare = {p: FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)] for i, p in enumerate(others)}
    return [PLAYER_COLOURS.get(p) or spare[p] for p in names]


@dataclass(frozen=True)
class Claim:
    """A published win-rate claim: ``low``–``high`` in percent (a line if equal),
    drawn on the charts of ``variant``."""

    label: str
    low: float
    high: float
    variant: str = "bakers_dozen"

    def __post_init__(self) -> None:
        ok = all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in (self.low, self.high)
        )
        if not ok or not 0 <= self.low <= self.high <= 100:
            raise ValueError(
                f"a claim needs 0 <= low <= high <= 100 (percent), not {self.low!r}–{self.high!r}"
            )


#: The claims of the project's seeds and of Wikipedia about classic Baker's Dozen.
DEFAULT_CLAIMS: tuple[Claim, ...] = (
    Claim("75–80 % with careful play (seeds 000, 004)", 75.0, 80.0),
    Claim("about 50 % (seed 003)", 48.0, 52.0, variant="bakers_dozen_return"),
    Claim("1 in 2 (Wikipedia)", 50.0, 50.0),
)
# Claims are grey, hatched or dashed: they never look like a player.
_BAND_STYLES = (("0.55", "//"), ("0.75", "\\\\"), ("0.4", ".."), ("0.85", "xx"))
_LINE_STYLES = ("--", ":", "-.")
_LEVEL = "95 % Wilson intervals"


# -- helpers ---------------------------------------------------------------------------------


def _interval_rows(
    ax: Axes | None, frame: pd.DataFrame, column: str, size: tuple[float, float, float]
) -> tuple[Figure, Axes, np.ndarray, np.ndarray, np.ndarray]:
    """A chart of one row per line of ``frame``, each a value with its interval: the
    canvas (``size``: width, height without rows, height per row, at least two rows),
    the rows' positions, ``frame[column]`` as floats and its distances down to ``low``
    and up to ``high`` (the ``xerr`` of an error bar).

    >>> frame = pd.DataFrame({"x": [2.0], "low": [1.5], "high": [3.0]})
    >>> fig, ax, y, v, e = _interval_rows(None, frame, "x", (8.0, 2.0, 0.5))
    >>> fig.get_size_inches().tolist(), y.tolist(), v.tolist(), e.tolist()
    ([8.0, 3.0], [0], [2.0], [[0.5], [1.0]])
    """
    width, height, per_row = size
    fig, ax = _canvas(ax, (width, height + per_row * max(len(frame), 2)))
    value = frame[column].to_numpy(dtype=float)
    spread = np.vstack([value - frame["low"].to_numpy(dtype=float), frame["high"] - value])
    return fig, ax, np.arange(len(frame)), value, spread


def _canvas(ax: Axes | None, size: tuple[float, float] = (8.0, 4.8)) -> tuple[Figure, Axes]:
    if ax is None:
        fig = Figure(figsize=size, layout="constrained")
        return fig, fig.add_subplot()
    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes or None, not {describe(ax)}")
    root = ax.get_figure(root=True)
    if root is None:
        raise ValueError("ax belongs to no figure; make it with Figure().add_subplot()")
    return root, ax


def _ordered(players: Iterable[str]) -> list[str]:
    """Known players in :data:`PLAYER_ORDER`, then the others by name; the settings of
    a strength dial (``search-N``, ``undo-N``: :func:`skill_curve_chart` draws them)
    are left out."""
    names = {p for p in players if family_setting(p) is None or p == "careful"}
    return [p for p in PLAYER_ORDER if p in names] + sorted(names - set(PLAYER_ORDER))


def _players(rows: pd.DataFrame, players: Sequence[str] | None, where: str) -> list[str]:
    if players is None:
        return _ordered(column_values(rows, "player"))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError(f"players must be a list of player names, not {describe(players)}")
    if not players:
        raise ValueError("players is empty; give at least one, or None for all")
    return [choose(rows, "player", p, where) for p in players]


def _title(what: str, detail: str, width: int = 60) -> str:
    """Two parts: what the chart shows, then how many deals and which intervals; a
    number keeps its per cent sign on its line ("95 %" is never cut after the 95)."""
    return _fill(what, width) + "\n" + _fill(detail, width + 10)


def _fill(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, never between a number and
    its " %" (textwrap does not break at a no-break space, held there while it wraps)."""
    return textwrap.fill(text.replace(" %", "\u00a0%"), width).replace("\u00a0%", " %")


def _slant(ax: Axes, degrees: float) -> None:
    for label in ax.get_xticklabels():
        label.set_rotation(degrees)
        label.set_horizontalalignment("right")
        label.set_rotation_mode("anchor")


def _legend_right(ax: Axes) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)


def _percent_errors(rates: pd.DataFrame) -> np.ndarray:
    """Error bar lengths (below, above) in percent from ``rate``, ``ci_low``, ``ci_high``."""
    rate = rates["rate"].to_numpy(dtype=float)
    return 100 * np.vstack(
        [
            rate - rates["ci_low"].to_numpy(dtype=float),
            rates["ci_high"].to_numpy(dtype=float) - rate,
        ]
    )


def _rate_line(ax: Axes, x: np.ndarray, rates: pd.DataFrame, **style: Any) -> None:
    """``rates``' win rates in percent at ``x``, dots joined by a line, each with its
    interval (``style``: more of matplotlib's ``errorbar`` arguments)."""
    ax.errorbar(
        x,
        100 * rates["rate"].to_numpy(dtype=float),
        yerr=_percent_errors(rates),
        fmt="-o",
        **style,
    )


def _rate_limits(ax: Axes, frames: Iterable[pd.DataFrame]) -> None:
    """A y range for points (not bars) that shows every interval: 0–105 unless all
    rates are high, then from 5 points under the lowest interval (in steps of 10)."""
    lows = [float(f["ci_low"].min()) for f in frames if len(f)]
    lowest = min(lows) if lows else 0.0
    bottom = max(0.0, 10 * math.floor((100 * lowest - 5) / 10))
    ax.set_ylim(bottom, 101 if bottom >= 50 else 105)


def _meaning(feature: str) -> str:
    table = describe_features()
    hit = table.loc[table["name"] == feature, "meaning"]
    return str(hit.iloc[0]).rstrip(".") if len(hit) else feature


def _feature_label(feature: str, how: str) -> str:
    return textwrap.fill(f"{_meaning(feature)} ({feature}; {how})", 80)


def _deal_range(counts: Sequence[int], per: str, *, always: bool = False) -> str:
    """The deals a chart draws, for its title: ``32,000 deals`` when every bar or line
    has as many, else ``2,000 to 32,000 deals a player`` (``per``; with ``always``,
    said even when they are equal)."""
    low, high = int(min(counts)), int(max(counts))
    if low == high:
        return f"{high:,} deals {per}" if always else f"{high:,} deals"
    return f"{low:,} to {high:,} deals {per}"


# -- charts ----------------------------------------------------------------------------------


def win_rate_chart(
    table: pd.DataFrame,
    *,
    variant: str | None = None,
    claims: Sequence[Claim] = DEFAULT_CLAIMS,
    ax: Axes | None = None,
) -> Figure:
    """Bars of each player's win rate (resolved deals) with 95 % Wilson error bars,
    and the ``claims`` about this variant as labelled bands (a line where
    ``low == high``).  ``variant=None``: the table's only variant."""
    rows, vname = variant_rows(table, variant, "win_rate_chart")
    for c in claims:
        if not isinstance(c, Claim):
            raise ValueError(f"claims must hold Claim records, not {describe(c)}")
    rates = win_rates(rows).set_index("player")
    order = _ordered(rates.index)
    rates = rates.loc[order]
    rows = rows[rows["player"].astype(str).isin(order)]
    # one bar a row, the strongest on top: names and counts never run into each other
    fig, ax = _canvas(ax, (9.0, 1.4 + 0.42 * max(len(order), 3)))
    y = np.arange(len(order))
    ax.barh(
        y,
        100 * rates["rate"].to_numpy(dtype=float),
        xerr=_percent_errors(rates),
        capsize=4,
        color=player_colours(order),
        edgecolor="black",
        linewidth=0.5,
        height=0.7,
        zorder=3,
    )
    n_resolved = (rates["won"] + rates["lost"]).astype(int)
    ax.set_yticks(y, [f"{p}  (n = {n:,})" for p, n in zip(order, n_resolved, strict=True)])
    ax.set_ylim(len(order) - 0.4, -0.6)
    drawn = _draw_claims(ax, claims, vname, across=True)
    ax.set_xlim(0, 100)
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel("win rate (resolved deals)")
    ax.grid(axis="x", alpha=0.3, zorder=0)
    deals = _deal_range(n_resolved.tolist(), "a player")
    ax.set_title(_title(f"Win rate per player, {title(rules(vname))}", f"{deals}, {_LEVEL}"))
    if drawn:
        ax.legend(
            title="published claims",
            loc="upper left",
            bbox_to_anchor=(1.02, 1.0),
            fontsize="small",
            frameon=False,
        )
    return fig


def _depth(player: str) -> int | None:
    if player == "careful":
        return 1
    m = re.fullmatch(r"lookahead-(\d+)", player)
    return int(m.group(1)) if m else None


def lookahead_chart(
    table: pd.DataFrame, *, variant: str | None = None, ax: Axes | None = None
) -> Figure:
    """Win rate against look-ahead depth (``careful`` = 1, ``lookahead-k`` = k), one
    point per player with its 95 % Wilson interval, and the solver's rate as the
    "perfect play" reference line (its interval a shaded band)."""
    rows, vname = variant_rows(table, variant, "lookahead_chart")
    rates = win_rates(rows).set_index("player")
    depths = sorted((d, p) for p in rates.index if (d := _depth(str(p))) is not None)
    if not depths:
        raise ValueError(
            f"no look-ahead player for variant {vname!r} (careful, lookahead-2, ...); "
            f"the table holds: {', '.join(column_values(rows, 'player'))}"
        )
    fig, ax = _canvas(ax)
    xs = [d for d, _ in depths]
    ys = [100 * float(rates.loc[p, "rate"]) for _, p in depths]
    ax.plot(xs, ys, color="0.6", lw=1, zorder=1)
    for d, p in depths:
        r = rates.loc[[p]]
        ax.errorbar(
            [d],
            100 * r["rate"].to_numpy(dtype=float),
            yerr=_percent_errors(r),
            fmt="o",
            ms=7,
            capsize=5,
            color=player_colour(p),
            label=f"{p} (n = {int(r['won'].iloc[0] + r['lost'].iloc[0]):,})",
            zorder=3,
        )
    if "solver" in rates.index:
        s = rates.loc["solver"]
        colour = player_colour("solver")
        ax.axhspan(100 * s["ci_low"], 100 * s["ci_high"], color=colour, alpha=0.15, lw=0)
        ax.axhline(
            100 * s["rate"],
            color=colour,
            ls="--",
            label=f"perfect play (solver): {100 * s['rate']:.1f} %",
        )
    ax.set_xticks(xs)
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    _rate_limits(ax, [rates])
    ax.set_xlabel("look-ahead depth (moves; careful play = 1)")
    ax.set_ylabel("win rate (%)")
    ax.grid(alpha=0.3)
    # the n drawn: each point's resolved deals, and the solver's line (when drawn)
    drawn = [p for _, p in depths] + (["solver"] if "solver" in rates.index else [])
    counts = [int(rates.loc[p, "won"] + rates.loc[p, "lost"]) for p in drawn]
    ax.set_title(
        _title(
            f"Does looking further ahead win more? {title(rules(vname))}",
            f"{_deal_range(counts, 'a player')}, {_LEVEL}",
        )
    )
    _legend_right(ax)
    return fig


#: Odds ratios a reader reads off a log axis, from strong protection to strong risk.
_RATIO_TICKS = (0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 2, 3, 5, 10, 20, 50)


def _ratio_ticks(ax: Axes) -> None:
    """Label a log x axis of odds ratios at round values (at least three, 1 among
    them when it is in view), as numbers, not powers of ten."""
    low, high = ax.get_xlim()
    shown = [t for t in _RATIO_TICKS if low <= t <= high]
    while len(shown) > 9:  # thin out a wide axis, keeping 1
        shown = [t for i, t in enumerate(shown) if i % 2 == 0 or t == 1]
    ax.xaxis.set_major_locator(FixedLocator(shown))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(NullLocator())


def odds_ratio_chart(model: LossPredictors | LossModel, *, ax: Axes | None = None) -> Figure:
    """Forest plot of the straight line of a :func:`~bakers_lab.loss_model`
    (or of a :func:`~bakers_lab.study.stats.logistic_model`): each feature's odds
    ratio of losing per 1 SD with its 95 % Wald interval, sorted, on a log axis
    with the no-effect line at 1."""
    if isinstance(model, LossPredictors):
        model = model.line
    if not isinstance(model, LossModel):
        raise ValueError(f"model must be a LossModel (stats.loss_model), not {describe(model)}")
    odds = model.odds_ratios.sort_values("odds_ratio", kind="stable").reset_index(drop=True)
    fig, ax, y, ratio, spread = _interval_rows(ax, odds, "odds_ratio", (8.0, 2.4, 0.32))
    ax.errorbar(
        ratio,
        y,
        xerr=spread,
        color=player_colour(model.player),
        fmt="o",
        capsize=3,
        label=f"{model.player}: odds ratio, 95 % interval",
    )
    ax.axvline(1.0, color="black", lw=1, ls="--", label="no effect (1)")
    ax.set_xscale("log")
    _ratio_ticks(ax)
    ax.set_yticks(y, odds["feature"].tolist())
    ax.set_ylim(-0.7, len(odds) - 0.3)
    ax.set_xlabel("odds ratio of losing per 1 SD (log scale)")
    ax.set_ylabel("deal feature (standardised)")
    ax.grid(axis="x", alpha=0.3, which="both")
    ax.set_title(
        _title(
            f"What makes {model.player} lose ({title(rules(model.variant))}): "
            f"held-out AUC {model.auc:.2f}",
            f"n = {model.n_test:,} deals held out, {model.n_train:,} fitted "
            f"({model.lost_train:,} lost); 95 % Wald intervals",
        )
    )
    return fig


def decile_chart(
    table: pd.DataFrame,
    feature: str,
    *,
    players: Sequence[str] | None = None,
    variant: str | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Win rate per decile bin of a deal feature (:func:`~bakers_lab.study.stats.rate_by_decile`:
    the deals cut in ten bins of about equal size, fewer where values tie), one line
    per player with 95 % Wilson error bars; the title and the x label say how many
    bins there are and what the feature counts."""
    feature = checked_features(table, "decile_chart", [feature])[0]
    rows, vname = variant_rows(table, variant, None)
    chosen = _players(rows, players, f" for variant {vname!r}")
    colours = dict(zip(chosen, player_colours(chosen), strict=True))
    fig, ax = _canvas(ax, (9.0, 5.0))
    labels: list[str] = []
    drawn = []
    for i, p in enumerate(chosen):
        r = rate_by_decile(rows, feature, player=p)
        drawn.append(r)
        labels = r["bin"].tolist()
        shift = (i - (len(chosen) - 1) / 2) * 0.08
        _rate_line(
            ax,
            np.arange(len(r)) + shift,
            r,
            ms=5,
            capsize=3,
            color=colours[p],
            label=f"{p} (n = {int(r['deals'].sum()):,})",
        )
    ax.set_xticks(np.arange(len(labels)), labels)
    _rate_limits(ax, drawn)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    # deciles of a feature of small integers merge where values tie: say how many bins
    ax.set_xlabel(_feature_label(feature, f"{len(labels)} bins of about equal numbers of deals"))
    ax.set_ylabel("win rate (resolved deals)")
    ax.grid(alpha=0.3)
    n = _deal_range([int(r["deals"].sum()) for r in drawn], "a player")
    ax.set_title(
        _title(
            f"Win rate by {feature} in {len(labels)} bins, {title(rules(vname))}", f"{n}, {_LEVEL}"
        )
    )
    _legend_right(ax)
    return fig


def importance_chart(predictors: LossPredictors, *, ax: Axes | None = None) -> Figure:
    """Which family of deal features a player's losses depend on
    (:func:`~bakers_lab.study.predict.loss_predictors`): the fall of the gradient-boosted
    trees' held-out AUC when the family is shuffled, with its 95 % interval over
    the repeats, largest on top; the title gives both models' AUCs."""
    if not isinstance(predictors, LossPredictors):
        raise ValueError(
            f"predictors must be a LossPredictors (predict.loss_predictors), not "
            f"{describe(predictors)}"
        )
    imp = predictors.importance
    fig, ax, y, drop, spread = _interval_rows(ax, imp, "auc_drop", (9.0, 1.8, 0.42))
    ax.barh(
        y,
        drop,
        xerr=spread,
        capsize=3,
        color=player_colour(predictors.player),
        edgecolor="black",
        linewidth=0.5,
        height=0.7,
        zorder=3,
    )
    ax.set_yticks(y, [f"{g}  ({n} feature{'s' if n > 1 else ''})" for g, n in
                      zip(imp["group"], imp["features"], strict=True)])  # fmt: skip
    ax.set_ylim(len(imp) - 0.4, -0.6)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("fall of the held-out AUC when the family is shuffled\n(larger: matters more)")
    ax.grid(axis="x", alpha=0.3, zorder=0)
    ax.set_title(
        _title(
            f"What {predictors.player}'s losses depend on, {title(rules(predictors.variant))}",
            f"held-out AUC: trees {predictors.trees_auc:.2f}, linear {predictors.logistic_auc:.2f}"
            f"; {predictors.n_test:,} deals held out; 95 % intervals over "
            f"{predictors.repeats} shuffles",
            width=52,
        )
    )
    return fig


def feature_effect_chart(
    table: pd.DataFrame,
    features: Sequence[str],
    *,
    players: Sequence[str] | None = None,
    variant: str | None = None,
) -> Figure:
    """How the win rate moves with each of ``features`` (at most 4): one panel per
    feature, its deals in bins of about equal size
    (:func:`~bakers_lab.study.stats.rate_by_decile`), one line per player with 95 %
    Wilson intervals.  ``players=None``: the ladder's players the variant has."""
    rows, vname = variant_rows(table, variant, "feature_effect_chart")
    if isinstance(features, str) or not isinstance(features, Sequence) or not features:
        raise ValueError(f"features must be a list of 1 to 4 f_* columns, not {describe(features)}")
    if len(features) > 4:
        raise ValueError(f"features: at most 4 panels fit a page, not {len(features)}")
    chosen_features = [check_feature(rows, f) for f in features]
    if players is None:
        have = set(column_values(rows, "player"))
        chosen = [p for p in PLAYER_ORDER if p in have] or _players(rows, None, "")
    else:
        chosen = _players(rows, players, f" for variant {vname!r}")
    colours = dict(zip(chosen, player_colours(chosen), strict=True))
    k = len(chosen_features)
    fig = Figure(figsize=(min(10.0, 2.2 + 2.6 * k), 4.6), layout="constrained")
    axes = fig.subplots(1, k, sharey=True, squeeze=False)[0]
    drawn = []
    for ax, feature in zip(axes, chosen_features, strict=True):
        for p in chosen:
            r = rate_by_decile(rows, feature, player=p)
            drawn.append(r)
            _rate_line(ax, np.arange(len(r)), r, ms=3, capsize=2, color=colours[p], label=p)
        labels = r["bin"].tolist()
        ax.set_xticks(np.arange(len(labels)), labels, fontsize="small")
        if len(labels) > 6:
            _slant(ax, 45)
        ax.set_xlabel(textwrap.fill(f"{feature} ({len(labels)} bins)", 26))
        ax.grid(alpha=0.3)
    _rate_limits(axes[0], drawn)
    axes[0].yaxis.set_major_formatter(PercentFormatter(decimals=0))
    axes[0].set_ylabel("win rate (resolved deals)")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside right upper", fontsize="small", frameon=False)
    n = _deal_range([int(r["deals"].sum()) for r in drawn], "a player")
    fig.suptitle(
        _title(
            f"Win rate against the strongest deal features, {title(rules(vname))}",
            f"{n}; 95 % Wilson intervals",
        ),
        fontsize="medium",
    )
    return fig


def effort_chart(
    table: pd.DataFrame, feature: str, *, variant: str | None = None, ax: Axes | None = None
) -> Figure:
    """The solver's search effort (nodes, log scale) against a deal feature: one
    point per deal (x jittered by up to ±0.25, seeded), marked by outcome, and the
    median with its interquartile range at each feature value.  Nodes below 1 are
    drawn at 1."""
    feature = checked_features(table, "effort_chart", [feature], numbers=("nodes",))[0]
    rows, vname = variant_rows(table, variant, None)
    solver = rows[rows["player"].astype(str) == "solver"]
    if solver.empty:
        raise ValueError(
            f"no solver rows for variant {vname!r}; the table holds: "
            f"{', '.join(column_values(rows, 'player'))}"
        )
    fig, ax = _canvas(ax, (9.0, 5.0))
    x = solver[feature].to_numpy(dtype=float)
    nodes = np.maximum(solver["nodes"].to_numpy(dtype=float), 1.0)
    jitter = np.random.default_rng(0).uniform(-0.25, 0.25, len(x))
    outcome = solver["outcome"].astype(str).to_numpy()
    styles = (
        ("won", "solvable", player_colour("solver"), "o"),
        ("lost", "proven unsolvable", "tab:red", "x"),
        ("unresolved", "unresolved (budget spent)", "0.3", "^"),
    )
    for value, label, colour, marker in styles:
        mask = outcome == value
        if mask.any():
            ax.scatter(
                x[mask] + jitter[mask],
                nodes[mask],
                s=10 if marker == "o" else 28,
                color=colour,
                marker=marker,
                alpha=0.35 if marker == "o" else 0.9,
                lw=1,
                label=f"{label} (n = {int(mask.sum()):,})",
            )
    summary = pd.Series(nodes).groupby(x).quantile([0.25, 0.5, 0.75]).unstack()
    ax.errorbar(
        summary.index.to_numpy(dtype=float),
        summary[0.5].to_numpy(dtype=float),
        yerr=np.vstack([summary[0.5] - summary[0.25], summary[0.75] - summary[0.5]]),
        fmt="-s",
        ms=4,
        capsize=3,
        color="black",
        label="median and interquartile range",
        zorder=4,
    )
    ax.set_yscale("log")
    ax.set_ylabel("solver nodes (log scale)")
    ax.set_xlabel(_feature_label(feature, "count"))
    ax.grid(alpha=0.3, which="major")
    ax.set_title(
        _title(
            f"Solver effort against {feature}, {title(rules(vname))}",
            f"{len(solver):,} deals; median and interquartile range per value",
        )
    )
    _legend_right(ax)
    return fig


def variant_chart(
    table: pd.DataFrame, *, players: Sequence[str] | None = None, ax: Axes | None = None
) -> Figure:
    """Win rate per variant, one row of bars per variant with a bar per player
    (resolved deals, 95 % Wilson error bars); each variant's label says how many
    deals it has.  ``players=None``: the ladder's players every variant of the table
    has (not the strength dials or ablations; name those to draw them)."""
    check_survey(table, who="variant_chart")
    if players is None:  # the ladder's players that every variant of the table has
        have = table.groupby("variant", observed=True)["player"].agg(lambda s: set(s.astype(str)))
        common = set.intersection(*have.tolist())
        ladder = [p for p in PLAYER_ORDER if p in common]
        chosen = ladder or _players(table, None, "")
    else:
        chosen = _players(table, players, "")
    rates = win_rates(table)
    rates = rates[rates["player"].isin(chosen)]
    known = variant_names()
    present = set(rates["variant"])
    variants = [v for v in known if v in present] + sorted(present - set(known))
    rows = len(variants) * len(chosen)
    fig, ax = _canvas(ax, (9.0, 1.6 + 0.17 * rows + 0.25 * len(variants)))
    height = 0.8 / len(chosen)
    colours = dict(zip(chosen, player_colours(chosen), strict=True))
    for i, p in enumerate(chosen):
        mine = rates[rates["player"] == p].set_index("variant")
        mine = mine.loc[[v for v in variants if v in mine.index]]
        y = np.array([variants.index(v) for v in mine.index]) + (i - (len(chosen) - 1) / 2) * height
        ax.barh(
            y,
            100 * mine["rate"].to_numpy(dtype=float),
            height,
            xerr=_percent_errors(mine),
            capsize=2,
            color=colours[p],
            edgecolor="black",
            linewidth=0.5,
            label=p,
            zorder=3,
        )
    deals = table.groupby("variant", observed=True)["deal"].nunique()
    labels = [
        f"{textwrap.fill(title(rules(v)) if v in known else v, 24)}\n({int(deals[v]):,} deals)"
        for v in variants
    ]
    ax.set_yticks(np.arange(len(variants)), labels)
    ax.set_ylim(len(variants) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel("win rate (resolved deals)")
    ax.grid(axis="x", alpha=0.3, zorder=0)
    n = _deal_range(deals[variants].tolist(), "a variant", always=True)
    ax.set_title(_title("Win rate per variant and player", f"{n}, {_LEVEL}"))
    _legend_right(ax)
    return fig


def _draw_claims(ax: Axes, claims: Sequence[Claim], vname: str, *, across: bool = False) -> int:
    """The ``claims`` about variant ``vname`` as bands (or lines) across the y axis,
    or with ``across`` across the x axis (rates drawn left to right); how many."""
    hline, hspan = (ax.axvline, ax.axvspan) if across else (ax.axhline, ax.axhspan)
    bands = lines = 0
    for c in claims:
        if not isinstance(c, Claim):
            raise ValueError(f"claims must hold Claim records, not {describe(c)}")
        if c.variant != vname:
            continue
        label = textwrap.fill(c.label, 28)
        if c.low == c.high:
            hline(c.low, color="black", ls=_LINE_STYLES[lines % 3], lw=1.2, label=label)
            lines += 1
        else:
            face, hatch = _BAND_STYLES[bands % len(_BAND_STYLES)]
            hspan(c.low, c.high, facecolor=face, alpha=0.35, hatch=hatch,
                       edgecolor="0.3", lw=0, label=label, zorder=1)  # fmt: skip
            bands += 1
    return bands + lines


#: The x label of each dial family in :func:`skill_curve_chart`.
_DIAL_LABELS = {
    "search": "positions it considers before each move\n(log scale; 1 = careful; k = 1,000)",
    "undo": "moves it may take back in a game\n(log scale; 0 = careful; M = 1,000,000)",
}
#: Colour of each dial family's curve (``tab10``, apart from the ladder's colours).
FAMILY_COLOURS: Mapping[str, str] = MappingProxyType({"search": "tab:red", "undo": "tab:cyan"})


def skill_curve_chart(
    table: pd.DataFrame,
    *,
    family: str | None = None,
    variant: str | None = None,
    claims: Sequence[Claim] = DEFAULT_CLAIMS,
    ax: Axes | None = None,
) -> Figure:
    """Win rate against the strength dial of the players who plan (log x), one
    panel per family (``family=None``: ``search`` and ``undo`` side by side, the
    families the table has), each setting with its 95 % Wilson interval; the
    solver's rate as the ceiling (perfect play) and the ``claims`` about this
    variant only as bands.  With ``ax`` give one ``family``."""
    rows, vname = variant_rows(table, variant, "skill_curve_chart")
    if family is not None and family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)} or None, not "
                         f"{describe(family)}")  # fmt: skip
    wanted = [family] if family is not None else list(FAMILIES)
    curves = {}
    for f in wanted:
        try:
            curve = skill_curve(rows, f)
        except ValueError:
            continue
        if len(curve) > 1 or family is not None:
            curves[f] = curve
    if not curves:
        raise ValueError(
            f"no search-N or undo-N player for variant {vname!r}; the table holds: "
            f"{', '.join(column_values(rows, 'player'))}"
        )
    if ax is not None:
        if family is None:
            raise ValueError("with ax, give one family: 'search' or 'undo'")
        fig, _ = _canvas(ax)
        axes = [ax]
    else:
        fig = Figure(figsize=(4.6 * len(curves) + 1.6, 4.8), layout="constrained")
        axes = list(fig.subplots(1, len(curves), sharey=True, squeeze=False)[0])
    rates = win_rates(rows).set_index("player")
    solver = rates.loc["solver"] if "solver" in rates.index else None
    lowest = 100.0
    for a, (f, curve) in zip(axes, curves.items(), strict=True):
        x = curve["setting"].to_numpy(dtype=float)
        y = 100 * curve["rate"].to_numpy(dtype=float)
        colour = FAMILY_COLOURS[f]
        a.errorbar(x, y, yerr=_percent_errors(curve), fmt="-o", ms=5, capsize=3,
                   color=colour, zorder=3,
                   label=f"{f}-N, {FAMILIES[f]}")  # fmt: skip
        lowest = min(lowest, float(100 * curve["ci_low"].min()))
        if solver is not None:
            c = player_colour("solver")
            a.axhspan(100 * solver["ci_low"], 100 * solver["ci_high"], color=c, alpha=0.15, lw=0)
            a.axhline(100 * solver["rate"], color=c, ls="--",
                      label=f"perfect play (solver): {100 * solver['rate']:.1f} %")  # fmt: skip
            lowest = min(lowest, float(100 * solver["ci_low"]))
        _draw_claims(a, claims, vname)
        _dial_axis(a, f, float(x.max()))
        a.grid(alpha=0.3)
        a.set_title(f"{f}-N: {FAMILIES[f]}", fontsize="medium")
    bottom = max(0.0, 10 * math.floor((lowest - 5) / 10))
    for a in axes:
        a.set_ylim(bottom, 101 if bottom >= 50 else 105)
    axes[0].set_ylabel("win rate (%)")
    deals = max(int(c["n"].max()) for c in curves.values())
    head = _title(f"How much planning does it take? {title(rules(vname))}",
                  f"{deals:,} deals a setting, {_LEVEL}", width=44 * len(axes))  # fmt: skip
    # one legend for the panels, below them: the curves, the ceiling, the claims
    seen: dict[str, Artist] = {}
    for a in axes:
        for h, lab in zip(*a.get_legend_handles_labels(), strict=True):
            seen.setdefault(lab, h)
    if ax is None:
        fig.suptitle(head)
        fig.legend(list(seen.values()), list(seen), loc="outside lower center",
                   ncol=min(3, len(seen)), fontsize="small", frameon=False)  # fmt: skip
    else:
        ax.set_title(head)
        _legend_right(ax)
    return fig


def _dial_axis(a: Axes, family: str, top: float) -> None:
    """A strength dial's x axis: log scale (symlog for undo, whose dial starts at 0)."""
    if family == "undo":
        a.set_xscale("symlog", linthresh=1.0)
        a.set_xlim(-0.3, top * 2)
    else:
        a.set_xscale("log")
        a.set_xlim(0.7, top * 1.6)
    a.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _compact(v)))
    a.set_xlabel(_DIAL_LABELS[family])


def _compact(value: float) -> str:
    """A dial setting as a tick label: 0, 1, 10, 100, 1k, 10k, 100k, 1M."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:g}{suffix}"
    return f"{value:g}"


def value_groups(values: Sequence[float] | np.ndarray, groups: int) -> tuple[np.ndarray, list[str]]:
    """``values`` cut into at most ``groups`` disjoint ranges of about equal size,
    ties kept together (every deal of a value is in one group): each value's
    group (0, 1, …) and each group's range in words (``"0–3"``, ``"6"``).

    The cut after each distinct value is placed where the count so far comes
    nearest to an equal share; a value too common to split gives fewer groups.

    >>> group, words = value_groups([0, 1, 2, 3, 4, 4, 4, 5, 6, 6, 7, 12], 4)
    >>> words
    ['0–2', '3–4', '5', '6–12']
    >>> group.tolist()
    [0, 0, 0, 1, 1, 1, 1, 2, 3, 3, 3, 3]
    >>> value_groups([5, 5, 5, 5, 6], 4)[1]
    ['5', '6']
    """
    groups = as_int(groups, "groups", low=1)
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or not len(x) or np.isnan(x).any():
        raise ValueError(f"values must be a non-empty list of numbers, not {describe(values)}")
    distinct, counts = np.unique(x, return_counts=True)
    so_far = np.cumsum(counts)[:-1]  # deals up to and including each value but the last
    cuts: list[int] = []  # cut after distinct value i
    for k in range(1, groups):
        if not len(so_far):
            break
        i = int(np.argmin(np.abs(so_far - k * len(x) / groups)))
        if not cuts or i > cuts[-1]:
            cuts.append(i)
    upper = [*(float(distinct[i]) for i in cuts), float(distinct[-1])]
    group = np.searchsorted(np.asarray(upper), x, side="left")
    words = []
    for g in range(len(upper)):
        inside = x[group == g]
        low, high = _value_words(inside.min()), _value_words(inside.max())
        words.append(low if low == high else f"{low}–{high}")
    return group, words


def _value_words(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:g}"


def planning_chart(
    table: pd.DataFrame, feature: str, *, variant: str | None = None, groups: int = 4
) -> Figure:
    """How much more planning the deals with more of a feature take: the deals cut
    into ``groups`` of about equal size by the feature (disjoint ranges of its
    values, :func:`value_groups`: fewer where a value is too common to split), and
    for each group its win rate against each strength dial the table has (one panel per family, log
    x; 95 % Wilson intervals).  The horizontal distance between two groups'
    curves is the extra planning the harder group needs for the same win rate;
    :func:`~bakers_lab.study.skill.effort` gives each deal's smallest winning setting."""
    rows, vname = variant_rows(table, variant, "planning_chart")
    feature = check_feature(rows, feature)
    groups = as_int(groups, "groups", low=2, high=10)
    curves = {}
    for f in FAMILIES:
        try:
            curve = skill_curve(rows, f)
        except ValueError:
            continue
        if len(curve) > 2:
            curves[f] = curve
    if not curves:
        raise ValueError(f"no search-N or undo-N survey for variant {vname!r}")
    fig = Figure(figsize=(4.6 * len(curves) + 1.6, 5.0), layout="constrained")
    axes = list(fig.subplots(1, len(curves), sharey=True, squeeze=False)[0])
    colours = _ramp(groups)
    n_deals = made = 0
    for a, (f, curve) in zip(axes, curves.items(), strict=True):
        mine, _ = family_rows(rows, f)
        first = mine.drop_duplicates("deal")
        deals = first["deal"].to_numpy()
        x = first[feature].to_numpy(dtype=float)
        n_deals = max(n_deals, len(deals))
        cut, spans = value_groups(x, groups)  # disjoint ranges: a value in one group only
        made = max(made, len(spans))
        for g, span in enumerate(spans):
            inside = set(deals[cut == g])
            part = skill_curve(mine[mine["deal"].isin(inside)], f)
            _rate_line(
                a,
                part["setting"].to_numpy(dtype=float),
                part,
                ms=4,
                capsize=2,
                color=colours[g],
                label=f"{feature} {span} ({len(inside):,} deals)",
            )
        _dial_axis(a, f, float(curve["setting"].max()))
        a.grid(alpha=0.3)
        a.set_title(f"{f}-N: {FAMILIES[f]}", fontsize="medium")
    axes[0].set_ylim(0, 105)
    axes[0].set_ylabel("win rate (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize="small",
               frameon=False, title=textwrap.fill(_meaning(feature), 90))  # fmt: skip
    name = title(rules(vname))
    fig.suptitle(_title(f"How much more planning the harder deals take, by {feature}, {name}",
                        f"{n_deals:,} deals in {made} groups, {_LEVEL}",
                        width=44 * len(axes)))  # fmt: skip
    return fig


def _ramp(n: int) -> list[str]:
    """``n`` colours along matplotlib's colour-blind-safe ``cividis``, dark to light."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    cmap = colormaps["cividis"]
    return [to_hex(cmap(0.05 + 0.85 * i / max(n - 1, 1))) for i in range(n)]


# -- teaching search -------------------------------------------------------------------------
#: How the search charts draw each outcome of a search (status → label, colour, marker):
#: the colours of :func:`effort_chart`.
_OUTCOME_STYLES = (
    ("solved", "solved", player_colour("solver"), "o"),
    ("no solution", "proved: no solution", "tab:red", "x"),
    ("gave up", "gave up (node budget, depth limit or beam width)", "0.3", "^"),
)


def _outcome(status: str) -> str:
    return status if status in ("solved", "no solution") else "gave up"


def _deck_text(deck: str) -> str:
    """``tiny deals (A–3 in 3 columns of 4)``; a deck not of the classroom by its name."""
    rules = CLASSROOM.get(deck)
    if rules is None:
        return f"{deck} deals"
    return (
        f"{deck} deals (A–{rank_char(rules.ranks)} in {rules.columns} columns of "
        f"{rules.cards_per_column})"
    )


def _seeds_text(deals: Sequence[int]) -> str:
    ordered = sorted(set(deals))
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    return ", ".join(str(d) for d in ordered[:8]) + (", …" if len(ordered) > 8 else "")


def search_chart(table: pd.DataFrame, *, ax: Axes | None = None) -> Figure:
    """Nodes expanded per algorithm over many deals, from a
    :func:`~bakers_lab.solve.search.compare` table: one horizontal box per
    algorithm (quartiles and median; whiskers to the farthest deal within 1.5
    times the interquartile range) on a log axis, one point per deal marked by
    how the search ended, the algorithms top to bottom in the table's order,
    each with its median.  Counts below 1 are drawn at 1.

    The boxes and their medians leave out the deals no algorithm solved (their
    searches measure the whole space, not the way to a goal); where there are
    such deals the labels say ``solved: median``, apart from the medians over
    every deal of :func:`~bakers_lab.solve.search.summarize`."""
    missing = [c for c in COMPARE_COLUMNS if c not in getattr(table, "columns", ())]
    if missing:
        raise ValueError(
            f"table must be a table of compare(); this one has no {', '.join(missing)}"
        )
    if table.empty:
        raise ValueError("the table has no rows")
    column = table["algorithm"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        order = [str(a) for a in column.cat.categories if (column == a).any()]
    else:
        order = [str(a) for a in dict.fromkeys(column.astype(str))]
    fig, ax = _canvas(ax, (9.0, 1.8 + 0.62 * len(order)))
    y = np.arange(len(order))
    # a deal no algorithm solved cannot be won (or is beyond every budget): its searches
    # measure the whole space, not the way to a goal, so the boxes leave it out
    solved_deals = set(table.loc[table["status"].astype(str) == "solved", "deal"].tolist())
    winnable = table["deal"].isin(solved_deals).to_numpy()
    nodes = [
        np.maximum(
            table.loc[(column.astype(str) == a).to_numpy() & winnable, "nodes_expanded"].to_numpy(
                float
            ),
            1.0,
        )
        for a in order
    ]
    nodes = [v if len(v) else np.array([np.nan]) for v in nodes]
    boxes = ax.boxplot(
        nodes,
        positions=y,
        orientation="horizontal",
        widths=0.6,
        whis=1.5,
        showfliers=False,
        patch_artist=True,
        medianprops={"color": "black", "linewidth": 2},
        zorder=2,
    )
    for box in boxes["boxes"]:
        box.set(facecolor="0.92", edgecolor="0.35")
    rng = np.random.default_rng(0)
    outcome = table["status"].astype(str).map(_outcome).to_numpy()
    for key, label, colour, marker in _OUTCOME_STYLES:
        xs: list[float] = []
        ys: list[float] = []
        for i, a in enumerate(order):
            mask = (column.astype(str) == a).to_numpy() & (outcome == key)
            values = np.maximum(table.loc[mask, "nodes_expanded"].to_numpy(float), 1.0)
            xs.extend(values)
            ys.extend(i + rng.uniform(-0.2, 0.2, len(values)))
        if xs:
            ax.scatter(
                xs,
                ys,
                s=14 if marker == "o" else 26,
                color=colour,
                marker=marker,
                alpha=0.5 if marker == "o" else 0.9,
                lw=1,
                zorder=3,
                label=f"{label} (n = {len(xs):,})",
            )
    medians = [float(np.median(v)) for v in nodes]
    deals = table["deal"].tolist()
    n_deals = len(set(deals))
    apart = n_deals - len(solved_deals)
    # the medians are the boxes', over the solved deals only: said where that is not every
    # deal, so they are not read as summarize()'s medians over all the deals
    over = "solved: median" if apart else "median"
    ax.set_yticks(
        y,
        [
            f"{a.replace(' (', chr(10) + '(')}\n"
            + (f"{over} {m:,.0f}" if not math.isnan(m) else "no deal solved")
            for a, m in zip(order, medians, strict=True)
        ],
    )
    ax.set_ylim(len(order) - 0.5, -0.5)  # the first algorithm on top
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    ax.set_xlabel("nodes expanded (log scale)")
    ax.set_ylabel(
        f"algorithm (median nodes expanded on the {len(solved_deals):,} solved deals)"
        if apart
        else "algorithm (median nodes expanded)"
    )
    ax.grid(axis="x", alpha=0.3, which="major")
    decks = ", ".join(_deck_text(str(d)) for d in dict.fromkeys(table["deck"].astype(str)))
    ax.set_title(
        _title(
            f"Nodes expanded per algorithm: {n_deals:,} {decks}",
            f"deals {_seeds_text(deals)}; one point per deal; "
            + (
                f"boxes: the {len(solved_deals):,} solved ({apart:,} unsolved: points)"
                if apart
                else "box: quartiles and median"
            ),
            70,
        )
    )
    _legend_below(ax, ncol=2)
    return fig


def _legend_below(ax: Axes, ncol: int) -> None:
    """A legend under the x axis's label, whatever the figure's height."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=offset_copy(ax.transAxes, fig=fig, y=-34, units="points"),
        ncol=ncol,
        fontsize="small",
        frameon=False,
    )


def _trace_events(source: object) -> tuple[Event, ...]:
    if isinstance(source, SearchResult):
        if not source.trace:
            raise ValueError(
                f"this {source.algorithm} result has no trace: run the search with trace=True"
            )
        return source.trace
    if isinstance(source, Sequence) and not isinstance(source, str):
        events = tuple(source)
        if not events or not all(isinstance(e, Event) for e in events):
            raise ValueError(
                f"a trace is a non-empty list of Events; this one holds "
                f"{describe(events[0]) if events else 'none'}"
            )
        return events
    raise ValueError(
        f"a trace is a SearchResult of a search run with trace=True, a list of Events or a "
        f"trace_table; not {describe(source)}"
    )


#: The columns of :func:`trace_table`, in order.
TRACE_COLUMNS = (
    "event",
    "kind",
    "node_id",
    "parent_id",
    "depth",
    "value",
    "move",
    "search_pass",
    "expanded",
    "generated",
    "frontier",
)


def trace_table(source: SearchResult | Sequence[Event] | pd.DataFrame) -> pd.DataFrame:
    """A search's trace as a table, one row per :class:`Event`, with the counts so far.

    ``source``: a :class:`SearchResult` of a search run with ``trace=True``, its
    ``trace``, or a table of this function (returned as it is).  Columns: ``event``
    (1, 2, …), the event's ``kind``, ``node_id``, ``parent_id`` (``<NA>`` for a
    root), ``depth``, ``value`` (what the search orders by) and ``move``;
    ``search_pass`` (1, then one more at each new root: iterative deepening and
    IDA* search again from the start); and after the event: ``expanded``,
    ``generated`` and ``frontier``, the nodes generated and not yet expanded or
    dropped (or recognised as the goal).  That is the search's frontier, the
    positions it holds to look at later: at the end of each expansion (in beam
    search, of each layer) it is the size the search itself reports, whose
    largest is ``max_frontier``.  In between it also counts a duplicate child
    from its generation to its drop the next event (so its largest may be one
    more) and, in beam search, the children of a layer that will not make the
    beam.
    ``attrs["algorithm"]`` and ``attrs["status"]`` name the search and its
    result (``""`` for a bare list of Events).
    """
    if isinstance(source, pd.DataFrame):
        missing = [c for c in TRACE_COLUMNS if c not in source.columns]
        if missing:
            raise ValueError(f"not a trace_table: it has no {', '.join(missing)}")
        return source
    events = _trace_events(source)
    kinds = np.array([e.kind for e in events])
    generated = np.cumsum(kinds == "generate")
    roots = np.cumsum([e.kind == "generate" and e.parent_id is None for e in events])
    table = pd.DataFrame(
        {
            "event": np.arange(1, len(events) + 1),
            "kind": kinds.astype(object),
            "node_id": [e.node_id for e in events],
            "parent_id": pd.array([e.parent_id for e in events], dtype="Int64"),
            "depth": [e.depth for e in events],
            "value": [float(e.f_or_g_value) for e in events],
            "move": [e.move_text for e in events],
            "search_pass": np.maximum(roots, 1),
            "expanded": np.cumsum(kinds == "expand"),
            "generated": generated,
            "frontier": generated - np.cumsum(kinds != "generate"),
        },
        columns=list(TRACE_COLUMNS),
    )
    result = source if isinstance(source, SearchResult) else None
    table.attrs["algorithm"] = result.algorithm if result is not None else ""
    table.attrs["status"] = result.status if result is not None else ""
    return table


def _step(upto: int | None, n: int) -> int:
    return n if upto is None else as_int(upto, "upto", low=1, high=n)


def frontier_chart(
    source: SearchResult | Sequence[Event] | pd.DataFrame,
    *,
    upto: int | None = None,
    ax: Axes | None = None,
) -> Figure:
    """The size of a search's frontier (:func:`trace_table`) after each event of
    its trace.  ``upto``: the events so far are drawn in colour, the rest grey,
    with a marker at event ``upto``; ``None``: the whole trace in colour.  A
    search that starts again (iterative deepening, IDA*) has its new passes
    marked."""
    table = trace_table(source)
    n = len(table)
    k = _step(upto, n)
    fig, ax = _canvas(ax, (5.6, 3.0))
    x = table["event"].to_numpy()
    f = table["frontier"].to_numpy()
    colour = player_colour("solver")
    if k < n:
        ax.step(x, f, where="post", color="0.8", lw=1.2, label="events to come")
    ax.step(x[:k], f[:k], where="post", color=colour, lw=1.6, label="frontier so far")
    if upto is not None:
        ax.plot([k], [f[k - 1]], "o", color=colour, ms=6, zorder=4)
        ax.axvline(k, color="0.3", lw=0.8, ls=":")
    starts = table.loc[(table["kind"] == "generate") & table["parent_id"].isna(), "event"]
    for i, e in enumerate(starts.iloc[1:]):
        ax.axvline(e, color="tab:orange", lw=0.8, ls="--", label="new pass" if i == 0 else None)
    ax.set_xlim(0, n + 1)
    ax.set_ylim(0, max(1, int(f.max())) * 1.08)
    ax.set_xlabel("event (step of the search)")
    ax.set_ylabel("frontier size (nodes)")
    ax.grid(alpha=0.3)
    name = table.attrs.get("algorithm") or "search"
    ax.set_title(
        f"Frontier of {name}: {_nodes(int(f[k - 1]))} after event {k:,} of {n:,}\n"
        f"(largest so far {int(f[:k].max()):,})",
        fontsize="medium",
    )
    _legend_below(ax, ncol=3)
    return fig


#: How the tree chart draws a node by its last event: label, marker, face, edge, size factor.
_NODE_STYLES = {
    "expand": ("expanded", "o", player_colour("solver"), player_colour("solver"), 1.0),
    "generate": ("on the frontier", "o", "white", "tab:orange", 1.0),
    "prune": ("dropped", "x", "0.45", "0.45", 0.9),
    "goal": ("goal", "*", "tab:green", "tab:green", 3.0),
}


def _nodes(count: int) -> str:
    """``'1 node'``, ``'1,234 nodes'``."""
    return f"{count:,} node" if count == 1 else f"{count:,} nodes"


#: The most nodes side by side (leaves) for which the tree chart numbers every node.
TREE_LABELS = 32


def _tree_layout(table: pd.DataFrame, limit: int) -> dict[int, tuple[float, int]]:
    """(x, depth) of the first ``limit`` nodes generated: leaves one apart in
    depth-first order (children in the order generated), a parent above the
    middle of its children, each new root (search pass) one further right."""
    born = table[(table["kind"] == "generate") & (table["node_id"] < limit)]
    children: dict[int, list[int]] = {}
    roots = []
    depth = {}
    for node, parent, d in zip(born["node_id"], born["parent_id"], born["depth"], strict=True):
        depth[int(node)] = int(d)
        if pd.isna(parent):
            roots.append(int(node))
        else:
            children.setdefault(int(parent), []).append(int(node))
    x: dict[int, float] = {}
    leaf = 0.0
    for root in roots:
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            kids = children.get(node, [])
            if done:
                x[node] = (x[kids[0]] + x[kids[-1]]) / 2
            elif kids:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(kids))
            else:
                x[node] = leaf
                leaf += 1
        leaf += 1  # a gap between the trees of two passes
    return {node: (x[node], depth[node]) for node in depth}


def search_tree_chart(
    source: SearchResult | Sequence[Event] | pd.DataFrame,
    *,
    upto: int | None = None,
    limit: int = 200,
    labels: bool | None = None,
    ax: Axes | None = None,
) -> Figure:
    """The search tree after ``upto`` events (``None``: the whole trace): one
    dot per node generated so far, by depth, linked to its parent and drawn by
    its last event (expanded, on the frontier, dropped, goal); the node of
    event ``upto`` is ringed, and once the goal is found its path is drawn.

    ``labels`` writes each node's number beside it (the number the trace's
    lines and the frontier name); by default (``None``) every node is numbered
    while the tree is small enough for the numbers to stay apart (at most
    :data:`TREE_LABELS` nodes side by side), else only the ringed node and the
    goal are.

    Only the first ``limit`` nodes generated are drawn (the title says so when
    there are more).  Each node has its place in the tree of those nodes from
    the first event on, so stepping through a trace the tree grows without
    moving."""
    table = trace_table(source)
    limit = as_int(limit, "limit", low=1)
    if labels is not None:
        labels = as_bool(labels, "labels")
    n = len(table)
    k = _step(upto, n)
    layout = _tree_layout(table, limit)
    so_far = table.iloc[:k]
    shown = so_far[so_far["node_id"] < limit]
    last = shown.groupby("node_id", sort=False)["kind"].last()  # each node's latest event
    leaves = max((x for x, _ in layout.values()), default=0) + 1
    depth = max(d for _, d in layout.values())
    fig, ax = _canvas(ax, (7.6, 3.2 + 0.12 * min(depth, 30)))
    size = float(np.clip(1600 / leaves, 6, 70))
    parent_of = dict(
        zip(
            table.loc[table["kind"] == "generate", "node_id"],
            table.loc[table["kind"] == "generate", "parent_id"],
            strict=True,
        )
    )
    segments = [
        [layout[int(parent_of[node])], layout[node]]
        for node in last.index
        if not pd.isna(parent_of[node])
    ]
    ax.add_collection(LineCollection(segments, colors="0.7", linewidths=0.8, zorder=1))
    goals = last.index[last == "goal"]
    if len(goals):
        path, node = [], int(goals[0])
        while not pd.isna(parent_of[node]):
            parent = int(parent_of[node])
            path.append([layout[parent], layout[node]])
            node = parent
        ax.add_collection(LineCollection(path, colors="tab:green", linewidths=2.5, zorder=2))
    handles = []
    for kind, (label, marker, face, edge, grow) in _NODE_STYLES.items():
        nodes = last.index[last == kind]
        xy = np.array([layout[int(v)] for v in nodes], dtype=float).reshape(-1, 2)
        # an "x" has no face: its colour is its edge
        ax.scatter(
            xy[:, 0],
            xy[:, 1],
            s=size * grow,
            marker=marker,
            c=[edge if marker == "x" else face] * len(xy),
            edgecolors=None if marker == "x" else edge,
            lw=1.0,
            zorder=3,
        )
        ms = 11 if kind == "goal" else 7
        handles.append(Line2D([], [], ls="", marker=marker, ms=ms, mfc=face, mec=edge, label=label))
    current = int(table["node_id"].iloc[k - 1])
    if upto is not None and current < limit:
        cx, cy = layout[current]
        ring = size * 4 + 60
        ax.scatter([cx], [cy], s=ring, facecolors="none", edgecolors="black", lw=1.6, zorder=4)
        handles.append(
            Line2D(
                [],
                [],
                ls="",
                marker="o",
                ms=11,
                mfc="none",
                mec="black",
                label=f"node of event {k:,}",
            )
        )
    if len(goals):
        handles.append(Line2D([], [], color="tab:green", lw=2.5, label="path to the goal"))
    numbered = (
        list(last.index)
        if (labels is None and leaves <= TREE_LABELS) or labels
        else [int(v) for v in (*goals[:1], current) if int(v) in last.index]
    )
    for node in dict.fromkeys(int(v) for v in numbered):
        nx, ny = layout[node]
        away = 7 if node == current and upto is not None else 3  # clear of the ring
        ax.annotate(
            f"{node}", (nx, ny), xytext=(away, away), textcoords="offset points",
            fontsize=7, color="0.15", ha="left", va="bottom", zorder=5,
            bbox={"boxstyle": "square,pad=0.05", "fc": "white", "ec": "none", "alpha": 0.8},
        )  # fmt: skip
    pad = 1 + 0.02 * leaves
    ax.set_xlim(-pad, leaves - 1 + pad)
    ax.set_ylim(depth + 0.6, -0.6)  # the root on top
    step = max(1, math.ceil(depth / 12))
    ax.set_yticks(range(0, depth + 1, step))
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_ylabel("depth (moves from the start)")
    total = int(table["generated"].iloc[-1])
    now = int(so_far["generated"].iloc[-1])
    name = table.attrs.get("algorithm") or "the search"
    note = (
        f"drawing only the first {limit:,} of the {total:,} nodes generated"
        if total > limit
        else f"all {total:,} nodes of the search drawn as they are generated"
    )
    if current >= limit:
        note += f"; node {current:,} of this event is not drawn"
    ax.set_title(
        f"Search tree of {name} after event {k:,} of {n:,}: {_nodes(now)} generated\n({note})",
        fontsize="medium",
    )
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.02),
        ncol=min(len(handles), 3),
        fontsize="small",
        frameon=False,
    )
    return fig


# -- par ---------------------------------------------------------------------------------

_MPL = tuple(int(p) for p in re.findall(r"\d+", matplotlib.__version__)[:2])


def par_chart(table: pd.DataFrame, *, variant: str | None = None) -> Figure:
    """Par and the winners' excess over it, side by side: on the left how many
    deals have each par (the fewest moves that win, proven by A*; the deals it
    only bounded drawn apart, at their bound), on the right, per player, how
    many moves above par its winning games are (box: quartiles; whiskers: 5th
    to 95th percentile; the median written beside it).

    ``table``: a survey with player ``shortest`` (:mod:`bakers_lab.study.par`),
    concatenated with the surveys of the players to compare, on the same deals.
    """
    rows, vname = variant_rows(table, variant, "par_chart")
    par = pars(rows)
    over = excess(rows)
    fig = Figure(figsize=(11.0, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(1.0, 1.2))
    proven = par["par"].dropna().astype(int)
    bounded = par.loc[par["par"].isna() & par["par_bound"].notna(), "par_bound"].astype(int)
    lo = int(min(proven.min() if len(proven) else 52, bounded.min() if len(bounded) else 52))
    hi = int(max(proven.max() if len(proven) else 52, bounded.max() if len(bounded) else 52))
    edges = np.arange(lo, hi + 2) - 0.5
    left.hist(
        [proven.to_numpy(), bounded.to_numpy()],
        bins=edges,
        stacked=True,
        color=[player_colour("solver"), "0.75"],
        edgecolor="white",
        linewidth=0.5,
        label=[
            f"par proven (n = {len(proven):,})",
            f"not proven: at least (n = {len(bounded):,})",
        ],
    )
    if len(proven):
        med = float(np.median(proven))
        left.axvline(med, ymax=0.78, color="black", ls="--", lw=1, label=f"median par {med:g}")
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_ylim(top=left.get_ylim()[1] * 1.25)  # room for the legend
    left.set_xlabel("par: the fewest moves that win (foundation moves included)")
    left.set_ylabel("deals")
    left.legend(loc="upper left", fontsize="small", frameon=False)
    left.grid(alpha=0.3, axis="y")
    left.set_title(_title(f"Par of each deal, {title(rules(vname))}", f"{len(par):,} deals", 45))
    players = _ordered(set(over["player"]))
    data = [over.loc[over["player"] == p, "excess"].to_numpy() for p in players]
    if players:
        # sideways: ``orientation`` from Matplotlib 3.10, ``vert`` before it
        sideways: dict[str, Any] = (
            {"orientation": "horizontal"} if _MPL >= (3, 10) else {"vert": False}
        )
        box = right.boxplot(
            data, whis=(5, 95), showfliers=False, patch_artist=True,
            medianprops={"color": "black"}, **sideways,
        )  # fmt: skip
        for patch, colour in zip(box["boxes"], player_colours(players), strict=True):
            patch.set_facecolor(colour)
            patch.set_alpha(0.75)
        for i, d in enumerate(data, start=1):
            right.annotate(
                f"median +{np.median(d):g}", (float(np.percentile(d, 95)), i),
                xytext=(6, 0), textcoords="offset points", va="center", fontsize="small",
            )  # fmt: skip
        right.set_yticks(
            range(1, len(players) + 1),
            [f"{p}  ({len(d):,} wins)" for p, d in zip(players, data, strict=True)],
        )
        right.set_ylim(len(players) + 0.6, 0.4)
        right.set_xlim(left=0, right=float(max(np.percentile(d, 95) for d in data)) * 1.3 + 1)
    else:
        right.text(0.5, 0.5, "no won games beside a proven par", ha="center",
                   transform=right.transAxes)  # fmt: skip
        right.set_yticks([])
    right.set_xlabel("moves above par in a winning game")
    right.grid(alpha=0.3, axis="x")
    right.set_title(
        _title(
            "Moves above par in winning games",
            "wins on deals with a proven par; boxes: quartiles, whiskers: 5–95 %",
            36,
        )
    )
    return fig
