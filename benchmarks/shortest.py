"""Shortest-win benchmark (issue 27's goals) and agreement check.

    python benchmarks/shortest.py --deals 1-100              # goals on one core
    python benchmarks/shortest.py --deals 1-100 --repeat 3   # medians of 3 runs
    python benchmarks/shortest.py --deals 1-100 --bounds deadlocks,hitting_set
    python benchmarks/shortest.py --agreement                # vs breadth-first search
    python benchmarks/shortest.py --agreement --decks "classroom small"

The goals run prints, for Baker's Dozen deals in the range at the given
budget (default: ``shortest``'s, 10,000,000 nodes): how many are proven
optimal, solved with a bound only, unsolvable or unresolved; the share proven
among the solvable ones; seconds per deal (median, p90, max); the median par
and how much longer the solver's line is (median, max); and the peak memory of the
largest single search (peak RSS with the kernel's mark reset after loading,
minus the RSS after loading: see ``benchmarks/solver.py``).  With
``--repeat K`` the deals are searched K times and the per-deal seconds are
medians (node counts and verdicts are deterministic).  ``--bounds`` runs the
goals once per bound named, on the same deals in the same run (default: the
greedy packing ``deadlocks``, the bound before, and ``hitting_set``, the
default), and the nodes each needed on the deals both proved.

``--agreement`` compares ``shortest`` with the teaching breadth-first search
(every move, nothing automatic) on SEEDS seeds of every classroom deck and of
every preset's A-3 deck (tests/test_shortest.py runs a few of each); it prints
the mismatches, which must be none.

Figures are printed, not asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver import parse_range, peak_mib, reset_peak, rss_mib

import bakers_lab as bl
from bakers_lab.solve.search import CLASSROOM, breadth_first, classroom_deal
from bakers_lab.solve.shortest import BOUNDS, DEFAULT_MAX_NODES, ShortestResult, shortest


def goals(
    deals: list[int], max_nodes: int, repeat: int, bound: str, per_deal_out: bool = False
) -> dict[int, ShortestResult]:
    shortest(5)  # load the compiled code
    base = rss_mib()
    reset_peak()
    seconds: dict[int, list[float]] = {n: [] for n in deals}
    results = {}
    for _ in range(repeat):
        for n in deals:
            t = time.perf_counter()
            results[n] = shortest(n, max_nodes=max_nodes, bound=bound)
            seconds[n].append(time.perf_counter() - t)
    peak = peak_mib() - base
    counts = {o: 0 for o in ("optimal", "solved", "unsolvable", "unresolved")}
    for r in results.values():
        counts[r.outcome] += 1
    solvable = counts["optimal"] + counts["solved"] + counts["unresolved"]
    per_deal = sorted(statistics.median(s) for s in seconds.values())
    pars = [r.par for r in results.values() if r.par is not None]
    gaps = [len(bl.solve(n).moves) - r.par for n, r in results.items() if r.par is not None]
    open_ = [n for n, r in results.items() if r.outcome in ("solved", "unresolved")]
    print(
        f"bound {bound}: deals {deals[0]}-{deals[-1]} ({len(deals)}), "
        f"max_nodes {max_nodes:,}, runs {repeat}"
    )
    print("  " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"  proven optimal: {counts['optimal'] / max(solvable, 1):.1%} of the solvable")
    print(
        f"  seconds a deal: median {per_deal[len(per_deal) // 2]:.2f}, "
        f"p90 {per_deal[int(len(per_deal) * 0.9)]:.2f}, max {per_deal[-1]:.2f}"
    )
    if pars:
        print(
            f"  par: median {statistics.median(pars)}, "
            f"the solver's line longer by {statistics.median(gaps)} moves (median), "
            f"{max(gaps)} at most"
        )
    print(f"  peak memory of a search: {peak:.0f} MiB")
    print(f"  not proven: {' '.join(map(str, open_))}", flush=True)
    if per_deal_out:
        print("  per deal (game: median seconds): " + ", ".join(
            f"{n}: {statistics.median(s):.3f}" for n, s in seconds.items()
        ), flush=True)  # fmt: skip
    return results


def nodes_compared(found: dict[str, dict[int, ShortestResult]]) -> None:
    """Median nodes per bound on the deals every bound proved."""
    common = set.intersection(
        *({n for n, r in res.items() if r.outcome == "optimal"} for res in found.values())
    )
    if not common:
        return
    medians = ", ".join(
        f"{b} {statistics.median(res[n].nodes for n in common):,.0f}" for b, res in found.items()
    )
    print(f"median nodes on the {len(common)} deals all proved: {medians}")


def agreement(seeds: int, only: str = "") -> None:
    from test_solver_agreement import small_rules

    decks = [(f"classroom {k}", lambda s, k=k: classroom_deal(s, deck=k)) for k in CLASSROOM]
    for name in bl.variant_names():
        rules = small_rules(name, 3, 4)
        decks.append((f"{name} A-3", lambda s, r=rules: bl.seeded_deal(s, variant=r)))
    for label, make in decks:
        if not label.startswith(only):
            continue
        t = time.perf_counter()
        bad = []
        won = 0
        for seed in range(seeds):
            d = make(seed)
            ref = breadth_first(d, max_nodes=5_000_000)
            r = shortest(d)
            expected = len(ref.solution or []) if ref.status == "solved" else None
            got = r.par if r.outcome == "optimal" else None
            if ref.status not in ("solved", "no solution") or got != expected:
                bad.append(seed)
            won += expected is not None
        print(
            f"{label:28s} {seeds} seeds, {won} winnable, mismatches {len(bad)} {bad[:10]} "
            f"({time.perf_counter() - t:.0f} s)",
            flush=True,
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", default="1-100")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--agreement", action="store_true")
    p.add_argument("--seeds", type=int, default=300)
    p.add_argument("--decks", default="", help="only the decks whose name starts so")
    p.add_argument("--bounds", default="deadlocks,hitting_set")
    p.add_argument("--per-deal", action="store_true", help="print each deal's median seconds")
    a = p.parse_args()
    bounds = a.bounds.split(",")
    for b in bounds:
        if b not in BOUNDS:
            p.error(f"--bounds: each must be one of {', '.join(BOUNDS)}, not {b!r}")
    if a.agreement:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        agreement(a.seeds, a.decks)
    else:
        deals = parse_range(a.deals)
        found = {b: goals(deals, a.max_nodes, a.repeat, b, a.per_deal) for b in bounds}
        nodes_compared(found)


if __name__ == "__main__":
    main()
