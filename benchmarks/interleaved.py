"""Interleaved random-order searches over one shared table (Freecell Solver's
``hw`` preset), against the same searches with a table each: a measurement of
the third lead of issue 26, not yet part of the solver's portfolio.

``--threads`` depth-first searches, each taking children in its own random
order (the portfolio's ``rdfs``, seeds 1..K), split a budget of ``--budget``
generated nodes.  *Shared*: they run ``--step`` nodes at a time in turn and
share one table of positions seen, so each search avoids what the others have
entered.  *Separate*: each gets a table of its own and a K-th of the budget,
one after another (the portfolio's restarts).  Same seeds, same moves, same
dead-end tests and prunings (rules 1-7 of ``bakers_lab.solve.fast``); only
the table and the interleaving differ.  Every solution is replayed on the rule
engine.  With a shared table a search that runs dry proves nothing alone
(it skipped what the others had entered); when all do, the benchmark says
``dry`` (a proof, once branches cut by the depth cap are tracked, as the
solver does).

    python benchmarks/interleaved.py --variant good_measure --deals 74,168,1440
    python benchmarks/interleaved.py --variant good_measure --open --budget 3000000

``--open`` takes the deals the shipped table of the variant left unresolved.

Figures of 2026-12-02 (10 searches, steps of 500, 3,000,000 nodes a deal;
the deals the shipped tables left open at the default budget of 5,000,000):

- Good Measure, 87 open deals: shared solves 9 (74, 168, 298, 315, 355, 430,
  655, 947, 1746; 4,474 to 2,870,336 nodes), separate 9 (74, 192, 315, 355,
  947, 1379, 1746, 1777, 1994); 13 together.  About 6 s a deal on one core.
- Baker's Dozen 1-32,000, 24 open deals: shared solves 12723 (782,479
  nodes), separate 12723 and 30037 (2,177,975 and 1,851,954).
- Game 417: shared, 50,000,000 nodes (77 s), unresolved.

Every solution above replayed on the rule engine.  The shared table does not
pay on balance; what both have over the portfolio is run length (its
random-order runs get 3,000 to 20,000 nodes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bakers_lab as bl  # noqa: E402
from bakers_lab.solve import _codes as codes  # noqa: E402
from bakers_lab.solve import _core as C  # noqa: E402
from bakers_lab.solve import fast  # noqa: E402

SOLVED, DRY, PAUSED = 0, 1, 2


@njit(cache=True)
def _slice(b, env, tt, rng, mstack, base, nmov, idx, tp_at, held, keys, buf, trail, st, limit):
    """Run one search for up to ``limit`` generated nodes from where it paused.

    ``st`` = [depth, fresh, trail length, nodes so far, started].  The loop is
    the portfolio's depth-first search in a random order (``_core.dfs`` with
    ``shuffle=True``) with its state kept in arrays between slices."""
    decksize = 4 * env.P[codes.P_RANKS]
    mcap = mstack.shape[0]
    room = nmov.shape[0]
    depth, fresh, tp, nodes = st[0], st[1] == 1, st[2], 0
    if st[4] == 0:
        st[4] = 1
        tp = C.autoplay(b, env, trail, 0)
        if C.home_count(b) == decksize:
            st[2] = tp
            return SOLVED
        C.tt_seen(tt, b.hsh[0], b.hsh[1])
        fresh = True
    while True:
        if nodes >= limit:
            st[0], st[1], st[2] = depth, 1 if fresh else 0, tp
            st[3] += nodes
            return PAUSED
        if fresh:
            tp_at[depth] = tp
            n = C.gen_moves(b, env, buf)
            kept = 0
            for k in range(n):
                noise = np.int64(C.xorshift(rng) & np.uint64(1023))
                if C.moves_again(buf[k], held[depth]):
                    continue
                t2 = C.step(b, env, buf[k], trail, tp)
                nodes += 1
                if C.home_count(b) == decksize:
                    st[2] = t2
                    st[3] += nodes
                    return SOLVED
                if not C.tt_has(tt, b.hsh[0], b.hsh[1]):
                    keys[kept] = noise
                    buf[kept] = buf[k]
                    kept += 1
                C.undo_to(b, env, trail, t2, tp)
            for a in range(1, kept):
                kk, mm, c = keys[a], buf[a], a - 1
                while c >= 0 and keys[c] > kk:
                    keys[c + 1], buf[c + 1] = keys[c], buf[c]
                    c -= 1
                keys[c + 1], buf[c + 1] = kk, mm
            if base[depth] + kept > mcap:
                kept = 0  # out of room: the branch is cut
            mstack[base[depth] : base[depth] + kept] = buf[:kept]
            base[depth + 1] = base[depth] + kept
            nmov[depth] = kept
            idx[depth] = 0
            fresh = False
        if idx[depth] < nmov[depth]:
            m = mstack[base[depth] + idx[depth]]
            idx[depth] += 1
            tp = C.step(b, env, m, trail, tp)
            if C.tt_has(tt, b.hsh[0], b.hsh[1]) or C.is_lost(b, env, True, True):
                tp = C.undo_to(b, env, trail, tp, tp_at[depth])
                continue
            C.tt_seen(tt, b.hsh[0], b.hsh[1])
            if depth + 2 >= room:
                tp = C.undo_to(b, env, trail, tp, tp_at[depth])
            else:
                held[depth + 1] = C.just_moved(m, tp - tp_at[depth])
                depth += 1
                fresh = True
        else:
            if depth == 0:
                st[3] += nodes
                return DRY
            depth -= 1
            tp = C.undo_to(b, env, trail, tp, tp_at[depth])


def _thread(g: bl.GameState, env: Any, seed: int, max_depth: int) -> dict[str, Any]:
    r = g.rules
    cols, lens, piles, plen = fast._arrays(g)
    b = C.new_board(cols.copy(), lens.copy(), piles.copy(), plen.copy())
    C.init_board(b, env)
    moves = fast.move_buffer_size(r)
    return {
        "b": b,
        "rng": C.new_rng(seed),
        "mstack": np.empty(max_depth * 48 + moves, np.int64),
        "base": np.zeros(max_depth + 2, np.int64),
        "nmov": np.zeros(max_depth + 1, np.int64),
        "idx": np.zeros(max_depth + 1, np.int64),
        "tp_at": np.zeros(max_depth + 2, np.int64),
        "held": np.full(max_depth + 2, -1, np.int64),
        "keys": np.zeros(moves, np.int64),
        "buf": np.zeros(moves, np.int64),
        "trail": fast._trail(r, max_depth),
        "st": np.zeros(5, np.int64),
    }


def _run_slice(t: dict[str, Any], env: Any, tt: np.ndarray, limit: int) -> int:
    names = ("rng", "mstack", "base", "nmov", "idx", "tp_at", "held", "keys", "buf", "trail", "st")
    run: Any = _slice  # a numba dispatcher: its arguments are checked when it compiles
    return int(run(t["b"], env, tt, *(t[k] for k in names), limit))


def search(
    g: bl.GameState,
    budget: int,
    threads: int,
    step: int,
    shared: bool,
    tt_bits: int = 24,
    max_depth: int = 50_000,
) -> tuple[str, int, int]:
    """(outcome, nodes, moves of the replayed win or 0) of the K searches from ``g``."""
    env = fast.core_env(g.rules)
    ts = [_thread(g, env, seed, max_depth) for seed in range(1, threads + 1)]
    one = np.zeros((1 << tt_bits, 2), np.uint64)
    tables = [one] * threads if shared else [np.zeros((1 << (tt_bits - 2), 2), np.uint64)
                                            for _ in range(threads)]  # fmt: skip
    alive = [True] * threads
    share = budget if shared else budget // threads
    while any(alive):
        for k, t in enumerate(ts):
            if not alive[k]:
                continue
            left = (
                share - int(t["st"][3]) if not shared else budget - sum(int(x["st"][3]) for x in ts)
            )
            if left <= 0:
                alive[k] = False
                continue
            res = _run_slice(t, env, tables[k], min(step, left) if shared else left)
            if res == SOLVED:
                moves = fast.trail_moves(t["trail"], int(t["st"][2]))
                h = g.copy()
                h.play_all(list(moves))
                used = sum(int(x["st"][3]) for x in ts)
                return ("solved" if h.is_won else "REFUSED"), used, len(moves)
            if res == DRY:
                alive[k] = False
            if not shared and res == PAUSED and int(t["st"][3]) >= share:
                alive[k] = False
    used = sum(int(x["st"][3]) for x in ts)
    # every search ran dry: with one table, a proof once cut branches are tracked (not here)
    return ("dry" if used < budget else "unresolved"), used, 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="good_measure")
    ap.add_argument("--deals", default="74,168,1440")
    ap.add_argument("--open", action="store_true", help="the shipped table's open deals")
    ap.add_argument("--table", default=None, help="with --open: data/TABLE (VARIANT_1-2000)")
    ap.add_argument("--budget", type=int, default=3_000_000)
    ap.add_argument("--threads", type=int, default=10)
    ap.add_argument("--step", type=int, default=500)
    ap.add_argument("--modes", default="shared,separate")
    a = ap.parse_args(argv)
    if a.open:
        df = bl.read_survey(ROOT / "data" / (a.table or f"{a.variant}_1-2000"))
        df = df[(df["player"] == "solver") & (df["outcome"] == "unresolved")]
        deals = [int(d) for d in df["deal"]]
    else:
        deals = [int(x) for x in a.deals.split(",")]
    modes = a.modes.split(",")
    solved = dict.fromkeys(modes, 0)
    print(f"{a.variant}: {len(deals)} deals, {a.threads} searches, {a.budget:,} nodes a deal")
    for d in deals:
        g = bl.GameState.from_deal(bl.deal(d, a.variant))
        line = [f"{d:>6}"]
        for mode in modes:
            t0 = time.perf_counter()
            what, used, n = search(g, a.budget, a.threads, a.step, mode == "shared")
            solved[mode] += what == "solved"
            line.append(f"{mode} {what} {used:,} nodes {n} moves {time.perf_counter() - t0:.1f} s")
        print(" | ".join(line), flush=True)
    print("solved:", ", ".join(f"{m} {solved[m]} of {len(deals)}" for m in modes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
