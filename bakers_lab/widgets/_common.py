"""Pieces every widget shares: the solver budget of "Can I still win?", counted nouns,
buttons and rows of buttons, and closing a widget tree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

#: Node budget of "Can I still win?": the solver does roughly 600k nodes/s, so
#: about two seconds on one laptop core at most.
DEFAULT_BUDGET = 1_000_000


def _count(n: int, what: str = "move") -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def _button(description: str, icon: str = "", tooltip: str = "") -> Any:
    return widgets.Button(
        description=description,
        icon=icon,
        tooltip=tooltip or description,
        layout=widgets.Layout(width="auto"),
    )


class _ButtonRow:
    """A wrapping row of buttons, reused from redraw to redraw; a click calls
    ``on_click`` with the button's description."""

    def __init__(self, on_click: Callable[[str], None]) -> None:
        self.box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._pool: list[Any] = []
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
            b = _button("")
            b.on_click(lambda b: self._on_click(b.description))
            self._pool.append(b)
        for i, (b, label) in enumerate(zip(self._pool, labels, strict=False)):
            b.description = label
            b.tooltip = tooltips[i] if i < len(tooltips) else label
            b.disabled = disabled
            b.button_style = "info" if label == selected else ""
        self.box.children = tuple(self._pool[: len(labels)])


def _close_all(widget: Any) -> None:
    """Close a widget and every widget inside it (they leave the kernel and the page)."""
    for child in getattr(widget, "children", ()):
        _close_all(child)
    widget.close()
