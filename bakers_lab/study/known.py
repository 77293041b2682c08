"""The solver's verdicts that the shipped tables already hold, for pages that
must answer at once.

The package carries the solver's outcome on every deal of the shipped surveys
(Baker's Dozen 1-32,000, the other presets 1-2,000) in its compact table,
``bakers_lab/outcomes.parquet``.  The solver is deterministic, so for such a
deal :func:`known_verdict` gives what :func:`~bakers_lab.solve.fast.solve`
would find, without the search:

- a proof that the deal cannot be won holds whatever the budget;
- a search that stopped unsettled after the shipped budget
  (:data:`SHIPPED_BUDGET` positions, the solver's default) stops the same way
  again with that budget, after the same number of positions.

A deal the solver won is not answered from the table: the compact table has no
moves, and a winning line counts only when the rule engine has replayed it, so
those deals are solved (they are the quick ones).

>>> r = known_verdict(64)
>>> r.outcome, r.proof, r.deal
('unsolvable', 'deadlock', 64)
>>> known_verdict(1) is None  # winnable: the solver finds and replays the line
True
>>> known_verdict(417).outcome, known_verdict(417, budget=1000) is None
('unresolved', True)
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pandas as pd

from bakers_lab.files.datadir import COMPACT_FILE
from bakers_lab.model.deals import game_number
from bakers_lab.model.rules import rules
from bakers_lab.solve.fast import DEFAULT_MAX_NODES, PROOFS, Proof, SolveResult

__all__ = ["SHIPPED_BUDGET", "known_verdict", "load_verdicts"]

#: The solver's budget in every shipped survey (a test keeps data/'s manifests to it).
SHIPPED_BUDGET = DEFAULT_MAX_NODES

_Row = tuple[str, int, Proof | None]


@lru_cache(maxsize=1)
def _verdicts() -> dict[tuple[str, int], _Row]:
    """{(variant, deal): (outcome, nodes, proof)} for the solver's lost and
    unsettled rows of the shipped compact table (read once, about 0.4 s)."""
    shipped = resources.files("bakers_lab").joinpath(COMPACT_FILE)
    with resources.as_file(shipped) as path:
        if not path.is_file():
            return {}
        t = pd.read_parquet(
            path,
            columns=["deal", "variant", "outcome", "nodes", "proof"],
            filters=[("player", "==", "solver"), ("outcome", "!=", "won")],
        )
    proofs = t["proof"].astype(object).where(t["proof"].notna(), None)
    by_name: dict[object, Proof | None] = {p: p for p in PROOFS}
    return {
        (str(v), int(d)): (str(o), int(n), by_name.get(p))
        for v, d, o, n, p in zip(
            t["variant"], t["deal"], t["outcome"], t["nodes"], proofs, strict=True
        )
    }


def load_verdicts() -> int:
    """Read the shipped verdicts now (once a process, about 0.4 s), so that the
    first :func:`known_verdict` answers at once; how many there are.

    >>> load_verdicts() > 0
    True
    """
    return len(_verdicts())


def known_verdict(
    deal: int, variant: str = "bakers_dozen", *, budget: int = SHIPPED_BUDGET
) -> SolveResult | None:
    """The solver's result on game ``deal`` of ``variant`` with ``budget``
    positions, as the shipped tables hold it, or ``None`` where they do not
    settle it (a deal outside them, a winnable deal, or an unsettled search made
    with another budget).  ``seconds`` is 0: nothing was searched now.

    >>> known_verdict(64, "good_measure") is None  # Good Measure 64 is winnable
    True
    """
    row = _verdicts().get((rules(variant).name, game_number(deal)))
    if row is None:
        return None
    outcome, nodes, proof = row
    if outcome == "lost":
        return SolveResult("unsolvable", nodes=nodes, variant=variant, deal=deal, proof=proof)
    if budget != SHIPPED_BUDGET:
        return None
    return SolveResult("unresolved", nodes=nodes, variant=variant, deal=deal)
