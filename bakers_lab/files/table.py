"""The survey table on disk: its schema, the ``deal`` column, reading and checking chunks.

A survey directory holds ``chunk-NNNNNN.parquet`` files (one per chunk of deals) and
``_survey.json`` (the configuration).  This module knows how a chunk looks and reads
one back; :mod:`bakers_lab.study.survey` decides what to compute.

**Why ``deal`` is stored as ``decimal128(20, 0)`` and read back as Python ints.**
PySolFC's game numbers run to ``10**20 - 1``, and a uniform sample over them is above
``2**63`` nine times in ten, above ``2**64`` most of the time: no integer type of
numpy, pandas or Parquet holds them.  On disk the column is a 20-digit decimal with
no fraction: it holds every number exactly and is a standard Parquet logical type
that every reader understands (plain ``pandas.read_parquet`` gives exact
``decimal.Decimal`` values).  In memory, :func:`read_survey` and ``bl.survey`` give
a column of Python ``int`` (``object`` dtype): exact, sorted numerically, and it
compares with any Python integer (``df[df.deal == 10**20 - 1]``), which pandas'
Arrow decimal dtype does not do above ``2**63``; its values go straight back into
``bl.deal(...)``.  Tables written before this column type (``int64``) are read the
same way.

>>> s = deal_series([417, 10**20 - 1])
>>> s.dtype, s.tolist()
(dtype('O'), [417, 99999999999999999999])
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from bakers_lab.utils.validate import describe, shown

__all__ = [
    "CHECKSUMS",
    "CORE_COLUMNS",
    "DEAL_TYPE",
    "MANIFEST",
    "OUTCOMES",
    "TABLE_FORMAT",
    "Layout",
    "SurveyError",
    "by_deal",
    "check_chunk",
    "check_digest",
    "check_files",
    "chunk_files",
    "chunk_path",
    "deal_series",
    "deals_digest",
    "file_digest",
    "for_disk",
    "not_a_chunk_file",
    "read_chunk",
    "read_chunks",
    "read_manifest",
    "read_parquet_file",
    "read_survey",
    "record_digest",
    "recorded_digests",
    "same_survey",
    "upgrade",
]

#: The ``deal`` column's type on disk: every PySolFC game number (1 … 10**20 - 1), exactly.
DEAL_TYPE = pa.decimal128(20, 0)
#: Outcome categories, in this order, in every table.
OUTCOMES = ("won", "lost", "unresolved")
#: The columns every chunk has, whatever its players (the ``f_*`` features follow them).
CORE_COLUMNS = ("deal", "variant", "player", "outcome", "moves", "nodes", "seconds", "solution")
#: A survey's configuration file, in its directory.
MANIFEST = "_survey.json"
#: Version of the on-disk table, kept in ``_survey.json``: 2 since ``deal`` is decimal.
TABLE_FORMAT = 2


class SurveyError(ValueError):
    """A survey that cannot run as asked (bad deals, players, or an output
    directory that holds another survey), or a directory whose files are damaged."""


def deal_series(numbers: Iterable[object]) -> pd.Series:
    """Game numbers as an in-memory ``deal`` column: Python ints, ``object`` dtype."""
    return pd.Series([int(n) for n in numbers], dtype=object, name="deal")  # type: ignore[call-overload]


def upgrade(table: pd.DataFrame) -> pd.DataFrame:
    """A table as read from disk with its ``deal`` column as Python ints (on disk it is
    decimal, or int64 in tables written before the decimal column)."""
    if "deal" not in table.columns:
        return table
    return table.assign(deal=deal_series(table["deal"]).values)


def for_disk(table: pd.DataFrame) -> pd.DataFrame:
    """A table ready for Parquet: its ``deal`` column as :data:`DEAL_TYPE`."""
    array = pa.array([int(n) for n in table["deal"]], type=DEAL_TYPE)
    return table.assign(deal=pd.arrays.ArrowExtensionArray(array))


def chunk_path(out: str | os.PathLike[str], index: int) -> Path:
    """Where chunk ``index`` of a survey in ``out`` is stored."""
    return Path(out) / f"chunk-{index:06d}.parquet"


def chunk_files(out: str | os.PathLike[str]) -> list[Path]:
    """The chunk files in ``out``, in chunk order."""
    return sorted(Path(out).glob("chunk-*.parquet"))


_RECOMPUTE = "delete it and run the survey again to recompute that chunk"


def read_parquet_file(path: Path, why: Callable[[Exception], str]) -> pd.DataFrame:
    """``path`` read by pandas; a file it cannot read raises :class:`SurveyError`
    ``"{path} is {why(error)}"`` (pyarrow raises several types for a damaged file).

    >>> read_parquet_file(Path("/nowhere.parquet"), lambda e: "not there")
    Traceback (most recent call last):
    ...
    bakers_lab.files.table.SurveyError: /nowhere.parquet is not there
    """
    try:
        return pd.read_parquet(path)
    except Exception as exc:
        raise SurveyError(f"{shown(str(path), 200)} is {why(exc)}") from None


def not_a_chunk_file(path: Path) -> SurveyError:
    """The error for ``path``, named like a chunk but no plain file (a directory, a pipe)."""
    return SurveyError(
        f"{shown(str(path), 200)} is not a file (a directory named like a chunk?); {_RECOMPUTE}"
    )


def read_chunk(path: Path) -> pd.DataFrame:
    """One chunk file as a table; a file Parquet cannot read raises :class:`SurveyError`
    naming it."""
    if not path.is_file():
        raise not_a_chunk_file(path)
    table = read_parquet_file(  # pyarrow's own words run over lines: never shown
        path, lambda exc: f"damaged: Parquet cannot read it; {_RECOMPUTE}"
    )
    try:
        return upgrade(table)
    except (TypeError, ValueError, ArithmeticError):  # a deal that is no integer (NaN, text)
        raise SurveyError(f"{path} holds a deal that is not a game number; {_RECOMPUTE}") from None


def read_manifest(manifest: Path) -> dict[str, Any]:
    """A survey's ``_survey.json`` as a dict; anything else is named in one line."""
    try:
        old = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SurveyError(
            f"{manifest} is not a survey configuration ({shown(str(exc), 120)}); "
            f"choose another --out or delete that directory"
        ) from None
    if not isinstance(old, dict):
        raise SurveyError(
            f"{manifest} holds {type(old).__name__} JSON, not a survey configuration "
            f"(an object); choose another --out or delete that directory"
        )
    return old


#: The ``_survey.json`` field that keeps each finished chunk's SHA-256 (by chunk
#: number, six digits): a chunk whose bytes no longer match is named, never read.
CHECKSUMS = "chunk_sha256"


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def recorded_digests(config: dict[str, Any]) -> dict[str, str]:
    """The chunk checksums a manifest keeps (none for a survey made before they were)."""
    kept = config.get(CHECKSUMS, {})
    return kept if isinstance(kept, dict) else {}


def same_survey(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The fields in which two survey configurations differ (none: the same survey).
    One rule for a resume and for reading: every field counts, the players in their
    order included, but for the chunk checksums (what was done, not what is asked)."""
    keys = [k for k in dict.fromkeys([*new, *old]) if k != CHECKSUMS]
    return [k for k in keys if old.get(k) != new.get(k)]


def check_digest(path: Path, index: int, recorded: dict[str, str]) -> None:
    """Raise :class:`SurveyError` if chunk ``index`` has a recorded checksum that its
    bytes no longer match."""
    want = recorded.get(f"{index:06d}")
    if want is not None and file_digest(path) != want:
        raise SurveyError(
            f"chunk {index} ({path.name}) changed after it was written: delete it and run "
            f"the survey again to recompute it"
        )


def record_digest(manifest: Path, index: int, digest: str) -> None:
    """Keep chunk ``index``'s checksum in ``manifest`` (rewritten atomically; only the
    survey's one writer calls this)."""
    config = read_manifest(manifest)
    kept = dict(recorded_digests(config))
    kept[f"{index:06d}"] = digest
    config[CHECKSUMS] = dict(sorted(kept.items()))
    tmp = manifest.with_name(f".{manifest.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(config, indent=1), encoding="utf-8")
    os.replace(tmp, manifest)


@dataclass(frozen=True)
class Layout:
    """What a survey's chunks must hold, from its configuration: the variant, the
    players, how many deals, and how many a chunk (all but the last)."""

    variant: str
    players: tuple[str, ...]
    n_deals: int
    chunk_size: int
    deals_sha256: str | None = None

    @property
    def n_chunks(self) -> int:
        """How many chunk files the survey has."""
        return -(-self.n_deals // self.chunk_size)

    def deals_in(self, index: int) -> int:
        """How many deals chunk ``index`` holds."""
        return min(self.chunk_size, self.n_deals - index * self.chunk_size)

    @classmethod
    def of(cls, manifest: Path) -> Layout:
        """The layout a ``_survey.json`` describes; a manifest lacking a field is named."""
        config = read_manifest(manifest)
        try:
            players = config["players"]
            layout = cls(str(config["variant"]), tuple(str(p) for p in players),
                         int(config["deals"]), int(config["chunk_size"]),
                         config.get("deals_sha256"))  # fmt: skip
        except (KeyError, TypeError, ValueError):
            raise SurveyError(
                f"{manifest} is not a survey configuration (it needs variant, players, deals "
                f"and chunk_size); choose another --out or delete that directory"
            ) from None
        if layout.n_deals < 1 or layout.chunk_size < 1 or not layout.players:
            raise SurveyError(f"{manifest} describes no deals or no players: not a survey")
        return layout


def check_files(out: Path, layout: Layout, *, complete: bool) -> None:
    """Raise :class:`SurveyError` naming the first file in ``out`` that is not one of
    the survey's chunk files (a stray ``chunk-*.parquet``, a directory named like one)
    and, with ``complete``, the first chunk that is missing."""
    names = {chunk_path(out, i).name for i in range(layout.n_chunks)}
    for path in chunk_files(out):
        if path.name not in names:
            last = chunk_path(out, layout.n_chunks - 1).name
            raise SurveyError(
                f"{path} is not one of this survey's {layout.n_chunks} chunks "
                f"(chunk-000000.parquet to {last}); it came from elsewhere: delete it"
            )
        if not path.is_file():
            raise not_a_chunk_file(path)
    if complete:
        for i in range(layout.n_chunks):
            if not chunk_path(out, i).exists():
                raise SurveyError(
                    f"{chunk_path(out, i)} is missing: the survey in {out} is not finished "
                    f"(it has {len(chunk_files(out))} of its {layout.n_chunks} chunks); run it "
                    f"again to finish it"
                )


def check_chunk(
    path: Path,
    table: pd.DataFrame,
    layout: Layout,
    index: int,
    *,
    numbers: Sequence[int] | None = None,
    columns: Sequence[str] | None = None,
) -> list[int]:
    """Raise :class:`SurveyError` naming ``path`` unless its table is chunk ``index``
    of ``layout``: the survey's columns (``columns``: those of its other chunks), its
    variant, an outcome of :data:`OUTCOMES` in every row, exactly one row for each of
    its deals (``numbers``, where they are known; else the right number of them) and
    each player.  Returns its deals, in order."""
    what = f"{path} is not chunk {index} of this survey"
    missing = [c for c in CORE_COLUMNS if c not in table.columns]
    if missing:
        raise SurveyError(f"{what}: it lacks the column(s) {', '.join(missing)}; {_RECOMPUTE}")
    if columns is not None and list(table.columns) != list(columns):
        odd = sorted(set(table.columns) ^ set(columns)) or ["their order"]
        raise SurveyError(f"{what}: its columns differ from the other chunks' "
                          f"({shown(', '.join(odd))}); {_RECOMPUTE}")  # fmt: skip
    variants = sorted({str(v) for v in table["variant"].tolist()})
    if variants != [layout.variant]:
        raise SurveyError(f"{what}: it holds rows of {shown(', '.join(variants))}, not "
                          f"{layout.variant}; {_RECOMPUTE}")  # fmt: skip
    outcome = table["outcome"]
    bad = ~outcome.isin(OUTCOMES)  # (a missing outcome too)
    if bad.any():
        value = outcome[bad].iloc[0]
        raise SurveyError(f"{what}: it holds an outcome {shown(repr(value), 30)}, not won, "
                          f"lost or unresolved; {_RECOMPUTE}")  # fmt: skip
    players = [str(p) for p in table["player"].tolist()]
    strange = sorted(set(players) - set(layout.players))
    if strange:
        raise SurveyError(f"{what}: it holds games of {shown(', '.join(strange))}, a player "
                          f"this survey does not have; {_RECOMPUTE}")  # fmt: skip
    deals = [int(n) for n in table["deal"].tolist()]
    order = list(dict.fromkeys(deals))
    first = [p for d, p in zip(deals, players, strict=True) if d == deals[0]] if deals else []
    if len(first) == len(layout.players) and tuple(first) != layout.players:
        raise SurveyError(
            f"{what}: its players come in the order {', '.join(first)}, and its {MANIFEST} "
            f"says {', '.join(layout.players)} (was {MANIFEST} changed?); {_RECOMPUTE}"
        )
    want = list(numbers) if numbers is not None else None
    pairs = set(zip(deals, players, strict=True))
    size = layout.deals_in(index)
    if (
        len(pairs) == len(table) == size * len(layout.players)
        and want is not None
        and order != want
    ):
        raise SurveyError(f"{what}: it holds other deals ({_few(order)}) than the survey's "
                          f"({_few(want)}); {_RECOMPUTE}")  # fmt: skip
    if (
        len(pairs) != len(table)
        or len(table) != len(order) * len(layout.players)
        or len(order) != size
    ):
        raise SurveyError(
            f"{path} holds {len(table)} rows that are not its chunk's {size * len(layout.players)} "
            f"(deal, player) pairs; {_RECOMPUTE}"
        )
    return order


def _few(numbers: Sequence[int]) -> str:
    """The first deals of a list, for a message: ``1, 2, 3, ...``."""
    return ", ".join(map(str, numbers[:3])) + (", ..." if len(numbers) > 3 else "")


def read_survey(out: str | os.PathLike[str]) -> pd.DataFrame:
    """The survey table in ``out``, sorted by deal and player.

    Every chunk is checked against the survey's ``_survey.json`` (its checksum
    where the manifest keeps one, names, count, columns, variant, players and
    their order, outcomes and deals); :class:`SurveyError` names the first file
    that does not fit, and says so when ``out`` holds no survey.
    """
    if not isinstance(out, (str, os.PathLike)) or not str(out).strip():
        raise SurveyError(f"a survey is read from a directory path, not {describe(out)}")
    if "\x00" in str(out):
        raise SurveyError(f"a survey is read from a directory path, which holds no NUL "
                          f"character, not {shown(repr(str(out)))}")  # fmt: skip
    files = chunk_files(out)
    if not files:
        what = "is not a directory" if not Path(out).is_dir() else "holds no chunk-*.parquet files"
        raise SurveyError(f"no survey in {out}: it {what}")
    manifest = Path(out) / MANIFEST
    if not manifest.exists():
        raise SurveyError(
            f"{out} holds chunk files but no {MANIFEST}: not a survey bl.survey wrote "
            f"(pandas.read_parquet reads such files as they are)"
        )
    layout = Layout.of(manifest)
    recorded = recorded_digests(read_manifest(manifest))
    check_files(Path(out), layout, complete=True)
    table, deals = read_chunks(Path(out), layout, recorded)
    if layout.deals_sha256 is not None and deals_digest(deals) != layout.deals_sha256:
        raise SurveyError(
            f"the chunks in {out} hold other deals than its {MANIFEST} was made for (their "
            f"digest differs); a chunk was replaced: run the survey again in a new directory"
        )
    return by_deal(table)


def by_deal(table: pd.DataFrame) -> pd.DataFrame:
    """A survey table sorted by deal and player (stable), with a fresh index.  The
    order is found on those two columns alone, and the rows are moved only when they
    are out of order (a survey's chunks come in order: the games' moves are long text,
    costly to move).

    >>> t = pd.DataFrame({"deal": [2, 1, 1], "player": ["a", "b", "a"], "moves": [5, 6, 7]})
    >>> by_deal(t)["moves"].tolist()
    [7, 6, 5]
    """
    order = table[["deal", "player"]].sort_values(["deal", "player"], kind="stable").index
    if not (order == table.index).all():
        table = table.loc[order]
    return table.reset_index(drop=True)


def read_chunks(
    out: Path,
    layout: Layout,
    recorded: dict[str, str],
    *,
    numbers: Sequence[Sequence[int]] | None = None,
    checked: Callable[[int, Path], None] | None = None,
) -> tuple[pd.DataFrame, list[int]]:
    """Every chunk of the survey in ``out``, checked (:func:`check_digest`,
    :func:`read_chunk`, :func:`check_chunk`; ``numbers``: each chunk's deals, where
    they are known) and put together in chunk order: (the table, its deals in order).
    ``checked(i, path)`` is called for each chunk that passed, in order.

    The chunks are read into one Arrow table and turned into pandas once (a third of
    the time of reading each with pandas).  A survey that does not pass that way is
    read again one chunk at a time, which names the first chunk that does not fit,
    as reading one at a time always has."""
    try:
        whole, order = _read_at_once(out, layout, recorded, numbers)
    except Exception:  # a damaged or odd survey (pyarrow raises many types):
        pass  # reading one chunk at a time says which chunk, in words
    else:
        if checked is not None:  # (outside the try: its own errors are its caller's)
            for i in range(layout.n_chunks):
                checked(i, chunk_path(out, i))
        return whole, order
    parts: list[pd.DataFrame] = []
    deals: list[int] = []
    for i in range(layout.n_chunks):
        path = chunk_path(out, i)
        if not path.exists():
            raise SurveyError(f"{path} is missing; run the survey again to recompute it")
        if not path.is_file():  # (before its checksum: a pipe would be waited on)
            raise not_a_chunk_file(path)
        check_digest(path, i, recorded)
        table = read_chunk(path)
        columns = list(parts[0].columns) if parts else None
        want = numbers[i] if numbers is not None else None
        deals += check_chunk(path, table, layout, i, numbers=want, columns=columns)
        if checked is not None:
            checked(i, path)
        parts.append(table)
    return pd.concat(parts, ignore_index=True), deals


def _read_at_once(
    out: Path,
    layout: Layout,
    recorded: dict[str, str],
    numbers: Sequence[Sequence[int]] | None,
) -> tuple[pd.DataFrame, list[int]]:
    """:func:`read_chunks` for a survey whose every chunk passes; anything else
    raises (any exception: the caller reads again one chunk at a time)."""
    tables: list[pa.Table] = []
    for i in range(layout.n_chunks):
        path = chunk_path(out, i)
        if not path.is_file():  # (a pipe named like a chunk would never end)
            raise SurveyError("not a file")
        data = path.read_bytes()
        want = recorded.get(f"{i:06d}")
        if want is not None and hashlib.sha256(data).hexdigest() != want:
            raise SurveyError("a changed chunk")
        with pq.ParquetFile(pa.BufferReader(data)) as f:
            tables.append(f.read())
    whole = upgrade(pa.concat_tables(tables).to_pandas(types_mapper=_strings()))
    deals: list[int] = []
    start = 0
    for i, t in enumerate(tables):
        rows = whole.iloc[start : start + t.num_rows]
        want_deals = numbers[i] if numbers is not None else None
        deals += check_chunk(chunk_path(out, i), rows, layout, i, numbers=want_deals)
        start += t.num_rows
    return whole, deals


def _strings() -> Callable[[pa.DataType], Any] | None:
    """The pandas type of Arrow's strings, as :func:`pandas.read_parquet` chooses it:
    the type pandas gives text (``str`` since pandas 3, else ``object``)."""
    text = pd.Series(["text"]).dtype
    if pd.api.types.is_object_dtype(text):
        return None
    return {pa.string(): text, pa.large_string(): text}.get


def deals_digest(numbers: Sequence[int]) -> str:
    """The SHA-256 of a survey's deal list, as its ``_survey.json`` keeps it."""
    return hashlib.sha256(",".join(map(str, numbers)).encode()).hexdigest()
