"""View objects: the frozen contract between the build (which fills them) and the templates.

Every string here is plain text that the templates escape, except the fields typed ``Markup``
(already-safe HTML made by sitegen itself). This module never reads files and never renders.

Href rule: every href is percent-encoded (``sitegen.base.paths.url_path``). ``NavItem.href`` is
relative to the SITE ROOT (``guides/a.html``), because one nav
tree is shared by every page and the template prefixes ``SiteContext.root_prefix``. Every
other href (``css_href``, crumbs, backlinks, code refs, symbols, index and report cells) is
already relative to the page being rendered.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from markupsafe import Markup

from sitegen.base.paths import url_path


def _as_markup(obj: object, name: str) -> None:
    """Frozen dataclasses can't assign in ``__post_init__`` the usual way; this marks HTML safe."""
    value = getattr(obj, name)
    if not isinstance(value, Markup):
        object.__setattr__(obj, name, Markup(value))


@dataclass(frozen=True)
class NavItem:
    """One entry of the page tree. A folder has ``is_folder`` and children; its ``href`` is
    its index page (or ``""`` when it has none). ``current`` may be left False everywhere
    when ``SiteContext.current_href`` names the current page (the fast path)."""

    title: str
    href: str = ""
    current: bool = False
    children: tuple[NavItem, ...] = ()
    is_folder: bool = False

    @property
    def first_href(self) -> str:
        """Where a pruned folder links: its index page, else its first page (as Material for
        MkDocs' navigation.prune does); "" for a folder with no page below it."""
        if self.href or not self.is_folder:
            return self.href
        return next((h for h in (c.first_href for c in self.children) if h), "")


@dataclass(frozen=True)
class Crumb:
    """One step of the breadcrumbs: a folder or page title and its link."""

    title: str
    href: str = ""  # "" for the last crumb (the page itself)


@dataclass(frozen=True)
class TocEntry:
    """One heading in the table of contents: its level (2-4), text and id."""

    level: int
    text: str
    id: str


@dataclass(frozen=True)
class BacklinkEntry:
    """One edge pointing at the page: the source's title, a link to the exact section
    (``page.html#anchor``) and its EdgeAnnotation (content/reference/edges.md)."""

    title: str
    href: str
    annotation: str
    rel: str = ""
    detail: str = ""  # optional extra note shown after the annotation
    source: str = ""  # the source node id, for the CLI text


@dataclass(frozen=True)
class BacklinkGroup:
    heading: str  # "Superseded by", "Linked from", ...
    rel: str  # the predicate; "" for plain body links
    entries: tuple[BacklinkEntry, ...]
    #: The heading's id after ``backlinks-`` when not made from ``rel`` (``peers``).
    group_id: str = ""

    @property
    def count(self) -> int:
        return len(self.entries)


@dataclass(frozen=True)
class CodeRef:
    """A source file (comment or docstring) that links to the page."""

    path: str  # repository path of the source file
    line: int
    href: str  # to the source page's line anchor: ``code/x.py.html#L12``
    annotation: str = ""


@dataclass(frozen=True)
class LinkItem:
    """A titled link used by lists that need no annotation (related pages, imports).
    An empty href renders as plain text (an external module, a missing file)."""

    title: str
    href: str = ""
    note: str = ""


@dataclass(frozen=True)
class StaleItem:
    """One documented thing that changed after the page: ``a.py:Parser.feed``, its source
    line's href, how the page points at it, and the commits (count, latest)."""

    target: str
    href: str
    how: str
    commits: str


@dataclass(frozen=True)
class StaleNotice:
    """ "The code this page documents changed after it", on a stale page."""

    title: str
    since: str  # the page's last change: date and short hash
    items: tuple[StaleItem, ...]
    commits: str = ""  # the commits since that changed what it documents: count, the newest
    report_href: str = ""


@dataclass(frozen=True)
class HomeFeature:
    """One feature of a home page: its title, its details and, when it links, its href."""

    title: str
    details: str = ""
    href: str = ""


@dataclass(frozen=True)
class HomeView:
    """What a ``layout: home`` page's front matter shows above its body (VitePress' hero
    and features): plain text and hrefs, escaped by the template."""

    name: str = ""
    text: str = ""
    tagline: str = ""
    actions: tuple[LinkItem, ...] = ()  # note: the action's theme ("brand", "alt")
    features: tuple[HomeFeature, ...] = ()


@dataclass(frozen=True)
class PostHeader:
    """What a blog post shows under its title (sitegen/site/blog.py): its date, its authors
    (name, link, title as the note) and its tags, each linking to its tag page."""

    date: str  # YYYY-MM-DD, "" for none
    date_text: str  # "May 1, 2021"
    authors: tuple[LinkItem, ...] = ()
    tags: tuple[LinkItem, ...] = ()  # and Material's categories, linking to their pages
    avatars: tuple[str, ...] = ()  # each author's picture (an http(s) URL), "" for none
    readtime: str = ""  # "5 min read" (Material's), "" for none


@dataclass(frozen=True)
class PostSummary:
    """One post on the blog's index or a tag page: its title, link, header and summary."""

    title: str
    href: str
    header: PostHeader
    summary_html: str  # the post's HTML before its truncate marker: Markup on construction
    truncated: bool = False

    def __post_init__(self) -> None:
        _as_markup(self, "summary_html")


@dataclass(frozen=True)
class BlogView:
    """A page of the blog's index, or a tag's page: its posts, newest first."""

    title: str
    posts: tuple[PostSummary, ...]
    intro: str = ""
    crumbs: tuple[Crumb, ...] = ()
    newer_href: str = ""  # the previous index page, "" on the first
    older_href: str = ""  # the next index page, "" on the last
    tags_href: str = ""  # the page of every tag, "" for none
    #: Material's archive (by year) and category pages, linked from each page of the blog.
    archive: tuple[LinkItem, ...] = ()
    categories: tuple[LinkItem, ...] = ()


@dataclass(frozen=True)
class PageView:
    title: str
    body_html: str  # sitegen's rendered markdown: marked Markup (trusted) on construction
    toc: tuple[TocEntry, ...] = ()
    crumbs: tuple[Crumb, ...] = ()
    backlinks: tuple[BacklinkGroup, ...] = ()
    code_refs: tuple[CodeRef, ...] = ()
    related: tuple[LinkItem, ...] = ()
    raw_href: str = ""
    node_id: str = ""
    edit_href: str = ""  # "Edit this page" (repo_url + edit_uri), "" for none
    modified: str = ""  # YYYY-MM-DD of the last commit that changed the page, "" outside git
    tags: tuple[LinkItem, ...] = ()  # each to its tag page
    stale: StaleNotice | None = None  # when the code it documents changed after it
    home: HomeView | None = None  # a ``layout: home`` page's hero and features
    post: PostHeader | None = None  # a blog post's date, authors and tags
    hide_title: bool = False  # front matter ``hide_title: true``: no generated h1
    unlisted: bool = False  # front matter ``unlisted: true``: a notice, and noindex

    def __post_init__(self) -> None:
        _as_markup(self, "body_html")

    @property
    def has_h1(self) -> bool:
        """Whether the body brings its own h1, so the template must not add a second one."""
        return "<h1" in self.body_html

    @property
    def backlink_count(self) -> int:
        return sum(g.count for g in self.backlinks)


@dataclass(frozen=True)
class SymbolEntry:
    """One symbol in a source page's outline, with the line it is defined on."""

    kind: str  # function, class, method, ...
    name: str
    visibility: str  # "public", "private" or ""
    line: int
    href: str  # "#L12"
    depth: int = 0  # nesting depth (a method of a class is 1)


@dataclass(frozen=True)
class SourceView:
    title: str
    path: str  # repository path
    language: str
    code_html: str  # from render.highlight_source: marked Markup (trusted) on construction
    symbols: tuple[SymbolEntry, ...] = ()
    imports: tuple[LinkItem, ...] = ()
    imported_by: tuple[LinkItem, ...] = ()
    references_out: tuple[LinkItem, ...] = ()
    references_in: tuple[LinkItem, ...] = ()
    documented_by: tuple[BacklinkEntry, ...] = ()
    cycles: tuple[LinkItem, ...] = ()  # cycle memberships, linking into cycles.html
    crumbs: tuple[Crumb, ...] = ()
    backlinks: tuple[BacklinkGroup, ...] = ()  # other document edges to this file
    related: tuple[LinkItem, ...] = ()  # related pages, each with its one-line reason
    node_id: str = ""
    raw_href: str = ""
    line_count: int = 0
    #: Per function, where each of its values comes from (def-use flow; Python and Rust).
    data_flow: tuple[FunctionFlow, ...] = ()

    def __post_init__(self) -> None:
        _as_markup(self, "code_html")


@dataclass(frozen=True)
class IndexEntry:
    """One page in an index (all pages, a tag, the source files)."""

    title: str
    href: str
    inbound: int = 0  # how many pages link here; the build sorts most-linked first
    note: str = ""


@dataclass(frozen=True)
class IndexSection:
    """A titled group of index entries (a top-level folder, a tag's pages)."""

    title: str
    pages: tuple[IndexEntry, ...]


@dataclass(frozen=True)
class IndexView:
    """A page that lists pages: index.html, a tag page, code/index.html."""

    title: str
    sections: tuple[IndexSection, ...]
    intro: str = ""
    crumbs: tuple[Crumb, ...] = ()


@dataclass(frozen=True)
class ReportCell:
    """One cell of a report table: text, an optional link, monospace or not."""

    text: str
    href: str = ""
    code: bool = False  # monospace: paths, locations, ids


#: A report cell may be given as a plain string; the renderer turns it into a ReportCell.
Cell = ReportCell | str


@dataclass(frozen=True)
class ReportTable:
    """A further table of a report, under its own heading."""

    heading: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    intro: str = ""


@dataclass(frozen=True)
class ReportView:
    """A findings page: one main table (``columns``/``rows``) and optional further tables."""

    title: str
    intro: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    tables: tuple[ReportTable, ...] = ()
    crumbs: tuple[Crumb, ...] = ()
    empty_text: str = "Nothing to report."


@dataclass(frozen=True)
class SiteContext:
    """What base.html needs about the site and where the current page sits in it.

    Build ONE ``nav`` tuple and reuse the same object for every page (``dataclasses.replace``
    the per-page fields): the renderer caches the rendered tree per folder by its identity.
    """

    site_title: str
    root_prefix: str = ""  # "../" per folder level between the page and the site root
    nav: tuple[NavItem, ...] = ()
    css_href: str = "style.css"
    graph_href: str = "graph.html"
    index_href: str = "index.html"
    current_href: str = ""  # the current page, relative to the site root ("guides/a.html")
    lang: str = "en"
    scripts: tuple[str, ...] = field(default=())  # extra site-local scripts, page-relative
    #: The header's links to the reports: (title, href relative to the SITE ROOT).
    reports: tuple[tuple[str, str], ...] = ()
    #: The language switcher: each locale's label, the href of the same page in it ("" for
    #: the current one) and its language tag as ``note`` (content/guides/locales.md).
    languages: tuple[LinkItem, ...] = ()
    #: The page's locale number, which search keeps results to ("" on a one-language site).
    locale: str = ""
    #: The content's own stylesheets, linked after the theme's (Obsidian Publish's
    #: ``publish.css``): URL paths from the site root.
    stylesheets: tuple[str, ...] = ()


def root_prefix_for(out_path: str) -> str:
    """``guides/a.html`` -> ``../``; ``index.html`` -> ``""``."""
    folder = posixpath.dirname(out_path.strip("/"))
    return "../" * (folder.count("/") + 1) if folder else ""


def site_context_for(
    site_title: str, nav: tuple[NavItem, ...], out_path: str, **extra: object
) -> SiteContext:
    """The SiteContext of the page published at ``out_path`` (relative to the site root)."""
    prefix = root_prefix_for(out_path)
    return SiteContext(
        site_title=site_title,
        root_prefix=prefix,
        nav=nav,
        css_href=prefix + "style.css",
        graph_href=prefix + "graph.html",
        index_href=prefix + "index.html",
        current_href=url_path(out_path.strip("/")),
        **extra,  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class ValueSource:
    """A value that flows into another: its name, what it is, where it is bound."""

    name: str
    scope: str  # "parameter", "local", "closure", ...
    line: int
    href: str  # "#L12"


@dataclass(frozen=True)
class ValueOrigin:
    """One value of a function (a parameter, a binding, a returned value) and its sources."""

    name: str
    scope: str
    type_hint: str
    line: int
    href: str
    sources: tuple[ValueSource, ...] = ()


@dataclass(frozen=True)
class FunctionFlow:
    """One function's values and where each comes from, in source order."""

    name: str  # qualified name of the function
    line: int
    href: str
    values: tuple[ValueOrigin, ...] = ()
