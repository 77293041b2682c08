"""Pictures of a board: plain text, an inline SVG, and the HTML Jupyter shows.

Display code only: standard library, no plotting or widget packages.  The
model modules import this lazily (from ``__str__`` and ``_repr_html_``).

``columns`` is a sequence of columns, each a sequence of :class:`Card`
(deepest card first, the playable card last); ``foundations`` is the four
foundation piles, pile ``s`` starting with the Ace of ``Suit(s)``.  A pile is
shown by its top card and labelled by its Ace's suit, so piles that hold other
suits above the Ace (Spanish Patience) read correctly too.

>>> from bakers_lab.model.cards import Card
>>> cols = [[Card.parse(t) for t in "KS TC AC 2D".split()], []]
>>> print(board_str(cols, [(), (), (), ()], title="demo", highlight=["2D"]))
demo
Foundations: ♣ -  ♠ -  ♥ -  ♦ -
 1: KS TC AC *2D
 2: (empty)
>>> svg = board_svg(cols, [(), (), (), ()])
>>> svg.count("data-card="), 'data-card="2D"' in svg
(4, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from bakers_lab.model.cards import Card, Suit

__all__ = ["BLACK", "HIGHLIGHT", "RED", "Sentences", "board_html", "board_str", "board_svg"]

#: Ink of Hearts and Diamonds.
RED = "#c0392b"
#: Ink of Clubs and Spades.
BLACK = "#111111"
#: Outline colour of highlighted cards.
HIGHLIGHT = "#f39c12"

Columns = Sequence[Sequence[Card]]
Piles = Sequence[Sequence[Card]]
Highlight = Card | str | Iterable[Card | str]
#: Where a picked card may go: column indices and foundation suit letters.
Targets = Iterable[int | str]

# -- geometry of the picture (SVG user units = CSS px at natural size) -------
_CARD_W = 66
_CARD_H = 92
_RADIUS = 6
_FAN = 25  # vertical step between overlapping cards of a column
_GAP_X = 12  # between columns
_MARGIN = 16
_ROW_GAP = 20  # between tableau rows
_LABEL_H = 18  # column-number strip above each tableau row
_FELT = "#2f6b4a"
_FELT_LINE = "rgba(255,255,255,0.7)"
_HIGHLIGHT_FACE = "#fff4dc"  # face of a highlighted card
_TARGET = "#ffd65c"  # frame of a place the picked card may go
_FONT = "'DejaVu Sans', 'Segoe UI Symbol', 'Segoe UI', Helvetica, Arial, sans-serif"

_LAYOUT_RE = re.compile(r"^\s*\d+(\s*\+\s*\d+)*\s*$")


# -- helpers -----------------------------------------------------------------
def _target_set(targets: Targets, ncols: int) -> frozenset[int | str]:
    """Normalise ``targets``: column indices below ``ncols`` and suit letters."""
    out: set[int | str] = set()
    for t in targets:
        if isinstance(t, str) and t.upper() in ("C", "S", "H", "D"):
            out.add(t.upper())
        elif isinstance(t, int) and not isinstance(t, bool) and 0 <= t < ncols:
            out.add(t)
        else:
            raise ValueError(
                f"targets are column indices from 0 to {ncols - 1} and foundation suit "
                f"letters C S H D, not {t!r}"
            )
    return frozenset(out)


def _highlight_set(highlight: Highlight | None) -> frozenset[Card]:
    """Normalise ``highlight`` (a Card, a card text, or a collection of either)."""
    if highlight is None:
        return frozenset()
    if isinstance(highlight, (Card, str)):
        highlight = [highlight]
    out: set[Card] = set()
    for h in highlight:
        if isinstance(h, Card):
            out.add(h)
        elif isinstance(h, str):
            out.add(Card.parse(h))
        else:
            raise TypeError(f"highlight takes Cards or card texts like '7C', not {h!r}")
    return frozenset(out)


def _check_piles(foundations: Piles) -> None:
    if len(foundations) != 4:
        raise ValueError(f"there are 4 foundation piles, not {len(foundations)}")


def _rows(n_columns: int, layout: str) -> list[list[int]]:
    """Column indices per tableau row for a layout name.

    >>> _rows(13, "7+6")
    [[0, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    >>> _rows(3, "row")
    [[0, 1, 2]]
    """
    allowed = "layout must be 'row' (all columns in one row) or row sizes joined by '+', like '7+6'"
    if not isinstance(layout, str):
        raise ValueError(f"{allowed}; got {layout!r}")
    if layout.strip() == "row":
        return [list(range(n_columns))]
    if not _LAYOUT_RE.match(layout):
        raise ValueError(f"unknown layout {layout!r}: {allowed}")
    sizes = [int(p) for p in layout.split("+")]
    if any(s <= 0 for s in sizes):
        raise ValueError(f"layout {layout!r} has an empty row: {allowed}")
    if sum(sizes) != n_columns:
        half = (n_columns + 1) // 2
        example = f"'{half}+{n_columns - half}'" if n_columns > 1 else "'row'"
        raise ValueError(
            f"layout {layout!r} places {sum(sizes)} columns but the board has "
            f"{n_columns}: layout must be 'row' or row sizes joined by '+' "
            f"that add up to {n_columns}, like {example}"
        )
    rows: list[list[int]] = []
    start = 0
    for s in sizes:
        rows.append(list(range(start, start + s)))
        start += s
    return rows


def _pile_is_plain(pile: Sequence[Card], suit: Suit) -> bool:
    """A same-suit pile Ace upwards (its top card says how many cards it holds)."""
    return all(c.suit == suit for c in pile)


def _ink(card: Card) -> str:
    return RED if card.is_red else BLACK


def _face_rank(card: Card) -> str:
    """Rank as printed on a card face: ``10`` rather than ``T``."""
    return "10" if card.rank == 10 else str(card)[0]


# -- text ----------------------------------------------------------------------
def board_str(
    columns: Columns, foundations: Piles, *, title: str = "", highlight: Highlight | None = ()
) -> str:
    """The board as plain text: title, foundations, one numbered line per column.

    Each foundation pile shows its top card after its Ace's suit symbol (``-``
    when empty), and its card count in brackets when it holds mixed suits.
    Highlighted cards are marked with ``*``.

    >>> from bakers_lab.model.cards import Card
    >>> c = Card.parse
    >>> print(board_str([[c("KS"), c("7C")]], [[c("AC"), c("2H")], [], [c("AH")], []],
    ...                 highlight=[c("7C")]))
    Foundations: ♣ 2H (2)  ♠ -  ♥ AH  ♦ -
     1: KS *7C
    """
    _check_piles(foundations)
    marked = _highlight_set(highlight)

    def name(card: Card) -> str:
        return f"*{card}" if card in marked else str(card)

    lines = [title] if title else []
    piles = []
    for s, pile in enumerate(foundations):
        suit = Suit(s)
        if not pile:
            piles.append(f"{suit.symbol} -")
        elif _pile_is_plain(pile, suit):
            piles.append(f"{suit.symbol} {name(pile[-1])}")
        else:
            piles.append(f"{suit.symbol} {name(pile[-1])} ({len(pile)})")
    lines.append("Foundations: " + "  ".join(piles))
    width = max(2, len(str(len(columns))))
    for i, col in enumerate(columns, start=1):
        body = " ".join(name(c) for c in col) if col else "(empty)"
        lines.append(f"{i:>{width}}: {body}")
    return "\n".join(lines)


# -- SVG -------------------------------------------------------------------------
def _card_svg(card: Card, x: float, y: float, *, full: bool, marked: bool) -> str:
    """One card at (x, y): white rounded rectangle, corner index, centre pip if
    the card is fully visible, outline if highlighted."""
    ink = _ink(card)
    rank, sym = _face_rank(card), card.suit.symbol
    flag = ' data-highlight="true"' if marked else ""
    parts = [
        f'<g class="card" data-card="{card}"{flag} transform="translate({x:g},{y:g})">',
        f"<title>{card.pretty()}</title>",
        f'<rect width="{_CARD_W}" height="{_CARD_H}" rx="{_RADIUS}" '
        f'fill="{_HIGHLIGHT_FACE if marked else "#ffffff"}" stroke="#8a8a8a" stroke-width="1"/>',
        f'<text x="5" y="18" font-size="16" font-weight="bold" fill="{ink}">'
        f'{rank}<tspan dx="1">{sym}</tspan></text>',
    ]
    if full:
        parts.append(
            f'<text x="{_CARD_W / 2:g}" y="{_CARD_H / 2 + 17:g}" font-size="44" '
            f'text-anchor="middle" fill="{ink}">{sym}</text>'
        )
        parts.append(
            f'<text x="{_CARD_W - 5}" y="{_CARD_H - 7}" font-size="12" '
            f'font-weight="bold" text-anchor="end" fill="{ink}">{rank}{sym}</text>'
        )
    if marked:
        # Outline only what is seen of the card: all of it, or the strip above the
        # next card of its column (a full outline would seem to frame that card too).
        h = _CARD_H + 3 if full else _FAN + 1.5
        parts.append(
            f'<rect x="-1.5" y="-1.5" width="{_CARD_W + 3}" height="{h:g}" '
            f'rx="{_RADIUS + 1.5}" fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _svg(
    columns: Columns,
    foundations: Piles,
    *,
    title: str,
    highlight: Highlight | None,
    layout: str,
    show_title: bool,
    targets: Targets = (),
) -> str:
    _check_piles(foundations)
    rows = _rows(len(columns), layout)
    marked = _highlight_set(highlight)
    aims = _target_set(targets, len(columns))

    def aim(x: float, y: float) -> str:  # a dashed gold frame: a card may go here
        return (
            f'<rect class="target" x="{x - 4:g}" y="{y - 4:g}" width="{_CARD_W + 8}" '
            f'height="{_CARD_H + 8}" rx="{_RADIUS + 3}" fill="rgba(255,214,92,0.18)" '
            f'stroke="{_TARGET}" stroke-width="3" stroke-dasharray="7 4"/>'
        )

    step = _CARD_W + _GAP_X

    def row_width(n: int) -> int:
        return n * _CARD_W + max(n - 1, 0) * _GAP_X

    inner_w = max([row_width(len(r)) for r in rows] + [row_width(4)])
    out: list[str] = []
    y = _MARGIN
    if show_title and title:
        out.append(
            f'<text x="{_MARGIN}" y="{y + 15}" font-size="16" font-weight="bold" '
            f'fill="#ffffff">{escape(title)}</text>'
        )
        y += 28

    # foundations
    out.append(
        f'<text x="{_MARGIN}" y="{y + 11}" font-size="12" fill="{_FELT_LINE}">Foundations</text>'
    )
    y += _LABEL_H
    for s, pile in enumerate(foundations):
        suit = Suit(s)
        x: float = _MARGIN + s * step
        flag = ' data-target="true"' if suit.letter in aims else ""
        out.append(
            f'<g class="foundation" data-foundation="{suit.letter}" data-count="{len(pile)}"{flag}>'
        )
        if not pile:
            out.append(
                f'<rect x="{x}" y="{y}" width="{_CARD_W}" height="{_CARD_H}" '
                f'rx="{_RADIUS}" fill="rgba(255,255,255,0.08)" stroke="{_FELT_LINE}" '
                f'stroke-width="1.5"/>'
            )
            out.append(
                f'<text x="{x + _CARD_W / 2:g}" y="{y + _CARD_H / 2 + 15:g}" '
                f'font-size="40" text-anchor="middle" fill="rgba(255,255,255,0.35)">'
                f"{suit.symbol}</text>"
            )
        else:
            for k in range(min(len(pile) - 1, 2), 0, -1):  # edges of the cards beneath
                out.append(
                    f'<rect x="{x + 2 * k}" y="{y + 2 * k}" width="{_CARD_W}" '
                    f'height="{_CARD_H}" rx="{_RADIUS}" fill="#e8e8e8" '
                    f'stroke="#8a8a8a" stroke-width="1"/>'
                )
            out.append(_card_svg(pile[-1], x, y, full=True, marked=pile[-1] in marked))
            label = f"{suit.symbol} pile · {len(pile)}"
            out.append(
                f'<text x="{x + _CARD_W / 2:g}" y="{y + _CARD_H + 17}" font-size="11" '
                f'text-anchor="middle" fill="{_FELT_LINE}">{label}</text>'
            )
        if suit.letter in aims:
            out.append(aim(x, y))
        out.append("</g>")
    y += _CARD_H + 30

    # tableau
    for r, row in enumerate(rows):
        x0 = _MARGIN + (inner_w - row_width(len(row))) / 2
        height = max([len(columns[i]) for i in row] + [1])
        for j, i in enumerate(row):
            x = x0 + j * step
            col = columns[i]
            out.append(
                f'<text x="{x + _CARD_W / 2:g}" y="{y + 12}" font-size="12" '
                f'text-anchor="middle" fill="{_FELT_LINE}">{i + 1}</text>'
            )
            flag = ' data-target="true"' if i in aims else ""
            out.append(
                f'<g class="column" data-col="{i}" data-row="{r}" '
                f'data-x="{x:g}" data-y="{y + _LABEL_H}" data-size="{len(col)}"{flag}>'
            )
            if not col:
                out.append(
                    f'<rect x="{x:g}" y="{y + _LABEL_H}" width="{_CARD_W}" '
                    f'height="{_CARD_H}" rx="{_RADIUS}" fill="none" '
                    f'stroke="{_FELT_LINE}" stroke-width="1.5" stroke-dasharray="6 4"/>'
                )
            for k, card in enumerate(col):
                out.append(
                    _card_svg(
                        card,
                        x,
                        y + _LABEL_H + k * _FAN,
                        full=k == len(col) - 1,
                        marked=card in marked,
                    )
                )
            if i in aims:
                out.append(aim(x, y + _LABEL_H + max(len(col) - 1, 0) * _FAN))
            out.append("</g>")
        y += _LABEL_H + (height - 1) * _FAN + _CARD_H + _ROW_GAP
    total_w = inner_w + 2 * _MARGIN
    total_h = y - _ROW_GAP + _MARGIN
    label = escape(title or "Baker's Dozen board", quote=True)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bakers-lab-svg" '
        f'viewBox="0 0 {total_w:g} {total_h:g}" width="{total_w:g}" height="{total_h:g}" '
        f'role="img" aria-label="{label}" style="max-width:100%;height:auto" '
        f'font-family="{_FONT}">'
        f"<title>{escape(title or 'Baker' + chr(39) + 's Dozen board')}</title>"
        f'<rect width="{total_w:g}" height="{total_h:g}" rx="10" fill="{_FELT}"/>'
    )
    return head + "".join(out) + "</svg>"


def board_svg(
    columns: Columns,
    foundations: Piles,
    *,
    title: str = "",
    highlight: Highlight | None = (),
    layout: str = "row",
) -> str:
    """The board as an inline SVG picture (scales by its ``viewBox``).

    Foundations at the top (each pile's top card, or an outline with its suit),
    then the tableau: each column's cards fanned downwards, the playable card
    at the bottom and fully visible.  ``layout`` is ``"row"`` (all columns in
    one row) or row sizes joined by ``+``, e.g. ``"7+6"`` (the two-row picture
    of Baker's Dozen).  Highlighted cards (Cards or texts like ``"7C"``) get a
    thick orange outline.  Every card is a ``<g data-card="7C">`` with a
    ``<title>7♣</title>``; every column a ``<g data-col="i" data-row="r">``.

    >>> from bakers_lab.model.cards import Card
    >>> svg = board_svg([[Card.parse("KS")], [Card.parse("7H")]], [(), (), (), ()],
    ...                 highlight="7H", layout="1+1")
    >>> svg.startswith("<svg") and svg.count('data-highlight="true"')
    1
    >>> board_svg([], [(), (), (), ()], layout="diagonal")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown layout 'diagonal': layout must be 'row' (...) or ..., like '7+6'
    """
    return _svg(
        columns, foundations, title=title, highlight=highlight, layout=layout, show_title=True
    )


def board_html(
    columns: Columns,
    foundations: Piles,
    *,
    title: str = "",
    highlight: Highlight | None = (),
    targets: Targets = (),
    layout: str = "row",
) -> str:
    """An HTML fragment for Jupyter's ``_repr_html_``: a ``<div
    class="bakers-lab-board">`` holding an optional title caption and the SVG
    of :func:`board_svg` (same arguments).  ``targets`` frames where a picked
    card may go: column indices (0-based) and foundation piles by suit letter
    (``"H"``); their groups carry ``data-target="true"``.

    >>> from bakers_lab.model.cards import Card
    >>> html = board_html([[Card.parse("KS")]], [(), (), (), ()], title="A & B")
    >>> html.startswith('<div class="bakers-lab-board"'), "A &amp; B" in html
    (True, True)
    """
    svg = _svg(
        columns,
        foundations,
        title=title,
        highlight=highlight,
        layout=layout,
        show_title=False,
        targets=targets,
    )
    caption = (
        f'<div class="bakers-lab-title" style="font-weight:bold;margin:0 0 4px 2px">'
        f"{escape(title)}</div>"
        if title
        else ""
    )
    return (
        f'<div class="bakers-lab-board" style="display:inline-block;max-width:100%;'
        f'font-family:{_FONT.replace(chr(39), "")}">{caption}{svg}</div>'
    )


#: How a paragraph of :class:`Sentences` wraps: between words only.  (JupyterLab shows
#: plain text in a ``<pre>`` with ``word-break: break-all``, which splits words anywhere.)
_PROSE = "white-space:normal;word-break:normal;overflow-wrap:normal;margin:0 0 0.5em 0"


@dataclass(frozen=True)
class Sentences:
    """Text in words that a notebook shows as paragraphs, wrapped between words.

    A summary shown as a plain string (``result.summary()`` as a cell's last
    line, or printed) lands in JupyterLab's preformatted output, whose style
    breaks a long line in the middle of a word ("par is 6 / 3 moves"); shown as
    ``Sentences(result.summary())`` it is a paragraph of HTML instead.  Blank
    lines separate paragraphs; the text is escaped.

    >>> s = Sentences("game 5: lost after 136 moves & more\\n\\nsecond")
    >>> s._repr_html_().count("<p "), "&amp;" in s._repr_html_(), str(s)[:6]
    (2, True, 'game 5')
    """

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"Sentences takes a str, not {type(self.text).__name__}")

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", self.text) if p.strip()]
        return "".join(
            f'<p class="bakers-lab-prose" style="{_PROSE}">{escape(p)}</p>' for p in paragraphs
        )
