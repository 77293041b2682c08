"""Surveys that disagree are never merged by the order their folders sort in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.files.datadir import load_surveys
from bakers_lab.files.table import SurveyError, file_digest, record_digest

DATA = Path(__file__).resolve().parent.parent / "data"


def test_a_low_budget_survey_beside_the_shipped_one_gives_way(tmp_path):
    """A 50-node solver survey of deals 1-1,000 leaves almost every deal open; beside
    the shipped 5,000,000-node table (its folder sorts first) the larger budget's
    verdicts are kept, and claims says what the shipped data says."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "bakers_dozen_1-32000").symlink_to(DATA / "bakers_dozen_1-32000")
    bl.survey("1-1000", players="solver", max_nodes=50, out=data / "a_low_budget",
              progress=False, n_jobs=1)  # fmt: skip
    table = load_surveys(data)
    rows = table[(table["player"] == "solver") & (table["deal"] <= 1000)]
    assert len(rows) == 1000
    assert rows["outcome"].value_counts().to_dict() == {"won": 997, "lost": 2, "unresolved": 1}
    assert table.attrs["superseded"].startswith("9")
    assert (
        "rows of a_low_budget gave way to bakers_dozen_1-32000 (a larger budget)"
        in (table.attrs["superseded"])
    )
    done = subprocess.run([sys.executable, "-m", "bakers_lab.cli", "claims", "--data", str(data)],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "997 solvable, unsolvable [64, 477], unresolved [417]" in done.stdout


def test_two_surveys_with_different_games_and_the_same_settings_are_refused(tmp_path):
    data = tmp_path / "data"
    bl.survey("1-3", players="greedy", out=data / "one", progress=False, n_jobs=1)
    bl.survey("1-3", players="greedy", out=data / "two", progress=False, n_jobs=1)
    same = load_surveys(data)  # the same games twice: one kept, nothing said
    assert len(same) == 3 and "superseded" not in same.attrs
    chunk = data / "two" / "chunk-000000.parquet"
    t = pd.read_parquet(chunk)
    t.loc[t["deal"] == 2, "moves"] += 1  # another game of deal 2 (as a changed rule would give)
    t.to_parquet(chunk, index=False)
    record_digest(data / "two" / "_survey.json", 0, file_digest(chunk))
    with pytest.raises(SurveyError) as e:
        load_surveys(data)
    assert str(e.value) == (
        f"{data / 'one'} and {data / 'two'} hold different games of greedy on bakers_dozen "
        f"deal 2 with the same settings; keep one of them in {data}"
    )
