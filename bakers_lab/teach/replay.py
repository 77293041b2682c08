"""Replaying a returned line with the rule engine (:class:`~bakers_lab.model.game.GameState`).

>>> from bakers_lab.teach.cases import Case
>>> problem, end = replay(Case("micro", 1005), ["AH>F", "2C>F"])
>>> problem
'move 2 of your line, 2C>F, is not allowed: no foundation takes 2C now'
>>> replay(Case("micro", 1005), ["AH>F"])[0]
'your line of 1 move does not win: it ends with 11 cards not home'
"""

from __future__ import annotations

from collections.abc import Sequence

from bakers_lab.model.game import GameState
from bakers_lab.model.moves import IllegalMoveError, Move, MoveError
from bakers_lab.teach.cases import Case

__all__ = ["replay"]


def replay(case: Case, moves: Sequence[Move | str]) -> tuple[str | None, GameState]:
    """Play ``moves`` from the deal of ``case``: ``(None, end)`` when they are legal and
    win, else ``(what is wrong, the position reached)``."""
    state = GameState.from_deal(case.deal())
    for i, move in enumerate(moves, 1):
        try:
            state.play(move)
        except IllegalMoveError as exc:
            return f"move {i} of your line, {move}, is not allowed: {exc.reason}", state
        except MoveError as exc:
            return f"move {i} of your line, {move!r}, is not a move: {exc}", state
    if not state.is_won:
        left = state.rules.deck_size - state.cards_home
        n = len(moves)
        return (
            f"your line of {n} move{'' if n == 1 else 's'} does not win: "
            f"it ends with {left} card{'' if left == 1 else 's'} not home"
        ), state
    return None, state
