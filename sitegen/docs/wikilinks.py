"""Wikilinks of Obsidian and Quartz: ``[[Page]]``, ``[[Page|alias]]``, ``[[Page#Heading]]``,
``![[image.png]]``, parsed as links of kind "wikilink" and resolved by name (content/syntax/wikilinks.md);
``![[Page#Section]]`` on a line of its own as a link of kind "embed" (content/syntax/obsidian.md#embeds).

The inline rule makes ordinary link and image tokens, so positions, labels and sections are
recorded as for any link. Resolution works on the crawled names only; never reads files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from itertools import groupby
from weakref import WeakKeyDictionary

from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.positions import KIND, SOURCE
from sitegen.records.pages import LinkKind

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
    """Core rule after ``inline``: a page embed ``![[Page]]`` on a line of its own in a
    paragraph is an embed of kind ``EMBED``, which the site transcludes
    (sitegen/link/embeds.py): the paragraph is split around it, and the embed stands in a
    paragraph that is not written, since what replaces it is a block of its own. An embed
    inside a line of text stays a link, with a warning: its content cannot stand there."""
    tokens = state.tokens
    split: dict[int, list[Token]] = {}  # inline token's index -> its paragraph's new tokens
    for i, token in enumerate(tokens):
        children = token.children or () if token.type == "inline" else ()
        if not any(_EMBED in child.meta for child in children):
            continue
        in_paragraph = tokens[i - 1].type == "paragraph_open"
        lines = _lines(children)
        for line in lines:
            own = in_paragraph and _only_embeds(line)
            for child in (c for c in line if _EMBED in c.meta):
                if own:
                    child.meta[KIND] = LinkKind.EMBED
                    child.attrs["class"] = "wikilink embed"
                else:
                    _inside_text(state, child)
        if in_paragraph and any(_only_embeds(line) for line in lines):
            split[i] = _paragraphs(tokens[i - 1], token, tokens[i + 1], lines)
    if split:
        out: list[Token] = []
        for i, token in enumerate(tokens):
            if i + 1 in split or i - 1 in split:
                continue  # the paragraph's opening and closing: in its new tokens
            out += split.get(i, [token])
        state.tokens = out


def _inside_text(state: StateCore, child: Token) -> None:
    report(
        state,
        child.meta.get(SOURCE, -1),
        f"the embed '![[{child.meta[_EMBED]}]]' stands inside a line of text, where its "
        "content cannot be shown; it is shown as a link (put it on a line of its own)",
        "unsupported-syntax",
    )


_BREAKS = ("softbreak", "hardbreak")


def _lines(children: Sequence[Token]) -> list[list[Token]]:
    """A paragraph's inline tokens by line, each line with the break that ends it."""
    lines: list[list[Token]] = [[]]
    for child in children:
        lines[-1].append(child)
        if child.type in _BREAKS:
            lines.append([])
    return lines


def _paragraphs(
    opening: Token, inline: Token, closing: Token, lines: list[list[Token]]
) -> list[Token]:
    """The paragraph's tokens with each run of embed lines in a paragraph of its own that is
    not written, the other lines in paragraphs as before (the first keeps its attributes)."""
    out: list[Token] = []
    for embeds, group in groupby(lines, key=_only_embeds):
        children = [c for line in group for c in line]
        if embeds:
            children = [c for c in children if c.type in ("link_open", "text", "link_close")]
            children = [c for c in children if c.type != "text" or c.content.strip()]
        else:
            while children and children[-1].type in _BREAKS:
                children.pop()
        part = inline.copy()
        part.children, part.content = children, "".join(c.content for c in children)
        start, end = opening.copy(), closing.copy()
        start.attrs = dict(opening.attrs) if not out else {}
        start.hidden = end.hidden = embeds
        out += [start, part, end]
    return out


def _only_embeds(children: Sequence[Token]) -> bool:
    """Whether a line (or paragraph) holds embeds only (each its link tokens), with line
    breaks and spaces between them."""
    inside = found = False
    for child in children:
        if child.type == "link_open":
            inside = found = _EMBED in child.meta
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
    return found
