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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_interrupts import (  # the cases the tests interrupt
    CLI_GAME,
    DURING_RELAX,
    SOLVE_AFTER_RELAX,
    python,
    start,
    survey_command,
)

#: name: (command, the line after which the signal is sent, seconds waited after it)
CASES = {
    "solve after a relaxation": SOLVE_AFTER_RELAX,
    "during a relaxation": DURING_RELAX,
    "a search-1000000 game (CLI)": CLI_GAME,
}


def _time(
    cmd: list[str], ready: Callable[[subprocess.Popen[str]], None], wait: float
) -> tuple[float, float]:
    """Start ``cmd``; once ``ready(child)`` returns, wait ``wait`` s and send SIGINT;
    return (seconds from it to the line ending "interrupted", seconds to the exit)."""
    child = start(cmd, bufsize=1)
    assert child.stdout is not None
    ready(child)
    time.sleep(wait)
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)  # as a terminal's Ctrl-C
    told = None
    for line in child.stdout:
        if line.strip().endswith("interrupted") and told is None:
            told = time.monotonic() - t0
    child.wait()
    ended = time.monotonic() - t0
    if child.returncode != 130 or told is None:
        raise SystemExit(f"{cmd[-1][:60]!r}: exit {child.returncode}, never said 'interrupted'")
    return told, ended


def _after_line(line: str) -> Callable[[subprocess.Popen[str]], None]:
    def ready(child: subprocess.Popen[str]) -> None:
        assert child.stdout is not None
        for seen in child.stdout:
            if seen.strip() == line:
                return

    return ready


def _after_chunks(out: Path) -> Callable[[subprocess.Popen[str]], None]:
    def ready(child: subprocess.Popen[str]) -> None:
        while len(list(out.glob("chunk-*.parquet"))) < 2:
            time.sleep(0.1)

    return ready


def _floor() -> float:
    """Seconds a child takes from start to exit doing only the imports."""
    t0 = time.monotonic()
    subprocess.run(python("pass"), check=True, capture_output=True)
    return time.monotonic() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"{'case':<30} {'heard: median':>14} {'worst':>7} {'ended: median':>14} {'worst':>7}")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (cmd, line, wait) in CASES.items():
            results[name] = [_time(cmd, _after_line(line), wait) for _ in range(runs)]
        outs = [Path(tmp) / f"s{i}" for i in range(runs)]
        results["a one-job dial survey (CLI)"] = [
            _time(survey_command(o), _after_chunks(o), 2.0) for o in outs
        ]
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
