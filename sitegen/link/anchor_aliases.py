"""Anchors that last: which old heading id of a page is kept working, and by what
(content/syntax/anchors.md, content/reference/store.md#anchors).

From the anchors a page published in the previous build (the store's ``PageAnchors``) and its
headings now, each id no heading has any more becomes an alias on the heading that replaced it
or, when none did, a notice that the section was removed. Pure: never reads or writes the
store (the build does), never renders (``sitegen/site/anchor_marks.py`` writes the elements).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId
from sitegen.graph.store.anchors import Anchor, AnchorAlias, AnchorBook, PageAnchors
from sitegen.records.linked import AliasesOfBuild
from sitegen.records.pages import Heading, PageRecord

#: The check and diagnostic code of every alias and of every link to one (content/guides/ci.md).
ANCHOR_MOVED = "anchor-moved"
#: Two headings this similar in text (difflib's ratio) are one heading renamed.
SIMILAR = 0.5
#: How many headings on either side of its old place a removed one is compared with, so a page
#: whose headings all changed costs time linear in their number.
_WINDOW = 8


def aliases_of_build(
    pages: Iterable[PageRecord], stored: AnchorBook, node_of: Callable[[str], NodeId]
) -> AliasesOfBuild:
    """Every page's anchors after this build. A page the store does not know (a new page, or
    no store at all) gets no alias: there is nothing it published before."""
    book: AnchorBook = {}
    diagnostics: list[Diagnostic] = []
    for rec in sorted(pages, key=lambda p: p.path):
        node = node_of(rec.path)
        page = lasting_anchors(stored.get(node), rec.headings, set(rec.anchors))
        if page.anchors or page.aliases:
            book[node] = page
        diagnostics += alias_diagnostics(rec, page.aliases)
    return AliasesOfBuild(book, diagnostics)


def lasting_anchors(
    stored: PageAnchors | None, headings: Sequence[Heading], ids_now: set[str]
) -> PageAnchors:
    """A page's anchors now, and the aliases that keep every id it ever published working.

    ``ids_now`` are every id the page has (headings, ``{#id}``, raw HTML ids): an old id the
    page has again needs no alias. Applied twice to the same headings, it gives the same page:
    so a rebuild, clean or not, publishes the same aliases."""
    current = tuple(Anchor(h.id, h.text) for h in headings)
    if stored is None:
        return PageAnchors(current)
    taken = ids_now | {a.id for a in current}
    before = {a.id for a in stored.anchors}
    gone = [a for a in stored.anchors if a.id not in taken]
    fresh = [a for a in current if a.id not in before]
    moved = match_headings(stored.anchors, current, gone, fresh)
    aliases = {a.id: AnchorAlias(a.id, moved.get(a.id, ""), a.text) for a in gone}
    now = {a.id for a in current}
    for alias in stored.aliases:  # an alias made before lasts ...
        if alias.old in taken or alias.old in aliases:
            continue  # ... until a heading takes its id again
        target = alias.target
        if target and target not in now:  # its heading moved on too, or was removed
            target = moved.get(target, "")
        aliases[alias.old] = AnchorAlias(alias.old, target, alias.text)
    return PageAnchors(current, tuple(sorted(aliases.values())))


def match_headings(
    before: Sequence[Anchor], after: Sequence[Anchor], gone: list[Anchor], fresh: list[Anchor]
) -> dict[str, str]:
    """Which new heading replaced each gone one (old id -> new id), in two passes:

    1. the same text (the id changed, not the words: an explicit ``{#id}``, a slug style);
    2. the same place: among the headings between the same surviving heading and the next,
       in order when there are as many before as after, else by similar text.
    """
    pairs: dict[str, str] = {}
    by_text: dict[str, list[str]] = {}
    for anchor in fresh:
        by_text.setdefault(_words(anchor.text), []).append(anchor.id)
    for anchor in gone:
        same = by_text.get(_words(anchor.text))
        if same:
            pairs[anchor.id] = same.pop(0)
    taken = set(pairs.values())
    olds = _by_gap(before, {a.id for a in gone if a.id not in pairs})
    news = _by_gap(after, {a.id for a in fresh if a.id not in taken})
    for gap, old_run in olds.items():
        pairs.update(_pair_run(old_run, news.get(gap, [])))
    return pairs


def _by_gap(anchors: Sequence[Anchor], loose: set[str]) -> dict[str, list[Anchor]]:
    """The ``loose`` anchors grouped by the nearest surviving heading above them ("" at the
    top). A surviving heading is one whose id is neither gone nor new, so it names the same
    place in both builds."""
    gaps: dict[str, list[Anchor]] = {}
    above = ""
    for anchor in anchors:
        if anchor.id in loose:
            gaps.setdefault(above, []).append(anchor)
        else:
            above = anchor.id
    return gaps


def _pair_run(olds: list[Anchor], news: list[Anchor]) -> dict[str, str]:
    if len(olds) == len(news):  # as many renamed as replaced: in order
        return {o.id: n.id for o, n in zip(olds, news, strict=True)}
    # Else the most similar pairs first (earlier ones on a tie), each heading in one pair.
    scored = sorted(
        (-score, i, j)
        for i, old in enumerate(olds)
        for j in range(max(0, i - _WINDOW), min(len(news), i + _WINDOW + 1))
        if (score := _similarity(old.text, news[j].text)) >= SIMILAR
    )
    pairs: dict[str, str] = {}
    used: set[int] = set()
    for _, i, j in scored:
        if olds[i].id not in pairs and j not in used:
            pairs[olds[i].id] = news[j].id
            used.add(j)
    return pairs


def _words(text: str) -> str:
    return " ".join(text.lower().split())


def _similarity(a: str, b: str) -> float:
    # Headings are short; the cut keeps a pathological one from costing more than a line.
    return difflib.SequenceMatcher(None, _words(a)[:200], _words(b)[:200]).ratio()


def alias_diagnostics(rec: PageRecord, aliases: Iterable[AnchorAlias]) -> list[Diagnostic]:
    """One info line per alias: at the heading that holds it, or at the top of the page for a
    section that was removed."""
    line_of = {h.id: h.line for h in rec.headings}
    out = []
    for alias in aliases:
        if alias.removed:
            line = 1
            message = (
                f"the section '#{alias.old}' (\"{alias.text}\") was removed; a notice on the "
                "page keeps its anchor, so old links land there"
            )
        else:
            line = line_of.get(alias.target, 1)
            message = (
                f"anchor '#{alias.old}' (\"{alias.text}\") is now '#{alias.target}'; an alias "
                "on the heading keeps old links working"
            )
        out.append(Diagnostic(rec.path, line, 1, Level.INFO, message, ANCHOR_MOVED))
    return out


def kept_anchors(stored: AnchorBook, book: AnchorBook, pages: Iterable[NodeId]) -> AnchorBook:
    """The book the store keeps next: this build's pages as they are now, and every other
    stored page among ``pages`` (one the crawl saw but could not read) as it was."""
    kept = {node: stored[node] for node in pages if node in stored and node not in book}
    return dict(sorted({**kept, **book}.items()))
