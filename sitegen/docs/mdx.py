"""Docusaurus's MDX, read when the generator record asks for it (``Dialect.MDX``): ESM lines
(``import``/``export``) hidden, ``{/* comments */}`` dropped, indented code off, and JSX
elements written on lines of their own read as blocks: ``<Tabs>``/``<TabItem>`` as sitegen's
tabs, ``<details>``/``<summary>`` as HTML details, ``<iframe>`` and ``<LiteYouTubeEmbed>``
as a link to what they embed, any other component as its content with its ``title`` shown
(content/syntax/docusaurus.md).

Block, inline and core rules on the MDX parser only. Nothing of the page is run: an
expression is never evaluated, an import never followed. Every reader here is one forward
pass, or bounded per line: a JSX tag is read over at most ``TAG_LINES`` lines, an element's
closing line is found by one pass over the page's lines (``_index``), elements nest at most
``MAX_DEPTH`` deep.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from sitegen.base.urlgate import allowed_url
from sitegen.docs.blocks import report, tab_renderers
from sitegen.docs.callouts import DOCUSAURUS_LOOKS, TITLE_LINE, title_tokens
from sitegen.docs.positions import ENV_SOURCE, PageText
from sitegen.docs.rawlinks import recording_html
from sitegen.docs.wikilinks import find_closer
from sitegen.generators import Dialect

#: Key in ``env`` of the ``Dialect`` a page is read in (sitegen/docs/markdown.py sets it).
ENV_DIALECT = "sitegen_dialect"
#: Token meta key: the ``{…}`` values of an inline tag's ``src``/``href``, not evaluated.
LOST_URLS = "sitegen_mdx_lost_urls"
#: Key in ``env`` of the components the page imports from markdown files: name -> path.
ENV_PARTIALS = "sitegen_mdx_partials"
#: Lines a JSX tag may span (``<LiteYouTubeEmbed`` with an attribute per line takes four).
TAG_LINES = 16
#: JSX elements nested deeper than this are not read as elements (their content is read as
#: if outside them).
MAX_DEPTH = 16
#: markdown-it's parent type inside an element.
_JSX = "mdx_jsx"
_ESM = re.compile(r"(?:import|export)[ \t]")
_PARTIAL = re.compile(r"import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from[ \t]+['\"]([^'\"\n]+\.mdx?)['\"]")
_NAME = re.compile(r"[A-Za-z_$][\w$.:-]*")
_SPACE = re.compile(r"[ \t\r\n]*")
_BLANKS = " \t"
#: Lowercase elements read here; any other lowercase tag is HTML, cleaned as raw HTML is.
_HTML_READ = ("details", "summary", "iframe")
_LITERAL = re.compile(r"\{\s*(?:\"([^\"\\\n]*)\"|'([^'\\\n]*)'|`([^`\\$]*)`)\s*\}")
_YOUTUBE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_YOUTUBE_EMBED = re.compile(
    r"https?://(?:www\.)?youtube(?:-nocookie)?\.com/embed/([A-Za-z0-9_-]{1,64})", re.ASCII
)
_TAB_VALUES = re.compile(
    r"label\s*:\s*['\"]([^'\"\n]*)['\"]\s*,\s*value\s*:\s*['\"]([^'\"\n]*)['\"]"
    r"|value\s*:\s*['\"]([^'\"\n]*)['\"]\s*,\s*label\s*:\s*['\"]([^'\"\n]*)['\"]"
)


def is_mdx(env: object) -> bool:
    """Whether the page whose ``env`` this is is read as MDX."""
    dialect = env.get(ENV_DIALECT) if isinstance(env, dict) else None
    return isinstance(dialect, Dialect) and bool(dialect & Dialect.MDX)


# --- JavaScript, read only as far as its brackets, strings and comments --------------------

_CODE_STOP = re.compile(r"//|/\*|[\"'`(){}\[\]]")
_TEMPLATE_STOP = re.compile(r"\\.|`|\$\{", re.DOTALL)
_STRING_END = {q: re.compile(rf"(?:[^{q}\\\n]|\\.)*{q}") for q in ("'", '"')}
_PAIRS = {")": "(", "]": "[", "}": "{"}


@dataclass
class _Js:
    """Where a forward read of JavaScript stands: the brackets and template literals open,
    and whether it is inside a ``/* */`` comment. A string ends at its line's end at most."""

    stack: list[str] = field(default_factory=list)
    comment: bool = False

    def feed(self, src: str, i: int, stop: int, until_closed: bool = False) -> int:
        """Read ``src[i:stop]``; returns ``stop``, or with ``until_closed`` the index just
        after the bracket that closed the first one opened."""
        while i < stop:
            if self.comment:
                end = src.find("*/", i, stop)
                if end < 0:
                    return stop
                self.comment, i = False, end + 2
            elif self.stack and self.stack[-1] == "`":
                found = _TEMPLATE_STOP.search(src, i, stop)
                if found is None:
                    return stop
                i = found.end()
                if found.group() == "`":
                    self.stack.pop()
                elif found.group() == "${":
                    self.stack.append("${")
            else:
                found = _CODE_STOP.search(src, i, stop)
                if found is None:
                    return stop
                i = self._token(src, found.group(), found.end(), stop)
                if until_closed and not self.stack and found.group() in _PAIRS:
                    return i
        return stop

    def _token(self, src: str, token: str, i: int, stop: int) -> int:
        if token == "//":
            end = src.find("\n", i, stop)
            return stop if end < 0 else end
        if token == "/*":
            self.comment = True
        elif token in _STRING_END:
            ended = _STRING_END[token].match(src, i, stop)
            if ended is not None:
                return ended.end()
            end = src.find("\n", i, stop)
            return stop if end < 0 else end
        elif token in "`([{":
            self.stack.append(token)
        elif self.stack and (
            self.stack[-1] == _PAIRS[token] or (token == "}" and self.stack[-1] == "${")
        ):
            self.stack.pop()
        return i

    @property
    def closed(self) -> bool:
        return not self.stack and not self.comment


# --- ESM: import and export statements -----------------------------------------------------

_ESM_DEAD = "sitegen_mdx_esm_dead"


def esm_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``import …``/``export …`` at the start of a top-level line: the statement, to the
    first blank line where its brackets are closed, is hidden (MDX runs it; sitegen does
    not). A default import of a ``.md``/``.mdx`` file is remembered for the warnings."""
    # the top level: no container is open (markdown-it's parentType is left at "paragraph"
    # after a paragraph, so the level says it)
    if state.level != 0 or state.blkIndent != 0 or state.sCount[start_line] != 0:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not _ESM.match(state.src, start):
        return False
    if silent:
        return True
    state.line = _esm_end(state, start_line, end_line)
    text = state.src[start : state.bMarks[state.line] if state.line < end_line else len(state.src)]
    partials = state.env.setdefault(ENV_PARTIALS, {})
    for found in _PARTIAL.finditer(text):
        partials.setdefault(found.group(1), found.group(2))
    return True


def _esm_end(state: StateBlock, start_line: int, end_line: int) -> int:
    """The line after the statement: the first blank line with every bracket, string and
    comment closed, as MDX's reader ends it. When the brackets never close, the first blank
    line; and from then on, for the page's later statements too, so that unclosed statements
    cost one read of the page in all."""
    dead = bool(state.env.get(_ESM_DEAD))
    js = _Js()
    first_blank = -1
    for line in range(start_line, end_line):
        if state.isEmpty(line):
            if first_blank < 0:
                first_blank = line
            if dead or js.closed:
                return line
        else:
            js.feed(state.src, state.bMarks[line], state.eMarks[line] + 1)
            if dead and first_blank >= 0:
                return first_blank
    if js.closed or first_blank < 0:
        return end_line
    state.env[_ESM_DEAD] = True
    return first_blank


# --- {/* comments */} ----------------------------------------------------------------------

_COMMENT_NEXT = "sitegen_mdx_comment_next"


def _comment_end(src: str, opener: int, env: EnvType) -> int:
    """Just after the ``}`` of the comment opened at ``opener`` (``{/*``), or -1. The last
    search for ``*/`` answers every later one that starts between its start and what it
    found (as ``find_closer`` does inline), so openers without a closer stay linear."""
    start = opener + 3
    since, found = env.get(_COMMENT_NEXT, (-1, -2))
    if not (since <= start and (found == -1 or start <= found)):
        found = src.find("*/", start)
        env[_COMMENT_NEXT] = (start, found)
    if found < 0:
        return -1
    end = found + 2
    while end < len(src) and src[end] in _BLANKS:
        end += 1
    return end + 1 if src.startswith("}", end) else -1


def comment_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Lines from one starting with ``{/*`` to the line its ``*/}`` ends: dropped."""
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("{/*", start):
        return False
    end = _comment_end(state.src, start, state.env)
    if end < 0 or end > state.eMarks[end_line - 1]:
        return False
    line = max(bisect_right(state.bMarks, end - 1, start_line, end_line) - 1, start_line)
    if state.src[end : state.eMarks[line]].strip(_BLANKS):
        return False  # text after it on its line: the inline rule drops it instead
    if not silent:
        state.line = line + 1
    return True


def comment_inline(state: StateInline, silent: bool) -> bool:
    """``{/* … */}`` inside a paragraph, across its lines: dropped."""
    if not state.src.startswith("{/*", state.pos):
        return False
    found = find_closer(state, "*/", state.pos + 3)
    if found < 0:
        return False
    end = found + 2
    while end < state.posMax and state.src[end] in _BLANKS:
        end += 1
    if end >= state.posMax or state.src[end] != "}":
        return False
    state.pos = end + 1
    return True


# --- JSX tags ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expression:
    """An attribute's ``{…}`` value, as written; never evaluated."""

    text: str
    start: int = 0  # where it stands in the text the tag was read from


AttrValue = str | Expression | bool


@dataclass(frozen=True)
class Tag:
    name: str
    closing: bool
    self_closing: bool
    attrs: tuple[tuple[str, AttrValue], ...]
    start: int
    end: int  # just after its ``>``

    def attr(self, name: str) -> AttrValue | None:
        return next((v for k, v in self.attrs if k == name), None)

    def text(self, name: str) -> str | None:
        """The attribute ``name`` when it is a string: ``a="x"``, ``a={'x'}``, ``a={`x`}``."""
        value = self.attr(name)
        if isinstance(value, Expression):
            literal = _LITERAL.fullmatch(value.text)
            return None if literal is None else next(g for g in literal.groups() if g is not None)
        return value if isinstance(value, str) else None


def read_tag(src: str, pos: int, stop: int) -> Tag | None:
    """The JSX tag at ``src[pos]`` (a ``<``) if it ends before ``stop``: a name, then
    attributes (``a``, ``a="…"``, ``a='…'``, ``a={…}``, ``{...spread}``), then ``>`` or
    ``/>``. One forward read."""
    i = pos + 1
    closing = src.startswith("/", i)
    name = _NAME.match(src, i + closing, stop)
    if name is None:
        return None
    i = name.end()
    attrs: list[tuple[str, AttrValue]] = []
    while True:
        i = _SPACE.match(src, i, stop).end()  # type: ignore[union-attr]
        if i >= stop:
            return None
        if src[i] == ">" or (src.startswith("/>", i) and not closing):
            self_closing = src[i] == "/"
            end = i + (2 if self_closing else 1)
            return Tag(name.group(), closing, self_closing, tuple(attrs), pos, end)
        if closing:
            return None
        i = _attribute(src, i, stop, attrs)
        if i < 0:
            return None


def _attribute(src: str, i: int, stop: int, attrs: list[tuple[str, AttrValue]]) -> int:
    """Reads one attribute at ``i`` into ``attrs``; returns where it ends, or -1."""
    if src[i] == "{":
        end = _expression_end(src, i, stop)
        if end > 0:
            attrs.append(("...", Expression(src[i:end], i)))
        return end
    key = _NAME.match(src, i, stop)
    if key is None:
        return -1
    j = _SPACE.match(src, key.end(), stop).end()  # type: ignore[union-attr]
    if not src.startswith("=", j):
        attrs.append((key.group(), True))
        return key.end()
    j = _SPACE.match(src, j + 1, stop).end()  # type: ignore[union-attr]
    if j >= stop:
        return -1
    if src[j] in "\"'":
        end = src.find(src[j], j + 1, stop)
        if end < 0:
            return -1
        attrs.append((key.group(), src[j + 1 : end]))
        return end + 1
    if src[j] == "{":
        end = _expression_end(src, j, stop)
        if end > 0:
            attrs.append((key.group(), Expression(src[j:end], j)))
        return end
    return -1


def _expression_end(src: str, i: int, stop: int) -> int:
    js = _Js()
    end = js.feed(src, i, stop, until_closed=True)
    return end if js.closed and end <= stop else -1


def jsx_inline(state: StateInline, silent: bool) -> bool:
    """A tag inside a paragraph with ``{…}`` attributes (``<code style={{…}}>``), which
    HTML's rules do not read as a tag: the page's own HTML all the same, each expression
    blanked out (same length, so every position holds), then cleaned as raw HTML is.
    Read only up to the next ``>`` and only when no ``<`` comes first, so reads never
    overlap."""
    src, pos = state.src, state.pos
    if not src.startswith("<", pos):
        return False
    end = find_closer(state, ">", pos + 1)
    # the search for "<" stops at the next one: never a scan of the paragraph per tag
    if end < 0 or src.find("<", pos + 1, end) >= 0 or src.find("{", pos, end) < 0:
        return False
    tag = read_tag(src, pos, end + 1)
    if tag is None or tag.end != end + 1:
        return False
    if not silent:
        text = list(src[pos : end + 1])
        for _, value in tag.attrs:
            if isinstance(value, Expression):
                first = value.start - pos
                text[first : first + len(value.text)] = " " * len(value.text)
        token = state.push("html_inline", "", 0)
        token.content = "".join(text)
        # an address that only running the page would give: warned (sitegen/docs/unsupported.py)
        lost = [v.text for k, v in tag.attrs if k in ("src", "href") and isinstance(v, Expression)]
        if lost:
            token.meta[LOST_URLS] = lost
    state.pos = end + 1
    return True


# --- JSX elements on lines of their own ----------------------------------------------------


class Shape:
    """How a line that starts with a tag is written."""

    OPEN = "open"  # <Name …> and nothing else: its content follows, up to </Name>
    OPEN_REST = "open-rest"  # <Name …> then more on its line: the content starts there
    INLINE = "inline"  # <Name …>text</Name> on one line
    SELF = "self"  # <Name … />
    CLOSE = "close"  # </Name>


@dataclass(frozen=True)
class TagLine:
    tag: Tag
    shape: str
    last_line: int  # the line the tag (for INLINE: the closing tag) ends on
    inner: tuple[int, int] = (0, 0)  # INLINE: where its text is


def _read(src: str, starts: Sequence[int], line: int, pos: int) -> TagLine | None:
    """The tag line at ``pos`` on line ``line`` (``starts``: the page's line starts), or None
    when the tag is not one this module reads or the line is not written as one."""
    last = min(line + TAG_LINES, len(starts)) - 1
    stop = starts[last + 1] - 1 if last + 1 < len(starts) else len(src)
    tag = read_tag(src, pos, stop)
    if tag is None or not (tag.name[:1].isupper() or tag.name in _HTML_READ):
        return None
    tag_line = max(bisect_right(starts, tag.end - 1) - 1, line)
    line_end = starts[tag_line + 1] - 1 if tag_line + 1 < len(starts) else len(src)
    rest = src[tag.end : line_end].strip(_BLANKS + "\r")
    if tag.closing or tag.self_closing:
        return (
            TagLine(tag, Shape.CLOSE if tag.closing else Shape.SELF, tag_line) if not rest else None
        )
    if not rest:
        return TagLine(tag, Shape.OPEN, tag_line)
    closer = f"</{tag.name}>"
    if rest.endswith(closer):
        stop_text = src.rfind(closer, tag.end, line_end)
        return TagLine(tag, Shape.INLINE, tag_line, (tag.end, stop_text))
    return TagLine(tag, Shape.OPEN_REST, tag_line)


@dataclass
class _Index:
    """The page's tag lines by position, and each opening line's closing line."""

    lines: dict[int, TagLine]
    closes: dict[int, int]  # where an opening tag starts -> its closing line
    depth: int = 0
    warned_depth: bool = False


_INDEX = "sitegen_mdx_index"
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")


def _index(state: StateBlock) -> _Index:
    """Built once per page, in one pass over its lines: the tag lines outside fenced code,
    and the closing line of each opening one (the nearest unclosed one of its name)."""
    known = state.env.get(_INDEX)
    if isinstance(known, _Index):
        return known
    source = state.env.get(ENV_SOURCE)
    src = source.text if isinstance(source, PageText) else state.src
    starts = source.line_starts if isinstance(source, PageText) else _line_starts(src)
    lines: dict[int, TagLine] = {}
    closes: dict[int, int] = {}
    open_: dict[str, list[int]] = {}  # by name, where the tags still open start
    fence = ""
    for line, start in enumerate(starts):
        fenced = _FENCE.match(src, start)
        if fence:
            end = starts[line + 1] - 1 if line + 1 < len(starts) else len(src)
            if fenced and fenced.group(1).startswith(fence) and not src[fenced.end() : end].strip():
                fence = ""
            continue
        if fenced:
            fence = fenced.group(1)
            continue
        pos = _SPACE_ONLY.match(src, start).end()  # type: ignore[union-attr]
        found = _read(src, starts, line, pos) if src.startswith("<", pos) else None
        if found is None:
            continue
        lines[pos] = found
        if found.shape in (Shape.OPEN, Shape.OPEN_REST):
            open_.setdefault(found.tag.name, []).append(pos)
        elif found.shape == Shape.CLOSE and open_.get(found.tag.name):
            closes[open_[found.tag.name].pop()] = line
    index = _Index(lines, closes)
    state.env[_INDEX] = index
    return index


_SPACE_ONLY = re.compile(r"[ \t]*")


def _line_starts(src: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", src)]


def jsx_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A JSX element whose tags stand on lines of their own (content/syntax/docusaurus.md):
    ``mdx_open``, its content read as markdown, ``mdx_close``. An opening tag with more on
    its line whose element cannot be read is left to the HTML rules."""
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("<", pos):
        return False
    index = _index(state)
    found = index.lines.get(pos)
    if found is None and pos != _text_start(state, start_line):
        source = state.env.get(ENV_SOURCE)  # after a container's marker: read here
        if isinstance(source, PageText):
            found = _read(source.text, source.line_starts, start_line, pos)
    if found is None:
        return False
    close, indent = -1, -1
    if found.shape in (Shape.OPEN, Shape.OPEN_REST):
        close, indent = _extent(state, found, start_line, index)
        if close < 0 and found.shape == Shape.OPEN_REST:
            return False
    if silent:
        return True
    if found.shape == Shape.CLOSE:
        _stray_close(state, found, pos)
    elif close >= 0:
        _element(state, found, start_line, index, (close, indent))
    else:
        if found.shape == Shape.OPEN:
            _unclosed(state, found, index, start_line)
        _leaf(state, found, start_line)
    return True


def _text_start(state: StateBlock, line: int) -> int:
    """Where line ``line``'s text starts in the source, its container markers included."""
    source = state.env.get(ENV_SOURCE)
    if not isinstance(source, PageText):
        return state.bMarks[line] + state.tShift[line]
    return _SPACE_ONLY.match(source.text, source.line_starts[line]).end()  # type: ignore[union-attr]


def _extent(state: StateBlock, found: TagLine, line: int, index: _Index) -> tuple[int, int]:
    """The closing line of the element opened on ``line`` and the indentation its content
    is read at (the least of its lines, as MDX has no indented code); (-1, -1) when it
    cannot be read: not closed inside the current block, or nested too deep."""
    close = index.closes.get(found.tag.start, -1)
    first = found.last_line if found.shape == Shape.OPEN_REST else found.last_line + 1
    if not first <= close < state.lineMax or index.depth >= MAX_DEPTH:
        return -1, -1
    if _outdented_line(state, first) < close:  # the element would leave its container
        return -1, -1
    indents = [state.sCount[n] for n in range(first, close) if not state.isEmpty(n)]
    return close, min(indents, default=state.blkIndent)


_OUTDENTED = "sitegen_mdx_outdented"


def _outdented_line(state: StateBlock, first: int) -> int:
    """The first non-blank line from ``first`` on indented less than the current block (its
    container ends there), or ``state.lineMax``. The last search per indentation answers
    every later one that starts between its start and what it found, so the openers of a
    container that ends early cost one scan together."""
    known: dict[int, tuple[int, int, bool]] = state.env.setdefault(_OUTDENTED, {})
    since, found, outdented = known.get(state.blkIndent, (-1, -1, False))
    if since <= first <= found:
        if outdented:  # found is that line: the answer, or past the current block's end
            return min(found, state.lineMax)
        if state.lineMax <= found:  # none before found, so none before the block's end
            return state.lineMax
    line = first
    while line < state.lineMax and (state.isEmpty(line) or state.sCount[line] >= state.blkIndent):
        line += 1
    known[state.blkIndent] = (first, line, line < state.lineMax)
    return line


def _push_open(state: StateBlock, tag: Tag, lines: list[int]) -> Token:
    token = state.push("mdx_open", "", 1)
    token.map = lines
    token.block = True
    token.meta = {"tag": tag}
    return token


def _push_close(state: StateBlock, opener: Token) -> None:
    token = state.push("mdx_close", "", -1)
    token.block = True
    token.meta = dict(opener.meta)


def _leaf(state: StateBlock, found: TagLine, line: int) -> None:
    """``<Name … />``, ``<Name …>text</Name>``, or an opening tag whose element cannot be
    read: an element of its inline text at most."""
    opener = _push_open(state, found.tag, [line, found.last_line + 1])
    start, stop = found.inner
    text = state.src[start:stop].strip() if found.shape == Shape.INLINE else ""
    if text:
        last = found.last_line
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = text, [last, last + 1], []
        inline.meta[TITLE_LINE] = last
    _push_close(state, opener)
    state.line = found.last_line + 1


def _stray_close(state: StateBlock, found: TagLine, pos: int) -> None:
    name = found.tag.name
    report(
        state,
        pos,
        f"</{name}> closes no <{name}> opened before it in the same block; it is left out",
        "mdx",
    )
    state.line = found.last_line + 1


def _unclosed(state: StateBlock, found: TagLine, index: _Index, line: int) -> None:
    """The warning for an opening tag whose element cannot be read. Nested too deep, its
    closing line is let go without a second word."""
    name = found.tag.name
    if index.depth < MAX_DEPTH:
        report(
            state,
            found.tag.start,
            f"<{name}> is not closed by a </{name}> in the same block; what follows it is "
            "read as if outside it",
            "mdx",
        )
        return
    close = index.closes.get(found.tag.start, -1)
    if close >= 0:
        index.lines.pop(_text_start(state, close), None)
    if not index.warned_depth:
        index.warned_depth = True
        report(
            state,
            found.tag.start,
            f"JSX elements nest deeper than {MAX_DEPTH} here; from <{name}> on, their content "
            "is read as if outside them",
            "mdx",
        )


def _element(
    state: StateBlock, found: TagLine, line: int, index: _Index, extent: tuple[int, int]
) -> None:
    """``<Name …>`` whose content runs to its own closing line, read as the element's
    blocks; for an opening tag with more on its line, from just after the tag."""
    close, indent = extent
    first = found.last_line if found.shape == Shape.OPEN_REST else found.last_line + 1
    opener = _push_open(state, found.tag, [line, close + 1])
    saved = (state.lineMax, state.parentType, state.blkIndent)
    state.lineMax, state.parentType, state.blkIndent = close, _JSX, indent
    kept = (state.bMarks[first], state.tShift[first], state.sCount[first])
    if found.shape == Shape.OPEN_REST:  # the line read from after the tag, at the indent
        shift = _SPACE_ONLY.match(state.src, found.tag.end).end() - found.tag.end  # type: ignore[union-attr]
        state.bMarks[first], state.tShift[first], state.sCount[first] = found.tag.end, shift, indent
    index.depth += 1
    try:
        state.md.block.tokenize(state, first, close)
    finally:
        index.depth -= 1
        state.bMarks[first], state.tShift[first], state.sCount[first] = kept
        state.lineMax, state.parentType, state.blkIndent = saved
    _push_close(state, opener)
    closing = index.lines.get(_text_start(state, close))
    state.line = (closing.last_line if closing else close) + 1


# --- the elements, as sitegen's tokens -----------------------------------------------------


@dataclass
class _TabSet:
    number: int
    default: str
    labels: dict[str, str]
    items: list[Token] = field(default_factory=list)


def translate(state: StateCore) -> None:
    """Core rule after the block parse: each ``mdx_open``/``mdx_close`` pair becomes tabs,
    details, an embed or a component."""
    if not any(t.type == "mdx_open" for t in state.tokens):
        return
    out: list[Token] = []
    sets: list[_TabSet] = []
    kinds: list[str] = []  # of the elements open; the block rule closes each it opens
    count = 0
    for token in state.tokens:
        if token.type == "mdx_open":
            tag: Tag = token.meta["tag"]
            kinds.append(_kind(tag, sets))
            if kinds[-1] == "tabs":
                count += 1
                sets.append(_tab_set(tag, count))
            out += _opened(token, tag, kinds[-1], sets)
        elif token.type == "mdx_close" and kinds:
            kind = kinds.pop()
            if kind == "tabs":
                _choose(sets.pop())
            token.type = f"mdx_{kind}_close"
            out.append(token)
        else:
            out.append(token)
    state.tokens = out
    _embed_warnings(state)


def _kind(tag: Tag, sets: list[_TabSet]) -> str:
    name = tag.name
    if name == "Tabs":
        return "tabs"
    if name == "TabItem" and sets:
        return "tab"
    if name in ("details", "summary"):
        return name
    if name in ("iframe", "LiteYouTubeEmbed"):
        return "embed"
    return "component"


def _tab_set(tag: Tag, number: int) -> _TabSet:
    values = tag.attr("values")
    labels: dict[str, str] = {}
    if isinstance(values, Expression):
        for found in _TAB_VALUES.finditer(values.text):
            label, value = (
                (found.group(1), found.group(2))
                if found.group(1) is not None
                else (
                    found.group(4),
                    found.group(3),
                )
            )
            labels.setdefault(value, label)
    return _TabSet(number, tag.text("defaultValue") or "", labels)


def _opened(token: Token, tag: Tag, kind: str, sets: list[_TabSet]) -> list[Token]:
    token.type = f"mdx_{kind}_open"
    if kind == "tab":
        tabs = sets[-1]
        tabs.items.append(token)
        value = tag.text("value") or ""
        label = tag.text("label") or tabs.labels.get(value) or value or f"Tab {len(tabs.items)}"
        token.meta.update(
            set=tabs.number,
            index=len(tabs.items),
            selected=tag.attr("default") is True or (bool(value) and value == tabs.default),
        )
        line = (token.map or [0])[0]
        return [token, *title_tokens("mdx_tab_label", label, line, token.level + 1)]
    if kind == "embed":
        token.meta["link"] = _embed_link(tag)
    return [token]


def _embed_warnings(state: StateCore) -> None:
    """An embed that names nothing to link to is left out, with a word."""
    for token in state.tokens:
        if token.type == "mdx_embed_open" and token.meta.get("link") is None:
            name = token.meta["tag"].name
            report(
                state,
                token.meta["tag"].start,
                f"<{name}> names no video or http(s) page sitegen can link to (its src or id "
                "is missing or refused); it is left out",
                "mdx",
            )


def _choose(tabs: _TabSet) -> None:
    if tabs.items:
        chosen = next((t for t in tabs.items if t.meta["selected"]), tabs.items[0])
        chosen.meta["checked"] = True


def _embed_link(tag: Tag) -> tuple[str, str] | None:
    """(URL, text) of the link an embed becomes, or None when it names nothing to link to:
    a YouTube video's page (``LiteYouTubeEmbed``'s ``id``, an ``/embed/`` address), else
    the framed page itself, when the URL gate allows it (content/guides/safety.md)."""
    title = tag.text("title") or ""
    video = tag.text("id") if tag.name == "LiteYouTubeEmbed" else None
    src = tag.text("src") or ""
    embedded = _YOUTUBE_EMBED.match(src)
    if embedded is not None:
        video = embedded.group(1)
    if video is not None and _YOUTUBE_ID.fullmatch(video):
        return f"https://www.youtube.com/watch?v={video}", f"Video: {title or video}"
    if src.startswith(("https://", "http://")) and allowed_url(src, href=True):
        return normalizeLink(src), f"Embedded page: {title or src}"
    return None


def html_embeds(state: StateCore) -> None:
    """Core rule: an ``<iframe>`` inside the page's own HTML block (``<div style={…}>``
    around it, as pages that size their videos write) is removed with the rest of what the
    cleaner does not allow; the link it stands for is put right after the block."""
    out: list[Token] = []
    for token in state.tokens:
        out.append(token)
        if token.type != "html_block" or "<iframe" not in token.content:
            continue
        for link in _iframe_links(token.content):
            embed = Token("mdx_embed_open", "", 0)
            embed.meta, embed.block, embed.level = {"link": link}, True, token.level
            out.append(embed)
    state.tokens = out


def _iframe_links(html: str) -> list[tuple[str, str]]:
    """The links of the ``<iframe>`` tags of ``html``; each tag is read up to the next
    ``<iframe`` at most, so the reads never overlap."""
    links = []
    at = html.find("<iframe")
    while at >= 0:
        following = html.find("<iframe", at + 1)
        tag = read_tag(html, at, len(html) if following < 0 else following)
        link = _embed_link(tag) if tag is not None else None
        if link is not None:
            links.append(link)
        at = following
    return links


# --- rendering -----------------------------------------------------------------------------

Render = Any  # a renderer rule: (self, tokens, idx, options, env) -> str


#: sitegen's tab markup (sitegen/docs/blocks.py) with ids of their own.
render_tab_open, render_tab_label_open = tab_renderers("__mdxtabs")


def render_details_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    tag: Tag = tokens[idx].meta["tag"]
    return "<details open>\n" if tag.attr("open") not in (None, False) else "<details>\n"


def render_embed_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    link = tokens[idx].meta.get("link")
    if link is None:
        return ""
    url, text = link
    return f'<p class="embed"><a href="{escapeHtml(url)}">{escapeHtml(text)}</a></p>\n'


def render_component_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """A component's content in a ``div``; its ``title`` (or, like VitePress's ``<Badge>``,
    its ``text``) shown first, since it is text a reader would have seen."""
    tag: Tag = tokens[idx].meta["tag"]
    shown = tag.text("title") or tag.text("text") or ""
    if tag.self_closing and not shown:  # nothing to keep: no empty box either
        return ""
    head = f'<p class="mdx-title"><strong>{escapeHtml(shown)}</strong></p>\n' if shown else ""
    return f'<div class="mdx-component">\n{head}'


def render_component_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    tag: Tag = tokens[idx].meta["tag"]
    empty = tag.self_closing and not (tag.text("title") or tag.text("text"))
    return "" if empty else "</div>\n"


def _fixed(html: str) -> Render:
    def render(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return html

    return render


_RENDER: dict[str, Render] = {
    "mdx_tabs_open": _fixed('<div class="tabbed-set">\n'),
    "mdx_tabs_close": _fixed("</div>\n"),
    "mdx_tab_open": render_tab_open,
    "mdx_tab_label_open": render_tab_label_open,
    "mdx_tab_label_close": _fixed('</label>\n<div class="tabbed-panel">\n'),
    "mdx_tab_close": _fixed("</div>\n"),
    "mdx_details_open": render_details_open,
    "mdx_details_close": _fixed("</details>\n"),
    "mdx_summary_open": _fixed("<summary>"),
    "mdx_summary_close": _fixed("</summary>\n"),
    "mdx_embed_open": render_embed_open,
    "mdx_embed_close": _fixed(""),
    "mdx_component_open": render_component_open,
    "mdx_component_close": render_component_close,
}


def docusaurus_looks(state: StateCore) -> None:
    """Core rule after the callouts are made: each drawn as Docusaurus draws its type."""
    for token in state.tokens:
        if token.type == "callout_open" and token.meta.get("kind") in DOCUSAURUS_LOOKS:
            token.meta["look"] = DOCUSAURUS_LOOKS[token.meta["kind"]]


def mdx_plugin(md: MarkdownIt) -> None:
    """Every MDX rule on ``md`` (the MDX parser only), indented code off as in MDX."""
    md.disable("code")
    md.block.ruler.before("table", "sitegen_mdx_esm", esm_block)
    md.block.ruler.before("fence", "sitegen_mdx_comment", comment_block)
    md.block.ruler.before("html_block", "sitegen_mdx_jsx", jsx_block)
    md.inline.ruler.after("text", "sitegen_mdx_comment", comment_inline)
    md.inline.ruler.before("html_inline", "sitegen_mdx_jsx", recording_html(jsx_inline))
    md.core.ruler.after("block", "sitegen_mdx", translate)
    md.core.ruler.after("sitegen_alerts", "sitegen_mdx_looks", docusaurus_looks)
    md.core.ruler.after("inline", "sitegen_mdx_embeds", html_embeds)
    for name, rule in _RENDER.items():
        md.add_render_rule(name, rule)
