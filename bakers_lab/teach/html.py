"""The reports of :mod:`bakers_lab.teach` as Jupyter shows them (HTML).

The reports call :func:`report_html` from their ``_repr_html_`` (this module
imports none of them); pictures of positions come from :mod:`bakers_lab.model.render`.

>>> from bakers_lab.teach.results import Check, SearchReport
>>> r = SearchReport("bfs", (Check("legal", "every line is legal", True, 1, 1, "on 3 deals"),),
...                  (), 3, 0.5)
>>> html = report_html(r)
>>> html.startswith('<div class="bakers-lab-teach"'), "every line is legal" in html
(True, True)
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from bakers_lab.model.render import board_html

if TYPE_CHECKING:  # the reports call this module: it needs their names only for types
    from bakers_lab.teach.results import Failure, Report

__all__ = ["failure_html", "report_html"]

_MARK = {True: ("passed", "#1a7f37"), False: ("failed", "#cf222e"), None: ("not judged", "#9a6700")}


def _lines_html(lines: tuple[tuple[str, tuple[str, ...] | None], ...]) -> str:
    rows = max((len(m) if m else 1) for _, m in lines)
    head = "".join(f"<th style='padding:0 12px'>{escape(label)}</th>" for label, _ in lines)
    body = []
    for i in range(rows):
        cells = []
        for _, moves in lines:
            text = (
                "(none)"
                if moves is None and i == 0
                else (moves[i] if moves is not None and i < len(moves) else "")
            )
            cells.append(f"<td style='padding:0 12px;font-family:monospace'>{escape(text)}</td>")
        body.append(
            f"<tr><td style='color:#777;text-align:right'>{i + 1}</td>{''.join(cells)}</tr>"
        )
    return f"<table><tr><th></th>{head}</tr>{''.join(body)}</table>"


def failure_html(f: Failure) -> str:
    """One failure: its sentence, the position's picture, its values and lines."""
    parts = [f"<p><b>On {escape(str(f.case))}:</b> {escape(f.sentence)}</p>"]
    row = []
    if f.position:
        state = f.case.position(f.position)
        title = f.board.splitlines()[0] if f.board else ""
        picture = board_html(state.columns, state.foundations, title=title)
        row.append(f"<div style='width:{120 + 70 * len(state.columns)}px'>{picture}</div>")
    if f.values:
        vals = "".join(
            f"<tr><td>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>" for k, v in f.values
        )
        row.append(f"<table>{vals}</table>")
    if f.lines and any(m for _, m in f.lines):
        row.append(_lines_html(f.lines))
    if row:
        cells = "".join(f"<div style='margin-right:24px'>{x}</div>" for x in row)
        parts.append(
            f"<div style='display:flex;align-items:flex-start;flex-wrap:wrap'>{cells}</div>"
        )
    if f.trace:
        parts.append(f"<pre style='background:#fff4f4;padding:6px'>{escape(f.trace)}</pre>")
    return "".join(parts)


def report_html(report: Report) -> str:
    """The whole report: its summary, each check passed or failed, the failures."""
    rows = []
    for c in report.checks:
        word, colour = _MARK[c.passed]
        rows.append(
            f"<tr><td style='color:{colour};font-weight:bold'>{word}</td>"
            f"<td>{escape(c.title)}</td>"
            f"<td>{escape(c.report)}</td></tr>"
        )
    parts = [
        "<div class=\"bakers-lab-teach\" style='max-width:1200px'>",
        f"<p><b>{escape(report.summary())}</b></p>",
        f"<table>{''.join(rows)}</table>",
    ]
    for f in sorted(report.failures, key=lambda f: f.case):
        parts.append("<hr>" + failure_html(f))
    informed = getattr(report, "informed", ())  # a HeuristicReport's heuristics
    if informed:
        cells = "".join(
            f"<tr><td>{escape(i.name)}</td><td>{i.mean_ratio:.3f}</td>"
            f"<td>{'admissible' if i.admissible else 'not admissible'}</td></tr>"
            for i in informed
        )
        parts.append(
            f"<p>How informed (mean of h / true distance; 1.0 is exact):</p><table>{cells}</table>"
        )
    parts.append("</div>")
    return "".join(parts)
