"""Include and directive syntaxes of other generators that sitegen does not run, a project
hook's shortcodes and a page's own template: each kind found is a warning at its first line,
never silent raw text (content/syntax/unsupported.md).

A core rule after the inline parse (code spans are not text, so they are not scanned) over
paragraphs, HTML blocks and fences; it never changes what is rendered.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from sitegen.docs.blocks import report
from sitegen.docs.components import component_names
from sitegen.docs.mdx import ENV_DIALECT, ENV_PARTIALS, LOST_URLS, is_mdx
from sitegen.docs.positions import ENV_SOURCE, PageText
from sitegen.docs.sanitize import TRUSTED
from sitegen.docs.shortcodes import SHORTCODE, shortcode_text
from sitegen.generators import Dialect

#: (pattern, what it is) for text in paragraphs; each is one kind, warned once per page.
_IN_TEXT = (
    (
        re.compile(r"\{%-?\s*(include|include_relative|include_cached)\b[^%]*%\}"),
        "the Liquid/Jinja include '{text}' (Jekyll, mkdocs-macros) is not run; it is shown as text",
    ),
    (
        re.compile(r"\{%-?\s*(?!-?\s*(?:include|include_relative|include_cached)\b)[^%\n]*%\}"),
        "the template tag '{text}' (Jinja, Liquid, mkdocs-macros) is not run; it is shown as text",
    ),
    (
        re.compile(r"\{\{[^{}\n]*\}\}"),
        "the template expression '{text}' (Vue, Jinja, mkdocs-macros) is not evaluated; "
        "it is shown as text",
    ),
    (
        re.compile(r"\{\*[^\n]*?\*\}"),
        "the include '{text}' (a project's own markdown extension) is not run; it is shown as text",
    ),
    (
        re.compile(r"\{!\s*[^!{}]+?\s*!\}"),
        "the markdown-include '{text}' is not run; it is shown as text",
    ),
    (
        re.compile(r"^\s*:{3,}\s*\{[A-Za-z][\w:-]*\}.*$", re.MULTILINE),
        "the MyST directive '{text}' is not supported; it is shown as text",
    ),
    (
        re.compile(r"^\s*-{1,2}8<-{1,2}\s.*$", re.MULTILINE),
        (
            "the pymdownx snippet '{text}' is not included: sitegen includes the one-line form "
            '--8<-- "file" (content/syntax/snippets.md); it is shown as text'
        ),
    ),
)
_IN_HTML = (
    (
        re.compile(r"<!--\s*@?include[:\s][^>]*-->", re.IGNORECASE),
        "the include comment '{text}' (VitePress, markdown-include) is not run; nothing is included",
    ),
    _IN_TEXT[1],  # {% for %} around HTML (mkdocs-macros)
    _IN_TEXT[2],  # {{ }} in a Vue or Jinja template
)
#: In MDX, ``{…}`` in text is an expression (``{{…}}`` in a tag is a style object, not a
#: template): the Vue/Jinja reading of braces gives way to this one.
_MDX_EXPRESSION = (
    re.compile(r"\{(?![#/.:])[^{}\n]*\}"),
    "the MDX expression '{text}' is not evaluated; it is shown as text",
)
_IN_MDX_TEXT = (*_IN_TEXT[:2], _MDX_EXPRESSION, *_IN_TEXT[3:])
#: Where the project enables include variants, a ``{* *}`` line is read (sitegen/docs/
#: variants.py); one left in the text was not written as the extension reads it.
_NOT_A_VARIANTS_LINE = (
    _IN_TEXT[3][0],
    "the include '{text}' is not read: markdown-include-variants reads it alone on its line, "
    "from the line's first column (content/syntax/include-variants.md); it is shown as text",
)
_IN_VARIANTS_TEXT = (*_IN_TEXT[:3], _NOT_A_VARIANTS_LINE, *_IN_TEXT[4:])
#: ``template: home.html`` in an MkDocs page's front matter (a top-level key).
_TEMPLATE_KEY = re.compile(r"^template[ \t]*:[ \t]*(?P<name>[^\s#][^\n]*)$", re.MULTILINE)
_IN_MDX_HTML = _IN_HTML[:2]
_MYST_FENCE = re.compile(r"\{[A-Za-z][\w:-]*\}")
#: Containers whose content is shown as written, with no template meaning (VitePress).
_AS_WRITTEN = ("container_v-pre_open", "container_v-pre_close")


class _Found:
    """The syntaxes found on one page: the first place of each kind, and how many more."""

    def __init__(self) -> None:
        self.first: dict[str, tuple[int, str, str]] = {}
        self.more: dict[str, int] = {}

    def add(self, kind: str, index: int, message: str, code: str = "unsupported-syntax") -> None:
        if kind in self.first:
            self.more[kind] = self.more.get(kind, 0) + 1
        else:
            self.first[kind] = (index, message, code)

    def report(self, state: StateCore) -> None:
        for kind, (index, message, code) in self.first.items():
            more = self.more.get(kind, 0)
            said = f"{message} ({more} more on this page)" if more else message
            report(state, index, said, code)


def report_unsupported(state: StateCore) -> None:
    """One warning per kind of syntax and page, at its first place, saying how many more."""
    source = state.env.get(ENV_SOURCE)
    if not isinstance(source, PageText):
        return
    found = _Found()
    as_written = 0
    mdx = _MdxComponents(state.env) if is_mdx(state.env) else None
    dialect = state.env.get(ENV_DIALECT)
    mkdocs = isinstance(dialect, Dialect) and bool(dialect & Dialect.PYTHON_MARKDOWN)
    variants = isinstance(dialect, Dialect) and bool(dialect & Dialect.INCLUDE_VARIANTS)
    in_text = _IN_MDX_TEXT if mdx is not None else _IN_VARIANTS_TEXT if variants else _IN_TEXT
    if mkdocs and state.tokens and state.tokens[0].type == "front_matter":
        _template(found, source, state.tokens[0])
    for token in state.tokens:
        if token.type == "mdx_component_open" and mdx is not None:
            mdx.add(found, token.meta["tag"].start, token.meta["tag"].name)
            continue
        if token.type in _AS_WRITTEN:
            as_written += 1 if token.nesting == 1 else -1
        if not token.map or as_written > 0:
            continue
        if token.type == "inline" and token.children:
            _scan(found, source, token.map, in_text, _text_of(token.children))
        elif token.type == "html_block" and not token.meta.get(TRUSTED):  # a shortcode's is not
            _scan(found, source, token.map, _IN_HTML if mdx is None else _IN_MDX_HTML)
            _components(found, source, source.line_starts[token.map[0]], token.content, mdx)
        if token.type == "inline":
            for child in token.children or ():
                at = source.line_starts[token.map[0]]
                if child.type == "html_inline" and not child.meta.get(TRUSTED):
                    _components(found, source, at, child.content, mdx)
                    _lost_urls(found, source, at, child.meta.get(LOST_URLS))
                if mkdocs and (text := _shortcode_of(child)) is not None:
                    _shortcode(found, source, at, text)
        elif token.type == "fence" and _MYST_FENCE.match(token.info.strip()):
            written = f"```{token.info.strip()}"
            found.add(
                "myst-fence",
                source.line_starts[token.map[0]],
                f"the MyST directive '{written}' is not supported; it is shown as code",
            )
    found.report(state)


class _MdxComponents:
    """The warnings for the components of a page read as MDX (content/syntax/docusaurus.md):
    one per name, as MDX components; one imported from a markdown file is a partial."""

    def __init__(self, env: MutableMapping[str, Any]) -> None:
        partials = env.get(ENV_PARTIALS)
        self.partials: dict[str, str] = partials if isinstance(partials, dict) else {}

    def add(self, found: _Found, index: int, name: str) -> None:
        path = self.partials.get(name)
        if path is not None:
            message = (
                f"the MDX partial <{name}> (imported from '{path[:120]}') is not included; "
                "nothing is shown in its place"
            )
        else:
            message = (
                f"the MDX component <{name}> is not run; its content and its title or text "
                "are kept, the rest of what it renders is not"
            )
        found.add(f"component:{name}", index, message, "mdx-component")


def _components(
    found: _Found, source: PageText, start: int, html: str, mdx: _MdxComponents | None = None
) -> None:
    """A Vue component (an MDX one in MDX), one kind per name: its first tag, found from
    ``start`` on."""
    for _, name in component_names(html):
        at = source.text.find(f"<{name}", start)
        if mdx is not None:
            mdx.add(found, at if at >= 0 else start, name)
            continue
        found.add(
            f"component:{name}",
            at if at >= 0 else start,
            f"the Vue component <{name}> is not run; its text is kept, its other content is not",
        )


def _lost_urls(found: _Found, source: PageText, start: int, lost: object) -> None:
    """``<img src={require('./a.png').default} />``: the address is an expression."""
    for text in lost if isinstance(lost, list) else ():
        at = source.text.find(text, start)
        found.add(
            f"lost-url:{text}",
            at if at >= 0 else start,
            f"the MDX expression '{str(text)[:80]}' gives a tag its address; it is not "
            "evaluated, so the tag has none (write the path as a string)",
        )


def _shortcode_of(child: Token) -> str | None:
    """The text of a shortcode comment, whether sitegen/docs/shortcodes.py has made it code
    yet or not (the core rules' order is the registration's)."""
    if child.type == "code_inline" and child.meta.get(SHORTCODE):
        return child.content
    if child.type == "html_inline" and child.content.startswith("<!--"):
        return shortcode_text(child.content)
    return None


def _shortcode(found: _Found, source: PageText, start: int, text: str) -> None:
    """``<!-- md:option x -->``: a project's hook expands it, sitegen shows its text
    (sitegen/docs/shortcodes.py); one kind for all of a page's shortcodes."""
    at = source.text.find(text, start)
    opener = source.text.rfind("<!--", start, at) if at >= 0 else -1
    found.add(
        "shortcode",
        opener if opener >= 0 else start,
        f"the shortcode '<!-- {text[:80]} -->' is expanded by the project's own MkDocs hook, "
        "which sitegen does not run; it is shown as its text",
    )


def _template(found: _Found, source: PageText, front: Token) -> None:
    """``template: home.html`` in an MkDocs page's front matter: a template of the project's
    theme, which sitegen does not have; the page's markdown is shown as any page's."""
    key = _TEMPLATE_KEY.search(front.content)
    if key is None or front.map is None:
        return
    at = source.text.find("template", source.line_starts[front.map[0]])
    name = key.group("name").strip().strip("\"'")[:80]
    found.add(
        "template",
        at if at >= 0 else 0,
        f"the page asks for the template '{name}' of the project's theme, which sitegen does "
        "not have; its markdown is shown in sitegen's page layout",
    )


def _text_of(children: list[Token]) -> str:
    """The plain text of inline content (code spans and HTML left out), lines kept."""
    return "".join(
        c.content if c.type == "text" else "\n"
        for c in children
        if c.type in ("text", "softbreak", "hardbreak")
    )


def _scan(
    found: _Found,
    source: PageText,
    lines: list[int],
    patterns: tuple[tuple[re.Pattern[str], str], ...],
    text: str | None = None,
) -> None:
    """Add each match in ``text`` (default: the source lines), placed at its first
    occurrence in the lines."""
    start = source.line_starts[lines[0]]
    stop = source.line_end(max(lines[1] - 1, lines[0]))
    for pattern, message in patterns:
        cursor = start
        for match in pattern.finditer(
            source.text if text is None else text, *((start, stop) if text is None else ())
        ):
            written = match.group(0).strip()
            at = source.text.find(written, cursor, stop)
            cursor = at + len(written) if at >= 0 else cursor
            if at > 0 and source.text[at - 1] == "\\":
                continue  # escaped by its author, meant to be shown: \{!file!}
            found.add(message, at if at >= 0 else start, message.format(text=written[:80]))
