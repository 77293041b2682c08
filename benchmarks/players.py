"""Players benchmark: games per second of each human-like player on one core, with and
without the rule engine's replay of every game, against a plain-Python greedy player
on GameState (the peer: what the players would cost without the compiled core), in
the same run.  Medians of --repeat runs; peak memory at the end.

    python benchmarks/players.py --deals 1-300 --repeat 3

Figures are printed, not asserted (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import bakers_lab as bl
from bakers_lab.solve.players import MAX_DECISIONS, PATIENCE, Player, _game
from bakers_lab.study.survey import parse_deals


def python_greedy(deal: bl.Deal) -> bool:
    """The peer: greedy's rule (home moves first, else dig toward the next wanted
    card) written over GameState in plain Python, with the same patience."""
    g = bl.GameState.from_deal(deal)
    seen = {g.key()}
    stall = 0
    while not g.is_won and stall < PATIENCE:
        best, best_key = None, None
        home = g.cards_home
        for m in g.legal_moves():
            g.play(m)
            key = g.key()
            g.undo()
            if key in seen:
                continue
            k: tuple[int, ...]
            if m.to is bl.Dest.FOUNDATION:
                k = (0, 0)
            else:
                col = next(c for c in g.columns if c and c[-1] == m.card)
                wanted = [len(col) - 1 - j for j, c in enumerate(col)
                          if c.rank == len(g.foundations[c.suit]) + 1]  # fmt: skip
                k = (1, min(wanted) if wanted else 1023, -len(col))
            if best_key is None or k < best_key:
                best, best_key = m, k
        if best is None:
            return False
        g.play(best)
        seen.add(g.key())
        stall = 0 if g.cards_home > home else stall + 1
    return g.is_won


def compiled_only(deals: list[bl.Deal], name: str) -> float:
    """Seconds the compiled player alone takes (no replay, no Move objects)."""
    who = Player.parse(name)
    t = 0.0
    for d in deals:
        g = bl.GameState.from_deal(d)
        t0 = time.perf_counter()
        _game(g, d.number, who, MAX_DECISIONS, PATIENCE)
        t += time.perf_counter() - t0
    return t


def slow(name: str) -> bool:
    """Players that get the --deep-deals only: look-ahead 3 and deeper, and planners
    that consider more than 3,000 positions a move or take back more than 10,000."""
    who = Player.parse(name)
    return who.depth >= 3 or who.dial > (3_000 if who.policy == "search" else 10_000)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-300")
    ap.add_argument("--variant", default="bakers_dozen")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", default="random,greedy,careful,lookahead-2,lookahead-3,"
                    "search-100,search-1000,undo-100,undo-10000")  # fmt: skip
    ap.add_argument("--deep-deals", type=int, default=60,
                    help="deals for lookahead-3 and deeper (slow)")  # fmt: skip
    args = ap.parse_args(argv)
    numbers = parse_deals(args.deals)
    deals = [bl.deal(n, variant=args.variant) for n in numbers]
    for name in args.players.split(","):
        bl.play(deals[0], name)  # load the compiled code first
    print(f"{args.variant}, deals {args.deals}, medians of {args.repeat} runs, one core")
    for name in args.players.split(","):
        batch = deals[: args.deep_deals] if slow(name) else deals
        full, bare, wins = [], [], 0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            wins = sum(bl.play(d, name).won for d in batch)
            full.append(len(batch) / (time.perf_counter() - t0))
            bare.append(len(batch) / compiled_only(batch, name))
        with_replay, alone = statistics.median(full), statistics.median(bare)
        print(f"{name:>12}: {with_replay:7.1f} games/s with the replay, "
              f"{alone:7.1f} compiled alone; won {wins} of {len(batch)}")  # fmt: skip
    peer_deals = deals[: min(len(deals), 50)]
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        peer_wins = sum(python_greedy(d) for d in peer_deals)
        times.append(len(peer_deals) / (time.perf_counter() - t0))
    ours = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for d in peer_deals:
            bl.play(d, "greedy")
        ours.append(len(peer_deals) / (time.perf_counter() - t0))
    peer, mine = statistics.median(times), statistics.median(ours)
    print(f"peer, plain-Python greedy on GameState: {peer:.1f} games/s "
          f"(won {peer_wins} of {len(peer_deals)}); bakers_lab greedy on the same deals "
          f"{mine:.1f} games/s: {mine / peer:.0f}x")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS) {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
