"""Compile the searches into numba's cache, before the tests, where numba serves.

Set-up builds the searches ahead of time (``make venv``, ``make kernels``:
:mod:`bakers_lab.solve.kernels`); then this does nothing.  Where numba serves instead
(``BAKERS_LAB_JIT=1``, as CI runs the solver's tests a second time), it compiles them
first, as follows.

The test workers and the many processes the tests start (the command line, survey
workers, notebook kernels) then load the compiled searches from numba's cache instead
of each compiling them again.  ``tests/conftest.py`` runs it before every test session
(``make test``, a plain ``pytest``): two seconds when the cache is warm, about a minute
after a change to the compiled searches.
"""

from __future__ import annotations

import subprocess
import sys
import time

#: The layered search's kernels that a proof of a loss leaves out (a table grown, a
#: winning line rebuilt), called on their own.
_LAYERED = (
    "import numpy as np; from bakers_lab.solve import fast, kernels; "
    "kernels.regrow(np.zeros((4, 2), np.uint64), np.zeros((8, 2), np.uint64)); "
    "g = bl.GameState.from_deal(bl.deal(1)); "
    "kernels.hashes(fast.core_board(g, fast.core_env(g.rules)))"
)

#: What compiles each compiled search, in two stages: the solver alone first (A* and the
#: players call its compiled core: started beside it, each compiled the core again), then
#: A* and the players side by side.
STAGES = (
    ("import bakers_lab as bl; bl.solve(1)",),
    (
        "import bakers_lab as bl; bl.shortest(1)",
        "import bakers_lab as bl; bl.prove(5143, probes=False); " + _LAYERED,
        "import bakers_lab as bl; [bl.play(1, p) for p in ('greedy', 'search-1', 'undo-1')]",
    ),
)


def warm() -> float:
    """Compile (or load) every search in child processes; the seconds it took.  Raises
    RuntimeError with the child's error output if one fails.  A compile to come (about
    a minute) is said first, on standard error, in the command line's words."""
    from bakers_lab.solve import kernels
    from bakers_lab.solve.compiled import compile_notice

    start = time.monotonic()
    if kernels.MODE != "numba":  # built with the package: nothing to compile
        return 0.0
    said = compile_notice("solver", "shortest", "players")
    if said:
        print(f"tests/warm.py: {said}", file=sys.stderr, flush=True)
    for stage in STAGES:
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            for code in stage
        ]
        failed = []
        for p, code in zip(procs, stage, strict=True):
            _, err = p.communicate()
            if p.returncode != 0:
                failed.append(f"compiling the searches failed ({code}):\n{err.decode()}")
        if failed:
            raise RuntimeError("\n".join(failed))
    return time.monotonic() - start


if __name__ == "__main__":
    try:
        seconds = warm()
    except RuntimeError as exc:
        sys.exit(str(exc))
    if seconds > 10:
        print(f"compiled the searches into numba's cache in {seconds:.0f} s", file=sys.stderr)
