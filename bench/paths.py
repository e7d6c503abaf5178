#!/usr/bin/env python3
"""The path conversions of a large site: this checkout's link step and page hrefs against
another checkout's (the competitor is sitegen before a change to sitegen/base/paths.py).

    git archive main | tar -x -C /tmp/base    # the code to compare against
    python bench/paths.py --baseline /tmp/base [--pages 5000] [--runs 5]

Each side runs in its own process with its checkout first on ``sys.path``, over the same
pages generated in memory (folders of 100 pages, 20 links each: siblings with anchors,
other folders, site-absolute, missing, wikilinks, READMEs outside the content folder). Timed,
per run: ``link_all`` from a fresh index (every resolution computed), then every page's node,
output path and the href of each resolved link (what the page emitter asks for). Extraction
is not timed. The sides alternate (``--rounds`` processes each, ``--runs`` runs per process);
prints the median per side and the ratio, and checks both wrote the same hrefs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _pages(count: int) -> dict[str, str]:
    folders = max(1, count // 100)
    pages: dict[str, str] = {f"pkg{k}/README.md": f"# Package {k}\n" for k in range(folders)}
    for i in range(count):
        f, j = i % folders, i // folders
        links = []
        for n in range(4):
            links += [
                f"[s](p{(j + n) % 100}.md#part-{n})",
                f"[o](../f{(f + n) % folders}/p{j}.md)",
                f"[a](/f{(f + n + 1) % folders}/p{(j + n) % 100}.md#part-1)",
                f"[m](gone{n}.md)",
                f"[[p{(j + n + 2) % 100}]]",
            ]
        links[-1] = f"[r](../../pkg{f}/README.md)"
        body = "\n\n".join(
            f"## Part {n}\n\n" + " ".join(links[n * 5 : n * 5 + 5]) for n in range(4)
        )
        pages[f"content/f{f}/p{j}.md"] = f"# Page {i}\n\n{body}\n"
    return pages


def _use_checkout(checkout: str) -> None:
    """Import sitegen from ``checkout``, not from the editable install of this venv."""
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in f.__module__]
    sys.path.insert(0, checkout)


def _worker(count: int, runs: int) -> None:
    from sitegen.base.paths import href_between, html_out_path, page_node_of
    from sitegen.docs.markdown import extract_page
    from sitegen.link.rules import SiteIndex
    from sitegen.link.step import link_all

    pages = _pages(count)
    records = [extract_page(p, t.encode()) for p, t in sorted(pages.items())]
    dirs = {p.rsplit("/", 1)[0] for p in pages} | {"content"}
    link_s, href_s = [], []
    for _ in range(runs):
        index = SiteIndex(
            content="content", pages=set(pages), assets=set(), sources=set(), dirs=dirs
        )
        start = time.perf_counter()
        linked = link_all(index, records, [], {})
        link_s.append(time.perf_counter() - start)
        html_out_path.cache_clear()
        start = time.perf_counter()
        hrefs = 0
        for rec in records:
            node = page_node_of("content", rec.path)
            out = html_out_path(node)
            for res in linked.resolutions.get(node, []):
                if res.node is not None and res.node.startswith("/"):
                    hrefs += len(href_between(out, html_out_path(res.node), res.fragment))
        href_s.append(time.perf_counter() - start)
    import sitegen

    print(
        json.dumps(
            {"link": link_s, "hrefs": href_s, "hrefs_written": hrefs, "from": sitegen.__file__}
        )
    )


def _side(checkout: Path, count: int, runs: int) -> dict[str, Any]:
    args = [sys.executable, str(HERE / "paths.py"), "--worker", str(checkout)]
    out = subprocess.run(
        [*args, "--pages", str(count), "--runs", str(runs)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    assert result["from"].startswith(str(checkout)), f"sitegen imported from {result['from']}"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of sitegen to compare with")
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5, help="runs per process")
    parser.add_argument("--rounds", type=int, default=2, help="processes per side, alternated")
    parser.add_argument("--worker", metavar="CHECKOUT", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.worker:
        _use_checkout(opts.worker)
        _worker(opts.pages, opts.runs)
        return
    if opts.baseline is None:
        parser.error("--baseline DIR is required (a checkout of sitegen to compare with)")
    times: dict[str, dict[str, list[float]]] = {"here": {}, "base": {}}
    written = set()
    for _ in range(opts.rounds):  # alternated, so a change in the machine's load hits both
        for side, checkout in (("base", opts.baseline), ("here", HERE.parent)):
            result = _side(checkout, opts.pages, opts.runs)
            written.add(result["hrefs_written"])
            for step in ("link", "hrefs"):
                times[side].setdefault(step, []).extend(result[step])
    assert len(written) == 1, f"the two sides wrote different hrefs: {written}"
    total = opts.runs * opts.rounds
    print(f"{opts.pages} pages, median of {total} runs per side, load {os.getloadavg()[0]:.1f}\n")
    print("| step | this checkout (s) | baseline (s) | this / baseline |")
    print("|------|-------------------|--------------|-----------------|")
    for step in ("link", "hrefs"):
        here, base = (statistics.median(times[s][step]) for s in ("here", "base"))
        print(f"| {step} | {here:.3f} | {base:.3f} | {here / base:.2f} |")


if __name__ == "__main__":
    main()
