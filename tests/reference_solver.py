"""A deliberately simple exhaustive search, independent of the fast solver.

No pruning at all, only duplicate detection: every position reachable by
legal moves of the rule engine (:class:`bakers_lab.GameState`) is visited.
It is slow and only meant for small decks, where it is the yardstick the
compiled solver must agree with.
"""

from __future__ import annotations

from bakers_lab import GameState


def is_solvable(start: GameState, limit: int = 2_000_000) -> bool:
    """True if some sequence of legal moves wins from ``start``.

    Raises RuntimeError if more than ``limit`` positions would be visited.
    """
    g = start.copy()
    seen = {g.key()}
    stack = [iter(g.legal_moves())]
    if g.is_won:
        return True
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                g.undo()
            continue
        g.play(move)
        if g.is_won:
            return True
        key = g.key()
        if key in seen:
            g.undo()
            continue
        seen.add(key)
        if len(seen) > limit:
            raise RuntimeError(f"more than {limit} positions")
        stack.append(iter(g.legal_moves()))
    return False
