"""Tests of the game explorer (the web app's page) and of ``bakers-lab app``, driven
through the ipywidgets API: the number is typed (the box's value set), Show clicked,
and the shown texts read back.  The page in a real browser: tests/test_browser.py."""

from __future__ import annotations

import ast
import html
import re
import socket
import subprocess
import sys
import threading

import pytest

import bakers_lab as bl

pytest.importorskip("ipywidgets")  # an optional dependency (the notebooks extra)

from bakers_lab.cli import main
from bakers_lab.display.widgets import (
    PLAYERS,
    Board,
    Compare,
    ExplorerModel,
    GameExplorer,
    Replay,
    lost_and_won,
)
from bakers_lab.solve.shortest import PAR_NODES, ShortestResult

NUMBERS = "a whole number from 1 to 99999999999999999999 (10^20 − 1)"


def shown(w):
    """The explorer's verdict as shown: the message's text out of the HTML."""
    match = re.search(r'<span class="bl-message">(.*?)</span>(?:<div|</div>)', w.verdict.value)
    assert match is not None, w.verdict.value
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


def verdict_text(w):
    """The whole verdict as the page shows it: its text, without the HTML."""
    return html.unescape(re.sub(r"<[^>]+>", "", w.verdict.value))


def explore(text, **options):
    w = GameExplorer(**options)
    w.game.value = text  # what the browser sends on Enter (continuous_update=False)
    w.show.click()
    return w


# -- the three verdicts --------------------------------------------------------
def test_deal_1_is_winnable_with_its_line_a_players_loss_and_a_board():
    n = len(bl.solve(1).moves)
    w = explore("1")
    par = bl.shortest(1, max_nodes=PAR_NODES)
    assert par.par == 67 < n  # game 1's par, proven within the app's budget
    want = (
        f"Winnable: a winning line of {n} moves, replayed by the rule engine; "
        f"par (the fewest moves that win) is 67 moves"
    )
    assert w.message == shown(w) == want
    assert w.model.par(1, "bakers_dozen").moves == par.moves
    assert w.your_game.par is w.model.par(1, "bakers_dozen")  # a win on the board gets par
    assert "Solved in " in verdict_text(w)  # with the work done
    rating = bl.difficulty(1)  # and how hard the deal is
    solved = w.model.solve(1, "bakers_dozen")
    assert (
        f"Solved in {solved.seconds:.1f} s, {solved.nodes:,} positions. {rating.summary()}."
    ) in verdict_text(w)
    assert w.model.difficulty(1, "bakers_dozen") == rating
    fresh = w.model.difficulty(40_001, "bakers_dozen")  # not shipped: from the kept games
    assert fresh.source == "computed" and fresh == bl.difficulty(40_001)
    assert w.tabs.layout.display is None  # shown
    assert w.tabs.titles == ("Winning line", "A player's game", "Play it yourself")
    assert isinstance(w.replay, Replay) and w.replay.slider.max == n
    assert w.replay.line.value == f"start: 0 of {n} moves"
    w.replay.next.click()
    assert w.replay.line.value.startswith(f"move 1 of {n}: ")
    assert 'data-row="1"' in w.replay.board.value  # two rows, 7 + 6, like the game page
    # the careful player loses deal 1: its replay ends where it got stuck
    game = bl.play(1, "careful")
    assert w.player_replay is not None and w.player_replay.slider.max == len(game.moves)
    assert w.player_text.value == (
        f"The careful player got stuck after {len(game.moves)} moves: no move was left that "
        f"led anywhere new. The replay ends where it got stuck. The deal can be won: see the "
        f"solver&#x27;s winning line."
    )
    # the replay marks the move that lost the game (careful lost a winnable deal)
    e = bl.explain(game, max_nodes=1_000_000)
    assert w.player_replay.explanation == e and w.player_replay.model.mark == e.index
    w.player_replay.last.click()
    assert w.player_replay.line.value.endswith(
        f"no move to a new position: lost after {len(game.moves)} moves"
    )
    assert isinstance(w.board, Board)
    assert w.board.model.game.key() == bl.GameState.from_deal(bl.deal(1)).key()
    assert not w.show.disabled


def test_par_is_said_proven_or_bounded_and_a_players_win_is_told_its_par():
    model = ExplorerModel()
    won = bl.solve(5)
    line = (bl.Move.parse("AD>F"),) * 70
    bounded = ShortestResult("solved", line, 64, deal=5)
    assert model.verdict(won, bounded) == (
        f"Winnable: a winning line of {len(won.moves)} moves, replayed by the rule engine; "
        "par (the fewest moves that win) is not proven yet, at least 64 moves (a win in 70 "
        "is known)"
    )
    game = bl.play(9, "careful")  # careful wins game 9, in twice par
    assert game.won and len(game.moves) == 130
    par = model.par(9, "bakers_dozen")
    assert par.par == 66
    assert ExplorerModel.player_summary(game, won, par) == (
        "The careful player won in 130 moves; par is 66 moves."
    )
    assert ExplorerModel.player_summary(game, won) == (
        f"The careful player won in {len(game.moves)} moves."
    )


def test_deal_64_cannot_be_won_and_shows_the_deal():
    w = explore("64")
    assert shown(w) == "Cannot be won: the solver proved that no sequence of moves wins"
    assert w.replay is None
    assert w.tabs.titles[0] == "The deal"
    note, picture = w.tabs.children[0].children[0].children
    assert note.value == "No winning line to step through: the deal cannot be won."
    # the shipped tables hold the proof: the page answers without searching again
    assert w.model.shipped(64, "bakers_dozen")
    assert "Proved unwinnable when the shipped tables were made (1 position)." in verdict_text(w)
    assert 'data-card="' in picture.value
    assert w.player_text.value.startswith("The careful player got stuck after ")
    assert "can be won" not in w.player_text.value


def test_deal_417_with_a_small_budget_is_still_open():
    w = explore("417", budget=1000)
    assert shown(w) == (
        "Still open: the solver found neither a win nor a proof of loss within its budget of "
        "1,000 positions. Nobody knows yet whether this deal can be won; game 417 has been "
        "open since Freecell Solver's authors listed it (their solver left it unresolved even "
        "at 100 million positions). To search longer (minutes, and a few GiB of memory): "
        "bakers-lab solve 417 --variant bakers_dozen --max-nodes 100000000 --table-mib 3072"
    )
    assert w.tabs.titles[0] == "The deal" and w.replay is None
    note = w.tabs.children[0].children[0].children[0]
    assert note.value == "No winning line to step through: the deal is still open."
    # not solved, so not "Solved in": the search stopped without settling it
    seconds = w.model.solve(417, "bakers_dozen").seconds
    assert "Solved in" not in verdict_text(w)
    assert f"The search stopped after {seconds:.1f} s, 1,00" in verdict_text(w)
    # another unresolved deal is not said to be open for everybody
    assert explore("5", budget=1).message == (
        "Still open: the solver found neither a win nor a proof of loss within its budget of "
        "1 position. This search does not tell whether it can be won; a larger budget may. "
        "To search longer (minutes, and a few GiB of memory): bakers-lab solve 5 --variant "
        "bakers_dozen --max-nodes 100000000 --table-mib 3072"
    )


# -- input -----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["abc", "0", "-5", "1.5", "4 17x", "1e3", str(10**20), "٣"])
def test_a_bad_number_says_what_is_allowed(text):
    w = explore(text)
    shown = text if text.isascii() and text.isdigit() else repr(text)  # out of range: the number
    assert w.message == f"A game number is {NUMBERS}, not {shown}"
    assert w.tabs.layout.display == "none" and w.replay is None
    assert "Traceback" not in verdict_text(w)


def test_an_empty_box_asks_for_a_number_and_a_bad_one_hides_the_last_game():
    w = GameExplorer()
    assert w.message.startswith("Type a PySolFC game number and press Show")
    w.show.click()
    assert w.message == f"Type a game number: {NUMBERS}"
    w.game.value = "64"
    assert w.tabs.layout.display is None
    w.game.value = "64x"
    assert w.tabs.layout.display == "none"
    assert w.message == f"A game number is {NUMBERS}, not '64x'"
    long = "9" * 40
    w.game.value = long
    assert w.message == f"A game number is {NUMBERS}, not {long[:27]}..."
    w.game.value = "x" + long
    assert w.message == f"A game number is {NUMBERS}, not {('x' + long)[:27] + '...'!r}"


def test_numbers_as_people_type_them():
    parse = ExplorerModel.parse
    assert [parse(t) for t in (" 417 ", "#417", "1,000", "1_000", "99999999999999999999")] == [
        417,
        417,
        1000,
        1000,
        10**20 - 1,
    ]
    w = explore(f"{10**20 - 1:,}")
    assert w.message.startswith("Winnable: a winning line of ")


# -- behaviour -------------------------------------------------------------------
def test_solving_is_announced_the_verdict_comes_first_and_par_follows():
    w = GameExplorer()
    seen = []
    for part in (w.verdict, w.progress):
        part.observe(
            lambda c: seen.append((re.sub(r"<[^>]+>", "", c["new"]), w.tabs.layout.display)),
            names="value",
        )
    w.game.value = "1"
    messages = [text for text, _ in seen]
    assert messages[0] == "Solving game 1…"
    assert messages[1] == (  # then, each second, the time so far
        "Solving game 1: the solver looks at up to 5,000,000 positions (a few seconds at most)… 0 s"
    )
    # the verdict without par, the tabs shown with it; then par's own progress line
    verdict = next(i for i, m in enumerate(messages) if m.startswith("Winnable: "))
    assert "par (the fewest" not in messages[verdict] and seen[verdict][1] is None
    assert messages[verdict + 1] == (
        f"Looking for the shortest win (par) among up to {PAR_NODES:,} positions… 0 s"
    )
    assert messages[-1] == ""  # the progress line, once all is known
    assert w.message.endswith("; par (the fewest moves that win) is 67 moves")
    assert not w.show.disabled  # never: a number typed replaces a search


def _values(widget):
    seen = []
    widget.observe(lambda c: seen.append(re.sub(r"<[^>]+>", "", c["new"])), names="value")
    return seen


def test_a_number_typed_during_a_search_replaces_it(monkeypatch):
    """In the web app the searches run in a thread: a number typed while game 417 is
    being solved is shown, and game 417's answer never is.  Game 417's search is held
    until game 1 is typed (on a loaded machine it once ended first, and its answer was
    rightly shown: the test then failed on a race of its own)."""
    w = GameExplorer(background=True)
    typed = threading.Event()
    solve = w.model.solve

    def held(number: int, variant: str) -> object:
        if number == 417:
            assert typed.wait(120)
        return solve(number, variant)

    monkeypatch.setattr(w.model, "solve", held)
    seen = _values(w.verdict)
    w.game.value = "417"
    assert w._threads and w._threads[0].is_alive()  # the page is free meanwhile
    w.game.value = "1"
    typed.set()
    w.wait(120)
    assert w.message.startswith("Winnable: a winning line of 73 moves")
    assert w.replay is not None and w.replay.slider.max == 73
    assert w.board is not None and w.board.model.start.deal is not None
    assert w.board.model.start.deal.number == 1
    later = seen[seen.index("Solving game 1…") :]
    assert not any("417" in text for text in later), later
    assert not any("Still open" in text for text in seen)


def test_the_shortest_known_line_is_offered_beside_the_solvers():
    w = explore("1")
    assert w.line_choice.layout.display is None
    assert [label for label, _ in w.line_choice.options] == [
        "the solver's (73 moves)",
        "the shortest known (67 moves, par)",
    ]
    assert w.replay is not None and w.replay.slider.max == 73
    w.line_choice.value = "shortest"
    assert w.replay.slider.max == 67
    assert w.replay.model.moves == w.model.par(1, "bakers_dozen").moves
    w.replay.slider.value = 5
    w.tabs.children[0].children[0].children[-1].click()  # Continue from here
    assert w.board is not None and w.board.model.played == 5
    assert w.your_game is not None
    assert "The board shows the shortest line after 5 moves" in w.your_game.message.value


def test_showing_the_same_game_again_rebuilds_nothing():
    w = explore("1")
    replay, board = w.replay, w.board
    w.show.click()  # after Enter, a click on Show: the game is shown already
    assert w.replay is replay and w.board is board
    w.game.value = "64"
    assert w.replay is None and w.board is not board
    assert replay is not None and replay.comm is None  # the old widgets are closed
    assert board is not None and board.comm is None


def test_the_player_dropdown_replays_another_players_game():
    w = explore("1")
    assert [v for _, v in w.player.options] == list(PLAYERS)
    assert w.player.value == "careful"
    w.player.value = "lookahead-2"
    game = bl.play(1, "lookahead-2")
    assert game.won
    assert w.player_text.value == (
        f"The lookahead-2 player won in {len(game.moves)} moves; par is 67 moves."
    )
    assert w.player_replay is not None and w.player_replay.slider.max == len(game.moves)
    w.player_replay.last.click()
    assert w.player_replay.line.value.endswith(f"all cards home: won in {len(game.moves)} moves")


def test_a_new_variant_shows_the_same_number_under_its_rules():
    w = GameExplorer(player="greedy")
    w.variant.value = "good_measure"  # nothing typed yet: nothing to show, nothing said
    assert w.message.startswith("Type a PySolFC game number")
    w.game.value = "1"
    w.variant.value = "bakers_dozen"
    assert w.message.startswith("Winnable")
    w.variant.value = "good_measure"
    assert shown(w) == "Cannot be won: the solver proved that no sequence of moves wins"
    assert w.board is not None and w.board.model.game.rules.name == "good_measure"
    assert 'data-row="1"' in w.board.board.value  # 10 columns in two rows: 5 + 5
    assert w.player_text.value.startswith("The greedy player ")


def test_a_game_given_at_the_start_is_shown_at_once():
    w = GameExplorer(64, layout="row")
    assert w.message.startswith("Cannot be won")
    assert w.board is not None and 'data-row="1"' not in w.board.board.value


def test_explorer_arguments_are_checked():
    with pytest.raises(ValueError, match=re.escape("variant must be one of bakers_dozen,")):
        GameExplorer(variant="klondike")
    with pytest.raises(ValueError, match=re.escape("player must be one of careful,")):
        GameExplorer(player="lookahead-9")
    with pytest.raises(ValueError, match=re.escape("layout must be 'rows' or 'row', not '7+6'")):
        GameExplorer(layout="7+6")
    with pytest.raises(ValueError, match=re.escape("budget must be an integer from 1 to")):
        GameExplorer(budget=0)


# -- a lost game next to a win ---------------------------------------------------
def test_lost_and_won_finds_a_deal_the_player_loses_and_the_solver_wins():
    lost, won = lost_and_won("careful", first=3)  # careful wins game 3, loses game 4
    assert (lost.deal, lost.player, lost.outcome) == (4, "careful", "lost")
    assert (won.deal, won.outcome, won.verified) == (4, "solved", True)
    with pytest.raises(LookupError, match=re.escape("no deal of games 3 to 3 of bakers_dozen")):
        lost_and_won("careful", first=3, tries=1)
    with pytest.raises(ValueError, match=re.escape("first must be an integer from 1 to")):
        lost_and_won(first=0)
    c = Compare(lost, won)
    assert [r.slider.max for r in c.replays] == [len(lost.moves), len(won.moves)]
    heads = [box.children[0].value for box in c.children]
    assert heads == [f"<b>{lost.summary()}</b>", f"<b>{won.summary()}</b>"]
    assert Compare(won, titles=["A & B"]).children[0].children[0].value == "<b>A &amp; B</b>"
    with pytest.raises(ValueError, match="at least one game"):
        Compare()
    with pytest.raises(ValueError, match=re.escape("titles: one per game, 2, not 1")):
        Compare(lost, won, titles=["one"])


# -- bakers-lab app --------------------------------------------------------------
def test_app_notebook_is_shipped_and_shows_an_explorer():
    """The app's notebook is one code cell whose last line is the explorer (run here,
    as the kernel runs it; Voilà's kernel runs it in the browser tests)."""
    nbformat = pytest.importorskip("nbformat")
    from bakers_lab.display.app import NOTEBOOK

    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert [c.cell_type for c in nb.cells] == ["markdown", "code"]
    assert nb.cells[0].source.startswith("# Baker's Dozen: can this game be won?")
    *body, last = ast.parse(nb.cells[1].source).body
    assert isinstance(last, ast.Expr)  # the cell shows what its last line gives
    names: dict[str, object] = {}
    exec(compile(ast.Module(body, type_ignores=[]), str(NOTEBOOK), "exec"), names)
    shown = eval(compile(ast.Expression(last.value), str(NOTEBOOK), "eval"), names)
    try:
        assert isinstance(shown, GameExplorer) and repr(shown).startswith("GameExplorer(")
    finally:
        shown.wait(120)
        shown.close()


def test_app_without_voila_says_what_to_do(monkeypatch, capsys):
    monkeypatch.setattr("bakers_lab.display.app.missing", lambda: ["voila"])
    assert main(["app", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "bakers-lab: error: the app needs voila, not installed here: pip install "
        "'bakers_lab[notebooks]' (or, in a clone of the repository, make app)\n"
    )


def test_app_on_a_busy_port_or_a_bad_one_is_one_line_exit_2(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["app", "--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err == f"bakers-lab: error: port {port} is in use; choose another with --port P\n"
    with pytest.raises(SystemExit) as exit_:
        main(["app", "--port", "70000"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith("a port is from 1 to 65535, not 70000\n") and err.count("\n") == 1


def test_a_failure_while_solving_is_said_on_the_page(monkeypatch):
    w = GameExplorer()

    def broken(number, variant):
        raise bl.SolverError("the solver's move list does not win when replayed")

    monkeypatch.setattr(w.model, "solve", broken)
    with pytest.raises(bl.SolverError):
        w.game.value = "1"
    assert w.message == (
        "Something went wrong: SolverError: the solver's move list does not win when replayed"
    )
    assert not w.show.disabled and w.tabs.layout.display == "none"


def test_a_first_compile_is_said_in_the_solving_line(monkeypatch):
    """Where the searches are not compiled yet on this computer, the line that ticks while
    the solver runs says so first (what bakers_lab.solve.compiled finds in numba's cache)."""
    import bakers_lab.display.widgets.explorer as explorer
    from bakers_lab.solve.compiled import FIRST_RUN, SEARCHES

    def cold(*searches):
        what, time = SEARCHES[searches[0]][:2]
        return FIRST_RUN.format(what=what, time=time)

    monkeypatch.setattr(explorer, "compile_notice", cold)
    w = GameExplorer()
    seen = _values(w.verdict)
    progress = _values(w.progress)
    w.game.value = "1"
    assert seen[1] == (
        "First run on this computer: compiling the solver, about a minute. Solving game 1: "
        "the solver looks at up to 5,000,000 positions (a few seconds at most)… 0 s"
    )
    assert progress[0].startswith(
        "First run on this computer: compiling the shortest-win search, about a minute. "
        "Looking for the shortest win (par)"
    )


def test_each_tab_has_its_words_before_par_is_searched(monkeypatch):
    # the player's game came after par and the rating: its tab stood empty the first
    # time (about 21 s of par's compile), with the only progress line above the tabs
    seen: list[tuple[str, str, bool]] = []
    real_par = ExplorerModel.par

    def par(self, number, variant):
        seen.append((w.player_text.value, w.player_progress.value, w.player_replay is not None))
        return real_par(self, number, variant)

    monkeypatch.setattr(ExplorerModel, "par", par)
    w = GameExplorer()
    w.game.value = "1"
    w.show.click()
    text, progress, replayed = seen[0]  # what the tab showed while par was searched
    assert replayed and text.startswith("The careful player got stuck after ")
    assert progress == (
        "Where the careful player lost is looked for once par is found (the line above the tabs)…"
    )
    assert w.player_progress.value == ""  # and then it was found
    assert w.player_replay is not None and w.player_replay.explanation is not None


def test_no_first_compile_notice_for_an_answer_from_the_shipped_tables():
    model = ExplorerModel()
    assert not model.needs_search(64, "bakers_dozen")  # settled by the shipped tables
    assert model.shipped(64, "bakers_dozen")
    assert model.needs_search(40_001, "bakers_dozen")  # beyond them: the solver searches


#: A script that makes the app's explorer as the app's kernel does (in the background).
APP_SCRIPT = (
    "from bakers_lab.display.widgets import GameExplorer; w = GameExplorer(background=True)"
)


def _script(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by Python in a process of its own (a hang guard of 300 s: it ends in
    about a second)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_the_app_page_starts_without_the_charts():
    """The app's kernel imports the widgets; matplotlib (a third of a second) comes only
    with the first search trace shown, which the app never shows."""
    done = _script(
        f"import sys; {APP_SCRIPT}; w.wait(120); "  # (its reading thread ended)
        "print(sorted(m for m in sys.modules if m == 'matplotlib'))"
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


def test_a_script_that_ends_while_the_app_reads_its_verdicts_ends():
    """A script may end at once after making the app's explorer in the background: it
    waits for the shipped verdicts' read (under a second) and ends, where it once hung
    at exit with that read still inside Arrow.  Three times: the hang was rare."""
    for _ in range(3):
        done = _script(APP_SCRIPT)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
