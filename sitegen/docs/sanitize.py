"""Raw HTML in pages: sanitized on GitHub's allow-list model (nh3), escaped, or let through.

Only the author's HTML (markdown-it's ``html_block`` and ``html_inline`` tokens) is cleaned;
what sitegen renders itself is left byte for byte as markdown-it renders it. This module
never decides what is HTML (markdown-it does) and never lets a raw tag through unchecked
in the default mode (content/guides/site.md, "Raw HTML").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from sitegen.base.urlgate import HREF_ONLY_SCHEMES, LINK_SCHEMES, allowed_url
from sitegen.docs.components import components_as_text


class RawHtml(StrEnum):
    """The ``raw_html`` option."""

    SANITIZE = "sanitize"  # the allow-list below; the default
    ESCAPE = "escape"  # shown as text
    ALLOW = "allow"  # published as written (the build says so)


#: Key in ``env`` of the page's ``RawHtml`` mode.
ENV_RAW_HTML = "sitegen_raw_html"
#: Token meta key: an ``html_inline``/``html_block`` token sitegen made itself (a permalink).
TRUSTED = "sitegen_trusted"
#: Token meta key: the author's HTML with each link's URL replaced by its placeholder
#: (sitegen/docs/rawlinks.py); published in its place, and cleaned in its place. Shown as
#: text, the HTML is the author's own.
MARKED = "sitegen_marked"
_RAW = ("html_block", "html_inline")
#: Attribute of a core rule's function that trusts the HTML it makes: the rule's name.
_TRUSTING = "sitegen_trusts"

#: GitHub's allow-list (html-pipeline's sanitization filter), minus what needs its CSS.
TAGS = {
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "blockquote",
    "br",
    "caption",
    "cite",
    "code",
    "col",
    "colgroup",
    "dd",
    "del",
    "details",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "picture",
    "pre",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "tt",
    "u",
    "ul",
    "var",
    "wbr",
}
#: Attributes per tag. ``id`` and ``a name`` stay as written: links reach them as anchors.
#: No ``style``, no event handlers, no ``rel``/``target`` (nothing the author sets opens a
#: window), no ``name`` but on links (on images and forms it overwrites document properties).
ATTRIBUTES = {
    "*": {"id", "class", "title", "lang", "dir", "align", "aria-label", "aria-hidden"},
    "a": {"href", "name"},
    "img": {"src", "srcset", "alt", "width", "height", "loading"},
    "source": {"srcset", "media", "type", "width", "height"},
    "picture": set(),
    "ol": {"start", "type", "reversed"},
    "li": {"value"},
    "td": {"colspan", "rowspan", "headers"},
    "th": {"colspan", "rowspan", "headers", "scope", "abbr"},
    "col": {"span"},
    "colgroup": {"span"},
    "details": {"open"},
    "del": {"cite", "datetime"},
    "ins": {"cite", "datetime"},
    "q": {"cite"},
    "blockquote": {"cite"},
    "time": {"datetime"},
}
#: Schemes nh3 lets through; each URL then passes the one gate, ``sitegen.base.urlgate``
#: (``data:`` only for images, ``obsidian:`` only for an href, see ``_keep_attribute``).
URL_SCHEMES = LINK_SCHEMES | HREF_ONLY_SCHEMES | {"data"}
_URL_ATTRIBUTES = {"href", "src", "cite", "srcset"}
#: Stands for sitegen's own markup while the author's is cleaned (see ``_clean_frame``).
_MARK = "\ue000"
_MARKS = re.compile("[\ue000\ue001]")
_PLACED = re.compile("\ue000&lt;([0-9]+)\ue001")
_CSS_CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")


@lru_cache(maxsize=1)
def theme_classes() -> frozenset[str]:
    """The classes of sitegen's own stylesheet: an author's HTML may not borrow them."""
    css = resources.files("sitegen.templates").joinpath("style.css").read_text(encoding="utf-8")
    return frozenset(_CSS_CLASS.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)))


def author_classes(value: str) -> str:
    """The classes of ``value`` that an author may give an element: all but the theme's own,
    so that no content takes the theme's layout or behaviour ("" when none is left). The one
    rule for raw HTML, attribute lists and MathML (content/guides/safety.md)."""
    return " ".join(name for name in value.split() if name not in theme_classes())


def _keep_attribute(tag: str, attribute: str, value: str) -> str | None:
    if _MARK in value or "\ue001" in value:  # a placeholder inside a tag: not text, drop it
        return _MARKS.sub("", value)
    if attribute == "class":
        return author_classes(value) or None
    if attribute in _URL_ATTRIBUTES:
        # a srcset is a list; each candidate is checked as the URL a browser would read
        urls = value.split(",") if attribute == "srcset" else [value]
        image = tag in ("img", "source") and attribute in ("src", "srcset")
        href = attribute == "href"
        return value if all(allowed_url(u, image=image, href=href) for u in urls) else None
    return value


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        attribute_filter=_keep_attribute,
        link_rel=None,
        strip_comments=True,
    )


def sanitize(html: str) -> str:
    """``html`` with everything the allow-list does not name removed (tags closed)."""
    return _cleaner().clean(html)


def escape_raw(html: str, block: bool) -> str:
    """Raw HTML shown as text: a block becomes a paragraph of it."""
    return f"<p>{escapeHtml(html.rstrip())}</p>\n" if block else escapeHtml(html)


def trust_core_rule(md: MarkdownIt, name: str) -> None:
    """The HTML tokens that core rule ``name`` of ``md`` makes are sitegen's own (a plugin's
    task-list checkboxes), not the author's: they are rendered as they are. Called for each
    rule a syntax declares ``trusted`` (sitegen/docs/registry.py), and nowhere else."""
    rule = next(r for r in md.core.ruler.__rules__ if r.name == name)
    made_by_plugin = rule.fn

    def trusting(state: StateCore) -> None:
        before = {id(t) for t in _html_tokens(state.tokens)}
        made_by_plugin(state)
        for token in _html_tokens(state.tokens):
            if id(token) not in before:
                token.meta[TRUSTED] = True

    setattr(trusting, _TRUSTING, name)
    md.core.ruler.at(name, trusting)


def trusted_core_rules(md: MarkdownIt) -> frozenset[str]:
    """The core rules of ``md`` whose HTML tokens are trusted (``trust_core_rule``)."""
    return frozenset(
        rule.name for rule in md.core.ruler.__rules__ if getattr(rule.fn, _TRUSTING, None)
    )


def _html_tokens(tokens: Sequence[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.type in _RAW:
            yield token
        elif token.children:
            yield from (child for child in token.children if child.type in _RAW)


# --- rendering ----------------------------------------------------------------------------


class _Raw:
    __slots__ = ("block", "html", "text")

    def __init__(self, token: Token) -> None:
        #: What is published (links placeholdered) and what is shown as text (as written).
        # a Vue component is its text in a span (sitegen/docs/components.py)
        self.html = components_as_text(token.meta.get(MARKED, token.content))
        self.text = token.content
        self.block = token.type == "html_block"


_Piece = str | _Raw


def _is_raw(token: Token) -> bool:
    return token.type in _RAW and not token.meta.get(TRUSTED)


def has_raw_html(tokens: Sequence[Token]) -> bool:
    return any(
        _is_raw(t) or (t.type == "inline" and any(map(_is_raw, t.children or ()))) for t in tokens
    )


class SafeRenderer(RendererHTML):
    """markdown-it's renderer, with the author's HTML cleaned as ``env`` asks.

    A page without raw HTML renders exactly as before. Otherwise each container (the page,
    a list item, a quote, a paragraph, a link...) is cleaned as one fragment in which
    sitegen's markup stands as placeholders: a ``<details>`` opened in one HTML block and
    closed in another keeps the markdown between them inside, and a tag left open is
    closed where its container ends. Each raw byte goes through nh3 once: linear.
    """

    def render(self, tokens: Sequence[Token], options: OptionsDict, env: Any) -> str:
        mode = env.get(ENV_RAW_HTML, RawHtml.SANITIZE) if isinstance(env, dict) else None
        if mode is None or mode == RawHtml.ALLOW or not has_raw_html(tokens):
            return super().render(tokens, options, env)
        return self._render_frames(tokens, options, env, RawHtml(mode))

    def _render_frames(
        self, tokens: Sequence[Token], options: OptionsDict, env: Any, mode: RawHtml
    ) -> str:
        """One list of pieces for the whole sequence; a container is cleaned (and its pieces
        replaced by the result) only if raw HTML sits right inside it, so markup without
        raw HTML is never copied once per level of nesting."""
        out: list[_Piece] = []
        open_: list[tuple[int, list[bool]]] = []  # where each container starts; raw inside?
        for i, token in enumerate(tokens):
            if _is_raw(token):
                out.append(_Raw(token))
                if open_:
                    open_[-1][1][0] = True
            elif token.type == "inline":
                out.append(self._render_frames(token.children or [], options, env, mode))
            elif token.nesting == -1 and open_:
                _close_container(out, *open_.pop(), mode)
                out.append(self._render_one(tokens, i, options, env))
            else:
                out.append(self._render_one(tokens, i, options, env))
                if token.nesting == 1:
                    open_.append((len(out), [False]))
        while open_:  # unbalanced tokens: close what is still open
            _close_container(out, *open_.pop(), mode)
        return _close(out, mode)

    def html_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: Any) -> str:
        return str(tokens[idx].meta.get(MARKED, tokens[idx].content))

    html_inline = html_block

    def _render_one(self, tokens: Sequence[Token], i: int, options: OptionsDict, env: Any) -> str:
        rule = self.rules.get(tokens[i].type)
        if rule is not None:
            return str(rule(tokens, i, options, env))
        return self.renderToken(tokens, i, options, env)


def _close_container(out: list[_Piece], start: int, has_raw: list[bool], mode: RawHtml) -> None:
    if has_raw[0]:
        out[start:] = [_close(out[start:], mode)]


def _close(pieces: list[_Piece], mode: RawHtml) -> str:
    if not any(isinstance(p, _Raw) for p in pieces):
        return "".join(p for p in pieces if isinstance(p, str))
    if mode == RawHtml.SANITIZE:
        cleaned = _clean_frame(pieces)
        if cleaned is not None:
            return cleaned
    return "".join(escape_raw(p.text, p.block) if isinstance(p, _Raw) else p for p in pieces)


def _clean_frame(pieces: list[_Piece]) -> str | None:
    """Clean the raw pieces as one fragment, sitegen's markup standing as placeholders.

    A placeholder is text, so nh3 keeps it where text may be. One that does not come back
    exactly once as text (it fell inside a tag, a comment or a script) means the raw HTML
    around it is broken: the caller then shows that HTML as text instead (None).
    """
    runs: list[list[str]] = []  # sitegen's markup, each run of it one placeholder
    parts: list[str] = []
    for piece in pieces:
        if isinstance(piece, _Raw):
            parts.append(_MARKS.sub("\ufffd", piece.html))
        elif parts and parts[-1] == _mark(len(runs) - 1):  # next to the last run
            runs[-1].append(piece)
        else:
            parts.append(_mark(len(runs)))
            runs.append([piece])
    cleaned = sanitize("".join(parts))
    found = sorted(int(m.group(1)) for m in _PLACED.finditer(cleaned))
    if found != list(range(len(runs))) or cleaned.count(_MARK) != len(runs):
        return None
    ours = ["".join(run) for run in runs]
    return _PLACED.sub(lambda m: ours[int(m.group(1))], cleaned)


def _mark(index: int) -> str:
    return f"{_MARK}<{index}\ue001"
