"""The step controls in a real browser: "next" clicked again and again without moving
the pointer steps once a click, in the app, in a JupyterLab replay and in the trace
viewer (the JupyterLab test is in tests/test_notebooks.py, on the one JupyterLab server
of the notebooks' tests; it uses the helpers and the notebook here).

The board picture's width and height follow its columns' heights; buttons placed
beside or under it moved under the pointer, so a person clicking "next" on the same
spot stepped a few moves and then pressed "last" or "first".  Each test takes the
pointer's place once, from the button's bounding box, clicks there :data:`CLICKS`
times (waiting after each click for the step to show, as a person does), checks
that the picture changed its size on the way (else nothing was tested) and that
the controls are still where they were.  The pages are started and driven with the
helpers of ``test_browser.py``; screenshots (1280 pixels wide) go to
``tests/screenshots/``.
"""

from __future__ import annotations

import json
import re
import time

from test_browser import open_app, shoot, show_game

#: Clicks on "next" at one place.  Within them game 5's line changes the picture's
#: size (after moves 4 and 10: as often as within 30 clicks) and the trace's picture
#: grows and shrinks (events 3, 5, 10, 11); ``click_next_in_place`` checks that it did.
CLICKS = 12


def _notebook(*sources: str) -> str:
    """A notebook of code cells, for the Python 3 kernel (JupyterLab then asks nothing)."""
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
         "outputs": [], "source": source}
        for i, source in enumerate(sources)
    ]  # fmt: skip
    kernel = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return json.dumps(
        {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    )


#: The small notebook the JupyterLab test (tests/test_notebooks.py) opens: a replay and a
#: trace viewer.
NOTEBOOKS = {
    "replay_and_trace.ipynb": _notebook(
        "import bakers_lab as bl\nfrom bakers_lab.solve import search\n"
        "from bakers_lab.display.widgets import Replay, TraceViewer",
        "Replay(bl.solve(5))",
        'TraceViewer(search.astar(search.classroom_deal(0, "tiny"), "detours", trace=True))',
    ),
}


def settled_box(locator) -> dict[str, float]:
    """``locator``'s bounding box once two looks 0.2 s apart agree (a busy machine lays
    the page out late)."""
    box = None
    for _ in range(50):
        last, box = box, locator.bounding_box()
        if box is not None and box == last:
            return box
        time.sleep(0.2)
    raise AssertionError(f"{locator} did not settle: {box}")


def click_next_in_place(page, widget, line, expected) -> None:
    """Click the ``next`` button of ``widget`` :data:`CLICKS` times at one pointer
    position; after click ``k``, ``line`` must match ``expected(k)``; on the way the
    board picture must have changed its size, and at the end the controls must be
    where they were."""
    from playwright.sync_api import expect

    button = widget.locator("button.bl-next")
    button.scroll_into_view_if_needed()
    box = settled_box(button)
    picture = widget.locator(".bakers-lab-svg").first

    def size() -> tuple[int, int]:
        seen = picture.bounding_box()
        return (round(seen["width"]), round(seen["height"])) if seen else (0, 0)

    sizes = {size()}
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for k in range(1, CLICKS + 1):
        page.mouse.click(x, y)
        expect(line).to_have_text(re.compile(expected(k)))
        sizes.add(size())
    assert len(sizes) > 1, f"the picture kept its size {sizes}: nothing could move"
    after = button.bounding_box()
    assert after is not None and (round(after["x"]), round(after["y"])) == (
        round(box["x"]),
        round(box["y"]),
    )


def pause_keeps_the_step(page, widget, line, step_of) -> None:
    """Play, then pause: the step shown stays (ipywidgets' ■ went back to the start),
    play goes on from it, and "first" goes to the start."""
    from playwright.sync_api import expect

    start = step_of(inner_text(line))
    widget.locator("button.bl-play-pause").click()
    expect(line).not_to_have_text(re.compile(rf"^\w+ {start} of "))  # it plays on
    widget.locator("button.bl-play-pause", has_text="pause").click()
    expect(widget.locator("button.bl-play-pause")).to_have_text("play")
    paused = settled_step(line, step_of)  # the steps already under way shown
    time.sleep(1.2)  # three ticks at 400 ms
    assert step_of(inner_text(line)) == paused > start
    widget.locator("button.bl-play-pause").click()
    expect(line).not_to_have_text(re.compile(rf"^\w+ {paused} of "))
    widget.locator("button.bl-play-pause").click()
    assert step_of(inner_text(line)) > paused  # on from where it paused, not from the start
    widget.locator("button.bl-first").click()


def settled_step(line, step_of) -> int:
    """The step ``line`` shows once two looks 0.8 s (two ticks) apart agree: on a busy
    machine the line shows a tick's step after the widget took it."""
    step = step_of(inner_text(line))
    for _ in range(20):
        time.sleep(0.8)
        last, step = step, step_of(inner_text(line))
        if step == last:
            return step
    raise AssertionError(f"still stepping 16 s after pause: {inner_text(line)}")


def inner_text(locator) -> str:
    return str(locator.inner_text()).strip()


def move_number(text: str) -> int:
    found = re.match(r"^move (\d+) of ", text)
    return int(found.group(1)) if found else 0


def test_app_next_clicked_in_one_place_steps_once_a_click(page, app):
    base, _ = app
    explorer = open_app(page, base)
    show_game(page, explorer, "5")
    from playwright.sync_api import expect

    # par is found in a thread and lengthens the verdict above the controls: wait for it
    verdict = explorer.locator(".bl-explorer-verdict")
    expect(verdict).to_contain_text("par (the fewest moves that win) is 63 moves")
    replay = explorer.locator(".bl-replay").first
    line = replay.locator(".bl-replay-line")
    shoot(page, "stepper_app_start")
    click_next_in_place(page, replay, line, lambda k: rf"^move {k} of 67: ")
    shoot(page, "stepper_app_clicked")
    pause_keeps_the_step(page, replay, line, move_number)
    expect(line).to_have_text("start: 0 of 67 moves")
    assert page.refused == []
