"""The compiled searches as the package calls them: built with the package, or
compiled by numba at first use.

The searches' kernels (the solver's depth-first and best-first runs, A* for the
shortest win, the players, the layered search and the dead-end test) are
numba code in the ``_core`` module and its siblings.  When the package is
built (a wheel, ``pip install``, ``make venv``), ``build_kernels.py`` at the
top of the repository compiles the entry points of :data:`EXPORTS` ahead of
time with ``numba.pycc`` into the extension module
``bakers_lab.solve._compiled``: a machine-code library that needs neither
numba nor llvmlite to load (a millisecond) or to run.  The functions here are
its functions, behind a check of every argument's type (a wrong array type
would otherwise crash the process).

Where it cannot serve, each function here is numba's own compiled function
from the kernel module, compiled the first time it runs (about a minute,
said before it happens: :mod:`.compiled`) and then kept in numba's cache:

- no compiled module (a source checkout before set-up, a platform without a
  wheel, numba not installed at build time);
- a compiled module built from other kernel source than the files beside it
  (an edited kernel: ``make kernels`` builds it again);
- ``BAKERS_LAB_JIT=1`` in the environment: numba's path on purpose (the tests
  run the solver's test files both ways, and the benchmarks compare the two).

:data:`MODE` says which serves (``"compiled"``, ``"numba"``, or ``"none"``
where numba is not installed either: then a search raises ImportError saying
how to install it: ModuleNotFoundError), :data:`WHY` why numba serves.  Both paths run the same
code and give the same results, move for move.

>>> MODE in ("compiled", "numba")
True
>>> env = new_env(np.zeros(8, np.int64), *[np.zeros((52, 52), np.uint64)] * 4)
>>> type(env).__name__, env.PAR.shape
('Env', (52,))
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from bakers_lab.solve import _codes

#: (The entry points, :data:`run` to :data:`layers_of`, are this module's attributes
#: too, one per name of :data:`EXPORTS`; they are not in ``__all__``: their text is the
#: kernel's, documented there, whichever path serves.)
__all__ = [
    "EXPORTS",
    "FORCE_JIT",
    "KERNEL_MODULES",
    "MODE",
    "NO_NUMBA",
    "RECORDS",
    "WHY",
    "arg_types",
    "new_env",
    "source_digest",
]

#: The environment variable that makes numba serve (any value but ``""`` and ``"0"``).
FORCE_JIT = "BAKERS_LAB_JIT"

#: The modules whose code the compiled searches are made of: their text, hashed,
#: tells a compiled module built from them (:func:`source_digest`).
KERNEL_MODULES = (
    "_codes",
    "_core",
    "_deadlocks",
    "_hitting",
    "_shortest",
    "_players",
    "_planners",
    "_layers",
)

#: Each entry point: (kernel module, function there, argument types, result type).
#: Types in numba's short words: ``i8`` int64, ``u8`` uint64, ``u1`` uint8, ``b1``
#: bool; ``[::1]`` and ``[:,::1]`` C-ordered arrays of one and two dimensions, ``r``
#: after one read-only; ``board``, ``env`` and ``lenv`` the records of
#: :mod:`._codes` (:data:`RECORDS`); a result in parentheses is a tuple.
EXPORTS: dict[str, tuple[str, str, str, str]] = {
    "run": (
        "_core",
        "run",
        "i8 i8[:,::1] i8[::1] i8[:,::1] i8[::1] env i8 i8 i8 i8 i8 i8[:,::1] i8[::1]",
        "(i8 i8 i8 i8)",
    ),
    "fill_env": ("_core", "fill_env", "i8[::1] u8[::1] u8[::1]", "none"),
    "init_board": ("_core", "init_board", "board env", "none"),
    "autoplay": ("_core", "autoplay", "board env i8[:,::1] i8", "i8"),
    "is_lost": ("_core", "is_lost", "board env b1 b1", "b1"),
    "astar": (
        "_shortest",
        "astar",
        "board env i8 i8 i8 i8[:,::1] i8 i8[::1]",
        "(i8 i8 i8 i8 i8[::1] i8)",
    ),
    "replay": ("_shortest", "replay", "board env i8[::1] i8[:,::1]", "i8"),
    "full_bound": ("_shortest", "full_bound", "board env u8[::1] i8", "i8"),
    "play_board": (
        "_players",
        "play_board",
        "board env i8 i8 i8[::1] i8 i8 i8 i8[:,::1] i8 i8 i8[::1]",
        "(i8 i8 i8 i8)",
    ),
    "play_search": (
        "_planners",
        "play_search",
        "board env i8 i8[::1] i8 i8 i8 i8[:,::1] i8 i8 i8 i8[::1]",
        "(i8 i8 i8 i8)",
    ),
    "play_undo": (
        "_planners",
        "play_undo",
        "board env i8 i8[::1] i8 i8 i8 i8 i8 i8[:,::1] i8 i8 i8[::1]",
        "(i8 i8 i8 i8 i8)",
    ),
    "start_of_search": (
        "_layers",
        "start_of_search",
        "board env lenv i8[:,::1] i8[::1] u1[:,::1]",
        "(i8 i8 b1)",
    ),
    "close": (
        "_layers",
        "close",
        "board env lenv i8 u1[:,::1] i8[::1] i8[::1] i8[::1] u8[:,::1] u8[:,::1] i8[:,::1]"
        " i8[:,::1] i8[::1] i8[::1] i8[::1] i8[:,::1] i8[::1] u1[:,::1] i8[::1] i8[::1] u8[::1]"
        " i8",
        "i8",
    ),
    "regrow": ("_layers", "regrow", "u8[:,::1] u8[:,::1]", "none"),
    "decode": (
        "_layers",
        "decode",
        "board env lenv i8 u1[:,::1] i8 i8[::1] i8[::1]",
        "none",
    ),
    "hashes": ("_layers", "hashes", "board", "(u8 u8)"),
    "layers_of": ("_layers", "layers_of", "lenv i8[::1] i8[::1]", "none"),
}

#: The fields of the records, in order, as argument types.
RECORDS: dict[str, str] = {
    "board": "i8[:,::1] i8[::1] i8[:,::1] i8[::1] i8[::1] i8[::1] u8[::1] u8[::1] u8[::1]"
    " u8[::1] u8[::1] i8[::1] i8[:,::1] i8[::1] i8[::1] i8[::1]",
    "env": "i8[::1] u8[:,::1]r u8[:,::1]r u8[:,::1]r u8[:,::1]r u8[::1] u8[::1]",
    "lenv": "i8[:,::1] i8[::1] i8[::1] i8[::1] i8[::1] i8[::1]",
}
assert len(RECORDS["board"].split()) == len(_codes.Board._fields)
assert len(RECORDS["env"].split()) == len(_codes.Env._fields)
assert len(RECORDS["lenv"].split()) == len(_codes.LEnv._fields)

_FIELDS: dict[str, tuple[str, ...]] = {
    "board": _codes.Board._fields,
    "env": _codes.Env._fields,
    "lenv": _codes.LEnv._fields,
}
_DTYPES = {"i8": np.dtype(np.int64), "u8": np.dtype(np.uint64), "u1": np.dtype(np.uint8)}


def arg_types(types: str) -> list[tuple[str, str]]:
    """Each argument's type in ``types`` (as in :data:`EXPORTS`) and a name for
    it in messages, the records opened up.

    >>> arg_types("i8 env")[:3]
    [('i8', 'argument 1'), ('i8[::1]', 'argument 2 (env.P)'), ('u8[:,::1]r', 'argument 2 (env.Z1)')]
    """
    out = []
    for i, t in enumerate(types.split(), 1):
        if t in RECORDS:
            fields = _FIELDS[t]
            pairs = zip(RECORDS[t].split(), fields, strict=True)
            out += [(f, f"argument {i} ({t}.{n})") for f, n in pairs]
        else:
            out.append((t, f"argument {i}"))
    return out


def _fits(value: Any, t: str) -> bool:
    if t == "b1":
        return isinstance(value, (bool, np.bool_))
    if t == "i8":
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    ndim = 2 if "," in t else 1
    return (
        isinstance(value, np.ndarray)
        and value.dtype == _DTYPES[t[:2]]
        and value.ndim == ndim
        and bool(value.flags.c_contiguous)
        and (t.endswith("r") or bool(value.flags.writeable))
    )


def _checked(name: str, fn: Callable[..., Any], types: str) -> Callable[..., Any]:
    """``fn`` (a compiled module's function, which trusts its arguments' types)
    behind a check of them: TypeError naming the first that does not fit."""
    records = [t in RECORDS for t in types.split()]
    flat = arg_types(types)

    def call(*args: Any) -> Any:
        if len(args) != len(records):
            raise TypeError(f"{name}() takes {len(records)} arguments, not {len(args)}")
        opened: list[Any] = []
        for a, is_record in zip(args, records, strict=True):
            if is_record:
                opened.extend(a)
            else:
                opened.append(a)
        if len(opened) != len(flat):
            raise TypeError(f"{name}(): a record argument has the wrong number of fields")
        for value, (t, where) in zip(opened, flat, strict=True):
            if not _fits(value, t):
                raise TypeError(f"{name}(): {where} must be {t}, not {_described(value)}")
        return fn(*args)

    call.__name__ = name
    call.__doc__ = f"The compiled ``{name}``, its arguments checked (see :data:`EXPORTS`)."
    return call


def _described(value: Any) -> str:
    if isinstance(value, np.ndarray):
        order = "C-ordered" if value.flags.c_contiguous else "not C-ordered"
        return f"a {order} {value.dtype} array of {value.ndim} dimension(s)"
    return type(value).__name__


def source_digest(folder: Path | None = None) -> int:
    """A 63-bit digest of the kernel modules' text (:data:`KERNEL_MODULES` in
    ``folder``, by default this package's): what a compiled module was built
    from, so that one built from other source is not used."""
    where = folder or Path(__file__).parent
    h = hashlib.sha256()
    for name in KERNEL_MODULES:
        h.update((where / f"{name}.py").read_bytes().replace(b"\r\n", b"\n"))
    return int.from_bytes(h.digest()[:8], "little") >> 1


def _compiled_module() -> tuple[ModuleType | None, str]:
    """The compiled module, or None and why numba serves instead."""
    if os.environ.get(FORCE_JIT, "") not in ("", "0"):
        return None, f"{FORCE_JIT} is set"
    try:
        module = importlib.import_module("bakers_lab.solve._compiled")
    except ImportError:
        return None, "no compiled searches were built for this installation"
    try:
        current = module.source_digest() == source_digest()
    except (AttributeError, OSError):
        current = False
    if not current:
        return None, "the compiled searches were built from other source (make kernels)"
    return module, ""


#: What a search says where neither path can serve.
NO_NUMBA = (
    "the searches need numba here ({why}), and numba is not installed: "
    "pip install 'bakers_lab[numba]'"
)


def _missing(name: str, why: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        raise ModuleNotFoundError(NO_NUMBA.format(why=why), name="numba")

    call.__name__ = name
    return call


def _entry_points() -> tuple[dict[str, Callable[..., Any]], str, str]:
    module, why = _compiled_module()
    if module is not None:
        return (
            {name: _checked(name, getattr(module, name), e[2]) for name, e in EXPORTS.items()},
            "compiled",
            "",
        )
    if importlib.util.find_spec("numba") is None:
        return {name: _missing(name, why) for name in EXPORTS}, "none", why
    return (
        {
            name: getattr(importlib.import_module(f"bakers_lab.solve.{e[0]}"), e[1])
            for name, e in EXPORTS.items()
        },
        "numba",
        why,
    )


_ENTRY, MODE, WHY = _entry_points()

#: One search from a position: see :func:`._core.run`.
run = _ENTRY["run"]
#: The doom check's card tables of rules ``P``: see :func:`._core.fill_env`.
fill_env = _ENTRY["fill_env"]
#: Fill a board's derived arrays: see :func:`._core.init_board`.
init_board = _ENTRY["init_board"]
#: The automatic moves home: see :func:`._core.autoplay`.
autoplay = _ENTRY["autoplay"]
#: The dead-end test: see :func:`._core.is_lost`.
is_lost = _ENTRY["is_lost"]
#: A* for the shortest win: see :func:`._shortest.astar`.
astar = _ENTRY["astar"]
#: A line replayed onto a board: see :func:`._shortest.replay`.
replay = _ENTRY["replay"]
#: A*'s bound of a position: see :func:`._shortest.full_bound`.
full_bound = _ENTRY["full_bound"]
#: One game of a board player: see :func:`._players.play_board`.
play_board = _ENTRY["play_board"]
#: One game of a search player: see :func:`._planners.play_search`.
play_search = _ENTRY["play_search"]
#: One game of a player who takes moves back: see :func:`._planners.play_undo`.
play_undo = _ENTRY["play_undo"]
#: The start of a layered search: see :func:`._layers.start_of_search`.
start_of_search = _ENTRY["start_of_search"]
#: A group's search, a step at a time: see :func:`._layers.close`.
close = _ENTRY["close"]
#: A group's table copied into a larger one: see :func:`._layers.regrow`.
regrow = _ENTRY["regrow"]
#: A position row set on a board: see :func:`._layers.decode`.
decode = _ENTRY["decode"]
#: A board's two position hashes: see :func:`._layers.hashes`.
hashes = _ENTRY["hashes"]
#: The layer of each group key: see :func:`._layers.layers_of`.
layers_of = _ENTRY["layers_of"]

#: A board record around the given stacks (its derived arrays zero: :func:`init_board`).
new_board = _codes.new_board
#: The fixed tables of a layered search.
new_lenv = _codes.new_lenv


def new_env(P: np.ndarray, Z1: np.ndarray, Z2: np.ndarray, ZP1: np.ndarray, ZP2: np.ndarray) -> Any:
    """The :data:`._codes.Env` of rules ``P`` (int64) with the Zobrist tables
    given, and the doom check's card tables filled (``fill_env``)."""
    par = np.zeros(52, np.uint64)
    home = np.zeros(52, np.uint64)
    fill_env(P, par, home)
    return _codes.Env(P, Z1, Z2, ZP1, ZP2, par, home)
