"""PySolFC's own Solver, answered by ``bakers-lab fc-solve``: recorded and surveyed.

Run under an X server (Xvfb), with PySolFC's source and its Python dependencies, as
``tests/data/pysolfc/make_files.py`` is (see README.md there)::

    xvfb-run -a -s "-screen 0 1280x1024x24" .venv/bin/python \\
        tests/data/fcsolve/pysolfc_solver.py PYSOLFC_SRC OUTDIR [--survey]

PySolFC's application starts with a launcher named ``fc-solve`` (running ``bakers-lab
fc-solve``) first on its ``PATH`` and the solver kept warm in this process
(:func:`bakers_lab.bridge.serve.serving`), as ``bakers-lab pysolfc`` starts it; PySolFC's own
start-up check (``fc-solve --help``) decides whether its Solver is there.  Then, through
PySolFC's own objects (the game's ``Solver_Class``, ``FreeCellSolver_Hint.computeHints``
with the Solver dialog's default options, ``getHints`` and ``Stack.playMoveMove`` as its
demo plays a hint):

- **record**: for each position of :data:`CASES`, the command line and the board that
  PySolFC's code sends (captured in ``run_solver``, which still runs the command), what
  it made of the answer, into ``OUTDIR/invocations.json`` (``tests/data/fcsolve/``
  keeps it; ``tests/test_fcsolve_pysolfc.py`` replays it without PySolFC);
- **survey** (``--survey``): Baker's Dozen games 1-100 and Good Measure games 1-20,
  each asked of the Solver and, when solved, its hints played in PySolFC's own game
  until PySolFC says the game is won: ``OUTDIR/survey.json`` (the counts and the
  seconds a deal) and ``OUTDIR/solver_dialog.png``, PySolFC's Solver dialog with the
  answer on Baker's Dozen game 1.

bakers_lab chooses the moves that lead to the mid-game positions (its solver's line, as
``make_files.py`` does); PySolFC does everything else.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "pysolfc"))  # make_files: moves played as a drag plays them

#: Each recorded position: (name, PySolFC game id, game number, how it is reached, progress).
#: How: "start", "solver N" (N moves of the solver's winning line), "stuck" (the first
#: new legal move until none is left: a lost game), "near won" (all but 3 moves of the line).
CASES: list[tuple[str, int, int, str, bool]] = [
    ("bakers_dozen_1_start", 31, 1, "start", False),
    ("bakers_dozen_2_start", 31, 2, "start", False),
    ("bakers_dozen_3_start_progress", 31, 3, "start", True),
    ("bakers_dozen_64_start_lost", 31, 64, "start", False),
    ("bakers_dozen_417_start", 31, 417, "start", False),
    ("bakers_dozen_4_mid_game", 31, 4, "solver 30", False),
    ("bakers_dozen_5_stuck", 31, 5, "stuck", False),
    ("bakers_dozen_6_near_won", 31, 6, "near won", False),
    ("good_measure_6_start", 86, 6, "start", False),
    ("good_measure_1_start_lost", 86, 1, "start", False),
    ("good_measure_7_mid_game", 86, 7, "solver 12", False),
    ("portuguese_solitaire_8_start", 308, 8, "start", False),
    ("portuguese_solitaire_9_mid_game", 308, 9, "solver 15", False),
    ("spanish_patience_ii_9_start", 664, 9, "start", False),
    ("spanish_patience_ii_10_mid_game", 664, 10, "solver 15", False),
]


class Dialog:
    """The Solver dialog's ``setText`` as the hint code calls it: what it would show."""

    def __init__(self) -> None:
        self.shown: dict[str, Any] = {}

    def setText(self, **kw: Any) -> None:  # noqa: N802 (PySolFC's name)
        self.shown.update(kw)


def main() -> None:
    survey = "--survey" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--survey"]
    if len(args) != 2:
        sys.exit("usage: pysolfc_solver.py PYSOLFC_SRC OUTDIR [--survey]")
    src, out = os.path.abspath(args[0]), os.path.abspath(args[1])
    sys.path.insert(0, src)
    sys.argv = [os.path.join(src, "pysol.py")]  # PySolFC finds its data beside it
    run(src, out, survey=survey)


def run(src: str, out: str, *, survey: bool) -> None:
    import faulthandler

    from bakers_lab.bridge.fcsolve import SKIP_ENV
    from bakers_lab.bridge.pysolfc import launcher
    from bakers_lab.bridge.serve import serving

    faulthandler.dump_traceback_later(int(os.environ.get("PYSOL_WATCHDOG", "1800")), exit=True)
    os.makedirs(out, exist_ok=True)
    home = os.path.join(out, ".home")
    if os.path.exists(home):
        shutil.rmtree(home)
    cfg = os.path.join(home, ".PySolFC")
    os.makedirs(os.path.join(cfg, "cardsets"))
    cards = os.environ.get("PYSOL_CARDSET")
    if not cards:
        sys.exit("set PYSOL_CARDSET to a cardset folder (e.g. cardset-neo)")
    os.symlink(cards, os.path.join(cfg, "cardsets", os.path.basename(cards)))
    os.environ["HOME"] = home
    bin_dir = os.path.join(out, ".bin")
    os.makedirs(bin_dir, exist_ok=True)
    launcher(bin_dir)  # as bakers-lab pysolfc does
    os.environ["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    os.environ[SKIP_ENV] = bin_dir
    os.chdir(src)

    import make_files  # noqa: E402 (its helpers need bakers_lab and PySolFC's objects)
    import pysollib.app
    import pysollib.game
    import pysollib.hint
    import pysollib.resource
    import pysollib.settings
    from pysollib.pysolrandom import construct_random

    pysollib.game.Game._showWinDialog = lambda self, *a, **k: True  # modal
    pysollib.resource.CardsetManager.identify_missing_cardsets = lambda self: []

    sent: list[dict[str, Any]] = []
    original = pysollib.hint.Base_Solver_Hint.run_solver

    def recording(self: Any, command: str, board: str) -> Any:
        t0 = time.perf_counter()
        try:
            pout, perr = original(self, command, board)
        except RuntimeError as exc:  # PySolFC's "Solver not found" (exit status 1 or 127)
            sent.append({"command": command, "board": board, "error": str(exc)})
            raise
        sent.append({"command": command, "board": board, "stdout": pout.getvalue().decode(),
                     "stderr": perr.getvalue().decode(),
                     "seconds": round(time.perf_counter() - t0, 3)})  # fmt: skip
        return pout, perr

    pysollib.hint.Base_Solver_Hint.run_solver = recording

    steps: list[Callable[[Any, Any], None]] = []
    results: dict[str, Any] = {"recorded": [], "survey": [], "pysolfc": {}}

    def start(app: Any, game: Any, gid: int, number: int) -> None:
        game.endGame()
        game.quitGame(gid, random=construct_random(str(number)))
        game.top.quit()

    def ask(game: Any, progress: bool = False) -> tuple[Any, Dialog]:
        dialog = Dialog()
        solver = game.Solver_Class(game, dialog)
        game.solver = solver
        solver.config(preset="none", max_iters=10000, progress=progress, iters_step=100)
        solver.computeHints()
        return solver, dialog

    def play_hints(game: Any, solver: Any) -> int:
        played = 0
        while True:
            got = solver.getHints(None)
            if not got:
                break
            hint = got[0]
            ncards, src_stack, dst_stack = hint[2], hint[3], hint[4]
            src_stack.playMoveMove(ncards, dst_stack)
            played += 1
        return played

    def reach(game: Any, how: str) -> None:
        if how == "start":
            return
        if how.startswith("solver "):
            make_files.play_solution(game, limit=int(how.split()[1]))
        elif how == "stuck":
            make_files.play_until_stuck(game)
        elif how == "near won":
            import bakers_lab as bl

            total = len(bl.solve(make_files._mirror(game)).moves)
            make_files.play_solution(game, limit=total - 3)

    cases = list(CASES)
    plan: list[tuple[str, int, int, str, bool, str]] = [
        (*c, "record") for c in cases
    ]  # fmt: skip
    if survey:  # PYSOL_SURVEY_DEALS=1-5: fewer deals of each game (a quick look)
        first_n, _, last_n = os.environ.get("PYSOL_SURVEY_DEALS", "").partition("-")
        bd = range(int(first_n), int(last_n) + 1) if last_n else range(1, 101)
        gm = range(int(first_n), int(last_n) + 1) if last_n else range(1, 21)
        plan += [(f"bakers_dozen_{n}", 31, n, "start", False, "survey") for n in bd]
        plan += [(f"good_measure_{n}", 86, n, "start", False, "survey") for n in gm]

    def first(app: Any, game: Any) -> None:
        app.opt.autodrop = False
        app.opt.confirm = False
        app.opt.sound = False
        app.opt.win_animation = False
        app.opt.animations = 0
        results["pysolfc"] = {
            "solver_enabled": bool(pysollib.settings.USE_FREECELL_SOLVER),
            "fcs_command": pysollib.settings.FCS_COMMAND,
        }
        print(f"PySolFC's Solver enabled: {pysollib.settings.USE_FREECELL_SOLVER}", flush=True)
        _, gid, number, *_ = plan[0]
        start(app, game, gid, number)

    steps.append(first)

    for k, (name, gid, number, how, progress, mode) in enumerate(plan):

        def case(app: Any, game: Any, k: int = k, name: str = name, how: str = how,
                 progress: bool = progress, mode: str = mode) -> None:  # fmt: skip
            reach(game, how)
            sent.clear()
            t0 = time.perf_counter()
            try:
                solver, dialog = ask(game, progress)
            except RuntimeError:
                print(f"{name}: {sent[-1]}", flush=True)
                raise
            seconds = time.perf_counter() - t0
            hints = len(solver.hints) - 1
            row: dict[str, Any] = {"name": name, "game_id": game.id,
                                   "number": game.getGameNumber(format=0),
                                   "state": solver.solver_state, "hints": hints,
                                   "shown": dialog.shown, "seconds": round(seconds, 3)}  # fmt: skip
            asked = [x for x in sent if not x["command"].endswith(" --version")]
            if len(asked) < len(sent):  # the first time, PySolFC asks the version first
                results["pysolfc"]["version"] = sent[0]["stdout"]
            if mode == "record":
                (invocation,) = asked
                row.update(invocation)
                results["recorded"].append(row)
            else:
                if name == "bakers_dozen_1":  # the dialog on the deal, before it is played
                    _shoot(app, out)
                won_before = game.isGameWon()
                row["played"] = play_hints(game, solver) if solver.solver_state == "solved" else 0
                row["won_in_pysolfc"] = bool(game.isGameWon()) and not won_before
                results["survey"].append(row)
            print(f"{name}: {row['state']}, {hints} hints, {seconds:.2f} s", flush=True)
            if k + 1 < len(plan):
                _, gid2, number2, *_ = plan[k + 1]
                start(app, game, gid2, number2)
            else:
                game.endGame()
                game.quitGame()
                game.top.quit()

        steps.append(case)

    orig_run = pysollib.app.Application.runGame

    def run_game(self: Any, id_: int, random: Any = None) -> None:
        self.splashscreen = 0
        top = self.top
        tk_mainloop = type(top).mainloop

        def mainloop(*a: Any) -> None:
            if steps:
                f = steps.pop(0)

                def go() -> None:
                    try:
                        f(self, self.game)
                    except BaseException:
                        import traceback

                        traceback.print_exc()
                        os._exit(1)

                top.after(200, go)
            tk_mainloop(top, *a)

        top.mainloop = mainloop
        try:
            orig_run(self, id_, random)
        finally:
            del top.mainloop

    pysollib.app.Application.runGame = run_game
    from pysollib.main import main as pysol_main

    with serving() as answerer:  # as bakers-lab pysolfc keeps the solver warm
        os.environ.update(answerer.env)
        pysol_main(sys.argv)
    results["pysolfc"]["answered_by_the_warm_solver"] = answerer.answered
    Path(out, "invocations.json").write_text(
        json.dumps({"pysolfc": results["pysolfc"], "recorded": results["recorded"]}, indent=1)
        + "\n"
    )
    if survey:
        Path(out, "survey.json").write_text(json.dumps(results["survey"], indent=1) + "\n")
    shutil.rmtree(home)


def _shoot(app: Any, out: str) -> None:
    """PySolFC's Solver dialog, opened from its menu and run, as a picture."""
    from PIL import ImageGrab

    app.menubar.mSolver()
    import pysollib.tile.solverdialog as dialogs

    d = dialogs.solver_dialog
    d.startSolving()
    d.top.update()
    time.sleep(0.5)
    d.top.update()
    x, y = d.top.winfo_rootx(), d.top.winfo_rooty()
    w, h = d.top.winfo_width(), d.top.winfo_height()
    shot = ImageGrab.grab(xdisplay=os.environ.get("DISPLAY"))
    top = app.top
    shot.save(os.path.join(out, "pysolfc_window.png"))
    shot.crop((x, y, x + w, y + h)).save(os.path.join(out, "solver_dialog.png"))
    d.top.withdraw()
    top.update()


if __name__ == "__main__":
    main()
