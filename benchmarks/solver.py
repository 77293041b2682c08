"""Solver benchmark: solve a range of deals, print outcome counts, the resolved
share, seconds per deal (median / p90 / p99 / max), nodes per second, peak
memory, and the one-time compile cost; optionally race Freecell Solver
(`fc-solve`) as a peer on the same boards (Good Measure: fc-solve has no
13-column Baker's Dozen).

    python benchmarks/solver.py --deals 1-1000
    python benchmarks/solver.py --variant good_measure --deals 1-1000 --peer
    python benchmarks/solver.py --all-presets --deals 1-2000 --no-compile
    python benchmarks/solver.py --src /tmp/before --all-presets --deals 1-500

``--all-presets`` runs every preset of ``bl.variant_names()``, each in a fresh
child process (so that each preset's peak memory is its own) and prints one
table.  ``--src DIR`` imports ``bakers_lab`` from the source tree ``DIR``
(inserted at ``sys.path[0]`` before the import; the run prints
``bakers_lab.__file__`` so you can check).

Peak memory is the peak RSS of the process while it solves the deals (the
kernel's mark is reset after loading) minus its RSS after importing bakers_lab
and solving one small deal (which loads the compiled code): the memory the
solves themselves add, i.e. that of the largest single solve.

Figures are printed, not asserted: the machine is shared and noisy, so run it
several times and quote medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def parse_range(text: str) -> list[int]:
    """``1-1000,5000-5010,417`` → the game numbers."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def rss_mib() -> float:
    """Current resident set size of this process, MiB (Linux /proc; else the peak)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reset_peak() -> None:
    """Reset the kernel's peak-RSS mark of this process (Linux: clear_refs 5), so
    that :func:`peak_mib` sees the solves' peak, not the import's."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_mib() -> float:
    """Peak resident set size (since :func:`reset_peak` where Linux allows), MiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def compile_cost(src: str | None) -> tuple[float, float]:
    """Seconds of the first solve in a fresh process with an empty numba cache
    (compile), and then again with the cache filled (load)."""
    pre = f"import sys; sys.path.insert(0, {src!r}); " if src else ""
    code = (
        pre + "import time; t = time.perf_counter(); import bakers_lab as bl; "
        "bl.solve(1, max_nodes=2000); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            for _ in range(2)
        ]
    return runs[0], runs[1]


def summarize(name: str, outcomes: Sequence[str], seconds: list[float], nodes: int | None) -> str:
    import numpy as np

    s = np.array(seconds)
    counts = {k: outcomes.count(k) for k in ("solved", "unsolvable", "unresolved")}
    line = (
        f"{name:10s} deals {len(outcomes):5d}  solved {counts['solved']:5d}  "
        f"unsolvable {counts['unsolvable']:3d}  unresolved {counts['unresolved']:3d}  "
        f"resolved {100 * (1 - counts['unresolved'] / len(outcomes)):.2f} %  "
        f"total {s.sum():8.2f} s  median {np.median(s):.4f}  p90 {np.percentile(s, 90):.4f}  "
        f"p99 {np.percentile(s, 99):.3f}  max {s.max():.3f}"
    )
    if nodes is not None:
        line += f"  nodes/s {nodes / max(s.sum(), 1e-9):,.0f}"
    return line


def run_deals(variant: str, deals: list[int], max_nodes: int) -> dict[str, Any]:
    """Solve the deals in this process; the figures as a dict (JSON-able)."""
    import bakers_lab as bl

    # load the compiled code of every run kind (probe, best-first, depth-first) before timing
    bl.solve(417, max_nodes=20_000)
    base = rss_mib()
    reset_peak()
    outcomes, seconds, slow = [], [], []
    nodes = 0
    t0 = time.perf_counter()
    for n in deals:
        r = bl.solve(n, variant=variant, max_nodes=max_nodes)
        assert r.outcome != "solved" or r.verified
        outcomes.append(r.outcome)
        seconds.append(r.seconds)
        nodes += r.nodes
        if r.outcome != "solved" or r.seconds > 1.0:
            slow.append((n, r.outcome, r.nodes, round(r.seconds, 2)))
    return {
        "variant": variant,
        "outcomes": outcomes,
        "seconds": seconds,
        "nodes": nodes,
        "wall": time.perf_counter() - t0,
        "base_mib": base,
        "peak_mib": peak_mib(),
        "slow": slow,
        "file": bl.__file__,
    }


def table(results: list[dict[str, Any]], deals: str, max_nodes: int) -> str:
    import numpy as np

    head = (
        f"deals {deals}, max_nodes {max_nodes:,}\n\n"
        "| preset | deals | solved | unsolvable | unresolved | resolved % | total s "
        "| median s | p99 s | max s | nodes/s | peak MiB |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    rows = [head]
    for r in results:
        o = r["outcomes"]
        s = np.array(r["seconds"])
        un = o.count("unresolved")
        rows.append(
            f"| {r['variant']} | {len(o)} | {o.count('solved')} | {o.count('unsolvable')} "
            f"| {un} | {100 * (1 - un / len(o)):.2f} | {s.sum():.1f} | {np.median(s):.4f} "
            f"| {np.percentile(s, 99):.3f} | {s.max():.2f} "
            f"| {r['nodes'] / max(s.sum(), 1e-9):,.0f} "
            f"| {r['peak_mib'] - r['base_mib']:.0f} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", default="bakers_dozen")
    ap.add_argument("--all-presets", action="store_true", help="every preset, one child each")
    ap.add_argument("--deals", default="1-1000")
    ap.add_argument("--max-nodes", type=int, default=None)
    ap.add_argument("--src", default=None, help="import bakers_lab from this source tree")
    ap.add_argument("--json", default=None, help="(internal) write the figures to this file")
    ap.add_argument("--peer", action="store_true", help="also run fc-solve on the same boards")
    ap.add_argument("--peer-options", default=None, help="fc-solve option set (fcsolve_peer.py)")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-cost measurement")
    ap.add_argument("--list", action="store_true", help="print every deal that was not quick")
    args = ap.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    import bakers_lab as bl
    from bakers_lab.solve.fast import DEFAULT_MAX_NODES

    max_nodes = args.max_nodes or DEFAULT_MAX_NODES
    deals = parse_range(args.deals)
    if args.json is None:
        print(f"bakers_lab from {bl.__file__}")

    if not args.no_compile and args.json is None:
        cold, warm = compile_cost(args.src)
        print(
            f"first call, empty numba cache (compile): {cold:.2f} s; "
            f"with the cache (load): {warm:.2f} s"
        )

    if args.all_presets:
        results = []
        for name in bl.variant_names():
            with tempfile.NamedTemporaryFile(suffix=".json") as f:
                cmd = [sys.executable, __file__, "--variant", name, "--deals", args.deals]
                cmd += ["--max-nodes", str(max_nodes), "--json", f.name, "--no-compile"]
                if args.src:
                    cmd += ["--src", args.src]
                subprocess.run(cmd, check=True)
                res = json.loads(Path(f.name).read_text())
            results.append(res)
            print(summarize(name[:10], res["outcomes"], res["seconds"], res["nodes"]), flush=True)
            print("   not solved, or over 1 s:", res["slow"][:40], flush=True)
        print(table(results, args.deals, max_nodes))
        return 0

    res = run_deals(args.variant, deals, max_nodes)
    if args.json is not None:
        Path(args.json).write_text(json.dumps(res))
        return 0
    print(f"{args.variant}, deals {args.deals}, max_nodes {max_nodes:,}")
    print(
        summarize("bakers_lab", res["outcomes"], res["seconds"], res["nodes"])
        + f"  wall {res['wall']:.1f} s  peak {res['peak_mib'] - res['base_mib']:.0f} MiB"
        + f" above the {res['base_mib']:.0f} MiB after loading"
    )
    if args.list or len(res["slow"]) <= 20:
        print("not solved, or over 1 s:", res["slow"])

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
        outcomes = res["outcomes"]
        ours = sum(o != "unresolved" for o in outcomes)
        theirs = sum(o != "unresolved" for o in p_out)
        print(
            f"resolved: bakers_lab {ours}, fc-solve {theirs}; total time ratio "
            f"fc-solve / bakers_lab = {sum(p_sec) / max(sum(res['seconds']), 1e-9):.1f}x"
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
