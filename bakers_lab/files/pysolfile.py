"""Safe unpickling of PySolFC's files: an allow-list, and nothing from the file runs.

PySolFC writes its saved games and its statistics as Python pickles.  A pickle
can name any importable function and have it called (``os.system``,
``builtins.eval``), so a file is never given to :func:`pickle.load`.  The
:class:`SafeUnpickler` here answers only the exact (module, name) pairs that
PySolFC's own files hold, each with a small class of this module that stores
the fields and runs nothing; any other name is refused, in one line naming it,
when the pickle asks for it, before any object is built.  pysollib is never
imported.

>>> import io, pickle
>>> class Evil:
...     def __reduce__(self):
...         import os
...         return (os.system, ("echo hacked",))
>>> loads_all(pickle.dumps(Evil()), "evil.pso")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bakers_lab.files.pysolfile.PysolFileError: evil.pso: refused to load posix.system: ...
"""

from __future__ import annotations

import io
import os
import pickle
from typing import Any

from bakers_lab.files.picklescan import TRUNCATED, PickleBudgetError, scan
from bakers_lab.files.userfile import read_user_file
from bakers_lab.utils.validate import shown

__all__ = [
    "MAX_FILE_BYTES",
    "Loaded",
    "PysolFileError",
    "SafeUnpickler",
    "load_all",
    "loads_all",
]

#: The largest PySolFC file read (64 MiB): a statistics file of 100,000 games is about 7 MiB.
MAX_FILE_BYTES = 64 * 1024 * 1024
_SMALLER = "a PySolFC save or statistics file is far smaller"


class PysolFileError(ValueError):
    """A PySolFC file that cannot be read: the message names the file and why."""


class Loaded:
    """One object of a PySolFC class, as data: its class's name and its fields.

    Nothing of PySolFC's class runs: ``fields`` is the dict the pickle held.
    """

    pysol_name = "?"

    def __init__(self, *args: object) -> None:
        self.fields: dict[str, Any] = {}

    def __setstate__(self, state: object) -> None:
        if isinstance(state, tuple) and len(state) == 2 and state[0] is None:
            state = state[1]  # (None, slots) from a __slots__ class
        if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
            raise pickle.UnpicklingError(f"{self.pysol_name} holds no field dict")
        self.fields = dict(state)

    def get(self, name: str, default: Any = None) -> Any:
        """A field's value, or ``default``."""
        return self.__dict__.get("fields", {}).get(name, default)

    def __repr__(self) -> str:
        return f"<{self.pysol_name} {sorted(self.__dict__.get('fields', {}))}>"


def _loaded(module: str, name: str) -> type[Loaded]:
    return type(name, (Loaded,), {"pysol_name": f"{module}.{name}"})


class MTRandomState(Loaded):
    """PySolFC's Mersenne Twister generator (``pysol_cards.random.MTRandom``), as data.

    Its pickled state holds ``getattr(itself, "seed")`` (a bound method, in
    PySolFC's own files); :func:`_safe_getattr` answers only that.
    """

    pysol_name = "pysol_cards.random.MTRandom"

    def __setstate__(self, state: object) -> None:
        self.fields = {"state": state}


def _safe_getattr(obj: object, name: object) -> object:
    """``builtins.getattr`` as PySolFC's files use it: the ``seed`` of an MTRandom, nothing else."""
    if isinstance(obj, MTRandomState) and name == "seed":
        return None
    raise pickle.UnpicklingError(f"refused builtins.getattr on {type(obj).__name__}, {name!r}")


class _Getattr:
    """``builtins.getattr`` as a file may name it: :func:`_safe_getattr`, with no state a
    file can change (``BUILD`` on it is refused; the function itself had a ``__dict__``
    that a file's ``BUILD`` wrote into for the life of the process)."""

    __slots__ = ()

    def __call__(self, obj: object, name: object) -> object:
        return _safe_getattr(obj, name)

    def __setstate__(self, state: object) -> None:
        raise pickle.UnpicklingError("refused to change builtins.getattr")


def _allowed(module: str, *names: str) -> dict[tuple[str, str], type[Loaded]]:
    """``(module, name)`` → the stand-in class of each of ``names``."""
    return {(module, n): _loaded(module, n) for n in names}


#: The (module, name) pairs a PySolFC save or statistics file holds, and what each becomes.
ALLOWED: dict[tuple[str, str], Any] = {
    **_allowed(
        "pysollib.game",
        "GameSaveInfo",
        "GameGlobalSaveInfo",
        "GameMoves",
        "GameGlobalStatsStruct",
        "GameStatsStruct",
    ),
    **_allowed(
        "pysollib.move",
        "AMoveMove",
        "AFlipMove",
        "ASingleFlipMove",
        "AFlipAndMoveMove",
        "AFlipAllMove",
        "ATurnStackMove",
        "NEW_ATurnStackMove",
        "AUpdateStackMove",
        "ANextRoundMove",
        "ASaveSeedMove",
        "ASaveStateMove",
        "AShuffleStackMove",
        "ASingleCardMove",
        "AInnerMove",
    ),
    **_allowed("pysollib.app_statistics", "Statistics"),
    **_allowed("pysollib.app_stat", "GameStat"),
    **_allowed("pysollib.app_stat_result", "GameStatResult"),
    **_allowed("pysollib.mfxutil", "Struct"),
    ("pysol_cards.random", "MTRandom"): MTRandomState,
    ("builtins", "getattr"): _Getattr(),
}


class SafeUnpickler(pickle.Unpickler):
    """An unpickler that answers only :data:`ALLOWED` names, with this module's classes."""

    def find_class(self, module: str, name: str) -> Any:
        try:
            return ALLOWED[(module, name)]
        except (KeyError, TypeError):
            named = shown(f"{module}.{name}", 80)
            raise pickle.UnpicklingError(
                f"refused to load {named}: it is not one of the names a PySolFC file holds, "
                f"and nothing from the file is run"
            ) from None

    def persistent_load(self, pid: object) -> Any:
        raise pickle.UnpicklingError("refused a persistent id: PySolFC files hold none")


def load_all(path: str | os.PathLike[str]) -> list[Any]:
    """Every object pickled one after another in a PySolFC file, loaded safely.

    The file must be a regular file (a pipe or a device is refused at once) of at
    most :data:`MAX_FILE_BYTES`, as :func:`~bakers_lab.files.userfile.read_user_file`
    reads every file a user names; it is read whole, then unpickled with
    :class:`SafeUnpickler`.
    """
    name = shown(os.fspath(path), 200)  # as read_user_file shows it
    try:
        data = read_user_file(path, "PySolFC file", limit=MAX_FILE_BYTES, expected=_SMALLER)
    except (OSError, ValueError) as e:
        raise PysolFileError(str(e)) from None
    return loads_all(data, name)


def loads_all(data: bytes, name: str = "<bytes>") -> list[Any]:
    """:func:`load_all` on bytes already read; ``name`` is for the messages."""
    if not data:
        raise PysolFileError(f"{name}: the file is empty")
    if data[:1] != b"\x80" and data[:1] not in (b"(", b"]", b"}", b"S", b"V", b"I", b"c"):
        raise PysolFileError(f"{name}: not a PySolFC file (it is not a Python pickle)")
    try:  # its shape, before anything is built
        scan(data, name)
    except PickleBudgetError as e:
        raise PysolFileError(str(e)) from None
    buf = io.BytesIO(data)
    u = SafeUnpickler(buf)
    out: list[Any] = []
    while buf.tell() < len(data):
        try:
            out.append(u.load())
        except pickle.UnpicklingError as e:
            text = str(e)
            if "refused" in text:
                raise PysolFileError(f"{name}: {text}") from None
            if "truncated" in text:
                raise PysolFileError(f"{name}: {TRUNCATED}") from None
            raise PysolFileError(f"{name}: damaged or not a PySolFC file ({text})") from None
        except EOFError:
            raise PysolFileError(f"{name}: {TRUNCATED}") from None
        except RecursionError:
            raise PysolFileError(f"{name}: damaged (nested too deeply)") from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, MemoryError) as e:
            raise PysolFileError(f"{name}: damaged or not a PySolFC file ({e})") from None
    return out
