"""The web app: one page with a :class:`~bakers_lab.widgets.GameExplorer`, served by Voilà.

``bakers-lab app`` serves :data:`NOTEBOOK` (shipped in the package) on
localhost; Voilà runs the notebook in a kernel of its own for each visitor and
shows its Markdown and widgets, never its code.

>>> NOTEBOOK.name, NOTEBOOK.is_file()
('app.ipynb', True)
>>> command = voila_command(8866, browser=False)
>>> command[3] == str(NOTEBOOK), "--port=8866" in command, command[-1]
(True, True, '--no-browser')
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

__all__ = ["NOTEBOOK", "missing", "url", "voila_command"]

#: The app's notebook: a title, a few lines of explanation and one GameExplorer.
NOTEBOOK = Path(__file__).with_name("app.ipynb")


def missing() -> list[str]:
    """The packages the app needs that are not installed (empty when it can run)."""
    return [name for name in ("voila", "ipywidgets") if importlib.util.find_spec(name) is None]


def url(port: int) -> str:
    """The address the app is served on."""
    return f"http://127.0.0.1:{port}/"


def voila_command(port: int, *, browser: bool) -> list[str]:
    """The command that serves the app on localhost ``port`` (code cells hidden, as
    is Voilà's default); with ``browser``, Voilà opens the page once it is up."""
    command = [
        sys.executable,
        "-m",
        "voila",
        str(NOTEBOOK),
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",  # the address printed is the address served
        "--Voila.log_level=ERROR",
    ]
    return command if browser else [*command, "--no-browser"]
