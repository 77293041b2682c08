"""Sphinx configuration of bakers_lab's manual (``make docs`` builds it into build/docs/html).

The guides and the method are written by hand (MyST Markdown); everything that describes
the code is generated from it at build time by ``docs/_ext/generate.py``: a reference page
for every public name, the rule presets, the claims table and the notebooks with the small
parameters they are run with here.  Nothing is fetched from the network: the pages use no
web fonts and no scripts from elsewhere, and the notebooks' widgets are shown as still pictures.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import bakers_lab  # noqa: E402

project = "bakers_lab"
author = "the bakers_lab developers"
copyright = "2026, the bakers_lab developers"
release = bakers_lab.__version__
version = release

extensions = [
    "myst_nb",  # MyST Markdown pages and the notebooks, executed
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",  # the bakers-lab command from its parser
    "sphinx_design",  # the cards of the home page
    "generate",  # docs/_ext/generate.py: the pages made from the code
]

# what the build reads: the hand-written pages and the generated ones (docs/_generated,
# written anew by each build and never committed)
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_ext"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# warnings are errors (make docs: sphinx-build -W), and every reference to a name of the
# package must find its page; names of other packages (pandas, numpy, the standard
# library) are not looked up, since the build is offline
nitpicky = True
# (docs/_ext/generate.py: names of the standard library, pandas, numpy … and _private
# names are not looked up; a reference to any other name without a page is an error)
nitpick_ignore_regex = [
    (r"py:class", r"bakers_lab\..*\.T"),  # a type variable (TypeVar("T")) of a generic function
]

# autodoc: signatures as the code has them, members in the order of the source
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_class_signature = "mixed"

myst_enable_extensions = ["colon_fence", "deflist"]
# a block without a language (the shell commands, a move file) is shown as it is written
highlight_language = "none"
myst_heading_anchors = 3

# the notebooks: executed at build time (cached between builds in build/docs/.jupyter_cache),
# a failing cell fails the build; the widgets' JavaScript would come from a CDN, so none
nb_execution_mode = "cache"
nb_execution_cache_path = str(HERE.parent / "build" / "docs" / ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
# a widget cannot run here: its still picture (the text/html that bakers_lab's widgets add,
# StillView) is shown instead of an empty space where the live widget would be; a widget
# without one (a progress bar) stays out of sight, not shown as the text it had when it
# appeared ("0/10")
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", 35)]
nb_merge_streams = True

html_theme = "pydata_sphinx_theme"
html_title = "bakers_lab"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
    "navbar_end": ["theme-switcher"],
    "header_links_before_dropdown": 5,
}
# the pages of the top bar that have no pages under them: no empty side bar
html_sidebars: dict[str, list[str]] = {
    page: [] for page in ("getting-started", "rules", "guides/*", "method/*")
}
html_show_sourcelink = False
html_last_updated_fmt = None
