"""Solver benchmark: solve a range of deals, print outcome counts, seconds per
deal (median / p90 / p99 / max), nodes per second, peak memory, and the
one-time compile cost; optionally race Freecell Solver (`fc-solve`) as a peer
on the same boards (Good Measure: fc-solve has no 13-column Baker's Dozen).

    python benchmarks/solver.py --deals 1-1000
    python benchmarks/solver.py --variant good_measure --deals 1-1000 --peer

Figures are printed, not asserted: the machine is shared and noisy, so run it
several times and quote medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import bakers_lab as bl  # noqa: E402
from bakers_lab.solve.fast import DEFAULT_MAX_NODES  # noqa: E402


def parse_range(text: str) -> list[int]:
    """``1-1000,5000-5010,417`` → the game numbers."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def compile_cost() -> tuple[float, float]:
    """Seconds of the first solve in a fresh process with an empty numba cache
    (compile), and then again with the cache filled (load)."""
    code = (
        "import time; t = time.perf_counter(); import bakers_lab as bl; "
        "bl.solve(1, max_nodes=2000); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
        )
        warm = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
        )
    return cold, warm


def summarize(name: str, outcomes: Sequence[str], seconds: list[float], nodes: int | None) -> str:
    s = np.array(seconds)
    counts = {k: outcomes.count(k) for k in ("solved", "unsolvable", "unresolved")}
    line = (
        f"{name:10s} deals {len(outcomes):5d}  solved {counts['solved']:5d}  "
        f"unsolvable {counts['unsolvable']:3d}  unresolved {counts['unresolved']:3d}  "
        f"total {s.sum():8.2f} s  median {np.median(s):.4f}  p90 {np.percentile(s, 90):.4f}  "
        f"p99 {np.percentile(s, 99):.3f}  max {s.max():.3f}"
    )
    if nodes is not None:
        line += f"  nodes/s {nodes / max(s.sum(), 1e-9):,.0f}"
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bakers_dozen")
    ap.add_argument("--deals", default="1-1000")
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    ap.add_argument("--peer", action="store_true", help="also run fc-solve on the same boards")
    ap.add_argument("--peer-options", default=None, help="fc-solve option set (fcsolve_peer.py)")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-cost measurement")
    ap.add_argument("--list", action="store_true", help="print every deal that was not quick")
    args = ap.parse_args(argv)
    deals = parse_range(args.deals)

    if not args.no_compile:
        cold, warm = compile_cost()
        print(
            f"first call, empty numba cache (compile): {cold:.2f} s; "
            f"with the cache (load): {warm:.2f} s"
        )
    bl.solve(1, max_nodes=10)  # load the compiled code before timing

    outcomes, seconds, slow = [], [], []
    nodes = 0
    t0 = time.perf_counter()
    for n in deals:
        r = bl.solve(n, variant=args.variant, max_nodes=args.max_nodes)
        assert r.outcome != "solved" or r.verified
        outcomes.append(r.outcome)
        seconds.append(r.seconds)
        nodes += r.nodes
        if r.outcome != "solved" or r.seconds > 1.0:
            slow.append((n, r.outcome, r.nodes, round(r.seconds, 2)))
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.variant}, deals {args.deals}, max_nodes {args.max_nodes:,}")
    print(
        summarize("bakers_lab", outcomes, seconds, nodes)
        + f"  wall {wall:.1f} s  peak RSS {peak:.0f} MiB"
    )
    if args.list or len(slow) <= 20:
        print("not solved, or over 1 s:", slow)

    if args.peer:
        import fcsolve_peer

        if not fcsolve_peer.available():
            print("fc-solve not found (apt-get install freecell-solver-bin): peer skipped")
            return 0
        opts = args.peer_options or fcsolve_peer.BEST
        p_out, p_sec = [], []
        for n in deals:
            board = bl.deal(n, variant=args.variant).to_text()
            outcome, sec, _ = fcsolve_peer.solve_board(
                board, variant=args.variant, options=fcsolve_peer.FC_SOLVE_OPTIONS[opts]
            )
            p_out.append(outcome)
            p_sec.append(sec)
        print(summarize(f"fc-solve[{opts}]", p_out, p_sec, None))
        ours = sum(o != "unresolved" for o in outcomes)
        theirs = sum(o != "unresolved" for o in p_out)
        print(
            f"resolved: bakers_lab {ours}, fc-solve {theirs}; total time ratio "
            f"fc-solve / bakers_lab = {sum(p_sec) / max(sum(seconds), 1e-9):.1f}x"
        )
        disagree = [
            n
            for n, a, b in zip(deals, outcomes, p_out, strict=True)
            if "unresolved" not in (a, b) and a != b
        ]
        print("verdicts that disagree:", disagree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
