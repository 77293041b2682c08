"""Settle a position for good: :func:`prove` searches every position reachable
from it, a group at a time, layer after layer (:mod:`.layers` says why that
is exhaustive and which of the solver's pruning rules it keeps), with the
frontier on disk and the groups of a layer spread over Dask's workers.

>>> import bakers_lab as bl
>>> ace_to_six = bl.rules("bakers_dozen").replace(ranks=6, columns=4, cards_per_column=6)
>>> r = bl.prove(bl.seeded_deal(11, variant=ace_to_six))
>>> r.outcome, r.proof, r.positions, r.groups, len(r.layers)
('unsolvable', 'layers', 716, 40, 18)

It answers ``solved`` (a winning line, replayed by the rule engine),
``unsolvable`` (``proof="layers"``: every reachable position was searched
and none is won; or ``deadlock``: the start itself is refuted) or
``unresolved`` (a limit the caller set was reached first: ``reason`` says
which; a run with a ``workdir`` goes on from where it stopped when started
again).

Where it runs
-------------
- ``jobs=1`` and no ``scheduler``: in this process, the frontier in memory
  (or in ``workdir`` when one is given).
- Otherwise on Dask: a ``LocalCluster`` of ``jobs`` worker processes, or the
  cluster of ``scheduler="tcp://…"``; each layer's tasks (groups of buckets
  of its frontier) are Dask tasks, retried by Dask if a worker is lost.  The
  ``workdir`` must then be a folder every worker sees (a temporary one is
  made, and removed, for a local cluster without one).

Each task holds one group's positions in memory at a time (16 bytes a slot
of its table, at most half full), bounded by ``memory`` (default: a quarter
of this machine's memory); a group that needs more stops the run
``unresolved``.  A frontier row is 68 bytes in memory and, compressed, a few
bytes on disk (2.5 on average for game 27548's 18 million rows); the run
stops, resumable, when less than a GiB is left free.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import kernels
from bakers_lab.solve.fast import (
    check_result,
    core_env,
    deal_and_proof,
    lost_at_once,
    verify_moves,
)
from bakers_lab.solve.frontier import RESERVE, DiskFull, DiskStore, MemoryStore, RunBusy, Store
from bakers_lab.solve.frontier import bucket_of as _bucket_of
from bakers_lab.solve.layers import (
    WIN_TARGET,
    GroupTooLarge,
    Outcome,
    Problem,
    Searcher,
    records,
    ref_of,
)
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_int, as_number, describe, shown

__all__ = ["ProveError", "ProveResult", "RunBusy", "default_memory", "prove"]


class ProveError(ValueError):
    """A prove call's arguments or folder do not fit."""


#: Why a run ended ``unresolved``.
Reason = Literal["seconds", "memory", "disk", ""]


@dataclass(frozen=True)
class ProveResult:
    """What :func:`prove` found, with the counts that back it.

    ``layers`` lists, for each layer searched, ``(layer, groups, entries,
    positions)``; ``positions`` is their sum (every reachable position once,
    under the kept pruning rules), ``lost`` the positions the dead-position
    test refuted, ``disk`` the most bytes the frontier held, ``table`` the
    largest group's table in bytes.

    >>> ProveResult("unsolvable", proof="layers", positions=12)
    ProveResult(outcome='unsolvable', moves=0, positions=12, variant='bakers_dozen', proof='layers')
    """

    outcome: Literal["solved", "unsolvable", "unresolved"]
    moves: tuple[Move, ...] = ()
    positions: int = 0
    seconds: float = 0.0
    verified: bool = False
    #: Moves tried (children generated), as :attr:`.fast.SolveResult.nodes` counts them.
    nodes: int = field(default=0, compare=False)
    variant: str = "bakers_dozen"
    deal: int | None = None
    proof: Literal["deadlock", "layers"] | None = None
    groups: int = field(default=0, compare=False)
    lost: int = field(default=0, compare=False)
    disk: int = field(default=0, compare=False)
    table: int = field(default=0, compare=False)
    layers: tuple[tuple[int, int, int, int], ...] = field(default=(), compare=False)
    reason: str = ""
    start: GameState | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_result(
            self,
            ("solved", "unsolvable", "unresolved"),
            ("positions", "nodes", "groups", "lost", "disk", "table"),
        )
        object.__setattr__(self, "moves", tuple(self.moves))
        object.__setattr__(self, "layers", tuple(tuple(int(v) for v in t) for t in self.layers))

    def __repr__(self) -> str:
        where, how = deal_and_proof(self.deal, self.proof)
        return (
            f"ProveResult(outcome={self.outcome!r}, moves={len(self.moves)}, "
            f"positions={self.positions}, {where}variant={self.variant!r}{how})"
        )

    def summary(self) -> str:
        """One sentence for a person: the verdict and what backs it."""
        what = f"game {self.deal}" if self.deal is not None else "the position"
        if self.outcome == "solved":
            verdict = f"solved in {len(self.moves)} moves (replayed by the rule engine)"
        elif self.outcome == "unsolvable" and self.proof == "deadlock":
            verdict = "proven unsolvable: some card can never get home, whatever is played"
        elif self.outcome == "unsolvable":
            verdict = "proven unsolvable: every reachable position was searched, none is won"
        else:
            verdict = f"not settled: {self.reason}"
        work = (
            f"{counted(self.positions, 'position')} in {counted(self.groups, 'group')}, "
            f"{len(self.layers)} layers, {self.seconds:.1f} s"
        )
        return f"{self.variant} {what}: {verdict}; {work}"

    @property
    def solved(self) -> bool:
        """True when a verified winning line was found."""
        return self.outcome == "solved" and self.verified

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``bakers-lab prove --json``."""
        return {
            "deal": self.deal,
            "variant": self.variant,
            "outcome": self.outcome,
            "proof": self.proof,
            "moves": [str(m) for m in self.moves],
            "verified": self.verified,
            "positions": self.positions,
            "nodes": self.nodes,
            "groups": self.groups,
            "lost": self.lost,
            "disk_bytes": self.disk,
            "table_bytes": self.table,
            "seconds": round(self.seconds, 3),
            "layers": [list(t) for t in self.layers],
            "reason": self.reason,
        }


def default_memory() -> int:
    """A quarter of this machine's memory, in bytes."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4)
    except (ValueError, OSError, AttributeError):
        return 2 << 30


#: What a progress callback hears: a dict with ``layer``, ``tasks_done``,
#: ``tasks``, ``positions``, ``groups``, ``disk``.
Progress = Callable[[dict[str, Any]], None]


def prove(
    position: Deal | GameState | int,
    *,
    variant: str | Rules | None = None,
    workdir: str | os.PathLike[str] | None = None,
    memory: int | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    max_seconds: float | None = None,
    buckets: int | None = None,
    probes: bool = True,
    progress: Progress | None = None,
) -> ProveResult:
    """Settle ``position`` (a Deal, a GameState or a game number of
    ``variant``) by searching every position reachable from it, a group at a
    time (see the module docstring).

    ``workdir``: a folder for the frontier and the progress marks, so that a
    run stopped by any means goes on from its last finished task when started
    again with the same folder (a folder another run is using is refused:
    :class:`RunBusy`).  ``memory``: bytes a worker's group table may take.
    ``jobs``: worker processes of a local Dask cluster (1: this process);
    ``scheduler``: the address of a running Dask scheduler instead.
    ``max_seconds``: stop (``unresolved``, resumable) after this long.
    ``buckets``: how many pieces each layer's frontier is cut into (tasks),
    64 on disk by default.  ``probes``: look for a win early, with the solver
    (:func:`.fast.solve`) first on the start and then on a few of the most
    advanced positions each task finds; only a win is taken from it (a proof
    of a loss is always the layered search's own); False: the layered search
    alone, as the tests that check it run it.
    """
    start, deal = start_of(position, variant, who="prove")
    folder_given = _workdir(workdir)
    jobs = as_int(jobs, "jobs", low=1, high=1024, error=ProveError)
    memory = (
        default_memory()
        if memory is None
        else as_int(memory, "memory", low=1 << 16, error=ProveError)
    )
    limit = (
        None
        if max_seconds is None
        else as_number(max_seconds, "max_seconds", low=0, high=1e9, error=ProveError)
    )
    nb = as_int(64 if buckets is None else buckets, "buckets", low=1, high=4095, error=ProveError)
    if scheduler is not None and not isinstance(scheduler, str):
        raise ProveError(
            f"scheduler must be an address like tcp://host:8786, not {describe(scheduler)}"
        )
    t0 = time.perf_counter()
    problem = Problem.of(start)
    rules = start.rules
    # what every answer says of the question
    asked = ProveResult("unresolved", variant=rules.name, deal=deal, start=start)
    rec, first_moves, won, first = problem.start_record()
    if won:
        moves, ok = verify_moves(start, first_moves)
        return dataclasses.replace(
            asked,
            outcome="solved",
            moves=moves,
            positions=1,
            seconds=time.perf_counter() - t0,
            verified=ok,
        )
    trail = np.empty((rules.deck_size + 8, codes.TRAIL_W), dtype=np.int64)
    if lost_at_once(start, core_env(rules), trail):
        return dataclasses.replace(
            asked,
            outcome="unsolvable",
            positions=1,
            proof="deadlock",
            seconds=time.perf_counter() - t0,
        )
    distributed = jobs > 1 or scheduler is not None
    with _folder(folder_given, distributed) as folder:
        store: Store = MemoryStore(nb) if folder is None else DiskStore(folder, nb)
        with _held(store):
            _begin(store, problem, rec, first, deal)
            if isinstance(store, DiskStore):
                store.clear_staging()
            said = store.get("verdict")
            if said is not None:
                return _recorded(said, asked)
            result = None
            if probes and store.get("first_try") is None:  # (once a run, not on every resume)
                result = _first_try(start, asked, t0)
                store.set("first_try", {"solved": result is not None})
            if result is None:
                result = _layered(
                    store,
                    problem,
                    folder,
                    asked,
                    first_moves,
                    t0,
                    memory,
                    jobs,
                    scheduler,
                    limit,
                    progress,
                    probes,
                )
            if result.outcome != "unresolved":
                # the verdict kept, the frontier's rows let go (they were only for this run)
                store.set("verdict", result.to_json())
                store.clear_rows()
            return result


def _first_try(start: GameState, asked: ProveResult, t0: float) -> ProveResult | None:
    """The solver on the start, for a win only (its proofs of a loss are not taken:
    a loss is always the layered search's own)."""
    from bakers_lab.solve.fast import solve

    tried = solve(start, max_nodes=_FIRST_NODES)
    if not tried.solved:
        return None
    return dataclasses.replace(
        asked,
        outcome="solved",
        moves=tried.moves,
        nodes=tried.nodes,
        seconds=time.perf_counter() - t0,
        verified=True,
    )


def _layered(
    store: Store,
    problem: Problem,
    folder: Path | None,
    asked: ProveResult,
    first_moves: list[Move],
    t0: float,
    memory: int,
    jobs: int,
    scheduler: str | None,
    limit: float | None,
    progress: Progress | None,
    probes: bool,
) -> ProveResult:
    """The layered search, on this process or on Dask, and its answer."""
    runner = (
        _Runner(folder, jobs, scheduler, memory)
        if folder is not None and (jobs > 1 or scheduler is not None)
        else None
    )
    try:
        outcome, layers, reason = _layers_in_order(
            store, problem, memory, runner, t0, limit, progress, jobs, _PROBE_NODES if probes else 0
        )
    finally:
        if runner is not None:
            runner.close()
    counted = dataclasses.replace(
        asked,
        positions=outcome.positions,
        nodes=outcome.children,
        groups=outcome.groups,
        lost=outcome.lost,
        disk=max((int(s.get("disk", 0)) for s in layers), default=0),
        table=16 * outcome.largest * 2,
        layers=tuple((s["layer"], s["groups"], s["entries"], s["positions"]) for s in layers),
        seconds=time.perf_counter() - t0,
    )
    if reason:
        return dataclasses.replace(counted, reason=reason)
    if outcome.won is None:
        return dataclasses.replace(counted, outcome="unsolvable", proof="layers")
    line: list[Move | str] = [*first_moves, *_line(store, problem, outcome, memory)]
    assert asked.start is not None
    moves, ok = verify_moves(asked.start, line)
    if not ok:
        raise RuntimeError("the layered search's line does not win (a bug)")
    return dataclasses.replace(counted, outcome="solved", moves=moves, verified=True)


def _workdir(workdir: object) -> Path | None:
    """The folder a caller gave (checked), or None."""
    if workdir is None:
        return None
    if not isinstance(workdir, str | os.PathLike):
        raise ProveError(f"workdir must be a folder's path, not {describe(workdir)}")
    path = Path(workdir)
    if path.exists() and not path.is_dir():
        raise ProveError(f"workdir {shown(str(path))} is a file, not a folder")
    return path


@contextlib.contextmanager
def _folder(path: Path | None, distributed: bool) -> Iterator[Path | None]:
    """The run's folder: the caller's, a temporary one for a local cluster
    without one (removed after), or None (in memory)."""
    if path is None and distributed:
        with tempfile.TemporaryDirectory(prefix="bakers-lab-prove-") as tmp:
            yield Path(tmp)
        return
    yield path


@contextlib.contextmanager
def _held(store: Store) -> Iterator[None]:
    if isinstance(store, DiskStore):
        with store.locked():
            yield
    else:
        yield


def _begin(store: Store, problem: Problem, rec: np.ndarray, first: int, deal: int | None) -> None:
    """Write the problem and the start into a new store; in a folder used
    before, check it holds the same problem."""
    want = {
        "version": 1,
        "rules": dataclasses.asdict(problem.rules),
        "start": problem.start.to_text(),
        "deal": deal,
        "buckets": store.buckets,
    }
    have = store.get("run")
    if have is None:
        store.put(first, int(_bucket_of(rec["key"], store.buckets)[0]), "start", rec)
        store.set("run", want)
    elif have != want:
        where = getattr(store, "folder", "the store")
        raise ProveError(
            f"{where} holds another search ({have.get('rules', {}).get('name')} "
            f"deal {have.get('deal')}); give another workdir, or delete that one"
        )


def problem_of(store: Store) -> Problem:
    """The problem a store's ``run.json`` names (a Dask worker's way in)."""
    run = store.get("run")
    if run is None:
        raise ProveError(f"{store} holds no run")
    rules = Rules(**run["rules"])
    return Problem(rules, GameState.from_text(run["start"], rules))


def _plan(sizes: dict[int, int], target_rows: int) -> list[list[int]]:
    """Tasks of a layer: its buckets, small ones packed together up to
    ``target_rows`` rows a task.

    >>> _plan({0: 5, 1: 500, 2: 5, 3: 5}, 20)
    [[0, 2, 3], [1]]
    """
    tasks: list[list[int]] = []
    current: list[int] = []
    rows = 0
    for b in sorted(sizes):
        if sizes[b] >= target_rows:
            tasks.append([b])
            continue
        if rows + sizes[b] > target_rows and current:
            tasks.append(current)
            current, rows = [], 0
        current.append(b)
        rows += sizes[b]
    if current:
        tasks.append(current)
    return sorted(tasks, key=lambda t: t[0])


#: The solver's budget on the start, before the layered search (its default).
_FIRST_NODES = 5_000_000
#: The solver's budget on each frontier row a task probes (:func:`_probe`).
_PROBE_NODES = 200_000


def _task_rows(rows: int, workers: int) -> int:
    """Rows a task of a layer of ``rows`` rows aims at: four tasks a worker (so
    that a slow one holds no one up), at least 100,000 rows (a task costs some
    milliseconds of its own), at most 5,000,000 (340 MB in memory, and what a
    stopped run searches again).

    >>> _task_rows(1000, 2), _task_rows(10**7, 2), _task_rows(10**9, 2)
    (100000, 1250000, 5000000)
    """
    return min(5_000_000, max(100_000, rows // (4 * workers)))


def run_task(
    store: Store,
    problem: Problem,
    layer: int,
    task: int,
    memory: int,
    searcher: Searcher | None = None,
) -> Outcome:
    """Search every group of one task of ``layer``: the frontier rows of its
    buckets; write what it finds in later layers; mark it done.  (``searcher``:
    one made for this problem before, to reuse its arrays.)"""
    plan = store.plan(layer)
    if plan is None:
        raise ProveError(f"layer {layer} has no plan")
    got = store.done(layer, task)
    if got is not None:  # (finished before: Dask recomputing a result lost with a worker)
        return got
    with store.attempt(layer, task):
        if searcher is None:
            searcher = Searcher(problem, memory)
        searcher.cache[:] = 0  # (a task's rows do not depend on the tasks before it)
        flushes = [0]

        best = [Outcome()]  # the row written with the most cards home

        def emit(keys: np.ndarray, refs: np.ndarray, rows: np.ndarray) -> None:
            if store.free_bytes() < RESERVE:
                raise DiskFull(28, f"less than {RESERVE >> 30} GiB left free")
            rec = records(keys, refs, rows)
            home = ((rows >= codes.HOME) & (rows < codes.HOME + 4)).sum(axis=1)
            i = int(np.argmax(home))
            if home[i] > best[0].best_home:
                best[0] = Outcome(
                    best_ref=int(refs[i]),
                    best_key=int(keys[i]),
                    best_pos=tuple(int(v) for v in rows[i]),
                    best_home=int(home[i]),
                )
            lay = np.zeros(len(keys), dtype=np.int64)
            kernels.layers_of(searcher.lenv, keys, lay)
            if len(lay) and lay.min() <= layer:  # (a row no layer would ever search again)
                raise RuntimeError(f"a move of layer {layer} led to layer {lay.min()} (a bug)")
            buck = _bucket_of(keys, store.buckets)
            order = np.lexsort((keys, buck, lay))
            rec, lay, buck = rec[order], lay[order], buck[order]
            cut = np.flatnonzero((np.diff(lay) != 0) | (np.diff(buck) != 0)) + 1
            for a, z in zip(np.r_[0, cut].tolist(), np.r_[cut, len(rec)].tolist(), strict=True):
                tag = f"from{layer:03d}_{task:05d}_{flushes[0]:04d}"
                store.put(int(lay[a]), int(buck[a]), tag, rec[a:z])
            flushes[0] += 1

        total = Outcome()
        for bucket in plan[task]:
            rows = store.read(layer, bucket)
            refs = ref_of(layer, bucket, 0) + np.arange(len(rows), dtype=np.int64)
            total = total + searcher.process(rows, refs, emit)
            if total.won is not None:
                break
        searcher.flush(emit)
        total = total + best[0]
    store.mark_done(layer, task, total)
    return total


def _probe(searcher: Searcher, best: Outcome, nodes: int) -> Outcome | None:
    """Wins found early: the row a layer wrote with the most cards home gets a
    short run of the solver (:func:`.fast.solve`, ``nodes`` nodes).  A win
    from it is a win of the start: the row is reachable (its ref leads back to
    the start).  A loss or an open answer says nothing: the layered search
    goes on as before.  Returns the won outcome, or None."""
    from bakers_lab.solve.fast import solve

    row = np.array(best.best_pos, dtype=np.uint8)[None, :]
    got = solve(searcher.state_of(best.best_key, row), max_nodes=nodes)
    if not got.solved:
        return None
    return dataclasses.replace(
        best,
        won=best.best_ref,
        won_key=best.best_key,
        won_pos=best.best_pos,
        won_moves=tuple(str(m) for m in got.moves),
    )


def run_task_in(folder: str, layer: int, task: int, memory: int, buckets: int) -> dict[str, Any]:
    """:func:`run_task` on a folder, as a Dask worker runs it; its counts as a dict."""
    store = DiskStore(folder, buckets)
    problem = problem_of(store)
    got = run_task(store, problem, layer, task, memory)
    return dataclasses.asdict(got)


class _Runner:
    """Layer tasks on Dask: a local cluster of ``jobs`` processes, or a scheduler's.
    (Dask's API is untyped: its objects are held as Any.)"""

    client: Any
    cluster: Any
    dd: Any

    def __init__(self, folder: Path, jobs: int, scheduler: str | None, memory: int) -> None:
        import importlib

        try:
            dd: Any = importlib.import_module("dask.distributed")
        except ImportError:
            raise ProveError(
                "prove on more than one job needs Dask: pip install 'bakers_lab[dask]'"
            ) from None
        self.dd = dd
        self.folder = str(folder)
        self.memory = memory
        if scheduler is None:
            self.cluster = dd.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                memory_limit=0,
                dashboard_address=None,
            )
            self.client = dd.Client(self.cluster)
        else:
            self.cluster = None
            self.client = dd.Client(scheduler, timeout=30)

    def run(self, layer: int, tasks: list[int], buckets: int) -> Iterator[tuple[int, Outcome]]:
        futures = {
            self.client.submit(
                run_task_in,
                self.folder,
                layer,
                t,
                self.memory,
                buckets,
                key=f"prove-{os.getpid()}-{layer}-{t}",
                pure=False,
                retries=3,
            ): t
            for t in tasks
        }
        for fut in self.dd.as_completed(futures):
            got = Outcome(**fut.result())
            # let go of it at once: a result held on a worker that dies is
            # recomputed while the client holds it (the task would find its done
            # mark and return it, but the work need not start at all)
            fut.release()
            yield futures[fut], got

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _layers_in_order(
    store: Store,
    problem: Problem,
    memory: int,
    runner: _Runner | None,
    t0: float,
    limit: float | None,
    progress: Progress | None,
    workers: int = 1,
    probe_nodes: int = 0,
) -> tuple[Outcome, list[dict[str, Any]], str]:
    """Search the layers in order until none has rows left, a win, or a limit."""
    total = Outcome()
    done_layers: list[dict[str, Any]] = []
    searcher = Searcher(problem, memory) if runner is None else None
    while True:
        pending = [lay for lay in store.layers() if store.summary(lay) is None]
        for lay in store.layers():
            s = store.summary(lay)
            if s is not None and s not in done_layers:
                done_layers.append(s)
                total = total + Outcome(**s["outcome"])
        if not pending:
            return total, sorted(done_layers, key=lambda s: s["layer"]), ""
        layer = pending[0]
        plan = store.plan(layer)
        if plan is None:
            sizes = store.sizes(layer)
            plan = _plan(sizes, _task_rows(sum(sizes.values()), workers))
            store.set_plan(layer, plan)
        layer_total = Outcome()
        todo = []
        for t in range(len(plan)):
            got = store.done(layer, t)
            if got is None:
                todo.append(t)
            else:
                layer_total = layer_total + got
        report = {"layer": layer, "tasks": len(plan), "tasks_done": len(plan) - len(todo)}
        try:
            if runner is None:
                for t in todo:
                    if limit is not None and time.perf_counter() - t0 > limit:
                        return total, done_layers, f"stopped after {limit:g} seconds, as asked"
                    layer_total = layer_total + run_task(store, problem, layer, t, memory, searcher)
                    report["tasks_done"] += 1
                    if progress is not None:
                        progress({**report, "positions": total.positions + layer_total.positions})
                    if layer_total.won is not None:
                        break
            else:
                for _t, got in runner.run(layer, todo, store.buckets):
                    layer_total = layer_total + got
                    report["tasks_done"] += 1
                    if progress is not None:
                        progress({**report, "positions": total.positions + layer_total.positions})
                    if layer_total.won is not None:
                        break
                    if limit is not None and time.perf_counter() - t0 > limit:
                        # (the tasks still out are let go when the runner closes)
                        return total, done_layers, f"stopped after {limit:g} seconds, as asked"
        except GroupTooLarge as exc:
            return total, done_layers, f"{exc} (layer {layer}; give more memory)"
        except DiskFull as exc:
            return (
                total,
                done_layers,
                f"{exc.strerror} (layer {layer}; free some room and run again)",
            )
        if layer_total.won is None and probe_nodes and layer_total.best_home >= 0:
            if searcher is None:
                searcher = Searcher(problem, memory)
            won = _probe(searcher, layer_total, probe_nodes)
            if won is not None:
                layer_total = won
        if layer_total.won is not None:
            return total + layer_total, done_layers, ""
        summary = {
            "layer": layer,
            "groups": layer_total.groups,
            "entries": layer_total.entries,
            "positions": layer_total.positions,
            "disk": store.disk_bytes(),
            "seconds": round(time.perf_counter() - t0, 3),
            "outcome": dataclasses.asdict(layer_total),
        }
        store.set_summary(layer, summary)


def _recorded(said: dict[str, Any], asked: ProveResult) -> ProveResult:
    """The verdict a finished run left in its folder (its line replayed again)."""
    assert asked.start is not None
    moves, ok = verify_moves(asked.start, [str(m) for m in said["moves"]])
    return dataclasses.replace(
        asked,
        outcome=said["outcome"],
        moves=moves,
        positions=said["positions"],
        seconds=said["seconds"],
        verified=ok and said["outcome"] == "solved",
        nodes=said["nodes"],
        proof=said["proof"],
        groups=said["groups"],
        lost=said["lost"],
        disk=said["disk_bytes"],
        table=said["table_bytes"],
        layers=tuple(tuple(t) for t in said["layers"]),
    )


def _line(store: Store, problem: Problem, won: Outcome, memory: int) -> list[Move | str]:
    """The moves from the start (after its automatic moves) to a won position,
    through the entries the refs chain back from ``won.won`` (and, where a
    probe won, on through its row and the probe's line)."""
    assert won.won is not None
    chain = []
    ref = won.won
    while ref >= 0:
        row = store.row(ref)
        chain.append(row)
        ref = int(row["ref"])
    chain.reverse()
    searcher = Searcher(problem, memory)
    moves: list[Move | str] = []
    for here, nxt in itertools.pairwise(chain):
        target = searcher.target_of(int(nxt["key"]), nxt["pos"][None, :])
        moves += searcher.line(int(here["key"]), here["pos"], target)
    last = chain[-1]
    if not won.won_pos:
        return moves + searcher.line(int(last["key"]), last["pos"], WIN_TARGET)
    row = np.array(won.won_pos, dtype=np.uint8)[None, :]
    moves += searcher.line(int(last["key"]), last["pos"], searcher.target_of(won.won_key, row))
    return moves + list(won.won_moves)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def size_bytes(text: str) -> int:
    """A size as a person types it: a whole number of bytes, or with K, M, G or
    T (powers of 1024; an optional B or iB after it).

    >>> size_bytes("6G"), size_bytes("512MiB"), size_bytes("1048576")
    (6442450944, 536870912, 1048576)
    >>> size_bytes("six")
    Traceback (most recent call last):
    ...
    bakers_lab.solve.prove.ProveError: a size is a whole number with K, M, G or T after it \
(like 6G or 512M), not 'six'
    """
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = t[-1:] if t[-1:] in _UNITS else ""
    digits = t[: len(t) - len(unit)]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        raise ProveError(
            f"a size is a whole number with K, M, G or T after it (like 6G or 512M), "
            f"not {text[:40]!r}"
        )
    return int(digits) * _UNITS[unit]


def default_workdir(position: Deal | GameState) -> Path:
    """Where ``bakers-lab prove`` keeps a game's run unless told: the user's
    cache folder, one folder a game (a board: a digest of its text)."""
    import hashlib

    import platformdirs

    rules = position.rules
    number = getattr(position, "number", None)
    if number is not None and rules.name != "custom":
        name = f"{rules.name}-{number}"
    else:
        text = position.to_text() if isinstance(position, GameState) else str(position)
        digest = hashlib.sha256((repr(rules) + text).encode()).hexdigest()[:16]
        name = f"board-{digest}"
    return Path(platformdirs.user_cache_dir("bakers_lab")) / "prove" / name


@contextlib.contextmanager
def tqdm_progress(disable: bool = False) -> Iterator[Progress | None]:
    """A progress callback for :func:`prove` that draws a tqdm bar (in a
    terminal or in Jupyter): the layer, its tasks done of all, positions,
    positions a second and disk used; tqdm estimates what is left of the layer."""
    if disable:
        yield None
        return
    from tqdm.auto import tqdm

    bar: list[Any] = [None, -1]
    t0 = time.perf_counter()

    def heard(d: dict[str, Any]) -> None:
        if d["layer"] != bar[1]:
            if bar[0] is not None:
                bar[0].close()
            bar[0] = tqdm(
                total=d["tasks"],
                initial=d["tasks_done"],
                desc=f"layer {d['layer']}",
                unit="task",
                leave=False,
            )
            bar[1] = d["layer"]
        bar[0].n = d["tasks_done"]
        rate = d["positions"] / max(1e-9, time.perf_counter() - t0)
        bar[0].set_postfix_str(
            f"{d['positions']:,} positions, {rate:,.0f}/s, disk {d.get('disk', 0) / 2**30:.2f} GiB"
        )
        bar[0].refresh()

    try:
        yield heard
    finally:
        if bar[0] is not None:
            bar[0].close()
