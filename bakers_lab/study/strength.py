"""How good am I?  A person's games beside the bots' games on the same deals.

:func:`strength` takes a person's record (which deals they played, of which
variant, and whether they won) and says, per variant:

- their win rate with its 95 % Wilson interval, beside every ladder player
  (``random`` … ``lookahead-4``) and every dial setting (``search-N``,
  ``undo-N``) **on the same deals**, paired as :func:`bakers_lab.ladder` pairs
  players: the games both won, the games only one won, McNemar's exact test and
  Newcombe's paired interval of the difference;
- where they sit on each dial (the setting whose win rate on these deals equals
  theirs, with a 95 % range);
- the games they lost that could have been won (the solver wins them), with each
  deal's difficulty and, where their moves are given, the move that lost it
  (:func:`bakers_lab.explain`).

The bots' games come from the shipped survey tables (``data/``) where those hold
the deal, and are played on the spot otherwise (PySolFC's default game numbers have
10 to 20 digits): by :func:`bakers_lab.study.survey`, in parallel, with a progress bar,
into a cache folder (the user's cache folder by default) that a second call reads
back at once.

>>> import pandas as pd
>>> games = pd.DataFrame({"deal": [1, 2, 3, 4], "variant": "bakers_dozen",
...                       "won": [True, False, True, True]})
>>> s = strength(games, progress=False)
>>> print(s.summary().splitlines()[0])
Baker's Dozen: you won 3 of 4 (75 %, 95 %: 30–95 %).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bakers_lab.files.datadir import DataSource, find_data
from bakers_lab.files.table import SurveyError
from bakers_lab.model.deals import DealError, game_number
from bakers_lab.model.rules import rules as _rules
from bakers_lab.model.rules import title, variant_names
from bakers_lab.solve.players import GAMES_VERSION
from bakers_lab.study.skill import (
    FAMILIES,
    LOWEST_SETTING,
    dial_scale,
    dial_unscale,
    family_setting,
    first_reach,
    round_setting,
)
from bakers_lab.study.stats import paired_row, player_order, wilson_interval
from bakers_lab.study.strength_html import strength_html
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import describe, shown

__all__ = [
    "DIAL_PLAYERS",
    "GAME_COLUMNS",
    "LADDER",
    "ON_DEMAND",
    "Strength",
    "StrengthError",
    "default_cache",
    "strength",
    "unplayed",
]

#: The columns of a person's record; ``moves`` (the moves played, in this toolkit's
#: notation) is optional.
GAME_COLUMNS = ("deal", "variant", "won")
#: The ladder's players, weakest first (``lookahead-4`` is in the shipped tables only).
LADDER = ("random", "greedy", "careful", "lookahead-2", "lookahead-3", "lookahead-4")
#: The dial settings played on the spot for a deal the shipped tables lack: a decade
#: apart, as far as the shipped dial surveys go (``search-1`` and ``undo-0`` are
#: ``careful``), and ``search-3000`` where the search dial climbs fastest (87 % at
#: ``search-1000``, 96 % at 3,000, 98 % at 10,000 on deals 1-2,000: without it a
#: person who wins 95 % would be read off a straight line from 1,000 to 10,000).
DIAL_PLAYERS = (
    "search-10",
    "search-100",
    "search-1000",
    "search-3000",
    "search-10000",
    "search-100000",
    "undo-1",
    "undo-10",
    "undo-100",
    "undo-1000",
    "undo-10000",
    "undo-100000",
)
#: Everything played on the spot for a deal the shipped tables lack (the solver says
#: which lost games could have been won, and ``greedy``, ``careful`` and
#: ``lookahead-2`` rate the deal).
ON_DEMAND = ("solver", *LADDER[:5], *DIAL_PLAYERS)
#: Deals of one chunk of an on-the-spot survey (small: the progress bar moves, and a
#: killed run loses little).
_CHUNK = 5
#: The readers' column names this module maps to its own.
_ALIASES = {
    "deal": ("deal", "game_number", "game number", "number", "game"),
    "won": ("won", "outcome", "result", "won/lost", "won_lost"),
}


class StrengthError(ValueError):
    """A record of games :func:`strength` cannot read (one line, naming the problem)."""


# -- the person's record ---------------------------------------------------------------------


def _column(table: pd.DataFrame, name: str) -> str:
    for alias in _ALIASES.get(name, (name,)):
        if alias in table.columns:
            return alias
    raise StrengthError(
        f"games lacks a {name} column: give a table with columns "
        f"{', '.join(GAME_COLUMNS)} (moves optional), or a list of (deal, variant, won); "
        f"its columns are {shown(', '.join(map(str, table.columns)), 120)}"
    )


def _won(value: object, row: int) -> bool:
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("won", "lost"):
        return value.strip().lower() == "won"
    raise StrengthError(
        f"games row {row + 1}: won must be True or False (or 'won' / 'lost'), not {describe(value)}"
    )


def _record(games: object) -> pd.DataFrame:
    """The person's games as a table ``deal`` (int), ``variant`` (a preset's name),
    ``won`` (bool), ``moves`` (str or None), in the order given; anything else is
    refused in one line."""
    if isinstance(games, pd.DataFrame):
        table = games
        if "player" in table.columns and table["player"].nunique() > 1:
            names = sorted(str(p) for p in table["player"].unique())
            raise StrengthError(
                f"games holds {len(names)} players ({shown(', '.join(names), 120)}); "
                "keep one player's rows"
            )
        deals = table[_column(table, "deal")].tolist()
        won_col = table[_column(table, "won")].tolist()
        variants = (
            table["variant"].tolist()
            if "variant" in table.columns
            else ["bakers_dozen"] * len(table)
        )
        moves = table["moves"].tolist() if "moves" in table.columns else [None] * len(table)
    elif isinstance(games, Iterable) and not isinstance(games, str | bytes):
        items = list(games)
        for i, item in enumerate(items):
            if not isinstance(item, tuple | list) or len(item) not in (3, 4):
                raise StrengthError(
                    f"games item {i + 1} must be (deal, variant, won) or "
                    f"(deal, variant, won, moves), not {describe(item)}"
                )
        deals = [it[0] for it in items]
        variants = [it[1] for it in items]
        won_col = [it[2] for it in items]
        moves = [it[3] if len(it) == 4 else None for it in items]
    else:
        raise StrengthError(
            f"games must be a DataFrame with columns {', '.join(GAME_COLUMNS)} or a list of "
            f"(deal, variant, won), not {describe(games)}"
        )
    if not deals:
        raise StrengthError("games holds no game: give at least one (deal, variant, won)")
    known = variant_names()
    out_deals: list[int] = []
    out_variants: list[str] = []
    out_won: list[bool] = []
    out_moves: list[str | None] = []
    for i, (d, v, w, m) in enumerate(zip(deals, variants, won_col, moves, strict=True)):
        try:
            out_deals.append(game_number(d))
        except (DealError, ValueError):
            raise StrengthError(
                f"games row {i + 1}: deal must be a PySolFC game number, not {describe(d)}"
            ) from None
        if not isinstance(v, str) or v not in known:
            raise StrengthError(
                f"games row {i + 1}: variant must be one of {', '.join(known)}, not {describe(v)}"
            )
        out_variants.append(v)
        out_won.append(_won(w, i))
        if m is not None and not (isinstance(m, float) and math.isnan(m)):
            if not isinstance(m, str):
                raise StrengthError(
                    f"games row {i + 1}: moves must be text like 'AD>F 5S>6D', not {describe(m)}"
                )
            out_moves.append(m)
        else:
            out_moves.append(None)
    return pd.DataFrame(
        {"deal": pd.Series(out_deals, dtype=object), "variant": out_variants,
         "won": out_won, "moves": pd.Series(out_moves, dtype=object)}
    )  # fmt: skip


# -- the bots' games -------------------------------------------------------------------------


def _source() -> DataSource | None:
    """Where the shipped survey tables are, as every reader of them finds them
    (:func:`~bakers_lab.files.datadir.find_data`: the clone's ``data/``, or the compact
    table an installed wheel carries); None where there are none."""
    try:
        return find_data()
    except SurveyError:
        return None


def default_cache() -> Path:
    """The folder the games played on the spot are kept in: the user's cache folder
    (``platformdirs``), ``strength`` under it."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("bakers_lab")) / "strength"


def _wanted(player: str) -> bool:
    return player == "solver" or player in LADDER or family_setting(player) is not None


def _shelf(variant: str, deals: Sequence[int]) -> pd.DataFrame:
    """The shipped rows (``deal``, ``player``, ``outcome``, ``nodes``) of ``variant``
    for ``deals``: only the columns needed, only the wanted players, read straight
    from the chunk files or from the compact table (the shipped tables are checked
    by their own tests): the same rows in a clone and in an installed wheel."""
    import pyarrow as pa
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

    columns = ["deal", "player", "outcome", "nodes"]
    small = sorted({d for d in deals if d < 2**63})
    source = _source()
    if not small or source is None:
        return pd.DataFrame(columns=columns)
    keys = pa.array(small, pa.int64())
    if source.kind == "compact":
        files = [source.path]
    else:
        files = []
        for manifest in sorted(source.path.glob("*/_survey.json")):
            config = json.loads(manifest.read_text())
            players = config.get("players", [])
            if config.get("variant") == variant and any(map(_wanted, players)):
                files += sorted(manifest.parent.glob("chunk-*.parquet"))
    parts: list[pd.DataFrame] = []
    for file in files:
        t = pq.read_table(file, columns=[*columns, "variant"])
        deal = pc.cast(t["deal"], pa.int64())
        keep = pc.and_(pc.is_in(deal, value_set=keys),
                       pc.equal(pc.cast(t["variant"], pa.string()), variant))  # fmt: skip
        t = t.set_column(0, "deal", deal).filter(keep).select(columns)
        if t.num_rows:
            parts.append(t.to_pandas())
    if not parts:
        return pd.DataFrame(columns=columns)
    rows = pd.concat(parts, ignore_index=True)
    rows = rows.assign(player=rows["player"].astype(str), outcome=rows["outcome"].astype(str))
    rows = rows[rows["player"].map(_wanted)]
    rows = rows.assign(deal=[int(d) for d in rows["deal"]])
    return rows.drop_duplicates(["deal", "player"], ignore_index=True)


def _cache_dir(cache: Path, variant: str, deals: Sequence[int], players: Sequence[str]) -> Path:
    key = json.dumps([variant, list(players), [str(d) for d in deals]])
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache / f"{variant}-{len(deals)}-{digest}"


def _cached(variant: str, players: Sequence[str], cache: Path, deals: set[int]) -> pd.DataFrame:
    """The rows of ``deals`` that earlier calls played into ``cache`` (every finished
    folder of the same variant and players; an unfinished or damaged one is skipped,
    and a call with its deals resumes it)."""
    from bakers_lab.study.survey import SurveyError, read_survey

    parts = []
    for manifest in sorted(cache.glob("*/_survey.json")):
        try:
            config = json.loads(manifest.read_text())
        except (OSError, ValueError):
            config = None
        if not isinstance(config, dict) or not {"variant", "players"} <= set(config):
            _forget(manifest.parent)
            continue
        if config.get("variant") != variant or config.get("players") != list(players):
            continue
        try:
            t = read_survey(manifest.parent)
        except (OSError, ValueError, SurveyError):
            continue
        t = t[["deal", "player", "outcome", "nodes"]]
        t = t.assign(deal=[int(d) for d in t["deal"]])
        parts.append(t[t["deal"].isin(deals)])
    if not parts:
        return pd.DataFrame(columns=["deal", "player", "outcome", "nodes"])
    t = pd.concat(parts, ignore_index=True).drop_duplicates(["deal", "player"])
    return t.assign(player=t["player"].astype(str), outcome=t["outcome"].astype(str))


#: How this module names a folder of its cache: ``{variant}-{deals}-{digest}``.
_CACHE_NAME = re.compile(r"[a-z_]+-[0-9]+-[0-9a-f]{20}")


def _forget(folder: Path) -> None:
    """Delete a folder of the cache whose ``_survey.json`` is damaged (its games are
    played again into a new one), saying so in one line; a folder this module did not
    name is left alone."""
    import shutil
    import sys

    if not _CACHE_NAME.fullmatch(folder.name):
        return
    shutil.rmtree(folder, ignore_errors=True)
    print(f"{shown(str(folder), 200)} was damaged (its _survey.json is not a survey's): "
          f"removed; its games are played again", file=sys.stderr, flush=True)  # fmt: skip


def _complete(rows: pd.DataFrame, players: Sequence[str]) -> set[int]:
    """The deals of ``rows`` that every one of ``players`` has a row of."""
    have = rows[rows["player"].isin(players)].groupby("deal")["player"].nunique()
    return {int(d) for d in have.index[have == len(players)]}


def unplayed(
    games: pd.DataFrame | Iterable[tuple[object, ...]],
    *,
    cache: str | os.PathLike[str] | None = None,
    players: Sequence[str] = ON_DEMAND,
) -> list[tuple[str, int]]:
    """The (variant, deal) pairs of ``games`` that :func:`strength` (with the same
    ``cache`` and ``players``) would play on the spot: in neither the shipped tables
    nor the cache.  Quick (it reads tables, plays nothing), so a page can say how
    much work is ahead, and play them a few at a time to show its progress.

    >>> unplayed([(1, "bakers_dozen", True), (2, "bakers_dozen", False)])
    []
    """
    mine = _record(games)
    folder = _folder(cache)
    bots = _bots(players)
    out: list[tuple[str, int]] = []
    for variant in sorted(set(mine["variant"]), key=variant_names().index):
        deals = sorted({int(d) for d in mine[mine["variant"] == variant]["deal"]})
        shipped = _complete(_shelf(variant, deals), bots)
        missing = [d for d in deals if d not in shipped]
        if missing and folder.is_dir():
            done = _complete(_cached(variant, bots, folder, set(missing)), bots)
            missing = [d for d in missing if d not in done]
        out += [(variant, d) for d in missing]
    return out


def _folder(cache: object) -> Path:
    """Where in the cache folder asked for (the default one for ``None``) the games of
    today's players are kept (:data:`~bakers_lab.solve.players.GAMES_VERSION`: a game an
    older version played is never read as one of today's), or refused in one line."""
    if cache is not None and (not isinstance(cache, str | os.PathLike) or not str(cache)):
        raise StrengthError(f"cache must be a folder path, not {describe(cache)}")
    base = Path(cache) if cache is not None else default_cache()
    return base / f"games-{GAMES_VERSION}"


def _on_demand(
    variant: str,
    deals: Sequence[int],
    players: Sequence[str],
    cache: Path,
    n_jobs: int,
    progress: bool,
) -> pd.DataFrame:
    """The rows of ``players`` on ``deals``: those earlier calls played, read back from
    ``cache``, and the others played now (in parallel) into a folder of ``cache``
    named by the deals and players it holds."""
    import sys

    from bakers_lab.study.survey import survey

    cache.mkdir(parents=True, exist_ok=True)
    known = _cached(variant, players, cache, set(deals))
    done = _complete(known, players)
    todo = [d for d in deals if d not in done]
    parts = [known[known["deal"].isin(done)]]
    if todo:
        out = _cache_dir(cache, variant, todo, players)
        if progress:
            pace = (
                "; about a quarter of a second a deal on one core"
                if tuple(players) == ON_DEMAND
                else ""
            )
            print(f"Playing {counted(len(todo), 'deal')} the shipped tables lack "
                  f"({counted(len(players), 'bot')} each{pace}); kept in {cache}",
                  file=sys.stderr, flush=True)  # fmt: skip
        t = survey(list(todo), variant, list(players), out=out, n_jobs=n_jobs,
                   chunk_size=_CHUNK, progress=progress)  # fmt: skip
        t = t[["deal", "player", "outcome", "nodes"]]
        parts.append(t.assign(player=t["player"].astype(str), outcome=t["outcome"].astype(str),
                              deal=[int(d) for d in t["deal"]]))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _bot_rows(
    variant: str,
    deals: Sequence[int],
    players: Sequence[str],
    cache: Path,
    n_jobs: int,
    progress: bool,
) -> tuple[pd.DataFrame, int]:
    """Every bot's row on ``deals`` (one per deal and player) and how many deals were
    played on the spot: a deal the shipped tables hold for every one of ``players``
    comes from them (with whatever else they hold), any other is played now."""
    shelf = _shelf(variant, deals)
    shipped = _complete(shelf, players)
    missing = sorted({d for d in deals if d not in shipped})
    parts = [shelf[shelf["deal"].isin(shipped)]]
    if missing:
        parts.append(_on_demand(variant, missing, players, cache, n_jobs, progress))
    rows = pd.concat(parts, ignore_index=True)
    return rows, len(missing)


# -- the result ------------------------------------------------------------------------------

#: Columns of :attr:`Strength.rates`.
RATE_COLUMNS = ("variant", "player", "won", "n", "deals", "rate", "ci_low", "ci_high")
#: Columns of :attr:`Strength.paired`.
PAIRED_COLUMNS = (
    "variant", "player", "n", "you_rate", "b_rate", "diff", "diff_low", "diff_high",
    "you_only", "b_only", "p_value",
)  # fmt: skip
#: Columns of :attr:`Strength.dials`.
DIAL_COLUMNS = ("variant", "family", "where", "estimate", "low", "high", "n", "settings")
#: Columns of :attr:`Strength.winnable`.
WINNABLE_COLUMNS = (
    "variant", "deal", "difficulty", "search_effort", "undo_effort", "lost_at", "move",
)  # fmt: skip


@dataclass(frozen=True)
class Strength:
    """What :func:`strength` found, as tidy tables (one row per thing estimated).

    - ``rates``: per variant, the person (``player == "you"``) and every bot that
      played all of their deals: games won, ``n`` games (on ``deals`` different
      deals), ``rate`` with its 95 %
      Wilson interval (``ci_low``, ``ci_high``); each bot plays each of the person's
      games on the same deal.
    - ``paired``: per variant and bot, the person against the bot on the same deals,
      game by game: ``n`` games paired (as in ``rates``: a deal played twice is two
      pairs), ``you_rate``, ``b_rate``, ``diff`` (yours minus the bot's) with Newcombe's
      paired 95 % interval, the games only you won (``you_only``) and only the bot
      won (``b_only``), and McNemar's exact ``p_value``.
    - ``dials``: per variant and dial (``search``, ``undo``), where the person sits:
      ``where`` is ``at`` (``estimate`` the setting), ``below`` (weaker than the
      lowest setting, ``careful``) or ``above`` (stronger than the strongest
      setting played), with the 95 % range ``low``–``high`` (NaN where it runs off
      the dial) and ``n`` games; ``settings`` the settings played.
    - ``winnable``: the lost games the solver wins, each with its deal's
      ``difficulty`` (:func:`bakers_lab.difficulty`'s tag), the smallest dial settings
      that won it, and, where the moves were given, ``lost_at`` (the 0-based index of
      the move after which it could no longer be won) and that ``move``.
    """

    rates: pd.DataFrame
    paired: pd.DataFrame
    dials: pd.DataFrame
    winnable: pd.DataFrame
    #: Games in the record, and deals played on the spot (not in the shipped tables).
    games: int
    played_now: int

    def summary(self) -> str:
        """What the tables say, in words for a player."""
        out = []
        for variant in self.rates["variant"].unique():
            rates = self.rates[self.rates["variant"] == variant]
            you = rates[rates["player"] == "you"].iloc[0]
            n = int(you["n"])
            lines = [
                f"{title(_rules(str(variant)))}: you won {int(you['won']):,} of {n:,} "
                f"({100 * you['rate']:.0f} %, 95 %: {100 * you['ci_low']:.0f}–"
                f"{100 * you['ci_high']:.0f} %)."
            ]
            bots = rates[rates["player"] != "you"]
            shown_bots = [p for p in (*LADDER, "search-1000", "search-100000")
                          if p in set(bots["player"])]  # fmt: skip
            if shown_bots:
                words = ", ".join(
                    f"{p} {int(bots[bots['player'] == p]['won'].iloc[0]):,}" for p in shown_bots
                )
                d = int(you["deals"])
                same = "On the same deal" if d == 1 else f"On the same {d:,} deals"
                if d < n:  # a deal played twice is played twice by every bot too
                    same += f", each as often as you played it ({n:,} games),"
                lines.append(f"{same} the bots win: {words}.")
            dials = self.dials[self.dials["variant"] == variant]
            if len(dials) and (dials["where"] == "below").all():
                lines.append("You win less often than careful, the lowest setting of every dial.")
            elif len(dials):
                lines.append("You play like " + " or ".join(_dial_text(r) for _, r in
                                                           dials.iterrows()) + ".")  # fmt: skip
            lost = self.winnable[self.winnable["variant"] == variant]
            losses = n - int(you["won"])
            if losses:
                if not len(lost):
                    who = "your lost game" if losses == 1 else f"any of your {losses:,} lost games"
                    head = f"The solver finds no win of {who}"
                else:
                    if len(lost) == losses:
                        who = (
                            "Your lost game"
                            if losses == 1
                            else f"All {losses:,} of your lost games"
                        )
                    else:
                        who = f"{len(lost):,} of your {counted(losses, 'lost game')}"
                    items = [_lost_text(r) for _, r in lost.head(10).iterrows()]
                    more = f" and {len(lost) - 10:,} more" if len(lost) > 10 else ""
                    head = f"{who} could have been won: " + "; ".join(items) + more
                lines.append(head + ".")
            out.append("\n".join(lines))
        return "\n\n".join(out)

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return strength_html(self)


def _setting_name(family: str, setting: float) -> str:
    """A dial setting as a player's name is typed: ``search-10000``, never with a
    thousands separator (``search-10,000`` names no player).

    >>> _setting_name("search", 10_000), _setting_name("undo", 1234.5)
    ('search-10000', 'undo-1200')
    """
    return f"{family}-{round_setting(setting).replace(',', '')}"


def _dial_text(row: pd.Series) -> str:
    family = str(row["family"])
    lowest = int(row["settings"][0])
    lo, hi = float(row["low"]), float(row["high"])
    if row["where"] == "below":
        return f"less than {family}-N's lowest setting (careful)"
    if row["where"] == "above":
        top = int(row["settings"][-1])
        low = "" if math.isnan(lo) else f" (95 %: {_setting_name(family, lo)} or more)"
        return f"more than {family}-{top}, the strongest setting played{low}"
    est = _setting_name(family, float(row["estimate"]))
    if math.isnan(hi):
        if math.isnan(lo) or lo <= lowest:
            return f"{est} (95 %: any setting; more games would tell)"
        return f"{est} (95 %: {round_setting(lo)} or more)"
    if math.isnan(lo) or lo <= lowest:
        return f"{est} (95 %: at most {round_setting(hi)})"
    return f"{est} (95 %: {round_setting(lo)}–{round_setting(hi)})"


def _lost_text(row: pd.Series) -> str:
    text = f"game {int(row['deal'])} ({row['difficulty']})"
    if row["move"] is not None and isinstance(row["move"], str):
        text += f", lost at move {int(row['lost_at']) + 1}, {row['move']}"
    return text


# -- the estimates ---------------------------------------------------------------------------


def _located(
    variant: str, family: str, settings: list[tuple[int, dict[str, object]]], you: float, n: int
) -> dict[str, object]:
    """Where the person's rate ``you`` sits on one dial, from the paired rows of the
    person against each setting (weakest first)."""
    values = np.array([s for s, _ in settings], dtype=float)
    xs = dial_scale(family, values)
    rates = np.array([float(r["b_rate"]) for _, r in settings])  # type: ignore[arg-type]
    lows = np.array([float(r["diff_low"]) for _, r in settings])  # type: ignore[arg-type]
    highs = np.array([float(r["diff_high"]) for _, r in settings])  # type: ignore[arg-type]

    def back(x: float | None) -> float:
        if x is None:
            return math.nan
        return float(values[0]) if x == -math.inf else dial_unscale(family, x)

    # the range: from the first setting you are no longer surely better than (the
    # interval of your lead reaches 0) to the first you are surely worse than
    low, high = back(first_reach(xs, -lows, 0.0)), back(first_reach(xs, -highs, 0.0))
    if you < rates[0]:
        where, estimate = "below", math.nan
    elif you == rates[0]:
        where, estimate = "at", float(values[0])
    else:
        at = first_reach(xs, rates, you)
        where, estimate = ("above", math.nan) if at is None else ("at", back(at))
    return {"variant": variant, "family": family, "where": where, "estimate": estimate,
            "low": low, "high": high, "n": n,
            "settings": tuple(int(v) for v in values)}  # fmt: skip


def _variant_tables(
    variant: str, mine: pd.DataFrame, rows: pd.DataFrame
) -> tuple[list[dict[str, object]], list[dict[str, object]], list[dict[str, object]]]:
    """Rates, paired rows and dial locations of one variant."""
    n = len(mine)
    index = pd.RangeIndex(n)
    you = pd.Series(np.where(mine["won"].to_numpy(), "won", "lost"), index=index)
    won = int(mine["won"].sum())
    lo, hi = wilson_interval(won, n)
    deals = [int(d) for d in mine["deal"]]
    different = len(set(deals))
    rates: list[dict[str, object]] = [
        {"variant": variant, "player": "you", "won": won, "n": n, "deals": different,
         "rate": won / n, "ci_low": lo, "ci_high": hi}
    ]  # fmt: skip
    paired: list[dict[str, object]] = []
    by_player: dict[str, pd.Series] = {}
    for player, g in rows[rows["player"] != "solver"].groupby("player"):
        outcome = dict(zip(g["deal"], g["outcome"], strict=True))
        if all(d in outcome for d in deals):
            by_player[str(player)] = pd.Series([outcome[d] for d in deals], index=index)
    for player in sorted(by_player, key=player_order):
        theirs = by_player[player]
        w = int((theirs == "won").sum())
        lo, hi = wilson_interval(w, n)
        rates.append({"variant": variant, "player": player, "won": w, "n": n,
                      "deals": different, "rate": w / n, "ci_low": lo,
                      "ci_high": hi})  # fmt: skip
        row = paired_row("you", player, you, theirs, f"{variant}, the same deals")
        paired.append({"variant": variant, "player": player, "n": row["deals"],
                       "you_rate": row["a_rate"], "b_rate": row["b_rate"],
                       "diff": row["diff"], "diff_low": row["diff_low"],
                       "diff_high": row["diff_high"], "you_only": row["a_only"],
                       "b_only": row["b_only"], "p_value": row["p_value"]})  # fmt: skip
    dials: list[dict[str, object]] = []
    by_name = {str(r["player"]): r for r in paired}
    for family in FAMILIES:
        settings: dict[int, dict[str, object]] = {}
        for name, r in by_name.items():
            fs = family_setting(name)
            if fs is not None and fs[0] == family:
                settings[fs[1]] = r
        if "careful" in by_name:
            settings[1 if family == "search" else 0] = by_name["careful"]
        if len(settings) >= 3:
            dials.append(_located(variant, family, sorted(settings.items()), won / n, n))
    return rates, paired, dials


def _winnable(
    variant: str, mine: pd.DataFrame, rows: pd.DataFrame, explain_moves: bool
) -> list[dict[str, object]]:
    """The person's lost games that the solver wins, with difficulty and losing move."""
    from bakers_lab.study.coach import ExplainError, explain
    from bakers_lab.study.rating import RATERS, Difficulty, rated, tag_of

    solver = rows[rows["player"] == "solver"].set_index("deal")
    out: list[dict[str, object]] = []
    for _, game in mine[~mine["won"]].iterrows():
        d = int(game["deal"])
        if d not in solver.index or solver.loc[d, "outcome"] != "won":
            continue
        rating: Difficulty | None = rated(d, variant)
        if rating is not None:
            tag, search, undo = rating.tag, rating.search_effort, rating.undo_effort
        else:
            mine_rows = rows[(rows["deal"] == d) & (rows["outcome"] == "won")]
            won_by = set(mine_rows["player"])
            tag = tag_of([p for p in RATERS if p in won_by], "won", int(solver.loc[d, "nodes"]))
            efforts: dict[str, int | None] = {}
            for family in FAMILIES:
                s = [fs[1] for p in won_by if (fs := family_setting(p)) and fs[0] == family]
                if "careful" in won_by:  # careful plays each dial's lowest setting: undo-0 too
                    s.append(LOWEST_SETTING[family])
                efforts[family] = min(s) if s else None
            search, undo = efforts["search"], efforts["undo"]
        lost_at: int | None = None
        move: str | None = None
        if explain_moves and game["moves"] is not None:
            try:
                e = explain(d, game["moves"], variant=variant, with_par=False)
            except ExplainError as exc:
                raise StrengthError(f"games: the moves of game {d} ({variant}): {exc}") from None
            if e.status == "lost_at" and e.move is not None:
                lost_at, move = e.index, str(e.move)
        out.append({"variant": variant, "deal": d, "difficulty": tag,
                    "search_effort": search, "undo_effort": undo,
                    "lost_at": lost_at, "move": move})  # fmt: skip
    return out


def _bots(players: object) -> tuple[str, ...]:
    """The players to play on the spot, the solver first; refused in one line."""
    from bakers_lab.study.survey import parse_players

    if isinstance(players, str) or not isinstance(players, Iterable):
        raise StrengthError(f"players must be a list of player names, not {describe(players)}")
    names = [p for p in players if p != "solver"]
    try:
        return parse_players(["solver", *names])
    except ValueError as exc:
        raise StrengthError(f"players: {exc}") from None


def strength(
    games: pd.DataFrame | Iterable[tuple[object, ...]],
    *,
    cache: str | os.PathLike[str] | None = None,
    players: Sequence[str] = ON_DEMAND,
    n_jobs: int = -1,
    progress: bool = True,
    explain_moves: bool = True,
) -> Strength:
    """How good a person is, from their games: see :class:`Strength` for the tables.

    ``games`` is a DataFrame with columns ``deal`` (a PySolFC game number),
    ``variant`` (a preset's name; Baker's Dozen when there is no such column) and
    ``won`` (True/False, or ``'won'``/``'lost'``), and optionally ``moves`` (the
    moves played, text like ``'AD>F 5S>6D'``); or a list of ``(deal, variant, won)``
    or ``(deal, variant, won, moves)``.  The statistics reader's table is taken too:
    ``game_number`` / ``game number`` for ``deal`` and ``outcome`` / ``result`` for
    ``won``, one player's rows only.  A deal played twice counts twice, each time
    against the bots' game of that deal.

    The bots play each deal the shipped tables lack (``data/``, every
    :data:`ON_DEMAND` player) now: in parallel (``n_jobs``, every core by default),
    with a progress bar (``progress``), kept in ``cache`` (the user's cache folder by
    default: :func:`default_cache`), so a second call with the same deals reads them
    back.  ``players``: the bots played on the spot (:data:`ON_DEMAND` by default;
    the solver is always among them, and a deal the shipped tables hold for every one
    of them is not played again).  ``explain_moves``: find the losing move of each
    lost winnable game whose moves are given (a few solves each).

    **Where you sit on a dial.**  The estimate is the setting (interpolated on the
    dial's log scale, as :func:`bakers_lab.study.skill.crossing` does) whose win rate on
    *your* deals equals yours.  Its 95 % range runs from the first setting whose
    paired interval of the difference (yours minus the setting's, Newcombe's, on the
    same deals) reaches 0 to the first whose interval lies wholly below 0: the
    settings you are not told apart from.  So the range covers the chance in both
    records, your own win rate's (the deals you happened to get and how you played
    them) and the bots' on those deals, with the pairing taken into account; it does
    not cover that the curve between two settings played is drawn as a straight line.

    >>> s = strength([(1, "bakers_dozen", True), (2, "bakers_dozen", False)], progress=False)
    >>> row = s.paired.set_index("player").loc["careful"]  # careful lost both
    >>> int(row["you_only"]), int(row["b_only"])
    (1, 0)
    """
    from bakers_lab.utils.validate import as_bool, as_int

    mine = _record(games)
    n_jobs = as_int(n_jobs, "n_jobs", error=StrengthError)
    progress = as_bool(progress, "progress", error=StrengthError)
    explain_moves = as_bool(explain_moves, "explain_moves", error=StrengthError)
    folder = _folder(cache)
    bots = _bots(players)
    rates: list[dict[str, object]] = []
    paired: list[dict[str, object]] = []
    dials: list[dict[str, object]] = []
    winnable: list[dict[str, object]] = []
    played = 0
    for variant in sorted(set(mine["variant"]), key=variant_names().index):
        own = mine[mine["variant"] == variant].reset_index(drop=True)
        deals = sorted({int(d) for d in own["deal"]})
        rows, now = _bot_rows(variant, deals, bots, folder, n_jobs, progress)
        played += now
        r, p, d = _variant_tables(variant, own, rows)
        rates += r
        paired += p
        dials += d
        winnable += _winnable(variant, own, rows, explain_moves)
    return Strength(
        rates=pd.DataFrame(rates, columns=list(RATE_COLUMNS)),
        paired=pd.DataFrame(paired, columns=list(PAIRED_COLUMNS)),
        dials=pd.DataFrame(dials, columns=list(DIAL_COLUMNS)),
        winnable=pd.DataFrame(winnable, columns=list(WINNABLE_COLUMNS)),
        games=len(mine),
        played_now=played,
    )
