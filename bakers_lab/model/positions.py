"""Where a game starts and what was played: the one reading of a *position*
(a PySolFC game number, a :class:`~bakers_lab.model.deals.Deal` or a
:class:`~bakers_lab.model.game.GameState`) and of a *move list* (move texts separated
by spaces, or a list of moves or texts) that every function taking them shares:
``solve``, ``play``, ``explain``, ``hint`` and the widgets.

>>> g, number = start_of(5, "good_measure", who="solve")
>>> g.rules.name, number
('good_measure', 5)
>>> move_list("AD>F 5S>6D")
['AD>F', '5S>6D']
"""

from __future__ import annotations

import re

from bakers_lab.model.deals import Deal
from bakers_lab.model.deals import deal as _deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.rules import Rules
from bakers_lab.model.rules import rules as _rules
from bakers_lab.utils.validate import as_int, describe

__all__ = ["move_list", "start_of"]

_SEPARATORS = re.compile(r"[\s,;]+")
_MOVE_NUMBER = re.compile(r"[0-9]+[.)]")


def start_of(
    position: object, variant: str | Rules | None = None, *, who: str
) -> tuple[GameState, int | None]:
    """A fresh copy of the start position and its PySolFC game number, if it has
    one.  ``variant`` picks the rules of a game number (Baker's Dozen when None);
    a Deal or GameState carries its own rules, so a different ``variant`` is an
    error.  ``who`` names the caller in the error of a wrong type.

    >>> start_of("7", who="solve")
    Traceback (most recent call last):
    ...
    TypeError: solve takes a Deal, a GameState or a game number, not '7' (str)
    """
    if isinstance(position, GameState | Deal):
        if variant is not None and _rules(variant) != position.rules:
            raise ValueError(
                f"variant= is only for game numbers; this {type(position).__name__} carries "
                f"its rules ({position.rules.name}), not those of {variant!r}"
            )
        if isinstance(position, Deal):
            return GameState.from_deal(position), position.number
        return position.copy(), position.deal.number if position.deal is not None else None
    try:
        as_int(position, "position")
    except ValueError as exc:
        if "must be an integer, not" not in str(exc):  # an integer, too large: deal() says so
            return _start_of_number(position, variant)
        raise TypeError(
            f"{who} takes a Deal, a GameState or a game number, not {describe(position)}"
        ) from None
    return _start_of_number(position, variant)


def _start_of_number(position: object, variant: str | Rules | None) -> tuple[GameState, int | None]:
    d = _deal(position, variant="bakers_dozen" if variant is None else variant)  # type: ignore[arg-type]
    return GameState.from_deal(d), d.number


def move_list(moves: object) -> list[Move | str]:
    """The moves as a list: a list or tuple is copied; text is read as a *move
    list*, the form ``bakers-lab explain --moves FILE``, ``hint`` and the app
    read too: moves separated by spaces, commas or line breaks; ``#`` starts a
    comment that runs to the end of its line; move numbers such as ``12.`` are
    skipped (so a list copied from a replay's move list reads back).  Each
    move is ``CARD>DEST`` in any case, ``10`` or ``T``, suit letters or symbols.

    >>> move_list(("AD>F",))
    ['AD>F']
    >>> move_list("1. AD>F  2. 5S>6D # a comment\\n10h>jh, ks>e")
    ['AD>F', '5S>6D', '10h>jh', 'ks>e']
    """
    if isinstance(moves, str):
        moves = moves.removeprefix("\ufeff")  # a byte order mark is not a move
        words = _SEPARATORS.split(" ".join(line.partition("#")[0] for line in moves.splitlines()))
        return [w for w in words if w and not _MOVE_NUMBER.fullmatch(w)]
    if isinstance(moves, list | tuple):
        return list(moves)
    raise TypeError(
        "moves must be move texts separated by spaces (like 'AD>F 5S>6D') or a list of "
        f"Moves or move texts, not {describe(moves)}"
    )
