"""Save-to-reloaded-page time of `sitegen serve` against `mkdocs serve` (both live-reload).

    python bench/serve_reload.py --pages 1000 --runs 5

Generates a corpus with ../shared/bench/gen_corpus.py, starts each server on a free loopback
port, opens the middle page in headless Chromium (/usr/bin/chromium), then --runs times
appends a new sentence to that page's markdown and times until the sentence is visible in the
open page (no reload call: the server's own live reload brings it). Median per server and the
ratio; writes only into a temporary folder.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from common import generate, mkdocs, sitegen

CHROMIUM = "/usr/bin/chromium"
#: Issue 19: from the save to the edit visible in the open page, at 5,000 pages.
TARGET_SECONDS = 1.5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, seconds: float = 300) -> None:
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"{url} never answered")


def time_edits(browser: Any, url: str, page_file: Path, runs: int, tag: str) -> list[float]:
    page = browser.new_page()
    page.goto(url)
    times = []
    for i in range(runs):
        marker = f"Freshly saved sentence {tag} {i} zq{time.monotonic_ns()}."
        time.sleep(1.0)  # let the previous reload settle
        t0 = time.perf_counter()
        with page_file.open("a", encoding="utf-8") as fh:
            fh.write(f"\n\n{marker}\n")
        page.wait_for_function(
            "m => document.body && document.body.innerText.includes(m)",
            arg=marker,
            timeout=120_000,
            polling=20,
        )
        times.append(time.perf_counter() - t0)
    page.close()
    return times


def serve_and_time(
    browser: Any, cmd: list[str], cwd: Path, url: str, page_file: Path, runs: int, tag: str
) -> list[float]:
    """Start the server ``cmd``, time ``runs`` edits of ``page_file`` seen at ``url``, stop it."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(url)
        return time_edits(browser, url, page_file, runs, tag)
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-mkdocs", action="store_true")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="sitegen-serve-bench-"))
    try:
        corpus = tmp / "corpus"
        generate(corpus, args.pages)
        pages = sorted((corpus / "docs").rglob("*.md"))
        middle = pages[len(pages) // 2]
        # The corpus's mkdocs.yml asks for directory URLs, which both servers follow: the page
        # is served at its folder's address (content/guides/urls.md).
        rel = middle.relative_to(corpus / "docs").with_suffix("").as_posix() + "/"
        rel = "" if rel == "index/" else rel
        results: dict[str, list[float]] = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            port = free_port()
            results["sitegen serve"] = serve_and_time(
                browser,
                sitegen("serve", "--port", str(port), "--quiet"),
                corpus,
                f"http://127.0.0.1:{port}/{rel}",
                middle,
                args.runs,
                "s",
            )
            if not args.no_mkdocs and shutil.which("mkdocs"):
                port = free_port()
                mk_rel = rel
                results["mkdocs serve"] = serve_and_time(
                    browser,
                    mkdocs("serve", "-a", f"127.0.0.1:{port}"),
                    corpus,
                    f"http://127.0.0.1:{port}/{mk_rel}",
                    middle,
                    args.runs,
                    "m",
                )
            browser.close()
        print(f"{args.pages} pages, save to reloaded page, median of {args.runs} edits\n")
        print("| server | median s | min s | max s | vs mkdocs |")
        print("|---|---|---|---|---|")
        base = statistics.median(results["mkdocs serve"]) if "mkdocs serve" in results else None
        for name, times in results.items():
            med = statistics.median(times)
            ratio = f"{base / med:.2f}x" if base else "-"
            print(f"| {name} | {med:.2f} | {min(times):.2f} | {max(times):.2f} | {ratio} |")
        print()
        for name, times in results.items():
            print(f"- {name}, each edit: " + ", ".join(f"{t:.2f}" for t in times))
        med = statistics.median(results["sitegen serve"])
        ok = med <= TARGET_SECONDS
        verdict = "met" if ok else f"MISSED: {med / TARGET_SECONDS:.2f}x the limit"
        print(
            f"- sitegen save to visible, median: {med:.2f} s (target <= {TARGET_SECONDS:g} s "
            f"at 5,000 pages; this run: {args.pages}) -> {verdict}"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
