"""What a page shows of the site's locales (content/guides/locales.md): the language of its
``<html>`` and the language switcher, a link to the same page in each other locale where it
exists; and each locale's own page tree when the tree is the folders'.

Reads the finished build's pages and addresses; never resolves links and never writes.
"""

from __future__ import annotations

from collections.abc import Mapping

from sitegen.addresses import Addresses
from sitegen.analyse.locale_folders import Locales
from sitegen.base.paths import NodeId, OutPath
from sitegen.docs.prose import page_language
from sitegen.records.pages import PageRecord
from sitegen.site.navigation import build_nav
from sitegen.site.views import LinkItem, NavItem


def page_langs(
    pages: Mapping[NodeId, PageRecord], locales: Locales, default: str, addresses: Addresses
) -> dict[OutPath, str]:
    """Each page's language where it is not ``default``: its front matter's ``lang``, else
    its locale's."""
    out: dict[OutPath, str] = {}
    for node, rec in sorted(pages.items()):
        locale = locales.of(node)
        lang = page_language(rec.front_matter, locale.lang if locale else default)
        if lang != default:
            out[addresses.out(node)] = lang
    return out


def switchers(
    pages: Mapping[NodeId, PageRecord], locales: Locales, addresses: Addresses
) -> dict[OutPath, tuple[LinkItem, ...]]:
    """Each page's language switcher: every locale by its label (``note``: its language
    tag), linked to the same page in that locale, unlinked for the page's own; a locale
    without that page is left out. The root's first, then by folder. A page alone in its language gets none."""
    out: dict[OutPath, tuple[LinkItem, ...]] = {}
    if not locales:
        return out
    for node in sorted(pages):
        here = locales.of(node)
        page_out = addresses.out(node)
        items = []
        for locale in sorted(locales.locales, key=lambda x: (bool(x.folder), x.folder)):
            other = node if locale == here else locales.counterpart(node, locale)
            if other not in pages or locales.of(other) != locale:
                continue
            href = "" if other == node else addresses.href(page_out, other)
            items.append(LinkItem(locale.label, href, locale.lang))
        if len(items) > 1:
            out[page_out] = tuple(items)
    return out


def locale_navs(
    pages: dict[NodeId, PageRecord], locales: Locales, addresses: Addresses
) -> dict[NodeId, tuple[NavItem, ...]]:
    """The folder tree of each page's own locale: a locale folder's pages, its index page
    first, without the folder around them; the root's pages without the other locales."""
    trees: dict[str, tuple[NavItem, ...]] = {}
    for locale in locales.locales:
        mine = {n: r for n, r in pages.items() if locales.of(n) == locale}
        tree, _ = build_nav(mine, addresses)
        if locale.folder and len(tree) == 1 and tree[0].is_folder:
            folder = tree[0]
            first = (NavItem(folder.title, folder.href),) if folder.href else ()
            tree = first + folder.children
        trees[locale.folder] = tree
    out: dict[NodeId, tuple[NavItem, ...]] = {}
    for node in pages:
        own = locales.of(node)
        if own is not None:
            out[node] = trees[own.folder]
    return out
