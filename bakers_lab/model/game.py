"""The rule engine: one :class:`GameState` for every variant.

Every solver and player in bakers_lab is checked against this module: a
"solved" result is a move list that :class:`GameState` replays to a win.

>>> import bakers_lab as bl
>>> g = bl.GameState.from_deal(bl.deal(1))
>>> [str(m) for m in g.legal_moves()][:4]
['AD>F', 'AD>2D', '5S>6S', '9S>TC']
>>> g.play("5S>6S")
Move.parse('5S>6S')
>>> g.undo(); g.outcome
Move.parse('5S>6S')
'ongoing'
>>> g.play("KS>F")
Traceback (most recent call last):
...
bakers_lab.model.moves.IllegalMoveError: illegal move KS>F: KS is not at the top of its column

Columns are interchangeable: :meth:`GameState.key` is the same for positions
that differ only in the order of their columns.  Moving a column's whole
content into an empty column is refused as a move that changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from bakers_lab.model.boardtext import format_board, parse_board
from bakers_lab.model.cards import Card, Suit
from bakers_lab.model.deals import Deal, board_to_cards, validate_cards
from bakers_lab.model.moves import Dest, IllegalMoveError, Move, MoveError
from bakers_lab.model.render import Highlight, Targets, board_html, board_str
from bakers_lab.model.rules import Rules, title
from bakers_lab.model.rules import rules as _rules
from bakers_lab.utils.validate import describe

__all__ = ["GameState", "Outcome"]

#: Where a game stands: ``"won"``, ``"lost"`` (no legal move left) or ``"ongoing"``.
Outcome = Literal["won", "lost", "ongoing"]

_CARDS = tuple(Card.from_index(i) for i in range(52))
# a card id's rank, suit and colour, looked up (the rule engine asks millions of times)
_RANK = tuple(c % 13 + 1 for c in range(52))
_SUIT = tuple(c // 13 for c in range(52))
_RED = tuple(c >= 26 for c in range(52))


def _fits(build: str) -> tuple[bool, ...]:
    """Whether card ``c`` may lie on card ``u`` in the tableau, at ``c * 52 + u``."""
    return tuple(
        _RANK[u] == _RANK[c] + 1
        and (
            build == "any_suit"
            or (_SUIT[c] == _SUIT[u] if build == "same_suit" else _RED[c] != _RED[u])
        )
        for c in range(52)
        for u in range(52)
    )


#: :func:`_fits` of each way to build on the tableau.
_FITS = {build: _fits(build) for build in ("any_suit", "same_suit", "alternate_colour")}
#: The moves the engine proposes, made once (a Move checks itself when it is made):
#: card ``c`` onto card ``u`` at ``c * 52 + u`` (one rank apart), home at ``c * 5 + 4``
#: (pile unnamed) or ``c * 5 + s`` (pile ``s`` named), to an empty column at ``c``.
_ONTO = {
    c * 52 + u: Move(_CARDS[c], _CARDS[u])
    for c in range(52)
    for u in range(52)
    if _RANK[u] == _RANK[c] + 1
}
_HOME = tuple(
    Move(_CARDS[c], Dest.FOUNDATION, Suit(s) if s < 4 else None)
    for c in range(52)
    for s in range(5)
)
_TO_EMPTY = tuple(Move(_CARDS[c], Dest.EMPTY) for c in range(52))


class GameState:
    """A position under some rules, with the moves that led to it (for ``undo``).

    Cards are kept as PySolFC card ids (``Card.index``) for speed; the public
    methods speak :class:`Card` and :class:`Move`.
    """

    __slots__ = ("_cols", "_history", "_piles", "deal", "rules")

    def __init__(
        self,
        rules: Rules,
        columns: list[list[Card]],
        foundations: list[list[Card]],
        deal: Deal | None = None,
    ) -> None:
        """A position from card lists; prefer :meth:`from_deal` or :meth:`from_text`.

        ``foundations[s]`` is the pile that starts with the Ace of suit ``s``.
        """
        if not isinstance(rules, Rules):
            raise TypeError(
                f"a position's rules must be a Rules record (like bl.rules('bakers_dozen')), "
                f"not {describe(rules)}"
            )
        for name, piles in (("columns", columns), ("foundations", foundations)):
            if not isinstance(piles, list | tuple) or not all(
                isinstance(p, list | tuple) for p in piles
            ):
                raise TypeError(f"{name} must be a list of lists of Cards, not {describe(piles)}")
        if deal is not None and not isinstance(deal, Deal):
            raise TypeError(f"deal must be a Deal or None, not {describe(deal)}")
        validate_cards(rules, columns, foundations, deal_shape=False)
        self.rules = rules
        self._cols: list[list[int]] = [[c.index for c in col] for col in columns]
        self._piles: list[list[int]] = [[c.index for c in p] for p in foundations]
        self._history: list[tuple[Move, tuple[int, int, int, int, int]]] = []
        self.deal = deal

    # -- construction ------------------------------------------------------
    @classmethod
    def from_deal(cls, deal: Deal) -> GameState:
        """The start position of a deal."""
        if not isinstance(deal, Deal):
            raise TypeError(f"from_deal takes a Deal, not {describe(deal)}")
        # a Deal checked its cards when it was made and cannot change since
        g = cls.__new__(cls)
        g.rules = deal.rules
        g._cols = [[c.index for c in col] for col in deal.columns]
        g._piles = [[c.index for c in p] for p in deal.foundations]
        g._history = []
        g.deal = deal
        return g

    @classmethod
    def from_text(cls, text: str, variant: str | Rules = "bakers_dozen") -> GameState:
        """A position (not necessarily a start) from board text.

        Every card of the deck must be there once; columns may have any length.
        """
        r = _rules(variant)
        board = parse_board(text)
        columns, piles = board_to_cards(board, r)
        validate_cards(r, columns, piles, board, deal_shape=False)
        return cls(r, [list(c) for c in columns], [list(p) for p in piles])

    def copy(self) -> GameState:
        """An independent copy, history included."""
        g = GameState.__new__(GameState)
        g.rules = self.rules
        g._cols = [list(c) for c in self._cols]
        g._piles = [list(p) for p in self._piles]
        g._history = list(self._history)
        g.deal = self.deal
        return g

    # -- reading the position ----------------------------------------------
    @property
    def columns(self) -> tuple[tuple[Card, ...], ...]:
        """The columns, deepest card first."""
        return tuple(tuple(_CARDS[c] for c in col) for col in self._cols)

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        """The four foundation piles, pile ``s`` starting with the Ace of suit ``s``."""
        return tuple(tuple(_CARDS[c] for c in p) for p in self._piles)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played so far (what :meth:`undo` takes back)."""
        return tuple(m for m, _ in self._history)

    @property
    def cards_home(self) -> int:
        """How many cards are on the foundations."""
        return sum(map(len, self._piles))

    @property
    def is_won(self) -> bool:
        """All cards on the foundations."""
        return self.cards_home == self.rules.deck_size

    @property
    def outcome(self) -> Outcome:
        """``won``, ``lost`` (no legal move left) or ``ongoing``."""
        if self.is_won:
            return "won"
        return "ongoing" if any(True for _ in self._gen_moves()) else "lost"

    def key(self) -> bytes:
        """A compact hashable key of the position, the same for any column order."""
        cols = sorted(map(bytes, self._cols))
        return b"\xff".join(cols) + b"\xfe" + b"\xff".join(map(bytes, self._piles))

    def to_text(self) -> str:
        """Board text of the position (foundation heights need same-suit piles)."""
        if self.rules.foundation_build == "alternate_colour" and any(
            len(p) > 1 for p in self._piles
        ):
            raise ValueError(
                "board text cannot show alternate-colour foundation piles above their Aces"
            )
        return format_board(self.columns, {Suit(s): len(p) for s, p in enumerate(self._piles) if p})

    # -- the rules ---------------------------------------------------------
    def _builds_on(self, c: int, under: int) -> bool:
        """Card ``c`` may lie on card ``under`` in the tableau."""
        return _FITS[self.rules.tableau_build][c * 52 + under]

    def _empty_takes(self, c: int) -> bool:
        policy = self.rules.empty_column
        return policy == "any" or (policy == "king" and _RANK[c] == self.rules.top_rank)

    def _pile_takes(self, s: int, c: int) -> bool:
        pile = self._piles[s]
        if not pile:
            return _RANK[c] == 1 and _SUIT[c] == s
        top = pile[-1]
        if _RANK[c] != _RANK[top] + 1 or _RANK[c] > self.rules.ranks:
            return False
        if self.rules.foundation_build == "same_suit":
            return _SUIT[c] == s
        return _RED[c] != _RED[top]

    def _takers(self, c: int) -> list[int]:
        """The foundation piles that take card ``c`` now."""
        if self.rules.foundation_build == "same_suit":  # only its own suit's pile can
            s = _SUIT[c]
            return [s] if self._pile_takes(s, c) else []
        return [s for s in range(4) if self._pile_takes(s, c)]

    def _run_start(self, col: list[int]) -> int:
        """Index of the deepest card that may move with the top card as one unit."""
        k = len(col) - 1
        if self.rules.move_unit == "sequence":
            fits = _FITS[self.rules.tableau_build]
            while k > 0 and fits[col[k] * 52 + col[k - 1]]:
                k -= 1
        return k

    def _gen_moves(self) -> Iterator[tuple[Move, tuple[int, int, int, int, int]]]:
        """Legal moves with how to carry them out:
        (source kind 0=column 1=pile, source index, cards moved, dest kind
        0=column 1=pile, dest index)."""
        cols, piles = self._cols, self._piles
        fits = _FITS[self.rules.tableau_build]
        tops = [col[-1] if col else -1 for col in cols]
        empty = next((d for d, col in enumerate(cols) if not col), -1)
        for i, col in enumerate(cols):
            if not col:
                continue
            top = col[-1]
            takers = self._takers(top)
            for s in takers:
                yield _HOME[top * 5 + (s if len(takers) > 1 else 4)], (0, i, 1, 1, s)
            for k in range(len(col) - 1, self._run_start(col) - 1, -1):
                c = col[k]
                for d, t in enumerate(tops):
                    if d != i and t >= 0 and fits[c * 52 + t]:
                        yield _ONTO[c * 52 + t], (0, i, len(col) - k, 0, d)
                if empty >= 0 and k > 0 and self._empty_takes(c):
                    yield _TO_EMPTY[c], (0, i, len(col) - k, 0, empty)
        if self.rules.foundation_return:
            for s, pile in enumerate(piles):
                if not pile:
                    continue
                c = pile[-1]
                for d, t in enumerate(tops):
                    if t >= 0 and fits[c * 52 + t]:
                        yield _ONTO[c * 52 + t], (1, s, 1, 0, d)
                if empty >= 0 and self._empty_takes(c):
                    yield _TO_EMPTY[c], (1, s, 1, 0, empty)

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order (columns left to right)."""
        return [m for m, _ in self._gen_moves()]

    def _locate(self, c: int) -> tuple[int, int, int]:
        """Where card id ``c`` lies: (0 column / 1 pile, its index, depth in it)."""
        for i, col in enumerate(self._cols):
            if col and col[-1] == c:  # the usual case: a column's top card
                return 0, i, len(col) - 1
        for i, col in enumerate(self._cols):
            if c in col:
                return 0, i, col.index(c)
        for s, pile in enumerate(self._piles):
            if c in pile:
                return 1, s, pile.index(c)
        raise AssertionError(f"card {c} is nowhere")  # every card is somewhere: validated

    def _resolve(self, move: Move) -> tuple[Move, tuple[int, int, int, int, int]]:
        """Check ``move`` against the rules on its own terms (not by searching
        :meth:`legal_moves`); return its canonical form and how to do it, or
        raise :class:`IllegalMoveError` saying why not."""
        c = move.card.index
        if move.card.rank > self.rules.ranks:
            raise IllegalMoveError(move, f"{move.card} is not in this deck")
        src = self._locate(c)
        kind, i, depth = src
        if kind == 1:
            pile = self._piles[i]
            if move.to_foundation:
                raise IllegalMoveError(move, f"{move.card} is already on a foundation")
            if not self.rules.foundation_return:
                raise IllegalMoveError(move, "cards on the foundations stay there in these rules")
            if pile[-1] != c:
                raise IllegalMoveError(move, f"{move.card} is not the top card of its foundation")
            count = 1
        else:
            col = self._cols[i]
            count = len(col) - depth
            if count > 1:
                if self.rules.move_unit != "sequence" or move.to_foundation:
                    raise IllegalMoveError(move, f"{move.card} is not at the top of its column")
                if depth < self._run_start(col):
                    raise IllegalMoveError(
                        move, f"the cards on {move.card} are not a built run that moves as a unit"
                    )
        if move.to_foundation:
            takers = self._takers(c)
            if move.pile is not None:
                if int(move.pile) not in takers:
                    raise IllegalMoveError(
                        move, f"the {move.pile.letter} pile does not take {move.card}"
                    )
                s = int(move.pile)
            elif len(takers) == 1:
                s = takers[0]
            elif not takers:
                raise IllegalMoveError(move, f"no foundation takes {move.card} now")
            else:
                options = " or ".join(f"{move.card}>F{Suit(t).letter}" for t in takers)
                raise IllegalMoveError(move, f"more than one pile takes {move.card}; say {options}")
            canon = Move(move.card, Dest.FOUNDATION, Suit(s) if len(takers) > 1 else None)
            return canon, (kind, i, count, 1, s)
        if move.to_empty:
            d = next((d for d, col in enumerate(self._cols) if not col), -1)
            if d < 0:
                raise IllegalMoveError(move, "there is no empty column")
            if not self._empty_takes(c):
                what = {"none": "nothing", "king": "only a King"}[self.rules.empty_column]
                raise IllegalMoveError(move, f"an empty column takes {what} in these rules")
            if kind == 0 and depth == 0:
                raise IllegalMoveError(
                    move, "moving a whole column into an empty one changes nothing"
                )
            return move, (kind, i, count, 0, d)
        target = move.to
        assert isinstance(target, Card)
        t = target.index
        d = -1
        for k, col in enumerate(self._cols):
            if col and col[-1] == t:
                d = k
                break
        if d < 0:
            raise IllegalMoveError(move, f"{target} is not at the top of a column")
        if kind == 0 and d == i:
            raise IllegalMoveError(move, f"{move.card} is already on {target}")
        if not self._builds_on(c, t):
            need = {
                "any_suit": "one rank lower",
                "same_suit": "one rank lower, same suit",
                "alternate_colour": "one rank lower, other colour",
            }[self.rules.tableau_build]
            raise IllegalMoveError(move, f"{move.card} does not build on {target} ({need})")
        return move, (kind, i, count, 0, d)

    def is_legal(self, move: Move | str) -> bool:
        """True if :meth:`play` would accept the move."""
        m = Move.parse(move) if isinstance(move, str) else move
        if not isinstance(m, Move):
            raise TypeError(f"is_legal takes a Move or its text, not {describe(move)}")
        try:
            self._resolve(m)
        except IllegalMoveError:
            return False
        return True

    def play(self, move: Move | str) -> Move:
        """Carry out a move (a :class:`Move` or its text); return it in canonical form.

        An illegal move raises :class:`IllegalMoveError` naming the move and the
        reason; the position is then unchanged.
        """
        m = Move.parse(move) if isinstance(move, str) else move
        if not isinstance(m, Move):
            raise TypeError(f"play takes a Move or its text, not {describe(move)}")
        canon, how = self._resolve(m)
        self._apply(how)
        self._history.append((canon, how))
        return canon

    def play_all(self, moves: str | list[Move | str]) -> GameState:
        """Play moves in order (a list, or space-separated text); return self."""
        if not isinstance(moves, str | list | tuple):
            raise TypeError(
                "play_all takes moves as text (like 'AD>F 5S>6D') or a list of Moves or "
                f"move texts, not {describe(moves)}"
            )
        seq = moves.removeprefix("\ufeff").split() if isinstance(moves, str) else moves

        def refused(n: int, move: Move | str, exc: Exception) -> Exception:
            if isinstance(exc, IllegalMoveError):
                return IllegalMoveError(exc.move, f"{exc.reason} (move {n} of {len(seq)})")
            return exc

        self.play_each(seq, refused)
        return self

    def play_each(
        self,
        moves: Sequence[Move | str],
        refused: Callable[[int, Move | str, Exception], Exception],
    ) -> tuple[Move, ...]:
        """Play ``moves`` in order; return them in canonical form.  The first that
        cannot be played (:class:`IllegalMoveError`, or :class:`MoveError` and
        ``TypeError`` for what is not a move) raises ``refused(n, move, error)``
        instead, ``n`` counting from 1, in the caller's words; the moves before it
        stay played.

        >>> from bakers_lab import deal
        >>> g = GameState.from_deal(deal(1))
        >>> g.play_each(["5S>6S", "KS>F"], lambda n, m, exc: ValueError(f"move {n} ({m}) refused"))
        Traceback (most recent call last):
        ...
        ValueError: move 2 (KS>F) refused
        >>> g.play_each(["AD>F", "2D>F"], lambda n, m, exc: exc)
        (Move.parse('AD>F'), Move.parse('2D>F'))
        """
        played = []
        for n, move in enumerate(moves, start=1):
            try:
                played.append(self.play(move))
            except (IllegalMoveError, MoveError, TypeError) as exc:
                raise refused(n, move, exc) from None
        return tuple(played)

    def _apply(self, how: tuple[int, int, int, int, int]) -> None:
        src_kind, i, count, dst_kind, d = how
        src = self._cols[i] if src_kind == 0 else self._piles[i]
        unit = src[len(src) - count :]
        del src[len(src) - count :]
        (self._cols[d] if dst_kind == 0 else self._piles[d]).extend(unit)

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._history:
            raise IndexError("nothing to undo")
        move, (src_kind, i, count, dst_kind, d) = self._history.pop()
        self._apply((dst_kind, d, count, src_kind, i))
        return move

    # -- display -----------------------------------------------------------
    def __str__(self) -> str:
        return board_str(self.columns, self.foundations, title=self._title())

    def to_html(
        self,
        *,
        layout: str = "row",
        highlight: Highlight | None = None,
        targets: Targets = (),
    ) -> str:
        """An HTML picture of the position; by default the last moved card is
        outlined.  ``targets`` frames places a card may go (column indices,
        foundation suit letters; see :func:`~bakers_lab.model.render.board_html`)."""
        if highlight is None:
            highlight = [self._history[-1][0].card] if self._history else ()
        return board_html(
            self.columns,
            self.foundations,
            title=self._title(),
            layout=layout,
            highlight=highlight,
            targets=targets,
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def _title(self) -> str:
        """The picture's caption: ``Game 1 (Baker's Dozen), after 5 moves``."""
        base = self.deal.caption if self.deal is not None else title(self.rules)
        n = len(self._history)
        return f"{base}, after {n} move{'' if n == 1 else 's'}" if n else base

    def __repr__(self) -> str:
        """The expression that rebuilds the position: its deal (and the moves played
        from it, where board text cannot show the foundations: alternate-colour piles
        above their Aces), or its board text.

        >>> from bakers_lab import deal
        >>> g = GameState.from_deal(deal(7, variant="spanish_patience")).play_all("AH>F 2C>F")
        >>> g
        GameState.from_deal(deal(7, variant='spanish_patience')).play_all('AH>F 2C>F')
        """
        if self.deal is not None and not self._history:
            return f"GameState.from_deal({self.deal!r})"
        stacked = self.rules.foundation_build == "alternate_colour" and any(
            len(p) > 1 for p in self._piles
        )
        if not stacked:
            return f"GameState.from_text({self.to_text()!r}, variant={self.rules.name!r})"
        if self.deal is not None:
            moves = " ".join(str(m) for m, _ in self._history)
            return f"GameState.from_deal({self.deal!r}).play_all({moves!r})"
        return f"<GameState of {self.rules.name}: {self.cards_home} cards home>"
