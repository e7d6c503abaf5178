"""Obsidian's highlights ``==text==``, rendered as ``<mark>`` (content/syntax/obsidian.md#highlights).

A delimiter rule, paired by markdown-it's own balancing as ``~~strikethrough~~`` is, so it
nests with emphasis and never reaches into code spans. Never reads files.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter

_EQUALS = 0x3D


def highlight_delimiters(state: StateInline, silent: bool) -> bool:
    """A run of ``=``: one text token per ``==`` (an odd one first), each a delimiter that
    opens or closes by the flanking rules of emphasis."""
    if silent or state.src[state.pos] != "=":
        return False
    scanned = state.scanDelims(state.pos, True)
    length = scanned.length
    if length < 2:
        return False
    if length % 2:
        state.push("text", "", 0).content = "="
        length -= 1
    for _ in range(length // 2):
        state.push("text", "", 0).content = "=="
        state.delimiters.append(
            Delimiter(
                marker=_EQUALS,
                length=0,  # no "rule of 3" between runs of different lengths
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open,
                close=scanned.can_close,
            )
        )
    state.pos += scanned.length
    return True


def _pair(state: StateInline, delimiters: list[Delimiter]) -> None:
    lone: list[int] = []
    for start in delimiters:
        if start.marker != _EQUALS or start.end == -1:
            continue
        end = delimiters[start.end]
        opener, closer = state.tokens[start.token], state.tokens[end.token]
        opener.type, opener.nesting = "mark_open", 1
        closer.type, closer.nesting = "mark_close", -1
        for token in (opener, closer):
            token.tag, token.markup, token.content = "mark", "==", ""
        before = state.tokens[end.token - 1]
        if before.type == "text" and before.content == "=":
            lone.append(end.token - 1)
    # An odd run's single "=" goes after the closing tags it would otherwise sit inside.
    while lone:
        i = lone.pop()
        j = i + 1
        while j < len(state.tokens) and state.tokens[j].type == "mark_close":
            j += 1
        j -= 1
        if i != j:
            state.tokens[i], state.tokens[j] = state.tokens[j], state.tokens[i]


def highlight_pairs(state: StateInline) -> None:
    """Balanced ``==`` delimiters become ``mark`` tags, at the top level and inside links."""
    _pair(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _pair(state, meta["delimiters"])


def highlight_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.after("strikethrough", "sitegen_highlight", highlight_delimiters)
    md.inline.ruler2.after("strikethrough", "sitegen_highlight", highlight_pairs)
