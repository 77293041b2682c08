"""The search dial against the code before: games won and seconds of ``search-N`` as
this checkout plays it, beside ``search-N`` as a revision before it played it (by
default the last one whose ``search-N`` spent every position best first by
``careful``'s score), on the same deals, in the same run.

    python benchmarks/search_dial.py --deals 1-100 --players search-1000,search-100000

The revision's package is taken from git (``git archive``) into a temporary folder and
run there in a child process, its compiled code built there first (about a minute,
not timed).  Each player plays every deal once a run, one core; the seconds are the
median of ``--repeat`` runs (the machine is shared and noisy: figures are printed, not
asserted).  The games are the same in every run (the players are deterministic), so
the wins are counted once.

Measured on 2026-12-05 on an idle 2-core machine (the defaults: deals 1-100, median of
3 runs), seconds for the 100 games, 5257e0e -> the dive:

=============  =================  =================
player         best first only    with the dive
=============  =================  =================
search-100     won 55 in 0.75 s   won 59 in 0.65 s
search-1000    won 88 in 1.55 s   won 85 in 1.78 s
search-10000   won 96 in 4.89 s   won 97 in 1.68 s
search-100000  won 93 in 66.61 s  won 98 in 5.54 s
=============  =================  =================

(Of deals 1-100 the solver shows 99 winnable: only 64 cannot be won.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bakers_lab.study.survey import parse_deals

#: The last revision whose ``search-N`` looked ahead best first only (no dive).
BEFORE = "5257e0e"

ROOT = Path(__file__).resolve().parent.parent

#: What the child process runs: each player on every deal, ``repeat`` times; prints
#: one JSON line a player (its wins and the seconds of each run).
CHILD = """
import json, sys, time
import bakers_lab as bl
from bakers_lab.study.survey import parse_deals
deals = [bl.deal(n) for n in parse_deals(sys.argv[1])]
repeat = int(sys.argv[3])
for name in sys.argv[2].split(","):
    bl.play(deals[0], name)  # compiled (or loaded) before the clock starts
    runs, won = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        won = sum(bl.play(d, name).won for d in deals)
        runs.append(time.perf_counter() - t0)
    print(json.dumps({"player": name, "won": won, "seconds": runs}), flush=True)
"""


def unpack(revision: str, into: Path) -> Path:
    """The ``bakers_lab`` package of ``revision`` unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "bakers_lab"],
        cwd=ROOT, capture_output=True, check=True,
    )  # fmt: skip
    tar = into / "src.tar"
    tar.write_bytes(archive.stdout)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def measure(path: Path, deals: str, players: str, repeat: int) -> dict[str, dict[str, object]]:
    """Run :data:`CHILD` with the package at ``path`` first on the import path."""
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, deals, players, str(repeat)],
        cwd=path, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {str(r["player"]): r for r in rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-100")
    ap.add_argument("--players", default="search-100,search-1000,search-10000,search-100000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", default=BEFORE, help="the revision to compare with")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = unpack(args.before, Path(tmp))
        t0 = time.perf_counter()
        measure(old_pkg, "1", args.players, 1)  # its compile, not timed
        print(f"revision {args.before} compiled in {time.perf_counter() - t0:.0f} s")
        old = measure(old_pkg, args.deals, args.players, args.repeat)
    new = measure(ROOT, args.deals, args.players, args.repeat)
    n = len(parse_deals(args.deals))
    runs = "one run" if args.repeat == 1 else f"the median of {args.repeat} runs"
    print(f"Baker's Dozen deals {args.deals} ({n} deals), one core, {runs}: "
          f"{args.before} (best first only) -> this checkout")  # fmt: skip
    for name in args.players.split(","):
        a, b = old[name], new[name]
        ta = statistics.median(a["seconds"])  # type: ignore[arg-type]
        tb = statistics.median(b["seconds"])  # type: ignore[arg-type]
        print(f"{name:>15}: won {a['won']:>4} in {ta:8.2f} s  ->  won {b['won']:>4} in "
              f"{tb:8.2f} s  ({ta / tb:.1f}x the speed)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
