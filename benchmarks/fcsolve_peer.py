"""Freecell Solver (``fc-solve``) as the peer solver for Good Measure benchmarks.

Debian's ``freecell-solver-bin`` package (``apt-get install freecell-solver-bin``,
``fc-solve`` 5.0.0) reads a board in the same text format that
``bakers_lab.deal(n, variant="good_measure").to_text()`` produces: a
``Foundations: H-x C-x D-x S-x`` line, then one line per column, cards listed
bottom to top.  An empty column may be given as a lone ``:`` line, ``": "`` or a
blank line; a column line may also be prefixed with ``": "``.  Omitting an
empty column's line altogether (or writing ``-``) is rejected with
"Not enough input."  Debian's build is compiled for at most 10 stacks, so
``-g bakers_dozen`` (13 stacks) is refused ("exceeds the maximal number of
stacks"); Good Measure (10 stacks) works.

Command line used for one board (board text on stdin, ``-`` = stdin)::

    FREECELL_SOLVER_QUIET=1 fc-solve -g good_measure <options> -sel -m -mi <max_iters> -

``-sel`` (``--show-exceeded-limits``) makes an iteration-limit stop print
"Iterations count exceeded." instead of the ambiguous "I could not solve this
game."; ``-m`` prints the solution as moves rather than as full states.
``fc-solve`` exits 0 for all three verdicts, so the outcome is read from
stdout:

* ``"This game is solveable."``        -> ``"solved"``
* ``"I could not solve this game."``   -> ``"unsolvable"`` (search space exhausted)
* ``"Iterations count exceeded."``     -> ``"unresolved"`` (``-mi`` cap reached)
* the wall-clock ``timeout`` expiring (process killed) -> ``"unresolved"``

The iteration count is taken from ``"Total number of states checked is N."``.
Anything else (non-zero exit, e.g. a parse error or a crash) raises
:class:`FcSolveError`.

Option sets were compared on Good Measure deals 1-100, one fc-solve at a time
on a 2-core machine.  Screening at ``-mi 300000`` (solved/unsolvable/
unresolved, total s): te 53/11/36 32s, eo 52/11/37 43s, hw 52/10/38 34s,
tic 49/10/41, as 48/11/41, by 47, fn 46, obf 45, ct 45, cj 42, gi 42, ak 39,
lg 37, cm 37, jgl 37, rtt 35, ybr 31, default_tf/atomic_tf 31/12/57,
default/atomic 29/10/61 54s, cn 27, tfts 28, rdfs1 26, befs 24, fg 24.
At the default ``-mi 1500000`` / 20 s: hw 68/12/20 130s, eo 66/12/22 135s,
te 64/12/24 137s, default 38/12/50 247s.  Deals 1-1000 with ``hw``:
678 solved, 56 unsolvable, 266 unresolved, 1560 s total (median 0.26 s;
unresolved deals average 4.6 s, all stopped by the iteration cap).  No option set ever called a deal
"unsolvable" that another solved.  Memory grows to about 1.5 GB at 1.5M
iterations (an uncapped run of deal 3 exhausted 24 GB).

Run as a script::

    python benchmarks/fcsolve_peer.py --deals 1-100 --options lg
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter

FC_SOLVE = "fc-solve"

#: Option sets tried on Good Measure deals 1-100 (see module notes / ``main``).
#: Names of the form of a preset acronym use ``-l`` presets shipped in
#: /usr/share/freecell-solver/presetrc (tuned for Freecell, but they only set
#: scan parameters, so they combine with ``-g good_measure``).
FC_SOLVE_OPTIONS: dict[str, list[str]] = {
    # good_measure preset's own moves order, soft-DFS
    "default": [],
    "default_tf": ["-sp", "r:tf"],
    # atomic moves (the help text's advice against false "unsolvable" verdicts)
    "atomic": ["-to", "01ABCDE"],
    "atomic_tf": ["-to", "01ABCDE", "-sp", "r:tf"],
    # random DFS; without [groups] in -to the order is not randomised
    "rdfs1": ["--method", "random-dfs", "-seed", "1"],
    "rdfs1_grouped": ["--method", "random-dfs", "-seed", "1", "-to", "[01][23456789]"],
    # best-first search
    "befs": ["--method", "a-star"],
    # shipped presets ("-l NAME"); several soft threads switching every 500 iterations
    "lg": ["-l", "lg"],  # looking-glass
    "cm": ["-l", "cm"],  # cookie-monster
    "obf": ["-l", "obf"],  # one-big-family
    "as": ["-l", "as"],  # amateur-star
    "cj": ["-l", "cj"],  # cool-jives
    "fg": ["-l", "fg"],  # fools-gold (atomic)
    "cn": ["-l", "cn"],  # crooked-nose (atomic, "accurate verdict")
    "tfts": ["-l", "tfts"],  # toons-for-twenty-somethings (atomic)
    "gi": ["-l", "gi"],  # good-intentions: cool-jives, then fools-gold
    "te": ["-l", "te"],  # three-eighty
    "ct": ["-l", "ct"],  # conspiracy-theory
    "eo": ["-l", "eo"],  # enlightened-ostrich
    "fn": ["-l", "fn"],  # foss-nessy
    "tic": ["-l", "tic"],  # the-iglu-cabal
    "by": ["-l", "by"],  # blue-yonder
    "ybr": ["-l", "ybr"],  # yellow-brick-road
    "rtt": ["-l", "rtt"],  # rin-tin-tin
    "hw": ["-l", "hw"],  # hello-world: 10 random-DFS threads, seeds 1-10
    "ak": ["-l", "ak"],  # abra-kadabra
    "jgl": ["-l", "jgl"],  # john-galt-line
    # Not usable: flare presets with "--flares-choice fcpro" (qsi) abort in
    # fc_pro_iface.c on Good Measure boards (assertion / SIGSEGV).
}

#: Best option set on Good Measure deals 1-100 (most solved, then least time).
BEST = "hw"

DEFAULT_MAX_ITERS = 1_500_000
DEFAULT_TIMEOUT = 20.0

_SOLVED = "This game is solveable."
_UNSOLVABLE = "I could not solve this game."
_EXCEEDED = "Iterations count exceeded."
_ITERS_RE = re.compile(r"Total number of states checked is (\d+)\.")


class FcSolveError(RuntimeError):
    """``fc-solve`` failed (bad board, crash) or printed no recognised verdict."""


def available() -> bool:
    """Return True when ``fc-solve`` is on PATH."""
    return shutil.which(FC_SOLVE) is not None


def command(
    variant: str = "good_measure",
    options: list[str] | None = None,
    max_iters: int = DEFAULT_MAX_ITERS,
) -> list[str]:
    """The argv used by :func:`solve_board` (board read from stdin)."""
    opts = FC_SOLVE_OPTIONS[BEST] if options is None else options
    return [FC_SOLVE, "-g", variant, *opts, "-sel", "-m", "-mi", str(max_iters), "-"]


def solve_board(
    board_text: str,
    variant: str = "good_measure",
    options: list[str] | None = None,
    max_iters: int = DEFAULT_MAX_ITERS,
    timeout: float = DEFAULT_TIMEOUT,
) -> tuple[str, float, int | None]:
    """Run ``fc-solve`` on one board.

    Returns ``(outcome, wall_seconds, iterations)`` where outcome is
    ``"solved"``, ``"unsolvable"`` (search exhausted) or ``"unresolved"``
    (iteration cap or wall-clock timeout); iterations is ``None`` on timeout.
    ``options`` defaults to ``FC_SOLVE_OPTIONS[BEST]``.
    """
    if not board_text.endswith("\n"):
        board_text += "\n"
    argv = command(variant, options, max_iters)
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            argv,
            input=board_text,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "unresolved", time.perf_counter() - start, None
    elapsed = time.perf_counter() - start
    out = proc.stdout
    if proc.returncode != 0:
        raise FcSolveError(
            f"fc-solve exited {proc.returncode}: {(proc.stderr or out).strip()[-500:]}"
        )
    found = _ITERS_RE.findall(out)
    iters = int(found[-1]) if found else None
    if _SOLVED in out:
        return "solved", elapsed, iters
    if _EXCEEDED in out:
        return "unresolved", elapsed, iters
    if _UNSOLVABLE in out:
        return "unsolvable", elapsed, iters
    raise FcSolveError(f"no verdict in fc-solve output: {out.strip()[-500:]}")


def parse_deals(spec: str) -> list[int]:
    """Parse ``"1-100"``, ``"7"`` or ``"1-5,9,20-22"`` into deal numbers."""
    deals: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            lo, hi = part.split("-", 1)
            deals.extend(range(int(lo), int(hi) + 1))
        else:
            deals.append(int(part))
    return deals


def main(argv: list[str] | None = None) -> int:
    """Solve a range of PySolFC deals with fc-solve and print a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-100", help="e.g. 1-100 or 1-5,9")
    parser.add_argument(
        "--options",
        default=BEST,
        choices=sorted(FC_SOLVE_OPTIONS),
        help=f"named fc-solve option set (default: {BEST})",
    )
    parser.add_argument("--variant", default="good_measure")
    parser.add_argument("--max-iters", type=int, default=DEFAULT_MAX_ITERS)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("--quiet", action="store_true", help="summary only")
    args = parser.parse_args(argv)

    if not available():
        print("fc-solve not found; apt-get install freecell-solver-bin", file=sys.stderr)
        return 2

    import bakers_lab as bl

    options = FC_SOLVE_OPTIONS[args.options]
    print("# " + " ".join(command(args.variant, options, args.max_iters)))
    counts: Counter[str] = Counter()
    times: list[float] = []
    for n in parse_deals(args.deals):
        text = bl.deal(n, variant=args.variant).to_text()
        try:
            outcome, secs, iters = solve_board(
                text, args.variant, options, args.max_iters, args.timeout
            )
        except FcSolveError as exc:
            outcome, secs, iters = "error", 0.0, None
            print(f"# deal {n}: {exc}", file=sys.stderr)
        counts[outcome] += 1
        times.append(secs)
        if not args.quiet:
            print(f"{n}\t{outcome}\t{secs:.3f}\t{'' if iters is None else iters}", flush=True)
    total = sum(times)
    median = statistics.median(times) if times else 0.0
    summary = " ".join(f"{k}={counts[k]}" for k in ("solved", "unsolvable", "unresolved", "error"))
    print(
        f"# options={args.options} deals={len(times)} {summary} "
        f"total_s={total:.1f} median_s={median:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
