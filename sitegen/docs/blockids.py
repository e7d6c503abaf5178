"""Obsidian's block ids: `` ^abc-1`` ending a paragraph or a list item is not shown, and the
block gets the anchor ``^abc-1`` that ``[[Page#^abc-1]]`` names (content/syntax/obsidian.md#block-ids).

A core rule over the parsed tokens, after the inline parse; never reads files.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

#: An id is letters, digits and hyphens, as Obsidian makes and accepts them.
_ID = re.compile(r"[A-Za-z0-9-]+")
#: What an id may follow with no space between: a line break (an id on its own line) or an
#: image (``![[diagram.png]]^fig-1``, as Obsidian's own help vault writes it).
_BEFORE_GLUED = ("softbreak", "hardbreak", "image")


def block_id(inline: Token) -> str:
    """The id ``^abc`` that ends ``inline``'s text after a space (or alone), taken out of
    the text; "" when it ends otherwise. Read from the last text token only, so an id
    written in code or in a link's label is none."""
    children = inline.children
    if not children or children[-1].type != "text":
        return ""
    last = children[-1]
    text = last.content.rstrip()
    caret = text.rfind("^")
    if caret < 0 or not _ID.fullmatch(text, caret + 1):
        return ""
    if caret > 0 and not text[caret - 1].isspace():
        return ""
    if caret == 0 and len(children) > 1 and children[-2].type not in _BEFORE_GLUED:
        return ""
    last.content = text[:caret].rstrip()
    if not last.content and len(children) > 1 and children[-2].type == "softbreak":
        del children[-2:]  # the id stood on a line of its own: no break left behind
    elif not last.content:
        del children[-1]
    return "^" + text[caret + 1 :]


def block_ids(state: StateCore) -> None:
    """Each paragraph ending with an id gives it to its block: the list item it is the
    first paragraph of, else itself. A paragraph that is only an id gives it to the block
    just above it (a table, a quote, a list), as Obsidian does, and is dropped."""
    tokens = state.tokens
    openers: list[int] = []  # indexes of the open blocks, innermost last
    closed: dict[int, int] = {}  # index of a closing token -> index of its opener
    drop: set[int] = set()
    for i, token in enumerate(tokens):
        if token.nesting == 1:
            openers.append(i)
        elif token.nesting == -1 and openers:
            closed[i] = openers.pop()
        if token.type != "paragraph_open" or "^" not in tokens[i + 1].content:
            continue
        id_ = block_id(tokens[i + 1])
        if not id_:
            continue
        owner = _owner(tokens, i, openers, closed)
        if owner is not token and not tokens[i + 1].children:  # the paragraph held the id only
            drop.update((i, i + 1, i + 2))
        owner.attrs.setdefault("id", id_)
    if drop:
        state.tokens = [t for i, t in enumerate(tokens) if i not in drop]


def _owner(tokens: list[Token], i: int, openers: list[int], closed: dict[int, int]) -> Token:
    paragraph, inline = tokens[i], tokens[i + 1]
    if inline.children:
        if len(openers) > 1 and openers[-2] == i - 1 and tokens[i - 1].type == "list_item_open":
            return tokens[i - 1]  # the first paragraph of a list item: the item's id
        return paragraph
    above = closed.get(i - 1)  # an id alone: the block that closed right above it
    return tokens[above] if above is not None else paragraph


def block_ids_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("inline", "sitegen_block_ids", block_ids)
