"""Cards, ranks and suits: the value types every other module speaks.

A card is a rank (1 = Ace … 13 = King) and a suit.  Suits are numbered in
PySolFC's deck order, Clubs, Spades, Hearts, Diamonds, so that a card's
``index`` (``suit * 13 + rank - 1``) is the card id PySolFC uses.

>>> Card.parse("7C")
Card.parse('7C')
>>> str(Card.parse("10♥")), Card.parse("th").pretty()
('TH', 'T♥')
>>> sorted([Card.parse("2S"), Card.parse("AS"), Card.parse("KC")])
[Card.parse('KC'), Card.parse('AS'), Card.parse('2S')]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bakers_lab.utils.validate import as_int, describe, is_bool, shown

__all__ = ["RANK_CHARS", "Card", "CardError", "Suit", "parse_rank", "rank_char"]

#: One character per rank, index 1 … 13 (index 0 unused).
RANK_CHARS = "-A23456789TJQK"

_SUIT_LETTERS = "CSHD"
_SUIT_SYMBOLS = "♣♠♥♦"


class CardError(ValueError):
    """Text that does not name a card (or a rank or suit)."""


class Suit(enum.IntEnum):
    """The four suits, numbered in PySolFC's deck order."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        """One capital letter: ``C``, ``S``, ``H`` or ``D``."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♠``, ``♥`` or ``♦``."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Hearts and Diamonds are red; Clubs and Spades black."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (any case) or symbol.

        >>> Suit.parse("h"), Suit.parse("♠")
        (Suit.HEARTS, Suit.SPADES)
        """
        if not isinstance(text, str):
            raise CardError(f"a suit is written as a letter like 'S' or '♠', not {describe(text)}")
        t = text.strip()
        if len(t) == 1:
            if t.upper() in _SUIT_LETTERS:
                return cls(_SUIT_LETTERS.index(t.upper()))
            if t in _SUIT_SYMBOLS:
                return cls(_SUIT_SYMBOLS.index(t))
            if t in "♧♤♡♢":
                return cls("♧♤♡♢".index(t))
        raise CardError(f"not a suit: {shown(repr(text))} (expected one of C S H D or ♣ ♠ ♥ ♦)")

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.letter


def rank_char(rank: int) -> str:
    """The one-character name of a rank: ``rank_char(10) == 'T'``."""
    return RANK_CHARS[rank]


def parse_rank(text: str) -> int:
    """A rank from ``A 2 … 9 T J Q K`` or ``10`` (any case).

    >>> parse_rank("10"), parse_rank("q")
    (10, 12)
    """
    if not isinstance(text, str):
        raise CardError(f"a rank is written like 'A', '7', 'T' or '10', not {describe(text)}")
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_CHARS[1:]:
        return RANK_CHARS.index(t)
    raise CardError(f"not a rank: {shown(repr(text))} (expected A 2 3 4 5 6 7 8 9 T J Q K or 10)")


@dataclass(frozen=True, order=False)
class Card:
    """One playing card.  Ordered by ``index`` (suit, then rank), hashable."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            rank = as_int(self.rank, "rank", low=1, high=13, error=CardError)
            object.__setattr__(self, "rank", rank)  # numpy and Decimal integers become int
        if not isinstance(self.suit, Suit):
            if is_bool(self.suit):
                raise CardError(f"suit must be a Suit or 0-3, not {describe(self.suit)}")
            try:
                object.__setattr__(self, "suit", Suit(as_int(self.suit, "suit", error=CardError)))
            except ValueError:
                raise CardError(f"suit must be a Suit or 0-3, not {describe(self.suit)}") from None

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from ``"7C"``, ``"TC"``, ``"10C"``, ``"7♣"`` (any case, spaces ignored).

        >>> Card.parse(" qd ")
        Card.parse('QD')
        """
        if not isinstance(text, str):
            raise CardError(f"a card is written as text like '7C', not {describe(text)}")
        t = text.strip()
        if len(t) < 2:
            raise CardError(
                f"not a card: {shown(repr(text))} (expected rank then suit, like '7C' or '10♥')"
            )
        try:
            return cls(parse_rank(t[:-1]), Suit.parse(t[-1]))
        except CardError:
            raise CardError(
                f"not a card: {shown(repr(text))} (expected rank then suit, like '7C' or '10♥')"
            ) from None

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with PySolFC id ``index`` (``suit * 13 + rank - 1``)."""
        if type(index) is int and 0 <= index < 52:
            return _BY_INDEX[index]
        return _BY_INDEX[as_int(index, "card index", low=0, high=51, error=CardError)]

    @property
    def index(self) -> int:
        """PySolFC's card id, 0 … 51: ``suit * 13 + rank - 1``."""
        return int(self.suit) * 13 + self.rank - 1

    @property
    def is_red(self) -> bool:
        """True for Hearts and Diamonds."""
        return self.suit.is_red

    def pretty(self) -> str:
        """Rank letter and suit symbol: ``'7♣'``."""
        return rank_char(self.rank) + self.suit.symbol

    def __str__(self) -> str:
        return rank_char(self.rank) + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


_BY_INDEX: tuple[Card, ...] = tuple(Card(i % 13 + 1, Suit(i // 13)) for i in range(52))
