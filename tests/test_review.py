"""Your own game in the app, without a browser: "Where did I lose?", a pasted move list,
"Continue from here", and moves made by clicking the picture (widgets/review.py, board.py)."""

from __future__ import annotations

import re

import pytest

import bakers_lab as bl
from bakers_lab.model.game import GameState
from bakers_lab.solve.shortest import PAR_NODES
from bakers_lab.study import coach

pytest.importorskip("ipywidgets")  # an optional dependency (the notebooks extra)

from bakers_lab.display.widgets import Board, BoardModel
from bakers_lab.display.widgets._common import on_screen
from bakers_lab.display.widgets.review import ReviewModel, YourGame

#: careful's game of deal 4: it loses it with move 14, 3D>4H (bl.explain says so).
CAREFUL_4 = (
    "AH>F AC>F 2C>F 5S>6S TD>JS 9D>TD AS>F 2S>F 3S>F JH>QC AD>F QH>KS JH>QH 3D>4H 8C>9D "
    "7D>8S 8C>9S 7D>8C 8S>9D JH>QS 7D>8S JH>QH JH>QC 7D>8C 7S>8S JH>QH JH>QS"
)


@pytest.fixture(scope="module")
def lost_4():
    r = ReviewModel(bl.deal(4), CAREFUL_4)
    r.explain()
    return r


def test_the_move_that_lost_a_game_is_named_and_the_line_before_it_wins(lost_4):
    r = lost_4
    assert r.ok and r.explanation is not None and r.explanation.status == "lost_at"
    assert r.message == (
        "Move 14 of 27, 3D>4H, lost the game: before it the deal could still be won, after it "
        f"no sequence of moves wins. {r.explanation.winning_line[0]} there instead still wins: "
        f"the winning line below has {len(r.line.moves)} moves."
    )
    assert r.yours.mark == 13 and r.line_from == 13
    # the line starts from the position before move 14 and wins on the rule engine
    start = r.yours.position(13)
    assert r.line.start.key() == start.key() and r.line.final.is_won
    assert list(r.line.start.history) == list(start.history)
    assert start.copy().play_all(list(r.line.moves)).is_won
    # and the move that lost it leads to a position the solver proves lost
    after = r.yours.position(14)
    assert bl.solve(after).outcome == "unsolvable"


def test_a_won_game_says_so_beside_the_solvers_length():
    line = bl.solve(1).moves
    r = ReviewModel(bl.deal(1), list(line), solver_moves=len(line))
    assert not r.needs_solver and r.explain() is None
    assert r.message == (
        f"You won: all cards home in {len(line)} moves; the solver's winning line has "
        f"{len(line)} moves."
    )
    par = bl.shortest(1, max_nodes=1_000_000)
    r = ReviewModel(bl.deal(1), list(line), solver_moves=len(line), par=par)
    assert r.message == (
        f"You won: all cards home in {len(line)} moves; par is 67 moves; the solver's "
        f"winning line has {len(line)} moves."
    )
    with pytest.raises(TypeError, match=re.escape(
        "par must be a ShortestResult (bl.shortest) or None, not 67 (int)"
    )):  # fmt: skip
        ReviewModel(bl.deal(1), list(line), par=67)  # type: ignore[arg-type]


def test_a_game_not_lost_yet_gets_the_line_from_where_it_stands():
    r = ReviewModel(bl.deal(1), "AD>F")
    r.explain()
    assert r.message.startswith("You have not lost: after your 1 move the game can still be won.")
    assert r.line is not None and r.line_from == 1 and r.line.final.is_won
    assert r.line.start.history == (bl.Move.parse("AD>F"),)


def test_a_deal_that_never_could_be_won_is_not_blamed_on_the_player():
    r = ReviewModel(bl.deal(64), "TD>JD")
    r.explain()
    assert r.message == (
        "This deal could never be won: the solver proved that no sequence of moves wins it, "
        "so none of your moves lost it."
    )
    assert r.line is None and r.yours is not None and r.yours.mark is None


def test_no_moves_and_illegal_moves_are_said_in_one_line():
    assert ReviewModel(bl.deal(4), "").message == (
        "You have not played a move yet: play some on the board, or paste a game below."
    )
    r = ReviewModel(bl.deal(4), "AH>F AC>F 9S>F")
    assert not r.ok and r.yours is None and not r.needs_solver
    assert r.message == (
        "Cannot replay these moves: move 3 of 3, 9S>F, is illegal there: 9S is not at the top "
        "of its column"
    )
    # the words are the CLI's (bakers-lab explain/hint) and the coach's
    with pytest.raises(bl.ExplainError) as err:
        coach.position_after(bl.deal(4), "AH>F AC>F 9S>F")
    assert r.message == f"Cannot replay these moves: {err.value}"
    assert "\n" not in r.message
    bad = ReviewModel(bl.deal(4), "AH>F xyz")
    assert bad.message == (
        "Cannot replay these moves: move 2 of 2: not a move: 'xyz' (expected CARD>DEST, like "
        "7C>8H, AS>F or 7C>E)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "AH>F AC>F 2C>F 5S>6S 10D>JS",
        "ah>f, ac>f, 2c>f, 5s>6s, td>js",
        "1. AH>F\n2. AC>F\n3. 2C>F  # the clubs\n4. 5S>6S\n5. T♦>J♠\n",
        "A♥>F A♣>F 2♣>F 5♠>6♠ 10♦>J♠",
    ],
)
def test_a_pasted_game_reads_in_every_form_the_cli_reads(text):
    r = ReviewModel(bl.deal(4), text)
    assert r.ok and r.yours is not None, r.message
    assert [str(m) for m in r.yours.moves] == ["AH>F", "AC>F", "2C>F", "5S>6S", "TD>JS"]


# -- the widget ----------------------------------------------------------------------
def test_pasting_a_game_puts_it_on_the_board_flags_the_loss_and_continues_from_a_step():
    board = Board(4)
    yours = YourGame(board)
    yours.paste.value = CAREFUL_4
    yours.replay_pasted.click()
    assert board.model.played == 27  # the pasted game is on the board
    text = re.sub(r"<[^>]+>", "", yours.message.value)
    assert text.startswith("Move 14 of 27, 3D&gt;4H, lost the game")
    assert yours.yours is not None and yours.yours.step == 14  # right after the flagged move
    assert "⚑" in yours.yours.line.value
    assert yours.line is not None and yours.line.model.start.history == tuple(
        bl.Move.parse(m) for m in CAREFUL_4.split()[:13]
    )
    # step the winning line 5 moves on, then play on from there
    yours.line.next.click()
    for _ in range(4):
        yours.line.next.click()
    yours._continue(yours.line)
    assert board.model.played == 18
    assert board.model.game.history[13:] == yours.line.model.moves[:5]
    assert "now shows this position (18 moves played)" in yours.message.value
    board.undo.click()  # undo goes back through the moves it was given
    assert board.model.played == 17


def test_where_did_i_lose_reads_the_moves_played_on_the_board():
    board = Board(4)
    yours = YourGame(board)
    yours.where.click()
    assert "You have not played a move yet" in yours.message.value and yours.yours is None
    for m in CAREFUL_4.split()[:14]:
        board.model.play(m)
    yours.where.click()
    assert "Move 14 of 14, 3D&gt;4H, lost the game" in yours.message.value
    yours.paste.value = "AH>F KS>F"
    yours.replay_pasted.click()
    assert "Cannot replay these moves: move 2 of 2, KS&gt;F, is illegal there" in (
        yours.message.value
    )
    assert yours.yours is None and yours.line is None  # the old answer is gone
    assert board.model.played == 14  # and the board is untouched


# -- clicking the picture ---------------------------------------------------------------
def test_clicks_on_the_picture_pick_a_card_frame_its_targets_and_play_it():
    b = BoardModel(bl.deal(1))
    assert b.click("card AD 1") == "" and b.picked == bl.Card.parse("AD")
    assert b.targets() == {"D": bl.Move.parse("AD>F"), 11: bl.Move.parse("AD>2D")}
    assert b.click("foundation D 2") == "" and b.game.history == (bl.Move.parse("AD>F"),)
    assert b.picked is None and b.targets() == {}
    # a card onto a column: a click on any card of that column is the column
    b.click("card 5S")
    col = next(i for i, c in enumerate(b.game.columns) if c and c[-1] == bl.Card.parse("6S"))
    deep = b.game.columns[col][0]
    assert b.click(f"card {deep}") == ""
    assert b.game.history[-1] == bl.Move.parse("5S>6S")
    # the picked card again drops the pick; another card that can move is picked instead
    b.click("card 9S")
    b.click("card 9S")
    assert b.picked is None
    b.click("card 9S")
    aims = b.targets()
    other = next(
        c
        for c in b.movable_cards()
        if c != b.picked and next(i for i, col in enumerate(b.game.columns) if c in col) not in aims
    )
    b.click(f"card {other}")
    assert b.picked == other and b.played == 2
    # a card whose column the picked card may go to is that column: the move is played
    b.click("card 9S")
    b.click("card TC")
    assert b.game.history[-1] == bl.Move.parse("9S>TC") and b.picked is None


def test_clicks_that_cannot_be_played_say_why():
    b = BoardModel(bl.deal(1))
    assert b.click("card JH") == "JH cannot move now: only the top card of a column moves"
    assert b.click("foundation D") == "pick a card that can move first"  # an empty pile
    assert b.click("column 0") == "pick a card that can move first"
    b.click("card AD")
    assert b.click("column 0") == "AD cannot go there"
    assert b.picked == bl.Card.parse("AD") and b.played == 0
    assert b.click("column 13") == "a column is a number from 0 to 12, not '13'"
    assert b.click("zz") == "a click names a card, a column or a foundation, not 'zz'"
    b.click("foundation D")  # AD goes home; its pile's card stays there
    assert b.click("foundation D") == "AD cannot leave its foundation now"
    r = BoardModel(bl.deal(1, "bakers_dozen_return"))  # where cards come back, it is picked
    r.click("card AD")
    r.click("foundation D")
    assert r.click("foundation D") == "" and r.targets() == {11: bl.Move.parse("AD>2D")}
    assert b.click("card XX") == "not a card: 'XX' (expected rank then suit, like '7C' or '10♥')"


def test_the_board_widget_takes_clicks_from_the_page_and_frames_targets():
    w = Board(1, layout="7+6")
    w.clicks.value = "card AD 1"
    assert 'data-foundation="D" data-count="0" data-target="true"' in w.board.value
    assert w.board.value.count('data-target="true"') == 2
    w.clicks.value = "foundation D 2"
    assert w.model.game.history == (bl.Move.parse("AD>F"),)
    assert 'data-target="true"' not in w.board.value
    w.clicks.value = "card JH 3"
    assert "(JH cannot move now: only the top card of a column moves)" in w.status.value


def test_tens_read_as_10_on_screen_and_back():
    assert on_screen("TD>JS; KS>TD; The T") == "10D>JS; KS>10D; The T"
    w = Board(1)
    labels = [b.description for b in w.legal.children]
    assert "9S>10C" in labels and not any(re.search(r"\bT[CSHD]", x) for x in labels)
    next(b for b in w.legal.children if b.description == "9S>10C").click()
    assert w.model.game.history == (bl.Move.parse("9S>TC"),)


def test_continue_from_a_bots_game_or_the_winning_line_opens_the_board_there():
    from bakers_lab.display.widgets import GameExplorer

    w = GameExplorer("4")
    assert w.replay is not None and w.player_replay is not None and w.board is not None
    page = w.tabs.children[0].children[0].children
    buttons = [b for b in page if "Continue from here" in getattr(b, "description", "")]
    assert len(buttons) == 1
    w.replay.slider.value = 7
    buttons[0].click()
    assert w.tabs.selected_index == 2 and w.board.model.played == 7
    assert w.board.model.game.history == w.replay.model.moves[:7]
    w.player_replay.slider.value = 3  # careful's game of deal 4, move 3
    w.continue_from(w.player_replay)
    assert w.board.model.game.history == tuple(bl.Move.parse(m) for m in CAREFUL_4.split()[:3])


def test_a_position_of_another_deal_or_a_wrong_move_list_is_refused_in_words():
    b = BoardModel(bl.deal(1))
    with pytest.raises(ValueError, match="that position is not one of this board's game"):
        b.load(bl.GameState.from_deal(bl.deal(2)))  # no moves, but another deal
    assert b.played == 0 and b.game.key() == bl.GameState.from_deal(bl.deal(1)).key()
    with pytest.raises(TypeError, match=re.escape("moves must be move texts separated by")):
        ReviewModel(bl.deal(1), None)  # type: ignore[arg-type]
    long = ReviewModel(bl.deal(1), "AD>F " * 100_000)  # a huge paste: the first bad move
    assert long.message == (
        "Cannot replay these moves: move 2 of 100000, AD>F, is illegal there: AD is already "
        "on a foundation"
    )


# -- your game follows the board ---------------------------------------------------------
def _text(html_widget) -> str:
    return re.sub(r"<[^>]+>", "", html_widget.value).replace("&gt;", ">").replace("&#x27;", "'")


def _click_move(board: Board, move: bl.Move) -> None:
    """Play ``move`` as a person does: its button among the legal moves."""
    label = on_screen(move)
    next(b for b in board.legal.children if b.description == label).click()


def test_a_win_on_the_board_is_said_with_par_and_the_solvers_length():
    par = bl.shortest(1, max_nodes=PAR_NODES)
    board = Board(1)
    yours = YourGame(board, solver_moves=73, par=par)
    for m in par.moves:
        _click_move(board, m)
    assert board.model.won
    assert _text(board.status) == "Won: all cards home in 67 moves; par is 67 moves"
    assert _text(yours.message) == (
        "You won: all cards home in 67 moves; par is 67 moves; the solver's winning line "
        "has 73 moves."
    )
    assert yours.where.layout.display == "none"  # no "Where did I lose?" beside a win
    assert [r.layout.display for r in board._move_rows] == ["none"] * 3  # no empty lines
    board.undo.click()
    assert yours.where.layout.display is None
    assert [r.layout.display for r in board._move_rows] == [None] * 3


def test_par_known_after_the_win_is_said_then():
    par = bl.shortest(1, max_nodes=PAR_NODES)
    board = Board(1)
    yours = YourGame(board)  # the explorer looks for par after the verdict
    for m in par.moves:
        _click_move(board, m)
    assert _text(yours.message) == "You won: all cards home in 67 moves."
    assert _text(board.status) == "Won: all cards home in 67 moves"
    yours.set_par(par)
    assert _text(yours.message) == "You won: all cards home in 67 moves; par is 67 moves."
    assert _text(board.status) == "Won: all cards home in 67 moves; par is 67 moves"


def test_the_line_under_the_board_follows_it_and_an_earlier_review_is_cleared():
    board = Board(4)
    yours = YourGame(board)
    yours.where.click()
    assert "You have not played a move yet" in yours.message.value
    for m in CAREFUL_4.split()[:3]:
        _click_move(board, bl.Move.parse(m))
    assert _text(yours.message) == (
        "3 moves played on the board. Where did I lose? asks the solver which of them lost "
        "the game."
    )
    yours.paste.value = CAREFUL_4
    yours.replay_pasted.click()
    assert yours.yours is not None and yours.line is not None and board.model.played == 27
    board.undo.click()  # the board changes: the review of the 27-move game goes
    assert yours.yours is None and yours.line is None and yours.review is None
    assert len(yours.children[-1].children) == 0
    assert _text(yours.message).startswith("26 moves played on the board.")
    board.restart.click()
    assert _text(yours.message) == ""


def test_an_empty_paste_changes_nothing_and_says_so():
    board = Board(4)
    yours = YourGame(board)
    for m in CAREFUL_4.split()[:5]:
        _click_move(board, bl.Move.parse(m))
    for empty in ("", "   \n ", "# only a comment"):
        yours.paste.value = empty
        yours.replay_pasted.click()
        assert board.model.played == 5  # the board's game stays
        assert _text(yours.message) == (
            "The box holds no move: paste the moves of a game first (the board is unchanged)."
        )


def test_a_top_card_with_nowhere_to_go_is_told_the_true_reason():
    b = BoardModel(bl.deal(1))
    movable = set(b.movable_cards())
    stuck = [c[-1] for c in b.game.columns if c and c[-1] not in movable]
    assert stuck  # deal 1 has top cards that cannot move at the start
    for card in stuck:
        assert (
            b.click(f"card {card} 1") == f"{card} cannot move now: no column or foundation takes it"
        )
    buried = b.game.columns[0][0]
    assert b.click(f"card {buried} 2") == (
        f"{buried} cannot move now: only the top card of a column moves"
    )


def test_a_game_not_settled_offers_the_longer_search_in_place():
    start = bl.deal(2, "good_measure")
    first = GameState.from_deal(start).legal_moves()[0]
    r = ReviewModel(start, [first], budget=1)
    r.explain()
    assert r.can_search_longer
    assert r.message == (
        "The solver could not settle any position of your game within 1 position each. "
        "Search longer below settles more: about a minute."
    )
    r.search_longer()  # 50,000,000 positions each: this one is settled at once
    assert not r.can_search_longer and r.explanation is not None
    assert r.explanation.status in ("lost_at", "still_winnable", "never_winnable")


def test_search_longer_is_offered_in_place_and_goes_on_from_the_quick_answer():
    board = Board(bl.deal(2, "good_measure"))
    yours = YourGame(board, budget=1)  # too small to settle anything: not settled at once
    assert yours.longer.layout.display == "none"
    first = board.model.game.legal_moves()[0]
    _click_move(board, first)
    yours.where.click()
    assert _text(yours.message) == (
        "The solver could not settle any position of your game within 1 position each. "
        "Search longer below settles more: about a minute."
    )
    assert yours.longer.layout.display is None and not yours.longer.disabled
    yours.longer.click()  # 50,000,000 positions each: settled at once on this game
    assert yours.review is not None and yours.review.explanation is not None
    assert yours.review.explanation.status in ("lost_at", "still_winnable")
    assert yours.longer.layout.display == "none"
    assert yours.line is not None
    assert not _text(yours.message).startswith("The solver could not")
