"""Processes as /proc shows them (Linux): a process's descendants and whether one is
still alive; a server run in a process group of its own.  Shared by the process tests,
the browser tests, the hostile audit and the wheel's smoke test (.ci/smoke_wheel.py, which
loads this file by its path): the standard library only."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def descendants(pid: int, *, besides: Collection[int] = ()) -> list[int]:
    """Every process below ``pid``: its children, theirs, and so on; none of
    ``besides`` nor any process below one of them.  ``besides`` is what ran before a
    check: a browser started earlier (the session's Chromium) starts processes of its
    own at any time, and they are not the check's."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    skip = set(besides)
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in skip:
                out.append(c)
                todo.append(c)
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet waited for, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop_group(proc: subprocess.Popen[Any], grace: float = 20) -> None:
    """End the process group that ``proc`` leads (started with
    ``start_new_session=True``): SIGTERM, then SIGKILL after ``grace`` seconds.
    Shared by the browser tests and the wheel's smoke test (standard library only)."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)  # the group, by its leader's id
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextmanager
def server(
    command: list[str],
    ready_url: str,
    log: Path,
    *,
    start: float | None = None,
    error: type[Exception] = AssertionError,
    **kwargs: Any,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a server in a process group of its own until ``ready_url`` answers (with
    any HTTP status; within ``start`` seconds if given, else ``error`` with the server's
    log: the tests give none, their hang guard is pytest-timeout);
    stop it and the kernels it started afterwards, whatever happened."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **kwargs
        )
        try:
            deadline = None if start is None else time.monotonic() + start
            while True:
                if proc.poll() is not None:
                    raise error(f"server exited ({proc.returncode}):\n{log.read_text()}")
                try:
                    with urllib.request.urlopen(ready_url, timeout=5):
                        break
                except urllib.error.HTTPError:  # an answer all the same: it is up
                    break
                except OSError:
                    if deadline is not None and time.monotonic() > deadline:
                        raise error(
                            f"no answer at {ready_url} in {start} s:\n{log.read_text()}"
                        ) from None
                    time.sleep(0.5)
            yield proc
        finally:
            stop_group(proc)
