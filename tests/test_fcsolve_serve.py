"""``bakers-lab pysolfc`` keeps the solver warm (bakers_lab.bridge.serve): each
``fc-solve`` PySolFC starts asks it, and says byte for byte what it would say alone;
a caller without the key gets nothing, and with the answerer gone the command answers
itself.  How much sooner is a benchmark figure (benchmarks/fcsolve_pysolfc.py)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from pysolfc_parse import read_answer
from test_fcsolve import GAME_ARGS, PYSOLFC, _command, play_hints

import bakers_lab as bl
from bakers_lab.bridge import pysolfc
from bakers_lab.bridge.fcsolve import deal_board
from bakers_lab.bridge.serve import ADDRESS_ENV, KEY_ENV, ask_server, serving
from bakers_lab.model.game import GameState

BAKERS = [*PYSOLFC, *GAME_ARGS["bakers_dozen"]]


def _asked(env: dict[str, str], stdin: bytes, *argv: str):
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return _command(*argv, stdin=stdin)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_the_warm_answer_is_the_answer_alone_byte_for_byte():
    questions = [
        (deal_board(3), BAKERS),  # won
        (deal_board(64), BAKERS),  # proven lost
        (deal_board(5, "good_measure"), [*PYSOLFC, *GAME_ARGS["good_measure"]]),
        (b"Founds:\nAH AH\n", BAKERS),  # a card twice: one line, status 255
    ]
    alone = [_command(*argv, stdin=board) for board, argv in questions]
    with serving() as answerer:
        warm = [_asked(answerer.env, board, *argv) for board, argv in questions]
        assert answerer.answered == len(questions)  # each was answered there, not alone
    for a, w in zip(alone, warm, strict=True):
        assert (w.returncode, w.stdout, w.stderr) == (a.returncode, a.stdout, a.stderr)
    assert warm[0].returncode == 0 and read_answer(warm[0].stdout).state == "solved"
    assert warm[1].stdout.startswith(b"I could not solve this game.")
    assert warm[3].returncode == 255 and warm[3].stderr.count(b"\n") == 1


def test_a_caller_without_the_key_gets_nothing_and_the_answerer_goes_on():
    with serving() as answerer:
        wrong = {**answerer.env, KEY_ENV: "00" * 32}
        assert ask_server(BAKERS, deal_board(1), wrong) is None
        assert ask_server(BAKERS, deal_board(1), {**answerer.env, KEY_ENV: "not hex"}) is None
        said = ask_server(BAKERS, deal_board(1), answerer.env)
        assert said is not None and said.code == 0 and answerer.answered == 1
        address = answerer.env[ADDRESS_ENV]
    assert ask_server(BAKERS, deal_board(1), answerer.env) is None  # gone: answer alone
    assert not Path(address).exists()
    gone = _asked(answerer.env, deal_board(1), *BAKERS)  # and the command does
    assert gone.returncode == 0 and read_answer(gone.stdout).state == "solved"


def test_bakers_lab_pysolfc_gives_pysolfc_a_warm_fc_solve(tmp_path, monkeypatch, capfd):
    """A stand-in PySolFC asks its ``fc-solve`` as PySolFC does (``--help`` at start-up,
    then a deal): the launcher answers, from the warm answerer."""
    board = tmp_path / "board.txt"
    board.write_bytes(deal_board(7))
    fake = tmp_path / "bin" / "pysolfc"
    fake.parent.mkdir()
    fake.write_text(
        "#!/bin/sh\nfc-solve --help | head -1\n"
        f'echo "server: ${{{ADDRESS_ENV}:+named}}"\n'
        f"fc-solve {shlex.join(BAKERS)} < {shlex.quote(str(board))}\n"
    )
    fake.chmod(0o755)
    here = [str(fake.parent), str(Path(sys.executable).parent), "/usr/bin", "/bin"]
    monkeypatch.setenv("PATH", os.pathsep.join(here))
    assert pysolfc.main([]) == 0
    out = capfd.readouterr().out
    head, named, answer = out.split("\n", 2)
    assert head.startswith("fc-solve") and named == "server: named"
    read = read_answer(answer.encode())
    assert read.state == "solved"
    assert play_hints(GameState.from_deal(bl.deal(7)), read.hints).is_won


def test_without_a_socket_each_fc_solve_answers_alone(tmp_path, monkeypatch):
    deep = tmp_path / ("d" * 120)  # longer than a socket's name may be (108 bytes)
    deep.mkdir()
    monkeypatch.setenv("TMPDIR", str(deep))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    with serving() as answerer:
        assert answerer.env == {} and "nowhere" in repr(answerer)
        assert ask_server(BAKERS, deal_board(1), answerer.env) is None
