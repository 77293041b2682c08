"""Random shuffles: PySolFC's two generators and bakers_lab's own seeded one.

PySolFC numbers its games with two generators (docs/rules.md, "Deal numbers"):

- game numbers 1 … 31999: the Microsoft-FreeCell-compatible linear
  congruential generator, applied to the deck rearranged as A♣ A♦ A♥ A♠ 2♣ …;
- game numbers from 32000 on: Python's Mersenne Twister, ``random.Random(n)``.

bakers_lab's own seeded deals use SplitMix64 with rejection sampling, written
out here in integer arithmetic so that a seed gives the same deal on every
Python, NumPy and platform version.

>>> shuffle_pysolfc(list(range(52)), 1)[:5]
[31, 27, 8, 18, 9]
>>> shuffle_seeded(list(range(8)), 2024)
[4, 7, 1, 2, 6, 3, 0, 5]
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence
from typing import TypeVar

__all__ = [
    "MAX_GAME_NUMBER",
    "MAX_SEED",
    "MS_LIMIT",
    "ms_rearrange",
    "shuffle_pysolfc",
    "shuffle_seeded",
]

T = TypeVar("T")

#: Game numbers below this use the Microsoft generator (PySolFC: ``< 32000``).
MS_LIMIT = 32000
#: The largest game number PySolFC accepts (its Mersenne Twister seeds have 20 digits).
MAX_GAME_NUMBER = 10**20 - 1
#: Own seeded deals take any 64-bit seed.
MAX_SEED = 2**64 - 1

_MASK64 = (1 << 64) - 1


def ms_rearrange(deck: list[T]) -> list[T]:
    """The Microsoft deck order: A♣ A♦ A♥ A♠ 2♣ … from the suit-major C S H D deck.

    Only a 52-card deck is rearranged (as PySolFC and pysol-cards do).
    """
    if len(deck) != 52:
        return list(deck)
    return [deck[r + s] for r in range(13) for s in (0, 39, 26, 13)]


class _MicrosoftLCG:
    """The generator of PySolFC's games 1 … 31999 (``LCRandom31``)."""

    def __init__(self, seed: int) -> None:
        self.x = seed

    def randint(self, a: int, b: int) -> int:
        self.x = (self.x * 214013 + 2531011) & ((1 << 33) - 1)
        value = (self.x >> 16) & 0x7FFF
        return a + value % (b + 1 - a)


class _MersenneTwister:
    """The generator of PySolFC's games from 32000 on (``MTRandom``)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.r.random() * (b + 1 - a))


def _fisher_yates(seq: MutableSequence[T], randint: Callable[[int, int], int]) -> None:
    for i in range(len(seq) - 1, 0, -1):
        j = randint(0, i)
        seq[i], seq[j] = seq[j], seq[i]


def shuffle_pysolfc(deck: list[T], game_number: int) -> list[T]:
    """The deck shuffled as PySolFC shuffles it for ``game_number``.

    ``deck`` is in PySolFC's order (suits C S H D, each Ace upwards).  Returns a
    new list; the hooks of particular games are applied elsewhere.
    """
    if game_number < MS_LIMIT:
        cards = ms_rearrange(deck)
        _fisher_yates(cards, _MicrosoftLCG(game_number).randint)
    else:
        cards = list(deck)
        _fisher_yates(cards, _MersenneTwister(game_number).randint)
    return cards


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 generator in plain integers (the same numbers on
    every machine); ``randint(a, b)`` draws from a..b evenly, by rejection."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randint(self, a: int, b: int) -> int:
        n = b + 1 - a
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return a + v % n


def shuffle_seeded(deck: list[T], seed: int) -> list[T]:
    """The deck shuffled by bakers_lab's own generator (SplitMix64, Fisher–Yates).

    Stable across Python, NumPy and platform versions: plain integer arithmetic.
    """
    cards = list(deck)
    _fisher_yates(cards, SplitMix64(seed).randint)
    return cards
