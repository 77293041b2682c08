"""The step controls every replay and the trace viewer share: first, back, play/pause,
next, last, a slider and a speed, with one source of truth for the step.

:class:`Stepper` is a ``VBox`` of one wrapping row: the buttons, the slider and
the speed.  The slider's value is the step; the buttons set it; an ``ipywidgets.Play``
(kept out of sight: it is only the browser's timer) moves it on while playing.  All
the links are kernel-side ``observe`` callbacks, so a test sees them as a page does.

Why the controls never move under the pointer: a widget using a stepper places it
*above* whatever changes size as the step changes (the board picture, whose width
follows its columns' heights, the step in words, a frontier's list).  Inside the
stepper nothing changes width with the step either: the labels are fixed, and the
play/pause button, whose label changes, has a fixed width.

Pausing keeps the step (the ``Play`` widget's own ■ goes back to its start, which
is why its buttons are not shown); "first" goes to the start; play goes on from
where it paused, and from the start again once at the end.  A step button pressed
while playing pauses first: the person takes over.

A play-through may stop only at some steps (``stops``, ascending, ending at the
last step: the trace viewer plays by expansion or by depth); the ``Play`` widget's
value then counts stops, and the slider still shows every step.

>>> s = Stepper(0, 10)
>>> s.next.click(); s.next.click(); s.step
2
>>> s.play_pause.value = True; s.play.playing, s.play_pause.description   # a click: play
(True, 'pause')
>>> s.play.value = 6            # the browser's timer ticks on
>>> s.play_pause.value = False; s.play.playing, s.step                    # a click: pause
(False, 6)
>>> s.first.click(); s.step, s.first.disabled, s.next.disabled
(0, True, False)
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from bakers_lab.display.widgets._common import make_button
from bakers_lab.utils.validate import as_bool, as_int, describe

__all__ = ["Stepped", "Stepper"]

#: The play/pause button's width: its label changes, the buttons after it must not move.
PLAY_WIDTH = "6.5em"


class Stepper(widgets.VBox):
    """Buttons, a slider and a speed that step from ``low`` to ``high``.

    ``noun`` names a step in the tooltips and the slider (``move``, ``event``);
    ``interval`` is the milliseconds per stop while playing, ``speeds`` the
    speed slider's (lowest, highest, step) and ``speed_label`` its label;
    ``continuous_update`` whether the slider's value follows the pointer while
    dragged (false where each step is slow to draw).  ``more`` are widgets put
    after the five buttons (more ways to step), ``settings`` widgets put after
    the speed.

    Controls: ``first``, ``back``, ``next``, ``last`` (buttons; CSS
    classes ``bl-first`` … for the app's arrow keys), ``play_pause`` (a
    toggle: its value is whether it plays, linked to ``play.playing``),
    ``slider`` (its value is the step, also :attr:`step`), ``play`` (the
    hidden ``Play`` widget: its ``playing`` says whether it plays, its value
    counts stops) and ``speed`` (linked to ``play.interval``).
    """

    def __init__(
        self,
        low: int,
        high: int,
        *,
        noun: str = "move",
        interval: int = 400,
        speeds: tuple[int, int, int] = (50, 2000, 50),
        speed_label: str = "ms/move",
        continuous_update: bool = True,
        more: Sequence[Any] = (),
        settings: Sequence[Any] = (),
    ) -> None:
        low = as_int(low, "low")
        high = as_int(high, "high", low=low)
        continuous_update = as_bool(continuous_update, "continuous_update")
        slowest, fastest = speeds[0], speeds[1]
        interval = as_int(interval, "interval", low=slowest, high=fastest)
        self.low, self.high = low, high
        self.first = make_button("first", "fast-backward", "to the start")
        self.back = make_button("back", "step-backward", f"one {noun} back")
        self.play_pause = widgets.ToggleButton(
            value=False, description="play", icon="play",
            tooltip="play on from here; press again to pause",
            layout=widgets.Layout(width=PLAY_WIDTH),
        )  # fmt: skip
        self.next = make_button("next", "step-forward", f"one {noun} on")
        self.last = make_button("last", "fast-forward", "to the end")
        self.slider = widgets.IntSlider(
            value=low, min=low, max=high, description=noun, continuous_update=continuous_update
        )
        self.play = widgets.Play(
            value=low, min=low, max=high, interval=interval, show_repeat=False,
            layout=widgets.Layout(display="none"),  # the browser's timer; its own ■ rewinds
        )  # fmt: skip
        self.speed = widgets.IntSlider(
            value=interval, min=slowest, max=fastest, step=speeds[2], description=speed_label
        )
        self._stops = list(range(low, high + 1))
        self._syncing = False
        # the toggle and the timer are linked twice: in the kernel, where tests see the
        # link and the step is kept, and in the browser, where a pause stops the timer
        # at once (a busy kernel would let it tick on a step or two after the click)
        self._links = (
            widgets.dlink((self.speed, "value"), (self.play, "interval")),
            widgets.link((self.play_pause, "value"), (self.play, "playing")),
            widgets.jslink((self.play_pause, "value"), (self.play, "playing")),
        )
        self.play.disabled = self.play_pause.disabled = high == low
        self.first.on_click(lambda _: self._press(self.low))
        self.back.on_click(lambda _: self._press(self.step - 1))
        self.next.on_click(lambda _: self._press(self.step + 1))
        self.last.on_click(lambda _: self._press(self.high))
        self.play_pause.observe(self._toggled, names="value")
        self.slider.observe(self._moved, names="value")
        self.play.observe(self._played, names="value")
        self.play.observe(self._playing, names="playing")
        # one row, wrapped by the page's width only (never by the step): the buttons
        # first, so that nothing before them changes width
        row = widgets.HBox(
            [self.first, self.back, self.play_pause, self.next, self.last, *more, self.slider,
             self.speed, *settings],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )  # fmt: skip
        super().__init__([row, self.play])
        self.add_class("bl-stepper")
        for name in ("first", "back", "play_pause", "next", "last"):
            getattr(self, name).add_class(f"bl-{name.replace('_', '-')}")
        self._enable(low)

    @property
    def step(self) -> int:
        """The step shown (the slider's value)."""
        return int(self.slider.value)

    @property
    def stops(self) -> list[int]:
        """The steps a play-through stops at (every step unless :meth:`stop_at` said)."""
        return list(self._stops)

    def go(self, k: int) -> None:
        """Show step ``k`` (kept within ``low`` … ``high``)."""
        self.slider.value = max(self.low, min(self.high, int(k)))

    def toggle(self) -> None:
        """Play, or pause where it is (as a click on ``play_pause`` does)."""
        self.play_pause.value = not self.play_pause.value

    def stop_at(self, steps: Sequence[int]) -> None:
        """Play stops only at ``steps`` (ascending, within ``low`` … ``high``, ending at
        ``high``)."""
        stops = [int(k) for k in steps]
        if (
            not stops
            or stops[-1] != self.high
            or stops[0] < self.low
            or any(a >= b for a, b in itertools.pairwise(stops))
        ):
            raise ValueError(
                f"steps must ascend from {self.low} or more to {self.high}, not {describe(steps)}"
            )
        self._stops = stops
        self.play.max = self.low + len(stops) - 1
        self._sync_play(self.step)

    def close(self) -> None:
        """Close the stepper and its browser-side link (a widget of its own, which
        closing the stepper's children would leave in the kernel and the page)."""
        for link in getattr(self, "_links", ()):  # none if __init__ raised
            if isinstance(link, widgets.Widget):
                link.close()
        super().close()

    def _press(self, k: int) -> None:
        self.play.playing = False  # a step button takes over from play
        self.go(k)

    def _moved(self, change: dict[str, Any]) -> None:
        k = int(change["new"])
        self._enable(k)
        self._sync_play(k)

    def _enable(self, k: int) -> None:
        self.first.disabled = self.back.disabled = k == self.low
        self.next.disabled = self.last.disabled = k == self.high

    def _sync_play(self, k: int) -> None:
        """Play on from the first stop at or after step ``k``."""
        at = self.low + min(bisect.bisect_left(self._stops, k), len(self._stops) - 1)
        if self.play.value != at:
            self._syncing = True  # the step stays where it is
            try:
                self.play.value = at
            finally:
                self._syncing = False

    def _played(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        i = max(0, min(int(change["new"]) - self.low, len(self._stops) - 1))
        self.go(self._stops[i])

    def _toggled(self, change: dict[str, Any]) -> None:
        """At the end, play again from the start (the browser's Play does the same)."""
        if change["new"] and self.step >= self._stops[-1]:
            self.go(self.low)

    def _playing(self, change: dict[str, Any]) -> None:
        playing = bool(change["new"])
        self.play_pause.description = "pause" if playing else "play"
        self.play_pause.icon = "pause" if playing else "play"


class Stepped:
    """What a widget built on a :class:`Stepper` (a replay, the trace viewer) shares:
    the stepper as ``stepper``, its controls under their own names (``first``,
    ``back``, ``play_pause``, ``next``, ``last``, ``slider``, ``play``, ``speed``),
    its step as :attr:`step`, and a redraw at each step.

    >>> class Counter(Stepped):
    ...     def __init__(self) -> None:
    ...         self.seen: list[int] = []
    ...         self._follow(Stepper(0, 3), self.seen.append)
    >>> c = Counter(); c.next.click(); c.last.click(); c.step, c.seen
    (3, [1, 3])
    """

    def _follow(self, stepper: Stepper, draw: Callable[[int], None]) -> None:
        """Take ``stepper`` as this widget's; ``draw(k)`` shows step ``k`` each time
        the step changes."""
        self.stepper = stepper
        self.first, self.back, self.next, self.last = (
            stepper.first, stepper.back, stepper.next, stepper.last
        )  # fmt: skip
        self.play_pause, self.slider = stepper.play_pause, stepper.slider
        self.play, self.speed = stepper.play, stepper.speed
        self.slider.observe(lambda change: draw(int(change["new"])), names="value")

    @property
    def step(self) -> int:
        """The step shown (the slider's value)."""
        return self.stepper.step
