"""Stale pages and change impact on a real repository (issue 23), next to git's own time for
the same history: the stale-docs pass (what pages document + one ``git log --name-status``
pass + the line-level ``git log -p`` of the documented ranges) and ``impact`` over the last
N commits, beside ``git log`` and ``git ls-tree`` over the same ranges (git run as sitegen
runs it, sitegen/base/gitrun.py).

    python bench/stale.py --repo /tmp/httpx --runs 5 --commits 50

``--repo`` is a clone with its history (``git clone`` the bare git dir the fetch tool gives).
The build itself is timed once and left out of the figures: both passes run on its result.
Writes nothing into the repository but sitegen's cache folder ``.sitegen/``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sitegen.analyse.githistory import forget
from sitegen.analyse.impact import changes_since, impact_of, importers_of
from sitegen.analyse.stale import documents_of_build, stale_pages
from sitegen.base.gitrun import run_git
from sitegen.build import BuildOptions, build
from sitegen.config import load_config


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def git(root: Path, *args: str) -> Callable[[], object]:
    """git's own time for the same read, run as sitegen runs git (sitegen/base/gitrun.py)."""
    return lambda: run_git(root, list(args))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--commits", type=int, default=50)
    args = parser.parse_args()
    root: Path = args.repo.resolve()
    started = time.perf_counter()
    result = build(load_config(root), BuildOptions(write_site=False, quiet=True, jobs=1))
    built = time.perf_counter() - started
    docs = documents_of_build(result)
    refs = sum(len(r) for r in docs.values())
    report = stale_pages(root, docs)
    since = f"HEAD~{args.commits}"
    importers = importers_of(result.code)

    def impact() -> object:
        commit, diffs = changes_since(root, since)
        return impact_of(commit, since, diffs, docs, importers)

    found = impact()
    assert not isinstance(found, Exception)
    lined = sorted({r.path for refs_ in docs.values() for r in refs_ if not r.whole_file})
    rows = [
        ("documents of every page (no git)", median_seconds(lambda: documents_of_build(result), args.runs)),
        ("stale-docs pass (both git passes)", median_seconds(lambda: (forget(), stale_pages(root, docs)), args.runs)),
        ("  the same again in one process (sitegen serve)", median_seconds(lambda: stale_pages(root, docs), args.runs)),
        ("  git log --name-status -M (whole history)", median_seconds(git(root, "log", "--name-status", "-M", "--format=%H", "HEAD"), args.runs)),
        ("  git log -p -U0 of the documented files", median_seconds(git(root, "log", "-p", "--unified=0", "-M", "HEAD", "--", *lined), args.runs)),
        (f"impact --since {since} (no build)", median_seconds(impact, args.runs)),
        (f"  git ls-tree -r {since} (the work tree is hashed and diffed in Python)", median_seconds(git(root, "ls-tree", "-r", since), args.runs)),
        (f"  git log --name-status {since}..HEAD", median_seconds(git(root, "log", "--name-status", "--format=%H", f"{since}..HEAD"), args.runs)),
    ]  # fmt: skip
    print(f"repository: {root} ({report.cost.commits} commits reachable from HEAD)")
    print(
        f"build (once, not in the figures): {built:.2f} s; {len(result.pages)} pages, "
        f"{len(result.code_records)} source files; {len(docs)} pages document code "
        f"({refs} references, {len(lined)} files with documented ranges)"
    )
    print(
        f"stale pages: {len(report.pages)}; line-level pass read {report.cost.line_commits} "
        f"commits of {report.cost.line_files} files"
    )
    print(
        f"impact {since}: {len(found.changed)} changed files, {len(found.direct)} direct and "
        f"{len(found.pages) - len(found.direct)} indirect pages\n"
    )
    print(f"| step (median of {args.runs}) | seconds |")
    print("|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.3f} |")
    print()
    for page in report.pages:
        for stale in page.refs:
            newest = stale.commits[0]
            print(
                f"- {page.page} (last change {page.last_change.short} {page.last_change.date}): "
                f"{stale.ref.target()} ({stale.ref.how}) changed by {len(stale.commits)} "
                f"commit(s), latest {newest.short} {newest.date} {newest.subject!r}"
            )


if __name__ == "__main__":
    main()
