"""Replay a game move by move: :class:`ReplayModel` knows the positions and the words
of each step, :class:`Replay` shows them with buttons, a slider and a move list."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from bakers_lab.display.widgets._common import DEFAULT_BUDGET, StillView, on_screen
from bakers_lab.display.widgets.stepper import Stepped, Stepper
from bakers_lab.files.datadir import FULL_DATA_HINT
from bakers_lab.model.cards import Card
from bakers_lab.model.deals import Deal, deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import IllegalMoveError, Move, MoveError
from bakers_lab.model.positions import move_list, start_of
from bakers_lab.model.render import board_html
from bakers_lab.model.rules import title
from bakers_lab.solve.fast import MAX_NODES, SolveResult
from bakers_lab.solve.players import GameRecord
from bakers_lab.study.coach import Explanation, explain
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_bool, as_int, describe

__all__ = ["Replay", "ReplayModel"]

#: How a replayed game ended (``ended`` of a GameRecord or survey row, or a
#: SolveResult's outcome), in words; ``{n}`` is the number of moves.
_ENDED_TEXT = {
    "stuck": "no move to a new position: lost after {n}",
    "patience": "gave up after {p} without a card going home: lost after {n}",
    "cap": "move cap reached: lost after {n}",
    "unsolvable": "proven unsolvable: no sequence of moves wins",
    "unresolved": "not settled within the solver's budget",
}
_WON_ENDS = ("home", "solved")
_ENDS = (*_WON_ENDS, *_ENDED_TEXT)
_SOURCES = (
    "a SolveResult, a GameRecord, a survey row (a pandas Series with deal, variant and "
    "solution), or a tuple (position, moves) with a Deal, GameState or game number"
)


# -- what a replay knows -------------------------------------------------------
class ReplayModel:
    """The positions of a game from ``start`` through ``moves``, and the text of each step.

    ``start`` is a Deal, a GameState (its current position; it is not changed)
    or a PySolFC game number of classic Baker's Dozen; ``moves`` a list of
    :class:`Move` or move texts, or move texts separated by spaces.  Every move
    is checked by the rule engine when the model is built: an illegal one
    raises :class:`IllegalMoveError` with its number.  ``ended`` says how the
    game ended where the source knows it (a GameRecord's ``ended``: ``home``,
    ``stuck``, ``patience``, ``cap``; a solver's ``solved``, ``unsolvable``,
    ``unresolved``); without it the last position says.  ``mark`` is the index
    in ``moves`` of a move to flag (shown with ``mark_note``).

    Step ``k`` (0 … ``n``) is the position after ``k`` moves; the positions are
    kept (as immutable column tuples), so moving along the replay costs nothing.
    """

    def __init__(
        self,
        start: Deal | GameState | int,
        moves: str | Sequence[Move | str],
        *,
        ended: str | None = None,
        mark: int | None = None,
        mark_note: str = "marked",
    ) -> None:
        game = start_of(start, who="the widget")[0]
        seq = move_list(moves)
        if ended is not None and ended not in _ENDS:
            raise ValueError(f"ended must be one of {', '.join(_ENDS)} or None, not {ended!r}")
        self.start = game.copy()
        self._before = len(game.history)
        self._title = game.deal.caption if game.deal is not None else title(game.rules)
        self._frames = [(game.columns, game.foundations)]
        played: list[Move] = []
        total = len(seq)
        for k, text in enumerate(seq, start=1):
            try:
                played.append(game.play(text))
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.move, f"{exc.reason} (move {k} of {total})") from None
            except MoveError as exc:
                raise MoveError(f"{exc} (move {k} of {total})") from None
            self._frames.append((game.columns, game.foundations))
        self.moves: tuple[Move, ...] = tuple(played)
        self.n = total
        if mark is not None:
            high = max(total - 1, 0)
            try:
                mark = as_int(mark, "mark", low=0, high=high)
            except ValueError:
                raise ValueError(
                    f"mark is the index of a move in the list: an integer from 0 to {high}, "
                    f"not {describe(mark)}"
                ) from None
            if total == 0:
                raise ValueError("mark names a move, but the move list is empty")
        self.mark = mark
        self.mark_note = str(mark_note)
        #: How the source says the game ended (``None``: the last position says).
        self.ended = ended
        #: The last position.
        self.final = game
        self.outcome = self._outcome(game, ended)

    @classmethod
    def from_source(cls, source: object, *, mark: int | None = None) -> ReplayModel:
        """The replay of a SolveResult, a GameRecord, a survey row (a pandas Series
        with ``deal``, ``variant``, ``solution`` and optionally ``outcome`` and
        ``ended``), or a tuple ``(position, moves)`` (position: a Deal, a
        GameState or a game number)."""
        if isinstance(source, ReplayModel):
            if mark is None or mark == source.mark:
                return source
            return cls(
                source.start,
                list(source.moves),
                ended=source.ended,
                mark=mark,
                mark_note=source.mark_note,
            )
        if isinstance(source, SolveResult | GameRecord):
            ended = source.outcome if isinstance(source, SolveResult) else source.ended
            if source.start is not None:  # the very position the result started from
                return cls(source.start, list(source.moves), ended=ended, mark=mark)
            if source.deal is None:
                raise ValueError(
                    f"this {type(source).__name__} is of a position without a game number: "
                    f"replay it as Replay((position, result.moves))"
                )
            return cls(deal(source.deal, source.variant), list(source.moves), ended=ended,
                       mark=mark)  # fmt: skip
        if isinstance(source, tuple):
            if len(source) != 2:
                raise ValueError(
                    f"a tuple source is (position, moves), position a Deal, a GameState or a "
                    f"game number: two items, not {len(source)}"
                )
            return cls(source[0], source[1], mark=mark)
        if type(source).__name__ == "Series":
            return cls._from_row(source, mark)
        raise TypeError(f"Replay takes {_SOURCES}; not {describe(source)}")

    @classmethod
    def _from_row(cls, row: Any, mark: int | None) -> ReplayModel:
        missing = [c for c in ("deal", "variant", "solution") if c not in row.index]
        if missing:
            # a row of the compact table shipped with the package has no moves
            where = f"; {FULL_DATA_HINT}" if missing == ["solution"] else ""
            raise ValueError(
                f"a survey row needs the columns deal, variant and solution; "
                f"this one has no {', '.join(missing)}{where}"
            )
        number = as_int(row["deal"], "the survey row's deal", low=1)
        solution = _text(row["solution"]) or ""
        ended = _text(row.get("ended"))
        outcome = _text(row.get("outcome"))
        if ended is None:
            ended = {"won": "home", "unresolved": "unresolved"}.get(outcome or "")
        start = deal(number, str(row["variant"]))
        return cls(start, solution, ended=ended, mark=mark)

    def _outcome(self, final: GameState, ended: str | None) -> str:
        n = self.n
        if final.is_won:
            if ended is not None and ended not in _WON_ENDS:
                raise ValueError(f"the {n} moves win, but the source says the game ended {ended!r}")
            return f"all cards home: won in {counted(n, 'move')}"
        if ended in _WON_ENDS:
            raise ValueError(f"the source says the game was won, but its {n} moves do not win")
        if ended is not None:
            run = 0  # moves at the end without a card going home
            for m in reversed(self.moves):
                if m.to_foundation:
                    break
                run += 1
            return _ENDED_TEXT[ended].format(n=counted(n, "move"), p=counted(run, "move"))
        left = len(final.legal_moves())
        if not left:
            return f"no legal move left: lost after {counted(n, 'move')}"
        return f"not over: {counted(left, 'legal move')} after {counted(n, 'move')}"

    @property
    def lost(self) -> bool:
        """True when the moves do not win (a lost game, or one not finished)."""
        return self.n > 0 and not self.final.is_won

    def explain(
        self,
        budget: int = DEFAULT_BUDGET,
        *,
        max_seconds: float | None = None,
        resume: Explanation | None = None,
    ) -> Explanation:
        """Where the game was lost (:func:`~bakers_lab.study.coach.explain`, each
        position within ``budget`` nodes, all within ``max_seconds``, going on from
        ``resume``); the game must not be won."""
        return explain(
            self.start, list(self.moves), max_nodes=budget, max_seconds=max_seconds, resume=resume
        )

    def with_loss(self, e: Explanation) -> ReplayModel:
        """This replay with the move that lost the game marked (``e`` from :meth:`explain`)."""
        if e.status != "lost_at" or e.index is None:
            return self
        return ReplayModel(
            self.start,
            list(self.moves),
            ended=self.ended,
            mark=e.index,
            mark_note=f"this move lost the game; {e.winning_line[0]} instead still wins",
        )

    def move(self, k: int) -> Move | None:
        """The move that led to step ``k`` (``None`` at the start)."""
        return self.moves[self._step(k) - 1] if k else None

    def moved_card(self, k: int) -> Card | None:
        """The card that moved last at step ``k`` (``None`` at the start)."""
        m = self.move(k)
        return None if m is None else m.card

    def is_marked(self, k: int) -> bool:
        """True at the step right after the marked move."""
        return self.mark is not None and self._step(k) == self.mark + 1

    def line(self, k: int) -> str:
        """What step ``k`` shows: ``move 17 of 120: 7C>8H``, ``start: 0 of 120
        moves``; at the last step followed by the outcome."""
        k = self._step(k)
        m = self.move(k)
        text = (
            f"start: 0 of {self.n} moves" if m is None else f"move {k} of {self.n}: {on_screen(m)}"
        )
        if self.is_marked(k):
            text += f" ⚑ {self.mark_note}"
        if k == self.n:
            text += f" — {self.outcome}"
        return on_screen(text)

    def labels(self) -> list[str]:
        """One label per step for a move list: ``start``, ``1. AD>F``, … (⚑ on the mark)."""
        out = ["start"]
        for i, m in enumerate(self.moves):
            out.append(f"{i + 1}. {on_screen(m)}" + (" ⚑" if i == self.mark else ""))
        return out

    def position(self, k: int) -> GameState:
        """A new GameState of step ``k`` (its history: the replay's first ``k`` moves)."""
        g = self.start.copy()
        for m in self.moves[: self._step(k)]:
            g.play(m)
        return g

    def html(self, k: int, *, layout: str = "row") -> str:
        """The picture of step ``k``, the card that moved last outlined."""
        k = self._step(k)
        columns, foundations = self._frames[k]
        done = self._before + k
        title = f"{self._title}, after {counted(done, 'move')}" if done else self._title
        card = self.moved_card(k)
        return board_html(
            columns, foundations, title=title, layout=layout, highlight=() if card is None else card
        )

    def _step(self, k: int) -> int:
        step = as_int(k, "step", low=0, high=self.n)
        return step

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"<ReplayModel of {self._title}: {self.n} moves; {self.outcome}>"


def _text(value: object) -> str | None:
    """A table cell as text, or ``None`` where it is missing (None, NaN, pandas' NA)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    return str(value)


class Replay(StillView, Stepped, widgets.VBox):
    """Step through a game: buttons, play/pause, slider and speed above the board picture.

    ``source`` is anything :meth:`ReplayModel.from_source` takes (a
    SolveResult, a GameRecord, a survey row, a tuple ``(deal or GameState,
    moves)``) or a :class:`ReplayModel`.  ``layout`` is the picture's layout
    (``"row"`` or ``"7+6"``); ``mark`` the index of a move to flag.  A game
    that was not won (and has no ``mark``) is explained first when
    ``find_loss`` is true: the move that lost it is marked, and ``loss`` says
    in words where it was lost (:func:`~bakers_lab.study.coach.explain`, each
    position within ``budget`` nodes).

    The step controls are a :class:`~.stepper.Stepper` (``stepper``), on top,
    where the picture cannot push them: the slider's value is the step; the
    buttons set it, ``play`` (the browser's timer) and ``moves`` are linked to
    it.  Controls: ``first``, ``back``, ``play_pause`` (pausing keeps the
    step), ``next``, ``last``, ``play``, ``speed`` (ms per move), ``slider``,
    ``moves`` (a ``Select``, value = step, at the picture's left), ``line``
    (the step in words) and ``board`` (the picture).

    >>> import bakers_lab as bl
    >>> w = Replay((bl.deal(1), "AD>F 5S>6S 9S>TC"))
    >>> w.next.click(); w.next.click(); w.line.value
    'move 2 of 3: 5S>6S'
    >>> w.play_pause.value = True; w.play.value = 3; w.play_pause.value = False  # a tick
    >>> w.step, w.play.playing, w.moves.value
    (3, False, 3)
    """

    def __init__(
        self,
        source: object,
        *,
        layout: str = "row",
        mark: int | None = None,
        find_loss: bool = True,
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        model = ReplayModel.from_source(source, mark=mark)
        find_loss = as_bool(find_loss, "find_loss")
        budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        #: Where the game was lost (None when it was won, marked or not asked).
        self.explanation: Explanation | None = None
        self.loss = widgets.HTML()
        if find_loss and mark is None and model.lost:
            self.explanation = e = model.explain(budget)
            model = model.with_loss(e)
            self.loss.value = f"Where it was lost: {escape(on_screen(e.summary()))}"
        self.model = model
        self._layout = layout
        n = model.n
        self.board = widgets.HTML(model.html(0, layout=layout))  # checks the layout
        self.line = widgets.HTML()
        self._follow(Stepper(0, n), self._draw)
        self.moves = widgets.Select(
            options=list(zip(model.labels(), range(n + 1), strict=True)),
            value=0,
            rows=12,
            description="moves",
            layout=widgets.Layout(width="14em", flex="0 0 auto"),
        )
        self._links = (widgets.link((self.moves, "value"), (self.slider, "value")),)
        # the controls on top, where the picture (its width follows the columns'
        # heights) cannot push them; the move list at its left, for the same reason
        super().__init__(
            [
                self.loss,
                self.stepper,
                self.line,
                widgets.HBox(
                    [self.moves, self.board], layout=widgets.Layout(align_items="flex-start")
                ),
            ]
        )
        # CSS classes: hooks for pages' styles and the browser tests (the page's arrow
        # keys press the stepper's bl-first, bl-back, bl-next, bl-last)
        self.add_class("bl-replay")
        self.line.add_class("bl-replay-line")
        self._draw(0)

    def _draw(self, k: int) -> None:
        self.board.value = self.model.html(k, layout=self._layout)
        text = self.model.line(k)
        self.line.value = f"<b>{text}</b>" if self.model.is_marked(k) else text
