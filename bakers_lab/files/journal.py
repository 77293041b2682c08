"""My games: every game a person plays in the app, kept on their own computer.

The app (:class:`bakers_lab.display.widgets.GameExplorer`) writes each game played on its
board to a :class:`Journal` as it is played, every move (so a page closed mid-game keeps
it), and again when it ends: won, lost (no legal move left), stuck (left going round in
circles: the position on the board had come up before in the game) or given up (left,
or the page closed, after at least one move).  The
journal is one Parquet file in the user's data folder (``platformdirs``:
``~/.local/share/bakers_lab/files/journal.parquet`` on Linux); the environment
variable ``BAKERS_LAB_JOURNAL`` names another file.  Nothing is ever sent
anywhere, and a journal made with ``enabled=False`` writes nothing.

The file is written whole to a temporary file beside it, then renamed over it,
so a crash leaves the old journal or the new one, never half of one.  It is read
with an allow-list: exactly the columns of :data:`SCHEMA`, each of its kind, and
every value checked (a game number, a variant, a result); anything else makes
the journal *damaged*: a :class:`JournalError` of one line naming the file, and
the file is never overwritten.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> j = Journal(os.path.join(folder, "journal.parquet"))
>>> j.add(Entry.finished(1, "bakers_dozen", "AD>F KC>F", "given_up"))
>>> t = j.read()
>>> t.loc[0, "deal"], t.loc[0, "result"], bool(t.loc[0, "won"]), int(t.loc[0, "n_moves"])
(1, 'given_up', False, 2)
>>> j.games()[["deal", "variant", "won"]].to_dict("records")
[{'deal': 1, 'variant': 'bakers_dozen', 'won': False}]
>>> Journal(os.path.join(folder, "off.parquet"), enabled=False).add(
...     Entry.finished(2, "bakers_dozen", "AD>F", "lost"))
>>> os.path.exists(os.path.join(folder, "off.parquet"))
False
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from bakers_lab.files.userfile import read_user_file
from bakers_lab.model.rules import variant_names
from bakers_lab.utils.validate import as_bool, describe, shown

__all__ = [
    "JOURNAL_ENV",
    "MAX_JOURNAL_BYTES",
    "RESULTS",
    "SCHEMA",
    "Entry",
    "Journal",
    "JournalError",
    "LatestWriter",
    "counts",
    "default_path",
]

#: The environment variable that names the journal's file instead of the default.
JOURNAL_ENV = "BAKERS_LAB_JOURNAL"
#: The largest journal read (a game is about 400 bytes in it: some 100,000 games).
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
#: How a game ended: every card home, no legal move left, left going round in circles,
#: or left (for another game, or the page closed).
RESULTS = ("won", "lost", "stuck", "given_up")
#: The journal's columns and their kinds, exactly (the allow-list it is read with).
SCHEMA = pa.schema(
    [
        ("id", pa.string()),  # one game: written again when it ends again (an undo, then on)
        ("deal", pa.string()),  # the PySolFC game number, in digits (up to 20 of them)
        ("variant", pa.string()),
        ("started", pa.timestamp("us", tz="UTC")),
        ("ended", pa.timestamp("us", tz="UTC")),
        ("result", pa.string()),
        ("moves", pa.string()),  # the moves from the deal, in this toolkit's notation
        ("source", pa.string()),  # "app": played on the board; "pysolfc": begun in PySolFC
    ]
)
#: Where a game began.
SOURCES = ("app", "pysolfc")
#: The key of the file's metadata that holds each game's checksum (a journal written
#: before checksums has none, and is read on its values' checks alone).
CHECKS_KEY = b"bakers_lab.journal.checks"
#: The columns :meth:`Journal.read` gives: the file's, then ``won`` and ``n_moves``.
READ_COLUMNS = (*SCHEMA.names, "won", "n_moves")


class JournalError(ValueError):
    """A journal that cannot be read or written: one line, naming the file."""


def default_path() -> Path:
    """The journal's file: ``$BAKERS_LAB_JOURNAL`` when set (and not empty), else
    ``journal.parquet`` in the user's data folder (``platformdirs``).

    >>> import os
    >>> before = os.environ.pop("BAKERS_LAB_JOURNAL", None)
    >>> default_path().name
    'journal.parquet'
    >>> os.environ["BAKERS_LAB_JOURNAL"] = "/tmp/my-games.parquet"
    >>> str(default_path())
    '/tmp/my-games.parquet'
    >>> if before is not None: os.environ["BAKERS_LAB_JOURNAL"] = before
    ... else: del os.environ["BAKERS_LAB_JOURNAL"]
    """
    named = os.environ.get(JOURNAL_ENV, "")
    if named:
        return Path(named).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("bakers_lab")) / "journal.parquet"


def _now() -> pd.Timestamp:
    return pd.Timestamp.now(tz="UTC").floor("s")


@dataclass(frozen=True)
class Entry:
    """One game of the journal.

    ``deal``: the PySolFC game number; ``variant``: a preset's name; ``moves``: the
    moves from the deal, space-separated (``"AD>F 7C>8H"``); ``result``: one of
    :data:`RESULTS`; ``started`` / ``ended``: when (UTC); ``source``: ``"app"`` or
    ``"pysolfc"`` (a PySolFC save opened and played on); ``id``: the game's own key
    (a game that ends again, after an undo, replaces its entry).

    >>> e = Entry.finished(4, "bakers_dozen", ["AH>F", "AC>F"], "lost")
    >>> e.moves, e.won, e.n_moves
    ('AH>F AC>F', False, 2)
    >>> Entry.finished(4, "bakers_dozen", "", "drawn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.files.journal.JournalError: result must be one of won, lost, stuck, given_up, not ...
    """

    id: str
    deal: int
    variant: str
    started: pd.Timestamp
    ended: pd.Timestamp
    result: str
    moves: str
    source: str = "app"

    def __post_init__(self) -> None:
        problem = _problem(self.deal, self.variant, self.result, self.moves, self.source)
        if problem:
            raise JournalError(problem)

    @classmethod
    def finished(
        cls,
        deal: int,
        variant: str,
        moves: str | Iterable[object],
        result: str,
        *,
        started: pd.Timestamp | None = None,
        source: str = "app",
        id: str | None = None,
    ) -> Entry:
        """A game that ended now (``started``: now too, unless given)."""
        text = moves if isinstance(moves, str) else " ".join(str(m) for m in moves)
        now = _now()
        return cls(
            id=id or uuid.uuid4().hex,
            deal=deal,
            variant=variant,
            started=now if started is None else started,
            ended=now,
            result=result,
            moves=" ".join(text.split()),
            source=source,
        )

    @property
    def won(self) -> bool:
        return self.result == "won"

    @property
    def n_moves(self) -> int:
        return len(self.moves.split())


def _problem(deal: object, variant: object, result: object, moves: object, source: object) -> str:
    """What is wrong with one game's values, in one line ("" when nothing)."""
    if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal < 10**20:
        return f"deal must be a PySolFC game number from 1 to 10**20 - 1, not {describe(deal)}"
    if variant not in variant_names():
        return f"variant must be one of {', '.join(variant_names())}, not {describe(variant)}"
    if result not in RESULTS:
        return f"result must be one of {', '.join(RESULTS)}, not {describe(result)}"
    if not isinstance(moves, str):
        return f"moves must be text like 'AD>F 7C>8H', not {describe(moves)}"
    if source not in SOURCES:
        return f"source must be one of {', '.join(SOURCES)}, not {describe(source)}"
    return ""


def _checksum(row: Mapping[str, object]) -> str:
    """A game's checksum: SHA-256 of its values as the file holds them (16 hex digits)."""
    text = "\x1f".join(str(row[name]) for name in SCHEMA.names)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _empty() -> pd.DataFrame:
    t = SCHEMA.empty_table().to_pandas()
    t["deal"] = pd.Series([], dtype=object)
    return t.assign(won=pd.Series([], dtype=bool), n_moves=pd.Series([], dtype="int64"))


class Journal:
    """The journal's file (``path``; :func:`default_path` when ``None``) and whether
    games are written to it (``enabled``: a journal switched off writes nothing, and
    still reads what was kept before).

    :meth:`read` gives the games as a table, :meth:`add` keeps one more (or a new
    end of one already kept), :meth:`games` gives them as
    :func:`bakers_lab.study.strength` takes them.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, enabled: bool = True):
        if path is not None and (not isinstance(path, str | os.PathLike) or not os.fspath(path)):
            raise JournalError(f"path must be a file path, not {describe(path)}")
        self.path = Path(path) if path is not None else default_path()
        self.enabled = as_bool(enabled, "enabled", error=JournalError)

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, enabled={self.enabled})"

    def _damaged(self, why: str) -> JournalError:
        return JournalError(
            f"the journal {self.path} is damaged ({why}); it is left as it is: move it away, "
            f"or set {JOURNAL_ENV} to another file, to start a new one"
        )

    def read(self) -> pd.DataFrame:
        """The games kept, oldest first: the columns of :data:`SCHEMA` (``deal`` a
        Python int) and ``won`` and ``n_moves``; an empty table when there is no file
        yet.  A file that is not such a journal is refused in one line."""
        if not self.path.exists():
            return _empty()
        try:
            data = read_user_file(self.path, "the journal", limit=MAX_JOURNAL_BYTES)
        except (OSError, ValueError) as exc:
            raise JournalError(str(exc)) from None
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

        try:
            table = pq.read_table(pa.BufferReader(data))
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise self._damaged(
                f"not a Parquet file: {shown(str(exc).splitlines()[0], 80)}"
            ) from None
        try:
            return self._examined(table)
        except UnicodeDecodeError as exc:  # a column's name, not UTF-8
            raise self._damaged(f"a name it cannot read: {shown(str(exc), 80)}") from None

    def _examined(self, table: pa.Table) -> pd.DataFrame:
        """:meth:`read`'s checks of the table read from the file, and the table."""
        names = table.schema.names
        extra = [n for n in names if n not in SCHEMA.names]
        if extra or len(set(names)) != len(names):
            raise self._damaged(f"a column it may not hold: {shown(', '.join(extra or names))}")
        missing = [n for n in SCHEMA.names if n not in names]
        if missing:
            raise self._damaged(f"no {', '.join(missing)} column")
        for field in SCHEMA:
            kind = table.schema.field(field.name).type
            if kind != field.type:
                raise self._damaged(f"its {field.name} column holds {kind}, not {field.type}")
        if any(table.column(n).null_count for n in names):
            raise self._damaged("a game with an empty value")
        table = table.select(SCHEMA.names)
        try:
            rows = table.to_pylist()
            t = table.to_pandas()
        except (pa.ArrowException, ValueError, OverflowError) as exc:  # odd bytes in a value
            raise self._damaged(f"a value it cannot read: {shown(str(exc), 80)}") from None
        self._check_sums(table.schema.metadata or {}, rows)
        deals: list[int] = []
        for i, row in enumerate(t.itertuples(index=False), 1):
            text = row.deal
            deal = int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else 0
            problem = _problem(deal, row.variant, row.result, row.moves, row.source)
            if problem:
                raise self._damaged(f"game {i}: {problem}")
            deals.append(deal)
        t["deal"] = pd.Series(deals, dtype=object)
        t["won"] = (t["result"] == "won").astype(bool)
        t["n_moves"] = pd.Series([len(m.split()) for m in t["moves"]], dtype="int64")
        return t.reset_index(drop=True)

    def _check_sums(self, metadata: Mapping[bytes, bytes], rows: list[dict[str, object]]) -> None:
        """Refuse ``rows`` unless each is the game whose checksum the file keeps for it
        (a file without checksums, written before them, is not checked)."""
        if CHECKS_KEY not in metadata:
            return
        try:
            kept = json.loads(metadata[CHECKS_KEY])
        except (ValueError, UnicodeDecodeError):
            kept = None
        if not isinstance(kept, list) or len(kept) != len(rows):
            raise self._damaged("its checksums are damaged, or a game is missing")
        for i, (row, check) in enumerate(zip(rows, kept, strict=True), 1):
            if _checksum(row) != check:
                raise self._damaged(f"game {i} is not the game that was written: it was changed")

    def add(self, entry: Entry) -> None:
        """Keep ``entry`` (replacing the entry of the same ``id``), written atomically;
        nothing at all when the journal is switched off.  A damaged journal is not
        overwritten: the :class:`JournalError` of :meth:`read` is raised."""
        if not isinstance(entry, Entry):
            raise JournalError(f"entry must be a journal Entry, not {describe(entry)}")
        if not self.enabled:
            return
        with self._locked():
            self._add(entry)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the journal's lock file while it is read and written again, so that two
        pages of the app ending games at once keep both (where the system has ``fcntl``)."""
        try:
            import fcntl
        except ImportError:  # Windows: no lock; the rename still keeps the file whole
            yield
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT)
        except OSError as exc:
            raise JournalError(f"the journal {self.path}: cannot write there ({exc})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing lets the lock go

    def discard(self, id: str) -> None:
        """Forget the game ``id`` (a game whose moves were all taken back); nothing when
        it was never kept, or the journal is switched off."""
        if not self.enabled or not self.path.exists():
            return
        with self._locked():
            old = self.read()
            if (old["id"] == id).any():
                self._write(self._table(old[old["id"] != id], []))

    def _add(self, entry: Entry) -> None:
        old = self.read()
        old = old[old["id"] != entry.id]
        row = {
            "id": entry.id, "deal": str(entry.deal), "variant": entry.variant,
            "started": entry.started, "ended": entry.ended, "result": entry.result,
            "moves": entry.moves, "source": entry.source,
        }  # fmt: skip
        self._write(self._table(old, [row]))

    @staticmethod
    def _table(old: pd.DataFrame, rows: list[dict[str, object]]) -> pa.Table:
        records = [{**r, "deal": str(r["deal"])} for r in old[SCHEMA.names].to_dict("records")]
        return pa.Table.from_pylist([*records, *rows], schema=SCHEMA)

    def _write(self, table: pa.Table) -> None:
        """``table`` to :attr:`path`: into a temporary file beside it, then renamed (a
        path that is a symbolic link is written through: the link stays).  Called with
        the lock held: a temporary file left by a writer that was killed is removed."""
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

        target = self.path.resolve() if self.path.is_symlink() else self.path
        folder = target.parent
        for stale in folder.glob(f".{target.name}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        except OSError as exc:
            raise JournalError(f"the journal {self.path}: cannot write there ({exc})") from None
        checks = json.dumps([_checksum(row) for row in table.to_pylist()]).encode()
        table = table.replace_schema_metadata({CHECKS_KEY: checks})
        try:
            with os.fdopen(fd, "wb") as f:
                pq.write_table(table, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            raise JournalError(f"the journal {self.path}: cannot write there ({exc})") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    def games(self) -> pd.DataFrame:
        """The games as :func:`bakers_lab.study.strength` takes them: ``deal``, ``variant``,
        ``won`` and ``moves`` (a game given up counts as lost, as PySolFC counts it)."""
        t = self.read()
        return t[["deal", "variant", "won", "moves"]].reset_index(drop=True)


class LatestWriter:
    """Writes games to ``journal`` from a thread of its own, so that a move on the board
    waits for no file: :meth:`put` hands over a game's latest state (an :class:`Entry`,
    or its id alone to forget it), replacing one still waiting; :meth:`flush` waits
    until all are written.  The thread ends when nothing waits, and begins again with
    the next :meth:`put`.  A write that fails calls ``on_error`` with the journal's
    one-line error (from the writer's thread).

    >>> import tempfile, os
    >>> j = Journal(os.path.join(tempfile.mkdtemp(), "journal.parquet"))
    >>> w = LatestWriter(j)
    >>> for n in (1, 2, 3):  # three moves of one game: the last state is what stays
    ...     w.put(Entry.finished(4, "bakers_dozen", "AH>F AC>F"[: 5 * n], "given_up", id="g"))
    >>> w.flush()
    True
    >>> j.read()[["id", "n_moves"]].to_dict("records")
    [{'id': 'g', 'n_moves': 2}]
    """

    def __init__(self, journal: Journal, on_error: Callable[[str], None] | None = None) -> None:
        self.journal = journal
        self._on_error = on_error
        self._lock = threading.Lock()
        self._waiting: dict[str, Entry | None] = {}  # by game id; None: forget it
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    def __repr__(self) -> str:
        return f"LatestWriter({self.journal!r})"

    def put(self, entry: Entry | str) -> None:
        """Write ``entry`` soon (a game's id alone: forget that game)."""
        if not isinstance(entry, Entry | str):
            raise JournalError(
                f"entry must be a journal Entry or a game's id, not {describe(entry)}"
            )
        with self._lock:
            if isinstance(entry, Entry):
                self._waiting[entry.id] = entry
            else:
                self._waiting[entry] = None
            self._idle.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True)
                self._thread.start()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every game handed over is written (at most ``timeout`` seconds);
        True when it is."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._thread = None
                    self._idle.set()
                    return
                waiting, self._waiting = self._waiting, {}
            for id, entry in waiting.items():
                try:
                    if entry is None:
                        self.journal.discard(id)
                    else:
                        self.journal.add(entry)
                except JournalError as exc:
                    if self._on_error is not None:
                        self._on_error(str(exc))


def counts(table: pd.DataFrame) -> Mapping[str, int]:
    """How many games of ``table`` (:meth:`Journal.read`'s) ended each way.

    >>> counts(pd.DataFrame({"result": ["won", "lost", "won"]}))
    {'won': 2, 'lost': 1, 'stuck': 0, 'given_up': 0}
    """
    return {r: int((table["result"] == r).sum()) for r in RESULTS}
