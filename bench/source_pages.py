#!/usr/bin/env python3
"""Source-page highlighting in the page workers: a code-heavy build with ``--jobs 1`` vs ``2``.

    python bench/source_pages.py ~/src/zstd --runs 3

Copies the project to a temporary folder, then runs ``sitegen build --clean --quiet`` with
each ``--jobs`` in turn (alternating, in fresh processes, ``SITEGEN_TIMINGS=1``), and prints
the median wall time of the whole build and of its emit phase (where source pages are
highlighted and rendered), and the ratio jobs=1 / jobs=N. Also checks that every output is
the same bytes for every ``--jobs``. Writes only into its temporary folder.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, sitegen

_PHASE = re.compile(r"sitegen timing: (.+?) ([0-9.]+) s")


def build(root: Path, jobs: int) -> tuple[float, dict[str, float]]:
    env = {**os.environ, "SITEGEN_TIMINGS": "1", "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    proc = subprocess.run(
        sitegen("build", "--root", str(root), "--jobs", str(jobs), "--clean", "--quiet"),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    return wall, {m.group(1): float(m.group(2)) for m in _PHASE.finditer(proc.stderr)}


def snapshot(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sitegen-sources-") as tmp:
        root = Path(tmp) / args.project.name
        shutil.copytree(
            args.project, root, ignore=shutil.ignore_patterns(".git", "site", ".sitegen")
        )
        walls: dict[int, list[float]] = {j: [] for j in args.jobs}
        emits: dict[int, list[float]] = {j: [] for j in args.jobs}
        outputs: dict[int, dict[str, bytes]] = {}
        for _ in range(args.runs):
            for jobs in args.jobs:
                wall, phases = build(root, jobs)
                walls[jobs].append(wall)
                emits[jobs].append(phases.get("emit", float("nan")))
                outputs[jobs] = snapshot(root / "site")
        first = args.jobs[0]
        same = all(outputs[j] == outputs[first] for j in args.jobs)
        files = len(list((root / "site" / "code").rglob("*.html")))
        load = os.getloadavg()[0]
        print(
            f"{args.project.name}: {files} source pages; median of {args.runs} runs; "
            f"load average {load:.1f}; outputs identical for every --jobs: {'yes' if same else 'NO'}"
        )
        print()
        print("| jobs | build s | emit s | build vs jobs=1 | emit vs jobs=1 |")
        print("|------|---------|--------|-----------------|----------------|")
        base_wall, base_emit = statistics.median(walls[first]), statistics.median(emits[first])
        for jobs in args.jobs:
            wall, emit = statistics.median(walls[jobs]), statistics.median(emits[jobs])
            print(
                f"| {jobs} | {wall:.2f} | {emit:.2f} | {base_wall / wall:.2f}x | "
                f"{base_emit / emit:.2f}x |"
            )


if __name__ == "__main__":
    main()
