"""How fast does a big PySolFC statistics file read?  (Issue 40: 100,000 games in ≤ 2 s.)

Builds a statistics file of ``--entries`` log entries by repeating the real
entries of tests/data/pysolfc/statistics.dat (written by PySolFC itself; the
Klondike entry among them, so the "left out" count is exercised too), pickled
the way PySolFC pickles its ``Statistics`` (protocol 5, its own class names),
then times ``bl.read_pysol_stats`` on it ``--runs`` times and prints each
run and the median.

    python benchmarks/pysol_read.py                    # 100,000 entries, 5 runs
    python benchmarks/pysol_read.py --entries 1000000 --runs 3
"""

from __future__ import annotations

import argparse
import io
import pickle
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

import bakers_lab as bl
from bakers_lab.files.pysolfile import load_all

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "pysolfc" / "statistics.dat"


class _AsPysol(pickle.Pickler):
    """Pickles the reader's stand-ins under PySolFC's own module and class names."""

    def __init__(self, f: io.BytesIO) -> None:
        super().__init__(f, protocol=5)
        self.stubs: dict[str, type] = {}

    def reducer_override(self, obj: object) -> Any:
        name = getattr(obj, "pysol_name", None)
        if not isinstance(name, str):
            return NotImplemented
        if name not in self.stubs:
            module, cls = name.rsplit(".", 1)
            parts = module.split(".")
            for i in range(1, len(parts) + 1):
                sys.modules.setdefault(".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
            stub = type(cls, (), {"__module__": module, "__qualname__": cls})
            setattr(sys.modules[module], cls, stub)
            self.stubs[name] = stub
        return (self.stubs[name], (), dict(obj.fields))  # type: ignore[attr-defined]


def build(entries: int) -> bytes:
    """A statistics file of ``entries`` log entries, the real ones repeated."""
    st = load_all(REAL)[0]
    real = [e for log in st.fields["prev_games"].values() for e in log]
    players: dict[str, list[tuple[object, ...]]] = {f"player{i}": [] for i in range(3)}
    names = list(players)
    for i in range(entries):
        e = real[i % len(real)]
        players[names[i % 3]].append((e[0], e[1], e[2], e[3] + i, *e[4:]))
    st.fields["prev_games"] = players
    buf = io.BytesIO()
    _AsPysol(buf).dump(st)
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"building a statistics file of {args.entries:,} entries...", flush=True)
    data = build(args.entries)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "statistics.dat"
        path.write_bytes(data)
        print(f"{len(data) / 2**20:.1f} MiB; reading it {args.runs} times")
        times = []
        for run in range(1, args.runs + 1):
            t0 = time.perf_counter()
            t = bl.read_pysol_stats(path)
            times.append(time.perf_counter() - t0)
            print(f"  run {run}: {times[-1]:.2f} s, {len(t):,} rows; {t.attrs['note']}")
    print(f"median {statistics.median(times):.2f} s for {args.entries:,} entries")


if __name__ == "__main__":
    main()
