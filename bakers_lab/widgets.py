"""Jupyter widgets: replay a game move by move, and play a deal by clicking.

Each widget is split in two.  A plain class *knows* the game and is tested
without a browser or a kernel: :class:`ReplayModel` (the positions of a replay
and the text of each step) and :class:`BoardModel` (a game in progress, the
moves it allows, the answer to "can I still win?").  A widget class *shows*
it: :class:`Replay` and :class:`Board` are ``ipywidgets.VBox`` es of controls
around a model.  Every board picture comes from :mod:`bakers_lab.render`.

In a :class:`Replay` the move number has one source of truth, the slider's
value: the ``Play`` widget and the move list are linked to it (``widgets.link``,
kernel-side), the buttons set it, and one ``observe`` callback redraws.

The model modules never import this module (it needs ``ipywidgets``, an
optional dependency).

>>> import bakers_lab as bl
>>> r = ReplayModel(bl.deal(1), "AD>F 5S>6S")
>>> r.line(0), r.line(1)
('start: 0 of 2 moves', 'move 1 of 2: AD>F')
>>> r.line(2)
'move 2 of 2: 5S>6S — not over: 9 legal moves after 2 moves'
>>> str(r.moved_card(2)), r.moved_card(0)
('5S', None)
>>> b = BoardModel(bl.deal(1))
>>> [str(c) for c in b.movable_cards()][:4]
['AD', '5S', '9S', '6S']
>>> [str(m) for m in b.moves_for("AD")]
['AD>F', 'AD>2D']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from .cards import Card
from .deals import Deal, deal
from .game import GameState
from .moves import IllegalMoveError, Move, MoveError
from .render import board_html
from .rules import Rules
from .solve.fast import MAX_NODES, SolveResult, solve
from .solve.players import GameRecord
from .validate import as_int, describe

__all__ = ["DEFAULT_BUDGET", "Board", "BoardModel", "Replay", "ReplayModel"]

#: Node budget of "Can I still win?": the solver does roughly 600k nodes/s, so
#: about two seconds on one laptop core at most.
DEFAULT_BUDGET = 1_000_000

#: How a replayed game ended (``ended`` of a GameRecord or survey row, or a
#: SolveResult's outcome), in words; ``{n}`` is the number of moves.
_ENDED_TEXT = {
    "stuck": "no move to a new position: lost after {n} moves",
    "patience": "gave up after {p} moves without a card going home: lost after {n} moves",
    "cap": "move cap reached: lost after {n} moves",
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
def _start_of(position: object, variant: str | Rules | None = None) -> GameState:
    """A fresh GameState of a Deal, a GameState (copied) or a game number."""
    if isinstance(position, Deal | GameState):
        if variant is not None:
            raise ValueError("variant= is only for game numbers; a Deal or GameState has its rules")
        return GameState.from_deal(position) if isinstance(position, Deal) else position.copy()
    try:
        number = as_int(position, "position", low=1)
    except ValueError:
        raise TypeError(
            f"the position must be a Deal, a GameState or a game number, not {describe(position)}"
        ) from None
    return GameState.from_deal(deal(number, "bakers_dozen" if variant is None else variant))


def _move_list(moves: object) -> list[Move | str]:
    if isinstance(moves, str):
        return list(moves.split())
    if isinstance(moves, list | tuple):
        return list(moves)
    raise TypeError(
        f"moves must be a list of Moves or move texts, or move texts separated by spaces "
        f"(like 'AD>F 5S>6D'), not {describe(moves)}"
    )


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
        game = _start_of(start)
        seq = _move_list(moves)
        if ended is not None and ended not in _ENDS:
            raise ValueError(f"ended must be one of {', '.join(_ENDS)} or None, not {ended!r}")
        self.start = game.copy()
        self._before = len(game.history)
        self._title = repr(game.deal) if game.deal is not None else game.rules.name
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
            raise ValueError(
                f"a survey row needs the columns deal, variant and solution; "
                f"this one has no {', '.join(missing)}"
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
            return f"all cards home: won in {n} moves"
        if ended in _WON_ENDS:
            raise ValueError(f"the source says the game was won, but its {n} moves do not win")
        if ended is not None:
            run = 0  # moves at the end without a card going home
            for m in reversed(self.moves):
                if m.to_foundation:
                    break
                run += 1
            return _ENDED_TEXT[ended].format(n=n, p=run)
        left = len(final.legal_moves())
        if not left:
            return f"no legal move left: lost after {n} moves"
        return f"not over: {left} legal moves after {n} moves"

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
        text = f"start: 0 of {self.n} moves" if m is None else f"move {k} of {self.n}: {m}"
        if self.is_marked(k):
            text += f" ⚑ {self.mark_note}"
        if k == self.n:
            text += f" — {self.outcome}"
        return text

    def labels(self) -> list[str]:
        """One label per step for a move list: ``start``, ``1. AD>F``, … (⚑ on the mark)."""
        out = ["start"]
        for i, m in enumerate(self.moves):
            out.append(f"{i + 1}. {m}" + (" ⚑" if i == self.mark else ""))
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
        title = f"{self._title}, after {done} moves" if done else self._title
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
        self.start = _start_of(position, variant)
        self.game = self.start.copy()
        self._base = len(self.start.history)
        self.picked: Card | None = None
        #: The answer of the last :meth:`ask`, until the position changes.
        self.answer = ""
        #: The first move of the solver's winning line, from the last :meth:`ask`.
        self.hint: Move | None = None
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
            return f"Won: all cards home in {n} moves"
        legal = self.legal_moves()
        if not legal:
            return f"Lost: no legal move left after {n} moves"
        if self.picked is not None:
            return f"{self.picked} picked: choose where it goes"
        last = f", last {self.game.history[-1]}" if n else ""
        return f"{n} moves played{last}; {len(legal)} legal moves: pick a card"

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

    def ask(self, budget: int = DEFAULT_BUDGET) -> SolveResult:
        """Can I still win?  Solve the current position within ``budget`` nodes;
        set :attr:`answer` (and :attr:`hint`, the next move of a winning line)."""
        budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        result = solve(self.game, max_nodes=budget)
        self.hint = None
        if result.outcome == "solved" and self.won:
            self.answer = "Yes: all cards are home already"
        elif result.outcome == "solved":
            self.hint = result.moves[0]
            self.answer = f"Yes: a winning line exists; next move {self.hint}"
        elif result.outcome == "unsolvable":
            self.answer = "No: proven lost from here"
        else:
            self.answer = f"Not sure within the budget ({budget:,} nodes)"
        return result

    def _changed(self) -> None:
        self.picked = None
        self.hint = None
        self.answer = ""
        self._legal = None

    def __repr__(self) -> str:
        return f"<BoardModel: {self.status()}>"


# -- what the widgets show ----------------------------------------------------
def _button(description: str, icon: str = "", tooltip: str = "") -> Any:
    return widgets.Button(
        description=description,
        icon=icon,
        tooltip=tooltip or description,
        layout=widgets.Layout(width="auto"),
    )


class Replay(widgets.VBox):
    """Step through a game: board picture, buttons, play/speed, slider, move list.

    ``source`` is anything :meth:`ReplayModel.from_source` takes (a
    SolveResult, a GameRecord, a survey row, a tuple ``(deal or GameState,
    moves)``) or a :class:`ReplayModel`.  ``layout`` is the picture's layout
    (``"row"`` or ``"7+6"``); ``mark`` the index of a move to flag.

    The slider's value is the step; ``play`` and ``moves`` are linked to it,
    the buttons set it.  Controls: ``first``, ``back``, ``next``, ``last``,
    ``play``, ``speed`` (ms per move), ``slider``, ``moves`` (a ``Select``,
    value = step), ``line`` (the step in words) and ``board`` (the picture).
    """

    def __init__(self, source: object, *, layout: str = "row", mark: int | None = None) -> None:
        self.model = model = ReplayModel.from_source(source, mark=mark)
        self._layout = layout
        n = model.n
        self.board = widgets.HTML(model.html(0, layout=layout))  # checks the layout
        self.line = widgets.HTML()
        self.first = _button("first", "fast-backward", "to the start")
        self.back = _button("back", "step-backward", "one move back")
        self.next = _button("next", "step-forward", "one move on")
        self.last = _button("last", "fast-forward", "to the end")
        self.slider = widgets.IntSlider(
            value=0, min=0, max=n, description="move", continuous_update=True
        )
        self.play = widgets.Play(value=0, min=0, max=n, interval=400, description="play")
        self.speed = widgets.IntSlider(value=400, min=50, max=2000, step=50, description="ms/move")
        self.moves = widgets.Select(
            options=list(zip(model.labels(), range(n + 1), strict=True)),
            value=0,
            rows=12,
            description="moves",
            layout=widgets.Layout(width="14em"),
        )
        self._links = (
            widgets.link((self.play, "value"), (self.slider, "value")),
            widgets.link((self.moves, "value"), (self.slider, "value")),
            widgets.dlink((self.speed, "value"), (self.play, "interval")),
        )
        self.play.disabled = n == 0
        self.first.on_click(lambda _: self._go(0))
        self.back.on_click(lambda _: self._go(self.slider.value - 1))
        self.next.on_click(lambda _: self._go(self.slider.value + 1))
        self.last.on_click(lambda _: self._go(n))
        self.slider.observe(self._show, names="value")
        controls = widgets.HBox([self.first, self.back, self.next, self.last, self.play])
        left = widgets.VBox([self.board, controls, self.slider, self.speed, self.line])
        super().__init__([widgets.HBox([left, self.moves])])
        self._draw(0)

    @property
    def step(self) -> int:
        """The step shown (the slider's value)."""
        return int(self.slider.value)

    def _go(self, k: int) -> None:
        self.slider.value = max(0, min(self.model.n, k))

    def _show(self, change: dict[str, Any]) -> None:
        self._draw(int(change["new"]))

    def _draw(self, k: int) -> None:
        n = self.model.n
        self.board.value = self.model.html(k, layout=self._layout)
        text = self.model.line(k)
        self.line.value = f"<b>{text}</b>" if self.model.is_marked(k) else text
        self.first.disabled = self.back.disabled = k == 0
        self.next.disabled = self.last.disabled = k == n


class _ButtonRow:
    """A wrapping row of buttons, reused from redraw to redraw; a click calls
    ``on_click`` with the button's description."""

    def __init__(self, on_click: Callable[[str], None]) -> None:
        self.box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._pool: list[Any] = []
        self._on_click = on_click

    def show(
        self,
        labels: Sequence[str],
        *,
        disabled: bool = False,
        selected: str | None = None,
        tooltips: Sequence[str] = (),
    ) -> None:
        while len(self._pool) < len(labels):
            b = _button("")
            b.on_click(lambda b: self._on_click(b.description))
            self._pool.append(b)
        for i, (b, label) in enumerate(zip(self._pool, labels, strict=False)):
            b.description = label
            b.tooltip = tooltips[i] if i < len(tooltips) else label
            b.disabled = disabled
            b.button_style = "info" if label == selected else ""
        self.box.children = tuple(self._pool[: len(labels)])


class Board(widgets.VBox):
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
        self._cards = _ButtonRow(self._pick)
        self._targets = _ButtonRow(self._play)
        self._legal = _ButtonRow(self._play)
        self.cards, self.targets, self.legal = self._cards.box, self._targets.box, self._legal.box
        self.undo = _button("undo", "undo", "take back the last move")
        self.restart = _button("restart", "refresh", "back to the start position")
        self.ask = _button("Can I still win?", "question", "ask the solver")
        self.status = widgets.HTML()
        self.answer = widgets.HTML()
        self.undo.on_click(lambda _: self._act(self.model.undo))
        self.restart.on_click(lambda _: self._act(self.model.restart))
        self.ask.on_click(lambda _: self._act(lambda: self.model.ask(self.budget)))

        def row(label: str, box: Any) -> Any:
            return widgets.HBox([widgets.Label(label, layout=widgets.Layout(width="9em")), box])

        super().__init__(
            [
                self.board,
                self.status,
                row("Move a card:", self.cards),
                row("to:", self.targets),
                row("All legal moves:", self.legal),
                widgets.HBox([self.undo, self.restart, self.ask, self.answer]),
            ]
        )
        self._refresh()

    def _pick(self, text: str) -> None:
        card = Card.parse(text)
        self.model.pick(None if self.model.picked == card else card)
        self._refresh()

    def _play(self, text: str) -> None:
        self._act(lambda: self.model.play(text))

    def _act(self, action: Callable[[], object]) -> None:
        action()
        self._refresh()

    def _refresh(self) -> None:
        m = self.model
        over = m.over
        marked = [c for c in (m.picked, m.hint.card if m.hint else None) if c is not None]
        self.board.value = m.game.to_html(layout=self._layout, highlight=marked or None)
        picked = str(m.picked) if m.picked is not None else None
        cards = [] if m.won else [str(c) for c in m.movable_cards()]
        self._cards.show(cards, disabled=m.won, selected=picked)
        targets = [str(x) for x in m.moves_for(m.picked)] if m.picked is not None else []
        self._targets.show(targets, disabled=m.won)
        legal = [] if m.won else [str(x) for x in m.legal_moves()]
        self._legal.show(legal, disabled=m.won, selected=str(m.hint) if m.hint else None)
        self.undo.disabled = m.played == 0
        self.restart.disabled = m.played == 0
        self.ask.disabled = over
        self.status.value = f"<b>{m.status()}</b>" if over else m.status()
        self.answer.value = m.answer
