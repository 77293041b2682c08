"""PySolFC's reading of fc-solve's answer, written again for the tests: the contract.

``FreeCellSolver_Hint.computeHints`` in PySolFC's ``pysollib/hint.py`` (commit
7a3d146a) reads the solver's standard output line by line with these regular
expressions; :func:`read_answer` applies them in the same order, the progress loop
first when ``--iter-output`` was asked, so that a test can read ``bakers-lab
fc-solve``'s answer exactly as PySolFC does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: (ncards, source kind, source index, destination kind or None, destination index)
Hint = tuple[int, str, int, str | None, int | None]

MOVE = re.compile(
    "(?P<ncards>a card|(?P<count>[0-9]+) cards) "
    "from (?P<source_type>stack|freecell) "
    "(?P<source_idx>[0-9]+) to "
    "(?P<dest>the foundations|"
    "(?P<dest_type>freecell|stack) "
    "(?P<dest_idx>[0-9]+))\\s*"
)
SEQUENCE_HOME = re.compile("the sequence on top of Stack ([0-9]+) to the foundations")


@dataclass
class Read:
    """What PySolFC made of an answer: its solver state and the hints, and the
    numbers its dialog shows."""

    state: str = "unknown"
    hints: list[Hint] = field(default_factory=list)
    shown: dict[str, int] = field(default_factory=dict)


def _solver_state(line: str, read: Read) -> bool:
    if re.search("^(?:Iterations count exceeded)", line):
        read.state = "intractable"
        return True
    if re.search("^(?:I could not solve this game)", line):
        read.state = "unsolved"
        return True
    return False


def _colon(prefix: str, line: str) -> int | None:
    m = re.match(prefix + ": ([0-9]+)", line)
    return int(m.group(1)) if m else None


def read_answer(out: bytes, *, progress: bool = False) -> Read:
    """``out`` (the solver's standard output) as PySolFC reads it."""
    read = Read()
    lines = iter(out.splitlines(keepends=True))
    if progress:
        for raw in lines:
            s = str(raw, encoding="utf-8")
            for key in ("Iteration", "Depth", "Stored-States"):
                v = _colon(key, s)
                if v is not None:
                    read.shown[key] = v
                    break
            else:
                if re.search("^(?:-=-=)", s) or _solver_state(s, read):
                    break
    for raw in lines:
        s = str(raw, encoding="utf-8")
        if _solver_state(s, read):
            break
        m = re.match("Total number of states checked is ([0-9]+)\\.", s)
        if m:
            read.shown["iter"] = int(m.group(1))
        m = re.match("This scan generated ([0-9]+) states\\.", s)
        if m:
            read.shown["states"] = int(m.group(1))
        m = re.match("Move (.*)", s)
        if not m:
            continue
        move_s = m.group(1)
        home = SEQUENCE_HOME.match(move_s)
        if home:
            read.hints.append((13, "stack", int(home.group(1)), None, None))
            continue
        mv = MOVE.match(move_s)
        if not mv:
            continue
        ncards = 1 if mv.group("ncards") == "a card" else int(mv.group("count"))
        dest = mv.group("dest")
        read.hints.append((
            ncards, mv.group("source_type"), int(mv.group("source_idx")),
            None if dest == "the foundations" else mv.group("dest_type"),
            None if dest == "the foundations" else int(mv.group("dest_idx")),
        ))  # fmt: skip
    if read.hints and read.state != "intractable":
        read.state = "solved"
    return read
