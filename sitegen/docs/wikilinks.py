"""Wikilinks of Obsidian and Quartz: ``[[Page]]``, ``[[Page|alias]]``, ``[[Page#Heading]]``,
``![[image.png]]``, parsed as links of kind "wikilink" and resolved by name (content/syntax/wikilinks.md);
``![[Page#Section]]`` on a line of its own as a link of kind "embed" (content/syntax/obsidian.md#embeds).

The inline rule makes ordinary link and image tokens, so positions, labels and sections are
recorded as for any link. Resolution works on the crawled names only; never reads files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from weakref import WeakKeyDictionary

from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.positions import KIND, SOURCE
from sitegen.docs.records import LinkKind

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp")
_EMBED = "sitegen_embed"
#: ``find_closer``'s memo per inline state: closer -> (searched from, found at or -1).
_CLOSERS: WeakKeyDictionary[StateInline, dict[str, tuple[int, int]]] = WeakKeyDictionary()


def find_closer(state: StateInline, closer: str, start: int) -> int:
    """Where ``closer`` next occurs at or after ``start`` before ``state.posMax``, or -1.

    Each search is remembered as (from, found): it answers any later query between the two,
    so many openers with no closer stay linear. The inline state may move back (a link's
    label is parsed after the link), hence the range check rather than a single answer.
    The memo is kept beside the state, not in it: reading ``state.__dict__`` made CPython
    fall back to slow attribute reads on the state, which doubled markdown-it's own link
    label scan (``'![[]()' * n``: 2x markdown-it's parse, 1.4x without).
    """
    known = _CLOSERS.get(state)
    if known is None:
        known = _CLOSERS[state] = {}
    since, end = known.get(closer, (-1, -2))
    if not (since <= start and (end == -1 or start <= end)):
        end = state.src.find(closer, start)
        known[closer] = (start, end)
    return end if end >= 0 and end + len(closer) <= state.posMax else -1


def wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    embed = src.startswith("![[", pos)
    if not embed and not src.startswith("[[", pos):
        return False
    start = pos + (3 if embed else 2)
    end = find_closer(state, "]]", start)
    inner = src[start:end] if end >= 0 else ""
    if not inner.strip() or "\n" in inner or "[" in inner or "]" in inner:
        return False
    if not embed and inner.strip().lower() == "toc":
        return False  # VitePress's table-of-contents marker, never a link (docs/toc.py)
    target, _, alias = inner.partition("|")
    target, alias = target.strip(), alias.strip()
    if not silent:
        _push(state, target, alias, embed, pos)
    state.pos = end + 2
    return True


def _push(state: StateInline, target: str, alias: str, embed: bool, pos: int) -> None:
    name = target.partition("#")[0]
    if embed and name.lower().endswith(IMAGE_EXTENSIONS):
        token = state.push("image", "img", 0)
        alt = alias if alias and not alias.isdigit() else posixpath.basename(name)
        token.attrs = {"src": target, "alt": ""}
        if alias.isdigit():  # ![[image.png|200]]: Obsidian's width
            token.attrs["width"] = alias
        text = state.push("text", "", 0)
        state.tokens.pop()
        text.content = alt
        token.children, token.content = [text], alt
        return
    opener = state.push("link_open", "a", 1)
    opener.attrs = {"href": target, "class": "wikilink"}
    if embed:
        opener.meta[_EMBED] = target
    text = state.push("text", "", 0)
    text.content = alias or target.replace("#", " > ").lstrip(" >")
    state.push("link_close", "a", -1)


def report_embeds(state: StateCore) -> None:
    """Core rule after ``inline``: page embeds ``![[Page]]`` standing alone in their paragraph
    (one or more, one a line) are embeds of kind ``EMBED``, which the site transcludes
    (sitegen/link/embeds.py); their paragraph is not written, since what replaces each embed
    is a block of its own. An embed inside a line of text stays a link, with a warning: its
    content cannot stand inside a paragraph."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        children = token.children or () if token.type == "inline" else ()
        embeds = [child for child in children if _EMBED in child.meta]
        if not embeds:
            continue
        alone = _only_embeds(children) and tokens[i - 1].type == "paragraph_open"
        for child in embeds:
            if alone:
                child.meta[KIND] = LinkKind.EMBED
                child.attrs["class"] = "wikilink embed"
                continue
            report(
                state,
                child.meta.get(SOURCE, -1),
                f"the embed '![[{child.meta[_EMBED]}]]' stands inside a line of text, where its "
                "content cannot be shown; it is shown as a link (put it on a line of its own)",
                "unsupported-syntax",
            )
        if alone:  # each embed a block of its own: the paragraph and its line breaks go
            tokens[i - 1].hidden = tokens[i + 1].hidden = True
            token.children = [c for c in children if c.type not in _BREAKS]


_BREAKS = ("softbreak", "hardbreak")


def _only_embeds(children: Sequence[Token]) -> bool:
    """Whether a paragraph holds embeds only (each its link tokens), with line breaks and
    spaces between them."""
    inside = False
    for child in children:
        if child.type == "link_open":
            inside = _EMBED in child.meta
            if not inside:
                return False
        elif child.type == "link_close":
            inside = False
        elif (
            not inside
            and child.type not in _BREAKS
            and (child.type != "text" or child.content.strip())
        ):
            return False
    return True
