import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from inprocess import run_cli

import bakers_lab as bl
from bakers_lab.cli import main


def test_deal_text(capsys):
    assert main(["deal", "417"]) == 0
    assert capsys.readouterr().out == bl.deal(417).to_text()


def test_deal_json(capsys):
    assert main(["deal", "86", "--variant", "good_measure", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    d = bl.deal(86, variant="good_measure")
    assert data["deal"] == 86 and data["variant"] == "good_measure"
    assert data["columns"] == [[str(c) for c in col] for col in d.columns]
    assert sum(len(p) for p in data["foundations"].values()) == 2


def test_unknown_variant_is_one_line_exit_2(capsys):
    assert main(["deal", "1", "--variant", "klondike"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakers-lab: error: unknown variant 'klondike'; known: bakers_dozen")
    assert err.count("\n") == 1


GAME_WORDS = "a game number is a whole number from 1 to 99999999999999999999 (10^20 − 1), not "


def test_bad_number_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["deal", "0"])
    assert stop.value.code == 2
    assert f"argument N: {GAME_WORDS}0\n" in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run(
        [sys.executable, "-m", "bakers_lab.cli", "deal", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[0] == "6H JH 5C AD"


def test_argparse_errors_are_one_line():
    proc = subprocess.run(
        [sys.executable, "-m", "bakers_lab.cli", "deal", "x"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"bakers-lab: error: argument N: {GAME_WORDS}'x'"]


def test_solve_json_replays(capsys):
    assert main(["solve", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deal"] == 5 and data["outcome"] == "solved" and data["verified"] is True
    g = bl.GameState.from_deal(bl.deal(5))
    g.play_all(data["moves"])
    assert g.is_won
    assert set(data) == {
        "deal", "variant", "outcome", "moves", "nodes", "seconds", "verified", "proof"
    }  # fmt: skip
    assert data["proof"] is None


def test_solve_board_file(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text(bl.deal(86, variant="good_measure").to_text())
    assert main(["solve", "--board", str(f), "--variant", "good_measure"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("good_measure board: solved (")


def test_solve_unsolvable_deal(capsys):
    assert main(["solve", "64"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bakers_dozen game 64: unsolvable (proof: deadlock; 1 node, ")


@pytest.mark.parametrize("text", ["-1", "1e3", "inf", "nan", ".", "", "1.2.3", "\u0661"])
def test_solve_relax_takes_plain_decimal_numbers(text, capsys):
    with pytest.raises(SystemExit):
        main(["solve", "1", "--relax", text])
    assert "argument --relax: must be a number such as 0, 2 or 0.5, in digits 0-9, not " in (
        capsys.readouterr().err
    )


def test_solve_relax_range_is_the_library_s(capsys):
    assert main(["solve", "1", "--relax", "2000000"]) == 2
    assert "relax must be a number from 0 to 1,000,000" in capsys.readouterr().err
    assert main(["solve", "1", "--relax", "0.5"]) == 0
    assert capsys.readouterr().out.startswith("bakers_dozen game 1: solved (")


def test_solve_long_budget_options(capsys):
    # a long budget's table and path length reach the solver: a table of 1 MiB is
    # too small for 6574's proof (see test_solver)
    assert main(["solve", "6574", "--table-mib", "1", "--max-depth", "100000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bakers_dozen game 6574: unresolved (5,000,168 nodes, ")


def test_solve_bad_input_one_line_exit_2(tmp_path):
    bad = bl.deal(5).to_text().replace("KH", "KX")
    cases = [
        (("solve", "--board", "-"), bad, "bakers-lab: error: line 2: bad card 'KX'"),
        (("solve", "5", "--variant", "nope"), None, "bakers-lab: error: unknown variant 'nope'"),
        (("solve",), None, "bakers-lab: error: give a game number or --board FILE"),
        (
            ("solve", "--board", str(tmp_path / "missing.txt")),
            None,
            f"bakers-lab: error: --board {tmp_path / 'missing.txt'}: No such file or directory",
        ),
        (
            ("solve", "3", "--max-nodes", "0"),
            None,
            "bakers-lab: error: argument --max-nodes: must be an integer from 1 to "
            "1000000000000, not 0",
        ),
        (("solve", "--board", "-"), bl.deal(5).to_text().replace("KH", "QH", 1), "appears twice"),
        (
            ("solve", "3", "--max-depth", "100001"),
            None,
            "bakers-lab: error: max_depth must be an integer from 1 to 100000, not 100001",
        ),
        (
            ("solve", "3", "--table-mib", "0"),
            None,
            "bakers-lab: error: argument --table-mib: must be an integer at least 1, not 0",
        ),
    ]
    for args, stdin, start in cases:
        proc = run_cli(*args, stdin=stdin)
        assert proc.returncode == 2, args
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and start in lines[0], (args, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_a_killed_survey_stops_like_ctrl_c_and_takes_its_workers_with_it(tmp_path):
    out = tmp_path / "s"
    command = [sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", "1-400"]
    command += ["--variant", "good_measure", "--players", "solver", "--chunk-size", "200"]
    command += ["--jobs", "2", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(
        command,
        start_new_session=True,  # its own process group: the workers join it
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not (out / "_survey.json").exists():  # the survey is under way
            assert proc.poll() is None, "the survey ended before it started"
            time.sleep(0.2)
        time.sleep(3)  # the workers are solving
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=300) == 130
        _, err = proc.communicate()
        assert "bakers-lab: interrupted" in err
        while True:  # every process of the group ends (else the test's timeout ends it)
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_reader_that_goes_away_ends_the_command_quietly():
    # `bakers-lab solve 5 | head -1`: the pipe is closed before the command writes
    p = subprocess.Popen(
        [sys.executable, "-m", "bakers_lab.cli", "solve", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    assert (p.wait(timeout=120), err) == (1, "")


def test_the_command_says_nothing_of_compiling_when_the_cache_is_warm(capsys):
    bl.solve(5)
    assert main(["solve", "5"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["difficulty", "5"]) == 0  # a shipped rating: nothing runs
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("command", "file"),
    [("explain", "game.pso"), ("hint", "game.pso"), ("strength", "~/.PySolFC/statistics.dat")],
)
def test_the_help_names_pysolfcs_own_files(command, file):
    # PySolFC saves as game.pso; the app and the help knew only .pysol (issue 52)
    proc = run_cli(command, "--help")
    assert proc.returncode == 0
    assert file in " ".join(proc.stdout.split())


def test_the_help_ends_with_where_the_manual_is(monkeypatch):
    from bakers_lab.cli import MANUAL

    monkeypatch.setenv("COLUMNS", "100")
    proc = run_cli("--help")
    assert proc.returncode == 0
    assert proc.stdout.rstrip().splitlines()[-1] == MANUAL
    assert MANUAL == "The manual: `make docs` in a clone builds build/docs/html/index.html."
