"""Every id a page offers to links besides its headings' slugs: attribute-list ids
(``{#id}`` on any block or span) and ``id``/``name`` in raw HTML (content/syntax/anchors.md).

Reads the parsed tokens only; never changes them and never decides whether a link is broken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from markdown_it.token import Token

from sitegen.docs.htmlscan import StartTag, html_events


def html_ids(fragments: Iterable[str]) -> set[str]:
    """``id`` of any element, ``name`` of ``<a>``: what a browser scrolls to for ``#x``.

    Each fragment is read on its own, in one pass (sitegen/docs/htmlscan.py): a comment
    left open in one swallows the rest of that fragment only.
    """
    ids: set[str] = set()
    for html in fragments:
        for event in html_events(html):
            if isinstance(event, StartTag):
                for name, value in event.attrs:
                    if value and (name == "id" or (name == "name" and event.name == "a")):
                        ids.add(value)
    return ids


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
