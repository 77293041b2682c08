"""How soon is a Ctrl-C heard?  The four cases of tests/test_interrupts.py, each run
``--runs`` times: a child process is started as a terminal starts it, SIGINT is
sent in the middle of its long call, and two times are taken from the signal:

* *heard*: until the child prints its "interrupted" line (the long call has
  stopped, the clean-up is done and the person has been told);
* *ended*: until the process has exited (Python's own shutdown included:
  modules torn down, numba's and OR-Tools' libraries unloaded).

It prints the median and the worst of each, and, for comparison in the same run,
how long the same child takes to start and exit doing nothing but the imports
(the floor that *ended* cannot go below: a shutdown the project does not control).

    python benchmarks/ctrl_c.py            # 5 runs of each case
    python benchmarks/ctrl_c.py --runs 3
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def _python(body: str) -> list[str]:
    code = _CHILD.format(body="\n".join("    " + line for line in body.strip().splitlines()))
    return [sys.executable, "-c", code]


CLI_GAME = (
    "import sys\nimport bakers_lab as bl\nfrom bakers_lab.cli import main\n"
    'bl.play(1, "search-10")\nprint("go", flush=True)\n'
    'sys.exit(main(["play", "417", "--player", "search-1000000"]))'
)

#: name: (command, the line after which the signal is sent, seconds waited after it)
CASES = {
    "solve after a relaxation": (
        _python(
            'bl.solve(417, max_nodes=1000, relax=1)\nprint("go", flush=True)\n'
            "bl.solve(417, max_nodes=10**9)"
        ),
        "go",
        2.0,
    ),
    "during a relaxation": (
        _python('print("go", flush=True)\nprint(relax(2662, limit=600).verdict)'),
        "go",
        3.0,
    ),
    "a search-1000000 game (CLI)": ([sys.executable, "-c", CLI_GAME], "go", 2.0),
}


def _run(cmd: list[str], ready: str | None, wait: float, heard: str) -> tuple[float, float]:
    """(seconds from SIGINT to the line ``heard``, seconds from SIGINT to the exit)."""
    child = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    if ready is not None:
        for line in child.stdout:
            if line.strip() == ready:
                break
    time.sleep(wait)
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)
    told = None
    for line in child.stdout:
        if line.strip().endswith(heard) and told is None:
            told = time.monotonic() - t0
    child.wait()
    ended = time.monotonic() - t0
    if child.returncode != 130 or told is None:
        raise SystemExit(f"{cmd[-1][:60]!r}: exit {child.returncode}, never said {heard!r}")
    return told, ended


def _survey(tmp: Path, run: int) -> tuple[float, float]:
    """The one-job dial survey of the test: SIGINT during deal 815."""
    out = tmp / f"s{run}"
    cmd = [
        sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", "803-815",
        "--players", "search-100000", "--jobs", "1", "--chunk-size", "6", "--quiet",
        "--out", str(out),
    ]  # fmt: skip
    child = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while len(list(out.glob("chunk-*.parquet"))) < 2:
        time.sleep(0.1)
    time.sleep(2)
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)
    assert child.stdout is not None
    told = None
    for line in child.stdout:
        if line.strip().endswith("interrupted") and told is None:
            told = time.monotonic() - t0
    child.wait()
    ended = time.monotonic() - t0
    if child.returncode != 130 or told is None:
        raise SystemExit(f"survey: exit {child.returncode}")
    return told, ended


def _floor() -> float:
    """Seconds a child takes from start to exit doing only the imports."""
    t0 = time.monotonic()
    subprocess.run(_python("pass"), check=True, capture_output=True)
    return time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"{'case':<30} {'heard: median':>14} {'worst':>7} {'ended: median':>14} {'worst':>7}")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (cmd, ready, wait) in CASES.items():
            results[name] = [_run(cmd, ready, wait, "interrupted") for _ in range(runs)]
        results["a one-job dial survey (CLI)"] = [_survey(Path(tmp), i) for i in range(runs)]
    for name, times in results.items():
        told = [t for t, _ in times]
        ended = [e for _, e in times]
        print(
            f"{name:<30} {statistics.median(told):>12.2f} s {max(told):>5.2f} s"
            f" {statistics.median(ended):>12.2f} s {max(ended):>5.2f} s"
        )
    floors = [_floor() for _ in range(runs)]
    print(
        f"for comparison: start, imports and exit, doing nothing: {statistics.median(floors):.2f} s"
    )


if __name__ == "__main__":
    main()
