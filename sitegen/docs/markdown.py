"""Extraction of one markdown page: title, headings, links with exact positions, relations, HTML.

``extract_page`` is a pure function of a page's bytes, with one parse for extraction and
rendering. It never touches the file system and never resolves a link (the linker does).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import threading
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markdown_it.utils import EnvType

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.urlgate import allowed_url, as_read
from sitegen.docs.anchors import page_anchors
from sitegen.docs.blocks import name_tabs
from sitegen.docs.emoji import icon_sets_key
from sitegen.docs.frontmatter import FrontMatter, parse_front_matter, relations
from sitegen.docs.gates import RuleGates
from sitegen.docs.mdx import ENV_DIALECT
from sitegen.docs.nesting import TOO_DEEP, too_deep_message
from sitegen.docs.positions import (
    ENV_SOURCE,
    KIND,
    POS,
    SOURCE,
    PageText,
)
from sitegen.docs.rawlinks import HtmlLink, RawLink, mark_urls, raw_links
from sitegen.docs.registry import SYNTAXES, Installed, Syntax, install_syntaxes, syntaxes_key
from sitegen.docs.sanitize import (
    ENV_RAW_HTML,
    TRUSTED,
    RawHtml,
    SafeRenderer,
)
from sitegen.docs.shortcode_templates import Shortcodes
from sitegen.docs.shortcodes import ENV_SHORTCODES, page_key
from sitegen.docs.slug import slugger
from sitegen.docs.syntax import ENV_PROBLEMS, take_trailing_attrs
from sitegen.docs.toc import MAX_TABLES, TocEntry, fill_tables
from sitegen.generators import Dialect, SlugStyle
from sitegen.records.pages import IMAGE_KINDS, Heading, Link, PageRecord

#: Destinations that markdown-it's normalization leaves as they are (when not ``//host``).
_PLAIN_DESTINATION = re.compile(r"[A-Za-z0-9/._~#-]*")


class _Markdown(MarkdownIt):
    """markdown-it, with link normalization skipped where it changes nothing.

    Normalizing (parse, punycode, percent-encode, format) costs about as much as the rest
    of a link; most destinations in docs are plain relative paths, and many repeat.
    """

    #: The rules switched per page by their markers (sitegen/docs/gates.py); set once built.
    gates: RuleGates | None = None
    #: Which syntax owns each of its rules (sitegen/docs/registry.py); set once built.
    installed: Installed | None = None

    def parse(self, src: str, env: EnvType | None = None) -> list[Token]:
        if self.gates is not None:
            self.gates.fit(src)
        return super().parse(src, env)

    def normalizeLink(self, url: str) -> str:
        if _PLAIN_DESTINATION.fullmatch(url) and not url.startswith("//"):
            return url
        return _normalize_link(url)


@lru_cache(maxsize=4096)
def _normalize_link(url: str) -> str:
    return normalizeLink(url)


def _build_parser(dialect: Dialect = Dialect.NONE, extra: Sequence[Syntax] = ()) -> _Markdown:
    """A new parser of pages written in ``dialect``: every syntax of the registry that the
    dialect asks for (sitegen/docs/registry.py), then the ``extra`` ones (the plugins'), its
    rules gated by their markers. Raises ``SyntaxInstallError`` when one cannot be installed."""
    md = _Markdown("commonmark", renderer_cls=SafeRenderer)
    md.installed = install_syntaxes(md, dialect, (*SYNTAXES, *extra))
    md.gates = RuleGates.of(md, md.installed.gates)
    return md


#: Built once per process: building costs more than parsing a page.
MARKDOWN = _build_parser()
#: The parser of each other dialect and set of extra syntaxes, built the first time a page
#: is read with them.
_PARSERS: dict[tuple[Dialect, tuple[tuple[str, str], ...]], _Markdown] = {}


def parser_for(dialect: Dialect, extra: tuple[Syntax, ...] = ()) -> MarkdownIt:
    """The parser of ``dialect`` with the ``extra`` syntaxes, built once per process and
    cached by the dialect and the extra syntaxes' names and versions (``syntaxes_key``).
    Raises ``SyntaxInstallError`` when one of ``extra`` cannot be installed (nothing is
    cached then)."""
    return _parser(dialect, extra)


def _parser(dialect: Dialect, extra: Sequence[Syntax] = ()) -> _Markdown:
    """The parser of ``dialect``: MARKDOWN, or one of its own built once (Obsidian's syntaxes
    are always read, so its flag alone needs no parser of its own)."""
    key = dialect & ~Dialect.OBSIDIAN
    if key == Dialect.NONE and not extra:
        return MARKDOWN
    cache_key = (key, syntaxes_key(extra))
    if cache_key not in _PARSERS:
        _PARSERS[cache_key] = _build_parser(key, extra)
    return _PARSERS[cache_key]


#: One page at a time through MARKDOWN: its rule gates are switched per page, and `sitegen
#: serve` extracts a saved page for its preview while a build runs in another thread
#: (content/guides/site.md, "Serve"). A forked worker starts with a lock of its own.
class _Parsing:
    lock = threading.Lock()

    @classmethod
    def fresh(cls) -> None:
        cls.lock = threading.Lock()


os.register_at_fork(after_in_child=_Parsing.fresh)


@dataclass
class _HeadingToken:
    open: Token
    inline: Token
    offset: int
    line: int
    raw_text: str  # plain text as GitHub slugs it (a soft break is a newline)


def extract_page(
    path: str,
    data: bytes,
    raw_html: RawHtml = RawHtml.SANITIZE,
    slugs: SlugStyle = SlugStyle.GITHUB,
    dialect: Dialect = Dialect.NONE,
    extra: tuple[Syntax, ...] = (),
    shortcodes: Shortcodes | None = None,
) -> PageRecord:
    """Everything extraction knows about the page ``path`` whose bytes are ``data``.

    ``raw_html`` says what becomes of the page's own HTML in ``html`` (the ``raw_html``
    option), ``slugs`` how heading ids are made (the ``slugs`` option), ``dialect`` what
    the page is read as besides (the generator record's, content/syntax/docusaurus.md),
    ``extra`` the syntaxes installed besides the registry's (the plugins',
    content/syntax/index.md), ``shortcodes`` the project's (content/syntax/shortcodes.md).
    The record's ``content_hash`` is ``record_key`` of the bytes' hash, ``slugs``,
    ``dialect`` and ``extra``, and of the shortcodes when the page may call one
    (``page_key``). Raises ``SyntaxInstallError`` when one of ``extra`` cannot be installed.
    """
    source = PageText(data)
    diagnostics = _utf8_diagnostics(path, source)
    env: dict[str, object] = {ENV_SOURCE: source, ENV_RAW_HTML: raw_html, ENV_DIALECT: dialect}
    if shortcodes is not None:
        env[ENV_SHORTCODES] = shortcodes
    parser = _parser(dialect, extra)
    with _Parsing.lock:
        tokens = parser.parse(source.text, env)
    front = _front_matter(tokens, path)
    rels, rel_problems = relations(front.data, front.key_lines, path)
    headings, id_problems = _headings(tokens, source, path, slugs)
    name_tabs(tokens, dialect)  # after the headings: pymdownx may put their ids in a tab's
    content_hash = page_key(
        record_key(hashlib.sha256(data).hexdigest(), slugs, dialect, extra), data, shortcodes
    )
    link_mark = f"sglink-{content_hash[:16]}-"
    links = _links(tokens, source, headings, link_mark)
    with _Parsing.lock:
        html = parser.renderer.render(tokens, parser.options, env)
    return PageRecord(
        path=path,
        content_hash=content_hash,
        title=_title(front, headings, path),
        front_matter=front.data,
        headings=headings,
        links=links,
        relations=rels,
        html=html,
        link_mark=link_mark,
        raw_html=str(raw_html),
        diagnostics=diagnostics
        + front.diagnostics
        + rel_problems
        + id_problems
        + _nesting_diagnostics(path, source, env)
        + _syntax_problems(path, source, env),
        anchors=page_anchors(tokens),
    )


def record_key(
    content_hash: str,
    slugs: SlugStyle,
    dialect: Dialect = Dialect.NONE,
    extra: Sequence[Syntax] = (),
) -> str:
    """The key a page's record is cached and reused under: the hash of its bytes, and for a
    slug style other than GitHub's, of the style too, since the ids and the HTML follow it
    (a record extracted under another style is then extracted again); likewise for a
    dialect other than none (a page read as MDX is another record than the same bytes read
    as markdown), and for the ``extra`` syntaxes' names and versions (a plugin's syntax, or
    its new version, reads every page again: content/syntax/index.md)."""
    if slugs == SlugStyle.GITHUB and dialect == Dialect.NONE and not extra:
        return content_hash
    key = f"{content_hash}\0slugs={slugs}"
    if dialect != Dialect.NONE:
        key += f"\0dialect={dialect.value}"
    if dialect & Dialect.ICONS:  # icons come from the installed theme (content/syntax/emoji.md)
        key += f"\0icons={icon_sets_key()}"
    for name, version in syntaxes_key(extra):
        key += f"\0syntax={name}@{version}"
    return hashlib.sha256(key.encode()).hexdigest()


def _nesting_diagnostics(path: str, source: PageText, env: dict[str, object]) -> list[Diagnostic]:
    starts = env.get(TOO_DEEP)
    if not isinstance(starts, list):
        return []
    return [
        Diagnostic(path, at.line, at.column, Level.WARNING, too_deep_message(), "nesting")
        for at in map(source.position, starts)
    ]


def _syntax_problems(path: str, source: PageText, env: dict[str, object]) -> list[Diagnostic]:
    """What the syntax plugins reported (content/syntax/unsupported.md), at its place."""
    found = env.get(ENV_PROBLEMS)
    if not isinstance(found, list):
        return []
    out = []
    for index, message, code in sorted(set(found)):
        at = source.position(max(index, 0))
        out.append(Diagnostic(path, at.line, at.column, Level.WARNING, message, code))
    return out


def _utf8_diagnostics(path: str, source: PageText) -> list[Diagnostic]:
    if source.bad_byte is None:
        return []
    at = source.byte_position(source.bad_byte)
    return [
        Diagnostic(
            path,
            at.line,
            at.column,
            Level.WARNING,
            "the file is not valid UTF-8; each byte that is not is shown as U+FFFD. "
            "Save it as UTF-8 to fix this.",
            "utf8",
        )
    ]


def _front_matter(tokens: Sequence[Token], path: str) -> FrontMatter:
    if not tokens or tokens[0].type != "front_matter":
        return FrontMatter()
    first_line = (tokens[0].map or [0])[0] + 2  # the line after the opening ---
    return parse_front_matter(tokens[0].content, path, first_line)


def _title(front: FrontMatter, headings: list[Heading], path: str) -> str:
    given = front.data.get("title")
    if isinstance(given, (str, int, float)) and not isinstance(given, bool) and str(given).strip():
        return str(given).strip()
    for heading in headings:
        if heading.level == 1 and heading.text.strip():
            return heading.text.strip()
    stem = posixpath.splitext(posixpath.basename(path))[0]
    words = " ".join(re.split(r"[-_\s]+", stem)).strip() or stem
    return words[:1].upper() + words[1:]


def heading_text(children: Sequence[Token], slugs: SlugStyle) -> str:
    """A heading's text as the generator of ``slugs`` reads it before slugging: GitHub's
    plain text (``plain_text``); markdown-it-anchor's (VitePress) text and code spans only,
    so an image's alt text, raw HTML such as ``<Badge text="beta"/>`` and line breaks
    count for nothing; Python-Markdown's text of the rendered heading, tags dropped (an
    image with them) and whitespace collapsed to single spaces."""
    if slugs == SlugStyle.GITHUB:
        return plain_text(children)
    if slugs == SlugStyle.VITEPRESS:
        return "".join(t.content for t in children if t.type in ("text", "code_inline"))
    parts = [
        t.content if t.type in ("text", "code_inline") else " "
        for t in children
        if t.type in ("text", "code_inline", "softbreak", "hardbreak")
    ]
    return " ".join("".join(parts).split())


def plain_text(children: Sequence[Token]) -> str:
    """Text of inline tokens with the markup stripped; an image counts as its alt text."""
    parts: list[str] = []
    for token in children:
        kind = token.type
        if kind in ("text", "code_inline"):
            parts.append(token.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif kind == "image":
            parts.append(plain_text(token.children or ()))
    return "".join(parts)


# --- headings -----------------------------------------------------------------------------


def _headings(
    tokens: Sequence[Token], source: PageText, path: str, slugs: SlugStyle
) -> tuple[list[Heading], list[Diagnostic]]:
    """Every heading in source order, with its id in the ``slugs`` style; ids and
    permalinks go into the tokens, and the tables of contents are written."""
    found = sorted(_heading_tokens(tokens, source), key=lambda h: h.offset)
    problems = _duplicate_ids(found, path)
    ids = slugger(slugs, _taken_ids(tokens, found, slugs))
    headings = []
    entries = []
    for h in found:
        id_ = str(h.open.attrs.get("id") or ids.slug(heading_text(h.inline.children or (), slugs)))
        _add_permalink(h, id_)
        entries.append(
            TocEntry(int(h.open.tag[1]), id_, " ".join(h.raw_text.split()), h.open.level == 0)
        )
        headings.append(
            Heading(
                level=int(h.open.tag[1]),
                text=h.raw_text.replace("\n", " "),
                id=id_,
                line=h.line,
                offset=h.offset,
            )
        )
    left_out = fill_tables(tokens, entries)
    return headings, problems + [_too_many_tables(path, line) for line in left_out]


def _taken_ids(tokens: Sequence[Token], found: list[_HeadingToken], slugs: SlugStyle) -> list[str]:
    """The ids no generated slug may take: the headings' own ``{#id}``, and for
    Python-Markdown's styles every ``{#id}`` of the page, since its toc numbers around
    every id in the document; not a fence's ``{ #id }``, which superfences gives a block
    that toc never sees (content/syntax/code.md#fence-attributes)."""
    ids = [str(h.open.attrs["id"]) for h in found if h.open.attrs.get("id")]
    if slugs in (SlugStyle.GITHUB, SlugStyle.VITEPRESS):
        return ids
    for token in tokens:
        if token.type == "fence":
            continue
        for t in (token, *(token.children or ())):
            if t.attrs.get("id"):
                ids.append(str(t.attrs["id"]))
    return ids


def _too_many_tables(path: str, line: int) -> Diagnostic:
    return Diagnostic(
        path,
        line + 1,
        1,
        Level.WARNING,
        f"only the first {MAX_TABLES} tables of contents of a page are written; "
        "this one is left out",
        "toc",
    )


def _duplicate_ids(found: list[_HeadingToken], path: str) -> list[Diagnostic]:
    seen: set[str] = set()
    problems = []
    for h in found:
        id_ = str(h.open.attrs.get("id") or "")
        if id_ in seen:
            problems.append(
                Diagnostic(
                    path,
                    h.line,
                    1,
                    Level.WARNING,
                    f"heading id '{id_}' is given to an earlier "
                    "heading too; links to it reach the first one.",
                    "duplicate-id",
                )
            )
        if id_:
            seen.add(id_)
    return problems


def _heading_tokens(tokens: Sequence[Token], source: PageText) -> list[_HeadingToken]:
    found = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[i + 1]
        take_trailing_attrs(token, inline)
        index = token.meta.get(SOURCE)
        if index is None:
            index = source.line_starts[(token.map or [0])[0]]
        at = source.position(index)
        found.append(
            _HeadingToken(token, inline, at.offset, at.line, plain_text(inline.children or ()))
        )
    return found


def _add_permalink(heading: _HeadingToken, id_: str) -> None:
    if not id_:  # an emoji-only heading slugs to "": no id, nothing to link to
        return
    heading.open.attrs["id"] = id_
    permalink = Token("html_inline", "", 0, meta={TRUSTED: True})
    permalink.content = (
        f'<a class="permalink" href="#{escapeHtml(id_)}" aria-label="Permalink">#</a>'
    )
    if heading.inline.children is None:
        heading.inline.children = []
    heading.inline.children.append(permalink)


# --- links --------------------------------------------------------------------------------


def _links(
    tokens: Sequence[Token], source: PageText, headings: list[Heading], link_mark: str
) -> list[Link]:
    """Every link in source order; link i's href (or src) becomes ``f"{link_mark}{i}"``.

    Links in the page's own HTML count as links too (sitegen/docs/rawlinks.py); looked for
    only where the page has a ``<``, so a page without HTML pays nothing for them."""
    section_starts = [h.offset for h in headings]
    found = _markdown_links(tokens, source, section_starts, headings)
    if "<" in source.text:
        found += _html_links(tokens, source, section_starts, headings)
    found.sort(key=lambda item: item[0])
    by_token: dict[int, tuple[Token, list[tuple[HtmlLink, str]]]] = {}
    for i, (_, where, _link) in enumerate(found):
        mark = f"{link_mark}{i}"
        if isinstance(where, RawLink):  # a tag's or block's HTML is rewritten once, whole
            by_token.setdefault(id(where.token), (where.token, []))[1].append((where.link, mark))
        else:
            where.attrs["src" if where.type == "image" else "href"] = mark
    for token, marks in by_token.values():
        mark_urls(token, marks)
    return [item[2] for item in found]


_Found = list[tuple[int, Token | RawLink, Link]]


def _markdown_links(
    tokens: Sequence[Token], source: PageText, section_starts: list[int], headings: list[Heading]
) -> _Found:
    found: _Found = []
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        fallback = source.line_starts[(token.map or [0])[0]]
        children = token.children
        for j, child in enumerate(children):
            if POS not in child.meta:
                continue
            index = child.meta.get(SOURCE)
            at = source.position(fallback if index is None else index)
            section = bisect_right(section_starts, at.offset) - 1
            found.append(
                (
                    at.offset,
                    child,
                    Link(
                        href=str(child.attrs.get("src" if child.type == "image" else "href", "")),
                        label=" ".join(_label(children, j).split()),
                        kind=child.meta[KIND],
                        offset=at.offset,
                        line=at.line,
                        column=at.column,
                        anchor=headings[section].id if section >= 0 else "",
                    ),
                )
            )
    return found


def _html_links(
    tokens: Sequence[Token], source: PageText, section_starts: list[int], headings: list[Heading]
) -> _Found:
    """The links of the page's own HTML, each URL as a browser reads it, normalized as
    markdown-it normalizes a destination unless the URL gate refuses it (then it stays as
    read, so the linker sees its scheme and warns)."""
    found: _Found = []
    for raw in raw_links(tokens, source, plain_text):
        at = source.position(raw.index)
        section = bisect_right(section_starts, at.offset) - 1
        href = as_read(raw.link.url)
        if allowed_url(href, image=raw.link.kind in IMAGE_KINDS, href=raw.link.attribute == "href"):
            href = MARKDOWN.normalizeLink(href)
        link = Link(
            href=href,
            label=raw.label,
            kind=raw.link.kind,
            offset=at.offset,
            line=at.line,
            column=at.column,
            anchor=headings[section].id if section >= 0 else "",
        )
        found.append((at.offset, raw, link))
    return found


def _label(children: Sequence[Token], start: int) -> str:
    token = children[start]
    if token.type == "image":
        return plain_text(token.children or ())
    stop = start + 1
    while stop < len(children) and children[stop].type != "link_close":
        stop += 1
    return plain_text(children[start + 1 : stop])
