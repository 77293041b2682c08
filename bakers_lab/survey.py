"""Surveys: many numbered deals solved in parallel into one Parquet table.

>>> import bakers_lab as bl, tempfile
>>> out = tempfile.mkdtemp() + "/s"
>>> df = bl.survey("1-3", out=out, progress=False)
>>> df["deal"].tolist(), df["outcome"].astype(str).tolist()
([1, 2, 3], ['won', 'won', 'won'])

How a survey runs:

- The deals are split into chunks (``chunk_size`` deals; start-up and numba
  loading are paid once per worker, not per deal).  Each chunk deals its games,
  computes their features (vectorised), runs every player on every deal, and
  writes one Parquet file, atomically (a hidden temporary file, then a rename).
- Chunks run with joblib: ``loky`` worker processes by default (``n_jobs=-1``:
  every core), or joblib's Dask backend on a ``dask.distributed`` cluster
  (``backend="dask"``, ``scheduler="tcp://…"``).  Every result is a function of
  (deal, rules, player, budget) only, so the table is the same whatever the
  backend and ``n_jobs`` (but for the ``seconds`` column, which is measured).
- ``out`` is a directory: the chunk files plus ``_survey.json``, the
  configuration.  Running the same survey again skips the chunks already
  written, so a killed run loses at most the chunks in flight and resumes
  where it stopped; a different configuration into the same directory is
  refused.  ``pandas.read_parquet(out)`` reads the table.

Table: one row per (deal, variant, player) with ``deal`` (int64), ``variant``,
``player``, ``outcome`` (categoricals; ``won`` / ``lost`` / ``unresolved``: for
the solver won = solvable, lost = proven unsolvable), ``moves``, ``nodes``
(int64), ``seconds`` (float64), ``solution`` (str, solver rows) and the deal's
``f_*`` features.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence, Union

import pandas as pd

from .deals import deal as _deal
from .rules import Rules, rules as _rules
from .shuffles import MAX_GAME_NUMBER, _SplitMix64

__all__ = ["survey", "parse_deals", "sample_deals", "SurveyError", "PLAYERS", "read_survey",
           "OUTCOMES"]

#: The players a survey can run (human-like players join with their issue).
PLAYERS = ("solver",)
#: Outcome categories, in this order, in every table.
OUTCOMES = ("won", "lost", "unresolved")
_MANIFEST = "_survey.json"
_SOLVER_OUTCOME = {"solved": "won", "unsolvable": "lost", "unresolved": "unresolved"}


class SurveyError(ValueError):
    """A survey that cannot run as asked (bad deals, players, or an output
    directory that holds another survey)."""


def parse_deals(spec: Union[str, Iterable[int]]) -> list[int]:
    """Game numbers from ``"1-1000,5000-5999,417"`` (or any iterable of ints),
    in the order given, without repeats.

    >>> parse_deals("3-5,1,4")
    [3, 4, 5, 1]
    """
    numbers: list[int] = []
    if isinstance(spec, str):
        for part in spec.replace(" ", "").split(","):
            if not part:
                continue
            a, sep, b = part.partition("-")
            try:
                lo, hi = int(a), int(b) if sep else int(a)
            except ValueError:
                raise SurveyError(f"bad deal range {part!r} (expected like 1-1000,5000-5999,417)") from None
            if hi < lo:
                raise SurveyError(f"bad deal range {part!r}: {hi} is below {lo}")
            numbers.extend(range(lo, hi + 1))
    else:
        numbers = [int(n) for n in spec]
    seen: set[int] = set()
    out = []
    for n in numbers:
        if not 1 <= n <= MAX_GAME_NUMBER:
            raise SurveyError(f"game numbers run from 1 to {MAX_GAME_NUMBER}; got {n}")
        if n not in seen:
            seen.add(n)
            out.append(n)
    if not out:
        raise SurveyError("no deals to survey")
    return out


def sample_deals(k: int, seed: int = 0) -> list[int]:
    """``k`` distinct game numbers drawn uniformly from PySolFC's whole numbering
    (1 … 10**20 - 1), for estimates free of any quirk of the small-number
    generator.  The same (k, seed) gives the same numbers on every machine.

    >>> sample_deals(3, seed=1)
    [69676766662697071657, 9843623091880111806, 81124391476779755328]
    """
    if k < 1:
        raise SurveyError(f"sample size must be at least 1, not {k}")
    rng = _SplitMix64(seed)
    span = MAX_GAME_NUMBER  # numbers 1 … span: more than 2**64, so draw 128 bits
    limit = (1 << 128) - (1 << 128) % span
    out: list[int] = []
    seen: set[int] = set()
    while len(out) < k:
        v = (rng.next64() << 64) | rng.next64()
        if v >= limit:
            continue
        n = 1 + v % span
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


@dataclass(frozen=True)
class _Config:
    variant: Rules
    players: tuple[str, ...]
    max_nodes: int
    chunk_size: int
    deals_digest: str
    n_deals: int

    def to_json(self) -> dict[str, object]:
        return {"variant": self.variant.name, "rules": repr(self.variant),
                "players": list(self.players), "max_nodes": self.max_nodes,
                "chunk_size": self.chunk_size, "deals_sha256": self.deals_digest,
                "deals": self.n_deals}


def _digest(numbers: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, numbers)).encode()).hexdigest()


def _chunk_table(numbers: Sequence[int], r: Rules, players: Sequence[str],
                 max_nodes: int) -> pd.DataFrame:
    """Deal, featurise and play one chunk: the rows of its Parquet file."""
    from .features import deal_features
    from .solve import solve

    deals = [_deal(n, variant=r) for n in numbers]
    feats = deal_features(deals)
    rows = []
    for d in deals:
        for player in players:
            res = solve(d, max_nodes=max_nodes)
            rows.append((d.number, player, _SOLVER_OUTCOME[res.outcome], len(res.moves),
                         res.nodes, res.seconds, res.solution))
    table = pd.DataFrame(rows, columns=["deal", "player", "outcome", "moves", "nodes",
                                        "seconds", "solution"])
    table.insert(1, "variant", r.name)
    table = table.astype({"deal": "int64", "moves": "int64", "nodes": "int64",
                          "seconds": "float64", "solution": "str"})
    table["variant"] = pd.Categorical(table["variant"], categories=[r.name])
    table["player"] = pd.Categorical(table["player"], categories=list(players))
    table["outcome"] = pd.Categorical(table["outcome"], categories=list(OUTCOMES))
    feats = feats.loc[feats.index.repeat(len(players))].reset_index(drop=True)
    return pd.concat([table, feats], axis=1)


def _run_chunk(out: str, index: int, numbers: Sequence[int], r: Rules,
               players: Sequence[str], max_nodes: int) -> tuple[int, int, float]:
    """Compute one chunk and write it atomically; returns (index, deals, seconds)."""
    t0 = time.perf_counter()
    table = _chunk_table(numbers, r, players, max_nodes)
    final = Path(out) / f"chunk-{index:06d}.parquet"
    tmp = Path(out) / f".chunk-{index:06d}.{os.getpid()}.tmp"
    table.to_parquet(tmp, index=False, compression="zstd")
    os.replace(tmp, final)
    return index, len(numbers), time.perf_counter() - t0


def read_survey(out: Union[str, os.PathLike[str]]) -> pd.DataFrame:
    """The survey table in ``out``, sorted by deal order and player."""
    table = pd.read_parquet(out)
    return table.sort_values(["deal", "player"], kind="stable").reset_index(drop=True)


def _prepare(out: Path, cfg: _Config) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob(".chunk-*.tmp"):  # left by a run that was killed mid-write
        stale.unlink()
    manifest = out / _MANIFEST
    if manifest.exists():
        old = json.loads(manifest.read_text())
        if old != cfg.to_json():
            diff = [k for k in cfg.to_json() if old.get(k) != cfg.to_json()[k]]
            raise SurveyError(f"{out} holds another survey (it differs in: {', '.join(diff)}); "
                              f"choose another --out or delete that directory")
    else:
        if any(out.glob("*.parquet")):
            raise SurveyError(f"{out} already holds Parquet files but no {_MANIFEST}; "
                              f"choose another --out")
        tmp = out / f".{_MANIFEST}.tmp"
        tmp.write_text(json.dumps(cfg.to_json(), indent=1))
        os.replace(tmp, manifest)


def _progress(total: int, enabled: bool, initial: int):  # type: ignore[no-untyped-def]
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit="deal", desc="survey", smoothing=0.05)


def survey(deals: Union[str, Iterable[int]], variant: Union[str, Rules] = "bakers_dozen",
           players: Union[str, Sequence[str]] = ("solver",), *, out: Union[str, os.PathLike[str]],
           n_jobs: int = 1, backend: str = "loky", scheduler: Optional[str] = None,
           chunk_size: int = 100, max_nodes: Optional[int] = None,
           progress: bool = True) -> pd.DataFrame:
    """Solve (and, later, play) many numbered deals; return the survey table.

    ``deals`` is a spec like ``"1-1000,417"`` or an iterable of game numbers;
    ``out`` the directory the Parquet chunks go to (resumed if it already
    holds this survey).  ``n_jobs=-1`` uses every core.
    """
    from .solve.fast import DEFAULT_MAX_NODES

    numbers = parse_deals(deals)
    r = _rules(variant)
    plist = tuple(players.split(",")) if isinstance(players, str) else tuple(players)
    unknown = [p for p in plist if p not in PLAYERS]
    if unknown or not plist:
        raise SurveyError(f"unknown player {', '.join(unknown) or '(none given)'}; "
                          f"known: {', '.join(PLAYERS)}")
    if backend not in ("loky", "dask"):
        raise SurveyError(f"backend must be loky or dask, not {backend!r}")
    if backend == "dask" and not scheduler:
        raise SurveyError("the dask backend needs a scheduler address (tcp://host:port)")
    if chunk_size < 1:
        raise SurveyError(f"chunk_size must be at least 1, not {chunk_size}")
    budget = DEFAULT_MAX_NODES if max_nodes is None else int(max_nodes)
    cfg = _Config(r, plist, budget, chunk_size, _digest(numbers), len(numbers))
    path = Path(out)
    _prepare(path, cfg)

    chunks = [numbers[i:i + chunk_size] for i in range(0, len(numbers), chunk_size)]
    todo = [i for i in range(len(chunks)) if not (path / f"chunk-{i:06d}.parquet").exists()]
    done_deals = len(numbers) - sum(len(chunks[i]) for i in todo)
    bar = _progress(len(numbers), progress, done_deals)
    try:
        for _, n, _ in _execute(str(path), todo, chunks, r, plist, budget, n_jobs, backend,
                                scheduler):
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    return read_survey(path)


def _execute(out: str, todo: list[int], chunks: list[list[int]], r: Rules,
             players: tuple[str, ...], budget: int, n_jobs: int, backend: str,
             scheduler: Optional[str]) -> Iterator[tuple[int, int, float]]:
    """Run the chunks still to do, yielding each as it finishes."""
    if not todo:
        return
    if n_jobs == 1 and backend == "loky":
        for i in todo:
            yield _run_chunk(out, i, chunks[i], r, players, budget)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(_run_chunk)(out, i, chunks[i], r, players, budget) for i in todo)
    if backend == "dask":
        from distributed import Client

        with Client(scheduler), parallel_config(backend="dask", wait_for_workers_timeout=60):
            yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
    else:
        yield from Parallel(n_jobs=n_jobs, backend="loky",
                            return_as="generator_unordered")(tasks)
