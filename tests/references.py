"""The slow reference searches' answers, remembered between runs.

The plain exhaustive search (:func:`reference_solver.is_solvable`) and the teaching
breadth-first search are the yardsticks the compiled solver, the relaxation and
``bl.shortest`` must agree with, deal by deal, on a few thousand small deals.  Their
answers never change while their sources do not, and computing them took about two
of the suite's worker-minutes.  This module remembers them in ``tests/data/references.json``,
each under a key of the question (which search, the rules, the position), the whole
file under a fingerprint of every source the answers depend on: the reference search,
the rule engine (``bakers_lab/model``) and the teaching search.

- When the fingerprint is current, a remembered answer is used as it is.
- When it is not (a source changed), nothing remembered is used: every answer is
  computed again, the tests stay right and only take longer, and
  ``test_references.py`` warns that the record is stale.  Record it anew with
  ``make references`` (about three minutes).
- Each run computes a fixed sample of the remembered answers afresh and compares
  (``test_references.py``): an edited or wrong record fails there.

Recording: with ``BAKERS_LAB_RECORD_REFERENCES=1`` every answer is computed and kept,
and each test process merges what it computed into the file when it ends
(:func:`write_recorded`, called by ``conftest.py``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path

from reference_solver import is_solvable

import bakers_lab as bl
from bakers_lab.solve.search import breadth_first

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RECORD = HERE / "data" / "references.json"
RECORDING = os.environ.get("BAKERS_LAB_RECORD_REFERENCES") == "1"

#: What the answers depend on: the searches themselves and the rule engine they play.
SOURCES = (
    HERE / "reference_solver.py",
    *sorted((ROOT / "bakers_lab" / "model").glob("*.py")),
    ROOT / "bakers_lab" / "solve" / "search.py",
)


def fingerprint() -> str:
    """A hash of the sources the answers depend on (their bytes, in a fixed order)."""
    h = hashlib.sha256()
    for path in SOURCES:
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _load() -> dict[str, object]:
    try:
        data = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


_FILE = _load()
CURRENT = _FILE.get("fingerprint") == fingerprint()
_KNOWN: dict[str, object] = _FILE.get("answers", {}) if CURRENT and not RECORDING else {}  # type: ignore[assignment]
_COMPUTED: dict[str, object] = {}


def key(kind: str, state: bl.GameState) -> str:
    """The question's key: which search, under which rules, from which position."""
    text = f"{kind}\n{state.rules!r}\n".encode() + state.key()
    return hashlib.sha256(text).hexdigest()[:20]


def remembered(kind: str, state: bl.GameState) -> object:
    """The remembered answer (``"?"`` when there is none to use)."""
    return _KNOWN.get(key(kind, state), "?")


def _bfs(state: bl.GameState) -> int | None:
    r = breadth_first(state, max_nodes=3_000_000)
    assert r.status in ("solved", "no solution"), r
    return len(r.solution or []) if r.status == "solved" else None


def _answer(kind: str, state: bl.GameState) -> object:
    k = key(kind, state)
    if k in _KNOWN:
        return _KNOWN[k]
    value = is_solvable(state) if kind == "solvable" else _bfs(state)
    if RECORDING:
        _COMPUTED[k] = value
    return value


def solvable(state: bl.GameState) -> bool:
    """Whether some line of legal moves wins from ``state`` (the exhaustive search)."""
    return bool(_answer("solvable", state))


def shortest_length(deal: bl.Deal) -> int | None:
    """The teaching breadth-first search's length of a shortest win (None: none)."""
    value = _answer("bfs", bl.GameState.from_deal(deal))
    return None if value is None else int(value)  # type: ignore[call-overload]


def write_recorded() -> int:
    """Merge the answers this process computed into the record (under a lock, as the
    test processes end one after another); how many it held."""
    if not RECORDING or not _COMPUTED:
        return 0
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    with open(RECORD.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        old = _load()
        now = fingerprint()
        answers = dict(old.get("answers", {})) if old.get("fingerprint") == now else {}  # type: ignore[call-overload]
        answers.update(_COMPUTED)
        text = json.dumps({"fingerprint": now, "answers": dict(sorted(answers.items()))},
                          indent=0)  # fmt: skip
        tmp = RECORD.with_suffix(".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(RECORD)
    return len(_COMPUTED)
