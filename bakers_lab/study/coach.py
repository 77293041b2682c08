"""The solver as a coach: which move lost a game, and what to play now.

A position is *winnable* when some sequence of moves wins from it.  Along a
game, winnability can be lost but never regained: a winning line from a later
position, with the moves that led there in front, is a winning line from the
earlier one.  So the positions of a game are winnable up to some move and
unwinnable after it, and that move lost the game.  :func:`explain` finds it by
bisection, each verdict a proof of the solver: the position before the move
is *solved* (its winning line replayed by the rule engine) and the position
after it is *proven unsolvable*.  Where the solver cannot settle a position
within its budget the answer says so (``not_settled``) rather than guess.

>>> import bakers_lab as bl
>>> game = bl.play(4, "careful")                  # careful loses game 4 ...
>>> game.outcome, bl.solve(4).outcome              # ... which can be won
('lost', 'solved')
>>> e = bl.explain(game)
>>> e.status, e.index is not None, e.winning_line[0] != e.move
('lost_at', True, True)

:func:`hint` answers "what should I play?" from any position: the next move of
a winning line, "no winning line left", or "not settled within the budget".

>>> bl.hint(bl.deal(64)).text
'no winning line left (the solver proved it)'
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bakers_lab.model.deals import Deal
from bakers_lab.model.deals import deal as _deal
from bakers_lab.model.detours import without_detours
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import IllegalMoveError, Move, MoveError
from bakers_lab.model.positions import move_list, start_of
from bakers_lab.model.rules import Rules
from bakers_lab.solve.fast import DEFAULT_MAX_NODES, MAX_NODES, SolverError, SolveResult, solve
from bakers_lab.solve.players import GameRecord
from bakers_lab.solve.shortest import PAR_BOUND, PAR_NODES, ShortestResult, shortest
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_bool, as_int, as_number, describe

__all__ = [
    "LONGER_NODES",
    "MAX_OPEN_PROBES",
    "ExplainError",
    "Explanation",
    "Hint",
    "explain",
    "hint",
    "position_after",
]

Status = Literal["lost_at", "still_winnable", "never_winnable", "not_settled"]
HintStatus = Literal["move", "won", "lost", "not_settled"]

#: The budget per position of a longer search for the move that lost a game (what
#: the app's "Search longer" and the CLI's advice ask): on the shipped lost save of
#: game 4, which 5,000,000 leave open, it names the move in about 50 s on a slow computer.
LONGER_NODES = 50_000_000

#: Within ``max_seconds``, :func:`explain` sizes a position's budget by the solver's
#: speed once it has searched this many positions (before, a search is mostly overhead).
SPEED_SAMPLE = 1_000_000

#: :func:`explain` gives up (``not_settled``) after this many positions the
#: solver could not settle: each costs the whole budget, and the positions near
#: an open one are usually open too.
MAX_OPEN_PROBES = 3


class ExplainError(ValueError):
    """The game cannot be explained: an illegal move, or a game that was won."""


@dataclass(frozen=True)
class Explanation:
    """Where a game was lost (see :func:`explain`).

    ``status`` is ``lost_at`` (``index`` is the 0-based position in ``moves``
    of the move that lost the game, ``move`` that move, ``winning_line`` a
    winning move list from the position before it), ``still_winnable`` (the
    last position can still be won: ``winning_line`` wins from there),
    ``never_winnable`` (the deal itself is proven unsolvable) or
    ``not_settled`` (the solver could not decide every position it needed
    within its budget: ``winnable_until`` and ``lost_by`` bound the move, and
    ``winning_line`` wins from the position after ``winnable_until`` moves).
    A winning line is one a person can follow: the solver's, without its
    detours (:func:`~bakers_lab.model.detours.without_detours`).
    """

    status: Status
    index: int | None
    move: Move | None
    winning_line: tuple[Move, ...]
    moves: tuple[Move, ...] = field(repr=False)
    deal: int | None = None
    variant: str = "bakers_dozen"
    #: The last position (moves played) proven winnable; None if none was.
    winnable_until: int | None = field(default=None, repr=False)
    #: The first position (moves played) proven unwinnable; None if none was.
    lost_by: int | None = field(default=None, repr=False)
    #: Positions solved, nodes and seconds spent on them.
    solves: int = field(default=0, compare=False, repr=False)
    nodes: int = field(default=0, compare=False, repr=False)
    seconds: float = field(default=0.0, compare=False, repr=False)
    max_nodes: int = field(default=DEFAULT_MAX_NODES, compare=False, repr=False)
    #: The time asked for (``max_seconds``), or None for no limit, and whether the
    #: search stopped for it (positions left to decide when the time was up).
    max_seconds: float | None = field(default=None, compare=False, repr=False)
    out_of_time: bool = field(default=False, compare=False, repr=False)
    #: The position the game started from (for pictures; not compared).
    start: GameState | None = field(default=None, compare=False, repr=False)
    #: The shortest win from the start (:func:`~bakers_lab.shortest`), when it
    #: could be won and par was asked for; not compared.
    par: ShortestResult | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        where = f", deal={self.deal!r}" if self.deal is not None else ""
        move = f"Move.parse({str(self.move)!r})" if self.move is not None else "None"
        return (
            f"Explanation(status={self.status!r}, index={self.index!r}, move={move}"
            f"{where}, variant={self.variant!r})"
        )

    def summary(self) -> str:
        """The answer in words: ``move 37 of 80, 7C>8H, lost the game; 5S>6D
        instead still wins (a winning line of 52 moves)``."""
        n = len(self.moves)
        said = self.par.par_words() if self.par is not None else None
        par = f"; from the start, {said}" if said is not None else ""
        if self.status == "lost_at":
            assert self.index is not None and self.move is not None
            return (
                f"move {self.index + 1} of {n}, {self.move}, lost the game; "
                f"{self.winning_line[0]} instead still wins "
                f"(a winning line of {counted(len(self.winning_line), 'move')}){par}"
            )
        if self.status == "still_winnable":
            nxt = f"{self.winning_line[0]} next" if self.winning_line else "nothing"
            return (
                f"the game can still be won after {counted(n, 'move')} played: "
                f"{nxt} (a winning line of {counted(len(self.winning_line), 'move')}){par}"
            )
        what = f"game {self.deal}" if self.deal is not None else "the start position"
        if self.status == "never_winnable":
            return f"{what} could never be won: the solver proved it unsolvable"
        within = f"within {counted(self.max_nodes, 'node')} each"
        if self.out_of_time:
            within = f"within the {self.max_seconds:g} seconds asked"
        if self.winnable_until is None and self.lost_by is None:
            return f"not settled: the solver decided none of the positions {within}"
        won = (
            f"winnable after {counted(self.winnable_until, 'move')}"
            if self.winnable_until is not None
            else "not known winnable at any point"
        )
        if self.winnable_until is not None and self.winning_line:
            won += f" (a winning line of {counted(len(self.winning_line), 'move')} from there)"
        lost = (
            f"lost after {counted(self.lost_by, 'move')} at the latest"
            if self.lost_by is not None
            else "not proven lost at any point"
        )
        return (
            f"not settled: {won}, {lost}; the solver could not decide the positions "
            f"in between {within}"
        )

    def _repr_html_(self) -> str:
        text = f"<p><b>{html.escape(self.summary())}</b></p>"
        if self.start is None:
            return text
        g = self.start.copy()
        k = self.index if self.index is not None else len(self.moves)
        for m in self.moves[:k]:
            g.play(m)
        marked = [m.card for m in (self.move, *self.winning_line[:1]) if m is not None]
        return text + g.to_html(highlight=marked)


def _game_of(
    game: object, moves: object, variant: str | Rules | None
) -> tuple[GameState, list[Move | str], int | None]:
    """The start position, the move list and the game number of what was given."""
    if moves is None:
        if isinstance(game, GameRecord | SolveResult):
            if game.start is None:
                raise ValueError(f"this {type(game).__name__} carries no start position")
            if variant is not None:
                raise ValueError("variant= is only for game numbers; a game record has its rules")
            return game.start.copy(), list(game.moves), game.deal
        if type(game).__name__ == "Series":
            return _row_of(game, variant)
        raise TypeError(
            "explain takes a game number, Deal or GameState with its moves, or a GameRecord, "
            f"SolveResult or survey row that carries them; not {describe(game)} without moves"
        )
    seq = move_list(moves)
    start, number = start_of(game, variant, who="explain")
    return start, seq, number


def _row_of(
    row: Any, variant: str | Rules | None
) -> tuple[GameState, list[Move | str], int | None]:
    missing = [c for c in ("deal", "variant", "solution") if c not in row.index]
    if missing:
        raise ValueError(
            f"a survey row needs the columns deal, variant and solution; "
            f"this one has no {', '.join(missing)}"
        )
    if variant is not None:
        raise ValueError("variant= is only for game numbers; a survey row has its variant")
    if not isinstance(row["variant"], str) or not row["variant"]:
        raise ValueError(
            f"a survey row's variant is the name of its rules (bakers_dozen, ...), "
            f"not {describe(row['variant'])}"
        )
    d = _deal(row["deal"], variant=row["variant"])
    return GameState.from_deal(d), _solution_moves(row["solution"]), d.number


def _solution_moves(solution: object) -> list[Move | str]:
    """A survey row's ``solution`` as moves: text (moves separated by spaces), or a
    list, tuple or array of Moves or move texts (a table built by hand); a missing
    one (None, NaN) is no moves.  Anything else is refused in one line.

    >>> _solution_moves("AD>F 5S>6D"), _solution_moves(["AD>F"]), _solution_moves(None)
    (['AD>F', '5S>6D'], ['AD>F'], [])
    """
    if isinstance(solution, str):
        return list(solution.split())
    if solution is None or (isinstance(solution, float) and math.isnan(solution)):
        return []
    if type(solution).__name__ == "ndarray":
        solution = list(solution)  # type: ignore[call-overload]
    if isinstance(solution, list | tuple) and all(isinstance(m, Move | str) for m in solution):
        return list(solution)
    raise ValueError(
        f"a survey row's solution is its moves as text ('AD>F 5S>6D ...') or a list of "
        f"moves, not {describe(solution)}"
    )


def _replay(
    start: GameState, seq: Sequence[Move | str], *, won_ok: bool = False
) -> tuple[Move, ...]:
    """The moves in canonical form; ExplainError names the first illegal one
    (and, unless ``won_ok``, refuses a move list that wins)."""

    def refused(n: int, m: Move | str, exc: Exception) -> ExplainError:
        if isinstance(exc, IllegalMoveError):
            return ExplainError(f"move {n} of {len(seq)}, {m}, is illegal there: {exc.reason}")
        if isinstance(exc, MoveError):
            return ExplainError(f"move {n} of {len(seq)}: {exc}")
        return ExplainError(f"move {n} of {len(seq)} must be a Move or its text, not {describe(m)}")

    g = start.copy()
    played = g.play_each(seq, refused)
    if g.is_won and not won_ok:
        raise ExplainError(
            f"these {counted(len(seq), 'move')} win the game: there is no losing move to find"
        )
    return played


def position_after(
    game: object,
    moves: str | Sequence[Move | str] | None = None,
    *,
    variant: str | Rules | None = None,
) -> GameState:
    """The position after ``moves`` (what :func:`explain` takes) from ``game``;
    :class:`ExplainError` names the first illegal move.

    >>> position_after(1, "AD>F").cards_home
    1
    >>> position_after(1, "AD>F KS>F")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.study.coach.ExplainError: move 2 of 2, KS>F, is illegal there: ...
    """
    start, seq, _ = _game_of(game, moves, variant)
    g = start.copy()
    for m in _replay(start, seq, won_ok=True):
        g.play(m)
    return g


def explain(
    game: object,
    moves: str | Sequence[Move | str] | None = None,
    *,
    variant: str | Rules | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    with_par: bool = True,
    max_seconds: float | None = None,
    resume: Explanation | None = None,
) -> Explanation:
    """Find the move after which a game could no longer be won.

    ``game`` is a PySolFC game number (of ``variant``, Baker's Dozen by
    default), a :class:`Deal` or a :class:`GameState`, with ``moves`` the moves
    played from it (text like ``'AD>F 5S>6D'`` or a list); or a
    :class:`GameRecord`, :class:`SolveResult` or survey row (a pandas Series
    with ``deal``, ``variant`` and ``solution``), which carry their moves.
    ``max_nodes`` is the solver's budget for each position it decides.
    With ``with_par`` (the default), a game that could be won also gets
    ``par``, the shortest win from its start (:func:`~bakers_lab.shortest`
    within :data:`~bakers_lab.solve.shortest.PAR_NODES` positions, or
    ``max_nodes`` if fewer), and its summary says it.

    Every move is checked first: an illegal one raises :class:`ExplainError`
    naming it and why, and so does a move list that wins the game.  Then the
    positions are decided by bisection (the last one first, then the start):
    about ``log2(len(moves))`` solves.  After :data:`MAX_OPEN_PROBES`
    positions the solver could not settle, the answer is ``not_settled``;
    so it is once ``max_seconds`` have passed (no position is begun after
    that; one begun runs to its budget).  ``resume``, an earlier explanation
    of the same game, starts from what it settled: a longer search goes on
    where a quick one stopped.

    >>> e = explain(64, "")                  # game 64 is proven unsolvable
    >>> e.status, e.index
    ('never_winnable', None)
    >>> explain(1, "AD>F AD>F")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.study.coach.ExplainError: move 2 of 2, AD>F, is illegal there: AD is already on a ...
    """
    t0 = time.perf_counter()
    start, seq, number = _game_of(game, moves, variant)
    max_nodes = as_int(max_nodes, "max_nodes", low=1, high=MAX_NODES)
    with_par = as_bool(with_par, "with_par")
    if max_seconds is not None:
        max_seconds = as_number(max_seconds, "max_seconds", low=0, high=10**6, low_open=True)
    played = _replay(start, seq)
    n = len(played)
    verdicts: dict[int, SolveResult] = {}

    def position(i: int) -> GameState:
        g = start.copy()
        for m in played[:i]:
            g.play(m)
        return g

    def decide(i: int, budget: int) -> str:
        verdicts[i] = solve(position(i), max_nodes=budget)
        return verdicts[i].outcome

    def budget_left() -> int:
        """The budget of the next position: ``max_nodes``, or within ``max_seconds``
        what the time left allows at the speed the solver has shown (0: stop)."""
        if max_seconds is None:
            return max_nodes
        left = max_seconds - (time.perf_counter() - t0)
        spent = sum(r.seconds for r in verdicts.values())
        searched = sum(r.nodes for r in verdicts.values())
        if left <= 0:
            return 0
        if searched < SPEED_SAMPLE:  # small searches are mostly overhead: speed unknown
            return max_nodes
        budget = min(max_nodes, int(left * searched / max(spent, 1e-6)))
        return budget if budget >= SPEED_SAMPLE // 10 else 0  # too little to settle anything

    # lo: last position known winnable; hi: first known unwinnable (positions 0 … n)
    lo, hi, open_probes = -1, n + 1, 0
    # the last position first (a lost game's is often proven quickly), then the start;
    # within a time, the start first: from a deal's start a win is found at once, so
    # that a search cut short still has a line to offer
    order = ([0, n] if max_seconds is not None else [n, 0]) if n else [0]
    known_line: tuple[Move, ...] = ()  # a winning line from lo, from resume
    if resume is not None:
        lo, hi, known_line = _resumed(resume, start, played)
        order = []
    out_of_time = False
    while hi - lo > 1 and open_probes < MAX_OPEN_PROBES:
        budget = budget_left()
        if budget == 0:
            out_of_time = True
            break
        untried = [i for i in range(lo + 1, hi) if i not in verdicts]
        if not untried:
            break
        if order:
            i = order.pop(0)
        else:
            mid = (lo + hi) / 2
            i = min(untried, key=lambda j: (abs(j - mid), j))
        outcome = decide(i, budget)
        if outcome == "solved":
            lo = i
        elif outcome == "unsolvable":
            hi = i
        else:
            open_probes += 1
    found: dict[str, Any] = {}
    line_from_lo = verdicts[lo].moves if lo in verdicts else known_line
    if lo == n:
        status: Status = "still_winnable"
        found["winning_line"] = line_from_lo
    elif hi == 0:
        status = "never_winnable"
    elif hi - lo == 1:
        status = "lost_at"
        if not line_from_lo or line_from_lo[0] == played[lo]:
            raise SolverError(
                f"position {lo} was solved by playing {played[lo]}, "
                f"yet the position after it was proven unsolvable"
            )
        found = {"index": lo, "move": played[lo], "winning_line": line_from_lo}
    else:
        status = "not_settled"
        found["winning_line"] = line_from_lo if lo >= 0 else ()
    if found.get("winning_line"):  # a line a person can follow
        found["winning_line"] = without_detours(position(lo), found["winning_line"])
    par = None
    if with_par and status in ("lost_at", "still_winnable"):
        par = shortest(start, max_nodes=min(PAR_NODES, max_nodes), bound=PAR_BOUND)
    return Explanation(
        status=status,
        index=found.get("index"),
        move=found.get("move"),
        winning_line=tuple(found.get("winning_line", ())),
        moves=played,
        deal=number,
        variant=start.rules.name,
        winnable_until=lo if lo >= 0 else None,
        lost_by=hi if hi <= n else None,
        solves=len(verdicts),
        nodes=sum(r.nodes for r in verdicts.values()),
        seconds=time.perf_counter() - t0,
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        out_of_time=out_of_time,
        start=start,
        par=par,
    )


def _resumed(
    resume: object, start: GameState, played: tuple[Move, ...]
) -> tuple[int, int, tuple[Move, ...]]:
    """What an earlier explanation of the same game settled: the last position known
    winnable, the first known lost, and the winning line from the first."""
    if not isinstance(resume, Explanation):
        raise TypeError(f"resume must be an Explanation (of explain), not {describe(resume)}")
    same = resume.start is not None and resume.start.key() == start.key()
    if not same or resume.moves != played:
        raise ValueError("resume is an explanation of another game: give the same game and moves")
    n = len(played)
    lo = resume.winnable_until if resume.winnable_until is not None else -1
    hi = resume.lost_by if resume.lost_by is not None else n + 1
    if resume.status == "lost_at" and resume.index is not None:
        lo, hi = resume.index, resume.index + 1
    return lo, hi, resume.winning_line if lo >= 0 else ()


@dataclass(frozen=True)
class Hint:
    """What to play (see :func:`hint`): ``status`` is ``move`` (``move`` is
    the next move of ``line``, a winning line), ``won`` (all cards are home),
    ``lost`` (no winning line left: proven) or ``not_settled``."""

    status: HintStatus
    move: Move | None
    line: tuple[Move, ...] = field(repr=False)
    result: SolveResult = field(repr=False, compare=False)
    #: The solver's budget.
    max_nodes: int = field(default=DEFAULT_MAX_NODES, repr=False, compare=False)

    def __repr__(self) -> str:
        move = f"Move.parse({str(self.move)!r})" if self.move is not None else "None"
        return f"Hint(status={self.status!r}, move={move})"

    @property
    def text(self) -> str:
        """The hint in words."""
        if self.status == "move":
            return f"play {self.move} (a winning line of {counted(len(self.line), 'move')})"
        if self.status == "won":
            return "the game is won: all cards are home"
        if self.status == "lost":
            return "no winning line left (the solver proved it)"
        return f"not settled within the budget ({counted(self.max_nodes, 'node')})"


def hint(
    position: Deal | GameState | int,
    *,
    variant: str | Rules | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Hint:
    """The next move of a winning line from ``position`` (a :class:`GameState`,
    a :class:`Deal` or a PySolFC game number of ``variant``), or why there is none.

    >>> h = hint(1)
    >>> h.status, h.move == h.line[0], h.text.startswith(f"play {h.move} ")
    ('move', True, True)
    """
    start_of(position, variant, who="hint")  # a wrong position is told in hint's words
    result = solve(position, variant=variant, max_nodes=max_nodes)
    budget = as_int(max_nodes, "max_nodes")  # solve checked it
    if result.outcome == "solved":
        if not result.moves:
            return Hint("won", None, (), result, budget)
        return Hint("move", result.moves[0], result.moves, result, budget)
    if result.outcome == "unsolvable":
        return Hint("lost", None, (), result, budget)
    return Hint("not_settled", None, (), result, budget)
