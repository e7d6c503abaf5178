"""Shortcodes: a project's templates called from its pages (content/syntax/shortcodes.md),
and the HTML-comment shortcodes of a project's own MkDocs hook (``<!-- md:option x -->`` in
Material's documentation).

With a ``shortcodes/`` folder, ``{{< name arg=value >}}`` calls the template ``name.html``,
in a paragraph or alone on its line (a block), and a comment the ``shortcode_comments``
option maps (``md:option``) calls its template with its words as arguments; the output is
the project's markup (as a theme's is), published as written, and its links are recorded
as the page's own HTML's are, at the shortcode's place. A shortcode that cannot be rendered
is shown as its text, with one warning at its place (sitegen/docs/shortcode_templates.py
says why).

A comment no option maps stays as before: sitegen does not run the hook, so each is shown
as its text in a ``code`` element, never hidden as a comment (content/syntax/unsupported.md).
Two core rules: before the inline parse, a line that starts with a shortcode (an HTML block
to markdown-it) becomes a paragraph; after it, each shortcode comment becomes code. An
ordinary comment stays a comment. Never warns of those: sitegen/docs/unsupported.py does,
once per page.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.positions import ENV_SOURCE, PLACES, PageText, to_place
from sitegen.docs.rawlinks import made_links
from sitegen.docs.sanitize import TRUSTED
from sitegen.docs.shortcode_templates import (
    MAX_CALL,
    MAX_PAGE_OUTPUT,
    Call,
    ShortcodeError,
    Shortcodes,
    comment_call,
    parse_arguments,
)

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


# --- a project's shortcodes -----------------------------------------------------------------

#: Key in ``env`` of the project's ``Shortcodes`` (none: every rule below does nothing).
ENV_SHORTCODES = "sitegen_shortcodes"
#: Token meta key: why a shortcode was not rendered (reported at its place after the parse).
_PROBLEM = "sitegen_shortcode_problem"
#: ``{{< name args >}}``: a name (``note``, ``docs/note``), then the arguments.
_HUGO_NAME = re.compile(r"[ \t\n]*(/?[A-Za-z_][\w./-]*)")
#: A comment that may be a shortcode of the ``shortcode_comments`` option (the gate's marker).
_COMMENT_CALL = re.compile(r"<!--[ \t]*[A-Za-z][\w-]*:")
_COMMENT_CALL_BYTES = re.compile(_COMMENT_CALL.pattern.encode())  # on a page's bytes


def may_call(text: str) -> bool:
    """Whether a page's ``text`` may call a shortcode: the marker of the rules below (a
    necessary condition: each rule matches only at ``{{<`` or such a comment)."""
    return "{{<" in text or ("<!--" in text and _COMMENT_CALL.search(text) is not None)


def page_key(key: str, data: bytes, shortcodes: Shortcodes | None) -> str:
    """A page's record key (``record_key``) with the project's shortcodes in it when the
    page's bytes ``data`` may call one (``may_call``): a changed template extracts again the
    pages that may call it, and only those; ``key`` itself for every other page."""
    if shortcodes is None:
        return key
    if b"{{<" not in data and (b"<!--" not in data or not _COMMENT_CALL_BYTES.search(data)):
        return key
    return hashlib.sha256(f"{key}\0shortcodes={shortcodes.key}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class _Found:
    """A shortcode call found at ``start``, ending at ``end`` (indices into the text)."""

    end: int
    written: str  # as the page wrote it, shown when it cannot be rendered
    call: Call | None  # None: it cannot be read (``problem`` says why)
    template: str | None = None  # the template a comment calls
    problem: str = ""
    comment: bool = False


def _hugo_at(src: str, pos: int, stop: int) -> _Found | None:
    """``{{< name args >}}`` at ``pos`` (ending by ``stop``); None when there is none."""
    if not src.startswith("{{<", pos):
        return None
    close = src.find(">}}", pos + 3, min(stop, pos + 3 + MAX_CALL + 3))
    if close < 0:
        return None
    end = close + 3
    written, inner = src[pos:end], src[pos + 3 : close]
    named = _HUGO_NAME.match(inner)
    if named is None:
        return _Found(end, written, None, problem=_nameless(written))
    name = named.group(1)
    if name.startswith("/"):
        return _Found(end, written, None, problem=_closing(written, name))
    try:
        call = parse_arguments(name, inner[named.end() :])
    except ShortcodeError as exc:
        return _Found(end, written, None, problem=str(exc))
    return _Found(end, written, call)


def _comment_at(src: str, pos: int, stop: int, shortcodes: Shortcodes) -> _Found | None:
    """A comment at ``pos`` that the ``shortcode_comments`` option maps to a template."""
    if not src.startswith("<!--", pos):
        return None
    line_end = src.find("\n", pos, stop)
    close = src.find("-->", pos + 4, stop if line_end < 0 else line_end)
    if close < 0:
        return None
    written = src[pos : close + 3]
    text = shortcode_text(written)
    if text is None:
        return None
    name, _, rest = text.partition(" ")
    template = shortcodes.comment_template(name)
    if template is None:
        return None
    return _Found(close + 3, written, comment_call(name, rest), template, comment=True)


def _find(src: str, pos: int, stop: int, shortcodes: Shortcodes) -> _Found | None:
    char = src[pos]
    if char == "{":
        return _hugo_at(src, pos, stop)
    if char == "<" and shortcodes.comments:
        return _comment_at(src, pos, stop, shortcodes)
    return None


def _rendered(found: _Found, shortcodes: Shortcodes) -> tuple[str | None, str]:
    """The HTML of ``found``, or None and why not."""
    if found.call is None:
        return None, found.problem
    try:
        return shortcodes.render(found.call, found.template), ""
    except ShortcodeError as exc:
        return None, str(exc)


def _shown(found: _Found) -> str:
    """What a shortcode that is not rendered shows: its text (a comment's without ``<!--``,
    as an unmapped one shows)."""
    if found.comment:
        return found.written[4:-3].strip(" \t")
    return found.written


def shortcode_inline(state: StateInline, silent: bool) -> bool:
    """A shortcode inside a paragraph (or a heading, a cell...): its HTML in place, as an
    ``html_inline`` token of the project's, or its text in a ``code`` element."""
    shortcodes = state.env.get(ENV_SHORTCODES)
    if not isinstance(shortcodes, Shortcodes):
        return False
    start = state.pos
    found = _find(state.src, start, state.posMax, shortcodes)
    if found is None:
        return False
    if not silent:
        _push_inline(state, found, shortcodes, start)
    state.pos = found.end
    return True


def _push_inline(state: StateInline, found: _Found, shortcodes: Shortcodes, start: int) -> None:
    html, problem = _rendered(found, shortcodes)
    if html is None:
        token = state.push("code_inline", "code", 0)
        token.content, token.markup = _shown(found), "`"
        token.attrs = {"class": "shortcode"}
        token.meta[_PROBLEM] = problem
        to_place(state, token, [start])
        return
    if _over_page_budget(state.env, len(html)):
        _push_inline(state, _over(found), shortcodes, start)
        return
    token = state.push("html_inline", "", 0)
    token.content = html
    token.meta[TRUSTED] = True
    count = made_links(token)
    if count:  # every link of the output stands at the shortcode's place
        to_place(state, token, [start] * count)


#: Key in ``env`` of the characters the page's shortcodes have written so far.
_WRITTEN = "sitegen_shortcodes_written"


def _over_page_budget(env: MutableMapping[str, Any], size: int) -> bool:
    written = int(env.get(_WRITTEN, 0)) + size
    env[_WRITTEN] = written
    return written > MAX_PAGE_OUTPUT


def _over(found: _Found) -> _Found:
    return _Found(
        found.end,
        found.written,
        None,
        problem=(
            f"the shortcodes of this page wrote more than {MAX_PAGE_OUTPUT:,} characters; "
            "this one and those after it are shown as their text"
        ),
        comment=found.comment,
    )


def shortcode_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A line that is one shortcode, and nothing else: its HTML as a block of the project's
    (no paragraph around it), or its text in a paragraph. A comment may end a paragraph, as
    every HTML comment does; ``{{< >}}`` may not (it is then inside the paragraph)."""
    shortcodes = state.env.get(ENV_SHORTCODES)
    if not isinstance(shortcodes, Shortcodes) or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    stop = state.eMarks[start_line]
    src = state.src
    if start >= stop or src[start] not in "{<":
        return False
    found = _find(src, start, stop, shortcodes)
    rest = src[found.end : stop].strip(" \t") if found is not None else ""
    if found is None or (rest and not found.comment):
        return False
    if silent:
        return found.comment
    if rest:  # a comment then text: a paragraph of its line (an HTML block would end there)
        _line_paragraph(state, start_line, src[start:stop].rstrip(" \t"))
        return True
    html, problem = _rendered(found, shortcodes)
    if html is not None and _over_page_budget(state.env, len(html)):
        html, problem = None, _over(found).problem
    if html is None:
        report(state, start, problem, "shortcode")
        _paragraph(state, start_line, _shown(found))
    else:
        token = state.push("html_block", "", 0)
        token.content = html if html.endswith("\n") else html + "\n"
        token.map = [start_line, start_line + 1]
        token.meta[TRUSTED] = True
        token.meta[PLACES] = [start] * made_links(token)
    state.line = start_line + 1
    return True


def _line_paragraph(state: StateBlock, line: int, content: str) -> None:
    """A paragraph of one line, read as inline text (the shortcodes in it by the inline
    rule): a line that starts with a comment shortcode the option maps, as the hook's
    readers make it (``shortcode_paragraphs``)."""
    state.push("paragraph_open", "p", 1).map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.map, inline.content, inline.children = [line, line + 1], content, []
    state.push("paragraph_close", "p", -1)
    state.line = line + 1


def _paragraph(state: StateBlock, line: int, shown: str) -> None:
    """A paragraph of one code element: a shortcode shown as its text."""
    opener = state.push("paragraph_open", "p", 1)
    opener.map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.map, inline.content = [line, line + 1], ""
    code = Token("code_inline", "code", 0)
    code.content, code.markup, code.attrs = shown, "`", {"class": "shortcode"}
    inline.children = [code]
    state.push("paragraph_close", "p", -1)


def report_shortcodes(state: StateCore) -> None:
    """The warning of each shortcode not rendered inside a paragraph, at its place (found by
    the parse: ``to_place``), else at its line's start."""
    source = state.env.get(ENV_SOURCE)
    if not isinstance(state.env.get(ENV_SHORTCODES), Shortcodes) or not isinstance(
        source, PageText
    ):
        return
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            problem = child.meta.get(_PROBLEM) if child.meta else None
            if problem is None:
                continue
            places = child.meta.get(PLACES) or [None]
            fallback = source.line_starts[(token.map or [0])[0]]
            report(state, fallback if places[0] is None else places[0], problem, "shortcode")


def project_shortcodes_plugin(md: MarkdownIt) -> None:
    """The rules of a project's shortcodes; each does nothing on a page parsed without the
    project's ``Shortcodes`` in ``env`` (a project that has none)."""
    md.block.ruler.before(
        "html_block",
        "sitegen_shortcode_block",
        shortcode_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.inline.ruler.before("autolink", "sitegen_shortcode", shortcode_inline)
    md.core.ruler.after("inline", "sitegen_shortcode_report", report_shortcodes)


def _nameless(written: str) -> str:
    return (
        f"the shortcode '{written[:80]}' names no template (write {{{{< name >}}}}); "
        "it is shown as its text"
    )


def _closing(written: str, name: str) -> str:
    return (
        f"the shortcode '{written[:80]}' closes '{name[1:80]}', but sitegen's shortcodes take "
        "no content between two tags (content/syntax/shortcodes.md); it is shown as its text"
    )
