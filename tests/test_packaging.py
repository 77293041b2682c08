"""What an installed wheel carries: the compact outcome table (equal to what data/ gives,
so the two never drift), the one function that finds the surveys, and the notebooks
that ``bakers-lab notebooks DIR`` copies out.  The wheel itself is built, installed
outside the clone and tried by .ci/smoke.sh (in .ci/run)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bakers_lab.cli import main
from bakers_lab.files import datadir
from bakers_lab.files.datadir import (
    COMPACT_FILE,
    DROPPED,
    ENV,
    compact_table,
    copy_notebooks,
    find_data,
    repo_data_dir,
    require_full,
)
from bakers_lab.files.table import SurveyError
from bakers_lab.study.claims import claims_table, load_surveys
from bakers_lab.study.rating import ratings_from_survey

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "bakers_lab" / COMPACT_FILE


@pytest.fixture(scope="module")
def full() -> pd.DataFrame:
    return load_surveys(repo_data_dir())


@pytest.fixture(scope="module")
def compact() -> pd.DataFrame:
    return load_surveys(SHIPPED)


def test_the_shipped_compact_table_is_the_surveys_in_data_without_moves(full, compact):
    # make outcomes rebuilds it; this fails whenever data/ changes without it
    assert full.attrs["data"] == "full" and compact.attrs["data"] == "compact"
    assert set(full.columns) - set(compact.columns) == set(DROPPED)
    made = compact_table(full)
    # DataFrame.equals (the same values where both have them, column by column of the
    # same dtype) decides in a hundredth of a second what assert_frame_equal takes 4 s
    # for on 306,000 rows; assert_frame_equal then says where they differ
    same = made.equals(compact) and made.dtypes.equals(compact.dtypes)
    if not (same and made.index.equals(compact.index) and made.columns.equals(compact.columns)):
        pd.testing.assert_frame_equal(made, compact)
    assert len(compact) == 306_000  # 307,000 rows, the 1,000 of par become its columns
    assert SHIPPED.stat().st_size < 4 * 2**20  # a few MiB, not the 59 MiB of data/


def test_claims_and_ratings_are_the_same_from_the_compact_table(full, compact):
    # the claims' verdicts locate each claim on the skill curves (located_claims)
    pd.testing.assert_frame_equal(claims_table(compact), claims_table(full))
    pd.testing.assert_frame_equal(ratings_from_survey(compact), ratings_from_survey(full))


def test_find_data_prefers_the_argument_then_the_environment_then_the_clone(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    assert find_data() == datadir.DataSource("full", repo_data_dir(), "the repository's data/")
    monkeypatch.setenv(ENV, str(SHIPPED))
    assert find_data() == datadir.DataSource("compact", SHIPPED, ENV)
    assert find_data(repo_data_dir()).kind == "full"  # the argument wins over the variable
    assert find_data(repo_data_dir()).why == "--data"


def test_installed_without_data_dir_the_package_reads_its_compact_table(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    # as in site-packages: no data/ with surveys beside the package
    monkeypatch.setattr(datadir, "repo_data_dir", lambda: tmp_path / "data")
    source = find_data()
    assert (source.kind, source.path.name, source.why) == (
        "compact",
        COMPACT_FILE,
        "shipped with the package",
    )
    assert load_surveys().attrs["data"] == "compact"


def test_bad_data_locations_are_one_line_errors_naming_them(tmp_path, monkeypatch):
    with pytest.raises(SurveyError) as e:
        find_data(tmp_path / "nowhere")
    assert str(e.value) == (
        f"no surveys in {tmp_path / 'nowhere'}: it does not exist; give a directory of "
        f"surveys (the repository's data/) or a compact table (.parquet)"
    )
    monkeypatch.setenv(ENV, str(tmp_path))
    with pytest.raises(SurveyError) as e:
        find_data()
    assert str(e.value) == (
        f"no surveys in {tmp_path} ({ENV}): no subdirectory holds a _survey.json"
    )
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(SurveyError, match=r"bad\.parquet is not a readable compact table"):
        load_surveys(tmp_path / "bad.parquet")


def test_what_the_compact_table_lacks_is_named_with_where_to_get_it(compact):
    with pytest.raises(SurveyError) as e:
        require_full(compact, "replaying a game")
    text = str(e.value)
    assert text.startswith("replaying a game needs the games' moves (solution)")
    assert "data/ directory of the bakers_lab repository" in text and "BAKERS_LAB_DATA" in text


def test_the_notebooks_ship_as_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]["bakers_lab"]
    assert {"outcomes.parquet", "notebooks/*.ipynb"} <= set(data)
    link = ROOT / "bakers_lab" / "notebooks"
    assert link.is_symlink() and link.resolve() == ROOT / "notebooks"


def test_notebooks_command_copies_them_and_refuses_to_overwrite(tmp_path, capsys):
    target = tmp_path / "mine"
    assert main(["notebooks", str(target)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"5 notebooks copied to {target}: 01_replay.ipynb, 02_win_rates.ipynb")
    for p in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert (target / p.name).read_bytes() == p.read_bytes()
    (target / "02_win_rates.ipynb").write_text("my edits")
    assert main(["notebooks", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"bakers-lab: error: {target / '01_replay.ipynb'} already exists (and 4 more "
        f"notebooks); add --force to overwrite, or choose another directory\n"
    )
    assert (target / "02_win_rates.ipynb").read_text() == "my edits"
    assert main(["notebooks", str(target), "--force"]) == 0
    assert (target / "02_win_rates.ipynb").read_bytes() == (
        ROOT / "notebooks" / "02_win_rates.ipynb"
    ).read_bytes()


def test_notebooks_into_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("")
    assert main(["notebooks", str(tmp_path / "f")]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
    assert copy_notebooks(tmp_path / "new")[0].name == "01_replay.ipynb"


def test_replaying_a_row_of_the_compact_table_says_where_the_moves_are(compact):
    from bakers_lab.display.widgets import Replay

    row = compact[(compact["deal"] == 1650) & (compact["player"] == "lookahead-4")].iloc[0]
    with pytest.raises(ValueError) as e:
        Replay(row)
    assert str(e.value) == (
        "a survey row needs the columns deal, variant and solution; this one has no "
        f"solution; {datadir.FULL_DATA_HINT}"
    )


def test_notebooks_with_outputs_are_found_and_cleared(tmp_path):
    # make lint and make wheel run .ci/clean_notebooks.py: a run saved by JupyterLab
    # (make lab) reaches neither a commit nor the wheel
    check = ROOT / ".ci" / "clean_notebooks.py"
    done = subprocess.run([sys.executable, str(check)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")  # the repository's are clean
    for folder in ("notebooks", "bakers_lab/teach", "bakers_lab/display/app"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / ".ci").mkdir()
    shutil.copy(check, tmp_path / ".ci" / "clean_notebooks.py")
    ran = json.loads((ROOT / "notebooks" / "01_replay.ipynb").read_text(encoding="utf-8"))
    code = [c for c in ran["cells"] if c["cell_type"] == "code"]
    code[0]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "hello\n"}]
    code[1]["execution_count"] = 7
    (tmp_path / "notebooks" / "01_replay.ipynb").write_text(json.dumps(ran))
    copied = tmp_path / ".ci" / "clean_notebooks.py"
    done = subprocess.run([sys.executable, str(copied)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == (
        "notebooks/01_replay.ipynb: 2 code cells hold outputs of a run\n"
        "notebooks are kept without outputs: make clean-notebooks clears them\n"
    )
    fixed = subprocess.run([sys.executable, str(copied), "--fix"], capture_output=True, text=True)
    assert fixed.stdout == "cleared 2 cells of notebooks/01_replay.ipynb\n"
    after = json.loads((tmp_path / "notebooks" / "01_replay.ipynb").read_text(encoding="utf-8"))
    assert [c["source"] for c in after["cells"]] == [c["source"] for c in ran["cells"]]
    assert subprocess.run([sys.executable, str(copied)]).returncode == 0
