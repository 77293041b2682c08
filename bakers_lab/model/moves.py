"""Moves and their notation (docs/rules.md, "Move notation").

A move is written ``CARD>DEST``: the card that moves, then the card it lands
on (``7C>8H``), ``F`` for its foundation (``AS>F``; ``2H>FS`` names the pile by
its Ace where more than one pile could take the card), or ``E`` for an empty
column.  Every card is unique and only uncovered cards move, so a move needs
no column numbers.

>>> m = Move.parse("7c>8h")
>>> m, str(m)
(Move.parse('7C>8H'), '7C>8H')
>>> str(Move.parse("2♥>FS")), Move.parse("2H>FS").pile
('2H>FS', Suit.SPADES)
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from bakers_lab.model.cards import Card, CardError, Suit
from bakers_lab.utils.validate import describe, shown

__all__ = ["Dest", "IllegalMoveError", "Move", "MoveError", "parse_moves"]


class MoveError(ValueError):
    """Text that does not name a move."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow here; the message names the move and the reason."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"illegal move {move}: {reason}")
        self.move = move
        self.reason = reason


class Dest(enum.Enum):
    """A destination that is not a card."""

    FOUNDATION = "F"
    EMPTY = "E"

    def __repr__(self) -> str:
        return f"Dest.{self.name}"


@dataclass(frozen=True)
class Move:
    """One move: ``card`` goes onto the card ``to``, or to a foundation or empty column.

    ``pile`` names the foundation pile (by the suit of its Ace) where more than
    one pile could take the card; otherwise it is ``None``.
    """

    card: Card
    to: Card | Dest
    pile: Suit | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise MoveError(f"a move's card must be a Card, not {describe(self.card)}")
        if not isinstance(self.to, (Card, Dest)):
            raise MoveError(
                f"a move goes to a Card, Dest.FOUNDATION or Dest.EMPTY, not {describe(self.to)}"
            )
        if self.pile is not None and not isinstance(self.pile, Suit):
            raise MoveError(
                f"a move's pile must be a Suit (like Suit.SPADES) or None, "
                f"not {describe(self.pile)}"
            )
        if self.pile is not None and self.to is not Dest.FOUNDATION:
            raise MoveError("only a foundation move names a pile")
        if self.to == self.card:
            raise MoveError(f"a card cannot move onto itself: {self.card}")

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """A move from its notation (any case; ``10`` and suit symbols allowed)."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise MoveError(f"a move is written like '7C>8H', not {describe(text)}")
        if cls is Move:  # moves are immutable: a text read once is read from the cache after
            return _parse_cached(text)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Move:
        card_text, sep, dest_text = text.strip().partition(">")
        if not sep:
            raise MoveError(
                f"not a move: {shown(repr(text))} (expected CARD>DEST, like 7C>8H, AS>F or 7C>E)"
            )
        try:
            card = Card.parse(card_text)
        except CardError as exc:
            raise MoveError(f"not a move: {shown(repr(text))}: {exc}") from None
        dest = dest_text.strip().upper()
        if dest == "F":
            return cls(card, Dest.FOUNDATION)
        if dest == "E":
            return cls(card, Dest.EMPTY)
        if len(dest) == 2 and dest[0] == "F":
            try:
                return cls(card, Dest.FOUNDATION, Suit.parse(dest[1]))
            except CardError:
                pass
        try:
            return cls(card, Card.parse(dest_text))
        except (CardError, MoveError):
            raise MoveError(
                f"not a move: {shown(repr(text))} (the destination must be a card, F, F+suit or E)"
            ) from None

    @property
    def to_foundation(self) -> bool:
        """True for a move to a foundation."""
        return self.to is Dest.FOUNDATION

    @property
    def to_empty(self) -> bool:
        """True for a move to an empty column."""
        return self.to is Dest.EMPTY

    def __str__(self) -> str:
        if isinstance(self.to, Card):
            dest = str(self.to)
        else:
            dest = self.to.value + (self.pile.letter if self.pile is not None else "")
        return f"{self.card}>{dest}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


@functools.lru_cache(maxsize=16_384)
def _parse_cached(text: str) -> Move:
    return Move._parse(text)


def parse_moves(text: str | list[Move | str] | tuple[Move | str, ...]) -> list[Move]:
    """A list of moves from space-separated notation (a solution's text), or from a
    list of moves or their texts.

    >>> [str(m) for m in parse_moves("AD>F  5S>6D")]
    ['AD>F', '5S>6D']
    """
    if isinstance(text, str):
        return [Move.parse(t) for t in text.removeprefix("\ufeff").split()]
    if isinstance(text, list | tuple):
        return [Move.parse(t) for t in text]
    raise TypeError(
        "moves must be move texts separated by spaces (like 'AD>F 5S>6D') or a list of "
        f"Moves or move texts, not {describe(text)}"
    )
