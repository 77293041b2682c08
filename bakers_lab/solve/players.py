"""Human-like players: policies that choose one move at a time and never take it back.

>>> import bakers_lab as bl
>>> g = bl.play(64, "careful")                       # deal 64 cannot be won by anyone
>>> g.outcome, g.ended, g.verified
('lost', 'stuck', True)
>>> bl.play(1, "lookahead-2")
GameRecord(player='lookahead-2', variant='bakers_dozen', deal=1, outcome='won', moves=84)

A player sees the whole board (the game has no hidden cards) but not the solver,
and commits to every move.  The players, weakest first:

- ``random``: a uniformly random legal move.
- ``greedy``: a move to a foundation if there is one, else the top card of the
  tallest column goes wherever it can (the first such move); no look-ahead.
- ``careful``: plays the legal move whose resulting position scores best under an
  evaluation built from the seeds' strategy tips (below).
- ``lookahead-k`` (k = 2 … 6): searches every line of up to k moves and plays the
  first move of the line that reaches the best-scoring position; ``careful`` is
  look-ahead 1.  The seeds' first tip, "plan several moves ahead", is this depth.

Two families of players who plan have a *dial*, a strength in units a person
understands, and at its lowest setting each plays exactly ``careful``'s games
(they score positions as ``careful`` does and break ties with the same noise):

- ``search-N`` (N = 1 … 1,000,000): before each move it *considers N positions*:
  every position one move away (as ``careful`` does), then, with the rest, two
  ways of looking ahead that share them half and half.  First it *tries a line
  through*: a depth-first dive of N / 2 positions for a win, the moves of each
  position in a random order (a fresh order before each move), as the solver's
  own restarts do, pruned by the solver's rules.  Then it *weighs the options*:
  best first, the positions that follow the most promising ones, never one it
  has seen in this search or had in this game, never going on from one the
  dead-end test (below) calls lost, and skipping the moves the solver's rules 2
  and 7 show pointless (emptying a column for good; moving again the card it
  just moved).  It plays the first move of a winning line if either found one
  (and then plays that line out, without its detours: from each position of the
  line, the move that skips furthest ahead along it), else of the line to the
  best-scoring position it weighed.  ``search-1`` is ``careful``, and any
  ``search-N`` plays ``careful``'s move where a position has N moves or more
  (nothing is left to look ahead with).
  Why both: best first by ``careful``'s score spends a large N badly, digging
  where the score points (with best first alone, as this player was first
  built, the dial stopped at 97.8 % at ``search-1000000``, losing deals the
  solver wins in a median of 5,340 positions), while a fresh random-order dive at every move is what
  makes the solver's restarts find wins; with small N a dive finds little, and
  the score does the work.
- ``undo-N`` (N = 0 … 1,000,000): plays ``careful``'s move, but *may take back N
  moves in a game*, as a PySolFC player with undo.  When the game gets stuck (no
  move to a new position; a position the dead-end test calls lost; or 30 moves
  in a row that brought no card home, :data:`REWIND`), it takes back to the
  latest decision with an untried alternative (after a fruitless run, to where
  the run began) and plays the next-best move there; it does not retry a move
  that the dead-end test calls lost, that empties a column for good, or that
  moves again the card it just moved (the solver's rules 2 and 7: such a
  position is one its parent already offers).  Positions left behind stay
  known: it never comes back to one in the same try.  A try that has spent
  10,000 take-backs (:data:`RESTART`) without a win is given up: the player
  starts the deal over (every move of the line taken back, and counted), on
  its k-th new try letting moves whose scores differ by up to k points come in
  either order (the noise that breaks ties is widened), with twice the share of
  take-backs of the try before; so up to ``undo-10000`` a game is one try.
  When its take-backs run out it plays on like ``careful``.  ``undo-0`` is
  ``careful``.  The game it records is the line
  it ended with (the moves taken back are gone, as in PySolFC).

The planners' dead-end test is the solver's (rules 4 and 6 of :mod:`.fast`): the
doom check, in its extended form where that applies (foundation returns, alternate-
colour foundations, empty columns that take any card), else the simple test.  Each
only ever calls a position lost that no sequence of moves wins, so pruning by it
never loses a win.  ``careful``'s own score keeps the form it always had.

The evaluation (lower is better) is 3 per card not on a foundation plus one term
per tip of seeds 000 and 004 ("Tipps und Strategien", "Consigli e strategie");
each term can be switched off by name (``careful-no_traps``, ``lookahead-2-no_space``)
for the ablation study:

- ``low_cards``: "free the Aces first, then the Twos; low cards buried deep are the
  hardest to dig out, see to them early": 2 per card above an Ace, 1 per card above
  a Two, for those not yet home.
- ``space``: "empty a column only when every card that needed its place has a safe
  one; empty columns are lost ground": 2 per empty column where an empty column
  takes nothing (minus 2 where it takes cards: there it is room to move in).
- ``traps``: "a King over a Queen is a dead end; check for rank-inversion traps":
  1 per card lying above a lower card of its own suit (it must move to another
  column before that card can go home), plus 50 when the solver's dead-end test
  (the doom check of :mod:`.fast`) proves that some card can never get home (a
  King over a lower card of its suit is the plainest case).

Ties are broken at random.  Every player's randomness is seeded from the deal (its
game number, or the position), the rules and the player's name, so a game replays
the same on every machine.

Why a game always ends: a player never moves to a position it has already had in
this game (positions are compared after the automatic moves, columns in any order).
There are finitely many positions, so every game ends.  It is ``won`` when every
card is home, and ``lost`` when no legal move leads to a new position
(``ended="stuck"``).  Two caps keep a lost game from wandering through the huge
space of positions that shuffle cards between columns, as no person would: a
player gives up after ``patience`` decisions in a row (100 by default) that bring
no card home (``ended="patience"``), and any game ends after ``max_moves``
decisions (1,000; ``ended="cap"``).  In Baker's Dozen games 1-300, 90 % of the
games ``careful`` won had no run longer than 48 moves without a card going home.
A planner's games end too: ``search-N`` makes at most ``max_moves`` decisions, each
after at most N positions considered (the tidy-up of a winning line, once a game,
looks at each legal move along it; its positions count in ``nodes`` too), and
``undo-N`` moves forward at most ``max_moves`` + N times (each forward move past
the final line is taken back, and it takes back at most N), each time considering
at most every legal move.

Every game is recorded with all its moves, the automatic foundation moves (made at
once when they are safe, as the solver makes them) included, and replayed by the
rule engine before it is returned: ``verified`` says each move was legal and the
final position has the recorded outcome.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from bakers_lab.model.deals import Deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Move
from bakers_lab.model.positions import start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve import _codes as codes
from bakers_lab.solve import kernels
from bakers_lab.solve._interrupt import stop_flag, until_compiled_interrupted
from bakers_lab.solve.fast import (
    SolverError,
    check_result,
    core_board,
    core_env,
    move_buffer_size,
    trail_moves,
    verify_moves,
)
from bakers_lab.utils.validate import as_int, describe

__all__ = [
    "DIALS",
    "GAMES_VERSION",
    "MAX_DECISIONS",
    "MAX_DEPTH",
    "PATIENCE",
    "TIPS",
    "GameRecord",
    "Player",
    "PlayerError",
    "play",
    "player_names",
]

#: The players' games as this version plays them: raised whenever a change makes any
#: player's game of a deal differ (2: ``search-N`` dives for a win and tidies up its
#: winning lines), so that games kept from an older version are not read as today's.
GAMES_VERSION = 2

#: How a game ended: all cards home, stuck, out of patience, out of moves.
Ended = Literal["home", "stuck", "patience", "cap"]

#: The strategy tips of the seeds that ``careful``'s evaluation scores, by name.
TIPS = {
    "low_cards": "free the Aces first, then the Twos; dig out low cards buried deep",
    "space": "empty a column only when nothing needs the space",
    "traps": "a King over a Queen is a dead end: avoid rank-inversion traps",
}
#: Weight of each evaluation term: cards not home, then the tips in ``TIPS`` order.
WEIGHTS = {"home": 3, "low_cards": 1, "space": 2, "traps": 1}
#: Deepest look-ahead (a depth-6 game takes seconds; deeper ones minutes).
MAX_DEPTH = 6
#: Default cap on a game's decisions.
MAX_DECISIONS = 1_000
#: Default patience: decisions in a row without a card going home before a player gives up.
PATIENCE = 100
#: ``undo-U`` takes back a run of this many moves that brought no card home (while it
#: may take back that many; else it plays on until its patience runs out).
REWIND = 30
#: ``undo-U`` starts the deal over after this many take-backs in one try without a win
#: (while it may take back every move of its line), each new try with twice the share
#: of the one before; below this many take-backs a game is one try.
RESTART = 10_000
#: Highest setting of a planner's dial (``search-N``, ``undo-U``).
MAX_DIAL = 1_000_000
#: How a game ended, by the compiled player's result code.
_ENDED: dict[int, Ended] = {
    codes.WON: "home",
    codes.STUCK: "stuck",
    codes.PATIENCE: "patience",
    codes.CAPPED: "cap",
}
_POLICY = {"random": codes.RANDOM, "greedy": codes.GREEDY, "careful": codes.CAREFUL}
_POLICIES = ("random", "greedy", "careful", "search", "undo")
#: The players who plan: each one's dial (lowest, highest, what it counts).  At its
#: lowest setting each plays exactly ``careful``'s games.
DIALS = {
    "search": (1, MAX_DIAL, "positions it considers before each move"),
    "undo": (0, MAX_DIAL, "moves it may take back in a game"),
}
_NAME = re.compile(
    r"(random|greedy|careful|(lookahead|search|undo)-([0-9]+))((?:-no_[a-z_]+?)*)", re.ASCII
)


#: Beyond every depth and dial: a larger number is refused before it is shown in a name.
_HUGE = 10**12


class PlayerError(ValueError):
    """A player name that is not one of the players, or a bad option."""


def player_names() -> str:
    """The players a survey or :func:`play` takes, in words (for error messages)."""
    tips = ", ".join(TIPS)
    return (
        f"random, greedy, careful, lookahead-K (K from 2 to {MAX_DEPTH}), search-N "
        f"(N from 1 to {MAX_DIAL:,} positions a move), undo-N (N from 0 to {MAX_DIAL:,} "
        f"moves taken back a game), and any but random and greedy with tips switched "
        f"off, like careful-no_traps (tips: {tips})"
    )


@dataclass(frozen=True)
class Player:
    """A human-like player: a policy, a look-ahead depth, the tips it heeds and, for
    the players who plan, the strength of its dial.

    ``Player.parse(name)`` reads a name; a record built by hand is checked the same
    way (a bad one raises :class:`PlayerError` with the same words).

    >>> Player("search", dial=300)
    Player.parse('search-300')
    >>> Player("careful", 100)
    Traceback (most recent call last):
    ...
    bakers_lab.solve.players.PlayerError: look-ahead depth must be an integer from 2 to 6 \
(careful is depth 1), not 100: 'lookahead-100'
    """

    policy: Literal["random", "greedy", "careful", "search", "undo"]
    depth: int = 1
    off: tuple[str, ...] = ()
    #: ``search``: positions considered a move; ``undo``: moves taken back a game.
    dial: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.policy, str) or self.policy not in _POLICIES:
            raise PlayerError(
                f"a player's policy is one of {', '.join(_POLICIES)}, not {describe(self.policy)}"
            )
        if not isinstance(self.off, tuple) or not all(isinstance(t, str) for t in self.off):
            raise PlayerError(f"off is a tuple of tip names, not {describe(self.off)}")
        try:  # any integer type (numpy's too), made a plain int; nothing else
            object.__setattr__(self, "depth", as_int(self.depth, "depth", low=-_HUGE, high=_HUGE))
            object.__setattr__(self, "dial", as_int(self.dial, "dial", low=-_HUGE, high=_HUGE))
        except ValueError as exc:
            huge = str(exc).split(", not ", 1)[1]
            if "must be an integer from" in str(exc) and str(exc).startswith("dial"):
                low, high, what = DIALS.get(self.policy, (0, 0, "no dial"))
                raise PlayerError(f"{self.policy}-N takes N, the {what}, from {low} to "
                                  f"{high:,}, not {huge}") from None  # fmt: skip
            if "must be an integer from" in str(exc):  # a depth out of every range
                raise PlayerError(f"look-ahead depth must be an integer from 2 to {MAX_DEPTH} "
                                  f"(careful is depth 1), not {huge}") from None  # fmt: skip
            raise PlayerError(
                f"a player's depth and dial are ints, not {describe(self.depth)} and "
                f"{describe(self.dial)}"
            ) from None
        name = self._text()
        if self.depth != 1 and self.policy != "careful":
            raise PlayerError(
                f"{self.policy} has no look-ahead depth: depth must be 1, not "
                f"{_short(self.depth)} (only careful looks ahead: lookahead-K is "
                f"Player('careful', K))"
            )
        if self.depth != 1 and not 2 <= self.depth <= MAX_DEPTH:
            raise PlayerError(
                f"look-ahead depth must be an integer from 2 to {MAX_DEPTH} "
                f"(careful is depth 1), not {_short(self.depth)}: {name!r}"
            )
        if self.policy in DIALS:
            low, high, what = DIALS[self.policy]
            if not low <= self.dial <= high:
                raise PlayerError(
                    f"{self.policy}-N takes N, the {what}, from {low} to {high:,}, "
                    f"not {_short(self.dial)}: {name!r}"
                )
        elif self.dial != 0:
            raise PlayerError(
                f"{self.policy} has no dial: dial must be 0, not {_short(self.dial)} (the "
                f"players with a dial are search-N and undo-N)"
            )
        for tip in self.off:
            if tip not in TIPS:
                raise PlayerError(f"unknown tip {tip!r} in {name!r}; tips: {', '.join(TIPS)}")
            if self.off.count(tip) > 1:
                raise PlayerError(f"tip {tip!r} is switched off twice in {name!r}")
        if self.off and self.policy in ("random", "greedy"):
            raise PlayerError(f"{self.policy} heeds no tips, so none can be switched off: {name!r}")
        if self.off != tuple(t for t in TIPS if t in self.off):
            raise PlayerError(
                f"switch tips off in the order {', '.join(TIPS)} so each player has one "
                f"name: {name!r}"
            )

    @classmethod
    def parse(cls, name: str) -> Player:
        """A player from its name: ``greedy``, ``lookahead-3``, ``careful-no_space``,
        ``search-300``, ``undo-50``.

        >>> Player.parse("lookahead-3-no_traps")
        Player.parse('lookahead-3-no_traps')
        >>> Player.parse("undo-50").dial
        50
        """
        if not isinstance(name, str):
            raise PlayerError(f"a player is named by a str, not {describe(name)}")
        m = _NAME.fullmatch(name) if len(name) <= 200 else None
        if m is None:
            raise PlayerError(f"unknown player {_short(name)}; known: {player_names()}")
        base, digits, suffix = m.group(1), m.group(3), m.group(4)
        off = tuple(t for t in suffix.split("-no_") if t)
        family = m.group(2)
        if family is None:
            return cls(base, 1, off)  # type: ignore[arg-type]
        if len(digits) > 1 and digits.startswith("0"):  # one name a player: no leading zeros
            canonical = f"{family}-{_digits(digits.lstrip('0') or '0')}{suffix}"
            raise PlayerError(f"say {_short(canonical)}, not {_short(name)}: a player's number "
                              f"has no leading zeros")  # fmt: skip
        # a number of more than 12 digits is out of every range: never convert it whole
        value = int(digits) if len(digits.lstrip("0")) <= 12 else 10**13
        if family == "lookahead":
            if not 2 <= value <= MAX_DEPTH:
                raise PlayerError(
                    f"look-ahead depth must be an integer from 2 to {MAX_DEPTH} "
                    f"(careful is depth 1), not {_digits(digits)}: {_short(name)}"
                )
            return cls("careful", value, off)
        low, high, what = DIALS[family]
        if not low <= value <= high:
            raise PlayerError(
                f"{family}-N takes N, the {what}, from {low} to {high:,}, "
                f"not {_digits(digits)}: {_short(name)}"
            )
        return cls(family, 1, off, value)  # type: ignore[arg-type]

    def _text(self) -> str:
        if self.policy in DIALS:
            base = f"{self.policy}-{self.dial}"
        else:
            base = f"lookahead-{self.depth}" if self.depth != 1 else self.policy
        return base + "".join(f"-no_{t}" for t in self.off)

    @property
    def name(self) -> str:
        """The canonical name (what :meth:`parse` reads)."""
        return self._text()

    @property
    def noise_name(self) -> str:
        """The name its tie-breaking noise is seeded from: a planner shares
        ``careful``'s (with the same tips), so every setting of its dial breaks ties
        as ``careful`` does and the lowest plays ``careful``'s games.

        >>> Player.parse("search-300-no_traps").noise_name
        'careful-no_traps'
        """
        if self.policy in DIALS:
            return Player("careful", 1, self.off).name
        return self.name

    def weights(self) -> np.ndarray:
        """The evaluation weights the compiled player reads."""
        w = [WEIGHTS["home"]] + [0 if t in self.off else WEIGHTS[t] for t in TIPS]
        return np.array(w, dtype=np.int64)

    def __repr__(self) -> str:
        return f"Player.parse({self.name!r})"


def _digits(text: str) -> str:
    return text if len(text) <= 20 else text[:17] + "..."


def _short(value: object) -> str:
    """A value for an error line, never longer than about 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class GameRecord:
    """One game of a player: every move (automatic ones included) and how it ended.

    ``outcome`` is ``won`` or ``lost``; ``ended`` says how: ``home`` (won),
    ``stuck`` (no legal move to a new position), ``patience`` (the player gave up
    after too many moves without a card going home) or ``cap`` (out of moves).
    ``nodes`` counts the positions the player evaluated.
    """

    player: str
    outcome: Literal["won", "lost"]
    moves: tuple[Move, ...]
    nodes: int
    seconds: float
    variant: str
    deal: int | None = None
    decisions: int = 0
    ended: Ended = "stuck"
    verified: bool = False
    #: Moves taken back (``undo-U`` players; 0 for the others).
    takebacks: int = 0
    #: The position the game started from (for pictures and replays; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_result(self, ("won", "lost"), ("nodes", "decisions", "takebacks"))
        if not isinstance(self.player, str) or not self.player:
            raise ValueError(f"player must be a player's name, not {describe(self.player)}")
        if not isinstance(self.ended, str) or self.ended not in _ENDED.values():
            raise ValueError(
                f"ended must be one of {', '.join(_ENDED.values())}, not {describe(self.ended)}"
            )

    @property
    def solution(self) -> str:
        """The moves as text, separated by spaces (the survey's ``solution`` column)."""
        return " ".join(str(m) for m in self.moves)

    @property
    def won(self) -> bool:
        """True for a won game."""
        return self.outcome == "won"

    def summary(self) -> str:
        """One sentence: who played what and how it ended."""
        what = f"game {self.deal}" if self.deal is not None else "the position"
        how = {
            "home": f"won in {len(self.moves)} moves",
            "stuck": f"lost after {len(self.moves)} moves: no move to a new position",
            "patience": f"lost after {len(self.moves)} moves: gave up, no card home for too long",
            "cap": f"lost after {len(self.moves)} moves: move cap reached",
        }[self.ended]
        return f"{self.player} played {self.variant} {what}: {how}"

    def _repr_html_(self) -> str:
        import html

        text = f"<p><b>{html.escape(self.summary())}</b></p>"
        if self.start is None:
            return text
        end = self.start.copy()
        end.play_all(list(self.moves))
        return text + end.to_html()

    def __repr__(self) -> str:
        return (
            f"GameRecord(player={self.player!r}, variant={self.variant!r}, deal={self.deal!r}, "
            f"outcome={self.outcome!r}, moves={len(self.moves)})"
        )


def _seed(rules: Rules, player: str, start: GameState, number: int | None) -> int:
    what = str(number) if number is not None else start.key().hex()
    digest = hashlib.sha256(f"{rules!r}|{player}|{what}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1  # a non-negative int64


def play(
    position: Deal | GameState | int,
    player: str | Player = "careful",
    *,
    variant: str | Rules | None = None,
    max_moves: int = MAX_DECISIONS,
    patience: int = PATIENCE,
) -> GameRecord:
    """Play one game of ``position`` (a deal, a position in progress, or a PySolFC
    game number with ``variant``) as ``player``; return its :class:`GameRecord`.

    The game is replayed on the rule engine before it is returned (``verified``).
    """
    t0 = time.perf_counter()
    who = player if isinstance(player, Player) else Player.parse(player)
    start, number = start_of(position, variant, who="play")
    cap = as_int(max_moves, "max_moves", low=1, high=100_000, error=PlayerError)
    patience = as_int(patience, "patience", low=1, high=100_000, error=PlayerError)
    result, trail, tp, nodes, decisions, takebacks = _game(start, number, who, cap, patience)
    moves, won = verify_moves(start, trail_moves(trail, int(tp)), who=f"{who.name} player")
    outcome: Literal["won", "lost"] = "won" if result == codes.WON else "lost"
    verified = won == (outcome == "won")
    if not verified:
        raise SolverError(f"{who.name}'s game ended {outcome}, but the rule engine disagrees")
    return GameRecord(
        who.name, outcome, moves, int(nodes), time.perf_counter() - t0, start.rules.name, number,
        int(decisions), _ENDED[int(result)], verified, int(takebacks), start,
    )  # fmt: skip


def _game(
    start: GameState, number: int | None, who: Player, cap: int, patience: int
) -> tuple[int, np.ndarray, int, int, int, int]:
    """The compiled game of ``who`` from ``start``: (result code, trail, trail
    length, positions considered, decisions, moves taken back)."""
    r = start.rules
    max_moves_buf = move_buffer_size(r)
    trail = np.zeros(
        (2 * cap + (who.depth + 1) * (r.deck_size + 2) + 8, codes.TRAIL_W), dtype=np.int64
    )
    env = core_env(r)
    tt_bits = max(10, int(2 * cap).bit_length())
    board = core_board(start, env)
    seed = _seed(r, who.noise_name, start, number)
    takebacks = 0
    if who.policy == "search":
        stt_bits = max(10, int(2 * (who.dial + max_moves_buf)).bit_length())

        def game(control: np.ndarray) -> tuple[Any, ...]:
            return kernels.play_search(  # type: ignore[no-any-return]
                board, env, who.dial, who.weights(), seed, cap, patience, trail, max_moves_buf,
                tt_bits, stt_bits, control,
            )  # fmt: skip

    elif who.policy == "undo":
        # every position the game has had, abandoned lines too: a few per take-back
        tt_bits = min(23, max(tt_bits, int(2 * (cap + 4 * who.dial)).bit_length()))

        def game(control: np.ndarray) -> tuple[Any, ...]:
            return kernels.play_undo(  # type: ignore[no-any-return]
                board, env, who.dial, who.weights(), seed, cap, patience, min(REWIND, patience),
                RESTART, trail, max_moves_buf, tt_bits, control,
            )  # fmt: skip

    else:

        def game(control: np.ndarray) -> tuple[Any, ...]:
            return kernels.play_board(  # type: ignore[no-any-return]
                board, env, _POLICY[who.policy], who.depth, who.weights(), seed, cap, patience,
                trail, max_moves_buf, tt_bits, control,
            )  # fmt: skip

    # Ctrl-C stops the game within one position's search (see .._interrupt)
    out = until_compiled_interrupted(game, stop_flag(), "player")
    result, tp, nodes, decisions = out[:4]
    if who.policy == "undo":
        takebacks = out[4]
    return int(result), trail, int(tp), int(nodes), int(decisions), int(takebacks)
