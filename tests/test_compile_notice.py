"""The first-compile notice: where numba compiles the searches at first use (no
compiled module, or ``BAKERS_LAB_JIT=1``), every command says so before the wait, and
only then; where the package's compiled module serves, nothing needs compiling.

Each test runs a copy of the package in a child process, numba's path forced unless
the test is about the compiled module.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import bakers_lab as bl
from bakers_lab.solve import fast, kernels


def _copy_of_package(tmp_path, *, with_cache: bool, jit: bool = True):
    """A copy of the package in ``tmp_path`` (numba's cache beside it only ``with_cache``;
    the files' times are kept, as numba's index compares them), and the environment
    that runs it: numba's path forced unless not ``jit``."""
    import shutil
    from pathlib import Path

    source = Path(bl.__file__).parent
    ignore = None if with_cache else shutil.ignore_patterns("__pycache__")
    shutil.copytree(source, tmp_path / "bakers_lab", ignore=ignore)
    env = {k: v for k, v in os.environ.items() if k != kernels.FORCE_JIT}
    env["PYTHONPATH"] = str(tmp_path)
    if jit:
        env[kernels.FORCE_JIT] = "1"
    return env


NEEDS = (
    "from bakers_lab.solve.compiled import SEARCHES, needs_compiling, compile_notice; "
    "print([s for s in SEARCHES if needs_compiling(s)]); print(compile_notice('solver'))"
)


def test_a_cold_copy_needs_every_search_compiled_and_says_so(tmp_path):
    env = _copy_of_package(tmp_path, with_cache=False)
    out = subprocess.run(
        [sys.executable, "-c", NEEDS], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "['solver', 'shortest', 'players', 'layered', 'board players', 'search players', "
        "'undo players']",
        "First run on this computer: compiling the solver, about a minute.",
    ]


@pytest.mark.skipif(
    kernels.MODE != "numba",
    reason="numba's cache is warm only where numba serves (make test-numba)",
)
def test_a_warm_cache_needs_nothing_until_the_source_changes(tmp_path):
    bl.solve(1)  # the cache this test copies is written (or loaded)
    bl.shortest(1)
    for p in ("greedy", "search-1", "undo-1"):
        bl.play(1, p)
    bl.prove(5143, probes=False)
    kernels.regrow(np.zeros((4, 2), np.uint64), np.zeros((8, 2), np.uint64))
    start = bl.GameState.from_deal(bl.deal(1))
    kernels.hashes(fast.core_board(start, fast.core_env(start.rules)))
    env = _copy_of_package(tmp_path, with_cache=True)
    run = [sys.executable, "-c", NEEDS]
    out = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.splitlines() == ["[]", ""], out.stderr
    core = tmp_path / "bakers_lab" / "solve" / "_core.py"
    with core.open("a") as f:  # an edited source: numba's index for it is stale now
        f.write("\n# edited\n")
    out = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.splitlines() == [
        "['solver', 'shortest']",
        "First run on this computer: compiling the solver, about a minute.",
    ], out.stderr


def test_the_command_says_before_a_first_compile_that_it_compiles(tmp_path):
    """``bakers-lab shortest 5`` on a cold cache: the notice comes within seconds, long
    before the compile ends (the process is stopped once it has said it)."""
    env = _copy_of_package(tmp_path, with_cache=False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bakers_lab.cli", "shortest", "5"],
        env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    try:
        first = proc.stderr.readline()
        assert proc.poll() is None  # still compiling: the notice came first
    finally:
        proc.kill()  # the process started above, by its handle
        proc.wait()
    assert first == (
        "bakers-lab: First run on this computer: compiling the shortest-win search, "
        "about a minute.\n"
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "1", "--player", "undo-\u0663"], "unknown player 'undo-\u0663'"),
        (["survey", "--deals", "1", "--players", "search-x", "--out", "o"], "unknown player"),
        (["survey", "--deals", "0-5", "--players", "careful", "--out", "o"], "a game number"),
        (["solve", "5", "--variant", "nope"], "unknown variant 'nope'"),
        (["play", "5", "--player", "careful", "--variant", "nope"], "unknown variant"),
        (["explain", "--pysol", "/nonexistent"], "PySolFC file /nonexistent: No such file"),
        (["hint", "4", "--moves", "/nonexistent"], "--moves /nonexistent: No such file"),
    ],
)
def test_a_cold_copy_refuses_bad_input_before_it_speaks_of_compiling(tmp_path, args, said):
    """Everything is checked before anything is said: no first-compile notice for a
    command that is refused."""
    env = _copy_of_package(tmp_path, with_cache=False)
    out = subprocess.run(
        [sys.executable, "-m", "bakers_lab.cli", *args],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    lines = out.stderr.splitlines()
    assert (out.returncode, len(lines)) == (2, 1), out.stderr
    assert lines[0].startswith(f"bakers-lab: error: {said}")
    assert not (tmp_path / "o").exists()


def test_where_the_compiled_module_serves_nothing_needs_compiling(tmp_path):
    env = _copy_of_package(tmp_path, with_cache=False, jit=False)
    if not any((tmp_path / "bakers_lab" / "solve").glob("_compiled.*")):
        pytest.skip("no compiled module was built here (make kernels)")
    out = subprocess.run(
        [sys.executable, "-c", NEEDS], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert out.stdout.splitlines() == ["[]", ""], out.stderr
