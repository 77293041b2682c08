# mypy: disable-error-code="arg-type, list-item"
# (these tests pass values of the wrong type on purpose)
"""Surveys under hostile input: huge game numbers, failed runs, damaged directories,
and the command line's survey and solve options that the first tests did not cover."""

import json
from decimal import Decimal

import pandas as pd
import pytest
from inprocess import run_cli

import bakers_lab as bl
from bakers_lab.study.survey import SurveyError, sample_deals

BIG = [2**63, 5, 2**64 - 1, 10**20 - 1, 2**63 - 1, 2**64]


def one_error_line(proc):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bakers-lab: error: "), proc.stderr
    return lines[0].removeprefix("bakers-lab: error: ")


def test_numbers_above_2_63_are_stored_exactly_and_sort_numerically(tmp_path):
    df = bl.survey(BIG, out=tmp_path / "s", max_nodes=20_000, chunk_size=4, progress=False)
    assert df["deal"].map(type).eq(int).all()  # Python ints: exact at any size
    assert df["deal"].tolist() == sorted(BIG)  # numeric order, not text order
    back = pd.read_parquet(tmp_path / "s")  # plain pandas, no bakers_lab
    assert sorted(int(n) for n in back["deal"]) == sorted(BIG)
    assert all(isinstance(n, Decimal) for n in back["deal"])
    again = bl.read_survey(tmp_path / "s")
    pd.testing.assert_frame_equal(again, df)
    for row in df.itertuples():  # a row's own deal goes back into the library
        d = bl.deal(row.deal)
        assert d.number == int(row.deal) and row.f_legal_moves == len(
            bl.GameState.from_deal(d).legal_moves()
        )
    assert (df["deal"] == 10**20 - 1).sum() == 1 and (df["deal"] >= 2**64).sum() == 2


def test_a_survey_of_sampled_numbers_keeps_every_number(tmp_path):
    drawn = sample_deals(12, seed=1)
    assert sum(n > 2**63 for n in drawn) >= 9  # the case that overflowed int64
    df = bl.survey(drawn, out=tmp_path / "s", max_nodes=20_000, chunk_size=5, progress=False)
    assert sorted(int(n) for n in df["deal"]) == sorted(drawn)
    assert df["outcome"].astype(str).isin(["won", "lost", "unresolved"]).all()
    for row in df[df["outcome"] == "won"].itertuples():
        g = bl.GameState.from_deal(bl.deal(row.deal))
        assert g.play_all(row.solution).is_won


def test_failed_runs_leave_nothing_behind(tmp_path):
    out = tmp_path / "d"
    bad_calls = [
        ({"players": "solver,solver"}, "player 'solver' is given 2 times; give each once"),
        ({"players": ["solver", "expert"]}, "unknown player 'expert'; known: solver, shortest, r"),
        ({"players": ""}, "unknown player ''; known: solver, shortest, random, greedy, care"),
        ({"players": "lookahead-0"}, "look-ahead depth must be an integer from 2 to 6 (careful"),
        ({"players": "lookahead-x"}, "unknown player 'lookahead-x'; known: solver, shortest, r"),
        ({"players": "careful-no_luck"}, "unknown tip 'luck' in 'careful-no_luck'; tips: low_c"),
        ({"max_nodes": 0}, "max_nodes must be an integer from 1 to 1000000000000, not 0"),
        ({"max_nodes": 1.9}, "max_nodes must be an integer, not 1.9 (float)"),
        ({"chunk_size": 0}, "chunk_size must be an integer from 1 to 1000000, not 0"),
        ({"n_jobs": 0}, "n_jobs must be a positive int, -1 (every core) or -k"),
        ({"n_jobs": 1.5}, "n_jobs must be an integer, not 1.5 (float)"),
        ({"backend": "threads"}, "backend must be loky or dask, not 'threads'"),
        ({"backend": "dask"}, "the dask backend needs a scheduler address"),
        ({"scheduler": "tcp://127.0.0.1:9"}, "a scheduler address is only for the dask backend"),
        ({"progress": "no"}, "progress must be True or False, not 'no' (str)"),
        ({"variant": "klondike"}, "unknown variant 'klondike'"),
    ]
    for kwargs, message in bad_calls:
        with pytest.raises(ValueError) as info:
            bl.survey("1-3", out=out, **kwargs)
        assert message in str(info.value), (kwargs, str(info.value))
        assert not out.exists(), kwargs  # refused before anything was written
    df = bl.survey("1-3", out=out, progress=False)  # the corrected call is not blocked
    assert df["deal"].tolist() == [1, 2, 3]


def test_output_path_is_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for out in ("", "  ", None, 5):
        with pytest.raises(SurveyError, match="out must be a directory path"):
            bl.survey("1-2", out=out, progress=False)
    assert list(tmp_path.iterdir()) == []  # nothing written into the working directory
    (tmp_path / "file").write_text("x")
    with pytest.raises(SurveyError, match="exists and is not a directory"):
        bl.survey("1-2", out=tmp_path / "file", progress=False)


def test_damaged_chunks_are_named(tmp_path):
    out = tmp_path / "s"
    bl.survey("1-6", out=out, chunk_size=2, progress=False)
    chunk1 = out / "chunk-000001.parquet"
    good = chunk1.read_bytes()

    chunk1.write_bytes(b"not parquet at all")
    changed = r"^chunk 1 \(chunk-000001.parquet\) changed after it was written: delete it and "
    with pytest.raises(SurveyError, match=changed):
        bl.survey("1-6", out=out, chunk_size=2, progress=False)
    with pytest.raises(SurveyError, match=changed):
        bl.read_survey(out)
    # a survey made before chunks had checksums: each chunk's contents are checked
    manifest = out / "_survey.json"
    config = json.loads(manifest.read_text())
    assert sorted(config.pop("chunk_sha256")) == ["000000", "000001", "000002"]
    manifest.write_text(json.dumps(config))
    damaged = (
        f"{chunk1} is damaged: Parquet cannot read it; delete it and run the survey again to "
        "recompute that chunk"
    )
    with pytest.raises(SurveyError) as info:
        bl.survey("1-6", out=out, chunk_size=2, progress=False)
    assert str(info.value) == damaged
    flipped = bytearray(good)  # bytes flipped in the footer: pyarrow's words are not shown
    flipped[-40:-24] = bytes(b ^ 0xFF for b in flipped[-40:-24])
    for data in (b"not parquet at all", bytes(flipped)):
        chunk1.write_bytes(data)
        with pytest.raises(SurveyError) as info:
            bl.read_survey(out)
        assert str(info.value) == damaged

    table = pd.read_parquet(tmp_path / "s" / "chunk-000000.parquet")
    table.iloc[:1].to_parquet(chunk1)  # readable, but one row of another chunk
    with pytest.raises(
        SurveyError, match=r"chunk-000001.parquet holds 1 rows that are not its chunk's 2"
    ):
        bl.survey("1-6", out=out, chunk_size=2, progress=False)

    chunk1.unlink()  # a missing chunk is simply computed again
    chunk1_back = bl.survey("1-6", out=out, chunk_size=2, progress=False)
    assert chunk1_back["deal"].tolist() == [1, 2, 3, 4, 5, 6]
    assert pd.read_parquet(chunk1)["deal"].tolist() == [3, 4]
    assert len(good) > 0
    # and every chunk's checksum is kept again (the ones the old run wrote, once checked)
    assert sorted(json.loads(manifest.read_text())["chunk_sha256"]) == ["000000", "000001",
                                                                        "000002"]  # fmt: skip


def test_a_chunk_whose_values_changed_is_named(tmp_path):
    """Same schema, same deals, other valid-looking moves: only the checksum can tell."""
    out = tmp_path / "s"
    bl.survey("1-4", out=out, chunk_size=2, players="careful", progress=False)
    chunk1 = out / "chunk-000001.parquet"
    table = pd.read_parquet(chunk1)
    table["solution"] = pd.read_parquet(out / "chunk-000000.parquet")["solution"].to_numpy()
    table.to_parquet(chunk1, index=False)
    message = r"^chunk 1 \(chunk-000001.parquet\) changed after it was written: delete it and "
    with pytest.raises(SurveyError, match=message + "run the survey again to recompute it$"):
        bl.read_survey(out)
    with pytest.raises(SurveyError, match=message):
        bl.survey("1-4", out=out, chunk_size=2, players="careful", progress=False)


def test_a_manifest_whose_players_were_reordered_is_named_by_reading_and_resuming(tmp_path):
    out = tmp_path / "s"
    bl.survey("1-2", out=out, players="greedy,careful", progress=False)
    manifest = out / "_survey.json"
    config = json.loads(manifest.read_text())
    config["players"] = ["careful", "greedy"]
    manifest.write_text(json.dumps(config))
    with pytest.raises(
        SurveyError,
        match=r"its players come in the order greedy, careful, and "
        r"its _survey.json says careful, greedy \(was _survey.json changed\?\)",
    ):
        bl.read_survey(out)
    with pytest.raises(SurveyError, match=r"holds another survey .it differs in: players."):
        bl.survey("1-2", out=out, players="greedy,careful", progress=False)


def test_a_finished_survey_in_a_read_only_folder_is_read_without_its_lock(tmp_path):
    out = tmp_path / "s"
    first = bl.survey("1-2", out=out, players="greedy", progress=False)
    (out / ".survey.lock").unlink()
    out.chmod(0o555)
    try:
        again = bl.survey("1-2", out=out, players="greedy", progress=False)
    finally:
        out.chmod(0o755)
    pd.testing.assert_frame_equal(first, again)


@pytest.mark.parametrize(
    "content, message",
    [
        ("[1, 2]", "holds list JSON, not a survey configuration (an object)"),
        ('"x"', "holds str JSON, not a survey configuration"),
        ("{not json", "is not a survey configuration (Expecting property name"),
    ],
)
def test_odd_manifests_give_a_clear_error(tmp_path, content, message):
    out = tmp_path / "s"
    out.mkdir()
    (out / "_survey.json").write_text(content)
    with pytest.raises(SurveyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bl.survey("1-2", out=out, progress=False)


def test_empty_or_missing_survey_directory(tmp_path):
    with pytest.raises(SurveyError, match=r"no survey in .*: it is not a directory"):
        bl.read_survey(tmp_path / "nowhere")
    with pytest.raises(SurveyError, match=r"no survey in .*: it holds no chunk-"):
        bl.read_survey(tmp_path)


def test_unreachable_dask_scheduler_is_refused_in_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from bakers_lab.study import survey as survey_module

    monkeypatch.setattr(survey_module, "DASK_TIMEOUT", 1)  # the same refusal, 10 s sooner
    with pytest.raises(SurveyError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        bl.survey(
            "1-2",
            out=tmp_path / "s",
            backend="dask",
            scheduler="tcp://127.0.0.1:9",
            progress=False,
        )
    assert not (tmp_path / "s").exists()


def test_old_int64_tables_are_read_and_upgraded(tmp_path):
    out = tmp_path / "old"
    df = bl.survey("1-3", out=out, progress=False)
    old = df.assign(deal=df["deal"].astype(int).astype("int64"))
    (out / "chunk-000000.parquet").unlink()
    old.to_parquet(out / "chunk-000000.parquet")
    manifest = out / "_survey.json"  # as such a table was written: no chunk checksums yet
    manifest.write_text(json.dumps(
        {k: v for k, v in json.loads(manifest.read_text()).items() if k != "chunk_sha256"}
    ))  # fmt: skip
    back = bl.read_survey(out)
    assert back["deal"].map(type).eq(int).all() and back["deal"].tolist() == [1, 2, 3]


# -- the command line -------------------------------------------------------------


def test_cli_sample_survey_keeps_every_drawn_number(tmp_path):
    proc = run_cli(
        "survey", "--sample", 6, "--seed", 3, "--max-nodes", 20_000, "--chunk-size", 4,
        "--jobs", 1, "--quiet", "--out", tmp_path / "s",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    table = bl.read_survey(tmp_path / "s")
    assert sorted(int(n) for n in table["deal"]) == sorted(sample_deals(6, seed=3))
    assert sorted(p.name for p in (tmp_path / "s").glob("chunk-*")) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]  # --chunk-size 4: six deals in two files
    manifest = json.loads((tmp_path / "s" / "_survey.json").read_text())
    assert manifest["chunk_size"] == 4 and manifest["max_nodes"] == 20_000


def test_cli_dask_backend(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        proc = run_cli(
            "survey", "--deals", "60-66", "--backend", "dask", "--scheduler",
            cluster.scheduler_address, "--quiet", "--out", tmp_path / "s",
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "bakers_dozen solver: won 6 of 7 resolved" in proc.stdout
    assert bl.read_survey(tmp_path / "s")["deal"].tolist() == list(range(60, 67))


def test_cli_solve_board_from_stdin():
    text = bl.deal(64).to_text()
    proc = run_cli("solve", "--board", "-", "--json", stdin=text)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["deal"], data["outcome"], data["moves"]) == (None, "unsolvable", [])
    proc = run_cli("solve", "--board", "-", "--json", stdin=bl.deal(5).to_text())
    moves = json.loads(proc.stdout)["moves"]
    assert bl.GameState.from_deal(bl.deal(5)).play_all(moves).is_won


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", 5, "--max-nodes", 10**13), "--max-nodes: must be an integer from 1 to 10000000"),
        (("survey", "--deals", "1-100000000000", "--out", "{out}"), "100000000000 deals is more"),
        (("survey", "--sample", 10**12, "--out", "{out}"), "sample size must be an integer from"),
        (("survey", "--deals", "1-2", "--players", "solver,solver", "--out", "{out}"), "given 2"),
        (("survey", "--deals", "1-2", "--out", ""), "out must be a directory path, not ''"),
        (("survey", "--deals", "1-2", "--jobs", 0, "--out", "{out}"), "n_jobs must be a positive"),
        (("survey", "--sample", 3, "--seed", -1, "--out", "{out}"), "seed must be an integer from"),
        (("survey", "--sample", 3, "--deals", "1", "--out", "{out}"), "give --deals SPEC or --sa"),
        (("deal", "100000000000000000000"), "(10^20 − 1), not 100000000000000000000"),
        (("deal", "--", "-3"), "99999999999999999999 (10^20 − 1), not '-3'"),
    ],
)
def test_cli_refusals_are_one_line_and_write_nothing(tmp_path, args, message):
    out = tmp_path / "d"
    proc = run_cli(*(str(a).replace("{out}", str(out)) for a in args))
    assert message in one_error_line(proc)
    assert not out.exists()


def test_cli_failed_survey_does_not_block_the_corrected_one(tmp_path):
    out = tmp_path / "d"
    first = run_cli("survey", "--deals", "1-2", "--players", "solver,solver", "--out", out)
    assert "given 2 times" in one_error_line(first)
    second = run_cli("survey", "--deals", "1-2", "--players", "solver", "--quiet", "--out", out)
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("2 rows in ")
