"""The app's server: Voilà, given the settings that only Python can give it.

``bakers-lab app`` runs ``python -m bakers_lab.display.app.serve NOTEBOOK --port=P ...``
(:func:`bakers_lab.display.app.voila_command`): Voilà's own command line, started with
:func:`settings` below, which

- turns Jupyter Server's ``Host`` check back on (Voilà turns it off): a request
  whose ``Host`` is not 127.0.0.1, ``::1`` or ``localhost`` gets 403, the way
  another site reaches a local server by renaming itself (DNS rebinding);
- refuses (403) a page requested by another site before its kernel starts:
  Jupyter Server's ``Origin`` check, which it applies to its API and websockets
  and Voilà not to its page, and the browser's word that another site sent the
  request (``Sec-Fetch-Site: cross-site``) when it is not a person following a
  link; so another site cannot start the app's kernels, fill its pages and make
  the person's own page wait;
- reads no ``voila.py`` or ``voila.json`` from the folder the app is started
  in, so a file there cannot change these settings;
- turns off the XSRF check, which Voilà's page cannot pass (see
  :func:`bakers_lab.display.app.voila_command`).

It imports Voilà, so only the app's server process imports this module.

>>> c = settings()
>>> c.Voila.tornado_settings["allow_remote_access"], c.Voila.config_file_paths
(False, [])
>>> c.VoilaConfiguration.prelaunch_hook is own_page_only
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from tornado.web import HTTPError
from traitlets.config import Config

__all__ = ["ELSEWHERE", "main", "own_page_only", "settings", "without_iri_checks"]

#: What a page requested by another site says (HTTP 403).
ELSEWHERE = (
    "This app shows its page only to you, at the address bakers-lab app printed "
    "(http://127.0.0.1:…/): open it there, not from another website."
)


def own_page_only(handler: Any, notebook: Any = None, cwd: Any = None) -> None:
    """Voilà's prelaunch hook: refuse (403) a request for the app's page that another
    site made, before a kernel starts for it.

    ``handler`` is the request's Jupyter Server handler.  Its ``check_origin`` is
    Jupyter Server's own: a request whose ``Origin`` is not the ``Host`` it was
    sent to is refused (``allow_origin`` is not set).  A browser names no origin
    on some requests from another site (an ``<img>``, a ``no-cors`` fetch, a
    frame), but says ``Sec-Fetch-Site: cross-site``; only a person following a
    link (a top-level navigation) gets the page then.
    """
    headers = handler.request.headers
    followed = headers.get("Sec-Fetch-Mode") == "navigate" and (
        headers.get("Sec-Fetch-Dest") in (None, "document")
    )
    if not handler.check_origin() or (
        headers.get("Sec-Fetch-Site") == "cross-site" and not followed
    ):
        raise HTTPError(403, ELSEWHERE, reason="Not this app's page")


def settings() -> Config:
    """The app's Voilà settings that its command line cannot carry (a bool, a
    list, a function), as a traitlets Config."""
    c = Config()
    c.Voila.config_file_paths = []  # no voila.py / voila.json from where it runs
    c.Voila.tornado_settings = {
        "allow_remote_access": False,  # Jupyter Server's Host check
        "local_hostnames": ["localhost"],
        "disable_check_xsrf": True,
    }
    c.VoilaConfiguration.prelaunch_hook = own_page_only
    return c


def without_iri_checks() -> None:
    """Let jsonschema, imported after this, skip its IRI format checks.

    jsonschema (Jupyter Server checks its event schemas with it, nbformat its notebooks)
    imports ``rfc3987_syntax`` for them, which builds some forty grammars as it is
    imported: a second of a server's start.  No schema the server or nbformat checks has
    an IRI.  A module set to None in ``sys.modules`` is one Python does not import, and
    jsonschema leaves out the checks of a module it cannot import.  One already imported
    is left as it is.
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> None:
    """Run Voilà with ``argv`` (default: this process's arguments) and :func:`settings`."""
    without_iri_checks()
    from voila.app import Voila  # type: ignore[import-untyped]

    Voila.launch_instance(list(sys.argv[1:] if argv is None else argv), config=settings())


if __name__ == "__main__":
    main()
