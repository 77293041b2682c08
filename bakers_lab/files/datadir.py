"""Where the survey data is: one function that every reader of the surveys asks.

The full surveys (one directory each, with every game's moves) live in the
repository's ``data/``; an installed package carries a compact table instead,
``bakers_lab/outcomes.parquet``: the same rows and columns without the moves
(``solution``) and the timings (``seconds``), which is all that the claims, the
skill curves, the located claims, the ratings and the notebooks' tables need.

:func:`find_data` chooses, first that applies:

1. the ``data`` argument (``--data DIR`` on the command line): a directory of
   surveys, or a compact table (a ``.parquet`` file);
2. the environment variable ``BAKERS_LAB_DATA``, the same;
3. the ``data/`` of the repository this package sits in (a clone);
4. the compact table shipped in the package (an installed wheel).

>>> find_data().kind in ("full", "compact")
True
>>> find_data("no/such/dir")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bakers_lab.files.table.SurveyError: no surveys in no/such/dir: it does not exist; ...

``python -m bakers_lab.files.datadir --out bakers_lab/outcomes.parquet`` (``make
outcomes``) makes the compact table from the surveys in ``data/``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

import pandas as pd

from bakers_lab.files.table import (
    MANIFEST,
    SurveyError,
    for_disk,
    read_manifest,
    read_parquet_file,
    read_survey,
    upgrade,
)
from bakers_lab.files.userfile import write_user_file
from bakers_lab.utils.validate import shown

__all__ = [
    "COMPACT_FILE",
    "DROPPED",
    "ENV",
    "FULL_DATA_HINT",
    "DataSource",
    "compact_table",
    "copy_notebooks",
    "find_data",
    "load_surveys",
    "repo_data_dir",
    "require_full",
    "shipped_table",
    "write_compact",
]

#: The environment variable that points at a full copy of the surveys (or a compact table).
ENV = "BAKERS_LAB_DATA"
#: The compact table's file name inside the package.
COMPACT_FILE = "outcomes.parquet"
#: The columns of the full surveys that the compact table leaves out.
DROPPED = ("solution", "seconds")
#: Where the full surveys are, in an error's words.
FULL_DATA_HINT = (
    "the full surveys (with every game's moves) are in the data/ directory of the "
    "bakers_lab repository: clone it and pass --data DIR or set BAKERS_LAB_DATA=DIR"
)


@dataclass(frozen=True)
class DataSource:
    """Where the surveys were found: ``kind`` ``"full"`` (a directory of surveys)
    or ``"compact"`` (one table without moves), ``path`` the directory or file,
    ``why`` in words (``"--data"``, ``"BAKERS_LAB_DATA"``, ``"the repository's
    data/"``, ``"shipped with the package"``)."""

    kind: Literal["full", "compact"]
    path: Path
    why: str


def repo_data_dir() -> Path:
    """The ``data/`` directory of the repository this package sits in (it exists
    only in a clone)."""
    return Path(__file__).resolve().parents[2] / "data"  # bakers_lab/files/datadir.py


def shipped_table() -> Path:
    """The compact table shipped inside the package: every survey's rows without the
    moves and timings, read in about a second where the full ``data/`` takes ten.

    >>> load_surveys(shipped_table()).attrs["data"]
    'compact'
    """
    return Path(__file__).resolve().parents[1] / COMPACT_FILE  # bakers_lab/outcomes.parquet


def _has_surveys(root: Path) -> bool:
    return root.is_dir() and any(root.glob(f"*/{MANIFEST}"))


def _given(path: Path, why: str) -> DataSource:
    if path.is_file() and path.suffix == ".parquet":
        return DataSource("compact", path, why)
    if _has_surveys(path):
        return DataSource("full", path, why)
    named = f" ({ENV})" if why == ENV else ""
    if not path.exists():
        raise SurveyError(
            f"no surveys in {shown(str(path), 300)}{named}: it does not exist; give a "
            f"directory of surveys (the repository's data/) or a compact table (.parquet)"
        )
    raise SurveyError(
        f"no surveys in {shown(str(path), 300)}{named}: no subdirectory holds a {MANIFEST}"
    )


def find_data(data: str | os.PathLike[str] | None = None) -> DataSource:
    """Where the surveys are (see the module's text for the order).

    >>> find_data(shipped_table()).kind  # the shipped table, given
    'compact'
    """
    if data is not None:
        return _given(Path(data), "--data")
    env = os.environ.get(ENV, "")
    if env:
        return _given(Path(env), ENV)
    repo = repo_data_dir()
    if _has_surveys(repo):
        return DataSource("full", repo, "the repository's data/")
    shipped = resources.files("bakers_lab").joinpath(COMPACT_FILE)
    with resources.as_file(shipped) as p:
        if p.is_file():
            return DataSource("compact", p, "shipped with the package")
    raise SurveyError(
        f"no surveys found: no {ENV}, no data/ beside the package and no {COMPACT_FILE} "
        f"in it; {FULL_DATA_HINT}"
    )


def _budget(config: dict[str, object], player: str) -> int | None:
    """The search budget a survey gave ``player``'s rows (None: a player without one)."""
    key = {"solver": "max_nodes", "shortest": "shortest_max_nodes"}.get(player)
    value = config.get(key) if key is not None else None
    return value if isinstance(value, int) else None


#: What a row's game is: two surveys that agree on these hold the same game.
_GAME = ("outcome", "moves", "nodes", "solution")


def _full_table(root: Path) -> pd.DataFrame:
    """Every survey under ``root`` in one table.

    The same (deal, variant, player) may stand in two surveys.  Where the rows
    are the same game (the ablation repeats ``careful``), one is kept.  Where
    they differ, they were made with different settings: for the solver and
    par (``shortest``), the rows of the survey with the larger budget are kept
    (a verdict of a larger search is never weaker), and ``attrs["superseded"]``
    says which folder gave way; any other difference (the same budget, or a
    player without one) is refused, naming both folders, never settled by the
    order the folders sort in."""
    dirs = sorted(p.parent for p in root.glob(f"*/{MANIFEST}"))
    if not dirs:
        raise SurveyError(f"no surveys in {root}: no subdirectory holds a {MANIFEST}")
    parts = []
    for i, d in enumerate(dirs):
        t = read_survey(d)
        config = read_manifest(d / MANIFEST)
        player = t["player"].astype(str)
        budget = player.map({p: _budget(config, p) for p in player.unique()})
        parts.append(t.assign(variant=t["variant"].astype(str), player=player,
                              _folder=i, _budget=budget.astype("Int64")))  # fmt: skip
    table = pd.concat(parts, ignore_index=True)
    key = ["deal", "variant", "player"]
    repeated = table.duplicated(key, keep=False).to_numpy()
    notes: list[str] = []
    if repeated.any():
        game = [c for c in _GAME if c in table.columns]
        rows = table.loc[repeated, [*key, *game, "_folder", "_budget"]]  # (not the moves)
        kinds = rows.groupby(key, sort=False, observed=True)[game].nunique(dropna=False)
        differ = kinds.index[(kinds.max(axis=1) > 1).to_numpy()]
        apart = pd.MultiIndex.from_frame(rows[key]).isin(differ)
        # the same game twice: keep one
        drop = list(rows.index[~apart & rows.duplicated(key).to_numpy()])
        for (deal, variant, player), group in rows[apart].groupby(key, sort=False):
            budgets = group["_budget"]
            best = budgets.max()
            top = group[budgets == best] if budgets.notna().all() else group
            if len(top) != 1:
                names = [str(dirs[int(f)]) for f in group["_folder"]]
                raise SurveyError(
                    f"{names[0]} and {names[1]} hold different games of {player} on "
                    f"{variant} deal {deal} with the same settings; keep one of them in "
                    f"{root}"
                )
            kept = int(top["_folder"].iloc[0])
            for f in group["_folder"]:
                if int(f) != kept:
                    notes.append(f"{dirs[int(f)].name} gave way to {dirs[kept].name}")
            drop += [i for i in group.index if i != top.index[0]]
        table = table.drop(index=drop)
    table = table.drop(columns=["_folder", "_budget"]).reset_index(drop=True)
    if notes:
        counts = pd.Series(notes).value_counts()
        table.attrs["superseded"] = "; ".join(
            f"{n:,} row{'s' * (n > 1)} of {text} (a larger budget)" for text, n in counts.items()
        )
    return table


def compact_table(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (as :func:`load_surveys` reads the full surveys) without the
    columns of :data:`DROPPED`: what the compact table holds.

    >>> t = pd.DataFrame({"deal": [1], "outcome": ["won"], "solution": ["AD>F"],
    ...                   "seconds": [0.1]})
    >>> list(compact_table(t).columns)
    ['deal', 'outcome']
    """
    return table.drop(columns=[c for c in DROPPED if c in table.columns])


def _read_compact(path: Path) -> pd.DataFrame:
    table = read_parquet_file(
        path, lambda exc: f"not a readable compact table ({type(exc).__name__}); {FULL_DATA_HINT}"
    )
    missing = [c for c in ("deal", "variant", "player", "outcome") if c not in table.columns]
    if missing:
        raise SurveyError(
            f"{shown(str(path), 200)} is not a compact survey table: it has no {', '.join(missing)}"
        )
    table = upgrade(table)
    return table.assign(variant=table["variant"].astype(str), player=table["player"].astype(str))


def load_surveys(data: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Every survey that :func:`find_data` finds, in one table (one row per deal,
    variant and player; ``variant`` and ``player`` as plain strings).  From the
    compact table it has no ``solution`` or ``seconds`` column, and
    ``attrs["data"]`` says which kind was read.

    >>> t = load_surveys(shipped_table())
    >>> t.attrs["data"], {"deal", "outcome", "moves"} <= set(t.columns), "solution" in t
    ('compact', True, False)
    """
    source = find_data(data)
    table = _full_table(source.path) if source.kind == "full" else _read_compact(source.path)
    table.attrs["data"] = source.kind
    table.attrs["data_path"] = str(source.path)
    return table


def require_full(table: pd.DataFrame, what: str, columns: Sequence[str] = ("solution",)) -> None:
    """Raise a one-line :class:`~bakers_lab.files.table.SurveyError` when ``table`` lacks
    ``columns`` (the compact table has no moves), saying where the full data is.

    >>> require_full(pd.DataFrame({"deal": [1]}), "a replay")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.files.table.SurveyError: a replay needs the games' moves (solution), which the ...
    """
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise SurveyError(
            f"{what} needs the games' moves ({', '.join(missing)}), which the compact table "
            f"shipped with the package leaves out; {FULL_DATA_HINT}"
        )


def write_compact(data: str | os.PathLike[str], out: str | os.PathLike[str]) -> pd.DataFrame:
    """Write the compact table of the full surveys in ``data`` to ``out``
    (Parquet, zstd); return the table written."""
    source = find_data(data)
    if source.kind != "full":
        raise SurveyError(
            f"{shown(str(source.path), 300)} is a compact table; the compact table is made "
            f"from a directory of full surveys"
        )
    table = compact_table(_full_table(source.path))
    disk = for_disk(table)
    for c in ("variant", "player"):  # few distinct names: a dictionary on disk
        disk[c] = disk[c].astype("category")
    disk.to_parquet(out, index=False, compression="zstd", compression_level=19)
    return table


def copy_notebooks(out: str | os.PathLike[str], *, force: bool = False) -> list[Path]:
    """Copy the notebooks shipped with the package into the directory ``out``
    (made if missing); return the files written.  A notebook already in ``out``
    is overwritten only with ``force``.  Opened from there, they find the surveys
    through :func:`find_data`, as the library does.

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> [p.name for p in copy_notebooks(d)][:2]
    ['01_replay.ipynb', '02_win_rates.ipynb']
    >>> copy_notebooks(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileExistsError: ...01_replay.ipynb already exists (and 4 more notebooks); add --force ...
    """
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"{target} is a file, not a directory; give a directory")
    shipped = resources.files("bakers_lab").joinpath("notebooks")
    sources = sorted(
        (p for p in shipped.iterdir() if p.name.endswith(".ipynb")), key=lambda p: p.name
    )
    if not sources:
        raise FileNotFoundError("this installation of bakers_lab has no notebooks")
    links = [target / p.name for p in sources if (target / p.name).is_symlink()]
    if links:  # refused before anything is written
        raise FileExistsError(
            f"{links[0]} is a symbolic link: no notebook is written through one; remove it, "
            f"or choose another directory"
        )
    there = [target / p.name for p in sources if (target / p.name).exists()]
    if there and not force:
        more = f" (and {len(there) - 1} more notebooks)" if len(there) > 1 else ""
        raise FileExistsError(
            f"{there[0]} already exists{more}; add --force to overwrite, "
            f"or choose another directory"
        )
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for p in sources:
        dest = target / p.name
        write_user_file(dest, p.read_bytes())  # whole or not at all: --force keeps the old
        # copy until the new one is written
        written.append(dest)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bakers_lab.files.datadir [--data DIR] --out FILE``: make the compact table."""
    parser = argparse.ArgumentParser(
        prog="python -m bakers_lab.files.datadir",
        description="Write the compact outcome table (the surveys without moves and "
        "timings) that ships with the package.",
    )
    parser.add_argument("--data", metavar="DIR", help="directory of surveys (default: data/)")
    parser.add_argument("--out", required=True, metavar="FILE", help="the Parquet file to write")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    print("reading the surveys (about ten seconds)…", file=sys.stderr, flush=True)
    data = args.data if args.data is not None else repo_data_dir()
    table = write_compact(data, args.out)
    size = Path(args.out).stat().st_size
    print(
        f"{len(table):,} rows written to {args.out}: {size / 2**20:.2f} MiB "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
