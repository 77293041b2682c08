"""The manual's pages that are made from the code, written into ``docs/_generated/`` when
the build starts (never by hand, never committed):

- ``api/``: one page per public module, documenting each name of its ``__all__`` once,
  where it is defined (a name a package or ``bakers_lab`` re-exports links to that page),
  and ``api/index.rst``, the ``bl`` namespace: every name of ``bakers_lab.__all__``;
- ``presets.md``: the rule presets, from :data:`bakers_lab.PRESETS`;
- ``claims.md``: the rule texts' claims against the shipped surveys, as
  ``bakers-lab claims --markdown`` prints them;
- ``notebooks/``: the notebooks, with the small parameters they run with here.

It also lets a reference to a re-exported name (``bakers_lab.strength``, as the
docstrings write it) find the page where the name is documented.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.util
import inspect
import json
import pkgutil
import re
import subprocess
import sys
import types
from dataclasses import fields
from pathlib import Path
from typing import Any

from docutils import nodes
from jupyter_cache import get_cache
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util.parallel import make_chunks

import bakers_lab

DOCS = Path(__file__).resolve().parents[1]
OUT = DOCS / "_generated"
ROOT = DOCS.parent

#: The notebooks' parameters for the manual are the small ones the tests run them with
#: (tests/notebook_parameters.py): the build stays within minutes (the notebooks' own
#: parameters are for a person's run).  The exercises notebook is shown as a student gets
#: it, not run: its stubs raise NotImplementedError until the student writes them.
NOT_RUN = {"05_exercises.ipynb"}


# --- the public names -----------------------------------------------------------------


@functools.cache
def public_modules() -> list[types.ModuleType]:
    """Every module of the package with an ``__all__`` and no ``_private`` part in its
    name, ``bakers_lab`` itself first."""
    found = [bakers_lab]
    for info in pkgutil.walk_packages(bakers_lab.__path__, "bakers_lab."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if getattr(module, "__all__", None) is not None:
            found.append(module)
    return found


def _key(name: str, value: object) -> tuple[str, int]:
    return (name, id(value))


def _defines(module: types.ModuleType, name: str, value: object) -> bool:
    """Whether ``module`` is where ``value`` was made (a class or function), or, for
    data, where the name is assigned."""
    if inspect.isclass(value) or inspect.isroutine(value):
        return getattr(value, "__module__", None) == module.__name__
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return False
    return any(line.startswith((f"{name} =", f"{name}: ")) for line in source.splitlines())


@functools.cache
def homes() -> dict[tuple[str, int], str]:
    """Where each public name is documented: ``(name, id(object))`` to the module.

    A name is documented once: in the module that defines it when that module lists it
    in its ``__all__``, otherwise in the deepest public module that lists it (a private
    module's names are documented where a public one exports them)."""
    modules = public_modules()
    home: dict[tuple[str, int], str] = {}
    for module in sorted(modules, key=lambda m: -m.__name__.count(".")):
        for name in module.__all__:
            value = getattr(module, name)
            key = _key(name, value)
            if key not in home or _defines(module, name, value):
                home[key] = module.__name__
    return home


def _kind(value: object) -> str:
    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isroutine(value):
        return "function"
    return "data"


def _summary(value: object) -> str:
    if _kind(value) == "data":
        return ""
    doc = inspect.getdoc(value) or ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    # the names it refers to, as literal text: the summary stands outside its module
    return re.sub(r":\w+:`~?(?:[^`<]*<)?([^`>]+)>?`", lambda m: f"``{m.group(1)}``", first)


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def _directive(module: str, name: str, value: object) -> str:
    """The autodoc directive of one name: every name listed is documented, with or
    without a docstring, classes with their members."""
    kind = _kind(value)
    directive = {"class": "autoclass", "exception": "autoexception"}.get(
        kind, "autofunction" if kind == "function" else "autodata"
    )
    lines = [f".. {directive}:: {module}.{name}"]
    if kind in ("class", "exception"):
        lines += ["   :members:", "   :undoc-members:", "   :show-inheritance:"]
    elif directive == "autodata" and str(ROOT) in repr(value):
        lines.append("   :no-value:")  # a path on the machine that built the manual
    return "\n".join(lines) + "\n"


def _module_page(module: types.ModuleType, home: dict[tuple[str, int], str]) -> str:
    name = module.__name__
    own = [n for n in module.__all__ if home[_key(n, getattr(module, n))] == name]
    elsewhere = [n for n in module.__all__ if n not in own]
    lines = [_title(name), f".. automodule:: {name}\n"]
    lines += [_directive(name, n, getattr(module, n)) for n in own]
    if elsewhere:
        lines.append(".. rubric:: Also here, documented where they are defined\n")
        lines.append(".. list-table::\n   :widths: 30 70\n")
        for n in elsewhere:
            where = home[_key(n, getattr(module, n))]
            role = _role(getattr(module, n))
            lines.append(f"   * - :{role}:`{n} <{where}.{n}>`")
            lines.append(f"     - from ``{where}``")
        lines.append("")
    return "\n".join(lines)


def _role(value: object) -> str:
    return {"class": "class", "exception": "exc", "function": "func", "data": "data"}[_kind(value)]


def _namespace_page(home: dict[tuple[str, int], str]) -> str:
    lines = [
        _title("The ``bl`` namespace"),
        "``import bakers_lab as bl`` gives the names below: the toolkit's public API.  Each",
        "links to its page in the module that defines it.  The modules list the rest.\n",
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 25 75\n",
        "   * - name",
        "     - what it is",
    ]
    for n in sorted(bakers_lab.__all__, key=str.lower):
        value = getattr(bakers_lab, n)
        where = home[_key(n, value)]
        summary = _summary(value) or f"from ``{where}``"
        lines.append(f"   * - :{_role(value)}:`bl.{n} <{where}.{n}>`")
        lines.append(f"     - {summary}")
    return "\n".join(lines) + "\n"


def write_api() -> None:
    home = homes()
    folder = OUT / "api"
    folder.mkdir(parents=True, exist_ok=True)
    modules = public_modules()
    _write(folder / "bakers_lab.rst", _namespace_page(home))
    for module in modules[1:]:
        _write(folder / f"{module.__name__}.rst", _module_page(module, home))
    toc = "\n".join(f"   {m.__name__}" for m in modules[1:])
    _write(
        folder / "index.rst",
        _title("API reference")
        + "\nEvery public name of the package, with its signature, docstring and examples,"
        "\ngenerated from the code.  Start with the ``bl`` namespace; the modules follow"
        "\nthe package's layers.\n\n.. toctree::\n   :maxdepth: 1\n\n   bakers_lab\n" + toc + "\n",
    )


# --- presets, claims, notebooks ---------------------------------------------------------


def write_presets() -> None:
    from bakers_lab.model.rules import Rules, rules, title, variant_names

    columns = [f.name for f in fields(Rules) if f.name != "name"]
    head = "| preset | name | " + " | ".join(f"`{c}`" for c in columns) + " |"
    rows = [head, "|" + "---|" * (len(columns) + 2)]
    for name in variant_names():
        r = rules(name)
        cells = ["—" if getattr(r, c) is None else f"`{getattr(r, c)}`" for c in columns]
        rows.append(f"| `{name}` | {title(r)} | " + " | ".join(cells) + " |")
    text = (
        "# The rule presets\n\n"
        "Every preset `bl.rules(name)` gives, as the code defines it (this table is made "
        "from `bakers_lab.PRESETS` when the manual is built). What each field means: "
        "{class}`bakers_lab.model.rules.Rules`; the rules in words: [](../rules.md).\n\n"
        + "\n".join(rows)
        + "\n"
    )
    _write(OUT / "presets.md", text)


def write_claims() -> None:
    from bakers_lab.files.datadir import shipped_table
    from bakers_lab.study.claims import claims_table, format_claims

    # from the compact table the package ships: the same claims as data/ gives
    # (tests/test_packaging.py), read in a second instead of ten
    table = format_claims(claims_table(shipped_table()), markdown=True)
    text = (
        "# The claims against the data\n\n"
        "The rule texts' claims about Baker's Dozen, each with what the shipped surveys "
        "measure and a verdict: the output of `bakers-lab claims --markdown`, made when the "
        "manual is built. Rates are over resolved deals with 95 % Wilson intervals; "
        "comparisons are paired on the same deal numbers (Newcombe's interval of the "
        "difference, McNemar's exact test). How each claim is located on the players' "
        "dials: [](../method/players.md).\n\n" + table
    )
    _write(OUT / "claims.md", text)


def write_schema() -> None:
    """The survey table's columns as a shipped survey has them on disk, and the deal
    features with their meanings."""
    import pyarrow.parquet as pq

    from bakers_lab.study.features import describe_features

    types: dict[str, str] = {}
    for name in ("bakers_dozen_1-32000", "bakers_dozen_shortest_1-1000"):
        chunk = sorted((ROOT / "data" / name).glob("chunk-*.parquet"))[0]
        schema = pq.read_schema(chunk)
        for column, kind in zip(schema.names, schema.types, strict=True):
            if not column.startswith("f_"):
                types.setdefault(column, str(kind))
    rows = ["| column | type on disk (Parquet) |", "|---|---|"]
    rows += [f"| `{c}` | `{t}` |" for c, t in types.items()]
    features = ["| feature | what it measures |", "|---|---|"]
    features += [f"| `{r.name}` | {r.meaning} |" for r in describe_features().itertuples()]
    text = (
        "# The survey table\n\n"
        "A survey is a folder of Parquet chunks and `_survey.json`, its configuration; "
        "{func}`bakers_lab.read_survey` reads it back, checked, one row per deal, variant "
        "and player. What each column holds, as {mod}`bakers_lab.study.survey` says:\n\n"
        "```{eval-rst}\n.. currentmodule:: bakers_lab.study.survey\n\n"
        ".. automodule:: bakers_lab.study.survey\n   :no-index:\n   :no-members:\n```\n\n"
        "## The columns on disk\n\nAs the shipped surveys of the solver and of `shortest` "
        "have them (read from their first chunks when the manual is built):\n\n"
        + "\n".join(rows)
        + "\n\n## The features of a deal\n\nThe `f_*` columns, from "
        "{func}`bakers_lab.describe_features`:\n\n" + "\n".join(features) + "\n"
    )
    _write(OUT / "schema.md", text)


def write_notebooks() -> None:
    folder = OUT / "notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from notebook_parameters import small_parameters
    finally:
        sys.path.pop(0)
    parameters = small_parameters()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        if path.name in parameters:
            cell = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
            cell["source"] = parameters[path.name]
        if path.name in NOT_RUN:
            nb["metadata"]["mystnb"] = {"execution_mode": "off"}
        nb["metadata"].setdefault("kernelspec", {"name": "python3", "display_name": "Python 3"})
        _write(folder / path.name, json.dumps(nb, indent=1) + "\n")


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file holds it already (Sphinx rebuilds what changed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    write_api()
    write_presets()
    write_claims()
    write_schema()
    write_notebooks()


# --- references to the package's names -------------------------------------------------


@functools.cache
def _aliases() -> dict[str, str]:
    """Every name a public module re-exports: its full name there, to where it is
    documented."""
    home = homes()
    found = {}
    for module in public_modules():
        for name in module.__all__:
            where = home[_key(name, getattr(module, name))]
            if where != module.__name__:
                found[f"{module.__name__}.{name}"] = f"{where}.{name}"
    return found


@functools.cache
def _imports(modname: str) -> dict[str, tuple[str, str]]:
    """What module ``modname`` imports by name (also where only a type checker sees it,
    under ``if TYPE_CHECKING:``): the name to (the module, the name there)."""
    try:
        tree = ast.parse(inspect.getsource(importlib.import_module(modname)))
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, (node.module, alias.name))
    return found


@functools.cache
def _documented(target: str, context: str | None, within_class: bool = False) -> str | None:
    """Where the page of ``target`` is, as a docstring of module ``context`` means it:
    a re-exported name (``bakers_lab.strength``) is documented where it is defined, and a
    bare name (``GameState``, ``GameState.play``) is what the module has under that name,
    as Python would read it."""
    parts = target.split(".")
    aliases = _aliases()
    for i in range(len(parts), 1, -1):
        documented = aliases.get(".".join(parts[:i]))
        if documented is not None:
            return ".".join([documented, *parts[i:]])
    if context is None or not context.startswith("bakers_lab") or within_class:
        return None  # (a method or attribute of the class the docstring is in: Sphinx's)
    if target.startswith("bakers_lab."):
        return None
    head, rest = parts[0], parts[1:]
    value = getattr(importlib.import_module(context), head, None)
    if value is None and head in _imports(context):
        source, name = _imports(context)[head]
        if source.startswith("bakers_lab"):
            value = getattr(importlib.import_module(source), name, None)
    if value is None:
        return None
    if inspect.ismodule(value):
        where = value.__name__
    else:
        home = homes().get(_key(head, value))
        if home is None:
            return None
        where = f"{home}.{head}"
    return ".".join([where, *rest])


def qualify(app: Sphinx, doctree: nodes.document) -> None:
    """Each reference to a bare name in a docstring (``GameState``, ``Report``) made to
    point at the name the docstring's module has under it, before Sphinx looks it up
    anywhere else (where two modules have a ``Report``, the right one)."""
    for node in doctree.findall(pending_xref):
        if node.get("refdomain") != "py":
            continue
        within_class = node.get("reftype") in ("meth", "attr") and bool(node.get("py:class"))
        new = _documented(node["reftarget"], node.get("py:module"), within_class)
        if new is not None and new != node["reftarget"]:
            node["reftarget"] = new
            node["refspecific"] = False


def resolve(app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element) -> Any:
    """A reference Sphinx did not find, found as :func:`_documented` says."""
    if node.get("refdomain") != "py":
        return None
    new = _documented(node["reftarget"], node.get("py:module"))
    if new is None:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], new, node, contnode
    )


@functools.cache
def _outside(target: str, context: str | None) -> bool:
    """Whether ``target`` names something outside the package's public names (the
    standard library, pandas, numpy …, or a ``_private`` name), whose page this manual
    does not have: no warning for it.  Every other name that finds no page is an error."""
    target = target.lstrip("~.")
    if "[" in target or any(part.startswith("_") for part in target.split(".")):
        return True
    head = target.split(".")[0]
    if head == "bakers_lab":
        return False
    if head in {"pd", "np", "t", "plt", "mpl"} or head in sys.stdlib_module_names:
        return True
    if importlib.util.find_spec(head) is not None:
        return True
    if context and context.startswith("bakers_lab"):
        value = getattr(importlib.import_module(context), head, None)
        if value is not None:
            origin = getattr(value, "__module__", None) or getattr(value, "__name__", "")
            return not str(origin).startswith("bakers_lab")
        source = _imports(context).get(head)
        return source is not None and not source[0].startswith("bakers_lab")
    return target in dir(builtins)


def quiet_outside(app: Sphinx, domain: Any, node: pending_xref) -> bool | None:
    if node.get("refdomain") == "py" and _outside(node["reftarget"], node.get("py:module")):
        return True
    return None


# --- the order the pages are read in -------------------------------------------------


def runs_code(env: BuildEnvironment, docname: str) -> bool:
    """Whether reading ``docname`` runs code: a notebook, or a MyST page with a kernel
    (the guides' ``{code-cell}`` examples)."""
    path = Path(env.doc2path(docname))
    if path.suffix == ".ipynb":
        return True
    head = path.read_text(encoding="utf-8")[:1000]
    return head.startswith("---") and "kernelspec:" in head.split("\n---", 1)[0]


def spread_runs(docnames: list[str], running: list[str], nproc: int) -> None:
    """Reorder ``docnames`` (in place) so that the pages that run code (``running``) are
    shared among the ``nproc`` processes Sphinx reads with (``-j``).  Sphinx hands each
    process a batch of consecutive pages; in name order, all the notebooks and guides
    fell into one batch and ran one after the other (2 min 30 s of the build) while the
    other process read the reference pages in seconds.  Here the first batches, which
    the processes start with, each take their share of them (in turn, in name order),
    filled up with pages that run nothing."""
    if nproc <= 1 or len(docnames) <= nproc:
        return
    size = len(make_chunks(docnames, nproc)[0])
    runs = set(running)
    rest = [d for d in docnames if d not in runs]
    order: list[str] = []
    for share in (running[i::nproc] for i in range(nproc)):
        fill = max(0, size - len(share))
        order += share + rest[:fill]
        rest = rest[fill:]
    docnames[:] = order + rest


class Warming:
    """The searches compiled into numba's cache (``tests/warm.py``, one process per
    core) while the build starts, before any page runs code.  On a fresh clone this
    takes a minute and a half; the notebooks' and guides' kernels, started at the same
    time, each compiled the same searches again (a cold build took 5 minutes instead of
    4).  Once the cache is warm it takes two seconds."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, app: Sphinx) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "warm.py")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def wait(self, *args: object) -> None:
        """Wait for the compiling to end; the build fails if it failed."""
        if self.proc is None:
            return
        if self.proc.poll() is None:  # a word on the wait (on a fresh clone, the longest)
            sys.stderr.write(
                "compiling the searches into numba's cache before the pages that run code "
                "(once, about a minute and a half) ...\n"
            )
        _, err = self.proc.communicate()
        if self.proc.returncode != 0:
            raise ExtensionError(f"compiling the searches failed:\n{err.decode()}")
        sys.stderr.write(err.decode())  # how long it took, when it was long
        self.proc = None


def setup(app: Sphinx) -> dict[str, Any]:
    warming = Warming()
    app.connect("builder-inited", warming.start, priority=400)  # before generate
    app.connect("builder-inited", generate)

    def before_reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
        """The pages that run code shared among the processes, once the searches are
        compiled."""
        running = [d for d in docnames if runs_code(env, d)]
        spread_runs(docnames, running, app.parallel)
        if running:
            warming.wait()
            # the execution cache's database made here, once: two reading processes
            # making it at the same time failed the build ("table nbcache already exists")
            get_cache(app.config.nb_execution_cache_path).list_cache_records()

    app.connect("env-before-read-docs", before_reading)
    app.connect("build-finished", warming.wait)
    app.connect("doctree-read", qualify)
    app.connect("missing-reference", resolve)
    app.connect("warn-missing-reference", quiet_outside)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
