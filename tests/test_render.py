"""Tests of bakers_lab.model.render: text board, SVG picture, HTML fragment."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from pinned import BAKERS_DOZEN_1, BAKERS_DOZEN_1_COLUMNS

import bakers_lab as bl
from bakers_lab.model.cards import Card
from bakers_lab.model.render import BLACK, HIGHLIGHT, RED, board_html, board_str, board_svg

# the 52 card names, written out here rather than taken from bakers_lab.Card
ALL_CARDS = {rank + suit for rank in "A23456789TJQK" for suit in "CSHD"}
SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
VOID = {"br", "hr", "img", "input", "meta", "link"}


class BoardParser(HTMLParser):
    """Collects cards, columns and foundations of a rendered board and checks
    that every tag is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.cards: list[dict] = []  # one per data-card element
        self.columns: list[dict] = []  # one per data-col element
        self.foundations: list[dict] = []  # one per data-foundation element
        self.empty_outlines = 0  # dashed rects
        self._card: dict | None = None  # card element being read
        self._card_depth = 0
        self._in_title = False
        self._foundation: dict | None = None
        self._foundation_depth = 0
        self._column: dict | None = None
        self._column_depth = 0

    def _open(self, tag: str, attrs: dict) -> None:
        if "data-card" in attrs:
            self._card = {
                "card": attrs["data-card"],
                "fills": [],
                "title": "",
                "highlight": attrs.get("data-highlight") == "true",
                "strokes": [],
                "foundation": self._foundation,
                "column": self._column,
                "attrs": attrs,
            }
            self._card_depth = len(self.stack)
            self.cards.append(self._card)
            if self._foundation is not None:
                self._foundation["cards"].append(attrs["data-card"])
        if "data-col" in attrs:
            self.columns.append(attrs)
            self._column = attrs
            self._column_depth = len(self.stack)
        if "data-foundation" in attrs:
            self._foundation = dict(attrs, cards=[])
            self._foundation_depth = len(self.stack)
            self.foundations.append(self._foundation)
        if tag == "rect" and attrs.get("stroke-dasharray"):
            self.empty_outlines += 1
        if self._card is not None:
            if tag == "text" and "fill" in attrs:
                self._card["fills"].append(attrs["fill"])
            if tag == "rect" and "stroke" in attrs:
                self._card["strokes"].append(attrs["stroke"])
            if tag == "title":
                self._in_title = True

    def handle_starttag(self, tag, attrs):
        self._open(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._open(tag, dict(attrs))

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if tag == "title":
            self._in_title = False
        if self._card is not None and len(self.stack) == self._card_depth:
            self._card = None
        if self._foundation is not None and len(self.stack) == self._foundation_depth:
            self._foundation = None
        if self._column is not None and len(self.stack) == self._column_depth:
            self._column = None

    def handle_data(self, data):
        if self._in_title and self._card is not None:
            self._card["title"] += data


def parse(html: str) -> BoardParser:
    p = BoardParser()
    p.feed(html)
    p.close()
    assert p.stack == [], f"unclosed tags: {p.stack}"
    return p


@pytest.fixture(scope="module")
def deal1():
    d = bl.deal(1)
    # the board the assertions below are about: PySolFC game 1 as pysol-cards prints it
    assert [[str(c) for c in col] for col in d.columns] == BAKERS_DOZEN_1_COLUMNS
    return d


# -- the HTML / SVG picture -----------------------------------------------------
def test_every_card_drawn_exactly_once(deal1):
    p = parse(board_html(deal1.columns, deal1.foundations, title="deal 1"))
    counts = Counter(c["card"] for c in p.cards)
    assert set(counts) == ALL_CARDS
    assert set(counts.values()) == {1}


def test_cards_carry_pretty_titles(deal1):
    p = parse(board_svg(deal1.columns, deal1.foundations))
    assert len(p.cards) == 52
    for c in p.cards:
        rank, suit = c["card"]
        assert c["title"] == rank + SUIT_SYMBOL[suit]
    titles = {c["card"]: c["title"] for c in p.cards}
    assert titles["TH"] == "T♥" and titles["AD"] == "A♦" and titles["KC"] == "K♣"


def test_red_and_black_inks(deal1):
    assert RED.lower() == "#c0392b" and BLACK.lower() == "#111111"
    p = parse(board_html(deal1.columns, deal1.foundations))
    assert len(p.cards) == 52
    for c in p.cards:
        ink = "#c0392b" if c["card"][1] in "HD" else "#111111"  # Hearts, Diamonds red
        assert c["fills"], c["card"]
        assert {f.lower() for f in c["fills"]} == {ink}, c["card"]


def test_column_order_and_playable_card_in_full(deal1):
    p = parse(board_svg(deal1.columns, deal1.foundations))
    # cards are emitted column by column, deepest first
    drawn = [c["card"] for c in p.cards]
    assert drawn == [name for col in BAKERS_DOZEN_1_COLUMNS for name in col]
    assert drawn[:5] == ["6H", "JH", "5C", "AD", "2H"]
    # only the playable card of each column shows the big centre pip (3 text fills)
    full = [c["card"] for c in p.cards if len(c["fills"]) == 3]
    assert full == ["AD", "5S", "9S", "6S", "TC", "5H", "7C", "7H", "5D", "JC", "9H", "2D", "JD"]


def test_highlight_marks_exactly_the_given_cards(deal1):
    top, buried = deal1.columns[0][-1], deal1.columns[4][1]
    html = board_html(deal1.columns, deal1.foundations, highlight=[top, str(buried)])
    p = parse(html)
    marked = {c["card"] for c in p.cards if c["highlight"]}
    assert marked == {str(top), str(buried)}
    for c in p.cards:
        assert (HIGHLIGHT in c["strokes"]) == c["highlight"]
    assert html.count(f'stroke="{HIGHLIGHT}"') == 2


def test_highlight_accepts_one_card_or_pretty_text(deal1):
    card = deal1.columns[3][-1]
    for h in (card, str(card), card.pretty(), [card.pretty()]):
        p = parse(board_svg(deal1.columns, deal1.foundations, highlight=h))
        assert [c["card"] for c in p.cards if c["highlight"]] == [str(card)]
    p = parse(board_svg(deal1.columns, deal1.foundations))
    assert not any(c["highlight"] for c in p.cards)


def test_gamestate_html_highlights_the_last_moved_card(deal1):
    g = bl.GameState.from_deal(deal1)
    g.play("AD>F")  # AD, the top card of column 1, goes home
    p = parse(g._repr_html_())
    assert [c["card"] for c in p.cards if c["highlight"]] == ["AD"]
    assert len(p.cards) == 52
    assert [f["cards"] for f in p.foundations if f["data-foundation"] == "D"] == [["AD"]]


def test_layout_7_plus_6_rows(deal1):
    p = parse(board_svg(deal1.columns, deal1.foundations, layout="7+6"))
    cols = sorted(p.columns, key=lambda a: int(a["data-col"]))
    assert [int(a["data-col"]) for a in cols] == list(range(13))
    assert [int(a["data-row"]) for a in cols] == [0] * 7 + [1] * 6
    xs = [float(a["data-x"]) for a in cols]
    ys = [float(a["data-y"]) for a in cols]
    assert len(set(ys[:7])) == 1 and len(set(ys[7:])) == 1
    # the second row lies below the first row's cards (4 fanned + 1 card high)
    assert ys[7] > ys[0] + 3 * 25 + 92
    # left to right, one constant step, in each row
    step = xs[1] - xs[0]
    assert step > 66
    assert all(xs[i + 1] - xs[i] == step for i in range(6))
    assert all(xs[i + 1] - xs[i] == step for i in range(7, 12))
    # the 6-column row is centred under the 7-column row
    assert xs[7] - xs[0] == pytest.approx(step / 2)
    # the cards of a column sit at its x, fanned downwards from its y
    for a in cols:
        cards = [c for c in p.cards if c["column"] is a]
        assert len(cards) == 4
        pos = [tuple(map(float, re.findall(r"[\d.]+", c["attrs"]["transform"]))) for c in cards]
        assert [x for x, _ in pos] == [float(a["data-x"])] * 4
        assert pos[0][1] == float(a["data-y"]) and pos[1][1] - pos[0][1] >= 20
    row_svg = board_svg(deal1.columns, deal1.foundations, layout="row")
    q = parse(row_svg)
    assert {a["data-row"] for a in q.columns} == {"0"}
    assert len({a["data-y"] for a in q.columns}) == 1


def test_row_layout_is_wider_than_two_rows(deal1):
    def size(svg: str) -> tuple[float, float]:
        m = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
        assert m
        return float(m.group(1)), float(m.group(2))

    w_row, h_row = size(board_svg(deal1.columns, deal1.foundations))
    w_76, h_76 = size(board_svg(deal1.columns, deal1.foundations, layout="7+6"))
    assert w_row > w_76 and h_row < h_76
    assert w_row >= 13 * 66 and w_76 >= 7 * 66


def test_good_measure_shows_its_aces_on_the_foundations():
    d = bl.deal(86, variant="good_measure")
    aces = sorted(str(c) for p in d.foundations for c in p)
    assert aces == ["AC", "AD"]  # PySolFC's game 86 (pysol-cards' shuffle, tests/test_deals.py)
    p = parse(board_html(d.columns, d.foundations, layout="5+5"))
    on_piles = sorted(c["card"] for c in p.cards if c["foundation"] is not None)
    assert on_piles == aces
    counts = {f["data-foundation"]: int(f["data-count"]) for f in p.foundations}
    assert sorted(counts.values()) == [0, 0, 1, 1]
    for f in p.foundations:
        assert f["cards"] == ([f"A{f['data-foundation']}"] if int(f["data-count"]) else [])
    assert len(p.cards) == 52 and len(p.columns) == 10
    text = board_str(d.columns, d.foundations)
    for a in aces:
        assert a in text.splitlines()[0]


def test_foundation_shows_top_card_of_mixed_pile():
    P = Card.parse
    piles = [[P("AC"), P("2H"), P("3S")], [], [P("AH")], []]
    rest = [Card.from_index(i) for i in range(52)]
    rest = [c for c in rest if c not in {P("AC"), P("2H"), P("3S"), P("AH")}]
    cols = [rest[k::12] for k in range(12)] + [[]]
    p = parse(board_svg(cols, piles))
    clubs = next(f for f in p.foundations if f["data-foundation"] == "C")
    assert clubs["cards"] == ["3S"] and clubs["data-count"] == "3"
    assert p.empty_outlines == 1  # the empty 13th column
    assert len(p.cards) == 48 + 2  # covered foundation cards are not drawn
    text = board_str(cols, piles, highlight="3S")
    assert "Foundations: ♣ *3S (3)  ♠ -  ♥ AH  ♦ -" in text
    assert text.splitlines()[-1] == "13: (empty)"


def test_title_is_escaped_and_shown_once(deal1):
    html = board_html(deal1.columns, deal1.foundations, title="a <b> & c")
    assert html.startswith('<div class="bakers-lab-board"')
    assert html.count('class="bakers-lab-title"') == 1
    assert "a &lt;b&gt; &amp; c" in html and "<b>" not in html
    assert parse(html).cards
    assert 'class="bakers-lab-title"' not in board_html(deal1.columns, deal1.foundations)


@pytest.mark.parametrize("layout", ["diagonal", "7-6", "7+7", "0+13", "", "7+", "+13"])
def test_bad_layout_names_the_allowed_forms(deal1, layout):
    with pytest.raises(ValueError) as info:
        board_html(deal1.columns, deal1.foundations, layout=layout)
    msg = str(info.value)
    assert "'row'" in msg and "'7+6'" in msg and repr(layout) in msg


def test_layout_that_does_not_add_up_suggests_one(deal1):
    with pytest.raises(ValueError, match=r"places 14 columns but the board has 13.*'7\+6'"):
        board_svg(deal1.columns, deal1.foundations, layout="7+7")
    d = bl.deal(86, variant="good_measure")
    with pytest.raises(ValueError, match=r"'5\+5'"):
        board_svg(d.columns, d.foundations, layout="7+6")


def test_html_saved_to_a_file_parses(deal1, tmp_path):
    path = tmp_path / "board.html"
    frag = board_html(deal1.columns, deal1.foundations, title=repr(deal1), layout="7+6")
    path.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'></head><body>{frag}</body></html>",
        encoding="utf-8",
    )
    p = parse(path.read_text(encoding="utf-8"))
    assert len(p.cards) == 52 and {c["card"] for c in p.cards} == ALL_CARDS


# -- plain text -------------------------------------------------------------------
def test_board_str_lists_13_columns(deal1):
    text = board_str(deal1.columns, deal1.foundations, title="bakers_dozen #1")
    lines = text.splitlines()
    assert lines[0] == "bakers_dozen #1"
    assert lines[1] == "Foundations: ♣ -  ♠ -  ♥ -  ♦ -"
    col_lines = lines[2:]
    assert len(col_lines) == 13
    assert col_lines[0] == " 1: 6H JH 5C AD" and col_lines[12] == "13: 7D TS QC JD"
    for i, (line, board_line) in enumerate(
        zip(col_lines, BAKERS_DOZEN_1.splitlines(), strict=True), start=1
    ):
        assert line == f"{i:>2}: {board_line}"


def test_board_str_marks_highlight_and_empty_columns(deal1):
    cols = [list(c) for c in deal1.columns]
    moved = cols[0].pop()
    cols[1].append(moved)
    cols[2] = []
    spare = deal1.columns[2]
    cols[3] = cols[3] + list(spare)
    text = board_str(cols, deal1.foundations, highlight=[moved])
    lines = text.splitlines()
    assert lines[0].startswith("Foundations:")  # no title line without a title
    assert lines[2].endswith(f" *{moved}") and text.count("*") == 1
    assert lines[3] == " 3: (empty)"


def test_deal_and_game_print_through_render(deal1):
    expected = [f"{i:>2}: {line}" for i, line in enumerate(BAKERS_DOZEN_1.splitlines(), 1)]
    lines = str(deal1).splitlines()
    assert len(lines) == 15
    assert lines[1] == "Foundations: ♣ -  ♠ -  ♥ -  ♦ -" and lines[2:] == expected
    p = parse(deal1._repr_html_())
    assert sorted(c["card"] for c in p.cards) == sorted(ALL_CARDS)
    assert not any(c["highlight"] for c in p.cards)
    g = bl.GameState.from_deal(deal1)
    g.play("5S>6S")
    lines = str(g).splitlines()
    assert lines[3] == " 2: 2H 2C 4C" and lines[5] == " 4: KC TH AH 6S 5S"
    assert [lines[2], lines[4], *lines[6:]] == [expected[0], expected[2], *expected[4:]]


def test_four_piles_required(deal1):
    with pytest.raises(ValueError, match="4 foundation piles"):
        board_str(deal1.columns, [(), ()])
    with pytest.raises(ValueError, match="4 foundation piles"):
        board_svg(deal1.columns, [(), ()])


def test_to_html_options_reach_the_picture():
    d = bl.deal(1)
    html = d.to_html(layout="7+6", highlight=["5S"])
    assert html.count('data-row="1"') == 6 and html.count('data-row="0"') == 7
    p = parse(html)
    assert [c["card"] for c in p.cards if c["highlight"]] == ["5S"]
    g = bl.GameState.from_deal(d)
    g.play("5S>6S")  # 5S (top of column 2) onto 6S (top of column 4)
    for html in (g.to_html(), g._repr_html_()):
        p = parse(html)
        counts = Counter(c["card"] for c in p.cards)
        assert set(counts) == ALL_CARDS and set(counts.values()) == {1}
        # the last moved card is outlined, and nothing else
        assert [c["card"] for c in p.cards if c["highlight"]] == ["5S"]
        by_column = {
            a["data-col"]: [c["card"] for c in p.cards if c["column"] is a] for a in p.columns
        }
        assert by_column["1"] == ["2H", "2C", "4C"]
        assert by_column["3"] == ["KC", "TH", "AH", "6S", "5S"]
        # the title names the deal and the number of moves played
        title = re.findall(r'<div class="bakers-lab-title"[^>]*>([^<]*)</div>', html)
        assert len(title) == 1
        assert title[0] == "Game 1 (Baker&#x27;s Dozen), after 1 move"
    p = parse(g.to_html(highlight=()))
    assert not any(c["highlight"] for c in p.cards) and len(p.cards) == 52


def test_sentences_wrap_between_words_as_html_paragraphs():
    from bakers_lab.model.render import Sentences

    # JupyterLab shows a plain string preformatted, with word-break: break-all: a long
    # summary broke mid-word at the edge.  Sentences are paragraphs of HTML instead.
    text = "move 32 of 136, 5H>6D, lost the game; 7S>8S instead still wins <a & b>\n\nnext"
    html = Sentences(text)._repr_html_()
    assert html == (
        '<p class="bakers-lab-prose" style="white-space:normal;word-break:normal;'
        'overflow-wrap:normal;margin:0 0 0.5em 0">move 32 of 136, 5H&gt;6D, lost the game; '
        "7S&gt;8S instead still wins &lt;a &amp; b&gt;</p>"
        '<p class="bakers-lab-prose" style="white-space:normal;word-break:normal;'
        'overflow-wrap:normal;margin:0 0 0.5em 0">next</p>'
    )
    assert str(Sentences(text)) == text
    with pytest.raises(ValueError, match="Sentences takes a str, not int"):
        Sentences(5)  # type: ignore[arg-type]
