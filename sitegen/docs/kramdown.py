"""kramdown's block attribute lists (Jekyll's markdown): a line ``{: #id .class}`` directly
after a block, or directly before one, gives that block its id and classes
(content/syntax/anchors.md#kramdown-attribute-lists).

A core rule over the parsed tokens: it only moves ``id`` and ``class`` onto block tokens and
drops the attribute line from the text; it never reads files and never renders.
"""

from __future__ import annotations

import re

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from sitegen.docs.sanitize import author_classes

#: The parts of an attribute list that sitegen applies (the others are kramdown's own).
_PART = re.compile(r"([#.])([\w-]+)")


def ial_attributes(line: str) -> dict[str, str] | None:
    """The id and class a line of exactly one attribute list gives, or None when the line
    is not one. ``{:toc}`` and other references to kramdown's named lists give None: they
    ask kramdown for something sitegen does not do, and stay as written."""
    # String tests, not a pattern: ``\{:\s*(.*?)\s*\}`` backtracked over a long run of
    # spaces (10,000 took 208 s); each test here reads the line once.
    text = line.rstrip(" \t")
    if not (text.startswith("{:") and text.endswith("}")):
        return None
    body = text[2:-1]
    if "{" in body or "}" in body or "\n" in body:
        return None
    parts = body.split()
    if not parts or not all(_PART.fullmatch(p) or "=" in p for p in parts):
        return None
    attrs: dict[str, str] = {}
    classes = [p[1:] for p in parts if p.startswith(".")]
    ids = [p[1:] for p in parts if p.startswith("#")]
    if ids:
        attrs["id"] = ids[-1]  # kramdown: the last id wins
    if classes:
        attrs["class"] = " ".join(classes)
    return attrs


def kramdown_attributes(state: StateCore) -> None:
    """Apply every block attribute list of the page and take its line out of the text."""
    if "{:" not in state.src:
        return
    tokens = state.tokens
    kept: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        opens = token.type == "paragraph_open" and "{:" in tokens[i + 1].content
        if opens and _paragraph(tokens, i):
            i += 3  # a line that only gave its attributes: its three tokens go
            continue
        kept.append(token)
        i += 1
    tokens[:] = kept  # one copy, not a deletion per line (quadratic in the lines)


def _paragraph(tokens: list[Token], i: int) -> bool:
    """Handle the paragraph opened at ``i``; True when it was only an attribute line that
    went to a neighbouring block (the caller removes it)."""
    open_, inline = tokens[i], tokens[i + 1]
    lines = inline.content.split("\n")
    if len(lines) == 1:
        attrs = ial_attributes(lines[0])
        target = _neighbour(tokens, i) if attrs is not None else None
        if attrs is None or target is None:
            return False
        _give(target, attrs)
        return True
    first, last = ial_attributes(lines[0]), ial_attributes(lines[-1])
    if last is not None and _drop_line(inline, last_line=True):
        _give(open_, last)
    if first is not None and _drop_line(inline, last_line=False):
        _give(open_, first)
    return False


def _neighbour(tokens: list[Token], i: int) -> Token | None:
    """The block an attribute paragraph at ``i`` belongs to: the one ending on the line
    just above it, else the one starting on the line just below it (no blank line)."""
    para = tokens[i]
    if para.map is None:
        return None
    before = _block_before(tokens, i)
    if before is not None and before.map is not None and before.map[1] == para.map[0]:
        return before
    after = tokens[i + 3] if i + 3 < len(tokens) else None
    below = after is not None and after.nesting >= 0 and after.level == para.level
    if below and after is not None and after.map is not None and after.map[0] == para.map[1]:
        return after
    return None


def _block_before(tokens: list[Token], i: int) -> Token | None:
    """The opening token (or the only token) of the block just before ``i`` at its level."""
    if i == 0:
        return None
    prev = tokens[i - 1]
    if prev.level != tokens[i].level:
        return None
    if prev.nesting == 0:
        return prev  # a fence, a code block, a rule, an HTML block
    depth = 0
    for j in range(i - 1, -1, -1):
        depth += tokens[j].nesting
        if depth == 0:
            return tokens[j]
    return None


def _drop_line(inline: Token, last_line: bool) -> bool:
    """Take the first or last line out of a paragraph's text: its plain text and the line
    break beside it. False when that line holds more than plain text (then it stays)."""
    children = inline.children or []
    if len(children) < 2:
        return False
    if last_line:
        text, brk = children[-1], children[-2]
    else:
        text, brk = children[0], children[1]
    if text.type != "text" or brk.type not in ("softbreak", "hardbreak"):
        return False
    if ial_attributes(text.content) is None:
        return False
    inline.children = children[:-2] if last_line else children[2:]
    lines = inline.content.split("\n")
    inline.content = "\n".join(lines[:-1] if last_line else lines[1:])
    return True


def _give(token: Token, attrs: dict[str, str]) -> None:
    """The list's id and classes to ``token``: not the theme's own classes, which raw HTML
    may not borrow either (sitegen/docs/sanitize.py, ``author_classes``)."""
    if "id" in attrs:
        token.attrs["id"] = attrs["id"]
    classes = (str(token.attrs.get("class") or ""), author_classes(attrs.get("class", "")))
    if any(classes):
        token.attrs["class"] = " ".join(c for c in classes if c)
