"""The breadcrumbs above a page's title (content/guides/site.md, "Breadcrumbs"): Home, each
folder down to the page's own, then the page; Home and each folder linked to its page when
it has one (the home page, the folder's index page or README), the page itself never, with
hrefs relative to the page."""

from __future__ import annotations

import re

from sitegen.base.paths import NodeId, html_out_path
from sitegen.docs.markdown import extract_page
from sitegen.site.navigation import breadcrumbs, build_nav
from sitegen.site.render import Renderer
from sitegen.site.views import Crumb


def _crumbs(files: dict[str, str], page: str) -> list[tuple[str, str]]:
    """The trail of ``page`` in a content folder of ``files``, as (title, href) pairs."""
    pages = {
        NodeId("/" + path): extract_page("docs/" + path, text.encode())
        for path, text in sorted(files.items())
    }
    _, folder_index = build_nav(pages)
    node = NodeId("/" + page)
    return [(c.title, c.href) for c in breadcrumbs(node, pages, folder_index, html_out_path(node))]


SITE = {
    "index.md": "# Welcome\n",
    "guide/index.md": "---\ntitle: The guide\n---\n# Guide heading\n",
    "guide/setup.md": "# Setting up\n",
    "guide/deep_dive/more.md": "# More\n",
    "pkg/README.md": "# The package\n",
}


def test_a_nested_page_has_home_its_folders_and_itself() -> None:
    assert _crumbs(SITE, "guide/deep_dive/more.md") == [
        ("Home", "../../index.html"),
        ("The guide", "../index.html"),  # the folder's title is its index page's title
        ("Deep dive", ""),  # no index page: the folder's name, not linked
        ("More", ""),
    ]


def test_a_page_beside_its_folders_index() -> None:
    assert _crumbs(SITE, "guide/setup.md") == [
        ("Home", "../index.html"),
        ("The guide", "index.html"),
        ("Setting up", ""),
    ]


def test_a_folders_index_page_ends_at_its_folder_unlinked() -> None:
    assert _crumbs(SITE, "guide/index.md") == [("Home", "../index.html"), ("The guide", "")]


def test_a_readme_is_its_folders_page_in_the_trail() -> None:
    assert _crumbs(SITE, "pkg/README.md") == [("Home", "../index.html"), ("The package", "")]
    with_page = {**SITE, "pkg/api.md": "# API\n"}
    assert _crumbs(with_page, "pkg/api.md") == [
        ("Home", "../index.html"),
        ("The package", "index.html"),
        ("API", ""),
    ]


def test_the_home_page_is_home_alone() -> None:
    assert _crumbs(SITE, "index.md") == [("Home", "")]


def test_without_a_home_page_home_links_the_list_of_all_pages() -> None:
    # index.html is then the "All pages" list, which a source page's Home links too
    assert _crumbs({"a/b.md": "# B\n"}, "a/b.md") == [
        ("Home", "../index.html"),
        ("A", ""),
        ("B", ""),
    ]


def test_a_top_level_page() -> None:
    assert _crumbs({**SITE, "about.md": "# About us\n"}, "about.md") == [
        ("Home", "index.html"),
        ("About us", ""),
    ]


def test_the_page_itself_is_marked_current_in_the_rendered_trail() -> None:
    env = Renderer().env
    html = env.from_string('{% import "macros.html" as m %}{{ m.crumbs(items) }}').render(
        items=(Crumb("Home", "../index.html"), Crumb("Guide", "index.html"), Crumb("Setup"))
    )
    assert re.findall(r'aria-current="page">([^<]*)<', html) == ["Setup"]
    assert '<a href="../index.html">Home</a>' in html
