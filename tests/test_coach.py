"""Where was a game lost, and what to play: bl.explain, bl.hint and their commands.

Each "lost_at" answer is checked from outside explain's own code path: the
winning line is replayed by the rule engine from the position before the move,
and the position after the move is solved again and must be proven unsolvable."""

import re
from pathlib import Path

import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.cli import main
from bakers_lab.model.detours import detours
from bakers_lab.study.coach import MAX_OPEN_PROBES, position_after

DATA = Path(__file__).resolve().parent.parent / "data"
BUDGET = 1_000_000


@pytest.fixture(scope="module")
def lost_games():
    """Lost games of careful and lookahead-2 on deals the solver won (shipped rows)."""
    solver = bl.read_survey(DATA / "bakers_dozen_1-32000")
    solved = set(solver.loc[solver.outcome == "won", "deal"])
    t = bl.read_survey(DATA / "bakers_dozen_players_1-32000")
    lost = t[t.player.isin(["careful", "lookahead-2"]) & (t.outcome == "lost")]
    return lost[lost.deal.isin(solved)]


def check_lost_at(e: bl.Explanation) -> None:
    """The move found lost the game: before it solved (replayed), after it proven lost."""
    assert e.status == "lost_at" and e.index is not None
    assert e.move == e.moves[e.index]
    before = position_after(e.start, list(e.moves[: e.index]))
    assert before.copy().play_all(list(e.winning_line)).is_won
    assert detours(before, e.winning_line) == []  # a line a person can follow
    assert not before.copy().play_all([e.move]).is_won
    after = position_after(e.start, list(e.moves[: e.index + 1]))
    assert bl.solve(after, max_nodes=BUDGET).outcome == "unsolvable"
    assert e.winning_line[0] != e.move


@pytest.mark.parametrize("player", ["careful", "lookahead-2"])
def test_the_move_found_lost_the_game(lost_games, player):
    rows = lost_games[lost_games.player == player].head(7)  # 6 settled of each player's 7
    settled = 0
    for _, row in rows.iterrows():
        e = bl.explain(row, max_nodes=BUDGET, with_par=False)  # (par: the test below)
        assert e.deal == row.deal and len(e.moves) == len(row.solution.split())
        if e.status == "lost_at":
            check_lost_at(e)
            settled += 1
        elif e.status == "still_winnable":  # the player gave up, or avoided a position again
            assert position_after(row).play_all(list(e.winning_line)).is_won
            assert detours(position_after(row), e.winning_line) == []
        else:
            assert e.status == "not_settled"
    assert settled >= 5, settled


def test_the_answer_in_words():
    game = bl.play(4, "careful")
    e = bl.explain(game)
    assert (e.status, e.index, str(e.move)) == ("lost_at", 13, "3D>4H")
    assert e.par is not None and e.par.par == 65 == len(e.par.moves)  # game 4's par
    assert bl.GameState.from_deal(bl.deal(4)).play_all(list(e.par.moves)).is_won
    assert e.summary() == (
        f"move 14 of {len(game.moves)}, 3D>4H, lost the game; {e.winning_line[0]} instead "
        f"still wins (a winning line of {len(e.winning_line)} moves); from the start, par is "
        f"65 moves"
    )
    quick = bl.explain(game, with_par=False)
    assert (
        quick == e
        and quick.par is None
        and quick.summary().endswith(f"(a winning line of {len(e.winning_line)} moves)")
    )
    with pytest.raises(ValueError, match="with_par must be True or False"):
        bl.explain(game, with_par=1)  # type: ignore[arg-type]
    assert repr(e) == (
        "Explanation(status='lost_at', index=13, move=Move.parse('3D>4H'), deal=4, "
        "variant='bakers_dozen')"
    )
    assert e == bl.explain(4, game.solution)  # the same from the number and the text
    assert "<svg" in e._repr_html_() or "<div" in e._repr_html_()


def test_never_winnable_and_still_winnable():
    e = bl.explain(64, bl.play(64, "careful").moves)
    assert (e.status, e.index, e.move, e.winning_line) == ("never_winnable", None, None, ())
    assert e.summary() == "game 64 could never be won: the solver proved it unsolvable"
    assert e.solves == 2  # the last position, then the start

    line = bl.solve(1).moves
    e = bl.explain(1, line[:10])
    assert e.status == "still_winnable" and e.index is None and e.solves == 1
    assert position_after(1, line[:10]).play_all(list(e.winning_line)).is_won
    assert e.summary().startswith("the game can still be won after 10 moves played: ")


def test_not_settled_when_the_budget_is_too_small():
    game = bl.play(7, "careful")
    e = bl.explain(game, max_nodes=1)
    assert e.status == "not_settled" and e.index is None and e.move is None
    assert e.solves == MAX_OPEN_PROBES
    assert e.summary() == (
        "not settled: the solver decided none of the positions within 1 node each"
    )


def test_bad_games_are_refused_naming_the_move():
    with pytest.raises(bl.ExplainError, match=re.escape(
        "move 2 of 3, KS>F, is illegal there: KS is not at the top of its column"
    )):  # fmt: skip
        bl.explain(1, "AD>F KS>F 5S>6D")
    with pytest.raises(bl.ExplainError, match=re.escape("move 1 of 1: not a move: 'xx'")):
        bl.explain(1, "xx")
    won = bl.solve(1).moves
    with pytest.raises(bl.ExplainError, match=f"these {len(won)} moves win the game"):
        bl.explain(1, won)
    with pytest.raises(TypeError, match="moves must be move texts"):
        bl.explain(1, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="without moves"):
        bl.explain(1)
    with pytest.raises(ValueError, match="variant= is only for game numbers"):
        bl.explain(bl.deal(1), "", variant="good_measure")
    with pytest.raises(ValueError, match="max_nodes"):
        bl.explain(1, "", max_nodes=0)


def test_hint_says_what_to_play():
    h = bl.hint(1)
    assert h.status == "move" and h.move == h.line[0] and h.move == bl.solve(1).moves[0]
    assert h.text == f"play {h.move} (a winning line of {len(h.line)} moves)"
    assert repr(h) == f"Hint(status='move', move=Move.parse('{h.move}'))"
    assert bl.hint(64).text == "no winning line left (the solver proved it)"
    won = position_after(1, bl.solve(1).moves)
    assert (bl.hint(won).status, bl.hint(won).text) == (
        "won",
        "the game is won: all cards are home",
    )
    assert bl.hint(7, max_nodes=1).text == "not settled within the budget (1 node)"
    assert bl.hint(5, variant="good_measure").status == "move"


def test_explain_command(tmp_path, capsys):
    moves = tmp_path / "moves.txt"
    moves.write_text("# careful's game 4\n" + bl.play(4, "careful").solution + "\n")
    assert main(["explain", "4", "--moves", str(moves)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bakers_dozen game 4: move 14 of ")
    assert out[1].startswith("winning line before move 14: ")
    assert main(["explain", "4", "--moves", str(moves), "--json"]) == 0
    assert '"status": "lost_at", "index": 13, "move": "3D>4H"' in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "text", "message"),
    [
        (
            ["explain", "1"],
            "AD>F KS>F",
            "move 2 of 2, KS>F, is illegal there: KS is not at the top",
        ),
        (["explain", "1"], None, "these 73 moves win the game: there is no losing move to find"),
        (["explain", "1", "--variant", "nope"], "", "unknown variant"),
        (["hint", "1"], "AD>F AD>F", "move 2 of 2, AD>F, is illegal there"),
        (["pick", "--difficulty", "hardest"], None, "unknown difficulty 'hardest'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, text, message):
    moves = tmp_path / "moves.txt"
    moves.write_text(bl.solve(1).solution if text is None else text)
    argv = [*args, "--moves", str(moves)] if args[0] in ("explain", "hint") else args
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bakers-lab: error: ") and message in err


def test_hint_command(tmp_path, capsys):
    moves = tmp_path / "moves.txt"
    moves.write_text("AD>F")
    assert main(["hint", "1", "--moves", str(moves)]) == 0
    assert capsys.readouterr().out.startswith("play ")


def test_a_survey_rows_variant_must_be_a_name():
    row = pd.Series({"deal": 4, "variant": None, "solution": bl.play(4, "careful").solution})
    for variant, shown in (
        (None, "None (NoneType)"),
        (float("nan"), "nan (float)"),
        ("", "'' (str)"),
    ):
        with pytest.raises(ValueError) as info:
            bl.explain(pd.Series({**row.to_dict(), "variant": variant}))
        assert str(info.value) == (
            f"a survey row's variant is the name of its rules (bakers_dozen, ...), not {shown}"
        )


def test_the_move_file_help_says_what_the_reader_takes(capsys):
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert (
        "separated by spaces, commas, semicolons (;) or new lines, in any case, 10 or T, suit "
        "letters or symbols; # starts a comment to the end of the line, and a move number "
        "standing alone, a number with a dot or a parenthesis such as 12. or 12), is skipped"
    ) in help_text
    # and the reader does what it says
    from bakers_lab.model.positions import move_list

    assert move_list("1. AD>F; 2) 5S>6D,7C>8H\n12) 10h>jh # done") == [
        "AD>F", "5S>6D", "7C>8H", "10h>jh"]  # fmt: skip
