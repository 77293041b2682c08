"""How often one restart of each kind solves a deal, by run size: the measure
behind the solver portfolio's stages (``bakers_lab.solve.fast._STAGES``).

A stratified sample of a shipped survey's deals (by the nodes the shipped
solver needed: under 10,000, 10,000-100,000, 100,000-1,000,000, over
1,000,000; the last stratum whole) is solved by single runs: greedy best-first
(``gbfs``) and depth-first in a random order (``rdfs``), each with seeds
0..S-1 and a budget of ``--cap`` nodes.  A run with a given seed that solves
the deal within n nodes solves it in any run of that kind and seed with a
budget of at least n, so one capped run per seed gives the success rate at
every smaller size.  Printed, per kind and size: the share of runs that
succeed in each stratum and ``size / share``, the expected nodes of repeated
runs of that size (every failed run spends its whole budget).

    python benchmarks/portfolio.py                       # 134 deals, 24 seeds: ~14 min CPU
    python benchmarks/portfolio.py --per-stratum 10 --seeds 8 --jobs 2

Figures of 2026-11-30 (Baker's Dozen 1-10,000, 24 seeds, cap 100,000, strata by
the nodes of the table made before the paired stages; the shipped table now
puts fewer deals in the upper strata, so the sample differs): on the
deals the shipped solver needed 100,000-1,000,000 nodes for, best-first runs
of 5,000 nodes succeed 1.0 % of the time, random-order runs of 5,000 nodes
10.3 %; over 1,000,000 nodes: 0.0 % and 4.2 %.  On the deals solved within
10,000 nodes, best-first runs of 2,000 nodes succeed 55.9 %, random-order
ones 36.0 %.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STRATA = ((0, 10_000), (10_000, 100_000), (100_000, 1_000_000), (1_000_000, 10**12))
SIZES = (1_000, 2_000, 3_000, 5_000, 10_000, 20_000, 50_000, 100_000)


def one_run(deal: int, variant: str, kind: str, size: int, seed: int) -> tuple[int, int]:
    """(status, nodes) of one run, made exactly as the solver's portfolio makes it."""
    import bakers_lab as bl
    from bakers_lab.solve import fast

    start = bl.GameState.from_deal(bl.deal(deal, variant=variant))
    r = start.rules
    depth = fast.DEFAULT_MAX_DEPTH
    env = fast.core_env(r)
    status, used, _, _ = fast._run(
        kind,
        size,
        seed,
        fast._arrays(start),
        env,
        depth,
        fast.move_buffer_size(r),
        fast._trail(r, depth),
    )
    return status, used


def deal_runs(deal: int, variant: str, seeds: int, cap: int) -> dict[str, list[tuple[int, int]]]:
    return {k: [one_run(deal, variant, k, cap, s) for s in range(seeds)] for k in ("gbfs", "rdfs")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--survey", default=str(ROOT / "data" / "bakers_dozen_1-32000"))
    ap.add_argument("--deals", type=int, default=10_000, help="sample from deals 1..N")
    ap.add_argument("--per-stratum", type=int, default=40)
    ap.add_argument("--seeds", type=int, default=24)
    ap.add_argument("--cap", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from joblib import Parallel, delayed

    import bakers_lab as bl

    t = bl.read_survey(args.survey)
    t = t[(t["player"] == "solver") & (t["outcome"] != "unresolved") & (t["deal"] <= args.deals)]
    variant = str(t["variant"].iloc[0])
    rng = random.Random(5)
    sample: list[tuple[int, int]] = []
    for i, (lo, hi) in enumerate(STRATA):
        ds = sorted(int(d) for d in t.loc[(t["nodes"] >= lo) & (t["nodes"] < hi), "deal"])
        last = i == len(STRATA) - 1
        sample += [(d, i) for d in (ds if last else rng.sample(ds, min(args.per_stratum, len(ds))))]
    runs: list[Any] = Parallel(n_jobs=args.jobs)(
        delayed(deal_runs)(d, variant, args.seeds, args.cap) for d, _ in sample
    )
    print(f"{variant}, {len(sample)} deals, {args.seeds} seeds, cap {args.cap:,}")
    print("stratum (nodes)" + "".join(f"{f'{lo:,}+':>16} {'':>8}" for lo, _ in STRATA))
    print("kind  size      " + "".join(f"{'share':>16} {'exp':>8}" for _ in STRATA))
    for kind in ("gbfs", "rdfs"):
        for size in (s for s in SIZES if s <= args.cap):
            cells = []
            for i, _ in enumerate(STRATA):
                rates = [
                    sum(st != _BUDGET and n <= size for st, n in r[kind]) / args.seeds
                    for r, (_, j) in zip(runs, sample, strict=True)
                    if j == i
                ]
                share = sum(rates) / len(rates) if rates else 0.0
                exp = f"{size / share / 1e3:7.0f}k" if share else "      -"
                cells.append(f"{share:16.3f} {exp}")
            print(f"{kind}  {size:7,}" + "".join(cells))
    return 0


_BUDGET = 2

if __name__ == "__main__":
    raise SystemExit(main())
