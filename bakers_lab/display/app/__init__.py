"""The web app: one page with a :class:`~bakers_lab.display.widgets.GameExplorer`, served by Voilà.

``bakers-lab app`` serves :data:`NOTEBOOK` (shipped in the package) on
localhost; Voilà runs the notebook in a kernel of its own for each visitor and
shows its Markdown and widgets, never its code.

>>> NOTEBOOK.name, NOTEBOOK.is_file()
('app.ipynb', True)
>>> command = voila_command(8866, browser=False)
>>> command[3] == str(NOTEBOOK), "--port=8866" in command, command[-1]
(True, True, '--no-browser')
>>> environment({})["JUPYTER_PATH"] == str(SHARE)
True
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "IDLE_MINUTES",
    "MAX_PAGES",
    "NOTEBOOK",
    "SHARE",
    "environment",
    "missing",
    "url",
    "voila_command",
]

#: The app's notebook: a title, a few lines of explanation and one GameExplorer.
NOTEBOOK = Path(__file__).with_name("app.ipynb")
#: The app's page template (Voilà's "lab" page, served without a CDN).
SHARE = Path(__file__).with_name("share")
#: Pages (kernels) open at once, by default.
MAX_PAGES = 6
#: Minutes a kernel whose page has gone quiet lives on, by default.
IDLE_MINUTES = 5.0
#: Seconds between two looks for idle kernels.
CULL_INTERVAL = 30


def missing() -> list[str]:
    """The packages the app needs that are not installed (empty when it can run)."""
    return [name for name in ("voila", "ipywidgets") if importlib.util.find_spec(name) is None]


def url(port: int) -> str:
    """The address the app is served on."""
    return f"http://127.0.0.1:{port}/"


def voila_command(
    port: int, *, browser: bool, max_pages: int = MAX_PAGES, idle_minutes: float = IDLE_MINUTES
) -> list[str]:
    """The command that serves the app on localhost ``port`` (code cells hidden, as
    is Voilà's default); with ``browser``, Voilà opens the page once it is up.

    Run it with :func:`environment`.  Each open page has a kernel of its own: it
    ends when the page is closed, or ``idle_minutes`` after the page was last
    heard from, and at most ``max_pages`` are alive (see :mod:`.kernels`).

    The server is Voilà started by :mod:`.serve`, which adds what a command line
    cannot say: only this computer's own names are answered, and a page asked for
    by another site gets 403 before a kernel starts.  The page's request to end
    its kernel carries no XSRF token (Voilà's page sets no ``_xsrf`` cookie, so
    Jupyter Server refused it with 403 and every kernel lived on); the check is
    off.  That opens nothing: the server listens on 127.0.0.1 only, every request
    that changes anything names a kernel by its random id, which another site
    cannot know, and the kernels take only the widgets' messages, never code.
    """
    manager = "BoundedKernelManager"
    command = [
        sys.executable,
        "-m",
        "bakers_lab.display.app.serve",  # Voilà, with the settings of .serve
        str(NOTEBOOK),
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",  # the address printed is the address served
        "--Voila.log_level=ERROR",
        "--template=bakers",  # share/voila/templates/bakers: no CDN
        f"--VoilaConfiguration.multi_kernel_manager_class=bakers_lab.display.app.kernels.{manager}",
        f"--{manager}.max_kernels={max_pages}",
        f"--{manager}.cull_idle_timeout={round(idle_minutes * 60)}",
        f"--{manager}.cull_interval={CULL_INTERVAL}",
    ]
    return command if browser else [*command, "--no-browser"]


def environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment to run :func:`voila_command` in: ``base`` (the current one by
    default) with the app's template folder first on ``JUPYTER_PATH``, and
    ``MALLOC_ARENA_MAX`` 1 unless ``base`` sets it.

    The server and its kernels inherit it.  A kernel searches for par in a thread
    of its own (so that Ctrl-C is heard); the C library may give such a thread a
    memory arena of its own and keep what the search freed there, so a kernel
    grew by up to 7 MiB a game, by how much varying from run to run (1.32 times
    its size after one game, 20 games later, in one run of
    ``benchmarks/app_load.py``; 1.11 after 50 in another).  With one arena the
    memory freed is used again: 1.04 after 20 games, 1.08 after 50.

    >>> env = environment({"MALLOC_ARENA_MAX": "4"})
    >>> env["MALLOC_ARENA_MAX"], environment({})["MALLOC_ARENA_MAX"]
    ('4', '1')
    """
    env = dict(os.environ if base is None else base)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(SHARE), env.get("JUPYTER_PATH", "")) if p)
    env.setdefault("MALLOC_ARENA_MAX", "1")
    return env
