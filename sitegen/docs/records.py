"""What extraction knows about one markdown page: a plain, serializable record.

Produced by ``sitegen.docs.markdown.extract_page`` from the page's bytes alone; consumed by
link resolution and the renderer. Never holds parse trees or anything tied to the file system.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sitegen.diagnostics import Diagnostic


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # plain text, markup stripped
    id: str  # the GitHub slug (deduplicated within the page) or the explicit {#id}
    line: int  # 1-based
    offset: int  # byte offset of the heading's first byte


@dataclass(frozen=True)
class Link:
    """One link occurrence in the body: inline, reference-style, autolink or image."""

    href: str  # the destination as markdown-it normalized it (percent-encoded)
    label: str  # plain text, whitespace collapsed; an image's alt text
    kind: str  # "inline" | "reference" | "autolink" | "image"
    offset: int  # 0-based byte offset of the link's first byte ('[' or '!' or '<')
    line: int  # 1-based
    column: int  # 1-based, in bytes
    anchor: str  # slug of the enclosing section (nearest heading above), "" before the first


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
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Any) -> PageRecord:
        """A record read back from the cache, checked field by field: any value of the wrong
        type raises ``TypeError`` (the cache entry is then dropped, never half-trusted)."""
        from sitegen.diagnostics import Level

        if not isinstance(d, dict):
            raise TypeError("a page record is an object")
        return cls(
            path=_typed(d, "path", str),
            content_hash=_typed(d, "content_hash", str),
            title=_typed(d, "title", str),
            front_matter=_typed(d, "front_matter", dict),
            headings=[Heading(**_fields(h, _HEADING)) for h in _typed(d, "headings", list)],
            links=[Link(**_fields(x, _LINK)) for x in _typed(d, "links", list)],
            relations=[Relation(**_fields(r, _RELATION)) for r in _typed(d, "relations", list)],
            html=_typed(d, "html", str),
            link_mark=_typed(d, "link_mark", str),
            diagnostics=[
                Diagnostic(**{**x, "level": Level(x["level"])})
                for x in (_fields(x, _DIAGNOSTIC) for x in d.get("diagnostics", []))
            ],
            raw_html=_typed(d, "raw_html", str),
            anchors=_strings(d, "anchors"),
        )


_HEADING = {"level": int, "text": str, "id": str, "line": int, "offset": int}
_LINK = {
    "href": str,
    "label": str,
    "kind": str,
    "offset": int,
    "line": int,
    "column": int,
    "anchor": str,
}
_RELATION = {"predicate": str, "ref": str, "line": int}
_DIAGNOSTIC = {"path": str, "line": int, "col": int, "level": str, "message": str, "code": str}


def _typed(d: dict[str, Any], key: str, kind: type) -> Any:
    value = d[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{key}: expected {kind.__name__}")
    return value


def _strings(d: dict[str, Any], key: str) -> list[str]:
    values = _typed(d, key, list)
    if not all(isinstance(v, str) for v in values):
        raise TypeError(f"{key}: expected strings")
    return list(values)


def _fields(d: Any, spec: dict[str, type]) -> dict[str, Any]:
    """Exactly the fields of ``spec``, each of its type."""
    if not isinstance(d, dict) or set(d) != set(spec):
        raise TypeError("unexpected fields")
    return {key: _typed(d, key, kind) for key, kind in spec.items()}
