"""Surveys: table schema, backends agree, resume after SIGKILL, refusals."""

import os
import signal
import subprocess
import sys
import time
from decimal import Decimal

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.study.survey import SurveyError, parse_deals, sample_deals

MEASURED = ["seconds"]  # the only column allowed to differ between runs


def comparable(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=MEASURED).sort_values(["deal", "player"]).reset_index(drop=True)


def test_schema_and_dtypes(tmp_path):
    df = bl.survey("1-12,64", out=tmp_path / "s", chunk_size=5, progress=False)
    assert list(df.columns[:10]) == [
        "deal",
        "variant",
        "player",
        "outcome",
        "moves",
        "nodes",
        "seconds",
        "solution",
        "ended",
        "proof",
    ]
    assert [c for c in df.columns[10:] if not c.startswith("f_")] == []
    assert df["ended"].astype(str).tolist() == ["solved"] * 12 + ["unsolvable"]
    # how the lost deal was proven: game 64 is refuted by the dead-end test at once
    assert df["proof"].tolist()[-1] == "deadlock" and df["proof"][:12].isna().all()
    assert list(df["proof"].cat.categories) == ["deadlock", "exhausted", "relaxation", "layers"]
    back = pd.read_parquet(tmp_path / "s")
    for col in ("variant", "player", "outcome"):
        assert isinstance(back[col].dtype, pd.CategoricalDtype), col
    assert list(back["outcome"].cat.categories) == ["won", "lost", "unresolved"]
    # plain pandas reads the 20-digit decimal deal column as exact Decimal objects
    assert back["deal"].map(type).eq(Decimal).all() and back["seconds"].dtype == "float64"
    assert sorted(back["deal"]) == [*list(range(1, 13)), 64]
    assert df["deal"].map(type).eq(int).all() and df["deal"].tolist() == [*range(1, 13), 64]
    row = df.set_index("deal").loc[64]
    assert row["outcome"] == "lost" and row["solution"] == "" and row["moves"] == 0
    won = df[df["outcome"] == "won"]
    for r in won.itertuples():
        g = bl.GameState.from_deal(bl.deal(r.deal))  # a row's deal goes straight back in
        g.play_all(r.solution)
        assert g.is_won and r.moves == len(r.solution.split())
    # two features recomputed here on another path: the rule engine's move list, and
    # the cards above each Ace counted by hand
    for r in df.itertuples():
        d = bl.deal(r.deal)
        assert r.f_legal_moves == len(bl.GameState.from_deal(d).legal_moves())
        above_aces = sum(
            len(col) - 1 - k for col in d.columns for k, c in enumerate(col) if c.rank == 1
        )
        assert r.f_depth_aces == above_aces


def test_two_workers_give_the_same_table(tmp_path):
    one = bl.survey("1-40", out=tmp_path / "a", chunk_size=10, n_jobs=1, progress=False)
    two = bl.survey("1-40", out=tmp_path / "b", chunk_size=10, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(comparable(one), comparable(two))


def test_dask_cluster_gives_the_loky_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    loky = bl.survey("1-30", out=tmp_path / "loky", chunk_size=10, n_jobs=2, progress=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        dask = bl.survey(
            "1-30",
            out=tmp_path / "dask",
            chunk_size=10,
            n_jobs=2,
            backend="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    pd.testing.assert_frame_equal(comparable(loky), comparable(dask))


SCRIPT = """
import sys, bakers_lab as bl
bl.survey("1-400", out=sys.argv[1], chunk_size=10, n_jobs=1, progress=False)
"""


def test_killed_survey_resumes_without_loss_or_repeats(tmp_path):
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(out)], start_new_session=True)
    try:
        while len(list(out.glob("chunk-*.parquet"))) < 3:
            assert proc.poll() is None, "the survey ended before it could be killed"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.glob("chunk-*.parquet")}
    assert 3 <= len(before) < 40
    df = bl.survey("1-400", out=out, chunk_size=10, n_jobs=1, progress=False)
    assert df["deal"].tolist() == list(range(1, 401))  # every deal exactly once
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.glob("chunk-*.parquet")}
    assert all(after[name] == stamp for name, stamp in before.items())  # not recomputed
    assert len(after) == 40
    assert [p for p in out.iterdir() if p.name.startswith(".chunk-")] == []


def test_other_configuration_refused(tmp_path):
    bl.survey("1-3", out=tmp_path / "s", progress=False)
    with pytest.raises(SurveyError, match=r"holds another survey \(it differs in: variant, rules"):
        bl.survey("1-3", variant="good_measure", out=tmp_path / "s", progress=False)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("5-2", "bad deal range '5-2': 2 is below 5"),
        ("1-x", "bad deal range '1-x'"),
        ("0-3", "a game number is a whole number from 1 to"),
        ("", "no deals to survey"),
    ],
)
def test_bad_deal_specs(spec, message):
    with pytest.raises(SurveyError, match=message):
        parse_deals(spec)


def test_unknown_player(tmp_path):
    with pytest.raises(SurveyError, match="unknown player 'grandmaster'; known: solver, shortest"):
        bl.survey("1-3", players="grandmaster", out=tmp_path / "s", progress=False)


def test_deal_specs_and_samples():
    assert parse_deals("1-3,5000-5001,417,2") == [1, 2, 3, 5000, 5001, 417]
    a, b = sample_deals(500, seed=7), sample_deals(500, seed=7)
    assert a == b and len(set(a)) == 500 and a != sample_deals(500, seed=8)
    assert all(1 <= n < 10**20 for n in a)
    assert sum(n > 10**19 for n in a) > 400  # uniform over 20 digits: mostly huge numbers


def test_wilson_interval_and_win_rates(tmp_path):
    assert bl.wilson_interval(0, 10)[0] == 0.0 and bl.wilson_interval(10, 10)[1] == 1.0
    lo, hi = bl.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    df = bl.survey("60-66", out=tmp_path / "s", progress=False)
    rates = bl.win_rates(df)
    assert rates[["deals", "won", "lost", "unresolved"]].iloc[0].tolist() == [7, 6, 1, 0]
    assert rates["rate"].iloc[0] == pytest.approx(6 / 7)


def test_cli_survey_prints_summary(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bakers_lab.cli",
            "survey",
            "--deals",
            "60-66",
            "--out",
            str(tmp_path / "s"),
            "--jobs",
            "1",
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("7 rows in ")
    assert lines[1].startswith(
        "bakers_dozen solver: won 6 of 7 resolved = 85.71 % (95 % Wilson interval"
    )
    assert lines[1].endswith("unresolved 0")
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "bakers_lab.cli",
            "survey",
            "--deals",
            "1-3",
            "--variant",
            "good_measure",
            "--out",
            str(tmp_path / "s"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert (
        bad.returncode == 2
        and bad.stderr.startswith("bakers-lab: error: ")
        and len(bad.stderr.strip().splitlines()) == 1
    )


def test_a_survey_without_the_solver_has_no_proof_column(tmp_path):
    df = bl.survey("1-3", players="greedy", out=tmp_path / "s", progress=False)
    assert "proof" not in df.columns and list(df.columns[:9])[-1] == "ended"
