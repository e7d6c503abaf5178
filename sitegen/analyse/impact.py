"""Change impact: the pages that document what changed between a revision and the work tree,
each with the reason, then the pages that document the changed files' importers (one hop),
marked indirect (content/guides/stale-pages.md#change-impact).

Reads the change from git (sitegen/analyse/githistory.py: the work tree is hashed and diffed
in Python, never shown to git) and what pages document from the build; never mutates the
graphs. Prints nothing: the command formats what this returns.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.analyse.check import STALE_DOC, Finding, github_annotation
from sitegen.analyse.githistory import FileDiff, resolve_revision
from sitegen.analyse.githistory import work_tree_diff as _work_tree_diff
from sitegen.base.diagnostics import Level
from sitegen.base.gitrun import GitError, is_checkout, shown_revision
from sitegen.base.plural import counted
from sitegen.records.code_graph import CodeGraph, EdgeKind
from sitegen.records.stale import Commit, DocRef


@dataclass(frozen=True)
class Reason:
    """Why a page is in the impact: what it documents (``ref``), the changed lines of that
    file that touch it (new side), and for an indirect one the changed file it imports."""

    ref: DocRef
    changed: tuple[tuple[int, int], ...] = ()
    via: str = ""

    def words(self) -> str:
        ref = self.ref
        if self.via:
            return f"{ref.how} to {ref.target()}: {ref.path} imports {self.via}, which changed"
        lines = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in self.changed)
        return f"{ref.how} to {ref.target()}: {ref.path} changed at line{_s(self.changed)} {lines}"


def _s(items: Sequence[object]) -> str:
    return "s" if len(items) != 1 else ""


@dataclass(frozen=True)
class ImpactedPage:
    page: str
    indirect: bool
    touched: bool  # the change edits the page itself
    reasons: tuple[Reason, ...]


@dataclass
class Impact:
    since: Commit
    rev: str  # as the user wrote it
    changed: list[str] = field(default_factory=list)  # changed files (new names), sorted
    pages: list[ImpactedPage] = field(default_factory=list)  # direct first, then indirect

    @property
    def direct(self) -> list[ImpactedPage]:
        return [p for p in self.pages if not p.indirect]


class ImpactError(Exception):
    """No impact can be computed: no git checkout, or a revision git does not know."""


def changes_since(root: Path, rev: str, option: str = "--since") -> tuple[Commit, list[FileDiff]]:
    """The commit ``rev`` names and what changed from it to the work tree; ImpactError, one
    sentence naming ``option``, when there is no checkout or ``rev`` names no commit."""
    if not is_checkout(root):
        raise ImpactError(f"{option} needs a git checkout, and {root} is not the top of one")
    try:
        since = resolve_revision(root, rev)
        return since, _work_tree_diff(root, since.hash)
    except GitError as exc:
        raise ImpactError(f"{option} {shown_revision(rev)}: {exc}") from exc


def importers_of(code: CodeGraph | None) -> dict[str, set[str]]:
    """Each source file -> the files that import it (one hop)."""
    out: dict[str, set[str]] = {}
    if code is None:
        return out
    for edge in code.edges(EdgeKind.IMPORT):
        src, dst = code.file_of(edge.src), code.file_of(edge.dst)
        if src is not None and dst is not None and src.path != dst.path:
            out.setdefault(dst.path, set()).add(src.path)
    return out


def impact_of(
    since: Commit,
    rev: str,
    diffs: Iterable[FileDiff],
    docs: Mapping[str, list[DocRef]],
    importers: Mapping[str, set[str]],
) -> Impact:
    """Direct: a page documents a changed file (any change) or changed lines of it. Indirect:
    a page that is not direct documents a file importing a changed file."""
    changed = {d.path: d for d in diffs if not d.deleted and d.hunks}
    impact = Impact(since, rev, sorted(changed))
    indirect: list[ImpactedPage] = []
    for page, refs in sorted(docs.items()):
        reasons = tuple(r for r in (_direct(ref, changed) for ref in refs) if r is not None)
        if reasons:
            impact.pages.append(ImpactedPage(page, False, page in changed, reasons))
            continue
        via = tuple(
            Reason(ref, tuple(h.new_lines for h in changed[dep].hunks), dep)
            for ref in refs
            for dep in sorted(changed)
            if ref.path in importers.get(dep, ())
        )
        if via:
            indirect.append(ImpactedPage(page, True, page in changed, via))
    impact.pages += indirect
    return impact


def _direct(ref: DocRef, changed: Mapping[str, FileDiff]) -> Reason | None:
    diff = changed.get(ref.path)
    if diff is None:
        return None
    if ref.whole_file:
        return Reason(ref, tuple(h.new_lines for h in diff.hunks))
    hits = tuple(h.new_lines for h in diff.hunks if h.touches(ref.start, ref.end))
    return Reason(ref, hits) if hits else None


# --- the gate and the formats ----------------------------------------------------------


def gate_findings(impact: Impact) -> list[Finding]:
    """``sitegen check --changed-since``: a changed public symbol documented by a page that
    the same change did not touch, one finding where the page points at it."""
    out = []
    for page in impact.direct:
        if page.touched:
            continue
        for reason in page.reasons:
            ref = reason.ref
            if not ref.symbol or not ref.public:
                continue
            out.append(
                Finding(
                    STALE_DOC,
                    page.page,
                    ref.line,
                    ref.column,
                    f"{ref.target()} changed since {impact.since.short} ({impact.since.date}) "
                    f"and this page documents it ({ref.how}) but the change does not touch the "
                    "page; update the page, or say in it why it still holds.",
                    f"{page.page} -> {ref.target()}",
                )
            )
    return sorted(out)


def format_text(impact: Impact) -> str:
    direct = len(impact.direct)
    head = (
        f"sitegen impact: since {shown_revision(impact.rev)} ({impact.since.short}, {impact.since.date}): "
        f"{counted(len(impact.changed), 'changed file')}; "
        f"{counted(len(impact.pages), 'page')} document what changed "
        f"({direct} direct, {len(impact.pages) - direct} indirect)."
    )
    lines = [head]
    for page in impact.pages:
        marks = [m for m, on in (("indirect", page.indirect), ("touched", page.touched)) if on]
        lines.append(page.page + (f" [{', '.join(marks)}]" if marks else ""))
        for reason in page.reasons:
            ref = reason.ref
            lines.append(f"  {ref.page}:{ref.line}:{ref.column}: {reason.words()}")
    return "\n".join(lines) + "\n"


def format_json(impact: Impact) -> str:
    data = {
        "since": {
            "rev": impact.rev,
            "hash": impact.since.hash,
            "date": impact.since.date,
            "subject": impact.since.subject,
        },
        "changed_files": impact.changed,
        "pages": [
            {
                "page": page.page,
                "impact": "indirect" if page.indirect else "direct",
                "touched": page.touched,
                "reasons": [_reason_json(r) for r in page.reasons],
            }
            for page in impact.pages
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _reason_json(reason: Reason) -> dict[str, object]:
    ref = reason.ref
    return {
        "how": ref.how,
        "line": ref.line,
        "column": ref.column,
        "path": ref.path,
        "symbol": ref.symbol,
        "start": ref.start,
        "end": ref.end,
        "public": ref.public,
        "changed_lines": [list(r) for r in reason.changed],
        "via": reason.via,
    }


def format_github(impact: Impact) -> str:
    """One ``::warning`` per changed range of a documented file and page that documents it,
    on the changed lines, so the pull request shows it where the code changed; an indirect
    page gets a ``::notice`` on its documented file's first line."""
    lines = []
    for page in impact.pages:
        for reason in page.reasons:
            ref = reason.ref
            where = f"{ref.page}:{ref.line}:{ref.column}"
            text = f"{page.page} documents {ref.target()} ({ref.how}, {where})"
            if reason.via:
                text += f", which imports {reason.via}; check that the page still holds"
            else:
                text += "; check that the page still holds"
            level = Level.INFO if reason.via else Level.WARNING
            for first, last in reason.changed:
                finding = Finding(STALE_DOC, reason.via or ref.path, first, 1, text, "")
                lines.append(github_annotation(level, finding, end_line=last))
    return "".join(line + "\n" for line in lines)
