"""What extraction knows about one markdown page: a plain, serializable record.

Produced by ``sitegen.docs.markdown.extract_page`` from the page's bytes alone; consumed by
link resolution and the renderer. Never holds parse trees or anything tied to the file system.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import starmap
from operator import attrgetter, itemgetter
from typing import Any

from sitegen.base.diagnostics import Diagnostic, Level


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # plain text, markup stripped
    id: str  # the GitHub slug (deduplicated within the page) or the explicit {#id}
    line: int  # 1-based
    offset: int  # byte offset of the heading's first byte


class LinkKind(StrEnum):
    """How a link is written in a page. The value is what the page cache holds, so a value
    never changes (a new kind is a new value)."""

    INLINE = "inline"  # text and destination in brackets and parentheses
    REFERENCE = "reference"  # a label defined elsewhere in the page
    AUTOLINK = "autolink"  # a URL in angle brackets
    IMAGE = "image"  # an inline or reference image
    WIKILINK = "wikilink"  # a page named in double brackets (sitegen/docs/wikilinks.py)
    AUTOREF = "autoref"  # a dotted code name as a label, or ``:::`` (sitegen/docs/autorefs.py)
    HTML = "html"  # an a element's href in the page's own HTML (sitegen/docs/rawlinks.py)
    HTML_IMAGE = "html-image"  # an img or source element's src in the page's own HTML
    #: ``![[Page#Section]]`` on a line of its own: a wikilink whose target's content the page
    #: shows (sitegen/link/embeds.py); as an edge, a link like any other.
    EMBED = "embed"


#: Kinds whose URL is an image's: the URL gate lets ``data:image/…`` through there.
IMAGE_KINDS = frozenset({LinkKind.IMAGE, LinkKind.HTML_IMAGE})
#: Each kind by its value, for records read back from the cache.
_KIND_OF = {kind.value: kind for kind in LinkKind}


@dataclass(frozen=True)
class Link:
    """One link occurrence in the body: inline, reference-style, autolink or image, or a
    link of the page's own HTML."""

    href: str  # the destination as markdown-it normalized it (percent-encoded)
    label: str  # plain text, whitespace collapsed; an image's alt text
    kind: LinkKind
    #: 0-based byte offset of the link's first byte ('[' or '!' or '<'); in raw HTML, of the
    #: URL's first byte (inside the attribute's quotes)
    offset: int
    line: int  # 1-based
    column: int  # 1-based, in bytes
    anchor: str  # slug of the enclosing section (nearest heading above), "" before the first

    @property
    def is_image(self) -> bool:
        return self.kind in IMAGE_KINDS


@dataclass(frozen=True)
class Relation:
    """One ref of a ``rel-<predicate>`` front-matter key."""

    predicate: str
    ref: str
    line: int  # line of the key in the file


@dataclass
class PageRecord:
    path: str  # repository path, e.g. content/guides/a.md
    content_hash: str
    title: str
    front_matter: dict[str, Any]
    headings: list[Heading]
    links: list[Link]
    relations: list[Relation]
    #: Rendered body HTML. Link i's href (or image i's src) is ``f"{link_mark}{i}"``; the
    #: emitter substitutes the resolved URL. Heading ids and permalinks are already in.
    html: str
    link_mark: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The ``raw_html`` mode ``html`` was rendered under; "" (a record older than the
    #: option) matches none, so the page is extracted again.
    raw_html: str = ""
    #: Ids links may name besides heading slugs: ``{#id}`` and raw HTML ``id``/``<a name>``.
    anchors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data, equal to ``dataclasses.asdict(self)`` but built field by
        field: ``asdict`` copies every value through a generic recursion, which made encoding
        the page cache slow (tests/docs/test_page_record_dict.py holds the two equal)."""
        return {
            "path": self.path,
            "content_hash": self.content_hash,
            "title": self.title,
            "front_matter": _copied(self.front_matter),
            "headings": [_HEADING.as_dict(h) for h in self.headings],
            "links": [_LINK.as_dict(x) for x in self.links],
            "relations": [_RELATION.as_dict(r) for r in self.relations],
            "html": self.html,
            "link_mark": self.link_mark,
            "diagnostics": [_DIAGNOSTIC.as_dict(x) for x in self.diagnostics],
            "raw_html": self.raw_html,
            "anchors": list(self.anchors),
        }

    @classmethod
    def from_dict(cls, d: Any) -> PageRecord:
        """A record read back from the cache, checked field by field: any value of the wrong
        type raises ``TypeError`` (the cache entry is then dropped, never half-trusted). JSON
        gives exact types, so a value's type must be exactly the field's (a bool is no int)."""
        if type(d) is not dict:
            raise TypeError("a page record is an object")
        return cls(
            path=_typed(d, "path", str),
            content_hash=_typed(d, "content_hash", str),
            title=_typed(d, "title", str),
            front_matter=_typed(d, "front_matter", dict),
            headings=list(starmap(Heading, _HEADING.rows(d["headings"]))),
            links=_links(_LINK.rows(d["links"])),
            relations=list(starmap(Relation, _RELATION.rows(d["relations"]))),
            html=_typed(d, "html", str),
            link_mark=_typed(d, "link_mark", str),
            diagnostics=[
                Diagnostic(path, line, col, Level(level), message, code)
                for path, line, col, level, message, code in _DIAGNOSTIC.rows(
                    d.get("diagnostics", [])
                )
            ],
            raw_html=_typed(d, "raw_html", str),
            anchors=_strings(d, "anchors"),
        )


class _Fields:
    """The fields of a flat record (a heading, link, relation, diagnostic) in the order of its
    dataclass, each with the one type JSON gives it back as."""

    def __init__(self, fields: dict[str, type]) -> None:
        self.names = frozenset(fields)
        self.types = tuple(fields.values())
        self._get = attrgetter(*fields)
        self._pick = itemgetter(*fields)
        self._order = tuple(fields)

    def as_dict(self, record: object) -> dict[str, Any]:
        return dict(zip(self._order, self._get(record), strict=True))

    def rows(self, items: Any) -> list[tuple[Any, ...]]:
        """Of a list of objects, the values of each, in this order; ``TypeError`` unless each
        object holds exactly these fields, each of its type. Checked a list at a time, as a
        page has hundreds of links."""
        if type(items) is not list:
            raise TypeError("expected a list")
        names = self.names
        if not all(type(d) is dict and d.keys() == names for d in items):
            raise TypeError("unexpected fields")
        rows: list[tuple[Any, ...]] = list(map(self._pick, items))
        types = self.types
        if not all(tuple(map(type, row)) == types for row in rows):
            raise TypeError("a field of the wrong type")
        return rows


_HEADING = _Fields({"level": int, "text": str, "id": str, "line": int, "offset": int})
_LINK = _Fields(
    {
        "href": str,
        "label": str,
        "kind": str,
        "offset": int,
        "line": int,
        "column": int,
        "anchor": str,
    }
)
_RELATION = _Fields({"predicate": str, "ref": str, "line": int})
_DIAGNOSTIC = _Fields(
    {"path": str, "line": int, "col": int, "level": str, "message": str, "code": str}
)
#: Front matter's values that are never mutated, so never copied.
_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    """Front matter copied as ``asdict`` copies it: new dicts and lists, equal values."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    # Nothing else comes out of docs/frontmatter.py's _json_safe; a date a caller put in
    # front matter is copied as asdict copies it.
    return copy.deepcopy(value)


def _links(rows: list[tuple[Any, ...]]) -> list[Link]:
    """Links read back, each kind one of ``LinkKind`` (``TypeError`` for any other)."""
    try:
        return [
            Link(href, label, _KIND_OF[kind], offset, line, column, anchor)
            for href, label, kind, offset, line, column, anchor in rows
        ]
    except KeyError as unknown:
        raise TypeError(f"unknown link kind {unknown}") from None


def _typed(d: dict[str, Any], key: str, kind: type) -> Any:
    value = d[key]
    if type(value) is not kind:
        raise TypeError(f"{key}: expected {kind.__name__}")
    return value


def _strings(d: dict[str, Any], key: str) -> list[str]:
    values = _typed(d, key, list)
    if not all(type(v) is str for v in values):
        raise TypeError(f"{key}: expected strings")
    return list(values)
