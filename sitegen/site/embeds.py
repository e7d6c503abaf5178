"""Embeds written into a page: each ``![[Page#Section]]`` the link step chose
(sitegen/link/embeds.py) becomes the part of its target it names, with a line that links to
the source, as Obsidian Publish shows an embed (content/syntax/obsidian.md#embeds).

Works on the host's HTML before its link marks are published; the embedded part's links
are the target's, published here from the host's address. Never resolves a link.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from sitegen.base.paths import NodeId
from sitegen.link.embeds import without_ids
from sitegen.records.linked import Embed, Embeds, Outcome, Resolved
from sitegen.records.pages import PageRecord

#: An embed as extraction writes it (sitegen/docs/wikilinks.py): a link alone on its line.
_EMBED_LINK = re.compile(r'<a href="(sglink-[0-9a-f]{16}-)(\d+)" class="wikilink embed">')
#: What every embed's link holds, looked for before the pattern is run.
_EMBED_CLASS = 'class="wikilink embed"'

#: Publishes a record's link marks (sitegen/site/outputs/pages.py's ``substitute_links``
#: from the host page's address): given the record and the resolution of each of its links.
Publish = Callable[[PageRecord, list[Resolved]], str]


def with_embeds(
    rec: PageRecord,
    embeds: Mapping[int, Embed],
    pages: Mapping[NodeId, PageRecord],
    resolutions: Mapping[NodeId, list[Resolved]],
    publish: Publish,
) -> str:
    """The host page's HTML with each embed of ``embeds`` shown, and every other embed (one
    of another page's, a cycle, a missing or non-page target) a link in a paragraph."""
    if _EMBED_CLASS not in rec.html:  # most pages: no scan (a build of 2,000 pages spent 0.5 s)
        return rec.html
    out, at = [], 0
    for m in _EMBED_LINK.finditer(rec.html):
        if m.start() < at:
            continue
        # The link's text is escaped HTML: no tag stands before its </a>.
        close = rec.html.find("</a>", m.end()) + len("</a>")
        if close < len("</a>"):
            break  # never from extraction, which closes every link it opens
        embed = embeds.get(int(m.group(2))) if m.group(1) == rec.link_mark else None
        out += [
            rec.html[at : m.start()],
            _shown(rec.html[m.start() : close], embed, pages, resolutions, publish),
        ]
        at = close
    out.append(rec.html[at:])
    return "".join(out)


def _shown(
    link: str,
    embed: Embed | None,
    pages: Mapping[NodeId, PageRecord],
    resolutions: Mapping[NodeId, list[Resolved]],
    publish: Publish,
) -> str:
    """One embed: the part of its target with a line linking to the source, or its link.
    The part is a ``blockquote``, a section quoted from another source, which every theme
    styles already."""
    target = pages.get(embed.target) if embed is not None else None
    if embed is None or target is None:
        return f"<p>{link}</p>"
    source = link.replace(' class="wikilink embed">', ' class="wikilink">', 1)
    source = source[: source.index(">") + 1] + html.escape(_title(target, embed)) + "</a>"
    # The part's own embeds stay links (one level deep), each in a paragraph of its own.
    inner = replace(target, html=embed.part)
    inner = replace(inner, html=with_embeds(inner, {}, pages, resolutions, publish))
    part = publish(inner, _from_host(embed, resolutions))
    return (
        f'<blockquote class="embed">\n<p class="embed-source">From {source}</p>\n'
        f"{without_ids(part)}\n</blockquote>\n"
    )


def _title(target: PageRecord, embed: Embed) -> str:
    """The source line's text: the page's title, and the section's heading."""
    heading = next((h for h in target.headings if h.id == embed.fragment), None)
    return f"{target.title} > {heading.text}" if heading is not None else target.title


def _from_host(embed: Embed, resolutions: Mapping[NodeId, list[Resolved]]) -> list[Resolved]:
    """The target's resolutions as the host publishes them: a link of the target to itself
    (``#x``, ``[[#x]]``) leads to the target page, not the host's own anchor."""
    return [
        Resolved(Outcome.INTERNAL, embed.target, r.fragment) if r.outcome is Outcome.SELF else r
        for r in resolutions.get(embed.target, [])
    ]


def embeds_key(
    host: NodeId,
    plan: Embeds,
    pages: Mapping[NodeId, PageRecord],
    resolutions: Mapping[NodeId, list[Resolved]],
) -> object:
    """What the host page shows of the pages it embeds: each part, and where its links go."""
    return [
        (
            i,
            e.target,
            e.part,
            pages[e.target].title if e.target in pages else "",
            [(r.outcome, r.node, r.fragment) for r in resolutions.get(e.target, [])],
        )
        for i, e in sorted(plan.by_host.get(host, {}).items())
    ]
