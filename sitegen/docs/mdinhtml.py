"""Markdown inside HTML blocks that carry the ``markdown`` attribute, as Python-Markdown's
``md_in_html`` reads it (``Dialect.MD_IN_HTML``, content/syntax/md-in-html.md): Material's grid
cards, ``<figure markdown>``, ``<details markdown>``.

A block rule before ``html_block``: the element's tags become ``html_block`` tokens (the
``markdown`` attribute taken out) and its content is read as blocks, or as one line of text
(``markdown="span"``), of the page itself, so its links, headings and positions are the
page's. Nothing is run. The elements' closing tags are found by one pass over the page's
lines (``_index``); elements nest at most ``MAX_DEPTH`` deep.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.positions import ENV_SOURCE, LINE_END, PageText
from sitegen.docs.sanitize import author_classes

# fmt: off
#: Python-Markdown's block-level elements: only these open an element whose content is read.
BLOCK_LEVEL = frozenset({
    "address", "article", "aside", "blockquote", "body", "canvas", "center", "colgroup", "dd",
    "details", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "group",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "html", "iframe", "legend", "li",
    "main", "map", "math", "menu", "nav", "noscript", "object", "ol", "option", "output", "p",
    "pre", "progress", "script", "section", "style", "summary", "table", "tbody", "td",
    "textarea", "tfoot", "th", "thead", "tr", "ul", "video"
})
#: Elements whose content ``markdown="1"`` reads as one run of text, not as blocks.
SPAN_TAGS = frozenset({
    "address", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "legend", "li", "p", "summary",
    "td", "th"
})
# fmt: on
#: Elements whose content is never read as markdown, whatever the attribute says.
RAW_TAGS = frozenset(["canvas", "math", "option", "pre", "script", "style", "textarea"])
#: Elements nested deeper than this are left as raw HTML (their content read as if outside).
MAX_DEPTH = 16
#: Lines an opening tag may span.
TAG_LINES = 16
#: markdown-it's parent type for the content of an element.
_PARENT = "md_in_html"
_HEADINGS = frozenset(["h1", "h2", "h3", "h4", "h5", "h6"])
_OPEN = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
_ATTRIBUTE = re.compile(
    r"\s+([a-zA-Z_:][a-zA-Z0-9_.:-]*)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?"
)
_TAG_END = re.compile(r"\s*/?>")
_CLOSE = re.compile(r"</([A-Za-z][A-Za-z0-9-]*)\s*>")
_LEAD = re.compile(r"[ \t>]*")
_FENCE = re.compile(r"[ \t>]*(`{3,}|~{3,})")


@dataclass(frozen=True)
class OpenTag:
    name: str  # lower-cased
    markdown: str | None  # the attribute's value ("markdown" when written without one)
    attrs: tuple[tuple[str, str], ...]
    start: int
    end: int  # just after its ``>``
    last_line: int  # the line the tag ends on
    text: str  # the tag as written, without its ``markdown`` attribute


@dataclass(frozen=True)
class CloseTag:
    start: int
    end: int
    line: int
    leading: bool  # the first thing on its line (else the last)
    #: Where the text after it on its line starts, a paragraph of its own (Python-Markdown's
    #: tail); -1 when there is none, or when another closing tag of the line comes after it.
    tail: int


@dataclass
class _Index:
    """The page's opening tags at line starts, and the closing tag of each."""

    src: str
    opens: dict[int, OpenTag]
    closes: dict[int, CloseTag]
    depth: int = 0
    warned_depth: bool = False
    outdented: dict[int, tuple[int, int, bool]] = field(default_factory=dict)


_INDEX = "sitegen_md_in_html_index"


def mode(tag: OpenTag) -> str:
    """How ``tag``'s content is read, as Python-Markdown decides: "block", "span" or ""
    (not at all: no attribute, ``markdown="0"``, or an element whose content stays raw)."""
    value, name = tag.markdown, tag.name
    if value is None or name in RAW_TAGS:
        return ""
    if value in ("1", "markdown"):
        return "span" if name in SPAN_TAGS else "block"
    return value if value in ("block", "span") else ""


# --- the index: one pass over the page's lines ----------------------------------------------


def _index(state: StateBlock) -> _Index:
    """The page's index, built the first time a line starts with ``<``: one pass over its
    lines outside fenced code, pairing each closing tag with the nearest opening tag of its
    name still open (an element's content may hold the same element, closed first)."""
    known = state.env.get(_INDEX)
    if isinstance(known, _Index) and known.src is state.src:
        return known
    source = state.env.get(ENV_SOURCE)
    src = state.src
    starts = (
        source.line_starts
        if isinstance(source, PageText) and source.text == src
        else [0] + [m.end() for m in re.finditer("\n", src)]
    )
    index = _Index(src, {}, {})
    stacks: dict[str, list[int]] = {}
    fence = ""
    line = 0
    while line < len(starts):
        start = starts[line]
        stop = starts[line + 1] - 1 if line + 1 < len(starts) else len(src)
        fenced = _FENCE.match(src, start, stop)
        if fence:  # a tag in fenced code is an example, not an element
            closing = fenced and fenced.group(1).startswith(fence)
            if closing and not src[fenced.end() : stop].strip():  # type: ignore[union-attr]
                fence = ""
        elif fenced:
            fence = fenced.group(1)
        else:
            line = _read_line(index, stacks, starts, line, (start, stop))
        line += 1
    state.env[_INDEX] = index
    return index


def _read_line(
    index: _Index, stacks: dict[str, list[int]], starts: list[int], line: int, span: tuple[int, int]
) -> int:
    """The tags of one line: closing tags that begin it, an opening tag that begins it, and
    closing tags that end it. Returns the last line read (an opening tag may span several)."""
    src = index.src
    start, stop = span
    pos = _LEAD.match(src, start, stop).end()  # type: ignore[union-attr]
    closers: list[tuple[re.Match[str], bool]] = []
    found = _CLOSE.match(src, pos, stop)
    while found:
        closers.append((found, True))
        pos = _LEAD.match(src, found.end(), stop).end()  # type: ignore[union-attr]
        found = _CLOSE.match(src, pos, stop)
    if not closers and src.startswith("<", pos):
        tag = _read_open(src, starts, line, pos)
        if tag is not None:
            index.opens[pos] = tag
            stacks.setdefault(tag.name, []).append(pos)
            line, pos = tag.last_line, tag.end
            stop = starts[line + 1] - 1 if line + 1 < len(starts) else len(src)
    trailing = _trailing_closers(src, pos, stop)
    closers += [(m, False) for m in trailing]
    tail = -1
    if closers and closers[-1][1] and src[closers[-1][0].end() : stop].strip():
        tail = closers[-1][0].end()
    for k, (closer, leading) in enumerate(closers):
        opened = stacks.get(closer.group(1).lower())
        if opened:
            last = k == len(closers) - 1
            index.closes[opened.pop()] = CloseTag(
                closer.start(), closer.end(), line, leading, tail if last else -1
            )
    return line


def _trailing_closers(src: str, pos: int, stop: int) -> list[re.Match[str]]:
    """The closing tags that end ``src[pos:stop]``, in order, read backwards from its end."""
    found: list[re.Match[str]] = []
    end = _spaces_before(src, pos, stop)
    while end > pos and src[end - 1] == ">":
        begin = src.rfind("</", pos, end)
        closer = _CLOSE.fullmatch(src, begin, end) if begin >= 0 else None
        if closer is None:
            break
        found.append(closer)
        end = _spaces_before(src, pos, begin)
    return found[::-1]


def _spaces_before(src: str, pos: int, end: int) -> int:
    """Where the spaces that end ``src[pos:end]`` begin."""
    while end > pos and src[end - 1] in " \t":
        end -= 1
    return end


def _read_open(src: str, starts: list[int], line: int, pos: int) -> OpenTag | None:
    """The opening tag of a block-level element at ``pos``, read over ``TAG_LINES`` lines."""
    name = _OPEN.match(src, pos)
    if name is None or name.group(1).lower() not in BLOCK_LEVEL or name.group(1).lower() == "hr":
        return None
    last = min(line + TAG_LINES, len(starts)) - 1
    stop = starts[last + 1] - 1 if last + 1 < len(starts) else len(src)
    at = name.end()
    attrs: list[tuple[str, str]] = []
    markdown: re.Match[str] | None = None
    while not (ended := _TAG_END.match(src, at, stop)):
        attribute = _ATTRIBUTE.match(src, at, stop)
        if attribute is None:
            return None
        key = attribute.group(1).lower()
        if key == "markdown" and markdown is None:
            markdown = attribute
        elif key != "markdown":
            attrs.append((key, next((g for g in attribute.groups()[1:] if g is not None), "")))
        at = attribute.end()
    end = ended.end()
    text, value = src[pos:end], None
    if markdown is not None:  # written without a value, it means "1" (Python-Markdown's)
        text = src[pos : markdown.start()] + src[markdown.end() : end]
        value = next((g for g in markdown.groups()[1:] if g is not None), "markdown")
    tag_line = line
    while tag_line + 1 < len(starts) and starts[tag_line + 1] <= end - 1:
        tag_line += 1
    return OpenTag(name.group(1).lower(), value, tuple(attrs), pos, end, tag_line, text)


# --- the block rule -------------------------------------------------------------------------


def md_in_html(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """An element with the ``markdown`` attribute (or, right inside one, a block-level
    element without it, whose content stays raw as Python-Markdown keeps it)."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("<", pos):
        return False
    index = _index(state)
    tag = index.opens.get(pos)
    if tag is None:
        return False
    how = mode(tag)
    if not how and state.parentType != _PARENT:
        return False
    bound = _bound(state, index, start_line, min(end_line, state.lineMax))
    close = index.closes.get(pos)
    if close is not None and not close.line < bound:
        close = None
    if tag.last_line >= bound or (not how and close is None):
        return False  # raw HTML as markdown-it reads it
    if how and index.depth >= MAX_DEPTH:
        _too_deep(state, index, tag)
        return False
    if silent:
        return True
    if not how:
        _raw(state, close)  # type: ignore[arg-type]
    elif close is None:
        report(
            state,
            pos,
            f"<{tag.name} markdown> is not closed by a </{tag.name}> in the same block; its "
            "content is read up to the end of the block",
            "md-in-html",
        )
        _element(state, index, tag, how, (None, bound))
    else:
        _element(state, index, tag, how, (close, bound))
    return True


def _bound(state: StateBlock, index: _Index, start_line: int, end: int) -> int:
    """The line before which the current block ends: ``end``, or the first non-blank line
    indented less than the block (a list item ends there). The last search per indentation
    answers every later one that starts before what it found, so a block's openers share
    one scan."""
    if state.blkIndent == 0:
        return end
    since, found, outdented = index.outdented.get(state.blkIndent, (-1, -1, False))
    if since <= start_line < found and (outdented or found >= end):
        return min(end, found)
    found = start_line + 1
    while found < state.lineMax and (
        state.isEmpty(found) or state.sCount[found] >= state.blkIndent
    ):
        found += 1
    index.outdented[state.blkIndent] = (start_line, found, found < state.lineMax)
    return min(end, found)


def _too_deep(state: StateBlock, index: _Index, tag: OpenTag) -> None:
    if not index.warned_depth:
        index.warned_depth = True
        report(
            state,
            tag.start,
            f"elements with the markdown attribute nest deeper than {MAX_DEPTH} here; from "
            f"<{tag.name}> on they are raw HTML, and their content is read as if outside them",
            "md-in-html",
        )


def _raw(state: StateBlock, close: CloseTag) -> None:
    """A block-level element without the attribute right inside one with it: raw HTML up to
    its own closing tag, blank lines and all (Python-Markdown keeps it whole)."""
    saved = state.eMarks[close.line]
    state.eMarks[close.line] = close.end
    token = state.push("html_block", "", 0)
    token.map = [state.line, close.line + 1]
    token.content = state.getLines(state.line, close.line + 1, state.blkIndent, True)
    state.eMarks[close.line] = saved
    _tail(state, close)
    state.line = close.line + 1


def _element(
    state: StateBlock, index: _Index, tag: OpenTag, how: str, end: tuple[CloseTag | None, int]
) -> None:
    """The element's opening tag, its content read as ``how`` says, its closing tag, and
    any text after the closing tag on its line as a paragraph. ``end``: the closing tag
    (None: not closed) and the line the block ends before."""
    close, bound = end
    start_line = state.line
    heading = how == "span" and tag.name in _HEADINGS
    if heading:
        opener = state.push("heading_open", tag.name, 1)
        _heading_attrs(opener, tag)
    else:
        opener = state.push("html_block", "", 0)
        opener.content = tag.text + ("\n" if how == "block" else "")
    opener.map = [start_line, tag.last_line + 1]
    first, last = _content_lines(state, tag, close, bound)
    count = len(state.tokens)
    restore = _cut(state, tag, close, first)
    index.depth += 1
    try:
        if how == "block":
            _blocks(state, first, last)
        else:
            _span(state, first, last)
    finally:
        index.depth -= 1
        restore()
    if close is not None and not close.leading:
        for token in state.tokens[count:]:  # the content's last line ends before the tag
            inline = token.type == "inline" and token.map and token.map[1] == close.line + 1
            if inline and LINE_END not in token.meta:  # an inner element's own end comes first
                token.meta[LINE_END] = close.start
    closer = state.push(
        "heading_close" if heading else "html_block",
        tag.name if heading else "",
        -1 if heading else 0,
    )
    if not heading:
        closer.content = f"</{tag.name}>\n"
    if close is not None:
        closer.map = [close.line, close.line + 1]
        _tail(state, close)
    state.line = last if close is None else close.line + 1


def _content_lines(
    state: StateBlock, tag: OpenTag, close: CloseTag | None, bound: int
) -> tuple[int, int]:
    """The first line of the element's content and the line after its last: the content
    starts on the tag's own line when more follows the tag there."""
    line = tag.last_line
    stop = close.start if close is not None and close.line == line else state.eMarks[line]
    first = line if state.src[tag.end : stop].strip() else line + 1
    if close is None:
        return first, bound
    return first, close.line if close.leading else close.line + 1


def _cut(state: StateBlock, tag: OpenTag, close: CloseTag | None, first: int) -> Callable[[], None]:
    """Have the block parser read the content's lines only: from after the opening tag
    when the content starts on its line, up to the closing tag when it ends one. Returns
    what puts the lines back."""
    saved: list[tuple[int, int, int, int, int]] = []
    if first == tag.last_line:
        saved.append((first, *_marks(state, first)))
        after = state.src[tag.end : state.eMarks[first]]
        shift = len(after) - len(after.lstrip(" \t"))
        state.bMarks[first], state.tShift[first] = tag.end, shift
        state.sCount[first] = state.blkIndent
    if close is not None and not close.leading:
        if not saved or saved[0][0] != close.line:
            saved.append((close.line, *_marks(state, close.line)))
        state.eMarks[close.line] = close.start

    def restore() -> None:
        for line, begin, shift, count, stop in saved:
            state.bMarks[line], state.tShift[line] = begin, shift
            state.sCount[line], state.eMarks[line] = count, stop

    return restore


def _marks(state: StateBlock, line: int) -> tuple[int, int, int, int]:
    return state.bMarks[line], state.tShift[line], state.sCount[line], state.eMarks[line]


def _blocks(state: StateBlock, first: int, last: int) -> None:
    saved = (state.lineMax, state.parentType)
    state.lineMax, state.parentType = last, _PARENT
    try:
        state.md.block.tokenize(state, first, last)
    finally:
        state.lineMax, state.parentType = saved


def _span(state: StateBlock, first: int, last: int) -> None:
    """The content as one run of text (``markdown="span"``), parsed inline later."""
    inline = state.push("inline", "", 0)
    inline.content = state.getLines(first, last, state.blkIndent, False).strip()
    inline.map = [first, last]
    inline.children = []


def _heading_attrs(opener: Token, tag: OpenTag) -> None:
    """A heading element's id and classes on the heading sitegen writes (so it gets its
    permalink and its place in the table of contents); no class of the theme's."""
    attrs = dict(tag.attrs)
    if attrs.get("id"):
        opener.attrs["id"] = attrs["id"]
    classes = author_classes(attrs.get("class", ""))
    if classes:
        opener.attrs["class"] = classes
    opener.markup = ""
    opener.block = True


def _tail(state: StateBlock, close: CloseTag) -> None:
    """Text after an element's closing tag on its line: a paragraph of its own, as
    Python-Markdown reads it."""
    if close.tail < 0:
        return
    line = close.line
    state.push("paragraph_open", "p", 1).map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content = state.src[close.tail : state.eMarks[line]].strip()
    inline.map = [line, line + 1]
    inline.children = []
    state.push("paragraph_close", "p", -1)


def md_in_html_plugin(md: MarkdownIt) -> None:
    """The rule, before ``html_block``, which would read the element as raw HTML."""
    alt = next(r.alt for r in md.block.ruler.__rules__ if r.name == "html_block")
    md.block.ruler.before("html_block", "sitegen_md_in_html", md_in_html, {"alt": alt})
