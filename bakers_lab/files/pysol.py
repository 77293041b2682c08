"""A PySolFC player's own files: saved games and statistics, read safely.

PySolFC (the program whose game numbers :func:`bakers_lab.deal` deals) keeps a
player's games in two kinds of file, both Python pickles, read here without
running anything from them (:mod:`bakers_lab.files.pysolfile`) and without pysollib:

- a **saved game** ("Save" / "Save as", ``*.pso``): :func:`read_pysol_game`
  gives the :class:`~bakers_lab.model.deals.Deal` (game number and variant, from
  PySolFC's game id), the moves played so far in this toolkit's notation
  (PySolFC's automatic moves to the foundations included: each is a move of
  its own), replayed by the rule engine and checked against the position the
  save holds;
- the **statistics** (``statistics.dat`` in PySolFC's folder):
  :func:`read_pysol_stats` gives its full log as a table, one row a game.

>>> import bakers_lab as bl
>>> g = bl.read_pysol_game("tests/data/pysolfc/bakers_dozen_1_won.pso")
>>> g.deal.number, g.deal.variant, len(g.moves), g.won
(1, 'bakers_dozen', 73, True)
>>> str(g.moves[0])
'AD>F'
>>> t = bl.read_pysol_stats("tests/data/pysolfc/statistics.dat", player="bob")
>>> t.loc[0, "game_type"], t.loc[0, "game_number"], t.loc[0, "result"]
("Baker's Dozen", 123456789012345, 'perfect')
>>> t.attrs["note"]
'1 game of another family left out: Klondike'
"""

from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pandas as pd

from bakers_lab.files.pysolfile import Loaded, PysolFileError, load_all
from bakers_lab.model.cards import Card, Suit
from bakers_lab.model.deals import Deal, deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Dest, IllegalMoveError, Move
from bakers_lab.model.rules import PRESETS, Rules
from bakers_lab.utils.validate import shown, shown_int

__all__ = [
    "DEMO",
    "PYSOLFC_NAMES",
    "PysolFileError",
    "PysolGame",
    "read_pysol_game",
    "read_pysol_stats",
]

#: PySolFC's names of its game types, by game id: the Baker's Dozen type of
#: PySolFC (pysollib/games/bakersdozen.py) and a few common others.  A game id
#: not here is named "PySolFC game N".
PYSOLFC_NAMES: dict[int, str] = {
    31: "Baker's Dozen", 83: "Castles in Spain", 84: "Martha", 85: "Spanish Patience",
    86: "Good Measure", 104: "Cruel", 291: "Royal Family", 308: "Portuguese Solitaire",
    369: "Ripple Fan", 404: "Perseverance", 515: "Indefatigable",
    664: "Spanish Patience II", 823: "Unusual", 860: "Baker's Dozen (2 Decks)",
    876: "Vineyard", 907: "Stewart", 977: "Relaxed Cruel",
    1: "Gypsy", 2: "Klondike", 8: "FreeCell", 9: "Seahaven Towers", 11: "Spider",
    13: "Forty Thieves", 19: "Yukon", 29: "Scorpion", 34: "Beleaguered Castle",
    36: "Golf", 38: "Pyramid", 56: "Fan", 105: "Canfield", 258: "Eight Off",
    901: "La Belle Lucie",
}  # fmt: skip

#: PySolFC's log status, in PySolFC's words (its "Full log": Lost, Won, Perfect).
_STATUS = {0: "lost", 1: "won", 2: "perfect"}

_MS_BIT = 1 << 1000  # PySolFC's mark on a Microsoft-numbered deal ("ms123")
_CUSTOM_BIT = 1 << 999


def _family() -> dict[int, Rules]:
    """Our preset for each PySolFC game id (the first preset that names it)."""
    out: dict[int, Rules] = {}
    for r in PRESETS.values():
        if r.pysolfc_id is not None and not r.foundation_return:
            out.setdefault(r.pysolfc_id, r)
    return out


def _type_name(gid: object) -> str:
    if isinstance(gid, int) and gid in PYSOLFC_NAMES:
        return PYSOLFC_NAMES[gid]
    return f"PySolFC game {gid}"


def _family_words() -> str:
    return ", ".join(PYSOLFC_NAMES[i] for i in _family())


@dataclass(frozen=True)
class PysolGame:
    """A PySolFC saved game, read and replayed (see :func:`read_pysol_game`).

    - ``deal``: the game number and our variant (``deal.number``, ``deal.variant``);
    - ``moves``: the moves played so far, in order, in this toolkit's notation
      (PySolFC's automatic moves to the foundations are moves here too);
    - ``state``: the position after them, replayed by the rule engine (equal to
      the position the save holds, which was checked);
    - ``game_type``: PySolFC's name of the game ("Baker's Dozen");
    - ``pysolfc_id``: PySolFC's game id; ``pysolfc_version``: the PySolFC that saved it;
    - ``won``: every card is home; ``finished``: PySolFC counted the game as over;
    - ``seconds``: the playing time PySolFC had counted; ``started``: when the
      game was started (UTC), or ``None``.
    """

    path: str
    deal: Deal
    moves: tuple[Move, ...]
    state: GameState
    game_type: str
    pysolfc_id: int
    pysolfc_version: str
    won: bool
    finished: bool
    seconds: float
    started: pd.Timestamp | None


def _game_number(seed: object, where: str) -> int:
    """PySolFC's saved seed as a game number :func:`bakers_lab.deal` deals."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise PysolFileError(f"{where}: damaged (its game number is {type(seed).__name__})")
    if seed & _MS_BIT:
        if seed & _CUSTOM_BIT:
            raise PysolFileError(f"{where}: a PySolFC custom deal has no game number to replay")
        n = seed & ~_MS_BIT
        if not 1 <= n < 32000:
            raise PysolFileError(
                f"{where}: PySolFC deal ms{shown_int(n)} is a Microsoft-numbered deal above "
                f"31,999, not a PySolFC game number (bakers_lab deals game numbers 1 to "
                f"10**20 - 1)"
            )
        return n
    if not 1 <= seed < 10**20:
        raise PysolFileError(
            f"{where}: game number {shown_int(seed)} is outside PySolFC's 1 to 10**20 - 1"
        )
    return seed


def _number_text(text: object) -> int | None:
    """A log entry's game number ("ms123" or "00000123456789012345") as ours, or None."""
    if not isinstance(text, str):
        return None
    if text.startswith("ms"):
        digits = text[2:]
        if digits.isdigit() and 1 <= int(digits) < 32000:
            return int(digits)
        return None
    if text.isdigit() and len(text) <= 20 and int(text) >= 1:
        return int(text)
    return None


class _Reader:
    """Takes the objects of a save one after another, PySolFC's _undumpGame order."""

    def __init__(self, objs: list[Any], where: str) -> None:
        self.objs, self.i, self.where = objs, 0, where

    def take(self, kind: type | tuple[type, ...], what: str) -> Any:
        if self.i >= len(self.objs):
            raise PysolFileError(f"{self.where}: the save is cut short (no {what})")
        obj = self.objs[self.i]
        self.i += 1
        if not isinstance(obj, kind) or (isinstance(obj, bool) and kind is int):
            raise PysolFileError(f"{self.where}: damaged (its {what} is a {type(obj).__name__})")
        return obj

    def struct(self, name: str) -> Loaded:
        obj: Loaded = self.take(Loaded, name)
        if not obj.pysol_name.endswith("." + name):
            raise PysolFileError(f"{self.where}: damaged (a {obj.pysol_name} where {name} goes)")
        return obj


#: The name the statistics table gives PySolFC's demo games (PySolFC logs them under no
#: player), which no person's name can be taken for.
DEMO = "PySolFC's demo"

#: The times a PySolFC file may hold, in seconds: when a game started (from 1970 to
#: the year 2100) and how long it was played (up to a year).
LATEST_START = 4_102_444_800.0
LONGEST_GAME = 366 * 24 * 3600.0


def _seconds(value: object, high: float, what: str, where: str) -> float:
    """``value`` as a number of seconds from 0 to ``high``; a missing one (None) is
    NaN; anything else names the file and the field in one line."""
    if value is None:
        return math.nan
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= high:
        return float(value)  # NaN fails the comparison
    raise PysolFileError(f"{where}: damaged (its {what} is {shown(repr(value), 40)}, not a time)")


def _card_names(cards: list[int]) -> str:
    return " ".join(str(Card.from_index(c)) for c in cards) or "nothing"


def read_pysol_game(path: str | os.PathLike[str]) -> PysolGame:
    """Read a PySolFC saved game: its deal, its moves, replayed and checked.

    The save's game id gives the variant (Baker's Dozen 31, Spanish Patience 85,
    Good Measure 86, Portuguese Solitaire 308, Spanish Patience II 664; PySolFC
    lets a foundation's top card come back to a column: a save that does so is
    ``bakers_dozen_return``, or for the others that variant with
    ``foundation_return=True``), its
    seed the game number (PySolFC's numbering, which :func:`bakers_lab.deal`
    deals).  Its moves (``history[:index]``: a move taken back and not played
    again is not among them) are translated into this toolkit's moves and played
    by the rule engine from the deal; the stacks the save holds must equal the
    result.  Every problem is a :class:`PysolFileError` of one line: not a
    regular file, over the size limit, not a pickle, cut short, a name the file
    may not hold (nothing from the file runs), a game of another family, a
    PySolFC move with no place in these games, a move the rules do not allow,
    stacks that disagree with the moves.

    >>> g = read_pysol_game("tests/data/pysolfc/good_measure_6_won.pso")
    >>> g.game_type, g.deal.variant, g.deal.number, g.won
    ('Good Measure', 'good_measure', 6, True)
    """
    where = shown(os.fspath(path), 200)  # as read_user_file shows it
    try:
        return _read_game(path, where)
    except PysolFileError:
        raise
    except _DAMAGED as exc:  # a field no check foresaw: still the reader's one line
        raise PysolFileError(f"{where}: damaged ({_why(exc)})") from None


#: What a damaged field can raise where the reader did not foresee it.
_DAMAGED = (TypeError, ValueError, KeyError, IndexError, AttributeError, ArithmeticError)


def _why(exc: BaseException) -> str:
    """An unforeseen error, as the one line of the reader's error shows it."""
    return shown(f"{type(exc).__name__}: {exc}", 120)


def _read_game(path: str | os.PathLike[str], where: str) -> PysolGame:
    """:func:`read_pysol_game`'s work, on the file at ``path`` (``where``: its name as
    the messages show it)."""
    objs = load_all(path)
    first = objs[0]
    if isinstance(first, Loaded) and first.pysol_name.endswith("Statistics"):
        raise PysolFileError(
            f"{where}: a PySolFC statistics file, not a saved game (read_pysol_stats reads it)"
        )
    if first != "PySolFC":
        raise PysolFileError(f"{where}: not a PySolFC saved game (it does not start 'PySolFC')")
    rd = _Reader(objs, where)
    rd.take(str, "header")
    version = rd.take(str, "version")
    rd.take(tuple, "version")
    bookmark = rd.take(int, "bookmark mark")
    if not 0 <= bookmark <= 2:
        raise PysolFileError(f"{where}: damaged (bookmark mark {bookmark})")
    rd.take(int, "game version")
    gid = rd.take(int, "game id")
    rules = _family().get(gid)
    if rules is None:
        raise PysolFileError(
            f"{where}: the save is a {_type_name(gid)} game, not one of the Baker's Dozen "
            f"family (this toolkit reads {_family_words()})"
        )
    number = _game_number(rd.take(int, "game number"), where)
    rd.take(object, "random state")
    nstacks = rd.take(int, "number of stacks")
    ncols = rules.columns
    if nstacks != 1 + 4 + ncols + 1:
        raise PysolFileError(
            f"{where}: damaged ({nstacks} stacks; {PYSOLFC_NAMES[gid]} has {ncols + 6})"
        )
    stacks: list[list[int]] = []
    for s in range(nstacks):
        n = rd.take(int, f"stack {s}'s size")
        if not 0 <= n <= 52:
            raise PysolFileError(f"{where}: damaged (stack {s} of {n} cards)")
        cards = []
        for _ in range(n):
            cid = rd.take(int, "card")
            face_up = rd.take(int, "card's face")
            if not 0 <= cid < 52:
                raise PysolFileError(f"{where}: damaged (card id {cid})")
            if not face_up:
                raise PysolFileError(f"{where}: damaged (a face-down card in an open game)")
            cards.append(cid)
        stacks.append(cards)
    rd.take(object, "talon round")
    finished = bool(rd.take((int, bool), "finished mark"))
    if bookmark <= 1:
        rd.struct("GameSaveInfo")
        rd.struct("GameGlobalSaveInfo")
    moves_rec = rd.struct("GameMoves")
    rd.take(list, "snapshots")
    gstats = stats = None
    if bookmark <= 1:
        gstats = rd.struct("GameGlobalStatsStruct")
        stats = rd.struct("GameStatsStruct")
    if rd.take(str, "end mark") != "EOF" or rd.i != len(objs):
        raise PysolFileError(f"{where}: damaged (it does not end where a save ends)")

    history = moves_rec.get("history")
    index = moves_rec.get("index")
    if (
        not isinstance(history, list)
        or not isinstance(index, int)
        or not 0 <= index <= len(history)
    ):
        raise PysolFileError(f"{where}: damaged (its move list)")
    if _takes_back(history[:index]):
        rules = _with_return(rules)
    d = deal(number, rules)
    played, state = _replay(d, history[:index], stacks, where)
    seconds = _seconds(stats.get("elapsed_time") if stats is not None else None,
                       LONGEST_GAME, "playing time", where)  # fmt: skip
    start = _seconds(gstats.get("start_time") if gstats is not None else None,
                     LATEST_START, "start time", where)  # fmt: skip
    started = None if math.isnan(start) else pd.Timestamp(start, unit="s", tz="UTC")
    return PysolGame(
        path=where,
        deal=d,
        moves=tuple(played),
        state=state,
        game_type=PYSOLFC_NAMES[gid],
        pysolfc_id=gid,
        pysolfc_version=version,
        won=state.is_won,
        finished=finished,
        seconds=seconds,
        started=started,
    )


def _takes_back(history: list[Any]) -> bool:
    """Whether a move of ``history`` takes a card off a foundation (PySolFC allows it)."""
    return any(
        isinstance(am, Loaded) and am.get("from_stack_id") in (1, 2, 3, 4)
        for entry in history
        if isinstance(entry, list)
        for am in entry
    )


def _with_return(r: Rules) -> Rules:
    """``r`` where a foundation's top card may come back: its preset (Baker's Dozen as
    PySolFC plays it is ``bakers_dozen_return``), else ``r`` with that one rule changed."""
    for p in PRESETS.values():
        if p.pysolfc_id == r.pysolfc_id and p.foundation_return:
            return p
    return r.replace(foundation_return=True)


#: PySolFC's atomic moves that change no card (kept out of the replay).
_NO_CARD_CHANGE = {"AUpdateStackMove", "ASaveSeedMove", "ASaveStateMove"}


def _replay(
    d: Deal, history: list[Any], saved: list[list[int]], where: str
) -> tuple[list[Move], GameState]:
    """Our moves for PySolFC's, played on the deal; the stacks checked against the save."""
    r = d.rules
    state = GameState.from_deal(d)
    # PySolFC's stacks by id: talon, the 4 foundations (pile s: Ace of suit s), the rows, internal
    shadow: list[list[int]] = [[]]
    shadow += [[c.index for c in p] for p in state.foundations]
    shadow += [[c.index for c in col] for col in state.columns]
    shadow.append([])
    found = range(1, 5)
    rows = range(5, 5 + r.columns)
    played: list[Move] = []
    for k, entry in enumerate(history, 1):
        if not isinstance(entry, list):
            raise PysolFileError(f"{where}: damaged (PySolFC move {k} is not a list)")
        for am in entry:
            kind = getattr(am, "pysol_name", type(am).__name__).rsplit(".", 1)[-1]
            if kind in _NO_CARD_CHANGE:
                continue
            if kind != "AMoveMove":
                raise PysolFileError(
                    f"{where}: PySolFC move {k} is a {kind}, which has no place in "
                    f"{PYSOLFC_NAMES.get(r.pysolfc_id or 0, r.name)}"
                )
            n, src, dst = (am.get(f) for f in ("ncards", "from_stack_id", "to_stack_id"))
            if n != 1:
                raise PysolFileError(f"{where}: PySolFC move {k} moves {n} cards; one card a move")
            if (src not in rows and src not in found) or (dst not in rows and dst not in found):
                raise PysolFileError(
                    f"{where}: PySolFC move {k} goes from stack {src} to stack {dst}, "
                    f"not between columns and foundations"
                )
            if not shadow[src]:
                raise PysolFileError(
                    f"{where}: PySolFC move {k} takes a card from an empty "
                    f"{'foundation' if src in found else 'column'}"
                )
            card = Card.from_index(shadow[src][-1])
            if dst in found:
                pile = Suit(dst - 1) if r.foundation_build != "same_suit" else None
                move = Move(card, Dest.FOUNDATION, pile)
            elif shadow[dst]:
                move = Move(card, Card.from_index(shadow[dst][-1]))
            else:
                move = Move(card, Dest.EMPTY)
            try:
                move = state.play(move)
            except IllegalMoveError as e:
                raise PysolFileError(
                    f"{where}: PySolFC move {k} is not allowed by our rules of {r.name}: {e}"
                ) from None
            shadow[dst].append(shadow[src].pop())
            played.append(move)
    for s, (mine, theirs) in enumerate(zip(shadow, saved, strict=True)):
        if mine != theirs:
            what = (
                "the talon" if s == 0 else f"foundation {s}" if s in found
                else f"column {s - 4}" if s in rows else "the hidden stack"
            )  # fmt: skip
            raise PysolFileError(
                f"{where}: the save's stacks disagree with its moves: {what} holds "
                f"{_card_names(theirs)}, the moves leave {_card_names(mine)}"
            )
    return played, state


def read_pysol_stats(path: str | os.PathLike[str], player: str | None = None) -> pd.DataFrame:
    """A PySolFC statistics file's full log as a table, one row a game.

    Columns: ``player``; ``game_type`` (PySolFC's name); ``variant`` (our
    preset, e.g. ``bakers_dozen``); ``game_number`` (PySolFC's game number as
    :func:`bakers_lab.deal` takes it, a Python int, or ``None`` for a
    Microsoft-numbered deal above 31,999); ``pysol_number`` (as PySolFC shows
    it: ``ms123`` or 20 digits); ``result`` (``won``, ``perfect``: won without
    undo or hints, or ``lost``: PySolFC logs a game given up as lost); ``won``;
    ``started`` (UTC); ``seconds`` (the playing time PySolFC logged);
    ``pysolfc_id``.  Rows are in the log's order, players in the file's order.

    Only the games of the Baker's Dozen family are kept; the others are counted
    and named in ``.attrs["note"]`` (one line, e.g. "1 game of another family
    left out: Klondike"; ``""`` when none) and ``.attrs["left_out"]`` (name →
    count).  ``player=None`` takes every player (PySolFC's demo games are
    player :data:`DEMO`, kept apart from any person's); a player not in the file,
    or a log with no game, is a
    one-line :class:`PysolFileError`.
    """
    where = shown(os.fspath(path), 200)  # as read_user_file shows it
    try:
        return _read_stats(path, where, player)
    except PysolFileError:
        raise
    except _DAMAGED as exc:  # a field no check foresaw: still the reader's one line
        raise PysolFileError(f"{where}: damaged ({_why(exc)})") from None


def _read_stats(path: str | os.PathLike[str], where: str, player: str | None) -> pd.DataFrame:
    """:func:`read_pysol_stats`'s work, on the file at ``path`` (``where``: its name as
    the messages show it)."""
    objs = load_all(path)
    st = objs[0]
    if st == "PySolFC":
        raise PysolFileError(
            f"{where}: a PySolFC saved game, not a statistics file (read_pysol_game reads it)"
        )
    if (
        len(objs) != 1
        or not isinstance(st, Loaded)
        or not st.pysol_name.endswith("app_statistics.Statistics")
    ):
        raise PysolFileError(f"{where}: not a PySolFC statistics file")
    log = st.get("prev_games")
    if not isinstance(log, dict):
        raise PysolFileError(f"{where}: damaged (its log is a {type(log).__name__})")
    if any(p is not None and not isinstance(p, str) for p in log):
        odd = next(p for p in log if p is not None and not isinstance(p, str))
        raise PysolFileError(f"{where}: damaged (a player named by a {type(odd).__name__})")
    names = {(DEMO if p is None else p): p for p in log}
    if len(names) < len(log):  # a person named like the demo: never merged with it
        raise PysolFileError(f"{where}: a player is named {DEMO!r}, as the demo's games are")
    if player is not None:
        if player not in names:
            known = shown(", ".join(str(n) for n in names), 200) or "none"
            raise PysolFileError(
                f"{where}: no player {shown(repr(player))} in the file; its players: {known}"
            )
        names = {player: names[player]}
    family = {gid: (PYSOLFC_NAMES[gid], r.name) for gid, r in _family().items()}
    keep: list[tuple[Any, ...]] = []
    left: Counter[str] = Counter()
    total = 0
    for shown_name, key in names.items():
        entries = log[key]
        if not isinstance(entries, list):
            raise PysolFileError(f"{where}: damaged (the log of {shown_name})")
        total += len(entries)
        for j, e in enumerate(entries, 1):
            if type(e) is not tuple or len(e) < 5:
                raise PysolFileError(f"{where}: damaged (entry {j} of {shown_name}'s log)")
            gid, num, status, start, secs = e[:5]
            word = _STATUS.get(status) if type(status) is int else None
            if word is None or type(gid) is not int:
                raise PysolFileError(f"{where}: damaged (entry {j} of {shown_name}'s log)")
            fam = family.get(gid)
            if fam is None:
                left[_type_name(gid)] += 1
                continue
            start = _seconds(start, LATEST_START, f"entry {j} of {shown_name}'s log's start", where)
            secs = _seconds(secs, LONGEST_GAME, f"entry {j} of {shown_name}'s log's time", where)
            keep.append((shown_name, *fam, num, word, status > 0, start, secs, gid))
    if total == 0:
        who = f" for {player}" if player is not None else ""
        raise PysolFileError(f"{where}: the statistics file logs no game{who}")
    cols = list(zip(*keep, strict=True)) if keep else [()] * 10
    numbers: dict[object, int | None] = {}
    game_numbers = [
        numbers[x] if x in numbers else numbers.setdefault(x, _number_text(x)) for x in cols[3]
    ]

    def floats(values: tuple[Any, ...]) -> pd.Series:
        return pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").astype(float)

    t = pd.DataFrame(
        {
            "player": pd.Series(cols[0], dtype="string"),
            "game_type": pd.Series(cols[1], dtype="string"),
            "variant": pd.Series(cols[2], dtype="string"),
            "game_number": pd.Series(game_numbers, dtype=object),
            "pysol_number": pd.Series([str(x) for x in cols[3]], dtype="string"),
            "result": pd.Series(cols[4], dtype="string"),
            "won": pd.Series(cols[5], dtype=bool),
            "started": pd.to_datetime(floats(cols[6]), unit="s", utc=True),
            "seconds": floats(cols[7]),
            "pysolfc_id": pd.Series(cols[8], dtype="int64"),
        }
    )
    n = sum(left.values())
    t.attrs["left_out"] = dict(left)
    t.attrs["note"] = (
        f"{n:,} game{'s' if n != 1 else ''} of another family left out: "
        + ", ".join(f"{k}" if c == 1 else f"{k} ({c:,})" for k, c in left.most_common())
        if n
        else ""
    )
    return t
