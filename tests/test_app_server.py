"""The web app's server: it answers only its own page, prints nothing alarming at start,
keeps every page offline (the busy page too), and a page's kernel does not grow with
the games it shows.

``bakers-lab app`` is started once for the module, with room for one page
(``--max-pages 1``), so that a second page gets the busy page (503).  Requests are
sent as another website would send them (``urllib``, with the headers a browser
adds), and the app page and the busy page are opened in Chromium (see
tests/test_browser.py, whose helpers these tests use).
"""

from __future__ import annotations

import importlib.util
import re
import sys
import time
import urllib.error
import urllib.request

import pytest

if importlib.util.find_spec("voila") is None:  # (found, not imported: the app imports it)
    pytest.skip("the app needs the notebooks extra (voila)", allow_module_level=True)

from test_browser import (
    APP_VIEW,
    STEP_MS,
    free_port,
    kernels_of,
    server,
    shoot,
    show_game,
)

#: Seconds given to a kernel that should not start, to show itself if it does.
SETTLE = 3


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """``bakers-lab app --max-pages 1`` on a free port: (address, process id, what it
    printed by the time it answered)."""
    tmp = tmp_path_factory.mktemp("app_server")
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "bakers_lab.cli", "app", "--port", str(port),
               "--no-browser", "--max-pages", "1"]  # fmt: skip
    log = tmp / "app.log"
    with server(command, base + "voila/static/", log, cwd=tmp) as proc:
        yield base, proc.pid, log.read_text()


def get(url: str, **headers: str) -> tuple[int, str]:
    """The status and text of a GET of ``url`` with ``headers``."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_app_prints_no_warning_at_start(app):
    base, _, printed = app
    assert printed.splitlines()[0] == f"Open {base} in a browser; Ctrl-C stops the app"
    assert "Warning" not in printed and "warn(" not in printed


#: Requests another website's page makes, by what makes them.
ELSEWHERE = {
    "origin": {"Origin": "http://evil.example"},  # a script on another site (fetch, XHR)
    "host": {"Host": "evil.example"},  # another site's name for this server (DNS rebinding)
    "host-and-origin": {"Host": "evil.example", "Origin": "http://evil.example"},
    # an <img>, a no-cors fetch or a frame on another site: no Origin, but the
    # browser says where the request came from
    "no-cors": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors",
                "Sec-Fetch-Dest": "image"},
    "frame": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate",
              "Sec-Fetch-Dest": "iframe"},
}  # fmt: skip


def test_app_refuses_a_page_asked_for_by_another_site_before_a_kernel_starts(app):
    """Each request of :data:`ELSEWHERE` is refused in words, with a page that fetches
    nothing; then, :data:`SETTLE` seconds on (once for all: a kernel started by any of
    them would show), no kernel runs."""
    base, pid, _ = app
    assert kernels_of(pid) == 0
    answers = {}
    for name, headers in ELSEWHERE.items():
        status, text = get(base, **headers)
        answers[name] = (
            status,
            "<h1>Not this app&#39;s page</h1>" in text and "http://127.0.0.1:…/" in text,
            re.findall(r'(?:href|src)="([^"]*)"', text),  # a page that fetches nothing
        )
    assert answers == {name: (403, True, []) for name in ELSEWHERE}
    time.sleep(SETTLE)
    assert kernels_of(pid) == 0


def test_app_page_and_busy_page_fetch_nothing_beyond_this_computer(browser, app):
    """The app's page (showing a game) and the busy page a second page gets: every
    request they make goes to 127.0.0.1 (anything else is recorded, and refused so
    that the test never reaches the network)."""
    base, pid, _ = app
    asked: list[str] = []
    local = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]")

    def context():
        c = browser.new_context(viewport=APP_VIEW)
        c.set_default_timeout(STEP_MS)

        def route(r):
            (r.continue_ if local.match(r.request.url) else r.abort)()

        c.route("**/*", route)
        c.on("request", lambda request: asked.append(request.url))
        return c

    first = context()
    page = first.new_page()
    try:
        page.goto(base)
        explorer = page.locator(".bl-explorer")
        explorer.wait_for()
        show_game(page, explorer, "4")
        explorer.locator(".bl-replay button.bl-next").first.click()
        shown_app = len(asked)
        assert shown_app > 10 and kernels_of(pid) == 1

        second = context()
        busy = second.new_page()
        answer = busy.goto(base)
        assert answer is not None and answer.status == 503
        assert busy.locator("h1").inner_text() == "The app is busy"
        shoot(busy, "app_busy_page")
        second.close()
        assert len(asked) > shown_app  # the busy page was asked for, and recorded
    finally:
        page.close(run_before_unload=True)  # as a person closes the tab: the kernel ends
        while kernels_of(pid):  # the context closed at once would cut that short
            time.sleep(0.2)
        first.close()
    outside = [url for url in asked if not local.match(url) and not url.startswith("data:")]
    assert outside == []


def test_app_serves_a_person_who_followed_a_link_from_another_site(app):
    """A link on another site to the app (a top-level navigation) still opens it."""
    base, pid, _ = app
    link = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate",
            "Sec-Fetch-Dest": "document", "Referer": "https://example.org/"}  # fmt: skip
    # The page of the test above is ending its kernel: its process can be gone (a zombie
    # has no command line in /proc) a moment before the server has let go of it, and
    # until then the app rightly answers "busy" (503), as it would to a person, who is
    # told to reload; so does this test, until the test's timeout.
    while True:
        if not kernels_of(pid):
            status, text = get(base, **link)
            if status != 503:
                break
        time.sleep(0.5)
    assert status == 200 and "<title>Baker" in text


def test_explorer_closes_the_widgets_of_a_game_it_no_longer_shows():
    """Jupyter keeps each widget's layout and style as widgets of their own, alive in
    the kernel until closed: the explorer closes them with the game's widgets, and
    the buttons a board keeps out of sight, so that showing game after game leaves
    as many widgets alive as one game does (it left about 180 more a game)."""
    from ipywidgets.widgets import widget

    from bakers_lab.display.widgets import GameExplorer

    explorer = GameExplorer()
    alive = []
    for number, player in ((1, "careful"), (2, "greedy"), (4, "careful"), (5, "greedy")):
        explorer.game.value = str(number)
        explorer.player.value = player
        board = explorer.board
        assert board is not None and explorer.replay is not None
        explorer.replay.next.click()
        for _ in range(3):
            board.legal.children[0].click()
        alive.append(len(widget._instances))
    assert max(alive) - min(alive) <= 30, alive  # the buttons of the boards vary
