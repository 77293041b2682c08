"""A survey's report: win rates, paired comparisons, loss models and charts, as text
for the terminal or as one self-contained HTML file (charts embedded as PNG, no
network needed to open it).

>>> import tempfile, bakers_lab as bl
>>> out = tempfile.mkdtemp() + "/s"
>>> _ = bl.survey("1-12", players="solver,careful", out=out, progress=False)
>>> print(report_text(out).splitlines()[0])
Survey s: bakers_dozen; players solver, careful; 12 deals
"""

from __future__ import annotations

import base64
import html
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .present import for_people
from .stats import LADDER, LossModel, ablation, ladder, loss_model, player_order, win_rates
from .table import MANIFEST, SurveyError, read_manifest, read_survey

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["Report", "build_report", "report_html", "report_text"]

#: A loss model is fitted when the player has at least this many wins and losses.
MIN_OUTCOMES = 20


@dataclass(frozen=True)
class Report:
    """What a report shows, computed once from a survey directory."""

    path: Path
    table: pd.DataFrame = field(repr=False)
    rates: pd.DataFrame = field(repr=False)
    comparisons: pd.DataFrame = field(repr=False)
    ablations: pd.DataFrame = field(repr=False)
    models: tuple[LossModel, ...] = ()
    notes: tuple[str, ...] = ()
    config: dict[str, object] = field(default_factory=dict, repr=False)

    @property
    def headline(self) -> str:
        variants = ", ".join(sorted(self.table["variant"].astype(str).unique()))
        players = ", ".join(str(p) for p in self.table["player"].cat.categories)
        deals = self.table["deal"].nunique()
        return f"Survey {self.path.name}: {variants}; players {players}; {deals:,} deals"


def _ordered_players(table: pd.DataFrame) -> list[str]:
    return sorted((str(p) for p in table["player"].cat.categories), key=player_order)


def build_report(path: str | os.PathLike[str]) -> Report:
    """Read the survey in ``path`` and compute everything the report shows."""
    table = read_survey(path)  # a path with no survey raises SurveyError
    config: dict[str, object] = {}
    manifest = Path(path) / MANIFEST
    if manifest.exists():
        config = read_manifest(manifest)  # a damaged one is named
    rates = win_rates(table)
    notes: list[str] = []
    comparisons, ablations, models = [], [], []
    for variant in sorted(table["variant"].astype(str).unique()):
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
        for p in _ordered_players(rows):
            counts = rows.loc[rows["player"] == p, "outcome"].astype(str).value_counts()
            if min(counts.get("won", 0), counts.get("lost", 0)) < MIN_OUTCOMES:
                notes.append(
                    f"no loss model for {p} in {variant}: fewer than {MIN_OUTCOMES} wins or losses"
                )
                continue
            try:
                models.append(loss_model(rows, p, variant=variant))
            except ValueError as exc:
                notes.append(f"no loss model for {p} in {variant}: {exc}")
    return Report(
        Path(path),
        table,
        rates,
        pd.concat(comparisons, ignore_index=True) if comparisons else pd.DataFrame(),
        pd.concat(ablations, ignore_index=True) if ablations else pd.DataFrame(),
        tuple(models),
        tuple(notes),
        config,
    )


def _fmt_rates(rates: pd.DataFrame) -> pd.DataFrame:
    return for_people(rates)


def _fmt_paired(frame: pd.DataFrame) -> pd.DataFrame:
    cols = ["variant", "a", "b", "deals", "a_rate", "b_rate", "diff", "diff_low", "diff_high",
            "a_only", "b_only", "p_value"]  # fmt: skip
    if "tip" in frame.columns:
        cols.insert(1, "tip")
    return for_people(frame[cols])


def report_text(path: str | os.PathLike[str] | Report) -> str:
    """The report as plain text for the terminal (charts only in the HTML report)."""
    rep = path if isinstance(path, Report) else build_report(path)
    parts = [rep.headline, "", "Win rates (over resolved deals; 95 % Wilson intervals):",
             _fmt_rates(rep.rates).to_string(index=False)]  # fmt: skip
    if not rep.comparisons.empty:
        parts += ["", "Adjacent players on the same deals (difference in points, 95 % "
                  "Newcombe interval, McNemar exact p):",
                  _fmt_paired(rep.comparisons).to_string(index=False)]  # fmt: skip
    if not rep.ablations.empty:
        parts += ["", "Tip ablation (careful without one tip vs careful):",
                  _fmt_paired(rep.ablations).to_string(index=False)]  # fmt: skip
    for m in rep.models:
        parts += ["", str(m)]
    if rep.notes:
        parts += ["", *rep.notes]
    parts += ["", "Charts: bakers-lab report PATH --html OUT"]
    return "\n".join(parts) + "\n"


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="chart" src="data:image/png;base64,{data}">'


def _figures(rep: Report) -> list[tuple[str, Figure]]:
    from . import plots

    figs: list[tuple[str, Figure]] = []
    table = rep.table
    variants = sorted(table["variant"].astype(str).unique())
    for v in variants:
        figs.append((f"Win rates, {v}", plots.win_rate_chart(table, variant=v)))
        rows = table[table["variant"].astype(str) == v]
        names = set(rows["player"].astype(str))
        if "careful" in names and any(n.startswith("lookahead-") for n in names):
            figs.append((f"Look-ahead depth, {v}", plots.lookahead_chart(table, variant=v)))
        if "solver" in names:
            figs.append(
                (f"Solver effort, {v}", plots.effort_chart(table, "f_inversions", variant=v))
            )
    if len(variants) > 1:
        figs.append(("Win rate per variant", plots.variant_chart(table)))
    for m in rep.models:
        figs.append((f"Loss model, {m.player} ({m.variant})", plots.odds_ratio_chart(m)))
        top = m.strongest_feature()
        figs.append(
            (f"Win rate by {top}, {m.variant}", plots.decile_chart(table, top, variant=m.variant))
        )
    return figs


def _hardest(rep: Report, count: int = 3) -> list[str]:
    from .deals import deal

    solver = rep.table[rep.table["player"] == "solver"]
    if solver.empty:
        return []
    pick = solver.sort_values("nodes", ascending=False, kind="stable").head(count)
    out = []
    for row in pick.itertuples():
        d = deal(row.deal, variant=str(row.variant)) if str(row.variant) != "custom" else None
        if d is not None:
            out.append(
                f"<h3>Game {row.deal}: {row.outcome}, {row.nodes:,} nodes</h3>" + d.to_html()
            )
    return out


_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:14px}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:right}th{background:#f3f3f3}img{max-width:100%}pre{background:#f7f7f7;padding:1em}"""


def report_html(path: str | os.PathLike[str] | Report) -> str:
    """The report as one self-contained HTML page (charts embedded as PNG images)."""
    rep = path if isinstance(path, Report) else build_report(path)
    body = [f"<h1>{html.escape(rep.headline)}</h1>"]
    if rep.config:
        hidden = ("rules", "deals_sha256", "format")  # for the program, not the reader
        conf = ", ".join(f"{k}: {v}" for k, v in rep.config.items() if k not in hidden)
        body.append(f"<p>Configuration: {html.escape(conf)}</p>")
    body += ["<h2>Win rates</h2><p>Over resolved deals; 95 % Wilson intervals.</p>",
             _fmt_rates(rep.rates).to_html(index=False)]  # fmt: skip
    if not rep.comparisons.empty:
        body += ["<h2>Adjacent players on the same deals</h2><p>Difference in points with "
                 "its 95 % Newcombe interval; McNemar's exact test.</p>",
                 _fmt_paired(rep.comparisons).to_html(index=False)]  # fmt: skip
    if not rep.ablations.empty:
        body += ["<h2>Tip ablation</h2>", _fmt_paired(rep.ablations).to_html(index=False)]
    for m in rep.models:
        body.append(f"<h2>Loss model: {html.escape(m.player)}</h2><pre>{html.escape(str(m))}</pre>")
    for note in rep.notes:
        body.append(f"<p><em>{html.escape(note)}</em></p>")
    body.append("<h2>Charts</h2>")
    for title, fig in _figures(rep):
        body.append(f"<h3>{html.escape(title)}</h3>{_png(fig)}")
    boards = _hardest(rep)
    if boards:
        body += ["<h2>The deals the solver worked hardest on</h2>", *boards]
    title = html.escape(rep.headline)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>"
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")  # fmt: skip


def write_html(path: str | os.PathLike[str] | Report, out: str | os.PathLike[str]) -> Path:
    """Write the HTML report of the survey in ``path`` (or a built report) to ``out``."""
    target = Path(out)
    if target.is_dir():
        raise SurveyError(f"{target} is a directory; give a file name like report.html")
    page = report_html(path)
    target.write_text(page, encoding="utf-8")
    return target
