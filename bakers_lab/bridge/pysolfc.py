"""``bakers-lab pysolfc``: the player's own PySolFC, with this toolkit behind its Solver.

PySolFC enables its Solver dialog at start-up only when ``fc-solve --help`` answers
with a first line starting "fc-solve" (``pysollib/init.py``).  This command makes a
folder holding a launcher named ``fc-solve`` that runs ``bakers-lab fc-solve``, puts
it first on the ``PATH``, and starts PySolFC with the arguments given: its Solver
appears and answers Baker's Dozen, Good Measure, Portuguese Solitaire and Spanish
Patience II, and hands every other game to a real ``fc-solve`` further along the
``PATH`` (:func:`bakers_lab.bridge.fcsolve.real_fc_solve` skips the launcher).  While
PySolFC runs, this command keeps the solver loaded and answers each ``fc-solve`` that
PySolFC starts (:mod:`bakers_lab.bridge.serve`): a question takes about 0.4 s instead
of 2 s on a slow computer, most of it Python starting.

To make it permanent instead, put a link (or, on Windows, a copy of the launcher)
named ``fc-solve`` to the installed ``bakers-lab`` on the ``PATH``: called by that
name, ``bakers-lab`` is ``bakers-lab fc-solve``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bakers_lab.bridge.fcsolve import SKIP_ENV
from bakers_lab.bridge.serve import serving

__all__ = ["PYSOLFC_NAMES", "find_pysolfc", "launcher", "main"]

#: The names PySolFC's command goes by: Debian's package, PyPI's script, the source's.
PYSOLFC_NAMES = ("pysolfc", "pysol", "pysol.py", "PySolFC")


def find_pysolfc(path: str | None = None) -> list[str] | None:
    """The command that starts the installed PySolFC (first of :data:`PYSOLFC_NAMES`
    on ``path``, or Debian's ``/usr/games/pysolfc``), or ``None``."""
    search = path if path is not None else os.pathsep.join(
        [os.environ.get("PATH", ""), "/usr/games"]
    )  # fmt: skip
    for name in PYSOLFC_NAMES:
        found = shutil.which(name, path=search)
        if found:
            return [found]
    return None


def launcher(folder: str | os.PathLike[str]) -> Path:
    """Write into ``folder`` a launcher named ``fc-solve`` (``fc-solve.cmd`` on
    Windows) that runs ``bakers-lab fc-solve`` with this Python; return its path."""
    target = Path(folder)
    python = sys.executable
    if os.name == "nt":
        path = target / "fc-solve.cmd"
        path.write_text(f'@"{python}" -m bakers_lab.cli fc-solve %*\r\n', encoding="utf-8")
        return path
    path = target / "fc-solve"
    path.write_text(
        f'#!/bin/sh\n# bakers-lab fc-solve, for PySolFC\nexec "{python}" -m bakers_lab.cli '
        f'fc-solve "$@"\n',
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


def main(argv: Sequence[str]) -> int:
    """Start PySolFC with ``argv``, ``bakers-lab fc-solve`` first on its ``PATH``;
    return its exit status (2, with one line, when no PySolFC is found)."""
    command = find_pysolfc()
    if command is None:
        print(
            "bakers-lab: error: no PySolFC found (looked for "
            f"{', '.join(PYSOLFC_NAMES)} on the PATH): install it (apt install pysolfc, "
            "or pip install PySolFC), then run bakers-lab pysolfc again",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="bakers-lab-fc-solve-") as folder, serving() as near:
        launcher(folder)
        env = {**os.environ, **near.env}  # each fc-solve asks this process, the solver warm
        env["PATH"] = os.pathsep.join([folder, env.get("PATH", "")])
        env[SKIP_ENV] = folder  # the real fc-solve, if any, is further along
        return subprocess.run([*command, *argv], env=env).returncode
