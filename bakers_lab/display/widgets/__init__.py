"""Jupyter widgets: replay a game move by move, play a deal by clicking, explore a game.

Each widget is split in two.  A plain class *knows* the game and is tested
without a browser or a kernel: :class:`ReplayModel` (the positions of a replay
and the text of each step) and :class:`BoardModel` (a game in progress, the
moves it allows, the answer to "can I still win?").  A widget class *shows*
it: :class:`Replay` and :class:`Board` are ``ipywidgets.VBox`` es of controls
around a model.  Every board picture comes from :mod:`bakers_lab.model.render`.

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
the tree explored so far (charts of :mod:`bakers_lab.display.plots`).  What it knows
(the counts after each event, each step in words, each node's position,
rebuilt from the moves on its path) is :class:`TraceModel`.

In a :class:`Replay` the move number has one source of truth, the slider's
value: the ``Play`` widget and the move list are linked to it (kernel-side),
the buttons set it, and one ``observe`` callback redraws.  Every replay and the
trace viewer step with the same controls, a :class:`~.stepper.Stepper`, placed
above the picture so that they never move under the pointer.

The package's modules: :mod:`.replay`, :mod:`.board`, :mod:`.explorer`,
:mod:`.trace`, :mod:`.stepper` (and :mod:`._common`, what they share).  The model modules never
import this package (it needs ``ipywidgets``, an optional dependency).

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

from bakers_lab.display.widgets._common import DEFAULT_BUDGET
from bakers_lab.display.widgets.board import Board, BoardModel
from bakers_lab.display.widgets.explorer import (
    KNOWN_OPEN,
    PLAYERS,
    Compare,
    ExplorerModel,
    GameExplorer,
    lost_and_won,
)
from bakers_lab.display.widgets.mygames import MyGames
from bakers_lab.display.widgets.replay import Replay, ReplayModel
from bakers_lab.display.widgets.trace import TraceModel, TraceViewer

__all__ = [
    "DEFAULT_BUDGET",
    "KNOWN_OPEN",
    "PLAYERS",
    "Board",
    "BoardModel",
    "Compare",
    "ExplorerModel",
    "GameExplorer",
    "MyGames",
    "Replay",
    "ReplayModel",
    "TraceModel",
    "TraceViewer",
    "lost_and_won",
]
