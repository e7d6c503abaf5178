"""The elements that keep a page's old anchors working (content/syntax/anchors.md#anchors-that-last):
an empty alias element inside the heading that replaced the old one, and a notice at the end of
the body for each section that was removed.

Works on the body HTML the renderer made; never decides which alias a page gets
(``sitegen/link/anchor_aliases.py`` does). Everything taken from content is escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from sitegen.graph.store.anchors import AnchorAlias

#: A heading's opening tag and its id (markdown-it writes the id escaped, double-quoted).
_HEADING = re.compile(r'<h[1-6]\b[^>]*?\bid="([^"]*)"[^>]*>')


def with_old_anchors(body: str, aliases: Sequence[AnchorAlias]) -> str:
    """``body`` with an alias element first inside each heading that has old ids, and the
    removed sections' notices at its end. Without aliases, ``body`` itself."""
    if not aliases:
        return body
    held: dict[str, list[str]] = {}
    for alias in aliases:
        if not alias.removed:
            held.setdefault(alias.target, []).append(alias.old)

    def mark(m: re.Match[str]) -> str:
        olds = held.pop(html.unescape(m.group(1)), [])
        return m.group(0) + "".join(_alias_element(old) for old in olds)

    body = _HEADING.sub(mark, body) if held else body
    removed = [a for a in aliases if a.removed]
    return body + _notices(removed) if removed else body


def _alias_element(old: str) -> str:
    return f'<span id="{html.escape(old, quote=True)}" class="anchor-alias"></span>'


def _notices(removed: Sequence[AnchorAlias]) -> str:
    items = "".join(
        f'<p id="{html.escape(a.old, quote=True)}" class="anchor-removed">'
        f"The section “{html.escape(a.text)}” was removed from this page.</p>\n"
        for a in removed
    )
    return f'\n<aside class="removed-sections" aria-label="Removed sections">\n{items}</aside>\n'
