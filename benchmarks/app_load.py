"""Does the web app hold up?  A real browser opens and closes the app's page many
times, then several pages at once show a game and step its replay, then one page
shows game after game (its kernel's memory after the first game and after the last).

Starts ``bakers-lab app`` on a free port, drives Debian's Chromium with Playwright
(``/usr/bin/chromium``, headless), and prints after each phase: the kernels alive
(processes under the server), the memory of the server and its kernels (resident,
MiB), and the times a person waits (page ready, game shown, one replay step;
median and worst).  Any request that leaves 127.0.0.1 is counted.

The last phase is one page as a person uses it for an afternoon: it shows games 1,
2, 3, ... in turn (``--games``), and on each steps the winning line, steps the
careful player's game and plays three moves on the board.  It prints the page's
kernel's memory (resident, MiB) after the first game and after the last, and their
ratio (the app keeps it under 1.5).

    python benchmarks/app_load.py                      # 30 opens, 5 pages at once, 50 games
    python benchmarks/app_load.py --opens 10 --pages 3 --idle-minutes 1
    python benchmarks/app_load.py --opens 0 --pages 0 --games 50   # the memory figure only
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"


def processes_under(pid: int) -> list[tuple[int, bytes]]:
    """(pid, command line) of every process descended from ``pid``, from /proc."""
    parent: dict[int, int] = {}
    cmd: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmd[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out = []
    for p, line in cmd.items():
        q = p
        while q > 1:
            q = parent.get(q, 0)
            if q == pid:
                out.append((p, line))
                break
    return out


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def report(phase: str, server: int, waits: dict[str, list[float]], outside: list[str]) -> None:
    under = processes_under(server)
    kernels = [p for p, line in under if b"ipykernel" in line]
    memory = rss_mib(server) + sum(rss_mib(p) for p, _ in under)
    print(f"{phase}: {len(kernels)} kernels alive, {memory:,.0f} MiB (server and kernels)")
    for what, times in waits.items():
        if times:
            print(
                f"    {what}: median {statistics.median(times):.2f} s, "
                f"worst {max(times):.2f} s ({len(times)} times)"
            )
    print(f"    requests beyond 127.0.0.1: {len(outside)}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def watch(page: Any, outside: list[str]) -> None:
    def note(request: Any) -> None:
        if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            outside.append(request.url)

    page.on("request", note)


def open_page(browser: Any, base: str, outside: list[str], ready: list[float]) -> tuple[Any, Any]:
    """A new browser context showing the app, once its explorer is up (the wait noted)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    watch(page, outside)
    t = time.monotonic()
    page.goto(base)
    page.locator(".bl-explorer").wait_for(timeout=180_000)
    ready.append(time.monotonic() - t)
    return context, page


def kernels_of(server: int) -> set[int]:
    """The kernel processes under the server."""
    return {p for p, line in processes_under(server) if b"ipykernel" in line}


def one_game(page: Any, number: int, expect: Any, waits: dict[str, list[float]]) -> None:
    """Show game ``number`` on the page, step its winning line, step the careful
    player's game and play three moves on the board, as a person does."""
    explorer = page.locator(".bl-explorer")
    caption = f"Game {number} ("
    box = page.locator(".bl-explorer-game input")
    box.fill(str(number))
    t = time.monotonic()
    box.press("Enter")
    # the tabs come with the verdict; the player's game (and where it was lost) after
    tabs = explorer.locator(".lm-TabBar-tab")
    expect(explorer.locator(".bl-board", has_text=caption)).to_have_count(1, timeout=300_000)
    expect(tabs.first).to_be_visible(timeout=300_000)
    # the last thing a game shows: the careful player's game, won, or with where it lost
    ended = explorer.get_by_text(re.compile(r"The careful player won|Where it was lost"))
    expect(ended.first).to_be_attached(timeout=300_000)
    waits["game shown"].append(time.monotonic() - t)
    lines = explorer.locator(".bl-replay-line")
    if tabs.first.inner_text().strip() == "Winning line":
        for k in range(1, 6):
            t = time.monotonic()
            explorer.locator(".bl-replay button.bl-next").first.click()
            expect(lines.first).to_contain_text(f"move {k} of", timeout=60_000)
            waits["replay step"].append(time.monotonic() - t)
    tabs.nth(1).click()
    player = explorer.locator(".bl-replay:visible", has_text=caption)
    steps = player.last.locator("button.bl-next")
    for k in range(1, 4):
        if steps.is_enabled():
            steps.click()
            expect(player.last.locator(".bl-replay-line")).to_contain_text(f"move {k} of")
    tabs.nth(2).click()
    legal = explorer.locator(".bl-board-legal button")
    status = explorer.locator(".bl-board-status")
    for k in range(1, 4):
        if legal.count():
            t = time.monotonic()
            legal.first.click()
            expect(status).to_contain_text(f"{k} move", timeout=60_000)
            waits["board move"].append(time.monotonic() - t)
    tabs.first.click()


def games_in_one_page(browser: Any, base: str, server: int, games: int,
                      outside: list[str]) -> None:  # fmt: skip
    """Show ``games`` games in one page; print its kernel's memory after the first
    game and after the last, and their ratio."""
    from playwright.sync_api import expect

    before = kernels_of(server)
    ready: list[float] = []
    context, page = open_page(browser, base, outside, ready)
    waits: dict[str, list[float]] = {"game shown": [], "replay step": [], "board move": []}
    try:
        (kernel,) = kernels_of(server) - before
        first = 0.0
        for number in range(1, games + 1):
            one_game(page, number, expect, waits)
            if number == 1:
                first = rss_mib(kernel)
                print(f"one page, after 1 game: kernel {first:,.0f} MiB", flush=True)
            elif number % 10 == 0:
                print(f"    after {number} games: kernel {rss_mib(kernel):,.0f} MiB", flush=True)
        last = rss_mib(kernel)
        report(f"one page, after {games} games: kernel {last:,.0f} MiB, "
               f"{last / first:.2f} x its size after 1 game", server, waits, outside)  # fmt: skip
    finally:
        page.close(run_before_unload=True)
        context.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opens", type=int, default=30, help="pages opened and closed in turn")
    ap.add_argument("--pages", type=int, default=5, help="pages open at once")
    ap.add_argument("--game", default="4", help="the game the pages show")
    ap.add_argument("--steps", type=int, default=10, help="replay steps each page takes")
    ap.add_argument("--games", type=int, default=50, help="games shown in turn in one page")
    ap.add_argument("--idle-minutes", type=float, default=5.0, help="the app's culling time")
    args = ap.parse_args()
    from playwright.sync_api import expect, sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "bakers_lab.cli", "app", "--port", str(port),
               "--no-browser", "--idle-minutes", str(args.idle_minutes)]  # fmt: skip
    log = open(os.devnull, "wb")  # noqa: SIM115 (closed with the server)
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        t0 = time.monotonic()
        while True:
            try:
                urllib.request.urlopen(base + "voila/static/", timeout=3)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if time.monotonic() - t0 > 120:
                    raise SystemExit("the app did not answer in 120 s") from None
                time.sleep(0.5)
        print(f"app up in {time.monotonic() - t0:.1f} s", flush=True)
        outside: list[str] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            ready: list[float] = []
            for _ in range(args.opens):
                context, page = open_page(browser, base, outside, ready)
                page.close(run_before_unload=True)
                context.close()
            time.sleep(2)
            report(f"after {args.opens} pages opened and closed", server.pid,
                   {"page ready": ready}, outside)  # fmt: skip

            pages, shown, steps = [], [], []
            for _ in range(args.pages):
                pages.append(open_page(browser, base, outside, ready))
            for _, page in pages:  # each shows the game
                box = page.locator(".bl-explorer-game input")
                box.fill(args.game)
                t = time.monotonic()
                box.press("Enter")
                expect(page.locator(".bl-replay-line").first).to_contain_text(
                    "start: 0 of", timeout=180_000
                )
                shown.append(time.monotonic() - t)
            for k in range(1, args.steps + 1):  # and steps its replay, in turn
                for _, page in pages:
                    t = time.monotonic()
                    page.locator(".bl-replay button.bl-next").first.click()
                    expect(page.locator(".bl-replay-line").first).to_contain_text(
                        f"move {k} of", timeout=60_000
                    )
                    steps.append(time.monotonic() - t)
            report(f"{args.pages} pages open, each showing game {args.game}", server.pid,
                   {"game shown": shown, "replay step": steps}, outside)  # fmt: skip
            for context, page in pages:
                page.close(run_before_unload=True)
                context.close()
            time.sleep(3)
            report("after those pages closed", server.pid, {}, outside)
            if args.games:
                games_in_one_page(browser, base, server.pid, args.games, outside)
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
