"""The record every family module fills in (``Generator``), what it decides for sitegen
(``SlugStyle``, ``Dialect``), and the helpers the family modules share: how a configuration
file is looked for in the content folder and the folders above it, inside the root only.

A family module (mkdocs.py, vitepress.py, jekyll.py, ...) reads its own configuration once,
as data, and fills in a ``Generator``; the rest of sitegen asks the record's fields, never
its ``name`` (content/reference/headings.md#slug-styles, ARCHITECTURE.md#generators).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Flag, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import content_relative, glob_matches, is_within
from sitegen.base.yamldata import MAX_CHARACTERS

if TYPE_CHECKING:  # a family's own input type; the family module imports this one
    from sitegen.generators.jekyll import JekyllConfig


class SlugStyle(StrEnum):
    """How heading ids are made: the values of the ``slugs`` option."""

    GITHUB = "github"  # github-slugger: GitHub's own rendering, sitegen's default
    VITEPRESS = "vitepress"  # @mdit-vue/shared's slugify, numbered as markdown-it-anchor does
    MKDOCS = "mkdocs"  # Python-Markdown's toc slugify (ASCII only), MkDocs' default
    MKDOCS_UNICODE = "mkdocs-unicode"  # toc's slugify_unicode
    PYMDOWNX = "pymdownx"  # pymdownx.slugs: slugify(case="lower"), formerly uslugify
    PYMDOWNX_CASED = "pymdownx-cased"  # pymdownx.slugs: slugify(), the case kept


class Dialect(Flag):
    """The markdown a family writes beyond CommonMark and the syntaxes sitegen always reads
    (content/syntax/index.md): what the docs step is asked to read besides."""

    NONE = 0
    #: Docusaurus's MDX: ``import``/``export`` lines, ``{/* comments */}``, JSX components,
    #: ``<Tabs>``, admonition titles in brackets, code-block metadata.
    MDX = 1
    #: Obsidian's vault: embeds ``![[Page]]`` transcluded, files found by name anywhere.
    OBSIDIAN = 2
    # The flags below are Python-Markdown's and the pymdownx family's, as an ``mkdocs.yml``
    # enables them (sitegen/generators/mkdocs.py ``markdown_dialect``; content/syntax/material.md).
    #: Python-Markdown's ids, as every MkDocs page has them: footnotes ``fn:1``/``fnref:1``.
    PYTHON_MARKDOWN = 4
    #: ``pymdownx.emoji``: ``:smile:`` shortcodes from the Twemoji index.
    EMOJI = 8
    #: ``pymdownx.emoji`` with Material's (or Zensical's) index: ``:material-file-tree:``,
    #: ``:octicons-tag-24:``, ``:fontawesome-…:`` icons as inline SVG.
    ICONS = 16
    #: ``pymdownx.keys``: ``++ctrl+alt+del++``.
    KEYS = 32
    #: ``pymdownx.mark``: ``==mark==``.
    MARK = 64
    #: ``pymdownx.caret``: ``^^insert^^``, ``^sup^``.
    CARET = 128
    #: ``pymdownx.tilde``: ``~~delete~~``, ``~sub~``.
    TILDE = 256
    #: ``attr_list``: ``{ .class #id }`` after inline elements and images.
    ATTR_LIST = 512
    #: ``md_in_html``: markdown inside HTML blocks with the ``markdown`` attribute.
    MD_IN_HTML = 1024
    #: Material's code annotations (``content.code.annotate``): ``# (1)!`` markers.
    ANNOTATIONS = 2048
    #: ``markdown_include_variants``: ``{* path hl[3] *}`` with its variant files as tabs.
    INCLUDE_VARIANTS = 4096
    #: ``pymdownx.tabbed`` with ``slugify``: tab ids from their labels.
    TAB_SLUGS = 8192
    #: ``pymdownx.tabbed`` with ``combine_header_slug``: the heading's id before the tab's.
    TAB_SLUGS_COMBINED = 16384
    #: Material's ``content.code.annotate`` feature: every code block is annotated, not
    #: only those with the ``.annotate`` class.
    ANNOTATE_ALL = 32768


#: The files of a content folder that are pages, unless the family reads more.
PAGE_EXTENSIONS = (".md", ".markdown")


@dataclass(frozen=True)
class NavSpec:
    """Where a family's page tree comes from: each family with a nav of its own subclasses
    it (``MkDocsNavSpec``, ``VitePressNavSpec``), and sitegen/site/navigation.py picks the
    reader by the spec's type, never by the generator's name."""


@dataclass(frozen=True)
class OutputFolder:
    """A folder a generator writes, as its configuration (or its default) names it: the
    folder written relative to the folder holding the configuration, the tool, what it is
    there ("output", "cache") and what names it (an option, or the file it sits beside)."""

    written: str
    tool: str
    what: str
    named_by: str


@dataclass(frozen=True)
class Feed:
    """A feed of the blog's posts the configuration writes (the ``rss`` plugin of MkDocs):
    RSS 2.0 at ``path`` (from the site root), its newest ``length`` posts by their date
    ``order`` ("created", or "updated": the ``date.updated`` of a post, else its created)."""

    path: str
    order: str = "created"
    length: int = 20
    #: The channel's title, description and link (``site_name``, ``site_description``,
    #: ``site_url`` of mkdocs.yml), "" when not given; characters of a post's abstract.
    title: str = ""
    description: str = ""
    site_url: str = ""
    abstract_chars: int = 160


@dataclass(frozen=True)
class Blog:
    """A blog the configuration publishes (Docusaurus's blog plugin, Material's ``blog``
    plugin): its posts are the page files of ``folder`` (a repository path), published under
    ``route_base`` (sitegen/link/blog.py), listed newest first on an index page
    (sitegen/site/blog.py). The fields after ``exclude`` are Material's options; their
    defaults keep Docusaurus's ways (content/guides/mkdocs.md#blog)."""

    folder: str
    route_base: str = "blog"
    #: The index page's title (``blogTitle``), "" for "Blog"; posts per index page.
    title: str = ""
    posts_per_page: int = 10
    #: The authors map and the tags file (repository paths whose texts are among the
    #: record's ``sources``), "" for none.
    authors_file: str = ""
    tags_file: str = ""
    #: Globs of the posts relative to ``folder``: ``include`` (() for every page file)
    #: and ``exclude`` (Docusaurus's ``_`` partials by default).
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    #: The blog's own page in the content (Material's ``blog/index.md``, a repository path),
    #: whose body heads the first index page; "" for none.
    index_page: str = ""
    #: How a post's URL is made below ``route_base`` (Material's ``post_url_format``:
    #: ``{date}``, ``{slug}``, ``{categories}``, ``{file}``), the date in it as the CLDR
    #: pattern ``post_url_date_format``; "" for Docusaurus's route (its slug or path).
    post_url_format: str = ""
    post_url_date_format: str = "yyyy/MM/dd"
    #: The categories a post's URL holds at most (``post_url_max_categories``).
    post_url_max_categories: int = 1
    #: How a post's title (its URL's ``{slug}``) and a category's name are made slugs.
    slugs: SlugStyle = SlugStyle.PYMDOWNX
    #: How a post's date is shown: ``long``, ``medium``, ``short``, ``full`` or a CLDR
    #: pattern; "" for Docusaurus's ``May 1, 2021``.
    date_format: str = ""
    #: What ends a post's excerpt (``post_excerpt_separator``); "" for Docusaurus's
    #: truncate markers. With ``excerpt_required``, a post without it is warned.
    excerpt_separator: str = ""
    excerpt_required: bool = False
    #: The folder of the index's later pages (``pagination_url_format``, ``{page}``).
    pagination_url_format: str = "page/{page}"
    #: The archive's pages by year (``archive_url_format``, "" for none), each titled by
    #: ``archive_date_format`` and named by ``archive_url_date_format``; posts per page.
    archive_url_format: str = ""
    archive_date_format: str = "yyyy"
    archive_url_date_format: str = "yyyy"
    archive_per_page: int = 10
    #: Each category's page (``categories_url_format``, "" for none), the categories a post
    #: may name ((): any) and posts per page.
    categories_url_format: str = ""
    categories_allowed: tuple[str, ...] = ()
    categories_per_page: int = 10
    #: The key of the authors file that holds the map (Material's ``authors``), "" for the
    #: file itself (Docusaurus's).
    authors_key: str = ""
    #: Whether posts' tags have the blog's own pages (Docusaurus); Material's are the tags
    #: plugin's, shown as any page's.
    tag_pages: bool = True
    #: Whether drafts are published (Material's ``draft`` option).
    drafts: bool = False
    #: Words a minute for a post's reading time (``post_readtime_words_per_minute``), 0 for
    #: none shown (Material's ``post_readtime: false``, Docusaurus).
    readtime_wpm: int = 0
    #: The feeds written of the posts (the ``rss`` plugin's).
    feeds: tuple[Feed, ...] = ()

    def post_path(self, path: str) -> str | None:
        """The path of the file ``path`` (a repository path) in the blog folder when it is a
        post: a ``.md``/``.mdx`` file ``include`` takes and ``exclude`` leaves; else None."""
        inner = content_relative(self.folder, path)
        if inner is None or not inner.lower().endswith(POST_SUFFIXES):
            return None
        if self.include and not glob_matches(self.include, inner):
            return None
        if self.exclude and glob_matches(self.exclude, inner):
            return None
        return inner


#: The page files of a blog, as Docusaurus's blog plugin reads them.
POST_SUFFIXES = (".md", ".mdx")


#: Whether the folder holds an entry of this name (a file or a folder).
Holds = Callable[[str], bool]
#: The text of the file at this path below the folder, or None when it cannot be read.
ReadText = Callable[[str], str | None]


@dataclass(frozen=True)
class Generator:
    """The generator whose configuration was found beside the content, and what it asks."""

    name: str  # "MkDocs", "VitePress" or "Jekyll"
    #: Its configuration file, a repository path: ``mkdocs.yml``, ``docs/.vitepress/config.ts``.
    config_file: str
    slugs: SlugStyle
    #: What the configuration asks that ``slugs`` only comes near ("" when nothing): a
    #: slugify sitegen does not have, or options of one it has (the build warns).
    approximated: str = ""
    #: The folder whose files are published at the site root (VitePress's ``public/`` in the
    #: content folder), a repository path; "" for none.
    public: str = ""
    #: The folder the configuration reads pages from (MkDocs' ``docs_dir``, relative to the
    #: ``mkdocs.yml`` that names it), a repository path; "" for the root or not known.
    docs_dir: str = ""
    #: The configuration files the page tree is read from, (repository path, text): read
    #: here, once, so that the build's fingerprint holds them (content/guides/navigation.md).
    sources: tuple[tuple[str, str], ...] = ()
    #: The folder the tool runs from, a repository path ("" for the root), whose output and
    #: cache folders it names relative to it (VitePress's project root, the folder holding
    #: ``.vitepress``); None: the configuration file's folder (``project_folder`` says).
    project_dir: str | None = None
    #: Whether the configuration decides how heading ids are made (``slugs``): Jekyll's
    #: decides addresses only, and the build does not name it for the ids.
    decides_slugs: bool = True
    #: The folder include extensions start from (markdown-include, pymdownx.snippets read
    #: from where MkDocs runs), a repository path; "" for none or the root.
    include_base: str = ""
    #: The languages the configuration names: (folder relative to the content folder, "" for
    #: the root; language tag; the switcher's label, None when not given).
    locales: tuple[tuple[str, str, str | None], ...] = field(default=(), repr=False)
    #: Where the page tree comes from (a ``NavSpec`` subclass of the family module that
    #: sitegen/site/navigation.py reads); None: the folders' tree.
    nav: NavSpec | None = field(default=None, repr=False)
    #: Whether pages are published as ``a/`` (True) or ``a.html`` (False) by the
    #: configuration (MkDocs' ``use_directory_urls``); None: it does not decide; and the
    #: option that decides it, for the build's layout line.
    directory_urls: bool | None = None
    urls_option: str = ""
    #: Whether a URL in a page's raw HTML (``<img src>``, ``<a href>``) is read from the
    #: page's published URL (``a/b/`` for ``a/b.md``) rather than from its file's folder: so
    #: a browser reads it when the generator rewrites markdown links only (MkDocs with
    #: directory URLs; content/guides/linking.md#raw-html-read-from-the-pages-url).
    raw_html_from_url: bool = False
    #: Old addresses the configuration redirects (mkdocs-redirects' ``redirect_maps``):
    #: (old path, new path or URL, line in the configuration file), sorted.
    redirect_maps: tuple[tuple[str, str, int], ...] = field(default=(), repr=False)
    #: The Python handler table of the API plugin (mkdocstrings' ``handlers: python``:
    #: ``paths``, ``options``), read as data; {} for none.
    api_handler: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: The folder page routes are named from (VitePress's ``srcDir``), a repository path;
    #: None: links name pages by their paths in the content folder. With ``rewrites``, the
    #: configuration's page rewrites (source, target) as given (string values only).
    route_root: str | None = None
    rewrites: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: What Jekyll's address rules are read from (``_config.yml``'s collections, defaults
    #: and permalink style: sitegen/link/jekyll.py); None for other families.
    permalinks: JekyllConfig | None = field(default=None, repr=False)
    #: What the docs step reads besides CommonMark and sitegen's syntaxes.
    dialect: Dialect = Dialect.NONE
    #: The file extensions of pages (Docusaurus adds ``.mdx``), lower case.
    page_extensions: tuple[str, ...] = PAGE_EXTENSIONS
    #: Folders (repository paths) whose files are published at the site root besides
    #: ``public`` (Docusaurus's ``staticDirectories``, ``static/`` by default).
    static: tuple[str, ...] = ()
    #: The URL folder the content folder's pages are published under ("" for the site root;
    #: Docusaurus's ``routeBasePath``, ``docs`` by default).
    route_base: str = ""
    #: Whether the docs folder's pages are published and linked Docusaurus's way
    #: (sitegen/link/docusaurus.py): at ``route_base`` + their slug (front matter ``slug``,
    #: else folder and ``id``, number prefixes off), ``draft: true`` left out, a file path of
    #: a link read from ``docs_dir`` too, ``@site/`` from the configuration's folder.
    doc_routes: bool = False
    #: Globs of the pages the family publishes, relative to ``docs_dir`` (Docusaurus's
    #: ``include``); () for every page. A page matching ``page_exclude`` is left out.
    page_include: tuple[str, ...] = ()
    page_exclude: tuple[str, ...] = ()
    #: The language of the pages the configuration names (Docusaurus's
    #: ``i18n.defaultLocale``), a language tag; "" for none: the ``lang`` option's default.
    lang: str = ""
    #: The site's title the configuration gives (Quartz's ``pageTitle``), "" for none: the
    #: ``title`` option's default before the home page's title.
    title: str = ""
    #: The absolute URL the configuration publishes the site under (Quartz's ``baseUrl``),
    #: "" for none: the ``base_url`` option's default.
    base_url: str = ""
    #: Files and folders of the content folder never read: globs relative to it, as globby
    #: reads them (Quartz's ``ignorePatterns``; sitegen/base/paths.py ``glob_matches``).
    ignore: tuple[str, ...] = ()
    #: Stylesheets of the content folder (repository paths) every page links after the
    #: theme's, in order (Obsidian Publish's ``publish.css``).
    stylesheets: tuple[str, ...] = ()
    #: Why the content folder's own files alone are read ("the content is an Obsidian vault
    #: (found en/publish.css)"), "" when not: no source root is read unless ``source`` is set.
    own_folders: str = ""
    #: The blog the configuration publishes besides the content (Docusaurus's ``blog/``);
    #: None: no blog, posts are not read.
    blog: Blog | None = field(default=None, repr=False)
    #: What the configuration holds that sitegen could not read, one warning each; the
    #: build reports them with the layout.
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def project_folder(self) -> str:
        """The folder the tool runs from: ``project_dir``, else the configuration's folder."""
        if self.project_dir is not None:
            return self.project_dir
        return posixpath.dirname(self.config_file)

    def source(self, path: str) -> str | None:
        """The text of the configuration file ``path`` read with it, or None."""
        return next((text for rel, text in self.sources if rel == path), None)


def folders_up(folder: str) -> list[str]:
    """``folder`` and each folder above it, up to the root (""), nearest first."""
    out = [folder]
    while folder:
        folder = posixpath.dirname(folder)
        out.append(folder)
    return out


def configs_up(root: Path, content: str, name: str) -> Iterator[tuple[str, str, str]]:
    """Each file ``name`` in the content folder or a folder above it (up to the root),
    nearest first, inside the root only: its folder, its repository path and its text."""
    real_root = root.resolve()
    for folder in folders_up(content):
        rel = posixpath.join(folder, name)
        path = root / rel
        if not path.is_file() or not is_within(path.resolve(), real_root):
            continue
        try:
            # One character past the limit at most: the YAML reader refuses that before
            # parsing, and a file of gigabytes is never held whole.
            with path.open(encoding="utf-8", errors="replace") as file:
                text = file.read(MAX_CHARACTERS + 1)
        except OSError:
            continue
        yield folder, rel, text


def read_file_inside(root: Path, rel: str, limit: int) -> str | None:
    """The text of the file ``rel`` inside the root (never through a link leading out), its
    first ``limit`` characters; None when there is no such file."""
    path = root / rel
    try:
        if not path.is_file() or not is_within(path.resolve(), root.resolve()):
            return None
        with path.open(encoding="utf-8", errors="replace") as file:
            return file.read(limit)
    except OSError:
        return None
