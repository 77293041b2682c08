"""The survey table on disk: its schema, the ``deal`` column, reading and checking chunks.

A survey directory holds ``chunk-NNNNNN.parquet`` files (one per chunk of deals) and
``_survey.json`` (the configuration).  This module knows how a chunk looks and reads
one back; :mod:`bakers_lab.survey` decides what to compute.

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

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa

__all__ = [
    "DEAL_TYPE",
    "OUTCOMES",
    "TABLE_FORMAT",
    "SurveyError",
    "chunk_files",
    "chunk_path",
    "deal_series",
    "for_disk",
    "read_chunk",
    "read_survey",
    "upgrade",
]

#: The ``deal`` column's type on disk: every PySolFC game number (1 … 10**20 - 1), exactly.
DEAL_TYPE = pa.decimal128(20, 0)
#: Outcome categories, in this order, in every table.
OUTCOMES = ("won", "lost", "unresolved")
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


def read_chunk(path: Path) -> pd.DataFrame:
    """One chunk file as a table; a file Parquet cannot read raises :class:`SurveyError`
    naming it."""
    try:
        table = pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise SurveyError(
            f"{path} is unreadable ({type(exc).__name__}: {str(exc)[:120]}); "
            f"delete it and run the survey again to recompute that chunk"
        ) from None
    return upgrade(table)


def read_survey(out: str | os.PathLike[str]) -> pd.DataFrame:
    """The survey table in ``out``, sorted by deal and player.

    Raises :class:`SurveyError` when ``out`` holds no survey or a chunk is unreadable.
    """
    if not isinstance(out, (str, os.PathLike)) or not str(out).strip():
        raise SurveyError(f"a survey is read from a directory path, not {out!r}")
    files = chunk_files(out)
    if not files:
        what = "is not a directory" if not Path(out).is_dir() else "holds no chunk-*.parquet files"
        raise SurveyError(f"no survey in {out}: it {what}")
    table = pd.concat([read_chunk(f) for f in files], ignore_index=True)
    return table.sort_values(["deal", "player"], kind="stable").reset_index(drop=True)
