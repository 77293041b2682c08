"""The board text format of docs/rules.md (what ``fc-solve -g bakers_dozen`` reads).

One column per line, deepest card first, playable card last; an optional
first line ``Foundations: H-5 C-A D-0 S-0``; an empty column is an empty line
or a lone ``:``.  This module only turns text into cards and back; whether the
cards make a legal deal is for :mod:`bakers_lab.model.deals` to say.

>>> b = parse_board("Foundations: H-A\\nKH 5S\\n:\\n")
>>> b.foundations, b.columns
({Suit.HEARTS: 1}, [[Card.parse('KH'), Card.parse('5S')], []])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bakers_lab.model.cards import Card, CardError, Suit, parse_rank, rank_char
from bakers_lab.utils.validate import describe, shown

__all__ = ["BoardTextError", "ParsedBoard", "format_board", "parse_board"]

_FOUNDATION_ORDER = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


class BoardTextError(ValueError):
    """Board text that cannot be read; the message names the line and the problem."""


@dataclass
class ParsedBoard:
    """Cards read from board text, with the line each came from (1-based)."""

    columns: list[list[Card]] = field(default_factory=list)
    #: foundation heights by suit, as written (``H-5`` → 5)
    foundations: dict[Suit, int] = field(default_factory=dict)
    #: the line of each column (1-based), for messages
    column_lines: list[int] = field(default_factory=list)
    foundation_line: int = 0


def _parse_foundations(line: str, lineno: int) -> dict[Suit, int]:
    heights: dict[Suit, int] = {}
    for token in line.split(":", 1)[1].split():
        suit_text, sep, rank_text = token.partition("-")
        if not sep:
            raise BoardTextError(
                f"line {lineno}: bad foundation {shown(repr(token))} (expected like H-5 or S-0)"
            )
        try:
            suit = Suit.parse(suit_text)
            height = 0 if rank_text.strip() == "0" else parse_rank(rank_text)
        except CardError as exc:
            bad = shown(repr(token))
            raise BoardTextError(f"line {lineno}: bad foundation {bad}: {exc}") from None
        if suit in heights:
            raise BoardTextError(f"line {lineno}: foundation {suit.letter} given twice")
        heights[suit] = height
    return heights


def parse_board(text: str) -> ParsedBoard:
    """Read board text into columns of cards and foundation heights.

    Raises :class:`BoardTextError` naming the line of a bad token.
    """
    if not isinstance(text, str):
        raise BoardTextError(f"board text must be a str, not {describe(text)}")
    board = ParsedBoard()
    lines = text.removeprefix("\ufeff").splitlines()  # a UTF-8 byte order mark is no card
    while lines and not lines[-1].strip():  # trailing blank lines end the text
        lines.pop()
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        low = line.lower()
        if low.startswith("foundations:"):
            if board.columns or board.foundation_line:
                raise BoardTextError(f"line {lineno}: the Foundations line must come first, once")
            board.foundations = _parse_foundations(line, lineno)
            board.foundation_line = lineno
            continue
        if low.startswith("freecells:") or low.startswith("talon:"):
            raise BoardTextError(
                f"line {lineno}: {shown(repr(line.split(':')[0]))} has no place in "
                f"Baker's Dozen boards"
            )
        if line.startswith(":"):
            line = line[1:]
        cards = []
        for token in line.split():
            try:
                cards.append(Card.parse(token))
            except CardError:
                raise BoardTextError(
                    f"line {lineno}: bad card {shown(repr(token))} "
                    f"(expected rank A23456789TJQK or 10, "
                    f"then suit CDHS, like 7C or TH)"
                ) from None
        board.columns.append(cards)
        board.column_lines.append(lineno)
    return board


def format_board(
    columns: list[list[Card]] | tuple[tuple[Card, ...], ...],
    foundations: dict[Suit, int] | None = None,
) -> str:
    """Board text: a ``Foundations:`` line when any foundation is non-empty, then columns.

    >>> print(format_board([[Card.parse("KH"), Card.parse("5S")], []], {Suit.HEARTS: 1}), end="")
    Foundations: H-A C-0 D-0 S-0
    KH 5S
    :
    """
    out = []
    if foundations and any(foundations.values()):
        parts = []
        for suit in _FOUNDATION_ORDER:
            h = foundations.get(suit, 0)
            parts.append(f"{suit.letter}-{rank_char(h) if h else '0'}")
        out.append("Foundations: " + " ".join(parts))
    for col in columns:
        out.append(" ".join(str(c) for c in col) if col else ":")
    return "".join(line + "\n" for line in out)
