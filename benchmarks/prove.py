"""The layered search (bl.prove) measured: exactness on the shipped verdicts, speed
per worker beside the depth-first solver's, bytes per position on disk, the
speed-up from one Dask worker to two, and a real cluster with a worker killed.

    python benchmarks/prove.py small     # every small-deck deal of the solver's agreement test
    python benchmarks/prove.py lost      # every deal the shipped tables call lost, proven again
    python benchmarks/prove.py solved    # 100 deals the shipped tables call won, found solvable
    python benchmarks/prove.py speed     # positions a second, one core, beside the solver
    python benchmarks/prove.py scale     # 1 and 2 workers of a local cluster, same run
    python benchmarks/prove.py cluster   # dask scheduler + 2 dask workers, one killed mid-layer

Figures are printed, not asserted; medians where a figure is taken more than once.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

import bakers_lab as bl

DATA = Path(__file__).resolve().parent.parent / "data"
BIN = Path(sys.executable).parent


def _solver_rows(table: str) -> pd.DataFrame:
    df = pd.read_parquet(DATA / table, columns=["deal", "player", "outcome", "proof", "nodes"])
    return df[df.player == "solver"]


def small() -> None:
    """The solver's agreement decks (every preset; 5 and 6 ranks, 130 seeds each):
    the layered search alone against the plain exhaustive search's recorded verdicts."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import references
    from test_solver_agreement import SHAPES, small_rules

    for name in bl.variant_names():
        t0, agree, n = time.perf_counter(), 0, 0
        for ranks, columns, count in SHAPES:
            r = small_rules(name, ranks, columns)
            for seed in range(count):
                d = bl.seeded_deal(seed, variant=r)
                expected = references.solvable(bl.GameState.from_deal(d))
                got = bl.prove(d, probes=False)
                n += 1
                agree += got.outcome == ("solved" if expected else "unsolvable") and (
                    got.verified == expected
                )
        print(f"{name}: {agree} of {n} verdicts agree ({time.perf_counter() - t0:.0f} s)")


def lost() -> None:
    """Every deal the shipped tables call lost (Baker's Dozen 1-32,000: 79, Good
    Measure 1-2,000: 128), proven again by the layered search alone."""
    for variant, table in (
        ("bakers_dozen", "bakers_dozen_1-32000"),
        ("good_measure", "good_measure_1-2000"),
    ):
        rows = _solver_rows(table)
        deals = sorted(int(d) for d in rows[rows.outcome == "lost"].deal)
        agree, positions, seconds = 0, [], []
        proofs: dict[str | None, int] = {}
        for d in deals:
            r = bl.prove(d, variant=variant, probes=False)
            agree += r.outcome == "unsolvable"
            proofs[r.proof] = proofs.get(r.proof, 0) + 1
            positions.append(r.positions)
            seconds.append(r.seconds)
            if r.outcome != "unsolvable":
                print(f"  DISAGREES: {variant} {d}: {r.summary()}")
        print(
            f"{variant}: {agree} of {len(deals)} lost deals proven unsolvable again "
            f"({proofs}); positions median {statistics.median(positions):,.0f}, "
            f"most {max(positions):,}; {sum(seconds):.0f} s in all"
        )


def solved(n: int = 100, seed: int = 0) -> None:
    """A sample of deals the shipped tables call won: found solvable, lines replayed."""
    rows = _solver_rows("bakers_dozen_1-32000")
    won = sorted(int(d) for d in rows[rows.outcome == "won"].deal)
    sample = random.Random(seed).sample(won, n)
    ok = sum(bl.prove(d).solved for d in sample)
    print(f"bakers_dozen: {ok} of {n} won deals (seed {seed}) found solvable, every line replayed")
    # without the solver's first try: the win comes from the layered search and a probe
    # on the most advanced row of a layer, the line rebuilt through the frontier's refs
    from bakers_lab.solve import prove as P

    first, P._FIRST_NODES = P._FIRST_NODES, 1
    try:
        got = [bl.prove(d) for d in sample]
    finally:
        P._FIRST_NODES = first
    ok = sum(r.solved for r in got)
    layers = statistics.median(len(r.layers) for r in got)
    print(
        f"  the same without the solver's first try: {ok} of {n} (median {layers:g} layers "
        "finished before a probe won; 0: the probe on the start's own layer)"
    )


def speed(deals: tuple[int, ...] = (27548, 6574), repeats: int = 3) -> None:
    """Positions and moves tried a second on one core (in memory), beside the
    depth-first solver's nodes a second on the same deals, in the same run."""
    from bakers_lab.solve.fast import solve

    for d in deals:
        pos, nodes, dfs = [], [], []
        for _ in range(repeats):
            r = bl.prove(d, probes=False)
            pos.append(r.positions / r.seconds)
            nodes.append(r.nodes / r.seconds)
            s = solve(d, max_nodes=60_000_000, max_depth=100_000, table_mib=2048)
            dfs.append(s.nodes / s.seconds)
        print(
            f"game {d}: {r.outcome}, {r.positions:,} positions, {r.nodes:,} moves tried; "
            f"prove {statistics.median(pos):,.0f} positions/s, "
            f"{statistics.median(nodes):,.0f} moves tried/s; "
            f"solve {statistics.median(dfs):,.0f} nodes/s ({s.outcome}, {s.nodes:,} nodes)"
        )


def scale(deal: int = 27548) -> None:
    """One worker, then two, of a local Dask cluster on the same deal, frontier on
    disk; bytes per position on disk."""
    times = {}
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            r = bl.prove(deal, probes=False, workdir=tmp, jobs=jobs, scheduler=None)
            times[jobs] = time.perf_counter() - t0
            rows = sum(t[2] for t in r.layers)
            print(
                f"jobs={jobs}: {r.outcome} {r.positions:,} positions in {times[jobs]:.1f} s "
                f"({r.positions / times[jobs]:,.0f}/s); frontier at most {r.disk:,} bytes "
                f"on disk; {rows:,} frontier rows, {r.disk / max(1, rows):.1f} bytes a row "
                "compressed (68 raw)"
            )
    print(f"speed-up 1 -> 2 workers: {times[1] / times[2]:.2f}x")


def cluster(deal: int = 27548, kill_after: float = 60.0) -> None:
    """A real cluster from the command line: ``dask scheduler``, two ``dask
    worker`` processes, a shared folder; one worker killed (SIGKILL) mid-layer.
    The verdict and counts must equal a run on one process."""
    port = 8786 + os.getpid() % 1000
    addr = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            [
                str(BIN / "dask"),
                "scheduler",
                "--port",
                str(port),
                "--dashboard-address",
                ":0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    time.sleep(3)
    workers = [
        subprocess.Popen(
            [
                str(BIN / "dask"),
                "worker",
                addr,
                "--nthreads",
                "1",
                "--memory-limit",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    procs += workers
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.Popen(
                [
                    str(BIN / "bakers-lab"),
                    "prove",
                    str(deal),
                    "--workdir",
                    tmp,
                    "--scheduler",
                    addr,
                    "--json",
                    "--quiet",
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(kill_after)
            killed_in = max((p for p in Path(tmp).glob("layer_*") if p.is_dir()), default=None)
            workers[0].send_signal(signal.SIGKILL)
            where = killed_in.name if killed_in else "?"
            print(f"killed a worker after {kill_after:.0f} s, in {where}")
            out, _ = run.communicate(timeout=7200)
            got = json.loads(out)
        alone = bl.prove(deal, probes=False)
        same = (got["outcome"], got["positions"], got["groups"], got["nodes"]) == (
            alone.outcome,
            alone.positions,
            alone.groups,
            alone.nodes,
        )
        print(
            f"cluster: {got['outcome']} {got['positions']:,} positions, {got['groups']:,} groups "
            f"in {got['seconds']:.0f} s; one process: {alone.outcome} {alone.positions:,}, "
            f"{alone.groups:,}; the same verdict and counts: {same}"
        )
    finally:
        for p in procs:
            p.kill()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "speed"
    {
        "small": small,
        "lost": lost,
        "solved": solved,
        "speed": speed,
        "scale": scale,
        "cluster": cluster,
    }[what]()
