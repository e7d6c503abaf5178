"""The words a reader sees on a page: its rendered HTML without code blocks, scripts, tags or
attributes (content/guides/related-pages.md#words), and the language they are written in.

What related pages and search read of a page. Pure functions of one page's HTML and front
matter; never reads files.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

#: Blocks whose text is no prose: code blocks (``<pre>``), and what a browser does not show.
_HIDDEN = re.compile(r"<(pre|script|style|svg|template)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_CLOSING = {f"<{t}": f"</{t}>" for t in ("pre", "script", "style", "svg", "template")}
_OPENINGS = tuple(_CLOSING)
_TAG = re.compile(r"<[^>]*>")


def without_code(fragment: str) -> str:
    """An HTML fragment without its code blocks, scripts and styles (the tags stay)."""
    if "<PRE" in fragment or "<SCRIPT" in fragment:  # raw HTML in capitals: the slow way
        return _HIDDEN.sub(" ", fragment)
    # str.find from block to block, each opening's next place remembered: linear, and
    # several times faster than the regular expression.
    found = {o: fragment.find(o) for o in _OPENINGS}
    parts: list[str] = []
    at = 0
    while True:
        places = [(p, o) for o, p in found.items() if p >= 0]
        if not places:
            break
        start, tag = min(places)
        end = fragment.find(_CLOSING[tag], start)
        if end < 0:
            break
        parts += (fragment[at:start], " ")
        at = end + len(_CLOSING[tag])
        for o, p in found.items():
            if 0 <= p < at:
                found[o] = fragment.find(o, at)
    return "".join(parts) + fragment[at:] if parts else fragment


def visible_prose(fragment: str) -> str:
    """The visible prose of an HTML fragment: no code blocks, no tags, no attributes,
    entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(_TAG.sub(" ", without_code(fragment))).split())


def page_language(front_matter: Mapping[str, Any], default: str) -> str:
    """The language a page is written in: its front matter's ``lang`` (or ``language``) when
    that is a language tag, else ``default`` (its locale's, else the ``lang`` option)."""
    for key in ("lang", "language"):
        value = front_matter.get(key)
        if isinstance(value, str) and re.fullmatch(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*", value):
            return value
    return default
