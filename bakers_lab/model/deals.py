"""Deals: PySolFC-numbered games, bakers_lab's own seeded deals, board text.

>>> d = deal(1)
>>> [str(c) for c in d.columns[0]]
['6H', 'JH', '5C', 'AD']
>>> d == Deal.from_text(d.to_text())
True
>>> deal(86, variant="good_measure").foundations     # two Aces start at home
((Card.parse('AC'),), (), (), (Card.parse('AD'),))

A :class:`Deal` is a position at the start of play plus its rules.  Where it
came from (PySolFC game number or own seed, and which King rule was used) is
kept as provenance: it is shown and rebuilt by ``repr``, but two deals with the
same cards and rules are equal whatever their provenance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from bakers_lab.model.boardtext import BoardTextError, ParsedBoard, format_board, parse_board
from bakers_lab.model.cards import Card, Suit, rank_char
from bakers_lab.model.render import Highlight, board_html, board_str
from bakers_lab.model.rules import PRESETS, Rules, title
from bakers_lab.model.rules import rules as _rules
from bakers_lab.model.shuffles import MAX_GAME_NUMBER, MAX_SEED, shuffle_pysolfc, shuffle_seeded
from bakers_lab.utils.validate import as_int, describe, shown

__all__ = [
    "GAME_NUMBERS",
    "Deal",
    "DealError",
    "KingRule",
    "deal",
    "game_number",
    "game_number_text",
    "read_game_number",
    "seeded_deal",
]

#: How the Kings went to the bottom at the deal: PySolFC's swap, or the seed
#: texts' stable rule (order of the other cards kept).
KingRule = Literal["pysolfc", "stable"]


class DealError(ValueError):
    """A deal that cannot be: a missing or doubled card, wrong column count or size."""


def _fresh_deck(ranks: int) -> list[Card]:
    """PySolFC's deck order: suits C S H D, each Ace upwards."""
    return [Card(r, s) for s in Suit for r in range(1, ranks + 1)]


def _king_hook_pysolfc(cards: list[Card], n: int, top: int) -> list[Card]:
    """PySolFC's ``BakersDozen._shuffleHook``: swap each King with the earliest
    non-King of its column, then reverse the list."""
    cards = list(cards)
    for i in [i for i, c in enumerate(cards) if c.rank == top]:
        j = i % n
        while j < i:
            if cards[j].rank != top:
                cards[i], cards[j] = cards[j], cards[i]
                break
            j += n
    cards.reverse()
    return cards


def _move_to_bottom(cards: list[Card], select: Callable[[Card], bool], ncards: int) -> list[Card]:
    """PySolFC's ``_shuffleHookMoveToBottom`` with ``ord = suit``: the first
    ``ncards`` selected cards go to the front of the list (dealt last), in
    descending (suit, position-from-end) order."""
    extracted: list[tuple[int, int, Card]] = []
    rest: list[Card] = []
    i = len(cards)
    for k, c in enumerate(cards):
        if select(c):
            extracted.append((int(c.suit), i, c))
            if len(extracted) >= ncards:
                rest += cards[k + 1 :]
                break
        else:
            rest.append(c)
        i -= 1
    return [x[2] for x in sorted(extracted, key=lambda t: (t[0], t[1]), reverse=True)] + rest


def _stable_kings(column: list[Card], top: int) -> list[Card]:
    """The seed texts' King rule: Kings to the bottom, every relative order kept."""
    return [c for c in column if c.rank == top] + [c for c in column if c.rank != top]


@dataclass(frozen=True, eq=False)
class Deal:
    """A dealt board: columns (deepest card first), foundation piles, rules.

    ``foundations[s]`` is the pile that starts with the Ace of suit ``s``
    (non-empty at the deal only in variants with ``aces_at_start``).
    """

    rules: Rules
    columns: tuple[tuple[Card, ...], ...]
    foundations: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    number: int | None = field(default=None)
    seed: int | None = field(default=None)
    king_rule: KingRule | None = field(default=None)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise DealError(
                f"a deal's rules must be a Rules record (like bl.rules('bakers_dozen')), "
                f"not {describe(self.rules)}"
            )
        object.__setattr__(self, "columns", _piles(self.columns, "columns", "column"))
        object.__setattr__(self, "foundations", _piles(self.foundations, "foundations", "pile"))
        if self.number is not None:
            object.__setattr__(self, "number", game_number(self.number))
        if self.seed is not None:
            seed = as_int(self.seed, "seed", low=0, high=MAX_SEED, error=DealError)
            object.__setattr__(self, "seed", seed)
        if self.king_rule not in (None, "pysolfc", "stable"):
            raise DealError(
                f"king_rule must be 'pysolfc', 'stable' or None, not {describe(self.king_rule)}"
            )
        validate_cards(self.rules, self.columns, self.foundations)

    # -- identity ---------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return (self.rules, self.columns, self.foundations) == (
            other.rules,
            other.columns,
            other.foundations,
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.columns, self.foundations))

    def __repr__(self) -> str:
        variant = self.rules.name if PRESETS.get(self.rules.name) == self.rules else self.rules
        if self.number is not None:
            return f"deal({self.number}, variant={variant!r})"
        if self.seed is not None:
            return f"seeded_deal({self.seed}, variant={variant!r})"
        return f"Deal.from_text({self.to_text()!r}, variant={variant!r})"

    @property
    def variant(self) -> str:
        """The rules' name (``"custom"`` for a record that is not a preset)."""
        return self.rules.name

    @property
    def cards(self) -> list[Card]:
        """All cards of the deal: columns, then foundations."""
        return [c for col in self.columns for c in col] + [c for p in self.foundations for c in p]

    # -- board text --------------------------------------------------------
    def to_text(self) -> str:
        """The board text format of docs/rules.md (read by ``fc-solve``)."""
        heights = {Suit(s): len(p) for s, p in enumerate(self.foundations) if p}
        return format_board(self.columns, heights)

    @classmethod
    def from_text(cls, text: str, variant: str | Rules = "bakers_dozen") -> Deal:
        """A deal from board text; errors name the line and the problem.

        >>> Deal.from_text("KS TC AC 2D\\n", variant="bakers_dozen")
        Traceback (most recent call last):
        ...
        bakers_lab.model.deals.DealError: expected 13 columns for bakers_dozen, found 1
        """
        r = _rules(variant)
        board = parse_board(text)
        columns, foundations = board_to_cards(board, r)
        validate_cards(r, columns, foundations, board)
        return cls(r, columns, foundations)

    # -- display -----------------------------------------------------------
    @property
    def caption(self) -> str:
        """The deal in players' words: ``Game 417 (Baker's Dozen)``."""
        return _title(self)

    def __str__(self) -> str:
        return board_str(self.columns, self.foundations, title=_title(self))

    def to_html(self, *, layout: str = "row", highlight: Highlight | None = ()) -> str:
        """An HTML picture of the deal: ``layout="7+6"`` for two rows; ``highlight``
        takes cards (or their text, like ``"7C"``) to outline."""
        return board_html(
            self.columns, self.foundations, title=_title(self), layout=layout, highlight=highlight
        )

    def _repr_html_(self) -> str:
        return self.to_html()


def _piles(value: object, name: str, what: str) -> tuple[tuple[Card, ...], ...]:
    """``columns`` or ``foundations`` as tuples of tuples; anything but a sequence of
    sequences of cards (a str, None, a number) is refused in one line."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | Iterator):
        raise DealError(f"{name} must be a sequence of {what}s (each a sequence of Cards), "
                        f"not {describe(value)}")  # fmt: skip
    out = []
    for i, pile in enumerate(value):
        if isinstance(pile, str | bytes) or not isinstance(pile, Sequence | Iterator):
            raise DealError(f"{name}: {what} {i + 1} must be a sequence of Cards, "
                            f"not {describe(pile)}")  # fmt: skip
        out.append(tuple(pile))
    return tuple(out)


def _title(d: Deal) -> str:
    """The deal's caption: ``Game 417 (Baker's Dozen)``, ``Good Measure, seed 5``."""
    if d.number is not None:
        return f"Game {d.number} ({title(d.rules)})"
    if d.seed is not None:
        return f"{title(d.rules)}, seed {d.seed}"
    return title(d.rules)


def board_to_cards(
    board: ParsedBoard, r: Rules
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """Columns and foundation piles from parsed text under rules ``r``."""
    piles: list[tuple[Card, ...]] = [(), (), (), ()]
    for suit, height in board.foundations.items():
        if height > r.ranks:
            raise DealError(
                f"line {board.foundation_line}: foundation {suit.letter} "
                f"is higher than the top rank of a {r.ranks}-rank deck"
            )
        if r.foundation_build == "alternate_colour" and height > 1:
            raise DealError(
                f"line {board.foundation_line}: a height like {suit.letter}-{height} "
                f"cannot say which cards lie on an alternate-colour foundation"
            )
        piles[suit] = tuple(Card(k, suit) for k in range(1, height + 1))
    return tuple(tuple(c) for c in board.columns), tuple(piles)


_PILE_ORDER = {
    "same_suit": "a pile holds its suit from the Ace up, one rank at a time",
    "alternate_colour": "a pile starts with the Ace of its suit, then goes up one rank at a "
    "time in alternating colours",
}


def _pile_accepts(r: Rules, s: int, below: Card | None, card: Card) -> bool:
    """Whether ``card`` may lie on ``below`` (``None``: the bottom) in foundation pile ``s``."""
    if below is None:
        return card.rank == 1 and card.suit == s
    if card.rank != below.rank + 1:
        return False
    if r.foundation_build == "same_suit":
        return card.suit == s
    return card.is_red != below.is_red


def validate_cards(
    r: Rules,
    columns: Sequence[Sequence[Card]],
    foundations: Sequence[Sequence[Card]],
    board: ParsedBoard | None = None,
    deal_shape: bool = True,
) -> None:
    """Raise :class:`DealError` unless every card of the deck is there once in
    ``r.columns`` columns and 4 foundation piles; with ``deal_shape``, also
    unless it is a deal: ``r.cards_per_column`` cards a column and
    ``r.aces_at_start`` Aces on their foundations."""

    def where(i: int) -> str:
        return f"line {board.column_lines[i]}: " if board else f"column {i + 1}: "

    if len(foundations) != 4:
        raise DealError(f"there are 4 foundation piles, not {len(foundations)}")
    if len(columns) != r.columns:
        raise DealError(f"expected {r.columns} columns for {r.name}, found {len(columns)}")
    seen: dict[Card, str] = {}
    for i, col in enumerate(columns):
        for card in col:
            if not isinstance(card, Card):
                raise DealError(f"{where(i)}{card!r} is not a Card")
            if card.rank > r.ranks:
                raise DealError(
                    f"{where(i)}{card} is not in a deck of ranks A-{rank_char(r.ranks)}"
                )
            if card in seen:
                raise DealError(f"{where(i)}card {card} appears twice (also {seen[card]})")
            seen[card] = where(i).rstrip(": ")
    for s, pile in enumerate(foundations):
        for k, card in enumerate(pile):
            if not isinstance(card, Card):
                raise DealError(f"foundation pile {Suit(s).letter}: {card!r} is not a Card")
            if card.rank > r.ranks:
                raise DealError(f"{card} is not in a deck of ranks A-{rank_char(r.ranks)}")
            if not _pile_accepts(r, s, pile[k - 1] if k else None, card):
                below = f"on {pile[k - 1]}" if k else "at the bottom"
                raise DealError(
                    f"foundation pile {Suit(s).letter} is not built in order: {card} {below} "
                    f"({_PILE_ORDER[r.foundation_build]})"
                )
            if card in seen:
                raise DealError(f"card {card} appears twice (on the foundation and {seen[card]})")
            seen[card] = "foundation"
    missing = [c for c in _fresh_deck(r.ranks) if c not in seen]
    if missing:
        names = " ".join(str(c) for c in missing)
        raise DealError(f"card{'s' if len(missing) > 1 else ''} missing: {names}")
    if not deal_shape:
        return
    for i, col in enumerate(columns):
        if len(col) != r.cards_per_column:
            raise DealError(
                f"{where(i)}column {i + 1} has {len(col)} cards; "
                f"{r.name} deals {r.cards_per_column} per column"
            )
    home = [c for p in foundations for c in p]
    if len(home) != r.aces_at_start or any(c.rank != 1 for c in home):
        raise DealError(
            f"{r.name} starts with {r.aces_at_start} Aces on the foundations, "
            f"not {' '.join(map(str, home)) or 'none'}"
        )


#: The game numbers PySolFC deals, in words (every wrong game number is told this).
GAME_NUMBERS = f"a whole number from 1 to {MAX_GAME_NUMBER} (10^20 − 1)"


def game_number(number: object) -> int:
    """A PySolFC game number as a plain ``int``: any integer type (numpy's, a
    ``Decimal`` read from a survey table) from 1 to ``10**20 - 1``; anything else
    raises :class:`DealError`, in the words every entry point uses.

    >>> from decimal import Decimal
    >>> game_number(Decimal("417"))
    417
    >>> game_number(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.model.deals.DealError: a game number is a whole number from 1 to ... not 0
    """
    try:
        return as_int(number, "game number", low=1, high=MAX_GAME_NUMBER)
    except ValueError as exc:  # as_int's "..., not X": X said in the game numbers' words
        raise DealError(
            f"a game number is {GAME_NUMBERS}, not {str(exc).split(', not ', 1)[1]}"
        ) from None


def game_number_text(text: str) -> int:
    """The game number written in ``text`` as the command line and a survey's deal
    spec take it: ASCII digits ``0-9`` and nothing else (no sign, space, ``_`` or
    other script's digits, as :func:`game_number` refuses ``"5"``); else
    :class:`DealError` in :func:`game_number`'s words.

    >>> game_number_text("417")
    417
    >>> game_number_text("+5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.model.deals.DealError: a game number is a whole number from 1 to ... not '+5'
    """
    if not (text.isascii() and text.isdigit()):
        raise DealError(f"a game number is {GAME_NUMBERS}, not {shown(repr(text), 32)}")
    digits = text.lstrip("0") or "0"
    if len(digits) > 20:  # out of range: never converted whole
        raise DealError(f"a game number is {GAME_NUMBERS}, not {shown(digits, 24)} "
                        f"({len(digits):,} digits)")  # fmt: skip
    return game_number(int(digits))


def read_game_number(text: str) -> int:
    """The game number typed in ``text`` (the app's box, the command line): digits,
    with spaces around them, a ``#`` before them and ``,`` or ``_`` between
    thousands allowed; else :class:`DealError` in :func:`game_number`'s words.

    >>> read_game_number(" #1,000 ")
    1000
    >>> read_game_number("abc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.model.deals.DealError: a game number is a whole number from 1 to ... not 'abc'
    """
    raw = str(text).strip()
    if not raw:
        raise DealError(f"type a game number: {GAME_NUMBERS}")
    digits = raw.removeprefix("#").strip().replace(",", "").replace("_", "")
    if digits.isascii() and digits.isdigit() and 1 <= int(digits) <= MAX_GAME_NUMBER:
        return int(digits)
    if digits.isascii() and digits.isdigit():  # out of range: the number, as game_number says it
        shown = str(int(digits))
        shown = shown if len(shown) <= 30 else shown[:27] + "..."
    else:
        shown = repr(raw if len(raw) <= 30 else raw[:27] + "...")
    raise DealError(f"a game number is {GAME_NUMBERS}, not {shown}")


def deal(number: int, variant: str | Rules = "bakers_dozen") -> Deal:
    """PySolFC's game ``number`` of a variant, exactly as PySolFC deals it.

    Games 1 … 31999 use the Microsoft generator, later numbers Python's
    Mersenne Twister (docs/rules.md).  Then the variant's hooks: Kings to the
    bottom by PySolFC's swap (``king_step``), the first ``aces_at_start`` Aces
    met in the talon moved to be dealt last, onto their foundations.

    >>> [str(c) for c in deal(417).columns[12]]
    ['KH', 'KD', 'KC', '6D']
    """
    r = _rules(variant)
    number = game_number(number)
    cards = shuffle_pysolfc(_fresh_deck(r.ranks), number)
    if r.king_step:
        cards = _king_hook_pysolfc(cards, r.columns, r.top_rank)
    if r.aces_at_start:
        cards = _move_to_bottom(cards, lambda c: c.rank == 1, r.aces_at_start)
    dealt = cards[::-1]  # the talon deals from the end of its list
    return _lay_out(r, dealt, number=number, king_rule="pysolfc" if r.king_step else None)


def seeded_deal(seed: int, variant: str | Rules = "bakers_dozen") -> Deal:
    """bakers_lab's own deal for a 64-bit ``seed``, with the seed texts' stable
    King rule (Kings to the bottom of their column, every other order kept).

    The shuffle is SplitMix64 + Fisher–Yates in plain integers, so a seed gives
    the same deal on every platform and version.  With ``aces_at_start``, the
    first Aces of the shuffled deck go to their foundations.
    """
    r = _rules(variant)
    seed = as_int(seed, "seed", low=0, high=MAX_SEED, error=DealError)
    cards = shuffle_seeded(_fresh_deck(r.ranks), seed)
    if r.aces_at_start:
        aces = [c for c in cards if c.rank == 1][: r.aces_at_start]
        cards = [c for c in cards if c not in aces] + aces
    deal_ = _lay_out(r, cards, seed=seed, king_rule="stable" if r.king_step else None)
    if not r.king_step:
        return deal_
    columns = tuple(tuple(_stable_kings(list(col), r.top_rank)) for col in deal_.columns)
    return Deal(r, columns, deal_.foundations, seed=seed, king_rule="stable")


def _lay_out(r: Rules, dealt: list[Card], **provenance: object) -> Deal:
    """Deal ``dealt`` in rows, column 0 first (card k → column k mod n, row k div n);
    the cards after the tableau go to their foundations."""
    n_tableau = r.columns * r.cards_per_column
    columns = [dealt[k : n_tableau : r.columns] for k in range(r.columns)]
    piles: list[tuple[Card, ...]] = [(), (), (), ()]
    for ace in dealt[n_tableau:]:
        if ace.rank != 1:
            raise DealError(f"the deal left {ace} over for the foundations")  # pragma: no cover
        piles[ace.suit] = (ace,)
    return Deal(r, tuple(tuple(c) for c in columns), tuple(piles), **provenance)  # type: ignore[arg-type]


__all__ += ["BoardTextError", "board_to_cards", "validate_cards"]
