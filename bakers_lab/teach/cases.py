"""The deals the checks use, smallest first, and the heuristics they try.

The notebooks and the docs show classroom deals with seeds below 100; the checks
draw theirs from 1000 on, so a student cannot have tuned a search to them.  The
order is the order of shrinking (as hypothesis shrinks a failing example): the
deck with fewer cards first, then the lower seed; the first failing case is the
smallest one.  The small deals are three of seeds 1000-1004 chosen for cost
(breadth-first search on each expands at most 6,300 positions; seed 1004 has no
solution at all); the micro and tiny deals are whole ranges.

>>> [str(c) for c in SEARCH_CASES[:2]], len(SEARCH_CASES)
(['the micro deck, seed 1000', 'the micro deck, seed 1001'], 33)
>>> from bakers_lab.model.game import GameState
>>> g = GameState.from_deal(Case("tiny", 1003).deal())
>>> flicker(g) in (0, detours(g))
True
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.solve.heuristics import detours
from bakers_lab.solve.search import CLASSROOM, classroom_deal

__all__ = ["DECKS", "HEURISTIC_CASES", "SEARCH_CASES", "Case", "flicker"]

#: The decks in the order of shrinking: fewer cards first.
DECKS = ("micro", "tiny", "small")


@dataclass(frozen=True, order=True)
class Case:
    """One deal a check is run on: a classroom deck and a seed.  Cases sort
    smallest first (deck, then seed)."""

    rank: int
    seed: int

    def __init__(self, deck: str, seed: int) -> None:
        object.__setattr__(self, "rank", DECKS.index(deck))
        object.__setattr__(self, "seed", seed)

    @property
    def deck(self) -> str:
        """The deck's name (``"tiny"``)."""
        return DECKS[self.rank]

    def deal(self) -> Deal:
        """The classroom deal."""
        return classroom_deal(self.seed, self.deck)

    def position(self, text: str) -> GameState:
        """A position of this deck from its board text."""
        return GameState.from_text(text, variant=CLASSROOM[self.deck])

    def __str__(self) -> str:
        return f"the {self.deck} deck, seed {self.seed}"

    def __repr__(self) -> str:
        return f"Case({self.deck!r}, {self.seed})"


#: The deals of :func:`~bakers_lab.teach.check_search`, smallest first.
SEARCH_CASES: tuple[Case, ...] = (
    *(Case("micro", s) for s in range(1000, 1020)),
    *(Case("tiny", s) for s in range(1000, 1010)),
    *(Case("small", s) for s in (1000, 1001, 1004)),
)

#: The deals whose every reachable position :func:`~bakers_lab.teach.check_heuristic`
#: rates (about 1,000 micro, 8,000 tiny and 7,700 small positions).
HEURISTIC_CASES: tuple[Case, ...] = (
    *(Case("micro", s) for s in range(1000, 1020)),
    *(Case("tiny", s) for s in range(1000, 1020)),
    *(Case("small", s) for s in (1000, 1003)),
)


def flicker(state: GameState) -> int:
    """:func:`~bakers_lab.solve.heuristics.detours` on about half the positions
    (chosen by a checksum of the position), 0 on the others.

    **Admissible** (it is ``detours`` or 0, and both never overestimate) but **not
    consistent**: one move from a position rated by ``detours`` to one rated 0
    lowers it by several moves.  A* must reopen positions under it to find
    shortest solutions; an A* that never reopens a closed position returns longer
    ones on several of the deals of :data:`SEARCH_CASES`.
    """
    return detours(state) if zlib.crc32(state.key()) % 2 else 0
