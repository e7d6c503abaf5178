#!/usr/bin/env python3
"""Linear time in the links of a page: sitegen's extract_page vs markdown-it-py's own parse.

    python bench/linear.py [--runs 3] [--skip-million] [--only NAME]

Each page is generated in memory: one paragraph of 10k, 100k and 1M links, the
``![[]()`` pattern that once took 35 s at 60,000 repetitions, the same links on a line
that is not ASCII, 50-level nested lists and 100-level quotes with a link in every item,
and inline raw HTML (``<kbd>`` around each link, which the sanitizer cleans). For each page
it times, in this process, ``extract_page`` (parse, link positions, headings, the rendered
and sanitized HTML) and ``MarkdownIt("commonmark", {"maxNesting": 120}).enable(["table",
"strikethrough"]).parse`` of the same text (parse only, nesting as deep as sitegen's so both
read the same blocks). Prints the median of ``--runs`` runs (the 1M page and the 60,000 ``![[]()`` once), the time
per link and the ratio; the target is a ratio within 3 at every size.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

from markdown_it import MarkdownIt

from sitegen.docs.markdown import extract_page
from sitegen.docs.nesting import MAX_NESTING


def paragraph_of_links(n: int) -> str:
    return " ".join(f"[link {i}](page{i % 97}.md#s{i % 7})" for i in range(n)) + "\n"


def unicode_line(n: int) -> str:
    return "Käse " + " ".join(f"[läbel {i}](seite{i % 97}.md)" for i in range(n)) + "\n"


def image_brackets(n: int) -> str:
    return "![[]()" * n + "\n"


def nested_lists(n: int, depth: int = 50) -> str:
    block = "".join("  " * d + f"- item [l{d}](p{d}.md)\n" for d in range(depth))
    return "\n".join(block for _ in range(n // depth))


def nested_quotes(n: int, depth: int = 100) -> str:
    block = "".join(">" * (d + 1) + f" q [l{d}](p{d}.md)\n" for d in range(depth))
    return "\n\n".join(block for _ in range(n // depth))


def raw_html_links(n: int) -> str:
    return " ".join(f"<kbd>[k{i}](p{i % 97}.md)</kbd>" for i in range(n)) + "\n"


#: name, page maker, number of links, runs (None: --runs)
PAGES: list[tuple[str, Callable[[int], str], int, int | None]] = [
    ("links, one paragraph", paragraph_of_links, 10_000, None),
    ("links, one paragraph", paragraph_of_links, 100_000, None),
    ("links, one paragraph", paragraph_of_links, 1_000_000, 1),
    ("![[]() repeated", image_brackets, 15_000, None),
    ("![[]() repeated", image_brackets, 60_000, 1),
    ("links, one line, not ASCII", unicode_line, 30_000, None),
    ("lists 50 deep", nested_lists, 30_000, None),
    ("quotes 100 deep", nested_quotes, 30_000, None),
    ("raw <kbd> around links", raw_html_links, 30_000, None),
]


def seconds(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(md: MarkdownIt, text: str, runs: int) -> tuple[int, float, float]:
    """Links found, and the median seconds of sitegen and of markdown-it, run alternately so
    that a change of load on the shared machine falls on both."""
    data = text.encode()
    ours: list[float] = []
    theirs: list[float] = []
    found = 0
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        found = len(extract_page("page.md", data).links)
        ours.append(time.perf_counter() - start)
        theirs.append(seconds(partial(md.parse, text)))
    return found, statistics.median(ours), statistics.median(theirs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-million", action="store_true", help="leave out the 1M-link page")
    ap.add_argument("--only", default="", help="only the pages whose name contains this")
    args = ap.parse_args()
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable(["table", "strikethrough"])
    extract_page("warm.md", paragraph_of_links(1000).encode())  # imports, caches
    md.parse(paragraph_of_links(1000))
    print(
        f"python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}, "
        f"median of {args.runs} runs (the 1M page and ![[]() x 60,000: 1)\n"
    )
    print("| page | links | KB | sitegen s | markdown-it s | µs/link sitegen | ratio |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for name, make, n, runs in PAGES:
        if (args.skip_million and n >= 1_000_000) or args.only not in name:
            continue
        text = make(n)
        found, ours, theirs = measure(md, text, runs or args.runs)
        worst = max(worst, ours / theirs)
        print(
            f"| {name} | {found:,} | {len(text.encode()) // 1024:,} | {ours:.2f} | {theirs:.2f} | "
            f"{ours / max(found, 1) * 1e6:.1f} | {ours / theirs:.2f}x |",
            flush=True,
        )
    print(
        f"\nload average {os.getloadavg()[0]:.1f}; worst ratio {worst:.2f}x (target <= 3x): "
        f"{'met' if worst <= 3 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
