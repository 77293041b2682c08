import re

import pytest

import bakers_lab as bl
from bakers_lab import Rules, RulesError, UnknownVariantError

RULES_MD_TABLE = {
    # preset: (id, cols, cards, king_step, aces, empty, unit, foundation, return)
    "bakers_dozen": (31, 13, 4, True, 0, "none", "card", "same_suit", False),
    "bakers_dozen_return": (31, 13, 4, True, 0, "none", "card", "same_suit", True),
    "good_measure": (86, 10, 5, True, 2, "none", "card", "same_suit", False),
    "spanish_patience": (85, 13, 4, True, 0, "none", "card", "alternate_colour", False),
    "portuguese_solitaire": (308, 13, 4, False, 0, "king", "card", "same_suit", False),
    "spanish_patience_ii": (664, 13, 4, False, 0, "any", "card", "same_suit", False),
    "house_empty_any": (None, 13, 4, True, 0, "any", "card", "same_suit", False),
    "house_sequences": (None, 13, 4, True, 0, "none", "sequence", "same_suit", False),
}


@pytest.mark.parametrize("name", list(RULES_MD_TABLE))
def test_presets_match_rules_md(name):
    r = bl.rules(name)
    assert (
        r.pysolfc_id,
        r.columns,
        r.cards_per_column,
        r.king_step,
        r.aces_at_start,
        r.empty_column,
        r.move_unit,
        r.foundation_build,
        r.foundation_return,
    ) == RULES_MD_TABLE[name]
    assert r.tableau_build == "any_suit" and r.ranks == 13 and r.name == name


def test_all_presets_listed_in_order():
    assert bl.variant_names() == list(RULES_MD_TABLE)


def test_unknown_variant_lists_known_ones():
    with pytest.raises(UnknownVariantError) as info:
        bl.rules("bakers")
    msg = str(info.value)
    assert msg.startswith("unknown variant 'bakers'; known: bakers_dozen, ")
    assert all(name in msg for name in RULES_MD_TABLE)


def test_repr_rebuilds_and_replace():
    r = bl.rules("good_measure")
    assert eval(repr(r), {"Rules": Rules}) == r
    small = bl.rules("bakers_dozen").replace(ranks=6, columns=6)
    assert small.deck_size == 24 and small.name == "custom" and small.pysolfc_id is None


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"columns": 12}, "12 columns × 4 cards + 0 aces = 48 cards, but the deck has 52"),
        ({"empty_column": "queen"}, "empty_column must be one of none, king, any; got 'queen'"),
        ({"ranks": 1, "columns": 1}, "ranks must be an integer from 2 to 13, not 1"),
        ({"move_unit": "pile"}, "move_unit must be one of card, sequence"),
    ],
)
def test_bad_records_say_why(changes, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        bl.rules("bakers_dozen").replace(**changes)
