"""Whether the compiled searches still need compiling on this computer, said before the wait.

Where the package was built with its searches compiled ahead of time (a wheel,
``make venv``: :mod:`.kernels`), nothing needs compiling and nothing here is said.
Otherwise the searches (the solver, A* for the shortest win, the players) are compiled by numba
the first time they run and kept in numba's cache on disk (``cache=True``: the
``__pycache__`` beside each module).  A later process loads them in a second or two;
the first compile takes about a minute.  :func:`compile_notice` says so before it
happens, cheaply: it compiles nothing, it only reads numba's cache index of each
search's entry point.

A search needs compiling when its dispatcher has no compiled signature in this
process and numba's index for it holds no entry for this computer (its CPU, numba's
version) and this code: the index file is missing, was written for another version of
the module's source (numba keeps a SHA-256 of the file's text), another numba, another
CPU, or other bytecode.

>>> needs_compiling("solver") in (True, False)
True
>>> compile_notice("solver") in ("", FIRST_RUN.format(what="the solver", time="about a minute"))
True
>>> needs_compiling("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: search must be one of solver, shortest, players, ..., undo players, not 'chess'
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Iterable
from typing import Any

from bakers_lab.solve import kernels

__all__ = ["FIRST_RUN", "SEARCHES", "compile_notice", "needs_compiling", "player_search"]

#: The words of the notice: ``what`` is compiled, taking ``time``.
FIRST_RUN = "First run on this computer: compiling {what}, {time}."

#: Each search: what it is in words, how long its first compile takes (measured on one
#: core of a laptop), and its compiled entry points (module, function) whose code
#: includes everything they call.
SEARCHES: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "solver": ("the solver", "about a minute", (("_core", "run"),)),
    "shortest": (
        "the shortest-win search",
        "about a minute",
        (("_core", "run"), ("_shortest", "astar"), ("_shortest", "replay")),
    ),
    "players": (
        "the players",
        "about a minute",
        (("_players", "play_board"), ("_planners", "play_search"), ("_planners", "play_undo")),
    ),
    "layered": (
        "the layered search",
        "about half a minute",
        (
            ("_layers", "close"),
            ("_layers", "start_of_search"),
            ("_layers", "layers_of"),
            ("_layers", "regrow"),
            ("_layers", "decode"),
            ("_layers", "hashes"),
        ),
    ),
    "board players": ("the players", "about half a minute", (("_players", "play_board"),)),
    "search players": (
        "the search players",
        "about half a minute",
        (("_planners", "play_search"),),
    ),
    "undo players": ("the undo players", "about half a minute", (("_planners", "play_undo"),)),
}


def player_search(player: str) -> str:
    """The search that plays as ``player`` (a name like ``careful``, ``search-100``,
    ``undo-10``), for :func:`needs_compiling`.

    >>> player_search("careful"), player_search("search-1000"), player_search("undo-10")
    ('board players', 'search players', 'undo players')
    """
    name = str(player)
    if name.startswith("search-"):
        return "search players"
    if name.startswith("undo-"):
        return "undo players"
    return "board players"


def _dispatcher(module: str, name: str) -> Any:
    return getattr(importlib.import_module(f"bakers_lab.solve.{module}"), name)


def _cached(dispatcher: Any) -> bool:
    """True when ``dispatcher`` is compiled in this process, or numba's cache on disk
    holds it for this computer and this code (read as numba reads it, see
    ``numba.core.caching.Cache._index_key``)."""
    if dispatcher.signatures:
        return True
    cache = getattr(dispatcher, "_cache", None)
    index_file = getattr(cache, "_cache_file", None)
    if index_file is None:  # caching off (NUMBA_DISABLE_JIT, or no cache=True)
        return False
    try:
        overloads = index_file._load_index()  # {} when missing or stale (source stamp)
    except Exception:  # an unreadable index: numba compiles again too
        return False
    if not overloads:
        return False
    func = dispatcher.py_func
    code = hashlib.sha256(func.__code__.co_code).hexdigest()
    magic = dispatcher.targetctx.codegen().magic_tuple()  # this CPU, as numba names it
    return any(
        isinstance(key, tuple) and len(key) == 3 and key[1] == magic and key[2][0] == code
        for key in overloads
    )


def _checked(search: str) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    if search not in SEARCHES:
        raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
    return SEARCHES[search]


def needs_compiling(search: str) -> bool:
    """True when ``search`` (a key of :data:`SEARCHES`: ``solver``, ``shortest``,
    ``players``, or the players of one kind, see :func:`player_search`) will be
    compiled before it runs: the package's compiled module does not serve
    (:data:`.kernels.MODE`), and it is neither compiled in this process nor in
    numba's cache on disk for this computer.  Compiles nothing (about 10 ms the
    first time, then free)."""
    what = _checked(search)[2]
    if kernels.MODE != "numba":  # compiled with the package (or no numba: nothing compiles)
        return False
    return not all(_cached(_dispatcher(m, f)) for m, f in what)


def compile_notice(*searches: str) -> str:
    """What to tell a person before running ``searches`` (default: the solver): the
    first-compile notice (:data:`FIRST_RUN`) of the first one that needs compiling,
    or ``""`` when they are all ready.

    >>> import bakers_lab as bl
    >>> _ = bl.solve(1)    # compiled now (or loaded from the cache)
    >>> compile_notice("solver")
    ''
    """
    names: Iterable[str] = searches or ("solver",)
    todo = [s for s in names if needs_compiling(s)]
    if not todo:
        return ""
    wants = {f for s in todo for f in _checked(s)[2]}
    what, time = _checked(todo[0])[:2]
    if len(todo) > 1:
        longest = max(todo, key=lambda s: len(_checked(s)[2]))
        what = " and ".join(dict.fromkeys(_checked(s)[0] for s in todo))
        time = "a minute or two" if len(wants) > 2 else _checked(longest)[1]
    return FIRST_RUN.format(what=what, time=time)
