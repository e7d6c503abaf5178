"""Tables of contents written into a page: VitePress's ``[[toc]]`` line and Python-Markdown's
``[TOC]`` paragraph, each rendered as a nested list of links to the page's headings
(content/syntax/toc.md). Neither is ever a link.

A block rule and a core rule mark where a table goes; ``fill_tables`` writes it once the
headings have their ids. Never decides an id itself and never records a link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

#: The token a table of contents stands as until it is rendered.
TOC = "sitegen_toc"
#: ``[[toc]]`` alone on its line, in any case (VitePress's marker).
_TOC_LINE = re.compile(r"\[\[toc\]\][ \t]*", re.IGNORECASE)
#: Python-Markdown's marker: a paragraph whose whole text is this.
TOC_PARAGRAPH = "[TOC]"
#: Which headings each marker lists: VitePress's default levels, of the headings outside
#: containers; Python-Markdown's default ``toc_depth`` (every level), of every heading.
_VITEPRESS = {"levels": (2, 3), "nested": False}
_PYTHON_MARKDOWN = {"levels": (1, 2, 3, 4, 5, 6), "nested": True}


@dataclass(frozen=True)
class TocEntry:
    """A heading as a table of contents lists it."""

    level: int
    id: str
    text: str
    #: Outside any container (a quote, a list, a callout): VitePress lists only those.
    top_level: bool


@dataclass
class _Node:
    entry: TocEntry | None
    children: list[_Node] = field(default_factory=list)


def toc_line(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``[[toc]]`` alone on a line, not indented as code: a table of contents."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not _TOC_LINE.fullmatch(state.src, start, state.eMarks[start_line]):
        return False
    if silent:
        return True
    token = state.push(TOC, "nav", 0)
    token.block = True
    token.map = [start_line, start_line + 1]
    token.meta = dict(_VITEPRESS)
    state.line = start_line + 1
    return True


def toc_paragraphs(state: StateCore) -> None:
    """Core rule after ``inline``: a paragraph whose text is ``[TOC]`` and nothing else (no
    markup in it) becomes a table of contents, wherever it stands."""
    tokens = state.tokens
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        opener = tokens[i]
        if opener.type == "paragraph_open" and i + 2 < len(tokens) and _is_marker(tokens[i + 1]):
            token = Token(TOC, "div", 0, map=opener.map, level=opener.level, block=True)
            token.meta = dict(_PYTHON_MARKDOWN)
            out.append(token)
            i += 3
        else:
            out.append(opener)
            i += 1
    if len(out) != len(tokens):
        tokens[:] = out


def _is_marker(inline: Token) -> bool:
    children = inline.children or []
    return (
        inline.type == "inline"
        and inline.content.strip() == TOC_PARAGRAPH
        and all(child.type == "text" for child in children)
        and "".join(child.content for child in children).strip() == TOC_PARAGRAPH
    )


#: Tables written on one page at most: each lists every heading, so a page of markers and
#: headings alone would otherwise grow as their product.
MAX_TABLES = 16


def fill_tables(tokens: Sequence[Token], entries: Sequence[TocEntry]) -> list[int]:
    """Write each table of contents of the page (its headings ``entries``, in order); the
    0-based lines of the markers past ``MAX_TABLES``, left empty."""
    made: dict[tuple[object, object], str] = {}  # one table per kind of marker
    left_out: list[int] = []
    for count, token in enumerate(t for t in tokens if t.type == TOC):
        if count >= MAX_TABLES:
            left_out.append((token.map or [0])[0])
            continue
        levels, nested = token.meta["levels"], token.meta["nested"]
        if (levels, nested) not in made:
            listed = [e for e in entries if e.level in levels and e.id and (nested or e.top_level)]
            made[levels, nested] = _render(_tree(listed))
        token.content = made[levels, nested]
    return left_out


def _tree(entries: Sequence[TocEntry]) -> _Node:
    """Each entry under the nearest entry before it of a higher level (a lower number)."""
    root = _Node(None)
    stack: list[_Node] = [root]
    for entry in entries:
        while len(stack) > 1 and entry.level <= _level(stack[-1]):
            stack.pop()
        node = _Node(entry)
        stack[-1].children.append(node)
        stack.append(node)
    return root


def _level(node: _Node) -> int:
    return node.entry.level if node.entry else 0


def _render(root: _Node) -> str:
    if not root.children:
        return '<nav class="table-of-contents"></nav>\n'
    return f'<nav class="table-of-contents">{_list(root.children)}</nav>\n'


def _list(nodes: Sequence[_Node]) -> str:
    items = []
    for node in nodes:
        assert node.entry is not None
        link = f'<a href="#{escapeHtml(node.entry.id)}">{escapeHtml(node.entry.text)}</a>'
        items.append(f"<li>{link}{_list(node.children) if node.children else ''}</li>")
    return f"<ul>{''.join(items)}</ul>"


def _render_toc(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return tokens[idx].content


def toc_plugin(md: MarkdownIt) -> None:
    """Both markers; ``[[toc]]`` may interrupt a paragraph, as VitePress's rule does."""
    md.block.ruler.before(
        "heading", "sitegen_toc", toc_line, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    md.core.ruler.after("inline", "sitegen_toc_paragraphs", toc_paragraphs)
    md.add_render_rule(TOC, _render_toc)
