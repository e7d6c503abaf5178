"""Block syntaxes mdit-py-plugins lacks: pymdownx ``/// name | Title`` blocks and Material's
content tabs ``=== "Tab"``, both as tabs that work without JavaScript (radio inputs and CSS).

markdown-it block rules and a core rule grouping tabs into sets (content/syntax/tabs.md).
Never renders a body itself: bodies are parsed as any other markdown, positions intact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.container import container_plugin

from sitegen.docs.callouts import (
    Callout,
    close_token,
    open_tokens,
    title_tokens,
)
from sitegen.docs.slug import PythonMarkdownSlugger, pymdownx_slug
from sitegen.generators import Dialect

#: Key in ``env`` of the syntax problems found while parsing: (source index, message, code).
ENV_PROBLEMS = "sitegen_syntax_problems"
_BLOCK_HEAD = re.compile(r"(/{3,})[ \t]*([A-Za-z][\w-]*)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*")
_OPTION = re.compile(r"[ \t]{4,}([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*")
_FENCE_LABEL = re.compile(r"\[([^\[\]]+)\]")
_TAB_HEAD = re.compile(r'===([!+]{0,2})[ \t]+"(.*)"[ \t]*')
#: pymdownx's blocks that are not callouts (tabs aside); any other name is one, since the
#: blocks a project adds itself (``/// version-added``) are admonition types.
_NOT_CALLOUTS = ("html", "caption", "define", "definition")


def report(state: StateBlock | StateCore, index: int, message: str, code: str) -> None:
    state.env.setdefault(ENV_PROBLEMS, []).append((index, message, code))


def _head(
    state: StateBlock, start_line: int, marker: str, pattern: re.Pattern[str]
) -> re.Match[str] | None:
    """The head of a block on ``start_line``: the line starts with ``marker`` (not indented
    as code) and matches ``pattern`` whole; None when the line is no such head."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return None
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith(marker, start):
        return None
    return pattern.fullmatch(state.src, start, state.eMarks[start_line])


# --- /// blocks ---------------------------------------------------------------------------


def slash_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``/// name | Title``, optional indented ``key: value`` options, the body, ``///``."""
    head = _head(state, start_line, "///", _BLOCK_HEAD)
    if head is None or silent:
        return head is not None
    start = head.start()
    fence, name, title = head.group(1), head.group(2).lower(), head.group(3) or ""
    options, body = _options(state, start_line + 1, end_line)
    close, fenced = _closing_line(state, body, end_line, fence)
    old_max, old_parent = state.lineMax, state.parentType
    state.lineMax, state.parentType = close, "sitegen_block"
    opener = _open(state, name, title, options, start_line, start)
    state.md.block.tokenize(state, body, close)
    _close(state, name, opener)
    state.lineMax, state.parentType = old_max, old_parent
    state.line = close + 1 if fenced else close
    return True


def _options(state: StateBlock, line: int, end_line: int) -> tuple[dict[str, str], int]:
    options: dict[str, str] = {}
    while line < end_line:
        found = _OPTION.fullmatch(state.src, state.bMarks[line], state.eMarks[line])
        if found is None:
            break
        options[found.group(1).lower()] = found.group(2).strip("\"'")
        line += 1
    return options, line


def _closing_line(state: StateBlock, line: int, end_line: int, fence: str) -> tuple[int, bool]:
    """The line of the closing fence and True; or where the enclosing block ends and False."""
    while line < end_line:
        start = state.bMarks[line] + state.tShift[line]
        if state.sCount[line] < state.blkIndent and start < state.eMarks[line]:
            return line, False
        if (
            state.src[start : state.eMarks[line]].rstrip() == fence
            and state.sCount[line] - state.blkIndent < 4
        ):
            return line, True
        line += 1
    return end_line, False


def _open(
    state: StateBlock, name: str, title: str, options: dict[str, str], line: int, start: int
) -> Token | None:
    """The block's opening tokens; returns the callout opener, if it is a callout."""
    if name == "tab":
        _push_tab(
            state,
            title,
            line,
            new=_yes(options.get("new", "")),
            selected=_yes(options.get("select", "")),
        )
        return None
    if name not in _NOT_CALLOUTS:  # a project's own blocks are admonitions, as pydantic's
        kind = options.get("type", "note") if name in ("admonition", "details") else name
        fold = ("open" if _yes(options.get("open", "")) else "closed") if name == "details" else ""
        callout = Callout(kind.lower(), title or _default(name, kind), fold)
        made = open_tokens(callout, line, state.level)
        made[0].map = [line, line + 1]
        made[0].markup = "///"
        state.tokens.extend(made)
        state.level += 1
        return made[0]
    report(
        state,
        start,
        f"the '/// {name}' block is not supported; its body is shown as plain markdown",
        "unsupported-syntax",
    )
    token = state.push("sitegen_block_open", "div", 1)
    token.attrs = {"class": f"block block-{name}"}
    token.map = [line, line + 1]
    return None


def _default(name: str, kind: str) -> str:
    return "Details" if name == "details" else kind.replace("-", " ").capitalize()


def _yes(value: str) -> bool:
    return value.strip().lower() in ("true", "yes", "on", "1")


def _close(state: StateBlock, name: str, opener: Token | None) -> None:
    if name == "tab":
        state.push("tab_close", "div", -1)
    elif opener is not None:
        state.level -= 1
        state.tokens.append(close_token(opener))
    else:
        state.push("sitegen_block_close", "div", -1)


# --- content tabs -------------------------------------------------------------------------


def content_tab(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``=== "Label"`` then the tab's body indented four spaces (``===!`` starts a new set,
    ``===+`` is the tab shown first)."""
    head = _head(state, start_line, "===", _TAB_HEAD)
    if head is None or silent:
        return head is not None
    line = start_line + 1
    indent = state.blkIndent + 4
    while line < end_line:
        if state.sCount[line] < indent and not state.isEmpty(line):
            break
        line += 1
    while line > start_line + 1 and state.isEmpty(line - 1):
        line -= 1
    flags = head.group(1)
    _push_tab(state, head.group(2), start_line, new="!" in flags, selected="+" in flags)
    old_indent, old_max = state.blkIndent, state.lineMax
    state.blkIndent, state.lineMax = indent, line
    state.md.block.tokenize(state, start_line + 1, line)
    state.blkIndent, state.lineMax = old_indent, old_max
    state.push("tab_close", "div", -1)
    state.line = line
    return True


def _push_tab(state: StateBlock, label: str, line: int, new: bool, selected: bool) -> None:
    token = state.push("tab_open", "div", 1)
    token.map = [line, line + 1]
    token.meta = {"new": new, "selected": selected}
    state.tokens.extend(title_tokens("tab_label", label, line, state.level))


def code_groups(state: StateCore) -> None:
    """VitePress's ``::: code-group``: each fence in it is a tab, labelled by the ``[name]``
    of its info string (else its language)."""
    out: list[Token] = []
    depth = 0  # inside how many code groups
    for token in state.tokens:
        if token.type == "container_code-group_open":
            depth += 1
            first = True
            continue
        if token.type == "container_code-group_close":
            depth -= 1
            continue
        if depth and token.type == "fence":
            out += _fence_tab(token, new=first)
            first = False
            continue
        out.append(token)
    state.tokens = out


def _fence_tab(fence: Token, new: bool) -> list[Token]:
    named = _FENCE_LABEL.search(fence.info)
    label = named.group(1) if named else (fence.info.split() or ["Code"])[0]
    line = (fence.map or [0])[0]
    opener = Token("tab_open", "div", 1)
    opener.map, opener.level, opener.block = fence.map, fence.level, True
    opener.meta = {"new": new, "selected": False}
    closer = Token("tab_close", "div", -1)
    closer.level, closer.block = fence.level, True
    fence.level += 1
    return [opener, *title_tokens("tab_label", label, line, fence.level), fence, closer]


def group_tabs(state: StateCore) -> None:
    """Core rule: consecutive tabs at one level form a set; each tab learns its set, its
    place and whether it is shown first."""
    out: list[Token] = []
    sets: list[list[Token]] = []
    open_tabs: list[Token] = []  # the tabs around the token, innermost last
    for token in state.tokens:
        if token.type == "tab_open":
            last = out[-1] if out else None
            if (
                last is not None
                and last.type == "tabs_close"
                and last.level == token.level
                and not token.meta["new"]
            ):
                out.pop()  # the set goes on; a set nested in its last tab is numbered apart
                number = last.meta["set"]
            else:
                opener = Token("tabs_open", "div", 1)
                opener.level, opener.block = token.level, True
                out.append(opener)
                sets.append([])
                number = len(sets)
            sets[number - 1].append(token)
            token.meta["set"] = number
            token.meta["index"] = len(sets[number - 1])
            open_tabs.append(token)
        out.append(token)
        if token.type == "tab_close":
            closer = Token("tabs_close", "div", -1)
            closer.level, closer.block = token.level, True
            closer.meta = {"set": open_tabs.pop().meta["set"]}
            out.append(closer)
    for tabs in sets:
        # pymdownx.tabbed: the last ``===+`` of a set is the one shown, else its first
        chosen = next((t for t in reversed(tabs) if t.meta["selected"]), tabs[0])
        chosen.meta["checked"] = True
    state.tokens = out


# --- tab ids as pymdownx.tabbed writes them ------------------------------------------------


def name_tabs(tokens: Sequence[Token], dialect: Dialect) -> None:
    """Give each tab of an MkDocs page (``dialect`` has PYTHON_MARKDOWN) the id of its radio
    input as pymdownx.tabbed does, so links to it are checked (content/syntax/tabs.md#ids):
    ``__tabbed_<set>_<tab>``, or with TAB_SLUGS its label's slug (pymdownx.slugs'
    ``slugify(case="lower")``), after the id of the heading before its set and a ``-`` with
    TAB_SLUGS_COMBINED, numbered ``_1``, ``_2`` past every id of the page. Run after the
    headings have their ids; the set numbers are ``group_tabs``'."""
    if not dialect & Dialect.PYTHON_MARKDOWN or not any(t.type == "tab_open" for t in tokens):
        return
    sets = _tab_sets(tokens)
    if not dialect & Dialect.TAB_SLUGS:
        for tabs, _ in sets.values():
            for tab, _label in tabs:
                tab.attrs["id"] = f"__tabbed_{tab.meta['set']}_{tab.meta['index']}"
        return
    ids = PythonMarkdownSlugger(lambda slug: slug)
    for token in tokens:
        for t in (token, *(token.children or ())):
            if t.attrs.get("id"):
                ids.reserve(str(t.attrs["id"]))
    combined = bool(dialect & Dialect.TAB_SLUGS_COMBINED)
    for number in sorted(sets):  # pymdownx names a set's tabs before the sets nested in them
        tabs, heading = sets[number]
        for tab, label in tabs:
            slug = pymdownx_slug(label)
            tab.attrs["id"] = ids.slug(f"{heading}-{slug}" if combined and heading else slug)


def _tab_sets(tokens: Sequence[Token]) -> dict[int, tuple[list[tuple[Token, str]], str]]:
    """Each set's tabs with their labels' text, and the id of the heading before the set:
    the last one among its siblings, else among its parent's, and so on up."""
    sets: dict[int, tuple[list[tuple[Token, str]], str]] = {}
    headings: dict[int, str] = {}  # level -> id of the last heading at it, in this container
    for i, token in enumerate(tokens):
        if token.nesting == 1:  # what opens here starts with no heading inside
            for level in [level for level in headings if level > token.level]:
                del headings[level]
        if token.type == "heading_open" and token.attrs.get("id"):
            headings[token.level] = str(token.attrs["id"])
        elif token.type == "tab_open":
            number = int(token.meta["set"])
            if number not in sets:
                above = [level for level in headings if level <= token.level]
                sets[number] = ([], headings[max(above)] if above else "")
            sets[number][0].append((token, _label_text(tokens[i + 2])))
    return sets


def _label_text(inline: Token) -> str:
    """A label's text as pymdownx.tabbed slugs it: its rendered text, tags dropped."""
    return "".join(t.content for t in inline.children or () if t.type in ("text", "code_inline"))


RenderRule = Callable[[RendererHTML, Sequence[Token], int, OptionsDict, EnvType], str]


def tab_renderers(prefix: str) -> tuple[RenderRule, RenderRule]:
    """The render rules of a tab's radio input and of its label, with the ids
    ``{prefix}_{set}_{index}``: sitegen's tabs use ``__tabbed`` and MDX's ``<Tabs>``
    ``__mdxtabs`` (sitegen/docs/mdx.py), so two kinds of sets on one page never share a
    radio group."""

    def tab_id(token: Token) -> str:
        given = token.attrs.get("id")  # pymdownx.tabbed's, on an MkDocs page (name_tabs)
        if given:
            return escapeHtml(str(given))
        return f"{prefix}_{token.meta['set']}_{token.meta['index']}"

    def tab_open(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        checked = " checked" if token.meta.get("checked") else ""
        return (
            f'<input type="radio" class="tabbed-input" name="{prefix}_{token.meta["set"]}" '
            f'id="{tab_id(token)}"{checked}>\n'
        )

    def label_open(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return f'<label class="tabbed-label" for="{tab_id(tokens[idx - 1])}">'

    return tab_open, label_open


render_tab_open, render_label_open = tab_renderers("__tabbed")


def render_label_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return '</label>\n<div class="tabbed-panel">\n'


def render_fixed(html: str) -> object:
    def render(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return html

    return render


def render_block_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return f'<div class="{escapeHtml(str(tokens[idx].attrs.get("class", "block")))}">\n'


# --- definitions under a comment --------------------------------------------------------


def comment_terms(md: MarkdownIt) -> None:
    """A definition list whose term is a line holding one HTML comment, as Python-Markdown
    reads it (the comment becomes the term): Material's docs write ``<!-- md:option x -->``
    above each option's ``:   definition``, whose tabs and code fell out as code blocks
    when the comment was read as an HTML block (content/syntax/tabs.md#nesting). Needs
    mdit-py-plugins' deflist rule registered first."""
    deflist = next(rule for rule in md.block.ruler.__rules__ if rule.name == "deflist")

    def comment_term(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if state.sCount[start_line] - state.blkIndent >= 4:
            return False
        start = state.bMarks[start_line] + state.tShift[start_line]
        if not state.src.startswith("<!--", start):
            return False
        line = state.src[start : state.eMarks[start_line]].rstrip()
        if line.find("-->", 4) != len(line) - 3:
            return False
        return bool(deflist.fn(state, start_line, end_line, silent))

    md.block.ruler.before("html_block", "sitegen_comment_term", comment_term)


def blocks_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence",
        "sitegen_slash_block",
        slash_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before(
        "fence",
        "sitegen_content_tab",
        content_tab,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.core.ruler.after("block", "sitegen_tab_sets", group_tabs)
    container_plugin(md, "code-group")
    md.core.ruler.before("sitegen_tab_sets", "sitegen_code_groups", code_groups)
    md.add_render_rule("tab_open", render_tab_open)
    md.add_render_rule("tab_label_open", render_label_open)
    md.add_render_rule("tab_label_close", render_label_close)
    md.add_render_rule("tab_close", render_fixed("</div>\n"))  # type: ignore[arg-type]
    md.add_render_rule("tabs_open", render_fixed('<div class="tabbed-set">\n'))  # type: ignore[arg-type]
    md.add_render_rule("tabs_close", render_fixed("</div>\n"))  # type: ignore[arg-type]
    md.add_render_rule("sitegen_block_open", render_block_open)
    md.add_render_rule("sitegen_block_close", render_fixed("</div>\n"))  # type: ignore[arg-type]
