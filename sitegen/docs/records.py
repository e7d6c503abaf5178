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
    #: Ids links may name besides heading slugs: ``{#id}`` and raw HTML ``id``/``<a name>``.
    anchors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PageRecord:
        from sitegen.diagnostics import Level
        return cls(
            path=d["path"], content_hash=d["content_hash"], title=d["title"],
            front_matter=d["front_matter"],
            headings=[Heading(**h) for h in d["headings"]],
            links=[Link(**link) for link in d["links"]],
            relations=[Relation(**r) for r in d["relations"]],
            html=d["html"], link_mark=d["link_mark"],
            diagnostics=[Diagnostic(**{**x, "level": Level(x["level"])})
                         for x in d.get("diagnostics", [])],
            anchors=list(d.get("anchors", [])),
        )
