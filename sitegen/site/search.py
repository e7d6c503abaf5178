"""The search index's content: every page's sections (title, heading, plain text) and every code
symbol, as plain rows (``SearchData``). sitegen.site.search_shards cuts them into the scripts
search.js loads on demand, so search works from ``file://`` as well as served
(content/guides/site.md#search).

Never reads files and never emits markup: content text is JSON data the script shows as text.
"""

from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sitegen.addresses import HTML_ADDRESSES, Addresses
from sitegen.base.paths import NodeId, SitePath
from sitegen.docs.prose import without_code
from sitegen.records.code import CodeRecord
from sitegen.records.pages import PageRecord

_HEADING = re.compile(r'<h([1-6]) id="([^"]*)"[^>]*>(.*?)</h\1>', re.DOTALL)
_PERMALINK = re.compile(r'<a class="permalink"[^>]*>[^<]*</a>')
_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class Section:
    """One searchable part of a page: the text under a heading, up to the next heading."""

    heading: str
    anchor: str
    text: str


def plain_text(fragment: str) -> str:
    """The visible text of an HTML fragment, whitespace collapsed: ``str.split()`` breaks at
    the characters a regular expression's ``\\s`` matches (``str.isspace`` both), in a
    quarter of the time."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


def page_sections(body_html: str) -> list[Section]:
    """The page's sections in order: the text before the first heading (anchor ""), then one
    per heading. One pass over the HTML."""
    sections: list[Section] = []
    body_html = without_code(body_html)  # the prose only (content/guides/site.md#search)
    heading, anchor, start = "", "", 0
    for m in _HEADING.finditer(body_html):
        sections.append(Section(heading, anchor, plain_text(body_html[start : m.start()])))
        heading = _entry_path(plain_text(_PERMALINK.sub("", m.group(3))), m.group(2))
        # The h1 is the page's top: its results link to the page itself.
        anchor, start = ("" if m.group(1) == "1" else m.group(2)), m.end()
    sections.append(Section(heading, anchor, plain_text(body_html[start:])))
    return [s for s in sections if s.heading or s.text]


def _entry_path(heading: str, anchor: str) -> str:
    """An API entry's heading shows its name (``area``) and its id is the object's path
    (``shapes.Square.area``): the section is found by the whole path, as it is written in
    code (content/guides/api-reference.md)."""
    return anchor if "." in anchor and anchor.endswith("." + heading) else heading


class _PageMemo:
    """Pages' sections by the key of their HTML, kept across the rebuilds of one `sitegen
    serve` process; beyond ``size`` pages, the least recently used goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._rows: OrderedDict[tuple[str, str], tuple[Section, ...]] = OrderedDict()
        self._lock = threading.Lock()  # thread-safe, as the lru_cache it replaced

    def sections(self, rec: PageRecord) -> tuple[Section, ...]:
        # ``html`` is a function of the bytes ``content_hash`` names and of the ``raw_html``
        # mode (sitegen.docs.markdown.extract_page), so the pair stands for the HTML, and
        # the HTML need not be hashed.
        key = (rec.content_hash, rec.raw_html)
        with self._lock:
            found = self._rows.get(key)
            if found is not None:
                self._rows.move_to_end(key)
                return found
        found = tuple(page_sections(rec.html))
        with self._lock:
            self._rows[key] = found
            if len(self._rows) > self.size:
                self._rows.popitem(last=False)
        return found

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()


#: Every page's sections (sitegen.site.search_shards keeps what it derives from them too).
SECTIONS = _PageMemo(1 << 16)


@dataclass(frozen=True)
class SearchData:
    """The whole index, unsharded: what one query may need, before it is cut into shards."""

    #: (href relative to the site root, title), in node order.
    pages: list[tuple[str, str]]
    #: (position of the page in ``pages``, heading, anchor, plain text), page by page.
    sections: list[tuple[int, str, str, str]]
    #: (qualified name, kind, href of the definition line, repository path).
    symbols: list[tuple[str, str, str, str]]
    #: Each page's locale number, in ``pages`` order, on a site with locales; else empty.
    locales: list[int] = field(default_factory=list)


def search_data(
    pages: dict[NodeId, PageRecord],
    code: Iterable[CodeRecord],
    addresses: Addresses = HTML_ADDRESSES,
    locale_of: Callable[[NodeId], int] | None = None,
) -> SearchData:
    """The index as plain rows: page URLs relative to the site root (each page's file as
    ``addresses`` publishes it), sections pointing at their page by position, symbols with
    the URL of their definition line."""
    page_rows: list[tuple[str, str]] = []
    section_rows: list[tuple[int, str, str, str]] = []
    for i, (node, rec) in enumerate(sorted(pages.items())):
        page_rows.append((addresses.out(node), rec.title))
        for s in SECTIONS.sections(rec):
            section_rows.append((i, s.heading, s.anchor, s.text))
    symbol_rows: list[tuple[str, str, str, str]] = []
    for crec in sorted(code, key=lambda r: r.path):
        href = SitePath.source(crec.path).out
        for sym in sorted(
            crec.symbols, key=lambda s: (s.source_range.start_line, s.qualified_name)
        ):
            line = (sym.name_range or sym.source_range).start_line
            symbol_rows.append((sym.qualified_name, str(sym.kind), f"{href}#L{line}", crec.path))
    locales = [locale_of(node) for node in sorted(pages)] if locale_of is not None else []
    return SearchData(page_rows, section_rows, symbol_rows, locales)
