"""Deals equal PySolFC's, for every preset PySolFC has; board text round-trips."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pinned import BAKERS_DOZEN_1
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.deal_game import Game
from pysol_cards.random import MTRandom
from pysol_cards.random import shuffle as pysol_cards_shuffle
from pysol_cards.random_base import RandomBase

import bakers_lab as bl
from bakers_lab import BoardTextError, DealError

RENDER = CardRenderer(True)


def pysol_cards_board(n: int) -> str:
    """What pysol-cards prints for PySolFC's Baker's Dozen game n."""
    return Game("bakers_dozen", n, RandomBase.DEALS_PYSOLFC).calc_layout_string(RENDER)


def test_deals_1_to_1000_equal_pysol_cards():
    mismatches = [n for n in range(1, 1001) if bl.deal(n).to_text() != pysol_cards_board(n)]
    assert mismatches == []


BIG_NUMBERS = [
    32001,
    32002,
    40000,
    99999,
    100000,
    123456,
    999999,
    1000000,
    2**31 - 1,
    2**31,
    2**32,
    1234567890,
    9876543210,
    4000000000,
    5555555555,
    10**12 + 7,
    2**53 + 1,
    10**15,
    10**19,
    99999999999999999999,
    31415926535,
    27182818284,
]


@pytest.mark.parametrize("n", BIG_NUMBERS)
def test_mersenne_twister_numbers_equal_pysol_cards(n):
    assert bl.deal(n).to_text() == pysol_cards_board(n)


def test_game_32000_follows_pysolfc_not_pysol_cards():
    # PySolFC's construct_random: 0 <= seed < 32000 is the Microsoft generator, so
    # 32000 is Mersenne Twister; pysol-cards switches at <= 32000 and differs here.
    ours = bl.deal(32000).to_text()
    assert ours != pysol_cards_board(32000)
    cards = MTRandom(32000).shuffle(createCards(1))
    expected = reference_deal(cards, "bakers_dozen")
    assert ours == expected


# -- an independent transcription of PySolFC's hooks (pysollib/games/bakersdozen.py,
#    pysollib/game/__init__.py), built on pysol-cards' cards and shuffles ----------------


def _king_hook(cards, n):
    # BakersDozen._shuffleHook, as written in PySolFC (KING is rank 13 in pysol-cards)
    i, kings = 0, []
    for c in cards:
        if c.rank == 13:
            kings.append(i)
        i = i + 1
    for i in kings:
        j = i % n
        while j < i:
            if cards[j].rank != 13:
                cards[i], cards[j] = cards[j], cards[i]
                break
            j = j + n
    cards.reverse()
    return cards


def reference_deal(shuffled, variant: str) -> str:
    cards = list(shuffled)
    columns = {"good_measure": 10}.get(variant, 13)
    if variant in ("bakers_dozen", "spanish_patience", "good_measure"):
        cards = _king_hook(cards, columns)
    if variant == "good_measure":  # GoodMeasure._shuffleHook: 2 Aces to the talon's bottom
        g = Game("bakers_dozen", 1, RandomBase.DEALS_PYSOLFC)
        cards = g._shuffleHookMoveToBottom(cards, lambda c: (c.rank == 1, c.suit), 2)
    cols: list[list[object]] = [[] for _ in range(columns)]
    talon = list(cards)
    for k in range(columns * (52 // columns)):  # dealRow: from the talon's end, rows 0..n-1
        cols[k % columns].append(talon.pop())
    found = {}
    while talon:  # GoodMeasure.startGame: the last 2 to foundations
        c = talon.pop()
        assert c.rank == 1
        found[c.suit] = c
    lines = []
    if found:
        lines.append(
            "Foundations: "
            + " ".join(f"{'CSHD'[s]}-{'A' if s in found else '0'}" for s in (2, 0, 3, 1))
        )
    lines += [" ".join(RENDER.to_s(c) for c in col) for col in cols]
    return "".join(line + "\n" for line in lines)


def pysolfc_shuffle(n):
    assert n != 32000  # pysol-cards' threshold differs there (see above)
    return pysol_cards_shuffle(createCards(1), n, RandomBase.DEALS_PYSOLFC)


@pytest.mark.parametrize(
    "variant",
    [
        "bakers_dozen",
        "good_measure",
        "spanish_patience",
        "portuguese_solitaire",
        "spanish_patience_ii",
    ],
)
def test_variants_follow_pysolfc_hooks(variant):
    numbers = [*list(range(1, 301)), 31999, 32001, 500000, 1234567890]
    bad = [
        n
        for n in numbers
        if bl.deal(n, variant=variant).to_text() != reference_deal(pysolfc_shuffle(n), variant)
    ]
    assert bad == []


# PySolFC's Baker's Dozen game 1, as pysol-cards prints it (pysol_cards_board(1), run
# once and pasted). Spanish Patience subclasses Baker's Dozen in PySolFC and keeps its
# shuffle hook, so its game 1 is this board too (reference_deal gives the same text).
GAME_1 = BAKERS_DOZEN_1  # tests/pinned.py

# Boards pinned from the reading of PySolFC's code above (the reference_deal
# transcription on pysol-cards' shuffle, run once and pasted, cross-checked by hand
# for the King and Ace hooks); games 1 and 2.
PINNED = {
    ("bakers_dozen", 1): GAME_1,
    ("good_measure", 2): """\
Foundations: H-A C-A D-0 S-0
JH AD 4H 6C JD
TH 3H 6S 8C 4D
5S 2H 7C JC 5C
AS 9H KD TD 3S
7D TS 9D 9C 2C
KH KS 7S 2D 4C
8D 2S QH 6D 3C
5H TC 5D QS 7H
3D 9S 4S 6H QC
KC 8H 8S JS QD
""",
    ("spanish_patience", 1): GAME_1,  # same hook as Baker's Dozen (subclass)
    ("portuguese_solitaire", 1): """\
JD QC TS 7D
2D KH QH 6D
9H 3H 4H 8S
JC 2S AC 8D
5D KS 4D QS
7H 9D 7S 6C
7C QD 3S 3D
5H JS TD 8C
KD AS 4S TC
KC AH TH 6S
9S 3C 8H 9C
5S 4C 2C 2H
AD 5C JH 6H
""",
}


@pytest.mark.parametrize("variant, n", list(PINNED))
def test_pinned_boards(variant, n):
    assert bl.deal(n, variant=variant).to_text() == PINNED[variant, n]


def test_pinned_literals_come_from_pysol_cards():
    # the literals above, and the one the render and feature tests share, are what
    # pysol-cards (and the transcription of PySolFC's hooks on its shuffle) give
    assert pysol_cards_board(1) == GAME_1
    for (variant, n), text in PINNED.items():
        assert reference_deal(pysolfc_shuffle(n), variant) == text, (variant, n)


def test_bakers_dozen_game_1_board():
    # PySolFC game 1 as pysol-cards prints it: Kings at the bottom of columns 1, 4, 5, 9, 12
    assert bl.deal(1).to_text().splitlines()[:4] == [
        "6H JH 5C AD",
        "2H 2C 4C 5S",
        "9C 8H 3C 9S",
        "KC TH AH 6S",
    ]


def test_spanish_patience_ii_has_no_hook():
    # Portuguese Solitaire and Spanish Patience II share PySolFC's identity hook, so
    # game 1 of Spanish Patience II is the pinned Portuguese Solitaire board, where
    # Kings stay wherever the shuffle put them (KH second in column 2, KS in column 5)
    text = PINNED["portuguese_solitaire", 1]
    assert bl.deal(1, variant="spanish_patience_ii").to_text() == text
    assert text.splitlines()[1].split() == ["2D", "KH", "QH", "6D"]
    assert text.splitlines()[4].split() == ["5D", "KS", "4D", "QS"]


def test_good_measure_kings_not_always_at_bottom():
    # PySolFC moves the Kings first, then pulls 2 Aces out of the dealing order, which
    # shifts later cards by one or two places: in game 2 the KD is in the middle.
    col = bl.deal(2, variant="good_measure").columns[3]
    assert [str(c) for c in col] == ["AS", "9H", "KD", "TD", "3S"]


def test_bakers_dozen_kings_always_at_bottom():
    for n in range(1, 300):
        for col in bl.deal(n).columns:
            ranks = [c.rank for c in col]
            k = sum(r == 13 for r in ranks)
            assert all(r == 13 for r in ranks[:k]) and 13 not in ranks[k:]


# -- own seeded deals ---------------------------------------------------------------


def test_seeded_deals_pinned_and_stable_king_rule():
    d = bl.seeded_deal(5)
    assert d.king_rule == "stable" and d.seed == 5
    assert d.to_text().splitlines()[:3] == ["8D 9C 8S 4C", "KD TC 8H 5H", "4D 2S TS AD"]
    for seed in range(200):
        for col in bl.seeded_deal(seed).columns:
            ranks = [c.rank for c in col]
            k = sum(r == 13 for r in ranks)
            assert 13 not in ranks[k:]


def test_seeded_stable_rule_keeps_order():
    # Dealing without the King rule and applying it by hand gives the same columns
    from bakers_lab.model.shuffles import shuffle_seeded

    deck = [bl.Card(r, s) for s in bl.Suit for r in range(1, 14)]
    cards = shuffle_seeded(deck, 2**64 - 1)
    for k, col in enumerate(bl.seeded_deal(2**64 - 1).columns):
        raw = cards[k::13]
        assert list(col) == [c for c in raw if c.rank == 13] + [c for c in raw if c.rank != 13]


def test_small_deck_deals():
    small = bl.rules("bakers_dozen").replace(ranks=6, columns=6)
    d = bl.deal(3, variant=small)
    assert sorted(d.cards) == sorted(bl.Card(r, s) for s in bl.Suit for r in range(1, 7))


@pytest.mark.parametrize(
    "bad, message",
    [
        (0, "from 1 to 99999999999999999999 (10^20 − 1), not 0"),
        (-5, "from 1 to 99999999999999999999 (10^20 − 1), not -5"),
        (10**20, "(10^20 − 1), not 100000000000000000000"),
        ("7", "a game number is a whole number from 1 to 9999"),
    ],
)
def test_bad_game_numbers(bad, message):
    with pytest.raises(DealError, match=re.escape(message)):
        bl.deal(bad)


def test_repr_rebuilds():
    for d in (bl.deal(417), bl.deal(9, variant="good_measure"), bl.seeded_deal(3)):
        assert eval(repr(d), {"deal": bl.deal, "seeded_deal": bl.seeded_deal}) == d
    d = bl.Deal.from_text(bl.deal(4).to_text())
    assert eval(repr(d), {"Deal": bl.Deal}) == d


# -- board text ---------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=10**12), st.sampled_from(bl.variant_names()))
def test_text_round_trip(n, variant):
    d = bl.deal(n, variant=variant)
    assert bl.Deal.from_text(d.to_text(), variant=variant) == d


def test_text_accepts_ten_symbols_and_colons():
    text = bl.deal(1).to_text().replace("TH", "10♥").replace("6H", ": 6H")
    assert bl.Deal.from_text(text) == bl.deal(1)


def _lines():
    return bl.deal(1).to_text().splitlines()


def test_duplicate_card_names_both_lines():
    lines = _lines()
    lines[2] = lines[2].replace("9C", "6H")  # 6H is on line 1 already
    with pytest.raises(DealError, match=r"line 3: card 6H appears twice \(also line 1\)"):
        bl.Deal.from_text("\n".join(lines))


def test_missing_card_is_named():
    lines = _lines()
    lines[0] = "6H JH 5C"
    with pytest.raises(DealError, match="card missing: AD"):
        bl.Deal.from_text("\n".join(lines))


def test_bad_token_names_line_and_token():
    lines = _lines()
    lines[4] = lines[4].replace("KD", "KX")
    with pytest.raises(BoardTextError, match="line 5: bad card 'KX'"):
        bl.Deal.from_text("\n".join(lines))


def test_too_many_columns():
    with pytest.raises(DealError, match="expected 13 columns for bakers_dozen, found 14"):
        bl.Deal.from_text(bl.deal(1).to_text() + ":\n")


def test_wrong_column_size_names_line():
    lines = _lines()
    moved = lines[1].split()[-1]
    lines[1] = lines[1][: -len(moved) - 1]
    lines[0] += " " + moved
    with pytest.raises(DealError, match="line 1: column 1 has 5 cards; bakers_dozen deals 4"):
        bl.Deal.from_text("\n".join(lines))


def test_bad_foundation_token():
    with pytest.raises(BoardTextError, match="line 1: bad foundation 'H5'"):
        bl.Deal.from_text("Foundations: H5\n" + bl.deal(1).to_text())


def test_good_measure_needs_its_aces():
    text = bl.deal(5, variant="good_measure").to_text()
    assert text.startswith("Foundations:")
    with pytest.raises(DealError, match="missing"):
        bl.Deal.from_text(text.split("\n", 1)[1], variant="good_measure")


def test_card_outside_a_small_deck():
    small = bl.rules("bakers_dozen").replace(ranks=4, columns=4)
    text = "AC 2C 3C 4C\nAS 2S 3S 4S\nAH 2H 3H 4H\nAD 2D 3D 7D\n"
    with pytest.raises(DealError, match="line 4: 7D is not in a deck of ranks A-4"):
        bl.Deal.from_text(text, variant=small)
