"""The web app in a real browser, as a player meets it: never silent, never wrong about time
(the verdict and the tabs first, the slower parts after; a number typed during a search
replaces it), and your own game on the board (par beside a win, an empty paste that
changes nothing, "Continue from here" that brings the board into view).

The servers, the browser and the screenshots are those of tests/test_browser.py.
"""

from __future__ import annotations

import re
import time

from test_browser import (
    APP_VIEW,
    open_app,
    open_play_tab,
    review_message,
    shoot,
    show_game,
    within_screen,
)

import bakers_lab as bl
from bakers_lab.display.widgets._common import on_screen
from bakers_lab.solve.shortest import PAR_NODES

#: careful's game of deal 4 (it loses it with move 14, 3D>4H).
CAREFUL_4 = (
    "AH>F AC>F 2C>F 5S>6S TD>JS 9D>TD AS>F 2S>F 3S>F JH>QC AD>F QH>KS JH>QH 3D>4H 8C>9D "
    "7D>8S 8C>9S 7D>8C 8S>9D JH>QS 7D>8S JH>QH JH>QC 7D>8C 7S>8S JH>QH JH>QS"
)


def ask(explorer, number: str) -> float:
    """Type ``number`` and press Show; the time it was pressed."""
    box = explorer.locator(".bl-explorer-game input")
    box.fill(number)
    explorer.locator("button", has_text="Show").click()
    return time.monotonic()


def test_the_tabs_come_with_the_verdict_on_game_417_and_the_slow_parts_after(page, app):
    from playwright.sync_api import expect

    base, _ = app
    explorer = open_app(page, base)
    show_game(page, explorer, "1")  # the kernel has loaded the compiled searches
    page.get_by_role("tab", name="A player's game").click()
    expect(explorer.get_by_text(re.compile("^Where it was lost: "))).to_be_visible()
    # game 1 is done: nothing else runs in the kernel (an empty progress line is hidden)
    expect(explorer.locator(".bl-explorer-progress:visible")).to_have_count(0)
    ask(explorer, "417")
    verdict = explorer.locator(".bl-explorer-verdict")
    tab = page.get_by_role("tab", name="A player's game")
    expect(verdict).to_contain_text("Still open")
    tab.wait_for(state="visible")
    # the shipped tables hold the solver's search of game 417: the same verdict, at once
    expect(verdict).to_contain_text(
        "From the shipped tables: the solver's search stopped after 5,000,453 positions, unsettled"
    )
    assert "Solved in" not in verdict.inner_text()
    tab.click()
    shoot(page, "app_417_slow_parts")
    # the player's lost game is explained after, with its own ticking line
    progress = explorer.locator(".bl-explorer-progress").nth(1)
    expect(explorer.locator(".bl-replay-line").nth(0)).to_be_visible()
    expect(progress).to_contain_text("Looking for the move that lost the careful player's game")
    expect(progress).to_be_hidden()
    expect(explorer.get_by_text(re.compile("^Where it was lost: "))).to_be_visible()
    shoot(page, "app_417_explained")
    assert page.refused == []


def test_a_number_typed_during_a_search_replaces_it(page, app):
    from playwright.sync_api import expect

    base, _ = app
    explorer = open_app(page, base)
    show_game(page, explorer, "64")  # the kernel has loaded the solver
    verdict = explorer.locator(".bl-explorer-verdict")
    # game 32,155 is outside the shipped tables, and its search takes the solver's whole
    # budget (4.4 s on a free core)
    ask(explorer, "32155")
    expect(verdict).to_contain_text("Solving game 32155")
    shoot(page, "app_32155_solving")
    ask(explorer, "1")  # while 32155 is still being solved
    expect(verdict).to_contain_text("Winnable: a winning line of 73 moves")
    line = explorer.locator(".bl-replay-line").first
    expect(line).to_contain_text("start: 0 of 73 moves")
    time.sleep(6)  # game 32,155's search has ended by now: its answer is dropped
    assert "Winnable: a winning line of 73 moves" in verdict.inner_text()
    assert "32155" not in verdict.inner_text()
    assert "start: 0 of 73 moves" in line.inner_text()
    assert page.refused == []


def test_a_win_on_the_board_shows_par_beside_it(page, app):
    from playwright.sync_api import expect

    base, _ = app
    explorer = open_app(page, base)
    show_game(page, explorer, "1")
    expect(explorer.locator(".bl-explorer-verdict")).to_contain_text("par (the fewest moves")
    page.get_by_role("tab", name="Play it yourself").click()
    board = explorer.locator(".bl-board")
    status = board.locator(".bl-board-status")
    par = bl.shortest(1, max_nodes=PAR_NODES)
    assert par.par == 67
    # the shortest line's first 60 moves pasted, played on from their end ("Continue from
    # here"), and its last 7 by the board's buttons (clicking a whole game through:
    # tests/test_browser.py)
    typed = " ".join(on_screen(m) for m in par.moves[:60])
    explorer.locator(".bl-review-paste textarea").fill(typed)
    explorer.locator("button", has_text="Replay this game").click()
    yours = explorer.locator(".bl-review-yours")
    yours.locator("button.bl-last").click()
    expect(yours.locator(".bl-replay-line")).to_contain_text("move 60 of 60")
    explorer.locator(".bl-review-continue").first.click()
    expect(status).to_contain_text("60 moves played")
    for k, move in enumerate(par.moves[60:], start=61):
        board.locator(".bl-board-legal button", has_text=re.compile(f"^{on_screen(move)}$")).click()
        expect(status).to_contain_text("Won" if k == len(par.moves) else f"{k} moves played")
    expect(status).to_have_text("Won: all cards home in 67 moves; par is 67 moves")
    expect(review_message(explorer)).to_have_text(
        "You won: all cards home in 67 moves; par is 67 moves; the solver's winning line has "
        "73 moves."
    )
    # a won game has nothing to look for: the question is gone
    expect(explorer.locator(".bl-review button", has_text="Where did I lose?")).to_be_hidden()
    shoot(page, "app_won_on_the_board", at=board)
    assert page.refused == []


def test_an_empty_paste_leaves_the_board_as_it_was(page, app):
    from playwright.sync_api import expect

    explorer = open_play_tab(page, app, "4")
    board = explorer.locator(".bl-board")
    status = board.locator(".bl-board-status")
    for k, text in enumerate(CAREFUL_4.split()[:3], start=1):
        board.locator(".bl-board-legal button", has_text=re.compile(f"^{on_screen(text)}$")).click()
        expect(status).to_contain_text(f"{k} move{'s' if k > 1 else ''} played")
    picture = board.locator(".bakers-lab-board").inner_html()
    message = review_message(explorer)
    expect(message).to_contain_text("3 moves played on the board")
    explorer.locator(".bl-review-paste textarea").fill("")
    explorer.locator("button", has_text="Replay this game").click()
    expect(message).to_have_text(
        "The box holds no move: paste the moves of a game first (the board is unchanged)."
    )
    expect(status).to_contain_text("3 moves played")
    assert board.locator(".bakers-lab-board").inner_html() == picture
    shoot(page, "app_empty_paste")
    assert page.refused == []


def test_continue_from_here_brings_the_board_into_view(page, app):
    from playwright.sync_api import expect

    explorer = open_play_tab(page, app, "4")
    explorer.locator(".bl-review-paste textarea").fill(CAREFUL_4)
    explorer.locator("button", has_text="Replay this game").click()
    message = review_message(explorer)
    expect(message).to_contain_text("Move 14 of 27, 3D>4H, lost the game")
    line = explorer.locator(".bl-review-line")
    line.locator("button.bl-next").click()
    expect(line.locator(".bl-replay-line")).to_contain_text("move 1 of ")
    go = explorer.locator(".bl-review-continue").nth(1)
    go.scroll_into_view_if_needed()
    board = explorer.locator(".bl-board .bakers-lab-board")
    top = board.bounding_box()
    assert top is not None and top["y"] + top["height"] < 0  # the board is above, unseen
    go.click()
    status = explorer.locator(".bl-board-status")
    expect(status).to_contain_text("14 moves played")
    expect(message).to_contain_text("now shows this position (14 moves played)")
    assert within_screen(explorer.locator(".bl-board-cards")), "the board's buttons"
    box = board.bounding_box()
    print("the board after Continue from here:", box, "window height", APP_VIEW["height"])
    # the focused button under the picture comes to the middle of the window: the picture
    # above it mostly in view (its top 80 px of 462 above the window at 1280 x 800)
    assert box is not None and box["y"] + box["height"] > 0.75 * box["height"]
    shoot(page, "app_continued")
    assert page.refused == []
