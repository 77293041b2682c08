"""bl.prove: the layered search settles positions exactly, resumes after any stop,
and says what it found in the toolkit's words.

The long runs (the open deals of the shipped tables) are benchmarks
(benchmarks/prove_tail.py, benchmarks/prove.py), not tests.
"""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import numpy as np
import pytest
import references
from test_solver_agreement import SHAPES, small_rules

import bakers_lab as bl
from bakers_lab.solve import prove as P
from bakers_lab.solve.frontier import DiskStore
from bakers_lab.solve.search import breadth_first

BIN = os.path.join(os.path.dirname(sys.executable), "bakers-lab")


def test_the_same_verdict_as_the_teaching_breadth_first_search():
    """Every seed the teaching searches' tests use (micro 0-199, tiny 0-39): the
    layered search alone (no solver probes) says what breadth-first search says,
    and its lines win on the rule engine."""
    verdicts: Counter = Counter()
    for deck, seeds in (("micro", 200), ("tiny", 40)):
        for seed in range(seeds):
            d = bl.classroom_deal(seed, deck)
            bfs = breadth_first(d)
            got = bl.prove(d, probes=False)
            assert got.outcome == ("solved" if bfs.solution is not None else "unsolvable"), (
                deck,
                seed,
            )
            if got.outcome == "solved":
                assert got.verified
                g = bl.GameState.from_deal(d)
                g.play_all(list(got.moves))
                assert g.is_won
            else:
                assert got.proof in ("layers", "deadlock")
            verdicts[got.outcome] += 1
    assert verdicts["solved"] >= 60 and verdicts["unsolvable"] >= 60, verdicts


@pytest.mark.parametrize("name", bl.variant_names())
def test_every_preset_agrees_with_the_plain_exhaustive_search(name):
    """The small-deck deals of the solver's agreement test (5 ranks, every fourth
    of its 130 seeds a preset; benchmarks/prove.py small runs all 260 of both
    decks): the layered search alone gives the plain search's verdict."""
    ranks, columns, count = SHAPES[0]
    seeds = range(0, count, 4)
    if name == "spanish_patience":
        # only Aces go home by themselves there: its solvable deals have up to a
        # million positions below the win (seed 5: 1,079,218), so seeds 7-15
        # (6 won, 3 lost; about 4 s)
        seeds = range(7, 16)
    r = small_rules(name, ranks, columns)
    verdicts: Counter = Counter()
    for seed in seeds:
        d = bl.seeded_deal(seed, variant=r)
        expected = references.solvable(bl.GameState.from_deal(d))
        got = bl.prove(d, probes=False)
        assert got.outcome == ("solved" if expected else "unsolvable"), (name, seed)
        assert got.verified == expected
        verdicts[got.outcome] += 1
    assert sum(verdicts.values()) == len(seeds)


def _six_rank(seed: int, name: str = "bakers_dozen") -> bl.Deal:
    return bl.seeded_deal(seed, variant=small_rules(name, 6, 4))


def test_counts_do_not_depend_on_where_or_how_it_runs(tmp_path):
    """In memory, on disk with few or many buckets: the same verdict, positions,
    groups and layers (a lost 6-rank deal, searched whole)."""
    d = _six_rank(11)  # lost: 716 positions in 40 groups, 18 layers
    runs = [
        bl.prove(d, probes=False),
        bl.prove(d, probes=False, workdir=tmp_path / "a", buckets=3),
        bl.prove(d, probes=False, workdir=tmp_path / "b", buckets=64),
    ]
    first = runs[0]
    assert first.outcome == "unsolvable" and first.proof == "layers"
    for r in runs[1:]:
        assert (r.outcome, r.positions, r.groups, r.nodes) == (
            first.outcome,
            first.positions,
            first.groups,
            first.nodes,
        )
        assert [t[:2] + t[3:] for t in r.layers] == [t[:2] + t[3:] for t in first.layers]
    assert sum(t[3] for t in first.layers) == first.positions


def test_a_finished_run_keeps_its_verdict_and_lets_its_rows_go(tmp_path):
    d = _six_rank(1)
    a = bl.prove(d, probes=False, workdir=tmp_path)
    assert a.outcome == "solved" and a.verified
    assert not list(tmp_path.glob("layer_*/b*.arrow"))
    b = bl.prove(d, probes=False, workdir=tmp_path)
    assert (b.outcome, b.moves, b.positions, b.layers) == (
        a.outcome,
        a.moves,
        a.positions,
        a.layers,
    )
    assert b.verified


def test_a_win_found_by_a_probe_is_a_line_from_the_start(monkeypatch):
    """The solver's first try given one node: the win comes from a probe on a
    frontier row, and the line through the row's entries replays to a win."""
    monkeypatch.setattr(P, "_FIRST_NODES", 1)
    for seed in (1, 2, 3):
        d = _six_rank(seed, "spanish_patience")
        got = bl.prove(d)
        assert got.outcome == "solved" and got.verified, seed
        # (the layered search alone searches 433,339 to 1,718,858 positions first)
        assert got.positions < 1000, seed


def test_a_limit_reached_says_which_and_the_same_folder_goes_on(tmp_path):
    d = _six_rank(11)
    whole = bl.prove(d, probes=False)
    part = bl.prove(d, probes=False, workdir=tmp_path, max_seconds=0)
    assert part.outcome == "unresolved"
    assert part.reason == "stopped after 0 seconds, as asked"
    assert "not settled: stopped after 0 seconds" in part.summary()
    rest = bl.prove(d, probes=False, workdir=tmp_path)
    assert (rest.outcome, rest.positions, rest.groups) == (
        whole.outcome,
        whole.positions,
        whole.groups,
    )


def test_a_run_killed_at_any_moment_goes_on_to_the_same_verdict_and_counts(tmp_path):
    """SIGKILL at several moments of a command-line run, then the same command:
    the verdict and counts of an uninterrupted run."""
    whole = bl.prove(6574, probes=False)
    work = tmp_path / "w"
    cmd = [BIN, "prove", "6574", "--workdir", str(work), "--no-probes", "--json", "--quiet"]
    for wait in (2.5, 5.0):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(wait)
        p.send_signal(signal.SIGKILL)
        p.wait()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=True)
    got = json.loads(out.stdout)
    assert got["outcome"] == "unsolvable" and got["proof"] == "layers"
    assert (got["positions"], got["groups"], got["nodes"]) == (
        whole.positions,
        whole.groups,
        whole.nodes,
    )
    assert [row[0] for row in got["layers"]] == [t[0] for t in whole.layers]


def test_a_second_run_on_one_folder_is_refused_in_one_line(tmp_path):
    store = DiskStore(tmp_path)
    with store.locked():
        with pytest.raises(bl.RunBusy, match=r"^another run is using "):
            bl.prove(_six_rank(3), workdir=tmp_path)
        out = subprocess.run(
            [BIN, "prove", "5", "--workdir", str(tmp_path)], capture_output=True, text=True
        )
    assert out.returncode == 2
    assert (
        out.stderr.strip().splitlines()[-1] == f"bakers-lab: error: another run is using {tmp_path}"
    )


def test_a_folder_of_another_search_is_refused(tmp_path):
    bl.prove(_six_rank(11), workdir=tmp_path, probes=False)
    with pytest.raises(bl.ProveError, match="holds another search"):
        bl.prove(_six_rank(1), workdir=tmp_path)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"jobs": 0}, "jobs must be"),
        ({"jobs": True}, "jobs must be"),
        ({"memory": 10}, "memory must be"),
        ({"max_seconds": -1}, "max_seconds must be"),
        ({"max_seconds": float("nan")}, "max_seconds must be"),
        ({"buckets": 0}, "buckets must be"),
        ({"scheduler": 5}, "scheduler must be an address"),
        ({"workdir": 5}, "workdir must be a folder"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(bl.ProveError, match=message):
        bl.prove(_six_rank(0), **kwargs)


def test_a_workdir_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(bl.ProveError, match="is a file, not a folder"):
        bl.prove(_six_rank(0), workdir=f)


def test_the_command_line_settles_a_board_and_says_so(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text(bl.GameState.from_deal(bl.deal(5143)).to_text())  # lost: 2,504 positions
    out = subprocess.run(
        [BIN, "prove", "--board", str(board), "--workdir", str(tmp_path / "w"), "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("bakers_dozen the position: proven unsolvable: every reachable")
    bad = subprocess.run([BIN, "prove", "5", "--memory", "lots"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "bakers-lab: error: a size is a whole number with K, M, G or T after it "
        "(like 6G or 512M), not 'lots'"
    )


def test_a_group_too_large_for_the_memory_given_is_unresolved_and_says_so():
    got = bl.prove(6574, probes=False, memory=1 << 17)  # its largest group: 10,368 positions
    assert got.outcome == "unresolved"
    assert got.reason.startswith("a group needs a table of 256 KiB, over the 128 KiB a worker")
    assert got.reason.endswith("give more memory)")


def test_a_frontier_file_is_read_as_columns_of_known_types(tmp_path):
    from bakers_lab.solve.frontier import _load, _write
    from bakers_lab.solve.layers import RECORD

    rows = np.zeros(3, dtype=RECORD)
    rows["key"] = [1, 2, 3]
    rows["ref"] = -1
    rows["pos"][1, 5] = 7
    _write(tmp_path / "a.arrow", rows)
    back = _load(tmp_path / "a.arrow")
    assert back.tobytes() == rows.tobytes()
    import pyarrow as pa
    import pyarrow.feather as feather

    feather.write_feather(pa.table({"key": [1]}), str(tmp_path / "bad.arrow"))
    with pytest.raises(ValueError, match="is not a frontier file of this version"):
        _load(tmp_path / "bad.arrow")


def test_a_full_disk_stops_the_run_cleanly_and_it_goes_on_later(tmp_path, monkeypatch):
    """Less than the reserve free: the run ends unresolved, saying so, and the
    same folder later ends with the counts of a run never stopped."""
    d = _six_rank(11)
    whole = bl.prove(d, probes=False)
    monkeypatch.setattr(DiskStore, "free_bytes", lambda self: 0)
    full = bl.prove(d, probes=False, workdir=tmp_path)
    assert full.outcome == "unresolved"
    assert full.reason.startswith("less than 1 GiB left free (layer ")
    assert full.reason.endswith("; free some room and run again)")
    assert not list((tmp_path / "staging").glob("*"))  # (an attempt cut short leaves nothing)
    monkeypatch.undo()
    rest = bl.prove(d, probes=False, workdir=tmp_path)
    assert (rest.outcome, rest.positions, rest.groups) == (
        whole.outcome,
        whole.positions,
        whole.groups,
    )


def test_the_shipped_record_of_the_open_deals_replays():
    """data/prove_tail.jsonl (benchmarks/prove_tail.py's record of the deals the
    shipped tables leave open): every line names an open deal, every win
    replays on the rule engine, every loss names its proof."""
    from pathlib import Path

    import pandas as pd

    data = Path(__file__).resolve().parent.parent / "data"
    lines = [json.loads(t) for t in (data / "prove_tail.jsonl").read_text().splitlines()]
    assert lines
    tables = {
        "bakers_dozen": "bakers_dozen_1-32000",
        "good_measure": "good_measure_1-2000",
        "bakers_dozen_return": "bakers_dozen_return_1-2000",
        "house_sequences": "house_sequences_1-2000",
        "portuguese_solitaire": "portuguese_solitaire_1-2000",
    }
    open_deals = set()
    for variant, table in tables.items():
        df = pd.read_parquet(data / table, columns=["deal", "player", "outcome"])
        rows = df[(df.player == "solver") & (df.outcome == "unresolved")]
        open_deals |= {(variant, int(d)) for d in rows.deal}
    assert len(open_deals) == 119
    for rec in lines:
        assert (rec["variant"], rec["deal"]) in open_deals
        verdict = rec["verdict"]
        if verdict["outcome"] == "solved":
            g = bl.GameState.from_deal(bl.deal(rec["deal"], variant=rec["variant"]))
            g.play_all(verdict["moves"])
            assert g.is_won, rec["deal"]
        elif verdict["outcome"] == "unsolvable":
            assert verdict["proof"] in ("layers", "deadlock")
        else:
            assert verdict["outcome"] == "unresolved" and verdict["reason"]


def test_a_time_limit_holds_on_dask_too(tmp_path):
    """max_seconds stops a run on a local cluster as it does in this process, and
    the same folder goes on to the counts of a run never stopped."""
    d = _six_rank(11)
    whole = bl.prove(d, probes=False)
    part = bl.prove(d, probes=False, workdir=tmp_path, jobs=2, max_seconds=0)
    assert (part.outcome, part.reason) == ("unresolved", "stopped after 0 seconds, as asked")
    rest = bl.prove(d, probes=False, workdir=tmp_path)
    assert (rest.outcome, rest.positions, rest.groups) == (
        whole.outcome,
        whole.positions,
        whole.groups,
    )
