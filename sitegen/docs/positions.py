"""Where each link and heading of a markdown page sits in the file: byte offset, line, column.

markdown-it gives line ranges to block tokens only. This module records where each link
starts inside its inline content, maps inline content back to the source text, and the
source text back to the file's bytes. It never decides what is a link; markdown-it does.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import AnyStr, NamedTuple

from markdown_it.common.utils import MD_TRIM_CHARS
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.records.pages import LinkKind

#: Key of the page's ``PageText`` in the markdown-it ``env``.
ENV_SOURCE = "sitegen_source"
#: Token meta keys: ``POS`` is set by the inline rules (index into the inline content),
#: ``SOURCE`` by ``parse_inlines`` (index into ``PageText.text``), ``KIND`` the link kind.
POS, SOURCE, KIND = "sitegen_pos", "sitegen_source", "sitegen_kind"
#: Token meta keys of a token with several places (the URLs of an ``html_inline`` tag):
#: ``SPOTS`` their indices into the inline content, ``PLACES`` into ``PageText.text``
#: (None where the content could not be mapped).
SPOTS, PLACES = "sitegen_spots", "sitegen_places"
#: Token meta key of an inline token whose last line a block rule cut short: where the
#: content ends on it (a closing tag follows, as in ``text</div>``: sitegen/docs/mdinhtml.py).
LINE_END = "sitegen_line_end"
_ROW_START, _COLUMN = "sitegen_row_start", "sitegen_column"
#: Key in ``env`` of the link tokens made since the current inline token's parse began.
_FOUND = "sitegen_found"
_BOM = "\ufeff"
#: What markdown-it shows as U+FFFD: NUL (CommonMark says so) and, here, each bad byte.
_REPLACED = re.compile("[\x00\udc80-\udcff]")
_LINE_BREAK = re.compile(rb"\r\n?|\n")
#: A character of more than one UTF-8 byte (a bad byte, kept as a lone surrogate, is one).
_WIDE = re.compile("[\u0080-\udc7f\udd00-\U0010ffff]")


class Position(NamedTuple):
    offset: int  # 0-based byte offset in the file
    line: int  # 1-based
    column: int  # 1-based, in bytes


class PageText:
    """A page's bytes as the text markdown-it parses, and the way back from text to bytes.

    The text has no BOM, ``\\n`` line ends and U+FFFD for NUL (what markdown-it would
    normalize them to anyway, so its indices are ours), and U+FFFD for each byte that is not
    valid UTF-8.
    """

    def __init__(self, data: bytes) -> None:
        try:
            raw = data.decode("utf-8")
            self.bad_byte: int | None = None
        except UnicodeDecodeError as exc:
            self.bad_byte = exc.start
            raw = data.decode("utf-8", "surrogateescape")  # one char per bad byte
        self._bom = 3 if raw.startswith(_BOM) else 0
        raw = raw[1:] if self._bom else raw
        if "\r" in raw:
            raw = raw.replace("\r\n", "\n").replace("\r", "\n")
        #: Same length as ``self.text``; keeps the bad bytes so their byte length is known.
        self._raw = raw
        replaced = self.bad_byte is not None or "\x00" in raw
        self.text = _REPLACED.sub("\ufffd", raw) if replaced else raw
        self._ascii = data.isascii()
        #: Where the wide characters are and how many extra bytes precede each one: the byte
        #: width of a span is found by bisection, never by encoding it (which made a page of
        #: many links on one long line quadratic).
        self._wide_at: list[int] = []
        self._extra_before: list[int] = [0]
        if not self._ascii:
            found = [(m.start(), len(m.group().encode("utf-8")) - 1) for m in _WIDE.finditer(raw)]
            self._wide_at = [at for at, _ in found]
            self._extra_before = list(accumulate((extra for _, extra in found), initial=0))
        self.line_starts = _line_starts(self.text, "\n")
        if b"\r" in data:
            self._byte_line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(data)]
        elif self._ascii:
            self._byte_line_starts = self.line_starts  # one byte per character
        else:
            self._byte_line_starts = _line_starts(data, b"\n")

    def line_end(self, line: int) -> int:
        """Index of the ``\\n`` ending 0-based ``line`` (or the end of the text)."""
        nxt = line + 1
        return self.line_starts[nxt] - 1 if nxt < len(self.line_starts) else len(self.text)

    def position(self, index: int) -> Position:
        line = bisect_right(self.line_starts, index) - 1
        start = self.line_starts[line]
        width = index - start + self._extra_bytes(start, index)
        line_byte = self._byte_line_starts[line]
        offset = line_byte + width + (self._bom if line == 0 else 0)
        return Position(offset, line + 1, offset - line_byte + 1)

    def _extra_bytes(self, start: int, stop: int) -> int:
        """Bytes beyond one per character in ``text[start:stop]``."""
        if self._ascii:
            return 0
        extra = self._extra_before
        return extra[bisect_left(self._wide_at, stop)] - extra[bisect_left(self._wide_at, start)]

    def byte_position(self, offset: int) -> Position:
        line = bisect_right(self._byte_line_starts, offset) - 1
        return Position(offset, line + 1, offset - self._byte_line_starts[line] + 1)


def _line_starts(text: AnyStr, newline: AnyStr) -> list[int]:
    starts = [0]
    find = text.find
    at = find(newline)
    while at >= 0:
        starts.append(at + 1)
        at = find(newline, at + 1)
    return starts


# --- recording where links start (inline rules) -------------------------------------------

InlineRule = Callable[[StateInline, bool], bool]


def recording(rule: InlineRule, kind: LinkKind | None) -> InlineRule:
    """Wrap a link-making inline rule so the token it makes knows where in the content it began.

    ``kind`` None means "inline or reference", told apart by how the link ended.
    """

    def record(state: StateInline, silent: bool) -> bool:
        start = state.pos
        count = len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            tokens = state.tokens
            for at in range(count, len(tokens)):  # islice would walk the list from its start
                token = tokens[at]
                if token.type in ("link_open", "image"):
                    token.meta[POS] = start
                    token.meta[KIND] = kind or (
                        LinkKind.INLINE if state.src[state.pos - 1] == ")" else LinkKind.REFERENCE
                    )
                    state.env.setdefault(_FOUND, []).append(token)
                    break
        return True

    return record


def to_place(state: StateInline, token: Token, spots: list[int]) -> None:
    """Have ``parse_inlines`` map the inline-content indices ``spots`` of ``token`` to the
    page's text (into ``token.meta[PLACES]``)."""
    token.meta[SPOTS] = spots
    state.env.setdefault(_FOUND, []).append(token)


BlockRule = Callable[[StateBlock, int, int, bool], bool]


def recording_rows(table: BlockRule) -> BlockRule:
    """Wrap the table rule so each cell knows its column and where its row's text starts.

    The row text begins after any container markers (``>``, list indentation), which only
    the block state knows at parse time.
    """

    def record(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        count = len(state.tokens)
        if not table(state, start_line, end_line, silent):
            return False
        if not silent:
            column = 0
            tokens = state.tokens
            for at in range(count, len(tokens)):  # islice would walk the list from its start
                token = tokens[at]
                if token.type == "tr_open":
                    column = 0
                elif token.type == "inline" and token.map:
                    line = token.map[0]
                    token.meta[_ROW_START] = state.bMarks[line] + state.tShift[line]
                    token.meta[_COLUMN] = column
                    column += 1
        return True

    return record


# --- mapping inline content back to the source (core rule) --------------------------------

ContentMap = Callable[[int], "int | None"]


def parse_inlines(state: StateCore) -> None:
    """Core rule in place of ``inline``: parse each inline token, then place its links.

    Placing happens right after each parse, before any later rule edits inline content
    (task lists cut ``[ ] `` from it). Headings get the index of their first character.
    """
    md, env, tokens = state.md, state.env, state.tokens
    source = env.get(ENV_SOURCE)
    found: list[Token] = env.setdefault(_FOUND, [])
    rows: dict[int, list[list[int]]] = {}  # a table row's cells, split once for all its links
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        md.inline.parse(token.content, md, env, token.children)
        parent = tokens[i - 1]
        heading = parent.type == "heading_open"
        if (found or heading) and isinstance(source, PageText) and token.map:
            _place(source, token, parent, found, heading, rows)
        found.clear()


def _place(
    source: PageText,
    token: Token,
    parent: Token,
    found: list[Token],
    heading: bool,
    rows: dict[int, list[list[int]]],
) -> None:
    assert token.map is not None
    if heading and parent.markup.startswith("#"):  # ATX: its first '#' (no container marker is)
        line = token.map[0]
        parent.meta[SOURCE] = source.text.find("#", source.line_starts[line], source.line_end(line))
        if not found:
            return
    content_map = _content_map(source, token, parent, rows)
    if content_map is None:
        return
    for link in found:
        spots = link.meta.get(SPOTS)
        if spots is None:
            link.meta[SOURCE] = content_map(link.meta[POS])
        else:
            link.meta[PLACES] = [content_map(spot) for spot in spots]
    if heading and SOURCE not in parent.meta:  # setext: the first character of its text
        parent.meta[SOURCE] = content_map(0)


def _content_map(
    source: PageText, token: Token, parent: Token, rows: dict[int, list[list[int]]]
) -> ContentMap | None:
    assert token.map is not None
    if _ROW_START in token.meta:
        return _cell_map(source, token, rows)
    if parent.type == "heading_open" and parent.markup.startswith("#"):
        return _atx_map(source, token.content, token.map[0])
    return _lines_map(source, token.content, token.map[0], token.map[1], token.meta.get(LINE_END))


def _lines_map(
    source: PageText, content: str, first: int, end: int, last_end: int | None = None
) -> ContentMap | None:
    """Paragraph-like content: each content line is a suffix of its source line.

    markdown-it strips indentation and container markers (and may put spaces in for a
    partly used tab), then trims the whole; so content line k, without leading spaces,
    ends where source line k ends (the last one where the trimmed source line ends).
    Lines made only of Unicode spaces can vanish in the trim, hence the search. A last line
    cut short ends at ``last_end`` instead.
    """
    text = source.text
    content_starts: list[int] = []
    source_starts: list[int] = []
    parts = content.split("\n")
    last = len(parts) - 1
    line, at = first, 0
    for k, part in enumerate(parts):
        body = part.lstrip(" ")
        while True:
            if line >= end:
                return None
            line_start = source.line_starts[line]
            stop = source.line_end(line)
            if k == last and last_end is not None and line == end - 1:
                stop = last_end
            if k == last:
                while stop > line_start and text[stop - 1] in MD_TRIM_CHARS:
                    stop -= 1
            begin = stop - len(body)
            if begin >= line_start and text.startswith(body, begin):
                break
            line += 1
        content_starts.append(at + len(part) - len(body))
        source_starts.append(begin)
        at += len(part) + 1
        line += 1
    if len(parts) == 1:
        shift = source_starts[0] - content_starts[0]
        return lambda index: index + shift

    def to_source(index: int) -> int:
        k = max(bisect_right(content_starts, index) - 1, 0)
        return source_starts[k] + index - content_starts[k]

    return to_source


def _atx_map(source: PageText, content: str, line: int) -> ContentMap | None:
    """``# Title #``: the content starts after the opening hashes and the spaces after them."""
    text, stop = source.text, source.line_end(line)
    at = text.find("#", source.line_starts[line], stop)
    if at < 0:
        return None
    while at < stop and text[at] == "#":
        at += 1
    while at < stop and text[at] in MD_TRIM_CHARS:
        at += 1
    if not text.startswith(content, at):
        return None
    return lambda index: at + index


def _cell_map(
    source: PageText, token: Token, rows: dict[int, list[list[int]]]
) -> ContentMap | None:
    """A table cell: split the row as markdown-it does (``\\|`` is a pipe, the backslash goes)."""
    assert token.map is not None
    start = token.meta[_ROW_START]
    row = rows.get(start)
    if row is None:
        row = rows[start] = _row_cells(source.text, start, source.line_end(token.map[0]))
    column = token.meta[_COLUMN]
    if column >= len(row):
        return None
    indices = row[column]
    if "".join(source.text[i] for i in indices) != token.content:
        return None
    return lambda index: indices[index] if index < len(indices) else None


def _row_cells(text: str, start: int, stop: int) -> list[list[int]]:
    """Each cell of a table row as the source indices of its (trimmed) characters."""
    while start < stop and text[start] in MD_TRIM_CHARS:
        start += 1
    while stop > start and text[stop - 1] in MD_TRIM_CHARS:
        stop -= 1
    cells: list[list[int]] = []
    current: list[int] = []
    segment = start
    at = text.find("|", start, stop)
    while at >= 0:
        if at > start and text[at - 1] == "\\":  # an escaped pipe: the backslash goes
            current.extend(range(segment, at - 1))
            segment = at
        else:
            current.extend(range(segment, at))
            cells.append(current)
            current, segment = [], at + 1
        at = text.find("|", at + 1, stop)
    current.extend(range(segment, stop))
    cells.append(current)
    if cells and not cells[0]:
        cells.pop(0)
    if cells and not cells[-1]:
        cells.pop()
    return [_trim(text, cell) for cell in cells]


def _trim(text: str, cell: list[int]) -> list[int]:
    first, last = 0, len(cell)
    while first < last and text[cell[first]] in MD_TRIM_CHARS:
        first += 1
    while last > first and text[cell[last - 1]] in MD_TRIM_CHARS:
        last -= 1
    return cell[first:last]
