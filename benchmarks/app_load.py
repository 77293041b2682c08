"""Does the web app hold up?  A real browser opens and closes the app's page many
times, then several pages at once show a game and step its replay.

Starts ``bakers-lab app`` on a free port, drives Debian's Chromium with Playwright
(``/usr/bin/chromium``, headless), and prints after each phase: the kernels alive
(processes under the server), the memory of the server and its kernels (resident,
MiB), and the times a person waits (page ready, game shown, one replay step;
median and worst).  Any request that leaves 127.0.0.1 is counted.

    python benchmarks/app_load.py                      # 30 opens, then 5 pages at once
    python benchmarks/app_load.py --opens 10 --pages 3 --idle-minutes 1
"""

from __future__ import annotations

import argparse
import os
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opens", type=int, default=30, help="pages opened and closed in turn")
    ap.add_argument("--pages", type=int, default=5, help="pages open at once")
    ap.add_argument("--game", default="4", help="the game the pages show")
    ap.add_argument("--steps", type=int, default=10, help="replay steps each page takes")
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
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
