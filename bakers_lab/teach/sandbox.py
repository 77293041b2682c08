"""Run a student's function in a child process, with a time limit and a memory cap.

A student's search may loop forever or fill the memory; the checker must
survive both and say so in words.  :func:`run_limited` forks a child process
(``multiprocessing`` with the ``fork`` start method, so functions defined in a
notebook need not be pickled), caps the child's address space with
``resource.setrlimit`` and waits at most ``seconds``; a child still running
then is killed, with every process it started.

What the child sends back is plain data, never a pickle: the job returns
numbers, strings, lists and dicts, which the child writes as JSON and the
checker reads with :func:`json.loads`.  Nothing the student's process sends can
run code in the checker's; a checker validates the data it is given (move
texts are parsed, counts range-checked) before it judges anything.

A bug in the student's code comes back as a :class:`Raised` holding the
student's own traceback, trimmed to their code: the frames of bakers_lab
itself (the checker, the rule engine) are left out, the error line is kept.

>>> run_limited(lambda: 6 * 7, seconds=5)
Returned(value=42)
>>> r = run_limited(lambda: 1 // 0, seconds=5)
>>> r.error, r.message
('ZeroDivisionError', 'integer division or modulo by zero')
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import resource
import select
import signal
import struct
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

__all__ = [
    "MAX_ANSWER_MB",
    "MEMORY_MB",
    "TRACE_CHARS",
    "Died",
    "OutOfMemory",
    "OutOfTime",
    "Outcome",
    "Pending",
    "Raised",
    "Returned",
    "Unreadable",
    "run_limited",
    "start_limited",
    "stopped",
    "student_traceback",
]

#: Memory a student's function may take beyond what the process already holds (MB).
MEMORY_MB = 1_000

_LIBRARY = str(Path(__file__).resolve().parent.parent)  # bakers_lab/


@dataclass(frozen=True)
class Returned:
    """The function returned ``value``."""

    value: object


@dataclass(frozen=True)
class Raised:
    """The function raised ``error`` (its class name) with ``message``; ``trace`` is
    the traceback trimmed to the student's code."""

    error: str
    message: str
    trace: str


@dataclass(frozen=True)
class OutOfTime:
    """The function had not returned after ``seconds``: it was stopped."""

    seconds: float


@dataclass(frozen=True)
class OutOfMemory:
    """The function asked for more than ``megabytes`` MB of memory."""

    megabytes: int


@dataclass(frozen=True)
class Died:
    """The child process ended without an answer (``exitcode``: its exit code, or
    minus the signal that killed it)."""

    exitcode: int | None


@dataclass(frozen=True)
class Unreadable:
    """The child process sent something that is not an answer: ``why``."""

    why: str


#: How a run in the child process ended: each kind is a class of its own.
Outcome = Returned | Raised | OutOfTime | OutOfMemory | Died | Unreadable

#: The longest error message kept from a child (characters).
_MESSAGE_CHARS = 2_000
#: The longest traceback kept from a child (characters).
TRACE_CHARS = 20_000


def _is_library(filename: str) -> bool:
    try:
        return str(Path(filename).resolve()).startswith(_LIBRARY)
    except (OSError, ValueError):
        return False


def student_traceback(exc: BaseException) -> str:
    """The traceback of ``exc`` without bakers_lab's own frames, ending in the error line.

    >>> def mine():
    ...     return {}["column"]
    >>> try:
    ...     mine()
    ... except KeyError as e:
    ...     print(student_traceback(e).splitlines()[-1])
    KeyError: 'column'
    """
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not _is_library(f.filename)]
    lines = ["Traceback (your code, most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip("\n")


def _address_space() -> int:
    """The bytes of address space this process holds now (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def _child(job: Callable[[], object], conn: Connection, megabytes: int) -> None:
    os.setsid()  # a process group of its own: whatever the job forks ends with it
    held = _address_space()
    if held:
        cap = held + megabytes * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:  # under a cap already (ulimit -v): stay under it
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        answer: dict[str, object] = {"returned": job()}
    except MemoryError:
        answer = {"out_of_memory": megabytes}
    except BaseException as exc:  # the student's bug, whatever it is: reported, not raised
        answer = {"raised": [type(exc).__name__, str(exc), student_traceback(exc)]}
    try:
        conn.send_bytes(_encode(answer))
    except MemoryError:
        conn.send_bytes(_encode({"out_of_memory": megabytes}))
    except Exception as exc:  # an answer that is not plain data
        conn.send_bytes(_encode({"raised": [type(exc).__name__, str(exc), ""]}))
    finally:
        conn.close()


def _encode(answer: dict[str, object]) -> bytes:
    return json.dumps(answer, allow_nan=False, ensure_ascii=True).encode("ascii")


def _text(value: object, limit: int) -> str | None:
    """A string from the child, cut to ``limit`` characters (None: not a string)."""
    if not isinstance(value, str):
        return None
    return value if len(value) <= limit else value[: limit - 3] + "..."


def decode(message: bytes, megabytes: int) -> Outcome:
    """The outcome in ``message``, the JSON a child sent: :class:`Unreadable` when it
    is not one (the checker's own words, whatever the bytes hold).

    >>> decode(b'{"returned": [1, 2]}', 100)
    Returned(value=[1, 2])
    >>> decode(b'{"returned": 1', 100)
    Unreadable(why='it is not JSON')
    """
    try:
        data = json.loads(message)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return Unreadable("it is not JSON")
    if isinstance(data, dict) and len(data) == 1:
        ((kind, value),) = data.items()
        if kind == "returned":
            return Returned(value)
        if kind == "out_of_memory":
            return OutOfMemory(megabytes)
        if kind == "raised" and isinstance(value, list) and len(value) == 3:
            error = _text(value[0], 100)
            message_text = _text(value[1], _MESSAGE_CHARS)
            trace = _text(value[2], TRACE_CHARS)
            if error is not None and message_text is not None and trace is not None:
                return Raised(error, message_text, trace)
    return Unreadable("it is not an answer of the form the check sends")


class Pending:
    """A job running in a child process (see :func:`start_limited`)."""

    def __init__(self, job: Callable[[], object], megabytes: int) -> None:
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        with warnings.catch_warnings():  # forking a process with threads (a Jupyter kernel)
            warnings.simplefilter("ignore", DeprecationWarning)
            self._child = context.Process(target=_child, args=(job, send, megabytes), daemon=True)
            self._child.start()
        send.close()
        self._started = time.monotonic()
        self._megabytes = megabytes

    def wait(self, seconds: float) -> Outcome:
        """The job's outcome; a job still running ``seconds`` after it started is killed,
        with every process it started (its process group), and so is one whose answer
        has not come whole by then (half a message on the pipe)."""
        deadline = self._started + seconds
        try:
            message = _message(self._receive.fileno(), deadline, self._child.is_alive)
            if message is None:
                answer: Outcome = OutOfTime(seconds)
            elif not message:
                answer = Died(None)
            else:
                answer = decode(message, self._megabytes)
        finally:
            self._receive.close()
            if self._child.is_alive():
                self._child.kill()
            self._child.join()
            if self._child.pid is not None:  # what the job forked: its process group
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self._child.pid, signal.SIGKILL)
        if isinstance(answer, Died):
            answer = Died(self._child.exitcode)
        return answer


#: The largest answer a child may send (MB): a search's line or a heuristic's values
#: are far smaller.
MAX_ANSWER_MB = 256


#: How often the parent looks whether the child still runs while it waits (seconds).
_LOOK = 0.05


def _exactly(fd: int, n: int, deadline: float, alive: Callable[[], bool]) -> bytes | None:
    """``n`` bytes from ``fd`` before ``deadline`` (``time.monotonic``); ``b""`` if the
    pipe ends first, or the child ends (``alive()`` turns false) with nothing more in
    the pipe: a process it forked may hold the pipe open; None if the deadline
    comes first."""
    got = bytearray()
    while len(got) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        if not select.select([fd], [], [], min(left, _LOOK))[0]:
            if not alive() and not select.select([fd], [], [], 0)[0]:
                return b""  # the child is gone, and all it wrote has been read
            continue
        chunk = os.read(fd, n - len(got))
        if not chunk:
            return b""
        got += chunk
    return bytes(got)


def _message(fd: int, deadline: float, alive: Callable[[], bool]) -> bytes | None:
    """One message of a :class:`multiprocessing.connection.Connection` (its length,
    then its bytes) read from ``fd`` before ``deadline``: ``b""`` if the pipe ends
    first or the length is past :data:`MAX_ANSWER_MB`, None if the deadline comes
    first."""
    head = _exactly(fd, 4, deadline, alive)
    if not head:
        return head
    (size,) = struct.unpack("!i", head)
    if size == -1:  # a long message: its length in 8 bytes
        more = _exactly(fd, 8, deadline, alive)
        if not more:
            return more
        (size,) = struct.unpack("!Q", more)
    if not 0 < size <= MAX_ANSWER_MB * 2**20:
        return b""
    return _exactly(fd, size, deadline, alive)


def said(message: str, error: str) -> str:
    """What follows the words "raised ERROR" in a report: ``": message"``, nothing when
    the exception has no message, and for ``NotImplementedError`` (the placeholder a
    student's copy of an exercise holds) what to do.

    >>> said("list index out of range", "IndexError"), said("", "NotImplementedError")
    (': list index out of range', ': the placeholder is still there: write your code in its place')
    """
    if error == "NotImplementedError" and not message:
        return ": the placeholder is still there: write your code in its place"
    return f": {message}" if message else ""


def stopped(outcome: OutOfMemory | Died | Unreadable, who: str, where: str = "") -> str:
    """The sentence that says why a student's function (``who``: "your function",
    "your heuristic") gave no answer, and ``where`` (" on CASE", or nothing).

    >>> stopped(OutOfMemory(200), "your heuristic")
    'your heuristic used more than 200 MB of memory'
    >>> stopped(Died(-9), "your function", " on the micro deck, seed 1000")
    'your function ended its process on the micro deck, seed 1000 (exit code -9)'
    """
    if isinstance(outcome, OutOfMemory):
        return f"{who} used more than {outcome.megabytes:,} MB of memory{where}"
    if isinstance(outcome, Unreadable):
        return (
            f"{who}'s process sent back something that is not an answer{where} "
            f"({outcome.why}): the check reads only the answer it sends itself"
        )
    return f"{who} ended its process{where} (exit code {outcome.exitcode})"


def start_limited(job: Callable[[], object], *, megabytes: int = MEMORY_MB) -> Pending:
    """Start ``job()`` in a forked child process that may use ``megabytes`` MB beyond
    the parent's memory; :meth:`Pending.wait` gives its outcome.  The parent may
    work meanwhile (the checks run the reference search)."""
    return Pending(job, megabytes)


def run_limited(
    job: Callable[[], object], *, seconds: float, megabytes: int = MEMORY_MB
) -> Outcome:
    """Run ``job()`` in a forked child process: its :class:`Returned` value, or what
    stopped it (:class:`Raised`, :class:`OutOfTime`, :class:`OutOfMemory`,
    :class:`Died`).  The child may use ``megabytes`` MB beyond the parent's memory
    and ``seconds`` of wall-clock time."""
    return start_limited(job, megabytes=megabytes).wait(seconds)
