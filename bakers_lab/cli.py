"""The ``bakers-lab`` command (each sub-command's options: ``bakers-lab COMMAND --help``)::

    bakers-lab deal N [--variant V] [--format text|json]
    bakers-lab solve (N | --board FILE) [--variant V] [--max-nodes K] [--max-depth D]
                     [--table-mib M] [--json]
    bakers-lab shortest (N | --board FILE) [--variant V] [--max-nodes K] [--json]
    bakers-lab prove (N | --board FILE) [--variant V] [--workdir DIR] [--memory SIZE]
                     [--scheduler ADDR] [--jobs K] [--max-seconds T] [--no-probes]
                     [--json] [--quiet]
    bakers-lab play N [--player P] [--variant V] [--json]
    bakers-lab survey (--deals SPEC | --sample K [--seed S]) [--variant V] [--players P,...]
                      [--jobs N] [--backend loky|dask] [--scheduler ADDR] --out PATH [--quiet]
    bakers-lab report PATH [--html OUT]
    bakers-lab claims [--data DIR] [--markdown]
    bakers-lab app [--port P] [--no-browser]
    bakers-lab difficulty N [--variant V]
    bakers-lab pick [--difficulty D] [--variant V] [--count K] [--winnable] [--seed S]
                    [--deals SPEC]
    bakers-lab explain N --moves FILE [--variant V] [--max-nodes K] [--json]
    bakers-lab hint N [--moves FILE] [--variant V] [--max-nodes K]
    bakers-lab ratings [--data DIR] --out FILE
    bakers-lab notebooks DIR [--force]

Errors in the input (an unknown variant, a bad game number, a malformed
board) print one line, ``bakers-lab: error: …``, and exit with code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, NoReturn

from bakers_lab import __version__
from bakers_lab.display.app import IDLE_MINUTES, MAX_PAGES
from bakers_lab.files.userfile import read_user_file
from bakers_lab.model.deals import Deal, DealError, deal, game_number_text
from bakers_lab.model.moves import Move
from bakers_lab.model.rules import Rules, variant_names
from bakers_lab.model.rules import rules as _rules
from bakers_lab.utils.validate import shown

__all__ = ["build_parser", "deal_json", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse, with one-line errors on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bakers-lab: error: {message}\n")


#: How a teacher runs a class with the exercises: ``bakers-lab exercises --help`` ends
#: with it, and the teacher's copy of the notebook opens with the same steps (a test
#: keeps the two alike).
#: The last line of ``bakers-lab --help``: where the manual is.
MANUAL = "The manual: `make docs` in a clone builds build/docs/html/index.html."

FOR_TEACHERS = """\
For teachers:
  Students get the student's copy (bakers-lab exercises --out DIR, or the one among
  bakers-lab notebooks DIR); the teacher's copy, with the solutions and these steps in
  its first cell, only with --solutions. A class, with nbgrader
  (pip install 'bakers_lab[exercises]'), in the course folder:

  1. make the assignment: bakers-lab exercises --solutions --out source/ps1, then
     nbgrader generate_assignment ps1; hand out bakers-lab exercises --out DIR
     (nbgrader's release/ps1 copy without the teachers' cell)
  2. collect each student's notebook into submitted/STUDENT/ps1/05_exercises.ipynb
     (or nbgrader collect ps1)
  3. grade: nbgrader autograde ps1 runs every check cell on unseen deals and reads its
     last number as the exercise's points (3, 3, 3 and 1 of 12); the answer in words
     (2 points) is graded by hand in nbgrader formgrader
  4. read the reports: each check cell of autograded/STUDENT/ps1/05_exercises.ipynb
     names the smallest deal the search gets wrong and what the bug probably is;
     nbgrader generate_feedback ps1 makes them into HTML for the student
"""


def deal_json(d: Deal) -> dict[str, object]:
    """A deal as a JSON-ready dict: number, variant, columns and foundations as card text."""
    return {
        "deal": d.number,
        "seed": d.seed,
        "variant": d.variant,
        "king_rule": d.king_rule,
        "columns": [[str(c) for c in col] for col in d.columns],
        "foundations": {"CSHD"[s]: [str(c) for c in pile] for s, pile in enumerate(d.foundations)},
    }


def _cmd_deal(args: argparse.Namespace) -> int:
    d = deal(args.number, variant=args.variant)
    if args.format == "json":
        print(json.dumps(deal_json(d)))
    else:
        sys.stdout.write(d.to_text())
    return 0


def _add_number(p: argparse.ArgumentParser, *, optional: bool = False, help: str = "") -> None:
    """The positional game number ``N`` (``nargs="?"`` when *optional*)."""
    nargs = "?" if optional else None  # None: argparse's own default, exactly one
    p.add_argument(
        "number", type=_game_number, nargs=nargs, metavar="N", help=help or "PySolFC game number"
    )


def _add_variant(p: argparse.ArgumentParser, default: str | None = "bakers_dozen") -> None:
    """``--variant V``: the rules preset (no default with ``default=None``)."""
    help = f"rules preset: {', '.join(variant_names())} (default bakers_dozen)"
    p.add_argument("--variant", default=default, metavar="V", help=help)


#: The largest node budget (``bakers_lab.solve.fast.MAX_NODES``, a test keeps them
#: equal; not imported, which would load numba before every command).
MAX_NODES = 10**12


def _nodes(text: str) -> int:
    return _whole(text, 1, MAX_NODES)


def _add_budget(p: argparse.ArgumentParser, help: str) -> None:
    """``--max-nodes K``: a node budget, from 1 to :data:`MAX_NODES`."""
    p.add_argument("--max-nodes", type=_nodes, metavar="K", help=help)


def _add_json(p: argparse.ArgumentParser) -> None:
    """``--json``: print one JSON object."""
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_data(p: argparse.ArgumentParser) -> None:
    """``--data DIR``: where the surveys are."""
    p.add_argument("--data", metavar="DIR", help=_DATA_HELP)


def _position_args(p: argparse.ArgumentParser) -> None:
    """N or --board FILE, and --variant (read by :func:`_position`)."""
    _add_number(p, optional=True)
    p.add_argument("--board", metavar="FILE", help="board text file (- for stdin) instead of N")
    _add_variant(p)


def _game_moves_args(p: argparse.ArgumentParser, moves: str, budget: str) -> None:
    """N, --moves FILE, --variant, --pysol FILE and --max-nodes (read by ``_game_and_moves``)."""
    _add_number(p, optional=True)
    p.add_argument("--moves", metavar="FILE", help=f"{moves}: {_MOVE_FILE}")
    _add_variant(p, default=None)
    p.add_argument("--pysol", metavar="FILE", help=_PYSOL_SAVE)
    _add_budget(p, budget)


def _position(args: argparse.Namespace) -> Deal:
    """The deal of ``N`` or of ``--board FILE`` (exactly one of them)."""
    if (args.number is None) == (args.board is None):
        raise ValueError("give a game number or --board FILE (one of them)")
    if args.board is not None:
        text = _read_input(args.board, "--board")
        return Deal.from_text(text, variant=_rules(args.variant))
    return deal(args.number, variant=args.variant)


def _cmd_solve(args: argparse.Namespace) -> int:
    from bakers_lab.solve import DEFAULT_MAX_NODES, solve  # numba loads only when needed
    from bakers_lab.solve.fast import DEFAULT_MAX_DEPTH, DEFAULT_TABLE_MIB
    from bakers_lab.utils.present import counted

    position = _position(args)
    result = solve(
        position,
        max_nodes=DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes,
        max_depth=DEFAULT_MAX_DEPTH if args.max_depth is None else args.max_depth,
        table_mib=DEFAULT_TABLE_MIB if args.table_mib is None else args.table_mib,
        relax=0.0 if args.relax is None else args.relax,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        what = f"game {position.number}" if position.number is not None else "board"
        how = f"proof: {result.proof}; " if result.proof is not None else ""
        print(
            f"{result.variant} {what}: {result.outcome} "
            f"({how}{counted(result.nodes, 'node')}, "
            f"{result.seconds:.3f} s)"
        )
        if result.moves:
            print(result.solution)
    return 0


def _cmd_shortest(args: argparse.Namespace) -> int:
    from bakers_lab.solve.shortest import (  # numba loads only when needed
        DEFAULT_MAX_NODES,
        shortest,
    )

    position = _position(args)
    result = shortest(
        position, max_nodes=DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.summary())
        if result.moves:
            print(result.solution)
    return 0


def _cmd_prove(args: argparse.Namespace) -> int:
    from bakers_lab.solve.prove import default_workdir, prove, size_bytes, tqdm_progress

    position = _position(args)
    workdir = args.workdir if args.workdir is not None else default_workdir(position)
    memory = None if args.memory is None else size_bytes(args.memory)
    if not args.quiet and not args.json:
        print(f"bakers-lab prove: frontier and progress in {shown(str(workdir))} "
              "(the same command goes on from there if stopped)", file=sys.stderr)  # fmt: skip
    with _kill_interrupts(), tqdm_progress(disable=args.quiet) as progress:
        result = prove(
            position,
            workdir=workdir,
            memory=memory,
            jobs=args.jobs,
            scheduler=args.scheduler,
            max_seconds=args.max_seconds,
            probes=not args.no_probes,
            progress=progress,
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.summary())
        if result.moves:
            print(" ".join(str(m) for m in result.moves))
    return 0


@contextlib.contextmanager
def _kill_interrupts() -> Iterator[None]:
    """While the block runs, a kill (SIGTERM) stops it the way Ctrl-C does: as a
    KeyboardInterrupt, so that worker processes and servers are stopped too
    (the default SIGTERM ends this process at once and leaves them running)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _cmd_survey(args: argparse.Namespace) -> int:
    from bakers_lab.study.stats import rate_sentence, win_rates
    from bakers_lab.study.survey import parse_deals, sample_deals, survey

    if (args.deals is None) == (args.sample is None):
        raise ValueError("give --deals SPEC or --sample K (one of them)")
    numbers = (
        parse_deals(args.deals) if args.deals is not None else sample_deals(args.sample, args.seed)
    )
    t0 = time.perf_counter()
    with _kill_interrupts():  # a killed survey stops its workers too
        table = survey(
            numbers,
            variant=args.variant,
            players=args.players,
            out=args.out,
            n_jobs=args.jobs,
            backend=args.backend,
            scheduler=args.scheduler,
            chunk_size=args.chunk_size,
            max_nodes=args.max_nodes,
            progress=not args.quiet,
        )
    wall = time.perf_counter() - t0
    print(f"{len(table)} rows in {args.out} ({wall:.1f} s this run)")
    for _, row in win_rates(table).iterrows():
        print(rate_sentence(row))
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from bakers_lab.display.report import build_report, report_text, write_html

    rep = build_report(args.path)
    if args.html:
        target = write_html(rep, args.html)
        print(f"{rep.headline}\nreport written to {target}")
    else:
        sys.stdout.write(report_text(rep))
    return 0


def _cmd_claims(args: argparse.Namespace) -> int:
    from bakers_lab.study.claims import claims_table, format_claims

    sys.stdout.write(format_claims(claims_table(args.data), markdown=args.markdown))
    return 0


def _cmd_notebooks(args: argparse.Namespace) -> int:
    from bakers_lab.files.datadir import copy_notebooks, find_data

    written = copy_notebooks(args.dir, force=args.force)
    source = find_data()
    print(
        f"{len(written)} notebooks copied to {args.dir}: "
        f"{', '.join(p.name for p in written)}\n"
        f"open them with: jupyter lab {args.dir}\n"
        f"they read the surveys from {source.path} ({source.why}); "
        f"set BAKERS_LAB_DATA=DIR to use another copy"
    )
    return 0


def _cmd_app(args: argparse.Namespace) -> int:
    from bakers_lab.display.app import environment, missing, url, voila_command

    lacking = missing()
    if lacking:
        print(
            f"bakers-lab: error: the app needs {' and '.join(lacking)}, not installed here: "
            f"pip install 'bakers_lab[notebooks]' (or, in a clone of the repository, make app)",
            file=sys.stderr,
        )
        return 2
    with socket.socket() as probe:  # Voilà would only log this and stop
        try:
            probe.bind(("127.0.0.1", args.port))
        except OSError:
            raise OSError(f"port {args.port} is in use; choose another with --port P") from None
    command = voila_command(
        args.port,
        browser=not args.no_browser,
        max_pages=args.max_pages,
        idle_minutes=args.idle_minutes,
    )
    server = subprocess.Popen(command, env=environment())

    print(f"Open {url(args.port)} in a browser; Ctrl-C stops the app", flush=True)
    try:
        with _kill_interrupts():  # a kill stops the server too
            code = server.wait()
    except KeyboardInterrupt:
        print("bakers-lab: app stopped", file=sys.stderr)
        code = 0
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    if code:
        print(f"bakers-lab: error: Voilà stopped with exit code {code}", file=sys.stderr)
    return 2 if code else 0


def _cmd_play(args: argparse.Namespace) -> int:
    from bakers_lab.solve.players import play

    game = play(deal(args.number, variant=args.variant), args.player)
    if args.json:
        print(json.dumps({"deal": game.deal, "variant": game.variant, "player": game.player,
                          "outcome": game.outcome, "ended": game.ended,
                          "moves": [str(m) for m in game.moves], "positions": game.nodes,
                          "takebacks": game.takebacks}))  # fmt: skip
    else:
        print(game.summary())
        if game.moves:
            print(game.solution)
    return 0


def _cmd_difficulty(args: argparse.Namespace) -> int:
    from bakers_lab.study.rating import difficulty

    print(difficulty(args.number, variant=args.variant).summary())
    return 0


def _cmd_pick(args: argparse.Namespace) -> int:
    from bakers_lab.study.rating import pick
    from bakers_lab.study.survey import parse_deals

    deals = None if args.deals is None else parse_deals(args.deals)
    chosen = pick(
        args.difficulty,
        variant=args.variant,
        count=args.count,
        winnable=args.winnable,
        seed=args.seed,
        deals=deals,
    )
    if len(chosen) < args.count:
        print(f"bakers-lab: only {len(chosen)} deals fit", file=sys.stderr)
    print(" ".join(str(n) for n in chosen))
    return 0


def _strength_games(args: argparse.Namespace) -> Any:
    """The games ``bakers-lab strength`` reads: a CSV of deal,variant,won (moves
    optional), or a PySolFC statistics file (one player's games)."""
    import pandas as pd

    if args.pysol_stats is not None:
        from bakers_lab.files.pysol import read_pysol_stats

        t = read_pysol_stats(args.pysol_stats, player=args.player)
        players = sorted(set(t["player"]))
        if args.player is None and len(players) > 1:
            raise ValueError(
                f"--pysol-stats {shown(args.pysol_stats, 200)} holds the games of "
                f"{', '.join(players)}: say whose with --player NAME"
            )
        if t.attrs.get("note"):
            print(f"bakers-lab: {t.attrs['note']}", file=sys.stderr)
        unnumbered = t["game_number"].isna()
        if unnumbered.any():
            print(f"bakers-lab: {int(unnumbered.sum()):,} game(s) with a number this toolkit "
                  f"does not deal (PySolFC's ms numbers above 31999) left out",
                  file=sys.stderr)  # fmt: skip
            t = t[~unnumbered]
        return t
    if args.player is not None:
        raise ValueError("--player is for --pysol-stats; a --games file holds one player's games")
    data = read_user_file(args.games, "--games", limit=64 * 2**20,
                          expected="a CSV of deal,variant,won")  # fmt: skip
    try:
        t = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(
            f"--games {shown(args.games, 200)}: not a CSV of deal,variant,won "
            f"({shown(str(exc), 120)})"
        ) from None
    words = {"true": True, "won": True, "1": True, "false": False, "lost": False, "0": False}
    if "deal" in t.columns:
        # ASCII digits only, as the command line reads a game number ("٣" is no 3)
        t["deal"] = [int(d) if d.strip().isascii() and d.strip().isdigit() else d
                     for d in t["deal"]]  # fmt: skip
    if "won" in t.columns:
        t["won"] = [words.get(w.strip().lower(), w) for w in t["won"]]
    if "moves" in t.columns:
        t["moves"] = [m if m.strip() else None for m in t["moves"]]
    return t


def _cmd_strength(args: argparse.Namespace) -> int:
    from bakers_lab.study.strength import strength

    print(strength(_strength_games(args), progress=not args.quiet).summary())
    return 0


#: What a move file holds, for --help.
_MOVE_FILE = (
    "a text file (- reads standard input) of moves CARD>DEST, like AD>F 7C>8H 10H>E, "
    "separated by spaces, commas, semicolons (;) or new lines, in any case, 10 or T, suit "
    "letters or symbols; # starts a comment to the end of the line, and a move number "
    "standing alone, a number with a dot or a parenthesis such as 12. or 12), is skipped"
)


_PYSOL_SAVE = (
    "a game saved in PySolFC (Save or Save as, which name it game.pso in ~/.PySolFC/savegames; "
    "any name is read): its game number, variant and moves, instead of N, --moves and "
    "--variant (read safely: nothing in the file is run)"
)


#: Largest input file read (a board is about 200 bytes, the longest move list a few kB).
MAX_INPUT = 1 << 20
_EXPECTED = "a board or a move list is a few kB of text"


def _read_input(path: str, option: str) -> str:
    """The text of an input file (``-``: standard input): a regular file (a pipe
    with no writer, a device such as /dev/zero: refused at once, see
    :mod:`.userfile`) of at most :data:`MAX_INPUT` bytes, UTF-8 text (a byte
    order mark is dropped); a file that is not is named in one line."""
    if not path:
        raise ValueError(f"{option} needs a file name (or - for standard input), not ''")
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data: bytes | str = stream.read(MAX_INPUT + 1) if stream else sys.stdin.read(MAX_INPUT + 1)
        where = f"{option} - (standard input)"
    else:
        where = f"{option} {shown(path, 200)}"
        data = read_user_file(path, option, limit=MAX_INPUT, expected=_EXPECTED)
    if len(data) > MAX_INPUT:
        raise ValueError(f"{where} holds more than {MAX_INPUT // 2**20} MiB; {_EXPECTED}")
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"{where} is not UTF-8 text (byte {exc.start + 1} is {data[exc.start]:#04x}); "
                f"a board or a move list is plain text"
            ) from None
    if "\x00" in text:
        raise ValueError(f"{where} is not text (it holds NUL bytes); a board or a move list "
                         f"is plain text")  # fmt: skip
    return text.removeprefix("\ufeff")


def _read_moves(path: str | None) -> str:
    """The text of a move file (``-``: standard input), read as
    :func:`~bakers_lab.model.positions.move_list` reads it."""
    if path is None:
        return ""
    return _read_input(path, "--moves")


def _game_and_moves(
    args: argparse.Namespace,
) -> tuple[Deal | int, str | list[Move], str | Rules]:
    """The game, the moves played and the rules of explain and hint: ``N`` with
    ``--moves FILE`` (and ``--variant``), or a PySolFC save (``--pysol FILE``)."""
    if args.pysol is None:
        if args.number is None:
            raise ValueError("give a game number N (with --moves FILE), or --pysol FILE")
        return args.number, _read_moves(args.moves), args.variant or "bakers_dozen"
    given = [o for o, v in (("N", args.number), ("--moves", args.moves),
                            ("--variant", args.variant)) if v is not None]  # fmt: skip
    if given:
        raise ValueError(
            f"--pysol FILE holds the game, its variant and its moves: give it without {given[0]}"
        )
    from bakers_lab.files.pysol import read_pysol_game

    saved = read_pysol_game(args.pysol)
    return saved.deal, list(saved.moves), saved.deal.rules


def _cmd_explain(args: argparse.Namespace) -> int:
    from bakers_lab.solve import DEFAULT_MAX_NODES
    from bakers_lab.study.coach import LONGER_NODES, explain

    game, moves, variant = _game_and_moves(args)
    budget = DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes
    e = explain(game, moves, variant=variant, max_nodes=budget)
    if args.json:
        print(
            json.dumps(
                {
                    "deal": e.deal,
                    "variant": e.variant,
                    "status": e.status,
                    "index": e.index,
                    "move": None if e.move is None else str(e.move),
                    "winning_line": [str(m) for m in e.winning_line],
                    "winnable_until": e.winnable_until,
                    "lost_by": e.lost_by,
                    "solves": e.solves,
                    "nodes": e.nodes,
                    "par": None if e.par is None else e.par.par,
                    "par_bound": None if e.par is None else e.par.lower_bound,
                }
            )
        )
        return 0
    print(f"{e.variant} game {e.deal}: {e.summary()}")
    if e.winning_line:
        if e.index is not None:
            where = f"before move {e.index + 1}"
        elif e.status == "not_settled":
            where = f"after move {e.winnable_until}" if e.winnable_until else "from the start"
        else:
            where = "from the last position"
        print(f"winning line {where}: {' '.join(str(m) for m in e.winning_line)}")
    if e.status == "not_settled":
        longer = max(10 * budget, LONGER_NODES)
        print(f"a longer search may settle it: {_explain_again(args, longer)}")
    return 0


def _explain_again(args: argparse.Namespace, budget: int) -> str:
    """The command that asks ``explain`` again, as it was asked, with ``budget``."""
    if args.pysol is not None:
        game = f"--pysol {shlex.quote(args.pysol)}"
    else:
        variant = f" --variant {args.variant}" if args.variant else ""
        moves = f" --moves {shlex.quote(args.moves)}" if args.moves else ""
        game = f"{args.number}{variant}{moves}"
    return f"bakers-lab explain {game} --max-nodes {budget}"


def _cmd_hint(args: argparse.Namespace) -> int:
    from bakers_lab.solve import DEFAULT_MAX_NODES
    from bakers_lab.study.coach import hint, position_after

    game, moves, variant = _game_and_moves(args)
    g = position_after(game, moves, variant=variant)
    budget = DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes
    print(hint(g, max_nodes=budget).text)
    return 0


def _cmd_ratings(args: argparse.Namespace) -> int:
    from bakers_lab.study.claims import load_surveys
    from bakers_lab.study.rating import ratings_from_survey

    out = ratings_from_survey(load_surveys(args.data)).drop(columns="tag")
    out.to_parquet(args.out, index=False)
    counts = out.groupby("variant").size()
    print(
        f"{len(out)} ratings written to {args.out}: "
        + ", ".join(f"{v} {n}" for v, n in counts.items())
    )
    return 0


def _whole(
    text: str, low: int, high: int | None = None, *, signed: bool = False, words: str = ""
) -> int:
    """An integer option as typed: ASCII digits 0-9 only (a ``-`` before them where
    ``signed``), from ``low`` to ``high``; no ``+``, spaces, ``_`` or other scripts'
    digits, which Python's ``int()`` would take.  Said in :func:`~.validate.as_int`'s words."""
    allowed = words or (f"from {low} to {high}" if high is not None else f"at least {low}")
    digits = text[1:] if signed and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(
            f"must be an integer {allowed}, in digits 0-9, not {shown(repr(text), 32)}"
        )
    if len(digits.lstrip("0")) > 30:  # out of every range: never converted whole
        raise argparse.ArgumentTypeError(
            f"must be an integer {allowed}, not {shown(text, 24)} ({len(digits):,} digits)"
        )
    value = int(text)
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"must be an integer {allowed}, not {value}")
    return value


def _seconds(text: str) -> float:
    """A decimal number option as typed (``0``, ``2``, ``0.5``): ASCII digits and one
    point, no sign, exponent, ``inf`` or ``nan``; its range is the library's to say."""
    whole, _, part = text.partition(".")
    if not (text.isascii() and (whole + part).isdigit()):
        raise argparse.ArgumentTypeError(
            f"must be a number such as 0, 2 or 0.5, in digits 0-9, not {shown(repr(text), 32)}"
        )
    return float(text)


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(
            f"a port is from 1 to 65535, in digits 0-9, not {shown(repr(text), 32)}"
        )
    if len(text) > 5 or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {shown(text, 24)}")
    return int(text)


def _game_number(text: str) -> int:
    """A game number as the library takes one: ASCII digits and nothing else."""
    try:
        return game_number_text(text)
    except DealError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _minutes(text: str) -> float:
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text, flags=re.ASCII) or not (
        1 <= float(text) <= 1440
    ):
        raise argparse.ArgumentTypeError(
            f"minutes are a number from 1 to 1440, in digits 0-9, not {shown(repr(text), 32)}"
        )
    return float(text)


def _positive(text: str) -> int:
    return _whole(text, 1)


def _seed(text: str) -> int:  # its range is the library's to say (sample_deals, pick)
    return _whole(text, -(10**30), 10**30, signed=True, words="(0, 1, 2, ...)")


def _jobs(text: str) -> int:
    return _whole(text, -(2**31), 2**31, signed=True, words="(1, 2, ... or -1: every core)")


_DATA_HELP = (
    "a directory of surveys or a compact table (default: $BAKERS_LAB_DATA, else the "
    "repository's data/, else the table that comes with the package)"
)


def _command(
    sub: argparse._SubParsersAction[_Parser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    help: str,
    description: str,
) -> _Parser:
    """The sub-command ``name``: ``help`` in the command list, ``description`` in its
    own help; ``run(args)`` does its work."""
    p = sub.add_parser(name, help=help, description=description)
    p.set_defaults(run=run)
    return p


def _add_flag(p: argparse.ArgumentParser, name: str, help: str) -> None:
    """A switch, off unless given."""
    p.add_argument(name, action="store_true", help=help)


def build_parser() -> argparse.ArgumentParser:
    """The command's argument parser (one sub-command per job)."""
    parser = _Parser(
        prog="bakers-lab", description="Baker's Dozen solitaire analysis toolkit.", epilog=MANUAL
    )
    parser.add_argument("--version", action="version", version=f"bakers-lab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = _command(sub, "deal", _cmd_deal, "print PySolFC's game N", "Print PySolFC's game N.")
    _add_number(p, help="PySolFC game number (1 or more)")
    _add_variant(p)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="board text (what fc-solve reads) or JSON")  # fmt: skip

    p = _command(sub, "solve", _cmd_solve, "solve a game or a board",
                 "Prove a deal solvable (printing a verified solution) or unsolvable.")  # fmt: skip
    _position_args(p)
    _add_budget(p, "node budget (default: the solver's, a few seconds at most)")
    p.add_argument("--max-depth", type=_positive, metavar="D", help="longest search path "
                   "(default 50000; long budgets may need 100000)")  # fmt: skip
    p.add_argument("--table-mib", type=_positive, metavar="M",
                   help="memory of a run's table of positions seen, MiB (default 256; "
                   "long budgets want about K / 32768)")  # fmt: skip
    p.add_argument("--relax", type=_seconds, metavar="T",
                   help="when the search leaves the deal open, try to prove it lost by the "
                   "relaxation (CP-SAT's deterministic time T, about a second each; default 0: "
                   "not tried)")  # fmt: skip
    _add_json(p)

    p = _command(sub, "shortest", _cmd_shortest, "the fewest moves that win a game (par)",
                 "Find the fewest moves that win a game or a board, foundation moves included, "
                 "proven by A* search (or a winning line and a lower bound when the budget runs "
                 "out first).")  # fmt: skip
    _position_args(p)
    _add_budget(p, "positions the search may generate (default 10,000,000: under a minute, 1 GiB)")
    _add_json(p)

    p = _command(sub, "prove", _cmd_prove, "settle a game for good (every position searched)",
                 "Settle a game or a board for good: search every position reachable from it, "
                 "a group at a time, layer after layer, with the frontier on disk, until a win "
                 "is found (a line replayed by the rule engine) or none is left (proven "
                 "unsolvable). For the deals the solver leaves open; it may take hours and "
                 "gigabytes. Stopped by any means, the same command goes on from its last "
                 "finished step.")  # fmt: skip
    _position_args(p)
    p.add_argument("--workdir", metavar="DIR", help="folder for the frontier and the progress "
                   "(default: one for this game in your cache folder); every Dask worker must "
                   "see it")  # fmt: skip
    p.add_argument("--memory", metavar="SIZE", help="memory a worker's positions may take, "
                   "like 6G or 512M (default: a quarter of this computer's)")  # fmt: skip
    p.add_argument("--scheduler", metavar="ADDR", help="a running Dask scheduler, tcp://host:port "
                   "(default: a local cluster of --jobs workers)")  # fmt: skip
    p.add_argument("--jobs", type=_positive, default=1, metavar="K",
                   help="processes of a local Dask cluster (default 1: this one)")  # fmt: skip
    p.add_argument("--max-seconds", type=_seconds, metavar="T",
                   help="stop after T seconds (unresolved; the same command goes on)")  # fmt: skip
    _add_flag(p, "--no-probes", "the layered search alone, without the solver's tries for an "
              "early win (a win is then found only at its own layer)")  # fmt: skip
    _add_json(p)
    _add_flag(p, "--quiet", "no progress bar")

    p = _command(sub, "survey", _cmd_survey, "solve many deals into a Parquet table",
                 "Solve many numbered deals in parallel into a Parquet dataset; rerunning "
                 "resumes an interrupted survey.")  # fmt: skip
    p.add_argument("--deals", metavar="SPEC", help="game numbers, like 1-1000,5000-5999,417")
    p.add_argument("--sample", type=_positive, metavar="K", help="K game numbers drawn "
                   "uniformly from PySolFC's whole numbering")  # fmt: skip
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="seed of --sample (default 0)")  # fmt: skip
    _add_variant(p)
    p.add_argument("--players", default="solver", metavar="P,...", help="players (default solver)")
    p.add_argument("--jobs", type=_jobs, default=-1, metavar="N",
                   help="parallel workers (default -1: every core)")  # fmt: skip
    p.add_argument("--backend", choices=("loky", "dask"), default="loky")
    p.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address, tcp://host:port")
    p.add_argument("--chunk-size", type=_positive, default=100, metavar="K",
                   help="deals per chunk file (default 100)")  # fmt: skip
    _add_budget(p, "solver node budget per deal")
    p.add_argument("--out", required=True, metavar="PATH",
                   help="output directory (Parquet dataset)")  # fmt: skip
    _add_flag(p, "--quiet", "no progress bar")

    p = _command(sub, "report", _cmd_report,
                 "win rates, comparisons, loss models and charts of a survey",
                 "Report a survey: win-rate table, paired comparisons, loss models; with "
                 "--html, one self-contained page with charts.")  # fmt: skip
    p.add_argument("path", metavar="PATH", help="a survey directory (what survey --out made)")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML report to OUT")

    p = _command(sub, "claims", _cmd_claims, "the rule texts' claims against the shipped surveys",
                 "Test each claim of the rule texts against the surveys in DIR (default: "
                 "$BAKERS_LAB_DATA, the repository's data/ or the table that comes with the "
                 "package).")  # fmt: skip
    _add_data(p)
    _add_flag(p, "--markdown", "print a Markdown table")

    p = _command(sub, "app", _cmd_app, "the web app: look a game up, replay it, play it",
                 "Serve the web app on this computer (Voilà, on 127.0.0.1): type a PySolFC game "
                 "number, learn whether it can be won, step through the winning line or a "
                 "player's game, and play it yourself. Needs the notebooks extra.")  # fmt: skip
    p.add_argument("--port", type=_port, default=8866, metavar="P", help="port (default 8866)")
    _add_flag(p, "--no-browser", "do not open a browser; only print the address")
    p.add_argument("--max-pages", type=_positive, default=MAX_PAGES, metavar="N",
                   help=f"pages open at once, each with a Python process of its own (default "
                   f"{MAX_PAGES})")  # fmt: skip
    p.add_argument("--idle-minutes", type=_minutes, default=IDLE_MINUTES, metavar="M",
                   help="a page's process ends this long after the page was closed or last "
                   f"heard from (default {IDLE_MINUTES:g})")  # fmt: skip

    p = _command(sub, "difficulty", _cmd_difficulty,
                 "how hard is game N: very easy ... very hard, or unwinnable",
                 "Rate PySolFC game N: which of the players greedy, careful and lookahead-2 win "
                 "it, and the solver's verdict and effort.")  # fmt: skip
    _add_number(p)
    _add_variant(p)

    p = _command(sub, "play", _cmd_play, "play a game as a human-like player",
                 "Play PySolFC's game N as a human-like player (random, greedy, careful, "
                 "lookahead-K, search-N: N positions thought over before each move, undo-N: N "
                 "moves taken back a game) and print how it ended and its moves, replayed by "
                 "the rules.")  # fmt: skip
    _add_number(p)
    p.add_argument("--player", default="careful", metavar="P", help="the player (default careful)")
    _add_variant(p)
    _add_json(p)

    p = _command(sub, "pick", _cmd_pick,
                 "game numbers of a difficulty, for PySolFC's select-game dialog",
                 "Print PySolFC game numbers of the given difficulty (very-easy, easy, medium, "
                 "hard, very-hard, unwinnable, not-settled), from the shipped "
                 "ratings.")  # fmt: skip
    p.add_argument("--difficulty", metavar="D", help="very-easy ... very-hard (default: any)")
    _add_variant(p)
    p.add_argument("--count", type=_positive, default=10, metavar="K", help="how many (10)")
    _add_flag(p, "--winnable", "only deals the solver won")
    p.add_argument("--seed", type=_seed, metavar="S", help="repeatable draw (default: random)")
    p.add_argument("--deals", metavar="SPEC",
                   help="choose among these numbers (rated on the spot if new)")  # fmt: skip

    p = _command(sub, "explain", _cmd_explain, "which move lost a game",
                 "Find the first move after which game N could no longer be won: the position "
                 "before it is solved, the one after it proven unsolvable.")  # fmt: skip
    _game_moves_args(p, "the moves played", "solver budget per position")
    _add_json(p)

    p = _command(sub, "hint", _cmd_hint, "the next move of a winning line",
                 "The next move of a winning line of game N after the moves in FILE.")  # fmt: skip
    _game_moves_args(p, "the moves played so far", "solver budget")

    p = _command(sub, "ratings", _cmd_ratings, "build the difficulty ratings from surveys",
                 "Rate every deal of the surveys in DIR that have the solver, greedy, careful "
                 "and lookahead-2, into one Parquet file (what pick reads).")  # fmt: skip
    _add_data(p)
    p.add_argument("--out", required=True, metavar="FILE", help="the Parquet file to write")

    p = _command(sub, "notebooks", _cmd_notebooks, "copy the notebooks into a directory",
                 "Copy the notebooks that come with bakers_lab into DIR, to open with "
                 "JupyterLab; they read the surveys as the library does.")  # fmt: skip
    p.add_argument("dir", metavar="DIR", help="where to copy them (made if missing)")
    _add_flag(p, "--force", "overwrite notebooks already in DIR")

    p = _command(sub, "pysolfc", _cmd_pysolfc, "start PySolFC with bakers-lab behind its Solver",
                 "Start your installed PySolFC with bakers-lab fc-solve first on its PATH as "
                 "fc-solve: its Solver menu appears and answers Baker's Dozen, Good Measure, "
                 "Portuguese Solitaire and Spanish Patience II (other games go to a real "
                 "fc-solve, if installed). The solver stays loaded while PySolFC runs: a "
                 "question takes about 0.4 s instead of 2 s on a slow computer. Arguments "
                 "after -- go to PySolFC.")  # fmt: skip
    p.add_argument("pysol_args", nargs=argparse.REMAINDER, metavar="PYSOL ARGS",
                   help="PySolFC's own arguments")  # fmt: skip
    _command(sub, "fc-solve", lambda a: 0, "Freecell Solver's command line, for PySolFC",
             "Answer PySolFC's Solver as fc-solve does, for Baker's Dozen, Good Measure, "
             "Portuguese Solitaire and Spanish Patience II (every other game goes to the real "
             "fc-solve): bakers-lab fc-solve --help lists its options.")  # fmt: skip

    p = _command(sub, "exercises", _cmd_exercises,
                 "write the search exercises notebook for a class",
                 "Write the exercises notebook (breadth-first search, A*, a heuristic, burial)\n"
                 "into DIR: the student's copy, or with --solutions the teacher's.")  # fmt: skip
    p.formatter_class = argparse.RawDescriptionHelpFormatter  # the steps, as written
    p.epilog = FOR_TEACHERS
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write it into")
    _add_flag(p, "--solutions", "the teacher's copy, with solutions")
    _add_flag(p, "--force", "overwrite the notebook if it exists")

    p = _command(sub, "strength", _cmd_strength,
                 "how good am I: your games beside the bots' on the same deals",
                 "Your win rate beside the bots' on the same deals, where you sit on the search "
                 "and undo dials, and the lost games that could have been won.")  # fmt: skip
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--games", metavar="FILE", help="a CSV with columns deal,variant,won "
                     "(won: true/false or won/lost; a moves column optional)")  # fmt: skip
    src.add_argument(
        "--pysol-stats",
        metavar="FILE",
        help="a PySolFC statistics file (~/.PySolFC/statistics.dat)",
    )
    p.add_argument("--player", metavar="NAME", help="whose games (with --pysol-stats)")
    _add_flag(p, "--quiet", "no progress bar")
    return parser


def _cmd_pysolfc(args: argparse.Namespace) -> int:
    from bakers_lab.bridge.pysolfc import main

    rest = list(args.pysol_args)
    return main(rest[1:] if rest[:1] == ["--"] else rest)


def _cmd_exercises(args: argparse.Namespace) -> int:
    from bakers_lab.teach.exercises import write_exercises

    target = write_exercises(args.out, solutions=args.solutions, force=args.force)
    which = "the teacher's copy (with solutions)" if args.solutions else "the student's copy"
    print(f"{which} written to {target}")
    return 0


def _quiet_on_closed_pipe(
    run: Callable[[argparse.Namespace], int], args: argparse.Namespace
) -> int:
    """``run(args)``; when the reader of the output went away (``bakers-lab solve 5 |
    head -1``), stop quietly, as other command-line tools do, with exit code 1."""
    try:
        code = run(args)
        sys.stdout.flush()  # here, not at exit, where a closed pipe would print a traceback
        return code
    except BrokenPipeError:
        # the rest of the output goes nowhere, and Python's exit flush finds no pipe
        # (when stdout is not a file, nothing is flushed at exit either)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _searches(players: str) -> list[str]:
    """The compiled searches a comma-separated list of players (a survey's) runs: the
    solver only when it is one of them (a survey of players alone never runs it, and a
    notice that it compiles would come before every such survey until it did).

    >>> _searches("careful, undo-3")
    ['board players', 'undo players']
    >>> _searches("solver,shortest,search-10")
    ['solver', 'shortest', 'search players']
    """
    from bakers_lab.solve.compiled import player_search

    names = [p.strip() for p in players.split(",") if p.strip()]
    out = [s for s in ("solver", "shortest") if s in names]
    return out + [player_search(p) for p in names if p not in ("solver", "shortest")]


#: The compiled searches each sub-command runs (for the first-compile notice), from its
#: arguments; a sub-command not named here compiles nothing.
_COMPILES: dict[str, Callable[[argparse.Namespace], Sequence[str]]] = {
    "solve": lambda a: ["solver"],
    "shortest": lambda a: ["shortest"],
    "prove": lambda a: ["solver", "layered"],
    "explain": lambda a: ["solver", "shortest"],  # its answer names par
    "hint": lambda a: ["solver"],
    "play": lambda a: _searches(str(a.player))[-1:],
    "survey": lambda a: _searches(str(a.players)),
    "difficulty": lambda a: [] if _rated([a.number], a.variant) else ["solver", "board players"],
    "pick": lambda a: (
        [] if a.deals is None or _rated(a.deals, a.variant) else ["solver", "board players"]
    ),
    # its warm solver loads the solver and A* while PySolFC starts (bridge/serve.py)
    "pysolfc": lambda a: ["solver", "shortest"],
}


def _rated(deals: str | Sequence[int], variant: str) -> bool:
    """True when every deal (a list of numbers, or a --deals SPEC) has a shipped rating."""
    from bakers_lab.study.rating import rated
    from bakers_lab.study.survey import parse_deals

    numbers = parse_deals(deals) if isinstance(deals, str) else deals
    return all(rated(n, variant) is not None for n in numbers)


#: Seconds a command runs before the first-compile notice is printed: the command's
#: own checks of its input come first (well under a second), so a refused command
#: prints its one error line and no notice; a compile takes a minute.
NOTICE_AFTER = 2.0


@contextlib.contextmanager
def _compile_notice(args: argparse.Namespace) -> Iterator[None]:
    """Before a first compile (minutes of silence otherwise), say so on standard
    error: :data:`NOTICE_AFTER` seconds into the command, unless it has ended (or
    been refused) by then."""
    searches = _COMPILES.get(str(getattr(args, "command", "")))
    said = ""
    if searches is not None:
        from bakers_lab.solve.compiled import compile_notice

        with contextlib.suppress(ValueError, TypeError, AttributeError):  # the command says
            wanted = searches(args)
            said = compile_notice(*wanted) if wanted else ""
    if not said:
        yield
        return
    timer = threading.Timer(
        NOTICE_AFTER, lambda: print(f"bakers-lab: {said}", file=sys.stderr, flush=True)
    )
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit code.  Called by the name ``fc-solve`` (a link
    or launcher of that name), or as ``bakers-lab fc-solve``, it is Freecell Solver's
    command line as PySolFC speaks it (:mod:`bakers_lab.bridge.fcsolve`)."""
    given = list(sys.argv[1:] if argv is None else argv)
    called = os.path.basename(sys.argv[0]).lower().removesuffix(".exe") if argv is None else ""
    if called == "fc-solve":
        return _fc_solve(given)
    if given[:1] == ["fc-solve"]:
        return _fc_solve(given[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        with _compile_notice(args):
            return _quiet_on_closed_pipe(run, args)
    except (ValueError, TypeError, OSError, MemoryError) as exc:  # one line, never a traceback
        text = " ".join(str(exc).split()) or (
            "out of memory" if isinstance(exc, MemoryError) else type(exc).__name__
        )
        print(f"bakers-lab: error: {shown(text, 2000)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if exc.name != "numba":  # (a missing module of the package's own: a bug, in full)
            raise
        print(f"bakers-lab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bakers-lab: interrupted", file=sys.stderr)
        return 130


def _fc_solve(argv: list[str]) -> int:
    """``bakers-lab fc-solve ARGS``: fc-solve's answer, its errors in one line on
    standard error with fc-solve's exit status (255), never a traceback."""
    from bakers_lab.bridge.fcsolve import BAD, failed, main
    from bakers_lab.bridge.serve import answer_here_or_there

    try:
        return main(argv, ask=answer_here_or_there)
    except KeyboardInterrupt:
        print("fc-solve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # PySolFC went away before reading the answer
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BAD
    except Exception as exc:  # PySolFC reads standard output only: one line, never a traceback
        said = failed(exc)
        sys.stderr.buffer.write(said.err)
        return said.code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
