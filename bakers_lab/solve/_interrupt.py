"""Ctrl-C for long calls that do not return to Python until they end.

A compiled search (numba, ``nogil=True``) or a CP-SAT solve holds the thread
that called it: Python runs its SIGINT handler only between bytecodes, so a
Ctrl-C would wait for the call to end (minutes, for a strong player's game).
:func:`until_interrupted` runs the call in a thread of its own and waits for it
in the caller's thread, which hears the Ctrl-C at once; it then asks the call to
stop (``stop``), waits for it to end, and raises the ``KeyboardInterrupt``, so
the caller's clean-up runs and nothing is half done.

>>> until_interrupted(lambda: 6 * 7, stop=lambda: None)
42
>>> control = stop_flag()
>>> until_compiled_interrupted(lambda c: int(c[STOP]), control)
0
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

#: The index of the stop flag in a compiled search's ``control`` array: the
#: caller sets it to 1, the search checks it every so often and returns early.
STOP = 0


def stop_flag(size: int = 1) -> np.ndarray:
    """A zeroed ``control`` array (int64) whose element :data:`STOP` a compiled
    search checks; ``size`` leaves room for what a search reports back."""
    return np.zeros(max(1, size), dtype=np.int64)


def until_interrupted(call: Callable[[], T], stop: Callable[[], None], name: str = "search") -> T:
    """``call()`` in a thread of its own; on Ctrl-C, ``stop()`` is called, the
    thread is waited for, and ``KeyboardInterrupt`` is raised here.  What
    ``call`` raises is raised here too."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = call()
        except BaseException as exc:  # (raised in the caller's thread below)
            out["error"] = exc

    worker = threading.Thread(target=run, name=f"bakers-lab {name}", daemon=True)
    try:
        worker.start()  # (a Ctrl-C while it starts stops it as well)
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        stop()
        while worker.is_alive():
            worker.join(0.1)  # a second Ctrl-C here ends the wait as well
        raise
    if "error" in out:
        raise out["error"]
    return out["result"]  # type: ignore[no-any-return]


def until_compiled_interrupted(
    search: Callable[[np.ndarray], T], control: np.ndarray, name: str = "search"
) -> T:
    """``search(control)``, a compiled search that returns soon after
    ``control[STOP]`` is set, stopped by Ctrl-C as :func:`until_interrupted` says."""

    def stop() -> None:
        control[STOP] = 1

    return until_interrupted(lambda: search(control), stop, name)
