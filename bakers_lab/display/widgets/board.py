"""Play a deal by clicking: :class:`BoardModel` knows the game in progress and the
moves it allows, :class:`Board` shows it."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from bakers_lab.display.widgets._common import (
    DEFAULT_BUDGET,
    ButtonRow,
    StillView,
    make_button,
    on_screen,
)
from bakers_lab.model.cards import Card, Suit
from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve.fast import MAX_NODES
from bakers_lab.study.coach import Hint, hint
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_int

__all__ = ["Board", "BoardModel"]


# -- what an interactive board knows ------------------------------------------
class BoardModel:
    """A game in progress, played one legal move at a time.

    ``position`` is a Deal, a GameState (copied) or a PySolFC game number of
    ``variant``.  A card is picked first (one of :meth:`movable_cards`), then
    one of its moves is played; :meth:`ask` answers "can I still win?" with
    the solver.
    """

    def __init__(
        self, position: Deal | GameState | int, *, variant: str | Rules | None = None
    ) -> None:
        self.start = start_of(position, variant, who="the widget")[0]
        self.game = self.start.copy()
        self._base = len(self.start.history)
        self.picked: Card | None = None
        #: The answer of the last :meth:`ask`, until the position changes.
        self.answer = ""
        #: The first move of the solver's winning line, from the last :meth:`ask`.
        self.hint: Move | None = None
        #: What the last :meth:`click` did, when it did not do the obvious.
        self.note = ""
        self._legal: list[Move] | None = None

    # -- reading ------------------------------------------------------------
    @property
    def played(self) -> int:
        """Moves played on this board (what restart takes back)."""
        return len(self.game.history) - self._base

    def legal_moves(self) -> list[Move]:
        """Every legal move now, in the rule engine's order."""
        if self._legal is None:
            self._legal = self.game.legal_moves()
        return list(self._legal)

    def movable_cards(self) -> list[Card]:
        """The cards that can move now (once each, in the order of the legal moves)."""
        return list(dict.fromkeys(m.card for m in self.legal_moves()))

    def moves_for(self, card: Card | str) -> list[Move]:
        """The legal moves of ``card`` now."""
        c = Card.parse(card) if isinstance(card, str) else card
        return [m for m in self.legal_moves() if m.card == c]

    @property
    def won(self) -> bool:
        return self.game.is_won

    @property
    def over(self) -> bool:
        """Won, or no legal move left."""
        return self.won or not self.legal_moves()

    def status(self) -> str:
        """The game in one line."""
        n = self.played
        if self.won:
            return f"Won: all cards home in {counted(n, 'move')}"
        legal = self.legal_moves()
        if not legal:
            return f"Lost: no legal move left after {counted(n, 'move')}"
        if self.picked is not None:
            return f"{self.picked} picked: choose where it goes"
        last = f", last {self.game.history[-1]}" if n else ""
        return (
            f"{counted(n, 'move')} played{last}; {counted(len(legal), 'legal move')}: pick a card"
        )

    # -- acting --------------------------------------------------------------
    def pick(self, card: Card | str | None) -> None:
        """Pick a card to move (``None`` drops the pick)."""
        if card is None:
            self.picked = None
            return
        c = Card.parse(card) if isinstance(card, str) else card
        if c not in self.movable_cards():
            can = " ".join(str(x) for x in self.movable_cards()) or "none"
            raise ValueError(f"{c} cannot move now; the cards that can: {can}")
        self.picked = c

    def play(self, move: Move | str) -> Move:
        """Play a move (the rule engine checks it); return it in canonical form."""
        done = self.game.play(move)
        self._changed()
        return done

    def targets(self) -> dict[int | str, Move]:
        """Where the picked card may go: each place (a column index, or a
        foundation pile by suit letter) and the move that takes it there,
        found by playing the move on a copy (empty when nothing is picked)."""
        if self.picked is None:
            return {}
        out: dict[int | str, Move] = {}
        cols, piles = self.game.columns, self.game.foundations
        for m in self.moves_for(self.picked):
            after = self.game.copy()
            after.play(m)
            grown = [i for i, c in enumerate(after.columns) if len(c) > len(cols[i])]
            place: int | str = (
                grown[0]
                if grown
                else next(
                    Suit(s).letter
                    for s, p in enumerate(after.foundations)
                    if len(p) > len(piles[s])
                )
            )
            out.setdefault(place, m)
        return out

    def click(self, what: str) -> str:
        """A click on the picture: ``card 7C``, ``column 3`` (0-based) or
        ``foundation H``.  With no card picked, a card that can move is
        picked; with one picked, a place it may go plays the move there, the
        picked card again drops the pick, another card that can move is
        picked instead.  Returns what happened, in words (also :attr:`note`)."""
        kind, _, value = str(what).strip().partition(" ")
        value = value.split(" ")[0]  # the page adds a count, so each click is new
        self.note = ""
        place: int | str | None = None
        card: Card | None = None
        try:
            if kind == "card":
                card = Card.parse(value)
                place = next((i for i, c in enumerate(self.game.columns) if card in c), None)
            elif kind == "column":
                n = len(self.game.columns)
                if not (value.isascii() and value.isdigit() and int(value) < n):
                    raise ValueError(f"a column is a number from 0 to {n - 1}, not {value!r}")
                place = int(value)
            elif kind == "foundation":
                place = Suit.parse(value).letter
                pile = self.game.foundations[Suit.parse(value)]
                if self.picked is None and pile:  # its top card, where cards may come back
                    card = pile[-1]
            else:
                raise ValueError(f"a click names a card, a column or a foundation, not {what!r}")
        except ValueError as exc:
            self.note = str(exc)
            return self.note
        aims = self.targets()
        if self.picked is not None and card == self.picked:
            self.pick(None)
        elif self.picked is not None and place in aims:
            self.play(aims[place])
        elif (
            self.picked is not None
            and isinstance(place, str)
            and any(isinstance(a, str) for a in aims)
        ):  # the one foundation it may go to
            self.play(next(m for a, m in aims.items() if isinstance(a, str)))
        elif card is not None and card in self.movable_cards():
            self.pick(card)
        elif self.picked is not None:
            self.note = f"{self.picked} cannot go there"
        elif card is not None and kind == "foundation":
            self.note = f"{card} cannot leave its foundation now"
        elif card is not None:
            self.note = self._why_not(card, place)
        else:
            self.note = "pick a card that can move first"
        return self.note

    def _why_not(self, card: Card, column: int | str | None) -> str:
        """Why ``card`` (in ``column``), which cannot move now, cannot: the true reason."""
        pile = self.game.columns[column] if isinstance(column, int) else ()
        if not pile or pile[-1] == card:
            return f"{card} cannot move now: no column or foundation takes it"
        if self.game.rules.move_unit == "sequence":
            return f"{card} cannot move now: the cards on it cannot move with it"
        return f"{card} cannot move now: only the top card of a column moves"

    def undo(self) -> Move:
        """Take back the last move played on this board."""
        if not self.played:
            raise IndexError("nothing to undo: no move played on this board yet")
        m = self.game.undo()
        self._changed()
        return m

    def restart(self) -> None:
        """Back to the start position."""
        self.game = self.start.copy()
        self._changed()

    def load(self, position: GameState) -> None:
        """Put ``position`` on the board: a position of this board's game (its
        history begins with the start's), so undo goes back through its moves."""
        before = list(self.start.history)
        moves = list(position.history)
        if position.rules != self.start.rules or moves[: len(before)] != before:
            raise ValueError("that position is not one of this board's game")
        game = self.start.copy()
        for m in moves[len(before) :]:
            game.play(m)
        if game.key() != position.key():  # the same moves from another deal
            raise ValueError("that position is not one of this board's game")
        self.game = game
        self._changed()

    def ask(self, budget: int = DEFAULT_BUDGET) -> Hint:
        """Can I still win?  :func:`~bakers_lab.study.coach.hint` on the current
        position within ``budget`` nodes; sets :attr:`answer` (and :attr:`hint`,
        the next move of a winning line)."""
        budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        h = hint(self.game, max_nodes=budget)
        self.hint = h.move
        self.answer = {
            "won": "Yes: all cards are home already",
            "move": f"Yes: a winning line exists; next move {h.move}",
            "lost": "No: proven lost from here",
            "not_settled": f"Not sure within the budget ({budget:,} nodes)",
        }[h.status]
        return h

    def _changed(self) -> None:
        self.note = ""
        self.picked = None
        self.hint = None
        self.answer = ""
        self._legal = None

    def __repr__(self) -> str:
        return f"<BoardModel: {self.status()}>"


class Board(StillView, widgets.VBox):
    """Play a deal by clicking: pick a card, then where it goes.

    ``position`` is a Deal, a GameState or a PySolFC game number of
    ``variant``; ``layout`` the picture's layout; ``budget`` the solver's node
    budget for "Can I still win?".  Controls: ``board`` (the picture),
    ``cards`` (a button per card that can move), ``targets`` (a button per
    move of the picked card, like ``7C>8H``), ``legal`` (a button per legal
    move), ``undo``, ``restart``, ``ask`` ("Can I still win?"), ``status``
    (the game in a line) and ``answer`` (the last answer to the question).
    """

    def __init__(
        self,
        position: Deal | GameState | int,
        *,
        variant: str | Rules | None = None,
        layout: str = "row",
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        self.model = BoardModel(position, variant=variant)
        self.budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        self._layout = layout
        self.board = widgets.HTML(self.model.game.to_html(layout=layout))  # checks the layout
        self._cards = ButtonRow(self._pick)
        self._targets = ButtonRow(self._play)
        self._legal = ButtonRow(self._play)
        self.cards, self.targets, self.legal = self._cards.box, self._targets.box, self._legal.box
        self.undo = make_button("undo", "undo", "take back the last move")
        self.restart = make_button("restart", "refresh", "back to the start position")
        self.ask = make_button("Can I still win?", "question", "ask the solver")
        self.status = widgets.HTML()
        self.answer = widgets.HTML()
        # clicks on the picture: the app's page writes "card 7C", "column 3" or
        # "foundation H" (and a count) here; hidden, as it is for the page only
        self.clicks = widgets.Text(continuous_update=True, layout=widgets.Layout(display="none"))
        self.clicks.observe(self._clicked, names="value")
        self._listeners: list[Callable[[], None]] = []
        #: Said after "Won: ..." in the status line (par, from the page that knows it).
        self.won_note = ""
        self.undo.on_click(lambda _: self._act(self.model.undo))
        self.restart.on_click(lambda _: self._act(self.model.restart))
        self.ask.on_click(lambda _: self._act(lambda: self.model.ask(self.budget)))

        def row(label: str, box: Any) -> Any:
            return widgets.HBox([widgets.Label(label, layout=widgets.Layout(width="9em")), box])

        #: The three lines of moves to click (hidden when the game is over: none to show).
        self._move_rows = (
            row("Move a card:", self.cards),
            row("to:", self.targets),
            row("All legal moves:", self.legal),
        )
        super().__init__(
            [
                self.status,  # above the picture: what the last click did stays in sight
                self.board,
                *self._move_rows,
                widgets.HBox([self.undo, self.restart, self.ask, self.answer]),
                self.clicks,
            ]
        )
        self.add_class("bl-board")  # CSS hooks, as in Replay
        for name in ("cards", "targets", "legal", "status", "clicks"):
            getattr(self, name).add_class(f"bl-board-{name}")
        self._refresh()

    def load(self, position: GameState) -> None:
        """Show ``position`` (see :meth:`BoardModel.load`) and play on from it."""
        self._act(lambda: self.model.load(position))

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after each change of the position (a move, undo,
        restart, load)."""
        self._listeners.append(listener)

    def say_beside_a_win(self, text: str) -> None:
        """Say ``text`` after "Won: ..." in the status line (now, if the game is won)."""
        self.won_note = str(text)
        self._refresh()

    def bring_into_view(self) -> None:
        """Scroll the page to the board: the browser brings the focused button under
        the picture (the first card that can move, else undo) into the window."""
        buttons = self.cards.children or (self.undo,)
        buttons[0].focus()

    def _clicked(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._act(lambda: self.model.click(change["new"]))

    def _pick(self, text: str) -> None:
        card = Card.parse(text)
        self.model.pick(None if self.model.picked == card else card)
        self._refresh()

    def _play(self, text: str) -> None:
        self._act(lambda: self.model.play(text))

    def _act(self, action: Callable[[], object]) -> None:
        before = self.model.game.key(), self.model.played
        action()
        self._refresh()
        if (self.model.game.key(), self.model.played) != before:
            for listener in self._listeners:
                listener()

    def _refresh(self) -> None:
        m = self.model
        over = m.over
        marked = [c for c in (m.picked, m.hint.card if m.hint else None) if c is not None]
        self.board.value = m.game.to_html(
            layout=self._layout, highlight=marked or None, targets=list(m.targets())
        )
        picked = on_screen(m.picked) if m.picked is not None else None
        cards = [] if m.won else [on_screen(c) for c in m.movable_cards()]
        self._cards.show(cards, disabled=m.won, selected=picked)
        targets = [on_screen(x) for x in m.moves_for(m.picked)] if m.picked is not None else []
        self._targets.show(targets, disabled=m.won)
        legal = [] if m.won else [on_screen(x) for x in m.legal_moves()]
        self._legal.show(legal, disabled=m.won, selected=on_screen(m.hint) if m.hint else None)
        for line in self._move_rows:
            line.layout.display = "none" if over else None
        self.undo.disabled = m.played == 0
        self.restart.disabled = m.played == 0
        self.ask.disabled = over
        won = f"; {self.won_note}" if m.won and self.won_note else ""
        status = on_screen(m.status() + won + (f" ({m.note})" if m.note else ""))
        self.status.value = f"<b>{status}</b>" if over else status
        self.answer.value = escape(on_screen(m.answer))
