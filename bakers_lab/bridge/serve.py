"""A warm answerer for ``bakers-lab fc-solve``, kept by ``bakers-lab pysolfc``.

Each time a player asks PySolFC's Solver, PySolFC starts ``fc-solve`` anew.  Started
cold, ``bakers-lab fc-solve`` spends most of its time before the question: Python and
the package loaded (about 0.2 s with the searches compiled with the package, 1.2 s on a
slow computer where numba loads them from its cache; the question itself takes a few
milliseconds).  So ``bakers-lab pysolfc``, which waits
for PySolFC anyway, answers from its own process: :func:`serving` loads the solver
once, while PySolFC starts, and answers every question asked through the address it
puts in the environment of PySolFC (and so of each ``fc-solve`` PySolFC starts);
``bakers-lab fc-solve`` asks there (:func:`ask_server`) and answers itself when no
answerer is named or it is gone.  The answer is the same byte for byte.

The answerer listens on a socket in a folder only its user can open (a named pipe on
Windows) and answers only those who know the key in that environment.  Only bytes are
exchanged: the question's arguments as a JSON list of strings, the board, and back the
exit status, standard output and standard error; nothing is unpickled.

>>> with serving() as answerer:
...     said = ask_server(["--version"], b"", answerer.env)
>>> said.code, said.out.startswith(b"fc-solve"), answerer.answered
(0, True, 1)
>>> ask_server(["--version"], b"", {}) is None  # no answerer named: answer it yourself
True
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from multiprocessing import AuthenticationError
from multiprocessing.connection import Client, Connection, Listener

from bakers_lab.bridge.fcsolve import Answer, answer, asks_only, deal_board, failed

__all__ = ["ADDRESS_ENV", "KEY_ENV", "Answerer", "answer_here_or_there", "ask_server", "serving"]

#: The environment variable naming the answerer's address (a socket or pipe).
ADDRESS_ENV = "BAKERS_LAB_FC_SOLVE_SERVER"
#: The environment variable holding the key the answerer asks of every caller (hex).
KEY_ENV = "BAKERS_LAB_FC_SOLVE_KEY"
#: The longest question taken, arguments or board (a board is about 200 bytes).
LONGEST = 1 << 20
#: The question the answerer asks itself first, so that the solver is loaded (and the
#: shortest-win search compiled) before PySolFC asks: PySolFC's own, on deal 1.
WARM_UP = ("-m", "-p", "-opt", "-sel", "-hoi", "--max-iters", "10000", "--decks-num", "1",
           "--stacks-num", "13", "--freecells-num", "0", "--preset", "bakers_dozen")  # fmt: skip


def _family() -> str:
    return "AF_PIPE" if sys.platform == "win32" else "AF_UNIX"


class Answerer:
    """The answerer :func:`serving` runs: :attr:`env`, the environment entries that
    lead ``bakers-lab fc-solve`` to it, and :attr:`answered`, the questions answered."""

    def __init__(self, env: dict[str, str]) -> None:
        #: The environment entries that lead ``bakers-lab fc-solve`` to this answerer.
        self.env = env
        #: How many questions it has answered.
        self.answered = 0

    def __repr__(self) -> str:
        where = self.env.get(ADDRESS_ENV, "nowhere: each fc-solve answers alone")
        return f"<Answerer at {where!r}, {self.answered} answered>"


@contextlib.contextmanager
def serving() -> Iterator[Answerer]:
    """Answer ``fc-solve`` questions from this process while the block runs.

    Yields the :class:`Answerer`: give its :attr:`~Answerer.env` (:data:`ADDRESS_ENV`,
    :data:`KEY_ENV`) to the program that will run ``bakers-lab fc-solve``.  One thread
    loads the solver, then answers one question at a time; when the block ends, the
    socket and its folder are removed.  Where no socket can be made (a temporary folder
    whose path is too long for one), :attr:`~Answerer.env` is empty: each
    ``bakers-lab fc-solve`` answers alone, as it would without this."""
    key = secrets.token_bytes(32)
    with tempfile.TemporaryDirectory(prefix="bakers-lab-answers-") as folder:
        if _family() == "AF_PIPE":
            address = rf"\\.\pipe\bakers-lab-answers-{secrets.token_hex(8)}"
        else:
            address = os.path.join(folder, "socket")  # the folder is the user's alone
        try:
            listener = Listener(address, family=_family(), authkey=key)
        except OSError:  # (a temporary folder too long for a socket's name): no warm solver
            yield Answerer({})
            return
        answerer = Answerer({ADDRESS_ENV: address, KEY_ENV: key.hex()})
        thread = threading.Thread(
            target=_answer_all, args=(listener, answerer), name="bakers-lab fc-solve",
            daemon=True,
        )  # fmt: skip
        thread.start()
        try:
            yield answerer
        finally:
            if thread.is_alive():  # it ends when told to, by one who knows the key
                telling = threading.Thread(target=_stop, args=(address, key), daemon=True)
                telling.start()
                telling.join(timeout=STOP_WAIT)
                thread.join(timeout=STOP_WAIT)
            listener.close()


#: Seconds the end of :func:`serving` waits for the answerer to stop.  A question with a
#: huge ``--max-iters`` may still be searched (PySolFC has quit): its thread is left to
#: end with the process, which does not wait for it.
STOP_WAIT = 5.0


def _stop(address: str, key: bytes) -> None:
    with (
        contextlib.suppress(OSError, EOFError, AuthenticationError),
        Client(address, family=_family(), authkey=key) as conn,
    ):
        conn.send_bytes(STOP)


#: What tells the answerer to stop (a question is a JSON list).
STOP = b"stop"


def _answer_all(listener: Listener, answerer: Answerer) -> None:
    with contextlib.suppress(Exception):  # a solver that cannot start says so in each answer
        answer(WARM_UP, deal_board(1))
    while True:
        try:
            conn = listener.accept()
        except (AuthenticationError, EOFError, ConnectionError):  # not ours, or gone
            continue
        except OSError:  # the listener is closed
            return
        with conn:
            try:
                asked = conn.recv_bytes(LONGEST)
            except (OSError, EOFError):
                continue
            if asked == STOP:
                return
            _answer_one(conn, asked, answerer)


def _answer_one(conn: Connection, asked: bytes, answerer: Answerer) -> None:
    """Answer the question whose arguments were ``asked`` (its board comes next)."""
    try:
        argv = json.loads(asked.decode("utf-8"))
        board = conn.recv_bytes(LONGEST)
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            raise ValueError("the arguments are not a list of strings")
        try:
            said = answer(argv, board)
        except Exception as exc:  # as bakers-lab fc-solve says it: one line, never a traceback
            said = failed(exc)
        answerer.answered += 1  # counted before the caller has its answer
        conn.send_bytes(json.dumps({"code": said.code}).encode())
        conn.send_bytes(said.out)
        conn.send_bytes(said.err)
    except (OSError, EOFError, ValueError):  # the caller went away, or is not ours
        return


def ask_server(
    argv: Sequence[str], board: bytes, env: Mapping[str, str] | None = None
) -> Answer | None:
    """The answer of the answerer named in ``env`` (``os.environ`` by default) to
    ``fc-solve ARGV`` with ``board``; ``None`` when none is named or it cannot be
    reached (the caller answers itself)."""
    where = os.environ if env is None else env
    address, key = where.get(ADDRESS_ENV), where.get(KEY_ENV)
    if not address or not key or len(board) > LONGEST:
        return None
    try:
        with Client(address, family=_family(), authkey=bytes.fromhex(key)) as conn:
            conn.send_bytes(json.dumps(list(argv)).encode("utf-8"))
            conn.send_bytes(board)
            head = json.loads(conn.recv_bytes(1024).decode("utf-8"))
            out = conn.recv_bytes()
            err = conn.recv_bytes()
    except (OSError, EOFError, ValueError, AuthenticationError):
        return None
    code = head.get("code") if isinstance(head, dict) else None
    if not isinstance(code, int):
        return None
    return Answer(code, out, err)


def answer_here_or_there(argv: Sequence[str], board: bytes) -> Answer:
    """The answer of the answerer named in the environment, else this process's own
    (:func:`bakers_lab.bridge.fcsolve.answer`): the same answer either way."""
    if asks_only(argv):
        return answer(argv, board)
    return ask_server(argv, board) or answer(argv, board)
