#!/usr/bin/env python3
"""Full build of a generated docs corpus: sitegen vs mkdocs (small nav) vs the markdown floor.

    python bench/build_vs_mkdocs.py [--pages 2000] [--runs 3] [--jobs 0] [--before PYTHON]

Generates the corpus with ../shared/bench/gen_corpus.py, then times, side by side in one run:
``sitegen build`` (a clean build: caches removed before each run), ``mkdocs build -f
mkdocs-smallnav.yml`` (mkdocs's fastest fair setup), and markdown-it-py parse + render of the
same pages alone in one process (the floor). Prints the median of the runs, pages/s and ratios.
``--before PYTHON`` also times ``PYTHON -m sitegen.commands.cli build`` in each run: an interpreter
with the code before a change installed (non-editable, in its own venv), so the cost of the
change is measured side by side with it, under the same load.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import generate, mkdocs_build, sitegen


def timed(cmd: list[str], cwd: Path, before: callable = lambda: None) -> float:  # type: ignore[valid-type]
    before()
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


FLOOR = """
import sys, time, pathlib
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark").enable("table")
files = sorted(pathlib.Path(sys.argv[1]).rglob("*.md"))
texts = [f.read_text(encoding="utf-8") for f in files]
start = time.perf_counter()
for t in texts:
    md.render(t)
print(time.perf_counter() - start)
"""


def floor(docs: Path) -> float:
    out = subprocess.run(
        [sys.executable, "-c", FLOOR, str(docs)], check=True, capture_output=True, text=True
    )
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="sitegen --jobs (0 = one per core)")
    ap.add_argument("--before", default="", help="a Python with the earlier sitegen installed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        pages = generate(corpus, args.pages)

        def clean() -> None:
            for d in ("site", "site-sitegen", ".sitegen"):
                shutil.rmtree(corpus / d, ignore_errors=True)

        sitegen_cmd = sitegen("build", "--quiet", "--jobs", str(args.jobs))
        mkdocs_cmd = mkdocs_build(Path(tmp) / "mkdocs-site")
        before_cmd = [args.before, *sitegen_cmd[1:]] if args.before else []
        times: dict[str, list[float]] = {
            "sitegen build": [],
            **({"sitegen before": []} if before_cmd else {}),
            "mkdocs small-nav": [],
            "markdown-it floor": [],
        }
        for _ in range(args.runs):
            times["sitegen build"].append(timed(sitegen_cmd, corpus, clean))
            if before_cmd:
                times["sitegen before"].append(timed(before_cmd, corpus, clean))
            times["mkdocs small-nav"].append(timed(mkdocs_cmd, corpus))
            times["markdown-it floor"].append(floor(corpus / "docs"))
    med = {k: statistics.median(v) for k, v in times.items()}
    base = pages / med["mkdocs small-nav"]
    print(f"{pages} pages, median of {args.runs} runs\n")
    print(f"| {'tool':<20} | {'seconds':>8} | {'pages/s':>8} | {'vs mkdocs':>9} |")
    print(f"|{'-' * 22}|{'-' * 10}|{'-' * 10}|{'-' * 11}|")
    for name, secs in med.items():
        rate = pages / secs
        print(f"| {name:<20} | {secs:8.2f} | {rate:8.0f} | {rate / base:8.2f}x |")


if __name__ == "__main__":
    main()
