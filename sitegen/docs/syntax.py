"""The block and inline syntaxes sitegen reads besides CommonMark, registered on one parser:
the three callout families, tabs, definition lists, task lists, math, highlighted fences,
wikilinks, tables of contents, Obsidian's comments, highlights and block ids, and the warnings for syntaxes it does not run (content/syntax/index.md).

Registration only; each syntax lives in its own module. Never parses a page itself.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from mdit_py_plugins.deflist import deflist_plugin

from sitegen.docs.annotations import annotations_plugin
from sitegen.docs.attributes import attr_list_plugin, bounded_attrs, keep_author_classes
from sitegen.docs.autorefs import autoref, directive_links
from sitegen.docs.blockids import block_ids_plugin
from sitegen.docs.blocks import ENV_PROBLEMS, blocks_plugin, comment_terms
from sitegen.docs.callouts import callouts_plugin
from sitegen.docs.comments import comments_plugin
from sitegen.docs.emoji import emoji_plugin
from sitegen.docs.fences import fence_attributes_plugin, fences_plugin
from sitegen.docs.footnotes import python_markdown_footnotes
from sitegen.docs.highlight import highlight_plugin
from sitegen.docs.mdinhtml import md_in_html_plugin
from sitegen.docs.positions import BlockRule, recording
from sitegen.docs.pymdownx import caret_plugin, keys_plugin, tilde_plugin
from sitegen.docs.shortcodes import shortcodes_plugin
from sitegen.docs.toc import toc_plugin
from sitegen.docs.unsupported import report_unsupported
from sitegen.docs.wikilinks import report_embeds, wikilink
from sitegen.generators import Dialect
from sitegen.records.pages import LinkKind

__all__ = ["ATTRS_START", "ENV_PROBLEMS", "use_doc_syntax"]


#: An attribute list starts with an id, a class or a key: ``{#id}``, ``{ .class }``,
#: ``{key=value}``. Not ``{% include %}`` or ``{{ var }}``, which are a template's.
ATTRS_START = re.compile(r"\{:?[ \t]*(?:[#.][^\s{}]|[A-Za-z_][\w-]*=)")


def _attribute_lines_only(rule: BlockRule) -> BlockRule:
    """The attrs plugin's block rule, for lines that look like attribute lists only (it
    takes any ``{…}`` line, so template tags vanished without a word), giving no class of
    the theme's."""

    def guarded(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        start = state.bMarks[start_line] + state.tShift[start_line]
        if not ATTRS_START.match(state.src, start) or not rule(state, start_line, end_line, silent):
            return False
        if not silent:  # the list's own token: no class of the theme reaches its block
            keep_author_classes(state.tokens[-1], None)
        return True

    return guarded


def use_doc_syntax(md: MarkdownIt, dialect: Dialect = Dialect.NONE) -> None:
    """Every extra syntax, on a parser whose link rules already record positions, and those
    that ``dialect`` asks for besides (the pymdownx family's: content/syntax/material.md)."""
    attr = next((r for r in md.block.ruler.__rules__ if r.name == "attr"), None)
    if attr is not None:
        md.block.ruler.at("attr", _attribute_lines_only(attr.fn), {"alt": attr.alt})
    inline_attr = next((r for r in md.inline.ruler.__rules__ if r.name == "attr"), None)
    if inline_attr is not None:
        md.inline.ruler.at("attr", bounded_attrs(inline_attr.fn), {"alt": inline_attr.alt})
    callouts_plugin(md)
    blocks_plugin(md)
    deflist_plugin(md)
    if dialect & Dialect.PYTHON_MARKDOWN:
        comment_terms(md)
        python_markdown_footnotes(md)
        shortcodes_plugin(md)  # a hook's <!-- md:x --> shown as text: unsupported.md
    fences_plugin(md)
    toc_plugin(md)
    comments_plugin(md)
    highlight_plugin(md)
    block_ids_plugin(md)
    md.inline.ruler.before("link", "sitegen_wikilink", recording(wikilink, LinkKind.WIKILINK))
    md.inline.ruler.after("link", "sitegen_autoref", recording(autoref, LinkKind.AUTOREF))
    md.core.ruler.after("inline", "sitegen_embeds", report_embeds)
    md.core.ruler.after("inline", "sitegen_unsupported", report_unsupported)
    md.core.ruler.after("inline", "sitegen_directive_links", directive_links)
    if dialect & Dialect.EMOJI:  # content/syntax/emoji.md
        emoji_plugin(md, icons=bool(dialect & Dialect.ICONS))
    if dialect & Dialect.KEYS:  # content/syntax/formatting.md
        keys_plugin(md)
    if dialect & Dialect.CARET:
        caret_plugin(md)
    if dialect & Dialect.TILDE:
        tilde_plugin(md)
    if dialect & Dialect.ATTR_LIST:  # after the marks it may follow: formatting.md#attribute-lists
        attr_list_plugin(md)
    if dialect & Dialect.MD_IN_HTML:  # content/syntax/md-in-html.md
        md_in_html_plugin(md)
    if dialect & (Dialect.PYTHON_MARKDOWN | Dialect.ATTR_LIST | Dialect.ANNOTATIONS):
        fence_attributes_plugin(md)  # content/syntax/code.md#fence-attributes
    if dialect & Dialect.ANNOTATIONS:  # last: content/syntax/code.md#code-annotations
        annotations_plugin(md, every_block=bool(dialect & Dialect.ANNOTATE_ALL))
