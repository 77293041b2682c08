"""How :class:`bakers_lab.study.strength.Strength` looks in a notebook: its HTML, a string
built beside the record (as a board's picture is built beside the board), with no display
library.  This module needs :mod:`~bakers_lab.study.strength`'s names for types only."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pandas as pd

from bakers_lab.model.rules import rules as _rules
from bakers_lab.model.rules import title
from bakers_lab.utils.present import for_people, styled

if TYPE_CHECKING:
    from bakers_lab.study.strength import Strength

__all__ = ["strength_html"]


def _titled(t: pd.DataFrame) -> pd.DataFrame:
    return t.assign(variant=[title(_rules(str(v))) for v in t["variant"]])


def _rates(s: Strength) -> pd.DataFrame:
    return for_people(_titled(s.rates).rename(columns={"n": "games"}))


#: The paired table's columns as for_people names them, and as a person reads them here.
_PAIRED_WORDS = {
    "A's win rate": "your win rate",
    "B's win rate": "its win rate",
    "A minus B (points)": "you minus it (points)",
    "deals only A won": "games only you won",
    "deals only B won": "games only it won",
}


def _paired(s: Strength) -> pd.DataFrame:
    t = _titled(s.paired).rename(
        columns={"you_rate": "a_rate", "you_only": "a_only", "player": "bot", "n": "games"}
    )
    return for_people(t).rename(columns=_PAIRED_WORDS)


def strength_html(s: Strength) -> str:
    """The summary in words, then the tables: win rates, you against each bot on the
    same deals, and the lost games that could have been won."""
    parts = [f"<p>{html.escape(line)}</p>" for line in s.summary().splitlines() if line]
    parts.append("<h4>Win rates on your deals</h4>")
    parts.append(styled(_rates(s)).to_html())
    if len(s.paired):
        parts.append("<h4>You against each bot, game by game</h4>")
        parts.append(styled(_paired(s)).to_html())
    if len(s.winnable):
        parts.append("<h4>Lost games that could have been won</h4>")
        t = _titled(s.winnable).astype({"lost_at": "object"})
        t["lost_at"] = [None if pd.isna(v) else int(v) + 1 for v in t["lost_at"]]
        parts.append(styled(for_people(t.rename(columns={"lost_at": "lost at move"}))).to_html())
    return "<div>" + "\n".join(parts) + "</div>"
