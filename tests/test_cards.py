import pytest

from bakers_lab import Card, CardError, Suit


@pytest.mark.parametrize(
    "text, rank, suit",
    [
        ("7C", 7, Suit.CLUBS),
        ("TC", 10, Suit.CLUBS),
        ("10C", 10, Suit.CLUBS),
        ("7♣", 7, Suit.CLUBS),
        ("ah", 1, Suit.HEARTS),
        (" KD ", 13, Suit.DIAMONDS),
        ("Q♠", 12, Suit.SPADES),
        ("2♦", 2, Suit.DIAMONDS),
        ("J♥", 11, Suit.HEARTS),
    ],
)
def test_parse(text, rank, suit):
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "7", "1C", "11C", "7X", "XC", "7CC", "0H"])
def test_parse_errors_name_the_text(text):
    with pytest.raises(CardError, match="not a card") as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_card_error_is_value_error():
    assert issubclass(CardError, ValueError)


def test_print_both_styles_and_repr_rebuilds():
    c = Card(10, Suit.HEARTS)
    assert str(c) == "TH" and c.pretty() == "T♥"
    assert eval(repr(c)) == c
    assert repr(Suit.SPADES) == "Suit.SPADES"


def test_total_order_and_index_match_pysolfc_ids():
    cards = [Card.from_index(i) for i in range(52)]
    assert cards == sorted(cards, key=lambda c: (c.suit, c.rank))
    assert [c.index for c in cards] == list(range(52))
    assert str(cards[0]) == "AC" and str(cards[13]) == "AS" and str(cards[26]) == "AH"
    assert str(cards[51]) == "KD"
    assert sorted(reversed(cards)) == cards
    assert len({*cards, *cards}) == 52


def test_bad_rank_value():
    with pytest.raises(CardError, match="rank must be"):
        Card(14, Suit.CLUBS)
