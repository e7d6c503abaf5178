"""Links in a page's own HTML (``<a href>``, ``<img src>``, ``<source src>``): where each URL
stands in the file, and the HTML with each URL's placeholder in its place.

Reads the ``html_block`` and ``html_inline`` tokens markdown-it made; never decides what is
HTML (markdown-it does), what a URL resolves to (the linker does) or whether it may be
published (the URL gate does, when the emitter writes the URL).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from sitegen.docs.htmlscan import EndTag, StartTag, html_events
from sitegen.docs.positions import PLACES, InlineRule, PageText, to_place
from sitegen.docs.sanitize import MARKED, TRUSTED
from sitegen.records.pages import LinkKind

#: The attribute that holds the URL, per tag, and the kind of link it makes.
LINK_ATTRIBUTES = {
    "a": ("href", LinkKind.HTML),
    "img": ("src", LinkKind.HTML_IMAGE),
    "source": ("src", LinkKind.HTML_IMAGE),
}
#: Token meta key: the links an ``html_inline`` token holds (a list of ``HtmlLink``).
_LINKS = "sitegen_html_links"
#: HTML's whitespace, the only characters that separate a tag's attributes.
_SPACE = "\t\n\f\r "
_TAG_NAME = re.compile(r"<[^\t\n\f\r />]*")
#: One attribute of a start tag as the HTML tokenizer reads it: separators, a name (which
#: may begin with ``=``), and an optional value, quoted or not.
_ATTRIBUTE = re.compile(
    r"[\t\n\f\r /]*(?P<name>=?[^\t\n\f\r />=]*)"
    r"(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?P<value>\"[^\"]*\"|'[^']*'|[^\t\n\f\r >]*))?"
)
_CLOSE_A = re.compile(r"</a[\t\n\f\r />]", re.IGNORECASE)
#: A start tag that may hold a link: fragments without one are not parsed at all.
_LINK_TAG = re.compile(r"<(?:a|img|source)[\t\n\f\r />]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HtmlLink:
    """One link attribute in a fragment of raw HTML; indices are into the fragment."""

    kind: LinkKind
    url: str  # as a browser reads it: character references decoded
    at: int  # the URL's first character (after the opening quote)
    #: The attribute as written, with the separator before its name: what its
    #: placeholder replaces.
    span: tuple[int, int]
    attribute: str  # "href" or "src"
    label: str  # the text of an ``<a>`` (an image inside it by its alt), an image's alt
    open: bool  # an ``<a>`` whose ``</a>`` is not in the fragment


@dataclass(frozen=True, slots=True)
class RawLink:
    """A link of raw HTML found in a page: the token it is in and its index in the text."""

    token: Token
    link: HtmlLink
    index: int  # in ``PageText.text``
    label: str


class _Finder:
    """Start tags of ``LINK_ATTRIBUTES`` as a browser's tokenizer finds them (comments and
    the text of ``<script>`` and ``<style>`` hold no tags), and the text inside each ``<a>``.
    One forward pass (sitegen/docs/htmlscan.py): an unterminated ``<!--`` or tag ends the
    fragment instead of being retried at every later ``<``."""

    def __init__(self) -> None:
        self.found: list[tuple[HtmlLink, list[str]]] = []
        self.text: list[str] | None = None  # the open <a>'s text, when it has a link

    def start_tag(self, tag: StartTag, html: str) -> None:
        if tag.name == "a":
            self.text = None  # an <a> closes the one before it
        elif tag.name == "img" and self.text is not None:
            self.text.append(next((v or "" for k, v in tag.attrs if k == "alt"), ""))
        wanted = LINK_ATTRIBUTES.get(tag.name)
        if wanted is None:
            return
        text_of_tag = html[tag.start : tag.end]
        link = _link_attribute(text_of_tag, tag.start, *wanted, tag.attrs)
        if link is None:
            return
        text: list[str] = []
        if tag.name == "a":
            self.text = text
        else:
            text.append(link.label)
        self.found.append((link, text))

    def end_tag(self, name: str) -> None:
        if name == "a" and self.text is not None:
            self.text.append("\0")  # closed: nothing after this belongs to its label
            self.text = None

    def data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def html_links(html: str) -> list[HtmlLink]:
    """Every link attribute in the fragment ``html``, in order. An attribute without a value
    or with an empty one is no link; a repeated attribute counts once, as a browser reads
    only the first."""
    if _LINK_TAG.search(html) is None:
        return []
    finder = _Finder()
    for event in html_events(html):
        if isinstance(event, StartTag):
            finder.start_tag(event, html)
        elif isinstance(event, EndTag):
            finder.end_tag(event.name)
        else:
            finder.data(event.text)
    out = []
    for link, text in finder.found:
        closed = "\0" in text
        label = " ".join("".join(text).partition("\0")[0].split())
        out.append(replace(link, label=label, open=link.kind is LinkKind.HTML and not closed))
    return out


def _link_attribute(
    tag: str, start: int, wanted: str, kind: LinkKind, attrs: list[tuple[str, str | None]]
) -> HtmlLink | None:
    """The first ``wanted`` attribute of the start tag ``tag`` (written at ``start``)."""
    url = next((v for k, v in attrs if k == wanted), None)
    if url is None or not url.strip():
        return None
    name_end = _TAG_NAME.match(tag)
    pos = name_end.end() if name_end else len(tag)
    while pos < len(tag):
        found = _ATTRIBUTE.match(tag, pos)
        if found is None or not found.group("name"):
            return None
        if found.group("name").lower() == wanted:
            value = found.group("value")
            if value is None:
                return None
            quoted = value[:1] in ("'", '"')
            at = start + found.start("value") + (1 if quoted else 0)
            span = (start + pos, start + found.end("value"))
            alt = next((v or "" for k, v in attrs if k == "alt"), "")
            return HtmlLink(kind, url, at, span, wanted, " ".join(alt.split()), False)
        pos = found.end()
    return None


# --- where the links are in the page ------------------------------------------------------


def recording_html(rule: InlineRule) -> InlineRule:
    """Wrap the ``html_inline`` rule so that a tag holding a link knows where its URLs are in
    the inline content (``parse_inlines`` then maps them to the page's text)."""

    def record(state: StateInline, silent: bool) -> bool:
        start = state.pos
        if not rule(state, silent):
            return False
        if not silent:
            token = state.tokens[-1]
            found = html_links(token.content)
            if found:
                token.meta[_LINKS] = found
                to_place(state, token, [start + link.at for link in found])
        return True

    return record


def made_links(token: Token) -> int:
    """Record the links of ``token``'s HTML, which sitegen made from a project's template (a
    shortcode's output: sitegen/docs/shortcodes.py), as a page's own HTML's are; how many.
    Their place in the page is the caller's to set: ``PLACES`` of a block, ``to_place``
    in an inline rule (every link at the shortcode's place)."""
    found = html_links(token.content)
    if found:
        token.meta[_LINKS] = found
    return len(found)


def raw_links(
    tokens: Sequence[Token], source: PageText, inline_label: Callable[[Sequence[Token]], str]
) -> list[RawLink]:
    """Every link in the page's own HTML, in token order. ``inline_label`` gives the label of
    an inline ``<a>`` from the tokens between it and its ``</a>``."""
    out: list[RawLink] = []
    for token in tokens:
        if token.type == "html_block" and not token.meta.get(TRUSTED):
            out.extend(_block_links(token, source))
        elif token.type == "html_block" and token.meta.get(_LINKS):  # a shortcode's (made_links)
            places = token.meta.get(PLACES) or [0] * len(token.meta[_LINKS])
            out.extend(
                RawLink(token, link, place, link.label)
                for link, place in zip(token.meta[_LINKS], places, strict=True)
            )
        elif token.type == "inline" and token.children and "<" in token.content:
            out.extend(_inline_links(token, source, inline_label))
    return out


def _block_links(token: Token, source: PageText) -> Iterator[RawLink]:
    """An HTML block's lines are its source lines' ends (container markers and indentation
    stripped): a URL's index is found from the end of its line."""
    found = html_links(token.content)
    if not found or token.map is None:
        return
    content = token.content
    starts = [0] + [m.end() for m in re.finditer("\n", content)]
    for link in found:
        k = bisect_right(starts, link.at) - 1
        line = token.map[0] + k
        end = content.find("\n", link.at)
        rest = content[link.at : len(content) if end < 0 else end]
        line_end = source.line_end(line) if line < len(source.line_starts) else len(source.text)
        index = line_end - len(rest)
        if not source.text.startswith(rest, index):
            index = source.line_starts[min(line, len(source.line_starts) - 1)]
        yield RawLink(token, link, index, link.label)


def _inline_links(
    token: Token, source: PageText, inline_label: Callable[[Sequence[Token]], str]
) -> Iterator[RawLink]:
    children = token.children or []
    fallback = source.line_starts[(token.map or [0])[0]]
    for j, child in enumerate(children):
        found: list[HtmlLink] | None = child.meta.get(_LINKS) if child.meta else None
        if not found or child.type != "html_inline":
            continue
        places = child.meta.get(PLACES) or [None] * len(found)
        for link, place in zip(found, places, strict=True):
            label = link.label
            if link.open:
                label = _inline_label(children, j + 1, inline_label)
            yield RawLink(child, link, fallback if place is None else place, label)


def _inline_label(
    children: Sequence[Token], start: int, inline_label: Callable[[Sequence[Token]], str]
) -> str:
    """The text of the tokens from ``start`` to the ``</a>`` (or the end), an image of raw
    HTML counting as its alt, as a markdown image does."""
    parts = []
    for token in children[start:]:
        if token.type != "html_inline":
            parts.append(inline_label([token]))
        elif _CLOSE_A.match(token.content + " "):
            break
        else:
            found: list[HtmlLink] = token.meta.get(_LINKS) or []
            parts.extend(link.label for link in found if link.kind is LinkKind.HTML_IMAGE)
    return " ".join("".join(parts).split())


def mark_urls(token: Token, marks: list[tuple[HtmlLink, str]]) -> None:
    """Put each link's placeholder (``marks``: every link of the token) in place of its
    attribute, in the HTML the renderer publishes (``MARKED``); the token's own text stays
    as the author wrote it, for the escaped view."""
    html = token.content
    for link, mark in sorted(marks, key=lambda m: m[0].at, reverse=True):
        start, end = link.span
        html = f'{html[:start]} {link.attribute}="{mark}"{html[end:]}'
    token.meta[MARKED] = html
