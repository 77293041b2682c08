"""The one build step pyproject.toml cannot say: the searches compiled ahead of time.

setuptools reads everything else from pyproject.toml; this adds the extension module
``bakers_lab.solve._compiled`` that build_kernels.py describes (numba.pycc, about two
minutes), to every wheel and to an editable install (make venv).  Without numba at
build time (an unusual platform building the sdist), or with BAKERS_LAB_NO_KERNELS=1,
the package is built without it and compiles the searches with numba at first use.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def ext_modules() -> list[Any]:
    if os.environ.get("BAKERS_LAB_NO_KERNELS", "") not in ("", "0"):
        return []
    try:
        import build_kernels
    except ImportError as exc:  # (numba missing: the package compiles at first use)
        print(f"setup.py: the searches are not compiled ahead of time: {exc}", file=sys.stderr)
        return []
    return [build_kernels.extension()]


setup(ext_modules=ext_modules())
