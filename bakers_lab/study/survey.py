"""Surveys: many numbered deals solved in parallel into one Parquet table.

>>> import bakers_lab as bl, tempfile
>>> out = tempfile.mkdtemp() + "/s"
>>> df = bl.survey("1-3", out=out, progress=False)
>>> [int(n) for n in df["deal"]], df["outcome"].astype(str).tolist()
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
  where it stopped (``bakers-lab survey`` stops its worker processes on
  Ctrl-C and on a kill alike, and exits 130); a different configuration into
  the same directory is
  refused.  One survey at a time writes into a directory: it holds an exclusive
  lock (``flock`` of ``.survey.lock``, which the system drops however the survey
  ends, ``kill -9`` too) for the whole run, and a second survey into the same
  directory is refused in one line.  A worker process ends within a second or
  two of its survey's death.  Everything is checked before anything is written:
  a survey that is refused leaves no trace (but the lock file, in a directory it
  got as far as locking).  At the end the table must hold exactly one row per
  (deal, player); a chunk file that is damaged, stray, of another survey (columns,
  variant, players, outcomes, deals) or of the wrong length is named, by
  ``bl.read_survey`` too, which checks every chunk against ``_survey.json``.
  ``bl.read_survey(out)`` (or ``pandas.read_parquet(out)``) reads the table.
- Limits: at most ``MAX_DEALS`` (ten million) deals in one survey, checked
  before any range is expanded.

Table: one row per (deal, variant, player) with ``deal`` (Python ints; on disk
``decimal128(20, 0)``, every PySolFC game number exactly: see
:mod:`bakers_lab.files.table`), ``variant``,
``player``, ``outcome`` (categoricals; ``won`` / ``lost`` / ``unresolved``: for
the solver won = solvable, lost = proven unsolvable), ``moves``, ``nodes``
(int64), ``seconds`` (float64), ``solution`` (str: the solver's solution, or a
player's whole game, won or lost), ``ended`` (how the game ended: :data:`ENDINGS`),
``proof`` where the survey has the solver or ``shortest`` (how a lost deal was
proven lost: :data:`~bakers_lab.solve.fast.PROOFS`; missing in every other
row), ``par`` and ``par_bound`` where it has ``shortest`` (the fewest moves
that win, when proven, and the proven lower bound on them; ``moves`` is the
shortest win found: :func:`bakers_lab.shortest`, at its default budget;
missing in other rows) and the deal's ``f_*`` features.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from bakers_lab.files.table import (
    MANIFEST,
    OUTCOMES,
    TABLE_FORMAT,
    Layout,
    SurveyError,
    by_deal,
    check_files,
    chunk_files,
    chunk_path,
    deal_series,
    deals_digest,
    file_digest,
    for_disk,
    read_chunks,
    read_manifest,
    read_survey,
    record_digest,
    recorded_digests,
    same_survey,
)
from bakers_lab.model.deals import DealError, game_number, game_number_text
from bakers_lab.model.deals import deal as _deal
from bakers_lab.model.rules import Rules, lying_name
from bakers_lab.model.rules import rules as _rules
from bakers_lab.model.shuffles import MAX_GAME_NUMBER, SplitMix64
from bakers_lab.utils.validate import as_bool, as_int, describe, shown, shown_int

__all__ = [
    "MAX_DEALS",
    "OUTCOMES",
    "PLAYERS",
    "SurveyError",
    "parse_deals",
    "read_survey",
    "sample_deals",
    "survey",
]

#: The players a survey can run by name; ``lookahead-K`` and tip ablations like
#: ``careful-no_traps`` are parsed too (:class:`bakers_lab.solve.players.Player`).
PLAYERS = ("solver", "shortest", "random", "greedy", "careful", "lookahead-2", "lookahead-3")
#: Most deals one survey takes (a million take about two hours on two cores).
MAX_DEALS = 10_000_000
#: Most deals in one chunk file.
MAX_CHUNK_SIZE = 1_000_000
#: How long to wait for a Dask scheduler to answer.
DASK_TIMEOUT = 10
#: How a game ended (the ``ended`` column): the solver's verdict, or a player's end
#: (all cards home, stuck, out of patience, out of moves: :mod:`.solve.players`).
ENDINGS = ("solved", "unsolvable", "unresolved", "home", "stuck", "patience", "cap")
_MANIFEST = MANIFEST
#: The lock file a writing survey holds (:func:`_one_writer`).
_LOCK = ".survey.lock"
_SOLVER_OUTCOME = {"solved": "won", "unsolvable": "lost", "unresolved": "unresolved"}
#: A ``shortest`` row's outcome and ending (whether the win is proven shortest
#: is in ``par``: set only then).
_SHORTEST_OUTCOME = {"optimal": "won", "solved": "won", "unsolvable": "lost",
                     "unresolved": "unresolved"}  # fmt: skip
_SHORTEST_ENDED = {"optimal": "solved", "solved": "solved", "unsolvable": "unsolvable",
                   "unresolved": "unresolved"}  # fmt: skip


def _game(value: object) -> int:
    try:
        return game_number(value)
    except DealError as exc:
        raise SurveyError(str(exc)) from None


def _game_text(text: str) -> int:
    try:
        return game_number_text(text)
    except DealError as exc:
        raise SurveyError(str(exc)) from None


def _digits(text: str) -> bool:
    """True for ASCII digits 0-9 only (``str.isdigit`` takes ``²`` and other scripts' digits)."""
    return text.isascii() and text.isdigit()


def _length(spec: Iterable[object]) -> int | None:
    """How many items a sequence holds (a ``range`` of more than ``sys.maxsize`` too),
    or None for an iterator, whose length is not known before it is read."""
    if isinstance(spec, range):
        return max(0, (spec.stop - spec.start + spec.step - (1 if spec.step > 0 else -1))
                   // spec.step)  # fmt: skip
    if isinstance(spec, Sequence):
        try:
            return len(spec)
        except OverflowError:  # pragma: no cover - a Sequence longer than sys.maxsize
            return MAX_DEALS + 1
    return None


def _too_many(count: int) -> SurveyError:
    return SurveyError(
        f"{shown_int(count)} deals is more than one survey takes (at most {MAX_DEALS}); "
        f"split them into several surveys"
    )


def parse_deals(spec: str | Iterable[int]) -> list[int]:
    """Game numbers from ``"1-1000,5000-5999,417"`` (or any iterable of integers),
    in the order given, without repeats; at most :data:`MAX_DEALS` of them.

    >>> parse_deals("3-5,1,4")
    [3, 4, 5, 1]
    >>> parse_deals("1-100000000000")
    Traceback (most recent call last):
    ...
    bakers_lab.files.table.SurveyError: 100000000000 deals is more than one survey takes \
(at most 10000000); split them into several surveys
    """
    ranges: list[range] = []
    if isinstance(spec, str):
        for part in spec.replace(" ", "").split(","):
            if not part:
                continue
            a, sep, b = part.partition("-")
            if not (_digits(a) and (_digits(b) if sep else True)):
                raise SurveyError(
                    f"bad deal range {shown(repr(part))} (expected like 1-1000,5000-5999,417)"
                )
            lo, hi = _game_text(a), _game_text(b) if sep else _game_text(a)
            if hi < lo:
                raise SurveyError(f"bad deal range {shown(repr(part))}: {hi} is below {lo}")
            ranges.append(range(lo, hi + 1))
        total = sum(_length(r) or 0 for r in ranges)  # before anything is expanded
        if total > MAX_DEALS:
            raise _too_many(total)
        numbers: Iterable[object] = (n for r in ranges for n in r)
    elif isinstance(spec, (bytes, bytearray)) or not isinstance(spec, Iterable):
        raise SurveyError(
            f"deals are a spec like '1-1000,417' or an iterable of game numbers, "
            f"not {describe(spec)}"
        )
    else:
        size = _length(spec)
        if size is not None and size > MAX_DEALS:
            raise _too_many(size)
        numbers = spec
    seen: set[int] = set()
    out: list[int] = []
    for k, value in enumerate(numbers):
        if k >= MAX_DEALS and not isinstance(spec, str):
            raise _too_many(k + 1)
        n = _game(value)
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
    k = as_int(k, "sample size", low=1, high=MAX_DEALS, error=SurveyError)
    seed = as_int(seed, "seed", low=0, high=2**64 - 1, error=SurveyError)
    rng = SplitMix64(seed)
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

    @property
    def layout(self) -> Layout:
        """What the survey's chunks hold."""
        return Layout(self.variant.name, self.players, self.n_deals, self.chunk_size,
                      self.deals_digest)  # fmt: skip

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "format": TABLE_FORMAT,
            "variant": self.variant.name,
            "rules": repr(self.variant),
            "players": list(self.players),
            "max_nodes": self.max_nodes,
            "chunk_size": self.chunk_size,
            "deals_sha256": self.deals_digest,
            "deals": self.n_deals,
        }
        if "shortest" in self.players:  # (its own budget: the default of bl.shortest)
            from bakers_lab.solve.shortest import DEFAULT_MAX_NODES as SHORTEST_NODES

            out["shortest_max_nodes"] = SHORTEST_NODES
        return out


def _chunk_table(
    numbers: Sequence[int], r: Rules, players: Sequence[str], max_nodes: int
) -> pd.DataFrame:
    """Deal, featurise and play one chunk: the rows of its Parquet file."""
    from bakers_lab.solve import solve
    from bakers_lab.solve.fast import PROOFS
    from bakers_lab.solve.players import play
    from bakers_lab.solve.shortest import shortest
    from bakers_lab.study.features import deal_features

    deals = [_deal(n, variant=r) for n in numbers]
    feats = deal_features(deals)
    rows: list[tuple[str, str, int, int, float, str, str]] = []
    proofs: list[str | None] = []
    pars: list[tuple[int | None, int | None]] = []  # (par, lower bound) of shortest rows
    for d in deals:
        for player in players:
            if player == "solver":
                res = solve(d, max_nodes=max_nodes)
                outcome = _SOLVER_OUTCOME[res.outcome]
                rows.append(
                    (player, outcome, len(res.moves), res.nodes, res.seconds, res.solution,
                     res.outcome)
                )  # fmt: skip
                proofs.append(res.proof)
                pars.append((None, None))
            elif player == "shortest":
                best = shortest(d)
                outcome = _SHORTEST_OUTCOME[best.outcome]
                rows.append(
                    (player, outcome, len(best.moves), best.nodes, best.seconds, best.solution,
                     _SHORTEST_ENDED[best.outcome])
                )  # fmt: skip
                proofs.append(best.proof)
                bound = best.lower_bound if best.outcome != "unsolvable" else None
                pars.append((best.par, bound))
            else:
                g = play(d, player)
                rows.append(
                    (player, g.outcome, len(g.moves), g.nodes, g.seconds, g.solution, g.ended)
                )
                proofs.append(None)
                pars.append((None, None))
    table = pd.DataFrame(
        rows, columns=["player", "outcome", "moves", "nodes", "seconds", "solution", "ended"]
    )
    table = table.astype(
        {"moves": "int64", "nodes": "int64", "seconds": "float64", "solution": "str"}
    )
    table.insert(0, "deal", deal_series([n for n in numbers for _ in players]).values)
    table.insert(1, "variant", pd.Categorical([r.name] * len(table), categories=[r.name]))
    table["player"] = pd.Categorical(table["player"], categories=list(players))
    table["outcome"] = pd.Categorical(table["outcome"], categories=list(OUTCOMES))
    table["ended"] = pd.Categorical(table["ended"], categories=list(ENDINGS))
    if "solver" in players or "shortest" in players:
        table["proof"] = pd.Categorical(proofs, categories=list(PROOFS))
    if "shortest" in players:
        table["par"] = pd.array([p for p, _ in pars], dtype="Int64")
        table["par_bound"] = pd.array([b for _, b in pars], dtype="Int64")
    feats = feats.loc[feats.index.repeat(len(players))].reset_index(drop=True)
    return pd.concat([table, feats], axis=1)


_WATCHED: list[int] = []  # the parent a worker process watches (at most one)


def _watch_parent(parent: int) -> None:
    """In a worker process: end this process within a second or two of ``parent``'s
    death (a ``kill -9`` of the survey leaves its workers no message to stop; without
    this they would compute their chunks on for minutes, holding its output)."""
    if _WATCHED or os.getpid() == parent:
        return
    _WATCHED.append(parent)

    def watch() -> None:  # the compiled players and solver release the GIL: this runs
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="bakers_lab-parent-watch", daemon=True).start()


def _run_chunk(
    out: str,
    index: int,
    numbers: Sequence[int],
    r: Rules,
    players: Sequence[str],
    max_nodes: int,
    parent: int | None = None,
) -> tuple[int, int, float]:
    """Compute one chunk and write it atomically; returns (index, deals, seconds).
    ``parent``: the survey's process, which a loky worker ends with (:func:`_watch_parent`)."""
    if parent is not None:
        _watch_parent(parent)
    t0 = time.perf_counter()
    table = _chunk_table(numbers, r, players, max_nodes)
    final = chunk_path(out, index)
    tmp = Path(out) / f".chunk-{index:06d}.{os.getpid()}.tmp"
    for_disk(table).to_parquet(tmp, index=False, compression="zstd")
    os.replace(tmp, final)
    return index, len(numbers), time.perf_counter() - t0


def _check_out(out: object) -> Path:
    """The output directory, refused before anything is written if it cannot be one."""
    if not isinstance(out, (str, os.PathLike)) or not str(out).strip():
        raise SurveyError(f"out must be a directory path, not {describe(out)}")
    if "\x00" in str(out):
        raise SurveyError(
            f"out must be a directory path, which holds no NUL character, not {describe(out)}"
        )
    path = Path(out)
    try:
        if path.exists() and not path.is_dir():
            raise SurveyError(f"out {shown(repr(str(path)))} exists and is not a directory")
    except OSError as exc:  # a name too long, a folder we may not look into
        raise SurveyError(f"out {shown(repr(str(path)))} cannot be a directory: "
                          f"{exc.strerror}") from None  # fmt: skip
    return path


def _check_existing(out: Path, cfg: _Config) -> None:
    """Refuse ``out`` unless it is new, empty of chunks, or holds this very survey
    (whose chunk files are all its own)."""
    manifest = out / _MANIFEST
    if manifest.exists():
        diff = same_survey(read_manifest(manifest), cfg.to_json())
        if diff:
            raise SurveyError(
                f"{out} holds another survey (it differs in: {', '.join(diff)}); "
                f"choose another --out or delete that directory"
            )
        check_files(out, cfg.layout, complete=False)
    elif out.is_dir() and chunk_files(out):
        raise SurveyError(
            f"{out} already holds Parquet files but no {_MANIFEST}; choose another --out"
        )


@contextlib.contextmanager
def _one_writer(out: Path) -> Iterator[None]:
    """Hold ``out``'s lock for the block: one survey at a time writes into a folder.

    The lock is an exclusive ``flock`` of ``out/.survey.lock`` (which keeps the
    holder's process id); the system drops it when the holder ends, however it ends
    (``kill -9`` too), so a lock is never left behind.  A second survey into the same
    folder is refused at once in one line."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock (Windows): one writer is on trust
        yield
        return
    fd = os.open(out / _LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held by another process (BlockingIOError)
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise SurveyError(
                f"{out} is being written by another survey{who}; wait for it to end "
                f"or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _prepare(out: Path, cfg: _Config) -> None:
    """With ``out`` locked: check again that it holds this very survey (or nothing),
    clear what killed runs left, and write the manifest if it is new."""
    _check_existing(out, cfg)
    manifest = out / _MANIFEST
    for stale in [*out.glob(".chunk-*.tmp"), *out.glob(f".{_MANIFEST}.*.tmp")]:
        stale.unlink()  # left by a run that was killed mid-write (we hold the lock)
    if not manifest.exists():
        tmp = out / f".{_MANIFEST}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(cfg.to_json(), indent=1), encoding="utf-8")
        os.replace(tmp, manifest)


def _progress(total: int, enabled: bool, initial: int) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit="deal", desc="survey", smoothing=0.05)


def parse_players(players: object) -> tuple[str, ...]:
    """``players`` (names separated by commas, or an iterable of names or
    :class:`~bakers_lab.solve.players.Player`) as the tuple of player names a survey runs,
    each checked; an unknown name is refused in one line."""
    from bakers_lab.solve.players import Player, PlayerError, player_names

    if isinstance(players, str):
        plist = tuple(p.strip() for p in players.split(","))
    elif isinstance(players, Iterable):
        plist = tuple(players)
    else:
        raise SurveyError(f"players are names like 'solver', not {describe(players)}")
    if not plist:
        raise SurveyError(f"no players given; known: solver, shortest, {player_names()}")
    for p in plist:
        if p in ("solver", "shortest"):
            continue
        try:
            canonical = Player.parse(p).name
        except PlayerError as exc:
            raise SurveyError(str(exc).replace("known: ", "known: solver, shortest, ")) from None
        if canonical != p:  # pragma: no cover - parse refuses non-canonical names
            raise SurveyError(f"say {canonical!r}, not {p!r}")
    for p in plist:
        if plist.count(p) > 1:
            raise SurveyError(f"player {p!r} is given {plist.count(p)} times; give each once")
    return plist


def _n_jobs(n_jobs: object) -> int:
    n = as_int(n_jobs, "n_jobs", error=SurveyError)
    cores = os.cpu_count() or 1
    if n == 0 or cores + 1 + n < 1 <= -n:
        raise SurveyError(
            f"n_jobs must be a positive int, -1 (every core) or -k (every core but k - 1; "
            f"this machine has {cores}), not {n}"
        )
    return n


def survey(
    deals: str | Iterable[int],
    variant: str | Rules = "bakers_dozen",
    players: str | Sequence[str] = ("solver",),
    *,
    out: str | os.PathLike[str],
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    chunk_size: int = 100,
    max_nodes: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Solve and play many numbered deals; return the survey table.

    ``deals`` is a spec like ``"1-1000,417"`` or an iterable of game numbers;
    ``players`` the solver and any human-like players (:data:`PLAYERS`, or
    ``lookahead-K``, ``careful-no_TIP``: see :mod:`bakers_lab.solve.players`);
    ``out`` the directory the Parquet chunks go to (resumed if it already
    holds this survey).  ``n_jobs=-1`` uses every core.  Every argument is
    checked before anything is written.
    """
    from bakers_lab.solve.fast import DEFAULT_MAX_NODES, MAX_NODES

    numbers = parse_deals(deals)
    r = _rules(variant)
    lie = lying_name(r)
    if lie is not None:  # its rows would carry the preset's name and be read as the preset's
        raise SurveyError(
            f"variant must be a preset or a Rules record with a name of its own, not {lie}; "
            f"rename it (r.replace(name='my_rules', ...))"
        )
    plist = parse_players(players)
    n_jobs = _n_jobs(n_jobs)
    if backend not in ("loky", "dask"):
        raise SurveyError(f"backend must be loky or dask, not {backend!r}")
    if backend == "dask" and not scheduler:
        raise SurveyError("the dask backend needs a scheduler address (tcp://host:port)")
    if backend != "dask" and scheduler is not None:
        raise SurveyError("a scheduler address is only for the dask backend")
    chunk_size = as_int(chunk_size, "chunk_size", low=1, high=MAX_CHUNK_SIZE, error=SurveyError)
    budget = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    budget = as_int(budget, "max_nodes", low=1, high=MAX_NODES, error=SurveyError)
    progress = as_bool(progress, "progress", error=SurveyError)
    path = _check_out(out)
    cfg = _Config(r, plist, budget, chunk_size, deals_digest(numbers), len(numbers))
    _check_existing(path, cfg)  # before anything is written, even the lock
    chunks = [numbers[i : i + chunk_size] for i in range(0, len(numbers), chunk_size)]
    if (path / _MANIFEST).exists() and all(
        chunk_path(path, i).exists() for i in range(len(chunks))
    ):
        return _collect(path, chunks, cfg.layout, record=False)  # finished: nothing to write
    client = _dask_client(scheduler) if backend == "dask" else None
    try:
        with _one_writer(path):
            _prepare(path, cfg)
            todo = [i for i in range(len(chunks)) if not chunk_path(path, i).exists()]
            done_deals = len(numbers) - sum(len(chunks[i]) for i in todo)
            bar = _progress(len(numbers), progress, done_deals)
            try:
                for i, n, _ in _execute(str(path), todo, chunks, r, plist, budget, n_jobs, client):
                    record_digest(path / _MANIFEST, i, file_digest(chunk_path(path, i)))
                    if bar is not None:
                        bar.update(n)
            finally:
                if bar is not None:
                    bar.close()
            return _collect(path, chunks, cfg.layout)
    finally:
        if client is not None:
            client.close()


def _collect(
    path: Path, chunks: list[list[int]], layout: Layout, *, record: bool = True
) -> pd.DataFrame:
    """The finished table, checked: every chunk file matches its recorded checksum
    and holds exactly one row for each (deal, player) of its chunk, the survey's
    columns, variant and outcomes, and nothing else; a bad one is named.  With
    ``record`` (the folder's writer), a checked chunk whose checksum was not kept
    yet (a run killed between writing it and keeping it) has it kept now."""
    recorded = recorded_digests(read_manifest(path / _MANIFEST))

    def keep(i: int, file: Path) -> None:
        if record and f"{i:06d}" not in recorded:
            record_digest(path / _MANIFEST, i, file_digest(file))

    table, _ = read_chunks(path, layout, recorded, numbers=chunks, checked=keep)
    return by_deal(table)


def _dask_client(scheduler: str | None) -> Any:
    """A client of the Dask scheduler, or a one-line error within ``DASK_TIMEOUT`` s."""
    try:
        from distributed import Client
    except ImportError:
        raise SurveyError(
            "the dask backend needs the dask extra: pip install 'bakers_lab[dask]'"
        ) from None
    try:
        return Client(scheduler, timeout=DASK_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise SurveyError(
            f"cannot reach the Dask scheduler at {scheduler} within {DASK_TIMEOUT} s "
            f"({type(exc).__name__}: {str(exc)[:100]})"
        ) from None


def _execute(
    out: str,
    todo: list[int],
    chunks: list[list[int]],
    r: Rules,
    players: tuple[str, ...],
    budget: int,
    n_jobs: int,
    client: Any,
) -> Iterator[tuple[int, int, float]]:
    """Run the chunks still to do, yielding each as it finishes."""
    if not todo:
        return
    if n_jobs == 1 and client is None:
        for i in todo:
            yield _run_chunk(out, i, chunks[i], r, players, budget)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(_run_chunk)(out, i, chunks[i], r, players, budget) for i in todo)
    if client is not None:
        with parallel_config(backend="dask", wait_for_workers_timeout=60):
            yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
    else:
        me = os.getpid()
        tasks = (delayed(_run_chunk)(out, i, chunks[i], r, players, budget, me) for i in todo)
        yield from Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")(tasks)
