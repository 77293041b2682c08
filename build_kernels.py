"""Compile the searches ahead of time, into ``bakers_lab/solve/_compiled``.

    python build_kernels.py              # the module, beside the kernels
    python build_kernels.py --if-stale   # only if it was built from other text (make kernels)
    pip install . / python -m build  # setup.py adds it to the wheel (extension())

The entry points :data:`bakers_lab.solve.kernels.EXPORTS` names are compiled by
numba's ahead-of-time compiler (``numba.pycc``) with the types given there into
one extension module, with a function ``source_digest()`` that says which text
of the kernels it was built from (:func:`bakers_lab.solve.kernels.source_digest`).
The module loads without numba or llvmlite and runs the same machine code numba
compiles at first use, for a generic CPU of the platform (the wheel runs on any).

Why ``numba.pycc`` and not C or Cython: the kernels are numba code, tested and
measured as such for two years; compiling that code keeps one source for both
paths (the compiled module and numba's own compile where no module fits), where
a port to C would be a second implementation to keep equal.  ``numba.pycc`` is
"pending deprecation" since numba 0.57 but still ships (0.68) until its
successor is ready (numba issue 8509); the build needs numba, the installed
package does not.  Two things it lacks are added here: the compiled functions
let go of the GIL as ``nogil=True`` asks (numba's own flag, which pycc leaves
unset, so that a search in a thread does not hold up Ctrl-C or a page), and the
numba cache of the build goes to a folder of its own (not the source tree's).
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SOLVE = ROOT / "bakers_lab" / "solve"
NAME = "bakers_lab.solve._compiled"


def _kernels() -> Any:
    """``bakers_lab.solve.kernels``, imported without the package's own
    ``__init__`` (which needs the runtime dependencies a build may not have)."""
    for name, path in (("bakers_lab", ROOT / "bakers_lab"), ("bakers_lab.solve", SOLVE)):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [str(path)]
            sys.modules[name] = package
    os.environ["BAKERS_LAB_JIT"] = "1"  # (the kernels' own functions, not an older module)
    return importlib.import_module("bakers_lab.solve.kernels")


def _numba_type(token: str, records: dict[str, Any]) -> Any:
    from numba import types as nt

    scalars = {"i8": nt.int64, "u8": nt.uint64, "u1": nt.uint8, "b1": nt.boolean, "none": nt.none}
    if token in scalars:
        return scalars[token]
    if token in records:
        return records[token]
    if token.startswith("("):
        return nt.Tuple([_numba_type(t, records) for t in token[1:-1].split()])
    ndim = 2 if "," in token else 1
    return nt.Array(scalars[token[:2]], ndim, "C", readonly=token.endswith("r"))


def compiler(output_dir: Path = SOLVE) -> Any:
    """numba's ``CC`` with every entry point of the kernels exported, and
    ``source_digest``: ``.compile()`` writes the module into ``output_dir``,
    ``.distutils_extension()`` gives it to setuptools."""
    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="bakers-lab-build-"))
    import numba.pycc.compiler as pycc_compiler
    from numba import types as nt
    from numba.pycc import CC

    class _Flags(pycc_compiler.Flags):  # type: ignore[misc,name-defined]
        """pycc's flags, with the GIL let go while a compiled function runs."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc_compiler.Flags = _Flags

    kernels = _kernels()
    codes = importlib.import_module("bakers_lab.solve._codes")
    records: dict[str, Any] = {}
    for token, cls in (("board", codes.Board), ("env", codes.Env), ("lenv", codes.LEnv)):
        fields = [_numba_type(t, records) for t in kernels.RECORDS[token].split()]
        records[token] = nt.NamedTuple(fields, cls)

    cc = CC(NAME.rsplit(".", 1)[1])
    cc.output_dir = str(output_dir)
    cc.verbose = False
    for name, (module, func, args, result) in kernels.EXPORTS.items():
        kernel = getattr(importlib.import_module(f"bakers_lab.solve.{module}"), func)
        signature = _numba_type(result, records)(*[_numba_type(a, records) for a in args.split()])
        cc.export(name, signature)(_calling(kernel, len(args.split())))
    cc.export("source_digest", nt.int64())(_returning(kernels.source_digest(SOLVE)))
    return cc


def _calling(kernel: Any, n: int) -> Any:
    """A function of ``n`` arguments that calls ``kernel`` (numba's function)
    with them: the kernel is compiled as numba compiles it at first use (its
    own options), the exported function only passes the arguments on."""
    params = ", ".join(f"a{i}" for i in range(n))
    scope: dict[str, Any] = {"kernel": kernel}
    exec(f"def call({params}):\n    return kernel({params})\n", scope)
    return scope["call"]


def _returning(value: int) -> Any:
    scope: dict[str, Any] = {}
    exec(f"def source_digest():\n    return {value}\n", scope)
    return scope["source_digest"]


def extension() -> Any:
    """The compiled module as a setuptools extension (``setup.py``)."""
    ext = compiler().distutils_extension()
    ext.name = NAME
    ext.optional = True  # (no C compiler: the package is built without it, numba serves)
    return ext


def built() -> Path | None:
    """The compiled module beside the kernels, if one was built from their
    present text; None when it is missing or was built from other text."""
    import importlib.util

    for path in sorted(SOLVE.glob("_compiled.*")):
        if path.suffix not in (".so", ".pyd"):
            continue
        spec = importlib.util.spec_from_file_location("_compiled", path)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except ImportError:
            continue
        if module.source_digest() == _kernels().source_digest(SOLVE):
            return path
    return None


def main(argv: list[str]) -> int:
    if argv not in ([], ["--if-stale"]):
        print("usage: python build_kernels.py [--if-stale]", file=sys.stderr)
        return 2
    if argv and built() is not None:
        return 0
    start = time.monotonic()
    print("compiling the searches (about two minutes) ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix=".kernels-", dir=SOLVE) as tmp:
        compiler(Path(tmp)).compile()  # (then moved in whole: never half a module)
        for path in Path(tmp).glob("_compiled.*"):
            os.replace(path, SOLVE / path.name)
    print(f"compiled the searches in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
