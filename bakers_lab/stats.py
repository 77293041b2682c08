"""Win rates with confidence intervals.

>>> lo, hi = wilson_interval(75, 100)
>>> round(lo, 3), round(hi, 3)
(0.657, 0.825)
"""

from __future__ import annotations

import math

import pandas as pd

__all__ = ["wilson_interval", "win_rates"]


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95 % by default).

    Well behaved at 0 and at ``trials``, unlike the normal approximation.
    ``trials == 0`` gives ``(0.0, 1.0)``: nothing is known.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Win rate per (variant, player) of a survey table, over the resolved deals.

    Columns: ``deals``, ``won``, ``lost``, ``unresolved``, ``rate`` (won /
    (won + lost)), ``ci_low``, ``ci_high`` (95 % Wilson interval of the rate).
    For the solver, *won* means solvable.  Unresolved deals are counted, not
    guessed: if all of them were losses the rate would be ``won / deals``.
    """
    rows = []
    for (variant, player), g in table.groupby(["variant", "player"], observed=True, sort=True):
        counts = g["outcome"].astype(str).value_counts()
        won, lost = int(counts.get("won", 0)), int(counts.get("lost", 0))
        unresolved = int(counts.get("unresolved", 0))
        resolved = won + lost
        lo, hi = wilson_interval(won, resolved)
        rows.append(
            {
                "variant": str(variant),
                "player": str(player),
                "deals": len(g),
                "won": won,
                "lost": lost,
                "unresolved": unresolved,
                "rate": won / resolved if resolved else float("nan"),
                "ci_low": lo,
                "ci_high": hi,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "variant",
            "player",
            "deals",
            "won",
            "lost",
            "unresolved",
            "rate",
            "ci_low",
            "ci_high",
        ],
    )
