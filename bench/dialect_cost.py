#!/usr/bin/env python3
"""What reading Material's syntaxes costs a build that does not use them, and one that does.

    python bench/dialect_cost.py [--pages 5000] [--runs 3] [--jobs 1]

Generates a corpus with ../shared/bench/gen_corpus.py and builds it (``--clean``) three ways
in turn: as it is, with ``markdown_extensions = ["material"]`` (every syntax of the pymdownx
family read, none written: the gates' cost), and with that option on pages that each hold
an icon, keys, an attribute list and grid cards (what the syntaxes cost where they are
used; content/syntax/material.md). Prints the median CPU seconds (user + system) of each and
its ratio to the first. Writes only in its temporary folder.

Runs in a fixed order, and system time grows from one clean build to the next on this
machine (the folders each removes); compare user time, or in-process extraction, when the
ratios and the order disagree.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from common import REPO, generate, sitegen
from versions import cpu_of

USED = (
    "\n\nPress ++ctrl+c++ :material-file-tree:{ .lg } ^^new^^ H~2~O\n\n"
    '<div class="grid cards" markdown>\n\n- __A card__\n\n    ---\n\n    text\n\n</div>\n'
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        pages = generate(corpus, args.pages)
        toml = corpus / "sitegen.toml"
        plain = toml.read_text(encoding="utf-8") if toml.exists() else ""
        times: dict[str, list[float]] = {"plain": [], "material, unused": [], "material, used": []}
        page_files = sorted((corpus / "docs").rglob("*.md"))
        originals = {p: p.read_bytes() for p in page_files}
        for _ in range(args.runs):
            for name in times:
                toml.write_text(
                    plain + ('\nmarkdown_extensions = ["material"]\n' if name != "plain" else ""),
                    encoding="utf-8",
                )
                for p, data in originals.items():
                    p.write_bytes(data + (USED.encode() if name.endswith("used") else b""))
                for folder in ("site-sitegen", ".sitegen"):
                    shutil.rmtree(corpus / folder, ignore_errors=True)
                command = sitegen("build", "--clean", "--quiet", "--jobs", str(args.jobs))
                times[name].append(cpu_of(command, corpus, REPO))
                print(f"{name}: {times[name][-1]:.2f}", flush=True)
        base = statistics.median(times["plain"])
        print(f"{pages} pages, --jobs {args.jobs}, median of {args.runs} runs, CPU seconds")
        print("| | CPU s | / plain |\n|---|---|---|")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"| {name} | {median:.2f} | {median / base:.3f} |")


if __name__ == "__main__":
    main()
