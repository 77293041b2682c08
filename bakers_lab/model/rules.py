"""The rules record and the named presets of docs/rules.md.

Every variant is data: one frozen :class:`Rules` record with a field per rule
column of docs/rules.md.  Code never asks "is this Good Measure?"; it asks the
record ("how many columns?", "what does an empty column take?").

>>> r = rules("good_measure")
>>> r.columns, r.cards_per_column, r.aces_at_start
(10, 5, 2)
>>> rules("bakers_dozen").replace(empty_column="any").empty_column
'any'
>>> rules("bakers_doz")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bakers_lab.model.rules.UnknownVariantError: unknown variant 'bakers_doz'; known: ...

"King" in these rules means the highest rank of the deck: with ``ranks=6``
(a teaching deck A–6) the Sixes play the Kings' part.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from bakers_lab.utils.validate import as_bool, as_int, describe, shown

__all__ = [
    "PRESETS",
    "EmptyColumn",
    "FoundationBuild",
    "MoveUnit",
    "Rules",
    "RulesError",
    "TableauBuild",
    "UnknownVariantError",
    "differences",
    "lying_name",
    "rules",
    "variant_names",
]

#: What a top card may go on in the tableau: one rank higher of any suit, of its own suit,
#: or of the other colour.
TableauBuild = Literal["any_suit", "same_suit", "alternate_colour"]
#: What an emptied column takes: nothing, a King, or any card.
EmptyColumn = Literal["none", "king", "any"]
#: What moves at once: one card, or a built run as a unit.
MoveUnit = Literal["card", "sequence"]
#: How a foundation is built from its Ace: in one suit, or in alternating colours.
FoundationBuild = Literal["same_suit", "alternate_colour"]


class RulesError(ValueError):
    """A rules record whose fields do not fit together."""


class UnknownVariantError(RulesError, KeyError):
    """A variant name that is not one of the presets."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


@dataclass(frozen=True)
class Rules:
    """One complete rule set; the presets are just names for records.

    Fields (one per column of docs/rules.md's variant table):

    - ``columns`` × ``cards_per_column``: the tableau at the deal.
    - ``king_step``: at the deal, Kings go to the bottom of their column.
    - ``aces_at_start``: this many Aces go to their foundations before play.
    - ``tableau_build``: what a top card may go on (one rank lower and
      ``any_suit``, ``same_suit`` or ``alternate_colour``).
    - ``empty_column``: what an emptied column takes: ``none``, ``king`` or ``any``.
    - ``move_unit``: ``card`` (one card a move) or ``sequence`` (a built run
      moves as a unit, named by its deepest card).
    - ``foundation_build``: ``same_suit`` (A…K of one suit), or
      ``alternate_colour`` (pile *s* starts with the Ace of suit *s*, then up
      by rank in alternating colour).
    - ``foundation_return``: the top card of a foundation may go back onto a
      column that accepts it.
    - ``ranks``: ranks per suit (13; fewer, e.g. 6 for A–6, for teaching and tests).
    - ``pysolfc_id``: PySolFC's game id, where PySolFC has the game.
    """

    name: str = "custom"
    columns: int = 13
    cards_per_column: int = 4
    king_step: bool = True
    aces_at_start: int = 0
    tableau_build: TableauBuild = "any_suit"
    empty_column: EmptyColumn = "none"
    move_unit: MoveUnit = "card"
    foundation_build: FoundationBuild = "same_suit"
    foundation_return: bool = False
    ranks: int = 13
    pysolfc_id: int | None = None

    def __post_init__(self) -> None:
        for field, allowed in (
            ("tableau_build", get_args(TableauBuild)),
            ("empty_column", get_args(EmptyColumn)),
            ("move_unit", get_args(MoveUnit)),
            ("foundation_build", get_args(FoundationBuild)),
        ):
            value = getattr(self, field)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(
                    f"{field} must be one of {', '.join(allowed)}; got {describe(value)}"
                )
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(f"name must be a non-empty str, not {describe(self.name)}")
        limits = {"ranks": (2, 13), "columns": (1, 52), "cards_per_column": (1, 52),
                  "aces_at_start": (0, 4)}  # fmt: skip
        for field, (low, high) in limits.items():
            value = as_int(getattr(self, field), field, low=low, high=high, error=RulesError)
            object.__setattr__(self, field, value)  # numpy and Decimal integers become int
        for field in ("king_step", "foundation_return"):
            object.__setattr__(self, field, as_bool(getattr(self, field), field, error=RulesError))
        if self.pysolfc_id is not None:
            pid = as_int(self.pysolfc_id, "pysolfc_id", low=1, error=RulesError)
            object.__setattr__(self, "pysolfc_id", pid)
        dealt = self.columns * self.cards_per_column + self.aces_at_start
        if dealt != self.deck_size:
            raise RulesError(
                f"{self.columns} columns × {self.cards_per_column} cards + "
                f"{self.aces_at_start} aces = {dealt} cards, but the deck has "
                f"{self.deck_size} (4 suits × {self.ranks} ranks)"
            )

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 4 × ``ranks``."""
        return 4 * self.ranks

    @property
    def top_rank(self) -> int:
        """The highest rank ("King"): 13 in a full deck."""
        return self.ranks

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (named ``custom`` unless ``name`` is given)."""
        changes.setdefault("name", "custom")
        if "pysolfc_id" not in changes:
            changes["pysolfc_id"] = None
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


_PRESET_LIST = (
    Rules(name="bakers_dozen", pysolfc_id=31),
    Rules(name="bakers_dozen_return", foundation_return=True, pysolfc_id=31),
    Rules(name="good_measure", columns=10, cards_per_column=5, aces_at_start=2, pysolfc_id=86),
    Rules(name="spanish_patience", foundation_build="alternate_colour", pysolfc_id=85),
    Rules(name="portuguese_solitaire", king_step=False, empty_column="king", pysolfc_id=308),
    Rules(name="spanish_patience_ii", king_step=False, empty_column="any", pysolfc_id=664),
    Rules(name="house_empty_any", empty_column="any"),
    Rules(name="house_sequences", move_unit="sequence"),
)

#: The named presets of docs/rules.md, by name (read-only).
PRESETS: Mapping[str, Rules] = MappingProxyType({r.name: r for r in _PRESET_LIST})

#: Each preset's name in players' words, for pictures and captions.
TITLES: Mapping[str, str] = MappingProxyType(
    {
        "bakers_dozen": "Baker's Dozen",
        "bakers_dozen_return": "Baker's Dozen with cards back from the foundations",
        "good_measure": "Good Measure",
        "spanish_patience": "Spanish Patience",
        "portuguese_solitaire": "Portuguese Solitaire",
        "spanish_patience_ii": "Spanish Patience II",
        "house_empty_any": "Baker's Dozen, any card to an empty column",
        "house_sequences": "Baker's Dozen, moving sequences",
    }
)


def title(r: Rules) -> str:
    """The rules' name in players' words: a preset's title, else its name.

    >>> title(PRESETS["bakers_dozen"]), title(PRESETS["bakers_dozen"].replace(empty_column="any"))
    ("Baker's Dozen", 'custom')
    """
    return TITLES.get(r.name, r.name) if PRESETS.get(r.name) == r else r.name


def differences(r: Rules, other: Rules) -> list[str]:
    """The fields in which two records differ (``name`` aside)."""
    return [
        f.name
        for f in dataclasses.fields(Rules)
        if f.name not in ("name",) and getattr(r, f.name) != getattr(other, f.name)
    ]


def lying_name(r: Rules) -> str | None:
    """For a record named like a preset that is not that preset (a field differs):
    a phrase saying so, for an error message; else None.

    >>> lying_name(Rules(name="good_measure"))
    "a Rules record named 'good_measure' that is not the preset good_measure \
(it differs in columns, cards_per_column, aces_at_start, pysolfc_id)"
    """
    preset = PRESETS.get(r.name)
    if preset is None or preset == r:
        return None
    return (
        f"a Rules record named {r.name!r} that is not the preset {r.name} "
        f"(it differs in {', '.join(differences(r, preset))})"
    )


def variant_names() -> list[str]:
    """The preset names, in docs/rules.md's order."""
    return list(PRESETS)


def rules(variant: str | Rules = "bakers_dozen") -> Rules:
    """The rules record for a preset name; a :class:`Rules` is returned as it is.

    >>> rules("portuguese_solitaire").empty_column
    'king'
    """
    if isinstance(variant, Rules):
        return variant
    if not isinstance(variant, str):
        raise UnknownVariantError(
            f"a variant is a preset name or a Rules record, not {describe(variant)}"
        )
    try:
        return PRESETS[variant]
    except KeyError:
        raise UnknownVariantError(
            f"unknown variant {shown(repr(variant))}; known: {', '.join(PRESETS)}"
        ) from None
