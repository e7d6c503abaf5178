"""The search index's content: every page's sections (title, heading, plain text) and every code
symbol, as plain rows (``SearchData``). sitegen.site.search_shards cuts them into the scripts
search.js loads on demand, so search works from ``file://`` as well as served
(content/guides/site.md#search).

Never reads files and never emits markup: content text is JSON data the script shows as text.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sitegen.code.records import CodeRecord
from sitegen.docs.records import PageRecord
from sitegen.paths import NodeId, SitePath, html_out_path

_HEADING = re.compile(r'<h([1-6]) id="([^"]*)"[^>]*>(.*?)</h\1>', re.DOTALL)
_PERMALINK = re.compile(r'<a class="permalink"[^>]*>[^<]*</a>')
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Section:
    """One searchable part of a page: the text under a heading, up to the next heading."""

    heading: str
    anchor: str
    text: str


def plain_text(fragment: str) -> str:
    """The visible text of an HTML fragment, whitespace collapsed."""
    return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", fragment))).strip()


def page_sections(body_html: str) -> list[Section]:
    """The page's sections in order: the text before the first heading (anchor ""), then one
    per heading. One pass over the HTML."""
    sections: list[Section] = []
    heading, anchor, start = "", "", 0
    for m in _HEADING.finditer(body_html):
        sections.append(Section(heading, anchor, plain_text(body_html[start : m.start()])))
        heading = plain_text(_PERMALINK.sub("", m.group(3)))
        # The h1 is the page's top: its results link to the page itself.
        anchor, start = ("" if m.group(1) == "1" else m.group(2)), m.end()
    sections.append(Section(heading, anchor, plain_text(body_html[start:])))
    return [s for s in sections if s.heading or s.text]


@functools.lru_cache(maxsize=1 << 16)
def _cached_sections(content_hash: str, body_html: str) -> tuple[Section, ...]:
    """A page's sections, kept across the rebuilds of one `sitegen serve` process (the page's
    HTML is a function of its bytes, which ``content_hash`` names)."""
    return tuple(page_sections(body_html))


@dataclass(frozen=True)
class SearchData:
    """The whole index, unsharded: what one query may need, before it is cut into shards."""

    #: (href relative to the site root, title), in node order.
    pages: list[tuple[str, str]]
    #: (position of the page in ``pages``, heading, anchor, plain text), page by page.
    sections: list[tuple[int, str, str, str]]
    #: (qualified name, kind, href of the definition line, repository path).
    symbols: list[tuple[str, str, str, str]]


def search_data(pages: dict[NodeId, PageRecord], code: Iterable[CodeRecord]) -> SearchData:
    """The index as plain rows: page URLs relative to the site root, sections pointing at
    their page by position, symbols with the URL of their definition line."""
    page_rows: list[tuple[str, str]] = []
    section_rows: list[tuple[int, str, str, str]] = []
    for i, (node, rec) in enumerate(sorted(pages.items())):
        page_rows.append((html_out_path(node), rec.title))
        for s in _cached_sections(rec.content_hash, rec.html):
            section_rows.append((i, s.heading, s.anchor, s.text))
    symbol_rows: list[tuple[str, str, str, str]] = []
    for crec in sorted(code, key=lambda r: r.path):
        href = SitePath.source(crec.path).out
        for sym in sorted(
            crec.symbols, key=lambda s: (s.source_range.start_line, s.qualified_name)
        ):
            line = (sym.name_range or sym.source_range).start_line
            symbol_rows.append((sym.qualified_name, str(sym.kind), f"{href}#L{line}", crec.path))
    return SearchData(page_rows, section_rows, symbol_rows)
