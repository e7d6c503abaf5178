"""Material for MkDocs' ``blog`` plugin and the ``rss`` plugin, as an ``mkdocs.yml`` configures
them: read from its data into one ``Blog`` record (content/guides/mkdocs.md#blog), each
option at the plugin's default when missing or of the wrong type. Never reads files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from typing import Any

from sitegen.generators.record import Blog, Feed, SlugStyle

#: The names the blog plugin is listed under (``material/blog`` since 9.x's namespacing).
_BLOG_PLUGINS = ("blog", "material/blog")
_RSS_PLUGINS = ("rss",)
#: The rss plugin's files, by the date they order posts by.
FEED_FILES = (("feed_rss_created.xml", "created"), ("feed_rss_updated.xml", "updated"))

#: How the ``slugify`` option's value (a ``!!python/name:`` tag kept as text) is read.
SlugReader = Callable[[Any], SlugStyle]


def plugin_options(config: Any, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The options of the first plugin of ``plugins`` named one of ``names`` ({} when it is
    listed without options), None when it is not listed or is ``enabled: false``."""
    plugins = config.get("plugins") if isinstance(config, dict) else None
    items = plugins if isinstance(plugins, list) else [plugins]
    if isinstance(plugins, dict):  # the plugins as one table
        items = [{k: v} for k, v in plugins.items()]
    for item in items:
        pairs = item.items() if isinstance(item, dict) else [(item, None)]
        for name, options in pairs:
            if name not in names:
                continue
            found = options if isinstance(options, dict) else {}
            return None if found.get("enabled") is False else found
    return None


def mkdocs_blog(config: Any, docs_dir: str, slugs: SlugReader) -> Blog | None:
    """The blog an ``mkdocs.yml`` whose ``docs_dir`` is ``docs_dir`` (a repository path)
    publishes with Material's blog plugin, None without it. Paths as the plugin formats them
    (``{blog}/posts``, ``{blog}/.authors.yml``), relative to ``docs_dir``."""
    options = plugin_options(config, _BLOG_PLUGINS)
    if options is None:
        return None
    read = _Options(options)
    blog_dir = _folder(read.text("blog_dir", "blog"))
    post_dir = _folder(read.text("post_dir", "{blog}/posts").replace("{blog}", blog_dir))
    authors = _folder(read.text("authors_file", "{blog}/.authors.yml").replace("{blog}", blog_dir))
    pagination = read.flag("pagination", True)
    per_page = read.count("pagination_per_page", 10) if pagination else 0
    slug_given = options.get("post_slugify")
    return Blog(
        _join(docs_dir, post_dir),
        route_base=blog_dir,
        posts_per_page=per_page,
        authors_file=_join(docs_dir, authors) if read.flag("authors", True) else "",
        include=("**/*.md", "**/*.markdown"),
        index_page=_join(docs_dir, posixpath.join(blog_dir, "index.md")),
        post_url_format=read.text("post_url_format", "{date}/{slug}") or "{date}/{slug}",
        post_url_date_format=read.text("post_url_date_format", "yyyy/MM/dd"),
        post_url_max_categories=read.count("post_url_max_categories", 1),
        slugs=slugs(slug_given) if slug_given is not None else SlugStyle.PYMDOWNX,
        date_format=read.text("post_date_format", "long"),
        excerpt_separator=read.text("post_excerpt_separator", "<!-- more -->"),
        excerpt_required=options.get("post_excerpt") == "required",
        pagination_url_format=read.text("pagination_url_format", "page/{page}"),
        archive_url_format=read.text("archive_url_format", "archive/{date}")
        if read.flag("archive", True)
        else "",
        archive_date_format=read.text("archive_date_format", "yyyy"),
        archive_url_date_format=read.text("archive_url_date_format", "yyyy"),
        archive_per_page=read.view_per_page("archive", pagination, per_page),
        categories_url_format=read.text("categories_url_format", "category/{slug}")
        if read.flag("categories", True)
        else "",
        categories_allowed=tuple(read.texts("categories_allowed")),
        categories_per_page=read.view_per_page("categories", pagination, per_page),
        authors_key="authors",
        tag_pages=False,
        drafts=read.flag("draft", False),
        readtime_wpm=read.count("post_readtime_words_per_minute", 265)
        if read.flag("post_readtime", True)
        else 0,
        feeds=tuple(_feeds(config)),
    )


def _feeds(config: Any) -> Iterator[Feed]:
    """The rss plugin's two RSS files, when it is listed: posts by their created date and by
    their updated one, its ``length`` newest each."""
    options = plugin_options(config, _RSS_PLUGINS)
    if options is None:
        return
    read = _Options(options)
    site = _Options(config if isinstance(config, dict) else {})
    for path, order in FEED_FILES:
        yield Feed(
            path,
            order,
            read.count("length", 20),
            site.text("site_name", ""),
            site.text("site_description", ""),
            site.text("site_url", ""),
            read.count("abstract_chars_count", 160),
        )


class _Options:
    """One plugin's options, each read at its default when missing or of another type."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options

    def text(self, key: str, default: str) -> str:
        value = self.options.get(key)
        return value if isinstance(value, str) else default

    def texts(self, key: str) -> list[str]:
        value = self.options.get(key)
        return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []

    def flag(self, key: str, default: bool) -> bool:
        value = self.options.get(key)
        return value if isinstance(value, bool) else default

    def count(self, key: str, default: int) -> int:
        value = self.options.get(key)
        ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
        return value if ok else default  # type: ignore[return-value]

    def view_per_page(self, view: str, pagination: bool, per_page: int) -> int:
        """``<view>_pagination`` and ``<view>_pagination_per_page``, the blog's when unset."""
        if not self.flag(f"{view}_pagination", pagination):
            return 0
        return self.count(f"{view}_pagination_per_page", per_page or 10)


def _folder(path: str) -> str:
    """A folder the plugin names relative to ``docs_dir``, normalized ("" for itself)."""
    norm = posixpath.normpath(path.strip().strip("/")) if path.strip().strip("/") else "."
    return "" if norm == "." else norm


def _join(docs_dir: str, path: str) -> str:
    return posixpath.normpath(posixpath.join(docs_dir, path)) if path else docs_dir
