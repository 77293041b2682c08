"""The package's architecture, read from its sources: no import cycle between modules, no
private name borrowed across modules, and the layer contract of pyproject.toml enforced by
``lint-imports`` (which ``make lint`` runs): a deliberate upward import breaks it."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bakers_lab"


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(module: str, path: Path) -> list[tuple[str, str | None, int]]:
    """(module imported from, name imported or None, line) for every import in ``path``,
    relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found += [(base, a.name, node.lineno) for a in node.names]
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_another_modules_private_name():
    modules = _modules()
    wrong = []
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for source, name, line in _imports(module, path):
            if not source.startswith("bakers_lab"):
                continue
            if name is not None and f"{source}.{name}" in modules:
                # a module imported by name: a private module only from its own package
                source, name = f"{source}.{name}", None
            if name is not None and _private(name):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name} from {source}")
            parts = source.split(".")
            first = next((i for i, p in enumerate(parts) if _private(p)), None)
            if first is not None:
                owner = ".".join(parts[:first])  # the package a private module belongs to
                if not (package == owner or package.startswith(owner + ".")):
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {source} from outside")
    assert wrong == []


def test_the_check_of_private_names_sees_a_borrowed_name(tmp_path, monkeypatch):
    # the reader above on a module that borrows one: it is found (the test can fail)
    fake = tmp_path / "bakers_lab" / "study" / "borrower.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from bakers_lab.study.skill import _secret\nfrom ._core import x\n")
    found = _imports("bakers_lab.study.borrower", fake)
    assert found == [("bakers_lab.study.skill", "_secret", 1), ("bakers_lab.study._core", "x", 2)]
    assert _private("_secret") and not _private("__all__")


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph.modules):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_modules():
    # imports that run (an import under `if TYPE_CHECKING:` only names a type)
    graph = grimp.build_graph("bakers_lab", exclude_type_checking_imports=True)
    assert len(graph.modules) > 60
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


@pytest.mark.timeout(300)
def test_lint_imports_refuses_an_upward_import(tmp_path):
    # a copy of the package and its contract, with the model made to import the study
    shutil.copytree(PACKAGE, tmp_path / "bakers_lab", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.parquet"))  # fmt: skip
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    lint = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    kept = subprocess.run(lint, cwd=tmp_path, capture_output=True, text=True, timeout=280)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "Contracts: 2 kept, 0 broken." in kept.stdout
    cards = tmp_path / "bakers_lab" / "model" / "cards.py"
    cards.write_text(cards.read_text() + "\nfrom bakers_lab.study import skill  # noqa\n")
    broken = subprocess.run(lint, cwd=tmp_path, capture_output=True, text=True, timeout=280)
    assert broken.returncode == 1
    assert "bakers_lab.model is not allowed to import bakers_lab.study" in broken.stdout
    assert "bakers_lab.model.cards -> bakers_lab.study.skill" in broken.stdout
