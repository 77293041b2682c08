# mypy: disable-error-code="arg-type, list-item"
# (these tests pass values of the wrong type on purpose)
"""Hostile input to the Python API: every integer type in, nothing else coerced.

Each class of input from the hardening review has a test here; the messages are
asserted, so an error keeps naming the parameter and what is allowed.
"""

import inspect
import itertools
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import bakers_lab as bl
from bakers_lab.model.deals import game_number
from bakers_lab.solve.fast import _portfolio
from bakers_lab.study import survey as survey_module
from bakers_lab.study.survey import SurveyError, parse_deals, sample_deals

INTEGER_TYPES = [
    int,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    Decimal,
    Fraction,
]


@pytest.mark.parametrize("kind", INTEGER_TYPES, ids=lambda k: k.__name__)
def test_every_integer_type_is_a_game_number(kind):
    d = bl.deal(kind(5))
    assert d.number == 5 and type(d.number) is int
    assert d == bl.deal(5) and repr(d) == "deal(5, variant='bakers_dozen')"


@pytest.mark.parametrize(
    "number",
    [1, 31999, 32000, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**20 - 1],
)
def test_game_number_edges_accepted(number):
    assert bl.deal(number).number == number
    assert bl.deal(Decimal(number)).number == number
    if number < 2**64:
        assert bl.deal(np.uint64(number)).number == number


@pytest.mark.parametrize(
    "value, message",
    [
        (0, "from 1 to 99999999999999999999 (10^20 − 1), not 0"),
        (-1, "from 1 to 99999999999999999999 (10^20 − 1), not -1"),
        (10**20, "(10^20 − 1), not 100000000000000000000"),
        (2.7, "(10^20 − 1), not 2.7 (float)"),
        (5.0, "(10^20 − 1), not 5.0 (float)"),
        (np.float64(5.0), "(10^20 − 1), not np.float64(5.0) (float64)"),
        ("5", "(10^20 − 1), not '5' (str)"),
        (True, "(10^20 − 1), not True (bool)"),
        (np.True_, "(10^20 − 1), not np.True_ (bool)"),
        (None, "(10^20 − 1), not None (NoneType)"),
        (Decimal("5.5"), "(10^20 − 1), not Decimal('5.5')"),
        (Decimal("NaN"), "(10^20 − 1), not Decimal('NaN')"),
        (Fraction(1, 2), "(10^20 − 1), not Fraction(1, 2)"),
    ],
)
def test_bad_game_numbers_refused(value, message):
    with pytest.raises(bl.DealError, match=re.escape(message)):
        bl.deal(value)
    with pytest.raises(bl.DealError, match=re.escape(message)):
        game_number(value)


def test_seeded_deal_seed_range():
    assert bl.seeded_deal(np.uint64(2**64 - 1)) == bl.seeded_deal(2**64 - 1)
    for bad, message in [
        (-1, "seed must be an integer from 0 to 18446744073709551615, not -1"),
        (2**64, "seed must be an integer from 0 to 18446744073709551615, not 18446744073709551616"),
        (1.0, "seed must be an integer, not 1.0 (float)"),
    ]:
        with pytest.raises(bl.DealError, match=re.escape(message)):
            bl.seeded_deal(bad)


def test_rules_fields_take_integer_types_and_refuse_the_rest():
    r = bl.Rules(
        name="bakers_dozen", columns=np.int64(13), cards_per_column=Decimal(4), pysolfc_id=31
    )
    assert r == bl.rules("bakers_dozen") and type(r.columns) is int
    assert bl.Rules(king_step=np.True_).king_step is True
    cases = [
        ({"foundation_return": "False"}, "foundation_return must be True or False, not 'False'"),
        ({"foundation_return": 0}, "foundation_return must be True or False, not 0 (int)"),
        ({"king_step": None}, "king_step must be True or False, not None"),
        ({"columns": 13.0}, "columns must be an integer, not 13.0 (float)"),
        ({"columns": True}, "columns must be an integer, not True (bool)"),
        ({"ranks": 14}, "ranks must be an integer from 2 to 13, not 14"),
        ({"columns": 0}, "columns must be an integer from 1 to 52, not 0"),
        ({"aces_at_start": 5}, "aces_at_start must be an integer from 0 to 4, not 5"),
        ({"tableau_build": ["any_suit"]}, "tableau_build must be one of any_suit, same_suit"),
        ({"name": ""}, "name must be a non-empty st"),
        ({"pysolfc_id": "31"}, "pysolfc_id must be an integer, not '31' (str)"),
        ({"columns": 12}, "12 columns × 4 cards + 0 aces = 48 cards, but the deck has 52"),
    ]
    for kwargs, message in cases:
        with pytest.raises(bl.RulesError, match=re.escape(message)):
            bl.Rules(**kwargs)


def test_card_takes_integer_types_only():
    assert bl.Card(np.int64(7), np.int8(2)) == bl.Card.parse("7H")
    assert bl.Card.from_index(np.uint8(51)) == bl.Card.parse("KD")
    for args, message in [
        ((7.0, 0), "rank must be an integer, not 7.0 (float)"),
        ((0, 0), "rank must be an integer from 1 to 13, not 0"),
        ((7, True), "suit must be a Suit or 0-3, not True"),
        ((7, 4), "suit must be a Suit or 0-3, not 4"),
    ]:
        with pytest.raises(bl.CardError, match=re.escape(message)):
            bl.Card(*args)
    with pytest.raises(bl.CardError, match="card index must be an integer from 0 to 51, not 52"):
        bl.Card.from_index(52)


def test_solve_budget_and_depth_are_checked():
    cases = [
        ({"max_nodes": 1.9}, "max_nodes must be an integer, not 1.9 (float)"),
        ({"max_nodes": 0}, "max_nodes must be an integer from 1 to 1000000000000, not 0"),
        ({"max_nodes": 10**13}, "max_nodes must be an integer from 1 to 1000000000000, not 1"),
        ({"max_nodes": "5"}, "max_nodes must be an integer, not '5' (str)"),
        ({"max_depth": -1}, "max_depth must be an integer from 1 to 100000, not -1"),
        ({"max_depth": 10**9}, "max_depth must be an integer from 1 to 100000, not 1000000000"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            bl.solve(5, **kwargs)
    for bad in ("5", 5.0, None, True, [5]):
        with pytest.raises(TypeError, match="solve takes a Deal, a GameState or a game number"):
            bl.solve(bad)
    with pytest.raises(bl.UnknownVariantError, match="unknown variant ''"):
        bl.solve(5, variant="")  # an empty name is not the default


def test_solve_accepts_every_integer_type_and_numpy_budgets():
    a = bl.solve(np.uint64(64), max_nodes=np.int32(200_000))
    b = bl.solve(Decimal(64), max_nodes=Decimal(200_000))
    assert (a.outcome, a.deal, b.outcome, b.deal) == ("unsolvable", 64, "unsolvable", 64)


def test_huge_budget_costs_no_memory_up_front():
    runs = _portfolio(10**12)
    assert inspect.isgeneratorfunction(_portfolio)  # runs are made one at a time
    first = list(itertools.islice(runs, 5))
    # the probe, then pairs of a best-first and a random-order run with one seed
    assert first == [
        ("dfs", 1_000, 0),
        ("gbfs", 2_000, 0),
        ("rdfs", 3_000, 0),
        ("gbfs", 2_000, 1),
        ("rdfs", 3_000, 1),
    ]


def test_huge_deal_sets_are_refused_before_expanding():
    with pytest.raises(SurveyError, match="100000000000 deals is more than one survey takes"):
        parse_deals("1-100000000000")
    with pytest.raises(SurveyError, match="99999999999 deals is more than one survey takes"):
        parse_deals(range(1, 10**11))
    with pytest.raises(SurveyError, match="sample size must be an integer from 1 to 10000000"):
        sample_deals(10**12)


def test_an_iterator_of_deals_is_read_no_further_than_the_limit(monkeypatch):
    # the limit made small: the same counting as at 10,000,000, without 10 million items
    monkeypatch.setattr(survey_module, "MAX_DEALS", 1_000)
    read = 0

    def numbers():
        nonlocal read
        for n in range(1, 10**11):
            read += 1
            yield n

    with pytest.raises(
        SurveyError, match=r"1001 deals is more than one survey takes \(at most 1000\)"
    ):
        parse_deals(numbers())  # an iterator is counted as it is read
    assert read == 1_001  # and read no further than the limit


@pytest.mark.parametrize(
    "deals, message",
    [
        ([2.7], "(10^20 − 1), not 2.7 (float)"),
        ([1, "2"], "(10^20 − 1), not '2' (str)"),
        ([0], "a game number is a whole number from 1 to 99999999999999999999 (10^20 − 1), not 0"),
        (5, "deals are a spec like '1-1000,417' or an iterable of game numbers, not 5 (int)"),
        (b"1-3", "deals are a spec like"),
        ("1--3", "bad deal range '1--3'"),
        ("-3", "bad deal range '-3'"),
        ("1.5", "bad deal range '1.5'"),
        ("1-100000000000000000000", "(10^20 − 1), not 100000000000000000000"),
        ([], "no deals to survey"),
    ],
)
def test_bad_deal_lists(deals, message):
    with pytest.raises(SurveyError, match=re.escape(message)):
        parse_deals(deals)


def test_deal_lists_take_every_integer_type():
    assert parse_deals([np.int64(3), Decimal(4), np.uint64(2**64 - 1), 3]) == [3, 4, 2**64 - 1]
    assert all(type(n) is int for n in parse_deals([np.int64(3), Decimal(4)]))


def test_unordered_foundations_are_refused():
    cards = [bl.Card.from_index(i) for i in range(52)]
    with pytest.raises(bl.DealError, match="foundation pile C is not built in order: AS on KC"):
        bl.GameState(bl.rules(), [[]] * 13, [cards, [], [], []])
    # a pile of the wrong suit, a pile that skips a rank, a pile that starts above its Ace
    clubs = cards[:13]
    spades = cards[13:26]
    rest = [[c] for c in cards[26:]] + [[]] * 13
    with pytest.raises(bl.DealError, match="foundation pile C is not built in order: AS at the"):
        bl.GameState(bl.rules(), rest[:13], [spades, clubs, [], []])
    cols = [[c] for c in cards[2:13] + cards[26:28]]
    with pytest.raises(bl.DealError, match="foundation pile C is not built in order: 4C on AC"):
        bl.GameState(bl.rules(), cols, [[cards[0], cards[3]], spades, [], []])
    # the position the rules do allow: all four piles built in order is a win
    won = bl.GameState(bl.rules(), [[]] * 13, [clubs, spades, cards[26:39], cards[39:]])
    assert won.outcome == "won"


def test_alternate_colour_piles_must_alternate():
    r = bl.rules("spanish_patience")
    ac, two_c, two_h = bl.Card.parse("AC"), bl.Card.parse("2C"), bl.Card.parse("2H")
    others = [bl.Card.from_index(i) for i in range(52) if i not in (ac.index, two_c.index)]
    cols = [others[i::13] for i in range(13)]
    with pytest.raises(bl.DealError, match="not built in order: 2C on AC"):
        bl.GameState(r, cols, [[ac, two_c], [], [], []])
    others = [bl.Card.from_index(i) for i in range(52) if i not in (ac.index, two_h.index)]
    cols = [others[i::13] for i in range(13)]
    assert bl.GameState(r, cols, [[ac, two_h], [], [], []]).cards_home == 2


def test_a_card_outside_a_small_deck_on_a_foundation_is_refused():
    small = bl.rules().replace(ranks=6, columns=6, cards_per_column=4)
    deck = [bl.Card(rank, suit) for suit in bl.Suit for rank in range(1, 7)]
    cols = [deck[i::6] for i in range(6)]
    with pytest.raises(bl.DealError, match="7C is not in a deck of ranks A-6"):
        bl.GameState(small, cols, [[bl.Card.parse("7C")], [], [], []])
