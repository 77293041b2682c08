"""Human-like players: every game replays on the rule engine, ends for the reason it
gives, is the same every time, and the ladder of players is ordered."""

import itertools
import re

import pytest
from inprocess import run_cli
from statsmodels.stats.contingency_tables import mcnemar

import bakers_lab as bl
from bakers_lab.solve.players import MAX_DECISIONS, TIPS, Player, PlayerError

CHEAP = ["random", "greedy", "careful"]
DEEP = ["lookahead-2", "lookahead-3"]


def safe_home(g: bl.GameState) -> bool:
    """One automatic foundation move, if a column's top card is safe to send home
    (written here from fast.py's rule 1, independently of the compiled core)."""
    r = g.rules
    for col in g.columns:
        if not col:
            continue
        c = col[-1]
        piles = g.foundations
        if r.foundation_build != "same_suit":
            if c.rank == 1 and not piles[c.suit]:
                g.play(bl.Move(c, bl.Dest.FOUNDATION, c.suit if _many(g, c) else None))
                return True
            continue
        if len(piles[c.suit]) != c.rank - 1:
            continue
        others = {
            "any_suit": list(bl.Suit),
            "same_suit": [c.suit],
            "alternate_colour": [s for s in bl.Suit if s.is_red != c.suit.is_red],
        }[r.tableau_build]
        if c.rank <= 2 or all(len(piles[s]) >= c.rank - 1 for s in others):
            g.play(bl.Move(c, bl.Dest.FOUNDATION))
            return True
    return False


def _many(g: bl.GameState, c: bl.Card) -> bool:
    return sum(m.card == c and m.to is bl.Dest.FOUNDATION for m in g.legal_moves()) > 1


def check_game(deal: bl.Deal, game: bl.GameRecord) -> None:
    """Replay ``game`` on the rule engine and check it ended as it says."""
    g = bl.GameState.from_deal(deal)
    seen = {g.key()}
    for move in game.moves:
        g.play(move)  # raises IllegalMoveError for a move the rules refuse
        seen.add(g.key())
    assert len(g.history) == len(game.moves)
    assert g.is_won == (game.outcome == "won") == (game.ended == "home")
    if game.ended == "stuck":  # every legal move leads back to a position it had
        for move in g.legal_moves():
            h = g.copy()
            h.play(move)
            while safe_home(h):
                pass
            assert h.key() in seen, (deal, game.player, move)
    if game.ended == "cap":
        assert game.decisions == MAX_DECISIONS


@pytest.mark.parametrize("variant", bl.variant_names())
def test_games_of_every_player_and_preset_replay(variant):
    games = 0
    for player in CHEAP + DEEP:
        numbers = range(1, 21) if player in CHEAP else range(1, 6 if player == DEEP[0] else 3)
        for n in numbers:
            d = bl.deal(n, variant=variant)
            game = bl.play(d, player)
            assert game.verified and game.player == player and game.deal == n
            check_game(d, game)
            games += 1
    assert games == 67


def test_games_are_the_same_every_time_and_differ_by_player():
    a, b = bl.play(417, "careful"), bl.play(417, "careful")
    assert (a.moves, a.nodes, a.outcome) == (b.moves, b.nodes, b.outcome)
    assert bl.play(417, "random").moves != bl.play(418, "random").moves
    # a position in progress is seeded from the position itself
    g = bl.GameState.from_deal(bl.deal(5))
    g.play(g.legal_moves()[0])
    assert bl.play(g, "random").moves == bl.play(g.copy(), "random").moves


def test_a_won_deal_replays_and_an_unsolvable_one_is_lost():
    won = bl.play(1, "lookahead-2")
    assert won.outcome == "won" and won.ended == "home" and won.won
    assert sum(m.to is bl.Dest.FOUNDATION for m in won.moves) == 52
    lost = bl.play(64, "lookahead-3")  # proven unsolvable: nobody wins it
    assert lost.outcome == "lost" and lost.ended in ("stuck", "patience")
    check_game(bl.deal(64), lost)


def test_patience_and_cap_end_a_wandering_game():
    game = bl.play(3, "random", patience=5)
    assert game.ended in ("patience", "stuck", "home")
    capped = bl.play(64, "random", max_moves=3)
    assert capped.ended == "cap" and capped.decisions == 3 and capped.outcome == "lost"
    with pytest.raises(PlayerError, match=re.escape("patience must be an integer from 1 to")):
        bl.play(1, "careful", patience=0)


def test_ladder_is_ordered_on_bakers_dozen():
    """random < greedy < careful <= lookahead-2 <= lookahead-3 <= solver: every adjacent
    pair that differs at McNemar p < 0.01 differs in this direction (games 1-200; the
    closing note has 1-2000)."""
    deals = range(1, 201)
    wins: dict[str, list[bool | None]] = {
        p: [bl.play(n, p).won for n in deals] for p in ["random", "greedy", "careful"]
    }
    wins["lookahead-2"] = [bl.play(n, "lookahead-2").won for n in deals]
    wins["lookahead-3"] = [bl.play(n, "lookahead-3").won for n in range(1, 61)] + [None] * 140
    solver = {n: bl.solve(n).outcome == "solved" for n in deals}
    ladder = ["random", "greedy", "careful", "lookahead-2", "lookahead-3"]
    for weak, strong in itertools.pairwise(ladder):
        pairs = [(w, s) for w, s in zip(wins[weak], wins[strong], strict=True) if s is not None]
        a_only = sum(bool(w and not s) for w, s in pairs)
        b_only = sum(bool(s and not w) for w, s in pairs)
        p = mcnemar([[0, a_only], [b_only, 0]], exact=True).pvalue
        assert not (p < 0.01 and a_only > b_only), (weak, strong, a_only, b_only, p)
        if weak in ("random", "greedy"):
            assert p < 0.01 and b_only > a_only, (weak, strong, a_only, b_only, p)
    for p_name in ladder:
        assert all(solver[n] for n, w in zip(deals, wins[p_name], strict=True) if w)


@pytest.mark.parametrize(
    "name, message",
    [
        ("expert", "unknown player 'expert'; known: random, greedy, careful, lookahead-K"),
        ("lookahead-1", "look-ahead depth must be an integer from 2 to 6 (careful is depth 1)"),
        ("lookahead-7", "look-ahead depth must be an integer from 2 to 6"),
        ("lookahead-x", "unknown player 'lookahead-x'"),
        ("careful-no_luck", "unknown tip 'luck' in 'careful-no_luck'; tips: low_cards, space"),
        ("greedy-no_traps", "greedy heeds no tips, so none can be switched off"),
        ("careful-no_traps-no_space", "switch tips off in the order low_cards, space, traps"),
        ("careful-no_space-no_space", "tip 'space' is switched off twice"),
        (7, "a player is named by a str, not 7"),
    ],
)
def test_bad_player_names(name, message):
    with pytest.raises(PlayerError, match=re.escape(message)):
        Player.parse(name)


def test_player_names_and_weights():
    p = Player.parse("lookahead-3-no_low_cards-no_traps")
    assert (p.policy, p.depth, p.off) == ("careful", 3, ("low_cards", "traps"))
    assert repr(p) == "Player.parse('lookahead-3-no_low_cards-no_traps')"
    assert p.weights().tolist() == [3, 0, 2, 0]
    assert Player.parse("careful").weights().tolist() == [3, 1, 2, 1]
    assert list(TIPS) == ["low_cards", "space", "traps"]


def test_cli_player_errors_are_one_line(tmp_path):
    out = str(tmp_path / "s")
    cases = [
        (("--players", "solver,expert"), "unknown player 'expert'; known: solver, shortest, "
         "random, greedy, "
         "careful, lookahead-K (K from 2 to 6), search-N (N from 1 to 1,000,000 positions a "
         "move), undo-N (N from 0 to 1,000,000 moves taken back a game), and any but random and "
         "greedy with tips switched off, like careful-no_traps (tips: low_cards, space, traps)"),
        (("--players", "lookahead-0"), "look-ahead depth must be an integer from 2 to 6 (careful "
         "is depth 1), not 0: 'lookahead-0'"),
        (("--players", "lookahead--2"), "unknown player 'lookahead--2'"),
        (("--players", "lookahead-2.5"), "unknown player 'lookahead-2.5'"),
    ]  # fmt: skip
    for args, message in cases:
        proc = run_cli("survey", "--deals", "1-3", "--out", out, *args)
        assert proc.returncode == 2
        [line] = proc.stderr.strip().splitlines()
        assert line.startswith(f"bakers-lab: error: {message}"), args
    assert not (tmp_path / "s").exists()
    first = run_cli("survey", "--deals", "1-3", "--players", "careful", "--quiet", "--out", out)
    assert first.returncode == 0, first.stderr
    other = run_cli("survey", "--deals", "1-3", "--players", "greedy", "--quiet", "--out", out)
    assert other.returncode == 2
    assert other.stderr.strip().splitlines() == [
        f"bakers-lab: error: {out} holds another survey (it differs in: players); "
        "choose another --out or delete that directory"
    ]
