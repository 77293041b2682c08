"""Your own game, explained: where a game you played (or pasted) was lost, the line
that still won from the position before, and "continue from here".

:class:`ReviewModel` knows what the app says of a game: it replays the moves,
asks :func:`~bakers_lab.study.coach.explain` which move lost it, and puts the answer
in players' words.  :class:`YourGame` shows it under a :class:`~.board.Board`:
a "Where did I lose?" button for the moves played on the board, a box to paste
a move list, your game's replay with the losing move flagged, the winning line
from the position before it, and "Continue from here" under each replay, which
puts that position on the board to play on.

>>> import bakers_lab as bl
>>> ReviewModel(bl.deal(1), "").message
'You have not played a move yet: play some on the board, or paste a game below.'
>>> ReviewModel(bl.deal(1), "AD>F KS>F").message
'Cannot replay these moves: move 2 of 2, KS>F, is illegal there: KS is not at the top of its column'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from bakers_lab.display.widgets._common import (
    StillView,
    Ticker,
    close_all,
    continue_button,
    make_button,
    on_screen,
)
from bakers_lab.display.widgets.board import Board
from bakers_lab.display.widgets.replay import Replay, ReplayModel
from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import move_list, start_of
from bakers_lab.solve.fast import DEFAULT_MAX_NODES, MAX_NODES
from bakers_lab.solve.shortest import ShortestResult
from bakers_lab.study.coach import LONGER_NODES, ExplainError, Explanation, position_after
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_int, describe

__all__ = ["QUICK_SECONDS", "ReviewModel", "YourGame"]

#: How long "Where did I lose?" searches before it says what it knows, in seconds (the
#: last position gets the budget the time left allows at the solver's speed so far; the
#: line without detours and the page take a few seconds more: on the shipped lost save
#: of game 4, 9 s from the click to the answer on a slow computer).
QUICK_SECONDS = 5.0


class ReviewModel:
    """What the app says of a game played from ``start`` (a Deal, a GameState or
    a game number of Baker's Dozen) through ``moves`` (a move list in any form
    :func:`~bakers_lab.model.positions.move_list` reads).

    Building it only checks the moves: :attr:`message` names the first illegal
    one, and :attr:`ok` is False.  :meth:`explain` asks the solver (each
    position within ``budget`` nodes) and fills in :attr:`explanation`,
    :attr:`yours` (the replay, the losing move marked) and :attr:`line` (the
    winning line from the position before it, or from the last position of a
    game not lost yet).  ``solver_moves`` is the length of the solver's own
    winning line and ``par`` the shortest win (:func:`~bakers_lab.shortest`),
    for a game you won.
    """

    #: Whether the moves replay on the rule engine.
    ok: bool
    #: What the app says of the game, in words (the first illegal move, the verdict).
    message: str

    def __init__(
        self,
        start: Deal | GameState | int,
        moves: str | Sequence[Move | str],
        *,
        budget: int = DEFAULT_MAX_NODES,
        solver_moves: int | None = None,
        par: ShortestResult | None = None,
    ) -> None:
        self.start, self.number = start_of(start, who="the review")
        self.budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        self.solver_moves = solver_moves
        if par is not None and not isinstance(par, ShortestResult):
            raise TypeError(
                f"par must be a ShortestResult (bl.shortest) or None, not {describe(par)}"
            )
        self.par = par
        self.explanation: Explanation | None = None
        self.yours: ReplayModel | None = None
        self.line: ReplayModel | None = None
        #: The step of :attr:`yours` where :attr:`line` starts.
        self.line_from = 0
        moves = move_list(moves)  # a wrong type: the words every move list gets
        try:
            position_after(self.start, moves)  # the first illegal move, in the CLI's words
        except ExplainError as exc:
            self.ok = False
            self.message = f"Cannot replay these moves: {exc}"
            return
        self.ok = True
        self.yours = ReplayModel(self.start, move_list(moves))
        n = self.yours.n
        if n == 0:
            self.message = (
                "You have not played a move yet: play some on the board, or paste a game below."
            )
        elif self.yours.final.is_won:
            said = par.par_words() if par is not None else None
            theirs = (f"; {said}" if said is not None else "") + (
                f"; the solver's winning line has {counted(self.solver_moves, 'move')}"
                if self.solver_moves is not None
                else ""
            )
            self.message = f"You won: all cards home in {counted(n, 'move')}{theirs}."
        else:
            self.message = ""  # explain() says

    @property
    def needs_solver(self) -> bool:
        """True when the game can be explained and has not been yet."""
        y = self.yours
        return y is not None and y.n > 0 and not y.final.is_won and self.explanation is None

    @property
    def line_heading(self) -> str:
        """The heading of the winning line: where in your game it starts."""
        if self.yours is not None and self.yours.mark is not None:
            return f"The winning line before your move {self.line_from + 1}"
        e = self.explanation
        if e is not None and e.status == "not_settled":
            if self.line_from:
                return f"The winning line after your move {self.line_from}"
            return "The winning line from the start"
        return "The winning line from where you are"

    @property
    def can_search_longer(self) -> bool:
        """True when the answer is not settled and a longer search may settle it."""
        e = self.explanation
        return (
            e is not None
            and e.status == "not_settled"
            and (e.out_of_time or e.max_nodes < LONGER_NODES)
        )

    def explain(self, max_seconds: float | None = QUICK_SECONDS) -> Explanation | None:
        """Ask the solver where the game was lost (once), within ``max_seconds``;
        ``None`` when there is nothing to ask (illegal moves, no move, a won game).
        An answer not settled in time says what is known, and :meth:`search_longer`
        goes on from it."""
        if not self.needs_solver:
            return self.explanation
        assert self.yours is not None
        return self._take(self.yours.explain(self.budget, max_seconds=max_seconds))

    def search_longer(self) -> Explanation | None:
        """Go on from an answer not settled, with :data:`LONGER_NODES` per position
        and no time limit (about a minute on a slow computer)."""
        if not self.can_search_longer:
            return self.explanation
        assert self.yours is not None
        return self._take(self.yours.explain(LONGER_NODES, resume=self.explanation))

    def _take(self, e: Explanation) -> Explanation:
        """The answer ``e``: the message, your replay with the losing move marked, and
        the winning line to study."""
        self.explanation = e
        assert self.yours is not None
        yours = self.yours
        n = yours.n
        if e.status == "lost_at":
            assert e.index is not None and e.move is not None
            self.yours = yours.with_loss(e)
            self.line_from = e.index
            self.line = ReplayModel(yours.position(e.index), list(e.winning_line), ended="solved")
            self.message = (
                f"Move {e.index + 1} of {n}, {e.move}, lost the game: before it the deal could "
                f"still be won, after it no sequence of moves wins. {e.winning_line[0]} there "
                "instead still wins: the winning line below has "
                f"{counted(len(e.winning_line), 'move')}."
            )
        elif e.status == "still_winnable":
            self.line_from = n
            self.line = ReplayModel(yours.final, list(e.winning_line), ended="solved")
            self.message = (
                f"You have not lost: after your {counted(n, 'move')} the game can still be won. "
                f"The winning line below ({counted(len(e.winning_line), 'move')}) "
                "starts where you are."
            )
        elif e.status == "never_winnable":
            self.message = (
                "This deal could never be won: the solver proved that no sequence of moves "
                "wins it, so none of your moves lost it."
            )
        else:
            self.message = self._not_settled(e)
            lo = e.winnable_until
            if lo is not None and e.winning_line:
                self.line_from = lo
                self.line = ReplayModel(yours.position(lo), list(e.winning_line), ended="solved")
        return e

    def _not_settled(self, e: Explanation) -> str:
        """What an answer not settled knows, in one sentence, and what comes next."""
        took = (
            f"in {e.max_seconds:g} seconds" if e.out_of_time
            else f"within {counted(e.max_nodes, 'position')} each"
        )  # fmt: skip
        lo, hi = e.winnable_until, e.lost_by
        if lo is None and hi is None:
            known = f"The solver could not settle any position of your game {took}"
        else:
            after = (
                f"after your move {lo} the game could still be won (the winning line below "
                f"starts there)" if lo else "the deal could be won from the start"
            ) if lo is not None else "no position of your game was proven winnable"  # fmt: skip
            if hi is not None:
                which = f"moves {(lo or 0) + 1} to {hi}" if lo is not None else f"moves 1 to {hi}"
                known = (
                    f"Not settled {took}: {after}, and after move {hi} it could not: one of "
                    f"your {which} lost it"
                )
            else:
                known = f"Not settled {took}: {after}; whether any later move lost it is open"
        if self.can_search_longer:
            return f"{known}. Search longer below settles more: about a minute."
        return f"{known}; that is as far as the solver goes here."

    def __repr__(self) -> str:
        moves = self.yours.n if self.yours is not None else "illegal"
        return f"<ReviewModel: {moves} moves; {self.message or 'not explained yet'}>"


class YourGame(StillView, widgets.VBox):
    """Your game under a :class:`~.board.Board`: "Where did I lose?" for the moves
    played on ``board``, a box to paste a move list (``paste``, then ``replay``),
    and the answer: ``message``, your game's replay and the winning line
    (``yours`` and ``line``, :class:`~.replay.Replay` widgets, or None), each
    with a "Continue from here" button that puts its position on the board.

    ``budget`` is the solver's node budget per position (the explorer's, so its
    answers agree with the verdict); ``solver_moves`` the length of the solver's
    winning line and ``par`` the shortest win, for a game won.
    """

    def __init__(
        self,
        board: Board,
        *,
        budget: int = DEFAULT_MAX_NODES,
        solver_moves: int | None = None,
        par: ShortestResult | None = None,
        layout: str = "row",
    ) -> None:
        self.board_widget = board
        said = par.par_words() if par is not None else None
        board.say_beside_a_win(said or "")
        self.budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        self.solver_moves = solver_moves
        self.par = par
        self._layout = layout
        self.review: ReviewModel | None = None
        self.yours: Replay | None = None
        self.line: Replay | None = None
        self.where = make_button("Where did I lose?", "search", "which of your moves lost the game")
        self.where.button_style = "warning"
        self.longer = make_button(
            "Search longer", "hourglass-half", "a longer search for the move that lost the game"
        )
        self.longer.layout.display = "none"  # shown when an answer is not settled
        self.longer.on_click(lambda _: self._search_longer())
        self.paste = widgets.Textarea(
            placeholder="Paste a game: moves like AD>F 7C>8H 10H>E, separated by spaces, "
            "commas or line breaks",
            layout=widgets.Layout(width="36em", height="4.5em"),
        )
        self.replay_pasted = make_button(
            "Replay this game", "play", "check the moves and replay them"
        )
        self.message = widgets.HTML()
        self._answer = widgets.VBox()
        self._loading = False  # the board changes because of this widget (paste, continue)
        self.where.on_click(lambda _: self._review(list(self.board_widget.model.game.history)))
        self.replay_pasted.on_click(lambda _: self._replay_paste())
        board.on_change(self._board_changed)
        super().__init__(
            [
                widgets.HBox([self.where, self.message, self.longer]),
                widgets.HBox([self.paste, self.replay_pasted]),
                self._answer,
            ]
        )
        self.add_class("bl-review")
        self.message.add_class("bl-review-message")
        self.paste.add_class("bl-review-paste")

    def _say(self, text: str, *, strong: bool = False) -> None:
        body = f"<b>{escape(on_screen(text))}</b>" if strong else escape(on_screen(text))
        self.message.value = f'<div style="max-width:44em;line-height:1.4">{body}</div>'

    def set_par(self, par: ShortestResult | None) -> None:
        """Par, known now (the explorer looks for it after the verdict): said beside a
        win on the board from now on, and at once if the board shows one."""
        self.par = par
        said = par.par_words() if par is not None else None
        self.board_widget.say_beside_a_win(said or "")
        if self.board_widget.model.won and not self._loading:
            self._board_changed()

    def loaded(self, text: str) -> None:
        """The board was given another position from outside (the explorer's "Continue
        from here"): say ``text`` here and scroll the board into view."""
        self._say(text, strong=True)
        self.board_widget.bring_into_view()

    def _board_changed(self) -> None:
        """The board's position changed: the review of the game before is cleared (unless
        this widget put the position there), and the line here follows the board."""
        if self._loading:
            return
        self.review = None
        self._place()
        board = self.board_widget.model
        # nothing was lost in a won game: the question goes until the board changes
        self.where.layout.display = "none" if board.won else None
        if board.won:
            won = ReviewModel(
                board.start,
                list(board.game.history[len(board.start.history) :]),
                budget=self.budget,
                solver_moves=self.solver_moves,
                par=self.par,
            )
            self._say(won.message, strong=True)
        elif board.played:
            self._say(
                f"{counted(board.played, 'move')} played on the board. Where did I lose? asks "
                "the solver which of them lost the game."
            )
        else:
            self._say("")

    def _replay_paste(self) -> None:
        """The pasted game: checked and explained, and put on the board, unless the box
        holds no move (then nothing changes)."""
        if not move_list(self.paste.value):
            self._say(
                "The box holds no move: paste the moves of a game first (the board is unchanged).",
                strong=True,
            )
            return
        self._review(self.paste.value, pasted=True)

    def _review(self, moves: str | Sequence[Move | str], *, pasted: bool = False) -> None:
        """Check and explain ``moves``; with ``pasted``, a legal list goes on the board."""
        start = self.board_widget.model.start
        review = ReviewModel(
            start, moves, budget=self.budget, solver_moves=self.solver_moves, par=self.par
        )
        self.review = review
        self._place()
        if not review.ok:
            self._say(review.message, strong=True)
            return
        if pasted and review.yours is not None:
            self._load(review.yours.final)
        if review.needs_solver:
            self._busy(review.explain, "Looking for the move that lost the game…")
        self._say(review.message, strong=True)
        self._show(review)

    def _busy(self, work: Any, text: str) -> None:
        """``work()`` with the buttons off and a progress line counting the seconds."""
        buttons = (self.where, self.replay_pasted, self.longer)
        for b in buttons:
            b.disabled = True
        try:
            with Ticker(self.message, text):
                work()
        finally:
            for b in buttons:
                b.disabled = False

    def _search_longer(self) -> None:
        review = self.review
        if review is None or not review.can_search_longer:
            return
        self._busy(review.search_longer, "Searching longer for the move that lost the game…")
        self._say(review.message, strong=True)
        self._show(review)

    def _show(self, review: ReviewModel) -> None:
        parts: list[Any] = []
        if review.yours is not None and review.yours.n:
            self.yours = Replay(review.yours, layout=self._layout, find_loss=False)
            self.yours.add_class("bl-review-yours")
            parts.append(self._with_continue("Your game", self.yours))
            if review.yours.mark is not None:
                self.yours.slider.value = review.yours.mark + 1  # right after the losing move
        if review.line is not None:
            self.line = Replay(review.line, layout=self._layout, find_loss=False)
            self.line.add_class("bl-review-line")
            parts.append(self._with_continue(review.line_heading, self.line))
        self._place(*parts)

    def _with_continue(self, heading: str, replay: Replay) -> Any:
        go = continue_button(lambda: self._continue(replay))
        go.add_class("bl-review-continue")
        return widgets.VBox([widgets.HTML(f"<b>{escape(heading)}</b>"), replay, go])

    def _load(self, position: GameState) -> None:
        self._loading = True
        try:
            self.board_widget.load(position)
        finally:
            self._loading = False

    def _continue(self, replay: Replay) -> None:
        position = replay.model.position(replay.step)
        self._load(position)
        self._say(
            f"The board above now shows this position ({counted(len(position.history), 'move')} "
            f"played): play on from there.",
            strong=True,
        )
        self.board_widget.bring_into_view()

    def _place(self, *children: Any) -> None:
        review = self.review
        self.longer.layout.display = None if review and review.can_search_longer else "none"
        old = self._answer.children
        self._answer.children = children
        for w in old:
            close_all(w)
        if not children:
            self.yours = self.line = None
