"""Survey benchmark: deals per second of a plain solver loop, of the survey
with 1 worker and with 2 workers, in the same run; the parallel speed-up and
the survey machinery's overhead over the plain loop.  Medians of --repeat runs.

    python benchmarks/survey.py --deals 1-2000 --repeat 3

Figures are printed, not asserted (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

import bakers_lab as bl
from bakers_lab.study.survey import parse_deals


def plain_loop(numbers: list[int], variant: str) -> float:
    """Seconds to deal and solve every game in a plain loop (one core)."""
    t0 = time.perf_counter()
    for n in numbers:
        bl.solve(bl.deal(n, variant=variant))
    return time.perf_counter() - t0


def survey_run(numbers: list[int], variant: str, n_jobs: int, chunk_size: int) -> float:
    """Seconds of a whole survey (fresh output directory) with ``n_jobs`` workers."""
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        bl.survey(
            numbers,
            variant=variant,
            out=f"{out}/s",
            n_jobs=n_jobs,
            chunk_size=chunk_size,
            progress=False,
        )
        return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-2000")
    ap.add_argument("--variant", default="bakers_dozen")
    ap.add_argument("--chunk-size", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    numbers = parse_deals(args.deals)
    bl.solve(1, max_nodes=10)  # load the compiled solver first
    loop, one, two = [], [], []
    for k in range(args.repeat):
        loop.append(plain_loop(numbers, args.variant))
        one.append(survey_run(numbers, args.variant, 1, args.chunk_size))
        two.append(survey_run(numbers, args.variant, 2, args.chunk_size))
        print(
            f"run {k + 1}: loop {loop[-1]:.1f} s, survey 1 worker {one[-1]:.1f} s, "
            f"2 workers {two[-1]:.1f} s",
            flush=True,
        )
    n = len(numbers)
    m_loop, m_one, m_two = (statistics.median(x) for x in (loop, one, two))
    print(f"{args.variant}, {n} deals, chunks of {args.chunk_size}, medians of {args.repeat} runs:")
    print(f"  plain solver loop   {n / m_loop:8.1f} deals/s")
    print(
        f"  survey, 1 worker    {n / m_one:8.1f} deals/s  "
        f"(overhead over the loop {100 * (m_one - m_loop) / m_loop:+.1f} %)"
    )
    print(f"  survey, 2 workers   {n / m_two:8.1f} deals/s  (speed-up {m_one / m_two:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
