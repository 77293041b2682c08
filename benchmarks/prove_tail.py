"""The tail: every deal the shipped surveys leave open, settled by ``bakers-lab prove``.

    python benchmarks/prove_tail.py [--root DIR] [--budgets 120,900,3600,14400] [--only V,...]

Each deal the solver's rows of the shipped tables call ``unresolved`` (119 of them:
Baker's Dozen 1-32,000, Good Measure 1-2,000, Baker's Dozen with returns, house
sequences and Portuguese Solitaire 1-2,000) gets ``bakers-lab prove`` in rounds of
growing time budgets, so that the quickest are settled first: a deal not settled
within a round's budget goes on from where it stopped (its folder under ``--root``)
in the next round.  Each run is a process of its own, so that its peak memory is
its own (``wait4``).  Every run appends one JSON line to ``ROOT/results.jsonl``: the
deal, the round's budget, wall seconds, peak memory, and the verdict with its counts
(positions, groups, layers, disk).  Started again, it skips the settled deals.

Printed at the end: a line per deal, and the open counts per table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

TABLES = {
    "bakers_dozen": "bakers_dozen_1-32000",
    "good_measure": "good_measure_1-2000",
    "bakers_dozen_return": "bakers_dozen_return_1-2000",
    "house_sequences": "house_sequences_1-2000",
    "portuguese_solitaire": "portuguese_solitaire_1-2000",
}
DATA = Path(__file__).resolve().parent.parent / "data"
BIN = Path(sys.executable).parent / "bakers-lab"


def open_deals() -> list[tuple[str, int]]:
    """(variant, deal) of every solver row the shipped tables leave unresolved."""
    out = []
    for variant, table in TABLES.items():
        df = pd.read_parquet(DATA / table, columns=["deal", "player", "outcome"])
        rows = df[(df.player == "solver") & (df.outcome == "unresolved")]
        out += [(variant, int(d)) for d in sorted(rows.deal)]
    return out


def settled(results: Path) -> dict[tuple[str, int], dict]:
    got: dict[tuple[str, int], dict] = {}
    if results.exists():
        for line in results.read_text().splitlines():
            rec = json.loads(line)
            if rec["verdict"]["outcome"] != "unresolved":
                got[(rec["variant"], rec["deal"])] = rec
    return got


def run_one(variant: str, deal: int, root: Path, budget: float) -> dict:
    work = root / f"{variant}-{deal}"
    cmd = [str(BIN), "prove", str(deal), "--variant", variant, "--workdir", str(work),
           "--max-seconds", str(budget), "--json", "--quiet"]  # fmt: skip
    t0 = time.perf_counter()
    with open(root / "stderr.log", "ab") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    try:
        verdict = json.loads(out)
    except json.JSONDecodeError:
        verdict = {"outcome": "unresolved", "reason": f"exit {status}: {out[-300:]!r}"}
    return {
        "variant": variant,
        "deal": deal,
        "budget": budget,
        "wall_seconds": round(wall, 1),
        "peak_rss_bytes": usage.ru_maxrss * 1024,
        "verdict": verdict,
        "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="/work/tail")
    ap.add_argument("--budgets", default="120,900,3600,14400")
    ap.add_argument(
        "--only",
        default=None,
        help="variants, comma-separated (two runners on two cores: give each its own)",
    )
    args = ap.parse_args()
    root = Path(args.root)
    root.mkdir(parents=True, exist_ok=True)
    results = root / "results.jsonl"
    only = None if args.only is None else set(args.only.split(","))
    deals = [d for d in open_deals() if only is None or d[0] in only]
    print(f"{len(deals)} open deals", flush=True)
    for budget in [float(b) for b in args.budgets.split(",")]:
        done = settled(results)
        todo = [d for d in deals if d not in done]
        print(f"round of {budget:g} s: {len(todo)} deals", flush=True)
        for variant, deal in todo:
            rec = run_one(variant, deal, root, budget)
            with open(results, "a") as f:
                f.write(json.dumps(rec) + "\n")
            v = rec["verdict"]
            print(f"{variant} {deal}: {v['outcome']} {v.get('positions', 0):,} positions, "
                  f"{rec['wall_seconds']} s, {rec['peak_rss_bytes'] / 2**30:.2f} GiB "
                  f"{v.get('reason', '')}", flush=True)  # fmt: skip
    done = settled(results)
    for variant in TABLES:
        left = [d for v, d in deals if v == variant and (v, d) not in done]
        print(f"{variant}: {len(left)} open {left}")


if __name__ == "__main__":
    main()
