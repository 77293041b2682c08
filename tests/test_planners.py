"""The players who plan, search-N and undo-N: their lowest setting is careful, every
game replays on the rule engine, a stronger setting wins more, and bad names or
records are refused in one line."""

import json
import re

import numpy as np
import pytest
from inprocess import run_cli

import bakers_lab as bl
from bakers_lab.solve.players import MAX_DECISIONS, MAX_DIAL, Player, PlayerError


def replay(deal: bl.Deal, game: bl.GameRecord) -> bl.GameState:
    """Play the recorded moves on a fresh GameState (the rule engine, not the core)."""
    g = bl.GameState.from_deal(deal)
    for move in game.moves:
        g.play(move)  # raises IllegalMoveError for a move the rules refuse
    assert len(g.history) == len(game.moves)
    return g


def test_lowest_settings_play_carefuls_games():
    for n in range(1, 201):
        c = bl.play(n, "careful")
        for name in ("search-1", "undo-0"):
            g = bl.play(n, name)
            assert (g.moves, g.outcome, g.ended, g.nodes) == (c.moves, c.outcome, c.ended, c.nodes)
            assert g.takebacks == 0
    # with tips switched off too, and under other rules
    for n in (3, 8):
        c = bl.play(n, "careful-no_traps", variant="good_measure")
        assert bl.play(n, "search-1-no_traps", variant="good_measure").moves == c.moves
        assert bl.play(n, "undo-0-no_traps", variant="good_measure").moves == c.moves


@pytest.mark.parametrize("variant", bl.variant_names())
def test_games_of_every_preset_replay_to_their_outcome(variant):
    for n in (1, 2, 3):
        d = bl.deal(n, variant)
        for name in ("search-300", "undo-50"):
            game = bl.play(d, name)
            assert game.verified
            g = replay(d, game)
            assert g.is_won == game.won == (game.ended == "home")
            assert game.decisions <= MAX_DECISIONS
            assert 0 <= game.takebacks <= (50 if name == "undo-50" else 0)


def test_a_won_search_game_is_legal_move_by_move():
    d = bl.deal(2)
    game = bl.play(d, "search-1000")
    assert game.won and game.player == "search-1000"
    g = bl.GameState.from_deal(d)
    for move in game.moves:
        assert move in g.legal_moves()
        g.play(move)
    assert g.is_won


def test_games_are_the_same_every_time():
    for name in ("search-200", "undo-100"):
        a, b = bl.play(11, name), bl.play(11, name)
        assert (a.moves, a.nodes, a.takebacks) == (b.moves, b.nodes, b.takebacks)


def test_the_dial_makes_players_stronger():
    deals = range(1, 61)
    wins = {
        name: sum(bl.play(n, name).won for n in deals)
        for name in ("careful", "search-100", "search-3000", "undo-100", "undo-10000")
    }
    assert wins["careful"] < wins["search-100"] < wins["search-3000"]
    assert wins["careful"] < wins["undo-100"] < wins["undo-10000"]
    assert wins["search-3000"] >= 55 and wins["undo-10000"] >= 50, wins


def test_undo_takes_back_at_most_its_dial():
    games = [bl.play(n, "undo-20") for n in range(1, 31)]
    assert max(g.takebacks for g in games) == 20
    assert all(g.takebacks <= 20 for g in games)
    # a lost game that used no take-back ended as careful's did
    for n, g in enumerate(games, start=1):
        if g.takebacks == 0:
            assert g.moves == bl.play(n, "careful").moves
    # an unwinnable deal is lost whatever the dial (64: proven unsolvable)
    assert not bl.play(64, "undo-100000").won


def _undo_core(number: int, dial: int, restart: int) -> tuple[int, int]:
    """(result code, take-backs) of the compiled undo-``dial`` game of deal ``number``
    with restarts after ``restart`` take-backs (0: never), as ``bl.play`` calls it."""
    from bakers_lab.solve import _codes, _planners, players
    from bakers_lab.solve.fast import core_board, core_env, move_buffer_size

    who = Player.parse(f"undo-{dial}")
    start = bl.GameState.from_deal(bl.deal(number))
    r = start.rules
    cap = MAX_DECISIONS
    trail = np.zeros((2 * cap + 2 * (r.deck_size + 2) + 8, _codes.TRAIL_W), dtype=np.int64)
    env = core_env(r)
    seed = players._seed(r, who.noise_name, start, number)
    result, _, _, _, takebacks = _planners.play_undo(
        core_board(start, env), env, dial, who.weights(), seed, cap, players.PATIENCE,
        players.REWIND, restart, trail, move_buffer_size(r), 16, np.zeros(1, np.int64),
    )  # fmt: skip
    return int(result), int(takebacks)


def test_undo_starts_over_after_its_restart_share():
    from bakers_lab.solve.players import RESTART

    assert RESTART == 10_000
    # deal 65: one try of 20,000 take-backs stays lost; a second try after 10,000 wins
    result, takebacks = _undo_core(65, 20_000, 0)
    assert result != 0 and takebacks > 19_000  # lost (out of patience), the take-backs spent
    game = bl.play(65, "undo-20000")
    assert (game.outcome, game.verified) == ("won", True)
    assert RESTART < game.takebacks <= 20_000
    assert _undo_core(65, 20_000, RESTART) == (0, game.takebacks)
    # at most RESTART take-backs: one try, the same game as with no restarts at all
    for n in (1, 2, 3, 65):
        assert _undo_core(n, RESTART, RESTART) == _undo_core(n, RESTART, 0)


def test_names_and_records():
    p = Player.parse("search-300")
    assert (p.policy, p.dial, p.name, repr(p)) == ("search", 300, "search-300",
                                                   "Player.parse('search-300')")  # fmt: skip
    assert Player.parse("undo-0-no_space") == Player("undo", 1, ("space",), 0)
    assert Player.parse(f"search-{MAX_DIAL}").dial == MAX_DIAL
    assert Player.parse("undo-50").noise_name == "careful"
    assert eval(repr(Player("undo", dial=7)), {"Player": Player}) == Player("undo", dial=7)
    # any integer type, kept as a plain int
    assert Player("search", dial=np.int64(300)) == Player.parse("search-300")
    assert type(Player("search", dial=np.int64(300)).dial) is int


@pytest.mark.parametrize(
    "name, message",
    [
        (
            "search-0",
            "search-N takes N, the positions it considers before each move, from 1 "
            "to 1,000,000, not 0: 'search-0'",
        ),
        (
            "undo-1000001",
            "undo-N takes N, the moves it may take back in a game, from 0 to "
            "1,000,000, not 1000001: 'undo-1000001'",
        ),
        ("search-" + "9" * 50, "from 1 to 1,000,000, not 99999999999999999...: 'search-9999"),
        ("search-" + "9" * 5000, "unknown player 'search-99999999"),
        ("undo-\u0665", "unknown player 'undo-\u0665'"),  # Arabic-Indic five: not a digit here
        ("search-²", "unknown player 'search-²'"),
        ("undo-5\n", "unknown player 'undo-5\\n'"),
        ("search-x", "unknown player 'search-x'"),
        ("x" * 10_000, "unknown player 'xxxxxxxx"),
        (
            "lookahead-1",
            "look-ahead depth must be an integer from 2 to 6 (careful is depth 1), "
            "not 1: 'lookahead-1'",
        ),
    ],
)
def test_bad_names(name, message):
    with pytest.raises(PlayerError, match=re.escape(message)) as info:
        Player.parse(name)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("careful", 100),
            "look-ahead depth must be an integer from 2 to 6 (careful is depth 1), "
            "not 100: 'lookahead-100'",
        ),
        (
            ("greedy", 3),
            "greedy has no look-ahead depth: depth must be 1, not 3 (only careful looks "
            "ahead: lookahead-K is Player('careful', K))",
        ),
        (("careful", 1, "traps"), "off is a tuple of tip names, not 'traps' (str)"),
        (
            ("bogus",),
            "a player's policy is one of random, greedy, careful, search, undo, not 'bogus' (str)",
        ),
        (
            ("search", 1, (), 0),
            "search-N takes N, the positions it considers before each "
            "move, from 1 to 1,000,000, not 0: 'search-0'",
        ),
        (
            ("careful", 1, (), 5),
            "careful has no dial: dial must be 0, not 5 (the players with "
            "a dial are search-N and undo-N)",
        ),
        (("undo", 1, (), 2.0), "a player's depth and dial are ints, not 1 (int) and 2.0 (float)"),
        (("undo", True), "a player's depth and dial are ints, not True (bool)"),
    ],
)
def test_records_built_by_hand_are_checked(args, message):
    with pytest.raises(PlayerError, match=re.escape(message)):
        Player(*args)


def test_cli_takes_the_planners_and_refuses_bad_dials(tmp_path):
    out = tmp_path / "s"
    ok = run_cli("survey", "--deals", "1-4", "--players", "careful,search-50,undo-20",
                 "--quiet", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    table = bl.read_survey(out)
    assert sorted(set(table["player"].astype(str))) == ["careful", "search-50", "undo-20"]
    for row in table.itertuples():
        g = bl.play(int(row.deal), str(row.player))
        assert (g.outcome, g.solution) == (row.outcome, row.solution)
    bad = run_cli("survey", "--deals", "1-4", "--players", "search-0", "--out", str(tmp_path / "t"))
    assert bad.returncode == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "search-N takes N" in lines[0], bad.stderr
    assert not (tmp_path / "t").exists()


def test_cli_play_prints_the_game_that_bl_play_plays():
    proc = run_cli("play", "5", "--player", "undo-50", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    g = bl.play(5, "undo-50")
    assert out["moves"] == [str(m) for m in g.moves]
    assert (out["outcome"], out["ended"], out["takebacks"]) == (g.outcome, g.ended, g.takebacks)
    text = run_cli("play", "2", "--player", "search-1000")
    assert text.stdout.splitlines()[0] == bl.play(2, "search-1000").summary()
    bad = run_cli("play", "2", "--player", "search-")
    assert bad.returncode == 2
    assert bad.stderr.startswith("bakers-lab: error: unknown player 'search-'; known: ")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_a_found_win_is_played_without_its_detours():
    """The tidy-up of a winning line (``_planners.shorten``) on a random-order dive's
    line from deal 2: no longer, still a win on the rule engine, and nothing left to
    take out (a second pass keeps it as it is)."""
    from bakers_lab.solve import _codes, _core, _planners
    from bakers_lab.solve.fast import _trail, core_board, core_env, move_buffer_size, trail_moves

    start = bl.GameState.from_deal(bl.deal(2))
    r = start.rules
    env, cap = core_env(r), MAX_DECISIONS
    b = core_board(start, env)
    trail, buf = _trail(r, cap), np.zeros(move_buffer_size(r), np.int64)
    found, _, tp = _core.dfs(b, env, 50_000, 7, 17, cap, len(buf), trail, True, True, True)
    assert found == _codes.SOLVED
    _core.undo_to(b, env, trail, tp, 0)
    plan = np.zeros(cap + 1, np.int64)
    n = _planners.line_moves(b, env, trail, tp, plan)
    width = r.deck_size + r.columns + 4
    scratch = (np.empty((cap + 2, width), np.uint8), np.empty((cap + 2, 2), np.uint64),
               np.empty((1, width), np.uint8))  # fmt: skip

    def played(moves: np.ndarray) -> bl.GameState:
        t = 0
        for m in moves:
            t = _core.step(b, env, m, trail, t)
        g = bl.GameState.from_deal(bl.deal(2)).play_all(list[bl.Move | str](trail_moves(trail, t)))
        _core.undo_to(b, env, trail, t, 0)
        return g

    assert played(plan[:n]).is_won
    short, made = _planners.shorten(b, env, plan, n, trail, 0, buf, *scratch)
    assert made > 0 and short < n, (short, n)
    assert played(plan[:short]).is_won
    again, _ = _planners.shorten(b, env, plan, short, trail, 0, buf, *scratch)
    assert again == short
    # the board is left as it was: the deal
    assert (b.lens[: r.columns] == r.cards_per_column).all() and b.plen.sum() == 0
