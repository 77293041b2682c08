"""The shipped survey in data/ stays readable, exact and true to the rule engine."""

from pathlib import Path

import pytest

import bakers_lab as bl

DATA = Path(__file__).resolve().parent.parent / "data" / "bakers_dozen_1-10000"

# data/README.md: the deals the solver proved unsolvable (64 and 477 are also the two
# Freecell Solver's authors published for games 1-1000).
UNSOLVABLE = [64, 477, 1395, 1559, 2548, 2662, 2762, 2929, 3266, 3377, 3770, 3865, 4192,
              5018, 5081, 5143, 6384, 7146, 8424, 8903, 9955]  # fmt: skip


@pytest.fixture(scope="module")
def table():
    return bl.read_survey(DATA)


def test_every_game_once_as_a_python_int(table):
    assert len(table) == 10_000 and table["deal"].tolist() == list(range(1, 10_001))
    assert table["deal"].map(type).eq(int).all()


def test_outcomes_match_the_published_and_documented_counts(table):
    lost = table.loc[table["outcome"] == "lost", "deal"].tolist()
    assert lost == UNSOLVABLE
    counts = table["outcome"].astype(str).value_counts().to_dict()
    assert counts == {"won": 9960, "lost": 21, "unresolved": 19}


def test_a_sample_of_solutions_replays_to_a_win(table):
    won = table[table["outcome"] == "won"].iloc[::97]  # about a hundred, spread out
    for row in won.itertuples():
        g = bl.GameState.from_deal(bl.deal(row.deal))
        assert g.play_all(row.solution).is_won and len(g.history) == row.moves
