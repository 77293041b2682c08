"""My games: the games played in the app, kept in the journal (:mod:`bakers_lab.files.journal`),
and a player's PySolFC files opened on the page.

- :class:`GameKeeper` writes the game played on one :class:`~.board.Board` to the
  journal when it ends: won, lost (no legal move left), or given up (the person
  moved on to another game after playing at least one move).
- :class:`MyGames` is the app's "My games" page: the record, how good the person is
  (:func:`bakers_lab.study.strength` on those games, its progress shown while the bots
  play the deals the shipped tables lack), each lost game with "Where did I lose?",
  and a PySolFC statistics file opened to see its games and their strength.
- :func:`read_upload` reads a file the page was given (a PySolFC save or statistics)
  with the safe reader of :mod:`bakers_lab.files.pysolfile`: never ``pickle.load``, a size
  limit, and every bad file one line, in the words the command line uses.

>>> import tempfile, os
>>> from bakers_lab.files.journal import Journal
>>> j = Journal(os.path.join(tempfile.mkdtemp(), "journal.parquet"))
>>> page = MyGames(j)
>>> page.summary.value
'No game kept yet: every game you play on the board is kept here when it ends.'
>>> board = Board(4)
>>> keeper = GameKeeper(j, board, 4, "bakers_dozen")
>>> board.legal.children[0].click()   # one move, then the person moves on
>>> keeper.leave()
>>> j.read()[["deal", "result", "n_moves"]].to_dict("records")
[{'deal': 4, 'result': 'given_up', 'n_moves': 1}]
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Callable, Mapping
from html import escape
from pathlib import Path
from typing import Any, TypeVar

import ipywidgets as widgets
import pandas as pd

from bakers_lab.display.widgets._common import (
    StillView,
    Ticker,
    close_all,
    continue_button,
    make_button,
    on_screen,
)
from bakers_lab.display.widgets.board import Board
from bakers_lab.display.widgets.replay import Replay
from bakers_lab.display.widgets.review import ReviewModel
from bakers_lab.files.journal import Entry, Journal, JournalError, LatestWriter, counts
from bakers_lab.files.pysol import (
    DEMO,
    PysolFileError,
    PysolGame,
    read_pysol_game,
    read_pysol_stats,
)
from bakers_lab.files.pysolfile import MAX_FILE_BYTES
from bakers_lab.model.deals import deal
from bakers_lab.model.game import GameState
from bakers_lab.model.rules import rules, title
from bakers_lab.solve.compiled import compile_notice
from bakers_lab.solve.fast import DEFAULT_MAX_NODES
from bakers_lab.utils.present import counted

__all__ = [
    "MAX_UPLOAD_BYTES",
    "GameKeeper",
    "MyGames",
    "opened_words",
    "read_save",
    "read_upload",
    "uploaded",
]

#: The largest file the page reads (the PySolFC reader's own limit).
MAX_UPLOAD_BYTES = MAX_FILE_BYTES
#: Games listed on the page (the most recent first); the strength takes them all.
SHOWN_GAMES = 100
#: Deals played on the spot between two progress lines (a few seconds' work).
_STEP = 4
#: How a game ended, in words.
_RESULT_WORDS = {
    "won": "won", "lost": "lost", "stuck": "stuck", "given_up": "given up", "perfect": "won"
}  # fmt: skip

T = TypeVar("T")


def uploaded(value: object) -> tuple[str, bytes] | None:
    """The name and bytes of the file a ``FileUpload`` holds (its first), or ``None``."""
    files = list(value.values()) if isinstance(value, Mapping) else list(value or ())  # type: ignore[call-overload]
    if not files:
        return None
    f = files[0]
    name = str(f.get("name", "") or "the file")
    return name, bytes(f.get("content", b""))


def read_upload(name: str, data: bytes, reader: Callable[[Path], T]) -> T:
    """``reader`` (:func:`~bakers_lab.read_pysol_game` or
    :func:`~bakers_lab.read_pysol_stats`) on the bytes ``data`` of the file the
    person gave the page as ``name``; every problem a one-line
    :class:`~bakers_lab.files.pysolfile.PysolFileError` naming ``name``.

    >>> evil = b"cos\\nsystem\\n(S'touch /tmp/x'\\ntR."
    >>> read_upload("evil.pso", evil, read_pysol_game)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.files.pysolfile.PysolFileError: evil.pso: refused to load os.system: ...
    """
    shown_name = os.path.basename(name.replace("\\", "/")) or "the file"
    if len(data) > MAX_UPLOAD_BYTES:
        raise PysolFileError(
            f"{shown_name}: {len(data):,} bytes, more than the {MAX_UPLOAD_BYTES // 2**20} MiB "
            f"read: a PySolFC save or statistics file is far smaller"
        )
    safe = re.sub(r"[^A-Za-z0-9._ -]", "_", shown_name).lstrip(".") or "upload"
    with tempfile.TemporaryDirectory(prefix="bakers-lab-upload-") as folder:
        path = Path(folder) / safe
        path.write_bytes(data)
        try:
            return reader(path)
        except PysolFileError as exc:
            raise PysolFileError(str(exc).replace(str(path), shown_name)) from None


def read_save(name: str, data: bytes) -> PysolGame:
    """A PySolFC saved game given to the page: :func:`read_upload` with
    :func:`~bakers_lab.read_pysol_game`."""
    return read_upload(name, data, read_pysol_game)


# -- keeping the games played on a board -------------------------------------------------
class GameKeeper:
    """Writes the game played on ``board`` (game ``number`` of ``variant``) to
    ``journal`` as it is played: after every move of the person's, from a thread of its
    own (:class:`~bakers_lab.files.journal.LatestWriter`: the board waits for no file),
    as given up, or stuck when the position had come up before in the game; so a page
    closed mid-game keeps it.  When the game ends (won, or no legal move left; again,
    under the same entry, if it ends again after an undo) it is written at once, and
    :meth:`leave` (the person moves on to another game) writes it as it stands.  A game
    whose moves are all taken back is forgotten.  ``source`` is ``"pysolfc"`` for a
    PySolFC save played on; ``on_kept`` is called with ``""`` after a game ends or is
    left, and with the journal's one-line error when a write fails.  Changes made
    inside :meth:`quietly` (the page putting a saved position on the board) are not
    the person's moves."""

    def __init__(
        self,
        journal: Journal,
        board: Board,
        number: int,
        variant: str,
        *,
        source: str = "app",
        on_kept: Callable[[str], None] | None = None,
    ) -> None:
        self.journal, self.board = journal, board
        self.number, self.variant, self.source = number, variant, source
        self.id = uuid.uuid4().hex
        self.started = pd.Timestamp.now(tz="UTC").floor("s")
        self.touched = False  # the person changed the position
        self.kept: str | None = None  # the result last written
        self._quiet = self._left = False
        self._on_kept = on_kept
        self.writer = LatestWriter(journal, on_error=on_kept)
        board.on_change(self._changed)

    def quietly(self, action: Callable[[], object]) -> None:
        """Run ``action`` (which changes the board) without counting it as play."""
        self._quiet = True
        try:
            action()
        finally:
            self._quiet = False

    def _changed(self) -> None:
        if self._quiet or self._left:
            return
        self.touched = True
        m = self.board.model
        if m.over:
            self._keep("won" if m.won else "lost")
        elif m.game.history:
            self.kept = self._as_it_stands()
            self.writer.put(self._entry(self.kept))
        elif self.kept is not None:  # every move taken back: no game
            self.kept = None
            self.writer.put(self.id)

    def _as_it_stands(self) -> str:
        """How a game left now ends: ``stuck`` when the position on the board had come
        up before in the game (going round in circles), else ``given_up``."""
        g = self.board.model.game
        here = g.key()
        replay = self.board.model.start.copy()
        if replay.key() == here:
            return "stuck"
        for m in g.history[len(replay.history) :][:-1]:
            replay.play(m)
            if replay.key() == here:
                return "stuck"
        return "given_up"

    def leave(self) -> None:
        """The person moves on to another game: a game played and not ended is written
        as it stands (given up, or stuck).  The keeper writes nothing after this."""
        if self._left:
            return
        self._left = True
        if self.touched and self.kept not in ("won", "lost") and self.board.model.game.history:
            self._keep(self._as_it_stands())
        else:
            self.writer.flush()

    def _entry(self, result: str) -> Entry:
        return Entry.finished(
            self.number,
            self.variant,
            self.board.model.game.history,
            result,
            started=self.started,
            source=self.source,
            id=self.id,
        )

    def _keep(self, result: str) -> None:
        """Write the game now (after any write still waiting), and say so."""
        entry = self._entry(result)
        self.writer.flush()
        try:
            self.journal.add(entry)
        except JournalError as exc:
            if self._on_kept is not None:
                self._on_kept(str(exc))
            return
        self.kept = result
        if self._on_kept is not None and self.journal.enabled:
            self._on_kept("")


# -- the My games tab -------------------------------------------------------------------
def _when(t: object) -> str:
    return t.strftime("%Y-%m-%d %H:%M") if isinstance(t, pd.Timestamp) and not pd.isna(t) else ""


def _games_html(rows: list[tuple[str, str, str, str, str]], more: int) -> str:
    head = "".join(
        f'<th style="text-align:left;padding:2px 14px 2px 0">{h}</th>'
        for h in ("When (UTC)", "Game", "Variant", "Result", "Moves")
    )
    body = "".join(
        "<tr>"
        + "".join(f'<td style="padding:1px 14px 1px 0">{escape(c)}</td>' for c in r)
        + "</tr>"
        for r in rows
    )
    tail = f"<p>… and {counted(more, 'older game')}.</p>" if more else ""
    return (
        f'<table class="bl-mygames-table" style="border-collapse:collapse">'
        f"<tr>{head}</tr>{body}</table>{tail}"
    )


class MyGames(StillView, widgets.VBox):
    """The app's "My games" page (the explorer's ``show_my_games`` shows it).

    ``journal`` is the :class:`~bakers_lab.files.journal.Journal` the app keeps its games
    in; ``run`` runs a slow piece of work (the app's: in a thread of its own; by
    default, at once); ``budget`` is the solver's node budget for "Where did I
    lose?"; ``cache`` the folder of the bots' games played on the spot
    (:func:`bakers_lab.study.strength`'s); ``on_continue(number, variant, position)`` puts
    a position of a lost game on the app's board ("Continue from here").

    Controls: ``keep`` (the switch: games are kept or not), ``source`` (the games
    played here, or a player of an opened PySolFC statistics file), ``stats`` (the
    upload of a statistics file), ``message`` (what went wrong, in one line),
    ``summary`` and ``games`` (the record), ``progress`` and ``strength`` (how good
    the person is), ``lost`` and ``where`` ("Where did I lose?" for a lost game) and
    ``answer``.  :meth:`refresh` reads the journal again; the app calls it when a
    game is kept and when the tab is opened.
    """

    def __init__(
        self,
        journal: Journal,
        *,
        run: Callable[[Callable[[], None]], None] | None = None,
        budget: int = DEFAULT_MAX_NODES,
        cache: str | os.PathLike[str] | None = None,
        on_continue: Callable[[int, str, GameState], None] | None = None,
    ) -> None:
        self.journal = journal
        self._run = run or (lambda work: work())
        self.budget = budget
        self.cache = cache
        self._on_continue = on_continue
        self.keep = widgets.Checkbox(
            value=journal.enabled,
            description="Keep the games I play here on this computer",
            indent=False,
            layout=widgets.Layout(width="auto"),
        )
        self.where_kept = widgets.HTML()
        self.source = widgets.Dropdown(
            options=[("the games played here", "")],
            description="Games",
            layout=widgets.Layout(width="34em"),
        )
        self.stats = widgets.FileUpload(
            accept=".dat",
            multiple=False,
            description="Open PySolFC statistics",
            icon="folder-open",
            layout=widgets.Layout(width="16em"),
        )
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.games = widgets.HTML()
        self.progress = widgets.HTML()
        self.strength = widgets.HTML()
        self.lost = widgets.Dropdown(description="Lost game", layout=widgets.Layout(width="34em"))
        self.where = make_button(
            "Where did I lose?", "search", "which of your moves lost this game"
        )
        self.where.button_style = "warning"
        self.longer = make_button(
            "Search longer", "hourglass-half", "a longer search for the move that lost this game"
        )
        self.longer.layout.display = "none"  # shown when an answer is not settled
        self._review: tuple[ReviewModel, int, str] | None = None  # the answer shown
        self.answer_text = widgets.HTML()
        self.answer = widgets.VBox()
        self._lost_box = widgets.VBox(
            [
                widgets.HTML("<h4>Your lost games</h4>"),
                widgets.HBox([self.lost, self.where, self.longer]),
                self.answer_text,
                self.answer,
            ]
        )
        self._stats: pd.DataFrame | None = None
        self._stats_name = ""
        self._shown_games: pd.DataFrame | None = None
        self._reckoned: object = None  # the games the strength shown was worked out for
        self._generation = 0
        self.keep.observe(lambda ch: self._switch(bool(ch["new"])), names="value")
        self.source.observe(lambda _: self.refresh(), names="value")
        self.stats.observe(lambda _: self._open_stats(), names="value")
        self.where.on_click(lambda _: self._run(self._where_lost))
        self.longer.on_click(lambda _: self._run(self._search_longer))
        self.lost.observe(lambda _: self._forget_review(), names="value")
        super().__init__(
            [
                widgets.HBox([self.keep, self.where_kept]),
                widgets.HBox([self.source, self.stats]),
                self.message,
                self.summary,
                self.games,
                widgets.HTML("<h4>How good am I?</h4>"),
                self.progress,
                self.strength,
                self._lost_box,
            ]
        )
        self.add_class("bl-mygames")
        for name in ("summary", "progress", "strength", "message", "answer_text"):
            getattr(self, name).add_class(f"bl-mygames-{name.replace('_', '-')}")
        self._said_where()
        self.refresh(reckon=False)

    # -- what is shown ------------------------------------------------------------------
    def _said_where(self) -> None:
        where = escape(str(self.journal.path))
        self.where_kept.value = (
            f'<span style="color:#555">in {where}; never sent anywhere.</span>'
            if self.journal.enabled
            else '<span style="color:#555">Off: the games you play are not kept.</span>'
        )

    def _switch(self, on: bool) -> None:
        self.journal.enabled = on
        self._said_where()

    def _say(self, text: str) -> None:
        self.message.value = (
            f'<div style="color:#c0392b;max-width:60em">{escape(on_screen(text))}</div>'
            if text
            else ""
        )

    def kept(self, error: str = "") -> None:
        """A game was kept (or, with ``error``, could not be): the record again."""
        if error:
            self._say(error)
        else:
            self.refresh(reckon=False)

    def _table(self) -> tuple[pd.DataFrame, str]:
        """The games chosen in ``source`` (deal, variant, result, won, moves, started,
        source) and how they are named."""
        who = str(self.source.value)
        if who and self._stats is not None:
            t = self._stats[self._stats["player"] == who]
            t = t[t["game_number"].notna()]
            games = pd.DataFrame(
                {
                    "deal": t["game_number"].tolist(),
                    "variant": t["variant"].astype(str).tolist(),
                    "result": ["won" if w else "lost" for w in t["won"]],
                    "won": t["won"].astype(bool).tolist(),
                    "moves": [None] * len(t),
                    "started": t["started"].tolist(),
                    "n_moves": [None] * len(t),
                    "id": [""] * len(t),
                }
            )
            return games, f"of {who}'s in {self._stats_name}"
        return self.journal.read(), "played here"

    def refresh(self, *, reckon: bool = True) -> None:
        """Read the games again and show them; with ``reckon``, work out how good the
        person is (when the games changed since the last time)."""
        self._say("")
        try:
            t, named = self._table()
        except JournalError as exc:  # a damaged journal: said, and left as it is
            self._say(str(exc))
            self.summary.value = self.games.value = self.strength.value = ""
            self._lost_box.layout.display = "none"
            return
        self._shown_games = t
        if not len(t):
            self.summary.value = (
                "No game kept yet: every game you play on the board is kept here when it ends."
                if not self.source.value
                else "No game of the Baker's Dozen family for this player."
            )
            self.games.value = self.strength.value = self.progress.value = ""
            self._lost_box.layout.display = "none"
            self._reckoned = None
            return
        c = counts(t)
        parts = [f"{c['won']:,} won", f"{c['lost']:,} lost"]
        left = [w for w, r in (("stuck", "stuck"), ("given up", "given_up")) if c[r]]
        parts += [
            f"{c[r]:,} {w}" for w, r in (("stuck", "stuck"), ("given up", "given_up")) if c[r]
        ]
        note = (
            f"({' and '.join(left).capitalize()} {'count' if len(left) > 1 else 'counts'} as lost.)"
        )
        self.summary.value = escape(f"{counted(len(t), 'game')} {named}: {', '.join(parts)}.") + (
            f' <span style="color:#555">{note}</span>' if left else ""
        )
        newest = t.iloc[::-1].head(SHOWN_GAMES)
        rows = [
            (
                _when(r["started"]),
                str(r["deal"]),
                title(rules(str(r["variant"]))),
                _RESULT_WORDS[str(r["result"])],
                "" if r["moves"] is None else str(int(r["n_moves"])),
            )
            for _, r in newest.iterrows()
        ]
        self.games.value = _games_html(rows, len(t) - len(newest))
        self._list_lost(t)
        key = (str(self.source.value), tuple(t["deal"]), tuple(t["result"]), tuple(t["id"]))
        if reckon and key != self._reckoned:
            self._reckoned = key
            self._generation += 1
            generation = self._generation
            games = t[["deal", "variant", "won", "moves"]].reset_index(drop=True)
            self._run(lambda: self._reckon(games, generation))

    def _list_lost(self, t: pd.DataFrame) -> None:
        lost = t[
            (~t["won"].astype(bool)) & t["moves"].map(lambda m: isinstance(m, str) and m != "")
        ]
        options = [
            (
                f"game {r['deal']} ({title(rules(str(r['variant'])))}), "
                f"{_RESULT_WORDS[str(r['result'])]} after {counted(int(r['n_moves']), 'move')}, "
                f"{_when(r['started'])}",
                str(r["id"]),
            )
            for _, r in lost.iloc[::-1].iterrows()
        ]
        chosen, before = self.lost.value, len(self.lost.options)
        self.lost.options = options
        values = [v for _, v in options]
        # the game chosen stays chosen, unless a game was lost since: then the newest
        keep = chosen in values and len(values) == before
        self.lost.value = chosen if keep else (values[0] if values else None)
        self._lost_box.layout.display = None if options else "none"

    # -- how good am I? -----------------------------------------------------------------
    def _reckon(self, games: pd.DataFrame, generation: int) -> None:
        """``bakers_lab.study.strength`` on ``games``: the deals the shipped tables lack are
        played first, a few at a time, each step said in ``progress``."""
        from bakers_lab.study.strength import StrengthError, strength, unplayed

        def current() -> bool:
            return generation == self._generation

        self.strength.value = ""
        try:
            todo = unplayed(games, cache=self.cache)
            for start in range(0, len(todo), _STEP):
                if not current():
                    return
                part = set(todo[start : start + _STEP])
                some = games[
                    [
                        (v, int(d)) in part
                        for d, v in zip(games["deal"], games["variant"], strict=True)
                    ]
                ]
                first = compile_notice("players")  # the first time: the compile's minute
                text = (
                    f"{first + ' ' if first else ''}The bots play the "
                    f"{counted(len(todo), 'deal')} of yours that the shipped tables lack "
                    f"(about a second each on one core, once compiled): {start:,} done…"
                )
                with Ticker(self.progress, text):
                    strength(some, cache=self.cache, progress=False, explain_moves=False)
            if not current():
                return
            text = "Putting your games beside the bots' on the same deals…"
            with Ticker(self.progress, text):
                s = strength(games, cache=self.cache, progress=False)
        except StrengthError as exc:
            if current():
                self.progress.value = ""
                self._say(str(exc))
            return
        if current():
            self.progress.value = ""
            self.strength.value = s._repr_html_()

    # -- where did I lose? --------------------------------------------------------------
    def _where_lost(self) -> None:
        t = self._shown_games
        if t is None or self.lost.value is None:
            return
        row = t[t["id"] == self.lost.value].iloc[0]
        number, variant = int(row["deal"]), str(row["variant"])
        review = ReviewModel(deal(number, variant), str(row["moves"]), budget=self.budget)
        if not review.ok:
            self.answer_text.value = escape(on_screen(review.message))
            return
        self._busy(review.explain, f"Looking for the move that lost game {number}…")
        self._review = (review, number, variant)
        self.answer_text.value = f"<b>{escape(on_screen(review.message))}</b>"
        self._show(review, number, variant)

    def _forget_review(self) -> None:
        """Another lost game chosen: the longer search was for the one before."""
        self._review = None
        self.longer.layout.display = "none"

    def _search_longer(self) -> None:
        if self._review is None or not self._review[0].can_search_longer:
            return
        review, number, variant = self._review
        self._busy(review.search_longer, f"Searching longer for the move that lost game {number}…")
        self.answer_text.value = f"<b>{escape(on_screen(review.message))}</b>"
        self._show(review, number, variant)

    def _busy(self, work: Any, text: str) -> None:
        """``work()`` with the buttons off and a progress line counting the seconds."""
        self.where.disabled = self.longer.disabled = True
        try:
            with Ticker(self.answer_text, text):
                work()
        finally:
            self.where.disabled = self.longer.disabled = False

    def _show(self, review: ReviewModel, number: int, variant: str) -> None:
        self.longer.layout.display = None if review.can_search_longer else "none"
        parts: list[Any] = []
        n = rules(variant).columns
        layout = f"{n - n // 2}+{n // 2}"
        for heading, model, mark in (
            ("Your game", review.yours, review.yours.mark if review.yours else None),
            (review.line_heading, review.line, None),
        ):
            if model is None or not model.n:
                continue
            replay = Replay(model, layout=layout, find_loss=False)
            replay.add_class("bl-mygames-replay")
            if model is review.yours:  # right after the losing move, else where you are
                replay.slider.value = mark + 1 if mark is not None else model.n
            box: list[Any] = [widgets.HTML(f"<b>{escape(heading)}</b>"), replay]
            if self._on_continue is not None:
                box.append(self._continue(replay, number, variant))
            parts.append(widgets.VBox(box))
        old = self.answer.children
        self.answer.children = tuple(parts)
        for w in old:
            close_all(w)

    def _continue(self, replay: Replay, number: int, variant: str) -> Any:
        def go() -> None:
            if self._on_continue is not None:
                self._on_continue(number, variant, replay.model.position(replay.step))

        button = continue_button(go)
        button.add_class("bl-mygames-continue")
        return button

    # -- a PySolFC statistics file ------------------------------------------------------
    def _open_stats(self) -> None:
        got = uploaded(self.stats.value)
        if got is None:
            return
        self.stats.value = ()  # the file's bytes are not kept, and the same file opens again
        name, data = got
        try:
            t = read_upload(name, data, read_pysol_stats)
        except PysolFileError as exc:
            self._say(str(exc))
            return
        self.open_stats(t, os.path.basename(name))

    def open_stats(self, table: pd.DataFrame, name: str) -> None:
        """Show the games of a PySolFC statistics table (:func:`bakers_lab.read_pysol_stats`'s)
        opened as ``name``: one choice in ``source`` per player, the first chosen."""
        self._stats, self._stats_name = table, name
        players = [str(p) for p in dict.fromkeys(table["player"])]
        options: list[tuple[str, str]] = [("the games played here", "")]
        for p in players:
            n = int((table["player"] == p).sum())
            options.append((f"{p}'s PySolFC games in {name} ({counted(n, 'game')})", p))
        note = str(table.attrs.get("note", ""))
        self.source.options = options
        chosen = next((p for p in players if p != DEMO), players[0] if players else "")
        if self.source.value == chosen:
            self.refresh()
        else:
            self.source.value = chosen
        if note:
            self.message.value = f'<div style="color:#555">{escape(f"{name}: {note}.")}</div>'


def opened_words(g: PysolGame, name: str) -> str:
    """What the page says of a PySolFC save it opened.

    >>> g = read_pysol_game("tests/data/pysolfc/bakers_dozen_5_given_up.pso")
    >>> opened_words(g, "bakers_dozen_5_given_up.pso")
    "Opened bakers_dozen_5_given_up.pso: PySolFC's Baker's Dozen game 5, saved after 4 moves."
    """
    state = "won" if g.won else "saved"
    return (
        f"Opened {os.path.basename(name)}: PySolFC's {g.game_type} game {g.deal.number}, "
        f"{state} after {counted(len(g.moves), 'move')}."
    )
