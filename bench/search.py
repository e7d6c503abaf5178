"""Search engines at scale: sitegen's own index (search-index.js) against Pagefind.

    python bench/search.py --pages 5000 --runs 3

Generates a corpus with ../shared/bench/gen_corpus.py (or --corpus DIR), builds it with
sitegen once, then measures, side by side and as medians of --runs:
  - index bytes: search-index.js (raw and gzip) against Pagefind's whole pagefind/ folder
    and what its first query downloads;
  - build cost: sitegen's index step (search_index_script over the build's records) against
    `python -m pagefind --site SITE` over the same HTML;
  - query latency in headless Chromium (/usr/bin/chromium): sitegen's from file:// and the
    first (cold, index load included) and later (warm) queries; Pagefind served over HTTP
    (it cannot run from file://), its cold query and warm ones with the top 5 fragments.
Writes only into a temporary folder; prints markdown tables.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from common import HERE, generate

QUERIES = [
    "caching",
    "deployment migration",
    "token stream",
    "heading paragraph",
    "queue worker",
    "schema",
    "plugin config",
    "latency throughput",
    "release",
    "anchor",
]
CHROMIUM = "/usr/bin/chromium"


def median_time(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def build_site(corpus: Path) -> tuple[Any, Path]:
    sys.path.insert(0, str(HERE.parent))
    from sitegen.build import BuildOptions, build
    from sitegen.config import load_config

    config = load_config(corpus)
    result = build(config, BuildOptions(quiet=True, clean=True))
    return result, config.out_dir


def own_index_cost(result: Any, runs: int) -> float:
    from sitegen.site.emit import publishable_pages
    from sitegen.site.search import search_index_script

    pages = publishable_pages(result)
    return median_time(lambda: search_index_script(pages, result.code_records), runs)


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve_folder(folder: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, int(server.server_address[1])


OWN_QUERY = """async (q) => {
  const input = document.getElementById('search-input');
  const t0 = performance.now();
  input.value = q;
  input.dispatchEvent(new Event('input'));
  while (!window.SITEGEN_SEARCH || !document.querySelector('.search-status').textContent)
    await new Promise(r => setTimeout(r, 1));
  return performance.now() - t0;
}"""

PAGEFIND_QUERY = """async (q) => {
  const t0 = performance.now();
  if (!window.pf) { window.pf = await import('/pagefind/pagefind.js'); await window.pf.init(); }
  const found = await window.pf.search(q);
  await Promise.all(found.results.slice(0, 5).map(r => r.data()));
  return [performance.now() - t0, found.results.length];
}"""


def browser_latencies(site: Path, port: int, runs: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    out: dict[str, list[float]] = {"own cold": [], "own warm": [], "pf cold": [], "pf warm": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        for _ in range(runs):
            page = browser.new_page()
            page.goto((site / "index.html").as_uri())
            out["own cold"].append(page.evaluate(OWN_QUERY, QUERIES[0]))
            for q in QUERIES[1:]:
                page.evaluate("document.querySelector('.search-status').textContent = ''")
                out["own warm"].append(page.evaluate(OWN_QUERY, q))
            page.close()
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/index.html")
            out["pf cold"].append(page.evaluate(PAGEFIND_QUERY, QUERIES[0])[0])
            for q in QUERIES[1:]:
                out["pf warm"].append(page.evaluate(PAGEFIND_QUERY, q)[0])
            page.close()
        browser.close()
    return {k: statistics.median(v) for k, v in out.items()}


def pagefind_first_query_bytes(site: Path, port: int) -> int:
    """Bytes Pagefind downloads for its first query (entry, wasm, index chunks, fragments)."""
    from playwright.sync_api import sync_playwright

    sizes: list[int] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/index.html")
        page.on(
            "response", lambda r: sizes.append(len(r.body())) if "/pagefind/" in r.url else None
        )
        page.evaluate(PAGEFIND_QUERY, QUERIES[0])
        page.wait_for_timeout(500)
        browser.close()
    return sum(sizes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--corpus", type=Path, default=None)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="sitegen-search-bench-"))
    try:
        corpus = args.corpus or tmp / "corpus"
        if args.corpus is None:
            generate(corpus, args.pages)
        result, site = build_site(corpus)
        own_cost = own_index_cost(result, args.runs)
        own_js = (site / "search-index.js").read_bytes()

        def pagefind() -> None:
            shutil.rmtree(site / "pagefind", ignore_errors=True)
            subprocess.run(
                [sys.executable, "-m", "pagefind", "--site", str(site)],
                check=True,
                capture_output=True,
            )

        pf_cost = median_time(pagefind, args.runs)
        server, port = serve_folder(site)
        try:
            pf_first = pagefind_first_query_bytes(site, port)
            lat = browser_latencies(site, port, args.runs)
        finally:
            server.shutdown()
        print(f"{len(result.pages)} pages; median of {args.runs} runs\n")
        print(
            "| engine | index bytes | gzip | first query downloads | build s | cold query ms | warm query ms |"
        )
        print("|---|---|---|---|---|---|---|")
        print(
            f"| sitegen search-index.js (file://) | {len(own_js):,} | {len(gzip.compress(own_js)):,} "
            f"| {len(own_js):,} | {own_cost:.2f} | {lat['own cold']:.0f} | {lat['own warm']:.1f} |"
        )
        print(
            f"| Pagefind (HTTP only) | {folder_bytes(site / 'pagefind'):,} | (pre-compressed) "
            f"| {pf_first:,} | {pf_cost:.2f} | {lat['pf cold']:.0f} | {lat['pf warm']:.1f} |"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
