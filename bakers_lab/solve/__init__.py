"""Solvers.  ``bakers_lab.solve(position)`` solves a deal or position: see
:func:`bakers_lab.solve.fast.solve`.

This package is itself callable, so that both ``bl.solve(deal)`` (the
contract of the design) and ``import bakers_lab.solve.fast`` work: a plain
function named ``solve`` would hide the package from ``import … as``.

- :mod:`.fast`: the compiled batch solver (numba), certified results.
- :mod:`.players`: human-like players (random, greedy, careful, lookahead-k).
- :mod:`.search`, :mod:`.heuristics`: the teaching searches (breadth-first …
  IDA*) on a Problem/Node interface, with traces, for small classroom decks.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from bakers_lab.solve.fast import DEFAULT_MAX_NODES, SolverError, SolveResult, solve

__all__ = ["DEFAULT_MAX_NODES", "SolveResult", "SolverError", "solve"]


class _CallablePackage(types.ModuleType):
    """A module that calls :func:`.fast.solve` when called."""

    def __call__(self, *args: Any, **kwargs: Any) -> SolveResult:
        return solve(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
