"""Notebooks are kept without outputs: in the repository and in the wheel.

``python .ci/clean_notebooks.py``: exit 1 naming each notebook (in ``notebooks/`` and
the package) that holds outputs or execution counts, as a run in JupyterLab (``make
lab``) leaves them; ``--fix``: clear them in place (what ``make clean-notebooks`` runs).
``make lint`` and ``make wheel`` run the check, so no output reaches a commit or the
wheel unseen.  JSON only: nothing in a notebook is run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The notebooks kept clean: the ones in notebooks/ and the package's own.
FOLDERS = (
    ROOT / "notebooks",
    ROOT / "bakers_lab" / "teach",
    ROOT / "bakers_lab" / "display" / "app",
)


def dirty(nb: dict) -> int:
    """How many code cells of ``nb`` hold outputs or an execution count."""
    return sum(
        1
        for c in nb.get("cells", [])
        if c.get("cell_type") == "code" and (c.get("outputs") or c.get("execution_count"))
    )


def clear(nb: dict) -> dict:
    """``nb`` with every code cell's outputs and execution count cleared."""
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            c["outputs"], c["execution_count"] = [], None
    return nb


def main(argv: list[str]) -> int:
    fix = argv == ["--fix"]
    if argv and not fix:
        print("usage: python .ci/clean_notebooks.py [--fix]", file=sys.stderr)
        return 2
    found = []
    for folder in FOLDERS:
        for path in sorted(folder.glob("*.ipynb")):
            nb = json.loads(path.read_text(encoding="utf-8"))
            n = dirty(nb)
            if not n:
                continue
            if fix:
                text = json.dumps(clear(nb), indent=1, ensure_ascii=False) + "\n"
                path.write_text(text, encoding="utf-8")
                print(f"cleared {n} cells of {path.relative_to(ROOT)}")
            else:
                found.append(f"{path.relative_to(ROOT)}: {n} code cells hold outputs of a run")
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(
            "notebooks are kept without outputs: make clean-notebooks clears them", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
