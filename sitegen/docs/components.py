"""Vue components in a page's HTML (``<Badge type="tip" text="beta" />``, ``<Badge>beta</Badge>``):
sitegen runs no Vue, so each is a plain ``span`` with its text, never dropped without a word.

A tag is a component when its name is PascalCase, as VitePress writes them. Pure functions
over HTML text; the warning (one per component name and page) is ``sitegen.docs.unsupported``'s.
"""

from __future__ import annotations

import html
import re

#: An opening, closing or self-closing tag whose name starts with a capital letter.
COMPONENT_TAG = re.compile(
    r"<(?P<close>/?)(?P<name>[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
    r"(?P<attrs>(?:\s+[^\s<>\"'=/]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s<>\"']+))?)*)\s*(?P<self>/?)>"
)
_TEXT = re.compile(r"(?:^|\s)text\s*=\s*(?:\"(?P<d>[^\"]*)\"|'(?P<s>[^']*)')")


def component_names(text: str) -> list[tuple[int, str]]:
    """Where each component's opening tag is in ``text``, and its name; none inside an HTML
    comment (``<!-- … "{}"<SPACE> … -->`` is a note to the author, not a tag)."""
    if "<" not in text:
        return []
    return [
        (m.start(), m.group("name"))
        for start, stop in _outside_comments(text)
        for m in COMPONENT_TAG.finditer(text, start, stop)
        if not m.group("close")
    ]


def _outside_comments(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` outside ``<!-- … -->`` (one left open runs to the end, as in
    HTML); one forward pass."""
    spans = []
    at = 0
    while (opened := text.find("<!--", at)) >= 0:
        spans.append((at, opened))
        closed = text.find("-->", opened + 4)
        if closed < 0:
            return spans
        at = closed + 3
    spans.append((at, len(text)))
    return spans


def components_as_text(text: str) -> str:
    """``text`` with each component tag a ``span`` (its content kept), and a self-closing one's
    ``text`` attribute as the span's text: ``<Badge text="beta" />`` is ``<span>beta</span>``."""
    if "<" not in text:
        return text
    return COMPONENT_TAG.sub(_as_span, text)


def _as_span(m: re.Match[str]) -> str:
    if m.group("close"):
        return "</span>"
    if not m.group("self"):
        return "<span>"
    given = _TEXT.search(m.group("attrs"))
    shown = (
        (given.group("d") if given.group("d") is not None else given.group("s")) if given else ""
    )
    return f"<span>{html.escape(html.unescape(shown))}</span>"
