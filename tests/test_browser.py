"""The web app in a real browser, and the helpers of every browser test: headless Chromium
driven by Playwright.

The tests start their servers on a free localhost port (``bakers-lab app``, here and in
the other browser tests; JupyterLab with a token, for the notebooks' tests in
tests/test_notebooks.py), click through the page like a person, and check what the page
shows.  Chromium and the app are started once for each test process (tests/conftest.py).
Requests to anything but the local server are refused (the pages must work offline).
Screenshots (1280 pixels wide) go to ``tests/screenshots/`` (git-ignored;
``BAKERS_LAB_SCREENSHOTS`` names another directory).

Playwright drives Debian's Chromium (``/usr/bin/chromium``; ``.ci/run`` installs it) and
never downloads a browser; without it the tests are skipped, saying why.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from procs import server as server  # (re-exported: the other browser tests take it from here)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(os.environ.get("BAKERS_LAB_SCREENSHOTS", ROOT / "tests" / "screenshots"))
VIEWPORT = {"width": 1280, "height": 900}
#: Seconds a server may take to answer, and a page to show what a step asks for (the
#: kernel runs the solver, the notebook a whole run; the machine may be busy).
START = 120
STEP_MS = 180_000


def offline_context(browser):
    """A browser context at 1280 px whose pages are watched for what they fetch: (the
    context, the list of what its pages asked of anywhere but this computer).

    Watched, not intercepted: Playwright's interception of requests turns the
    browser's cache off and passes every request through the test process (a
    third more of Chromium's work to open the app); a request elsewhere is listed
    all the same, and the tests assert that the list is empty."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(STEP_MS)
    refused: list[str] = []

    def watch(request):
        url = request.url
        local = re.match(r"^(https?|wss?)://(127\.0\.0\.1|localhost)[:/]", url)
        if not local and not url.startswith(("data:", "blob:")):
            refused.append(url)

    context.on("request", watch)
    return context, refused


#: The ports the servers of the tests are started on: below the range the system
#: hands out for a port left to it (32768-60999 on Linux: kernels' channels, Chromium's
#: and every other client's end), a block of 1,000 for each test process.  A port the
#: system handed out could be handed out again to another test process's server before
#: this one bound it; then this one failed, and its test was asked of the other
#: server (its page "answered"): a JupyterLab test opened the app of another test.
PORTS = range(20_000, 32_000)


def free_port() -> int:
    """A port free now on 127.0.0.1, from this test process's own block of :data:`PORTS`."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:]
    block = (int(worker) if worker.isdigit() else 0) % (len(PORTS) // 1000)
    low = PORTS.start + 1000 * block
    for port in secrets.SystemRandom().sample(range(low, low + 1000), 1000):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port on 127.0.0.1 from {low} to {low + 999}")


def shot_path(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def shoot(page, name: str, at=None) -> Path:
    """A screenshot of the page as a person sees it, with the part ``at`` (a locator)
    scrolled into view first when given."""
    if at is not None:
        at.scroll_into_view_if_needed()
    path = shot_path(name)
    page.screenshot(path=str(path))
    return path


def review_message(explorer):
    """The line where the app's review of your game speaks."""
    return explorer.locator(".bl-review-message")


def inner_text(locator) -> str:
    return str(locator.inner_text()).strip()


# -- JupyterLab: the notebooks ------------------------------------------------
@dataclass(frozen=True)
class Lab:
    """A JupyterLab server started by :func:`jupyterlab`, serving the folder ``root``
    (notebooks are added to it with :meth:`add` while it runs)."""

    root: Path
    base: str
    token: str
    data: Path  # its JUPYTER_DATA_DIR: where the signatures of trusted notebooks are kept

    def add(self, names: list[str], source: Path | None = None) -> None:
        """Copies of the notebooks ``names`` in the lab's folder.

        ``source``: a folder of notebooks already run (by nbclient, with their outputs),
        copied instead of the repository's and signed as trusted, as a notebook you ran
        yourself is: the lab shows their outputs as a person who opens them sees them."""
        import nbformat
        from nbformat.sign import NotebookNotary

        notary = NotebookNotary(data_dir=str(self.data))
        for name in names:  # the lab saves into its copy
            nb = nbformat.read((source or ROOT / "notebooks") / name, as_version=4)
            if source is not None:
                notary.sign(nb)
            nbformat.write(nb, self.root / name)

    def url(self, name: str, workspace: str) -> str:
        """The address that opens the notebook ``name`` in a workspace of its own (the lab
        does not reopen the notebooks another workspace showed)."""
        return f"{self.base}/lab/workspaces/{workspace}/tree/{name}?token={self.token}"


@contextmanager
def jupyterlab(tmp_path: Path) -> Iterator[Lab]:
    """A JupyterLab server (with a token) over an empty folder of ``tmp_path``, to which
    the tests add their notebooks (:meth:`Lab.add`).  Every cell is kept in the page (no
    windowing), so every output can be found and looked at."""
    root = tmp_path / "notebooks"
    root.mkdir()
    (tmp_path / "data").mkdir()
    settings = tmp_path / "settings"
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))
    # no "Would you like to get notified about Jupyter news?" over the notebook
    news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text(json.dumps({"fetchNews": "false"}))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),  # the notary's signatures (Lab.add)
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
    )
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
        "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--LabApp.news_url=None",  # nothing from the network
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if os.geteuid() == 0:  # CI runs as root
        command.append("--allow-root")
    base = f"http://127.0.0.1:{port}"
    with server(command, f"{base}/api/status?token={token}", tmp_path / "lab.log", env=env):
        yield Lab(root, base, token, tmp_path / "data")


def lab_errors(page) -> list[str]:
    errors = page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
    )
    return list(errors.all_inner_texts())


#: careful's game of deal 4 up to the move that loses it (move 14, 3D>4H).
LOSING_14 = "AH>F AC>F 2C>F 5S>6S TD>JS 9D>TD AS>F 2S>F 3S>F JH>QC AD>F QH>KS JH>QH 3D>4H"
APP_VIEW = {"width": 1280, "height": 800}


def kernels_of(pid: int) -> int:
    """Kernel processes descended from process ``pid`` (read from /proc)."""
    parent: dict[int, int] = {}
    kernel: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        if b"ipykernel" in cmd:
            kernel.add(int(entry.name))

    def under(p: int) -> bool:
        while p > 1:
            p = parent.get(p, 0)
            if p == pid:
                return True
        return False

    return sum(1 for k in kernel if under(k))


def open_app(page, base):
    page.set_viewport_size(APP_VIEW)
    page.goto(base)
    explorer = page.locator(".bl-explorer")
    explorer.wait_for()
    return explorer


def open_play_tab(page, app, number: str):
    """The app's page with game ``number`` shown and its "Play it yourself" tab open."""
    base, _ = app
    explorer = open_app(page, base)
    show_game(page, explorer, number)
    page.get_by_role("tab", name="Play it yourself").click()
    return explorer


def show_game(page, explorer, number: str):
    from playwright.sync_api import expect

    box = explorer.locator(".bl-explorer-game input")
    box.fill(number)
    box.press("Enter")
    expect(explorer.locator(".bl-replay-line").first).to_contain_text("start: 0 of")


def within_screen(locator) -> bool:
    """The element lies inside the window (given a few seconds to settle: a busy machine
    lays the page out late)."""
    for _ in range(20):
        box = locator.bounding_box()
        bottom = APP_VIEW["height"]
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom:
            return True
        time.sleep(0.5)
    print("outside the screen:", locator, box)
    return False


def test_a_page_that_fetches_from_elsewhere_is_listed(page):
    # the watch every "fetched nothing beyond this computer" of these tests relies on
    page.set_content(
        '<img src="http://example.invalid/card.png">'
        '<script>fetch("https://example.invalid/deal").catch(() => {})</script>'
        '<img src="http://127.0.0.1:9/here.png">'
    )
    deadline = time.monotonic() + 60  # a hang guard: both are asked for at once
    while len(page.refused) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert sorted(page.refused) == [
        "http://example.invalid/card.png",
        "https://example.invalid/deal",
    ]


def test_web_app_verdict_fits_the_screen_and_arrow_keys_step(page, app):
    from playwright.sync_api import expect

    base, _ = app
    explorer = open_app(page, base)
    verdict = explorer.locator(".bl-explorer-verdict")
    expect(verdict).to_contain_text("Type a PySolFC game number")
    shoot(page, "app_start")
    box = explorer.locator(".bl-explorer-game input")
    box.fill("abc")
    box.press("Enter")
    expect(verdict).to_have_text(
        "A game number is a whole number from 1 to 99999999999999999999 (10^20 − 1), not 'abc'"
    )
    shoot(page, "app_bad_number")

    show_game(page, explorer, "1")
    expect(verdict).to_contain_text("Winnable: a winning line of 73 moves, replayed by the rule")
    expect(verdict).to_contain_text("par (the fewest moves that win) is 67 moves")
    assert within_screen(verdict), verdict
    replay = explorer.locator(".bl-replay").first
    picture, line = replay.locator(".bakers-lab-board"), replay.locator(".bl-replay-line")
    # the board, the step controls and the move list, all on the screen at 1280 x 800
    for part in (picture, replay.locator("button.bl-next"), replay.locator("select")):
        assert within_screen(part), part
    title = picture.locator(".bakers-lab-title")
    expect(title).to_have_text("Game 1 (Baker's Dozen)")
    shoot(page, "app_winning_line")
    before = picture.inner_html()
    picture.click()  # off the number box: arrow keys step the replay wherever else the focus is
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(line).to_have_text(re.compile(r"^move 2 of 73: \w+>\w+$"))
    expect(title).to_have_text("Game 1 (Baker's Dozen), after 2 moves")
    page.keyboard.press("ArrowLeft")
    expect(line).to_have_text(re.compile(r"^move 1 of 73: "))
    assert picture.inner_html() != before
    page.keyboard.press("End")
    expect(line).to_contain_text("move 73 of 73")
    shoot(page, "app_winning_line_end")

    page.get_by_role("tab", name="A player's game").click()
    expect(explorer.get_by_text("The careful player got stuck after")).to_be_visible()
    shoot(page, "app_player")
    assert page.refused == []  # every request went to 127.0.0.1


def test_web_app_plays_by_clicking_cards_and_says_where_you_lost(page, app):
    from playwright.sync_api import expect

    import bakers_lab as bl
    from bakers_lab.display.widgets import BoardModel

    explorer = open_play_tab(page, app, "4")
    board = explorer.locator(".bl-board")
    svg, status = board.locator(".bakers-lab-svg"), board.locator(".bl-board-status")
    expect(status).to_have_text(re.compile(r"^0 moves played; \d+ legal moves: pick a card$"))
    shoot(page, "app_play_start")
    model = BoardModel(bl.deal(4))  # where each move's target is on the picture
    for k, text in enumerate(LOSING_14.split(), start=1):
        move = bl.Move.parse(text)
        svg.locator(f'[data-card="{move.card}"]').click()
        expect(status).to_contain_text(f"{str(move.card).replace('T', '10')} picked")
        if k == 5:
            shoot(page, "app_play_picked")  # the card outlined, its places framed
            assert svg.locator('[data-target="true"]').count() >= 1
        model.pick(move.card)
        place = next(p for p, m in model.targets().items() if m == move)
        where = (
            f'[data-col="{place}"]' if isinstance(place, int) else f'[data-foundation="{place}"]'
        )
        svg.locator(where).click()
        model.play(move)
        expect(status).to_contain_text(f"{k} move{'s' if k > 1 else ''} played")
    shoot(page, "app_play_lost")

    explorer.locator("button", has_text="Where did I lose?").click()
    message = review_message(explorer)
    expect(message).to_contain_text("Move 14 of 14, 3D>4H, lost the game")
    yours = explorer.locator(".bl-review-yours")
    expect(yours.locator(".bl-replay-line")).to_contain_text("move 14 of 14: 3D>4H ⚑")
    line = explorer.locator(".bl-review-line")
    line_text = line.locator(".bl-replay-line")
    expect(line_text).to_contain_text("start: 0 of ")
    line.locator("button.bl-next").click()
    line.locator("button.bl-next").click()
    expect(line_text).to_contain_text("move 2 of ")
    shoot(page, "app_where_lost", at=line)
    explorer.locator(".bl-review-continue").nth(1).click()  # play on from the line's move 2
    expect(status).to_contain_text("15 moves played")
    expect(message).to_contain_text("now shows this position (15 moves played)")
    assert page.refused == []


def test_web_app_names_the_first_illegal_move_of_a_pasted_game(page, app):
    from playwright.sync_api import expect

    explorer = open_play_tab(page, app, "4")
    paste = explorer.locator(".bl-review-paste textarea")
    paste.fill("1. AH>F\n2. AC>F\n3. 10s>js")
    explorer.locator("button", has_text="Replay this game").click()
    message = review_message(explorer)
    expect(message).to_have_text(
        "Cannot replay these moves: move 3 of 3, 10s>js, is illegal there: 10S is not at the top "
        "of its column"
    )
    shoot(page, "app_paste_illegal", at=paste)
    assert page.refused == []


def test_web_app_ends_the_kernel_of_a_closed_page(browser, app):
    base, pid = app
    # the earlier tests' pages may still be ending theirs: the two pages below, each
    # closed as a person closes a tab, add none (benchmarks/app_load.py opens fifty)
    before = max(2, kernels_of(pid))
    for _ in range(2):
        context = browser.new_context(viewport=APP_VIEW)
        page = context.new_page()
        page.goto(base)
        page.locator(".bl-explorer").wait_for(timeout=STEP_MS)
        page.close(run_before_unload=True)  # as a person closes the tab
        context.close()
    while kernels_of(pid) > before:  # the kernel ends (else the test's timeout ends it)
        time.sleep(0.5)
