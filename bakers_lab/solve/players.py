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
from typing import Literal

import numpy as np

from ..deals import Deal
from ..game import GameState
from ..moves import Move
from ..positions import start_of
from ..rules import Rules
from ..validate import as_int
from . import _core, _players
from .fast import (
    SolverError,
    _board,
    _env,
    _max_moves,
    _to_moves,
    _verify,
)

__all__ = [
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
#: How a game ended, by the compiled player's result code.
_ENDED: dict[int, Ended] = {
    _players.WON: "home",
    _players.STUCK: "stuck",
    _players.PATIENCE: "patience",
    _players.CAPPED: "cap",
}
_POLICY = {"random": _players.RANDOM, "greedy": _players.GREEDY, "careful": _players.CAREFUL}
_NAME = re.compile(r"^(random|greedy|careful|lookahead-(\d+))((?:-no_[a-z_]+?)*)$")


class PlayerError(ValueError):
    """A player name that is not one of the players, or a bad option."""


def player_names() -> str:
    """The players a survey or :func:`play` takes, in words (for error messages)."""
    tips = ", ".join(TIPS)
    return (
        f"random, greedy, careful, lookahead-K (K from 2 to {MAX_DEPTH}), and careful "
        f"or lookahead-K with tips switched off, like careful-no_traps (tips: {tips})"
    )


@dataclass(frozen=True)
class Player:
    """A human-like player: a policy, a look-ahead depth and the tips it heeds."""

    policy: Literal["random", "greedy", "careful"]
    depth: int = 1
    off: tuple[str, ...] = ()

    @classmethod
    def parse(cls, name: str) -> Player:
        """A player from its name: ``greedy``, ``lookahead-3``, ``careful-no_space``.

        >>> Player.parse("lookahead-3-no_traps")
        Player.parse('lookahead-3-no_traps')
        """
        if not isinstance(name, str):
            raise PlayerError(f"a player is named by a str, not {name!r}")
        m = _NAME.match(name)
        if m is None:
            raise PlayerError(f"unknown player {name!r}; known: {player_names()}")
        base, digits, suffix = m.group(1), m.group(2), m.group(3)
        off = tuple(t for t in suffix.split("-no_") if t)
        if digits is not None:
            depth = int(digits)
            if not 2 <= depth <= MAX_DEPTH:
                raise PlayerError(
                    f"look-ahead depth must be an integer from 2 to {MAX_DEPTH} "
                    f"(careful is depth 1), not {depth}: {name!r}"
                )
        else:
            depth = 1
        for tip in off:
            if tip not in TIPS:
                raise PlayerError(f"unknown tip {tip!r} in {name!r}; tips: {', '.join(TIPS)}")
            if off.count(tip) > 1:
                raise PlayerError(f"tip {tip!r} is switched off twice in {name!r}")
        if off and base in ("random", "greedy"):
            raise PlayerError(f"{base} heeds no tips, so none can be switched off: {name!r}")
        if off != tuple(t for t in TIPS if t in off):
            raise PlayerError(
                f"switch tips off in the order {', '.join(TIPS)} so each player has one "
                f"name: {name!r}"
            )
        policy = "careful" if digits is not None else base
        return cls(policy, depth, off)  # type: ignore[arg-type]

    @property
    def name(self) -> str:
        """The canonical name (what :meth:`parse` reads)."""
        base = f"lookahead-{self.depth}" if self.depth > 1 else self.policy
        return base + "".join(f"-no_{t}" for t in self.off)

    def weights(self) -> np.ndarray:
        """The evaluation weights the compiled player reads."""
        w = [WEIGHTS["home"]] + [0 if t in self.off else WEIGHTS[t] for t in TIPS]
        return np.array(w, dtype=np.int64)

    def __repr__(self) -> str:
        return f"Player.parse({self.name!r})"


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
    #: The position the game started from (for pictures and replays; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)

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
    r = start.rules
    max_moves_buf = _max_moves(r)
    trail = np.zeros(
        (2 * cap + (who.depth + 1) * (r.deck_size + 2) + 8, _core.TRAIL_W), dtype=np.int64
    )
    env = _env(r)
    tt_bits = max(10, int(2 * cap).bit_length())
    result, tp, nodes, decisions = _players.play_board(
        _board(start, env), env, _POLICY[who.policy], who.depth, who.weights(),
        _seed(r, who.name, start, number), cap, patience, trail, max_moves_buf, tt_bits,
    )  # fmt: skip
    moves, won = _verify(start, _to_moves(trail, int(tp)), who=f"{who.name} player")
    outcome: Literal["won", "lost"] = "won" if result == _players.WON else "lost"
    verified = won == (outcome == "won")
    if not verified:
        raise SolverError(f"{who.name}'s game ended {outcome}, but the rule engine disagrees")
    return GameRecord(
        who.name, outcome, moves, int(nodes), time.perf_counter() - t0, r.name, number,
        int(decisions), _ENDED[int(result)], verified, start,
    )  # fmt: skip
