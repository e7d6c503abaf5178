"""Footnote ids as Python-Markdown writes them, for the pages of an MkDocs project: the note
``fn:<label>``, its references ``fnref:<label>``, ``fnref2:<label>`` … (content/syntax/anchors.md#footnotes).

A core rule that puts the ids on mdit-py-plugins' footnote tokens (so they are the page's
anchors) and the render rules that write them. Never changes which notes there are, their
order or their numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict


def note_id(meta: Mapping[str, Any]) -> str:
    """``fn:<label>``: the id of the note whose token has ``meta``."""
    return f"fn:{meta.get('label') or int(meta['id']) + 1}"


def reference_id(meta: Mapping[str, Any]) -> str:
    """``fnref:<label>`` for a note's first reference, ``fnref<n>:<label>`` for its n-th."""
    count = int(meta.get("subId") or 0)
    return f"fnref{count + 1 if count else ''}:{meta.get('label') or int(meta['id']) + 1}"


def name_footnotes(state: StateCore) -> None:
    """Core rule after ``footnote_tail``: each reference and each note gets its id."""
    for token in state.tokens:
        if token.type == "footnote_open":
            token.attrs["id"] = note_id(token.meta)
        for child in token.children or ():
            if child.type == "footnote_ref":
                child.attrs["id"] = reference_id(child.meta)


def render_reference(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    meta = tokens[idx].meta
    caption = self.rules["footnote_caption"](tokens, idx, options, env)
    return (
        f'<sup class="footnote-ref"><a href="#{escapeHtml(note_id(meta))}" '
        f'id="{escapeHtml(reference_id(meta))}">{caption}</a></sup>'
    )


def render_note_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return f'<li id="{escapeHtml(note_id(tokens[idx].meta))}" class="footnote-item">'


def render_backlink(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # U+FE0E keeps the arrow text, not an emoji, on iOS (as mdit-py-plugins writes it)
    href = escapeHtml(reference_id(tokens[idx].meta))
    return f' <a href="#{href}" class="footnote-backref">\u21a9\ufe0e</a>'


def python_markdown_footnotes(md: MarkdownIt) -> None:
    """Python-Markdown's footnote ids on a parser that has mdit-py-plugins' footnotes."""
    md.core.ruler.after("footnote_tail", "sitegen_footnote_ids", name_footnotes)
    md.add_render_rule("footnote_ref", render_reference)
    md.add_render_rule("footnote_open", render_note_open)
    md.add_render_rule("footnote_anchor", render_backlink)
