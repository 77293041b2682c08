"""Make the PySolFC files in this folder with PySolFC itself (see README.md).

Run under an X server (Xvfb), with PySolFC's source and its Python
dependencies::

    xvfb-run -a python make_files.py PYSOLFC_SRC OUTDIR

PySolFC's own application starts (its window, menus and canvas), and this
script plays scripted games in it through PySolFC's own game methods, the
ones a drag of the mouse calls (``Stack.playMoveMove``, ``Game.undo``,
``Game.endGame``/``quitGame`` as the menus do).  The saves are written by
PySolFC's ``Game.saveGame`` and the statistics by PySolFC's
``Application.saveStatistics`` when the application quits.  bakers_lab is used
only to *choose* the moves (its solver finds the winning lines); it never
writes a file.

Patched, none of it in what is saved: the "Game won" dialog
(``Game._showWinDialog``), modal, would wait for a click (the statistics are
updated before it is shown); the warning that cardsets of other kinds
(Mahjongg, Tarock, ...) are missing, also a modal dialog, is skipped (one
cardset is installed); the steps run from a Tk ``after`` set when each game's
Tk mainloop begins.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import Any

import bakers_lab as bl
from bakers_lab.model.cards import Card
from bakers_lab.model.moves import Dest

# PySolFC's config folder (~/.PySolFC) is under HOME: a fresh one, with one
# cardset (PySolFC needs one to start), and its options set before it starts.
VARIANT_BY_ID = {31: "bakers_dozen", 86: "good_measure", 85: "spanish_patience",
                 308: "portuguese_solitaire", 664: "spanish_patience_ii"}  # fmt: skip


def _mirror(game: Any) -> bl.GameState:
    """The PySolFC position as a bakers_lab GameState (to choose moves)."""
    r = bl.rules(VARIANT_BY_ID[game.id])
    cols = [[Card.from_index(c.id) for c in s.cards] for s in game.s.rows]
    piles = [[Card.from_index(c.id) for c in s.cards] for s in game.s.foundations]
    return bl.GameState(r, cols, piles)


def _stacks_for(game: Any, move: bl.Move, state: bl.GameState) -> tuple[Any, Any]:
    """PySolFC's from-stack and to-stack for one of our moves."""
    cid = move.card.index
    src = next(s for s in game.s.rows if s.cards and s.cards[-1].id == cid)
    if isinstance(move.to, Card):
        dst = next(s for s in game.s.rows if s.cards and s.cards[-1].id == move.to.index)
    elif move.to is Dest.EMPTY:
        dst = next(s for s in game.s.rows if not s.cards)
    else:
        cands = [f for f in game.s.foundations if f.acceptsCards(src, src.cards[-1:])]
        if move.pile is not None:
            cands = [f for f in cands if f.cap.base_suit == int(move.pile)]
        dst = cands[0]
    return src, dst


def play_move(game: Any, move: bl.Move) -> None:
    """Play one move as PySolFC's drag and drop does (and its autoplay after it)."""
    state = _mirror(game)
    src, dst = _stacks_for(game, move, state)
    assert src.canMoveCards(src.cards[-1:]), move
    assert dst.acceptsCards(src, src.cards[-1:]), move
    src.playMoveMove(1, dst)


def play_solution(game: Any, limit: int | None = None) -> None:
    """Play the solver's winning line from the current position (re-solving when
    PySolFC's autoplay has changed the position under it), ``limit`` moves at most."""
    played = 0
    plan: list[bl.Move] = []
    while not game.finished and (limit is None or played < limit):
        state = _mirror(game)
        if state.is_won:
            break
        if not plan or not state.is_legal(plan[0]):
            res = bl.solve(state)
            assert res.solved, res
            plan = list(res.moves)
        play_move(game, plan.pop(0))
        played += 1


def play_badly(game: Any, count: int) -> None:
    """``count`` moves, always the first legal one that is not to a foundation."""
    for _ in range(count):
        state = _mirror(game)
        moves = [m for m in state.legal_moves() if m.to is not Dest.FOUNDATION]
        if not moves:
            break
        play_move(game, moves[0])


def play_until_stuck(game: Any) -> None:
    """Play the first legal move until none is left (a lost game)."""
    seen: set[bytes] = set()
    for _ in range(150):
        state = _mirror(game)
        seen.add(state.key())
        fresh = []
        for m in state.legal_moves():
            nxt = state.copy()
            nxt.play(m)
            if nxt.key() not in seen:
                fresh.append(m)
        if not fresh:
            break
        play_move(game, fresh[0])


def klondike_moves(game: Any, count: int) -> None:
    """A few Klondike moves: the talon dealt, as a click on it does."""
    for _ in range(count):
        game.s.talon.dealCards()
        game.finishMove()


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: make_files.py PYSOLFC_SRC OUTDIR")
    src, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sys.path.insert(0, src)
    sys.argv = [os.path.join(src, "pysol.py")]  # PySolFC finds its data beside it
    run(src, out)


def run(SRC: str, OUT: str) -> None:
    """Play the games in PySolFC from ``SRC``; its files go to ``OUT``."""
    HOME = os.path.join(OUT, ".home")
    import faulthandler

    faulthandler.dump_traceback_later(int(os.environ.get("PYSOL_WATCHDOG", "300")), exit=True)
    if os.path.exists(HOME):
        shutil.rmtree(HOME)
    cfg = os.path.join(HOME, ".PySolFC")
    os.makedirs(os.path.join(cfg, "cardsets"))
    cards_src = os.environ.get("PYSOL_CARDSET")
    if not cards_src:
        sys.exit("set PYSOL_CARDSET to a cardset folder (e.g. cardset-standard)")
    os.symlink(cards_src, os.path.join(cfg, "cardsets", os.path.basename(cards_src)))
    os.environ["HOME"] = HOME
    os.chdir(SRC)

    import pysollib.app
    import pysollib.game
    import pysollib.resource
    from pysollib.pysolrandom import construct_random

    pysollib.game.Game._showWinDialog = lambda self, *a, **k: True  # modal, see above
    # one cardset only: PySolFC would warn, in a modal dialog, that the other
    # kinds (Mahjongg, Tarock, ...) are missing
    pysollib.resource.CardsetManager.identify_missing_cardsets = lambda self: []

    steps: list[Callable[[Any, Any], None]] = []
    saves: list[str] = []

    def save(game: Any, name: str) -> None:
        path = os.path.join(OUT, name)
        assert game.saveGame(path), name
        saves.append(name)

    def start(app: Any, game: Any, gid: int, number: int | str) -> None:
        """Start game ``number`` of ``gid`` as the "Select game" and "Deal #"
        menus do: the current game ends (its statistics updated) first."""
        game.endGame()
        game.quitGame(gid, random=construct_random(str(number)))
        # quitGame asks Tk to quit when idle (after_idle); the same quit, at once
        game.top.quit()

    def step(f: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
        steps.append(f)
        return f

    @step
    def _0(app: Any, game: Any) -> None:  # the first (random) game: untouched
        app.opt.player = "alice"
        app.opt.autodrop = False
        app.opt.confirm = False
        app.opt.sound = False
        app.opt.win_animation = False
        app.opt.animations = 0
        start(app, game, 31, 1)

    @step
    def _bd1_won_perfect(app: Any, game: Any) -> None:
        play_solution(game)
        assert game.finished
        save(game, "bakers_dozen_1_won.pso")
        start(app, game, 31, 2)

    @step
    def _bd2_won_autodrop(app: Any, game: Any) -> None:
        # autodrop from the start can throw this deal away (it sends home
        # cards the winning line builds on): it is switched on near the end
        total = len(bl.solve(_mirror(game)).moves)
        play_solution(game, limit=total - 45)
        app.opt.autodrop = True
        play_solution(game, limit=1)
        save(game, "bakers_dozen_2_autodrop_in_progress.pso")
        play_solution(game)
        assert game.finished
        save(game, "bakers_dozen_2_autodrop_won.pso")
        app.opt.autodrop = False
        start(app, game, 31, 3)

    @step
    def _bd3_won_with_undo(app: Any, game: Any) -> None:
        play_badly(game, 3)
        game.undo()
        game.undo()
        play_solution(game)
        assert game.finished
        save(game, "bakers_dozen_3_won_with_undo.pso")
        start(app, game, 31, 4)

    @step
    def _bd4_lost(app: Any, game: Any) -> None:
        play_until_stuck(game)
        save(game, "bakers_dozen_4_lost.pso")
        start(app, game, 31, 5)

    @step
    def _bd5_given_up(app: Any, game: Any) -> None:
        play_badly(game, 4)
        save(game, "bakers_dozen_5_given_up.pso")
        start(app, game, 86, 6)

    @step
    def _gm6(app: Any, game: Any) -> None:
        play_solution(game)
        assert game.finished
        save(game, "good_measure_6_won.pso")
        start(app, game, 85, 7)

    @step
    def _sp7(app: Any, game: Any) -> None:
        play_solution(game, limit=25)
        save(game, "spanish_patience_7_given_up.pso")
        start(app, game, 308, 8)

    @step
    def _ps8(app: Any, game: Any) -> None:
        play_solution(game, limit=10)
        save(game, "portuguese_solitaire_8_given_up.pso")
        start(app, game, 664, 9)

    @step
    def _sp2_9(app: Any, game: Any) -> None:
        play_solution(game, limit=10)
        save(game, "spanish_patience_ii_9_given_up.pso")
        start(app, game, 2, 10)

    @step
    def _kl10(app: Any, game: Any) -> None:
        klondike_moves(game, 3)
        save(game, "klondike_10_given_up.pso")
        app.opt.player = "bob"
        start(app, game, 31, 123456789012345)

    @step
    def _bd_long_won(app: Any, game: Any) -> None:
        play_solution(game)
        assert game.finished
        save(game, "bakers_dozen_123456789012345_won.pso")
        start(app, game, 31, 11)

    @step
    def _bd11_in_progress(app: Any, game: Any) -> None:
        play_solution(game, limit=12)
        save(game, "bakers_dozen_11_in_progress.pso")
        # "Hold and quit": the game is kept for next time, not counted
        game.endGame(holdgame=1)
        game.quitGame(holdgame=1)
        game.top.quit()

    orig_run = pysollib.app.Application.runGame

    def run_game(self: Any, id_: int, random: Any = None) -> None:
        """PySolFC's runGame; the next step runs once its Tk mainloop has begun
        (a Tk quit asked for before the mainloop is entered would be lost)."""
        self.splashscreen = 0
        top = self.top
        tk_mainloop = type(top).mainloop

        def mainloop(*args: Any) -> None:
            if steps:
                f = steps.pop(0)

                def go() -> None:
                    print(
                        f"{f.__name__}: game {self.game.id} #{self.game.getGameNumber(format=0)}",
                        flush=True,
                    )
                    try:
                        f(self, self.game)
                    except BaseException:
                        import traceback

                        traceback.print_exc()
                        os._exit(1)

                top.after(200, go)
            tk_mainloop(top, *args)

        top.mainloop = mainloop
        try:
            orig_run(self, id_, random)
        finally:
            del top.mainloop

    pysollib.app.Application.runGame = run_game
    t0 = time.time()
    from pysollib.main import main as pysol_main

    pysol_main(sys.argv)
    shutil.copy(os.path.join(cfg, "statistics.dat"), os.path.join(OUT, "statistics.dat"))
    print(f"wrote {len(saves)} saves and statistics.dat in {time.time() - t0:.0f} s")
    shutil.rmtree(HOME)


if __name__ == "__main__":
    main()
