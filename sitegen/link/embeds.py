"""Embeds ``![[Page]]``, ``![[Page#Section]]``, ``![[Page#^block]]``: which the site shows
transcluded, the part of the target's HTML each shows, and the cycles (content/syntax/obsidian.md#embeds).

Why the site step and not the markdown: an embedded page's links are written from its own
folder and resolved as its own, its ids are its own and its HTML exists once every page is
extracted. Splicing its markdown into the host before parsing (as sitegen/docs/includes.py
splices a snippet) would resolve those links from the wrong folder, merge its headings into
the host's contents and tie each page's cache to the pages it embeds. So extraction keeps an
embed a link of kind ``EMBED``, this module decides after the link step what each shows, and
sitegen/site/embeds.py writes it. Pure: works on records and resolutions, never reads files.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId
from sitegen.records.linked import Embed, Embeds, Outcome, Resolved
from sitegen.records.pages import LinkKind, PageRecord

#: The warning of an embed that would show the page it stands in.
EMBED_CYCLE = "embed-cycle"
#: The info line of an embed of a file the site shows as a link only.
UNSHOWN = "unsupported-syntax"
#: Elements with no closing tag, skipped when a cut part's tags are balanced.
_VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)\b[^>]*>")
_HEADING = re.compile(r"<h([1-6])[\s>]")
_ID = re.compile(r'\sid="[^"]*"')
_PERMALINK = re.compile(r'<a class="permalink" href="#[^"]*" aria-label="Permalink">#</a>')


def plan_embeds(
    pages: Mapping[NodeId, PageRecord], resolutions: Mapping[NodeId, list[Resolved]]
) -> Embeds:
    """Which embeds show their target's content: one that names a page (itself included) and
    a part of it that exists. Only after every page is linked, since the target's own embeds
    say whether there is a cycle. A target's embeds stay links (one level deep), and an
    embed whose shown part would show the host again is a cycle: one warning, a link."""
    out = Embeds()
    for host, rec in sorted(pages.items()):
        for i, link in enumerate(rec.links):
            if link.kind is not LinkKind.EMBED or i >= len(resolutions.get(host, [])):
                continue
            res = resolutions[host][i]
            target = host if res.outcome is Outcome.SELF else res.node
            target_rec = pages.get(target) if target is not None else None
            if res.outcome is Outcome.INTERNAL and target_rec is None:
                msg = (
                    f"the embed '![[{link.href}]]' shows a file that is no page or image "
                    "(audio, video, PDF, canvas); it is shown as a link to the file"
                )
                out.diagnostics.append(
                    Diagnostic(rec.path, link.line, link.column, Level.INFO, msg, UNSHOWN)
                )
            if res.outcome not in (Outcome.INTERNAL, Outcome.SELF) or target_rec is None:
                continue  # missing (reported as broken), or a file that is no page: a link
            assert target is not None
            part = part_of(target_rec, res.fragment)
            if part is None:
                continue  # no such heading or block: reported as a broken anchor
            loop = _cycle(host, rec, i, target, target_rec, part, resolutions)
            if loop:
                msg = f"the embed '![[{link.href}]]' {loop}; it is shown as a link"
                out.diagnostics.append(
                    Diagnostic(rec.path, link.line, link.column, Level.WARNING, msg, EMBED_CYCLE)
                )
                continue
            embed = Embed(i, target, res.fragment, part)
            out.by_host.setdefault(host, {})[i] = embed
    return out


def _cycle(
    host: NodeId,
    rec: PageRecord,
    index: int,
    target: NodeId,
    target_rec: PageRecord,
    part: str,
    resolutions: Mapping[NodeId, list[Resolved]],
) -> str:
    """Why showing ``part`` of ``target`` in ``host`` would show ``host`` again ("" when it
    would not): the part holds this very embed, or an embed of the host page."""
    if target == host and f'"{rec.link_mark}{index}"' in part:
        if part is rec.html:
            return "shows the page it stands in"
        return "shows a part of this page that holds the embed itself"
    found = resolutions.get(target, [])
    for j in _marks_in(part, target_rec.link_mark):
        if j >= len(found) or target_rec.links[j].kind is not LinkKind.EMBED:
            continue
        back = found[j]
        lands = target if back.outcome is Outcome.SELF else back.node
        if lands == host and target != host:
            return f"shows '{target_rec.path}', which embeds this page in turn"
    return ""


def _marks_in(part: str, mark: str) -> list[int]:
    """The link indices whose marks ``part`` holds."""
    return [int(m) for m in re.findall(re.escape(mark) + r'(\d+)"', part)]


def part_of(rec: PageRecord, fragment: str) -> str | None:
    """The HTML an embed of ``rec`` shows: the whole page, the section a heading id names
    (the heading and all up to the next heading of its level or above), or the block a block
    id names (the paragraph, list item, quote or table that carries it); None when the page
    has no such heading or block."""
    if not fragment:
        return rec.html
    if fragment.startswith("^"):
        return _block(rec.html, fragment)
    heading = next((h for h in rec.headings if h.id == fragment), None)
    return _section(rec.html, heading.id, heading.level) if heading is not None else None


def _section(page: str, heading_id: str, level: int) -> str | None:
    start = page.find(f'<h{level} id="{html.escape(heading_id)}"')
    if start < 0:
        return None
    end = len(page)
    for m in _HEADING.finditer(page, start + 1):
        if int(m.group(1)) <= level:
            end = m.start()
            break
    return balanced(page[start:end])


def _block(page: str, block_id: str) -> str | None:
    at = page.find(f' id="{html.escape(block_id)}"')
    start = page.rfind("<", 0, at)
    m = _TAG.match(page, start) if at >= 0 and start >= 0 else None
    if m is None or m.group(1):
        return None
    part = balanced(page[start:], stop_at_root=True)
    return f"<ul>\n{part}\n</ul>" if m.group(2).lower() == "li" else part


def balanced(part: str, stop_at_root: bool = False) -> str:
    """``part`` cut where its first element closes (``stop_at_root``) or before a closing
    tag of an element it did not open (a heading inside a quote: its section ends with the
    quote), and every element it leaves open closed: a part that stands on its own."""
    stack: list[str] = []
    for m in _TAG.finditer(part):
        name = m.group(2).lower()
        if name in _VOID or m.group(0).endswith("/>"):
            continue
        if not m.group(1):
            stack.append(name)
            continue
        if name not in stack:
            return _closed(part[: m.start()], stack)
        while stack and stack.pop() != name:
            pass
        if stop_at_root and not stack:
            return part[: m.end()]
    return _closed(part, stack)


def _closed(part: str, stack: list[str]) -> str:
    return part + "".join(f"</{name}>" for name in reversed(stack))


def without_ids(part: str) -> str:
    """``part`` with no ``id`` attribute and no heading permalink: the host page has ids of
    its own, and an id twice in one page is an error that sends a link to the first."""
    return _ID.sub("", _PERMALINK.sub("", part))
