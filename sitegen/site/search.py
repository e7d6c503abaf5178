"""The search index: every page's sections (title, heading, plain text) and every code symbol,
written as one script (``search-index.js``) that pages load with a script tag, so search
works from ``file://`` as well as served (content/guides/site.md, "Search").

Never reads files and never emits markup: content text is JSON data the script shows as text.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sitegen.code.records import CodeRecord
from sitegen.docs.records import PageRecord
from sitegen.paths import NodeId, SitePath, html_out_path

INDEX_FILE = "search-index.js"
#: The global the index script assigns and templates/search.js reads.
INDEX_GLOBAL = "SITEGEN_SEARCH"

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


def search_index(pages: dict[NodeId, PageRecord], code: Iterable[CodeRecord]) -> dict[str, object]:
    """The index as plain data: page URLs relative to the site root, sections pointing at
    their page by position, symbols with the URL of their definition line."""
    page_rows: list[list[str]] = []
    section_rows: list[list[object]] = []
    for i, (node, rec) in enumerate(sorted(pages.items())):
        page_rows.append([html_out_path(node), rec.title])
        for s in _cached_sections(rec.content_hash, rec.html):
            section_rows.append([i, s.heading, s.anchor, s.text])
    symbol_rows: list[list[str]] = []
    for crec in sorted(code, key=lambda r: r.path):
        href = SitePath.source(crec.path).out
        for sym in sorted(
            crec.symbols, key=lambda s: (s.source_range.start_line, s.qualified_name)
        ):
            line = (sym.name_range or sym.source_range).start_line
            symbol_rows.append([sym.qualified_name, str(sym.kind), f"{href}#L{line}", crec.path])
    return {"version": 1, "pages": page_rows, "sections": section_rows, "symbols": symbol_rows}


def search_index_script(pages: dict[NodeId, PageRecord], code: Iterable[CodeRecord]) -> str:
    """``search-index.js``: one assignment of the index to ``window.SITEGEN_SEARCH``."""
    data = json.dumps(search_index(pages, code), ensure_ascii=False, separators=(",", ":"))
    # JSON is valid JS; "</" is escaped only so that the text can never close a script tag.
    data = data.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.{INDEX_GLOBAL}={data};\n"
