"""The page tree and the breadcrumbs: folders, their index pages and the order the author
gives (an ``order`` key in front matter, ``nav_order`` and ``weight`` accepted, or an
``mkdocs.yml`` ``nav:`` followed as MkDocs does), as content/guides/site.md describes.

Pure functions of page records and the text of ``mkdocs.yml``; never reads files and never
renders anything.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.addresses import HTML_ADDRESSES, Addresses
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import (
    FRONT_PAGE,
    NodeId,
    OutPath,
    href_between,
    page_node_id,
    raw_out_path,
    repo_path_within,
    url_path,
)
from sitegen.config import Config
from sitegen.generators import MKDOCS_FILE, MkDocsNavSpec, VitePressNavSpec
from sitegen.generators.docusaurus import DocusaurusSidebars
from sitegen.generators.obsidian import PublishNavSpec
from sitegen.records.pages import PageRecord
from sitegen.site.docusaurus import docusaurus_nav
from sitegen.site.home import front_page
from sitegen.site.views import Crumb, NavItem
from sitegen.site.vitepress import vitepress_nav

#: The front-matter key sitegen documents, then the names other generators use for it.
ORDER_KEYS = ("order", "nav_order", "weight")


def page_order(rec: PageRecord | None) -> float | None:
    """The page's place among its siblings, if its front matter gives one (a number)."""
    if rec is None:
        return None
    for key in ORDER_KEYS:
        value = rec.front_matter.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def sort_key(order: float | None, is_folder: bool, name: str) -> tuple[bool, float, bool, str]:
    """Ordered pages first (by their number), then folders, then pages, each by name."""
    return (order is None, order or 0.0, not is_folder, name)


def humanize(name: str) -> str:
    """A title from a file or folder name: ``getting-started`` -> ``Getting started``."""
    stem = posixpath.splitext(name)[0].replace("-", " ").replace("_", " ").strip()
    return stem[:1].upper() + stem[1:] if stem else name


def is_index(rel: str) -> bool:
    """Whether the page at ``rel`` (inside the content folder) can be its folder's page."""
    return posixpath.basename(rel).lower() in ("index.md", "readme.md")


def folder_title(
    folder: str, pages: Mapping[NodeId, PageRecord], folder_index: Mapping[str, NodeId]
) -> str:
    """A folder's title: its index page's title, else its name made readable."""
    idx = folder_index.get(folder)
    return pages[idx].title if idx else humanize(posixpath.basename(folder))


def build_nav(
    pages: dict[NodeId, PageRecord],
    addresses: Addresses = HTML_ADDRESSES,
    listed: tuple[str, ...] = (),
) -> tuple[tuple[NavItem, ...], dict[str, NodeId]]:
    """The page tree (the home page first, then pages and folders by their front-matter
    ``order``, then folders by name, then pages by file name; a folder's index page is the
    folder's link), and each folder's index node. ``listed`` gives folders and pages (paths
    in the content folder) their order before any front matter (Obsidian Publish's
    navigation order: content/guides/obsidian.md)."""
    rank = {path: float(i) for i, path in enumerate(listed)}
    folder_index: dict[str, NodeId] = {}
    in_folder: dict[str, list[NodeId]] = {}
    subfolders: dict[str, set[str]] = {}
    for node in sorted(pages):
        rel = raw_out_path(node)
        folder = posixpath.dirname(rel)
        in_folder.setdefault(folder, []).append(node)
        if is_index(rel) and (folder not in folder_index or rel.lower().endswith("index.md")):
            folder_index[folder] = node
        while folder:  # every ancestor folder lists the next one down
            parent = posixpath.dirname(folder)
            subfolders.setdefault(parent, set()).add(folder)
            folder = parent
    front = front_page(pages, addresses, folder_index.get(""))  # permalink: / too
    folder_index.update({"": front} if front is not None else {})

    def page(node: NodeId) -> NavItem:
        return NavItem(title=pages[node].title, href=url_path(addresses.out(node)))

    def items(folder: str) -> tuple[NavItem, ...]:
        home = [page(folder_index[""])] if not folder and "" in folder_index else []
        keyed = []  # in the order the author gives (content/guides/site.md), else by name
        for sub in sorted(subfolders.get(folder, ())):
            idx = folder_index.get(sub)
            keyed.append(
                (
                    sort_key(
                        rank.get(sub, page_order(pages.get(idx) if idx else None)),
                        True,
                        posixpath.basename(sub),
                    ),
                    NavItem(
                        title=folder_title(sub, pages, folder_index),
                        href=url_path(addresses.out(idx)) if idx else "",
                        children=items(sub),
                        is_folder=True,
                    ),
                )
            )
        keyed += [
            (
                sort_key(
                    rank.get(raw_out_path(n), page_order(pages[n])), False, posixpath.basename(n)
                ),
                page(n),
            )
            for n in in_folder.get(folder, [])
            if folder_index.get(folder) != n
        ]
        return tuple(home + [item for _, item in sorted(keyed, key=lambda k: k[0])])

    return items(""), folder_index


def home_crumb(out: OutPath, linked: bool = True) -> Crumb:
    """The first crumb of every trail, the page's and the source page's: Home, linked to the
    site's front page from ``out`` unless ``out`` is that page."""
    return Crumb("Home", href_between(out, FRONT_PAGE) if linked else "")


def breadcrumbs(
    node: NodeId,
    pages: Mapping[NodeId, PageRecord],
    folder_index: Mapping[str, NodeId],
    out: OutPath,
    addresses: Addresses = HTML_ADDRESSES,
) -> tuple[Crumb, ...]:
    """The trail above a page's title: Home, each folder down to the page's own (linked to
    its index page, when it has one), then the page itself, unlinked. The page a crumb names
    is never linked, so a folder's index page ends at its folder. Home is the site's
    ``index.html``, which always exists: the home page, or the list of all pages when the
    content has none (the source pages' trail links it the same way)."""
    rel = raw_out_path(node)
    parts = rel.split("/")[:-1]
    crumbs = []
    home = folder_index.get("")
    crumbs.append(home_crumb(out, linked=node != home))
    for i in range(len(parts)):
        folder = "/".join(parts[: i + 1])
        idx = folder_index.get(folder)
        href = addresses.href(out, idx) if idx and idx != node else ""
        crumbs.append(Crumb(folder_title(folder, pages, folder_index), href))
    if (not is_index(rel) or parts == []) and node != home:
        crumbs.append(Crumb(pages[node].title if node in pages else rel, ""))
    return tuple(crumbs)


def project_nav(
    config: Config,
    pages: Mapping[NodeId, PageRecord],
    diagnostics: list[Diagnostic],
    addresses: Addresses = HTML_ADDRESSES,
) -> tuple[tuple[NavItem, ...] | None, dict[NodeId, tuple[NavItem, ...]]]:
    """The page tree the project's own generator configuration gives
    (content/guides/navigation.md), and the tree of each page that shows another one (a
    VitePress sidebar per path prefix, the Docusaurus sidebar that lists the page): an
    ``mkdocs.yml`` ``nav:``, VitePress' ``themeConfig.sidebar``, Docusaurus's sidebars
    (sitegen/site/docusaurus.py); (None, {}) when there is none, and the tree is the
    folders'."""
    found = config.generator
    if found is None:
        return None, {}
    section = api_section(config, pages, addresses)
    if isinstance(found.nav, MkDocsNavSpec):
        nav = mkdocs_nav(found.nav, config.content, pages, diagnostics, addresses)
        return (with_section(nav, section) if nav is not None else None), {}
    if isinstance(found.nav, DocusaurusSidebars):  # the sidebar the page is in, as Docusaurus
        sidebars = docusaurus_nav(found, config.content_rel, pages, diagnostics, addresses)
        if sidebars is not None:
            per_page = {
                node: with_section(sidebars.nav_of(node), section) for node in sorted(pages)
            }
            return with_section(sidebars.nav_of(NodeId("/index.md")), section), per_page
    if isinstance(found.nav, PublishNavSpec):  # the folders' tree in Publish's order
        return with_section(build_nav(dict(pages), addresses, found.nav.order)[0], section), {}
    if isinstance(found.nav, VitePressNavSpec):
        trees = vitepress_nav(found, config.content_rel, pages, diagnostics, addresses)
        if trees is not None:
            per_page = {node: with_section(trees.nav_of(node), section) for node in sorted(pages)}
            return with_section(trees.nav_of(NodeId("/index.md")), section), per_page
    return None, {}


def api_section(
    config: Config, pages: Mapping[NodeId, PageRecord], addresses: Addresses = HTML_ADDRESSES
) -> NavItem | None:
    """The "API reference" section of the ``api`` option's pages
    (content/guides/configuration.md#api): the folders' tree of the pages in ``api_folder``,
    in the order of the site's own tree (a package's subpackages, then its modules), for a
    tree the project writes itself, page by page; None without the option or its pages."""
    if not config.api:
        return None
    folder = config.api_folder
    inside = {n: rec for n, rec in pages.items() if repo_path_within(raw_out_path(n), folder)}
    items, _ = build_nav(inside, addresses)
    section = None
    for _ in folder.split("/"):  # one folder a level: every page lies below ``folder``
        found = next((item for item in items if item.is_folder), None)
        if found is None:
            return None
        section, items = found, found.children
    return section


def with_section(nav: tuple[NavItem, ...], section: NavItem | None) -> tuple[NavItem, ...]:
    """A project's own tree with the API section at its end, unless it lists one of the
    section's pages already (the author placed them) or is empty (a page without a tree)."""
    if section is None or not nav or _hrefs(nav) & _hrefs((section,)):
        return nav
    return (*nav, section)


def _hrefs(items: tuple[NavItem, ...]) -> set[str]:
    found: set[str] = set()
    stack = list(items)
    while stack:
        item = stack.pop()
        if item.href:
            found.add(item.href)
        stack += item.children
    return found


def mkdocs_nav(
    spec: MkDocsNavSpec,
    content: str,
    pages: Mapping[NodeId, PageRecord],
    diagnostics: list[Diagnostic],
    addresses: Addresses = HTML_ADDRESSES,
) -> tuple[NavItem, ...] | None:
    """The page tree of the ``mkdocs.yml`` that ``spec`` holds (read by
    sitegen/generators/mkdocs.py) whose ``docs_dir`` (relative to that file's folder) is the
    content folder or a folder inside it, or None when it has no ``nav:`` (or is about
    another folder); a file that is not YAML is one warning."""
    config_file = spec.config_file
    if spec.problem is not None:
        line, _, why = spec.problem
        diagnostics.append(
            Diagnostic(
                config_file,
                line + 1,
                1,
                Level.WARNING,
                f"{posixpath.basename(config_file)} {why}; its nav is not used",
                "mkdocs-nav",
            )
        )
        return None
    config = spec.data
    if not isinstance(config, dict) or not isinstance(config.get("nav"), list):
        return None
    docs_dir, content = spec.docs_dir, content.strip("/")
    if docs_dir == ".." or not repo_path_within(docs_dir, content):
        return None
    prefix = docs_dir[len(content) :].strip("/") if content else docs_dir
    reader = _Reader(spec.text, pages, diagnostics, addresses, config_file, prefix)
    return tuple(_entries(config["nav"], reader))


@dataclass
class _Reader:
    text: str
    pages: Mapping[NodeId, PageRecord]
    diagnostics: list[Diagnostic]
    addresses: Addresses
    #: The mkdocs.yml read, and where its docs_dir lies inside the content folder.
    config_file: str = MKDOCS_FILE
    prefix: str = ""

    def line_of(self, path: str) -> int:
        at = self.text.find(path)
        return self.text.count("\n", 0, at) + 1 if at >= 0 else 1


def _entries(entries: list[Any], reader: _Reader) -> list[NavItem]:
    items = []
    for entry in entries:
        title, value = _title_and_value(entry)
        if isinstance(value, list):
            children = tuple(_entries(value, reader))
            title = title or _untitled_section(children)
            items.append(NavItem(title=title, children=children, is_folder=True))
        elif isinstance(value, str):
            item = _page_item(title, value, reader)
            if item is not None:
                items.append(item)
    return items


def _title_and_value(entry: Any) -> tuple[str, Any]:
    if isinstance(entry, dict) and len(entry) == 1:
        title, value = next(iter(entry.items()))
        return str(title), value
    return "", entry


def _page_item(title: str, path: str, reader: _Reader) -> NavItem | None:
    if "://" in path or path.startswith(("mailto:", "/")):
        return None  # links out of the site: the page tree lists pages only
    node = page_node_id(posixpath.normpath(posixpath.join(reader.prefix, path)))
    rec = reader.pages.get(node)
    if rec is None:
        reader.diagnostics.append(
            Diagnostic(
                reader.config_file,
                reader.line_of(path),
                1,
                Level.WARNING,
                f"the nav entry "
                f"'{path}' names no page of the content folder; it is "
                "left out of the page tree",
                "mkdocs-nav",
            )
        )
        return None
    return NavItem(title=title or rec.title, href=url_path(reader.addresses.out(node)))


def _untitled_section(children: tuple[NavItem, ...]) -> str:
    """The title of a section written ``"":`` in mkdocs.yml: its first page's, as Material's
    ``navigation.indexes`` shows it (FastAPI's "Learn" is ``"": [learn/index.md, …]``), or
    "Section" when it starts with another section."""
    first = children[0] if children else None
    return first.title if first is not None and not first.is_folder else "Section"
