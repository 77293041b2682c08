"""The searches compiled with the package against numba's compile at first use, side by side.

Each figure is measured in child processes, once with the compiled module
(``bakers_lab.solve._compiled``) and once with numba (``BAKERS_LAB_JIT=1``), in
the same run, interleaved:

- ``first``: a fresh virtual environment outside the clone with the wheel
  installed (``--wheel``, as ``make wheel`` builds it): the first
  ``bakers-lab solve 5``, the first ``bakers-lab shortest 5``, the first
  ``python -c "import bakers_lab as bl; bl.solve(5)"`` and whether numba is in
  ``sys.modules`` after it; numba's side starts from an empty numba cache.
- ``fcsolve``: a cold ``bakers-lab fc-solve`` asked as PySolFC asks (a new
  process a question, the board on standard input), median seconds over Baker's
  Dozen deals (``--fc-deals``).
- ``speed``: the solver's bar-style work: deals 1-52 solved one after another,
  and a survey of ``--survey-deals`` deals on one job; seconds and nodes, and
  whether every verdict, line and node count is equal.
- ``jobs``: a survey of ``--jobs-deals`` deals on 1 and on 2 jobs: the speed-up.

    python benchmarks/compiled.py [--only first,fcsolve,speed,jobs] [--wheel W] [--repeat 3]

Figures are printed, not asserted (the machine is shared and noisy): medians of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
MODES = {"compiled": {}, "numba": {"BAKERS_LAB_JIT": "1"}}

#: PySolFC's Solver question (benchmarks/fcsolve_pysolfc.py says where it comes from).
FC_ARGS = ["-m", "-p", "-opt", "-sel", "-hoi", "--max-iters", "10000", "--decks-num", "1"]
FC_ARGS += ["--freecells-num", "0", "--stacks-num", "13", "--preset", "bakers_dozen"]

SPEED = """
import json, sys, tempfile, time
import bakers_lab as bl
from bakers_lab.solve import kernels
bl.solve(1)
t = time.perf_counter(); rows = []
for d in range(1, 53):
    r = bl.solve(d)
    rows.append([d, r.outcome, r.nodes, [str(m) for m in r.moves]])
bar = time.perf_counter() - t
t = time.perf_counter()
table = bl.survey(range(1, {n} + 1), players=["solver"], out=tempfile.mkdtemp() + "/t",
                  n_jobs=1, progress=False)
survey = time.perf_counter() - t
json.dump({{"mode": kernels.MODE, "bar": bar, "survey": survey, "rows": rows,
           "nodes": int(table.nodes.sum()), "outcomes": table.outcome.tolist()}}, sys.stdout)
"""

JOBS = """
import json, sys, tempfile, time
import bakers_lab as bl
t = time.perf_counter()
bl.survey(range(1, {n} + 1), players=["solver"], out=tempfile.mkdtemp() + "/t", n_jobs={jobs},
          progress=False)
json.dump({{"seconds": time.perf_counter() - t}}, sys.stdout)
"""


def child(code: str, mode: str, python: Path = BIN / "python", **env: str) -> dict:
    run_env = {k: v for k, v in os.environ.items() if k != "BAKERS_LAB_JIT"}
    run_env.update(MODES[mode], **env)
    out = subprocess.run(
        [str(python), "-c", code], env=run_env, capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        sys.exit(f"benchmarks/compiled.py: a child failed ({mode}):\n{out.stderr}")
    return dict(json.loads(out.stdout))


def timed(cmd: list[str], mode: str, stdin: str | bytes | None = None, **env: str) -> float:
    run_env = {k: v for k, v in os.environ.items() if k != "BAKERS_LAB_JIT"}
    run_env.update(MODES[mode], **env)
    t = time.perf_counter()
    data = stdin.encode() if isinstance(stdin, str) else stdin
    out = subprocess.run(cmd, env=run_env, input=data, capture_output=True)
    seconds = time.perf_counter() - t
    if out.returncode not in (0, 1):
        sys.exit(f"benchmarks/compiled.py: {' '.join(cmd)} failed ({mode}):\n{out.stderr!r}")
    return seconds


def first(wheel: Path) -> None:
    """The first answers of a fresh installation of the wheel, both ways."""
    print(f"first: a fresh virtual environment with {wheel.name}")
    with tempfile.TemporaryDirectory(prefix="bakers-lab-first-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin/python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True
        )
        py, cli = venv / "bin/python", str(venv / "bin/bakers-lab")
        for mode in MODES:
            if mode == "numba":  # (the wheel does not need numba: the extra that brings it)
                pip = [str(venv / "bin/python"), "-m", "pip", "install", "--quiet", "numba"]
                subprocess.run(pip, check=True)
            # numba's cache of a fresh install: empty (its own folder each mode)
            cache = {"NUMBA_CACHE_DIR": str(Path(tmp) / f"numba-{mode}")}
            solve = timed([cli, "solve", "5"], mode, **cache)
            short = timed([cli, "shortest", "5"], mode, **cache)
            code = (
                "import sys, time; t = time.perf_counter(); import bakers_lab as bl; "
                "bl.solve(5); import json; json.dump({'s': time.perf_counter() - t, "
                "'numba': sorted(m for m in sys.modules if m.split('.')[0] in "
                "('numba', 'llvmlite'))[:3]}, sys.stdout)"
            )
            again = child(code, mode, python=py, **cache)
            print(
                f"  {mode:8}  first solve 5 {solve:6.2f} s   first shortest 5 {short:6.2f} s   "
                f"python -c solve(5) {again['s']:5.2f} s   numba loaded: {again['numba'] or 'no'}"
            )


def fcsolve(deals: range, repeat: int) -> None:
    from bakers_lab.bridge.fcsolve import deal_board

    link = Path(tempfile.mkdtemp(prefix="bakers-lab-fc-")) / "fc-solve"
    link.symlink_to(BIN / "bakers-lab")
    seconds: dict[str, list[float]] = {m: [] for m in MODES}
    for _ in range(repeat):
        for d in deals:
            board = deal_board(d, "bakers_dozen")
            for mode in MODES:
                seconds[mode].append(timed([str(link), *FC_ARGS], mode, stdin=board))
    for mode, s in seconds.items():
        print(
            f"fcsolve: {mode:8} cold question, Baker's Dozen {deals.start}-{deals.stop - 1}: "
            f"median {statistics.median(s):.3f} s, largest {max(s):.3f} s"
        )


def speed(n: int, repeat: int) -> None:
    got: dict[str, list[dict]] = {m: [] for m in MODES}
    for _ in range(repeat):
        for mode in MODES:
            got[mode].append(child(SPEED.format(n=n), mode))
    for mode, runs in got.items():
        bar = statistics.median(r["bar"] for r in runs)
        surv = statistics.median(r["survey"] for r in runs)
        print(f"speed: {mode:8} deals 1-52 {bar:6.2f} s   survey of {n} deals {surv:6.2f} s")
    a, b = got["compiled"][0], got["numba"][0]
    same = a["rows"] == b["rows"] and a["nodes"] == b["nodes"] and a["outcomes"] == b["outcomes"]
    ratio = statistics.median(r["survey"] for r in got["compiled"]) / statistics.median(
        r["survey"] for r in got["numba"]
    )
    print(
        f"speed: compiled / numba survey time {ratio:.3f}; "
        f"every verdict, line and node count equal: {same}"
    )


def jobs(n: int, repeat: int) -> None:
    for mode in MODES:
        one = statistics.median(
            child(JOBS.format(n=n, jobs=1), mode)["seconds"] for _ in range(repeat)
        )
        two = statistics.median(
            child(JOBS.format(n=n, jobs=2), mode)["seconds"] for _ in range(repeat)
        )
        print(
            f"jobs: {mode:8} survey of {n} deals: 1 job {one:6.1f} s, 2 jobs {two:6.1f} s, "
            f"speed-up {one / two:.2f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="first,fcsolve,speed,jobs")
    ap.add_argument("--wheel", type=Path, default=None, help="the wheel (build/wheel/*.whl)")
    ap.add_argument("--fc-deals", default="1-100")
    ap.add_argument("--survey-deals", type=int, default=1000)
    ap.add_argument("--jobs-deals", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from bakers_lab.solve import kernels

    print(f"this environment: {kernels.MODE} {kernels.WHY}".rstrip())
    only = args.only.split(",")
    if "first" in only:
        wheel = args.wheel or next(iter(sorted((ROOT / "build/wheel").glob("*.whl"))), None)
        if wheel is None:
            sys.exit("benchmarks/compiled.py: no wheel: make wheel, or give --wheel")
        first(wheel)
    if "fcsolve" in only:
        lo, hi = (int(x) for x in args.fc_deals.split("-"))
        fcsolve(range(lo, hi + 1), 1)
    if "speed" in only:
        speed(args.survey_deals, args.repeat)
    if "jobs" in only:
        jobs(args.jobs_deals, args.repeat)


if __name__ == "__main__":
    main()
