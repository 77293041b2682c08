"""Checks a class can hand in: is a student's search or heuristic right, and if not, why?

- :func:`check_search` runs a student's search on classroom deals it has not
  seen and judges it against the reference algorithms of
  :mod:`bakers_lab.solve.search`;
- :func:`check_heuristic` tests a student's heuristic against true distances,
  over every position reachable from many classroom deals.

Both return a report (:class:`SearchReport`, :class:`HeuristicReport`): checks
worth points, the smallest failing case of each, a one-line ``summary()``, a
picture in Jupyter.
"""

from bakers_lab.teach.cases import HEURISTIC_CASES, SEARCH_CASES, Case, flicker
from bakers_lab.teach.heuristic_check import check_heuristic
from bakers_lab.teach.results import Check, Failure, HeuristicReport, Informed, SearchReport
from bakers_lab.teach.search_check import PROMISES, Promise, ReferenceRuns, check_search

__all__ = [
    "HEURISTIC_CASES",
    "PROMISES",
    "SEARCH_CASES",
    "Case",
    "Check",
    "Failure",
    "HeuristicReport",
    "Informed",
    "Promise",
    "ReferenceRuns",
    "SearchReport",
    "check_heuristic",
    "check_search",
    "flicker",
]
