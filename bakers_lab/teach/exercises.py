"""The exercises notebook: the teacher's copy, the student's copy, and one small check.

The teacher's copy (``bakers_lab/teach/exercises_teacher.ipynb``) is written for
nbgrader: each answer cell carries nbgrader's metadata and its solution between
``### BEGIN SOLUTION`` and ``### END SOLUTION``; each check cell calls
:func:`~bakers_lab.teach.check_search` or :func:`~bakers_lab.teach.check_heuristic`
and ends in ``report.grade(points)``, the partial credit nbgrader's autograder
reads.  Its first cell, "For teachers", says how to grade a class.  The student's
copy is the one in ``notebooks/`` (what ``bakers-lab notebooks DIR`` copies out); a
test keeps it equal to :func:`student_copy` of the teacher's.

- :func:`student_copy` strips the solutions as ``nbgrader generate_assignment``
  does (nbgrader's code stub ``# YOUR CODE HERE`` / ``raise NotImplementedError()``,
  its text stub ``YOUR ANSWER HERE``), drops the cells for teachers only and clears
  outputs; it needs no nbgrader;
- :func:`write_exercises` writes either copy into a folder (what
  ``bakers-lab exercises --out DIR [--solutions]`` runs);
- :func:`check_overestimate`: the check of the question on ``burial``: a
  position where a heuristic says more moves than the win needs.

>>> nb = exercises_notebook()
>>> student = student_copy(nb)
>>> any(SOLUTION_BEGIN in c["source"] for c in student["cells"])
False
>>> r = check_overestimate(lambda s: 5, "Foundations: H-3 C-3 D-3 S-2\\n:\\n3S\\n")
>>> r.summary()
'<lambda>: every check passed (1 of 1) on 1 position'
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from bakers_lab.files.userfile import write_user_file
from bakers_lab.model.game import GameState
from bakers_lab.solve.search import CLASSROOM, breadth_first
from bakers_lab.teach.results import Check, Report
from bakers_lab.teach.sandbox import said
from bakers_lab.utils.validate import describe, shown

__all__ = [
    "CODE_STUB",
    "FILE_NAME",
    "SOLUTION_BEGIN",
    "SOLUTION_END",
    "TEACHER_FILE",
    "TEXT_STUB",
    "CounterexampleReport",
    "check_overestimate",
    "exercises_notebook",
    "student_copy",
    "teacher_only",
    "write_exercises",
]

#: The notebook's file name (the student's copy in ``notebooks/``, and either copy as
#: written by :func:`write_exercises`).
FILE_NAME = "05_exercises.ipynb"
#: The teacher's copy, in the package beside this module (never in ``notebooks/``).
TEACHER_FILE = "exercises_teacher.ipynb"
#: nbgrader's delimiters of a solution region, and its stubs for a Python notebook.
SOLUTION_BEGIN = "### BEGIN SOLUTION"
#: nbgrader's end of a solution region.
SOLUTION_END = "### END SOLUTION"
#: What nbgrader puts in place of a code solution in the students' copy.
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
#: What nbgrader puts in place of an answer in words in the students' copy.
TEXT_STUB = "YOUR ANSWER HERE"

Notebook = dict[str, Any]


def exercises_notebook() -> Notebook:
    """The teacher's notebook (with solutions, and a first cell for teachers), as JSON."""
    text = files("bakers_lab.teach").joinpath(TEACHER_FILE).read_text(encoding="utf-8")
    nb: Notebook = json.loads(text)
    return nb


def _source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _strip(source: str, stub: str, where: str) -> str:
    """``source`` with each solution region replaced by ``stub``, indented as the
    region's first line (what nbgrader's ``ClearSolutions`` does)."""
    out: list[str] = []
    inside = False
    for line in source.split("\n"):
        if SOLUTION_BEGIN in line:
            if inside:
                raise ValueError(f"{where}: a solution region begins inside another")
            inside = True
            indent = re.match(r"\s*", line)
            out += [(indent.group(0) if indent else "") + s for s in stub.split("\n")]
        elif SOLUTION_END in line:
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{where}: a solution region has no {SOLUTION_END!r}")
    return "\n".join(out)


def teacher_only(cell: dict[str, Any]) -> bool:
    """Whether ``cell`` is for teachers only (its metadata ``bakers_lab.teacher_only``):
    the student's copy leaves it out."""
    return bool(cell.get("metadata", {}).get("bakers_lab", {}).get("teacher_only", False))


def student_copy(nb: Notebook) -> Notebook:
    """The student's copy of ``nb``: every solution region replaced by nbgrader's
    stub, a solution cell without a region (a Markdown answer) by the text stub,
    the cells for teachers only left out, and every output cleared.

    >>> cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 3,
    ...         "source": "def f():\\n    ### BEGIN SOLUTION\\n    return 1\\n    ### END SOLUTION"}
    >>> student_copy({"cells": [cell]})["cells"][0]["source"]
    'def f():\\n    # YOUR CODE HERE\\n    raise NotImplementedError()'
    """
    out = copy.deepcopy(nb)
    out["cells"] = [c for c in out.get("cells", []) if not teacher_only(c)]
    for i, cell in enumerate(out["cells"]):
        src = _source(cell)
        stub = CODE_STUB if cell.get("cell_type") == "code" else TEXT_STUB
        if SOLUTION_BEGIN in src:
            cell["source"] = _strip(src, stub, f"cell {i}")
        elif cell.get("metadata", {}).get("nbgrader", {}).get("solution", False):
            cell["source"] = stub
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return out


def write_exercises(out: str | Path, *, solutions: bool = False, force: bool = False) -> Path:
    """Write the exercises notebook into the folder ``out`` (made if missing): the
    student's copy, or with ``solutions`` the teacher's.  An existing file is
    kept unless ``force``.  Returns the file written.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_exercises(d).name
    '05_exercises.ipynb'
    """
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"out {shown(repr(str(folder)), 300)} exists and is not a directory")
    target = folder / FILE_NAME
    if target.is_symlink():
        raise ValueError(
            f"out {shown(repr(str(folder)), 300)} holds {FILE_NAME} as a symbolic link: no "
            "file is written through one; remove it or choose another folder"
        )
    if target.exists() and not force:
        raise ValueError(
            f"out {shown(repr(str(folder)), 300)} already holds {FILE_NAME}: "
            "choose another folder, or add --force to overwrite it"
        )
    nb = exercises_notebook()
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(nb if solutions else student_copy(nb), indent=1, ensure_ascii=False)
    write_user_file(target, (text + "\n").encode("utf-8"))  # whole or not at all
    return target


@dataclass(frozen=True, repr=False)
class CounterexampleReport(Report):
    """What :func:`check_overestimate` found: one check, worth 1 point; ``board``:
    the position as text (``""`` if it could not be read)."""

    board: str
    seconds: float

    def summary(self) -> str:
        """One line: whether the position shows the heuristic overestimating."""
        return self._headline("on 1 position")

    def __str__(self) -> str:
        return self.summary() + "\n" + self._body() + ("\n" + self.board if self.board else "")

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from html import escape

        from bakers_lab.teach.html import report_html

        board = f"<pre>{escape(self.board)}</pre>" if self.board else ""
        return report_html(self) + board


def check_overestimate(
    h: Callable[[GameState], object], position: str, deck: str = "micro"
) -> CounterexampleReport:
    """Does the position (board text of a classroom ``deck``) show ``h`` saying
    more moves than the win needs?  The check of a counterexample to admissibility:
    the moves needed are found by breadth-first search.

    >>> from bakers_lab.solve.heuristics import cards_not_home
    >>> r = check_overestimate(cards_not_home, "Foundations: H-3 C-3 D-3 S-2\\n:\\n3S\\n")
    >>> r.passed
    False
    >>> print(r.check("overestimates").report)
    cards_not_home says 1 and the position is won in 1 move: it does not overestimate here
    """
    t0 = time.perf_counter()
    name = getattr(h, "__name__", "your heuristic")
    if deck not in CLASSROOM:
        raise ValueError(f"unknown deck {deck!r}; the classroom decks: {', '.join(CLASSROOM)}")
    title = "the position shows the heuristic overestimating"

    def report(passed: bool, words: str, board: str = "") -> CounterexampleReport:
        check = Check("overestimates", title, passed, 1.0 if passed else 0.0, 1.0, words)
        return CounterexampleReport(name, (check,), (), board, time.perf_counter() - t0)

    if not isinstance(position, str):
        return report(False, f"the position must be board text, not {describe(position)}")
    try:
        state = GameState.from_text(position, variant=CLASSROOM[deck])
    except ValueError as exc:
        return report(False, f"the position could not be read as a {deck} deck's board: {exc}")
    board = str(state)
    try:
        value = h(state.copy())
    except Exception as exc:  # the student's bug, in words
        words = f"{name} raised {type(exc).__name__}" + said(str(exc), type(exc).__name__)
        return report(False, words + " on this position", board)
    result = breadth_first(state)
    if result.solution is None:
        return report(
            False,
            "this position cannot be won, so no heuristic value overestimates on it: "
            "find a position that can be won",
            board,
        )
    n = len(result.solution)
    moves = f"{n} move{'' if n == 1 else 's'}"
    if isinstance(value, int | float) and value > n:
        return report(
            True,
            f"{name} says {value:g} but the position is won in {moves} "
            f"({' '.join(str(m) for m in result.solution) or 'it is won'}): "
            "it overestimates, so it is not admissible",
            board,
        )
    return report(
        False,
        f"{name} says {describe(value) if not isinstance(value, int | float) else f'{value:g}'} "
        f"and the position is won in {moves}: it does not overestimate here",
        board,
    )
