"""The rule engine: property tests over random play, and each rule on hand-made boards."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bakers_lab as bl
from bakers_lab import Card, Dest, GameState, IllegalMoveError, Move, Suit

SMALL = {
    name: bl.rules(name).replace(
        ranks=6,
        columns=6 if bl.rules(name).aces_at_start == 0 else 11,
        cards_per_column=4 if bl.rules(name).aces_at_start == 0 else 2,
        name=name + "_a6",
    )
    for name in bl.variant_names()
}

ALL_RULES = [bl.rules(n) for n in bl.variant_names()] + list(SMALL.values())


def candidate_moves(g: GameState):
    """Every card paired with every destination there is: brute force."""
    deck = [Card(r, s) for s in Suit for r in range(1, g.rules.ranks + 1)]
    for c in deck:
        for t in deck:
            if t != c:
                yield Move(c, t)
        yield Move(c, Dest.FOUNDATION)
        for s in Suit:
            yield Move(c, Dest.FOUNDATION, s)
        yield Move(c, Dest.EMPTY)


def all_cards(g):
    return [c for col in g.columns for c in col] + [c for p in g.foundations for c in p]


def random_game(r, seed, steps, check_every=None):
    """Play random legal moves, checking invariants; return the game."""
    rng = random.Random(seed)
    g = GameState.from_deal(
        bl.seeded_deal(seed, variant=r) if seed % 2 else bl.deal(seed + 1, variant=r)
    )
    for step in range(steps):
        moves = g.legal_moves()
        assert len(set(moves)) == len(moves)
        if check_every and step % check_every == 0:
            accepted = set()
            for m in candidate_moves(g):
                if g.is_legal(m):
                    h = g.copy()
                    accepted.add(h.play(m))
            assert accepted == set(moves)
        if not moves:
            assert g.outcome in ("won", "lost")
            break
        before_key, before_home = g.key(), [len(p) for p in g.foundations]
        m = rng.choice(moves)
        assert g.play(m) == m
        cards = all_cards(g)
        assert len(cards) == len(set(cards)) == r.deck_size
        after_home = [len(p) for p in g.foundations]
        if not r.foundation_return:
            assert all(a >= b for a, b in zip(after_home, before_home, strict=True))
        if rng.random() < 0.3:
            assert g.undo() == m
            assert g.key() == before_key
            g.play(m)
    return g


@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6))
def test_random_play_invariants(r, seed):
    random_game(r, seed, steps=120)


@given(st.sampled_from(ALL_RULES), st.integers(0, 10**6))
def test_legal_moves_are_exactly_what_play_accepts(r, seed):
    random_game(r, seed, steps=60 if r.ranks < 13 else 40, check_every=7 if r.ranks < 13 else 13)


def test_refused_move_leaves_state_unchanged_and_says_why():
    g = GameState.from_deal(bl.deal(1))
    key = g.key()
    cases = {
        "KS>F": "illegal move KS>F: KS is not at the top of its column",
        "4D>5S": "illegal move 4D>5S: 4D is not at the top of its column",
        "AD>3C": "illegal move AD>3C: 3C is not at the top of a column",
        "TC>JH": "illegal move TC>JH: JH is not at the top of a column",
        "5S>F": "illegal move 5S>F: no foundation takes 5S now",
        "5S>E": "illegal move 5S>E: there is no empty column",
        "AD>6S": "illegal move AD>6S: AD does not build on 6S (one rank lower)",
    }
    for text, message in cases.items():
        with pytest.raises(IllegalMoveError) as info:
            g.play(text)
        assert str(info.value) == message
        assert g.key() == key and g.history == ()


def board(text, variant="bakers_dozen", **changes):
    r = bl.rules(variant)
    if changes:
        r = r.replace(**changes)
    return GameState.from_text(text, variant=r)


# A 6-rank deck on 6 columns: small boards written by hand.
A6 = bl.rules("bakers_dozen").replace(ranks=6, columns=6)


def test_empty_columns_stay_empty_in_classic_rules():
    g = board(
        "Foundations: C-5 S-6 H-6 D-6\n6C\n:\n:\n:\n:\n:\n", "bakers_dozen", ranks=6, columns=6
    )
    assert [str(m) for m in g.legal_moves()] == ["6C>F"]
    g.play("6C>F")
    assert g.is_won and g.outcome == "won"


def test_empty_column_policies():
    text = "Foundations: C-4 S-6 H-6 D-5\n5C 6C\n6D\n:\n:\n:\n:\n"
    none = board(text, ranks=6, columns=6)
    assert sorted(map(str, none.legal_moves())) == ["6D>F"]
    with pytest.raises(IllegalMoveError, match="an empty column takes nothing in these rules"):
        none.play("6C>E")
    for variant in ("portuguese_solitaire", "spanish_patience_ii"):
        g = board(text, variant, ranks=6, columns=6)
        assert sorted(map(str, g.legal_moves())) == ["6C>E", "6D>F"]
        g.play("6C>E")
        assert sorted(map(str, g.legal_moves())) == ["5C>6C", "5C>6D", "5C>F", "6D>F"]


def test_king_only_and_any_card_empty_columns():
    text = "Foundations: C-3 S-6 H-6 D-6\n6C 4C\n5C\n:\n:\n:\n:\n"
    king = board(text, "portuguese_solitaire", ranks=6, columns=6)
    assert sorted(map(str, king.legal_moves())) == ["4C>5C", "4C>F"]
    with pytest.raises(IllegalMoveError, match="an empty column takes only a King"):
        king.play("4C>E")
    anyc = board(text, "spanish_patience_ii", ranks=6, columns=6)
    assert sorted(map(str, anyc.legal_moves())) == ["4C>5C", "4C>E", "4C>F"]
    with pytest.raises(
        IllegalMoveError, match="moving a whole column into an empty one changes nothing"
    ):
        anyc.play("5C>E")
    anyc.play("4C>E")
    assert sorted(len(c) for c in anyc.columns) == [0, 0, 0, 1, 1, 1]


def test_sequence_moves():
    text = "Foundations: C-2 S-6 H-6 D-4\n6C 5D 4C\n6D 3C\n5C\n:\n:\n:\n"
    seq = board(text, "house_sequences", ranks=6, columns=6)
    assert sorted(map(str, seq.legal_moves())) == ["3C>4C", "3C>F", "4C>5C"]
    seq.play("3C>F")
    assert sorted(map(str, seq.legal_moves())) == ["4C>5C", "4C>F", "5C>6D", "5D>6D"]
    seq.play("5D>6D")  # the run 5D 4C moves as one unit, named by its deepest card
    assert [list(map(str, c)) for c in seq.columns[:2]] == [["6C"], ["6D", "5D", "4C"]]
    assert seq.undo() == Move.parse("5D>6D")
    one = board(text, ranks=6, columns=6)
    one.play("3C>F")
    with pytest.raises(IllegalMoveError, match="5D is not at the top of its column"):
        one.play("5D>6D")


def test_sequence_must_be_built():
    g = board(
        "Foundations: C-2 S-6 H-6 D-4\n6C 5D 3C\n6D\n5C 4C\n:\n:\n:\n",
        "house_sequences",
        ranks=6,
        columns=6,
    )
    with pytest.raises(IllegalMoveError, match="the cards on 5D are not a built run"):
        g.play("5D>6D")


def test_foundation_return():
    text = "Foundations: C-3 S-6 H-6 D-6\n6C 5C\n4C\n:\n:\n:\n:\n"
    ret = board(text, "bakers_dozen_return", ranks=6, columns=6)
    assert sorted(map(str, ret.legal_moves())) == ["3C>4C", "4C>5C", "4C>F"]
    ret.play("3C>4C")
    assert [len(p) for p in ret.foundations] == [2, 6, 6, 6]
    locked = board(text, ranks=6, columns=6)
    with pytest.raises(IllegalMoveError, match="cards on the foundations stay there"):
        locked.play("3C>4C")


def test_spanish_patience_piles_alternate_colour_and_name_the_pile():
    r = bl.rules("spanish_patience").replace(ranks=2, columns=4, cards_per_column=2)
    g = GameState.from_text("Foundations: C-A S-A\n2C 2H\n2S AH\n2D AD\n:\n", variant=r)
    moves = sorted(map(str, g.legal_moves()))
    assert moves == ["2H>FC", "2H>FS", "AD>2H", "AD>F", "AH>2H", "AH>F"]
    with pytest.raises(IllegalMoveError, match="more than one pile takes 2H; say 2H>FC or 2H>FS"):
        g.play("2H>F")
    assert g.play("2H>FS") == Move.parse("2H>FS")
    assert [list(map(str, p)) for p in g.foundations][:2] == [["AC"], ["AS", "2H"]]
    assert sorted(str(m) for m in g.legal_moves() if m.to_foundation) == ["AD>F", "AH>F"]
    with pytest.raises(IllegalMoveError, match="the S pile does not take 2C"):
        g.play("2C>FS")
    with pytest.raises(IllegalMoveError, match="no foundation takes 2C now"):
        g.play("2C>F")
    g.play("AD>F")
    assert g.play("2C>F") == Move.parse("2C>F")  # only the D pile (red Ace) takes it


def test_key_ignores_column_order():
    g = GameState.from_deal(bl.deal(3))
    cols = [list(c) for c in g.columns]
    h = GameState(g.rules, cols[::-1], [list(p) for p in g.foundations])
    assert g.key() == h.key() and g.key() != GameState.from_deal(bl.deal(4)).key()


def test_outcome_lost_when_stuck():
    g = board("Foundations: C-0 S-6 H-6 D-6\nAC 2C\n3C 4C\n5C 6C\n:\n:\n:\n", ranks=6, columns=6)
    assert g.legal_moves() == [] and g.outcome == "lost" and not g.is_won


def test_play_all_and_history():
    g = GameState.from_deal(bl.deal(1))
    g.play_all("AD>F 5S>6S")
    assert [str(m) for m in g.history] == ["AD>F", "5S>6S"]
    with pytest.raises(IllegalMoveError, match=r"\(move 2 of 2\)"):
        g.play_all(["2D>F", "KS>F"])


def test_repr_rebuilds_state():
    g = GameState.from_deal(bl.deal(12))
    ns = {"GameState": GameState, "deal": bl.deal}
    assert eval(repr(g), ns).key() == g.key()
    g.play(g.legal_moves()[0])
    assert eval(repr(g), ns).key() == g.key()


def test_from_text_errors():
    with pytest.raises(bl.DealError, match="expected 13 columns for bakers_dozen, found 1"):
        GameState.from_text("KS\n")
    with pytest.raises(bl.DealError, match="cards missing: AC 2C"):
        GameState.from_text(":\n" * 12 + " ".join(str(bl.Card.from_index(i)) for i in range(2, 52)))
