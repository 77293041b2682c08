"""Heuristics for the teaching searches: plain functions ``h(state) -> int``.

A heuristic estimates how many moves a position still needs to be won.  A*
and IDA* return shortest solutions when the estimate is *admissible*: it never
exceeds the true number of moves.  Both admissible heuristics here are also
*consistent*: one move lowers them by at most 1 (the cost of a move), so A*
never needs to reopen a position it has expanded.

- :func:`zero`: always 0 (A* with it is uniform-cost search).
- :func:`cards_not_home`: admissible under every rule set.
- :func:`detours`: admissible and stronger, where its argument holds (same-suit
  foundations, one card a move); elsewhere it is :func:`cards_not_home`.
- :func:`burial`: a better guide, not admissible; for greedy best-first
  search and weighted A*.

Every move is one step and nothing goes home automatically (see
:mod:`bakers_lab.solve.search`), so "moves" here are plain moves.

>>> import bakers_lab as bl
>>> from bakers_lab.solve.search import classroom_deal
>>> g = bl.GameState.from_deal(classroom_deal(8, deck="micro"))
>>> print(g.to_text())                      # 2C lies on AC: it must make a detour
AC 2C 2S AS 2H AD
3H 3D 3C 3S AH 2D
<BLANKLINE>
>>> cards_not_home(g), detours(g), burial(g)
(12, 13, 47)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from bakers_lab.model.game import GameState
from bakers_lab.utils.validate import describe

__all__ = [
    "HEURISTICS",
    "Heuristic",
    "burial",
    "cards_not_home",
    "detours",
    "heuristic",
    "zero",
]

#: A heuristic: a position's estimated number of moves to a win.
Heuristic = Callable[[GameState], int]


def zero(state: GameState) -> int:
    """0 everywhere: admissible and useless (A* with it is uniform-cost search)."""
    return 0


def cards_not_home(state: GameState) -> int:
    """The number of cards not on a foundation.

    **Admissible under every rule set.**  A card goes home only by a move of its
    own, and a move sends at most one card home (even where a built run moves
    as a unit, a foundation move takes one card), so a position with *n* cards
    away from home needs at least *n* more moves.  **Consistent:** a move
    changes the count by at most 1.
    """
    return state.rules.deck_size - state.cards_home


def _detour_count(state: GameState) -> int:
    """How many tableau cards lie above a lower card of their own suit."""
    count = 0
    for column in state.columns:
        lowest = [14, 14, 14, 14]  # per suit: the lowest rank beneath, so far
        for card in column:
            if lowest[card.suit] < card.rank:
                count += 1
            else:
                lowest[card.suit] = card.rank
    return count


def _detours_hold(state: GameState) -> bool:
    """Whether the argument of :func:`detours` holds under the state's rules."""
    return state.rules.foundation_build == "same_suit" and state.rules.move_unit == "card"


def detours(state: GameState) -> int:
    """Cards not home, plus the cards that must make a detour through the
    tableau first: those lying above a lower card of their own suit.

    **Admissible with same-suit foundations and one card a move** (every preset
    but ``spanish_patience`` and ``house_sequences``); under other rules it
    returns :func:`cards_not_home`.  Proof: let card *c* lie above a lower card
    *l* of its suit in a column.  The foundation of that suit is built from the
    Ace up, so *c* can go home only after *l* is home; *l* cannot move while
    *c* covers it, so *c* must first leave the column.  The only moves of *c*
    are to a foundation (impossible while *l* is not home) and within the
    tableau, so *c* needs at least one tableau move and then its foundation
    move: two moves.  A move moves one card, so the moves counted for different
    cards are different moves, and every card not home needs at least its
    foundation move: the sum is a lower bound on the moves still needed.  The
    argument needs neither that foundations keep their cards (a card played
    back from a foundation must go home again, by a move of its own) nor
    anything about empty columns.  It fails with sequence moves, where one move
    can carry several such cards off together, and with alternate-colour
    foundations, where *c* need not wait for *l* (any card of the right colour
    and rank may lie under it on a pile).

    **Consistent:** a tableau move changes only the moved card's status (the
    cards beneath it in either column are unaffected), a foundation move sends
    home a card that lay above no lower card of its suit, and a card played
    back from a foundation only raises the count; so a move lowers the value
    by at most 1.
    """
    if not _detours_hold(state):
        return cards_not_home(state)
    return cards_not_home(state) + _detour_count(state)


def burial(state: GameState) -> int:
    """Three times :func:`detours`, plus, for each suit, the cards lying above
    the next card its foundation needs (that term only with same-suit
    foundations).

    **Informative:** cards that must make a detour are the real work of the
    game, and digging out the next card of each suit is the next step of it;
    the second term also splits the large plateaus of positions that
    :func:`detours` rates alike, across which greedy best-first search (ties
    first in, first out) would crawl breadth-first.  On full 52-card deals
    greedy best-first search with ``burial`` solved 11 of seeded deals 0-19
    within 20,000 nodes, with ``detours`` 4.

    **Not admissible:** it counts every card not home three times, so a
    position one move from the win rates 3; and one move can do two jobs it
    counts separately.  Where the Ace of Spades lies on the Ace of Hearts and
    the Twos of both suits are free, the four moves ``AS>F AH>F 2S>F 2H>F``
    win, yet ``burial`` says 13: 12 for the four cards not home, and 1 because
    the Ace of Spades covers the next Heart, though its one move home does
    both.  So it is for greedy best-first search and weighted A*; A* with it
    may return a solution longer than the shortest.

    >>> from bakers_lab import GameState, Rules
    >>> deck = Rules(ranks=2, columns=4, cards_per_column=2)
    >>> g = GameState.from_text("Foundations: C-2 D-2\\nAH AS\\n2S\\n2H\\n:\\n", variant=deck)
    >>> burial(g), len(g.play_all("AS>F AH>F 2S>F 2H>F").history)
    (13, 4)
    """
    estimate = 3 * detours(state)
    if state.rules.foundation_build != "same_suit":
        return estimate
    foundations = state.foundations
    for column in state.columns:
        for depth, card in enumerate(column):
            if card.rank == len(foundations[card.suit]) + 1:  # the next card of its suit
                estimate += len(column) - depth - 1
    return estimate


#: The heuristics by name (read-only), for ``run(..., h="detours")``.
HEURISTICS: Mapping[str, Heuristic] = MappingProxyType(
    {
        "zero": zero,
        "cards_not_home": cards_not_home,
        "detours": detours,
        "burial": burial,
    }
)


def heuristic(h: Heuristic | str) -> Heuristic:
    """A heuristic function from itself or its name in :data:`HEURISTICS`.

    >>> heuristic("detours") is detours
    True
    >>> heuristic("manhattan")
    Traceback (most recent call last):
    ...
    ValueError: unknown heuristic 'manhattan'; known: zero, cards_not_home, detours, burial
    """
    if isinstance(h, str):
        try:
            return HEURISTICS[h]
        except KeyError:
            raise ValueError(f"unknown heuristic {h!r}; known: {', '.join(HEURISTICS)}") from None
    if not callable(h):
        raise TypeError(
            f"h must be a function of a GameState or one of {', '.join(HEURISTICS)}, "
            f"not {describe(h)}"
        )
    return h
