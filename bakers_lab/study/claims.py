"""The rule texts' claims against the shipped surveys: one row per claim, with the
evidence and a verdict in words generated from the numbers.

>>> [c.key for c in CLAIMS][:3]
['careful_75_80', 'return_50', 'wikipedia_1_in_2']

What each kind of claim is tested against:

- a **win rate** ("75-80 % with careful play"): the solver's solvable share and the
  win rate of every human-like player on the same deals (95 % Wilson intervals).
  The verdict says whether the claim is about solvability at all, and which
  player of the ladder (random < greedy < careful < lookahead-2 < lookahead-3 <
  solver) it fits: a player whose interval meets the claimed range, or the two
  players it falls between.
- **harder / easier variants** ("Spanish Patience is much harder"; the house rules
  "raise the win rate considerably"): the same deal numbers under both rules (the
  presets share the deal, so the pairs are the same cards), for every player both
  surveys have: the paired difference with Newcombe's 95 % interval and McNemar's
  exact test.  Supported when every human-like player's difference has the claimed
  sign at p < 0.01 (and, for "considerably" or "much", is at least 10 points);
  contradicted when one is significant the other way.
- a **strategy tip**: ``careful`` with that tip's evaluation term switched off,
  paired against full ``careful`` (the ablation survey); "plan several moves
  ahead" compares ``careful`` (look-ahead 1) with ``lookahead-2`` and ``-3``.
  The p-values are not corrected for the number of claims.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd

from bakers_lab.files import datadir
from bakers_lab.files.datadir import repo_data_dir
from bakers_lab.study.par import as_column
from bakers_lab.study.skill import FAMILIES, Crossing, crossing, locate, skill_curve
from bakers_lab.study.stats import LADDER, ablation, paired_comparison, win_rates
from bakers_lab.study.tablecheck import check_survey, kind_of
from bakers_lab.utils.validate import describe, shown

__all__ = [
    "CLAIMS",
    "LOCATED_COLUMNS",
    "SeedClaim",
    "claims_table",
    "contents",
    "default_data_dir",
    "format_claims",
    "load_surveys",
    "located_claims",
]

Kind = Literal["rate", "harder", "easier", "tip", "lookahead", "count"]
_SIGNIFICANT = 0.01
_CONSIDERABLE = 0.10
#: The players that play as people do: careful and stronger (random and greedy are
#: weaker than any person who knows the rules; their differences are notes).
_LIKE_PEOPLE = ("careful", "lookahead-2", "lookahead-3", "lookahead-4")
#: A dial's unit, in a verdict.
_UNITS = {"search": "positions a move", "undo": "moves taken back a game"}


@dataclass(frozen=True)
class SeedClaim:
    """One claim of a source text, and how the data can test it."""

    key: str
    claim: str
    source: str
    kind: Kind
    variant: str = "bakers_dozen"
    low: float = math.nan
    high: float = math.nan
    other: str = ""  #: the variant compared with, or the tip
    strong: bool = False  #: "much", "considerably": at least 10 points


#: The rule texts' claims, each with where it comes from and how it is checked.
CLAIMS: tuple[SeedClaim, ...] = (
    SeedClaim("careful_75_80", "won about 75–80 % of the time with careful play",
              "seeds 000, 004", "rate", low=0.75, high=0.80),
    SeedClaim("return_50", "a friendly win rate of about 50 % (foundation cards may come back)",
              "seed 003", "rate", variant="bakers_dozen_return", low=0.48, high=0.52),
    SeedClaim("wikipedia_1_in_2", "odds: 1 in 2", "English Wikipedia (docs/rules.md)", "rate",
              low=0.48, high=0.52),
    SeedClaim("average_75", "an average player wins about 75 %", "a rules site (docs/rules.md)",
              "rate", low=0.73, high=0.77),
    SeedClaim("good_nearly_always", "a good player wins nearly always",
              "a rules site (docs/rules.md)", "rate", low=0.95, high=1.0),
    SeedClaim("fcs_997", "997 of PySolFC's deals 1–1000 are solvable; 64 and 477 are not",
              "Freecell Solver's authors (docs/rules.md)", "count"),
    SeedClaim("spanish_harder", "Spanish Patience is a much harder variant",
              "seeds 000, 004", "harder", variant="spanish_patience", other="bakers_dozen",
              strong=True),
    SeedClaim("house_empty_any_easier", "any single card into an empty column raises the win "
              "rate considerably", "seeds 000, 004", "easier", variant="house_empty_any",
              other="bakers_dozen", strong=True),
    SeedClaim("house_sequences_easier", "moving a built run as a unit raises the win rate "
              "considerably", "seeds 000, 004", "easier", variant="house_sequences",
              other="bakers_dozen", strong=True),
    SeedClaim("tip_plan_ahead", "plan several moves ahead: careless ordering is the most "
              "common cause of losses", "seeds 000, 004", "lookahead"),
    SeedClaim("tip_low_cards", "free the Aces first, then the Twos; dig out low cards buried "
              "deep early", "seeds 000, 004", "tip", other="low_cards"),
    SeedClaim("tip_space", "empty a column only when nothing needs the space",
              "seeds 000, 004", "tip", other="space"),
    SeedClaim("tip_traps", "a King over a Queen is a dead end: check for rank-inversion traps",
              "seeds 000, 004", "tip", other="traps"),
)  # fmt: skip


def default_data_dir() -> Path:
    """The ``data/`` directory of the repository this package sits in (in a clone;
    :func:`bakers_lab.files.datadir.find_data` says where the surveys are found)."""
    return repo_data_dir()


def load_surveys(data: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Every survey under ``data`` (a directory of surveys or a compact table;
    ``None``: where :func:`bakers_lab.files.datadir.find_data` finds them) in one table;
    ``variant`` and ``player`` as plain strings.

    Par is a column, never a player: the rows of ``shortest`` (the par table) are
    not a player's games, so they leave the table and their ``par`` and
    ``par_bound`` become columns of every row of the same deal
    (:func:`bakers_lab.study.par.as_column`); win rates, ladders, claims and charts
    fed from this table see players only.

    >>> from bakers_lab.files.datadir import shipped_table
    >>> t = load_surveys(shipped_table())  # the compact table: a second, not ten
    >>> "shortest" in set(t["player"]), int(t["par"].notna().sum()) > 0
    (False, True)
    """
    table = datadir.load_surveys(data)
    out = as_column(table)
    out.attrs.update(table.attrs)
    return out


def contents(surveys: pd.DataFrame) -> pd.DataFrame:
    """What a table of surveys holds, one row per variant and number of deals:
    ``variant``, ``deals`` (the deals each of those players played) and
    ``players`` (their names, in the order they first appear), most deals
    first — a table that stays narrow however many players were surveyed.

    >>> t = pd.DataFrame({"variant": ["bakers_dozen"] * 3, "deal": [1, 2, 1],
    ...                   "player": ["solver", "solver", "careful"]})
    >>> contents(t).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'variant': 'bakers_dozen', 'deals': 2, 'players': 'solver'},
     {'variant': 'bakers_dozen', 'deals': 1, 'players': 'careful'}]
    """
    if not isinstance(surveys, pd.DataFrame):
        raise ValueError(f"contents takes a table of surveys, not {describe(surveys)}")
    if not {"variant", "player"} <= set(surveys.columns):
        columns = ", ".join(str(c) for c in surveys.columns[:8]) or "none"
        raise ValueError(
            f"contents takes a table of surveys with variant and player columns, "
            f"not one with columns {shown(columns)}"
        )
    sizes = surveys.groupby(["variant", "player"], observed=True, sort=False).size()
    rows = []
    for variant in dict.fromkeys(str(v) for v in surveys["variant"]):
        counts = sizes[variant]
        for deals in sorted({int(n) for n in counts}, reverse=True):
            players = ", ".join(str(p) for p, n in counts.items() if int(n) == deals)
            rows.append({"variant": variant, "deals": deals, "players": players})
    return pd.DataFrame(rows, columns=["variant", "deals", "players"])


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _band(low: float, high: float) -> str:
    return f"{100 * low:g}–{100 * high:g} %"


def _rate_text(row: pd.Series) -> str:
    resolved = int(row["won"] + row["lost"])
    if resolved == 0:
        return f"{row['player']} resolved none of its {int(row['deals']):,} games"
    interval = f"{100 * row['ci_low']:.1f}–{100 * row['ci_high']:.1f} %"
    return f"{row['player']} {_pct(row['rate'])} ({interval}, n = {resolved:,})"


def _who(row: pd.Series) -> str:
    name = "perfect play" if row["player"] == "solver" else str(row["player"])
    return f"{name} ({_pct(row['rate'])})"


def _rates(table: pd.DataFrame, variant: str) -> pd.DataFrame:
    rows = table[table["variant"] == variant]
    if rows.empty:
        return pd.DataFrame()
    rates = win_rates(rows).set_index("player")
    order = [p for p in LADDER if p in rates.index]
    return rates.loc[order].reset_index()


def _level(x: float) -> str:
    return f"{100 * x:g} %"


def _dials(c: SeedClaim, table: pd.DataFrame) -> Iterator[tuple[str, pd.DataFrame]]:
    """(family, skill curve) of each strength dial surveyed (three settings or more,
    careful's included) for the claim's variant."""
    rows = table[table["variant"] == c.variant]
    for family in FAMILIES:
        try:
            curve = skill_curve(rows, family)
        except ValueError:
            continue
        if len(curve) >= 3:
            yield family, curve


def _enter_leave(c: SeedClaim, curve: pd.DataFrame) -> tuple[Crossing, Crossing | None]:
    """Where ``curve`` enters the claim's band and where it leaves it (None for a band
    that reaches 100 %: no win rate passes it)."""
    if c.high < 1:
        return locate(curve, c.low, c.high)
    return crossing(curve, c.low), None


def _dial_words(c: SeedClaim, table: pd.DataFrame) -> list[str]:
    """Where the claim's band sits on each strength dial surveyed for its variant."""
    out = []
    for family, curve in _dials(c, table):
        enter, leave = _enter_leave(c, curve)
        unit = _UNITS[family]
        n = f"{int(curve['n'].iloc[0]):,} deals"
        if enter.below:
            words = f"{family}-N wins {_level(c.low)} or more at every setting ({n})"
        elif enter.setting is None:
            top = curve.iloc[-1]
            words = (f"{family}-N stays below {_level(c.low)} up to {top['player']} "
                     f"({_pct(top['rate'])}; {n})")  # fmt: skip
        else:
            words = f"{family}-N reaches {_level(c.low)} at {enter.text(unit)}"
            if leave is not None and leave.setting is not None:
                words += f" and passes {_level(c.high)} at {leave.text()}"
            elif leave is not None:
                words += f" and is still within {_level(c.high)} at its strongest setting"
            words += f" ({n})"
        out.append(words)
    return out


def _judge_rate(c: SeedClaim, table: pd.DataFrame) -> tuple[str, str]:
    rates = _rates(table, c.variant)
    if rates.empty:
        return "no survey of this variant", "not tested"
    evidence = "; ".join(_rate_text(r) for _, r in rates.iterrows())
    band = _band(c.low, c.high)
    parts = _dial_words(c, table)
    rates = rates[rates["won"] + rates["lost"] > 0]  # one that resolved none has no rate
    solver = rates[rates["player"] == "solver"]
    players = rates[rates["player"] != "solver"]
    fits = [
        r["player"]
        for _, r in players.iterrows()
        if r["ci_low"] <= c.high and r["ci_high"] >= c.low
    ]
    if fits:
        parts.append(f"{band} fits {' and '.join(fits)} on the ladder")
    else:
        humans = players
        below = humans[humans["ci_high"] < c.low]
        above = humans[humans["ci_low"] > c.high]
        weaker = below.iloc[int(below["rate"].argmax())] if not below.empty else None
        stronger = above.iloc[int(above["rate"].argmin())] if not above.empty else None
        if players.empty:
            parts.append("no human-like player was surveyed")
        elif weaker is not None and stronger is not None:
            parts.append(f"on the ladder {band} lies between {_who(weaker)} and {_who(stronger)}")
        elif weaker is not None:
            parts.append(f"{band} is above every player of the ladder (the best, "
                         f"{weaker['player']}, wins {_pct(weaker['rate'])})")  # fmt: skip
        elif stronger is not None:
            parts.append(f"{band} is below every player of the ladder")
    if not solver.empty:
        top = solver.iloc[0]
        if top["ci_low"] > c.high:
            parts.append(f"not about solvability: {_pct(top['rate'])} of deals can be won")
        elif top["ci_high"] < c.low:
            parts.append(f"above what is possible: only {_pct(top['rate'])} can be won")
        else:
            parts.append(f"perfect play (the solver, {_pct(top['rate'])}) is the ceiling, "
                         f"not a player")  # fmt: skip
    text = "; ".join(parts)
    if text and not text.startswith(tuple(f"{f}-N" for f in FAMILIES)):
        text = text[:1].upper() + text[1:]  # a player's name keeps its case
    return evidence, text or "not tested"


def _judge_count(c: SeedClaim, table: pd.DataFrame) -> tuple[str, str]:
    rows = table[(table["variant"] == "bakers_dozen") & (table["player"] == "solver")]
    rows = rows[rows["deal"] <= 1000]
    if len(rows) < 1000:
        return "no solver survey of deals 1–1000", "not tested"
    out = rows.groupby(rows["outcome"].astype(str))["deal"].apply(list).to_dict()
    won, lost, unres = (out.get(k, []) for k in ("won", "lost", "unresolved"))
    evidence = (f"solver, deals 1–1000: {len(won)} solvable, unsolvable {lost}, "
                f"unresolved {unres}")  # fmt: skip
    ok = sorted(lost) == [64, 477] and len(won) + len(unres) == 998
    if ok and len(won) == 997:
        verdict = "Confirmed exactly"
    elif ok:
        verdict = f"Consistent: the same two unsolvable deals; {len(unres)} still open here"
    else:
        verdict = "Contradicted: the unsolvable deals differ"
    return evidence, verdict


def _paired_words(row: pd.Series) -> str:
    diff = 100 * row["diff"]
    p = row["p_value"]
    ptext = "p < 0.001" if p < 0.001 else f"p = {p:.3f}"
    return (f"{row['player']} {_pct(row['a_rate'])} vs {_pct(row['b_rate'])} "
            f"({diff:+.1f} points, {100 * row['diff_low']:+.1f} to {100 * row['diff_high']:+.1f}; "
            f"{ptext}; {int(row['deals']):,} deals)")  # fmt: skip


def _judge_variants(c: SeedClaim, table: pd.DataFrame) -> tuple[str, str]:
    rows = table[table["variant"].isin([c.variant, c.other])]
    players = [
        p for p in LADDER
        if all(((rows["variant"] == v) & (rows["player"] == p)).any() for v in (c.variant, c.other))
    ]  # fmt: skip
    if not players:
        return f"no player surveyed in both {c.variant} and {c.other}", "not tested"
    frame = pd.concat(
        [paired_comparison(rows, c.variant, c.other, by="variant", player=p) for p in players],
        ignore_index=True,
    )
    frame["player"] = players
    evidence = f"{c.variant} vs {c.other}: " + "; ".join(
        _paired_words(r) for _, r in frame.iterrows()
    )
    sign = -1 if c.kind == "harder" else 1
    people = frame["player"].isin(_LIKE_PEOPLE)
    weak = frame[~people & (frame["player"] != "solver")]
    humans = frame[people]
    judged = humans if not humans.empty else frame[frame["player"] == "solver"]
    significant = judged["p_value"] < _SIGNIFICANT
    agree = significant & (sign * judged["diff"] > 0)
    against = significant & (sign * judged["diff"] < 0)
    big = (sign * judged["diff"]) >= _CONSIDERABLE
    who = f"{', '.join(humans['player'])}" if not humans.empty else "the solver"
    if against.any():
        verdict = f"Contradicted: {', '.join(judged.loc[against, 'player'])} did the opposite"
    elif agree.all() and (big.all() or not c.strong):
        verdict = f"Supported for {who} (p < 0.01" + (", at least 10 points)" if c.strong else ")")
    elif agree.all():
        verdict = f"Partly: the difference is real for {who}, but below 10 points for some"
    else:
        verdict = f"Not shown: the difference is not significant for every one of {who}"
    opposite = weak[(weak["p_value"] < _SIGNIFICANT) & (sign * weak["diff"] < 0)]
    if len(opposite):
        names = ", ".join(opposite["player"])
        verdict += (f". Note: {names}, weaker than a person plays, did the opposite "
                    f"(judged on careful and stronger players only)")  # fmt: skip
    return evidence, verdict


def _judge_tip(c: SeedClaim, table: pd.DataFrame) -> tuple[str, str]:
    rows = table[table["variant"] == c.variant]
    name = f"careful-no_{c.other}"
    if not (rows["player"] == name).any():
        return f"no {name} survey", "not tested"
    r = ablation(rows[rows["player"].isin(["careful", name])]).iloc[0].copy()
    r["player"] = name
    evidence = "without the tip vs careful: " + _paired_words(r)
    excludes_zero = r["diff_low"] > 0 or r["diff_high"] < 0
    if r["p_value"] >= _SIGNIFICANT and excludes_zero:
        way = "less" if r["diff"] < 0 else "more"
        verdict = (f"A small effect, short of the 1 % level used for every claim: without it "
                   f"careful wins {abs(100 * r['diff']):.1f} points {way} "
                   f"({100 * r['diff_low']:+.1f} to {100 * r['diff_high']:+.1f}; "
                   f"p = {r['p_value']:.3f})")  # fmt: skip
    elif r["p_value"] >= _SIGNIFICANT:
        verdict = (f"No measurable effect for careful (p = {r['p_value']:.2f}; the 95 % interval "
                   f"{100 * r['diff_low']:+.1f} to {100 * r['diff_high']:+.1f} points "
                   f"includes no change)")  # fmt: skip
    elif r["diff"] < 0:
        verdict = f"Helps: without it careful wins {-100 * r['diff']:.1f} points less"
    else:
        verdict = f"Hurts: without it careful wins {100 * r['diff']:.1f} points more"
    return evidence, verdict


def _judge_lookahead(c: SeedClaim, table: pd.DataFrame) -> tuple[str, str]:
    rows = table[table["variant"] == c.variant]
    deeper = [
        p for p in ("lookahead-2", "lookahead-3", "lookahead-4") if (rows["player"] == p).any()
    ]
    if not deeper or not (rows["player"] == "careful").any():
        return "no careful and lookahead survey", "not tested"
    frame = pd.concat(
        [paired_comparison(rows, p, "careful").assign(player=p) for p in deeper],
        ignore_index=True,
    )
    evidence = "vs careful (look-ahead 1): " + "; ".join(
        _paired_words(r) for _, r in frame.iterrows()
    )
    gains = frame[(frame["p_value"] < _SIGNIFICANT) & (frame["diff"] > 0)]
    if len(gains) == len(frame):
        verdict = "Supported: every deeper look-ahead wins more (p < 0.01)"
    elif len(gains):
        verdict = f"Partly: {', '.join(gains['player'])} wins more (p < 0.01), not every depth"
    else:
        verdict = "Not shown: looking further ahead did not win significantly more"
    return evidence, verdict


_JUDGES = {
    "rate": _judge_rate,
    "count": _judge_count,
    "harder": _judge_variants,
    "easier": _judge_variants,
    "tip": _judge_tip,
    "lookahead": _judge_lookahead,
}


#: Columns of :func:`located_claims`.
LOCATED_COLUMNS = (
    "claim",
    "variant",
    "family",
    "low",
    "high",
    "enters",
    "enters_low",
    "enters_high",
    "leaves",
    "leaves_low",
    "leaves_high",
    "deals",
    "words",
)


def _surveys(data: object, who: str) -> pd.DataFrame:
    """The table of surveys ``data`` is: a table itself, or the surveys of a data
    folder (``None``: where :func:`bakers_lab.files.datadir.find_data` finds them)."""
    if isinstance(data, pd.DataFrame):
        return data
    if data is None or isinstance(data, (str, os.PathLike)):
        return load_surveys(data)
    raise ValueError(
        f"{who}: data must be a survey DataFrame (bl.survey or bl.read_survey) or a data "
        f"folder's path, not {kind_of(data)}"
    )


def _located_words(
    c: SeedClaim, family: str, curve: pd.DataFrame
) -> tuple[str, tuple[float | None, ...]]:
    """Where claim ``c``'s band sits on ``family``'s curve, in words, and the
    crossings' settings (enters, its range, leaves, its range)."""
    enter, leave = _enter_leave(c, curve)
    unit = _UNITS[family]
    first, top = curve.iloc[0], curve.iloc[-1]
    lowest = f"its lowest setting ({first['player']}: {_pct(first['rate'])}) already"
    strongest = f"the strongest setting surveyed ({top['player']}: {_pct(top['rate'])})"
    if enter.below:
        words = f"reaches {_level(c.low)} at {lowest}"
    elif enter.setting is None:
        words = f"does not reach {_level(c.low)} at {strongest}"
    else:
        words = f"reaches {_level(c.low)} at {enter.text(unit)}"
    if leave is not None and (enter.below or enter.setting is not None):
        if leave.below:
            words += f"; passes {_level(c.high)} at {lowest}"
        elif leave.setting is None:
            words += f"; does not pass {_level(c.high)} up to {strongest}"
        else:
            words += f"; passes {_level(c.high)} at {leave.text(unit)}"
    left = (None, None, None) if leave is None else (leave.setting, leave.low, leave.high)
    return f"{family}-N {words}", (enter.setting, enter.low, enter.high, *left)


def located_claims(data: pd.DataFrame | str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Where every win-rate claim sits on each strength dial surveyed for its
    variant: one row per (claim, family) with :data:`LOCATED_COLUMNS`.

    ``enters`` is the setting at which the win rate reaches the claim's ``low``,
    ``leaves`` the one at which it passes ``high``, each with its 95 % range
    (``*_low``, ``*_high``, from the Wilson band: see :mod:`bakers_lab.study.skill`);
    missing where the surveyed settings do not reach it; ``words`` says it.  A
    table with no dial of three settings or more for a claim's variant is refused."""
    table = _surveys(data, "located_claims")
    check_survey(table, who="located_claims", dial=tuple(FAMILIES))
    out = []
    for c in CLAIMS:
        if c.kind != "rate":
            continue
        for family, curve in _dials(c, table):
            words, settings = _located_words(c, family, curve)
            out.append((c.claim, c.variant, family, c.low, c.high, *settings,
                        int(curve["n"].iloc[0]), words))  # fmt: skip
    if not out:
        variants = sorted({c.variant for c in CLAIMS if c.kind == "rate"})
        raise ValueError(
            f"located_claims: no strength dial of three settings or more (careful's "
            f"included) is surveyed for a claim's variant ({', '.join(variants)})"
        )
    return pd.DataFrame(out, columns=list(LOCATED_COLUMNS))


def claims_table(data: pd.DataFrame | str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """One row per claim of :data:`CLAIMS`: ``claim``, ``source``, ``variant``,
    ``evidence`` and ``verdict``, from a table of surveys or a data directory
    (default: the repository's ``data/``)."""
    table = _surveys(data, "claims_table")
    # a dial's odd names would be left off its curve without a word: refused instead
    check_survey(table, who="claims_table", dial_names=("search", "undo"))
    rows = []
    for c in CLAIMS:
        evidence, verdict = _JUDGES[c.kind](c, table)
        rows.append({"claim": c.claim, "source": c.source, "variant": c.variant,
                     "evidence": evidence, "verdict": verdict})  # fmt: skip
    return pd.DataFrame(rows)


def format_claims(table: pd.DataFrame, *, markdown: bool = False) -> str:
    """The claims table as text: a Markdown table, or one block per claim."""
    if markdown:
        lines = ["| claim | source | measured | verdict |", "|---|---|---|---|"]
        for r in table.itertuples():
            cells = [f"{r.claim} ({r.variant})", r.source, r.evidence, r.verdict]
            lines.append("| " + " | ".join(str(x).replace("|", "/") for x in cells) + " |")
        return "\n".join(lines) + "\n"
    blocks = []
    for r in table.itertuples():
        blocks.append(f"{r.claim} [{r.source}; {r.variant}]\n  measured: {r.evidence}\n"
                      f"  verdict:  {r.verdict}")  # fmt: skip
    return "\n\n".join(blocks) + "\n"
