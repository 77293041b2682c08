"""What a check found: frozen records with points for an autograder.

A report (:class:`SearchReport`, :class:`HeuristicReport`) is a list of
:class:`Check` s, each worth points (1 unless told otherwise), and the
:class:`Failure` s behind the failed ones: for each failed check the smallest
case that fails it, with the board, the lines or values side by side and one
sentence saying what the bug probably is.

- ``summary()``: one line; ``str(report)``: the whole report as text;
- ``points`` / ``possible``: for a grade (``score`` is their ratio;
  ``grade(3)`` scales it to a question worth 3 points); ``check(name)``: one check;
- ``assert_passed()``: raises ``AssertionError`` with the report when a check
  failed (an autograder's test cell needs nothing else);
- ``_repr_html_()``: the report as Jupyter shows it (drawn by
  :mod:`bakers_lab.teach.html`).

>>> c = Check("legal", "every line is legal and wins", True, 1.0, 1.0, "on 33 deals")
>>> r = SearchReport("breadth_first", (c,), (), 33, 1.5)
>>> r.summary()
'breadth_first: every check passed (1 of 1) on 33 deals'
>>> r.assert_passed()
>>> r.grade(3), r.check("legal").passed
(3.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from bakers_lab.teach.cases import Case
from bakers_lab.teach.html import report_html

__all__ = ["Check", "Failure", "HeuristicReport", "Informed", "Report", "SearchReport"]


@dataclass(frozen=True)
class Check:
    """One check: ``name`` (a short id), ``title`` (what it asks, in words),
    ``passed`` (``None`` when it could not be judged), the points earned out of
    ``possible`` and ``report`` (one or a few sentences)."""

    name: str
    title: str
    passed: bool | None
    points: float
    possible: float
    report: str

    def __str__(self) -> str:
        mark = {True: "passed", False: "FAILED", None: "not judged"}[self.passed]
        return f"[{mark}] {self.title}: {self.report}"


@dataclass(frozen=True)
class Failure:
    """The smallest case failing the check ``check``.

    ``sentence``: what went wrong and what the bug probably is; ``board``: the
    position as text (the deal, or the position of a counterexample) and
    ``position`` its board text for a picture (``""`` if none); ``lines``:
    labelled lines of moves shown side by side (``None``: no line, the search
    said there is none); ``values``: labelled values (h, the true distance, ...);
    ``trace``: the student's traceback, trimmed to their code.
    """

    check: str
    case: Case
    sentence: str
    board: str = ""
    position: str = ""
    lines: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    values: tuple[tuple[str, str], ...] = ()
    trace: str = ""

    def __str__(self) -> str:
        out = [f"On {self.case}: {self.sentence}"]
        if self.board:
            out.append(self.board)
        out += [f"  {label}: {value}" for label, value in self.values]
        if self.lines:
            out.append(_side_by_side(self.lines))
        if self.trace:
            out.append(self.trace)
        return "\n".join(out)


def _side_by_side(lines: tuple[tuple[str, tuple[str, ...] | None], ...]) -> str:
    """Labelled lines of moves in columns, one move a row, numbered."""
    cols = [[label] + (["(none)"] if moves is None else list(moves)) for label, moves in lines]
    widths = [max(len(x) for x in col) for col in cols]
    rows = max(len(col) for col in cols)
    out = []
    for i in range(rows):
        cells = [
            (col[i] if i < len(col) else "").ljust(w) for col, w in zip(cols, widths, strict=True)
        ]
        number = "   " if i == 0 else f"{i:>3}"
        out.append(f"  {number}  " + "   ".join(cells).rstrip())
    return "\n".join(out)


@dataclass(frozen=True)
class Report:
    """What every report of a student's submission shares: the checks with their points,
    the failures found, and the summary line."""

    subject: str
    checks: tuple[Check, ...]
    failures: tuple[Failure, ...]

    def summary(self) -> str:
        """One line: how many checks passed and, if any failed, the smallest failure."""
        raise NotImplementedError  # each report says what it was judged on

    @property
    def points(self) -> float:
        """Points earned."""
        return sum(c.points for c in self.checks)

    @property
    def possible(self) -> float:
        """Points possible."""
        return sum(c.possible for c in self.checks)

    @property
    def score(self) -> float:
        """Points earned over points possible (1.0: every check passed)."""
        return self.points / self.possible if self.possible else 1.0

    @property
    def passed(self) -> bool:
        """Whether every check passed."""
        return all(c.passed for c in self.checks)

    @property
    def failure(self) -> Failure | None:
        """The smallest failing case of all (smallest deck, then seed), if any."""
        return min(self.failures, key=lambda f: f.case, default=None)

    def _headline(self, scope: str) -> str:
        if self.passed:
            # checks, not points: an exercise's points are the grade's (report.grade(3))
            n = len(self.checks)
            return f"{self.subject}: every check passed ({n} of {n}) {scope}"
        failed = sum(c.passed is False for c in self.checks)
        unjudged = sum(c.passed is None for c in self.checks)
        first = self.failure
        if first is not None:
            where = f"; the smallest failing case, {first.case}: {first.sentence}"
            if str(first.case) in first.sentence:  # the sentence names it: not twice
                where = f"; the smallest failing case: {first.sentence}"
        else:
            where = "; " + next(c.report for c in self.checks if c.passed is not True)
        more = f", {unjudged} not judged" if unjudged else ""
        return f"{self.subject}: {failed} of {len(self.checks)} checks failed{more}{where}"

    def check(self, name: str) -> Check:
        """The check called ``name`` (``"shortest"``, ``"admissible"``, ...)."""
        for c in self.checks:
            if c.name == name:
                return c
        known = ", ".join(c.name for c in self.checks)
        raise ValueError(f"unknown check {name!r}; this report's checks: {known}")

    def grade(self, points: float) -> float:
        """``points`` times :attr:`score`, to 2 decimals: the partial credit of an
        nbgrader autograder cell whose last line is ``report.grade(3)`` (nbgrader
        reads a number shown by such a cell as its points)."""
        if isinstance(points, bool) or not isinstance(points, int | float) or points < 0:
            raise ValueError(f"points must be a number at least 0, not {points!r}")
        return round(points * self.score, 2)

    def assert_passed(self) -> None:
        """Raise ``AssertionError`` with the whole report unless every check passed."""
        if not self.passed:
            raise AssertionError(str(self))

    def _body(self) -> str:
        out = [str(c) for c in self.checks]
        for f in sorted(self.failures, key=lambda f: f.case):
            out += ["", str(f)]
        return "\n".join(out)


@dataclass(frozen=True)
class SearchReport(Report):
    """What :func:`~bakers_lab.teach.check_search` found: ``subject`` is the
    promise (``"breadth_first"``); ``deals`` how many deals the search was run
    on; ``seconds`` the time the check took."""

    deals: int
    seconds: float

    def summary(self) -> str:
        """One line: how many checks passed and, if any failed, the smallest failure."""
        return self._headline(f"on {self.deals} deals")

    def __str__(self) -> str:
        return self.summary() + "\n" + self._body()

    def _repr_html_(self) -> str:
        return report_html(self)


@dataclass(frozen=True)
class Informed:
    """How informed a heuristic is: ``mean_ratio`` is the mean of h / true distance
    over the positions that can be won and are not won yet (1.0: h is exact)."""

    name: str
    mean_ratio: float
    admissible: bool


@dataclass(frozen=True)
class HeuristicReport(Report):
    """What :func:`~bakers_lab.teach.check_heuristic` found: ``subject`` is the
    heuristic's name; ``positions`` how many positions it rated; ``informed``
    its row and the library's heuristics' rows (its own first)."""

    positions: int
    informed: tuple[Informed, ...]
    seconds: float

    def summary(self) -> str:
        """One line: how many checks passed and, if any failed, the smallest failure."""
        return self._headline(f"on {self.positions:,} positions")

    def __str__(self) -> str:
        table = ["", "How informed (mean of h / true distance; 1.0 is exact):"]
        table += [
            f"  {i.name:<16} {i.mean_ratio:.3f}{'' if i.admissible else '  (not admissible)'}"
            for i in self.informed
        ]
        return self.summary() + "\n" + self._body() + "\n".join(table)

    def _repr_html_(self) -> str:
        return report_html(self)
