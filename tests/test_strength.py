"""bl.strength on synthetic records whose answers the shipped tables give exactly."""

from __future__ import annotations

import functools
import importlib
import math
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import binomtest

import bakers_lab as bl
from bakers_lab.cli import main
from bakers_lab.study.strength import StrengthError, strength


@functools.cache
def _shipped(table: str, player: str) -> dict[int, str]:
    """``deal -> outcome`` of one player of a shipped survey (read independently)."""
    t = bl.read_survey(f"data/{table}")
    t = t[t["player"].astype(str) == player]
    return {int(d): str(o) for d, o in zip(t["deal"], t["outcome"], strict=True)}


def _careful() -> dict[int, str]:
    return _shipped("bakers_dozen_players_1-32000", "careful")


def _games(deals: list[int], won: list[bool]) -> pd.DataFrame:
    return pd.DataFrame({"deal": deals, "variant": "bakers_dozen", "won": won})


def test_a_person_who_won_what_careful_won_sits_at_the_dials_lowest_settings() -> None:
    deals = list(range(1, 61))
    won = [_careful()[d] == "won" for d in deals]
    s = strength(_games(deals, won), progress=False, explain_moves=False)
    assert s.played_now == 0 and s.games == 60
    rates = s.rates.set_index("player")
    assert rates.loc["you", "won"] == rates.loc["careful", "won"] == sum(won)
    assert rates.loc["you", "n"] == 60
    assert (rates.loc["you", "ci_low"], rates.loc["you", "ci_high"]) == bl.wilson_interval(
        sum(won), 60
    )
    careful = s.paired.set_index("player").loc["careful"]
    assert (careful["you_only"], careful["b_only"], careful["p_value"]) == (0, 0, 1.0)
    dials = s.dials.set_index("family")
    assert dials.loc["search", "where"] == dials.loc["undo", "where"] == "at"
    assert dials.loc["search", "estimate"] == 1.0 and dials.loc["undo", "estimate"] == 0.0
    assert dials.loc["search", "settings"][:2] == (1, 3)
    text = s.summary()
    assert "You play like search-1 (95 %: at most " in text and " or undo-0 (95 %: at most " in text
    # every game careful lost on these deals is solvable (none of 1-60 is proven lost)
    lost = [d for d, w in zip(deals, won, strict=True) if not w]
    assert s.winnable["deal"].tolist() == lost
    assert s.winnable["difficulty"].tolist() == [bl.difficulty(d).tag for d in lost]


def test_a_person_who_won_every_solvable_deal_is_above_every_setting() -> None:
    solver = _shipped("bakers_dozen_1-32000", "solver")
    # undo-1000000 loses 1650, search-1000000 1867: each dial's strongest setting loses
    # one of these solvable deals, and the person wins them all
    deals = list(range(1621, 1651)) + list(range(1851, 1881))
    won = [solver[d] == "won" for d in deals]
    s = strength(_games(deals, won), progress=False)
    dials = s.dials.set_index("family")
    assert dials.loc["search", "where"] == dials.loc["undo", "where"] == "above"
    assert dials.loc["search", "settings"][-1] == 1_000_000
    assert dials.loc["undo", "settings"][-1] == 1_000_000
    assert s.winnable.empty
    text = s.summary()
    # the strongest bots by the names they are typed as (issue 52: "search-10,000")
    assert "more than search-1000000, the strongest setting played" in text
    assert "more than undo-1000000, the strongest setting played" in text
    assert f"you won {sum(won)} of 60" in text


def test_pairing_counts_and_mcnemar_match_the_shipped_games() -> None:
    la2 = _shipped("bakers_dozen_players_1-32000", "lookahead-2")
    deals = list(range(101, 161))
    won = [d <= 130 for d in deals]
    s = strength(_games(deals, won), progress=False, explain_moves=False)
    row = s.paired.set_index("player").loc["lookahead-2"]
    you_only = sum(1 for d in deals if d <= 130 and la2[d] == "lost")
    b_only = sum(1 for d in deals if d > 130 and la2[d] == "won")
    assert (row["you_only"], row["b_only"], row["n"]) == (you_only, b_only, 60)
    assert row["diff"] == pytest.approx((you_only - b_only) / 60)
    p = binomtest(min(you_only, b_only), you_only + b_only, 0.5).pvalue
    assert row["p_value"] == pytest.approx(p)
    assert row["b_rate"] == sum(la2[d] == "won" for d in deals) / 60


def test_a_deal_played_twice_counts_twice_against_the_same_bot_game() -> None:
    c = _careful()
    s = strength([(5, "bakers_dozen", True), (5, "bakers_dozen", False)], progress=False,
                 explain_moves=False)  # fmt: skip
    row = s.paired.set_index("player").loc["careful"]
    # paired counts games as rates does: n = 2 games on 1 deal (issue 51: paired said deals)
    rates = s.rates.set_index("player").loc["careful"]
    assert (row["n"], rates["n"], rates["deals"]) == (2, 2, 1)
    assert "deals" not in s.paired.columns
    assert (row["you_only"], row["b_only"]) == ((1, 0) if c[5] == "lost" else (0, 1))


def test_the_losing_move_of_a_game_with_its_moves() -> None:
    t = bl.read_survey("data/bakers_dozen_players_1-32000")
    t = t[(t["player"].astype(str) == "careful") & (t["deal"] <= 40)]
    solvable = _shipped("bakers_dozen_1-32000", "solver")
    row = next(
        r for _, r in t.iterrows() if r["outcome"] == "lost" and solvable[r["deal"]] == "won"
    )
    deal, moves = int(row["deal"]), str(row["solution"])
    games = pd.DataFrame({"deal": [deal], "variant": ["bakers_dozen"], "won": [False],
                          "moves": [moves]})  # fmt: skip
    s = strength(games, progress=False)
    e = bl.explain(deal, moves, with_par=False)
    got = s.winnable.iloc[0]
    assert e.status == "lost_at" and e.index is not None
    assert (got["deal"], got["lost_at"], got["move"]) == (deal, e.index, str(e.move))
    assert f"lost at move {e.index + 1}, {e.move}" in s.summary()


def test_off_table_deals_are_played_once_then_read_from_the_cache(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    deals = [123_456_789_012_345, 987_654_321_098_765, 555_555_555_555_555]
    players = ("careful", "search-10", "search-100", "undo-1", "undo-10")
    games = _games(deals, [True, False, True])
    first = strength(games, cache=tmp_path, players=players, n_jobs=1, progress=False)  # type: ignore[arg-type]
    assert first.played_now == 3
    careful = first.rates.set_index("player").loc["careful", "won"]
    assert careful == sum(bl.play(bl.deal(d), "careful").won for d in deals)
    assert set(first.dials["family"]) == {"search", "undo"}

    def no_play(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played again")

    monkeypatch.setattr(importlib.import_module("bakers_lab.study.survey"), "_run_chunk", no_play)
    second = strength(games, cache=tmp_path, players=players, n_jobs=1, progress=False)  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(first.rates, second.rates)
    pd.testing.assert_frame_equal(first.paired, second.paired)
    pd.testing.assert_frame_equal(first.dials, second.dials)

    # one more deal: only it is played, the three others are read back
    monkeypatch.undo()
    survey_module = importlib.import_module("bakers_lab.study.survey")
    real, played = survey_module._run_chunk, []

    def counted(out: str, index: int, numbers: list[int], *rest: object) -> object:
        played.extend(numbers)
        return real(out, index, numbers, *rest)

    monkeypatch.setattr(survey_module, "_run_chunk", counted)
    more = _games([*deals, 10**16 + 7], [True, False, True, False])
    third = strength(more, cache=tmp_path, players=players, n_jobs=1, progress=False)  # type: ignore[arg-type]
    assert played == [10**16 + 7]
    assert third.rates.set_index("player").loc["careful", "n"] == 4


def test_a_lost_game_careful_wins_needs_undo_0_and_search_1(tmp_path: object) -> None:
    # "Smallest undo-N that wins: 1" for a deal careful wins: careful counted on the
    # search dial only (issue 52); it plays both dials' lowest settings
    deal = next(d for d in range(10**16, 10**16 + 50) if bl.play(bl.deal(d), "careful").won)
    s = strength(_games([deal], [False]), cache=tmp_path, players=("careful", "undo-1"),  # type: ignore[arg-type]
                 n_jobs=1, progress=False, explain_moves=False)  # fmt: skip
    row = s.winnable.set_index("deal").loc[deal]
    assert (row["search_effort"], row["undo_effort"]) == (1, 0)


def test_the_readers_table_is_taken() -> None:
    t = pd.DataFrame({"player": "ann", "game_number": [1, 2], "variant": "bakers_dozen",
                      "outcome": ["won", "lost"]})  # fmt: skip
    s = strength(t, progress=False, explain_moves=False)
    assert s.rates.iloc[0][["player", "won", "n"]].tolist() == ["you", 1, 2]


@pytest.mark.parametrize(
    ("games", "words"),
    [
        ("1,2,3", "games must be a DataFrame with columns deal, variant, won"),
        ([], "games holds no game"),
        ([(1, "bakers_dozen")], "games item 1 must be (deal, variant, won)"),
        ([(1, "klondike", True)], "games row 1: variant must be one of bakers_dozen"),
        ([(0, "bakers_dozen", True)], "games row 1: deal must be a PySolFC game number, not 0"),
        ([(1, "bakers_dozen", "maybe")], "games row 1: won must be True or False"),
        (pd.DataFrame({"deal": [1], "variant": ["bakers_dozen"]}), "games lacks a won column"),
        (pd.DataFrame({"player": ["a", "b"], "deal": [1, 2], "won": [True, False]}),
         "games holds 2 players (a, b); keep one player's rows"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_in_one_line(games: object, words: str) -> None:
    with pytest.raises(StrengthError) as info:
        strength(games, progress=False)  # type: ignore[arg-type, unused-ignore]
    assert words in str(info.value) and "\n" not in str(info.value)


def test_bad_players_are_refused_in_one_line() -> None:
    with pytest.raises(StrengthError, match=r"^players: unknown player 'grandmaster'"):
        strength([(1, "bakers_dozen", True)], players=["grandmaster"], progress=False)


def test_cli(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    good = f"{tmp_path}/games.csv"
    with open(good, "w") as f:
        f.write("deal,variant,won\n1,bakers_dozen,true\n2,bakers_dozen,lost\n3,bakers_dozen,won\n")
    assert main(["strength", "--games", good, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Baker's Dozen: you won 2 of 3")
    bad = f"{tmp_path}/bad.csv"
    with open(bad, "w") as f:
        f.write("deal,variant,won\n1,bakers_dozen,perhaps\n")
    assert main(["strength", "--games", bad, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "games row 1: won must be True or False" in err
    assert main(["strength", "--games", f"{tmp_path}/none.csv"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["strength", "--games", good, "--player", "ann"]) == 2
    assert "--player is for --pysol-stats" in capsys.readouterr().err
    # another script's digit is no game number, as on the command line (issue 51: "٣"
    # was read as 3 where "²" was refused in int()'s words)
    for odd in ("\u0663", "\u00b2"):
        other = f"{tmp_path}/odd.csv"
        with open(other, "w", encoding="utf-8") as f:
            f.write(f"deal,variant,won\n{odd},bakers_dozen,true\n")
        assert main(["strength", "--games", other, "--quiet"]) == 2
        assert capsys.readouterr().err.splitlines() == [
            f"bakers-lab: error: games row 1: deal must be a PySolFC game number, not {odd!r} (str)"
        ]


def test_html_shows_the_summary_and_tables() -> None:
    s = strength([(1, "bakers_dozen", True), (2, "bakers_dozen", False)], progress=False)
    page = s._repr_html_()
    assert "you won 1 of 2" in page and "Win rates on your deals" in page
    assert math.isclose(s.rates.iloc[0]["rate"], 0.5)


def test_one_deal_and_one_lost_game_are_said_in_the_singular() -> None:
    solver = _shipped("bakers_dozen_1-32000", "solver")
    lost = next(d for d in range(1, 200) if solver[d] == "lost")  # the solver proves it lost
    one = strength([(4, "bakers_dozen", False)], progress=False, explain_moves=False).summary()
    lines = one.splitlines()
    assert lines[0] == "Baker's Dozen: you won 0 of 1 (0 %, 95 %: 0–79 %)."
    assert lines[1].startswith("On the same deal the bots win: random ")
    assert lines[-1] == "Your lost game could have been won: game 4 (" + one.split("game 4 (")[1]
    assert "1 deals" not in one and "1 games" not in one
    none = strength([(lost, "bakers_dozen", False)], progress=False).summary()
    assert none.splitlines()[-1] == "The solver finds no win of your lost game."
    two = strength([(lost, "bakers_dozen", False)] * 2, progress=False).summary()
    # one deal played twice: twice by every bot too, and said so
    assert two.splitlines()[1].startswith(
        "On the same deal, each as often as you played it (2 games), the bots win: "
    )
    assert strength([(lost, "bakers_dozen", False)] * 2, progress=False).rates.iloc[0][
        ["n", "deals"]
    ].tolist() == [2, 1]
    assert two.splitlines()[-1] == "The solver finds no win of any of your 2 lost games."


def test_a_person_below_every_dial_is_told_so_in_one_sentence() -> None:
    careful = _careful()
    deals = [d for d in range(1, 40) if careful[d] == "won"][:2]
    s = strength([(d, "bakers_dozen", False) for d in deals], progress=False, explain_moves=False)
    assert set(s.dials["where"]) == {"below"}
    assert s.summary().splitlines()[2] == (
        "You win less often than careful, the lowest setting of every dial."
    )


def test_games_an_older_version_kept_are_not_read_as_todays(tmp_path) -> None:
    """The cache keeps each version's games apart (``GAMES_VERSION``): games played
    into it are read back, but the same folder moved to an older version's place is
    never read as today's, so the deal would be played again."""
    from bakers_lab.solve.players import GAMES_VERSION
    from bakers_lab.study.strength import unplayed

    games = [(10**15 + 1, "bakers_dozen", True)]
    bots = ("careful",)
    strength(games, cache=tmp_path, players=bots, progress=False, n_jobs=1)
    kept = tmp_path / f"games-{GAMES_VERSION}"
    assert [p.name for p in kept.glob("*/_survey.json")] == ["_survey.json"]
    assert unplayed(games, cache=tmp_path, players=bots) == []
    kept.rename(tmp_path / f"games-{GAMES_VERSION - 1}")
    assert unplayed(games, cache=tmp_path, players=bots) == [("bakers_dozen", 10**15 + 1)]


@pytest.mark.parametrize("damage", ["null", "[]", "{}", "{not json"])
def test_a_damaged_cache_folder_is_played_again_with_a_line_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    # a _survey.json of null or [] made every later strength raise AttributeError, and {}
    # said "choose another --out", an option never given (issue 51)
    deals, players = [10**16 + 3], ("careful", "undo-1")
    games = _games(deals, [True])
    first = strength(games, cache=tmp_path, players=players, n_jobs=1, progress=False)
    [folder] = [p.parent for p in tmp_path.glob("*/*/_survey.json")]
    (folder / "_survey.json").write_text(damage)
    again = strength(games, cache=tmp_path, players=players, n_jobs=1, progress=False)
    assert again.played_now == 1
    pd.testing.assert_frame_equal(first.rates, again.rates)
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{folder} was damaged (its _survey.json is not a survey's): removed; its "
                   f"games are played again"]  # fmt: skip
    strength(games, cache=tmp_path, players=players, n_jobs=1, progress=False)
    assert capsys.readouterr().err == ""  # rebuilt: read back, nothing said


def test_an_installed_wheel_reads_the_shipped_games_as_a_clone_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # in a wheel, strength played deals 1 and 4 again on the spot and listed fewer bots
    # (no lookahead-4) than a clone for the same games (issue 51)
    from bakers_lab.files.datadir import ENV, shipped_table

    games = _games([1, 4], [True, False])
    monkeypatch.delenv(ENV, raising=False)
    clone = strength(games, cache=tmp_path, n_jobs=1, progress=False)
    monkeypatch.setenv(ENV, str(shipped_table()))  # what find_data finds in a wheel
    wheel = strength(games, cache=tmp_path, n_jobs=1, progress=False)
    assert clone.played_now == wheel.played_now == 0
    assert "lookahead-4" in set(wheel.rates["player"])
    pd.testing.assert_frame_equal(clone.rates, wheel.rates)
    pd.testing.assert_frame_equal(clone.paired, wheel.paired)
