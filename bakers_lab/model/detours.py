"""A line a person can follow: a line of moves with its detours taken out.

A solver's winning line is whatever its search found first: from a hard position it
may move the Queen of clubs from one King to another and back a dozen times while it
builds elsewhere.  :func:`without_detours` shortens such a line until none of these
is left, and never changes where it leads:

- **a shortcut**: when a later position of the line can be reached from an earlier
  one in fewer moves (0, 1 or 2) than the line takes, the moves between are replaced
  by the short way.  A position seen twice (a move undone by a later one) is a
  shortcut of 0 moves; a card moved twice in a row, first to one place and then to
  another, is one of 1 move, the card going straight to its second place.  (A move
  changes what one card lies on, so only the later positions where at most 2 cards
  lie elsewhere are tried: ``tests/test_detours.py`` checks against trying all);
- **a move that served nothing**: a move, or two moves of the same card (there and
  back), whose removal leaves every later move legal and the line ending in the
  same position.

Each change makes the line shorter, and every line is replayed by the rule engine
after each change, so the result is legal from ``start`` and ends in the position
the given line ends in (a won line stays won).

>>> from bakers_lab.model.deals import deal
>>> from bakers_lab.model.game import GameState
>>> g = GameState.from_deal(deal(1))
>>> [str(m) for m in without_detours(g, ["AD>F", "TC>JC", "TC>JD", "TC>JC", "6S>7C"])]
['AD>F', 'TC>JC', '6S>7C']
>>> [str(m) for m in without_detours(g, ["6S>7C", "AD>F", "6S>7H"])]
['AD>F', '6S>7H']
"""

from __future__ import annotations

from collections.abc import Sequence

from bakers_lab.model.cards import Card
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Dest, IllegalMoveError, Move, MoveError

__all__ = ["SHORTCUT_DEPTH", "detours", "without_detours"]

#: The longest short way looked for between two positions of a line.
SHORTCUT_DEPTH = 2


def _replay(start: GameState, line: Sequence[Move]) -> GameState | None:
    """The position after ``line`` from ``start``, or ``None`` if a move is illegal."""
    g = start.copy()
    try:
        for m in line:
            g.play(m)
    except (IllegalMoveError, MoveError):
        return None
    return g


def _parents(g: GameState) -> list[int]:
    """What each card (by :attr:`Card.index`) lies on: the index of the card under it,
    52 at a column's foot, 53 + ``s`` at the foot of foundation pile ``s`` (-1: not in
    the deck).  Two positions are the same (:meth:`GameState.key`) when these agree,
    and a move changes the moved card's alone (cards on it go with it), so ``n``
    cards lying elsewhere take at least ``n`` moves."""
    found = [-1] * 52
    for col in g.columns:
        below = 52
        for c in col:
            found[c.index] = below
            below = c.index
    for s, pile in enumerate(g.foundations):
        below = 53 + s
        for c in pile:
            found[c.index] = below
            below = c.index
    return found


def _way(g: GameState, cards: list[Card], target: bytes) -> tuple[Move, ...] | None:
    """A way from ``g`` to the position ``target`` moving each of ``cards`` once, in
    some order (``g`` is left as it was), or ``None``."""
    if not cards:
        return () if g.key() == target else None
    for c in cards:
        for m in [m for m in g.legal_moves() if m.card == c]:
            g.play(m)
            rest = _way(g, [d for d in cards if d != c], target)
            g.undo()
            if rest is not None:
                return (m, *rest)
    return None


def _landed(g: GameState, m: Move) -> int:
    """What the card of ``m``, just played on ``g``, lies on (as in :func:`_parents`)."""
    if isinstance(m.to, Card):
        return m.to.index
    if m.to is Dest.EMPTY:
        return 52
    for s, pile in enumerate(g.foundations):
        if pile and pile[-1] == m.card:
            return pile[-2].index if len(pile) > 1 else 53 + s
    raise AssertionError(f"{m} did not reach a foundation")  # play() put it there


def _walk(start: GameState, line: Sequence[Move]) -> tuple[list[bytes], list[tuple[int, int]]]:
    """The key of each position of ``line`` from ``start``, and the card moved into it
    with what it lies on there (indexes as in :func:`_parents`; ``(-1, -1)`` for
    ``start``)."""
    g = start.copy()
    keys, landed = [g.key()], [(-1, -1)]
    for m in line:
        g.play(m)
        keys.append(g.key())
        landed.append((m.card.index, _landed(g, m)))
    return keys, landed


def _take_shortcuts(start: GameState, line: list[Move], depth: int) -> list[Move]:
    """``line`` with every shortcut of up to ``depth`` moves taken, earliest first
    (from each position, the one that saves most, the shorter way on a tie)."""
    line = list(line)
    keys, landed = _walk(start, line)
    g = start.copy()
    here = _parents(g)  # of position i, kept as the line is played: one card moves
    i = 0
    while i < len(line):
        best = _best_shortcut(g, here, line, i, keys, landed, depth)
        if best is not None:
            saves, way = best
            line[i : i + len(way) + saves] = way
            keys[i:], after = _walk(g, line[i:])
            landed[i + 1 :] = after[1:]
        g.play(line[i])
        i += 1
        card, place = landed[i]
        here[card] = place
    return line


def _best_shortcut(
    g: GameState,
    here: Sequence[int],
    line: Sequence[Move],
    i: int,
    keys: Sequence[bytes],
    landed: Sequence[tuple[int, int]],
    depth: int,
) -> tuple[int, tuple[Move, ...]] | None:
    """The shortcut from position ``i`` (``g``, its :func:`_parents` ``here``) that saves
    most: (moves saved, the way).
    Only the later positions where at most ``depth`` cards lie elsewhere are tried
    (:func:`_parents`), each by moving those cards once: a card moved twice could go
    straight to its second place (it is on top either way, and nothing else changed)."""
    elsewhere: dict[int, int] = {}  # the cards lying elsewhere than at i: card -> move
    tries: list[tuple[int, int, int, list[int]]] = []  # (-saved, way length, j, moves)
    for j in range(i, len(line)):
        c, place = landed[j + 1]
        if place == here[c]:
            elsewhere.pop(c, None)
        else:
            elsewhere[c] = j
        saves = j + 1 - i - len(elsewhere)
        if len(elsewhere) <= depth and saves > 0:
            tries.append((-saves, len(elsewhere), j + 1, list(elsewhere.values())))
    for minus_saves, _, j, moves in sorted(tries, key=lambda t: t[:3]):
        way = _way(g, [line[k].card for k in moves], keys[j])
        if way is not None:
            return -minus_saves, way
    return None


def _needless(
    g: GameState, line: Sequence[Move], i: int, end: bytes, *, gap: int = 1
) -> tuple[list[Move], int | None] | None:
    """What may be left out at ``line[i]`` (``g``: the position before it) with the rest
    still legal and ending at ``end``: ``(the rest without it, None)``, or ``(the rest
    without it and the card's next move, that move's index)`` (at least ``gap`` later);
    ``None`` when neither."""
    m = line[i]
    later = next((j for j in range(i + gap, len(line)) if line[j].card == m.card), None)
    tries: list[tuple[list[Move], int | None]] = [(list(line[i + 1 :]), None)]
    if later is not None:
        tries.append(([*line[i + 1 : later], *line[later + 1 :]], later))
    for rest, pair in tries:
        after = _replay(g, rest)
        if after is not None and after.key() == end:
            return rest, pair
    return None


def _leave_out_needless(start: GameState, line: list[Move], end: bytes) -> list[Move]:
    """``line`` without each move that served nothing (alone, or with the next move
    of the same card), earliest first: the rest legal and ending at ``end``."""
    line = list(line)
    g = start.copy()  # the position before line[i]
    i = 0
    while i < len(line):
        found = _needless(g, line, i, end)
        if found is not None:
            line[i:] = found[0]
        else:
            g.play(line[i])
            i += 1
    return line


def without_detours(start: GameState, line: Sequence[Move | str]) -> tuple[Move, ...]:
    """``line`` (moves or their texts, legal from ``start``) without its detours:
    no shortcut of up to :data:`SHORTCUT_DEPTH` moves left, no move (or there-and-back
    pair of one card's moves) that could be left out; it ends in the same position.
    An illegal move raises :class:`IllegalMoveError` as :meth:`GameState.play` does."""
    g = start.copy()
    moves = [g.play(m) for m in line]  # canonical, and checked
    end = g.key()
    while True:
        before = len(moves)
        moves = _take_shortcuts(start, moves, 1)  # the cheap ones first
        moves = _leave_out_needless(start, moves, end)
        moves = _take_shortcuts(start, moves, SHORTCUT_DEPTH)
        if len(moves) == before:
            return tuple(moves)


def detours(start: GameState, line: Sequence[Move | str]) -> list[str]:
    """What a person would call a detour in ``line`` (legal from ``start``), in words:
    a move undone by the next one, a card moved twice in a row, a card taken somewhere
    and back for nothing, a move that serves nothing (the line without it, or without
    the pair, is legal and ends in the same position).  An empty list for a line one
    can follow; :func:`without_detours` gives one.

    >>> from bakers_lab.model.deals import deal
    >>> detours(GameState.from_deal(deal(1)), ["6S>7C", "6S>7H", "AD>F"])
    ['moves 1 and 2 move 6S twice in a row (6S>7C, 6S>7H)', 'move 1, 6S>7C, serves nothing']
    """
    g = start.copy()
    before = [g.key()]
    moves = []
    for m in line:
        moves.append(g.play(m))
        before.append(g.key())
    end = before[-1]
    found = []
    for i in range(len(moves) - 1):
        a, b = moves[i], moves[i + 1]
        if before[i + 2] == before[i]:
            found.append(f"move {i + 2}, {b}, undoes move {i + 1}, {a}")
        elif a.card == b.card:
            found.append(f"moves {i + 1} and {i + 2} move {a.card} twice in a row ({a}, {b})")
    g = start.copy()
    for i, m in enumerate(moves):
        cut = _needless(g, moves, i, end, gap=2)  # (a card moved twice in a row: said above)
        if cut is not None and cut[1] is None:
            found.append(f"move {i + 1}, {m}, serves nothing")
        elif cut is not None and cut[1] is not None:
            later = cut[1]
            found.append(
                f"moves {i + 1} and {later + 1} take {m.card} there and back for nothing "
                f"({m}, {moves[later]})"
            )
        g.play(m)
    return found
