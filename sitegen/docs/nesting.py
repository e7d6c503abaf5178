"""How deep lists and quotes may nest, and what becomes of content deeper than that.

markdown-it silently drops every line below its nesting limit; here that content is kept as
one plain paragraph and where it starts is recorded for a warning. It never decides what
a block is (markdown-it does) and never reads anything but the block state.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.parser_block import ParserBlock
from markdown_it.rules_block import StateBlock

#: markdown-it's limit on nested tokens (the commonmark preset has 20). A list level costs
#: two (the list and its item), a quote one: lists render to 59 levels, quotes to 119. The
#: same limit bounds nested link labels inline, whose parse takes about four Python frames
#: a level, so 120 stays well inside Python's recursion limit of 1,000.
MAX_NESTING = 120
#: Key in ``env`` of the source indices where content too deep to nest begins.
TOO_DEEP = "sitegen_too_deep"


def too_deep_message() -> str:
    return (
        f"lists and quotes nest deeper here than sitegen renders ({MAX_NESTING // 2 - 1} "
        f"list levels, {MAX_NESTING - 1} quote levels): from this line to the end of its "
        "block the content is one plain paragraph, its markers shown as text; nest less "
        "deeply to keep its structure."
    )


class _BoundedBlock(ParserBlock):
    """The block parser, keeping what lies below the nesting limit instead of dropping it."""

    def tokenize(self, state: StateBlock, startLine: int, endLine: int) -> None:
        if state.level >= state.md.options.maxNesting:
            startLine = _flatten(state, startLine, endLine)
        super().tokenize(state, startLine, endLine)


def limit_nesting(md: MarkdownIt) -> None:
    """Raise ``md``'s nesting limit to ``MAX_NESTING`` and keep deeper content as text."""
    md.options["maxNesting"] = MAX_NESTING
    bounded = _BoundedBlock()
    bounded.ruler = md.block.ruler  # the rules plugins added stay
    md.block = bounded


def _flatten(state: StateBlock, start: int, end: int) -> int:
    """Make the lines of this too-deep container one paragraph; return the line after them.

    The container's lines are those markdown-it's own loop would take: up to the first
    non-empty line indented less than the container. Deeper markers (``>``, ``-``) stay in
    the text, so nothing is lost and each line is still a suffix of its source line.
    """
    first = state.skipEmptyLines(start)
    stop = last = first
    while stop < end:
        if not state.isEmpty(stop):
            if state.sCount[stop] < state.blkIndent:
                break
            last = stop + 1
        stop += 1
    if last == first:
        return start
    state.env.setdefault(TOO_DEEP, []).append(state.bMarks[first] + state.tShift[first])
    opening = state.push("paragraph_open", "p", 1)
    opening.map = [first, last]
    inline = state.push("inline", "", 0)
    inline.content = mdTrim(state.getLines(first, last, state.blkIndent, False))
    inline.map = [first, last]
    inline.children = []
    state.push("paragraph_close", "p", -1)
    state.line = last
    return last
