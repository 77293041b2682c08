"""How long bl.strength takes (issue 40's goals: 200 games of 15-digit game numbers,
none in the shipped tables, within 5 minutes the first time and 2 s the second; 200
games of deals 1-2,000, in the shipped tables, within 5 s).

    python benchmarks/strength.py                 # medians of 3 runs of each
    python benchmarks/strength.py --repeat 1 --first-repeat 1

Each "first" run plays the off-table deals into a new empty cache folder (every core:
``n_jobs=-1``); each "second" run reads the same deals back from the folder the last
first run filled; each "shipped" run reads deals 1-2,000 from ``data/``.  Figures are
printed with the machine's load (``os.getloadavg``), not asserted: the machine is shared.

Measured on 2026-12-04 on the project's 2-core machine shared with seven other jobs
(``--repeat 5 --first-repeat 2``, load average 5-7): first 231 s and 334 s (median
283 s), second median 1.61 s (1.52-2.01 s), shipped median 1.59 s (1.14-1.73 s).
``--cpu 30``: 1.03 s of processor time a deal for the 17 bots of ``ON_DEMAND``
(search-100000 about half of it), so about 103 s for 200 deals on two idle cores.

Measured again on 2026-12-05 on an idle 2-core machine, after ``search-N`` learned to
dive for a win and ``search-3000`` joined the 18 bots of ``ON_DEMAND`` (``--repeat 3
--first-repeat 1``, load average 1.7): first 21.9 s, second median 0.67 s, shipped
median 0.56 s; ``--cpu 30``: 0.23 s of processor time a deal, about 23 s for 200 deals
on two idle cores.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import tempfile
import time

import pandas as pd

from bakers_lab.study.strength import strength

GOALS = {"first": 300.0, "second": 2.0, "shipped": 5.0}


def _games(deals: list[int]) -> pd.DataFrame:
    rng = random.Random(40)
    return pd.DataFrame(
        {"deal": deals, "variant": "bakers_dozen", "won": [rng.random() < 0.6 for _ in deals]}
    )


def _load() -> str:
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def _timed(label: str, run: object) -> float:
    t0 = time.perf_counter()
    run()  # type: ignore[operator]
    s = time.perf_counter() - t0
    print(f"  {label}: {s:.2f} s ({_load()})", flush=True)
    return s


def cpu(n: int) -> None:
    """The processor time (not the wall-clock time, which a shared machine inflates) of
    playing ``n`` off-table deals in this process, and 200 deals' share of two cores."""
    rng = random.Random(151)
    games = _games(sorted({rng.randrange(10**14, 10**15) for _ in range(n)}))
    folder = tempfile.mkdtemp(prefix="strength-cpu-")
    print(f"{_load()}")
    c0, t0 = time.process_time(), time.perf_counter()
    strength(games, cache=folder, n_jobs=1, progress=False)
    c, t = time.process_time() - c0, time.perf_counter() - t0
    print(f"{n} deals: {c:.1f} s of processor time ({c / n:.2f} s a deal), {t:.1f} s wall-clock")
    print(f"200 deals on 2 idle cores: about {200 * c / n / 2:.0f} s ({_load()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of the second and shipped calls")
    ap.add_argument("--first-repeat", type=int, default=3, help="runs of the first call")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--cpu", type=int, default=0, metavar="N",
                    help="only measure the CPU time of N off-table deals played in this "
                    "process (n_jobs=1), and what 200 would take on two idle cores")  # fmt: skip
    args = ap.parse_args()
    if args.cpu:
        cpu(args.cpu)
        return
    rng = random.Random(15)
    off = _games(sorted({rng.randrange(10**14, 10**15) for _ in range(args.games)}))
    shipped = _games(sorted(random.Random(2000).sample(range(1, 2001), args.games)))
    print(f"cores: {os.cpu_count()}; {_load()}")
    figures: dict[str, list[float]] = {"first": [], "second": [], "shipped": []}
    folder = ""
    for i in range(args.first_repeat):
        folder = tempfile.mkdtemp(prefix="strength-bench-")
        figures["first"].append(
            _timed(f"first {i + 1}", functools.partial(strength, off, cache=folder, progress=False))
        )
    for i in range(args.repeat):
        figures["second"].append(
            _timed(f"second {i + 1}", lambda: strength(off, cache=folder, progress=False))
        )
    for i in range(args.repeat):
        figures["shipped"].append(
            _timed(f"shipped {i + 1}", lambda: strength(shipped, progress=False))
        )
    for what, runs in figures.items():
        if runs:
            m = statistics.median(runs)
            ok = "within" if m <= GOALS[what] else "over"
            print(f"{what}: median {m:.2f} s of {len(runs)} ({ok} the {GOALS[what]:g} s goal)")
    print(_load())


if __name__ == "__main__":
    main()
