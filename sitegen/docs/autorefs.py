"""Cross-references to code symbols as MkDocs-autorefs writes them, ``[Model][pkg.mod.Model]``
and ``[pkg.Model][]``, in pages and docstrings, resolved to the symbol's line on its source
page (content/syntax/autorefs.md).

The inline rule makes ordinary link tokens (kind "autoref"); resolution works on the code
graph's symbols only. Never reads files; a name the code graph lacks is not a link.
"""

from __future__ import annotations

import re

from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.docs.positions import ENV_SOURCE, POS, SOURCE, PageText
from sitegen.docs.positions import KIND as KIND_META
from sitegen.records.pages import LinkKind

#: The href a docstring's ``[text][pkg.name]`` gets from the comment-link extraction.
CODE_PREFIX = "autoref:"
#: In a page a name need not be dotted: ``[dataclasses][dataclasses]`` names a module of
#: another project's inventory (a reference definition of that label, when there is one,
#: takes the link first).
_NAME = r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*"
_IN_PAGE = re.compile(rf"\[([^\[\]\n]+)\]\[({_NAME})?\]")
_IDENTIFIER = re.compile(rf"`?({_NAME})`?")
#: mkdocstrings' ``::: pkg.mod.Name`` (its indented options follow on the next lines).
_DIRECTIVE = re.compile(r":::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*(?:\n|$)")


def autoref(state: StateInline, silent: bool) -> bool:
    """``[text][a.b]``, or ``[a.b][]`` / ``[`a.b`][]`` (a name with or without dots), when no
    reference definition took it."""
    if state.src[state.pos] != "[":
        return False
    found = _IN_PAGE.match(state.src, state.pos)
    if found is None:
        return False
    label, target = found.group(1), found.group(2)
    if target is None:
        named = _IDENTIFIER.fullmatch(label.strip())
        if named is None:
            return False
        target = named.group(1)
    if not silent:
        opener = state.push("link_open", "a", 1)
        opener.attrs = {"href": target, "class": "autoref"}
        if label.startswith("`") and label.endswith("`") and len(label) > 1:
            code = state.push("code_inline", "code", 0)
            code.content, code.markup = label.strip("`"), "`"
        else:
            state.push("text", "", 0).content = label
        state.push("link_close", "a", -1)
    state.pos = found.end()
    return True


def directive_links(state: StateCore) -> None:
    """Core rule after ``inline``: mkdocstrings' ``::: pkg.Name`` paragraph becomes a link to
    the symbol's source (sitegen writes no API pages); its options are not shown. The link
    is placed where the ``:::`` is written."""
    source = state.env.get(ENV_SOURCE)
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline" or not token.content.startswith(":::") or i == 0:
            continue
        found = _DIRECTIVE.match(token.content)
        if found is None or tokens[i - 1].type != "paragraph_open" or not token.map:
            continue
        opener = Token("link_open", "a", 1)
        opener.attrs = {"href": found.group(1), "class": "autoref"}
        opener.meta[POS], opener.meta[KIND_META] = 0, LinkKind.AUTOREF
        if isinstance(source, PageText):
            line_start = source.line_starts[token.map[0]]
            opener.meta[SOURCE] = source.text.find(":::", line_start, source.line_end(token.map[0]))
        code = Token("code_inline", "code", 0)
        code.content, code.markup = found.group(1), "`"
        token.children = [opener, code, Token("link_close", "a", -1)]
        tokens[i - 1].attrs["class"] = "api-ref"
