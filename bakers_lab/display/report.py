"""A survey's report: win rates, paired comparisons, par, what predicts a loss and
charts, as text for the terminal or as one self-contained HTML file (charts
embedded as PNG, no network needed to open it, nothing wider than the page).

It says what the notebooks say, from the same functions: the loss model is
:func:`bakers_lab.study.predict.loss_predictors` (``bl.loss_model``), its tables go
through :func:`bakers_lab.utils.present.for_people`, features are named in words
(:func:`bakers_lab.describe_features`), and par is a column, never a player
(:func:`bakers_lab.study.par.as_column`).

>>> import tempfile, bakers_lab as bl
>>> out = tempfile.mkdtemp() + "/s"
>>> _ = bl.survey("1-12", players="solver,careful", out=out, progress=False)
>>> print(report_text(build_report(out, progress=False)).splitlines()[0])
Survey s: Baker's Dozen; players careful, solver; 12 deals
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from bakers_lab.files.table import MANIFEST, SurveyError, read_manifest, read_survey
from bakers_lab.model.rules import rules, title
from bakers_lab.study.features import describe_features
from bakers_lab.study.par import PAR, as_column, excess_summary, pars
from bakers_lab.study.predict import loss_model
from bakers_lab.study.stats import LADDER, ablation, ladder, player_order, win_rates
from bakers_lab.study.tablecheck import check_survey
from bakers_lab.utils.present import fixed, for_people, styled
from bakers_lab.utils.validate import as_bool

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from bakers_lab.study.predict import LossPredictors

__all__ = ["MIN_OUTCOMES", "MIN_SHARE", "Report", "build_report", "report_html", "report_text"]

#: A loss model is fitted only for a player with at least this many wins and losses …
MIN_OUTCOMES = 20
#: … that wins, and loses, at least this share of its resolved deals (a player that
#: nearly always loses, like ``random``, has too few wins to tell deals apart by).
MIN_SHARE = 0.05


@dataclass(frozen=True)
class Report:
    """What a report shows, computed once from a survey directory.

    ``table``: the survey's games with par as a column (no ``shortest`` rows);
    ``par``: one row per deal of the par table (empty without one); ``over_par``:
    per player, how far above par its wins are (:func:`bakers_lab.study.par.excess_summary`;
    empty without par or wins beside it); ``models``: the loss model of each
    player of the ladder that wins and loses at least :data:`MIN_SHARE` of its
    deals."""

    path: Path
    table: pd.DataFrame = field(repr=False)
    rates: pd.DataFrame = field(repr=False)
    comparisons: pd.DataFrame = field(repr=False)
    ablations: pd.DataFrame = field(repr=False)
    models: tuple[LossPredictors, ...] = ()
    notes: tuple[str, ...] = ()
    config: dict[str, object] = field(default_factory=dict, repr=False)
    par: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)
    over_par: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)

    @property
    def headline(self) -> str:
        variants = ", ".join(_named(v) for v in _variants(self.table) or _variants(self.par))
        players = ", ".join(_ordered_players(self.table)) or "none"
        deals = pd.concat([self.table["deal"], self.par.get("deal", pd.Series())]).nunique()
        text = f"Survey {self.path.name}: {variants}; players {players}; {deals:,} deals"
        return text + ("; par" if len(self.par) else "")


def _named(variant: str) -> str:
    """A variant's name as the rules give it ("Baker's Dozen"); a custom one as it is."""
    try:
        return title(rules(variant))
    except ValueError:
        return variant


def _variants(table: pd.DataFrame) -> list[str]:
    return sorted(table["variant"].astype(str).unique()) if "variant" in table else []


def _ordered_players(table: pd.DataFrame) -> list[str]:
    return sorted({str(p) for p in table["player"].unique()}, key=player_order)


def _share(counts: pd.Series, outcome: str) -> float:
    resolved = int(counts.get("won", 0)) + int(counts.get("lost", 0))
    return int(counts.get(outcome, 0)) / resolved if resolved else 0.0


def _why_no_model(counts: pd.Series) -> str | None:
    """Why a player with these outcome counts gets no loss model (None: it gets one)."""
    for outcome, verb in (("won", "wins"), ("lost", "loses")):
        share = _share(counts, outcome)
        if share < MIN_SHARE:
            return (f"it {verb} {100 * share:.1f} % of its deals (under {100 * MIN_SHARE:g} %), "
                    f"too few to tell the deals apart by")  # fmt: skip
    if min(int(counts.get("won", 0)), int(counts.get("lost", 0))) < MIN_OUTCOMES:
        return f"fewer than {MIN_OUTCOMES} wins or losses"
    return None


def build_report(path: str | os.PathLike[str], *, progress: bool = True) -> Report:
    """Read the survey in ``path`` and compute everything the report shows.  The
    loss models take a while on large surveys (about half a minute a player on
    32,000 deals): ``progress`` shows a bar for them."""
    progress = as_bool(progress, "progress")
    raw = read_survey(path)  # a path with no survey raises SurveyError
    check_survey(raw, who="build_report", error=SurveyError)  # the folder's table as a whole
    config: dict[str, object] = {}
    manifest = Path(path) / MANIFEST
    if manifest.exists():
        config = read_manifest(manifest)  # a damaged one is named
    table = as_column(raw)
    par = raw[raw["player"].astype(str) == PAR]
    par = pars(raw) if len(par) else pd.DataFrame()
    over_par = pd.DataFrame()
    if len(par) and len(table):
        try:
            over_par = excess_summary(raw)
        except ValueError:  # no win beside a proven par
            over_par = pd.DataFrame()
    rates = win_rates(table)
    notes: list[str] = []
    comparisons, ablations, todo = [], [], []
    for variant in _variants(table):
        rows = table[table["variant"].astype(str) == variant]
        resolved = set(rows.loc[rows["outcome"].astype(str) != "unresolved", "player"].astype(str))
        players = []
        for p in _ordered_players(rows):
            if p in LADDER and p not in resolved:  # nothing to compare it on
                notes.append(f"no comparison with {p} in {variant}: it resolved no deal")
            elif p in LADDER:
                players.append(p)
        if len(players) >= 2:
            try:
                comparisons.append(ladder(rows, players, variant=variant).assign(variant=variant))
            except ValueError as exc:
                notes.append(f"no comparison of {variant}'s players: {exc}")
        ablated = any(str(p).startswith("careful-no_") for p in rows["player"].unique())
        if ablated and (rows["player"] == "careful").any():
            try:
                ablations.append(ablation(rows, variant=variant).assign(variant=variant))
            except ValueError as exc:
                notes.append(f"no ablation of {variant}: {exc}")
        for p in players:
            counts = rows.loc[rows["player"] == p, "outcome"].astype(str).value_counts()
            why = _why_no_model(counts)
            if why:
                notes.append(f"No loss model for {p} in {_named(variant)}: {why}.")
            else:
                todo.append((variant, p))
    models = []
    for variant, p in _bar(todo, progress):
        rows = table[table["variant"].astype(str) == variant]
        try:
            models.append(loss_model(rows, p, variant=variant))
        except ValueError as exc:
            notes.append(f"No loss model for {p} in {_named(variant)}: {exc}.")
    return Report(
        Path(path),
        table,
        rates,
        pd.concat(comparisons, ignore_index=True) if comparisons else pd.DataFrame(),
        pd.concat(ablations, ignore_index=True) if ablations else pd.DataFrame(),
        tuple(models),
        tuple(notes),
        config,
        par,
        over_par,
    )


def _bar(todo: list[tuple[str, str]], progress: bool) -> Iterable[tuple[str, str]]:
    """``todo``, with a progress bar (on stderr) while it is gone through."""
    if not progress or not todo:
        return todo
    from tqdm.auto import tqdm

    return tqdm(todo, desc="loss models", unit="player")  # type: ignore[no-any-return]


# -- the tables, in words ----------------------------------------------------------------------


def _one_variant(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without its ``variant`` column where it holds one variant (the
    headline names it), else with each variant's name as the rules give it."""
    if "variant" not in frame.columns:
        return frame
    names = frame["variant"].astype(str)
    if names.nunique() <= 1:
        return frame.drop(columns="variant")
    return frame.assign(variant=[_named(v) for v in names])


def _fmt_rates(rates: pd.DataFrame) -> pd.DataFrame:
    return for_people(_one_variant(rates))


def _fmt_paired(frame: pd.DataFrame) -> pd.DataFrame:
    cols = ["variant", "a", "b", "deals", "a_rate", "b_rate", "diff", "diff_low", "diff_high",
            "a_only", "b_only", "p_value"]  # fmt: skip
    if "tip" in frame.columns:
        cols.insert(1, "tip")
    return for_people(_one_variant(frame[cols]))


def _meanings() -> dict[str, str]:
    table = describe_features()
    return {
        str(n): str(m).rstrip(".") for n, m in zip(table["name"], table["meaning"], strict=True)
    }


def _in_words(feature: str) -> str:
    """A feature as a person reads it: its meaning, never its column name."""
    return _meanings().get(feature, feature.removeprefix("f_").replace("_", " "))


def _fmt_families(model: LossPredictors) -> pd.DataFrame:
    """The trees beside the line, one row per family, in words."""
    f = model.families

    def spans(lo: pd.Series, hi: pd.Series, places: int) -> list[str]:
        return [f"{fixed(a, places)} to {fixed(b, places)}" if not math.isnan(a) else "—"
                for a, b in zip(lo, hi, strict=True)]  # fmt: skip

    words = pd.DataFrame(
        {
            "group": f["group"],
            "measure": [_in_words(str(x)) for x in f["feature"]],
            "odds_ratio": [fixed(v, 2) for v in f["odds_ratio"]],
            "odds_span": spans(f["odds_low"], f["odds_high"], 2),
            "p_value_wald": f["p_value_wald"],
            "auc_drop": [fixed(v, 3) for v in f["auc_drop"]],
            "drop_span": spans(f["drop_low"], f["drop_high"], 3),
        }
    )
    return for_people(words)


def _fmt_over_par(over: pd.DataFrame) -> pd.DataFrame:
    shown = over.reset_index(names="player")
    shown = shown.rename(columns={"wins": "wins beside a proven par", "moves": "median_moves",
                                  "par": "median_par", "excess": "median_excess",
                                  "excess_pct": "median_excess_pct"})  # fmt: skip
    shown["median_excess_pct"] = [f"{v:.0f} %" for v in shown["median_excess_pct"]]
    return for_people(shown)


def _par_words(par: pd.DataFrame) -> str:
    proven = par["par"].notna()
    bounded = par["par"].isna() & par["par_bound"].notna()
    n, k = len(par), int(proven.sum())
    text = (f"Par is the fewest moves that win a deal (foundation moves included), proven by "
            f"A*; it is a column beside every player's games, not a player. Of the {n:,} "
            f"deals of the par table, {k:,} have it proven")  # fmt: skip
    if proven.any():
        text += f" (median {float(par.loc[proven, 'par'].median()):g} moves)"
    if bounded.any():
        text += f" and {int(bounded.sum()):,} only a lower bound on it"
    return text + "."


_LOSS_INTRO = (
    f"For each player of the ladder that wins and loses at least {100 * MIN_SHARE:g} % of its "
    "deals: a straight line (logistic regression on one feature per family of features that "
    "measure nearly the same thing) and gradient-boosted trees on every feature, both scored "
    "on the same 30 % of the deals held out. The odds say how much more likely a loss is per "
    "standard deviation more of the family's feature; the AUC lost is how much worse the "
    "trees foretell a loss when that family is shuffled among the deals (larger: matters "
    "more). The same model as notebook 03 and bl.loss_model."
)


def _config_words(config: dict[str, object]) -> str:
    hidden = ("rules", "deals_sha256", "format", "chunk_size")  # for the program, not the reader
    names = {"max_nodes": "solver's budget (positions a deal)",
             "shortest_max_nodes": "par search's budget (positions a deal)"}  # fmt: skip
    parts = []
    for key, value in config.items():
        if key in hidden or key.endswith("_sha256") or isinstance(value, dict):
            continue  # checksums of the deals and of each chunk: the program's, not words
        if key == "players" and isinstance(value, list | tuple):  # par is not a player
            shown = ", ".join(str(v) for v in value if v != PAR)
            if PAR in value:
                parts.append("par: searched for every deal")
        elif isinstance(value, list | tuple):
            shown = ", ".join(str(v) for v in value)
        elif isinstance(value, int) and not isinstance(value, bool):
            shown = f"{value:,}"
        else:
            shown = str(value)
        parts.append(f"{names.get(key, key.replace('_', ' '))}: {shown}")
    return "; ".join(parts)


def report_text(path: str | os.PathLike[str] | Report) -> str:
    """The report as plain text for the terminal (charts only in the HTML report)."""
    rep = path if isinstance(path, Report) else build_report(path)
    parts = [rep.headline]
    if len(rep.rates):
        parts += ["", "Win rates (over resolved deals; 95 % Wilson intervals):",
                  _fmt_rates(rep.rates).to_string(index=False)]  # fmt: skip
    if not rep.comparisons.empty:
        parts += ["", "Adjacent players on the same deals (difference in points, 95 % "
                  "Newcombe interval, McNemar exact p):",
                  _fmt_paired(rep.comparisons).to_string(index=False)]  # fmt: skip
    if not rep.ablations.empty:
        parts += ["", "Tip ablation (careful without one tip vs careful):",
                  _fmt_paired(rep.ablations).to_string(index=False)]  # fmt: skip
    if len(rep.par):
        parts += ["", textwrap.fill(_par_words(rep.par), 88)]
        if len(rep.over_par):
            parts += [_fmt_over_par(rep.over_par).to_string(index=False)]
    if rep.models:
        parts += ["", "What predicts a loss?", textwrap.fill(_LOSS_INTRO, 88)]
    for m in rep.models:
        parts += ["", textwrap.fill(m.summary(), 88), _fmt_families(m).to_string(index=False)]
    if rep.notes:
        parts += ["", *(textwrap.fill(n, 88) for n in rep.notes)]
    parts += ["", "Charts: bakers-lab report PATH --html OUT"]
    return "\n".join(parts) + "\n"


# -- the HTML page -----------------------------------------------------------------------------


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="chart" src="data:image/png;base64,{data}">'


def _wrapped(text: str, width: int) -> str:
    return textwrap.fill(" ".join(text.split()), width)


def _chart_in_words(fig: Figure, feature: str, what: str) -> Figure:
    """Name ``feature`` in words in the chart's title and axis label."""
    ax = fig.axes[0]
    detail = ax.get_title().split("\n")[-1]  # how many deals, which intervals
    ax.set_title(_wrapped(what, 60) + "\n" + detail)
    ax.set_xlabel(_wrapped(ax.get_xlabel().replace(f"{feature}; ", "").replace(feature, ""), 80))
    return fig


def _figures(rep: Report) -> list[tuple[str, Figure]]:
    from bakers_lab.display import plots

    figs: list[tuple[str, Figure]] = []
    table = rep.table
    variants = _variants(table)
    for v in variants:
        name = _named(v)
        figs.append((f"Win rates, {name}", plots.win_rate_chart(table, variant=v)))
        rows = table[table["variant"].astype(str) == v]
        names = set(rows["player"].astype(str))
        if "careful" in names and any(n.startswith("lookahead-") for n in names):
            figs.append((f"Look-ahead depth, {name}", plots.lookahead_chart(table, variant=v)))
        if "solver" in names:
            feature = "f_inversions"
            words = _in_words(feature)
            fig = plots.effort_chart(table, feature, variant=v)
            what = f"How hard the solver worked against the {words[:1].lower()}{words[1:]}"
            figs.append((f"Solver effort, {name}", _chart_in_words(fig, feature, what)))
    if len(variants) > 1:
        figs.append(("Win rate per variant", plots.variant_chart(table)))
    if len(rep.par) and len(rep.over_par):
        raw = pd.concat([rep.table, rep.par.assign(player=PAR)], ignore_index=True)
        figs.append(("Par and the moves above it", plots.par_chart(raw)))
    charted: dict[tuple[str, str], list[str]] = {}
    for m in rep.models:
        figs.append((f"What {m.player}'s losses depend on, {_named(m.variant)}",
                     plots.importance_chart(m)))  # fmt: skip
        if m.what_matters_most() is not None:  # only what the intervals say matters most
            charted.setdefault((m.variant, m.strongest_feature()), []).append(m.player)
    for (v, feature), players in charted.items():
        words = _in_words(feature)
        what = f"Win rate by {words[:1].lower()}{words[1:]}, {_named(v)}"
        fig = plots.decile_chart(table, feature, variant=v)
        whose = " and ".join(players)
        figs.append((f"Win rate by the family that matters most for {whose}",
                     _chart_in_words(fig, feature, what)))  # fmt: skip
    return figs


def _hardest(rep: Report, count: int = 3) -> list[str]:
    from bakers_lab.model.deals import deal

    solver = rep.table[rep.table["player"] == "solver"]
    if solver.empty:
        return []
    pick = solver.sort_values("nodes", ascending=False, kind="stable").head(count)
    out = []
    for row in pick.itertuples():
        d = deal(row.deal, variant=str(row.variant)) if str(row.variant) != "custom" else None
        if d is not None:
            out.append(
                f"<h3>Game {row.deal}: {row.outcome}, {row.nodes:,} positions searched</h3>"
                f"<div class='board'>{d.to_html(layout='7+6')}</div>"
            )
    return out


_CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45;overflow-wrap:break-word}
table{border-collapse:collapse;font-size:14px;display:block;max-width:100%;overflow-x:auto;
margin:0.5em 0 1em}
td,th{border:1px solid #ccc;padding:3px 8px;vertical-align:top}th{background:#f3f3f3}
img{max-width:100%;height:auto}.board{max-width:100%;overflow-x:auto}
p.summary{background:#f7f7f7;padding:0.6em 1em;border-left:4px solid #0072B2}"""


def _table_html(frame: pd.DataFrame) -> str:
    """``frame`` as a notebook shows it (:func:`~bakers_lab.utils.present.styled`); short cells
    (names, numbers, intervals) never break inside, long text wraps."""
    short = [c for c in frame.columns if frame[c].astype(str).str.len().max() <= 20]
    style = styled(frame)
    if short and len(frame):
        style = style.set_properties(subset=short, **{"white-space": "nowrap"})
    return str(style.to_html())


def report_html(path: str | os.PathLike[str] | Report) -> str:
    """The report as one self-contained HTML page (charts embedded as PNG images)."""
    rep = path if isinstance(path, Report) else build_report(path)
    esc = html.escape
    body = [f"<h1>{esc(rep.headline)}</h1>"]
    if rep.config:
        body.append(f"<p>Survey settings: {esc(_config_words(rep.config))}</p>")
    if len(rep.rates):
        body += ["<h2>Win rates</h2><p>Over resolved deals; 95 % Wilson intervals.</p>",
                 _table_html(_fmt_rates(rep.rates))]  # fmt: skip
    if not rep.comparisons.empty:
        body += ["<h2>Adjacent players on the same deals</h2><p>Difference in points with "
                 "its 95 % Newcombe interval; McNemar's exact test.</p>",
                 _table_html(_fmt_paired(rep.comparisons))]  # fmt: skip
    if not rep.ablations.empty:
        body += ["<h2>Tip ablation</h2><p>Careful without one tip against careful, on the "
                 "same deals.</p>", _table_html(_fmt_paired(rep.ablations))]  # fmt: skip
    if len(rep.par):
        body += ["<h2>Par</h2>", f"<p>{esc(_par_words(rep.par))}</p>"]
        if len(rep.over_par):
            body += ["<p>How far above par each player's wins are:</p>",
                     _table_html(_fmt_over_par(rep.over_par))]  # fmt: skip
    if rep.models:
        body += ["<h2>What predicts a loss?</h2>", f"<p>{esc(_LOSS_INTRO)}</p>"]
    for m in rep.models:
        body += [f"<h3>{esc(m.player)}, {esc(_named(m.variant))}</h3>",
                 f"<p class='summary'>{esc(m.summary())}</p>",
                 _table_html(_fmt_families(m))]  # fmt: skip
    if rep.notes:
        body += [f"<p><em>{esc(note)}</em></p>" for note in rep.notes]
    figures = _figures(rep)
    if figures:
        body.append("<h2>Charts</h2>")
    for heading, fig in figures:
        body.append(f"<h3>{esc(heading)}</h3>{_png(fig)}")
    boards = _hardest(rep)
    if boards:
        body += ["<h2>The deals the solver worked hardest on</h2>", *boards]
    head = esc(rep.headline)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{head}</title><style>{_CSS}</style></head><body>{''.join(body)}"
            f"</body></html>\n")  # fmt: skip


def write_html(path: str | os.PathLike[str] | Report, out: str | os.PathLike[str]) -> Path:
    """Write the HTML report of the survey in ``path`` (or a built report) to ``out``."""
    target = Path(out)
    if target.is_dir():
        raise SurveyError(f"{target} is a directory; give a file name like report.html")
    page = report_html(path)
    target.write_text(page, encoding="utf-8")
    return target
