"""Callouts of every family as one token shape and one look: GitHub alerts and Obsidian callouts
(``> [!NOTE]``), admonitions (``!!!``, ``???``), containers (``::: tip``), ``/// note`` blocks.

Core rules that rewrite the families' tokens into ``callout_*`` tokens, and their renderer
(content/syntax/callouts.md). Never parses inline content itself, and never drops a body.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.container import container_plugin

from sitegen.docs.positions import ENV_SOURCE, POS, SOURCE, BlockRule, PageText

#: The five looks every type is drawn with (GitHub's alert kinds).
LOOKS = ("note", "tip", "important", "warning", "caution")
#: Every other type or alias, of Obsidian, Material for MkDocs, VitePress and Docusaurus.
_LOOK_OF = {
    "info": "note",
    "todo": "note",
    "abstract": "note",
    "summary": "note",
    "tldr": "note",
    "quote": "note",
    "cite": "note",
    "example": "note",
    "seealso": "note",
    "details": "note",
    "hint": "tip",
    "success": "tip",
    "check": "tip",
    "done": "tip",
    "question": "tip",
    "help": "tip",
    "faq": "tip",
    "attention": "warning",
    "failure": "warning",
    "fail": "warning",
    "missing": "warning",
    "danger": "caution",
    "error": "caution",
    "bug": "caution",
}
KNOWN_TYPES = frozenset(LOOKS) | frozenset(_LOOK_OF)
#: Types the ``::: name`` containers accept (VitePress and Docusaurus, plus GitHub's kinds).
CONTAINER_TYPES = ("note", "tip", "info", "important", "warning", "caution", "danger", "details")
_ALERT_LINE = re.compile(r"\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)")
_CONTAINER_INFO = re.compile(r"\s*([A-Za-z][\w-]*)(?:\[(.*)\])?\s*(.*)")
#: VitePress' container options after the title: ``::: tip {no-title}``, ``::: details {open}``.
_CONTAINER_OPTIONS = re.compile(r"\s*\{\s*((?:no-title|open)(?:\s+(?:no-title|open))*)\s*\}\s*$")
#: Containers that are wrappers, not callouts (VitePress): ``v-pre`` shows its content with no
#: template meaning, ``raw`` keeps the theme's styles off it. Both render as a plain ``div``.
WRAPPERS = ("v-pre", "raw")
#: Meta key of a title token made here; ``place_titles`` fixes its links' positions.
TITLE_LINE = "sitegen_title_line"


def look_of(kind: str) -> str:
    kind = kind.lower()
    return kind if kind in LOOKS else _LOOK_OF.get(kind, "note")


@dataclass(frozen=True)
class Callout:
    kind: str  # as written, lower-cased: "note", "faq", "danger"
    title: str  # markdown; "" for none
    fold: str = ""  # "" (not foldable), "open" or "closed"


def default_title(kind: str) -> str:
    return kind.replace("-", " ").replace("_", " ").capitalize()


def open_tokens(
    callout: Callout, line: int, level: int, nesting_token: Token | None = None
) -> list[Token]:
    """``callout_open`` and, when titled, the title tokens (inline content parsed later)."""
    opener = nesting_token or Token("callout_open", "div", 1)
    opener.type, opener.tag, opener.nesting = "callout_open", "div", 1
    opener.attrs = {"id": opener.attrs["id"]} if opener.attrs.get("id") else {}
    opener.meta = {
        "kind": callout.kind,
        "look": look_of(callout.kind),
        "fold": callout.fold,
        "titled": bool(callout.title),
    }
    opener.level = level
    out = [opener]
    if callout.title:
        out += title_tokens("callout_title", callout.title, line, level + 1)
        out[1].meta["fold"] = out[3].meta["fold"] = callout.fold
    return out


def title_tokens(name: str, title: str, line: int, level: int) -> list[Token]:
    """``<name>_open``, an inline token of ``title`` (on source line ``line``), ``<name>_close``."""
    first = Token(f"{name}_open", "p", 1)
    inline = Token("inline", "", 0)
    inline.content, inline.map, inline.children = title, [line, line + 1], []
    inline.meta[TITLE_LINE] = line
    inline.level = level + 1
    last = Token(f"{name}_close", "p", -1)
    first.level = last.level = level
    first.block = last.block = True
    return [first, inline, last]


def close_token(opener: Token, token: Token | None = None) -> Token:
    closer = token or Token("callout_close", "div", -1)
    closer.type, closer.tag, closer.nesting = "callout_close", "div", -1
    closer.meta = dict(opener.meta)
    closer.level = opener.level
    return closer


# --- the families, rewritten --------------------------------------------------------------


def admonitions_to_callouts(state: StateCore) -> None:
    """``!!! type "Title"`` and ``???``/``???+`` (mdit-py-plugins' admon tokens)."""
    out: list[Token] = []
    stack: list[Token] = []
    for token in state.tokens:
        kind = token.type
        if kind == "admonition_open":
            fold = "" if token.markup == "!!!" else ("open" if token.markup == "???+" else "closed")
            callout = Callout(str(token.meta.get("tag") or "note"), "", fold)
            opener = open_tokens(callout, 0, token.level, token)[0]
            opener.meta["titled"] = bool(token.content)
            opener.map = token.map
            stack.append(opener)
            out.append(opener)
        elif kind == "admonition_close":
            out.append(close_token(stack.pop(), token))
        elif kind in ("admonition_title_open", "admonition_title_close"):
            token.type = kind.replace("admonition_title", "callout_title")
            token.meta = {"fold": stack[-1].meta["fold"]}
            out.append(token)
        elif kind == "inline" and out and out[-1].type == "callout_title_open" and token.map:
            token.meta[TITLE_LINE] = token.map[0]
            out.append(token)
        else:
            out.append(token)
    state.tokens = out


#: Where Docusaurus draws a type unlike GitHub: its ``caution`` is its ``warning`` (its
#: ``danger`` is the red one). Applied to MDX pages (sitegen/docs/mdx.py).
DOCUSAURUS_LOOKS = {"caution": "warning"}


def containers_to_callouts(state: StateCore) -> None:
    """``::: tip Title`` … ``:::`` (VitePress) and ``:::tip[Title]`` (Docusaurus)."""
    out: list[Token] = []
    stack: list[Token] = []
    for token in state.tokens:
        if token.type.startswith("container_") and token.type.endswith("_open"):
            if token.type.removeprefix("container_").removesuffix("_open") in WRAPPERS:
                out.append(token)
                continue
            found = _CONTAINER_INFO.fullmatch(token.info)
            kind = found.group(1).lower() if found else "note"
            title = ((found.group(2) or found.group(3)) if found else "").strip()
            options = _CONTAINER_OPTIONS.search(title)
            words = options.group(1).split() if options else []
            title = title[: options.start()].strip() if options else title
            fold = ("open" if "open" in words else "closed") if kind == "details" else ""
            title = "" if "no-title" in words else title or default_title(kind)
            line = (token.map or [0])[0]
            made = open_tokens(Callout(kind, title, fold), line, token.level, token)
            made[0].map = token.map
            stack.append(made[0])
            out += made
        elif token.type.startswith("container_") and token.type.endswith("_close"):
            wrapper = token.type.removeprefix("container_").removesuffix("_close") in WRAPPERS
            out.append(token if wrapper else close_token(stack.pop(), token))
        else:
            out.append(token)
    state.tokens = out


def alerts_to_callouts(state: StateCore) -> None:
    """A blockquote whose first line is ``[!TYPE]``, ``[!type]- Title`` or ``[!type]+``."""
    tokens = state.tokens
    out: list[Token] = []
    stack: list[Token | None] = []  # per open blockquote: its callout opener, or None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "blockquote_open":
            callout = _alert_of(tokens, i)
            if callout is None:
                stack.append(None)
                out.append(token)
            else:
                made = open_tokens(callout, (token.map or [0])[0], token.level, token)
                stack.append(made[0])
                out += made
                i += _strip_marker_line(tokens, i, out)
        elif token.type == "blockquote_close":
            opener = stack.pop() if stack else None
            out.append(close_token(opener, token) if opener is not None else token)
        else:
            out.append(token)
        i += 1
    state.tokens = out


def _alert_of(tokens: Sequence[Token], i: int) -> Callout | None:
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open":
        return None
    inline = tokens[i + 2]
    found = _ALERT_LINE.fullmatch(inline.content.split("\n", 1)[0])
    if found is None:
        return None
    kind, sign, title = found.group(1).lower(), found.group(2), found.group(3).strip()
    fold = {"-": "closed", "+": "open"}.get(sign, "")
    return Callout(kind, title or default_title(kind), fold)


def _strip_marker_line(tokens: Sequence[Token], i: int, out: list[Token]) -> int:
    """Drop the ``[!TYPE]`` line from the first paragraph (the whole paragraph if it was all
    of it); returns how many tokens after ``i`` were consumed."""
    paragraph, inline, closing = tokens[i + 1], tokens[i + 2], tokens[i + 3]
    rest = inline.content.split("\n", 1)
    if len(rest) == 1 or not rest[1].strip():
        return 3
    inline.content = rest[1]
    if inline.map:  # the content now starts one source line later
        inline.map = [inline.map[0] + 1, inline.map[1]]
        paragraph.map = inline.map
    out += [paragraph, inline, closing]
    return 3


# --- rendering ----------------------------------------------------------------------------


def render_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    meta = tokens[idx].meta
    classes = f"callout callout-{meta['look']}"
    kind = escapeHtml(str(meta["kind"]))
    extra = _attrs(tokens[idx])
    if meta["fold"]:
        is_open = " open" if meta["fold"] == "open" else ""
        head = f'<details class="{classes}" data-callout="{kind}"{extra}{is_open}>\n'
    else:
        head = f'<div class="{classes}" data-callout="{kind}"{extra} role="note">\n'
    if not meta["titled"]:
        head += _untitled_summary(meta) + '<div class="callout-body">\n'
    return head


def _untitled_summary(meta: dict[str, object]) -> str:
    # <details> needs a <summary>; without one the browser writes "Details" in English.
    if not meta["fold"]:
        return ""
    return (
        f'<summary class="callout-title">{escapeHtml(default_title(str(meta["kind"])))}</summary>\n'
    )


def _attrs(token: Token) -> str:
    """An ``id`` given by an attribute list stays an anchor."""
    id_ = token.attrs.get("id")
    return f' id="{escapeHtml(str(id_))}"' if id_ else ""


def render_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "</div>\n</details>\n" if tokens[idx].meta["fold"] else "</div>\n</div>\n"


def render_title_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    folds = bool(tokens[idx].meta.get("fold"))
    return '<summary class="callout-title">' if folds else '<p class="callout-title">'


def render_title_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    folds = bool(tokens[idx].meta.get("fold"))
    return ("</summary>\n" if folds else "</p>\n") + '<div class="callout-body">\n'


def callouts_plugin(md: MarkdownIt) -> None:
    """Every family, rewritten into callouts right after the block parse."""
    admon_plugin(md)
    admonition = next(rule for rule in md.block.ruler.__rules__ if rule.name == "admonition")
    md.block.ruler.at("admonition", through_blank_lines(admonition.fn), {"alt": admonition.alt})
    for name in CONTAINER_TYPES + WRAPPERS:
        container_plugin(md, name, validate=_container_validator(name))
    md.core.ruler.after("block", "sitegen_admonitions", admonitions_to_callouts)
    md.core.ruler.after("sitegen_admonitions", "sitegen_containers", containers_to_callouts)
    md.core.ruler.after("sitegen_containers", "sitegen_alerts", alerts_to_callouts)
    md.core.ruler.after("inline", "sitegen_titles", place_titles)
    md.add_render_rule("callout_open", render_open)
    md.add_render_rule("callout_close", render_close)
    md.add_render_rule("callout_title_open", render_title_open)
    md.add_render_rule("callout_title_close", render_title_close)


def through_blank_lines(rule: BlockRule) -> BlockRule:
    """mdit-py-plugins' admonition rule, holding every line indented under the marker as
    Python-Markdown's admonition does, blank lines or not: the plugin ends an admonition at
    two blank lines, and a second tab after them fell out as a code block
    (content/syntax/callouts.md#nesting)."""

    def admonition(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent:
            return rule(state, start_line, end_line, True)
        if not rule(state, start_line, end_line, True):
            return False
        start = state.bMarks[start_line] + state.tShift[start_line]
        markup = next(m for m in ("???+", "!!!", "???") if state.src.startswith(m, start))
        indent = _body_indent(state, start_line, markup)
        end = max(_indented_end(state, start_line + 1, end_line, indent), start_line + 1)
        # The plugin ends the block at two lines indented less than its body, which blank
        # lines are: within the body they count as indented, for its scan only, so a fence
        # holding two blank lines stays whole.
        blanks = [n for n in range(start_line + 1, end) if state.isEmpty(n)]
        saved = [state.sCount[n] for n in blanks]
        for n in blanks:
            state.sCount[n] = max(state.sCount[n], indent)
        try:
            return rule(state, start_line, end, False)
        finally:
            for n, count in zip(blanks, saved, strict=True):
                state.sCount[n] = count

    return admonition


def _body_indent(state: StateBlock, line: int, markup: str) -> int:
    """Where the plugin puts an admonition's body: under the type after the marker (three
    characters wide, ``???+`` too)."""
    start = state.bMarks[line] + state.tShift[line]
    after = start + len(markup)
    while after < state.eMarks[line] and state.src[after] == " ":
        after += 1
    return state.blkIndent + after - start - (len(markup) - 3)


def _indented_end(state: StateBlock, line: int, end_line: int, indent: int) -> int:
    """The line after the last one indented ``indent`` from ``line`` on, blank lines
    between them skipped; ``line`` when no indented line follows."""
    end = line
    while line < end_line:
        if not state.isEmpty(line):
            if state.sCount[line] < indent:
                break
            end = line + 1
        line += 1
    return end


def _container_validator(name: str) -> Callable[[str, str], bool]:
    def validate(params: str, markup: str) -> bool:
        found = _CONTAINER_INFO.fullmatch(params)
        return found is not None and found.group(1).lower() == name

    return validate


def place_titles(state: StateCore) -> None:
    """Core rule after ``inline``: a title's links start where the title sits on its line.

    A title is one line of the source, but not always its end (``!!! note "Title"``), so the
    page's line mapping cannot place it; the title is found on its line instead.
    """
    source = state.env.get(ENV_SOURCE)
    if not isinstance(source, PageText):
        return
    for token in state.tokens:
        line = token.meta.get(TITLE_LINE) if token.type == "inline" else None
        if line is None or not token.children or line >= len(source.line_starts):
            continue
        start = source.text.rfind(token.content, source.line_starts[line], source.line_end(line))
        if start < 0:
            continue
        for child in token.children:
            if POS in child.meta:
                child.meta[SOURCE] = start + child.meta[POS]
