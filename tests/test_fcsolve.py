"""``bakers-lab fc-solve``: PySolFC's Solver answered by this toolkit's solver.

Each answer is read with PySolFC's own regular expressions (tests/pysolfc_parse.py),
and every "solveable" answer's hints are played on the rule engine from the board that
was asked about: they must win.  A deal proven lost says so and gives no move; a game
this command does not know goes to the real fc-solve byte for byte."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pysolfc_parse import read_answer

import bakers_lab as bl
from bakers_lab.bridge.fcsolve import (
    BAD,
    NODES_PER_ITERATION,
    answer,
    board_text,
    deal_board,
)
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Dest, Move

#: PySolFC's arguments for each game (``FreeCellSolver_Hint.computeHints`` with its
#: default options: 10,000 iterations, no progress, no preset file).
PYSOLFC = ["-m", "-p", "-opt", "-sel", "-hoi", "--max-iters", "10000", "--decks-num", "1"]
GAME_ARGS = {
    "bakers_dozen": ["--stacks-num", "13", "--freecells-num", "0", "--preset", "bakers_dozen"],
    "good_measure": ["--stacks-num", "10", "--freecells-num", "0", "--preset", "good_measure"],
    "portuguese_solitaire": [
        "--stacks-num",
        "13",
        "--freecells-num",
        "0",
        "--sequences-are-built-by",
        "rank",
        "--empty-stacks-filled-by",
        "kings",
    ],
    "spanish_patience_ii": [
        "--stacks-num",
        "13",
        "--freecells-num",
        "0",
        "--sequences-are-built-by",
        "rank",
    ],
}
FC_SOLVE = shutil.which("fc-solve", path="/usr/bin:/usr/games")
ROOT = Path(__file__).resolve().parents[1]


def ask(variant: str, board: bytes, *extra: str) -> bytes:
    said = answer([*PYSOLFC, *extra, *GAME_ARGS[variant]], board)
    assert (said.code, said.err) == (0, b""), said
    return said.out


def play_hints(start: GameState, hints) -> GameState:
    """PySolFC's hints ([ncards, source, destination]) played on the rule engine."""
    g = start.copy()
    for ncards, kind, src, dest_kind, dest in hints:
        assert (ncards, kind) == (1, "stack") and dest_kind in (None, "stack")
        card = g.columns[src][-1]
        if dest_kind is None:
            to: object = Dest.FOUNDATION
        else:
            to = g.columns[dest][-1] if g.columns[dest] else Dest.EMPTY
        g.play(Move(card, to))  # type: ignore[arg-type]
    return g


@pytest.mark.parametrize("variant", list(GAME_ARGS))
def test_pysolfc_reads_a_win_that_the_rule_engine_replays(variant):
    wins = 0
    # deals 1-6 but 3 (Good Measure's deal 3 takes 3.5 million positions, twice: the same
    # reading on a longer search); deal 1 of Good Measure is proven lost
    for number in (1, 2, 4, 5, 6):
        board = deal_board(number, variant)
        read = read_answer(ask(variant, board))
        truth = bl.solve(number, variant=variant)
        start = GameState.from_deal(bl.deal(number, variant=variant))
        if truth.outcome == "solved":
            assert read.state == "solved" and read.hints
            assert play_hints(start, read.hints).is_won
            assert len(read.hints) <= len(truth.moves)  # -opt: never longer than the solver's
            wins += 1
            assert read.shown["iter"] == -(-read.shown["states"] // NODES_PER_ITERATION)
        else:  # proven lost: nothing PySolFC would take as a move (it reads no further)
            assert (truth.outcome, read.state, read.hints) == ("unsolvable", "unsolved", [])
    assert wins >= 3


def test_baker_s_dozen_64_is_proven_lost_and_a_mid_game_position_is_answered():
    out = ask("bakers_dozen", deal_board(64))
    assert out.decode().splitlines()[0] == "I could not solve this game."
    assert read_answer(out).state == "unsolved"
    g = GameState.from_deal(bl.deal(4))
    for m in bl.solve(4).moves[:30]:  # 30 moves into a win: cards on the foundations
        g.play(m)
    board = board_text(g).encode()
    assert board.startswith(b"Founds: ")
    read = read_answer(ask("bakers_dozen", board))
    assert read.state == "solved" and play_hints(g, read.hints).is_won


def test_the_progress_lines_are_read_and_the_moves_after_them():
    out = ask("bakers_dozen", deal_board(5), "--iter-output", "--iter-output-step", "100")
    read = read_answer(out, progress=True)
    assert read.state == "solved" and read.shown["Iteration"] >= 1
    assert play_hints(GameState.from_deal(bl.deal(5)), read.hints).is_won


def test_a_small_budget_is_intractable_with_no_move():
    out = answer(
        ["-m", "--max-iters", "0", *GAME_ARGS["bakers_dozen"]], deal_board(417)
    ).out.decode()
    assert out.splitlines()[0] == "Iterations count exceeded."
    assert read_answer(out.encode()).state == "intractable"


@pytest.mark.parametrize(
    ("argv", "board", "said"),
    [
        (
            ["--bogus"],
            b"",
            'Unknown option "--bogus". Type "fc-solve --help" for usage information.',
        ),
        (
            ["--max-iters"],
            b"",
            'The command line parameter "--max-iters" requires an argument '
            "and was not supplied with one.",
        ),
        (
            ["--max-iters", "1e9", *GAME_ARGS["bakers_dozen"]],
            b"AH\n",
            "--max-iters takes a whole number from 0 to 2,000,000,000, not '1e9'",
        ),
        (
            ["--max-iters", "9" * 30, *GAME_ARGS["bakers_dozen"]],
            b"AH\n",
            "--max-iters takes a whole number from 0 to 2,000,000,000, not '9999999999999999999999",
        ),
        (
            GAME_ARGS["bakers_dozen"],
            b"",
            "no board on standard input: PySolFC writes the position there",
        ),
        (
            ["--preset", "bakers_dozen", "--stacks-num", "14", "--freecells-num", "0"],
            b"AH\n",
            "Baker's Dozen has 13 columns and no free cell, not --stacks-num 14 --freecells-num 0",
        ),
        (
            GAME_ARGS["bakers_dozen"],
            deal_board(1).replace(b"AD", b"<AD>"),
            "a face-down card (<..>) on the board: the games this command knows deal every card "
            "face up",
        ),
        (GAME_ARGS["bakers_dozen"], deal_board(1).replace(b"AD", b"AH"), "AH"),
        (
            GAME_ARGS["bakers_dozen"],
            deal_board(1) + b"AH\n",
            "the board has 14 columns, not the 13 of --stacks-num 13",
        ),
    ],
)
def test_every_bad_question_is_one_line_with_fc_solves_status(argv, board, said):
    got = answer(argv, board)
    assert got.code == BAD and got.out == b""
    text = got.err.decode()
    assert text.count("\n") == 1 and text.endswith("\n"), text
    assert said in text


def _command(*argv: str, stdin: bytes = b"", path: str | None = None, exe=None):
    env = {**os.environ, "PATH": path if path is not None else os.environ.get("PATH", "")}
    env["FREECELL_SOLVER_QUIET"] = "1"  # as PySolFC runs it
    command = [*(exe or [sys.executable, "-m", "bakers_lab.cli", "fc-solve"]), *argv]
    return subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=600)


def test_help_and_version_answer_as_pysolfc_checks_them():
    done = _command("--help")
    assert done.returncode == 0 and done.stdout.decode().splitlines()[0].startswith("fc-solve")
    version = _command("--version").stdout.decode()
    m = re.search(r"version ([0-9]+)\.([0-9]+)\.([0-9]+)", version)
    assert m is not None and tuple(map(int, m.groups())) >= (4, 20, 0)  # -hoi, iter step
    bad = _command("--preset", "bakers_dozen", "--stacks-num", "13", "--freecells-num", "0",
                   stdin=b"AH AH\n")  # fmt: skip
    assert bad.returncode == BAD and b"Traceback" not in bad.stderr
    assert bad.stderr.count(b"\n") == 1


FREECELL = b"""\
Founds:
4C 2C 9C 8C QS 4S 2H
5H QH 3C AC 3H 4H QD
QC 9S 6H 9H 3S KS 3D
5D 2S JC 5C JH 6D AS
2D KD TH TC TD 8D
7H JS KH TS KC 7C
AH 5S 6S AD 8H JD
7S 6C 7D 4D 8S 9D
"""
FREECELL_ARGS = [
    "-m",
    "-p",
    "-opt",
    "-sel",
    "-hoi",
    "--max-iters",
    "10000",
    "--decks-num",
    "1",
    "--stacks-num",
    "8",
    "--freecells-num",
    "4",
    "--preset",
    "freecell",
]


@pytest.mark.skipif(FC_SOLVE is None, reason="no fc-solve (apt-get install freecell-solver-bin)")
def test_a_freecell_board_goes_to_the_real_fc_solve_byte_for_byte():
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
    real = subprocess.run([str(FC_SOLVE), *FREECELL_ARGS], input=FREECELL, capture_output=True,
                          env=env, timeout=600)  # fmt: skip
    folder = str(Path(str(FC_SOLVE)).parent)
    ours = _command(*FREECELL_ARGS, stdin=FREECELL, path=folder)
    assert real.stdout.startswith(b"-=-=-=-=") and b"This game is solveable." in real.stdout
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )


def test_without_a_real_fc_solve_another_game_is_not_found(tmp_path):
    done = _command(*FREECELL_ARGS, stdin=FREECELL, path=str(tmp_path))
    assert done.returncode == 127 and done.stdout == b""  # PySolFC: "Solver not found"
    assert done.stderr == (
        b"bakers-lab fc-solve answers Baker's Dozen, Good Measure, Portuguese Solitaire and "
        b"Spanish Patience II; for this game install Freecell Solver (fc-solve)\n"
    )


def test_a_link_named_fc_solve_is_bakers_lab_fc_solve(tmp_path):
    command = shutil.which("bakers-lab") or str(Path(sys.executable).parent / "bakers-lab")
    if not Path(command).exists():
        pytest.skip("no bakers-lab command installed")
    link = tmp_path / "fc-solve"
    link.symlink_to(command)
    done = _command(*PYSOLFC, *GAME_ARGS["bakers_dozen"], stdin=deal_board(1), exe=[str(link)])
    read = read_answer(done.stdout)
    assert done.returncode == 0 and read.state == "solved"
    assert play_hints(GameState.from_deal(bl.deal(1)), read.hints).is_won


def test_an_option_only_the_real_fc_solve_knows_goes_to_it(tmp_path):
    real = tmp_path / "fc-solve"  # a stand-in that says what it was asked
    real.write_text('#!/bin/sh\necho "real fc-solve: $*"\n/bin/cat\nexit 3\n')
    real.chmod(0o755)
    done = _command("--method", "soft-dfs", *FREECELL_ARGS, stdin=b"AH\n", path=str(tmp_path))
    assert done.returncode == 3
    assert done.stdout == (b"real fc-solve: --method soft-dfs " + " ".join(FREECELL_ARGS).encode()
                           + b"\nAH\n")  # fmt: skip
    alone = _command("--method", "soft-dfs", stdin=b"AH\n", path=str(tmp_path / "none"))
    assert alone.returncode == BAD and alone.stderr == (
        b'Unknown option "--method". Type "fc-solve --help" for usage information.\n'
    )
