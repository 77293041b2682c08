"""The relaxation (bakers_lab.solve.relax): sound on real games, and it proves.

Soundness is tested where it is argued: every winning game's schedule must
satisfy the model.  The shipped solutions of Baker's Dozen deals 1-200 are
turned into schedules and pinned into the model as built for the deal; CP-SAT
must call it feasible.  On small decks the relaxation must never refute a deal
that the plain reference search solves, and must refute some it does not.
"""

from collections import Counter
from typing import Any

import pytest
import references

import bakers_lab as bl
from bakers_lab.model.moves import Move
from bakers_lab.solve.relax import (
    Relaxation,
    RelaxationError,
    applies,
    relax,
    schedule_fits,
    schedule_of,
)

SHIPPED = "data/bakers_dozen_1-32000"


def shipped_wins(last: int) -> list[tuple[int, list[Move]]]:
    df = bl.read_survey(SHIPPED)
    df = df[(df["player"] == "solver") & (df["outcome"] == "won") & (df["deal"] <= last)]
    return [
        (int(d), [Move.parse(m) for m in s.split()])
        for d, s in zip(df.deal, df.solution, strict=True)
    ]


def test_every_shipped_win_of_deals_1_to_200_satisfies_the_model():
    wins = shipped_wins(200)
    assert len(wins) >= 195
    for number, moves in wins:
        start = bl.GameState.from_deal(bl.deal(number))
        schedule = schedule_of(start, moves)
        assert schedule_fits(start, schedule, rests=1), number
        if number <= 20:
            assert schedule_fits(start, schedule, rests=3), number


def test_a_schedule_is_the_game_it_came_from():
    start = bl.GameState.from_deal(bl.deal(1))
    moves = list(bl.solve(1).moves)
    s = schedule_of(start, moves)
    for c, times in s.moves.items():
        assert list(times) == [t for t, m in enumerate(moves, 1) if m.card.index == c]
        assert str(moves[times[-1] - 1]).endswith(">F")  # every card's last move goes home
        assert len(s.parents[c]) == len(times) - 1


def test_a_pinned_schedule_that_breaks_a_rule_is_refused():
    # the same win with two moves of one card swapped in time cannot be a game
    start = bl.GameState.from_deal(bl.deal(1))
    s = schedule_of(start, list(bl.solve(1).moves))
    card = next(c for c, t in s.moves.items() if len(t) >= 2)
    times = s.moves[card]
    broken = dict(s.moves)
    broken[card] = (times[1], times[0], *times[2:])
    assert not schedule_fits(start, type(s)(broken, s.parents), rests=1)


@pytest.mark.parametrize(
    "name", ["bakers_dozen", "good_measure", "portuguese_solitaire", "house_empty_any"]
)
def test_small_decks_never_refuted_when_solvable(name):
    base = bl.rules(name)
    cards = 4 * 5 - base.aces_at_start
    columns = 4 if cards % 4 == 0 else 6 if cards % 6 == 0 else 2
    r = base.replace(ranks=5, columns=columns, cards_per_column=cards // columns, name=f"{name}_a5")
    verdicts: Counter = Counter()
    for seed in range(60):
        start = bl.GameState.from_deal(bl.seeded_deal(seed, variant=r))
        verdict = relax(start).verdict
        solvable = references.solvable(start)
        assert verdict in ("feasible", "infeasible"), (name, seed)
        assert not (solvable and verdict == "infeasible"), (name, seed)
        if solvable:
            assert schedule_fits(start, schedule_of(start, list(bl.solve(start).moves)))
        verdicts[solvable, verdict] += 1
    if name == "bakers_dozen":
        assert verdicts[False, "infeasible"] >= 5, verdicts


def test_a_lost_deal_is_proven_at_its_root():
    r = relax(1559)
    assert r == Relaxation("infeasible", 52, 1)
    assert bl.solve(1559).outcome == "unsolvable"
    assert repr(r) == "Relaxation(verdict='infeasible', cards=52, rests=1)"


def test_rules_it_does_not_model_and_bad_arguments():
    assert applies(bl.rules("bakers_dozen")) is None
    with pytest.raises(RelaxationError, match="runs move as a unit"):
        relax(bl.deal(1, "house_sequences"))
    with pytest.raises(RelaxationError, match="foundation cards may come back"):
        relax(bl.deal(1, "bakers_dozen_return"))
    with pytest.raises(RelaxationError, match=r"rests must be .*0 .* 8"):
        relax(1, rests=9)
    bads: tuple[Any, ...] = (0, -1.0, True, "2", float("nan"))
    for bad in bads:
        with pytest.raises(RelaxationError, match=r"limit must be a number above 0 and "
                           r"at most 1,000,000 \(CP-SAT.s deterministic time\), not"):  # fmt: skip
            relax(1, limit=bad)
