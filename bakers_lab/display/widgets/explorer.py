"""The web app's page: :class:`GameExplorer` (type a game number, see whether it can be
won, step through the winning line or a player's game, play it yourself) and what it
knows, :class:`ExplorerModel`; :class:`Compare` replays games side by side."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any, TypeVar

import ipywidgets as widgets

from bakers_lab.display.widgets._common import (
    DEFAULT_BUDGET,
    StillView,
    Ticker,
    close_all,
    continue_button,
    on_screen,
    unbroken,
)
from bakers_lab.display.widgets.board import Board
from bakers_lab.display.widgets.mygames import (
    GameKeeper,
    MyGames,
    opened_words,
    read_save,
    uploaded,
)
from bakers_lab.display.widgets.replay import Replay
from bakers_lab.display.widgets.review import YourGame
from bakers_lab.files.journal import Journal
from bakers_lab.model.deals import Deal, DealError, deal, read_game_number
from bakers_lab.model.game import GameState
from bakers_lab.model.rules import rules, title, variant_names
from bakers_lab.model.shuffles import MAX_GAME_NUMBER
from bakers_lab.solve.compiled import compile_notice, player_search
from bakers_lab.solve.fast import DEFAULT_MAX_NODES, MAX_NODES, SolveResult, solve
from bakers_lab.solve.players import GameRecord, play
from bakers_lab.solve.shortest import PAR_BOUND, PAR_NODES, ShortestResult, shortest
from bakers_lab.study.known import known_verdict, load_verdicts
from bakers_lab.study.rating import RATERS, Difficulty, rated, tag_of
from bakers_lab.utils.present import counted
from bakers_lab.utils.validate import as_bool, as_int, describe

__all__ = ["KNOWN_OPEN", "PLAYERS", "Compare", "ExplorerModel", "GameExplorer", "lost_and_won"]

# -- what the game explorer knows ---------------------------------------------
#: Deals nobody has shown won or proven lost, by (variant, number): who listed them.
KNOWN_OPEN: Mapping[tuple[str, int], str] = {
    ("bakers_dozen", 417): (
        "Freecell Solver's authors listed it (their solver left it unresolved even at "
        "100 million positions)"
    ),
}

#: The human-like players the explorer offers, with what each does, in words.
PLAYERS: Mapping[str, str] = {
    "careful": "careful: heeds the rule books' tips, one move ahead",
    "lookahead-2": "lookahead-2: plans two moves ahead",
    "lookahead-3": "lookahead-3: plans three moves ahead",
    "greedy": "greedy: a card home when it can, else the tallest column's top card",
    "random": "random: any legal move",
    **{
        f"search-{n}": f"search-{n}: thinks over {n:,} positions before each move"
        for n in (100, 1_000, 10_000)
    },
    **{
        f"undo-{n}": f"undo-{n}: careful, and may take back {n:,} moves in the game"
        for n in (10, 100, 1_000, 10_000)
    },
}

#: How a player's lost game ended, and where its replay stops, in words.
_PLAYER_ENDS = {
    "stuck": ("got stuck after {n}: no move was left that led anywhere new", "got stuck"),
    "patience": (
        "gave up after {n}: too many moves in a row brought no card home",
        "gave up",
    ),
    "cap": ("stopped after {n}, the most a game may have", "stopped"),
}
_NUMBERS = f"a whole number from 1 to {MAX_GAME_NUMBER} (10^20 − 1)"
_DIGITS = re.compile(r"[0-9]+")
_KEEP = 64  # results the explorer keeps, of each kind

K = TypeVar("K")
V = TypeVar("V")


def _kept(store: dict[K, V], key: K, make: Callable[[], V]) -> V:
    """``store[key]``, made first if missing; the oldest entries go beyond ``_KEEP``."""
    if key not in store:
        store[key] = make()
        while len(store) > _KEEP:
            del store[next(iter(store))]
    return store[key]


class ExplorerModel:
    """What the game explorer knows: the number typed, the solver's verdict on each
    game asked for and human-like players' games of it, in plain words.

    ``budget`` is the solver's node budget; the default is the solver's own, the
    budget of ``bakers-lab solve`` and of the shipped surveys, so the explorer's
    verdicts agree with theirs.  Results are kept (the last 64 of each kind), so
    showing a game again is free.
    """

    def __init__(self, budget: int = DEFAULT_MAX_NODES) -> None:
        self.budget = as_int(budget, "budget", low=1, high=MAX_NODES)
        self._results: dict[tuple[int, str], tuple[SolveResult, bool]] = {}
        self._games: dict[tuple[int, str, str], GameRecord] = {}
        self._pars: dict[tuple[int, str], ShortestResult] = {}

    @staticmethod
    def parse(text: object) -> int:
        """The game number in ``text`` (spaces around it, a ``#`` before it and
        thousands separators ``,`` ``_`` are allowed), or a ValueError in the
        words of :func:`~bakers_lab.model.deals.read_game_number`, as a sentence."""
        try:
            return read_game_number(str(text))
        except DealError as exc:
            message = str(exc)
            raise ValueError(message[0].upper() + message[1:]) from None

    def solve(self, number: int, variant: str) -> SolveResult:
        """The solver's result on game ``number`` of ``variant`` (kept): from the
        shipped tables where they settle it (:func:`~bakers_lab.study.known.known_verdict`:
        the same result, at once), else searched now."""
        return self._solved(number, variant)[0]

    def needs_search(self, number: int, variant: str) -> bool:
        """Whether :meth:`solve` will search (its result neither kept nor settled by the
        shipped tables): only then is the solver's first-compile notice worth saying."""
        if (number, variant) in self._results:
            return False
        known = known_verdict(number, variant, budget=self.budget)
        if known is None:
            return True
        _kept(self._results, (number, variant), lambda: (known, True))
        return False

    def shipped(self, number: int, variant: str) -> bool:
        """Whether :meth:`solve`'s result on this game came from the shipped tables."""
        return self._solved(number, variant)[1]

    def _solved(self, number: int, variant: str) -> tuple[SolveResult, bool]:
        def search() -> tuple[SolveResult, bool]:
            known = known_verdict(number, variant, budget=self.budget)
            if known is not None:
                return known, True
            return solve(number, variant=variant, max_nodes=self.budget), False

        return _kept(self._results, (number, variant), search)

    def par(self, number: int, variant: str) -> ShortestResult:
        """The shortest win of game ``number`` of ``variant`` (kept), searched
        within :data:`~bakers_lab.solve.shortest.PAR_NODES` positions (with
        :data:`~bakers_lab.solve.shortest.PAR_BOUND`)."""
        return _kept(
            self._pars,
            (number, variant),
            lambda: shortest(
                number, variant=variant, max_nodes=min(PAR_NODES, self.budget), bound=PAR_BOUND
            ),
        )

    def has_par(self, number: int, variant: str) -> ShortestResult | None:
        """The shortest win of game ``number``, if :meth:`par` has found it (kept),
        else ``None``: nothing is searched."""
        return self._pars.get((number, variant))

    def play(self, number: int, variant: str, player: str) -> GameRecord:
        """``player``'s game of game ``number`` of ``variant`` (kept)."""
        return _kept(
            self._games, (number, variant, player), lambda: play(number, player, variant=variant)
        )

    def difficulty(self, number: int, variant: str) -> Difficulty:
        """The deal's difficulty: shipped, or from the kept games and solve."""
        known = rated(number, variant)
        if known is not None:
            return known
        result = self.solve(number, variant)
        won = tuple(p for p in RATERS if self.play(number, variant, p).won)
        tag = tag_of(won, result.outcome, result.nodes)
        return Difficulty(tag, number, variant, won, result.outcome, result.nodes, "computed")

    def verdict(self, result: SolveResult, par: ShortestResult | None = None) -> str:
        """The solver's result in plain words (with ``par``, the shortest win's length)."""
        if result.outcome == "solved":
            n = len(result.moves)
            said = par.par_words("par (the fewest moves that win)") if par is not None else None
            return (
                f"Winnable: a winning line of {counted(n, 'move')}, replayed by the rule engine"
                + (f"; {said}" if said is not None else "")
            )
        if result.outcome == "unsolvable":
            return "Cannot be won: the solver proved that no sequence of moves wins"
        text = (
            f"Still open: the solver found neither a win nor a proof of loss within its "
            f"budget of {counted(self.budget, 'position')}. "
        )
        longer = (
            f" To search longer (minutes, and a few GiB of memory): bakers-lab solve "
            f"{result.deal} --variant {result.variant} --max-nodes 100000000 --table-mib 3072"
            if result.deal is not None
            else ""
        )
        listed = KNOWN_OPEN.get((result.variant, result.deal or 0))
        if listed is not None:
            return text + (
                f"Nobody knows yet whether this deal can be won; game {result.deal} has been "
                f"open since {listed}.{longer}"
            )
        return (
            text + f"This search does not tell whether it can be won; a larger budget may.{longer}"
        )

    @staticmethod
    def player_summary(
        game: GameRecord, result: SolveResult | None = None, par: ShortestResult | None = None
    ) -> str:
        """A player's game in plain words (and, when it lost a deal the solver
        wins, a pointer to the winning line; when it won, par)."""
        n = len(game.moves)
        back = ""
        if game.takebacks:
            back = f", having taken back {counted(game.takebacks, 'move')} on the way"
        if game.won:
            said = par.par_words() if par is not None else None
            tail = f"; {said}" if said is not None else ""
            return f"The {game.player} player won in {counted(n, 'move')}{back}{tail}."
        how, where = _PLAYER_ENDS[game.ended]
        text = (
            f"The {game.player} player {how.format(n=counted(n, 'move'))}{back}. "
            f"The replay ends where it {where}."
        )
        if result is not None and result.solved:
            text += " The deal can be won: see the solver's winning line."
        return text


def lost_and_won(
    player: str = "careful", *, variant: str = "bakers_dozen", first: int = 1, tries: int = 100
) -> tuple[GameRecord, SolveResult]:
    """The first deal from game ``first`` on (trying at most ``tries`` deals)
    that ``player`` loses and the solver wins: the player's game and the
    solver's result, for :class:`Compare`.

    >>> lost, won = lost_and_won("careful", first=3)    # careful wins game 3
    >>> lost.deal, lost.outcome, won.deal, won.outcome
    (4, 'lost', 4, 'solved')
    """
    first = as_int(first, "first", low=1, high=MAX_GAME_NUMBER)
    tries = as_int(tries, "tries", low=1, high=10_000)
    last = min(first + tries - 1, MAX_GAME_NUMBER)
    for number in range(first, last + 1):
        game = play(number, player, variant=variant)
        if not game.won:
            result = solve(number, variant=variant)
            if result.solved:
                return game, result
    raise LookupError(
        f"no deal of games {first} to {last} of {variant} is lost by {player} and won by "
        f"the solver; try other numbers (first=, tries=)"
    )


# -- what the game explorer shows ---------------------------------------------
def _heading(source: object) -> str:
    text = source.summary() if isinstance(source, SolveResult | GameRecord) else ""
    return f"<b>{escape(text)}</b>"


class Compare(StillView, widgets.HBox):
    """Games replayed next to each other on a page wide enough for two readable
    boards with their controls (:attr:`MIN_WIDTH` each), else one under the
    other: in JupyterLab at 1280 px, one under the other.

    ``sources``: anything :class:`Replay` takes, typically a player's lost game
    and the solver's win of the same deal (:func:`lost_and_won`); ``titles``:
    one heading per source (default: a SolveResult's or GameRecord's
    ``summary()``); ``layout``: the pictures' layout.  ``replays`` are the
    :class:`Replay` widgets, each with its own controls.
    """

    #: The narrowest a game is drawn: a board of about 450 px with its replay's
    #: controls beside it.
    MIN_WIDTH = "720px"

    def __init__(
        self, *sources: object, titles: Sequence[str] | None = None, layout: str = "7+6"
    ) -> None:
        if not sources:
            raise ValueError("Compare needs at least one game to replay")
        if titles is not None and len(titles) != len(sources):
            raise ValueError(f"titles: one per game, {len(sources)}, not {len(titles)}")
        heads = (
            [_heading(s) for s in sources]
            if titles is None
            else [f"<b>{escape(str(t))}</b>" for t in titles]
        )
        self.replays = [Replay(s, layout=layout) for s in sources]
        for r in self.replays:  # the pictures get the room: the slider lists the moves,
            r.moves.layout.display = "none"  # and where a game was lost wraps narrow
            r.loss.layout.max_width = "22em"
        # the games share the width down to a readable board beside its controls; below
        # that they wrap one under the other (at 380 px each, JupyterLab's 848 px output
        # at 1280 px drew the boards 150 and 230 px wide)
        share = widgets.Layout(flex="1 1 0", min_width=self.MIN_WIDTH, margin="0 24px 16px 0")
        super().__init__(
            [
                widgets.VBox([widgets.HTML(h), r], layout=share)
                for h, r in zip(heads, self.replays, strict=True)
            ],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        self.add_class("bl-compare")


_TONE = {"solved": "#2e7d32", "unsolvable": "#c0392b", "unresolved": "#b7791f"}
_INTRO = (
    "Type a PySolFC game number and press Show (or Enter) to learn whether the deal can be "
    "won, step through the winning line or a player's game, and play it yourself. "
    "Open a PySolFC game puts a game you saved in PySolFC on the board as you left it; "
    "My games lists the games you play here (kept on this computer only) and how good you are."
)


def _how_long(result: SolveResult, shipped: bool = False) -> str:
    """What the solver's search took, in words that fit its outcome ("Solved in" only
    for a solved deal); ``shipped``: the result was read from the shipped tables."""
    if shipped:
        looked = counted(result.nodes, "position")
        if result.outcome == "unsolvable":
            return f"Proved unwinnable when the shipped tables were made ({looked})."
        return (
            f"From the shipped tables: the solver's search stopped after {looked}, "
            f"unsettled (it does the same each time)."
        )
    done = f"{result.seconds:.1f} s, {counted(result.nodes, 'position')}"
    if result.outcome == "solved":
        return f"Solved in {done}."
    if result.outcome == "unsolvable":
        return f"Proved unwinnable in {done}."
    return f"The search stopped after {done}, unsettled."


def _shown_when_said(line: Any) -> None:
    """An HTML line that takes no room on the page while it is empty."""

    def follow(change: dict[str, Any]) -> None:
        line.layout.display = None if change["new"] else "none"

    line.layout.display = "none"
    line.observe(follow, names="value")


class _Gated:
    """A widget's ``value`` that a search writes only while it is the page's current
    one: a search replaced by a newer one (another number typed) writes nothing."""

    def __init__(self, current: Callable[[], bool], widget: Any) -> None:
        self._current = current
        self._widget = widget

    @property
    def value(self) -> Any:
        return self._widget.value

    @value.setter
    def value(self, text: Any) -> None:
        if self._current():
            self._widget.value = text


class GameExplorer(StillView, widgets.VBox):
    """Type a game number: see the deal, whether it can be won, the winning line
    or where a human-like player got stuck, and play it yourself.  The page of
    ``bakers-lab app``.

    ``game`` is shown at once when given (a number or its text); ``variant`` a
    preset name; ``player`` one of :data:`PLAYERS`; ``budget`` the solver's
    node budget; ``layout`` the pictures' layout: ``"rows"`` (two rows, like
    the 7 + 6 columns of the game page) or ``"row"``.  Controls: ``game`` (a Text
    box: Enter, leaving it, or ``show`` shows the game), ``variant``, ``show``,
    ``verdict`` (the answer, or what is wrong with the number; ``message`` is
    its plain text), ``progress`` (what is still being worked out, with the
    seconds so far), ``tabs`` (the winning line or the deal; a player's game;
    play it yourself), ``player`` and ``player_text``.  Once a game is shown:
    ``replay`` (the winning line; ``None`` when there is none; ``line_choice``
    switches between the solver's line and the shortest known, once par is
    known), ``player_replay`` and ``board`` (a :class:`Board`).

    ``pysol`` opens a PySolFC saved game (:meth:`open_pysol`): its deal is shown
    and the board put at the saved position, with "Where did I lose?" and "Continue
    from here" as for a game played on the board.  ``show_my_games`` (a toggle)
    shows ``my_games`` (:class:`~.mygames.MyGames`) in place of the game: every game
    played on the board is kept
    in ``journal`` (a :class:`~bakers_lab.files.journal.Journal`, the user's own by default;
    ``journal=False`` keeps nothing, as does the switch on the "My games" page).

    The verdict and the tabs come as soon as the solver has answered; par, the
    deal's rating and where the player lost fill in after, each announced in
    ``progress``.  With ``background`` (the web app) the searches run in a
    thread of their own, so the page stays live: a number typed meanwhile
    replaces the search (its answer is dropped); :meth:`wait` waits for them (a
    script's end waits only for the shipped verdicts' first read, under a second,
    not for a search).  Without it, showing a game returns once everything is known.
    """

    def __init__(
        self,
        game: int | str | None = None,
        *,
        variant: str = "bakers_dozen",
        player: str = "careful",
        budget: int = DEFAULT_MAX_NODES,
        layout: str = "rows",
        background: bool = False,
        journal: bool | Journal = True,
    ) -> None:
        if layout not in ("rows", "row"):
            raise ValueError(f"layout must be 'rows' or 'row', not {describe(layout)}")
        if variant not in variant_names():
            raise ValueError(
                f"variant must be one of {', '.join(variant_names())}, not {variant!r}"
            )
        if player not in PLAYERS:
            raise ValueError(f"player must be one of {', '.join(PLAYERS)}, not {player!r}")
        self._background = as_bool(background, "background")
        if not isinstance(journal, Journal):
            journal = Journal(enabled=as_bool(journal, "journal"))
        self.journal = journal
        self.model = ExplorerModel(budget)
        self._rows = layout == "rows"
        self.game = widgets.Text(
            value="" if game is None else str(game),
            description="Game number",
            placeholder="like 417",
            continuous_update=False,  # the value changes on Enter or leaving the box
            style={"description_width": "initial"},
            layout=widgets.Layout(width="22em"),
        )
        self.variant = widgets.Dropdown(
            options=[(title(rules(name)), name) for name in variant_names()],
            value=variant,
            description="Variant",
            layout=widgets.Layout(width="30em"),
        )
        self.show = widgets.Button(
            description="Show",
            button_style="primary",
            icon="search",
            tooltip="show this game",
            layout=widgets.Layout(width="8em"),
        )
        self.verdict = widgets.HTML()
        self.progress = widgets.HTML()
        self.message = ""
        self.player = widgets.Dropdown(
            options=[(label, name) for name, label in PLAYERS.items()],
            value=player,
            description="Player",
            layout=widgets.Layout(width="34em"),
        )
        self.player_text = widgets.HTML()
        self.player_progress = widgets.HTML()
        self.replay: Replay | None = None
        self.player_replay: Replay | None = None
        self._player_shown: tuple[int, str, str] | None = None  # the game player_replay shows
        self.board: Board | None = None
        self.your_game: YourGame | None = None
        self.line_choice = widgets.ToggleButtons(
            description="Line", style={"description_width": "initial"}
        )
        self.line_choice.layout.display = "none"
        self._lines: dict[str, object] = {}  # what line_choice replays
        # where the shown game's widgets go: the winning line (or the deal), the
        # player's replay (under the player's controls), the board
        self._line_box, self._player_box, self._board_page = (widgets.VBox() for _ in range(3))
        self.tabs = widgets.Tab(
            children=[
                widgets.VBox([self._line_box, self.line_choice]),
                widgets.VBox(
                    [self.player, self.player_text, self.player_progress, self._player_box]
                ),
                self._board_page,
            ],
            titles=("Winning line", "A player's game", "Play it yourself"),
            layout=widgets.Layout(display="none"),
        )
        self._shown: tuple[int, str] | None = None
        self._asked: tuple[int, str] | None = None  # the game being worked out
        self._generation = 0  # which search the page shows (a newer one replaces it)
        # held while a search checks that it is current and writes its answer, and while a
        # new number replaces it: an answer is written whole before the new number, or not
        self._lock = threading.RLock()
        self._player_generation = 0
        self._threads: list[threading.Thread] = []
        if self._background:  # the shipped verdicts read while the person types a number
            # (waited for at exit: a process that ended while a daemon thread was inside
            # Arrow's reader could hang; the read takes under a second)
            self._run(load_verdicts, daemon=False)
        self.show.on_click(lambda _: self._request())
        self.game.observe(lambda _: self._request(), names="value")
        self.variant.observe(lambda _: self._request(quiet=True), names="value")
        self.player.observe(lambda _: self._show_player(), names="value")
        self.line_choice.observe(lambda _: self._show_line(), names="value")
        self._keeper: GameKeeper | None = None  # the game on the board, for the journal
        self._pending: tuple[int, str, GameState, str, str] | None = None  # goes on the board
        self._opening = False  # the number and variant boxes are being set from a file
        self.pysol = widgets.FileUpload(
            accept="",  # any file: PySolFC names a save .pso, a person may name it anything
            multiple=False,
            description="Open a PySolFC game",
            icon="folder-open",
            tooltip="a game saved with PySolFC's Save or Save as (PySolFC names it game.pso)",
            layout=widgets.Layout(width="15em"),
        )
        self.pysol.add_class("bl-explorer-open")
        self.pysol_message = widgets.HTML()
        _shown_when_said(self.pysol_message)
        self.pysol.observe(lambda _: self._uploaded(), names="value")
        self.my_games = MyGames(
            self.journal, run=self._run, budget=self.model.budget, on_continue=self.open_position
        )
        self.show_my_games = widgets.ToggleButton(
            description="My games",
            icon="list",
            tooltip="the games you played here, and how good you are",
            layout=widgets.Layout(width="9em"),
        )
        self.show_my_games.add_class("bl-explorer-my-games")
        self.show_my_games.observe(lambda ch: self._my_games_shown(bool(ch["new"])), names="value")
        self._game_view = widgets.VBox([self.verdict, self.progress, self.tabs])
        self._my_games_view = widgets.VBox(layout=widgets.Layout(display="none"))  # filled once
        super().__init__(
            [
                widgets.HBox(
                    [self.game, self.variant, self.show, self.pysol, self.show_my_games],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.pysol_message,
                self._game_view,
                self._my_games_view,
            ]
        )
        self.add_class("bl-explorer")
        self.game.add_class("bl-explorer-game")
        self.verdict.add_class("bl-explorer-verdict")
        for line in (self.progress, self.player_progress):
            line.add_class("bl-explorer-progress")
            _shown_when_said(line)
        self._say(_INTRO, tone="#555555", size="1em")
        if game is not None:
            self._request()

    def wait(self, timeout: float | None = None) -> None:
        """Wait (at most ``timeout`` seconds each) for the searches started so far."""
        for t in list(self._threads):
            t.join(timeout)

    # -- drawing ------------------------------------------------------------------
    def _layout(self, variant: str) -> str:
        if not self._rows:
            return "row"
        n = rules(variant).columns
        return f"{n - n // 2}+{n // 2}" if n > 1 else "row"

    def _verdict_html(self, text: str, *, tone: str, size: str = "1.15em", detail: str = "") -> str:
        more = f'<div style="color:#555;font-size:0.9em;margin-top:2px">{unbroken(detail)}</div>'
        return (
            f'<div style="border-left:5px solid {tone};padding:4px 10px;margin:8px 0;'
            f'font-size:{size};line-height:1.4;max-width:60em">'
            f'<span class="bl-message">{unbroken(escape(text))}</span>'
            f"{more if detail else ''}</div>"
        )

    def _say(self, text: str, *, tone: str, size: str = "1.15em", detail: str = "") -> None:
        self.message = text
        self.verdict.value = self._verdict_html(text, tone=tone, size=size, detail=detail)

    def _continue_button(self, replay: Replay, whose: str) -> Any:
        """ "Continue from here": the replay's position goes on the board, and the
        board's tab opens."""
        go = continue_button(lambda: self.continue_from(replay, whose))
        go.add_class("bl-explorer-continue")
        return go

    def continue_from(self, replay: Replay, whose: str = "this replay") -> None:
        """Put the position ``replay`` shows on the board, open "Play it yourself"
        and say so there."""
        if self.board is None:
            return
        position = replay.model.position(replay.step)
        self.board.load(position)
        self.tabs.selected_index = 2
        if self.your_game is not None:
            self.your_game.loaded(
                f"The board shows {whose} after {counted(replay.step, 'move')}: play on from there."
            )

    def _place(self, page: Any, *children: Any) -> None:
        """Put ``children`` on a page, closing what was there."""
        old = page.children
        page.children = children
        for w in old:
            close_all(w)

    # -- acting -------------------------------------------------------------------
    def _run(self, work: Callable[[], object], *, daemon: bool = True) -> None:
        """Run ``work`` now, or (``background``) in a thread of its own: a daemon
        thread (a search, which can take minutes, does not hold the process's
        end) unless ``daemon`` is False (short work the end waits for)."""
        if not self._background:
            work()
            return
        self._threads = [t for t in self._threads if t.is_alive()]
        thread = threading.Thread(target=work, daemon=daemon)
        self._threads.append(thread)
        thread.start()

    def _request(self, *, quiet: bool = False) -> None:
        """Show the game typed (``quiet``: say nothing when the box is empty)."""
        if self._opening or (quiet and not self.game.value.strip()):
            return
        try:
            number = ExplorerModel.parse(self.game.value)
        except ValueError as exc:
            with self._lock:
                self._generation += 1  # a search running is dropped
                self._shown = self._asked = None
                self.tabs.layout.display = "none"
                self.progress.value = ""
                self._say(str(exc), tone=_TONE["unsolvable"], size="1em")
            return
        key = (number, self.variant.value)
        if key not in (self._shown, self._asked):
            self._show_game(number, self.variant.value)

    def _show_game(self, number: int, variant: str) -> None:
        if self._pending is None:  # not a file's game: what was said of a file is old news
            self.pysol_message.value = ""
        self._leave_board()  # (a journal that cannot keep the game left says so there)
        self.show_my_games.value = False  # a number typed: its game, not My games
        with self._lock:
            self._generation += 1
            self._player_generation += 1
            generation = self._generation
            self._shown, self._asked = None, (number, variant)
            self.tabs.layout.display = "none"
            self.progress.value = ""
            self._say(f"Solving game {number}…", tone="#888888")
        self._run(lambda: self._work(generation, number, variant))

    def _current(self, generation: int) -> Callable[[], bool]:
        return lambda: generation == self._generation

    def _work(self, generation: int, number: int, variant: str) -> None:
        """Everything the page shows of a game, the quick parts first."""
        current = self._current(generation)
        try:
            self._verdict_first(current, number, variant)
            if current():
                self._slow_parts(current, number, variant)
        except Exception as exc:  # a bug: say so on the page too (a web app has no traceback)
            if current():
                self.progress.value = ""
                self._say(f"Something went wrong: {type(exc).__name__}: {exc}", tone="#c0392b")
            raise
        finally:
            if current():
                self._asked = None

    def _verdict_first(self, current: Callable[[], bool], number: int, variant: str) -> None:
        """The solver's verdict, the tabs and what goes in them, as soon as known."""
        first = compile_notice("solver") if self.model.needs_search(number, variant) else ""
        text = (
            f"Solving game {number}: the solver looks at up to {self.model.budget:,} "
            f"positions (a few seconds at most)…"
        )
        with Ticker(_Gated(current, self.verdict), f"{first} {text}" if first else text):
            result = self.model.solve(number, variant)
        with self._lock:
            if current():  # else another number was asked for meanwhile: this one is dropped
                self._show_verdict(result, number, variant)

    def _show_verdict(self, result: SolveResult, number: int, variant: str) -> None:
        """The verdict, the tabs and what goes in them (under the page's lock)."""
        known = rated(number, variant)
        detail = _how_long(result, self.model.shipped(number, variant)) + (
            f" {known.summary()}." if known is not None else ""
        )
        layout = self._layout(variant)
        self._lines = {}
        if result.solved:
            self.replay = Replay(result, layout=layout)
            self._lines["solver"] = result
            self._place(
                self._line_box, self.replay, self._continue_button(self.replay, "the winning line")
            )
            self.tabs.set_title(0, "Winning line")
        else:
            self.replay = None
            start = GameState.from_deal(deal(number, variant))
            why = "cannot be won" if result.outcome == "unsolvable" else "is still open"
            note = widgets.HTML(f"No winning line to step through: the deal {why}.")
            picture = widgets.HTML(start.to_html(layout=layout))
            self._place(self._line_box, note, picture)
            self.tabs.set_title(0, "The deal")
        self.line_choice.layout.display = "none"
        self.board = Board(number, variant=variant, layout=layout, budget=self.model.budget)
        self.your_game = YourGame(
            self.board,
            budget=self.model.budget,
            solver_moves=len(result.moves) if result.solved else None,
            layout=layout,
        )
        self._place(self._board_page, self.board, self.your_game)
        self._shown = (number, variant)
        self.tabs.layout.display = None
        self._say(self.model.verdict(result), tone=_TONE[result.outcome], detail=escape(detail))
        self._board_ready(number, variant)

    def _slow_parts(self, current: Callable[[], bool], number: int, variant: str) -> None:
        """The player's game, par, the deal's rating, then where the player's game was
        lost: each announced in its own progress line (the player's in its tab from the
        moment the tabs show), filled in when known."""
        result = self.model.solve(number, variant)  # kept: free
        self._player_generation += 1
        player_generation = self._player_generation
        self._player_work(current, player_generation, loss=False)  # quick: its tab fills
        gated = _Gated(current, self.progress)
        par = None
        if result.solved:
            first = compile_notice("shortest")
            text = (
                f"Looking for the shortest win (par) among up to "
                f"{min(PAR_NODES, self.model.budget):,} positions…"
            )
            with Ticker(gated, f"{first} {text}" if first else text):
                par = self.model.par(number, variant)
            if not current():
                return
            if self.your_game is not None:
                self.your_game.set_par(par)
            if par.moves and len(par.moves) < len(result.moves):
                self._offer_shortest(result, par, deal(number, variant))
        known = rated(number, variant)
        if known is None:
            with Ticker(gated, "Rating the deal: greedy, careful and lookahead-2 play it…"):
                known = self.model.difficulty(number, variant)
            if not current():
                return
        self._say(
            self.model.verdict(result, par),
            tone=_TONE[result.outcome],
            detail=escape(
                f"{_how_long(result, self.model.shipped(number, variant))} {known.summary()}."
            ),
        )
        gated.value = ""
        self._player_work(current, player_generation)

    def _offer_shortest(self, result: SolveResult, par: ShortestResult, start: Deal) -> None:
        """The shortest known line beside the solver's, to choose in ``line_choice``."""
        self._lines["shortest"] = (start, list(par.moves))
        said = "par" if par.par is not None else "the shortest found"
        options = [
            (f"the solver's ({counted(len(result.moves), 'move')})", "solver"),
            (f"the shortest known ({counted(len(par.moves), 'move')}, {said})", "shortest"),
        ]
        self.line_choice.unobserve_all("value")
        self.line_choice.options = options
        self.line_choice.value = "solver"
        self.line_choice.observe(lambda _: self._show_line(), names="value")
        self.line_choice.tooltips = ["the line the solver found first", "the fewest moves known"]
        self.line_choice.layout.display = None

    def _show_line(self) -> None:
        which = str(self.line_choice.value)
        source = self._lines.get(which)
        if source is None or self._shown is None:
            return
        self.replay = Replay(source, layout=self._layout(self._shown[1]))
        whose = "the shortest line" if which == "shortest" else "the winning line"
        self._place(self._line_box, self.replay, self._continue_button(self.replay, whose))

    def _show_player(self) -> None:
        """Another player chosen: its game (and where it lost), replacing the last."""
        if self._shown is None:
            return
        self._player_generation += 1
        generation, game_generation = self._player_generation, self._generation
        self._run(lambda: self._player_work(self._current(game_generation), generation))

    def _player_work(
        self, game_current: Callable[[], bool], generation: int, *, loss: bool = True
    ) -> None:
        """The chosen player's game in its tab (kept games: at once), and with ``loss``
        where it was lost; without, the tab says that this comes after par."""

        def current() -> bool:
            return game_current() and generation == self._player_generation

        if self._shown is None or not current():
            return
        number, variant = self._shown
        name = str(self.player.value)
        result = self.model.solve(number, variant)  # kept: free
        layout = self._layout(variant)
        whose = f"the {name} player's game"
        replay = self.player_replay
        if replay is None or self._player_shown != (number, variant, name):
            first = compile_notice(player_search(name))
            text = f"Playing game {number} as {name}…"
            with Ticker(_Gated(current, self.player_text), f"{first} {text}" if first else text):
                game = self.model.play(number, variant, name)
            if not current():
                return
            replay = Replay(game, layout=layout, find_loss=False)
            self.player_replay = replay
            self._player_shown = (number, variant, name)
            self.player_progress.value = ""
            self._place(self._player_box, replay, self._continue_button(replay, whose))
        game = self.model.play(number, variant, name)  # kept: free
        par = self.model.has_par(number, variant) if result.solved else None
        self.player_text.value = escape(on_screen(ExplorerModel.player_summary(game, result, par)))
        if game.won:
            return
        if not loss:  # par comes first: the line under the verdict says how it goes
            self.player_progress.value = escape(
                f"Where the {name} player lost is looked for once par is found (the line "
                f"above the tabs)…"
            )
            return
        with Ticker(
            _Gated(current, self.player_progress),
            f"Looking for the move that lost the {name} player's game…",
        ):
            e = replay.model.explain(DEFAULT_BUDGET)
        if not current():
            return
        self.player_progress.value = ""
        marked = Replay(replay.model.with_loss(e), layout=layout, find_loss=False)
        marked.explanation = e
        marked.loss.value = f"Where it was lost: {escape(on_screen(e.summary()))}"
        marked.slider.value = replay.step  # where the person had stepped to
        self.player_replay = marked
        self._place(self._player_box, marked, self._continue_button(marked, whose))

    # -- the journal, and games opened from files ---------------------------------------
    def _leave_board(self) -> None:
        """The board's game is left for another: kept as given up if it was played."""
        if self._keeper is not None:
            self._keeper.leave()
            self._keeper = None

    def _board_ready(self, number: int, variant: str) -> None:
        """A new board shows game ``number``: keep its game, and put a position waiting
        for it (a PySolFC save, a "Continue from here" of My games) on it."""
        if self.board is None or self.your_game is None:
            return
        pending, self._pending = self._pending, None
        if pending is not None and pending[:2] != (number, variant):
            pending = None
        source = pending[4] if pending is not None else "app"
        keeper = GameKeeper(
            self.journal, self.board, number, variant, source=source, on_kept=self._kept
        )
        self._keeper = keeper
        if pending is None:
            return
        board, position, words = self.board, pending[2], pending[3]
        keeper.quietly(lambda: board.load(position))
        self.tabs.selected_index = 2
        self.your_game.loaded(words)

    def _kept(self, error: str) -> None:
        """A game was kept in the journal, or (``error``) could not be: said here too."""
        self.my_games.kept(error)
        if error:
            self._pysol_say(f"Your game was not kept: {error}", bad=True)

    def _my_games_shown(self, shown: bool) -> None:
        """My games in place of the game (put on the page the first time), or back."""
        if shown and not self._my_games_view.children:
            self._my_games_view.children = (self.my_games,)
        self._my_games_view.layout.display = None if shown else "none"
        self._game_view.layout.display = "none" if shown else None
        if shown:
            self.my_games.refresh()

    def open_position(
        self,
        number: int,
        variant: str,
        position: GameState,
        words: str = "",
        *,
        source: str = "app",
    ) -> None:
        """Show game ``number`` of ``variant`` with ``position`` (a position of that
        deal) on its board, "Play it yourself" open and ``words`` said there."""
        said = words or (
            f"The board shows game {number} after {counted(len(position.history), 'move')}: "
            f"play on from there."
        )
        self._pending = (number, variant, position, said, source)
        self.show_my_games.value = False
        self._opening = True
        try:
            self.variant.value = variant
            self.game.value = str(number)
        finally:
            self._opening = False
        if self._shown == (number, variant) and self._asked is None:
            self._leave_board()
            self._board_ready(number, variant)
        else:
            self._request()

    def _uploaded(self) -> None:
        got = uploaded(self.pysol.value)
        if got is not None:
            self.pysol.value = ()  # the file's bytes are not kept, and the same file opens again
            self.open_pysol(got[1], got[0])

    def _pysol_say(self, text: str, *, bad: bool = False) -> None:
        tone = "#c0392b" if bad else "#2e7d32"
        self.pysol_message.value = (
            f'<span class="bl-explorer-pysol" style="color:{tone}">{escape(on_screen(text))}</span>'
        )

    def open_pysol(self, data: bytes, name: str = "the file") -> None:
        """Open a PySolFC saved game (the bytes of a save, which PySolFC names ``.pso``,
        given as ``name``): its deal shown, the board at the saved position.  A file that
        cannot be read is said in one line beside the button, and nothing else changes; a
        statistics file is opened in My games."""
        from bakers_lab.display.widgets.mygames import read_upload
        from bakers_lab.files.pysol import PysolFileError, read_pysol_stats

        try:
            g = read_save(name, data)
        except PysolFileError as exc:
            if "a PySolFC statistics file, not a saved game" in str(exc):
                try:
                    table = read_upload(name, data, read_pysol_stats)
                except PysolFileError as again:
                    self._pysol_say(str(again), bad=True)
                    return
                self.my_games.open_stats(table, name)
                self._pysol_say(f"{name} is a PySolFC statistics file: its games are in My games.")
                self.show_my_games.value = True
                return
            self._pysol_say(str(exc), bad=True)
            return
        if g.deal.number is None or g.deal.variant not in variant_names():
            self._pysol_say(f"{name}: the app cannot show this variant of {g.game_type}", bad=True)
            return
        words = opened_words(g, name)
        self._pysol_say(words)
        self.open_position(
            g.deal.number,
            g.deal.variant,
            g.state,
            f"{words} The board shows it as saved: play on, or ask Where did I lose?",
            source="pysolfc",
        )
