"""Where were the players' games lost?  bl.explain on lost games of the shipped
survey, each answer checked from outside explain's code path.

For every lost game of the chosen players on a deal the solver won, explain
finds the move that lost it; the check replays the winning line from the
position before the move on the rule engine and proves the position after it
unsolvable with a fresh solve.  Prints counts per status, how many answers
were checked, and seconds per game (median / p90 / max).

    python benchmarks/coach.py --games 300 --jobs 2            # 300 per player
    python benchmarks/coach.py --players careful --games 50 --max-nodes 1000000
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from joblib import Parallel, delayed

import bakers_lab as bl
from bakers_lab.solve.fast import DEFAULT_MAX_NODES, solve

# the worker function pickles by value; it names module functions, not bl.solve (the
# callable package does not pickle)
from bakers_lab.study.coach import explain, position_after

DATA = Path(__file__).resolve().parent.parent / "data"


def check(deal: int, player: str, solution: str, max_nodes: int) -> tuple[str, bool, float]:
    """(status, checked, seconds) of one lost game."""
    t0 = time.perf_counter()
    e = explain(deal, solution, max_nodes=max_nodes)
    seconds = time.perf_counter() - t0
    ok = False
    if e.status == "lost_at":
        assert e.index is not None and e.move is not None
        before = position_after(deal, list(e.moves[: e.index]))
        after = position_after(deal, list(e.moves[: e.index + 1]))
        ok = (
            before.copy().play_all(list(e.winning_line)).is_won
            and e.winning_line[0] != e.move
            and solve(after, max_nodes=max_nodes).outcome == "unsolvable"
        )
    elif e.status == "still_winnable":
        ok = position_after(deal, solution).play_all(list(e.winning_line)).is_won
    return e.status, ok, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="careful,lookahead-2")
    ap.add_argument("--games", type=int, default=300, help="lost games per player (first ones)")
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    ap.add_argument("--jobs", type=int, default=-1)
    args = ap.parse_args()
    solver = bl.read_survey(DATA / "bakers_dozen_1-32000")
    solved = set(solver.loc[solver.outcome == "won", "deal"])
    t = bl.read_survey(DATA / "bakers_dozen_players_1-32000")
    todo = []
    for player in args.players.split(","):
        rows = t[(t.player == player) & (t.outcome == "lost") & t.deal.isin(solved)]
        todo += [(int(r.deal), player, r.solution) for r in rows.head(args.games).itertuples()]
    t0 = time.perf_counter()
    out = Parallel(n_jobs=args.jobs)(delayed(check)(d, p, s, args.max_nodes) for d, p, s in todo)
    wall = time.perf_counter() - t0
    for player in args.players.split(","):
        mine = [o for (_, p, _), o in zip(todo, out, strict=True) if p == player]
        counts = Counter(s for s, _, _ in mine)
        checked = sum(1 for s, ok, _ in mine if ok and s == "lost_at")
        secs = sorted(x for _, _, x in mine)
        p90 = statistics.quantiles(secs, n=10, method="inclusive")[-1] if len(secs) > 1 else secs[0]
        print(
            f"{player}: {len(mine)} lost games on winnable deals; "
            + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; lost_at answers checked (before solved and replayed, after proven "
            f"unsolvable): {checked} of {counts['lost_at']}; seconds per game median "
            f"{statistics.median(secs):.2f}, p90 {p90:.2f}, "
            f"max {secs[-1]:.2f}"
        )
    bad = [(todo[i], o) for i, o in enumerate(out) if o[0] in ("lost_at", "still_winnable")
           and not o[1]]  # fmt: skip
    print(f"failed checks: {len(bad)} {bad[:5]}; {wall:.0f} s wall, {args.jobs} jobs, "
          f"max_nodes {args.max_nodes:,}")  # fmt: skip


if __name__ == "__main__":
    main()
