"""Literal boards the tests compare with, each obtained outside bakers_lab.

``BAKERS_DOZEN_1`` is PySolFC's Baker's Dozen game 1 exactly as the pysol-cards
package prints it (obtained once with::

    Game("bakers_dozen", 1, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))

and pasted here).  Columns deepest card first, playable card last.  Spanish
Patience is a subclass of Baker's Dozen in PySolFC with the same shuffle hook,
so its game 1 is the same board (tests/test_deals.py checks that against
pysol-cards too).
"""

BAKERS_DOZEN_1 = """\
6H JH 5C AD
2H 2C 4C 5S
9C 8H 3C 9S
KC TH AH 6S
KD 4S AS TC
8C TD JS 5H
3D 3S QD 7C
6C 7S 9D 7H
KS 4D QS 5D
8D AC 2S JC
8S 4H 3H 9H
KH QH 6D 2D
7D TS QC JD
"""

#: The columns of ``BAKERS_DOZEN_1`` as lists of card names.
BAKERS_DOZEN_1_COLUMNS = [line.split() for line in BAKERS_DOZEN_1.splitlines()]


def card_id(name: str) -> int:
    """PySolFC's card index of a card name (docs/rules.md, "Deal numbers" fact 1):
    suits Clubs, Spades, Hearts, Diamonds, 13 ranks each -- written here
    independently of :attr:`bakers_lab.Card.index`."""
    return "CSHD".index(name[1]) * 13 + "A23456789TJQK".index(name[0])
