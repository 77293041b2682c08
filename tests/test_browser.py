"""The notebooks and the web app in a real browser: headless Chromium driven by Playwright.

Each test starts its server on a free localhost port (JupyterLab with a token, or
``bakers-lab app``), clicks through the page like a person, and checks what the page
shows.  Requests to anything but the local server are refused (the pages must work
offline).  Screenshots (1280 pixels wide) go to ``tests/screenshots/`` (git-ignored;
``BAKERS_LAB_SCREENSHOTS`` names another directory).

Playwright drives Debian's Chromium (``/usr/bin/chromium``; ``.ci/run`` installs it) and
never downloads a browser; without it the tests are skipped, saying why.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(os.environ.get("BAKERS_LAB_SCREENSHOTS", ROOT / "tests" / "screenshots"))
VIEWPORT = {"width": 1280, "height": 900}
#: Seconds a server may take to answer, and a page to show what a step asks for (the
#: kernel runs the solver, the notebook a whole run; the machine may be busy).
START = 120
STEP_MS = 180_000


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs it: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    sync_api.expect.set_options(timeout=STEP_MS)
    with sync_api.sync_playwright() as pw:
        try:
            chromium = pw.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--headless", "--no-sandbox", "--disable-gpu"],
            )
        except Exception as exc:  # a browser that will not start: say why, do not fail
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {exc}".splitlines()[0])
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(STEP_MS)
    refused: list[str] = []

    def local_only(route):
        url = route.request.url
        if re.match(r"^(https?|wss?)://(127\.0\.0\.1|localhost)[:/]", url) or url.startswith(
            ("data:", "blob:")
        ):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    context.route("**/*", local_only)
    p = context.new_page()
    p.refused = refused  # what the page tried to fetch from elsewhere
    try:
        yield p
    finally:
        context.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(command: list[str], ready_url: str, log: Path, **kwargs) -> Iterator[None]:
    """Run a server in a process group of its own until ``ready_url`` answers (with
    any HTTP status); stop it and the kernels it started afterwards, whatever happened."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **kwargs
        )
        try:
            deadline = time.monotonic() + START
            while True:
                if proc.poll() is not None:
                    raise AssertionError(f"server exited ({proc.returncode}):\n{log.read_text()}")
                try:
                    with urllib.request.urlopen(ready_url, timeout=5):
                        break
                except urllib.error.HTTPError:  # an answer all the same: it is up
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise AssertionError(
                            f"no answer at {ready_url} in {START} s:\n{log.read_text()}"
                        ) from None
                    time.sleep(0.5)
            yield
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # the group started above, by its id
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def shoot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def inner_text(locator) -> str:
    return str(locator.inner_text()).strip()


# -- JupyterLab: the replay notebook -------------------------------------------
def test_jupyterlab_runs_the_replay_notebook_and_steps_the_replay(page, tmp_path):
    from playwright.sync_api import expect

    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(ROOT / "notebooks" / "01_replay.ipynb", root)  # the lab saves into its copy
    port, token = free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
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
        page.goto(f"{base}/lab/tree/01_replay.ipynb?token={token}")
        page.locator(".jp-Notebook").first.wait_for()
        # run only once the notebook's kernel is up (before, the lab asks which to start)
        page.get_by_role("button", name=re.compile(r"^Python 3.*\| Idle$")).wait_for()
        news = page.get_by_role("alert").filter(has_text="Jupyter news")
        if news.count():
            news.get_by_role("button", name="No").click()
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()

        replay = page.locator(".bl-replay").first
        line = replay.locator(".bl-replay-line")
        expect(line).to_have_text(re.compile(r"^start: 0 of \d+ moves"))
        picture = replay.locator(".bakers-lab-board")
        before = picture.inner_html()
        assert 'data-highlight="true"' not in before
        replay.scroll_into_view_if_needed()
        shoot(page, "lab_replay_start")
        replay.locator("button", has_text="next").click()
        expect(line).to_have_text(re.compile(r"^move 1 of \d+: \w\w>\w+"))
        after = picture.inner_html()
        assert after != before and 'data-highlight="true"' in after
        shoot(page, "lab_replay_move_1")
        # the run reaches the last cell (game 417 spends the solver's whole budget)
        last = page.get_by_text(re.compile("bakers_dozen game 417: not settled"))
        last.wait_for()
        for name, part in (("lab_board", ".bl-board"), ("lab_compare", ".bl-compare")):
            page.locator(part).first.scroll_into_view_if_needed()
            shoot(page, name)
        last.scroll_into_view_if_needed()
        shoot(page, "lab_end")
        errors = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        )
        assert errors.count() == 0, errors.all_inner_texts()


# -- the web app ----------------------------------------------------------------
def test_web_app_shows_a_verdict_steps_the_replay_and_plays_a_move(page, tmp_path):
    from playwright.sync_api import expect

    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "bakers_lab.cli", "app", "--port", str(port), "--no-browser"]
    with server(command, base + "voila/static/", tmp_path / "app.log", cwd=tmp_path):
        # Voilà's page scrolls inside itself, so the screenshots take a tall window
        page.set_viewport_size({"width": VIEWPORT["width"], "height": 1500})
        page.goto(base)
        explorer = page.locator(".bl-explorer")
        box = explorer.locator(".bl-explorer-game input")
        verdict = explorer.locator(".bl-explorer-verdict")
        expect(verdict).to_contain_text("Type a PySolFC game number")
        shoot(page, "app_start")

        box.fill("abc")
        box.press("Enter")
        expect(verdict).to_contain_text("A game number is a whole number from 1 to")
        shoot(page, "app_bad_number")

        box.fill("1")
        explorer.locator("button", has_text=re.compile("^ *Show$")).click()
        expect(verdict).to_contain_text(
            "Winnable: a winning line of 73 moves, replayed by the rule engine"
        )
        replay = explorer.locator(".bl-replay").first
        line = replay.locator(".bl-replay-line")
        expect(line).to_have_text("start: 0 of 73 moves")
        picture = replay.locator(".bakers-lab-board")
        before = picture.inner_html()
        replay.locator("button", has_text="next").click()
        expect(line).to_have_text(re.compile(r"^move 1 of 73: \w\w>\w+$"))
        assert picture.inner_html() != before
        shoot(page, "app_winning_line")

        page.get_by_role("tab", name="A player's game").click()
        expect(explorer.get_by_text("The careful player got stuck after")).to_be_visible()
        shoot(page, "app_player")

        page.get_by_role("tab", name="Play it yourself").click()
        board = explorer.locator(".bl-board")
        status = board.locator(".bl-board-status")
        expect(status).to_have_text(re.compile(r"^0 moves played; \d+ legal moves: pick a card$"))
        drawing = board.locator(".bakers-lab-board")
        before = drawing.inner_html()
        board.locator(".bl-board-cards button", has_text=re.compile("^AD$")).click()
        expect(status).to_have_text("AD picked: choose where it goes")
        board.locator(".bl-board-targets button", has_text=re.compile("^AD>F$")).click()
        expect(status).to_have_text(re.compile(r"^1 move played, last AD>F; "))
        after = drawing.inner_html()
        assert after != before
        assert 'data-foundation="D" data-count="1"' in after
        shoot(page, "app_board")
