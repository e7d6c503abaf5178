"""Every id a page offers to links besides its headings' slugs: attribute-list ids
(``{#id}`` on any block or span) and ``id``/``name`` in raw HTML (content/syntax/anchors.md).

Reads the parsed tokens only; never changes them and never decides whether a link is broken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html.parser import HTMLParser

from markdown_it.token import Token


class _IdCollector(HTMLParser):
    """``id`` of any element, ``name`` of ``<a>``: what a browser scrolls to for ``#x``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name == "id" or (name == "name" and tag == "a")):
                self.ids.add(value)

    handle_startendtag = handle_starttag


def html_ids(fragments: Iterable[str]) -> set[str]:
    collector = _IdCollector()
    for html in fragments:
        collector.feed(html)
    collector.close()
    return collector.ids


def page_anchors(tokens: Sequence[Token]) -> list[str]:
    """Sorted ids of attribute lists and raw HTML anywhere in the page (headings included)."""
    ids: set[str] = set()
    html: list[str] = []
    for token in _walk(tokens):
        id_ = token.attrs.get("id") if token.attrs else None
        if id_:
            ids.add(str(id_))
        if token.type in ("html_block", "html_inline"):
            html.append(token.content)
    if html:
        ids |= html_ids(html)
    return sorted(ids)


def _walk(tokens: Sequence[Token]) -> Iterable[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from token.children
