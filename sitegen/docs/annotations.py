"""Material for MkDocs' code annotations: a marker ``(1)`` in a comment of a highlighted code
block, whose text is item 1 of the numbered list right after the block
(content/syntax/code.md#code-annotations).

A core rule on the parsed tokens: an annotated block's code is highlighted here, each marker
in one of its comments becomes a link to its list item, and the block and its list are
wrapped together; templates/annotations.js turns each link into a button that shows its item
beside it. Without the script the list stays under the block, numbered. A block with no
marker that has an item is left exactly as it was. Never reads files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.fences import CODE_HTML, FENCE_ATTRS, FenceAttributes, code_html, fence_language
from sitegen.docs.positions import ENV_SOURCE, PageText

#: The class that asks for annotations in one block (``{ .yaml .annotate }``).
ANNOTATE = "annotate"
#: A comment as Pygments writes it: its token classes ``c`` (comment), ``c1`` (single-line)
#: and ``cm`` (multi-line), the ones Material looks in. Pygments escapes the text and puts no
#: tag inside a token's span, so ``[^<]*`` is the whole comment (of one line).
_COMMENT = re.compile(r'<span class="(?:c|c1|cm)">([^<]*)</span>')
#: ``(1)``, and ``(1)!`` which stands for the whole comment (its ``#`` or ``//`` dropped).
_MARKER = re.compile(r"\((\d+)\)(!)?", re.ASCII)
#: A list item number has at most 9 digits (no list is longer); more is no item.
_MAX_DIGITS = 9
#: Most markers without an item reported per block (each is looked up in the code).
_MAX_REPORTS = 10


def annotation_id(prefix: str, number: int) -> str:
    """The id of annotation ``number`` of the block ``prefix``, as Material's script names
    it (``__code_0_annotation_1``) when the code blocks are numbered by ``content.code.copy``."""
    return f"{prefix}_annotation_{number}"


def mark_comments(html: str, prefix: str, count: int) -> tuple[str, list[int], list[str]]:
    """Pygments' ``html`` with every marker of a comment whose item exists (1 to ``count``)
    made a link to it: the HTML, the numbers linked, and the markers' numbers that have no
    item (left as written)."""
    linked: list[int] = []
    missing: list[str] = []

    def link(digits: str) -> str | None:
        number = int(digits) if len(digits) <= _MAX_DIGITS else 0
        if not 1 <= number <= count:
            missing.append(digits)
            return None
        linked.append(number)
        return (
            f'<a class="annotation-marker" href="#{annotation_id(prefix, number)}" '
            f'aria-label="Annotation {number}">{number}</a>'
        )

    def comment(found: re.Match[str]) -> str:
        whole, start, end = found.start(), found.start(1), found.end(1)
        return html[whole:start] + _marked(found.group(1), link) + html[end : found.end()]

    return _COMMENT.sub(comment, html), linked, missing


def _marked(text: str, link: Callable[[str], str | None]) -> str:
    """One comment's text with its markers linked: ``(n)`` where it stands, ``(n)!`` in place
    of the rest of the comment, as Material's script does."""
    out: list[str] = []
    pos = 0
    for found in _MARKER.finditer(text):
        anchor = link(found.group(1))
        if anchor is None:
            continue
        if found.group(2):  # "(n)!": the comment's characters go, the marker stays
            out.append(anchor)
            return "".join(out)
        out += [text[pos : found.start()], anchor]
        pos = found.end()
    out.append(text[pos:])
    return "".join(out)


def _annotatable(token: Token, every_block: bool) -> bool:
    if token.type != "fence":
        return False
    attributes = token.meta.get(FENCE_ATTRS)
    marked = isinstance(attributes, FenceAttributes) and ANNOTATE in attributes.classes
    return (every_block or marked) and _MARKER.search(token.content) is not None


def _list_items(tokens: Sequence[Token], start: int) -> tuple[int, list[Token]]:
    """The index of the list's close and its items' opening tokens (its own, not nested)."""
    level = tokens[start].level
    items: list[Token] = []
    for i in range(start + 1, len(tokens)):
        token = tokens[i]
        if token.type == "ordered_list_close" and token.level == level:
            return i, items
        if token.type == "list_item_open" and token.level == level + 1:
            items.append(token)
    return len(tokens) - 1, items


def _code_blocks(tokens: Sequence[Token]) -> list[int]:
    """For each token, the number of code blocks before it and itself (Material numbers
    every ``pre > code`` but a diagram's, from 0)."""
    numbers: list[int] = []
    seen = -1
    for token in tokens:
        if token.type == "code_block" or (
            token.type == "fence" and fence_language(token)[0] != "mermaid"
        ):
            seen += 1
        numbers.append(seen)
    return numbers


def _report_missing(state: StateCore, fence: Token, numbers: list[str], count: int) -> None:
    source = state.env.get(ENV_SOURCE)
    first = (fence.map or [0])[0]
    for number in sorted(set(numbers), key=lambda digits: (len(digits), digits))[:_MAX_REPORTS]:
        found = fence.content.find(f"({number})")
        line = first + 1 + fence.content.count("\n", 0, max(found, 0))
        index = source.line_starts[line] if isinstance(source, PageText) else 0
        report(
            state,
            index,
            f"the code annotation ({number}) has no item {number} in the numbered list after "
            f"the code block ({count} items); it is shown as written",
            "annotation",
        )


def code_annotations(every_block: bool) -> Callable[[StateCore], None]:
    """The core rule: annotations in every block (``content.code.annotate``) or in the blocks
    with the ``annotate`` class."""

    def rule(state: StateCore) -> None:
        tokens = state.tokens
        wraps: list[tuple[int, int]] = []
        numbers: list[int] | None = None
        for i, fence in enumerate(tokens):
            if not _annotatable(fence, every_block) or i + 1 == len(tokens):
                continue
            after = tokens[i + 1]
            if after.type != "ordered_list_open" or after.level != fence.level:
                continue
            html, highlighted = code_html(fence, state.env)
            if not highlighted:  # no lexer, no comments: Material finds no marker either
                continue
            if numbers is None:
                numbers = _code_blocks(tokens)
            prefix = f"__code_{numbers[i]}"
            close, items = _list_items(tokens, i + 1)
            marked, linked, missing = mark_comments(html, prefix, len(items))
            if not linked:  # no marker has an item: the list is a list, as Material keeps it
                continue
            _report_missing(state, fence, missing, len(items))
            fence.meta[CODE_HTML] = marked
            after.attrSet("class", "annotations")
            for number, item in enumerate(items, 1):
                item.attrSet("id", annotation_id(prefix, number))
            wraps.append((i, close))
        if wraps:
            state.tokens = _wrapped(tokens, wraps)

    return rule


def _wrapped(tokens: list[Token], wraps: list[tuple[int, int]]) -> list[Token]:
    """``tokens`` with each annotated block and its list inside ``<div class="annotated">``."""
    out: list[Token] = []
    pos = 0
    for first, last in wraps:
        level = tokens[first].level
        opening = Token("annotated_open", "div", 1, attrs={"class": "annotated"}, block=True)
        closing = Token("annotated_close", "div", -1, block=True)
        opening.level = closing.level = level
        out += [*tokens[pos:first], opening, *tokens[first : last + 1], closing]
        pos = last + 1
    out += tokens[pos:]
    return out


def annotations_plugin(md: MarkdownIt, every_block: bool) -> None:
    """Code annotations, after every other core rule has shaped the tokens (tabs, callouts),
    so that a block and its list are siblings as they are in the published page."""
    md.core.ruler.push("sitegen_code_annotations", code_annotations(every_block))
