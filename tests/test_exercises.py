"""The exercises notebook: shipped, stripped as nbgrader strips it, autograded by nbgrader,
and its student copy failing its checks in words (seen in a browser)."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bakers_lab.cli import FOR_TEACHERS, main
from bakers_lab.files.datadir import copy_notebooks
from bakers_lab.solve.heuristics import burial, cards_not_home
from bakers_lab.teach.exercises import (
    FILE_NAME,
    TEACHER_FILE,
    TEXT_STUB,
    check_overestimate,
    exercises_notebook,
    student_copy,
    teacher_only,
    write_exercises,
)

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "bakers_lab" / "teach" / TEACHER_FILE  # the teacher's copy
STUDENT = ROOT / "notebooks" / FILE_NAME  # the student's copy: what notebooks/ holds
SHOTS = Path(os.environ.get("BAKERS_LAB_SCREENSHOTS", ROOT / "tests" / "screenshots"))
SMALL = "SEARCH_DEALS = 10\nHEURISTIC_DEALS = 20\n"  # the micro deals only: seconds, not a minute
ONE_POSITION = "Foundations: H-3 C-3 D-3 S-2\n:\n3S\n"  # won by 3S>F


def _text(cell) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


def _small(nb: dict) -> dict:
    nb = copy.deepcopy(nb)
    (cell,) = [c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", [])]
    cell["source"] = SMALL
    return nb


def _cell(nb, grade_id: str):
    (cell,) = [
        c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id
    ]
    return cell


def _joined(text: str | list[str]) -> str:
    return "".join(text) if isinstance(text, list) else text


def _outputs_text(cell) -> str:
    out = []
    for o in cell["outputs"]:
        out.append(_joined(o.get("text", "")))
        data = o.get("data", {})
        out += [_joined(data.get("text/html", "")), _joined(data.get("text/plain", ""))]
        if o["output_type"] == "error":
            out.append(f"{o['ename']}: {o['evalue']}")
    return "\n".join(out)


def _result(cell) -> str | None:
    results = [o for o in cell["outputs"] if o["output_type"] == "execute_result"]
    return _joined(results[0]["data"]["text/plain"]) if results else None


# -- the notebook and its copies ---------------------------------------------------
def test_notebooks_hold_the_students_copy_and_the_teachers_is_asked_for_by_name(tmp_path):
    # bakers_lab/notebooks is notebooks/ (a link in a clone, its files in the wheel)
    assert (ROOT / "bakers_lab" / "notebooks").resolve() == STUDENT.parent
    assert exercises_notebook() == json.loads(SOURCE.read_text(encoding="utf-8"))
    # notebooks/ holds the student's copy (bakers-lab exercises --out notebooks --force
    # writes it anew from the teacher's): make lab and bakers-lab notebooks give out no other
    assert json.loads(STUDENT.read_text(encoding="utf-8")) == student_copy(exercises_notebook())
    written = copy_notebooks(tmp_path / "class")
    texts = {p.name: p.read_text(encoding="utf-8") for p in written}
    assert texts[FILE_NAME] == STUDENT.read_text(encoding="utf-8")
    assert not any("BEGIN SOLUTION" in t or "For teachers" in t for t in texts.values())
    # the teacher's copy opens with what a teacher needs, the student's with the exercises
    first = exercises_notebook()["cells"][0]
    assert teacher_only(first) and _text(first).startswith("# For teachers: this is the teacher")
    for step in ("generate_assignment", "autograde", "generate_feedback", "formgrader"):
        assert step in _text(first), step
    assert _text(student_copy(exercises_notebook())["cells"][0]).startswith("# Exercises:")


def test_exercises_help_tells_teachers_how_to_grade_a_class(capsys):
    with pytest.raises(SystemExit):
        main(["exercises", "--help"])
    shown = capsys.readouterr().out
    assert shown.endswith(FOR_TEACHERS)
    first = _text(exercises_notebook()["cells"][0])  # the teacher's copy says the same steps
    for command in re.findall(r"(?:bakers-lab|nbgrader) [a-z_]+ [^ ;,)`\n]+", FOR_TEACHERS):
        assert command in " ".join(first.split()), command
    graded = [c["metadata"].get("nbgrader", {}) for c in exercises_notebook()["cells"]]
    points = [g["points"] for g in graded if g.get("grade")]
    assert "(3, 3, 3 and 1 of 12)" in FOR_TEACHERS and points == [3, 3, 3, 1, 2]


def test_the_teachers_copy_is_stored_clean():
    for i, cell in enumerate(exercises_notebook()["cells"]):
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, f"cell {i}"


def test_notebook_is_an_nbgrader_assignment():
    nb = exercises_notebook()
    grades = {
        c["metadata"]["nbgrader"]["grade_id"]: c["metadata"]["nbgrader"].get("points")
        for c in nb["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade")
    }
    assert grades == {
        "check_breadth_first": 3,
        "check_astar": 3,
        "check_my_heuristic": 3,
        "check_burial_position": 1,
        "burial_why": 2,
    }
    for name, points in grades.items():  # each check cell ends in its points
        if name.startswith("check_"):
            assert _text(_cell(nb, name)).endswith(f"report.grade({points})")
    assert _cell(nb, "burial_why")["cell_type"] == "markdown"  # graded by hand


def test_student_copy_is_what_nbgrader_writes():
    preprocessors = pytest.importorskip("nbgrader.preprocessors")
    nb = nbformat.reads(SOURCE.read_text(), as_version=4)
    theirs, _ = preprocessors.ClearSolutions().preprocess(copy.deepcopy(nb), {})
    ours = student_copy(exercises_notebook())
    # nbgrader keeps the cell for teachers, which ours leaves out
    assert [_text(c) for c in ours["cells"]] == [
        c.source for c in theirs.cells if not teacher_only(c)
    ]
    stripped = [
        _text(c) for c in ours["cells"] if "# YOUR CODE HERE\n" in _text(c) or _text(c) == TEXT_STUB
    ]
    assert len(stripped) == 5  # three functions, the position, the answer in words
    assert not any("BEGIN SOLUTION" in _text(c) for c in ours["cells"])


def test_cli_writes_both_copies_and_keeps_an_existing_one(tmp_path, capsys):
    out = tmp_path / "class"
    assert main(["exercises", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"the student's copy written to {out / FILE_NAME}\n"
    student = json.loads((out / FILE_NAME).read_text())
    assert "frontier.popleft()" not in json.dumps(student)
    assert student == json.loads(json.dumps(student_copy(exercises_notebook())))

    assert main(["exercises", "--out", str(out), "--solutions"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"bakers-lab: error: out '{out}' already holds {FILE_NAME}: choose another folder, "
        "or add --force to overwrite it\n"
    )
    assert json.loads((out / FILE_NAME).read_text()) == student  # untouched

    assert main(["exercises", "--out", str(out), "--solutions", "--force"]) == 0
    assert json.loads((out / FILE_NAME).read_text()) == exercises_notebook()

    (tmp_path / "file").write_text("")
    assert main(["exercises", "--out", str(tmp_path / "file")]) == 2
    assert "exists and is not a directory" in capsys.readouterr().err
    with pytest.raises(ValueError, match="already holds"):
        write_exercises(out)


# -- the question on burial ------------------------------------------------------------
def test_counterexample_check():
    r = check_overestimate(burial, ONE_POSITION)
    assert r.passed and r.grade(1) == 1.0
    assert r.check("overestimates").report == (
        "burial says 3 but the position is won in 1 move (3S>F): it overestimates, "
        "so it is not admissible"
    )
    r = check_overestimate(cards_not_home, ONE_POSITION)
    assert not r.passed and r.grade(1) == 0.0
    assert "it does not overestimate here" in r.summary()
    r = check_overestimate(lambda s: "many", ONE_POSITION)
    assert r.check("overestimates").report == (
        "<lambda> says 'many' (str) and the position is won in 1 move: "
        "it does not overestimate here"
    )
    r = check_overestimate(burial, "Foundations: H-9\n")
    assert not r.passed
    assert r.check("overestimates").report.startswith(
        "the position could not be read as a micro deck's board: "
    )
    with pytest.raises(ValueError, match="unknown deck 'huge'; the classroom decks: micro"):
        check_overestimate(burial, ONE_POSITION, deck="huge")


# -- nbgrader, and the student's copy run --------------------------------------------------
def _nbgrader(course: Path, *args: str) -> None:
    env = dict(os.environ)
    # nbgrader runs its database migrations with the alembic command beside it
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, "--force", f"--CourseDirectory.root={course}"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_nbgrader_autogrades_a_right_and_a_wrong_submission(tmp_path):
    pytest.importorskip("nbgrader")
    api = pytest.importorskip("nbgrader.api")
    course = tmp_path / "course"
    (course / "source" / "ps1").mkdir(parents=True)
    (course / "source" / "ps1" / FILE_NAME).write_text(SOURCE.read_text())
    _nbgrader(course, "generate_assignment", "ps1", "--create")
    released = json.loads((course / "release" / "ps1" / FILE_NAME).read_text())
    assert [_text(c) for c in released["cells"] if not teacher_only(c)] == [
        _text(c) for c in student_copy(exercises_notebook())["cells"]
    ]

    right = _small(exercises_notebook())
    wrong = copy.deepcopy(right)  # breadth-first search with a stack: depth-first
    bfs = _cell(wrong, "breadth_first")
    bfs["source"] = _text(bfs).replace("frontier.popleft()", "frontier.pop()")
    for who, nb in (("right", right), ("wrong", wrong)):
        folder = course / "submitted" / who / "ps1"
        folder.mkdir(parents=True)
        (folder / FILE_NAME).write_text(json.dumps(nb))
    _nbgrader(course, "autograde", "ps1", "--create")

    with api.Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {
            who: {
                g.name: (g.score, g.max_score)
                for g in gb.find_submission_notebook("05_exercises", "ps1", who).grades
            }
            for who in ("right", "wrong")
        }
    auto = {"check_breadth_first": 3, "check_astar": 3, "check_my_heuristic": 3}
    auto["check_burial_position"] = 1
    assert {k: scores["right"][k] for k in auto} == {k: (v, v) for k, v in auto.items()}
    # the stack loses the one point of 7 of "shortest": 3 * 6/7 of the question's 3
    assert scores["wrong"]["check_breadth_first"] == (2.57, 3.0)
    assert {k: scores["wrong"][k] for k in auto if k != "check_breadth_first"} == {
        k: (v, v) for k, v in auto.items() if k != "check_breadth_first"
    }
    assert scores["right"]["burial_why"][1] == 2  # graded by hand: nothing automatic
    graded = json.loads((course / "autograded" / "wrong" / "ps1" / FILE_NAME).read_text())
    shown = _outputs_text(_cell(graded, "check_breadth_first"))
    assert "it explores the newest node first: a stack, not a queue" in shown


@pytest.fixture(scope="module")
def student_run(tmp_path_factory):
    """The student's copy, run top to bottom as a student first runs it (small parameters)."""
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.reads(json.dumps(_small(student_copy(exercises_notebook()))), as_version=4)
    folder = tmp_path_factory.mktemp("student")
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute()
    return nb, folder


def test_student_copy_fails_its_checks_in_words(student_run):
    nb, _ = student_run
    bfs = _cell(nb, "check_breadth_first")
    text = _outputs_text(bfs)
    assert (
        "your function raised NotImplementedError on the micro deck, seed 1000: the placeholder "
        "is still there: write your code in its place" in text
    )
    assert "in breadth_first" in text and "raise NotImplementedError()" in text
    assert "bakers_lab/" not in text.replace("bakers_lab/teach/", "")  # trimmed to their code
    assert _result(bfs) == "0.0"
    astar = _outputs_text(_cell(nb, "check_astar"))
    assert "your function raised NotImplementedError on the micro deck, seed 1000" in astar
    h = _cell(nb, "check_my_heuristic")
    assert (
        "on this position your heuristic raised NotImplementedError: the placeholder is still "
        "there" in _outputs_text(h)
    )
    assert _result(h) == "0.0"
    position = _cell(nb, "burial_position")  # the student's own cell says what to do
    assert [o["ename"] for o in position["outputs"]] == ["NotImplementedError"]
    check = _cell(nb, "check_burial_position")  # and its check, in words, not a NameError
    assert "the position must be board text, not None (NoneType)" in _outputs_text(check)
    assert _result(check) == "0.0"


def test_failed_check_in_a_browser(student_run, browser):
    """The executed student copy exported to HTML (nbconvert) and seen at 1280 px."""
    nbconvert = pytest.importorskip("nbconvert")
    nb, folder = student_run
    html, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    page_file = folder / "student.html"
    page_file.write_text(html)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(page_file.as_uri())
        failed = page.get_by_text("your function raised NotImplementedError").first
        failed.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -200)")
        assert failed.is_visible()
        page.screenshot(path=str(SHOTS / "exercises_failed_check.png"))
    finally:
        page.close()
