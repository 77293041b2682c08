"""Ctrl-C from a real parent process: heard, never a killed process.

Each case starts a child process, waits until it is in the middle of the long
call, sends SIGINT as a terminal's Ctrl-C does, and checks that the child ends
with the project's "interrupted" (exit code 130), not killed by the signal
(OR-Tools' own SIGINT handling used to leave SIGINT at its default action after
a relaxation) and not ignored (a compiled player's game used to ignore it).  How
soon the signal is heard is a benchmark figure: ``benchmarks/ctrl_c.py``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from bakers_lab.files.table import read_survey

#: A script run as a notebook cell would run it: the long call, and the
#: KeyboardInterrupt it must raise turned into the CLI's exit code.
_CHILD = """
import sys
import bakers_lab as bl
from bakers_lab.solve.relax import relax
try:
{body}
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def start(cmd: list[str], **kwargs) -> subprocess.Popen[str]:
    """Start ``cmd`` as a terminal does, with SIGINT at its default action: a shell
    script's background job (``pytest &``) passes SIGINT ignored to its children,
    and a Python that starts with SIGINT ignored never hears a Ctrl-C."""
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


def _interrupt(cmd: list[str], ready: str | None, wait: float) -> tuple[int, str, float]:
    """Run ``cmd``; after it prints the line ``ready`` (or at once), wait ``wait`` s,
    send SIGINT; return (exit code, everything it printed, seconds from the signal
    to its end)."""
    child = start(cmd, bufsize=1)
    assert child.stdout is not None
    seen = []
    if ready is not None:
        for line in child.stdout:
            seen.append(line)
            if line.strip() == ready:
                break
    time.sleep(wait)
    assert child.poll() is None, f"ended before the signal: {''.join(seen)}"
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        rest, _ = child.communicate(timeout=300)
    finally:
        child.kill()
    return child.returncode, "".join(seen) + rest, time.monotonic() - t0


def python(body: str) -> list[str]:
    """The command that runs ``body`` in :data:`_CHILD`."""
    code = _CHILD.format(body="\n".join("    " + line for line in body.strip().splitlines()))
    return [sys.executable, "-c", code]


#: The three long calls interrupted below: (command, the line after which the signal
#: is sent, seconds waited after it); benchmarks/ctrl_c.py times the same.
SOLVE_AFTER_RELAX = (
    python(
        'bl.solve(417, max_nodes=1000, relax=1)\nprint("go", flush=True)\n'
        "bl.solve(417, max_nodes=10**9)"
    ),
    "go",
    2.0,
)
DURING_RELAX = (python('print("go", flush=True)\nprint(relax(2662, limit=600).verdict)'), "go", 3.0)
# the CLI's main, run as its console script runs it, once the compiled player is
# loaded from numba's cache (a signal during the imports would test nothing)
CLI_GAME = (
    [
        sys.executable,
        "-c",
        "import sys\nimport bakers_lab as bl\nfrom bakers_lab.cli import main\n"
        'bl.play(1, "search-10")\nprint("go", flush=True)\n'
        'sys.exit(main(["play", "417", "--player", "search-1000000"]))',
    ],
    "go",
    2.0,
)


def survey_command(out: Path) -> list[str]:
    """The one-job dial survey interrupted below: deals 1189-1200 take search-100000
    under half a second in all, deal 1201 about 7-9 s (the shipped table's times, and
    those of the same survey run again)."""
    return [
        sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", "1189-1201",
        "--players", "search-100000", "--jobs", "1", "--chunk-size", "6", "--quiet",
        "--out", str(out),
    ]  # fmt: skip


def test_ctrl_c_after_a_relaxation_interrupts_the_next_solve():
    code, out, _ = _interrupt(*SOLVE_AFTER_RELAX)
    assert (code, out.split()[-1]) == (130, "interrupted"), out


def test_ctrl_c_during_a_relaxation_raises_and_does_not_abort():
    code, out, _ = _interrupt(*DURING_RELAX)
    # not "unknown" (the interrupt swallowed), not -6 (the solver aborting at exit)
    assert (code, out.split()[-1]) == (130, "interrupted"), out
    assert "terminate" not in out


def test_ctrl_c_ends_a_strong_players_game_at_once():
    code, out, _ = _interrupt(*CLI_GAME)
    assert code == 130, out
    assert out.strip().splitlines()[-1] == "bakers-lab: interrupted"


def test_ctrl_c_ends_a_one_job_dial_survey_and_its_resume_equals_the_shipped_table(tmp_path):
    """The signal comes during deal 1201 (:func:`survey_command`), after the first two
    chunks were written, and the resume has only that deal to play."""
    out_dir = tmp_path / "s"
    cmd = survey_command(out_dir)
    child = start(cmd)
    while len(list(out_dir.glob("chunk-*.parquet"))) < 2:
        assert child.poll() is None, child.communicate()[0]
        time.sleep(0.2)
    time.sleep(2)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 130, out
    assert out.strip().splitlines()[-1] == "bakers-lab: interrupted"
    assert sorted(p.name for p in out_dir.glob("chunk-*.parquet")) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    got = read_survey(out_dir).sort_values("deal").reset_index(drop=True)
    shipped = Path(__file__).resolve().parent.parent / "data/bakers_dozen_search_strong_1-2000"
    want = read_survey(shipped)
    want = want[want.deal.between(1189, 1201)].sort_values("deal").reset_index(drop=True)
    cols = ["deal", "variant", "player", "outcome", "moves", "nodes", "solution"]
    pd.testing.assert_frame_equal(got[cols], want[cols])
