"""Fenced code highlighted with Pygments at build time, mermaid fences as readable source, and
math (``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``) as MathML made at build time; in the
Python-Markdown dialects, a fence's attribute list ``{ .lang #id .class }`` as superfences reads it.

Renderer rules and a core rule (content/syntax/code.md). Never loads a script or a remote
resource: the page reads the same with JavaScript off.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.etree.ElementTree import Element, tostring

from latex2mathml.converter import convert_to_element
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.attrs.parse import ParseError
from mdit_py_plugins.attrs.parse import parse as parse_attrs
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from sitegen.base.urlgate import allowed_url
from sitegen.docs.blocks import report
from sitegen.docs.mdx import is_mdx
from sitegen.docs.sanitize import author_classes
from sitegen.docs.wikilinks import find_closer

_OPTION = re.compile(r"""([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|(\S+))""")
_LINE_SET = re.compile(r"\{([\d,\s-]+)\}")  # VitePress: ```js{1,4-6}
#: A line number has at most 9 ASCII digits: a longer one is no line of any page, and
#: ``int()`` refuses more than 4,300 digits (issue 27: a 5,000-digit range was an internal error).
_RANGE = re.compile(r"(\d+)(?:-(\d+))?", re.ASCII)
_MAX_DIGITS = 9
#: Most lines a fence may ask to highlight (a range is expanded; this bounds the work).
_MAX_MARKED = 10_000


@functools.lru_cache(maxsize=256)
def _lexer(language: str) -> Lexer | None:
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def _marked_lines(spec: str) -> list[int]:
    lines: list[int] = []
    for found in _RANGE.finditer(spec):
        if max(len(found.group(1)), len(found.group(2) or "")) > _MAX_DIGITS:
            continue
        first = int(found.group(1))
        last = min(int(found.group(2) or first), first + _MAX_MARKED)
        lines.extend(range(first, last + 1))
        if len(lines) > _MAX_MARKED:
            break
    return lines[:_MAX_MARKED]


def fence_options(info: str) -> tuple[str, dict[str, str]]:
    """The language and the options of an info string: ``py title="a.py" hl_lines="2 3"``,
    ``{ .python linenums="1" }``, ``js{1,3-4}`` or ``ts:line-numbers``."""
    options = {
        m.group(1).lower(): next(g for g in m.groups()[1:] if g is not None)
        for m in _OPTION.finditer(info)
    }
    lines = _LINE_SET.search(info)
    if lines and "hl_lines" not in options:
        options["hl_lines"] = lines.group(1)
    head = _LINE_SET.sub(" ", _OPTION.sub(" ", info)).replace("{", " ").replace("}", " ")
    words = head.split()
    language = words[0].lstrip(".").lower() if words else ""
    if ":line-numbers" in language:
        language = language.split(":", 1)[0]
        options.setdefault("linenums", "1")
    return language, options


#: Docusaurus's ``showLineNumbers`` and ``showLineNumbers=5`` (MDX pages only).
_LINE_NUMBERS = re.compile(r"(?:^|\s)showLineNumbers(?:=(\d{1,9}))?(?=\s|$)", re.ASCII)
#: A line that is only one of Docusaurus's magic comments, in any of its comment styles.
_MAGIC = re.compile(
    r"[ \t]*(?://|#|--|%|;;?|/\*|\{/\*|<!--)[ \t]*"
    r"(highlight-next-line|highlight-start|highlight-end)[ \t]*(?:\*/\}?|-->)?[ \t]*"
)


def docusaurus_fence(info: str, code: str, opts: dict[str, str]) -> str:
    """A Docusaurus fence's options into sitegen's, and its code without its magic
    comments: ``showLineNumbers[=N]`` numbers the lines (from N); unless the meta names
    lines (``{1,3-4}``, which Docusaurus then reads alone), ``// highlight-next-line`` and
    ``// highlight-start`` … ``// highlight-end`` mark the lines they stand for and are
    left out of the code (content/syntax/docusaurus.md#code-blocks)."""
    numbers = _LINE_NUMBERS.search(info)
    if numbers is not None and "linenums" not in opts:
        opts["linenums"] = numbers.group(1) or "1"
    if "hl_lines" in opts or "highlight-" not in code:
        return code
    kept: list[str] = []
    marked: list[int] = []
    next_line, depth = False, 0
    for line in code.splitlines(keepends=True):
        magic = _MAGIC.fullmatch(line.rstrip("\r\n"))
        if magic is None:
            kept.append(line)
            if next_line or depth > 0:
                marked.append(len(kept))
            next_line = False
        elif magic.group(1) == "highlight-next-line":
            next_line = True
        else:
            depth = depth + 1 if magic.group(1) == "highlight-start" else max(depth - 1, 0)
    if marked:
        opts["hl_lines"] = " ".join(map(str, marked[:_MAX_MARKED]))
    return "".join(kept)


#: Token meta key: a fence's ``FenceAttributes`` (set in the Python-Markdown dialects).
FENCE_ATTRS = "sitegen_fence_attrs"
#: Token meta key: a fence's code HTML made before rendering (sitegen/docs/annotations.py),
#: published in place of highlighting the fence again.
CODE_HTML = "sitegen_code_html"


@dataclass(frozen=True)
class FenceAttributes:
    """What a fence's attribute list says besides its options: ``{ .python #example .x }``."""

    language: str
    id: str
    classes: tuple[str, ...]


def fence_attributes(info: str) -> FenceAttributes | None:
    """The attribute list of a fence's info string as pymdownx.superfences reads it: after an
    optional language word, ``{…}`` holding ``#id`` (the last one counts), ``.class`` (the
    first is the language when no word comes before the braces) and ``key="value"``
    options; None when the info string holds no such list (content/syntax/code.md#fence-attributes)."""
    start, end = info.find("{"), info.rfind("}")
    head = info[: max(start, 0)].split()
    if start < 0 or end < start or len(head) > 1 or info[end + 1 :].strip():
        return None
    try:
        stop, attrs = parse_attrs(info[start : end + 1])
    except ParseError:
        return None
    if stop != end - start:  # a second list after the first: not one attribute list
        return None
    classes = str(attrs.get("class", "")).split()
    language = head[0] if head else (classes.pop(0) if classes else "")
    return FenceAttributes(language.lower(), str(attrs.get("id", "")), tuple(classes))


def fence_attributes_rule(state: StateCore) -> None:
    """Core rule: each fence's attribute list into its token, the id among its attributes so
    that the page offers it to links (sitegen/docs/anchors.py)."""
    for token in state.tokens:
        if token.type != "fence" or "{" not in token.info:
            continue
        found = fence_attributes(unescapeAll(token.info).strip())
        if found is None:
            continue
        token.meta[FENCE_ATTRS] = found
        if found.id:
            token.attrs["id"] = found.id


def fence_language(token: Token) -> tuple[str, dict[str, str]]:
    """The language and the options of a fence, its attribute list's language first."""
    language, opts = fence_options(unescapeAll(token.info).strip())
    attributes = token.meta.get(FENCE_ATTRS)
    if isinstance(attributes, FenceAttributes):
        language = attributes.language
    return language, opts


def code_html(token: Token, env: EnvType) -> tuple[str, bool]:
    """The code of a fence that is not a diagram, as HTML: highlighted by Pygments (True)
    when its language has a lexer, else escaped in a plain ``<pre>`` (False)."""
    language, opts = fence_language(token)
    info = unescapeAll(token.info).strip()
    content = docusaurus_fence(info, token.content, opts) if is_mdx(env) else token.content
    lexer = _lexer(language) if language else None
    if lexer is None:
        return _plain(content, language), False
    return _highlighted(content, lexer, opts), True


def render_fence(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    language, opts = fence_language(token)
    if language == "mermaid":
        return _mermaid(token.content)
    made = token.meta.get(CODE_HTML)
    code = made if isinstance(made, str) else code_html(token, env)[0]
    title = opts.get("title", "")
    attributes = token.meta.get(FENCE_ATTRS)
    id_ = attributes.id if isinstance(attributes, FenceAttributes) else ""
    classes = author_classes(" ".join(attributes.classes)) if attributes else ""
    if not (title or id_ or classes):
        return code
    head = f'<div class="{" ".join(("code-block", classes)).strip()}"'
    if id_:
        head += f' id="{escapeHtml(id_)}"'
    caption = f'<p class="code-title">{escapeHtml(title)}</p>\n' if title else ""
    return f"{head}>{caption}{code}</div>\n"


def _highlighted(code: str, lexer: Lexer, opts: dict[str, str]) -> str:
    start = opts.get("linenums", "")
    formatter = _formatter(
        tuple(_marked_lines(opts.get("hl_lines", ""))),
        bool(start),
        _first_line(start),
    )
    return str(highlight(code, lexer, formatter))


def _first_line(start: str) -> int:
    """``linenums="5"``: the number of the first line; 1 for anything but 1 to 9 ASCII digits
    (``"²".isdigit()`` is true and ``int("²")`` raises)."""
    if start.isascii() and start.isdigit() and len(start) <= _MAX_DIGITS:
        return max(int(start), 1)
    return 1


@functools.lru_cache(maxsize=256)
def _formatter(marked: tuple[int, ...], numbered: bool, first: int) -> HtmlFormatter[str]:
    """One formatter per set of options: making one builds its style's class table, which
    cost more than formatting a fence (bench/README.md, "Where the time goes"). A formatter
    keeps no state between ``format`` calls, so sharing it changes no byte."""
    return HtmlFormatter(
        cssclass="highlight",
        wrapcode=True,
        hl_lines=list(marked),
        linenos="inline" if numbered else False,
        linenostart=first,
    )


def _plain(code: str, language: str) -> str:
    attr = f' class="language-{escapeHtml(language)}"' if language else ""
    return f"<pre><code{attr}>{escapeHtml(code)}</code></pre>\n"


def _mermaid(source: str) -> str:
    # Decided (content/syntax/code.md): no bundled script; the diagram's source stays
    # readable, in the element mermaid itself would draw into.
    return (
        '<figure class="diagram">\n'
        f'<pre class="mermaid"><code>{escapeHtml(source)}</code></pre>\n'
        "<figcaption>Mermaid diagram, shown as its source (sitegen publishes no "
        "JavaScript).</figcaption>\n</figure>\n"
    )


# --- math ---------------------------------------------------------------------------------

_MATH_TOKENS = ("math_inline", "math_inline_double", "math_block", "math_block_label", "amsmath")
_MATHML = "sitegen_mathml"


def math_to_mathml(state: StateCore) -> None:
    """Core rule: every formula becomes MathML here, so a bad one is reported with its line."""
    for token in state.tokens:
        if token.type in _MATH_TOKENS:
            _convert(state, token, (token.map or [0])[0], display=True)
        elif token.type == "inline" and token.children:
            line = (token.map or [0])[0]
            for child in token.children:
                if child.type in _MATH_TOKENS:
                    _convert(state, child, line, display=child.type == "math_inline_double")


#: MathML attributes that hold a URL: kept only when the URL gate allows them.
_MATH_URL_ATTRIBUTES = frozenset({"href", "src", "xlink:href", "definitionurl", "altimg"})
#: latex2mathml writes its characters as references (``&#x0003C;``) inside element text;
#: the serializer escapes their ``&``, which is put back here and nowhere else.
_CHAR_REF = re.compile(r"&amp;(#x[0-9A-Fa-f]{1,6};|#[0-9]{1,7};)")


def latex_to_mathml(latex: str, display: str) -> str:
    """MathML for ``latex`` that is markup only where latex2mathml made it.

    latex2mathml's own ``convert`` un-escapes its output, so ``\\text{<img/onerror=…>}``
    would come out as a tag. Here the tree is serialized escaped, and its attributes pass
    the rules of raw HTML: no ``style``, no handlers, no theme classes, URLs through the
    gate (content/guides/safety.md, "Links that cannot run")."""
    math = convert_to_element(latex, display=display)
    for element in math.iter():
        _clean_math_attributes(element)
    return _CHAR_REF.sub(r"&\1", tostring(math, encoding="unicode"))


def _clean_math_attributes(element: Element) -> None:
    for name, value in list(element.attrib.items()):
        lower = name.lower()
        handler_or_style = lower == "style" or lower.startswith("on")
        if handler_or_style or (lower in _MATH_URL_ATTRIBUTES and not allowed_url(value)):
            del element.attrib[name]
        elif lower == "class":
            kept = author_classes(value)
            if kept:
                element.attrib[name] = kept
            else:
                del element.attrib[name]


def _convert(state: StateCore, token: Token, line: int, display: bool) -> None:
    try:
        mathml = latex_to_mathml(token.content, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - latex2mathml raises a dozen classes, base Exception
        source = state.env.get("sitegen_source")
        index = source.line_starts[line] if source is not None else 0
        report(
            state,
            index,
            "this formula is not TeX that latex2mathml can read; it is shown as its source",
            "math",
        )
        mathml = f'<code class="math-source">{escapeHtml(token.content)}</code>'
    token.meta[_MATHML] = mathml


def render_math(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    mathml = str(token.meta.get(_MATHML, ""))
    if token.block:
        return f'<div class="math">{mathml}</div>\n'
    return mathml


def math_parens(state: StateInline, silent: bool) -> bool:
    """``\\(…\\)`` inline and ``\\[…\\]`` displayed, the LaTeX delimiters."""
    src, pos = state.src, state.pos
    if not src.startswith(("\\(", "\\["), pos):
        return False
    closer = "\\)" if src[pos + 1] == "(" else "\\]"
    end = find_closer(state, closer, pos + 2)
    if end < 0 or end == pos + 2:
        return False
    if not silent:
        token = state.push("math_inline_double" if closer == "\\]" else "math_inline", "math", 0)
        token.content, token.markup = src[pos + 2 : end], src[pos : pos + 2]
    state.pos = end + 2
    return True


def fences_plugin(md: MarkdownIt) -> None:
    md.add_render_rule("fence", render_fence)
    dollarmath_plugin(md, double_inline=True, allow_space=False, allow_digits=False)
    amsmath_plugin(md)
    md.inline.ruler.before("escape", "sitegen_math_parens", math_parens)
    md.core.ruler.after("inline", "sitegen_math", math_to_mathml)
    for name in _MATH_TOKENS:
        md.add_render_rule(name, render_math)


def fence_attributes_plugin(md: MarkdownIt) -> None:
    """Fences' attribute lists read as superfences reads them (the Python-Markdown dialects)."""
    md.core.ruler.after("inline", "sitegen_fence_attributes", fence_attributes_rule)
