"""``bakers-lab`` run inside the test's own process: for the tests of what the command
says and writes, without the two seconds a new Python takes to start and import the
toolkit.  What only a real process shows (the console script, Ctrl-C, a kill, two
processes at once, a hang) is tested with a real process; see ``test_cli.py``.

>>> r = run_cli("deal", "x")
>>> r.returncode, r.stderr.splitlines()[0][:32]
(2, 'bakers-lab: error: argument N: a')
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

from bakers_lab.cli import main


def run_cli(*args: object, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``bakers-lab args`` (each made a string), with ``stdin`` as its input: its exit
    code, what it printed and what it said on stderr, as :func:`subprocess.run` gives
    them.  An exception the command lets out fails the test, as a traceback would."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    given = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:  # argparse's errors, --help
                code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        sys.stdin = given
    return subprocess.CompletedProcess(["bakers-lab", *argv], code, out.getvalue(), err.getvalue())
