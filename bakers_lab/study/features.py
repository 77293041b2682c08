"""Deal features, computed with numpy over many deals at once: one row per deal.

A batch of deals under one set of rules becomes two arrays:

- ``cards`` (:func:`deal_matrix`): int8, shape ``(n_deals, n_columns,
  max_depth)``, the card ids (``Card.index = suit * 13 + rank - 1``) of each
  column, deepest card first and playable (top) card last, like
  ``Deal.columns``; ``-1`` where a column has no card (only after its top);
- ``home`` (:func:`home_matrix`): int8, shape ``(n_deals, 4)``, the height of
  each foundation pile at the deal (pile ``s`` starts with the Ace of suit
  ``s``; Good Measure starts with two piles at height 1).

Every feature is a function ``f(cards, home, rules) -> int array (n_deals,)``
listed in :data:`FEATURES` (name → :class:`Feature`, read-only, in column
order); :func:`deal_features` puts them in a DataFrame, :func:`describe_features`
lists their meanings.  "Depth" is the number of cards above a card in its
column (0 = playable now).  A card "home" is on a foundation (not in the
tableau).  "King" is the deck's top rank (``rules.ranks``), "Queen" the rank
under it; the rank bands of the inversion counts are the absolute ranks A-4,
5-9 and T-K.

>>> import bakers_lab as bl
>>> df = deal_features([bl.deal(1), bl.deal(2)])
>>> int(df["f_depth_aces"].iloc[0]), int(df["f_legal_moves"].iloc[0])
(4, 11)
>>> df.shape, str(df["f_inversions"].dtype), list(df.index)
((2, 28), 'int16', [0, 1])
>>> gm = deal_features([bl.deal(86, variant="good_measure")])
>>> gm.loc[0, ["f_depth_ace_c", "f_depth_ace_d", "f_depth_aces"]].tolist()
[-1, -1, 5]
>>> describe_features().iloc[0].tolist()
['f_depth_ace_c', 'Cards above the Ace of Clubs (-1 if it is home).']

Speed, 10,000 Baker's Dozen deals (PySolFC games 1-10000, dealing them
excluded), best of 7 on a shared 2-core machine under load: all 28 features
from the arrays (:func:`features_from_arrays`) 0.12 s; building the arrays
from the ``Deal`` objects (:func:`deal_arrays`, a Python pass over the cards)
another 0.15 s; :func:`deal_features` end to end 0.32 s.  No feature
function loops over deals in Python: they loop at most over suits, ranks,
piles or positions in a column.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import numpy.typing as npt
import pandas as pd

from bakers_lab.model.cards import Suit
from bakers_lab.model.deals import Deal
from bakers_lab.model.rules import Rules
from bakers_lab.utils.validate import describe

__all__ = [
    "FEATURES",
    "FEATURE_DTYPE",
    "Feature",
    "FeatureFunc",
    "deal_arrays",
    "deal_features",
    "deal_matrix",
    "describe_features",
    "features_from_arrays",
    "home_matrix",
]

IntArray = npt.NDArray[np.integer]
BoolArray = npt.NDArray[np.bool_]

#: A feature: ``(cards, home, rules) -> int array of shape (n_deals,)``.
FeatureFunc = Callable[[IntArray, IntArray, Rules], IntArray]

#: The dtype of every feature column.
FEATURE_DTYPE = np.int16

_NO_CARD = 52  # lookup tables have 53 entries; entry 52 (= index -1) is "no card"
_SUIT_LETTERS = "".join(s.letter.lower() for s in Suit)  # "cshd", in card-id order

# Read-only lookup tables by card id; index -1 (no card) reads the last entry.
_RANK = np.array([i % 13 + 1 for i in range(52)] + [0], dtype=np.int8)
_SUIT = np.array([i // 13 for i in range(52)] + [-1], dtype=np.int8)
_RED = np.array([i >= 26 for i in range(52)] + [False], dtype=np.bool_)
for _table in (_RANK, _SUIT, _RED):
    _table.flags.writeable = False
del _table


# ---------------------------------------------------------------------------
# Arrays from deals
# ---------------------------------------------------------------------------


def _common_rules(deals: Sequence[Deal], rules: Rules | None) -> Rules:
    """The one Rules record all ``deals`` share (and equal to ``rules`` if given)."""
    for i, d in enumerate(deals):
        if not isinstance(d, Deal):
            raise TypeError(f"deal features take Deal objects; item {i} is {describe(d)}")
    if rules is None:
        if not deals:
            raise ValueError("no deals, and no rules to give the arrays their shape")
        rules, first = deals[0].rules, "deal 0"
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules record, not {type(rules).__name__}")
    else:
        first = "the rules given"
    for i, d in enumerate(deals):
        if d.rules != rules:
            if d.rules.name != rules.name:
                problem = f"deal {i} has rules {d.rules.name!r}, {first} {rules.name!r}"
            else:
                diff = ", ".join(
                    f"{f.name} {getattr(d.rules, f.name)!r} vs {getattr(rules, f.name)!r}"
                    for f in dataclasses.fields(Rules)
                    if getattr(d.rules, f.name) != getattr(rules, f.name)
                )
                problem = (
                    f"deal {i} and {first} have different {rules.name!r} Rules records ({diff})"
                )
            raise ValueError(f"{problem}; features are computed for one set of rules at a time")
    return rules


def deal_matrix(deals: Sequence[Deal], rules: Rules | None = None) -> npt.NDArray[np.int8]:
    """Card ids of the deals' columns: int8, shape ``(n_deals, n_columns, max_depth)``.

    Deepest card first, top card last, ``-1`` where a column has no card.
    All deals must share one Rules record (``ValueError`` otherwise); with no
    deals, ``rules`` gives the shape.

    >>> import bakers_lab as bl
    >>> m = deal_matrix([bl.deal(1)])
    >>> m.shape, m[0, 0].tolist()       # column 1 of game 1: 6H JH 5C AD
    ((1, 13, 4), [31, 36, 4, 39])
    """
    r = _common_rules(deals, rules)
    lengths = [len(col) for d in deals for col in d.columns]
    depth = max(lengths, default=r.cards_per_column)
    out = np.full((len(deals), r.columns, depth), -1, dtype=np.int8)
    if all(n == depth for n in lengths):  # every deal: one full block, filled at once
        flat = [card.index for d in deals for col in d.columns for card in col]
        out[...] = np.array(flat, dtype=np.int8).reshape(out.shape)
        return out
    for k, d in enumerate(deals):  # ragged columns (not made by dealing): column by column
        for i, col in enumerate(d.columns):
            out[k, i, : len(col)] = [c.index for c in col]
    return out


def home_matrix(deals: Sequence[Deal], rules: Rules | None = None) -> npt.NDArray[np.int8]:
    """Foundation pile heights at the deal: int8, shape ``(n_deals, 4)``, pile ``s``
    the one that starts with the Ace of suit ``s`` (Clubs, Spades, Hearts, Diamonds).

    >>> import bakers_lab as bl
    >>> home_matrix([bl.deal(1, variant="good_measure")]).tolist()   # AS and AD home
    [[0, 1, 0, 1]]
    """
    _common_rules(deals, rules)
    return np.array([[len(p) for p in d.foundations] for d in deals], dtype=np.int8).reshape(
        len(deals), 4
    )


def deal_arrays(
    deals: Sequence[Deal], rules: Rules | None = None
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], Rules]:
    """``(cards, home, rules)``: what every feature function takes."""
    r = _common_rules(deals, rules)
    return deal_matrix(deals, r), home_matrix(deals, r), r


# ---------------------------------------------------------------------------
# Shared array helpers (pure functions of the arrays)
# ---------------------------------------------------------------------------


def _lengths(cards: IntArray) -> IntArray:
    """Cards in each column, shape (n, C)."""
    length = np.zeros(cards.shape[:2], dtype=np.int16)
    for p in range(cards.shape[2]):  # a loop over positions beats a reduction over a short axis
        length += cards[:, :, p] >= 0
    return length


def _depth_grid(cards: IntArray) -> IntArray:
    """Depth of the card at each position, shape (n, C, D); negative where no card."""
    return _lengths(cards)[:, :, None] - np.arange(1, cards.shape[2] + 1, dtype=np.int16)


def _ids(x: IntArray) -> npt.NDArray[np.intp]:
    """Card ids as indexes into 53-entry tables: -1 (no card) becomes 52."""
    return np.where(x < 0, _NO_CARD, x).astype(np.intp)


def _per_card(table: IntArray, x: IntArray) -> IntArray:
    """``table[k, x[k, ...]]``: a per-deal table of shape (n, 53) read at card ids ``x``."""
    rows = np.arange(x.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1)) * table.shape[1]
    return table.ravel()[rows + _ids(x)]


def _depth_of(cards: IntArray, card: int) -> IntArray:
    """Depth of one card id in every deal, -1 where it is not in the tableau."""
    n, c, d = cards.shape
    hit = (cards == card).reshape(n, c * d)
    where = hit.argmax(axis=1)
    length = _lengths(cards)[np.arange(n), where // d]
    return np.where(hit[np.arange(n), where], length - 1 - where % d, -1)


def _card_depths(cards: IntArray) -> IntArray:
    """Depth of every card id, shape (n, 52); -1 for a card not in the tableau."""
    n = cards.shape[0]
    out = np.full((n, _NO_CARD + 1), -1, dtype=np.int16)
    rows = np.arange(n)[:, None, None] * (_NO_CARD + 1)
    out.ravel()[rows + _ids(cards)] = _depth_grid(cards)  # "no card" cells land in column 52 ...
    return out[:, :_NO_CARD]  # ... which is dropped


def _tops(cards: IntArray) -> IntArray:
    """The top card id of each column, shape (n, C); -1 for an empty column."""
    top = cards[:, :, 0]
    for p in range(1, cards.shape[2]):
        top = np.where(cards[:, :, p] >= 0, cards[:, :, p], top)
    return top


def _builds_table(rules: Rules) -> BoolArray:
    """``B[c, t]``: card ``c`` may lie on card ``t`` in the tableau (53 × 53; 52 = no card)."""
    rank, suit, red = _RANK, _SUIT, _RED
    ok = (
        (rank[None, :] == rank[:, None] + 1) & (rank[:, None] >= 1) & (rank[None, :] <= rules.ranks)
    )
    if rules.tableau_build == "same_suit":
        ok &= suit[:, None] == suit[None, :]
    elif rules.tableau_build == "alternate_colour":
        ok &= red[:, None] != red[None, :]
    return ok


def _targets_table(cards: IntArray, rules: Rules) -> IntArray:
    """``T[k, c]``: how many column tops of deal ``k`` card ``c`` builds on, shape (n, 53)."""
    tops = _ids(_tops(cards))
    n = tops.shape[0]
    offsets = (np.arange(n) * (_NO_CARD + 1))[:, None]
    histogram = np.bincount((tops + offsets).ravel(), minlength=n * (_NO_CARD + 1))
    histogram = histogram.reshape(n, _NO_CARD + 1).astype(np.float32)
    # small exact integers: a float product uses BLAS
    return (histogram @ _builds_table(rules).T.astype(np.float32)).astype(np.int16)


def _pile_takes(x: IntArray, home: IntArray, rules: Rules) -> BoolArray:
    """``out[..., s]``: foundation pile ``s`` takes card ``x`` now; ``x`` of shape (n, ...).

    A pile of height ``h`` has a top card of rank ``h``; on an alternate-colour
    pile its colour is the Ace's at odd heights, the other colour at even ones.
    """
    xr, xs, xred = _RANK[x], _SUIT[x], _RED[x]
    valid = (x >= 0) & (xr <= rules.ranks)
    extra = (1,) * (x.ndim - 1)
    out = np.zeros((*x.shape, 4), dtype=np.bool_)
    for s in range(4):
        h = home[:, s].astype(np.int16).reshape((-1, *extra))
        takes = (h == 0) & (x == s * 13)  # an empty pile takes its own Ace
        if rules.foundation_build == "same_suit":
            follow = xs == s
        else:
            top_red = Suit(s).is_red != (h % 2 == 0)
            follow = xred != top_red
        takes |= (h > 0) & (xr == h + 1) & follow
        out[..., s] = takes & valid
    return out


def _pile_tops(home: IntArray, rules: Rules) -> IntArray:
    """A card id standing for each pile's top card, shape (n, 4); -1 for an empty pile.

    Exact for same-suit piles and for alternate-colour piles of height ≤ 1
    (all a deal can have); above that, a card of the right rank and colour.
    """
    h = home.astype(np.int16)
    suits = np.broadcast_to(np.arange(4), h.shape)
    if rules.foundation_build == "alternate_colour":
        other = np.array([2, 2, 0, 0])  # a suit of the other colour
        suits = np.where(h % 2 == 1, suits, other[suits])
    return np.where(h > 0, suits * 13 + h - 1, -1)


def _lower_below(cards: IntArray) -> IntArray:
    """For each position, how many lower cards of the same suit lie below it in its
    column (its same-suit inversions as the upper card), shape (n, C, D)."""
    rank, suit = _RANK[cards], _SUIT[cards]
    out = np.zeros(cards.shape, dtype=np.int8)
    for q in range(1, cards.shape[2]):
        for p in range(q):
            out[:, :, q] += (
                (suit[:, :, q] == suit[:, :, p])
                & (rank[:, :, q] > rank[:, :, p])
                & (cards[:, :, p] >= 0)
            )
    return out * (cards >= 0)


def _movable(cards: IntArray, rules: Rules) -> BoolArray:
    """Positions whose card may move now (the top card; with ``move_unit="sequence"``,
    also each card under it down the built run), shape (n, C, D)."""
    d = cards.shape[2]
    is_top = np.arange(d) == (_lengths(cards) - 1)[:, :, None]
    if rules.move_unit != "sequence":
        return is_top
    # built[..., p]: the card at p + 1 lies on the card at p as the tableau build allows
    built = _builds_table(rules)[_ids(cards[:, :, 1:]), _ids(cards[:, :, :-1])]
    movable = is_top.copy()
    for p in range(d - 2, -1, -1):
        movable[:, :, p] |= movable[:, :, p + 1] & built[:, :, p]
    return movable


# ---------------------------------------------------------------------------
# Feature functions
# ---------------------------------------------------------------------------


def _card_depth_feature(rank: int, suit: int) -> FeatureFunc:
    name = {1: "Ace", 2: "Two"}[rank]

    def feature(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
        return _depth_of(cards, suit * 13 + rank - 1)

    feature.__name__ = feature.__qualname__ = f"f_depth_{name.lower()}_{_SUIT_LETTERS[suit]}"
    feature.__doc__ = f"Cards above the {name} of {Suit(suit).name.title()} (-1 if it is home)."
    return feature


def _rank_depth_sum(rank: int, cards: IntArray) -> IntArray:
    total = np.zeros(cards.shape[0], dtype=np.int32)
    for s in range(4):
        total += np.maximum(_depth_of(cards, s * 13 + rank - 1), 0)
    return total


def f_depth_aces(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards above the Aces, summed over the Aces not home."""
    return _rank_depth_sum(1, cards)


def f_depth_twos(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards above the Twos, summed over the Twos not home."""
    return _rank_depth_sum(2, cards)


def _next_needed_depths(cards: IntArray, rules: Rules) -> IntArray:
    """Depth of each suit's lowest card not home, shape (n, 4); -1 if the suit is all home."""
    depths = _card_depths(cards)
    out = np.empty((cards.shape[0], 4), dtype=np.int16)
    for s in range(4):
        suit_depths = depths[:, s * 13 : s * 13 + rules.ranks]
        first = (suit_depths >= 0).argmax(axis=1)  # all -1 gives index 0, value -1
        out[:, s] = np.take_along_axis(suit_depths, first[:, None], axis=1)[:, 0]
    return out


def _next_depth_feature(suit: int) -> FeatureFunc:
    def feature(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
        return _next_needed_depths(cards, rules)[:, suit]

    feature.__name__ = feature.__qualname__ = f"f_next_depth_{_SUIT_LETTERS[suit]}"
    feature.__doc__ = (
        f"Cards above the lowest {Suit(suit).name.title()} card not home (-1 if none is left)."
    )
    return feature


def f_next_depth(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards above each suit's lowest card not home, summed over the suits."""
    return np.maximum(_next_needed_depths(cards, rules), 0).sum(axis=1)


def _inversion_band(lo: int, hi: int, cards: IntArray) -> IntArray:
    rank = _RANK[cards]
    return np.where((rank >= lo) & (rank <= hi), _lower_below(cards), 0).sum(axis=(1, 2))


def f_inversions(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Same-suit inversions: pairs of a card above a lower card of its suit in its column."""
    return _lower_below(cards).sum(axis=(1, 2))


def f_inversions_low(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Same-suit inversions whose upper card is of rank A-4."""
    return _inversion_band(1, 4, cards)


def f_inversions_mid(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Same-suit inversions whose upper card is of rank 5-9."""
    return _inversion_band(5, 9, cards)


def f_inversions_high(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Same-suit inversions whose upper card is of rank T-K."""
    return _inversion_band(10, 13, cards)


def f_max_column_inversions(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """The most same-suit inversions in any one column."""
    return _lower_below(cards).sum(axis=2).max(axis=1, initial=0)


def f_blocked_cards(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards above a lower card of their suit in their column (they must visit the tableau)."""
    return (_lower_below(cards) > 0).sum(axis=(1, 2))


def _over_lower(rank: int, cards: IntArray) -> IntArray:
    return ((_lower_below(cards) > 0) & (_RANK[cards] == rank)).sum(axis=(1, 2))


def f_queens_over_lower(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Queens (rank under the King) lying above a lower card of their suit in their column."""
    return _over_lower(rules.top_rank - 1, cards)


def f_kings_over_lower(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Kings (top rank) lying above a lower card of their suit in their column."""
    return _over_lower(rules.top_rank, cards)


def f_built_pairs(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards lying directly on a card one rank higher that the tableau build accepts."""
    return _builds_table(rules)[_ids(cards[:, :, 1:]), _ids(cards[:, :, :-1])].sum(axis=(1, 2))


def f_multi_king_columns(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Columns holding two or more Kings (top rank)."""
    kings = (_RANK[cards] == rules.top_rank).sum(axis=2)
    return (kings >= 2).sum(axis=1)


def f_legal_moves(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Legal moves at the start, counted as GameState.legal_moves counts them."""
    tops = _tops(cards)
    targets = _targets_table(cards, rules)
    total = _pile_takes(tops, home, rules).sum(axis=(1, 2))  # one move per accepting pile
    if rules.move_unit == "sequence":
        movable = _movable(cards, rules)
        total += np.where(movable, _per_card(targets, cards), 0).sum(axis=(1, 2))
    else:
        movable = np.arange(cards.shape[2]) == (_lengths(cards) - 1)[:, :, None]
        total += _per_card(targets, tops).sum(axis=1)
    has_empty = (tops < 0).any(axis=1)
    if rules.empty_column != "none":
        takes = cards >= 0
        if rules.empty_column == "king":
            takes = takes & (_RANK[cards] == rules.top_rank)
        not_bottom = np.arange(cards.shape[2]) > 0  # a whole column does not move to an empty one
        total += np.where(has_empty, (movable & takes & not_bottom).sum(axis=(1, 2)), 0)
    if rules.foundation_return:
        pile_tops = _pile_tops(home, rules)
        total += np.where(pile_tops >= 0, _per_card(targets, pile_tops), 0).sum(axis=1)
        if rules.empty_column != "none":
            takes = pile_tops >= 0
            if rules.empty_column == "king":
                takes = takes & (_RANK[pile_tops] == rules.top_rank)
            total += np.where(has_empty, takes.sum(axis=1), 0)
    return total


def f_top_cards_playable(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Top cards that can move now, onto another column's top card or to a foundation."""
    tops = _tops(cards)
    to_column = _per_card(_targets_table(cards, rules), tops) > 0
    return ((to_column | _pile_takes(tops, home, rules).any(axis=-1)) & (tops >= 0)).sum(axis=1)


def f_deep_low_cards(cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
    """Cards of rank A-3 (not home) with two or more cards above them."""
    return ((_RANK[cards] <= 3) & (cards >= 0) & (_depth_grid(cards) >= 2)).sum(axis=(1, 2))


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Feature:
    """One deal feature: its column name, one-line meaning and function."""

    name: str
    doc: str
    func: FeatureFunc

    def __call__(self, cards: IntArray, home: IntArray, rules: Rules) -> IntArray:
        return self.func(cards, home, rules)


def _feature(func: FeatureFunc) -> Feature:
    doc = (func.__doc__ or "").strip().splitlines()[0]
    return Feature(func.__name__, doc, func)


#: Every feature by column name, in column order (read-only).
FEATURES: Mapping[str, Feature] = MappingProxyType(
    {
        f.name: f
        for f in map(
            _feature,
            (
                *(_card_depth_feature(1, s) for s in range(4)),
                *(_card_depth_feature(2, s) for s in range(4)),
                f_depth_aces,
                f_depth_twos,
                *(_next_depth_feature(s) for s in range(4)),
                f_next_depth,
                f_inversions,
                f_inversions_low,
                f_inversions_mid,
                f_inversions_high,
                f_max_column_inversions,
                f_blocked_cards,
                f_queens_over_lower,
                f_kings_over_lower,
                f_built_pairs,
                f_multi_king_columns,
                f_legal_moves,
                f_top_cards_playable,
                f_deep_low_cards,
            ),
        )
    }
)


def features_from_arrays(cards: IntArray, home: IntArray, rules: Rules) -> pd.DataFrame:
    """The feature table of arrays as :func:`deal_arrays` makes them."""
    cards = np.asarray(cards)
    home = np.asarray(home)
    if cards.ndim != 3 or cards.shape[1] != rules.columns:
        raise ValueError(
            f"cards must have shape (n_deals, {rules.columns}, depth) for "
            f"{rules.name}; got {cards.shape}"
        )
    if home.shape != (cards.shape[0], 4):
        raise ValueError(f"home must have shape ({cards.shape[0]}, 4); got {home.shape}")
    columns: dict[str, IntArray] = {}
    for name, feature in FEATURES.items():
        values = np.asarray(feature(cards, home, rules))
        if values.shape != (cards.shape[0],):
            raise AssertionError(f"{name} returned shape {values.shape}")  # pragma: no cover
        columns[name] = values.astype(FEATURE_DTYPE)
    return pd.DataFrame(columns, index=pd.RangeIndex(cards.shape[0]))


def deal_features(deals: Iterable[Deal], rules: Rules | None = None) -> pd.DataFrame:
    """One row per deal (index 0 … n-1), the ``f_*`` columns of :data:`FEATURES` (int16).

    All deals must share one Rules record (``ValueError`` otherwise); ``rules``,
    if given, is the record they must have (and gives an empty table its columns).
    """
    if isinstance(deals, Deal):
        deals = [deals]  # one deal: its one row
    elif isinstance(deals, str | bytes) or not isinstance(deals, Iterable):
        raise TypeError(f"deal_features takes Deals (a list of them), not {describe(deals)}")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules record or None, not {describe(rules)}")
    deals = list(deals)
    if not deals and rules is None:
        return pd.DataFrame(
            {name: np.empty(0, dtype=FEATURE_DTYPE) for name in FEATURES}, index=pd.RangeIndex(0)
        )
    return features_from_arrays(*deal_arrays(deals, rules))


def describe_features() -> pd.DataFrame:
    """The features and their one-line meanings: columns ``name`` and ``meaning``."""
    return pd.DataFrame(
        {"name": [f.name for f in FEATURES.values()], "meaning": [f.doc for f in FEATURES.values()]}
    )
