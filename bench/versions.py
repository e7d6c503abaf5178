#!/usr/bin/env python3
"""What a change costs the build: two revisions of sitegen, side by side, on one corpus.

    python bench/versions.py BEFORE [AFTER] [--pages 5000] [--runs 3] [--jobs 1]

Exports each revision of this repository (``git archive``, AFTER defaults to the work tree)
into a temporary folder, generates a corpus with ../shared/bench/gen_corpus.py, and runs, in
turn so that a change of load falls on both, ``sitegen build --clean --jobs N`` and then a
rebuild after one page is edited, with each revision first on ``PYTHONPATH``. Times are the
CPU seconds (user + system) of the build process and its children, which a shared machine
disturbs less than wall time. Prints the medians and AFTER / BEFORE. Writes only in its
temporary folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import REPO, generate
from common import sitegen as sitegen_cmd

EDIT = "\nOne more sentence, appended by the benchmark.\n"


def export(rev: str | None, dest: Path) -> Path:
    """The sitegen package of ``rev`` (None: the work tree) in ``dest``; the folder to put
    first on PYTHONPATH."""
    dest.mkdir(parents=True)
    # The templates ship as sitegen.templates from the top-level templates/ folder
    # (pyproject.toml): each revision's go inside its package, or both sides would render
    # with the installed checkout's templates.
    if rev is None:
        shutil.copytree(REPO / "sitegen", dest / "sitegen")
        shutil.copytree(REPO / "templates", dest / "sitegen" / "templates")
        return dest
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "sitegen", "templates"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    (dest / "templates").rename(dest / "sitegen" / "templates")
    return dest


def cpu_of(command: list[str], cwd: Path, path: Path) -> float:
    """The CPU seconds (user + system) ``command`` and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0"}
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def one_run(corpus: Path, path: Path, jobs: int) -> tuple[float, float]:
    """A clean build and a one-page-edit rebuild of ``corpus`` with the sitegen at ``path``."""
    for name in ("site-sitegen", ".sitegen"):
        shutil.rmtree(corpus / name, ignore_errors=True)
    full = cpu_of(sitegen_cmd("build", "--clean", "--quiet", "--jobs", str(jobs)), corpus, path)
    page = sorted((corpus / "docs").rglob("*.md"))[0]
    original = page.read_text(encoding="utf-8")
    page.write_text(original + EDIT, encoding="utf-8")
    try:
        edit = cpu_of(sitegen_cmd("build", "--quiet", "--jobs", str(jobs)), corpus, path)
    finally:
        page.write_text(original, encoding="utf-8")
    return full, edit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after", nargs="?", default=None)
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sitegen-versions-") as tmp:
        base = Path(tmp)
        paths = {
            "before": export(args.before, base / "before"),
            "after": export(args.after, base / "after"),
        }
        corpus = base / "corpus"
        pages = generate(corpus, args.pages)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in paths}
        for run in range(args.runs):
            for name, path in paths.items():
                times[name].append(one_run(corpus, path, args.jobs))
                print(f"run {run + 1} {name}: {times[name][-1]}", file=sys.stderr)
    print(f"{pages} pages, --jobs {args.jobs}, median of {args.runs} runs, CPU seconds")
    print(f"| | {args.before} | {args.after or 'work tree'} | after / before |")
    print("|---|---|---|---|")
    for i, what in enumerate(("clean build", "one-page edit")):
        before = statistics.median(t[i] for t in times["before"])
        after = statistics.median(t[i] for t in times["after"])
        print(f"| {what} | {before:.2f} | {after:.2f} | {after / before:.3f} |")


if __name__ == "__main__":
    main()
