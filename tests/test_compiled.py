"""The searches compiled with the package (bakers_lab.solve._compiled) and numba's own
compile at first use: the same answers, move for move, and the compiled module guarded.

The other path runs in a child process (the path is chosen when the package is
imported): numba here and the compiled module there, where the tests run with
``BAKERS_LAB_JIT=1`` (``make test-numba``, as CI runs the solver's test files a
second time, numba's cache warmed first); ``make test`` leaves the comparison to it,
which would otherwise compile every search with numba on a fresh clone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

import bakers_lab as bl
from bakers_lab.model.rules import PRESETS
from bakers_lab.solve import fast, kernels

#: The deals of the comparison: 120 of Baker's Dozen and 40 of every other preset,
#: each solved with a budget that leaves some unresolved (the node counts must agree
#: on those too); five games of each player and four shortest wins (or proofs of none).
WORK = textwrap.dedent(
    """
    import json, sys
    import bakers_lab as bl
    from bakers_lab.model.rules import PRESETS
    from bakers_lab.solve import kernels
    out = {"mode": kernels.MODE, "solve": [], "play": [], "shortest": []}
    for v in PRESETS:
        for d in range(1, 121 if v == "bakers_dozen" else 41):
            r = bl.solve(d, variant=v, max_nodes=30_000)
            out["solve"].append([v, d, r.outcome, r.proof, r.nodes, [str(m) for m in r.moves]])
    for d in range(1, 6):
        for p in ("random", "greedy", "careful", "search-10", "undo-2"):
            g = bl.play(d, p)
            out["play"].append([p, d, g.outcome, [str(m) for m in g.moves]])
    for v, d in (("bakers_dozen", 1), ("bakers_dozen", 2), ("bakers_dozen", 5),
                 ("good_measure", 1)):
        s = bl.shortest(d, variant=v)
        out["shortest"].append([v, d, s.outcome, s.nodes, [str(m) for m in s.moves]])
    json.dump(out, sys.stdout)
    """
)


def _run(jit: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != kernels.FORCE_JIT}
    if jit:
        env[kernels.FORCE_JIT] = "1"
    out = subprocess.run(
        [sys.executable, "-c", WORK], env=env, capture_output=True, text=True, timeout=1800
    )
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


@pytest.mark.skipif(
    kernels.MODE != "numba",
    reason="compared where numba serves, its cache warm (make test-numba, which CI runs)",
)
def test_both_paths_give_the_same_answers_move_for_move():
    here = _run(jit=kernels.MODE == "numba")
    there = _run(jit=kernels.MODE != "numba")
    assert {here["mode"], there["mode"]} == {"compiled", "numba"}
    assert len(here["solve"]) == 120 + 40 * (len(PRESETS) - 1)
    outcomes = {row[2] for row in here["solve"]}
    assert {"solved", "unsolvable", "unresolved"} <= outcomes  # every kind compared
    for key in ("solve", "play", "shortest"):
        for a, b in zip(here[key], there[key], strict=True):
            assert a == b


@pytest.mark.skipif(kernels.MODE != "compiled", reason=f"numba serves: {kernels.WHY}")
def test_the_compiled_module_checks_every_argument():
    env = fast.core_env(PRESETS["bakers_dozen"])
    board = fast.core_board(bl.GameState.from_deal(bl.deal(1)), env)
    trail = np.zeros((200, 8), np.int64)
    assert kernels.autoplay(board, env, trail, 0) >= 0
    with pytest.raises(TypeError, match=r"^is_lost\(\): argument 3 must be b1, not int$"):
        kernels.is_lost(board, env, 1, True)
    with pytest.raises(
        TypeError,
        match=r"^autoplay\(\): argument 3 must be i8\[:,::1\], "
        r"not a C-ordered int32 array of 2 dimension\(s\)$",
    ):
        kernels.autoplay(board, env, trail.astype(np.int32), 0)
    with pytest.raises(TypeError, match=r"argument 1 \(board.lens\) must be i8\[::1\]"):
        kernels.init_board(board._replace(lens=board.lens[::2]), env)
    with pytest.raises(TypeError, match=r"^init_board\(\) takes 2 arguments, not 1$"):
        kernels.init_board(board)
    frozen = trail.copy()
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match=r"argument 3 must be i8\[:,::1\]"):
        kernels.autoplay(board, env, frozen, 0)


def test_a_module_built_from_other_source_is_not_used(tmp_path):
    """An edited kernel with the old module beside it: numba serves, saying why."""
    import shutil
    from pathlib import Path

    source = Path(bl.__file__).parent
    shutil.copytree(source, tmp_path / "bakers_lab", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from bakers_lab.solve import kernels; print(kernels.MODE, '|', kernels.WHY)"
    env = {k: v for k, v in os.environ.items() if k != kernels.FORCE_JIT}
    env["PYTHONPATH"] = str(tmp_path)
    run = [sys.executable, "-c", code]
    built = any((tmp_path / "bakers_lab" / "solve").glob("_compiled.*"))
    first = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
    if built:
        assert first.stdout.strip() == "compiled |"
    else:
        assert first.stdout.strip() == (
            "numba | no compiled searches were built for this installation"
        )
    with (tmp_path / "bakers_lab" / "solve" / "_core.py").open("a") as f:
        f.write("\n# edited\n")
    second = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
    if built:
        assert second.stdout.strip() == (
            "numba | the compiled searches were built from other source (make kernels)"
        )
    env[kernels.FORCE_JIT] = "1"
    third = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
    assert third.stdout.strip() == "numba | BAKERS_LAB_JIT is set"
