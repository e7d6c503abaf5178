"""The install functions of the built-in syntaxes that have no module of their own: CommonMark
itself with its link rules recording positions, tables, strikethrough, attribute lists,
wikilinks and autorefs, and the few syntaxes whose install reads the parser's dialect
(content/syntax/index.md). Each is named by one entry of ``sitegen/docs/registry.py``, which
is where a syntax is registered, gated and trusted.

Registration only; each syntax's rules live in their own module. Never parses a page itself.
"""

from __future__ import annotations

import re
from typing import TypeVar

from markdown_it import MarkdownIt
from markdown_it.presets import commonmark
from markdown_it.ruler import Ruler
from markdown_it.rules_block import StateBlock, table
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import autolink, html_inline, image, link
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.attrs.parse import ParseError
from mdit_py_plugins.attrs.parse import parse as parse_attrs

from sitegen.docs.annotations import annotations_plugin
from sitegen.docs.attributes import bounded_attrs, keep_author_classes
from sitegen.docs.autorefs import autoref, directive_links
from sitegen.docs.blocks import ENV_PROBLEMS
from sitegen.docs.emoji import emoji_plugin
from sitegen.docs.fences import fence_attributes_plugin
from sitegen.docs.positions import BlockRule, parse_inlines, recording, recording_rows
from sitegen.docs.rawlinks import recording_html
from sitegen.docs.sanitize import author_classes
from sitegen.docs.unsupported import report_unsupported
from sitegen.docs.wikilinks import report_embeds, wikilink
from sitegen.generators import Dialect
from sitegen.records.pages import LinkKind

__all__ = [
    "ALLOWED_ATTRS",
    "ATTRS_START",
    "DIALECT_OPTION",
    "ENV_PROBLEMS",
    "attributes",
    "autorefs",
    "code_annotations",
    "commonmark_rules",
    "dialect_of",
    "emoji",
    "fence_attributes",
    "paragraph_attributes",
    "replace_rule",
    "strikethrough",
    "tables",
    "take_trailing_attrs",
    "unsupported",
    "wikilinks",
]


#: An attribute list starts with an id, a class or a key: ``{#id}``, ``{ .class }``,
#: ``{key=value}``. Not ``{% include %}`` or ``{{ var }}``, which are a template's.
ATTRS_START = re.compile(r"\{:?[ \t]*(?:[#.][^\s{}]|[A-Za-z_][\w-]*=)")
#: Attributes ``{…}`` may set. Not href/src (the emitter owns those), no event handlers.
ALLOWED_ATTRS = ("id", "class")
#: ``{#id}``, or ``%{#id}%`` (markdown-it-attrs' delimiters as VitePress sites configure them).
#: No leading ``\s*``: tried at every space of a long run, it made a heading quadratic.
_TRAILING_ATTRS = re.compile(r"(\{[^{}]*\}|%\{[^{}]*\}%)\s*$")
#: Key in a parser's options of the dialect it is built for (``dialect_of``).
DIALECT_OPTION = "sitegen_dialect"

_RuleFn = TypeVar("_RuleFn")


def dialect_of(md: MarkdownIt) -> Dialect:
    """The dialect the parser ``md`` is being built for (NONE outside sitegen's build), for
    an install whose rules differ with a flag (content/syntax/material.md)."""
    found = md.options.get(DIALECT_OPTION)
    return found if isinstance(found, Dialect) else Dialect.NONE


def replace_rule(ruler: Ruler[_RuleFn], name: str, fn: _RuleFn) -> None:
    """Swap a rule's function, keeping the chains (``alt``) it terminates."""
    alt = next(rule.alt for rule in ruler.__rules__ if rule.name == name)
    ruler.at(name, fn, {"alt": alt})


# --- CommonMark and GitHub's tables and strikethrough --------------------------------------


def commonmark_rules(md: MarkdownIt) -> None:
    """CommonMark's own rules, on a parser built with every rule off; its link rules record
    where each link stands (sitegen/docs/positions.py)."""
    components = commonmark.make()["components"]
    md.core.ruler.enable(components["core"]["rules"])
    md.block.ruler.enable(components["block"]["rules"])
    md.inline.ruler.enable(components["inline"]["rules"])
    md.inline.ruler2.enable(components["inline"]["rules2"])
    replace_rule(md.inline.ruler, "link", recording(link, None))
    replace_rule(md.inline.ruler, "image", recording(image, LinkKind.IMAGE))
    replace_rule(md.inline.ruler, "autolink", recording(autolink, LinkKind.AUTOLINK))
    replace_rule(md.inline.ruler, "html_inline", recording_html(html_inline))
    replace_rule(md.core.ruler, "inline", parse_inlines)


def tables(md: MarkdownIt) -> None:
    """GitHub's tables, each row's position recorded."""
    md.block.ruler.enable("table")
    replace_rule(md.block.ruler, "table", recording_rows(table))


def strikethrough(md: MarkdownIt) -> None:
    """GitHub's ``~~strikethrough~~``."""
    md.inline.ruler.enable("strikethrough")
    md.inline.ruler2.enable("strikethrough")


# --- attribute lists --------------------------------------------------------------------------


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


def attributes(md: MarkdownIt) -> None:
    """mdit-py-plugins' attribute lists (``{#id .class}`` on the line above a block, after a
    link, an image or code), ids and classes only, on lines that look like attribute lists
    (content/syntax/anchors.md)."""
    attrs_block_plugin(md, allowed=ALLOWED_ATTRS)
    attrs_plugin(md, allowed=ALLOWED_ATTRS)
    attr = next(r for r in md.block.ruler.__rules__ if r.name == "attr")
    md.block.ruler.at("attr", _attribute_lines_only(attr.fn), {"alt": attr.alt})
    inline_attr = next(r for r in md.inline.ruler.__rules__ if r.name == "attr")
    md.inline.ruler.at("attr", bounded_attrs(inline_attr.fn), {"alt": inline_attr.alt})


def take_trailing_attrs(open_: Token, inline: Token) -> None:
    """``# Title {#id .class}`` sets the heading's id and class.

    The attrs plugins read ``{…}`` only after links, images and code, or on the line above
    a block. Read from the raw content, so an escaped ``\\{`` never starts attributes.
    """
    children = inline.children
    if not children or children[-1].type != "text":
        return
    found = _TRAILING_ATTRS.search(inline.content)
    if not found or inline.content[found.start(1) - 1 : found.start(1)] == "\\":
        return
    braces, last = found.group(1), children[-1]
    if not last.content.endswith(braces):  # entities or escapes inside: not attributes
        return
    inner = braces[1:-1] if braces.startswith("%") else braces
    try:
        end, attrs = parse_attrs(inner)
    except ParseError:
        return
    if end != len(inner) - 1:
        return
    if "id" in attrs:
        open_.attrs["id"] = attrs["id"]
    if "class" in attrs:  # not the theme's classes, as in raw HTML
        classes = (str(open_.attrs.get("class") or ""), author_classes(attrs["class"]))
        if any(classes):
            open_.attrs["class"] = " ".join(c for c in classes if c)
    last.content = last.content[: -len(braces)].rstrip()


def _paragraph_attrs(state: StateCore) -> None:
    """``Text {#id .class}`` ending a paragraph sets the paragraph's id and class, as
    Python-Markdown's attr_list does (content/syntax/anchors.md)."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "paragraph_open" or "{" not in tokens[i + 1].content:
            continue
        found = _TRAILING_ATTRS.search(tokens[i + 1].content)
        if found and ATTRS_START.match(found.group(1).lstrip("%")):
            take_trailing_attrs(token, tokens[i + 1])


def paragraph_attributes(md: MarkdownIt) -> None:
    md.core.ruler.after("inline", "sitegen_paragraph_attrs", _paragraph_attrs)


# --- links of their own -----------------------------------------------------------------------


def wikilinks(md: MarkdownIt) -> None:
    """``[[Page]]`` links and the warning for ``![[embeds]]`` (content/syntax/wikilinks.md)."""
    md.inline.ruler.before("link", "sitegen_wikilink", recording(wikilink, LinkKind.WIKILINK))
    md.core.ruler.after("inline", "sitegen_embeds", report_embeds)


def unsupported(md: MarkdownIt) -> None:
    """One warning per page and kind of syntax sitegen does not run
    (content/syntax/unsupported.md)."""
    md.core.ruler.after("inline", "sitegen_unsupported", report_unsupported)


def autorefs(md: MarkdownIt) -> None:
    """``[title][dotted.path]`` references and ``::: dotted.path`` lines as links
    (content/syntax/autorefs.md)."""
    md.inline.ruler.after("link", "sitegen_autoref", recording(autoref, LinkKind.AUTOREF))
    md.core.ruler.after("inline", "sitegen_directive_links", directive_links)


# --- installs that read the dialect -------------------------------------------------------------


def emoji(md: MarkdownIt) -> None:
    """Emoji shortcodes, and Material's icons with the ICONS flag (content/syntax/emoji.md)."""
    emoji_plugin(md, icons=bool(dialect_of(md) & Dialect.ICONS))


def fence_attributes(md: MarkdownIt) -> None:
    """Fence attribute lists as superfences reads them, in the dialects that have them
    (content/syntax/code.md#fence-attributes)."""
    if dialect_of(md) & (Dialect.PYTHON_MARKDOWN | Dialect.ATTR_LIST | Dialect.ANNOTATIONS):
        fence_attributes_plugin(md)


def code_annotations(md: MarkdownIt) -> None:
    """Code annotations, on every block with the ANNOTATE_ALL flag
    (content/syntax/code.md#code-annotations)."""
    annotations_plugin(md, every_block=bool(dialect_of(md) & Dialect.ANNOTATE_ALL))
