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
from sitegen.docs.sanitize import TRUSTED

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


class _Items:
    """The items of one annotation list: a marker's link, or None when it has no item."""

    def __init__(self, prefix: str, count: int) -> None:
        self.prefix, self.count = prefix, count
        self.linked: list[int] = []
        self.missing: list[str] = []  # the numbers of markers without an item

    def link(self, digits: str) -> str | None:
        number = int(digits) if len(digits) <= _MAX_DIGITS else 0
        if not 1 <= number <= self.count:
            self.missing.append(digits)
            return None
        self.linked.append(number)
        return (
            f'<a class="annotation-marker" href="#{annotation_id(self.prefix, number)}" '
            f'aria-label="Annotation {number}">{number}</a>'
        )


def mark_comments(html: str, prefix: str, count: int) -> tuple[str, list[int], list[str]]:
    """Pygments' ``html`` with every marker of a comment whose item exists (1 to ``count``)
    made a link to it: the HTML, the numbers linked, and the markers' numbers that have no
    item (left as written)."""
    items = _Items(prefix, count)

    def comment(found: re.Match[str]) -> str:
        whole, start, end = found.start(), found.start(1), found.end(1)
        marked = "".join(part for part, _ in _marked(found.group(1), items))
        return html[whole:start] + marked + html[end : found.end()]

    return _COMMENT.sub(comment, html), items.linked, items.missing


def _marked(text: str, items: _Items) -> list[tuple[str, bool]]:
    """One text's pieces, each a marker's link (True) or text as it was (False): ``(n)``
    where it stands, ``(n)!`` in place of the rest of the text, as Material's script does."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for found in _MARKER.finditer(text):
        anchor = items.link(found.group(1))
        if anchor is None:
            continue
        if found.group(2):  # "(n)!": the comment's characters go, the marker stays
            out.append((anchor, True))
            return out
        out += [(text[pos : found.start()], False), (anchor, True)]
        pos = found.end()
    out.append((text[pos:], False))
    return [piece for piece in out if piece[0]]


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
    """The core rule: annotations in every code block (``content.code.annotate``) or in the
    code blocks with the ``annotate`` class, and in the paragraphs and admonitions with it."""

    def rule(state: StateCore) -> None:
        tokens = state.tokens
        wraps: list[tuple[int, int]] = []
        page = _Page(tokens)
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if _annotatable(token, every_block):
                annotated = _annotate_code(state, tokens, i, page)
            elif _annotated_prose(token):
                annotated = _annotate_prose(tokens, i, page)
            else:
                annotated = None
            if annotated is None:
                i += 1
                continue
            # the blocks inside this one are annotated by its list; those of the list's
            # items by their own lists (Material's annotations in annotations)
            wraps.append((i, annotated[1]))
            i = annotated[0]
        if wraps:
            state.tokens = _wrapped(tokens, wraps)

    return rule


class _Page:
    """What the blocks of one page are numbered by: code blocks as Material numbers them,
    annotated prose blocks in their order."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.code: list[int] | None = None
        self.prose = 0
        self.ends: dict[int, int] | None = None

    def code_prefix(self, index: int) -> str:
        if self.code is None:
            self.code = _code_blocks(self.tokens)
        return f"__code_{self.code[index]}"

    def prose_prefix(self) -> str:
        self.prose += 1
        return f"__block_{self.prose - 1}"

    def end_of(self, index: int) -> int | None:
        """The index of the token that closes the block opened at ``index``: its ``_close``
        token, or for a ``<div>`` alone in its HTML block the ``</div>`` block that balances
        it at its level (found for the whole page in one pass)."""
        if self.ends is None:
            self.ends = _block_ends(self.tokens)
        return self.ends.get(index)


#: An HTML block that is one ``<div …>`` opening tag alone (md_in_html's element).
_DIV_OPEN = re.compile(r"<div\b[^>]*>\s*\Z")


def _block_ends(tokens: Sequence[Token]) -> dict[int, int]:
    """Each opening token's closing token, and each lone ``<div>`` block's ``</div>``."""
    ends: dict[int, int] = {}
    opened: list[int] = []
    divs: dict[int, list[int]] = {}  # by level
    for j, token in enumerate(tokens):
        if token.nesting == 1:
            opened.append(j)
        elif token.nesting == -1 and opened:
            ends[opened.pop()] = j
        elif token.type == "html_block":
            if _DIV_OPEN.match(token.content):
                divs.setdefault(token.level, []).append(j)
            elif token.content.strip() == "</div>" and divs.get(token.level):
                ends[divs[token.level].pop()] = j
    return ends


def _list_after(tokens: Sequence[Token], last: int, level: int) -> Token | None:
    """The numbered list right after the block that ends at ``last``, a sibling of it."""
    after = tokens[last + 1] if last + 1 < len(tokens) else None
    if after is None or after.type != "ordered_list_open" or after.level != level:
        return None
    return after


def _annotate_code(
    state: StateCore, tokens: list[Token], i: int, page: _Page
) -> tuple[int, int] | None:
    """Annotate the fence ``tokens[i]`` when a marker of its comments has an item in the
    list after it: the indexes of the list's opening and closing, else None (nothing
    changed)."""
    fence = tokens[i]
    if _list_after(tokens, i, fence.level) is None:
        return None
    html, highlighted = code_html(fence, state.env)
    if not highlighted:  # no lexer, no comments: Material finds no marker either
        return None
    prefix = page.code_prefix(i)
    close, items = _list_items(tokens, i + 1)
    marked, linked, missing = mark_comments(html, prefix, len(items))
    if not linked:  # no marker has an item: the list is a list, as Material keeps it
        return None
    _report_missing(state, fence, missing, len(items))
    fence.meta[CODE_HTML] = marked
    _name_items(tokens[i + 1], items, prefix)
    return i + 1, close


def _name_items(opening: Token, items: list[Token], prefix: str) -> None:
    opening.attrSet("class", "annotations")
    for number, item in enumerate(items, 1):
        item.attrSet("id", annotation_id(prefix, number))


def _annotated_prose(token: Token) -> bool:
    """A paragraph given the ``annotate`` class (``{ .annotate }``), an admonition whose
    type is followed by ``annotate`` (``!!! note annotate "Title"``), or a
    ``<div class="annotate" markdown>`` (md_in_html)."""
    if token.type == "paragraph_open":
        classes = str(token.attrs.get("class") or "")
    elif token.type == "callout_open":
        classes = token.info.split('"', 1)[0]
    elif token.type == "html_block" and _DIV_OPEN.match(token.content):
        found = _CLASS.search(token.content)
        classes = (found.group(1) or found.group(2) or "") if found else ""
    else:
        return False
    return ANNOTATE in classes.split()


#: The ``class`` attribute of a tag.
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _annotate_prose(tokens: list[Token], i: int, page: _Page) -> tuple[int, int] | None:
    """Annotate the paragraph, admonition or ``<div>`` opened at ``tokens[i]``: its markers
    in text (not in code or a link) become links to the list after it. The indexes of the
    list's opening and closing, or None when no marker has an item."""
    opening = tokens[i]
    last = page.end_of(i)
    if last is None or _list_after(tokens, last, opening.level) is None:
        return None
    close, items = _list_items(tokens, last + 1)
    prefix = page.prose_prefix()
    found = _Items(prefix, len(items))
    changed = [(t, _marked_children(t.children, found)) for t in tokens[i:last] if t.children]
    if not found.linked:
        return None
    for inline, children in changed:
        inline.children = children
    _name_items(tokens[last + 1], items, prefix)
    return last + 1, close


def _marked_children(children: list[Token], items: _Items) -> list[Token]:
    """Inline tokens with each marker of their text, outside links, made a link token."""
    out: list[Token] = []
    in_link = 0
    for child in children:
        in_link += {"link_open": 1, "link_close": -1}.get(child.type, 0)
        if child.type != "text" or in_link or "(" not in child.content:
            out.append(child)
            continue
        for piece, is_marker in _marked(child.content, items):
            token = Token("html_inline" if is_marker else "text", "", 0)
            token.content = piece
            if is_marker:
                token.meta[TRUSTED] = True
            out.append(token)
    return out


def _wrapped(tokens: list[Token], wraps: list[tuple[int, int]]) -> list[Token]:
    """``tokens`` with each annotated block and its list inside ``<div class="annotated">``
    (the ranges nest: one in a list item of another lies inside it)."""
    opens = {first: tokens[first].level for first, _ in wraps}
    closes: dict[int, list[int]] = {}
    for first, last in wraps:
        closes.setdefault(last, []).append(tokens[first].level)
    out: list[Token] = []
    for k, token in enumerate(tokens):
        if k in opens:
            opening = Token("annotated_open", "div", 1, attrs={"class": "annotated"}, block=True)
            opening.level = opens[k]
            out.append(opening)
        out.append(token)
        for level in closes.get(k, ()):
            closing = Token("annotated_close", "div", -1, block=True)
            closing.level = level
            out.append(closing)
    return out


def annotations_plugin(md: MarkdownIt, every_block: bool) -> None:
    """Code annotations, after every other core rule has shaped the tokens (tabs, callouts),
    so that a block and its list are siblings as they are in the published page."""
    md.core.ruler.push("sitegen_code_annotations", code_annotations(every_block))
