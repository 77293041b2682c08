"""The installed wheel tried as a user would, outside the clone (run by .ci/smoke.sh).

Run with the Python of a fresh environment the wheel is installed in, from a
directory outside the repository: every step prints its time, and the first
failure stops the script with exit code 1 and says which step and why.

    .ci/smoke.sh build/wheel/bakers_lab-*.whl
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
#: How long the app may take to answer (its first start compiles nothing, but loads Voilà).
APP_START = 180


class SmokeError(AssertionError):
    """A step of the smoke test that did not do what a user expects."""


def run(*args: str, code: int = 0) -> str:
    """``bakers-lab ARGS`` of the installed wheel; its standard output (stderr checked too)."""
    done = subprocess.run([str(BIN / "bakers-lab"), *args], capture_output=True, text=True)
    if done.returncode != code:
        raise SmokeError(
            f"bakers-lab {' '.join(args)} exited {done.returncode}, not {code}:\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
    return done.stdout + done.stderr


def expect(text: str, *parts: str) -> None:
    for part in parts:
        if part not in text:
            raise SmokeError(f"{part!r} is not in the output:\n{text[-2000:]}")


def installed(work: Path) -> None:
    import bakers_lab
    from bakers_lab.files.datadir import find_data

    where = Path(bakers_lab.__file__).resolve()
    if "site-packages" not in where.parts:
        raise SmokeError(f"bakers_lab is imported from {where}, not from the installed wheel")
    source = find_data()
    if source.kind != "compact":
        raise SmokeError(f"the installed package finds {source.kind} data at {source.path}")


def compiled(work: Path) -> None:
    """The wheel's compiled searches serve: no compile notice, no numba loaded."""
    code = (
        "import sys; import bakers_lab as bl; from bakers_lab.solve import kernels; "
        "bl.solve(5); print(kernels.MODE, kernels.WHY or '-', "
        "sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.stdout.strip() != "compiled - []":
        raise SmokeError(f"the compiled searches do not serve: {done.stdout}{done.stderr}")
    expect(run("solve", "5"), "bakers_dozen game 5: solved")
    if "First run" in run("solve", "6"):
        raise SmokeError("bakers-lab solve says it compiles, from a wheel")


def claims(work: Path) -> None:
    out = run("claims")
    expect(out, "won about 75–80 % of the time with careful play", "verdict:", "lookahead-2")


def solve(work: Path) -> None:
    expect(run("solve", "5"), "bakers_dozen game 5: solved")


def shortest(work: Path) -> None:
    expect(run("shortest", "5"), "bakers_dozen game 5: the shortest win takes 63 moves")


def survey(work: Path) -> None:
    import bakers_lab as bl

    out = work / "survey"
    run("survey", "--deals", "1-50", "--players", "solver,careful", "--out", str(out), "--quiet")
    table = bl.read_survey(out)
    if len(table) != 100 or sorted(set(table["player"].astype(str))) != ["careful", "solver"]:
        raise SmokeError(f"the 50-deal survey holds {len(table)} rows, not 100 (50 per player)")
    if not (table["solution"].str.len() > 0).all():
        raise SmokeError("a game of the 50-deal survey has no moves")


def strength(work: Path) -> None:
    games = work / "games.csv"
    games.write_text("deal,variant,won\n1,bakers_dozen,true\n4,bakers_dozen,lost\n")
    out = run("strength", "--games", str(games))
    # the shipped games, as in a clone: every bot (lookahead-4 too), nothing played now
    expect(out, "you won 1 of 2", "lookahead-4 2", "search-100000 2")
    if "Playing" in out:
        raise SmokeError(f"strength played deals 1 and 4 again, which the wheel ships:\n{out}")


def notebooks(work: Path) -> None:
    target = work / "notebooks"
    expect(run("notebooks", str(target)), "5 notebooks copied", "05_exercises.ipynb")
    for path in sorted(target.glob("*.ipynb")):  # the wheel carries no outputs of a run
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(c.get("outputs") or c.get("execution_count") for c in cells):
            raise SmokeError(f"the wheel's {path.name} holds outputs of a run")
    again = run("notebooks", str(target), code=2)
    expect(again, "already exists", "--force")
    run("notebooks", str(target), "--force")


def exercises(work: Path) -> None:
    target = work / "class"
    expect(run("exercises", "--out", str(target)), "the student's copy written to")
    if "### BEGIN SOLUTION" in (target / "05_exercises.ipynb").read_text(encoding="utf-8"):
        raise SmokeError("the student's copy of the exercises holds the solutions")
    if "### BEGIN SOLUTION" in (work / "notebooks" / "05_exercises.ipynb").read_text("utf-8"):
        raise SmokeError("bakers-lab notebooks gave out the teacher's copy of the exercises")
    teacher = work / "teacher"
    expect(run("exercises", "--out", str(teacher), "--solutions"), "the teacher's copy")
    if "### BEGIN SOLUTION" not in (teacher / "05_exercises.ipynb").read_text("utf-8"):
        raise SmokeError("the teacher's copy of the exercises has no solutions")


def notebook_02(work: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    path = work / "notebooks" / "02_win_rates.ipynb"
    nb = nbformat.read(path, as_version=4)
    # small parameters (as papermill would): a cell after the first code cell
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells.insert(first + 1, nbformat.v4.new_code_cell('FRESH_DEALS = "1-5"'))
    NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if errors:
        raise SmokeError(f"notebook 02 raised {errors[0].get('ename')}: {errors[0].get('evalue')}")
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    if len(images) < 5:
        raise SmokeError(f"notebook 02 drew {len(images)} charts, not the 5 or more it has")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def app(work: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [str(BIN / "bakers-lab"), "app", "--no-browser", "--port", str(port)]
    with _procs().server(
        command, base + "voila/static/", work / "app.log", start=APP_START, error=SmokeError,
        cwd=work,
    ):  # fmt: skip
        with urllib.request.urlopen(base, timeout=120) as r:  # (the page starts a kernel)
            page = r.read().decode("utf-8", "replace")
            status = r.status
        if status != 200 or "<html" not in page.lower() or "bl-board" not in page:
            raise SmokeError(f"the app's page is not the app (status {status}):\n{page[:500]}")
        if "cdn.jsdelivr.net" in page:
            raise SmokeError("the app's page loads a style sheet from a CDN")


def _procs() -> Any:
    """The clone's tests/procs.py (standard library only), loaded by its path: the
    clone's directories stay off sys.path, so nothing else of the clone is imported."""
    spec = importlib.util.spec_from_file_location(
        "bakers_lab_test_procs", Path(__file__).resolve().parents[1] / "tests" / "procs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STEPS: tuple[tuple[str, Callable[[Path], None]], ...] = (
    ("the package is the installed wheel and finds its compact table", installed),
    ("the searches compiled with the wheel serve, without numba", compiled),
    ("bakers-lab claims", claims),
    ("bakers-lab solve 5", solve),
    ("bakers-lab shortest 5", shortest),
    ("bakers-lab survey --deals 1-50 --players solver,careful", survey),
    ("bakers-lab strength --games (deals 1 and 4: the shipped games)", strength),
    ("bakers-lab notebooks DIR (twice: the second refuses)", notebooks),
    ("bakers-lab exercises --out DIR (both copies; notebooks gave the student's)", exercises),
    ("notebook 02 executed (FRESH_DEALS 1-5)", notebook_02),
    ("bakers-lab app: its page served", app),
)


def main() -> int:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bakers-smoke-") as tmp:
        work = Path(tmp)
        for name, step in STEPS:
            t0 = time.perf_counter()
            print(f"smoke: {name} …", flush=True)
            try:
                step(work)
            except Exception as exc:
                print(f"smoke: FAILED: {name}: {exc}", file=sys.stderr)
                return 1
            print(f"smoke: ok in {time.perf_counter() - t0:.1f} s", flush=True)
    print(f"smoke: all {len(STEPS)} steps passed in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
