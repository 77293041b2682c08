"""Where a layered search keeps its frontier and its progress: in memory for
a small search, in a folder (``workdir``) for a large one that must survive
being stopped.

A folder holds::

    run.json                     the problem: rules, start position, buckets
    lock                         held (flock) by the run using the folder
    layer_007/plan.json          the layer's tasks: lists of buckets
    layer_007/b0012_from005_00003_0000.arrow
                                 rows for bucket 12 of layer 7, written by task 3 of
                                 layer 5 (its first output): RECORD rows as an
                                 Arrow file, zstd-compressed
    layer_007/done_00003.json    task 3 of layer 7 is finished: its counts
    layer_007/summary.json       every task of layer 7 is finished: the layer's counts

Every file is written whole under a temporary name and renamed into place, so
a run killed at any moment leaves files that are either complete or absent.
A task's rows are written into a folder of its attempt's own under
``staging/`` and published (renamed into the layers' folders) only once the
attempt has written them all; then its ``done`` file is written.  A task
without its ``done`` file is run again; one with it is never run again (Dask
may ask: it recomputes a result lost with a worker).  A layer is taken up
only when every layer below it has its summary.  Reading never evaluates
anything: Arrow files are read as columns of known types, JSON as JSON.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import json
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bakers_lab.solve.layers import RECORD, Outcome, ref_parts

__all__ = ["DiskFull", "DiskStore", "MemoryStore", "RunBusy", "Store", "bucket_of"]

_MIX = np.uint64(0x9E3779B97F4A7C15)


def bucket_of(keys: np.ndarray, buckets: int) -> np.ndarray:
    """The bucket of each group key: a hash of it, so that buckets are even.

    >>> bucket_of(np.array([0, 1, 2, 3], dtype=np.int64), 64).tolist()
    [0, 57, 51, 45]
    """
    with np.errstate(over="ignore"):
        h = keys.astype(np.uint64) * _MIX
    out: np.ndarray = ((h >> np.uint64(40)) % np.uint64(buckets)).astype(np.int64)
    return out


class RunBusy(OSError):
    """Another run is using the folder."""


class DiskFull(OSError):
    """The folder's disk has less room than a run needs to go on."""


class Store:
    """The frontier and the progress marks of one run (see the module docstring)."""

    buckets: int = 64

    def put(self, layer: int, bucket: int, tag: str, rows: np.ndarray) -> None:
        raise NotImplementedError

    def sizes(self, layer: int) -> dict[int, int]:
        """Rows waiting in each bucket of ``layer``."""
        raise NotImplementedError

    def read(self, layer: int, bucket: int) -> np.ndarray:
        """The rows of a bucket, in the order their refs count them."""
        raise NotImplementedError

    def layers(self) -> list[int]:
        """The layers that have rows, in order."""
        raise NotImplementedError

    @contextlib.contextmanager
    def attempt(self, layer: int, task: int) -> Iterator[None]:
        """One attempt at task ``task`` of ``layer``: what it puts becomes
        visible only when the attempt ends well, all of it at once (an attempt
        cut short leaves nothing a reader can see)."""
        yield

    def get(self, name: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def set(self, name: str, value: dict[str, Any]) -> None:
        raise NotImplementedError

    def disk_bytes(self) -> int:
        return 0

    def clear_rows(self) -> None:
        """Delete the frontier's rows (the run is over; its marks stay)."""

    def free_bytes(self) -> int:
        return 1 << 62

    def row(self, ref: int) -> np.ndarray:
        """The frontier row a ref names."""
        layer, bucket, row = ref_parts(ref)
        one: np.ndarray = self.read(layer, bucket)[row]
        return one

    # progress marks
    def done(self, layer: int, task: int) -> Outcome | None:
        got = self.get(f"layer_{layer:03d}/done_{task:05d}")
        return None if got is None else Outcome(**got)

    def mark_done(self, layer: int, task: int, outcome: Outcome) -> None:
        self.set(f"layer_{layer:03d}/done_{task:05d}", dataclasses.asdict(outcome))

    def plan(self, layer: int) -> list[list[int]] | None:
        got = self.get(f"layer_{layer:03d}/plan")
        return None if got is None else [list(map(int, t)) for t in got["tasks"]]

    def set_plan(self, layer: int, tasks: list[list[int]]) -> None:
        self.set(f"layer_{layer:03d}/plan", {"tasks": tasks})

    def summary(self, layer: int) -> dict[str, Any] | None:
        return self.get(f"layer_{layer:03d}/summary")

    def set_summary(self, layer: int, summary: dict[str, Any]) -> None:
        self.set(f"layer_{layer:03d}/summary", summary)


class MemoryStore(Store):
    """A store in this process's memory (a search small enough, or a test)."""

    def __init__(self, buckets: int = 4) -> None:
        self.buckets = buckets
        self._rows: dict[tuple[int, int], list[tuple[str, np.ndarray]]] = {}
        self._marks: dict[str, dict[str, Any]] = {}
        # the buckets each task (``fromLLL_TTTTT_``) wrote to
        self._written: dict[str, set[tuple[int, int]]] = {}

    def __repr__(self) -> str:
        return f"MemoryStore(buckets={self.buckets})"

    def put(self, layer: int, bucket: int, tag: str, rows: np.ndarray) -> None:
        self._rows.setdefault((layer, bucket), []).append((tag, rows))
        self._written.setdefault(tag[:19], set()).add((layer, bucket))

    def sizes(self, layer: int) -> dict[int, int]:
        return {
            b: sum(len(r) for _, r in parts)
            for (lay, b), parts in self._rows.items()
            if lay == layer
        }

    def read(self, layer: int, bucket: int) -> np.ndarray:
        parts = sorted(self._rows.get((layer, bucket), []), key=lambda p: p[0])
        if not parts:
            return np.zeros(0, dtype=RECORD)
        return np.concatenate([r for _, r in parts])

    def layers(self) -> list[int]:
        return sorted({lay for (lay, _), parts in self._rows.items() if parts})

    def clear_rows(self) -> None:
        self._rows.clear()

    @contextlib.contextmanager
    def attempt(self, layer: int, task: int) -> Iterator[None]:
        mark = f"from{layer:03d}_{task:05d}_"
        try:
            yield
        except BaseException:
            for k in self._written.pop(mark, ()):
                self._rows[k] = [(t, r) for t, r in self._rows[k] if not t.startswith(mark)]
            raise

    def get(self, name: str) -> dict[str, Any] | None:
        return self._marks.get(name)

    def set(self, name: str, value: dict[str, Any]) -> None:
        self._marks[name] = json.loads(json.dumps(value))


#: Room a run keeps free on its disk: below it, it stops (resumable).
RESERVE = 1 << 30


class DiskStore(Store):
    """A store in a folder (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike[str], buckets: int = 64) -> None:
        self.folder = Path(folder)
        self.buckets = buckets
        self._staging: Path | None = None

    def __repr__(self) -> str:
        return f"DiskStore({str(self.folder)!r}, buckets={self.buckets})"

    def _layer_dir(self, layer: int) -> Path:
        return self.folder / f"layer_{layer:03d}"

    def put(self, layer: int, bucket: int, tag: str, rows: np.ndarray) -> None:
        d = self._layer_dir(layer)
        if self._staging is not None:  # (inside an attempt: published when it ends)
            d = self._staging / d.name
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"b{bucket:04d}_{tag}.arrow"
        tmp = path.with_suffix(".tmp")
        try:
            _write(tmp, rows)
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise DiskFull(exc.errno, f"the disk of {self.folder} is full") from None
            raise

    def _files(self, layer: int, bucket: int | None = None) -> list[Path]:
        d = self._layer_dir(layer)
        if not d.is_dir():
            return []
        pattern = "b*.arrow" if bucket is None else f"b{bucket:04d}_*.arrow"
        return sorted(d.glob(pattern))

    def sizes(self, layer: int) -> dict[int, int]:
        out: dict[int, int] = {}
        for p in self._files(layer):
            b = int(p.name[1:5])
            out[b] = out.get(b, 0) + _rows_in(p)
        return out

    def read(self, layer: int, bucket: int) -> np.ndarray:
        parts = [_load(p) for p in self._files(layer, bucket)]
        if not parts:
            return np.zeros(0, dtype=RECORD)
        return np.concatenate(parts)

    def layers(self) -> list[int]:
        out = []
        for d in sorted(self.folder.glob("layer_[0-9][0-9][0-9]")):
            if any(d.glob("b*.arrow")):
                out.append(int(d.name[6:]))
        return out

    @contextlib.contextmanager
    def attempt(self, layer: int, task: int) -> Iterator[None]:
        """Rows are written into a folder of this attempt's own (under
        ``staging/``) and moved into the layers' folders, each by an atomic
        rename, only when the attempt has written them all.  A file is never
        deleted once published: an attempt of the same task (a retry, or Dask
        running it twice) publishes the same files with the same rows, so a
        reader never finds a file missing, and a task's rows are all there
        before its ``done`` mark is written."""
        stage = (
            self.folder / "staging" / f"{layer:03d}_{task:05d}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        )
        stage.mkdir(parents=True)
        self._staging = stage
        try:
            yield
            for sub in sorted(stage.iterdir()):
                target = self.folder / sub.name
                target.mkdir(exist_ok=True)
                for f in sorted(sub.iterdir()):
                    os.replace(f, target / f.name)
        finally:
            self._staging = None
            shutil.rmtree(stage, ignore_errors=True)

    def clear_staging(self) -> None:
        """Delete what attempts cut short left in ``staging/`` (at a run's start,
        the folder held: no attempt of this run is under way)."""
        shutil.rmtree(self.folder / "staging", ignore_errors=True)

    def get(self, name: str) -> dict[str, Any] | None:
        path = self.folder / f"{name}.json"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        value = json.loads(text)
        if not isinstance(value, dict):
            raise ValueError(f"{path} is not a run's file (not a JSON object)")
        return value

    def set(self, name: str, value: dict[str, Any]) -> None:
        path = self.folder / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(value, indent=1), encoding="utf-8")
        os.replace(tmp, path)

    def disk_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.folder.glob("layer_*/*") if p.is_file())

    def clear_rows(self) -> None:
        """Delete the frontier's rows (the run is over; its marks stay)."""
        for p in self.folder.glob("layer_*/b*.arrow"):
            p.unlink(missing_ok=True)

    def free_bytes(self) -> int:
        return shutil.disk_usage(self.folder).free

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder for this run; a second run is refused (:class:`RunBusy`).
        The lock is the kernel's (flock): a run killed by any means lets go of it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RunBusy(f"another run is using {self.folder}") from None
            yield
        finally:
            os.close(fd)


def _write(path: Path, rows: np.ndarray) -> None:
    """Frontier rows into an Arrow file, compressed (zstd): the positions'
    bytes repeat a great deal (every never-moved card has the same code)."""
    import pyarrow as pa
    import pyarrow.feather as feather

    n = len(rows)
    pos = pa.FixedSizeBinaryArray.from_buffers(
        pa.binary(rows["pos"].shape[1]), n, [None, pa.py_buffer(rows["pos"].tobytes())]
    )
    table = pa.table({"key": rows["key"], "ref": rows["ref"], "pos": pos})
    feather.write_feather(table, str(path), compression="zstd", compression_level=1)


def _load(path: Path) -> np.ndarray:
    """Frontier rows from a file of :func:`_write` (its columns checked)."""
    import pyarrow as pa
    import pyarrow.feather as feather

    table = feather.read_table(str(path), memory_map=False)
    want = {"key": pa.int64(), "ref": pa.int64(), "pos": pa.binary(RECORD["pos"].shape[0])}
    if {f.name: f.type for f in table.schema} != want:
        raise ValueError(f"{path} is not a frontier file of this version")
    table = table.combine_chunks()
    n = table.num_rows
    rows = np.empty(n, dtype=RECORD)
    rows["key"] = table.column("key").to_numpy()
    rows["ref"] = table.column("ref").to_numpy()
    if n:
        col = table.column("pos").chunk(0)
        width = RECORD["pos"].shape[0]
        data = np.frombuffer(col.buffers()[1], dtype=np.uint8)
        rows["pos"] = data[col.offset * width : (col.offset + n) * width].reshape(n, width)
    return rows


def _rows_in(path: Path) -> int:
    """Rows in a frontier file."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    with pa.memory_map(str(path)) as src, ipc.open_file(src) as f:
        return sum(f.get_batch(i).num_rows for i in range(f.num_record_batches))
