"""Stale pages: a page is stale when what it documents changed in a commit after the page's
own last change (content/guides/stale-pages.md).

A whole file counts as changed when a commit changed the file; a symbol, a line range or a
snippet range only when the commit touched those lines. The facts come from git
(sitegen/analyse/githistory.py): one ``git log`` pass for files, and line-level history only
for the documented ranges of files that changed after their page. Never mutates the graphs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sitegen.analyse.check import STALE_DOC, Finding
from sitegen.analyse.githistory import (
    FileDiff,
    History,
    line_history,
    map_back,
    read_history,
    work_tree_diff,
)
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.gitrun import GitError, is_checkout, is_shallow
from sitegen.base.paths import SitePath
from sitegen.link.documented import documented
from sitegen.records.stale import Commit, Cost, DocRef, StalePage, StaleRef, StaleReport

if TYPE_CHECKING:
    from sitegen.records.result import BuildResult

NOTICE = "The code this page documents changed after it"
#: Why a shallow clone has no report: its oldest commit seems to add every file, so every
#: page would seem as new as the code (actions/checkout fetches one commit by default).
SHALLOW = (
    "the git history is shallow (a shallow clone), so when each page and the code it "
    "documents last changed cannot be told; fetch the whole history "
    "(git fetch --unshallow, or fetch-depth: 0 in actions/checkout)"
)


def documents_of_build(result: BuildResult) -> dict[str, list[DocRef]]:
    """What each page of the build documents (sitegen/link/documented.py). A page the build
    generates from the code (the ``api`` option's) follows the code by itself: it documents
    nothing that could go stale or need a look after a change."""
    content = result.config.content_rel
    by_path: dict[str, list] = {}  # type: ignore[type-arg]
    edges: dict[str, list] = {}  # type: ignore[type-arg]
    pages = [rec for rec in result.pages if rec.path not in result.crawl.generated]
    for rec in pages:
        node = SitePath.page(rec.path, content).node
        by_path[rec.path] = result.linked.resolutions.get(node, [])
        edges[rec.path] = result.linked.edges_by_source.get(node, [])
    return documented(
        pages,
        by_path,
        result.code_records,
        {f.path: f.data for f in result.crawl.pages},
        result.crawl.snippet_paths,
        edges,
        ((b.path, b.line, b.col) for b in result.linked.broken),
        [f.path for f in result.crawl.pages] + [str(a) for a in result.crawl.assets],
        result.linked.entries,
        result.config.dialect,
    )


def stale_of_build(result: BuildResult) -> StaleReport:
    """The stale pages of a finished build; no report outside a git checkout."""
    docs = documents_of_build(result)
    return stale_pages(result.config.root, docs)


def stale_pages(root: Path, docs: Mapping[str, list[DocRef]]) -> StaleReport:
    """Which pages of ``docs`` are stale, from the history of the checkout at ``root``."""
    started = time.perf_counter()
    report = StaleReport(documented=dict(docs))
    if not docs:
        return report
    if not is_checkout(root):
        report.reason = "the project root is not the top of a git checkout"
        return report
    try:
        if is_shallow(root):
            report.reason, report.shallow = SHALLOW, True
            return report
        history = read_history(root)
        report.cost.commits = len(history.commits)
        report.pages = _stale(root, history, docs, report.cost)
    except GitError as exc:
        report.reason = f"git could not read the history ({exc})"
        report.pages = []
    report.cost.seconds = time.perf_counter() - started
    return report


def _stale(
    root: Path, history: History, docs: Mapping[str, list[DocRef]], cost: Cost
) -> list[StalePage]:
    """File-level first; the refs to lines whose file changed after their page go on to the
    line-level pass, which reads only those files' commits since the oldest such page."""
    candidates: dict[DocRef, list[int]] = {}
    last: dict[str, int] = {}
    for page, refs in sorted(docs.items()):
        own = history.last_change(page)
        if own is None:
            continue  # never committed: nothing happened after it
        last[page] = own
        for ref in refs:
            after = history.changes_after(ref.path, own)
            if after:
                candidates[ref] = after
    lined = [r for r in candidates if not r.whole_file]
    if lined:
        touched = _touched_lines(root, history, lined, last, cost)
        for ref in lined:
            candidates[ref] = [i for i in candidates[ref] if i in touched.get(_key(ref), set())]
    pages: list[StalePage] = []
    for page in sorted(last):
        stale = tuple(
            StaleRef(ref, tuple(history.commits[i] for i in candidates[ref]))
            for ref in docs[page]
            if candidates.get(ref)
        )
        if stale:
            indexes = sorted({i for ref in docs[page] for i in candidates.get(ref, ())})
            commits = tuple(history.commits[i] for i in indexes)
            pages.append(StalePage(page, history.commits[last[page]], stale, commits))
    return pages


_Key = tuple[str, int, int]


def _key(ref: DocRef) -> _Key:
    return (ref.path, ref.start, ref.end)


def _touched_lines(
    root: Path,
    history: History,
    refs: Sequence[DocRef],
    last: Mapping[str, int],
    cost: Cost,
) -> dict[_Key, set[int]]:
    """For each documented range, the commits (indexes) whose hunks touched it. Ranges are
    followed from the files as the build read them back through each commit's hunks, so a
    line number is always the one the commit being read used."""
    oldest = max(last[r.page] for r in refs)
    paths = {r.path for r in refs}
    names = set(paths)
    for path in paths:
        names |= history.old_names(path)
    ranges: dict[str, dict[_Key, tuple[int, int]]] = {}
    for ref in refs:
        ranges.setdefault(ref.path, {})[_key(ref)] = (ref.start, ref.end)
    # the work tree's edits since HEAD come first: the build read the work tree
    _step(ranges, work_tree_diff(root, "HEAD", sorted(names)), None, {}, str)
    index_of = {c.hash: i for i, c in enumerate(history.commits)}
    touched: dict[_Key, set[int]] = {}
    log = line_history(root, history.commits[oldest].hash, sorted(names))
    for commit, files in log:
        i = index_of.get(commit)
        if i is None:
            continue
        names_at = {p: history.names.get((i, p), p) for p in {d.path for d in files}}
        _step(ranges, files, i, touched, names_at.__getitem__)
    cost.line_commits += len(log)
    cost.line_files += len(paths)
    return touched


def _step(
    ranges: dict[str, dict[_Key, tuple[int, int]]],
    files: Sequence[FileDiff],
    commit: int | None,
    touched: dict[_Key, set[int]],
    head_name: Callable[[str], str],
) -> None:
    """One commit's (or the work tree's) hunks: record which ranges they touch, then number
    each range as the commit's parent did."""
    for diff in files:
        if diff.deleted:
            continue
        tracked = ranges.get(head_name(diff.path))
        if not tracked:
            continue
        for key, (start, end) in tracked.items():
            if start > end:
                continue  # created by a newer commit: older ones cannot touch it
            if commit is not None and any(h.touches(start, end) for h in diff.hunks):
                touched.setdefault(key, set()).add(commit)
            tracked[key] = map_back(start, end, diff.hunks)


# --- what the build reports ---------------------------------------------------------------


def stale_diagnostics(report: StaleReport) -> list[Diagnostic]:
    """One info line when there is no report although pages document code."""
    if not report.reason:
        return []
    return [
        Diagnostic(
            ".",
            1,
            1,
            Level.INFO,
            f"no stale-docs report: {report.reason}; pages are checked against git history",
            STALE_DOC,
        )
    ]


#: The longest commit subject a report or a finding shows whole; a longer one is cut at a
#: word and ends in "…" (git's own advice is a subject of 50 to 72 characters, and some
#: projects write a paragraph on the first line).
SUBJECT_LIMIT = 72


def short_subject(subject: str) -> str:
    """``subject`` as a report shows it: whole up to SUBJECT_LIMIT characters, else cut at
    the last space before the limit (or at the limit) with "…"."""
    if len(subject) <= SUBJECT_LIMIT:
        return subject
    cut = subject[: SUBJECT_LIMIT - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > SUBJECT_LIMIT // 2 else cut).rstrip(" ,;:") + "…"


def commits_summary(commits: Sequence[Commit]) -> str:
    """``3 commits, latest 2024-01-05 1a2b3c4d5e "Fix feed"``: count, then the newest."""
    if not commits:
        return ""
    newest = commits[0]
    count = f"{len(commits)} commit" + ("s" if len(commits) != 1 else "")
    return f'{count}, latest {newest.date} {newest.short} "{short_subject(newest.subject)}"'


def stale_findings(report: StaleReport) -> list[Finding]:
    """One ``stale-doc`` finding per stale thing a page documents, at the place the page
    points at it; the key names the page and the target, never a line of the page."""
    out = []
    for page in report.pages:
        for stale in page.by_target():
            ref = stale.ref
            out.append(
                Finding(
                    STALE_DOC,
                    page.page,
                    ref.line,
                    ref.column,
                    f"{NOTICE.lower()}: {ref.target()} ({ref.how}) changed in "
                    f"{commits_summary(stale.commits)}, after the page's last change "
                    f"{page.last_change.short} ({page.last_change.date}).",
                    f"{page.page} -> {ref.target()}",
                )
            )
    return sorted(out)
