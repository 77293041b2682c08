"""Jupyter widgets: replay a game move by move, play a deal by clicking, explore a game.

Each widget is split in two.  A plain class *knows* the game and is tested
without a browser or a kernel: :class:`ReplayModel` (the positions of a replay
and the text of each step) and :class:`BoardModel` (a game in progress, the
moves it allows, the answer to "can I still win?").  A widget class *shows*
it: :class:`Replay` and :class:`Board` are ``ipywidgets.VBox`` es of controls
around a model.  Every board picture comes from :mod:`bakers_lab.render`.

:class:`GameExplorer` is the web app's page (``bakers-lab app``): type a
PySolFC game number, see the verdict in plain words, step through the winning
line or a human-like player's game, and play the deal yourself.  What it knows
(the number typed, the solver's verdict, the players' games; results kept, so
showing a game again is free) is :class:`ExplorerModel`.  :func:`lost_and_won`
finds a deal a player loses and the solver wins, and :class:`Compare` replays
such games next to each other.

:class:`TraceViewer` steps through a teaching search's trace
(:mod:`bakers_lab.solve.search`, run with ``trace=True``) event by event: the
board of each event's node, the counts so far, the frontier's size over time and
the tree explored so far (charts of :mod:`bakers_lab.plots`).  What it knows
(the counts after each event, each step in words, each node's position,
rebuilt from the moves on its path) is :class:`TraceModel`.

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
>>> ExplorerModel.parse(" 417 ")
417
>>> ExplorerModel().verdict(bl.solve(64))
'Cannot be won: the solver proved that no sequence of moves wins'
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any, TypeVar

import ipywidgets as widgets
from matplotlib.figure import Figure

from .cards import Card
from .coach import Explanation, Hint, explain, hint
from .deals import Deal, deal
from .game import GameState
from .moves import IllegalMoveError, Move, MoveError
from .plots import frontier_chart, search_tree_chart, trace_table
from .positions import move_list, start_of
from .rating import RATERS, Difficulty, rated, tag_of
from .render import board_html
from .rules import Rules, rules, variant_names
from .shuffles import MAX_GAME_NUMBER
from .solve.fast import DEFAULT_MAX_NODES, MAX_NODES, SolveResult, solve
from .solve.players import GameRecord, play
from .solve.search import Event, Problem, SearchResult, as_problem
from .validate import as_bool, as_int, describe

__all__ = [
    "DEFAULT_BUDGET",
    "KNOWN_OPEN",
    "PLAYERS",
    "Board",
    "BoardModel",
    "Compare",
    "ExplorerModel",
    "GameExplorer",
    "Replay",
    "ReplayModel",
    "TraceModel",
    "TraceViewer",
    "lost_and_won",
]

#: Node budget of "Can I still win?": the solver does roughly 600k nodes/s, so
#: about two seconds on one laptop core at most.
DEFAULT_BUDGET = 1_000_000


def _count(n: int, what: str = "move") -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {what}{'' if n == 1 else 's'}"


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
            return f"all cards home: won in {_count(n)}"
        if ended in _WON_ENDS:
            raise ValueError(f"the source says the game was won, but its {n} moves do not win")
        if ended is not None:
            run = 0  # moves at the end without a card going home
            for m in reversed(self.moves):
                if m.to_foundation:
                    break
                run += 1
            return _ENDED_TEXT[ended].format(n=_count(n), p=_count(run))
        left = len(final.legal_moves())
        if not left:
            return f"no legal move left: lost after {_count(n)}"
        return f"not over: {_count(left, 'legal move')} after {_count(n)}"

    @property
    def lost(self) -> bool:
        """True when the moves do not win (a lost game, or one not finished)."""
        return self.n > 0 and not self.final.is_won

    def explain(self, budget: int = DEFAULT_BUDGET) -> Explanation:
        """Where the game was lost (:func:`~bakers_lab.coach.explain`, each
        position within ``budget`` nodes); the game must not be won."""
        return explain(self.start, list(self.moves), max_nodes=budget)

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
        title = f"{self._title}, after {_count(done)}" if done else self._title
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
        self.start = start_of(position, variant, who="the widget")[0]
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
            return f"Won: all cards home in {_count(n)}"
        legal = self.legal_moves()
        if not legal:
            return f"Lost: no legal move left after {_count(n)}"
        if self.picked is not None:
            return f"{self.picked} picked: choose where it goes"
        last = f", last {self.game.history[-1]}" if n else ""
        return f"{_count(n)} played{last}; {_count(len(legal), 'legal move')}: pick a card"

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

    def ask(self, budget: int = DEFAULT_BUDGET) -> Hint:
        """Can I still win?  :func:`~bakers_lab.coach.hint` on the current
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
    (``"row"`` or ``"7+6"``); ``mark`` the index of a move to flag.  A game
    that was not won (and has no ``mark``) is explained first when
    ``find_loss`` is true: the move that lost it is marked, and ``loss`` says
    in words where it was lost (:func:`~bakers_lab.coach.explain`, each
    position within ``budget`` nodes).

    The slider's value is the step; ``play`` and ``moves`` are linked to it,
    the buttons set it.  Controls: ``first``, ``back``, ``next``, ``last``,
    ``play``, ``speed`` (ms per move), ``slider``, ``moves`` (a ``Select``,
    value = step), ``line`` (the step in words) and ``board`` (the picture).
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
            self.loss.value = f"Where it was lost: {escape(e.summary())}"
        self.model = model
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
        controls = widgets.HBox(
            [self.first, self.back, self.next, self.last, self.play],
            layout=widgets.Layout(flex_flow="row wrap"),  # wraps rather than cut labels
        )
        left = widgets.VBox([self.board, controls, self.slider, self.speed, self.line, self.loss])
        super().__init__([widgets.HBox([left, self.moves])])
        # CSS classes: hooks for pages' styles and the browser tests
        self.add_class("bl-replay")
        self.line.add_class("bl-replay-line")
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
        self.add_class("bl-board")  # CSS hooks, as in Replay
        for name in ("cards", "targets", "legal", "status"):
            getattr(self, name).add_class(f"bl-board-{name}")
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


# -- what the game explorer knows ---------------------------------------------
#: Deals nobody has shown won or proven lost, by (variant, number): who listed them.
KNOWN_OPEN: Mapping[tuple[str, int], str] = {
    ("bakers_dozen", 417): (
        "Freecell Solver's authors listed it (their solver left it unresolved even at "
        "100 million positions)"
    ),
}

#: The human-like players the explorer offers, with what each does, in words.
PLAYERS: Mapping[str, str] = {
    "careful": "careful: heeds the rule books' tips, one move ahead",
    "lookahead-2": "lookahead-2: plans two moves ahead",
    "lookahead-3": "lookahead-3: plans three moves ahead",
    "greedy": "greedy: a card home when it can, else the tallest column's top card",
    "random": "random: any legal move",
    **{
        f"search-{n}": f"search-{n}: thinks over {n:,} positions before each move"
        for n in (100, 1_000, 10_000)
    },
    **{
        f"undo-{n}": f"undo-{n}: careful, and may take back {n:,} moves in the game"
        for n in (10, 100, 1_000, 10_000)
    },
}

#: How a player's lost game ended, and where its replay stops, in words.
_PLAYER_ENDS = {
    "stuck": ("got stuck after {n}: no move was left that led anywhere new", "got stuck"),
    "patience": (
        "gave up after {n}: too many moves in a row brought no card home",
        "gave up",
    ),
    "cap": ("stopped after {n}, the most a game may have", "stopped"),
}
_NUMBERS = f"a whole number from 1 to {MAX_GAME_NUMBER} (10^20 − 1)"
_DIGITS = re.compile(r"[0-9]+")
_KEEP = 64  # results the explorer keeps, of each kind

K = TypeVar("K")
V = TypeVar("V")


def _kept(store: dict[K, V], key: K, make: Callable[[], V]) -> V:
    """``store[key]``, made first if missing; the oldest entries go beyond ``_KEEP``."""
    if key not in store:
        store[key] = make()
        while len(store) > _KEEP:
            del store[next(iter(store))]
    return store[key]


class ExplorerModel:
    """What the game explorer knows: the number typed, the solver's verdict on each
    game asked for and human-like players' games of it, in plain words.

    ``budget`` is the solver's node budget; the default is the solver's own, the
    budget of ``bakers-lab solve`` and of the shipped surveys, so the explorer's
    verdicts agree with theirs.  Results are kept (the last 64 of each kind), so
    showing a game again is free.
    """

    def __init__(self, budget: int = DEFAULT_MAX_NODES) -> None:
        self.budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        self._results: dict[tuple[int, str], SolveResult] = {}
        self._games: dict[tuple[int, str, str], GameRecord] = {}

    @staticmethod
    def parse(text: object) -> int:
        """The game number in ``text`` (spaces around it, a ``#`` before it and
        thousands separators ``,`` ``_`` are allowed), or a ValueError that
        says what is allowed."""
        raw = str(text).strip()
        if not raw:
            raise ValueError(f"Type a game number: {_NUMBERS}")
        digits = raw.removeprefix("#").strip().replace(",", "").replace("_", "")
        if _DIGITS.fullmatch(digits) and 1 <= int(digits) <= MAX_GAME_NUMBER:
            return int(digits)
        shown = raw if len(raw) <= 30 else raw[:27] + "..."
        raise ValueError(f"The game number must be {_NUMBERS}, not {shown!r}")

    def solve(self, number: int, variant: str) -> SolveResult:
        """The solver's result on game ``number`` of ``variant`` (kept)."""
        return _kept(
            self._results,
            (number, variant),
            lambda: solve(number, variant=variant, max_nodes=self.budget),
        )

    def play(self, number: int, variant: str, player: str) -> GameRecord:
        """``player``'s game of game ``number`` of ``variant`` (kept)."""
        return _kept(
            self._games, (number, variant, player), lambda: play(number, player, variant=variant)
        )

    def difficulty(self, number: int, variant: str) -> Difficulty:
        """The deal's difficulty: shipped, or from the kept games and solve."""
        known = rated(number, variant)
        if known is not None:
            return known
        result = self.solve(number, variant)
        won = tuple(p for p in RATERS if self.play(number, variant, p).won)
        tag = tag_of(won, result.outcome, result.nodes)
        return Difficulty(tag, number, variant, won, result.outcome, result.nodes, "computed")

    def verdict(self, result: SolveResult) -> str:
        """The solver's result in plain words."""
        if result.outcome == "solved":
            n = len(result.moves)
            return f"Winnable: a winning line of {_count(n)}, replayed by the rule engine"
        if result.outcome == "unsolvable":
            return "Cannot be won: the solver proved that no sequence of moves wins"
        text = (
            f"Still open: the solver found neither a win nor a proof of loss within its "
            f"budget of {self.budget:,} positions. "
        )
        listed = KNOWN_OPEN.get((result.variant, result.deal or 0))
        if listed is not None:
            return text + (
                f"Nobody knows yet whether this deal can be won; game {result.deal} has been "
                f"open since {listed}."
            )
        return text + "This search does not tell whether it can be won; a larger budget may."

    @staticmethod
    def player_summary(game: GameRecord, result: SolveResult | None = None) -> str:
        """A player's game in plain words (and, when it lost a deal the solver
        wins, a pointer to the winning line)."""
        n = len(game.moves)
        back = ""
        if game.takebacks:
            back = f", having taken back {_count(game.takebacks)} on the way"
        if game.won:
            return f"The {game.player} player won in {_count(n)}{back}."
        how, where = _PLAYER_ENDS[game.ended]
        text = (
            f"The {game.player} player {how.format(n=_count(n))}{back}. "
            f"The replay ends where it {where}."
        )
        if result is not None and result.solved:
            text += " The deal can be won: see the solver's winning line."
        return text


def lost_and_won(
    player: str = "careful", *, variant: str = "bakers_dozen", first: int = 1, tries: int = 100
) -> tuple[GameRecord, SolveResult]:
    """The first deal from game ``first`` on (trying at most ``tries`` deals)
    that ``player`` loses and the solver wins: the player's game and the
    solver's result, for :class:`Compare`.

    >>> lost, won = lost_and_won("careful", first=3)    # careful wins game 3
    >>> lost.deal, lost.outcome, won.deal, won.outcome
    (4, 'lost', 4, 'solved')
    """
    first = as_int(first, "first", low=1, high=MAX_GAME_NUMBER)
    tries = as_int(tries, "tries", low=1, high=10_000)
    last = min(first + tries - 1, MAX_GAME_NUMBER)
    for number in range(first, last + 1):
        game = play(number, player, variant=variant)
        if not game.won:
            result = solve(number, variant=variant)
            if result.solved:
                return game, result
    raise LookupError(
        f"no deal of games {first} to {last} of {variant} is lost by {player} and won by "
        f"the solver; try other numbers (first=, tries=)"
    )


# -- what the game explorer shows ---------------------------------------------
def _close_all(widget: Any) -> None:
    """Close a widget and every widget inside it (they leave the kernel and the page)."""
    for child in getattr(widget, "children", ()):
        _close_all(child)
    widget.close()


def _heading(source: object) -> str:
    text = source.summary() if isinstance(source, SolveResult | GameRecord) else ""
    return f"<b>{escape(text)}</b>"


class Compare(widgets.HBox):
    """Games replayed next to each other (on a narrow page, one under the other).

    ``sources``: anything :class:`Replay` takes, typically a player's lost game
    and the solver's win of the same deal (:func:`lost_and_won`); ``titles``:
    one heading per source (default: a SolveResult's or GameRecord's
    ``summary()``); ``layout``: the pictures' layout.  ``replays`` are the
    :class:`Replay` widgets, each with its own controls.
    """

    def __init__(
        self, *sources: object, titles: Sequence[str] | None = None, layout: str = "7+6"
    ) -> None:
        if not sources:
            raise ValueError("Compare needs at least one game to replay")
        if titles is not None and len(titles) != len(sources):
            raise ValueError(f"titles: one per game, {len(sources)}, not {len(titles)}")
        heads = (
            [_heading(s) for s in sources]
            if titles is None
            else [f"<b>{escape(str(t))}</b>" for t in titles]
        )
        self.replays = [Replay(s, layout=layout) for s in sources]
        for r in self.replays:  # the pictures get the room: the slider lists the moves
            r.moves.layout.display = "none"
        # the games share the width (their pictures shrink), down to a readable size
        share = widgets.Layout(flex="1 1 0", min_width="380px", margin="0 24px 16px 0")
        super().__init__(
            [
                widgets.VBox([widgets.HTML(h), r], layout=share)
                for h, r in zip(heads, self.replays, strict=True)
            ],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        self.add_class("bl-compare")


_TONE = {"solved": "#2e7d32", "unsolvable": "#c0392b", "unresolved": "#b7791f"}
_INTRO = (
    "Type a PySolFC game number and press Show (or Enter) to learn whether the deal can be "
    "won, step through the winning line or a player's game, and play it yourself."
)


class GameExplorer(widgets.VBox):
    """Type a game number: see the deal, whether it can be won, the winning line
    or where a human-like player got stuck, and play it yourself.  The page of
    ``bakers-lab app``.

    ``game`` is shown at once when given (a number or its text); ``variant`` a
    preset name; ``player`` one of :data:`PLAYERS`; ``budget`` the solver's
    node budget; ``layout`` the pictures' layout: ``"rows"`` (two rows, like
    the 7 + 6 columns of the game page) or ``"row"``.  Controls: ``game`` (a Text
    box: Enter, leaving it, or ``show`` shows the game), ``variant``, ``show``,
    ``verdict`` (the answer, or what is wrong with the number; ``message`` is
    its plain text), ``tabs`` (the winning line or the deal; a player's game;
    play it yourself), ``player`` and ``player_text``.  Once a game is shown:
    ``replay`` (the solver's winning line; ``None`` when there is none),
    ``player_replay`` and ``board`` (a :class:`Board`).
    """

    def __init__(
        self,
        game: int | str | None = None,
        *,
        variant: str = "bakers_dozen",
        player: str = "careful",
        budget: int = DEFAULT_MAX_NODES,
        layout: str = "rows",
    ) -> None:
        if layout not in ("rows", "row"):
            raise ValueError(f"layout must be 'rows' or 'row', not {describe(layout)}")
        if variant not in variant_names():
            raise ValueError(
                f"variant must be one of {', '.join(variant_names())}, not {variant!r}"
            )
        if player not in PLAYERS:
            raise ValueError(f"player must be one of {', '.join(PLAYERS)}, not {player!r}")
        self.model = ExplorerModel(budget)
        self._rows = layout == "rows"
        self.game = widgets.Text(
            value="" if game is None else str(game),
            description="Game number",
            placeholder="like 417",
            continuous_update=False,  # the value changes on Enter or leaving the box
            style={"description_width": "initial"},
            layout=widgets.Layout(width="22em"),
        )
        self.variant = widgets.Dropdown(
            options=variant_names(),
            value=variant,
            description="Variant",
            layout=widgets.Layout(width="18em"),
        )
        self.show = widgets.Button(
            description="Show",
            button_style="primary",
            icon="search",
            tooltip="show this game",
            layout=widgets.Layout(width="8em"),
        )
        self.verdict = widgets.HTML()
        self.message = ""
        self.player = widgets.Dropdown(
            options=[(label, name) for name, label in PLAYERS.items()],
            value=player,
            description="Player",
            layout=widgets.Layout(width="34em"),
        )
        self.player_text = widgets.HTML()
        self.replay: Replay | None = None
        self.player_replay: Replay | None = None
        self.board: Board | None = None
        # where the shown game's widgets go: the winning line (or the deal), the
        # player's replay (under the player's controls), the board
        self._line_page, self._player_box, self._board_page = (widgets.VBox() for _ in range(3))
        self.tabs = widgets.Tab(
            children=[
                self._line_page,
                widgets.VBox([self.player, self.player_text, self._player_box]),
                self._board_page,
            ],
            titles=("Winning line", "A player's game", "Play it yourself"),
            layout=widgets.Layout(display="none"),
        )
        self._shown: tuple[int, str] | None = None
        self.show.on_click(lambda _: self._request())
        self.game.observe(lambda _: self._request(), names="value")
        self.variant.observe(lambda _: self._request(quiet=True), names="value")
        self.player.observe(lambda _: self._show_player(), names="value")
        super().__init__(
            [
                widgets.HBox(
                    [self.game, self.variant, self.show],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.verdict,
                self.tabs,
            ]
        )
        self.add_class("bl-explorer")
        self.game.add_class("bl-explorer-game")
        self.verdict.add_class("bl-explorer-verdict")
        self._say(_INTRO, tone="#555555", size="1em")
        if game is not None:
            self._request()

    # -- drawing ------------------------------------------------------------------
    def _layout(self, variant: str) -> str:
        if not self._rows:
            return "row"
        n = rules(variant).columns
        return f"{n - n // 2}+{n // 2}" if n > 1 else "row"

    def _say(self, text: str, *, tone: str, size: str = "1.15em", detail: str = "") -> None:
        self.message = text
        more = f'<div style="color:#555;font-size:0.9em;margin-top:2px">{detail}</div>'
        self.verdict.value = (
            f'<div style="border-left:5px solid {tone};padding:4px 10px;margin:8px 0;'
            f'font-size:{size};line-height:1.4;max-width:60em">'
            f'<span class="bl-message">{escape(text)}</span>{more if detail else ""}</div>'
        )

    def _place(self, page: Any, *children: Any) -> None:
        """Put ``children`` on a page, closing what was there."""
        old = page.children
        page.children = children
        for w in old:
            _close_all(w)

    # -- acting -------------------------------------------------------------------
    def _request(self, *, quiet: bool = False) -> None:
        """Show the game typed (``quiet``: say nothing when the box is empty)."""
        if quiet and not self.game.value.strip():
            return
        try:
            number = ExplorerModel.parse(self.game.value)
        except ValueError as exc:
            self._shown = None
            self.tabs.layout.display = "none"
            self._say(str(exc), tone=_TONE["unsolvable"], size="1em")
            return
        if (number, self.variant.value) != self._shown:
            self._show_game(number, self.variant.value)

    def _show_game(self, number: int, variant: str) -> None:
        self._shown = None
        self.tabs.layout.display = "none"
        self.show.disabled = True
        self._say(
            f"Solving game {number}… (at most {self.model.budget:,} positions: "
            f"up to a few seconds)",
            tone="#888888",
        )
        try:
            result = self.model.solve(number, variant)
            self._say(
                self.model.verdict(result),
                tone=_TONE[result.outcome],
                detail=f"Game {number} of {escape(variant)}: {result.nodes:,} positions "
                f"searched in {result.seconds:.1f} s. Difficulty: "
                f"{escape(self.model.difficulty(number, variant).summary())}",
            )
            if result.solved:
                self.replay = Replay(result, layout=self._layout(variant))
                self._place(self._line_page, self.replay)
                self.tabs.set_title(0, "Winning line")
            else:
                self.replay = None
                start = GameState.from_deal(deal(number, variant))
                why = "cannot be won" if result.outcome == "unsolvable" else "is still open"
                note = widgets.HTML(f"No winning line to step through: the deal {why}.")
                picture = widgets.HTML(start.to_html(layout=self._layout(variant)))
                self._place(self._line_page, note, picture)
                self.tabs.set_title(0, "The deal")
            self.board = Board(number, variant=variant, layout=self._layout(variant))
            self._place(self._board_page, self.board)
            self._shown = (number, variant)
            self._show_player(result)
            self.tabs.layout.display = None
        except Exception as exc:  # a bug: say so on the page too (a web app has no traceback)
            self._say(f"Something went wrong: {type(exc).__name__}: {exc}", tone="#c0392b")
            raise
        finally:
            self.show.disabled = False

    def _show_player(self, result: SolveResult | None = None) -> None:
        if self._shown is None:
            return
        number, variant = self._shown
        if result is None:
            result = self.model.solve(number, variant)  # kept: free
        self.player_text.value = f"Playing game {number} as {escape(self.player.value)}…"
        game = self.model.play(number, variant, self.player.value)
        self.player_replay = Replay(game, layout=self._layout(variant))
        self._place(self._player_box, self.player_replay)
        self.player_text.value = escape(ExplorerModel.player_summary(game, result))


# -- what a trace viewer knows ----------------------------------------------------
#: What each teaching search orders its nodes by (the ``value`` of its events).
_VALUE_NAMES = {
    "breadth_first": "g",
    "depth_first": "g",
    "depth_limited": "g",
    "iterative_deepening": "g",
    "uniform_cost": "g",
    "greedy_best_first": "h",
    "beam": "h",
    "best_first": "f",
    "astar": "f",
    "weighted_astar": "f",
    "ida_star": "f",
}


class TraceModel:
    """A search's trace, event by event: the counts after each event, the text
    of each step, and the position of each node.

    ``source`` is a :class:`~bakers_lab.solve.search.SearchResult` of a search
    run with ``trace=True`` (its problem is the game from ``result.start``
    unless ``problem`` is given: pass it for a :class:`Problem` of your own),
    or a list of :class:`~bakers_lab.solve.search.Event` (then ``problem``, a
    Problem, Deal or GameState, is needed).  Step ``k`` (1 … ``n``) is the
    trace after its ``k``-th event.

    A node's position is rebuilt by replaying the moves on its path from the
    problem's initial state (its ancestors' ids are in the trace), and kept,
    so each position is made once.
    """

    def __init__(
        self,
        source: SearchResult | Sequence[Event],
        problem: Problem | Deal | GameState | None = None,
    ) -> None:
        if isinstance(source, SearchResult):
            self.result: SearchResult | None = source
            events = source.trace
        else:
            self.result = None
            events = tuple(source)
        if problem is None:
            if self.result is None:
                raise ValueError(
                    "a list of Events needs problem=: the Problem, Deal or GameState "
                    "the search started from"
                )
            if self.result.start is None:
                raise ValueError("this result does not say where it started: pass problem=")
            problem = self.result.start
        self.problem = as_problem(problem)
        #: The trace with its counts (:func:`bakers_lab.plots.trace_table`).
        self.table = trace_table(source if self.result is not None else events)
        self.events: tuple[Event, ...] = events
        self.n = len(self.events)
        self.algorithm = self.result.algorithm if self.result is not None else ""
        self.value_name = _VALUE_NAMES.get(self.algorithm, "value")
        self._born = {e.node_id: e for e in self.events if e.kind == "generate"}
        first = self.events[0]
        if first.kind != "generate" or first.parent_id is not None:
            raise ValueError(f"a trace starts by generating its root, not with {first}")
        self.passes = int(self.table["search_pass"].iloc[-1])
        self._states: dict[int, GameState] = {}
        self._columns = {
            name: self.table[name].to_numpy()
            for name in ("expanded", "generated", "frontier", "search_pass")
        }
        child = next((e for e in self.events if e.parent_id is not None), None)
        if child is not None:  # a trace of another problem fails here rather than later
            self._state(child.node_id)

    def _step(self, k: int) -> int:
        return as_int(k, "step", low=1, high=self.n)

    def event(self, k: int) -> Event:
        """The ``k``-th event (1 … ``n``)."""
        return self.events[self._step(k) - 1]

    def counts(self, k: int) -> tuple[int, int, int]:
        """(expanded, generated, frontier) after ``k`` events."""
        i = self._step(k) - 1
        columns = self._columns
        return (
            int(columns["expanded"][i]),
            int(columns["generated"][i]),
            int(columns["frontier"][i]),
        )

    def line(self, k: int) -> str:
        """What step ``k`` shows: ``event 37 of 412: expand node 12 at depth 3
        (f = 14); frontier 9; expanded 12, generated 30``; at the last event
        followed by how the search ended."""
        k = self._step(k)
        e = self.events[k - 1]
        expanded, generated, frontier = self.counts(k)
        what = {"generate": "generate", "expand": "expand", "prune": "prune", "goal": "goal:"}
        search_pass = int(self._columns["search_pass"][k - 1])
        if e.kind == "generate" and e.parent_id is None:
            root = f"the root of pass {search_pass}" if self.passes > 1 else "the root"
            text = f"generate {root}, node {e.node_id}, at depth {e.depth}"
        else:
            text = f"{what[e.kind]} node {e.node_id} at depth {e.depth}"
        if e.kind == "generate" and e.parent_id is not None:
            text += f" by {e.move_text}"
        text += f" ({self.value_name} = {e.f_or_g_value:g})"
        where = f" (pass {search_pass})" if self.passes > 1 else ""
        line = (
            f"event {k} of {self.n}{where}: {text}; frontier {frontier}; "
            f"expanded {expanded}, generated {generated}"
        )
        if k == self.n:
            line += f" — {self.outcome}"
        return line

    @property
    def outcome(self) -> str:
        """How the search ended, in words."""
        r = self.result
        if r is not None and r.solution is not None:
            n = len(r.solution)
            return f"solved: a solution of {n} move{'' if n == 1 else 's'}"
        if r is not None:
            return r.status
        return "goal reached" if self.events[-1].kind == "goal" else "end of the trace"

    def state(self, node_id: int) -> GameState:
        """The position of node ``node_id`` (a new GameState)."""
        return self._state(node_id).copy()

    def _state(self, node_id: int) -> GameState:
        if node_id not in self._born:
            raise ValueError(f"node {node_id} is not generated in this trace")
        path = []
        node: int | None = node_id
        while node is not None and node not in self._states:
            path.append(node)
            node = self._born[node].parent_id
        state = self.problem.initial if node is None else self._states[node]
        for node in reversed(path):
            e = self._born[node]
            if e.parent_id is not None:
                move = next((m for m in self.problem.actions(state) if str(m) == e.move_text), None)
                if move is None:
                    raise ValueError(
                        f"node {node}'s move {e.move_text} is not legal in its parent's position: "
                        f"is this a trace of a search of this problem?"
                    )
                state = self.problem.result(state, move)
            self._states[node] = state
        return self._states[node_id]

    def title(self, k: int) -> str:
        """The picture's title at event ``k``: ``classroom_tiny seed 0: node 39 at
        depth 8, after 2H>F``."""
        e = self.event(k)
        start = self.problem.initial
        d = start.deal
        if d is None:
            name = start.rules.name
        elif d.number is not None:
            name = f"{d.rules.name} #{d.number}"
        elif d.seed is not None:
            name = f"{d.rules.name} seed {d.seed}"
        else:
            name = d.rules.name
        after = f", after {e.move_text}" if e.parent_id is not None else " (the start)"
        return f"{name}: node {e.node_id} at depth {e.depth}{after}"

    def html(self, k: int, *, layout: str = "row") -> str:
        """The picture of the node of event ``k``, the card that moved last outlined."""
        e = self.event(k)
        state = self._state(e.node_id)
        moved = Move.parse(e.move_text).card if e.parent_id is not None else None
        return board_html(
            state.columns,
            state.foundations,
            title=self.title(k),
            layout=layout,
            highlight=() if moved is None else moved,
        )

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        name = self.algorithm or "search"
        return f"<TraceModel of {name}: {self.n} events; {self.outcome}>"


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


class TraceViewer(widgets.VBox):
    """Step through a search's trace event by event: the board of the event's
    node, the counts so far, the frontier's size over time and the tree
    explored so far.

    ``source`` and ``problem`` are what :class:`TraceModel` takes;
    ``layout`` is the board picture's layout; ``tree_nodes`` how many nodes the
    tree drawing holds at most (the first generated).  The slider's value is
    the event; ``play`` is linked to it, the buttons set it.  Controls:
    ``first``, ``back``, ``next``, ``last``, ``play``, ``speed`` (ms per
    event), ``slider``, ``line`` (the event and the counts in words),
    ``board`` (the picture), ``frontier`` and ``tree`` (PNG images of
    :func:`~bakers_lab.plots.frontier_chart` and
    :func:`~bakers_lab.plots.search_tree_chart`).
    """

    def __init__(
        self,
        source: SearchResult | Sequence[Event],
        problem: Problem | Deal | GameState | None = None,
        *,
        layout: str = "row",
        tree_nodes: int = 200,
    ) -> None:
        self.model = model = TraceModel(source, problem)
        self._layout = layout
        self.tree_nodes = as_int(tree_nodes, "tree_nodes", low=1)
        n = model.n
        self.board = widgets.HTML(model.html(1, layout=layout))  # checks the layout
        self.line = widgets.HTML()
        self.first = _button("first", "fast-backward", "to the first event")
        self.back = _button("back", "step-backward", "one event back")
        self.next = _button("next", "step-forward", "one event on")
        self.last = _button("last", "fast-forward", "to the last event")
        # the value changes when the slider is let go: each step draws two charts
        self.slider = widgets.IntSlider(
            value=1, min=1, max=n, description="event", continuous_update=False
        )
        self.play = widgets.Play(value=1, min=1, max=n, interval=600, description="play")
        self.speed = widgets.IntSlider(
            value=600, min=200, max=3000, step=100, description="ms/event"
        )
        self.frontier = widgets.Image(format="png")
        self.tree = widgets.Image(format="png")
        self._links = (
            widgets.link((self.play, "value"), (self.slider, "value")),
            widgets.dlink((self.speed, "value"), (self.play, "interval")),
        )
        self.play.disabled = n == 1
        self.first.on_click(lambda _: self._go(1))
        self.back.on_click(lambda _: self._go(self.slider.value - 1))
        self.next.on_click(lambda _: self._go(self.slider.value + 1))
        self.last.on_click(lambda _: self._go(n))
        self.slider.observe(self._show, names="value")
        controls = widgets.HBox(
            [self.first, self.back, self.next, self.last, self.play],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        charts = widgets.HBox(  # the pictures keep their own heights
            [self.frontier, self.tree],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        super().__init__([self.board, controls, self.slider, self.speed, self.line, charts])
        self.add_class("bl-trace")
        self.line.add_class("bl-trace-line")
        self._draw(1)

    @property
    def step(self) -> int:
        """The event shown (the slider's value)."""
        return int(self.slider.value)

    def _go(self, k: int) -> None:
        self.slider.value = max(1, min(self.model.n, k))

    def _show(self, change: dict[str, Any]) -> None:
        self._draw(int(change["new"]))

    def _draw(self, k: int) -> None:
        m = self.model
        self.board.value = m.html(k, layout=self._layout)
        self.line.value = m.line(k)
        self.frontier.value = _png(frontier_chart(m.table, upto=k))
        self.tree.value = _png(search_tree_chart(m.table, upto=k, limit=self.tree_nodes))
        self.first.disabled = self.back.disabled = k == 1
        self.next.disabled = self.last.disabled = k == m.n
