"""Pieces every widget shares: the solver budget of "Can I still win?", counted nouns,
buttons and rows of buttons, closing a widget tree, and a ticking "working…" line."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

#: Node budget of "Can I still win?": the solver does roughly 600k nodes/s, so
#: about two seconds on one laptop core at most.
DEFAULT_BUDGET = 1_000_000


_TEN = re.compile(r"\bT(?=[CSHD]\b)")


def on_screen(text: object) -> str:
    """Text for the page, tens written ``10`` as the pictures write them (the
    notation's ``T`` is for files and the command line; both read back).

    >>> on_screen("TD>JS, then KS>TD; The end")
    '10D>JS, then KS>10D; The end'
    """
    return _TEN.sub("10", str(text))


_UNBROKEN = re.compile(r"(?<![\w-])((?:search|undo|lookahead)-[0-9][0-9,]*|--[a-z][a-z-]*)")


def unbroken(html: str) -> str:
    """Escaped text for the page with each player's name and each command option
    kept on one line (a browser breaks lines after a hyphen: "undo-" then "100").

    >>> unbroken("by search-10 or undo-100; add --variant good_measure").count("nowrap")
    3
    >>> unbroken("undo-100")
    '<span style="white-space:nowrap">undo-100</span>'
    """
    return _UNBROKEN.sub(r'<span style="white-space:nowrap">\1</span>', html)


def make_button(description: str, icon: str = "", tooltip: str = "") -> Any:
    """A button as wide as its words; the tooltip repeats the description unless given."""
    return widgets.Button(
        description=description,
        icon=icon,
        tooltip=tooltip or description,
        layout=widgets.Layout(width="auto"),
    )


class ButtonRow:
    """A wrapping row of buttons, reused from redraw to redraw; a click calls
    ``on_click`` with the button's description."""

    def __init__(self, on_click: Callable[[str], None]) -> None:
        self.box = _PoolBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._pool: list[Any] = self.box.pool
        self._on_click = on_click

    def show(
        self,
        labels: Sequence[str],
        *,
        disabled: bool = False,
        selected: str | None = None,
        tooltips: Sequence[str] = (),
    ) -> None:
        while len(self._pool) < len(labels):
            b = make_button("")
            b.on_click(lambda b: self._on_click(b.description))
            self._pool.append(b)
        for i, (b, label) in enumerate(zip(self._pool, labels, strict=False)):
            b.description = label
            b.tooltip = tooltips[i] if i < len(tooltips) else label
            b.disabled = disabled
            b.button_style = "info" if label == selected else ""
        self.box.children = tuple(self._pool[: len(labels)])


class _PoolBox(widgets.HBox):
    """The box of a :class:`ButtonRow`: closing it closes the buttons kept out of
    sight for the next redraw too."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pool: list[Any] = []

    def close(self) -> None:
        for button in self.pool:
            close_all(button)
        super().close()


def close_all(widget: Any) -> None:
    """Close a widget and every widget inside it, with their layouts and styles (they
    leave the kernel and the page).  Jupyter keeps each layout and style as a widget
    of its own, alive until closed, however long ago its widget was.

    >>> box = widgets.VBox([widgets.Button(description="a")])
    >>> parts = [box, box.layout, box.children[0], box.children[0].style]
    >>> close_all(box)
    >>> [w.comm for w in parts]
    [None, None, None, None]
    """
    for child in getattr(widget, "children", ()):
        close_all(child)
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if isinstance(part, widgets.Widget):
            part.close()
    widget.close()


def still_html(widget: Any) -> str:
    """The widget as a still picture, in HTML: the words and pictures of its ``HTML``
    parts, in its boxes' rows and columns, without its controls (buttons, sliders, lists,
    and the labels before them, which end in a colon).  What a page that cannot run
    widgets shows of it: the manual's notebooks, a notebook viewer.

    >>> row = widgets.HBox([widgets.HTML("Move a card:"), widgets.Button(description="5S")])
    >>> box = widgets.VBox([widgets.HTML("<b>7 moves</b>"), row, widgets.HBox([widgets.HTML("x")])])
    >>> print(still_html(box).replace("><", ">\\n<"))
    <div style="display:flex;flex-flow:column;gap:6px">
    <div>
    <b>7 moves</b>
    </div>
    <div style="display:flex;flex-flow:row;gap:6px">
    <div>x</div>
    </div>
    </div>
    """
    if getattr(widget.layout, "display", None) == "none":
        return ""
    if isinstance(widget, widgets.HTML | widgets.HTMLMath):
        value = str(widget.value)
        return "" if not value.strip() or value.rstrip().endswith(":") else f"<div>{value}</div>"
    if not isinstance(widget, widgets.Box):
        return ""
    parts = "".join(still_html(child) for child in widget.children)
    if not parts:
        return ""
    if isinstance(widget, widgets.VBox | widgets.HBox):
        flow = "column" if isinstance(widget, widgets.VBox) else "row"
    else:  # a Box: a row unless its layout says column
        flow = "column" if "column" in (widget.layout.flex_flow or "") else "row"
    return f'<div style="display:flex;flex-flow:{flow};gap:6px">{parts}</div>'


class StillView:
    """A widget that also shows as a still picture (:func:`still_html`) where widgets
    cannot run: it adds the picture as ``text/html`` to what the widget gives Jupyter to
    show.  JupyterLab, Voilà and the notebook run the widget itself (they prefer its
    view to HTML); the manual, which cannot run it, shows the picture.  Put it first
    among the widget's bases."""

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        if bundle is not None:
            bundle["text/html"] = still_html(self)
        return bundle


class Ticker:
    """While a long computation runs in the kernel, ``html`` shows ``text`` and the
    seconds gone by, once a second (from a thread of its own; the solver lets it
    run).  A context manager: the last value stays until the caller writes one."""

    def __init__(self, html: Any, text: str) -> None:
        self._html = html
        self._text = escape(text)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def _tick(self) -> None:
        t0 = time.monotonic()
        while True:
            seconds = time.monotonic() - t0
            self._html.value = (
                f'<span class="bl-busy">{self._text} <span class="bl-busy-seconds">'
                f"{seconds:.0f} s</span></span>"
            )
            if self._stop.wait(1.0):
                return

    def __enter__(self) -> Ticker:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def continue_button(on_click: Callable[[], None]) -> Any:
    """ "Continue from here": a button (not a bar across the page) under a replay."""
    go = make_button("Continue from here", "hand-pointer", "play on from the position shown")
    go.layout.align_self = "flex-start"
    go.on_click(lambda _: on_click())
    return go
