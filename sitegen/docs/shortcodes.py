"""Shortcodes in HTML comments, as a project's own MkDocs hook expands them (``<!-- md:option x
-->`` in Material's documentation): sitegen does not run the hook, so each is shown as its text
in a ``code`` element, never hidden as a comment (content/syntax/unsupported.md).

Two core rules: before the inline parse, a line that starts with a shortcode (an HTML block to
markdown-it) becomes a paragraph; after it, each shortcode comment becomes code. An ordinary
comment stays a comment. Never warns: sitegen/docs/unsupported.py does, once per page.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

#: What a shortcode comment holds: ``name:key``, then anything on the same line
#: (``md:option search.lang``, ``md:default none``); ``TODO: later`` is no shortcode.
_SHORTCODE = re.compile(r"[A-Za-z][\w-]*:[A-Za-z_]")
#: Comments of that shape that are a tool's directive, not a hook's shortcode: spell checkers'
#: and linters' (``<!-- cSpell:disable -->``, ``<!-- textlint-disable -->``), which a page
#: means to hide.
_TOOL_DIRECTIVE = re.compile(
    r"(?:cspell|spell-?checker|markdownlint|textlint|vale|prettier|eslint|lint|alex|"
    r"docs-link-check|markdown-link-check|toc|index|omit|include):",
    re.IGNORECASE,
)
#: ``Token.meta`` key of the code a shortcode became (unsupported.py counts them).
SHORTCODE = "sitegen_shortcode"


def shortcode_text(comment: str) -> str | None:
    """The text of ``<!-- md:option x -->`` (``md:option x``); None for any other comment.
    String tests only: a comment is read once."""
    if not (comment.startswith("<!--") and comment.endswith("-->")) or "\n" in comment:
        return None
    inner = comment[4:-3].strip(" \t")
    if _TOOL_DIRECTIVE.match(inner):
        return None
    return inner if _SHORTCODE.match(inner) else None


def _starts_with_shortcode(line: str) -> bool:
    end = line.find("-->")
    return end >= 0 and shortcode_text(line[: end + 3]) is not None


def shortcode_paragraphs(state: StateCore) -> None:
    """A one-line HTML block that starts with a shortcode, as a paragraph: its shortcodes
    are then read as text by ``shortcodes_as_code``, and the rest of the line as markdown.
    Its paragraph is hidden in a tight list, as the paragraphs beside it are."""
    tokens = state.tokens
    found = [
        i
        for i, token in enumerate(tokens)
        if token.type == "html_block"
        and "\n" not in (line := token.content.strip())
        and _starts_with_shortcode(line)
    ]
    if not found:
        return
    hidden = _hidden_in_lists(tokens, found)
    for i in reversed(found):  # from the end: the places before stay where they are
        token = tokens[i]
        opener = Token("paragraph_open", "p", 1)
        inline = Token("inline", "", 0)
        closer = Token("paragraph_close", "p", -1)
        inline.content, inline.children = token.content.strip(), []
        opener.map = inline.map = token.map
        opener.level, inline.level, closer.level = token.level, token.level + 1, token.level
        opener.block = inline.block = closer.block = True
        opener.hidden = closer.hidden = hidden.get(i, False)
        tokens[i : i + 1] = [opener, inline, closer]


def _hidden_in_lists(tokens: list[Token], places: list[int]) -> dict[int, bool]:
    """For each of ``places`` right inside a list item, whether its list is tight (as
    markdown-it hides a tight list's paragraphs; known from any paragraph of the list, and
    a list holding none is taken as tight, the usual case). One pass over the tokens."""
    wanted = set(places)
    lists: list[int] = []  # the open lists, innermost last
    tight: dict[int, bool] = {}  # a list's place -> whether its paragraphs are hidden
    owner: dict[int, int] = {}  # a place -> its list's place
    for i, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(i)
        elif token.type in ("bullet_list_close", "ordered_list_close") and lists:
            lists.pop()
        elif lists and token.level == tokens[lists[-1]].level + 2:
            if token.type == "paragraph_open":
                tight.setdefault(lists[-1], token.hidden)
            elif i in wanted:
                owner[i] = lists[-1]
    return {i: tight.get(list_, True) for i, list_ in owner.items()}


def shortcodes_as_code(state: StateCore) -> None:
    """Each ``html_inline`` shortcode comment, as ``<code class="shortcode">`` of its text."""
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            if child.type != "html_inline" or not child.content.startswith("<!--"):
                continue
            text = shortcode_text(child.content)
            if text is not None:
                child.type, child.tag, child.content = "code_inline", "code", text
                child.attrs = {"class": "shortcode"}
                child.meta[SHORTCODE] = True


def shortcodes_plugin(md: MarkdownIt) -> None:
    """Both rules: the paragraphs before the inline parse, the code after it."""
    md.core.ruler.before("inline", "sitegen_shortcode_paragraphs", shortcode_paragraphs)
    md.core.ruler.after("inline", "sitegen_shortcodes", shortcodes_as_code)
