"""The blog as the site shows it (content/guides/docusaurus.md#blog,
content/guides/mkdocs.md#blog): each post's date, authors and tags (Material: categories)
under its title, and the posts of the index, tag, archive and category pages, newest first,
each with its summary (the part before ``<!-- truncate -->`` or ``{/* truncate */}``, or
Material's ``post_excerpt_separator``).

Built once per build from the published posts and the authors and tags files the record
holds (read as YAML data, never run); never reads files and never resolves links.
"""

from __future__ import annotations

import datetime
import functools
import math
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from typing import Any

import yaml

from sitegen.addresses import Addresses, UrlStyle, address_out
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import NodeId, OutPath, href_between, url_path
from sitegen.base.urlgate import allowed_url, url_scheme
from sitegen.base.yamldata import describe, error_place, read_yaml
from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import RawHtml
from sitegen.docs.shortcode_templates import Shortcodes, project_shortcodes
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.generators.record import Blog
from sitegen.link.blog import (
    PostRoute,
    blog_post_route,
    blog_slug,
    cldr_date,
    is_unlisted,
)
from sitegen.records.pages import PageRecord
from sitegen.records.result import BuildResult
from sitegen.site.views import LinkItem, NavItem, PostHeader

#: What ends a post's summary: Docusaurus's truncate markers, in markdown and in MDX.
_TRUNCATE = re.compile(r"<!--\s*truncate\s*-->|\{/\*\s*truncate\s*\*/\}")
#: Authors and tags read of each file, at most (a map of thousands is no blog's).
_MAX_ENTRIES = 5_000
#: The diagnostics' code.
BLOG = "docusaurus-blog"


@dataclass(frozen=True)
class Author:
    """One author of a post: from the authors map (by ``key``) or the front matter."""

    name: str
    title: str = ""
    url: str = ""  # "" when none, or one the URL gate refuses
    key: str = ""
    #: The author's picture (Material's ``avatar``, an http(s) URL only), "" for none.
    avatar: str = ""


@dataclass(frozen=True)
class Tag:
    """One tag of a post: its label, and its page's URL path below the blog's tags page."""

    label: str
    permalink: str


@dataclass(frozen=True)
class Post:
    """One published post, as the index and its own page show it."""

    node: NodeId
    path: str
    title: str
    date: str  # YYYY-MM-DD, "" for none
    authors: tuple[Author, ...]
    tags: tuple[Tag, ...]
    unlisted: bool
    #: Material's: the date as its ``post_date_format`` shows it, the created date (an ISO
    #: datetime), the categories and whether the post is pinned.
    shown_date: str = ""
    created: str = ""
    categories: tuple[str, ...] = ()
    pinned: bool = False
    readtime: int = 0  # minutes, 0 for none shown

    @property
    def date_text(self) -> str:
        """``May 1, 2021``, as Docusaurus writes a post's date (Material: as its
        ``post_date_format`` says); "" without one."""
        if self.shown_date or not self.date:
            return self.shown_date
        return cldr_date(datetime.datetime.fromisoformat(self.date), "long")


@dataclass(frozen=True)
class Listing:
    """A page of posts besides the index (Material's archive of a year, or a category): its
    title, its files (the first at its URL, then ``page/2`` ...) and its posts."""

    kind: str  # "archive" or "category"
    title: str
    outs: tuple[OutPath, ...]
    posts: tuple[Post, ...]
    per_page: int


@dataclass(frozen=True)
class BlogSite:
    """The blog of one build: its posts newest first, and the files of its pages."""

    blog: Blog
    posts: tuple[Post, ...]
    #: The index pages (the first at the route base, then ``page/2`` ...), the tags page,
    #: and each tag's page, by permalink.
    index_outs: tuple[OutPath, ...]
    tags_out: OutPath | None
    tag_outs: dict[str, OutPath] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    #: The blog's own page (Material's ``blog/index.md``) when published: its HTML is the
    #: first index page, the posts after its body; and its title.
    entry: NodeId | None = None
    entry_title: str = ""
    #: Material's archive and category pages, archive first (newest year first), then the
    #: categories by name.
    listings: tuple[Listing, ...] = ()

    @property
    def title(self) -> str:
        return self.blog.title or self.entry_title or "Blog"

    def listing_outs(self) -> Iterator[OutPath]:
        """Every file of the archive and category pages."""
        for listing in self.listings:
            yield from listing.outs

    def category_out(self, name: str) -> OutPath | None:
        """The first page of a category, None when it has none."""
        return self._categories.get(name)

    @functools.cached_property
    def _categories(self) -> dict[str, OutPath]:
        return {x.title: x.outs[0] for x in self.listings if x.kind == "category" and x.outs}

    def post(self, node: NodeId) -> Post | None:
        """The post published from ``node``, None for a page that is none."""
        return self._by_node.get(node)

    @functools.cached_property
    def _by_node(self) -> dict[NodeId, Post]:
        return {p.node: p for p in self.posts}

    @property
    def listed(self) -> tuple[Post, ...]:
        """The posts the index and the tag pages list: all but the unlisted ones."""
        return tuple(p for p in self.posts if not p.unlisted)

    def tags(self) -> dict[str, tuple[Tag, tuple[Post, ...]]]:
        """Each tag of a listed post (by permalink, sorted by label): the tag and its posts."""
        found: dict[str, tuple[Tag, list[Post]]] = {}
        for post in self.listed:
            for tag in post.tags:
                found.setdefault(tag.permalink, (tag, []))[1].append(post)
        ordered = sorted(found.items(), key=lambda kv: (kv[1][0].label.casefold(), kv[0]))
        return {k: (tag, tuple(posts)) for k, (tag, posts) in ordered}


def blog_site(
    generator: Generator | None,
    pages: Mapping[NodeId, PageRecord],
    addresses: Addresses,
    texts: Mapping[str, bytes],
) -> BlogSite | None:
    """The blog the record names, from the published pages that are its posts (``texts``:
    their bytes by path, for the lines of diagnostics); None when there is no blog."""
    blog = generator.blog if generator is not None else None
    if generator is None or blog is None:
        return None
    problems: list[Diagnostic] = []
    authors = _read_map(generator, blog.authors_file, problems, blog.authors_key)
    authors_file = blog.authors_file if generator.source(blog.authors_file) is not None else ""
    tags = _read_map(generator, blog.tags_file, problems)
    posts: list[Post] = []
    for node, rec in sorted(pages.items()):
        rel = blog.post_path(rec.path)
        if rel is None:
            continue
        data = texts.get(rec.path, b"")
        route = blog_post_route(blog, rel, rec.front_matter, data.decode("utf-8", "replace"))
        if not route.url:
            continue  # a Material post without a date: a page, not a post (warned)
        _check_excerpt(blog, rec.path, data, problems)
        posts.append(
            Post(
                node,
                rec.path,
                rec.title,
                route.date,
                tuple(_post_authors(rec, data, authors, authors_file, problems)),
                tuple(_post_tags(rec.front_matter, tags, blog.route_base)),
                is_unlisted(rec.front_matter),
                _shown_date(blog, route),
                route.created,
                _allowed(blog, rec.path, data, route.categories, problems),
                route.pinned,
                _readtime(blog, rec),
            )
        )
    posts.sort(key=lambda p: p.path)
    posts.sort(key=_newest_first, reverse=True)  # one day's by path
    site = _with_outs(blog, tuple(posts), addresses.style, tuple(problems))
    entry = next(
        (n for n, r in pages.items() if blog.index_page and r.path == blog.index_page), None
    )
    if entry is not None:
        outs = (addresses.out(entry), *site.index_outs[1:])
        site = replace(site, entry=entry, entry_title=pages[entry].title, index_outs=outs)
    return replace(site, listings=tuple(_listings(blog, site.listed, addresses.style)))


def _newest_first(post: Post) -> tuple[bool, str]:
    """Material's order: pinned posts first, then by created date and time (in UTC);
    Docusaurus's: by date."""
    if not post.created:
        return False, post.date
    moment = datetime.datetime.fromisoformat(post.created).astimezone(datetime.UTC)
    return post.pinned, moment.isoformat()


def _readtime(blog: Blog, rec: PageRecord) -> int:
    """Material's reading time in minutes: front matter ``readtime``, else the post's words
    at ``post_readtime_words_per_minute`` and a few seconds an image; 0 when not shown."""
    given = rec.front_matter.get("readtime")
    if not blog.readtime_wpm:
        return 0
    if isinstance(given, int) and not isinstance(given, bool) and given > 0:
        return given
    return reading_minutes(rec.html, blog.readtime_wpm)


class _Reader(HTMLParser):
    """The text and the images of a post's HTML, as a reader meets them: not the text of
    scripts, styles, SVG and objects."""

    HIDDEN = frozenset({"script", "style", "svg", "object"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.images = 0
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.images += tag == "img"
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not self.HIDDEN.intersection(self.open):
            self.text.append(data)


_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


def reading_minutes(html: str, words_per_minute: int) -> int:
    """Minutes to read a post, as Material's blog counts them: its words (the runs between
    non-word characters of its text run together) at ``words_per_minute``, then 12 seconds
    for the first image, a second less for each next one down to 3, rounded up."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    words = len(re.split(r"\W+", "".join(reader.text)))
    seconds = math.ceil(words / words_per_minute * 60)
    seconds += sum(max(12 - i, 3) for i in range(reader.images))
    return math.ceil(seconds / 60)


def _shown_date(blog: Blog, route: PostRoute) -> str:
    """The post's date as Material's ``post_date_format`` shows it; "" for Docusaurus's."""
    if not blog.date_format or not route.created:
        return ""
    return cldr_date(datetime.datetime.fromisoformat(route.created), blog.date_format)


def _check_excerpt(blog: Blog, path: str, data: bytes, problems: list[Diagnostic]) -> None:
    """Material's ``post_excerpt: required``: a post without the separator is warned (the
    plugin stops the build)."""
    if blog.excerpt_required and blog.excerpt_separator.encode() not in data:
        msg = f"no '{blog.excerpt_separator}' in the post, which post_excerpt: required asks"
        problems.append(Diagnostic(path, 1, 1, Level.WARNING, msg, BLOG))


def _allowed(
    blog: Blog, path: str, data: bytes, names: tuple[str, ...], problems: list[Diagnostic]
) -> tuple[str, ...]:
    """The post's categories in ``categories_allowed`` (all when it is empty); each other
    is warned and left out (the plugin stops the build)."""
    if not blog.categories_allowed:
        return names
    for name in names:
        if name not in blog.categories_allowed:
            msg = f"category '{name}' is not in categories_allowed; left out"
            problems.append(
                Diagnostic(path, _key_line(data, "categories"), 1, Level.WARNING, msg, BLOG)
            )
    return tuple(n for n in names if n in blog.categories_allowed)


def _listings(blog: Blog, posts: tuple[Post, ...], style: UrlStyle) -> Iterator[Listing]:
    """Material's archive pages (one per ``archive_url_date_format`` value, newest first)
    and category pages (by name), each paginated as its options say."""
    base = blog.route_base.strip("/")
    archive: dict[str, tuple[str, list[Post]]] = {}
    for post in posts if blog.archive_url_format else ():
        created = datetime.datetime.fromisoformat(post.created)
        key = cldr_date(created, blog.archive_url_date_format)
        path = blog.archive_url_format.replace("{date}", key)
        archive.setdefault(path, (cldr_date(created, blog.archive_date_format), []))[1].append(post)
    for path, (title, found) in archive.items():
        yield _listing("archive", title, base, path, found, blog, style)
    categories: dict[str, list[Post]] = {}
    for post in posts if blog.categories_url_format else ():
        for name in post.categories:
            categories.setdefault(name, []).append(post)
    for name in sorted(categories):
        path = blog.categories_url_format.replace("{slug}", blog_slug(name, blog.slugs))
        yield _listing("category", name, base, path, categories[name], blog, style)


def _listing(
    kind: str, title: str, base: str, path: str, posts: list[Post], blog: Blog, style: UrlStyle
) -> Listing:
    per_page = blog.archive_per_page if kind == "archive" else blog.categories_per_page
    count = max(1, -(-len(posts) // per_page)) if per_page else 1
    where = "/" + posixpath.join(base, path.strip("/"))
    addresses = [where] + [
        f"{where}/{blog.pagination_url_format.replace('{page}', str(i))}"
        for i in range(2, count + 1)
    ]
    outs = tuple(o for o in (address_out(a, style) for a in addresses) if o is not None)
    return Listing(kind, title, outs, tuple(posts), per_page)


def _with_outs(
    blog: Blog, posts: tuple[Post, ...], style: Any, problems: tuple[Diagnostic, ...]
) -> BlogSite:
    base = "/" + blog.route_base.strip("/") if blog.route_base.strip("/") else ""
    listed = sum(1 for p in posts if not p.unlisted)
    per_page = blog.posts_per_page if blog.posts_per_page > 0 else max(listed, 1)
    count = max(1, -(-listed // per_page))
    # Material's later index pages are folders (``page/2/index.md``) in either URL style.
    folder = "/" if blog.post_url_format else ""
    index = [address_out(base + "/", style)] + [
        address_out(f"{base}/{blog.pagination_url_format.replace('{page}', str(i))}{folder}", style)
        for i in range(2, count + 1)
    ]
    site = BlogSite(blog, posts, tuple(o for o in index if o is not None), None, {}, problems)
    tags = site.tags() if blog.tag_pages else {}
    if not tags:
        return site
    tag_outs = {k: address_out(f"{base}/tags/{k}", style) for k in tags}
    return BlogSite(
        blog,
        posts,
        site.index_outs,
        address_out(f"{base}/tags", style),
        {k: o for k, o in tag_outs.items() if o is not None},
        problems,
    )


def post_header(blog: BlogSite, post: Post, here: OutPath) -> PostHeader:
    """What ``post`` shows under its title on the page ``here``: its date, its authors and
    its tags, each tag linking to its page (none for an unlisted post's own tags, whose
    pages do not list it: they link all the same, as Docusaurus's do)."""
    authors = tuple(LinkItem(a.name, a.url, a.title) for a in post.authors)
    tags = tuple(
        LinkItem(
            t.label,
            href_between(here, blog.tag_outs[t.permalink]) if t.permalink in blog.tag_outs else "",
        )
        for t in post.tags
        if blog.blog.tag_pages
    )
    categories = tuple(
        LinkItem(name, href_between(here, out) if (out := blog.category_out(name)) else "")
        for name in post.categories
    )
    avatars = tuple(a.avatar for a in post.authors)
    readtime = f"{post.readtime} min read" if post.readtime else ""
    return PostHeader(post.date, post.date_text, authors, tags + categories, avatars, readtime)


# --- authors and tags ----------------------------------------------------------------------


def _read_map(
    generator: Generator, path: str, problems: list[Diagnostic], key: str = ""
) -> dict[str, Any]:
    """The authors map or the tags file (YAML, a mapping of keys; with ``key``, the mapping
    under that key, as Material's ``.authors.yml`` holds it) the record holds; {} when there
    is none, and one warning when it is no mapping."""
    text = generator.source(path) if path else None
    if text is None:
        return {}
    try:
        data = read_yaml(text).data
    except yaml.YAMLError as exc:
        line, column = error_place(exc)
        problems.append(
            Diagnostic(path, line, column, Level.WARNING, f"{path} {describe(exc)}; not read", BLOG)
        )
        return {}
    if key and isinstance(data, dict):
        data = data.get(key)
    if data is None:
        return {}
    if not isinstance(data, dict):
        under = f"'{key}' of " if key else ""
        msg = f"{under}{path} must map keys to entries; not read"
        problems.append(Diagnostic(path, 1, 1, Level.WARNING, msg, BLOG))
        return {}
    return {str(k): v for k, v in list(data.items())[:_MAX_ENTRIES]}


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _author(given: Mapping[str, Any], key: str = "") -> Author:
    """An author: Docusaurus's ``name``, ``title``, ``url``; Material's ``description`` for
    the title and ``avatar`` (an http(s) URL: a path of the site is not resolved here)."""
    url = _text(given.get("url"))
    avatar = _text(given.get("avatar"))
    return Author(
        _text(given.get("name")) or key,
        _text(given.get("title")) or _text(given.get("description")),
        url if url and allowed_url(url, href=True) else "",
        key,
        avatar if url_scheme(avatar) in ("http", "https") else "",
    )


def _post_authors(
    rec: PageRecord,
    data: bytes,
    authors: Mapping[str, Any],
    authors_file: str,
    problems: list[Diagnostic],
) -> Iterator[Author]:
    """The post's authors: ``authors`` (keys of the authors map, or inline ``{name, title,
    url}``), else the legacy ``author``, ``author_title``, ``author_url``."""
    given = rec.front_matter.get("authors")
    if given is None:
        name = _text(rec.front_matter.get("author"))
        if name:
            legacy = {k.removeprefix("author_"): v for k, v in rec.front_matter.items()}
            yield _author({**legacy, "name": name})
        return
    for entry in given if isinstance(given, list) else [given]:
        if isinstance(entry, dict):
            yield _author(entry)
        elif isinstance(entry, str) and isinstance(authors.get(entry), dict):
            yield _author(authors[entry], entry)
        elif isinstance(entry, str) and entry.strip():
            where = f"in {authors_file}" if authors_file else "known: the blog has no authors map"
            msg = f"author '{entry}' is not {where}; shown by its key"
            line = _key_line(data, "authors")
            problems.append(Diagnostic(rec.path, line, 1, Level.WARNING, msg, BLOG))
            yield Author(entry.strip(), key=entry.strip())


def _post_tags(
    front_matter: Mapping[str, Any], tags: Mapping[str, Any], route_base: str
) -> Iterator[Tag]:
    """The post's tags: a key of the tags file takes its label and permalink; another text
    is its own label, its permalink in kebab case (Docusaurus's ``normalizeTag``)."""
    given = front_matter.get("tags")
    seen: set[str] = set()
    for entry in given if isinstance(given, list) else [given] if given is not None else []:
        label, permalink = "", ""
        if isinstance(entry, (str, int, float)) and not isinstance(entry, bool):
            known = tags.get(str(entry))
            label = _text(known.get("label")) if isinstance(known, dict) else ""
            label = label or _text(str(entry))
            permalink = _text(known.get("permalink")) if isinstance(known, dict) else ""
        elif isinstance(entry, dict):
            label, permalink = _text(entry.get("label")), _text(entry.get("permalink"))
        slug = kebab_case(permalink or label)
        if label and slug and slug not in seen:
            seen.add(slug)
            yield Tag(label, slug)


_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^\W\d_]+")


def kebab_case(text: str) -> str:
    """lodash's ``kebabCase``, near enough: words (a case change starts one) in lower case
    joined by ``-``: ``Hello World`` -> ``hello-world``, ``fooBar`` -> ``foo-bar``."""
    return "-".join(w.lower() for w in _WORD.findall(text[:200]))


def _key_line(data: bytes, key: str) -> int:
    """The line of ``key:`` in a post's front matter (1 when it cannot be found)."""
    at = data.find(b"\n" + key.encode() + b":")
    return data.count(b"\n", 0, at + 1) + 1 if at >= 0 else 1


# --- summaries -----------------------------------------------------------------------------


def post_summary(
    rec: PageRecord,
    data: bytes,
    generator: Generator | None,
    slugs: SlugStyle,
    shortcodes: Shortcodes | None = None,
) -> tuple[str, bool]:
    """The post's HTML before its truncate marker (link marks the post's own, so its links
    publish as the post's), and whether it was cut; the whole HTML without a marker, as
    Docusaurus shows a post without one. "" when the cut cannot be made cleanly. The
    project's ``shortcodes`` render in the summary as in the post (content/syntax/shortcodes.md)."""
    text = data.decode("utf-8", errors="replace")
    blog = generator.blog if generator is not None else None
    found = _excerpt_end(text, blog.excerpt_separator if blog is not None else "")
    if found is None:
        return without_title(rec.html), False
    sentinel = f"SGTRUNCATE{rec.content_hash[:16]}"
    cut = text[: found.start()] + f"\n\n{sentinel}\n\n" + text[found.end() :]
    dialect = generator.dialect if generator is not None else Dialect.NONE
    again = extract_page(
        rec.path,
        cut.encode(),
        RawHtml(rec.raw_html or "sanitize"),
        slugs,
        dialect,
        shortcodes=shortcodes,
    )
    end = again.html.find(f"<p>{sentinel}</p>")
    if end < 0 or [x.href for x in again.links] != [x.href for x in rec.links]:
        return "", True
    return without_title(again.html[:end].replace(again.link_mark, rec.link_mark)), True


def summary_shortcodes(result: BuildResult) -> Shortcodes | None:
    """The project's shortcodes as the build read the posts with them (the same compiled
    templates: ``project_shortcodes`` keeps them)."""
    config = result.config
    return project_shortcodes(result.crawl.shortcodes, config.shortcode_comments, config.shortcodes)


def _excerpt_end(text: str, separator: str) -> re.Match[str] | None:
    """Where a post's summary ends: Docusaurus's truncate markers, or Material's separator
    (on a line of its own first, so one quoted in a code block is passed over when a real
    one follows)."""
    if not separator:
        return _TRUNCATE.search(text)
    own_line = re.compile(rf"^[ \t]*({re.escape(separator)})[ \t]*$", re.M)
    return own_line.search(text) or re.compile(re.escape(separator)).search(text)


def without_title(html: str) -> str:
    """A summary without the post's own ``# title`` first, which the list shows already."""
    start = len(html) - len(html.lstrip())
    if not html.startswith("<h1", start):
        return html
    end = html.find("</h1>", start)
    return html[end + len("</h1>") :] if end >= 0 else html


# --- the page tree --------------------------------------------------------------------


def with_blog_sections(tree: tuple[NavItem, ...], blog: BlogSite) -> tuple[NavItem, ...]:
    """The page tree with Material's "Archive" and "Categories" sections after the last
    entry beside the blog's index (as the plugin attaches them), when the tree holds the
    index; the tree as it is otherwise."""
    sections = tuple(_section(blog, kind, title) for kind, title in _SECTIONS)
    sections = tuple(s for s in sections if s.children)
    if not sections or blog.entry is None or not blog.index_outs:
        return tree
    return _attached(tree, url_path(blog.index_outs[0]), sections)


_SECTIONS = (("archive", "Archive"), ("category", "Categories"))


def _section(blog: BlogSite, kind: str, title: str) -> NavItem:
    children = tuple(
        NavItem(x.title, url_path(x.outs[0])) for x in blog.listings if x.kind == kind and x.outs
    )
    return NavItem(title, children=children, is_folder=True)


def _attached(
    tree: tuple[NavItem, ...], index: str, sections: tuple[NavItem, ...]
) -> tuple[NavItem, ...]:
    """``tree`` with ``sections`` at the end of the list holding the index's entry, or of
    the children of the folder whose own page it is."""
    items = [
        replace(
            item,
            children=(*_attached(item.children, index, sections), *sections)
            if item.href == index and not _holds(item.children, index)
            else _attached(item.children, index, sections),
        )
        if item.is_folder
        else item
        for item in tree
    ]
    return (*items, *sections) if _holds(tree, index) else tuple(items)


def _holds(tree: tuple[NavItem, ...], index: str) -> bool:
    return any(not i.is_folder and i.href == index for i in tree)
