"""Obsidian's comments ``%%…%%``: removed from the page, inline or as whole lines, across
lines; a ``%%`` left open is text as written (content/syntax/obsidian.md#comments).

Two rules, neither of which makes a token: code spans and fences are read by their own
rules first, so a ``%%`` inside code is code. Never reads files.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from sitegen.docs.wikilinks import find_closer

MARKER = "%%"
#: The next ``%%`` after an opener, per block state: opener position -> closer or -1. An
#: opener's search stops at the next ``%%``, so the searches of distinct openers never
#: overlap, and a paragraph's terminator check asks the same opener again for free.
_NEXT: WeakKeyDictionary[StateBlock, dict[int, int]] = WeakKeyDictionary()


def comment_inline(state: StateInline, silent: bool) -> bool:
    """``%% hidden %%`` inside a paragraph, a heading or a cell, across its lines: skipped."""
    if not state.src.startswith(MARKER, state.pos):
        return False
    end = find_closer(state, MARKER, state.pos + 2)
    if end < 0:
        return False
    state.pos = end + 2
    return True


def comment_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Lines from one starting with ``%%`` to the line its closing ``%%`` ends, blank lines
    included, as in Obsidian: skipped. A closer followed by text on its line is left to the
    inline rule (the text after it is shown)."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith(MARKER, start):
        return False
    known = _NEXT.get(state)
    if known is None:
        known = _NEXT[state] = {}
    if start not in known:
        known[start] = state.src.find(MARKER, start + 2)
    closer = known[start]
    if closer < 0 or closer >= state.eMarks[end_line - 1]:
        return False
    line = start_line
    while state.eMarks[line] < closer + 2:
        line += 1
    if state.src[closer + 2 : state.eMarks[line]].strip():
        return False
    if not silent:
        state.line = line + 1
    return True


def comments_plugin(md: MarkdownIt) -> None:
    """Both rules; the block one ends a paragraph, as a comment line does in Obsidian."""
    md.block.ruler.before(
        "fence", "sitegen_comment_block", comment_block, {"alt": ["paragraph", "reference"]}
    )
    md.inline.ruler.after("text", "sitegen_comment", comment_inline)
