"""The app's "My games" and "Open a PySolFC game", without a browser: which games the journal
keeps and how each ended, a PySolFC save put on the board where it was left, every bad file one
line, the switch that keeps nothing, and the strength's progress while the bots play."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

import bakers_lab as bl
from bakers_lab.display.widgets import GameExplorer
from bakers_lab.display.widgets._common import on_screen
from bakers_lab.display.widgets.board import Board
from bakers_lab.display.widgets.mygames import GameKeeper, MyGames, read_save, read_upload
from bakers_lab.files.journal import Entry, Journal
from bakers_lab.files.pysol import PysolFileError

SAVES = Path(__file__).parent / "data" / "pysolfc"


def _click(board: Board, text: str) -> None:
    found = [b for b in board.legal.children if b.description == text]
    assert len(found) == 1, (text, [b.description for b in board.legal.children])
    found[0].click()


def test_a_game_is_kept_when_it_ends_and_once_when_it_ends_again(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    board = Board(1)
    keeper = GameKeeper(j, board, 1, "bakers_dozen")
    line = bl.solve(1).moves
    for m in line[:-1]:
        board.model.play(m)
    board.undo.click()  # a change the person made: the game is kept as it stands
    assert keeper.writer.flush(timeout=60)
    kept = j.read()
    assert kept[["deal", "result", "n_moves"]].to_dict("records") == [
        {"deal": 1, "result": "given_up", "n_moves": len(line) - 2}
    ]
    board.model.play(line[-2])
    _click(board, on_screen(line[-1]))
    t = j.read()
    assert t[["deal", "result", "n_moves"]].to_dict("records") == [
        {"deal": 1, "result": "won", "n_moves": len(line)}
    ]
    assert t.loc[0, "moves"] == " ".join(str(m) for m in line)
    board.undo.click()
    _click(board, on_screen(line[-1]))  # won again after an undo: the same game
    keeper.leave()  # and leaving a game that ended keeps nothing more
    assert j.read()["id"].tolist() == t["id"].tolist() and len(j.read()) == 1


def test_a_game_left_without_a_move_is_not_kept(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    board = Board(4)
    GameKeeper(j, board, 4, "bakers_dozen").leave()
    assert not (tmp_path / "j.parquet").exists()


def test_every_move_is_kept_as_played_and_circles_are_stuck(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    board = Board(1)
    keeper = GameKeeper(j, board, 1, "bakers_dozen")
    _click(board, "10C>JC")  # a page closed now keeps the game: nothing waits for leave()
    assert keeper.writer.flush(timeout=60)
    assert j.read()[["result", "moves"]].to_dict("records") == [
        {"result": "given_up", "moves": "TC>JC"}
    ]
    _click(board, "10C>JD")
    assert keeper.writer.flush(timeout=60)
    assert j.read().loc[0, "result"] == "given_up"
    _click(board, "10C>JC")  # the position after move 1 again: going round in circles
    assert keeper.writer.flush(timeout=60)
    assert j.read()[["result", "n_moves"]].to_dict("records") == [{"result": "stuck", "n_moves": 3}]
    for _ in range(3):  # every move taken back: no game to keep
        board.undo.click()
    assert keeper.writer.flush(timeout=60)
    assert len(j.read()) == 0
    keeper.leave()
    assert len(j.read()) == 0


@pytest.mark.parametrize("name", ["game.pso", "my game", "game 4.PSO"])
def test_the_open_button_takes_a_save_by_any_name(tmp_path: Path, name: str) -> None:
    # the picker offered only .pysol files, where PySolFC's Save as writes .pso (issue 52)
    w = GameExplorer(journal=Journal(tmp_path / "j.parquet"))
    assert w.pysol.accept == ""  # the browser's file chooser shows every file
    data = (SAVES / "bakers_dozen_5_given_up.pso").read_bytes()
    w.pysol.value = ({"name": name, "type": "", "size": len(data), "content": memoryview(data),
                      "last_modified": datetime.now(timezone.utc)},)  # fmt: skip
    assert w.game.value == "5" and w.pysol.value == ()
    assert f"Opened {name}: PySolFC's Baker's Dozen game 5, saved after 4 moves." in (
        w.pysol_message.value.replace("&#x27;", "'")
    )


def test_the_explorer_keeps_games_given_up_and_opens_a_save_where_it_was_left(
    tmp_path: Path,
) -> None:
    w = GameExplorer(journal=Journal(tmp_path / "j.parquet"))
    w.game.value = "1"
    assert w.board is not None
    w.board.legal.children[0].click()
    first = str(w.board.model.game.history[0])
    data = (SAVES / "bakers_dozen_11_in_progress.pso").read_bytes()
    w.open_pysol(data, "bakers_dozen_11_in_progress.pso")
    saved = bl.read_pysol_game(SAVES / "bakers_dozen_11_in_progress.pso")
    assert w.board is not None and w.your_game is not None
    assert w.board.model.game.key() == saved.state.key()
    assert [str(m) for m in w.board.model.game.history] == [str(m) for m in saved.moves]
    assert w.tabs.selected_index == 2 and w.game.value == "11"
    assert "Opened bakers_dozen_11_in_progress.pso: PySolFC's Baker's Dozen game 11, saved " \
        "after 12 moves." in w.pysol_message.value.replace("&#x27;", "'")  # fmt: skip
    t = w.journal.read()
    assert t[["deal", "result", "moves", "source"]].to_dict("records") == [
        {"deal": 1, "result": "given_up", "moves": first, "source": "app"}
    ]
    w.your_game.where.click()  # Where did I lose? on the saved game
    assert "You have not lost: after your 12 moves" in w.your_game.message.value
    w.board.legal.children[0].click()  # played on, then left: kept as a PySolFC game
    w.game.value = "2"
    last = w.journal.read().iloc[-1]
    assert (last["deal"], last["result"], last["source"], last["n_moves"]) == (
        11, "given_up", "pysolfc", 13
    )  # fmt: skip


#: Bad files, and the line each gets.
BAD = [
    ("x.pso", b"plain text", "x.pso: not a PySolFC file (it is not a Python pickle)"),
    ("cut.pso", (SAVES / "bakers_dozen_1_won.pso").read_bytes()[:300],
     "cut.pso: the save is cut short (no card's face)"),
    ("k.pso", (SAVES / "klondike_10_given_up.pso").read_bytes(),
     "k.pso: the save is a Klondike game, not one of the Baker's Dozen family"),
    ("../../etc/evil.pso", b"cos\nsystem\n(S'touch /tmp/bl-evil'\ntR.",
     "evil.pso: refused to load os.system: "),
    ("big.pso", b"\x80" * (64 * 2**20 + 1),
     "big.pso: 67,108,865 bytes, more than the 64 MiB read: a PySolFC save or statistics file "
     "is far smaller"),
]  # fmt: skip


def test_every_bad_file_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    w = GameExplorer("3", journal=Journal(tmp_path / "j.parquet"))
    before = w.board
    for name, data, said in BAD:
        w.open_pysol(data, name)
        text = w.pysol_message.value.replace("&#x27;", "'")
        assert said in text and "\n" not in text, (name, text)
        assert w.board is before and w.game.value == "3"
        with pytest.raises(PysolFileError):
            read_save(name, data)
    assert not Path("/tmp/bl-evil").exists()


def test_switched_off_the_explorer_keeps_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.parquet"
    w = GameExplorer("1", journal=False)
    assert not w.journal.enabled and not w.my_games.keep.value
    w = GameExplorer("1", journal=Journal(path))
    w.my_games.keep.value = False  # the switch on the page
    assert w.board is not None
    w.board.legal.children[0].click()
    w.game.value = "2"
    assert not path.exists()
    assert "Off: the games you play are not kept." in w.my_games.where_kept.value


def test_my_games_shows_the_strength_with_its_progress(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    big = 123456789012345  # in no shipped table: the bots play it now
    for number, moves, result in ((1, "AD>F", "given_up"), (big, "", "given_up")):
        j.add(Entry.finished(number, "bakers_dozen", moves, result))
    page = MyGames(j, cache=tmp_path / "cache")
    said: list[str] = []
    page.progress.observe(lambda ch: said.append(ch["new"]), names="value")
    page.refresh()
    assert any("The bots play the 1 deal of yours that the shipped tables lack" in s for s in said)
    assert page.progress.value == ""
    text = page.strength.value
    assert "Baker&#x27;s Dozen: you won 0 of 2 (0 %, 95 %: 0–66 %)." in text
    assert "On the same 2 deals the bots win: random 0" in text
    assert page.summary.value.startswith("2 games played here: 0 won, 0 lost, 2 given up.")
    assert len(page.lost.options) == 1  # the game with moves; the other has none to explain
    page.where.click()
    assert "You have not lost: after your 1 move" in page.answer_text.value


def test_a_statistics_file_lists_its_players_games() -> None:
    data = (SAVES / "statistics.dat").read_bytes()
    table = read_upload("statistics.dat", data, bl.read_pysol_stats)
    j = Journal(enabled=False)
    page = MyGames(j, run=lambda work: None)  # the bots' games are strength's own tests
    page.open_stats(table, "statistics.dat")
    assert page.source.value == "alice"
    assert [label for label, _ in page.source.options][1:] == [
        "alice's PySolFC games in statistics.dat (9 games)",
        "bob's PySolFC games in statistics.dat (1 game)",
    ]
    alice = table[table["player"] == "alice"]
    won = int(alice["won"].sum())
    assert page.summary.value == (
        f"9 games of alice&#x27;s in statistics.dat: {won} won, {9 - won} lost."
    )
    rows = page.games.value.count("<tr>") - 1
    assert rows == 9 and page.games.value.count("Baker&#x27;s Dozen") == int(
        (alice["variant"] == "bakers_dozen").sum()
    )


def test_a_damaged_journal_is_said_on_the_page_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "j.parquet"
    path.write_bytes(b"not a journal")
    w = GameExplorer("1", journal=Journal(path))
    said = f"the journal {path} is damaged (not a Parquet file"
    assert said in w.my_games.message.value
    assert w.board is not None
    w.board.legal.children[0].click()
    w.game.value = "2"  # game 1 given up: it cannot be kept, and the page says why
    assert f"Your game was not kept: {said}" in w.pysol_message.value
    assert path.read_bytes() == b"not a journal"


def test_continue_from_here_in_my_games_puts_the_game_on_the_board(tmp_path: Path) -> None:
    w = GameExplorer("1", journal=Journal(tmp_path / "j.parquet"))
    assert w.board is not None
    w.board.legal.children[0].click()
    played = list(w.board.model.game.history)
    w.game.value = "2"
    w.show_my_games.value = True  # My games: the record and the strength
    mine = w.my_games
    assert mine.summary.value.startswith("1 game played here: 0 won, 0 lost, 1 given up.")
    assert "you won 0 of 1" in mine.strength.value
    mine.where.click()
    continues = [b for b in _buttons(mine.answer) if b.description == "Continue from here"]
    assert len(continues) == 2
    continues[0].click()  # "Your game", at its last move
    assert not w.show_my_games.value and w.tabs.selected_index == 2 and w.game.value == "1"
    assert w.board is not None and list(w.board.model.game.history) == played
    assert "The board shows game 1 after 1 move" in w.your_game.message.value  # type: ignore[union-attr]


def _buttons(box: object) -> list:
    out = []
    for child in getattr(box, "children", ()):
        if hasattr(child, "description") and hasattr(child, "on_click"):
            out.append(child)
        out += _buttons(child)
    return out
