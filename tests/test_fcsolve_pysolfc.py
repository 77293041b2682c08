"""What PySolFC's own Solver sends, answered again without PySolFC.

``tests/data/fcsolve/invocations.json`` holds the command lines and boards that PySolFC's
``FreeCellSolver_Hint.computeHints`` (commit 7a3d146a) sent to ``fc-solve`` for 15
positions (deals at the start, mid-game, stuck, near won; Baker's Dozen, Good Measure,
Portuguese Solitaire, Spanish Patience II), recorded by ``pysolfc_solver.py`` beside it
with ``bakers-lab fc-solve`` as PySolFC's ``fc-solve``, and what PySolFC made of each
answer.  Each is asked again here and read with PySolFC's regular expressions
(``tests/pysolfc_parse.py``): the same verdict, and every "solveable" answer's hints,
played on the rule engine from the recorded board, win."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from pysolfc_parse import read_answer
from test_fcsolve import play_hints

from bakers_lab.bridge.fcsolve import answer, parse_request, position_of, variant_of
from bakers_lab.solve.fast import solve

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "fcsolve" / "invocations.json").read_text("utf-8")
)
CASES = RECORDED["recorded"]


def test_pysolfc_found_the_solver_and_its_version():
    assert RECORDED["pysolfc"]["solver_enabled"] is True  # its start-up check: fc-solve --help
    assert RECORDED["pysolfc"]["fcs_command"] == "fc-solve"
    assert "version 5.0.0" in RECORDED["pysolfc"]["version"]
    # as bakers-lab pysolfc runs it: every question after --help and --version went to
    # the solver kept warm in the launching process (bakers_lab.bridge.serve)
    assert RECORDED["pysolfc"]["answered_by_the_warm_solver"] >= len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_recorded_question_gets_pysolfcs_answer_and_its_hints_win(case):
    argv = shlex.split(case["command"])
    assert argv[0] == "fc-solve"
    request = parse_request(argv[1:])
    variant = variant_of(request)
    assert variant is not None and variant in case["name"]
    said = answer(argv[1:], case["board"].encode())
    assert (said.code, said.err) == (0, b"")
    read = read_answer(said.out, progress="--iter-output" in argv)
    assert read.state == case["state"]
    assert len(read.hints) == case["hints"]  # deterministic: the same answer as recorded
    if read.state == "solved":
        start = position_of(case["board"], variant)
        assert play_hints(start, read.hints).is_won
    else:
        assert read.hints == []


def test_the_recorded_positions_cover_what_pysolfc_asks():
    names = {c["name"] for c in CASES}
    states = {c["state"] for c in CASES}
    assert {"solved", "unsolved", "intractable"} <= states
    for game in ("bakers_dozen", "good_measure", "portuguese_solitaire", "spanish_patience_ii"):
        assert any(n.startswith(game) for n in names), game
    assert any("--iter-output" in c["command"] for c in CASES)  # progress shown
    assert any(c["board"].startswith("Founds: ") for c in CASES)  # cards already home


def test_pysolfcs_own_survey_settled_every_deal_and_won_each_solved_one_in_pysolfc():
    # survey.json: PySolFC's Solver asked about each deal through its own objects, and
    # each solved answer's hints played in PySolFC's own game until it said "won"
    rows = json.loads((Path(__file__).parent / "data" / "fcsolve" / "survey.json").read_text())
    bakers = {int(r["name"].rsplit("_", 1)[1]): r for r in rows if r["name"].startswith("bak")}
    good = {int(r["name"].rsplit("_", 1)[1]): r for r in rows if r["name"].startswith("good")}
    assert sorted(bakers) == list(range(1, 101)) and sorted(good) == list(range(1, 21))
    assert [n for n, r in bakers.items() if r["state"] != "solved"] == [64]
    assert bakers[64]["state"] == "unsolved"
    assert all(r["won_in_pysolfc"] for n, r in bakers.items() if n != 64)
    words = {"solved": "solved", "unsolvable": "unsolved", "unresolved": "intractable"}
    for n, r in good.items():  # as bl.solve settles them
        assert r["state"] == words[solve(n, variant="good_measure").outcome], n
        assert r["won_in_pysolfc"] == (r["state"] == "solved"), n
