"""``bakers-lab fc-solve``: Freecell Solver's command line, as PySolFC speaks it.

PySolFC's Solver dialog (``FreeCellSolver_Hint`` in ``pysollib/hint.py``) runs the
command ``fc-solve`` with the board on standard input and reads its answer line by
line.  For Baker's Dozen, Good Measure, Portuguese Solitaire and Spanish Patience II
this module answers in its place, with this toolkit's solver:

- **the question**: the options PySolFC passes (``-m -p -opt -sel -hoi``,
  ``--max-iters N``, ``--decks-num``, ``--stacks-num``, ``--freecells-num``,
  ``--preset``, ``--sequences-are-built-by``, ``--sequence-move``,
  ``--empty-stacks-filled-by``, ``--load-config``, ``--iter-output``,
  ``--iter-output-step``) name the game (:func:`variant_of`); the board is PySolFC's
  (a ``Founds:`` line of foundation tops like ``H-3``, then one line per column, cards
  bottom to top);
- **the answer**, in fc-solve's words, which PySolFC's regular expressions read:
  ``This game is solveable.`` after the moves (``Move a card from stack 3 to the
  foundations``, ``Move 1 cards from stack 0 to stack 5``), ``I could not solve this
  game.`` for a deal proven lost (no move printed), ``Iterations count exceeded.``
  when the budget ran out; then ``Total number of states checked is N.`` and ``This
  scan generated N states.``, and with ``--iter-output`` the progress lines PySolFC
  shows;
- **the budget**: ``--max-iters N`` gives the solver ``N`` × :data:`NODES_PER_ITERATION`
  positions: PySolFC's default 10,000 iterations are the solver's default 5,000,000
  positions, the budget of every shipped survey (which settles 99.9 % of deals);
- ``-opt`` (PySolFC always asks for it): the shortest win the compiled A* proves or
  finds within :data:`OPT_NODES` positions (a tenth of a second), when shorter than the
  solver's line without its detours (:mod:`bakers_lab.model.detours`), which is
  otherwise given.

Every other game (Freecell, Castles in Spain, two decks …) goes unchanged to the real
``fc-solve`` further along the ``PATH`` (:func:`real_fc_solve`); where there is none,
one line on standard error and exit status 127, which PySolFC shows as "Solver not
found in the PATH".  A bad question (an option fc-solve does not have, a card twice,
14 columns for Baker's Dozen, a face-down card) gets one line on standard error and
fc-solve's exit status for it, 255.

>>> r = answer(["--preset", "bakers_dozen", "--stacks-num", "13", "--freecells-num", "0"],
...            deal_board(64))
>>> r.code, r.out.decode().splitlines()[0]
(0, 'I could not solve this game.')
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bakers_lab.model.boardtext import BoardTextError
from bakers_lab.model.cards import rank_char
from bakers_lab.model.deals import deal
from bakers_lab.model.game import GameState
from bakers_lab.model.moves import Dest, Move
from bakers_lab.model.rules import rules, title
from bakers_lab.utils.validate import shown

if TYPE_CHECKING:
    from bakers_lab.solve.fast import SolveResult

__all__ = [
    "FC_SOLVE_VERSION",
    "NODES_PER_ITERATION",
    "OPT_NODES",
    "OPT_SOLVER_NODES",
    "Answer",
    "FcSolveError",
    "FcSolveRequest",
    "answer",
    "asks_only",
    "deal_board",
    "failed",
    "main",
    "parse_request",
    "position_of",
    "real_fc_solve",
    "variant_of",
]

#: The solver's positions per fc-solve iteration: PySolFC's default 10,000 iterations
#: give the solver its own default budget, 5,000,000 positions.
NODES_PER_ITERATION = 500
#: The most iterations asked for (the solver's largest budget, 10**12 positions).
MAX_ITERS = 2_000_000_000
#: The shortest-win search's budget for ``-opt``: a tenth of a second (it proves par at
#: once on many deals; where it does not, the solver's line without its detours is
#: often the shorter).
OPT_NODES = 20_000
#: The most positions the solver may have searched for ``-opt`` to try A* as well.
OPT_SOLVER_NODES = 500_000
#: The fc-solve version this command answers as (PySolFC asks ``--version`` and
#: passes ``-hoi`` and ``--iter-output-step`` from 4.20 on).
FC_SOLVE_VERSION = "5.0.0"
#: fc-solve's exit status for a question it cannot take.
BAD = 255
#: The exit status of a command that is not there (PySolFC: "Solver not found").
NOT_FOUND = 127
#: Options without a value (fc-solve's display and search switches PySolFC may pass).
FLAGS = {
    "-m", "--display-moves", "-p", "--display-parent-iter", "-opt", "--optimize-solution",
    "-sel", "--show-exceeded-limits", "-hoi", "--hint-on-intractable", "-s",
    "--state-output", "-i", "--iter-output", "-sam", "--display-states-and-moves",
    "-t", "--display-10-as-t", "-c", "--canonized-order-output", "-sn",
    "--standard-notation", "-snx", "--standard-notation-extended", "--reset",
}  # fmt: skip
#: Options with a value, and the name each is known by here.
VALUED = {
    "--max-iters": "max_iters", "-mi": "max_iters",
    "--decks-num": "decks", "--stacks-num": "stacks", "--freecells-num": "freecells",
    "--preset": "preset", "-g": "preset", "--game": "preset",
    "--sequences-are-built-by": "sbb", "--sequence-move": "sm",
    "--empty-stacks-filled-by": "esf", "--load-config": "config", "-l": "config",
    "--iter-output-step": "step", "--max-depth": "depth", "-md": "depth",
    "--max-stored-states": "stored", "-mss": "stored",
}  # fmt: skip
#: The games this command answers: (preset, sequences built by, empty stacks filled by,
#: stacks, free cells) as PySolFC's ``FreeCellSolverWrapper`` asks for each.
GAMES = {
    ("bakers_dozen", None, None, 13, 0): "bakers_dozen",
    ("good_measure", None, None, 10, 0): "good_measure",
    (None, "rank", "kings", 13, 0): "portuguese_solitaire",
    (None, "rank", None, 13, 0): "spanish_patience_ii",
}


class FcSolveError(ValueError):
    """A question this command cannot take: one line for standard error."""


@dataclass(frozen=True)
class FcSolveRequest:
    """What PySolFC asked: the options by name (``max_iters``, ``decks``, ``stacks``,
    ``freecells``, ``preset``, ``sbb``, ``esf``, ``sm``, ``config``, ``step``), the
    switches given, and the board file (``-`` or ``None``: standard input)."""

    values: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    board_file: str | None = None
    help: bool = False
    version: bool = False

    def number(self, name: str, default: int, high: int) -> int:
        """The option ``name`` as a whole number from 0 to ``high`` (``default`` unset)."""
        text = self.values.get(name)
        if text is None:
            return default
        option = next(k for k, v in VALUED.items() if v == name and k.startswith("--"))
        if not text.isascii() or not text.isdigit() or int(text) > high:
            raise FcSolveError(
                f"{option} takes a whole number from 0 to {high:,}, not {shown(repr(text))}"
            )
        return int(text)

    @property
    def iter_output(self) -> bool:
        return bool({"-i", "--iter-output"} & self.flags)


@dataclass(frozen=True)
class Answer:
    """What the command says: exit status, standard output and standard error."""

    code: int
    out: bytes = b""
    err: bytes = b""


def parse_request(argv: Sequence[str]) -> FcSolveRequest:
    """fc-solve's options as PySolFC passes them; an option fc-solve does not have, or
    one without its value, raises :class:`FcSolveError` in fc-solve's words."""
    values: dict[str, str] = {}
    flags: set[str] = set()
    board: str | None = None
    help = version = False
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            help = True
        elif a in ("-v", "--version"):
            version = True
        elif a in FLAGS:
            flags.add(a)
        elif a in VALUED:
            if i + 1 >= len(args):
                raise FcSolveError(
                    f'The command line parameter "{a}" requires an argument and was not '
                    "supplied with one."
                )
            values[VALUED[a]] = args[i + 1]
            i += 1
        elif a == "-" or not a.startswith("-"):
            board = a
        else:
            raise FcSolveError(
                f'Unknown option "{shown(a)}". Type "fc-solve --help" for usage information.'
            )
        i += 1
    return FcSolveRequest(values, frozenset(flags), board, help, version)


def variant_of(request: FcSolveRequest) -> str | None:
    """The toolkit's variant for the game PySolFC asks about, or ``None`` for a game
    this command does not answer (the real ``fc-solve`` does)."""
    v = request.values
    if request.number("decks", 1, 1000) != 1:
        return None
    key = (
        v.get("preset"),
        v.get("sbb"),
        v.get("esf"),
        request.number("stacks", 8, 1000),
        request.number("freecells", 4, 1000),
    )
    found = GAMES.get(key)
    if found is None and v.get("preset") in ("bakers_dozen", "good_measure"):
        name = str(v.get("preset"))
        raise FcSolveError(
            f"{title(rules(name))} has {rules(name).columns} columns and no free cell, not "
            f"--stacks-num {key[3]} --freecells-num {key[4]}"
        )
    return found


def deal_board(number: int, variant: str = "bakers_dozen") -> bytes:
    """PySolFC's board for the start of game ``number``, as its Solver writes it.

    >>> deal_board(5, "good_measure").decode().splitlines()[0]
    'Founds: S-A H-A'
    """
    g = GameState.from_deal(deal(number, variant=variant))
    return board_text(g).encode()


def board_text(g: GameState) -> str:
    """The position as PySolFC's Solver writes it: a ``Founds:`` line of each
    foundation's top card (none when all are empty), then the columns."""
    tops = [f"{p[-1].suit.letter}-{rank_char(p[-1].rank)}" for p in g.foundations if p]
    lines = ["Founds: " + " ".join(tops)] if tops else []
    lines += [" ".join(str(c) for c in col) for col in g.columns]
    return "\n".join(lines) + "\n"


def position_of(text: str, variant: str, stacks: int | None = None) -> GameState:
    """PySolFC's board (what its Solver writes on standard input) as a position of
    ``variant`` with ``stacks`` columns (the variant's by default), checked card by card;
    :class:`FcSolveError` says in one line what is wrong with it.

    >>> position_of("Founds: H-A\\n" + "\\n" * 13, "bakers_dozen")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bakers_lab.bridge.fcsolve.FcSolveError: ...
    """
    if stacks is None:
        stacks = rules(variant).columns
    if not text.strip():
        raise FcSolveError("no board on standard input: PySolFC writes the position there")
    if "<" in text:
        raise FcSolveError(
            "a face-down card (<..>) on the board: the games this command knows deal "
            "every card face up"
        )
    lines = []
    for line in text.splitlines():
        head = line.strip()
        low = head.lower()
        for prefix in ("founds:", "found:"):
            if low.startswith(prefix):
                head = "Foundations:" + head[len(prefix) :]
        if low.startswith(("fc:", "freecells:")):
            if head.split(":", 1)[1].strip().strip("-").strip():
                raise FcSolveError(f"{title(rules(variant))} has no free cell: {shown(head)}")
            continue
        lines.append(head)
    found = [x for x in lines if x.lower().startswith("foundations:")]
    columns = [x for x in lines if not x.lower().startswith("foundations:")]
    while len(columns) > stacks and not columns[-1]:  # blank lines after the board
        columns.pop()
    if len(columns) != stacks:
        raise FcSolveError(
            f"the board has {len(columns)} columns, not the {stacks} of --stacks-num {stacks}"
        )
    # an empty column is an empty line in PySolFC's board, a lone ":" in board text
    text = "\n".join([*found, *(c or ":" for c in columns)]) + "\n"
    try:
        return GameState.from_text(text, variant)
    except (BoardTextError, ValueError) as exc:
        raise FcSolveError(str(exc).splitlines()[0]) from None


def _move_words(g: GameState, move: Move) -> str:
    """``move`` in fc-solve's words, played on ``g``."""
    before = [col[-1] if col else None for col in g.columns]
    src = before.index(move.card)
    g.play(move)
    if move.to is Dest.FOUNDATION:
        return f"Move a card from stack {src} to the foundations"
    dst = next(i for i, col in enumerate(g.columns) if col and col[-1] == move.card)
    return f"Move 1 cards from stack {src} to stack {dst}"


def _line(g: GameState, result: SolveResult, optimise: bool) -> tuple[Move, ...]:
    """The line to give: the solver's without its detours, or with ``optimise`` the
    shortest the compiled A* finds within :data:`OPT_NODES` positions when shorter (a
    line A* proves shortest is given as it is: nothing is shorter).  A* first searches
    as the solver did (for a line to beat), so on a deal the solver found hard (more
    than :data:`OPT_SOLVER_NODES` positions) it is not asked: it would take as long
    again (4.6 s on Good Measure game 3) for a line no shorter."""
    from bakers_lab.model.detours import without_detours

    best: tuple[Move, ...] = ()
    if optimise and result.moves and result.nodes <= OPT_SOLVER_NODES:
        from bakers_lab.solve.shortest import PAR_BOUND, shortest

        found = shortest(g, max_nodes=OPT_NODES, bound=PAR_BOUND)  # replayed, or it raises
        if found.outcome == "optimal" and found.moves:
            return tuple(found.moves)
        best = tuple(found.moves)
    line = without_detours(g, result.moves)
    return without_detours(g, best) if best and len(best) < len(line) else line


def answer(argv: Sequence[str], board: bytes) -> Answer:
    """What ``fc-solve ARGV`` answers with ``board`` on standard input, for a game this
    command knows; for another, an :class:`Answer` with code -1 (the caller hands the
    question to the real ``fc-solve``)."""
    try:
        request = parse_request(argv)
        if request.help:
            return Answer(0, HELP.encode())
        if request.version:
            return Answer(0, VERSION.encode())
        variant = variant_of(request)
        if variant is None:
            return Answer(-1)
        iters = request.number("max_iters", 100_000, MAX_ITERS)
        text = _board(request, board)
        g = position_of(text, variant)
    except FcSolveError as exc:
        return Answer(BAD, err=f"{exc}\n".encode())
    from bakers_lab.solve.fast import solve

    result = solve(g, max_nodes=max(1, iters) * NODES_PER_ITERATION)
    checked = -(-result.nodes // NODES_PER_ITERATION)  # in fc-solve's iterations
    out: list[str] = []
    if request.iter_output:  # PySolFC reads these up to the "-=-=" line
        out += [f"Iteration: {checked}", "Depth: 0", f"Stored-States: {result.nodes}", "Scan: ", ""]
    if result.outcome == "solved":
        out += ["-=-=-=-=-=-=-=-=-=-=-=-", ""]
        line = _line(g, result, "-opt" in request.flags or "--optimize-solution" in request.flags)
        pos = g.copy()
        for m in line:
            out += [_move_words(pos, m), "", "====================", ""]
        out.append("This game is solveable.")
    elif result.outcome == "unsolvable":
        out.append("I could not solve this game.")
    else:
        out.append("Iterations count exceeded.")
    out += [
        f"Total number of states checked is {checked}.",
        f"This scan generated {result.nodes} states.",
        "",
    ]
    return Answer(0, "\n".join(out).encode())


def _board(request: FcSolveRequest, stdin: bytes) -> str:
    data = stdin
    if request.board_file not in (None, "-"):
        try:
            data = Path(str(request.board_file)).read_bytes()
        except OSError as exc:
            raise FcSolveError(
                f"cannot read the board file {shown(repr(request.board_file))}: {exc.strerror}"
            ) from None
    for encoding in ("utf-8-sig", "latin-1"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def real_fc_solve(path: str | None = None, *, skip: Sequence[str] = ()) -> str | None:
    """The real ``fc-solve`` on ``path`` (the ``PATH`` by default): the first one that
    is not this command (not a link to it, not in a folder of ``skip``)."""
    mine = {os.path.realpath(p) for p in (sys.argv[0], shutil.which("bakers-lab") or "") if p}
    skipped = {os.path.realpath(s) for s in skip}
    for folder in (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep):
        if not folder or os.path.realpath(folder) in skipped:
            continue
        for name in ("fc-solve", "fc-solve.exe"):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                if os.path.realpath(candidate) in mine or _is_ours(candidate):
                    continue
                return candidate
    return None


def _is_ours(candidate: str) -> bool:
    """A launcher of this command (a small script that runs ``bakers-lab fc-solve``)."""
    try:
        with open(candidate, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b"bakers-lab" in head or b"bakers_lab" in head


def main(argv: Sequence[str], ask: Callable[[Sequence[str], bytes], Answer] = answer) -> int:
    """``bakers-lab fc-solve ARGV``: read the board from standard input (unless a file is
    named), answer (with ``ask``: :func:`answer` by default), and return the exit status;
    a game this command does not know goes to the real ``fc-solve``, standard input,
    output and status passed through."""
    board = b"" if asks_only(argv) else sys.stdin.buffer.read()
    said = ask(argv, board)
    if said.code not in (BAD, -1):
        return _said(said)
    real = real_fc_solve(skip=os.environ.get(SKIP_ENV, "").split(os.pathsep))
    if said.code == BAD and real is not None and _not_ours(argv):
        said = Answer(-1)  # an option only the real fc-solve knows: its question, its answer
    if said.code == -1:
        if real is None:
            sys.stderr.write(
                "bakers-lab fc-solve answers Baker's Dozen, Good Measure, Portuguese Solitaire "
                "and Spanish Patience II; for this game install Freecell Solver (fc-solve)\n"
            )
            return NOT_FOUND
        done = subprocess.run([real, *argv], input=board, capture_output=True)
        sys.stdout.buffer.write(done.stdout)
        sys.stderr.buffer.write(done.stderr)
        return done.returncode
    return _said(said)


def _said(said: Answer) -> int:
    sys.stdout.buffer.write(said.out)
    sys.stderr.buffer.write(said.err)
    return said.code


def failed(exc: BaseException) -> Answer:
    """What ``fc-solve`` says when answering raised ``exc``: one line on standard error
    and fc-solve's status for it (PySolFC reads standard output only; never a
    traceback)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return Answer(BAD, err=f"fc-solve: {shown(text, 2000)}\n".encode())


def _not_ours(argv: Sequence[str]) -> bool:
    """Whether ``argv`` has an option this command does not know (the real fc-solve
    has many more: a Freecell player's own options go to it untouched)."""
    try:
        parse_request(argv)
    except FcSolveError:
        return True
    return False


def asks_only(argv: Sequence[str]) -> bool:
    """Whether ``argv`` asks only for the help or the version (no board is read)."""
    return any(a in ("-h", "--help", "-v", "--version") for a in argv)


#: Folders (joined by os.pathsep) whose fc-solve is this command's own launcher:
#: ``bakers-lab pysolfc`` puts its launcher there and names it here.
SKIP_ENV = "BAKERS_LAB_FC_SOLVE_LAUNCHER"

VERSION = (
    f"fc-solve (bakers-lab fc-solve: bakers_lab's solver behind Freecell Solver's command "
    f"line)\nlibfreecell-solver version {FC_SOLVE_VERSION} (the command line it speaks)\n"
)

HELP = """\
fc-solve (bakers-lab fc-solve) [flags] [board_file|-]

bakers_lab's solver behind Freecell Solver's command line, as PySolFC's Solver
runs it. It answers Baker's Dozen (--preset bakers_dozen), Good Measure
(--preset good_measure), Portuguese Solitaire (--sequences-are-built-by rank
--empty-stacks-filled-by kings) and Spanish Patience II (--sequences-are-built-by
rank), 13 or 10 stacks and no free cell; every other game goes to the real
fc-solve further along the PATH.

Reads the board from standard input by default or if a "-" is given: a
"Founds:" line (H-3 C-A ...), then one line per column, cards bottom to top.

  --max-iters N    the budget: N x 500 positions (PySolFC's 10,000: 5,000,000)
  -opt             the shortest win found quickly, when shorter than the solver's
  -m -p -sel -hoi  accepted (the moves are always shown, as PySolFC reads them)
  --iter-output    a progress line PySolFC shows
  --version        the version PySolFC reads
"""
