"""Docusaurus's blog as the site shows it (content/guides/docusaurus.md#blog): each post's
date, authors and tags under its title, and the posts of the index and tag pages, newest
first, each with its summary (the part before ``<!-- truncate -->`` or ``{/* truncate */}``).

Built once per build from the published posts and the authors and tags files the record
holds (read as YAML data, never run); never reads files and never resolves links.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from sitegen.addresses import Addresses, address_out
from sitegen.diagnostics import Diagnostic, Level
from sitegen.docs.markdown import extract_page
from sitegen.docs.records import PageRecord
from sitegen.docs.sanitize import RawHtml
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.generators.record import Blog
from sitegen.link.blog import is_unlisted, post_route
from sitegen.paths import NodeId, OutPath, href_between
from sitegen.site.views import LinkItem, PostHeader
from sitegen.urlgate import allowed_url
from sitegen.yamldata import describe, error_place, read_yaml

#: What ends a post's summary: Docusaurus's truncate markers, in markdown and in MDX.
_TRUNCATE = re.compile(r"<!--\s*truncate\s*-->|\{/\*\s*truncate\s*\*/\}")
#: Authors and tags read of each file, at most (a map of thousands is no blog's).
_MAX_ENTRIES = 5_000
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
#: The diagnostics' code.
BLOG = "docusaurus-blog"


@dataclass(frozen=True)
class Author:
    """One author of a post: from the authors map (by ``key``) or the front matter."""

    name: str
    title: str = ""
    url: str = ""  # "" when none, or one the URL gate refuses
    key: str = ""


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

    @property
    def date_text(self) -> str:
        """``May 1, 2021``, as Docusaurus writes a post's date; "" without one."""
        if not self.date:
            return ""
        year, month, day = self.date.split("-")
        return f"{_MONTHS[int(month) - 1]} {int(day)}, {year}"


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

    @property
    def title(self) -> str:
        return self.blog.title or "Blog"

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
    authors = _read_map(generator, blog.authors_file, problems)
    authors_file = blog.authors_file if generator.source(blog.authors_file) is not None else ""
    tags = _read_map(generator, blog.tags_file, problems)
    posts: list[Post] = []
    for node, rec in sorted(pages.items()):
        rel = blog.post_path(rec.path)
        if rel is None:
            continue
        route = post_route(rel, rec.front_matter, blog.route_base)
        posts.append(
            Post(
                node,
                rec.path,
                rec.title,
                route.date,
                tuple(
                    _post_authors(rec, texts.get(rec.path, b""), authors, authors_file, problems)
                ),
                tuple(_post_tags(rec.front_matter, tags, blog.route_base)),
                is_unlisted(rec.front_matter),
            )
        )
    posts.sort(key=lambda p: p.path)
    posts.sort(key=lambda p: p.date, reverse=True)  # newest first; one day's by path
    return _with_outs(blog, tuple(posts), addresses.style, tuple(problems))


def _with_outs(
    blog: Blog, posts: tuple[Post, ...], style: Any, problems: tuple[Diagnostic, ...]
) -> BlogSite:
    base = "/" + blog.route_base.strip("/") if blog.route_base.strip("/") else ""
    listed = sum(1 for p in posts if not p.unlisted)
    per_page = blog.posts_per_page if blog.posts_per_page > 0 else max(listed, 1)
    count = max(1, -(-listed // per_page))
    index = [address_out(base + "/", style)] + [
        address_out(f"{base}/page/{i}", style) for i in range(2, count + 1)
    ]
    site = BlogSite(blog, posts, tuple(o for o in index if o is not None), None, {}, problems)
    tags = site.tags()
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
    )
    return PostHeader(post.date, post.date_text, authors, tags)


# --- authors and tags ----------------------------------------------------------------------


def _read_map(generator: Generator, path: str, problems: list[Diagnostic]) -> dict[str, Any]:
    """The authors map or the tags file (YAML, a mapping of keys) the record holds; {} when
    there is none, and one warning when it is no mapping."""
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
    if data is None:
        return {}
    if not isinstance(data, dict):
        msg = f"{path} must map keys to entries; not read"
        problems.append(Diagnostic(path, 1, 1, Level.WARNING, msg, BLOG))
        return {}
    return {str(k): v for k, v in list(data.items())[:_MAX_ENTRIES]}


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _author(given: Mapping[str, Any], key: str = "") -> Author:
    url = _text(given.get("url"))
    return Author(
        _text(given.get("name")) or key,
        _text(given.get("title")),
        url if url and allowed_url(url, href=True) else "",
        key,
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
    rec: PageRecord, data: bytes, generator: Generator | None, slugs: SlugStyle
) -> tuple[str, bool]:
    """The post's HTML before its truncate marker (link marks the post's own, so its links
    publish as the post's), and whether it was cut; the whole HTML without a marker, as
    Docusaurus shows a post without one. "" when the cut cannot be made cleanly."""
    text = data.decode("utf-8", errors="replace")
    found = _TRUNCATE.search(text)
    if found is None:
        return without_title(rec.html), False
    sentinel = f"SGTRUNCATE{rec.content_hash[:16]}"
    cut = text[: found.start()] + f"\n\n{sentinel}\n\n" + text[found.end() :]
    dialect = generator.dialect if generator is not None else Dialect.NONE
    again = extract_page(
        rec.path, cut.encode(), RawHtml(rec.raw_html or "sanitize"), slugs, dialect
    )
    end = again.html.find(f"<p>{sentinel}</p>")
    if end < 0 or [x.href for x in again.links] != [x.href for x in rec.links]:
        return "", True
    return without_title(again.html[:end].replace(again.link_mark, rec.link_mark)), True


def without_title(html: str) -> str:
    """A summary without the post's own ``# title`` first, which the list shows already."""
    start = len(html) - len(html.lstrip())
    if not html.startswith("<h1", start):
        return html
    end = html.find("</h1>", start)
    return html[end + len("</h1>") :] if end >= 0 else html
