#!/usr/bin/env python3
"""Pages an attacker would write to make extraction slow: sitegen vs markdown-it-py.

    python bench/pathological.py [--runs 3] [--kb 360] [--only SHAPE]

Each page is one pattern repeated to about ``--kb`` KB on one line (``'![[]()' * 60000``
is 360 KB), or ``[`` nested that deep and closed. For each it times, alternately in this
process (so a change of load falls on both), sitegen's ``extract_page`` (parse, link
positions, records, the rendered and sanitized HTML) and markdown-it-py's
``MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).render`` (parse and render, with
sitegen's nesting limit, which bounds how deep a link label is scanned). Prints the median of
``--runs`` runs of each, the ratio, and whether it is within the target: sitegen at most
twice markdown-it-py's time for every shape.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable

from markdown_it import MarkdownIt

from sitegen.docs.markdown import extract_page
from sitegen.docs.nesting import MAX_NESTING

TARGET = 2.0


def repeated(unit: str) -> Callable[[int], str]:
    return lambda size: unit * max(size // len(unit), 1)


def nested(size: int) -> str:
    return "[" * (size // 2) + "]" * (size // 2)


#: name (as written in the table), page of about ``size`` bytes
SHAPES: list[tuple[str, Callable[[int], str]]] = [
    ("![[]()", repeated("![[]()")),
    ("[[]()", repeated("[[]()")),
    ("![[x]]", repeated("![[x]]")),
    ("[[", repeated("[[")),
    ("![](", repeated("![](")),
    ("[]()", repeated("[]()")),
    ("![[a|b]]()", repeated("![[a|b]]()")),
    ("[ * n + ] * n", nested),
    ("[](){", repeated("[](){")),
    ("`a`{", repeated("`a`{")),
    ("{: + spaces + x", lambda size: "{:" + " " * size + "x"),
    ("{: #a}\\n## h\\n", repeated("a\n\n{: #a}\n## h\n")),
    # raw HTML left open (issue 27, defect 9): the stdlib parser retried each at every '<'
    ("<!--", repeated("<!--")),
    ("x <!-- ", repeated("x <!-- ")),
    ("<!-- <a href=x> ", repeated("<!-- <a href=x> ")),
    ('<div> + <a id="x ', lambda size: "<div>" + '<a id="x ' * (size // 9) + "<a href=y>"),
    ("<div>\\n + <![CDATA[ >", lambda size: "<div>\n" + "<![CDATA[ >" * (size // 11)),
    # attribute lists and front matter (issue 27, defects 10, 17 and 20)
    ("{:", repeated("{:")),
    ("[a](b.md){.sidebar .c} ", repeated("[a](b.md){.sidebar .c} ")),
    ("{.toc .c}\\npara\\n\\n", repeated("{.toc .c}\npara\n\n")),
    ("front matter of n keys", lambda size: "---\n" + repeated("key: value\n")(size) + "---\n"),
    ("front matter [ * n", lambda size: "---\na: " + "[" * size + "\n---\n"),
    (
        "front matter *a * n",
        lambda size: "---\na: &a [x]\nb: [" + repeated("*a, ")(size) + "]\n---\n",
    ),
]


def measure(md: MarkdownIt, text: str, runs: int) -> tuple[float, float]:
    """Median seconds of sitegen and of markdown-it, run in turn."""
    data = text.encode()
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        extract_page("page.md", data)
        ours.append(time.perf_counter() - start)
        gc.collect()
        start = time.perf_counter()
        md.render(text)
        theirs.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--kb", type=int, default=360, help="size of each page (KB)")
    ap.add_argument("--only", default="", help="only the shapes whose name contains this")
    args = ap.parse_args()
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})
    extract_page("warm.md", b"[a](b.md) ![[c]] {#d}")  # imports, caches
    md.render("[a](b.md)")
    print(
        f"python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}, "
        f"median of {args.runs} runs, pages of about {args.kb} KB\n"
    )
    print("| shape | KB | sitegen s | markdown-it s | ratio | within 2x |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for name, make in SHAPES:
        if args.only not in name:
            continue
        text = make(args.kb * 1000)
        ours, theirs = measure(md, text, args.runs)
        ratio = ours / theirs
        worst = max(worst, ratio)
        shown = name.replace("|", "\\|")  # a table cell, even in code
        print(
            f"| `` {shown} `` | {len(text.encode()) // 1000:,} | {ours:.2f} | {theirs:.2f} | "
            f"{ratio:.2f}x | {'met' if ratio <= TARGET else 'MISSED'} |",
            flush=True,
        )
    print(
        f"\nload average {os.getloadavg()[0]:.1f}; worst ratio {worst:.2f}x "
        f"(target <= {TARGET:g}x): {'met' if worst <= TARGET else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
