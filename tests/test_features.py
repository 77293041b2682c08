"""Tests for bakers_lab.study.features: hand-counted boards, a plain per-deal
reimplementation on real deals of every preset, and the rule engine's move count."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

import numpy as np
import pandas as pd
import pytest
from pinned import BAKERS_DOZEN_1_COLUMNS, card_id

import bakers_lab as bl
from bakers_lab.model.cards import Card
from bakers_lab.study import features as F

# A 16-card deck (A-4 of each suit), 4 columns of 4: "King" is the Four, "Queen" the Three.
SMALL = bl.rules("bakers_dozen").replace(ranks=4, columns=4)


def row(deal: bl.Deal) -> dict[str, int]:
    """The features of one deal as a plain dict."""
    return {k: int(v) for k, v in F.deal_features([deal]).iloc[0].items()}


def check(got: dict[str, int], expected: dict[str, int], complete: bool = False) -> None:
    if complete:  # a hand count for every feature, so a new feature needs one too
        assert set(expected) == set(F.FEATURES)
    wrong = {k: (got[k], v) for k, v in expected.items() if got[k] != v}
    assert not wrong, f"(got, expected): {wrong}"


# ---------------------------------------------------------------------------
# Hand-counted boards
# ---------------------------------------------------------------------------

# Columns are written deepest card first, playable card last.
BOARD_1 = """\
4C 3C 2C AC
AS 2S 3S 4S
4H 4D 2H 3H
AH 3D 2D AD
"""


BOARD_1_COUNTS = MappingProxyType(
    {
        # depths (cards above): AC top of col 1; AS bottom of col 2 (3 above);
        # AH bottom of col 4 (3 above); AD top of col 4
        "f_depth_ace_c": 0,
        "f_depth_ace_s": 3,
        "f_depth_ace_h": 3,
        "f_depth_ace_d": 0,
        "f_depth_aces": 6,
        # 2C under AC; 2S under 3S 4S; 2H under 3H; 2D under AD
        "f_depth_two_c": 1,
        "f_depth_two_s": 2,
        "f_depth_two_h": 1,
        "f_depth_two_d": 1,
        "f_depth_twos": 5,
        # nothing is home, so each suit's next card is its Ace
        "f_next_depth_c": 0,
        "f_next_depth_s": 3,
        "f_next_depth_h": 3,
        "f_next_depth_d": 0,
        "f_next_depth": 6,
        # col 2 (AS 2S 3S 4S): 2S>AS, 3S>AS 2S, 4S>AS 2S 3S = 6 pairs; col 3: 3H>2H = 1
        "f_inversions": 7,
        "f_inversions_low": 7,
        "f_inversions_mid": 0,
        "f_inversions_high": 0,  # all uppers A-4
        "f_max_column_inversions": 6,  # col 2
        "f_blocked_cards": 4,  # 2S 3S 4S, 3H
        "f_queens_over_lower": 2,  # Queen = 3 here: 3S (over AS 2S) and 3H (over 2H)
        "f_kings_over_lower": 1,  # King = 4 here: 4S over AS 2S 3S
        # any suit: 3C/4C 2C/3C AC/2C in col 1; 2D/3D AD/2D in col 4
        "f_built_pairs": 5,
        "f_multi_king_columns": 1,  # col 3 holds 4H and 4D
        # tops AC 4S 3H AD: AC>F, AD>F, 3H>4S
        "f_legal_moves": 3,
        "f_top_cards_playable": 3,  # AC, 3H, AD (4S has nowhere to go)
        # rank <= 3 with >= 2 above: 3C (2), AS (3), 2S (2), 3D (2), AH (3)
        "f_deep_low_cards": 5,
    }
)


def test_board_1_every_feature_by_hand() -> None:
    check(row(bl.Deal.from_text(BOARD_1, variant=SMALL)), dict(BOARD_1_COUNTS), complete=True)


def test_features_from_hand_built_arrays() -> None:
    # BOARD_1 as the arrays the feature functions take, built here from card names
    # (PySolFC card ids: suit C S H D times 13 plus rank - 1) without bakers_lab
    cards = np.array([[[card_id(c) for c in line.split()] for line in BOARD_1.splitlines()]])
    assert cards[0, 0].tolist() == [3, 2, 1, 0]  # 4C 3C 2C AC
    home = np.zeros((1, 4), dtype=np.int8)
    table = F.features_from_arrays(cards.astype(np.int8), home, SMALL)
    assert list(table.index) == [0]
    check({k: int(v) for k, v in table.iloc[0].items()}, dict(BOARD_1_COUNTS), complete=True)


def test_board_1_moves_depend_on_the_tableau_build() -> None:
    same = bl.Deal.from_text(BOARD_1, variant=SMALL.replace(tableau_build="same_suit"))
    alt = bl.Deal.from_text(BOARD_1, variant=SMALL.replace(tableau_build="alternate_colour"))
    # same suit: 3H may not go on 4S; only AC>F and AD>F
    check(
        row(same), {"f_legal_moves": 2, "f_top_cards_playable": 2, "f_built_pairs": 5}
    )  # col 1 all clubs (3), 2D/3D AD/2D (2)
    # alternate colour: 3H (red) on 4S (black) is fine; but no built pair survives:
    # col 1 is all clubs, col 4's 2D/3D and AD/2D are red on red
    check(row(alt), {"f_legal_moves": 3, "f_top_cards_playable": 3, "f_built_pairs": 0})
    for d in (same, alt):
        assert row(d)["f_legal_moves"] == len(bl.GameState.from_deal(d).legal_moves())


BOARD_2 = """\
4S 3H 2C AD
4C 3C 2S AH
4H 3D 2D AC
4D 3S 2H AS
"""


@pytest.mark.parametrize(
    "build, pairs",
    [
        ("any_suit", 12),  # every column runs 4-3-2-A: 3 pairs a column
        ("same_suit", 2),  # only 3C/4C (col 2) and 2D/3D (col 3)
        ("alternate_colour", 8),  # col 1: all 3; col 2: AH/2S; col 3: AC/2D; col 4: all 3
    ],
)
def test_built_pairs_follow_the_tableau_build(build: str, pairs: int) -> None:
    d = bl.Deal.from_text(BOARD_2, variant=SMALL.replace(tableau_build=build))
    got = row(d)
    check(
        got,
        {
            "f_built_pairs": pairs,
            "f_legal_moves": 4,  # four Aces on top, each to its pile; nothing else moves
            "f_inversions": 0,
        },
    )  # every column descends upwards
    assert got["f_legal_moves"] == len(bl.GameState.from_deal(d).legal_moves())


BOARD_3 = """\
AC 4H 3S 2D
2H 3C AS 4S
AD 4C 2C 3H
4D 3D 2S AH
"""


def test_legal_moves_by_single_cards_and_by_sequences() -> None:
    single = bl.Deal.from_text(BOARD_3, variant=SMALL)
    runs = bl.Deal.from_text(BOARD_3, variant=SMALL.replace(move_unit="sequence"))
    # tops 2D 4S 3H AH: 2D>3H, 3H>4S, AH>2D, AH>F
    check(row(single), {"f_legal_moves": 4, "f_top_cards_playable": 3})
    # with sequences, also the cards under a top card down its built run:
    # col 1 run 4H 3S 2D: 2D>3H, 3S>4S (4H: no 5); col 2 4S alone: none;
    # col 3 3H alone: 3H>4S; col 4 run 4D 3D 2S AH: AH>2D, 2S>3H, 3D>4S, AH>F
    check(row(runs), {"f_legal_moves": 7, "f_top_cards_playable": 3})
    for d in (single, runs):
        assert row(d)["f_legal_moves"] == len(bl.GameState.from_deal(d).legal_moves())


# Two columns of 7 with AC and AS at home (Good Measure's shape in a 16-card deck).
HOME_SMALL = bl.rules("good_measure").replace(ranks=4, columns=2, cards_per_column=7)
BOARD_4 = """\
Foundations: C-A S-A
4C 3S 2C AH 4H 3D 2H
4S 3C 2S AD 4D 3H 2D
"""


def test_cards_at_home() -> None:
    d = bl.Deal.from_text(BOARD_4, variant=HOME_SMALL)
    got = row(d)
    check(
        got,
        {
            "f_depth_ace_c": -1,
            "f_depth_ace_s": -1,  # home
            "f_depth_ace_h": 3,
            "f_depth_ace_d": 3,  # 4H 3D 2H / 4D 3H 2D above them
            "f_depth_aces": 6,  # home Aces count nothing
            "f_depth_two_c": 4,
            "f_depth_two_s": 4,
            "f_depth_two_h": 0,
            "f_depth_two_d": 0,
            "f_depth_twos": 8,
            # next needed: 2C and 2S (their Aces are home), AH and AD
            "f_next_depth_c": 4,
            "f_next_depth_s": 4,
            "f_next_depth_h": 3,
            "f_next_depth_d": 3,
            "f_next_depth": 14,
            # col 1: 4H>AH, 2H>AH; col 2: 4D>AD, 2D>AD (uppers all rank <= 4)
            "f_inversions": 4,
            "f_inversions_low": 4,
            "f_inversions_mid": 0,
            "f_inversions_high": 0,
            "f_max_column_inversions": 2,
            "f_blocked_cards": 4,
            "f_kings_over_lower": 2,  # 4H and 4D (King = 4)
            "f_queens_over_lower": 0,  # the Threes lie on no lower card of their suit
            # per column: 3/4, 2/3, A/2, then 4 on A breaks it, 3/4, 2/3: 5 each
            "f_built_pairs": 10,
            "f_multi_king_columns": 2,  # 4C+4H, 4S+4D
            # tops 2H, 2D: the C pile wants 2C, the S pile 2S, the H and D piles their Aces;
            # no Three on top to build on
            "f_legal_moves": 0,
            "f_top_cards_playable": 0,
            # rank <= 3 with >= 2 above: 3S 2C AH in col 1, 3C 2S AD in col 2
            "f_deep_low_cards": 6,
        },
    )
    assert len(bl.GameState.from_deal(d).legal_moves()) == 0
    np.testing.assert_array_equal(F.home_matrix([d]), [[1, 1, 0, 0]])


def test_alternate_colour_piles_count_each_accepting_pile() -> None:
    d = bl.Deal.from_text(BOARD_4, variant=HOME_SMALL.replace(foundation_build="alternate_colour"))
    # the black Aces at home both take a red Two: 2H to C or S, 2D to C or S
    check(row(d), {"f_legal_moves": 4, "f_top_cards_playable": 2})
    assert len(bl.GameState.from_deal(d).legal_moves()) == 4


def test_foundation_return_counts_moves_back_onto_the_tableau() -> None:
    d = bl.Deal.from_text(BOARD_4, variant=HOME_SMALL.replace(foundation_return=True))
    # tops 2H and 2D; AC and AS may each come back onto either Two: 4 moves
    assert row(d)["f_legal_moves"] == 4 == len(bl.GameState.from_deal(d).legal_moves())


# The full deck, one rank a column: column k holds the four cards of rank k+1, C S H D
# upwards, so the Diamond of each rank is on top.
RANK_COLUMNS = "".join(f"{r}C {r}S {r}H {r}D\n" for r in "A23456789TJQK")


@pytest.mark.parametrize("variant", ["bakers_dozen", "spanish_patience"])
def test_full_deck_one_rank_a_column(variant: str) -> None:
    d = bl.Deal.from_text(RANK_COLUMNS, variant=variant)
    got = row(d)
    check(
        got,
        {
            "f_depth_ace_c": 3,
            "f_depth_ace_s": 2,
            "f_depth_ace_h": 1,
            "f_depth_ace_d": 0,
            "f_depth_aces": 6,
            "f_depth_two_c": 3,
            "f_depth_two_s": 2,
            "f_depth_two_h": 1,
            "f_depth_two_d": 0,
            "f_depth_twos": 6,
            "f_next_depth": 6,
            "f_inversions": 0,
            "f_blocked_cards": 0,  # no column holds two cards of one suit
            "f_queens_over_lower": 0,
            "f_kings_over_lower": 0,
            "f_built_pairs": 0,  # equal ranks never build
            "f_multi_king_columns": 1,  # the last column is all Kings
            # tops AD 2D ... KD: AD>F, and each of AD..QD onto the next rank up: 12
            "f_legal_moves": 13,
            "f_top_cards_playable": 12,  # all tops but KD
            # rank <= 3 at depth >= 2: the Clubs and Spades of A, 2, 3
            "f_deep_low_cards": 6,
        },
    )
    assert got["f_legal_moves"] == len(bl.GameState.from_deal(d).legal_moves())


# Good Measure: AC and AD at home, the other 50 cards in deck order (C S H D, each
# upwards from its lowest card) dealt 5 to a column, deepest first.
_REST = [
    c
    for c in (Card(r, s) for s in bl.Suit for r in range(1, 14))
    if not (c.rank == 1 and c.suit in (bl.Suit.CLUBS, bl.Suit.DIAMONDS))
]
SORTED_GOOD_MEASURE = "Foundations: C-A D-A\n" + "".join(
    " ".join(str(c) for c in _REST[k : k + 5]) + "\n" for k in range(0, 50, 5)
)


def test_good_measure_sorted_board() -> None:
    # 2C..6C | 7C..JC | QC KC AS 2S 3S | 4S..8S | 9S..KS | AH..5H | 6H..TH |
    # JH QH KH 2D 3D | 4D..8D | 9D..KD
    d = bl.Deal.from_text(SORTED_GOOD_MEASURE, variant="good_measure")
    assert [str(c) for c in d.columns[2]] == ["QC", "KC", "AS", "2S", "3S"]
    got = row(d)
    check(
        got,
        {
            "f_depth_ace_c": -1,
            "f_depth_ace_d": -1,
            "f_depth_ace_s": 2,  # under 2S 3S
            "f_depth_ace_h": 4,  # bottom of AH..5H
            "f_depth_aces": 6,
            "f_depth_two_c": 4,
            "f_depth_two_s": 1,
            "f_depth_two_h": 3,
            "f_depth_two_d": 1,
            "f_depth_twos": 9,
            "f_next_depth_c": 4,
            "f_next_depth_s": 2,
            "f_next_depth_h": 4,
            "f_next_depth_d": 1,
            "f_next_depth": 11,
            # eight one-suit ascending columns of 5: C(5,2) = 10 pairs each = 80;
            # QC KC AS 2S 3S: KC>QC, 2S>AS, 3S>AS 2S = 4; JH QH KH 2D 3D: QH>JH, KH>JH QH, 3D>2D = 4
            "f_inversions": 88,
            # by upper rank (a column a..e has 1, 2, 3, 4 pairs with upper b, c, d, e):
            # low : 3,4C=3 | 2S,3S=3 | 2H..4H=1+2+3 | 3D=1                  = 13
            # mid  (5-9): 5C,6C=7 | 8C,9C=3 | 5S..8S=10 | 5H=4 | 7H..9H=6 | 5D..8D=10 = 40
            # high (T-K): TC,JC=7 | KC=1 | TS..KS=10 | TH=4 | QH,KH=3 | TD..KD=10   = 35
            "f_inversions_low": 13,
            "f_inversions_mid": 40,
            "f_inversions_high": 35,
            "f_max_column_inversions": 10,
            "f_blocked_cards": 38,  # 4 in each one-suit column (8 x 4) + KC 2S 3S + QH KH 3D
            "f_queens_over_lower": 3,  # QS, QH, QD (QC is at the bottom of its column)
            "f_kings_over_lower": 4,  # KC, KS, KH, KD
            "f_built_pairs": 0,  # every column rises
            "f_multi_king_columns": 0,
            # tops 6C JC 3S 8S KS 5H TH 3D 8D KD: 5H>6C and TH>JC; no pile takes a top card
            # (C and D want their Twos, S and H their Aces, all buried)
            "f_legal_moves": 2,
            "f_top_cards_playable": 2,
            # rank <= 3 at depth >= 2: 2C 3C, AS, AH 2H 3H
            "f_deep_low_cards": 6,
        },
    )
    assert got["f_legal_moves"] == len(bl.GameState.from_deal(d).legal_moves())


# ---------------------------------------------------------------------------
# Arrays, table shape, registry
# ---------------------------------------------------------------------------


def test_deal_matrix_and_home_matrix() -> None:
    m = F.deal_matrix([bl.deal(1), bl.deal(2)])
    assert m.dtype == np.int8 and m.shape == (2, 13, 4)
    # game 1 as pysol-cards prints it (tests/pinned.py), as card ids computed by hand
    assert m[0].tolist() == [[card_id(c) for c in col] for col in BAKERS_DOZEN_1_COLUMNS]
    assert m[0, 0].tolist() == [31, 36, 4, 39]  # 6H JH 5C AD
    gm = [bl.deal(n, variant="good_measure") for n in (1, 86)]
    assert F.deal_matrix(gm).shape == (2, 10, 5)
    home = F.home_matrix(gm)
    assert home.dtype == np.int8 and home.shape == (2, 4)
    # piles C S H D; PySolFC's Good Measure game 1 starts with AD and AS home, game 86
    # with AC and AD (pysol-cards' shuffle with PySolFC's hooks, see tests/test_deals.py)
    assert home.tolist() == [[0, 1, 0, 1], [1, 0, 0, 1]]
    assert F.deal_matrix([], rules=bl.rules("good_measure")).shape == (0, 10, 5)


def test_mixed_rules_raise_value_error() -> None:
    with pytest.raises(ValueError, match="deal 1 has rules 'good_measure'"):
        F.deal_features([bl.deal(1), bl.deal(1, variant="good_measure")])
    with pytest.raises(ValueError, match="tableau_build 'same_suit' vs 'any_suit'"):
        F.deal_matrix(
            [bl.seeded_deal(1, SMALL), bl.seeded_deal(1, SMALL.replace(tableau_build="same_suit"))]
        )
    with pytest.raises(ValueError, match="the rules given"):
        F.deal_features([bl.deal(1)], rules=bl.rules("spanish_patience"))
    with pytest.raises(ValueError, match="no deals"):
        F.deal_matrix([])
    with pytest.raises(TypeError, match="item 0"):
        F.deal_features(["not a deal"])  # type: ignore[list-item]


def test_table_shape_dtype_columns_index() -> None:
    deals = [bl.deal(n) for n in range(1, 6)]
    df = F.deal_features(deals)
    assert list(df.columns) == list(F.FEATURES)
    assert all(name.startswith("f_") for name in df.columns)
    assert all(pd.api.types.is_integer_dtype(t) for t in df.dtypes)
    assert isinstance(df.index, pd.RangeIndex) and list(df.index) == [0, 1, 2, 3, 4]
    assert F.deal_features(deals, rules=bl.rules("bakers_dozen")).equals(df)
    assert F.deal_features(iter(deals)).equals(df)
    empty = F.deal_features([])
    assert list(empty.columns) == list(F.FEATURES) and len(empty) == 0
    assert list(F.deal_features([], rules=SMALL).columns) == list(F.FEATURES)
    # row 0 is game 1 (tests/pinned.py), counted by hand: Aces under 2 (AC), 1 (AS),
    # 1 (AH), 0 (AD) cards; Twos under 2 (2C), 1 (2S), 3 (2H), 0 (2D); tops AD 5S 9S 6S
    # TC 5H 7C 7H 5D JC 9H 2D JD give AD>F, AD>2D, 5S/5H/5D>6S, 6S>7C/7H, 9S/9H>TC,
    # TC>JC/JD: 11 moves by 8 different top cards
    assert df.loc[
        0, ["f_depth_ace_c", "f_depth_ace_s", "f_depth_ace_h", "f_depth_ace_d"]
    ].tolist() == [2, 1, 1, 0]
    assert df.loc[0, ["f_depth_aces", "f_depth_twos"]].tolist() == [4, 6]
    assert df.loc[0, ["f_legal_moves", "f_top_cards_playable"]].tolist() == [11, 8]


def test_registry_is_read_only_and_documented() -> None:
    assert isinstance(F.FEATURES, MappingProxyType)
    with pytest.raises(TypeError):
        F.FEATURES["f_new"] = F.FEATURES["f_inversions"]  # type: ignore[index]
    # the features the project asks for (a subset; the hand count of BOARD_1 above
    # pins the whole set)
    required = [
        "f_depth_ace_c",
        "f_depth_ace_s",
        "f_depth_ace_h",
        "f_depth_ace_d",
        "f_depth_two_c",
        "f_depth_two_s",
        "f_depth_two_h",
        "f_depth_two_d",
        "f_depth_aces",
        "f_depth_twos",
        "f_inversions",
        "f_inversions_low",
        "f_inversions_mid",
        "f_inversions_high",
        "f_blocked_cards",
        "f_built_pairs",
        "f_multi_king_columns",
        "f_next_depth_c",
        "f_next_depth_s",
        "f_next_depth_h",
        "f_next_depth_d",
        "f_next_depth",
        "f_legal_moves",
        "f_queens_over_lower",
    ]
    assert set(required) <= set(F.FEATURES)
    assert len(F.FEATURES) == len(BOARD_1_COUNTS) == 28
    for name, feature in F.FEATURES.items():
        assert feature.name == name == feature.func.__name__
        # a feature's docstring is its one-line meaning
        assert feature.doc and "\n" not in feature.doc and feature.doc == feature.func.__doc__
    table = F.describe_features()
    assert list(table.columns) == ["name", "meaning"] and len(table) == 28
    assert set(table["name"]) == set(BOARD_1_COUNTS)
    meaning = dict(zip(table["name"], table["meaning"], strict=True))
    assert all(m and "\n" not in m for m in meaning.values())
    # the generated per-suit meanings name the right card and suit
    for suit, name in zip("cshd", ("Clubs", "Spades", "Hearts", "Diamonds"), strict=True):
        assert f"Ace of {name}" in meaning[f"f_depth_ace_{suit}"]
        assert f"Two of {name}" in meaning[f"f_depth_two_{suit}"]
        assert name in meaning[f"f_next_depth_{suit}"]


# ---------------------------------------------------------------------------
# The vectorised features against a plain per-deal reimplementation
# ---------------------------------------------------------------------------


def _builds(c: Card, under: Card, r: bl.Rules) -> bool:
    if under.rank != c.rank + 1:
        return False
    if r.tableau_build == "same_suit":
        return c.suit == under.suit
    if r.tableau_build == "alternate_colour":
        return c.is_red != under.is_red
    return True


def reference_features(d: bl.Deal) -> dict[str, int]:
    """The features of one deal, counted card by card (the tests' independent version)."""
    r = d.rules
    king, queen = r.ranks, r.ranks - 1
    depth: dict[Card, int] = {}
    for col in d.columns:
        for k, c in enumerate(col):
            depth[c] = len(col) - 1 - k
    out: dict[str, int] = {}
    for rank, word in ((1, "ace"), (2, "two")):
        for s in bl.Suit:
            out[f"f_depth_{word}_{s.letter.lower()}"] = depth.get(Card(rank, s), -1)
    out["f_depth_aces"] = sum(depth.get(Card(1, s), 0) for s in bl.Suit)
    out["f_depth_twos"] = sum(depth.get(Card(2, s), 0) for s in bl.Suit)
    for s in bl.Suit:
        left = [Card(k, s) for k in range(1, r.ranks + 1) if Card(k, s) in depth]
        out[f"f_next_depth_{s.letter.lower()}"] = depth[left[0]] if left else -1
    out["f_next_depth"] = sum(max(out[f"f_next_depth_{s.letter.lower()}"], 0) for s in bl.Suit)
    pairs = []  # (upper, lower) same-suit inversions
    for col in d.columns:
        for lo in range(len(col)):
            for up in range(lo + 1, len(col)):
                if col[up].suit == col[lo].suit and col[up].rank > col[lo].rank:
                    pairs.append((col[up], col[lo]))
    out["f_inversions"] = len(pairs)
    out["f_inversions_low"] = sum(1 for u, _ in pairs if u.rank <= 4)
    out["f_inversions_mid"] = sum(1 for u, _ in pairs if 5 <= u.rank <= 9)
    out["f_inversions_high"] = sum(1 for u, _ in pairs if u.rank >= 10)
    out["f_max_column_inversions"] = max(sum(1 for u, _ in pairs if u in col) for col in d.columns)
    blocked = {u for u, _ in pairs}
    out["f_blocked_cards"] = len(blocked)
    out["f_queens_over_lower"] = sum(1 for u in blocked if u.rank == queen)
    out["f_kings_over_lower"] = sum(1 for u in blocked if u.rank == king)
    out["f_built_pairs"] = sum(
        1 for col in d.columns for k in range(1, len(col)) if _builds(col[k], col[k - 1], r)
    )
    out["f_multi_king_columns"] = sum(
        1 for col in d.columns if sum(c.rank == king for c in col) >= 2
    )
    g = bl.GameState.from_deal(d)
    moves = g.legal_moves()
    out["f_legal_moves"] = len(moves)
    tops = [col[-1] for col in d.columns if col]
    out["f_top_cards_playable"] = len(
        {m.card for m in moves if m.card in tops and (m.to_foundation or isinstance(m.to, Card))}
    )
    out["f_deep_low_cards"] = sum(1 for c, k in depth.items() if c.rank <= 3 and k >= 2)
    return out


def _compare(deals: Sequence[bl.Deal]) -> None:
    got = F.deal_features(deals)
    expected = pd.DataFrame([reference_features(d) for d in deals])
    assert sorted(expected.columns) == sorted(got.columns)
    for name in got.columns:
        bad = np.flatnonzero(got[name].to_numpy() != expected[name].to_numpy())
        assert bad.size == 0, (
            f"{name}: deal {deals[bad[0]]!r} gives {got[name].iloc[bad[0]]}, "
            f"expected {expected[name].iloc[bad[0]]} ({bad.size} deals differ)"
        )


@pytest.mark.parametrize("variant", bl.variant_names())
def test_matches_per_deal_reimplementation(variant: str) -> None:
    _compare([bl.deal(n, variant=variant) for n in range(1, 301)])


@pytest.mark.parametrize(
    "rules",
    [
        SMALL,
        SMALL.replace(
            tableau_build="alternate_colour", move_unit="sequence", foundation_return=True
        ),
        bl.rules("good_measure").replace(
            ranks=6,
            columns=11,
            cards_per_column=2,
            foundation_build="alternate_colour",
            foundation_return=True,
        ),
        bl.rules("bakers_dozen").replace(
            ranks=6, columns=6, king_step=False, tableau_build="same_suit", empty_column="king"
        ),
    ],
    ids=["small", "small_alt_seq_return", "small_good_measure_alt", "ranks6_same_suit"],
)
def test_matches_reimplementation_on_small_decks(rules: bl.Rules) -> None:
    _compare([bl.seeded_deal(seed, rules) for seed in range(300)])


@pytest.mark.parametrize("variant", ["bakers_dozen", "good_measure", "spanish_patience"])
def test_legal_moves_equal_the_rule_engine(variant: str) -> None:
    deals = [bl.deal(n, variant=variant) for n in range(1, 201)]
    got = F.deal_features(deals)["f_legal_moves"].tolist()
    assert got == [len(bl.GameState.from_deal(d).legal_moves()) for d in deals]


def test_empty_columns_in_arrays_count_moves_into_them() -> None:
    # Feature functions take arrays; a column emptied (all -1) is no deal but must still
    # be counted as GameState counts: one move to the empty column per movable card
    # that is not the bottom card of its column.
    r = SMALL.replace(empty_column="any")
    g = bl.GameState.from_text("4C 3C 2C AC\nAS 2S 3S 4S\n4H 4D 2H 3H AH 3D 2D AD\n:\n", variant=r)
    cards = np.full((1, 4, 8), -1, dtype=np.int8)
    for i, col in enumerate(g.columns):
        cards[0, i, : len(col)] = [c.index for c in col]
    home = np.zeros((1, 4), dtype=np.int8)
    # tops AC 4S AD, column 4 empty: AC>F, AD>F, and AC, 4S, AD each into the empty
    # column (none is alone in its column); no top card is one rank under another
    assert F.FEATURES["f_legal_moves"](cards, home, r).tolist() == [5]
    assert len(g.legal_moves()) == 5
    assert F.FEATURES["f_depth_ace_d"](cards, home, r).tolist() == [0]
    assert F.FEATURES["f_depth_ace_h"](cards, home, r).tolist() == [3]
