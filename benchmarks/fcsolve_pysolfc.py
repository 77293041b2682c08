"""PySolFC's Solver question, asked of ``bakers-lab fc-solve`` and of the real ``fc-solve``.

For each deal, the command PySolFC's ``FreeCellSolver_Hint.computeHints`` runs with its
Solver dialog's defaults (``-m -p -opt -sel -hoi --max-iters 10000 --decks-num 1
--stacks-num N --freecells-num 0 --preset GAME``, the board on standard input), a new
process each time as PySolFC starts it: the answer read with PySolFC's own regular
expressions (``tests/pysolfc_parse.py``) and the seconds it took, process start included.
``bakers-lab fc-solve`` is asked alone (a link named ``fc-solve``: each process loads
the solver) and as ``bakers-lab pysolfc`` runs it (the solver kept warm in the
launching process, :mod:`bakers_lab.bridge.serve`).
The real ``fc-solve`` (Debian's ``freecell-solver-bin``, built for at most 10 stacks) is
asked the same Good Measure questions beside it; Baker's Dozen's 13 stacks it refuses.

    python benchmarks/fcsolve_pysolfc.py [--bakers 1-100] [--good-measure 1-20]

Prints, per game and solver: solved / could not solve / intractable / no answer, and the
median and largest seconds a deal.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from pysolfc_parse import read_answer  # noqa: E402

from bakers_lab.bridge.fcsolve import deal_board  # noqa: E402
from bakers_lab.bridge.serve import serving  # noqa: E402

ARGS = [
    "-m",
    "-p",
    "-opt",
    "-sel",
    "-hoi",
    "--max-iters",
    "10000",
    "--decks-num",
    "1",
    "--freecells-num",
    "0",
]
GAMES = {"bakers_dozen": 13, "good_measure": 10}


def ask(
    command: list[str], variant: str, number: int, near: dict[str, str] | None = None
) -> tuple[str, int, float]:
    argv = [*command, *ARGS, "--stacks-num", str(GAMES[variant]), "--preset", variant]
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1", **(near or {})}
    t0 = time.perf_counter()
    done = subprocess.run(argv, input=deal_board(number, variant), capture_output=True,
                          env=env, timeout=600)  # fmt: skip
    seconds = time.perf_counter() - t0
    read = read_answer(done.stdout)
    return (read.state if done.returncode == 0 else "no answer"), len(read.hints), seconds


def span(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def report(name: str, rows: list[tuple[str, int, float]]) -> None:
    states = [s for s, _, _ in rows]
    seconds = [t for _, _, t in rows]
    counts = ", ".join(f"{states.count(s)} {s}" for s in dict.fromkeys(states))
    print(f"  {name:<24} {counts}; median {statistics.median(seconds):.2f} s, "
          f"largest {max(seconds):.2f} s a deal")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bakers", default="1-100")
    p.add_argument("--good-measure", default="1-20")
    a = p.parse_args()
    ours = [sys.executable, "-m", "bakers_lab.cli", "fc-solve"]
    real = shutil.which("fc-solve", path="/usr/bin:/usr/games")
    asked = (("bakers_dozen", span(a.bakers)), ("good_measure", span(a.good_measure)))
    with serving() as answerer:  # as bakers-lab pysolfc keeps it while PySolFC runs
        for variant, deals in asked:
            print(f"{variant} games {deals.start}-{deals.stop - 1}, PySolFC's default question:")
            report("bakers-lab fc-solve, alone", [ask(ours, variant, n) for n in deals])
            report(
                "bakers-lab fc-solve, by bakers-lab pysolfc",
                [ask(ours, variant, n, answerer.env) for n in deals],
            )
            if real is not None and GAMES[variant] <= 10:
                report(f"fc-solve ({real})", [ask([real], variant, n) for n in deals])
        print(f"({answerer.answered} questions answered by bakers-lab pysolfc's warm solver)")


if __name__ == "__main__":
    main()
