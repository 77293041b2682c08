# mypy: ignore-errors
# ruff: noqa: E501, RUF028
"""Hostile-input audit of bakers_lab (issue 25): hundreds of cases a hostile user would
try, against the public functions and every ``bakers-lab`` subcommand, judged one by one.

Not collected by pytest (no ``test_`` prefix).  Run from the repository root::

    python tests/hostile_audit.py            # the counts per class
    python tests/hostile_audit.py -v         # and every failure
    python tests/hostile_audit.py --json out.json

Every case runs in a worker process with a time limit and a memory limit (a hang or
a runaway read is killed and counted as a failure).  A case is *clean* when

- it was meant to be refused and raised a ``ValueError``/``TypeError``/``OSError``
  (the project's errors are such) whose message is one non-empty line of at most 400
  characters, in the project's words (no Python-internal phrasing such as "object has
  no attribute" or "Exceeds the limit"), holding the words the case asks for; for a
  subcommand: exit code 2 and exactly that one line, ``bakers-lab: error: ...``, on
  stderr;
- or it was meant to work and returned what the case checks (exit code 0).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from procs import alive, descendants

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CLASSES = {
    0: "baseline (must keep working)",
    1: "two writers, one survey",
    2: "chunks taken on trust",
    3: "names that lie",
    4: "huge values",
    5: "Player records",
    6: "statistics input",
    7: "input files",
    8: "digits",
    9: "wrong types deep inside",
    10: "reports",
    11: "one vocabulary",
    12: "smaller",
    13: "this turn's new entry points",
    14: "tables",
    15: "special files",
    16: "PySolFC files: budgets",
    17: "exercise checks that cannot be fooled",
    18: "a journal that knows its damage",
    19: "words from a file, terminal-safe",
    20: "strength: cache and wheel",
}
#: Words that mean a message came from deep inside Python or a library, not from us.
INTERNAL = (
    "object has no attribute",
    "is not iterable",
    "not subscriptable",
    "unsupported operand",
    "Exceeds the limit",
    "embedded null byte",
    "invalid literal",
    "'NoneType'",
    "argument of type",
    "truth value of an array",
    "cannot be interpreted",
    "int too large",
    "unhashable",
    "positional argument",
    "codec can't",
    "Is a directory: '.'",
    "object is not callable",
    "JSONDecodeError",
    "Expecting value",
)
TIMEOUT = 25.0


@dataclass
class Cli:
    code: int
    out: str
    err: str


@dataclass
class Case:
    cls: int
    label: str
    run: Callable[[], object]
    expect: str  # "err", "ok" or "either" (a clean refusal or a result that passes want)
    want: Any = None  # err: words the message must hold; ok: a predicate of the result
    timeout: float = TIMEOUT


CASES: list[Case] = []


def err(cls: int, label: str, run: Callable[[], object], want: str | None = None,
        timeout: float = TIMEOUT) -> None:  # fmt: skip
    CASES.append(Case(cls, label, run, "err", want, timeout))


def ok(cls: int, label: str, run: Callable[[], object],
       check: Callable[[Any], bool] | None = None, timeout: float = TIMEOUT) -> None:  # fmt: skip
    CASES.append(Case(cls, label, run, "ok", check, timeout))


def either(cls: int, label: str, run: Callable[[], object],
           check: Callable[[Any], bool] | None = None, timeout: float = TIMEOUT) -> None:  # fmt: skip
    CASES.append(Case(cls, label, run, "either", check, timeout))


# -- helpers the cases use (in the worker) ---------------------------------------------------

_TMP = Path(os.environ.get("HOSTILE_AUDIT_TMP") or tempfile.mkdtemp(prefix="hostile_audit_"))
os.environ["HOSTILE_AUDIT_TMP"] = str(_TMP)  # the worker shares the driver's folder
_FIXTURES: dict[str, Path] = {}


def module(name: str) -> Any:
    """``bakers_lab.<name>`` (``bl.survey`` is the function, not the module)."""
    import importlib

    for package in ("", "model.", "solve.", "study.", "files.", "display.", "teach.", "utils."):
        try:
            return importlib.import_module(f"bakers_lab.{package}{name}")
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(f"no module bakers_lab.*.{name}")


def tmpdir(name: str) -> Path:
    path = _TMP / f"{name}-{time.monotonic_ns()}"
    path.mkdir(parents=True)
    return path


def cli(*argv: str, stdin: str | bytes = "") -> Cli:
    """Run ``bakers-lab argv`` in this process; its exit code, stdout and stderr."""
    from bakers_lab.cli import main

    out, errs = io.StringIO(), io.StringIO()
    data = stdin.encode() if isinstance(stdin, str) else stdin
    fake_in = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    old_in = sys.stdin
    sys.stdin = fake_in
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(errs):
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = old_in
    return Cli(code, out.getvalue(), errs.getvalue())


def run_cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``bakers-lab argv`` in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bakers_lab.cli", *argv],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env,
    )  # fmt: skip


def small_survey() -> Path:
    """A finished survey of deals 1-20 (solver and careful, chunks of 5), made once."""
    if "small" not in _FIXTURES:
        import bakers_lab as bl

        path = _TMP / "fixture-small"
        bl.survey("1-20", players=("solver", "careful"), chunk_size=5, max_nodes=2000,
                  out=path, progress=False)  # fmt: skip
        _FIXTURES["small"] = path
    target = tmpdir("survey")
    shutil.copytree(_FIXTURES["small"], target, dirs_exist_ok=True)
    return target


def survey_again(path: Path) -> object:
    import bakers_lab as bl

    return bl.survey("1-20", players=("solver", "careful"), chunk_size=5, max_nodes=2000,
                     out=path, progress=False)  # fmt: skip


def table() -> Any:
    import bakers_lab as bl

    if "table" not in _FIXTURES:
        _FIXTURES["table"] = small_survey()
    return bl.read_survey(_FIXTURES["table"])


def write_file(data: bytes | str, name: str = "f.txt") -> str:
    path = tmpdir("file") / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def rewrite_chunk(path: Path, index: int, change: Callable[[Any], Any]) -> Path:
    """Chunk ``index`` rewritten by ``change``, its checksum in the manifest rewritten
    too: the checks behind the checksum are what the case tests (a chunk changed
    behind the checksum's back is a case of its own)."""
    import pandas as pd

    from bakers_lab.files.table import MANIFEST, file_digest, record_digest

    file = path / f"chunk-{index:06d}.parquet"
    t = change(pd.read_parquet(file))
    t.to_parquet(file, index=False)
    record_digest(path / MANIFEST, index, file_digest(file))
    return path


def lying_rules() -> Any:
    import bakers_lab as bl

    return bl.Rules(name="good_measure")  # the 13×4 Baker's Dozen record under another name


# -- the cases -----------------------------------------------------------------------------


def build_cases() -> None:
    import numpy as np

    import bakers_lab as bl

    game_words = "a game number is a whole number from 1 to"

    # 0. Baseline: what must keep working ------------------------------------------------
    ok(0, "deal(5)", lambda: bl.deal(5), lambda d: d.number == 5)
    ok(0, "solve(5)", lambda: bl.solve(5), lambda r: r.outcome == "solved")
    ok(0, "solve(deal(5))", lambda: bl.solve(bl.deal(5)), lambda r: r.deal == 5)
    ok(0, "play(5)", lambda: bl.play(5), lambda g: g.verified)
    ok(0, "play(deal(5), Player)", lambda: bl.play(bl.deal(5), bl.Player("careful")))
    ok(0, "explain(64 careful)", lambda: bl.explain(bl.play(64, "careful")))
    ok(0, "hint(1)", lambda: bl.hint(1), lambda h: h.status == "move")
    ok(0, "difficulty(64)", lambda: bl.difficulty(64), lambda d: d.tag == "unwinnable")
    ok(0, "pick easy", lambda: bl.pick("easy", count=3, seed=1), lambda p: len(p) == 3)
    ok(0, "parse_moves", lambda: bl.parse_moves("AD>F 5S>6D"), lambda m: len(m) == 2)
    ok(0, "parse_deals", lambda: module("study.survey").parse_deals("3-5,1"),
       lambda n: n == [3, 4, 5, 1])  # fmt: skip
    ok(0, "parse_deals range", lambda: module("study.survey").parse_deals(
        range(1, 4)), lambda n: n == [1, 2, 3])  # fmt: skip
    ok(0, "wilson(5,10)", lambda: bl.wilson_interval(5, 10), lambda t: 0 < t[0] < 0.5 < t[1])
    ok(0, "wilson numpy", lambda: bl.wilson_interval(np.int64(3), np.int64(9)))
    ok(0, "wilson(0,0)", lambda: bl.wilson_interval(0, 0), lambda t: t == (0.0, 1.0))
    ok(0, "win_rates(table)", lambda: bl.win_rates(table()), lambda t: len(t) == 2)
    ok(0, "read_survey", lambda: bl.read_survey(small_survey()), lambda t: len(t) == 40)
    ok(0, "survey resumes", lambda: survey_again(small_survey()), lambda t: len(t) == 40)
    ok(0, "deal_features", lambda: bl.deal_features([bl.deal(1), bl.deal(2)]),
       lambda t: len(t) == 2)  # fmt: skip
    ok(0, "Player(search, dial=300)", lambda: bl.Player("search", dial=300),
       lambda p: p.name == "search-300")  # fmt: skip
    ok(0, "Player.parse lookahead-3", lambda: bl.Player.parse("lookahead-3-no_traps"))
    ok(0, "Player numpy depth", lambda: bl.Player("careful", np.int64(2)),
       lambda p: p.name == "lookahead-2")  # fmt: skip
    ok(0, "Rules replace", lambda: bl.rules("bakers_dozen").replace(empty_column="any"))
    ok(0, "GameState.play_all", lambda: bl.GameState.from_deal(bl.deal(1)).play_all("AD>F"))
    ok(0, "Move.parse", lambda: bl.Move.parse("2♥>FS"), lambda m: str(m) == "2H>FS")
    ok(0, "Move(card,F,Suit)", lambda: str(bl.Move(bl.Card(2, 2), bl.Dest.FOUNDATION,
                                                   bl.Suit(1))) == "2H>FS")  # fmt: skip
    ok(0, "Deal number kept", lambda: bl.Deal(bl.deal(5).rules, bl.deal(5).columns, number=5))
    ok(0, "read_game_number app box", lambda: module("model.deals")
       .read_game_number(" #1,000 "), lambda n: n == 1000)  # fmt: skip
    ok(0, "cli deal 5", lambda: cli("deal", "5"), lambda r: r.code == 0 and "TS" in r.out)
    ok(0, "cli solve 5", lambda: cli("solve", "5"), lambda r: r.code == 0)
    ok(0, "cli solve --board -", lambda: cli("solve", "--board", "-", stdin=bl.deal(5).to_text()),
       lambda r: r.code == 0)  # fmt: skip
    ok(0, "cli play 5", lambda: cli("play", "5"), lambda r: r.code == 0)
    ok(0, "cli difficulty 64", lambda: cli("difficulty", "64"), lambda r: r.code == 0)
    ok(0, "cli pick", lambda: cli("pick", "--count", "3", "--seed", "2"), lambda r: r.code == 0)
    ok(0, "cli pick --deals", lambda: cli("pick", "--deals", "1-50", "--count", "2", "--seed", "1"),
       lambda r: r.code == 0)  # fmt: skip
    ok(0, "cli hint 1", lambda: cli("hint", "1"), lambda r: r.code == 0)
    ok(0, "cli explain", lambda: cli("explain", "64", "--moves", "-", stdin=" ".join(
        str(m) for m in bl.play(64, "careful").moves)), lambda r: r.code == 0)  # fmt: skip
    ok(0, "cli survey --jobs -1", lambda: cli("survey", "--deals", "1-3", "--jobs", "-1",
       "--quiet", "--out", str(tmpdir("s") / "o")), lambda r: r.code == 0)  # fmt: skip
    ok(0, "cli report", lambda: cli("report", str(small_survey())), lambda r: r.code == 0)
    ok(0, "cli claims", lambda: cli("claims"), lambda r: r.code == 0, timeout=120)

    # 1. Two writers, one survey ---------------------------------------------------------
    for rep in range(4):
        ok(1, f"two CLI surveys at once #{rep + 1}", lambda k=rep: two_writers(k),
           lambda r: r is True, timeout=120)  # fmt: skip
    ok(1, "survey while another holds the folder", locked_folder, lambda r: r is True,
       timeout=60)  # fmt: skip
    ok(1, "manifest temp name is the process's own", temp_names, lambda r: r is True)

    # 2. Chunks taken on trust -------------------------------------------------------------
    def stray(p: Path) -> Path:
        shutil.copy(p / "chunk-000000.parquet", p / "chunk-000007.parquet")
        return p

    def empty_dir(p: Path) -> Path:
        (p / "chunk-000001.parquet").unlink()
        (p / "chunk-000001.parquet").mkdir()
        return p

    def other_schema(p: Path) -> Path:
        import pandas as pd

        pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}).to_parquet(p / "chunk-000002.parquet")
        return p

    def other_variant(p: Path) -> Path:
        import pandas as pd

        return rewrite_chunk(p, 1, lambda t: t.assign(
            variant=pd.Categorical(["good_measure"] * len(t))))  # fmt: skip

    def unknown_outcome(p: Path) -> Path:
        import pandas as pd

        return rewrite_chunk(p, 3, lambda t: t.assign(outcome=pd.Categorical(
            ["maybe"] * len(t), categories=["won", "lost", "unresolved", "maybe"])))  # fmt: skip

    def nan_outcome(p: Path) -> Path:
        return rewrite_chunk(p, 3, lambda t: t.assign(outcome=[None] * len(t)))

    def other_deals(p: Path) -> Path:
        from bakers_lab.files.table import for_disk, upgrade

        return rewrite_chunk(p, 0, lambda t: for_disk(upgrade(t).assign(
            deal=[int(n) + 100 for n in upgrade(t)["deal"]])))  # fmt: skip

    def other_player(p: Path) -> Path:
        import pandas as pd

        return rewrite_chunk(p, 2, lambda t: t.assign(player=pd.Categorical(
            ["greedy" if x == "careful" else x for x in t["player"].astype(str)])))  # fmt: skip

    def changed_bytes(p: Path) -> Path:
        file = p / "chunk-000001.parquet"
        data = bytearray(file.read_bytes())
        data[len(data) // 2] ^= 0xFF
        file.write_bytes(bytes(data))
        return p

    def missing_chunk(p: Path) -> Path:
        (p / "chunk-000003.parquet").unlink()
        return p

    def wrong_name(p: Path) -> Path:
        shutil.copy(p / "chunk-000000.parquet", p / "chunk-0.parquet")
        return p

    def dropped_column(p: Path) -> Path:
        return rewrite_chunk(p, 1, lambda t: t.drop(columns=["nodes"]))

    def no_manifest(p: Path) -> Path:
        (p / "_survey.json").unlink()
        return p

    mutations = {
        "stray extra chunk": (stray, "chunk-000007.parquet"),
        "empty directory named like a chunk": (empty_dir, "chunk-000001.parquet"),
        "chunk of another schema": (other_schema, "chunk-000002.parquet"),
        "chunk of another variant": (other_variant, "chunk-000001.parquet"),
        "chunk with an unknown outcome": (unknown_outcome, "chunk-000003.parquet"),
        "chunk with missing outcomes": (nan_outcome, "chunk-000003.parquet"),
        "chunk of other deals": (other_deals, "other deals"),
        "chunk of another player": (other_player, "chunk-000002.parquet"),
        "chunk misnamed": (wrong_name, "chunk-0.parquet"),
        "chunk lacking a column": (dropped_column, "chunk-000001.parquet"),
        "chunk whose bytes changed": (changed_bytes, "changed after it was written"),
    }
    for label, (mutate, named) in mutations.items():
        err(2, f"read_survey: {label}",
            lambda m=mutate: bl.read_survey(m(small_survey())), named)  # fmt: skip
        err(2, f"resume: {label}", lambda m=mutate: survey_again(m(small_survey())), named)
        err(2, f"cli report: {label}", lambda m=mutate: cli("report", str(m(small_survey()))),
            named)  # fmt: skip
    err(2, "read_survey: a chunk missing", lambda: bl.read_survey(missing_chunk(small_survey())),
        "chunk-000003.parquet")  # fmt: skip
    ok(2, "resume: a chunk missing is recomputed",
       lambda: survey_again(missing_chunk(small_survey())), lambda t: len(t) == 40)  # fmt: skip
    err(2, "read_survey: chunks without a manifest",
        lambda: bl.read_survey(no_manifest(small_survey())), "_survey.json")  # fmt: skip

    # 3. Names that lie ------------------------------------------------------------------
    err(3, "difficulty of a lying Rules", lambda: bl.difficulty(5, variant=lying_rules()),
        "good_measure")  # fmt: skip
    err(3, "pick of a lying Rules", lambda: bl.pick(variant=lying_rules(), count=2, seed=0),
        "good_measure")  # fmt: skip
    err(3, "survey of a lying Rules", lambda: bl.survey("1-2", variant=lying_rules(),
        out=tmpdir("s") / "o", progress=False), "good_measure")  # fmt: skip
    err(3, "survey of bakers_dozen with returns", lambda: bl.survey("1-2", variant=bl.Rules(
        name="bakers_dozen", foundation_return=True), out=tmpdir("s") / "o", progress=False),
        "foundation_return")  # fmt: skip
    err(3, "difficulty of bakers_dozen renamed fields", lambda: bl.difficulty(
        5, variant=bl.Rules(name="bakers_dozen", pysolfc_id=None)), "bakers_dozen")  # fmt: skip
    err(3, "ratings of a lying Rules", lambda: module("study.rating").ratings(
        lying_rules()), "good_measure")  # fmt: skip
    ok(3, "survey of a true preset record", lambda: bl.survey("1", variant=bl.rules(
        "good_measure"), out=tmpdir("s") / "o", progress=False))  # fmt: skip
    ok(3, "title of a lying Rules is not the preset's", lambda: module("model.rules").title(lying_rules()), lambda t: t != "Good Measure")  # fmt: skip

    # 4. Huge values ---------------------------------------------------------------------
    from bakers_lab.solve.players import Player as _P
    from bakers_lab.study.survey import parse_deals, sample_deals

    huge_values = {
        "Decimal 1E+10000000": Decimal("1E+10000000"),
        "10**5000": 10**5000,
        "-10**5000": -(10**5000),
        "Fraction 10**5000": Fraction(10**5000),
        "np.float64 1e300": np.float64(1e300),
    }
    huge_params: dict[str, Callable[[Any], object]] = {
        "deal(N)": lambda v: bl.deal(v),
        "solve(N)": lambda v: bl.solve(v),
        "solve max_nodes": lambda v: bl.solve(5, max_nodes=v),
        "solve max_depth": lambda v: bl.solve(5, max_depth=v),
        "solve table_mib": lambda v: bl.solve(5, table_mib=v),
        "play max_moves": lambda v: bl.play(5, max_moves=v),
        "play patience": lambda v: bl.play(5, patience=v),
        "Player dial": lambda v: _P("search", dial=v),
        "Player depth": lambda v: _P("careful", v),
        "survey chunk_size": lambda v: bl.survey(
            "1", chunk_size=v, out=tmpdir("s") / "o", progress=False
        ),
        "survey max_nodes": lambda v: bl.survey(
            "1", max_nodes=v, out=tmpdir("s") / "o", progress=False
        ),
        "survey n_jobs": lambda v: bl.survey("1", n_jobs=v, out=tmpdir("s") / "o", progress=False),
        "parse_deals([N])": lambda v: parse_deals([v]),
        "sample_deals k": lambda v: sample_deals(v),
        "seeded_deal seed": lambda v: bl.seeded_deal(v),
        "Card rank": lambda v: bl.Card(v, 0),
        "Rules columns": lambda v: bl.Rules(columns=v),
        "pick count": lambda v: bl.pick(count=v),
        "difficulty(N)": lambda v: bl.difficulty(v),
    }
    for vname, value in huge_values.items():
        for pname, call in huge_params.items():
            err(4, f"{pname} = {vname}", lambda c=call, v=value: c(v), timeout=15)
    big_text = "x" * 1_000_000
    err(4, "1 MB variant name", lambda: bl.rules(big_text), "unknown variant")
    err(4, "1 MB card text", lambda: bl.Card.parse(big_text), "not a card")
    err(4, "1 MB move text", lambda: bl.Move.parse(big_text), "not a move")
    err(4, "1 MB deal spec", lambda: parse_deals(big_text), "bad deal range")
    err(4, "1 MB player name", lambda: bl.play(5, big_text), "unknown player")
    err(4, "1 MB survey player", lambda: bl.survey("1", players=[big_text],
        out=tmpdir("s") / "o", progress=False), "unknown player")  # fmt: skip
    err(4, "1 MB difficulty tag", lambda: bl.pick(big_text), None)
    err(4, "1 MB out path", lambda: bl.survey("1", out=big_text, progress=False), None)
    err(4, "1 MB tableau_build", lambda: bl.Rules(tableau_build=big_text), "tableau_build")
    err(4, "cli 100 kB variant", lambda: cli("deal", "5", "--variant", "v" * 100_000),
        "unknown variant")  # fmt: skip
    err(4, "cli 100 kB game number", lambda: cli("deal", "9" * 100_000), game_words)
    err(4, "cli 5000-digit --max-nodes", lambda: cli("solve", "5", "--max-nodes", "9" * 5000),
        "--max-nodes")  # fmt: skip
    err(4, "cli 5000-digit --chunk-size", lambda: cli("survey", "--deals", "1", "--chunk-size",
        "9" * 5000, "--out", str(tmpdir("s") / "o")), "--chunk-size")  # fmt: skip
    err(4, "cli 5000-digit --seed", lambda: cli("pick", "--seed", "9" * 5000), "--seed")
    err(4, "cli 5000-digit --deals", lambda: cli("survey", "--deals", "9" * 5000, "--out",
        str(tmpdir("s") / "o")), game_words)  # fmt: skip

    # 5. Player records --------------------------------------------------------------------
    P = bl.Player
    for label, make, words in (
        ("Player(careful, 100)", lambda: P("careful", 100), "look-ahead depth"),
        ("Player(greedy, 3)", lambda: P("greedy", 3), "greedy has no look-ahead depth"),
        ("Player(random, 2)", lambda: P("random", 2), "random has no look-ahead depth"),
        ("off='traps'", lambda: P("careful", off="traps"), "off"),
        ("off=['traps']", lambda: P("careful", off=["traps"]), "off"),  # type: ignore[arg-type]
        ("Player(bogus)", lambda: P("bogus"), "policy"),  # type: ignore[arg-type]
        ("Player(None)", lambda: P(None), "policy"),  # type: ignore[arg-type]
        ("search dial 10**7", lambda: P("search", dial=10**7), "search-N"),
        ("search dial 0", lambda: P("search", dial=0), "search-N"),
        ("undo dial -1", lambda: P("undo", dial=-1), "undo-N"),
        ("careful dial 5", lambda: P("careful", dial=5), "no dial"),
        ("careful depth 2.0", lambda: P("careful", 2.0), "depth"),  # type: ignore[arg-type]
        ("careful depth True", lambda: P("careful", True), "depth"),
        ("tip twice", lambda: P("careful", 1, ("traps", "traps")), "twice"),
        ("unknown tip", lambda: P("careful", 1, ("luck",)), "unknown tip"),
        ("random with tips off", lambda: P("random", 1, ("traps",)), "heeds no tips"),
        ("parse Arabic-Indic digit", lambda: P.parse("lookahead-\u0663"), "unknown player"),
        ("parse superscript digit", lambda: P.parse("search-²"), "unknown player"),
        ("parse fullwidth digit", lambda: P.parse("undo-\uff13"), "unknown player"),
        ("parse trailing newline", lambda: P.parse("careful\n"), "unknown player"),
        ("parse leading space", lambda: P.parse(" careful"), "unknown player"),
        ("parse upper case", lambda: P.parse("CAREFUL"), "unknown player"),
        ("parse leading zeros", lambda: P.parse("search-0300"), "search-300"),
        ("parse bytes", lambda: P.parse(b"careful"), "str"),  # type: ignore[arg-type]
        ("parse 20-digit dial", lambda: P.parse("search-" + "9" * 20), "search-N"),
        ("play 'careful\\n'", lambda: bl.play(5, "careful\n"), "unknown player"),
        (
            "survey player 'lookahead-\u0662'",
            lambda: bl.survey(
                "1", players="lookahead-\u0662", out=tmpdir("s") / "o", progress=False
            ),
            "unknown player",
        ),  # fmt: skip
        (
            "cli play --player 'undo-\u0663'",
            lambda: cli("play", "5", "--player", "undo-\u0663"),
            "unknown player",
        ),  # fmt: skip
    ):
        err(5, label, make, words)

    # 6. Statistics input ----------------------------------------------------------------
    def doubled() -> Any:
        import pandas as pd

        return pd.concat([table(), table()], ignore_index=True)

    def with_outcome(value: object) -> Any:
        t = table().copy()
        t["outcome"] = t["outcome"].astype(object)
        t.loc[0, "outcome"] = value
        return t

    for label, make, words in (
        ("win_rates(None)", lambda: bl.win_rates(None), "table"),  # type: ignore[arg-type]
        ("win_rates(list)", lambda: bl.win_rates([1, 2]), "table"),  # type: ignore[arg-type]
        (
            "win_rates no outcome",
            lambda: bl.win_rates(table().drop(columns="outcome")),
            "outcome",
        ),  # fmt: skip
        ("win_rates NaN outcome", lambda: bl.win_rates(with_outcome(float("nan"))), "outcome"),
        ("win_rates None outcome", lambda: bl.win_rates(with_outcome(None)), "outcome"),
        ("win_rates unknown outcome", lambda: bl.win_rates(with_outcome("maybe")), "maybe"),
        ("win_rates doubled table", lambda: bl.win_rates(doubled()), "repeats"),
        ("ladder doubled table", lambda: bl.ladder(doubled(), ["careful", "solver"]), "repeats"),
        (
            "paired doubled",
            lambda: bl.paired_comparison(doubled(), "solver", "careful"),
            "repeats",
        ),  # fmt: skip
        ("hardest_deals(None)", lambda: bl.hardest_deals(None), "table"),  # type: ignore[arg-type]
        ("ladder(None)", lambda: bl.ladder(None, ["a", "b"]), "table"),  # type: ignore[arg-type]
        ("wilson 2.5 successes", lambda: bl.wilson_interval(2.5, 10), "successes"),  # type: ignore[arg-type]
        ("wilson 2.0 successes", lambda: bl.wilson_interval(2.0, 10), "successes"),  # type: ignore[arg-type]
        ("wilson '3' successes", lambda: bl.wilson_interval("3", 10), "successes"),  # type: ignore[arg-type]
        ("wilson True successes", lambda: bl.wilson_interval(True, 10), "successes"),
        ("wilson None", lambda: bl.wilson_interval(None, 10), "successes"),  # type: ignore[arg-type]
        ("wilson z=-1.96", lambda: bl.wilson_interval(5, 10, z=-1.96), "z must be"),
        ("wilson z=0", lambda: bl.wilson_interval(5, 10, z=0), "z must be"),
        ("wilson z=nan", lambda: bl.wilson_interval(5, 10, z=float("nan")), "z must be"),
        ("wilson z=inf", lambda: bl.wilson_interval(5, 10, z=float("inf")), "z must be"),
        ("wilson z='1.96'", lambda: bl.wilson_interval(5, 10, z="1.96"), "z must be"),  # type: ignore[arg-type]
        ("wilson trials nan", lambda: bl.wilson_interval(1, float("nan")), "trials"),  # type: ignore[arg-type]
        ("wilson trials inf", lambda: bl.wilson_interval(1, float("inf")), "trials"),  # type: ignore[arg-type]
        ("wilson 11 of 10", lambda: bl.wilson_interval(11, 10), "successes"),
        ("wilson -1 of 10", lambda: bl.wilson_interval(-1, 10), "successes"),
    ):
        err(6, label, make, words)
    ok(6, "wilson 10**400", lambda: bl.wilson_interval(10**400 // 2, 10**400),
       lambda t: t[0] <= 0.5 <= t[1])  # fmt: skip
    ok(6, "wilson 0 of 10**400", lambda: bl.wilson_interval(0, 10**400), lambda t: t[0] == 0)

    # 7. Input files -----------------------------------------------------------------------
    board = bl.deal(5).to_text()
    moves64 = " ".join(str(m) for m in bl.play(64, "careful").moves)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    for opt, cmd in (("--board", ("solve",)), ("--moves", ("explain", "64")),
                     ("--moves", ("hint", "5"))):  # fmt: skip
        name = " ".join(cmd)
        err(7, f"{name} {opt} /dev/zero", lambda c=cmd, o=opt: cli(*c, o, "/dev/zero"),
            "/dev/zero", timeout=30)  # fmt: skip
        err(7, f"{name} {opt} binary", lambda c=cmd, o=opt: cli(*c, o, write_file(png, "x.png")),
            "x.png")  # fmt: skip
        err(7, f"{name} {opt} NUL bytes", lambda c=cmd, o=opt: cli(*c, o, write_file(
            b"AD>F\x00\x00", "nul.txt")), "nul.txt")  # fmt: skip
        err(7, f"{name} {opt} ''", lambda c=cmd, o=opt: cli(*c, o, ""), opt)
        err(7, f"{name} {opt} 2 MB file", lambda c=cmd, o=opt: cli(*c, o, write_file(
            "# x\n" * 500_000, "big.txt")), "big.txt")  # fmt: skip
        err(7, f"{name} {opt} missing file", lambda c=cmd, o=opt: cli(*c, o, "/nonexistent/f"),
            "/nonexistent/f")  # fmt: skip
        err(7, f"{name} {opt} a directory", lambda c=cmd, o=opt: cli(*c, o, "/tmp"), "/tmp")
        err(7, f"{name} {opt} latin-1 file", lambda c=cmd, o=opt: cli(*c, o, write_file(
            "AD>F # caf\xe9".encode("latin-1"), "latin.txt")), "latin.txt")  # fmt: skip
    ok(7, "solve --board with a BOM", lambda: cli("solve", "--board", write_file(
        "\ufeff" + board, "bom.txt")), lambda r: r.code == 0)  # fmt: skip
    ok(7, "solve --board - with a BOM", lambda: cli("solve", "--board", "-", stdin="\ufeff" + board),
       lambda r: r.code == 0)  # fmt: skip
    ok(7, "solve --board CRLF", lambda: cli("solve", "--board", write_file(
        board.replace("\n", "\r\n"))), lambda r: r.code == 0)  # fmt: skip
    ok(7, "explain --moves with a BOM", lambda: cli("explain", "64", "--moves", write_file(
        "\ufeff" + moves64, "bom.txt")), lambda r: r.code == 0)  # fmt: skip
    ok(7, "hint --moves with a BOM", lambda: cli("hint", "1", "--moves", write_file(
        "\ufeffAD>F", "bom.txt")), lambda r: r.code == 0)  # fmt: skip
    ok(7, "Deal.from_text with a BOM", lambda: bl.Deal.from_text("\ufeff" + board),
       lambda d: d == bl.deal(5))  # fmt: skip
    ok(7, "GameState.from_text with a BOM", lambda: bl.GameState.from_text("\ufeff" + board))
    ok(7, "explain moves text with a BOM", lambda: bl.explain(64, "\ufeff" + moves64))

    # 8. Digits ---------------------------------------------------------------------------
    for spec in (
        "²",
        "\u0661\u0662\u0663",
        "1-²",
        "\uff13",
        "1-\u0663",
        "+5",
        "1_000",
        "0x10",
        "1e3",
        "½",
    ):
        err(8, f"parse_deals({spec!r})", lambda s=spec: parse_deals(s), "bad deal range")
    err(8, "parse_deals(range(1, 10**20))", lambda: parse_deals(range(1, 10**20)),
        "more than one survey takes")  # fmt: skip
    err(8, "parse_deals(range(0, 10**30, 7))", lambda: parse_deals(range(0, 10**30, 7)),
        "more than one survey takes")  # fmt: skip
    err(8, "cli survey --deals ²", lambda: cli("survey", "--deals", "²", "--out",
        str(tmpdir("s") / "o")), "bad deal range")  # fmt: skip
    err(8, "cli pick --deals \u0663", lambda: cli("pick", "--deals", "\u0663"), "bad deal range")
    for text in (
        "²",
        "\u0661\u0662",
        "+5",
        "1_000",
        " 7",
        "7 ",
        "\u0663",
        "0x5",
        "1e3",
        "5\n",
        "\uff15",
    ):
        shown = repr(text)
        err(8, f"cli deal {shown}", lambda t=text: cli("deal", t), game_words)
        err(8, f"cli play {shown}", lambda t=text: cli("play", t), game_words)
        err(8, f"cli difficulty {shown}", lambda t=text: cli("difficulty", t), game_words)
        err(8, f"cli solve --max-nodes {shown}", lambda t=text: cli("solve", "5", "--max-nodes",
            t), "--max-nodes")  # fmt: skip
        err(8, f"cli pick --count {shown}", lambda t=text: cli("pick", "--count", t), "--count")
        err(8, f"cli pick --seed {shown}", lambda t=text: cli("pick", "--seed", t), "--seed")
        err(8, f"cli survey --sample {shown}", lambda t=text: cli("survey", "--sample", t,
            "--quiet", "--jobs", "1", "--out", str(tmpdir("s") / "o")), "--sample")  # fmt: skip
        err(8, f"cli survey --jobs {shown}", lambda t=text: cli("survey", "--deals", "1",
            "--quiet", "--jobs", t, "--out", str(tmpdir("s") / "o")), "jobs")  # fmt: skip
    for cmd in ("deal", "play", "difficulty", "hint"):
        err(8, f"cli {cmd} '-0'", lambda c=cmd: cli(c, "--", "-0"), game_words)
        err(8, f"cli {cmd} '0'", lambda c=cmd: cli(c, "0"), game_words)
    for text in ("\u0661", "1_0", "+2", " 3"):
        err(8, f"cli app --idle-minutes {text!r}", lambda t=text: cli(
            "app", "--no-browser", "--port", str(busy_port()), "--idle-minutes", t),
            "--idle-minutes")  # fmt: skip
        err(
            8,
            f"cli app --port {text!r}",
            lambda t=text: cli("app", "--no-browser", "--port", t),
            "--port",
        )
    for text in ("\u0663", "²", "\uff15"):
        err(8, f"deal({text!r})", lambda t=text: bl.deal(t), game_words)  # type: ignore[arg-type]
        err(8, f"read_game_number({text!r})", lambda t=text: module("model.deals").read_game_number(t), game_words)  # fmt: skip
    err(8, "Card.parse('²H')", lambda: bl.Card.parse("²H"), "not a card")
    err(8, "Card.parse('\u0661H')", lambda: bl.Card.parse("\u0661H"), "not a card")
    err(8, "board text with \u0661\u0660H", lambda: bl.Deal.from_text(board.replace("TS", "\u0661\u0660S", 1)),
        "bad card")  # fmt: skip
    ok(8, "cli survey --jobs -1 still", lambda: cli("survey", "--deals", "1", "--quiet",
       "--jobs", "-1", "--out", str(tmpdir("s") / "o")), lambda r: r.code == 0)  # fmt: skip

    # 9. Wrong types deep inside ---------------------------------------------------------
    d5 = bl.deal(5)
    r13 = d5.rules
    cols = d5.columns
    g5 = bl.GameState.from_deal(d5)
    card = bl.Card(1, 0)
    for label, make, words in (
        ("parse_moves(None)", lambda: bl.parse_moves(None), "moves"),  # type: ignore[arg-type]
        ("parse_moves(5)", lambda: bl.parse_moves(5), "moves"),  # type: ignore[arg-type]
        ("parse_moves(b'AD>F')", lambda: bl.parse_moves(b"AD>F"), "moves"),  # type: ignore[arg-type]
        ("Deal(None, cols)", lambda: bl.Deal(None, cols), "rules"),  # type: ignore[arg-type]
        ("Deal('bakers_dozen', cols)", lambda: bl.Deal("bakers_dozen", cols), "rules"),  # type: ignore[arg-type]
        ("Deal(r, None)", lambda: bl.Deal(r13, None), "columns"),  # type: ignore[arg-type]
        ("Deal(r, 5)", lambda: bl.Deal(r13, 5), "columns"),  # type: ignore[arg-type]
        ("Deal(r, 'abc')", lambda: bl.Deal(r13, "abc"), "columns"),  # type: ignore[arg-type]
        ("Deal(r, cols, None)", lambda: bl.Deal(r13, cols, None), "foundations"),  # type: ignore[arg-type]
        ("Deal number='x'", lambda: bl.Deal(r13, cols, number="x"), "number"),  # type: ignore[arg-type]
        ("Deal number=-5", lambda: bl.Deal(r13, cols, number=-5), "number"),
        ("Deal number=5.0", lambda: bl.Deal(r13, cols, number=5.0), "number"),  # type: ignore[arg-type]
        ("Deal number=True", lambda: bl.Deal(r13, cols, number=True), "number"),
        ("Deal seed='x'", lambda: bl.Deal(r13, cols, seed="x"), "seed"),  # type: ignore[arg-type]
        ("Deal seed=-1", lambda: bl.Deal(r13, cols, seed=-1), "seed"),
        ("Deal king_rule='bogus'", lambda: bl.Deal(r13, cols, king_rule="bogus"), "king_rule"),  # type: ignore[arg-type]
        (
            "GameState('bakers_dozen', ...)",
            lambda: bl.GameState("bakers_dozen", [list(c) for c in cols], [[], [], [], []]),
            "rules",
        ),  # type: ignore[arg-type]
        ("GameState(r, None, None)", lambda: bl.GameState(r13, None, None), "columns"),  # type: ignore[arg-type]
        ("g.is_legal(None)", lambda: g5.is_legal(None), "is_legal"),  # type: ignore[arg-type]
        ("g.is_legal(5)", lambda: g5.is_legal(5), "is_legal"),  # type: ignore[arg-type]
        ("g.play(None)", lambda: g5.copy().play(None), "play"),  # type: ignore[arg-type]
        ("g.play_all(None)", lambda: g5.copy().play_all(None), "moves"),  # type: ignore[arg-type]
        ("g.play_all(5)", lambda: g5.copy().play_all(5), "moves"),  # type: ignore[arg-type]
        ("g.play_all([None])", lambda: g5.copy().play_all([None]), "play"),  # type: ignore[list-item]
        ("Move(card, F, 3)", lambda: str(bl.Move(card, bl.Dest.FOUNDATION, 3)), "pile"),  # type: ignore[arg-type]
        ("Move(card, F, 'S')", lambda: str(bl.Move(card, bl.Dest.FOUNDATION, "S")), "pile"),  # type: ignore[arg-type]
        ("Move('AD', F)", lambda: bl.Move("AD", bl.Dest.FOUNDATION), "card"),  # type: ignore[arg-type]
        ("SolveResult('bogus').summary()", lambda: bl.SolveResult("bogus").summary(), "outcome"),  # type: ignore[arg-type]
        ("SolveResult nodes='x'", lambda: bl.SolveResult("solved", nodes="x"), "nodes"),  # type: ignore[arg-type]
        ("SolveResult moves=None", lambda: bl.SolveResult("solved", moves=None), "moves"),  # type: ignore[arg-type]
        (
            "Rules(tableau_build=np.array)",
            lambda: bl.Rules(tableau_build=np.array(["any_suit", "same_suit"])),
            "tableau_build",
        ),  # type: ignore[arg-type]
        ("Rules(empty_column=['none'])", lambda: bl.Rules(empty_column=["none"]), "empty_column"),  # type: ignore[arg-type]
        ("Rules(name=5)", lambda: bl.Rules(name=5), "name"),  # type: ignore[arg-type]
        ("deal_features(None)", lambda: bl.deal_features(None), "deal_features"),  # type: ignore[arg-type]
        ("deal_features(5)", lambda: bl.deal_features(5), "deal_features"),  # type: ignore[arg-type]
        ("deal_features([5])", lambda: bl.deal_features([5]), "Deal"),  # type: ignore[list-item]
        ("deal_features rules='x'", lambda: bl.deal_features([d5], rules="x"), "rules"),  # type: ignore[arg-type]
        ("Card(None, 0)", lambda: bl.Card(None, 0), "rank"),  # type: ignore[arg-type]
        ("Card(1, 'S')", lambda: bl.Card(1, "S"), "suit"),  # type: ignore[arg-type]
        ("Card.parse(None)", lambda: bl.Card.parse(None), "card"),  # type: ignore[arg-type]
        ("Deal.from_text(None)", lambda: bl.Deal.from_text(None), "board text"),  # type: ignore[arg-type]
        ("GameState.from_deal(None)", lambda: bl.GameState.from_deal(None), "Deal"),  # type: ignore[arg-type]
        ("solve(None)", lambda: bl.solve(None), "solve takes"),  # type: ignore[arg-type]
        ("solve([5])", lambda: bl.solve([5]), "solve takes"),  # type: ignore[arg-type]
        ("play(None)", lambda: bl.play(None), "play takes"),  # type: ignore[arg-type]
        ("play(5, None)", lambda: bl.play(5, None), "player"),  # type: ignore[arg-type]
        ("explain(None, 'AD>F')", lambda: bl.explain(None, "AD>F"), "explain takes"),
        ("explain(5, 123)", lambda: bl.explain(5, 123), "moves"),
        ("explain(5, [None])", lambda: bl.explain(5, [None]), "move 1"),
        ("difficulty(None)", lambda: bl.difficulty(None), "difficulty"),  # type: ignore[arg-type]
        ("difficulty('5')", lambda: bl.difficulty("5"), "difficulty"),  # type: ignore[arg-type]
        ("pick(difficulty=5)", lambda: bl.pick(5), "difficulty"),  # type: ignore[arg-type]
        ("pick(deals=5)", lambda: bl.pick(deals=5), "deals"),  # type: ignore[arg-type]
        ("pick(deals=['5'])", lambda: bl.pick(deals=["5"]), game_words),  # type: ignore[list-item]
        ("survey(None)", lambda: bl.survey(None, out=tmpdir("s") / "o"), "deals"),  # type: ignore[arg-type]
        (
            "survey players=None",
            lambda: bl.survey("1", players=None, out=tmpdir("s") / "o"),
            "players",
        ),  # type: ignore[arg-type]  # fmt: skip
        (
            "survey players=[None]",
            lambda: bl.survey("1", players=[None], out=tmpdir("s") / "o"),
            "player",
        ),  # type: ignore[list-item]  # fmt: skip
        (
            "survey progress='no'",
            lambda: bl.survey("1", progress="no", out=tmpdir("s") / "o"),
            "progress",
        ),  # type: ignore[arg-type]  # fmt: skip
        ("read_survey(5)", lambda: bl.read_survey(5), "directory"),  # type: ignore[arg-type]
        ("rules(5)", lambda: bl.rules(5), "variant"),  # type: ignore[arg-type]
        ("seeded_deal(None)", lambda: bl.seeded_deal(None), "seed"),  # type: ignore[arg-type]
        (
            "Deal.from_text(board, variant=5)",
            lambda: bl.Deal.from_text(board, variant=5),
            "variant",
        ),  # type: ignore[arg-type]  # fmt: skip
    ):
        err(9, label, make, words)

    # 10. Reports ------------------------------------------------------------------------
    def unresolved_survey() -> Path:
        path = tmpdir("s") / "o"
        bl.survey("1-6", players=("solver", "careful", "greedy"), max_nodes=1, out=path,
                  progress=False)  # fmt: skip
        return path

    def corrupt_manifest(p: Path) -> Path:
        (p / "_survey.json").write_text("{not json", encoding="utf-8")
        return p

    def list_manifest(p: Path) -> Path:
        (p / "_survey.json").write_text("[1, 2]", encoding="utf-8")
        return p

    from bakers_lab.display.report import build_report, report_text

    ok(10, "report of a survey whose solver resolved nothing", lambda: report_text(
        unresolved_survey()), lambda t: "solver" in t and "careful" in t)  # fmt: skip
    ok(10, "cli report of a survey whose solver resolved nothing", lambda: cli(
        "report", str(unresolved_survey())), lambda r: r.code == 0)  # fmt: skip
    err(10, "report with a corrupt manifest", lambda: build_report(corrupt_manifest(
        small_survey())), "_survey.json")  # fmt: skip
    err(10, "report with a list manifest", lambda: build_report(list_manifest(small_survey())),
        "_survey.json")  # fmt: skip
    err(10, "cli report corrupt manifest", lambda: cli("report", str(corrupt_manifest(
        small_survey()))), "_survey.json")  # fmt: skip
    err(10, "read_survey corrupt manifest", lambda: bl.read_survey(corrupt_manifest(
        small_survey())), "_survey.json")  # fmt: skip
    err(10, "cli report of nothing", lambda: cli("report", "/nonexistent/x"), "/nonexistent/x")
    err(10, "report_text(None)", lambda: report_text(None), "survey")  # type: ignore[arg-type]

    # 11. One vocabulary -------------------------------------------------------------------
    ok(11, "difficulty(deal(5))", lambda: bl.difficulty(bl.deal(5)),
       lambda x: x.deal == 5 and x.tag == bl.difficulty(5).tag)  # fmt: skip
    ok(11, "difficulty(deal(86, good_measure))", lambda: bl.difficulty(
        bl.deal(86, "good_measure")), lambda x: x.variant == "good_measure")  # fmt: skip
    err(11, "difficulty(deal(5), variant=good_measure)", lambda: bl.difficulty(
        bl.deal(5), variant="good_measure"), "variant")  # fmt: skip
    err(11, "difficulty(seeded_deal(5))", lambda: bl.difficulty(bl.seeded_deal(5)),
        "game number")  # fmt: skip
    ok(11, "difficulty(GameState start)", lambda: bl.difficulty(bl.GameState.from_deal(
        bl.deal(5))), lambda x: x.deal == 5)  # fmt: skip
    ok(11, "pick(deals=[deal(5), deal(6)])", lambda: bl.pick(deals=[bl.deal(5), bl.deal(6)],
       count=2), lambda p: p == [5, 6] or len(p) <= 2)  # fmt: skip
    ok(11, "solve(GameState)", lambda: bl.solve(bl.GameState.from_deal(bl.deal(5))))
    ok(11, "play(GameState)", lambda: bl.play(bl.GameState.from_deal(bl.deal(5))))
    ok(11, "hint(Deal)", lambda: bl.hint(bl.deal(1)))
    ok(11, "explain(Deal, moves)", lambda: bl.explain(bl.deal(64), moves64))

    # 12. Smaller --------------------------------------------------------------------------
    err(12, "pick(deals=range(1, 10**7))", lambda: bl.pick(deals=range(1, 10**7)),
        "on the spot", timeout=30)  # fmt: skip
    err(12, "cli pick --deals 1-10000000", lambda: cli("pick", "--deals", "1-10000000"),
        "on the spot", timeout=30)  # fmt: skip
    err(12, "survey(out='a\\x00b')", lambda: bl.survey("1", out="a\x00b", progress=False), "out")
    err(12, "read_survey('a\\x00b')", lambda: bl.read_survey("a\x00b"), "a\\x00b")
    err(12, "cli survey --out with NUL", lambda: cli("survey", "--deals", "1", "--out",
        "a\x00b"), "out")  # fmt: skip
    err(12, "hint('4')", lambda: bl.hint("4"), "hint takes")  # type: ignore[arg-type]
    err(12, "hint(None)", lambda: bl.hint(None), "hint takes")  # type: ignore[arg-type]
    err(12, "hint(4, variant=5)", lambda: bl.hint(4, variant=5), "variant")  # type: ignore[arg-type]
    ok(12, "survey workers die with a kill -9 of the parent", orphans, lambda r: r is True,
       timeout=120)  # fmt: skip

    # 13. The entry points this turn added (claims.contents, present.styled,
    # stats.player_order, TraceModel.stops, the tree chart's labels) --------------------
    import pandas as pd

    claims, present, plots = (
        module("study.claims"),
        module("utils.present"),
        module("display.plots"),
    )
    stats, search = module("study.stats"), module("solve.search")
    err(13, "contents(None)", lambda: claims.contents(None), "contents takes a table of surveys")
    err(13, "contents(no columns)", lambda: claims.contents(pd.DataFrame({"x": [1]})),
        "variant and player columns")  # fmt: skip
    ok(13, "contents(empty)", lambda: claims.contents(pd.DataFrame(
        {"variant": [], "player": [], "deal": []})), lambda t: len(t) == 0)  # fmt: skip
    ok(13, "contents(table)", lambda: claims.contents(table()), lambda t: len(t) >= 1)
    err(13, "styled(None)", lambda: present.styled(None), "styled takes a pandas DataFrame")
    err(13, "styled(list)", lambda: present.styled([1, 2]), "styled takes a pandas DataFrame")
    ok(13, "styled(empty)", lambda: present.styled(pd.DataFrame()).to_html())
    ok(13, "styled(win rates)", lambda: present.styled(present.for_people(
        bl.win_rates(table()))).to_html(), lambda h: "text-align: right" in h)  # fmt: skip
    ok(13, "player_order sorts", lambda: sorted(["solver", "undo-3", "search-10", "search-3",
        "random"], key=stats.player_order),
       lambda o: o == ["random", "search-3", "search-10", "undo-3", "solver"])  # fmt: skip
    ok(13, "player_order unknown", lambda: stats.player_order("bogus"), lambda k: k[0] == 3)

    def model():
        from bakers_lab.display.widgets import TraceModel

        return TraceModel(search.astar(search.classroom_deal(0, "tiny"), "detours", trace=True))

    def trace():
        return search.astar(search.classroom_deal(0, "tiny"), "detours", trace=True)

    err(13, "stops('x')", lambda: model().stops("x"), "unit must be one of event, expansion")
    err(13, "stops(None)", lambda: model().stops(None), "unit must be one of")
    err(13, "stops(['depth'])", lambda: model().stops(["depth"]), "unit must be one of")
    ok(
        13,
        "stops('depth') ends at the goal",
        lambda: model(),
        lambda m: m.stops("depth")[-1] == m.n,
    )
    err(13, "tree labels='yes'", lambda: plots.search_tree_chart(trace(), labels="yes"),
        "labels must be True or False")  # fmt: skip
    err(13, "tree labels=1", lambda: plots.search_tree_chart(trace(), labels=1),
        "labels must be True or False")  # fmt: skip
    ok(13, "tree labels=np.True_", lambda: plots.search_tree_chart(trace(), labels=np.True_))
    err(13, "tree limit=0", lambda: plots.search_tree_chart(trace(), limit=0), "limit must be")
    err(13, "tree limit=10**5000", lambda: plots.search_tree_chart(trace(), limit=10**5000),
        "limit must be")  # fmt: skip

    build_table_cases()  # 14
    build_file_cases()  # 15
    build_fourth_audit_cases()  # 16-20


def study_table() -> Any:
    """A survey table every study function takes: :func:`table` (solver and careful,
    deals 1-20, with features, nodes and moves) with greedy and lookahead-2, three
    settings of each dial (careful's games with other outcomes) and a par table
    (``shortest``: the fewest moves any winner took on each deal the solver won)."""
    import pandas as pd

    if "study" not in _FIXTURES:
        base = table()
        base = base.assign(variant=base["variant"].astype(str), player=base["player"].astype(str),
                           outcome=base["outcome"].astype(str))  # fmt: skip
        careful = base[base["player"] == "careful"]
        parts = [base]
        for name, k in {"greedy": 3, "lookahead-2": 5, "search-10": 7, "search-100": 11,
                        "search-1000": 13, "undo-1": 4, "undo-10": 6, "undo-100": 9}.items():  # fmt: skip
            t = careful.assign(player=name)
            t["outcome"] = ["won" if (int(d) * k) % 3 else "lost" for d in t["deal"]]
            parts.append(t)
        t = pd.concat(parts, ignore_index=True)
        won = t[t["outcome"] == "won"]
        fewest = won.groupby(won["deal"].astype(int))["moves"].min()
        solver = t[t["player"] == "solver"]
        par = solver.assign(player="shortest")
        solvable = [
            int(d) in fewest.index and o == "won"
            for d, o in zip(par["deal"], par["outcome"], strict=True)
        ]
        par["outcome"] = ["won" if s else "lost" for s in solvable]
        values = [
            int(fewest[int(d)]) if s else None for d, s in zip(par["deal"], solvable, strict=True)
        ]
        par["moves"] = [v or 0 for v in values]
        t = pd.concat([t, par], ignore_index=True)
        column = [None] * (len(t) - len(par)) + values
        t["par"] = pd.array(column, dtype="Int64")
        t["par_bound"] = pd.array(column, dtype="Int64")
        _FIXTURES["study"] = t  # type: ignore[assignment]
    return _FIXTURES["study"].copy()  # type: ignore[attr-defined]


def study_mutations() -> dict[str, tuple[Callable[[Any], Any], str]]:
    """Tables every study function refuses, with a word the refusal must hold."""
    import pandas as pd

    def nan_in(column: str) -> Callable[[Any], Any]:
        def change(t: Any) -> Any:
            t[column] = t[column].astype(object)
            t.loc[3, column] = float("nan")
            return t

        return change

    return {
        "an empty DataFrame": (lambda t: pd.DataFrame(), "no rows"),
        "a Series": (lambda t: t["deal"], "not a Series"),
        "a dict": (lambda t: t.to_dict("list"), "not a dict"),
        "a list": (lambda t: t.values.tolist(), "not a list"),
        "NaN deal": (nan_in("deal"), "not an integer"),
        "NaN variant": (nan_in("variant"), "no variant"),
        "NaN player": (nan_in("player"), "no player"),
        "NaN outcome": (nan_in("outcome"), "no outcome"),
        "string deals": (lambda t: t.assign(deal=[str(d) for d in t["deal"]]), "not an integer"),
        "float deals": (lambda t: t.assign(deal=[float(d) for d in t["deal"]]), "not an integer"),
        "duplicated rows": (lambda t: pd.concat([t, t.iloc[:5]], ignore_index=True), "repeats"),
        "another outcome": (lambda t: t.assign(outcome=["solved"] * len(t)), "another outcome"),
        "no deal column": (lambda t: t.drop(columns="deal"), "lacks the column deal"),
    }


def build_table_cases() -> None:
    """14. Every study function × tables it must refuse in one line naming the problem."""
    import math
    from decimal import Decimal
    from fractions import Fraction

    import numpy as np
    import pandas as pd

    import bakers_lab as bl

    claims, par, rating, predict = (module(m) for m in ("claims", "par", "rating", "predict"))
    skill = module("study.skill")

    def drop(*players: str) -> Callable[[Any], Any]:
        return lambda t: t[~t["player"].isin(players)].reset_index(drop=True)

    def dials(t: Any) -> Any:
        return t[~t["player"].str.match(r"(search|undo)-")].reset_index(drop=True)

    def renamed(t: Any) -> Any:
        return t.assign(variant="spanish_patience")

    def as_text(column: str) -> Callable[[Any], Any]:
        return lambda t: t.assign(**{column: t[column].astype(str)})

    def gap(column: str) -> Callable[[Any], Any]:
        def change(t: Any) -> Any:
            t[column] = t[column].astype("float64")
            t.loc[2, column] = float("nan")
            return t

        return change

    # name: (the call, its own needs: [(label, mutation, word)], takes variant=)
    features = [("NaN feature", gap("f_depth_aces"), "missing value"),
                ("features as strings", as_text("f_depth_aces"), "stored as text")]  # fmt: skip
    studies: dict[str, tuple[Callable[..., object], list[tuple[str, Any, str]], bool]] = {
        "win_rates": (lambda t: bl.win_rates(t), [], False),
        "ladder": (
            lambda t, **k: bl.ladder(t, **k),
            [("one player", lambda t: t[t["player"] == "careful"], "at least 2")],
            True,
        ),
        "paired_comparison": (
            lambda t, **k: bl.paired_comparison(t, "careful", "solver", **k),
            [("no solver", drop("solver"), "solver")],
            True,
        ),
        "loss_model": (
            lambda t, **k: bl.loss_model(t, "careful", repeats=2, features=["f_depth_aces"], **k),
            [*features, ("no careful", drop("careful"), "careful")],
            True,
        ),
        "loss_predictors": (
            lambda t, **k: predict.loss_predictors(
                t, "careful", repeats=2, features=["f_depth_aces"], **k
            ),
            [*features, ("no careful", drop("careful"), "careful")],
            True,
        ),
        "skill_curve": (
            lambda t, **k: bl.skill_curve(t, "search", **k),
            [
                ("no dial players", dials, "no search-N player"),
                ("search-05", lambda t: t.replace("search-10", "search-05"), "search-05"),
                ("search-0", lambda t: t.replace("search-10", "search-0"), "search-0"),
                ("search-abc", lambda t: t.replace("search-10", "search-abc"), "search-abc"),
            ],
            True,
        ),  # fmt: skip
        "effort": (
            lambda t, **k: bl.effort(t, "undo", **k),
            [
                ("no dial players", dials, "no undo-N player"),
                ("undo-01", lambda t: t.replace("undo-10", "undo-01"), "undo-01"),
            ],
            True,
        ),
        "located_claims": (
            lambda t: claims.located_claims(t),
            [
                ("no dial players", dials, "no search-N or undo-N player"),
                ("another variant", renamed, "no strength dial"),
            ],
            False,
        ),
        "claims_table": (lambda t: claims.claims_table(t), [], False),
        "ratings_from_survey": (
            lambda t: rating.ratings_from_survey(t),
            [("no greedy", drop("greedy"), "greedy"), ("NaN nodes", gap("nodes"), "missing value")],
            False,
        ),
        "excess_summary": (
            lambda t: par.excess_summary(t),
            [
                (
                    "no par table",
                    lambda t: drop("shortest")(t).assign(par=pd.NA, par_bound=pd.NA),
                    "shortest",
                ),
                ("NaN moves", gap("moves"), "missing value"),
            ],
            False,
        ),  # fmt: skip
        "pars": (
            lambda t: par.pars(t),
            [("no par columns", lambda t: t.drop(columns=["par", "par_bound"]), "par")],
            False,
        ),  # fmt: skip
        "as_column": (lambda t: par.as_column(t), [], False),
        "rate_by_decile": (
            lambda t, **k: bl.rate_by_decile(t, "f_depth_aces", **k),
            features,
            True,
        ),
        "hardest_deals": (
            lambda t, **k: bl.hardest_deals(t, **k),
            [("no solver", drop("solver"), "solver"), ("NaN nodes", gap("nodes"), "missing value")],
            True,
        ),
    }
    for name, (call, own, takes_variant) in studies.items():
        ok(14, f"{name}(the study table)", lambda c=call: c(study_table()), timeout=60)
        for label, (mutate, word) in study_mutations().items():
            err(14, f"{name}: {label}", lambda c=call, m=mutate: c(m(study_table())), word,
                timeout=60)  # fmt: skip
        for label, mutate, word in own:
            err(14, f"{name}: {label}", lambda c=call, m=mutate: c(m(study_table())), word,
                timeout=60)  # fmt: skip
        if takes_variant:
            err(14, f"{name}: variant= the table lacks", lambda c=call: c(
                study_table(), variant="spanish_patience"), "spanish_patience", timeout=60)  # fmt: skip
        either(14, f"{name}: one row", lambda c=call: c(study_table().iloc[:1]), timeout=60)
    err(14, "located_claims(5)", lambda: claims.located_claims(5), "not 5 (int)")
    err(14, "located_claims([1])", lambda: claims.located_claims([1]), "not a list")
    err(14, "claims_table(5)", lambda: claims.claims_table(5), "not 5 (int)")

    # crossing and locate: a curve, and a level strictly between 0 and 1
    def curve() -> Any:
        return bl.skill_curve(study_table(), "search")

    levels = {"'0.5'": "0.5", "None": None, "NaN": math.nan, "True": True, "0": 0, "1": 1,
              "2": 2, "-0.5": -0.5, "inf": math.inf, "10**400": 10**400,
              "Decimal('0.5')": Decimal("0.5"), "[0.5]": [0.5]}  # fmt: skip
    for label, value in levels.items():
        err(
            14,
            f"crossing(curve, {label})",
            lambda v=value: skill.crossing(curve(), v),
            "level must be",
        )
        err(14, f"locate(curve, {label}, 0.9)", lambda v=value: skill.locate(curve(), v, 0.9),
            "low must be")  # fmt: skip
        err(14, f"locate(curve, 0.1, {label})", lambda v=value: skill.locate(curve(), 0.1, v),
            "high must be")  # fmt: skip
    err(14, "locate(curve, 0.8, 0.6)", lambda: skill.locate(curve(), 0.8, 0.6), "low at most high")
    for label, value in {"an empty curve": pd.DataFrame(), "a Series": pd.Series([0.5] * 40),
                         "None": None, "a dict": {"rate": [0.5]},
                         "a survey table": study_table()}.items():  # fmt: skip
        err(14, f"crossing({label}, 0.5)", lambda v=value: skill.crossing(v, 0.5), "curve")
        err(14, f"locate({label}, 0.5, 0.6)", lambda v=value: skill.locate(v, 0.5, 0.6), "curve")
    ok(14, "crossing(curve, 0.5)", lambda: skill.crossing(curve(), 0.5))
    ok(14, "crossing(curve, np.float64(0.5))", lambda: skill.crossing(curve(), np.float64(0.5)))
    ok(14, "crossing(curve, Fraction(1, 2))", lambda: skill.crossing(curve(), Fraction(1, 2)))
    ok(14, "locate(curve, 0.5, 0.6)", lambda: skill.locate(curve(), 0.5, 0.6))

    # explain's survey-row form: a row's solution is text or a list of moves
    moves = [str(m) for m in bl.play(64, "careful").moves]

    def row(**fields: object) -> Any:
        return pd.Series({"deal": 64, "variant": "bakers_dozen", "solution": " ".join(moves),
                          **fields})  # fmt: skip

    ok(14, "explain(row, solution text)", lambda: bl.explain(row()))
    ok(14, "explain(row, solution list)", lambda: bl.explain(row(solution=moves)))
    ok(14, "explain(row, solution array)", lambda: bl.explain(row(solution=np.array(moves))))
    for label, value in {"5": 5, "a dict": {"a": 1}, "a list of numbers": [1, 2],
                         "a Series": pd.Series(moves), "True": True}.items():  # fmt: skip
        err(14, f"explain(row, solution {label})", lambda v=value: bl.explain(row(solution=v)),
            "solution")  # fmt: skip
    err(14, "explain(row without solution)", lambda: bl.explain(row().drop("solution")), "solution")
    err(14, "explain(row, variant None)", lambda: bl.explain(row(variant=None)), "variant")
    err(14, "explain(row, deal '64')", lambda: bl.explain(row(deal="64")), "game number")
    err(14, "explain(a Series of 100 numbers)", lambda: bl.explain(pd.Series(range(100))), "deal")
    err(14, "explain(4, a Series of moves)", lambda: bl.explain(4, pd.Series(moves)), "Series")
    err(14, "explain(a one-row DataFrame)", lambda: bl.explain(pd.DataFrame([row()])), "DataFrame")


def special_files() -> dict[str, str]:
    """Paths that are not regular files: a named pipe with no writer, a listening
    socket, /dev/zero, a folder and a missing file (made once, in the worker)."""
    if "special" not in _FIXTURES:
        folder = tmpdir("special")
        fifo = folder / "pipe"
        os.mkfifo(fifo)
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(folder / "sock"))
        sock.listen(1)
        _FIXTURES["socket"] = sock  # type: ignore[assignment]
        _FIXTURES["special"] = {"a named pipe": str(fifo), "a socket": str(folder / "sock"),  # type: ignore[assignment]
                                "/dev/zero": "/dev/zero", "a folder": str(folder),
                                "a missing file": str(folder / "missing.txt")}  # fmt: skip
    return _FIXTURES["special"]  # type: ignore[return-value]


def survey_with_chunk(kind: str) -> Path:
    """A finished survey whose chunk 1 is replaced by the special file ``kind``."""
    path = small_survey()
    chunk = path / "chunk-000001.parquet"
    chunk.unlink()
    if kind == "a named pipe":
        os.mkfifo(chunk)
    elif kind == "a socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(chunk))
        _FIXTURES[f"socket-{chunk}"] = sock  # type: ignore[assignment]
    elif kind == "/dev/zero":
        chunk.symlink_to("/dev/zero")
    elif kind == "a folder":
        chunk.mkdir()
    return path


def build_file_cases() -> None:
    """15. Every option and function that reads a user's file, given one that is not a
    regular file: one line at once, never a hang."""
    import bakers_lab as bl

    words = {"a named pipe": "named pipe", "a socket": "socket", "/dev/zero": "device",
             "a folder": "folder", "a missing file": "missing.txt"}  # fmt: skip
    readers: dict[str, Callable[[str], object]] = {
        "explain --moves": lambda p: cli("explain", "4", "--moves", p),
        "hint --moves": lambda p: cli("hint", "4", "--moves", p),
        "solve --board": lambda p: cli("solve", "--board", p),
        "explain --pysol": lambda p: cli("explain", "--pysol", p),
        "hint --pysol": lambda p: cli("hint", "--pysol", p),
        "strength --games": lambda p: cli("strength", "--games", p, "--quiet"),
        "strength --pysol-stats": lambda p: cli("strength", "--pysol-stats", p, "--quiet"),
        "read_pysol_game": lambda p: bl.read_pysol_game(p),
        "read_pysol_stats": lambda p: bl.read_pysol_stats(p),
        "read_survey": lambda p: bl.read_survey(p),
    }
    for reader, call in readers.items():
        for kind, word in words.items():
            if reader == "read_survey" and kind == "a folder":
                word = "holds no chunk"
            elif reader == "read_survey":
                word = "not a directory"
            err(15, f"{reader} {kind}", lambda c=call, k=kind: c(special_files()[k]), word,
                timeout=15)  # fmt: skip
    for kind in ("a named pipe", "a socket", "/dev/zero", "a folder"):
        err(15, f"read_survey: chunk 1 is {kind}", lambda k=kind: bl.read_survey(
            survey_with_chunk(k)), "chunk-000001.parquet", timeout=15)  # fmt: skip
        err(15, f"cli report: chunk 1 is {kind}", lambda k=kind: cli("report", str(
            survey_with_chunk(k))), "chunk-000001.parquet", timeout=15)  # fmt: skip


# -- the cases that need processes of their own ---------------------------------------------


def busy_port() -> int:
    """A port this worker holds, so that an app the audit starts by mistake cannot bind."""
    if "port" not in _FIXTURES:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        _FIXTURES["port"] = s  # type: ignore[assignment]
    return int(_FIXTURES["port"].getsockname()[1])  # type: ignore[attr-defined]


def two_writers(rep: int = 0) -> bool | str:
    """Two CLI surveys into one folder, started at once (the same one, or on even
    repetitions two with different budgets): exactly one writes, the other is refused
    in one line naming the folder, and the folder reads back equal to a lone run of
    the one that wrote."""
    import bakers_lab as bl

    folder = tmpdir("race") / "o"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    common = ["--deals", "1-100", "--players", "solver,careful", "--chunk-size", "5",
              "--jobs", "1", "--quiet", "--out", str(folder)]  # fmt: skip
    budgets = ["100000", "100000"] if rep % 2 else ["1000", "100000"]
    procs = [subprocess.Popen([sys.executable, "-m", "bakers_lab.cli", "survey", *common,
                               "--max-nodes", b], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for b in budgets]  # fmt: skip
    results = [(p.wait(timeout=100), *p.communicate()) for p in procs]
    codes = [r[0] for r in results]
    if sorted(codes) != [0, 2]:
        return f"exit codes {codes}: {[r[2][-200:] for r in results]}"
    winner, loser = codes.index(0), codes.index(2)
    line = results[loser][2]
    if line.count("\n") != 1 or str(folder) not in line:
        return f"the refused one said {line[-300:]!r}"
    lone = tmpdir("lone") / "o"
    bl.survey("1-100", players=("solver", "careful"), chunk_size=5,
              max_nodes=int(budgets[winner]), out=lone, progress=False)  # fmt: skip
    a = bl.read_survey(folder).drop(columns="seconds")
    b = bl.read_survey(lone).drop(columns="seconds")
    if not a.equals(b):
        return "the folder differs from a lone run"
    return True


def locked_folder() -> bool | str:
    """A survey into a folder another process holds is refused in one line."""
    folder = tmpdir("locked") / "o"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, sys, time\n"
        f"f = open({str(folder / '.survey.lock')!r}, 'a')\n"
        "fcntl.flock(f, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None
        holder.stdout.readline()
        r = run_cli("survey", "--deals", "1-2", "--jobs", "1", "--quiet", "--out", str(folder))
    finally:
        holder.kill()
        holder.wait()
    if r.returncode != 2 or r.stderr.count("\n") != 1 or str(folder) not in r.stderr:
        return f"exit {r.returncode}: {r.stderr[-300:]!r}"
    if any(folder.glob("chunk-*")) or (folder / "_survey.json").exists():
        return "it wrote into the folder"
    return True


def temp_names() -> bool | str:
    """The manifest's temporary file is named for its process (no shared temp name)."""
    text = Path(module("study.survey").__file__).read_text(encoding="utf-8")
    if 'f".{_MANIFEST}.tmp"' in text:
        return "the manifest's temp name is shared by every process"
    return True


def orphans() -> bool | str:
    """After kill -9 of a survey, its worker processes end within 20 s."""
    folder = tmpdir("orphans") / "o"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen(
        [sys.executable, "-m", "bakers_lab.cli", "survey", "--deals", "1-400", "--players",
         "careful,lookahead-3", "--chunk-size", "2", "--jobs", "2", "--quiet", "--out",
         str(folder)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        kids: list[int] = []
        while time.monotonic() < deadline:
            kids = descendants(parent.pid)
            if len(kids) >= 2 and any(folder.glob("chunk-*.parquet")):
                break
            time.sleep(0.5)
        if len(kids) < 2:
            return f"the survey never started its workers ({kids})"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        end = time.monotonic() + 20
        while time.monotonic() < end and [k for k in kids if alive(k)]:
            time.sleep(0.5)
        left = [k for k in kids if alive(k)]
        for k in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(k, signal.SIGKILL)
        return True if not left else f"{len(left)} workers still alive 20 s after kill -9"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


# -- judging -------------------------------------------------------------------------------


def judge(case: Case) -> tuple[bool, str]:
    try:
        result = case.run()
    except Exception as exc:
        message = str(exc)
        if case.expect == "ok":
            return False, f"raised {type(exc).__name__}: {message[:200]}"
        if not isinstance(exc, (ValueError, TypeError, OSError)) or isinstance(
            exc, (UnicodeError, AttributeError)
        ):
            return False, f"{type(exc).__name__} from inside: {message[:200]}"
        return check_message(message, None if case.expect == "either" else case.want,
                             type(exc).__name__)  # fmt: skip
    if isinstance(result, Cli):
        if case.expect == "ok":
            if result.code != 0:
                return False, f"exit {result.code}: {result.err[-200:]!r}"
            if case.want is not None and not case.want(result):
                return False, f"output not as expected: {result.out[:200]!r}"
            return True, ""
        if result.code == 0:
            return False, f"accepted (exit 0): {result.out[:120]!r}"
        if result.code != 2:
            return False, f"exit {result.code}: {result.err[-200:]!r}"
        lines = result.err.splitlines()
        if len(lines) != 1 or not lines[0].startswith("bakers-lab: error: "):
            return False, f"stderr is not one error line: {result.err[:300]!r}"
        return check_message(lines[0].removeprefix("bakers-lab: error: "), case.want, "cli")
    if case.expect == "err":
        return False, f"accepted: {short(result)}"
    if case.want is not None:
        verdict = case.want(result)
        if verdict is not True:
            return (
                False,
                f"not as expected: {verdict if isinstance(verdict, str) else short(result)}",
            )
    return True, ""


def check_message(message: str, want: str | None, kind: str) -> tuple[bool, str]:
    if not message.strip():
        return False, f"{kind}: an empty message"
    if "\n" in message:
        return False, f"{kind}: a message of several lines: {message[:200]!r}"
    if len(message) > 400:
        return False, f"{kind}: a message of {len(message)} characters: {message[:120]!r}..."
    for phrase in INTERNAL:
        if phrase in message:
            return False, f"{kind}: Python's words, not ours: {message[:200]!r}"
    if want is not None and want not in message:
        return False, f"{kind}: the message lacks {want!r}: {message[:200]!r}"
    return True, ""


def short(value: object) -> str:
    try:
        text = repr(value)
    except Exception as exc:
        text = f"<unprintable: {type(exc).__name__}>"
    return text[:120]


# -- the fourth audit (issue 51): budgets, the grader, the journal, words, strength ---------


def pysol_file(data: bytes, name: str = "f.pso") -> Path:
    path = tmpdir("pysol") / name
    path.write_bytes(data)
    return path


def read_game(data: bytes) -> object:
    import bakers_lab as bl

    return bl.read_pysol_game(pysol_file(data))


def stats_file(prev_games: dict[object, list[tuple[object, ...]]]) -> Path:
    from test_pysol import _write_stats

    return _write_stats(tmpdir("stats"), prev_games)


def save_with(struct: str, field: str, value: object) -> bytes:
    from test_pysol import DATA, _dump, _save_objects, _struct

    objs = _save_objects(DATA / "bakers_dozen_5_given_up.pso")
    _struct(objs, struct).fields[field] = value
    return _dump(objs)


def _grader_submissions() -> Any:
    """The hostile submissions of tests/test_grader_hostile.py (and its mark file)."""
    import test_grader_hostile

    return test_grader_hostile


def sub_sleeps(problem: Any) -> None:
    time.sleep(60)


def judged(fn: Any, check: str, words: str, seconds: float = 10, **kw: Any) -> Callable[[], object]:
    """Run check_search on the first micro deals: judged wrong on ``check`` with a
    sentence holding ``words``, nothing unpickled here, no process left."""

    def run() -> object:
        from bakers_lab.teach.cases import SEARCH_CASES
        from bakers_lab.teach.search_check import check_search

        before = set(descendants(os.getpid()))
        r = check_search(fn, cases=kw.pop("cases", SEARCH_CASES[:3]), seconds=seconds,
                         quiet=True, **kw)  # fmt: skip
        mark = _grader_submissions().MARK
        mark.with_suffix(".forked").unlink(missing_ok=True)
        if mark.exists():
            return "an answer was unpickled"
        for _ in range(50):
            left = [q for q in descendants(os.getpid(), besides=before) if alive(q)]
            if not left:
                break
            time.sleep(0.1)
        else:
            return f"processes left: {left}"
        if r.passed or r.failure is None:
            return f"passed: {r.summary()}"
        if r.failure.check != check or words not in r.failure.sentence:
            return f"judged {r.failure.check}: {r.failure.sentence[:160]}"
        return True

    return run


def heuristic_judged(h: Any, words: str) -> Callable[[], object]:
    def run() -> object:
        from bakers_lab.teach.cases import HEURISTIC_CASES
        from bakers_lab.teach.heuristic_check import check_heuristic

        r = check_heuristic(h, cases=HEURISTIC_CASES[:10], quiet=True)
        if r.passed or r.failure is None:
            return f"passed: {r.summary()}"
        return True if words in r.failure.sentence else r.failure.sentence[:160]

    return run


def flips(block: int, blocks: int, stride: int) -> Callable[[], object]:
    """The single-bit flips ``block`` of ``blocks`` (every ``stride``-th bit) of
    tests/test_journal.py's 3-game journal: each read back exactly or refused in one
    line naming the file."""

    def run() -> object:
        from test_journal import read_flipped, three_games

        from bakers_lab.files.journal import Journal

        folder = tmpdir("journal")
        j = three_games(folder / "j.parquet")
        data, good = j.path.read_bytes(), j.read()
        flipped = Journal(folder / "flipped.parquet")
        for bit in range(block * stride, 8 * len(data), blocks * stride):
            try:
                read_flipped(data, good, flipped, bit)
            except AssertionError:
                return f"bit {bit}: read as a changed game, or refused in other words"
        return True

    return run


def damaged_cache(damage: str) -> Callable[[], object]:
    def run() -> object:
        import pandas as pd

        import bakers_lab as bl

        cache = tmpdir("cache")
        games = pd.DataFrame({"deal": [10**16 + 3], "variant": "bakers_dozen", "won": [True]})
        kw = {"cache": cache, "players": ("careful", "undo-1"), "n_jobs": 1, "progress": False}
        first = bl.strength(games, **kw)
        [folder] = [q.parent for q in cache.glob("*/*/_survey.json")]
        (folder / "_survey.json").write_text(damage)
        again = bl.strength(games, **kw)
        return again.played_now == 1 and first.rates.equals(again.rates)

    return run


def build_fourth_audit_cases() -> None:
    from test_pickle_budgets import frame, memo_slot, memo_square, nested_key

    # 16: small files that crashed, stalled or flooded the reader, refused in one line
    for depth in (101, 1_000, 300_000):
        err(16, f"a key nested {depth:,} deep", lambda d=depth: read_game(nested_key(d)),
            "objects nested")  # fmt: skip
    for n in (2_000, 13_000, 50_000):
        err(16, f"{n:,} x {n:,} memo references", lambda n=n: read_game(memo_square(n)),
            "refer to each other so often")  # fmt: skip
    for slot in (2**20, 2**26, 2**31 - 1, 2**32 - 1):
        err(16, f"memo slot {slot:,}", lambda k=slot: read_game(memo_slot(k)),
            "before the slots")  # fmt: skip
    for length in (2**64 - 1, 2**40, 10**6, 3):
        err(16, f"a frame of {length:,} bytes", lambda n=length: read_game(frame(n)),
            "cut short")  # fmt: skip
    for bad in (10**400, -(10**400), float("inf"), float("nan"), -1.0, "noon", True):
        for struct, field in (("GameGlobalStatsStruct", "start_time"),
                              ("GameStatsStruct", "elapsed_time")):  # fmt: skip
            err(16, f"a save's {field} of {short(bad)[:20]}",
                lambda s=struct, f=field, b=bad: read_game(save_with(s, f, b)), "not a time")  # fmt: skip
        for at in (3, 4):
            entry: list[object] = [31, 5, 1, 1_700_000_000.0, 60.0]
            entry[at] = bad
            err(16, f"a statistics entry's field {at} of {short(bad)[:20]}",
                lambda e=tuple(entry): module("files.pysol").read_pysol_stats(
                    stats_file({"Ann": [e]})), "not a time")  # fmt: skip
    from test_pysol import DATA

    real = (DATA / "bakers_dozen_4_lost.pso").read_bytes()
    for cut in range(7, len(real), max(1, len(real) // 12)):
        err(16, f"a real save cut at byte {cut}", lambda c=cut: read_game(real[:c]), "")

    # 17: the exercise checks
    from submissions import bfs_goal_late_own_moves

    g = _grader_submissions()
    ok(17, "an answer that would run code when unpickled",
       judged(g.returns_code, "legal", "move 1 of your line, KS>F, is not allowed"))  # fmt: skip
    ok(17, "half a message on the answer pipe",
       judged(g.writes_half_a_message, "returns", "did not return within 2 s", seconds=2))  # fmt: skip
    ok(17, "an answer the check did not write",
       judged(g.writes_no_answer, "returns", "not an answer"))  # fmt: skip
    ok(17, "a search that sleeps past its time",
       judged(sub_sleeps, "returns", "did not return within 2 s", seconds=2))  # fmt: skip
    ok(
        17,
        "a search that forks and exits",
        judged(g.forks_and_exits, "returns", "ended its process"),
    )
    ok(17, "goal-late BFS over state.legal_moves()",
       judged(bfs_goal_late_own_moves, "goal", "tests the goal too late",
              cases=module("teach.cases").SEARCH_CASES[:8]))  # fmt: skip
    err(17, "check_search on no case",
        lambda: module("teach.search_check").check_search(lambda p: None, cases=(), quiet=True),
        "a check on no deal would pass anything")  # fmt: skip
    err(17, "iterative_deepening on small deals only",
        lambda: module("teach.search_check").check_search(
            lambda p: None, "iterative_deepening", quiet=True,
            cases=tuple(c for c in module("teach.cases").SEARCH_CASES if c.deck == "small")),
        "a check on no deal would pass anything")  # fmt: skip
    err(17, "check_heuristic on no case",
        lambda: module("teach.heuristic_check").check_heuristic(lambda s: 0, cases=()),
        "a check on no position would pass anything")  # fmt: skip

    def detours(state: Any) -> int:
        return module("solve.heuristics").detours(state)

    import numpy as np

    halves = {
        "Fraction": lambda s: Fraction(detours(s)) + Fraction(1, 2),
        "float32": lambda s: np.float32(detours(s)) + np.float32(0.5),
        "Decimal": lambda s: Decimal(detours(s)) + Decimal("0.5"),
        "float": lambda s: detours(s) + 0.5,
    }
    for name, h in halves.items():
        ok(17, f"a heuristic in halves ({name})", heuristic_judged(h, "not a whole number"))
    ok(
        17,
        "a heuristic of 10**400",
        heuristic_judged(lambda s: 10**400, "it must be 0 at the goal"),
    )

    # 18: every single-bit flip of a 3-game journal read back exactly or refused
    for block in range(12):
        ok(18, f"journal bit flips, block {block + 1} of 12", flips(block, 12, 2))

    # 19: words from a file reach the terminal escaped and short
    title = "\x1b]0;owned\x07"
    game = (31, 5, 1, 1_700_000_000.0, 60.0)
    err(19, "a player named with a terminal title",
        lambda: module("files.pysol").read_pysol_stats(stats_file({f"Ann{title}": [game]}), "Bob"),
        "Ann\\x1b]0;owned\\x07")  # fmt: skip
    err(19, "a player named 200,000 characters long",
        lambda: module("files.pysol").read_pysol_stats(stats_file({"A" * 200_000: [game]}), "Bob"),
        "no player 'Bob'")  # fmt: skip
    err(19, "a class name with a terminal title",
        lambda: read_game(b"\x80\x02c" + f"os{title}\nsystem\n".encode() + b"N\x85R."),
        "os\\x1b]0;owned\\x07.system")  # fmt: skip
    err(
        19,
        "a class name of 100,000 characters",
        lambda: read_game(b"\x80\x02c" + b"m" * 100_000 + b"\nsystem\nN\x85R."),
        "refused to load",
    )
    err(19, "a file name with a newline",
        lambda: read_game_named(b"not a pickle", "two\nlines.pso"), "two\\nlines.pso")  # fmt: skip

    # 20: strength's cache, and the wheel's tables
    for damage in ("null", "[]", "{}", "{not json", "", "\x00" * 100):
        ok(20, f"a strength cache of {damage[:10]!r}", damaged_cache(damage), timeout=120)

    def wheel_as_clone() -> object:
        import pandas as pd

        import bakers_lab as bl
        from bakers_lab.files.datadir import ENV, shipped_table

        games = pd.DataFrame({"deal": [1, 4], "variant": "bakers_dozen", "won": [True, False]})
        kw = {"cache": tmpdir("wheel"), "n_jobs": 1, "progress": False}
        clone = bl.strength(games, **kw)
        os.environ[ENV] = str(shipped_table())
        try:
            wheel = bl.strength(games, **kw)
        finally:
            del os.environ[ENV]
        return (clone.played_now == wheel.played_now == 0 and clone.rates.equals(wheel.rates)
                and (wheel.paired["n"] == 2).all())  # fmt: skip

    ok(20, "a wheel's strength reads the shipped tables as a clone's", wheel_as_clone, timeout=120)


def read_game_named(data: bytes, name: str) -> object:
    import bakers_lab as bl

    return bl.read_pysol_game(pysol_file(data, name))


# -- the worker and its driver -----------------------------------------------------------


def worker() -> None:
    import resource

    limit = 6 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    build_cases()
    print("ready", flush=True)
    for line in sys.stdin:
        index = int(line)
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            good, why = judge(CASES[index])
        sys.stdout.write(json.dumps([index, good, why, time.perf_counter() - t0]) + "\n")
        sys.stdout.flush()


class Driver:
    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit("the audit's worker did not start")

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def run(self, index: int, timeout: float) -> tuple[bool, str, float]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{index}\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            died = self.proc.poll()
            self.stop()
            return (
                False,
                ("the worker died" if died is not None else f"hang: over {timeout:g} s"),
                timeout,
            )
        _, good, why, seconds = json.loads(line)
        return good, why, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failure")
    parser.add_argument("--only", type=int, action="append", help="run only this class")
    parser.add_argument("--json", metavar="FILE", help="write every case's verdict to FILE")
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    build_cases()
    driver = Driver()
    verdicts = []
    t0 = time.perf_counter()
    try:
        for index, case in enumerate(CASES):
            if args.only and case.cls not in args.only:
                continue
            good, why, seconds = driver.run(index, case.timeout)
            verdicts.append({"class": case.cls, "case": case.label, "clean": good, "why": why,
                             "seconds": round(seconds, 2)})  # fmt: skip
            if args.verbose and not good:
                print(f"FAIL [{case.cls}] {case.label}: {why}", flush=True)
    finally:
        driver.stop()
        shutil.rmtree(_TMP, ignore_errors=True)
    print(f"\n{'class':<38} {'cases':>5} {'clean':>5} {'failed':>6}")
    total = clean = 0
    for cls, name in CLASSES.items():
        mine = [v for v in verdicts if v["class"] == cls]
        if not mine:
            continue
        good = sum(v["clean"] for v in mine)
        total += len(mine)
        clean += good
        print(f"{cls:>2}. {name:<34} {len(mine):>5} {good:>5} {len(mine) - good:>6}")
    print(f"{'all':<38} {total:>5} {clean:>5} {total - clean:>6}   "
          f"({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(verdicts, indent=1), encoding="utf-8")
    return 0 if clean == total else 1


if __name__ == "__main__":
    sys.exit(main())
