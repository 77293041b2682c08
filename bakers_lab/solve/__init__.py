"""Solvers: the compiled batch solver (:mod:`.fast`); teaching searches and
human-like players come later (:mod:`.search`, :mod:`.players`)."""

from .fast import DEFAULT_MAX_NODES, SolveResult, SolverError, solve

__all__ = ["DEFAULT_MAX_NODES", "SolveResult", "SolverError", "solve"]
