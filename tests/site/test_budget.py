"""SITE.md budget: a page's own HTML + CSS (without its content) stays under 30 KB."""

from __future__ import annotations

import pytest

from sitegen.site.render import Renderer
from sitegen.site.views import (
    BacklinkEntry,
    BacklinkGroup,
    Crumb,
    NavItem,
    PageView,
    TocEntry,
    site_context_for,
)

BUDGET = 30 * 1024


def _nav(folders: int, per_folder: int) -> tuple[NavItem, ...]:
    return tuple(
        NavItem(
            f"Folder number {f}",
            f"folder-{f}/index.html",
            is_folder=True,
            children=tuple(
                NavItem(f"A page called {f}.{i}", f"folder-{f}/page-{i}.html")
                for i in range(per_folder)
            ),
        )
        for f in range(folders)
    )


@pytest.mark.parametrize("folders,per_folder", [(5, 8), (9, 10), (40, 50), (3, 400)])
def test_empty_page_with_css_is_under_budget(folders: int, per_folder: int) -> None:
    renderer = Renderer()
    css = renderer.static_files()["style.css"]
    site = site_context_for("A site", _nav(folders, per_folder), "folder-1/page-2.html")
    page = PageView(
        "A page called 1.2",
        "",
        toc=(TocEntry(2, "Section", "section"),),
        crumbs=(Crumb("Folder number 1", "index.html"), Crumb("A page called 1.2")),
    )
    html = renderer.render_page(site, page).encode("utf-8")
    assert len(html) + len(css) < BUDGET, (len(html), len(css))


def test_the_backlinks_chrome_is_small_too() -> None:
    renderer = Renderer()
    entries = tuple(BacklinkEntry(f"P{i}", f"p{i}.html", "") for i in range(3))
    page = PageView("T", "", backlinks=(BacklinkGroup("Linked from", "", entries),))
    empty = PageView("T", "")
    site = site_context_for("S", _nav(3, 3), "folder-0/page-0.html")
    grown = len(renderer.render_page(site, page)) - len(renderer.render_page(site, empty))
    assert grown < 1024
