"""Tests of bakers_lab.display.widgets, driven through the ipywidgets API (no browser):
buttons are clicked, values set, and the shown values read back."""

from __future__ import annotations

import dataclasses
import html
import re
from html import unescape

import pandas as pd
import pytest

import bakers_lab as bl

pytest.importorskip("ipywidgets")  # an optional dependency (the notebooks extra)

from bakers_lab.display.widgets import Board, BoardModel, Replay, ReplayModel
from bakers_lab.display.widgets._common import on_screen
from bakers_lab.display.widgets.stepper import Stepper

# render.py marks a highlighted card's <g> element with data-highlight="true"
HIGHLIGHTED = re.compile(r'data-card="(\w\w)" data-highlight="true"')


def highlighted(html):
    return HIGHLIGHTED.findall(html)


def button(box, text):
    """The one shown button of a row with this description."""
    found = [b for b in box.children if b.description == on_screen(text)]
    assert len(found) == 1, (text, [b.description for b in box.children])
    return found[0]


def descriptions(box):
    return [b.description for b in box.children]


def press(toggle):
    """A click on a ToggleButton (the play/pause button): its value flips, as in the browser."""
    toggle.value = not toggle.value


@pytest.fixture(scope="module")
def solved1():
    return bl.solve(bl.deal(1))


@pytest.fixture(scope="module")
def survey_rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("survey") / "s"
    return bl.survey("1-3", players="solver,careful", out=out, progress=False)


# -- ReplayModel ---------------------------------------------------------------
def test_model_lines_moved_cards_and_positions(solved1):
    m = ReplayModel.from_source(solved1)
    n = len(solved1.moves)
    first = solved1.moves[0]
    assert len(m) == n
    assert m.line(0) == f"start: 0 of {n} moves"
    assert m.line(1) == f"move 1 of {n}: {first}"
    assert m.moved_card(0) is None and m.moved_card(1) == first.card
    assert m.line(n) == f"move {n} of {n}: {solved1.moves[-1]} — all cards home: won in {n} moves"
    assert m.position(n).is_won and m.position(0).history == ()
    assert highlighted(m.html(1)) == [str(first.card)]
    assert highlighted(m.html(0)) == []


def test_model_of_a_long_game_builds_fast_and_says_patience():
    g = bl.play(31, "careful")  # 190 moves; the last 100 bring no card home
    assert (g.ended, len(g.moves)) == ("patience", 190)
    m = ReplayModel.from_source(g)  # positions are made when asked for
    assert m.outcome == "gave up after 100 moves without a card going home: lost after 190 moves"


def test_model_says_cap_and_no_legal_move():
    g = bl.play(1, "careful", max_moves=20)
    assert g.ended == "cap"
    assert (
        ReplayModel.from_source(g).outcome == f"move cap reached: lost after {len(g.moves)} moves"
    )
    m = ReplayModel(bl.GameState.from_text(dead_end_text()), [])
    assert m.outcome == "no legal move left: lost after 0 moves"


def test_model_refuses_an_outcome_the_moves_contradict(solved1):
    with pytest.raises(ValueError, match=re.escape("the 73 moves win, but the source says")):
        ReplayModel(bl.deal(1), list(solved1.moves), ended="stuck")
    with pytest.raises(ValueError, match=re.escape("says the game was won, but its 1 moves")):
        ReplayModel(bl.deal(1), "AD>F", ended="home")
    with pytest.raises(ValueError, match=re.escape("ended must be one of home, solved, stuck")):
        ReplayModel(bl.deal(1), "AD>F", ended="bored")


# -- Replay: stepping ----------------------------------------------------------
def test_replay_of_a_solve_result_steps_with_the_buttons():
    r = bl.solve(bl.deal(5))
    n = len(r.moves)
    w = Replay(r)
    assert w.line.value == f"start: 0 of {n} moves"
    assert (w.first.disabled, w.back.disabled, w.next.disabled, w.last.disabled) == (
        True,
        True,
        False,
        False,
    )
    assert highlighted(w.board.value) == []
    w.next.click()
    assert w.slider.value == 1
    assert w.line.value == f"move 1 of {n}: {r.moves[0]}"
    assert highlighted(w.board.value) == [str(r.moves[0].card)]
    assert not w.first.disabled and not w.back.disabled
    w.next.click()
    w.back.click()
    assert w.line.value == f"move 1 of {n}: {r.moves[0]}"
    w.last.click()
    assert w.slider.value == n
    assert w.line.value == f"move {n} of {n}: {r.moves[-1]} — all cards home: won in {n} moves"
    assert w.next.disabled and w.last.disabled and not w.back.disabled
    assert highlighted(w.board.value) == [str(r.moves[-1].card)]
    w.back.click()
    assert w.line.value == f"move {n - 1} of {n}: {r.moves[-2]}"
    w.first.click()
    assert w.slider.value == 0 and w.first.disabled and w.back.disabled


def test_play_move_list_and_speed_are_linked_to_the_slider():
    r = bl.solve(bl.deal(5))
    w = Replay(r, layout="7+6")
    assert (w.play.min, w.play.max, w.slider.max) == (0, len(r.moves), len(r.moves))
    w.play.value = 7
    assert (w.slider.value, w.moves.value) == (7, 7)
    assert w.moves.label == f"7. {r.moves[6]}"
    assert w.line.value.startswith(f"move 7 of {len(r.moves)}: {r.moves[6]}")
    w.slider.value = 3
    assert (w.play.value, w.moves.value) == (3, 3)
    w.moves.value = 5  # a click in the move list
    assert (w.slider.value, w.play.value) == (5, 5)
    assert highlighted(w.board.value) == [str(r.moves[4].card)]
    w.speed.value = 150
    assert w.play.interval == 150
    assert 'data-row="1"' in w.board.value  # the 7+6 picture


def test_pause_keeps_the_move_and_first_goes_to_the_start():
    """The ■ of ipywidgets' Play goes back to its start; the stepper's pause stays."""
    r = bl.solve(bl.deal(5))
    n = len(r.moves)
    w = Replay(r)
    assert (w.play_pause.description, w.play_pause.icon, w.play.playing) == ("play", "play", False)
    w.next.click()
    press(w.play_pause)
    assert (w.play.playing, w.play_pause.description, w.play_pause.icon) == (True, "pause", "pause")
    for k in range(2, 10):  # the browser's timer moves the Play widget on
        w.play.value = k
    assert (w.step, w.moves.value) == (9, 9) and w.line.value.startswith(f"move 9 of {n}: ")
    press(w.play_pause)  # pause
    assert (w.play.playing, w.step, w.play.value, w.play_pause.description) == (False, 9, 9, "play")
    press(w.play_pause)  # play on from where it paused
    assert (w.play.playing, w.step, w.play.value) == (True, 9, 9)
    w.next.click()  # a step button takes over: it pauses, then steps
    assert (w.play.playing, w.play_pause.value, w.step, w.play.value) == (False, False, 10, 10)
    press(w.play_pause)
    w.first.click()
    assert (w.play.playing, w.step, w.play.value) == (False, 0, 0)
    assert w.line.value == f"start: 0 of {n} moves" and w.first.disabled
    w.last.click()
    press(w.play_pause)  # at the end: play again from the start
    assert (w.play.playing, w.step, w.play.value) == (True, 0, 0)
    w.play.value = 1
    assert w.step == 1 and w.line.value == f"move 1 of {n}: {r.moves[0]}"


def test_replay_controls_sit_above_the_picture_where_it_cannot_push_them():
    """The board's width follows its columns' heights: nothing to click is beside
    it or under it, and the play/pause button keeps its width as its label changes."""
    w = Replay(bl.solve(bl.deal(5)))
    loss, stepper, line, row = w.children
    assert stepper is w.stepper and line is w.line and row.children == (w.moves, w.board)
    assert loss is w.loss and loss.value == ""  # a won game: nothing said, no room taken
    row, play = stepper.children
    assert row.children == (w.first, w.back, w.play_pause, w.next, w.last, w.slider, w.speed)
    assert play is w.play and w.play.layout.display == "none"  # its own ■ rewinds: not shown
    assert w.play_pause.layout.width == "6.5em"
    assert all(b.layout.width == "auto" for b in (w.first, w.back, w.next, w.last))
    assert w.moves.layout.width == "14em"
    classes = [b._dom_classes for b in (w.first, w.back, w.play_pause, w.next, w.last)]
    assert classes == [("bl-first",), ("bl-back",), ("bl-play-pause",), ("bl-next",), ("bl-last",)]


def test_stepper_plays_by_stops_and_checks_them():
    import ipywidgets as widgets

    s = Stepper(1, 20, noun="event")
    assert (s.slider.description, s.back.tooltip, s.stops) == (
        "event",
        "one event back",
        list(range(1, 21)),
    )
    s.stop_at([1, 5, 12, 20])
    assert (s.play.min, s.play.max, s.play.value) == (1, 4, 1)
    press(s.play_pause)
    s.play.value = 3  # the third stop
    assert s.step == 12
    press(s.play_pause)
    assert (s.play.playing, s.step) == (False, 12)
    s.slider.value = 13  # between two stops: play goes on from the next
    assert s.play.value == 4
    s.toggle()
    assert s.play.playing and s.step == 13
    for bad in ([1, 5], [], [0, 20], [1, 5, 5, 20]):
        with pytest.raises(ValueError, match=r"^steps must ascend from 1 or more to 20, not "):
            s.stop_at(bad)
    with pytest.raises(ValueError, match=r"^high must be an integer at least 3, not 2$"):
        Stepper(3, 2)
    alone = Stepper(0, 0)
    assert alone.play_pause.disabled and alone.play.disabled and alone.next.disabled
    link = s._links[2]
    assert isinstance(link, widgets.widgets.widget_link.Link) and link.comm is not None
    s.close()  # the browser-side link goes with the stepper: nothing left behind
    assert link.comm is None and s.comm is None


# -- Replay: sources -----------------------------------------------------------
def test_replay_of_a_lost_game_record_ends_with_stuck():
    g = bl.play(64, "careful")
    n = len(g.moves)
    w = Replay(g)
    w.last.click()
    assert w.line.value.endswith(f" — no move to a new position: lost after {n} moves")
    assert w.line.value.startswith(f"move {n} of {n}: {on_screen(g.moves[-1])}")


def test_replay_of_unsolvable_and_unresolved_results():
    w = Replay(bl.solve(64))
    assert w.line.value == "start: 0 of 0 moves — proven unsolvable: no sequence of moves wins"
    assert all(b.disabled for b in (w.first, w.back, w.next, w.last, w.play))
    w = Replay(bl.solve(417, max_nodes=1000))
    assert w.line.value == "start: 0 of 0 moves — not settled within the solver's budget"


def test_replay_of_survey_rows(survey_rows):
    expected = {
        (1, "solver"): "all cards home: won in {n} moves",
        (1, "careful"): "no move to a new position: lost after {n} moves",
        (2, "solver"): "all cards home: won in {n} moves",
        (2, "careful"): "gave up after 100 moves without a card going home: lost after {n} moves",
        (3, "solver"): "all cards home: won in {n} moves",
        (3, "careful"): "all cards home: won in {n} moves",
    }
    assert len(survey_rows) == 6
    for _, row in survey_rows.iterrows():
        w = Replay(row)
        n = int(row["moves"])
        assert w.slider.max == n
        w.next.click()
        assert w.line.value == f"move 1 of {n}: {on_screen(row['solution'].split()[0])}"
        w.last.click()
        want = expected[(row["deal"], str(row["player"]))].format(n=n)
        assert w.line.value.endswith(" — " + want)


def test_replay_of_a_tuple_deal_gamestate_or_number():
    w = Replay((bl.deal(1), "AD>F 5S>6S"))
    w.last.click()
    assert w.line.value == "move 2 of 2: 5S>6S — not over: 9 legal moves after 2 moves"
    g = bl.GameState.from_deal(bl.deal(1))
    g.play("AD>F")
    w = Replay((g, [bl.Move.parse("5S>6S")]))
    assert w.slider.max == 1 and len(g.history) == 1  # the GameState is not changed
    assert "after 1 move" in w.board.value and "after 1 moves" not in w.board.value
    w.next.click()
    assert "after 2 moves" in w.board.value
    assert Replay((1, ["AD>F"])).slider.max == 1


def test_mark_flags_a_move_in_the_list_and_the_line():
    w = Replay((bl.deal(1), "AD>F 5S>6S 9S>TC"), mark=1)
    assert w.moves.options[2] == ("2. 5S>6S ⚑", 2)
    w.slider.value = 2
    assert w.line.value == "<b>move 2 of 3: 5S>6S ⚑ marked</b>"
    w.slider.value = 3
    assert "⚑" not in w.line.value
    m = ReplayModel(bl.deal(1), "AD>F 5S>6S", mark=0, mark_note="the move that lost the game")
    assert m.line(1) == "move 1 of 2: AD>F ⚑ the move that lost the game"


def test_a_lost_game_marks_the_move_that_lost_it():
    game = bl.play(4, "careful")  # lost; move 14 (3D>4H) lost the deal, which can be won
    w = Replay(game)
    e = w.explanation
    assert e is not None and (e.status, e.index) == ("lost_at", 13)
    assert w.model.mark == 13 and w.moves.options[14] == ("14. 3D>4H ⚑", 14)
    w.slider.value = 14
    assert w.line.value == (
        f"<b>move 14 of {len(game.moves)}: 3D>4H ⚑ this move lost the game; "
        f"{e.winning_line[0]} instead still wins</b>"
    )
    assert w.loss.value == f"Where it was lost: {html.escape(e.summary())}"
    # a won game, a given mark, or find_loss=False: nothing explained
    assert Replay(bl.solve(1)).explanation is None
    assert Replay(game, mark=2).model.mark == 2
    quiet = Replay(game, find_loss=False)
    assert quiet.explanation is None and quiet.model.mark is None and quiet.loss.value == ""
    never = Replay(bl.play(64, "careful"))
    assert never.explanation is not None and never.explanation.status == "never_winnable"
    assert never.model.mark is None and "could never be won" in never.loss.value
    with pytest.raises(ValueError, match="find_loss"):
        Replay(game, find_loss="yes")  # type: ignore[arg-type]


def test_replay_errors_name_what_is_allowed(solved1):
    with pytest.raises(TypeError, match=re.escape("Replay takes a SolveResult, a GameRecord, a")):
        Replay(5)
    with pytest.raises(
        bl.IllegalMoveError,
        match=re.escape("illegal move KS>F: KS is not at the top of its column (move 2 of 2)"),
    ):
        Replay((bl.deal(1), "AD>F KS>F"))
    with pytest.raises(bl.MoveError, match=re.escape("not a move: 'AD-F'")):
        Replay((bl.deal(1), "AD-F"))
    with pytest.raises(ValueError, match=re.escape("a tuple source is (position, moves)")):
        Replay((bl.deal(1), "AD>F", "x"))
    with pytest.raises(TypeError, match=re.escape("moves must be move texts separated by spaces")):
        Replay((bl.deal(1), 5))
    with pytest.raises(TypeError, match=re.escape("a Deal, a GameState or a game number")):
        Replay(("deal one", "AD>F"))
    start = bl.GameState.from_text(bl.GameState.from_deal(bl.deal(1)).to_text())
    # a result keeps the position it started from: a board without a number replays
    no_number = bl.solve(start)
    assert Replay(no_number).slider.max == len(no_number.moves)
    with pytest.raises(ValueError, match=re.escape("of a position without a game number")):
        Replay(dataclasses.replace(no_number, start=None))
    in_progress = bl.GameState.from_deal(bl.deal(1)).play_all("AD>F")
    result = bl.solve(in_progress)
    assert Replay(result).slider.max == len(result.moves)  # from after AD>F, not the deal
    assert Replay((in_progress, result.moves)).slider.max == len(result.moves)
    with pytest.raises(ValueError, match=re.escape("this one has no solution")):
        Replay(pd.Series({"deal": 1, "variant": "bakers_dozen"}))
    with pytest.raises(ValueError, match=re.escape("mark is the index of a move in the list")):
        Replay(solved1, mark=len(solved1.moves))
    with pytest.raises(ValueError, match=re.escape("unknown layout 'diagonal'")):
        Replay(solved1, layout="diagonal")


# -- Board ----------------------------------------------------------------------
def dead_end_text():
    """A board with no legal move: tops K K K K J J J J 9 9 9 9 7, Aces buried."""
    tops = ["KC", "KS", "KH", "KD", "JC", "JS", "JH", "JD", "9C", "9S", "9H", "9D", "7C"]
    rest = [r + s for s in "CSHD" for r in "A23456789TJQK" if r + s not in tops]
    return "\n".join(" ".join([*rest[3 * i : 3 * i + 3], t]) for i, t in enumerate(tops))


def test_board_plays_deal_1_to_a_win_by_clicks(solved1):
    w = Board(bl.deal(1))
    assert w.status.value == "0 moves played; 11 legal moves: pick a card"
    assert w.undo.disabled and w.restart.disabled and not w.ask.disabled
    assert descriptions(w.targets) == []
    for k, move in enumerate(solved1.moves, start=1):
        button(w.cards, str(move.card)).click()
        assert w.model.picked == move.card
        button(w.targets, str(move)).click()
        assert len(w.model.game.history) == k
    n = len(solved1.moves)
    assert w.status.value == f"<b>Won: all cards home in {n} moves</b>"
    assert w.model.game.is_won
    assert descriptions(w.cards) == descriptions(w.targets) == descriptions(w.legal) == []
    assert w.ask.disabled
    assert not w.undo.disabled and not w.restart.disabled


def test_board_pick_shows_targets_and_highlights_the_card():
    w = Board(1, layout="7+6")
    assert descriptions(w.cards) == ["AD", "5S", "9S", "6S", "10C", "5H", "5D", "9H"]
    button(w.cards, "AD").click()
    assert descriptions(w.targets) == ["AD>F", "AD>2D"]
    assert button(w.cards, "AD").button_style == "info"
    assert highlighted(w.board.value) == ["AD"]
    assert w.status.value == "AD picked: choose where it goes"
    button(w.cards, "AD").click()  # a second click drops the pick
    assert descriptions(w.targets) == [] and w.model.picked is None


def test_board_legal_move_list_undo_and_restart():
    w = Board(bl.deal(1))
    assert descriptions(w.legal)[:4] == ["AD>F", "AD>2D", "5S>6S", "9S>10C"]
    button(w.legal, "AD>F").click()
    assert [str(m) for m in w.model.game.history] == ["AD>F"]
    assert w.status.value.startswith("1 move played, last AD>F; ")
    assert highlighted(w.board.value) == ["AD"]  # the last moved card
    assert not w.undo.disabled and not w.restart.disabled
    w.undo.click()
    assert w.model.played == 0 and w.undo.disabled and w.restart.disabled
    for text in ("AD>F", "5S>6S", "9S>TC"):
        button(w.legal, text).click()
    w.undo.click()
    assert [str(mv) for mv in w.model.game.history] == ["AD>F", "5S>6S"]
    w.restart.click()
    assert w.model.game.history == () and w.restart.disabled
    assert w.model.game.key() == bl.GameState.from_deal(bl.deal(1)).key()


def test_can_i_still_win_yes_on_deal_1():
    w = Board(1)
    w.ask.click()
    match = re.fullmatch(r"Yes: a winning line exists; next move (\S+)", unescape(w.answer.value))
    assert match is not None
    move = match.group(1)
    assert bl.GameState.from_deal(bl.deal(1)).is_legal(move)
    assert highlighted(w.board.value) == [move.split(">")[0]]
    assert button(w.legal, move).button_style == "info"
    button(w.legal, move).click()  # the answer holds until the position changes
    assert w.answer.value == ""


def test_can_i_still_win_no_on_deal_64():
    w = Board(64)
    w.ask.click()
    assert w.answer.value == "No: proven lost from here"


def test_can_i_still_win_not_sure_with_a_small_budget():
    w = Board(417, budget=1000)
    w.ask.click()
    assert w.answer.value == "Not sure within the budget (1,000 nodes)"


def test_board_says_lost_when_no_move_is_left():
    w = Board(bl.GameState.from_text(dead_end_text()))
    assert w.status.value == "<b>Lost: no legal move left after 0 moves</b>"
    assert w.ask.disabled and descriptions(w.cards) == []


def test_board_model_and_errors():
    m = BoardModel(1)
    with pytest.raises(ValueError, match=re.escape("KS cannot move now; the cards that can: AD")):
        m.pick("KS")
    with pytest.raises(IndexError, match="nothing to undo"):
        m.undo()
    with pytest.raises(bl.IllegalMoveError, match=re.escape("illegal move KS>F")):
        m.play("KS>F")
    with pytest.raises(ValueError, match=re.escape("budget must be an integer from 1 to")):
        Board(1, budget=0)
    with pytest.raises(TypeError, match=re.escape("a Deal, a GameState or a game number")):
        Board("deal one")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=re.escape("variant= is only for game numbers")):
        Board(bl.deal(1), variant="good_measure")
    assert Board(2, variant="good_measure").model.game.rules.name == "good_measure"
