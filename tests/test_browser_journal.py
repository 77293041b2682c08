"""The web app's PySolFC files and journal in a real browser, as a player meets them: a game
saved in PySolFC opened on the board where it was left, with "Where did I lose?"; games played
in the app kept on this computer and listed in "My games" with how good the player is.

The servers, the browser and the screenshots are those of tests/test_browser.py; the app here
keeps its journal in a file of the test's own (BAKERS_LAB_JOURNAL).
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest
import test_browser as shared
from test_browser import open_app, server, shoot, show_game

from bakers_lab.display.widgets.review import QUICK_SECONDS
from bakers_lab.files.journal import Journal
from bakers_lab.solve.fast import DEFAULT_MAX_NODES

SAVES = Path(__file__).parent / "data" / "pysolfc"


def open_file(page, button, name: str) -> None:
    """Press an "Open" button and choose ``name`` of tests/data/pysolfc in the file chooser."""
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(str(SAVES / name))


@pytest.fixture(scope="module")
def journal_app(tmp_path_factory):
    """``bakers-lab app`` keeping its journal in a file of its own: (its address, the file)."""
    tmp = tmp_path_factory.mktemp("journal_app")
    journal = tmp / "journal.parquet"
    port = shared.free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "bakers_lab.cli", "app", "--port", str(port), "--no-browser"]
    env = {**os.environ, "BAKERS_LAB_JOURNAL": str(journal)}
    with server(command, base + "voila/static/", tmp / "app.log", cwd=tmp, env=env):
        yield base, journal


def test_where_did_i_lose_on_a_lost_pysolfc_save_says_what_it_knows_and_offers_more(
    page, journal_app
):
    from playwright.sync_api import expect

    base, _ = journal_app
    explorer = open_app(page, base)
    open_file(page, explorer.locator(".bl-explorer-open"), "bakers_dozen_4_lost.pso")
    expect(explorer.locator(".bl-explorer-pysol")).to_contain_text(
        "Opened bakers_dozen_4_lost.pso: PySolFC's Baker's Dozen game 4"
    )
    message = explorer.locator(".bl-review-message")
    t0 = time.monotonic()
    explorer.get_by_role("button", name="Where did I lose?").click()
    # within the quick search's seconds (QUICK_SECONDS) or positions the app answers, or
    # says what it knows (how much it settles depends on the computer's speed and load: on
    # a busy one, maybe nothing; a fast one reaches the positions first) and offers the
    # longer search
    limit = rf"(in {QUICK_SECONDS:g} seconds|within {DEFAULT_MAX_NODES:,} positions each)"
    expect(message).to_have_text(
        re.compile(
            rf"^(Move \d+ of 150, \S+, lost the game: .*|(Not settled {limit}: .*|The "
            rf"solver could not settle any position of your game {limit})\. Search longer "
            r"below settles more: about a minute\.)$"
        ),
        timeout=120_000,  # a hang guard: the answer comes in seconds
    )
    print(f"where did I lose, the lost save of game 4: {time.monotonic() - t0:.1f} s")
    said = message.inner_text()
    if said.startswith("Not settled"):
        expect(explorer.get_by_role("button", name="Search longer")).to_be_visible()
        after = re.search(r"after your move (\d+) the game could still be won", said)
        if after is not None:  # the line to study starts there
            heading = f"The winning line after your move {after.group(1)}"
            expect(explorer.get_by_text(heading)).to_be_visible()
    shoot(page, "journal_lost_save_not_settled")
    assert page.refused == []


def test_a_pysolfc_save_opens_on_the_board_and_three_games_fill_my_games(page, journal_app):
    from playwright.sync_api import expect

    base, journal = journal_app
    t0 = time.monotonic()
    explorer = open_app(page, base)
    # a game saved in PySolFC: 4 moves of Baker's Dozen game 5, then "Save"
    open_file(page, explorer.locator(".bl-explorer-open"), "bakers_dozen_5_given_up.pso")
    said = explorer.locator(".bl-explorer-pysol")
    expect(said).to_have_text(
        "Opened bakers_dozen_5_given_up.pso: PySolFC's Baker's Dozen game 5, saved after 4 moves."
    )
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "journal_pysol_save_top")
    board = explorer.locator(".bl-board")
    status = board.locator(".bl-board-status")
    expect(status).to_contain_text("4 moves played, last ")
    expect(explorer.locator(".bl-explorer-verdict")).to_contain_text("Winnable")
    message = explorer.locator(".bl-review-message")
    expect(message).to_contain_text("The board shows it as saved")
    board.scroll_into_view_if_needed()
    shoot(page, "journal_pysol_save_opened")
    explorer.get_by_role("button", name="Where did I lose?").click()
    expect(message).to_have_text(
        re.compile(
            r"^You have not lost: after your 4 moves the game can still be won\. The winning "
            r"line below \(\d+ moves\) starts where you are\.$"
        )
    )
    expect(explorer.locator(".bl-review-continue")).to_have_count(2)
    shoot(page, "journal_pysol_where_did_i_lose")
    print(f"the save: {time.monotonic() - t0:.1f} s")

    # three games played in the app, each given up after a move or two
    open_file(page, explorer.locator(".bl-explorer-open"), "klondike_10_given_up.pso")
    expect(said).to_contain_text(
        "klondike_10_given_up.pso: the save is a Klondike game, not one of the Baker's Dozen family"
    )
    for number in ("1", "2", "3"):
        show_game(page, explorer, number)
        expect(status).to_contain_text("0 moves played")  # the new game's board
        page.get_by_role("tab", name="Play it yourself").click()
        board.locator(".bl-board-legal button").first.click()
        expect(status).to_contain_text("1 move played")
        print(f"game {number}: {time.monotonic() - t0:.1f} s")
    expect(said).to_be_hidden()  # the Klondike file's line went with the next game shown
    # the tab closed in the middle of game 3: every move was kept as it was played
    deadline = time.monotonic() + 60  # a hang guard: the move is written in a moment
    while len(Journal(journal).read()) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    page.close(run_before_unload=True)
    kept = Journal(journal).read()
    assert kept["deal"].tolist() == [1, 2, 3]
    assert kept["result"].tolist() == ["given_up"] * 3
    assert kept["n_moves"].tolist() == [1, 1, 1]

    refused = page.refused  # (the context's refusals: the new page's too)
    page = page.context.new_page()  # the fourth page: all three games in My games
    page.refused = refused
    explorer = open_app(page, base)
    explorer.locator(".bl-explorer-my-games").click()
    mine = explorer.locator(".bl-mygames")
    expect(mine.locator(".bl-mygames-summary")).to_have_text(
        "3 games played here: 0 won, 0 lost, 3 given up. (Given up counts as lost.)"
    )
    rows = mine.locator(".bl-mygames-table tr")
    expect(rows).to_have_count(4)
    # cell by cell, waited for: a row's text read before the tab is laid out has no tabs
    expect(rows.nth(1).locator("td")).to_have_text(
        [re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d$"), "3", "Baker's Dozen", "given up", "1"]
    )
    strength = mine.locator(".bl-mygames-strength")
    expect(strength).to_contain_text("Baker's Dozen: you won 0 of 3 (0 %, 95 %: 0–56 %).")
    expect(strength).to_contain_text("On the same 3 deals the bots win: random ")
    expect(strength).to_contain_text(
        "You win less often than careful, the lowest setting of every dial."
    )
    shoot(page, "journal_my_games")
    print(f"my games: {time.monotonic() - t0:.1f} s")
    mine.get_by_role("button", name="Where did I lose?").click()
    answer = mine.locator(".bl-mygames-answer-text")
    expect(answer).to_contain_text(
        "You have not lost: after your 1 move the game can still be won."
    )
    expect(mine.locator(".bl-mygames-continue")).to_have_count(2)
    mine.locator(".bl-mygames-replay").first.scroll_into_view_if_needed()
    shoot(page, "journal_my_games_where")
    assert page.refused == []
