# mypy: disable-error-code="arg-type"
"""Issue 25, the second hardening audit: what needs processes of its own.  Two surveys
into one folder at once (one writes, the other is refused in one line), a folder
another process holds, and a survey's workers after a ``kill -9`` of the survey."""

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from procs import alive, descendants

import bakers_lab as bl
from bakers_lab.study.survey import SurveyError

ROOT = Path(__file__).resolve().parent.parent
DEALS = "1-60"
PLAYERS = ("solver", "careful")


def start_survey(out: Path, budget: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", DEALS, "--players",
         ",".join(PLAYERS), "--chunk-size", "5", "--jobs", "1", "--quiet", "--max-nodes",
         str(budget), "--out", str(out)],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.fixture(scope="module")
def lone_runs(tmp_path_factory):
    """The table a survey writes alone, for each budget the race uses."""
    runs = {}
    for budget in (1_000, 100_000):
        out = tmp_path_factory.mktemp("lone") / "s"
        bl.survey(DEALS, players=PLAYERS, chunk_size=5, max_nodes=budget, out=out,
                  progress=False)  # fmt: skip
        runs[budget] = bl.read_survey(out).drop(columns="seconds")
    return runs


def test_two_surveys_into_one_folder_at_once_one_writes(tmp_path, lone_runs):
    """Four times: two `bakers-lab survey` processes started together into one folder
    (the same survey on odd rounds, different budgets on even ones, as in the issue):
    exactly one writes, the other is refused in one line naming the folder, and the
    folder reads back equal to a lone run of the one that wrote."""
    refusals = set()
    for rep in range(4):
        out = tmp_path / f"race{rep}"
        budgets = (100_000, 100_000) if rep % 2 else (1_000, 100_000)
        procs = [start_survey(out, b) for b in budgets]
        results = [(p.wait(timeout=120), *p.communicate()) for p in procs]
        codes = [code for code, _, _ in results]
        assert sorted(codes) == [0, 2], (rep, [err for _, _, err in results])
        winner, loser = codes.index(0), codes.index(2)
        lines = results[loser][2].splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"bakers-lab: error: {out} "), lines
        refusals.add(lines[0].split(f"{out} ")[1].split(" (process")[0].split(";")[0])
        table = bl.read_survey(out).drop(columns="seconds")
        assert table.equals(lone_runs[budgets[winner]]), rep
        assert not list(out.glob(".*.tmp"))
    # the lock refused the same survey (while the other held the folder); a survey with
    # another budget is refused by the lock or, once the other's manifest is there, by it
    assert "is being written by another survey" in refusals, refusals


def test_a_folder_another_process_holds_is_refused_and_left_alone(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time\n"
         f"f = open({str(out / '.survey.lock')!r}, 'w')\n"
         "fcntl.flock(f, fcntl.LOCK_EX); f.write('4242\\n'); f.flush()\n"
         "print('held', flush=True); time.sleep(60)\n"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(SurveyError) as info:
            bl.survey("1-2", out=out, progress=False)
    finally:
        holder.kill()
        holder.wait()
    assert str(info.value) == (
        f"{out} is being written by another survey (process 4242); wait for it to end "
        f"or choose another --out"
    )
    assert sorted(p.name for p in out.iterdir()) == [".survey.lock"]  # nothing written
    # the holder is gone (killed: the system dropped its lock), so the survey runs now
    assert bl.survey("1-2", out=out, progress=False)["deal"].tolist() == [1, 2]


def test_the_lock_is_held_in_this_process_for_the_whole_run(tmp_path, monkeypatch):
    """While a survey computes, the folder's lock is taken (checked from inside a chunk)."""
    survey_module = sys.modules["bakers_lab.study.survey"]  # bl.survey is the function

    out = tmp_path / "s"
    seen = []
    real = survey_module._chunk_table

    def spy(*args, **kwargs):
        fd = os.open(out / ".survey.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append("free")
        except BlockingIOError:
            seen.append("held")
        finally:
            os.close(fd)
        return real(*args, **kwargs)

    monkeypatch.setattr(survey_module, "_chunk_table", spy)
    bl.survey("1-4", chunk_size=2, out=out, progress=False)
    assert seen == ["held", "held"]
    assert (out / ".survey.lock").read_text() == f"{os.getpid()}\n"
    fd = os.open(out / ".survey.lock", os.O_RDWR)  # released at the end
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.close(fd)


@pytest.mark.timeout(300)  # orphaned workers would solve on for many minutes
def test_workers_end_after_a_kill_9_of_the_survey(tmp_path):
    out = tmp_path / "s"
    survey = subprocess.Popen(
        [sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", "1-400", "--players",
         "careful,lookahead-3", "--chunk-size", "2", "--jobs", "2", "--quiet", "--out",
         str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    workers: list[int] = []
    try:
        while True:  # until the workers are solving (else the test's timeout ends it)
            assert survey.poll() is None, "the survey ended before its workers were seen"
            workers = descendants(survey.pid)
            if len(workers) >= 2 and any(out.glob("chunk-*.parquet")):
                break
            time.sleep(0.3)
        os.kill(survey.pid, signal.SIGKILL)
        survey.wait()
        while any(alive(w) for w in workers):  # orphans would run on, and time the test out
            time.sleep(0.2)
    finally:
        if survey.poll() is None:
            survey.kill()
            survey.wait()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)
    # the system dropped the killed survey's lock: the folder is refused for what it
    # holds, not for being written
    with pytest.raises(SurveyError, match=r"holds another survey \(it differs in: players"):
        bl.survey("1-2", out=out, progress=False)
