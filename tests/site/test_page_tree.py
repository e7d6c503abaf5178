"""The page tree on the left of every page, as content/guides/site.md ("The page tree",
"Folder index pages") and the theme brief describe it: the home page first, then folders
and pages in the author's order, else folders first and each by file name; a folder linked
to its index page (``index.md``, else ``README.md``); nesting as deep as the folders go;
hrefs percent-encoded and relative to the site root; the current page marked and the
folders around it open."""

from __future__ import annotations

import re

from sitegen.base.paths import NodeId
from sitegen.docs.markdown import extract_page
from sitegen.generators import mkdocs_nav_spec
from sitegen.records.pages import PageRecord
from sitegen.site.navigation import build_nav, mkdocs_nav
from sitegen.site.render import NAV_FULL_LIMIT, Renderer
from sitegen.site.views import NavItem, site_context_for


def _pages(files: dict[str, str]) -> dict[NodeId, PageRecord]:
    """Page records as the build makes them, for files of a content folder ``docs/``."""
    return {
        NodeId("/" + path): extract_page("docs/" + path, text.encode())
        for path, text in sorted(files.items())
    }


def _tree(items: tuple[NavItem, ...]) -> list[object]:
    """Titles, a folder as (title, href, children)."""
    return [(i.title, i.href, _tree(i.children)) if i.is_folder else i.title for i in items]


def _nav(files: dict[str, str]) -> tuple[NavItem, ...]:
    return build_nav(_pages(files))[0]


# ---------------------------------------------------------------------------- order


def test_the_home_page_comes_first_whatever_the_others_order() -> None:
    nav = _nav(
        {
            "index.md": "# Welcome\n",
            "a.md": "---\norder: -5\n---\n# A\n",
            "aa/x.md": "# X\n",
        }
    )
    assert nav[0] == NavItem(title="Welcome", href="index.html")
    assert [i.title for i in nav] == ["Welcome", "A", "Aa"]


def test_ordered_entries_come_first_smallest_first_with_fractions_and_negatives() -> None:
    nav = _nav(
        {
            "plain.md": "# Plain\n",
            "two.md": "---\norder: 2\n---\n# Two\n",
            "half.md": "---\norder: 0.5\n---\n# Half\n",
            "minus.md": "---\norder: -1\n---\n# Minus\n",
        }
    )
    assert [i.title for i in nav] == ["Minus", "Half", "Two", "Plain"]


def test_order_keys_of_other_generators_are_read_the_same_way() -> None:
    nav = _nav(
        {
            "c.md": "---\nweight: 1\n---\n# Hugo weight\n",
            "b.md": "---\nnav_order: 2\n---\n# Just the Docs nav_order\n",
            "a.md": "---\norder: 3\n---\n# sitegen order\n",
        }
    )
    assert [i.title for i in nav] == ["Hugo weight", "Just the Docs nav_order", "sitegen order"]


def test_an_order_that_is_not_a_number_is_no_order() -> None:
    nav = _nav(
        {
            "a.md": '---\norder: "1"\n---\n# A quoted one\n',
            "b.md": "---\norder: true\n---\n# B true\n",
            "c.md": "---\norder: 9\n---\n# C nine\n",
        }
    )
    assert [i.title for i in nav] == ["C nine", "A quoted one", "B true"]


def test_without_order_folders_come_before_pages_and_each_go_by_file_name() -> None:
    nav = _nav(
        {
            "b-page.md": "# Zulu\n",  # titles do not decide the order, file names do
            "a-page.md": "# Yankee\n",
            "z-folder/p.md": "# P\n",
            "m-folder/p.md": "# P\n",
        }
    )
    assert [i.title for i in nav] == ["M folder", "Z folder", "Yankee", "Zulu"]


def test_a_folder_is_ordered_by_its_index_pages_order() -> None:
    nav = _nav(
        {
            "first.md": "---\norder: 1\n---\n# First\n",
            "guide/index.md": "---\norder: 2\n---\n# Guide\n",
            "third.md": "---\norder: 3\n---\n# Third\n",
            "api/ref.md": "# Ref\n",
        }
    )
    assert [i.title for i in nav] == ["First", "Guide", "Third", "Api"]


def test_an_equal_order_puts_the_folder_before_the_page() -> None:
    nav = _nav({"a.md": "---\norder: 1\n---\n# Page\n", "z/index.md": "---\norder: 1\n---\n# Z\n"})
    assert [(i.title, i.is_folder) for i in nav] == [("Z", True), ("Page", False)]


# ---------------------------------------------------------------------------- index pages


def test_a_folder_links_to_its_index_page_which_is_not_listed_again() -> None:
    nav = _nav({"guide/index.md": "# The guide\n", "guide/step.md": "# Step\n"})
    assert _tree(nav) == [("The guide", "guide/index.html", ["Step"])]


def test_a_folder_without_index_has_its_name_as_title_and_no_link() -> None:
    nav = _nav({"getting_started/install-it.md": "# Install\n"})
    assert _tree(nav) == [("Getting started", "", ["Install"])]


def test_a_readme_is_the_folders_page_when_there_is_no_index_md() -> None:
    nav, folder_index = build_nav(
        _pages({"README.md": "# Project\n", "pkg/README.md": "# Package\n", "pkg/a.md": "# A\n"})
    )
    assert nav[0] == NavItem(title="Project", href="index.html")  # the root's README: home
    assert _tree(nav[1:]) == [("Package", "pkg/index.html", ["A"])]
    assert folder_index == {"": NodeId("/README.md"), "pkg": NodeId("/pkg/README.md")}


def test_readme_is_recognised_whatever_its_case() -> None:
    nav = _nav({"pkg/Readme.md": "# Package\n", "pkg/a.md": "# A\n"})
    assert _tree(nav) == [("Package", "pkg/index.html", ["A"])]


def test_index_md_is_the_folders_page_even_beside_a_readme() -> None:
    _, folder_index = build_nav(_pages({"pkg/README.md": "# Readme\n", "pkg/index.md": "# Idx\n"}))
    assert folder_index["pkg"] == NodeId("/pkg/index.md")


# ---------------------------------------------------------------------------- nesting


def test_folders_nest_as_deep_as_the_content_does() -> None:
    nav = _nav({"a/b/c/deep.md": "# Deep\n", "a/top.md": "# Top\n", "a/b/index.md": "# B\n"})
    assert _tree(nav) == [("A", "", [("B", "a/b/index.html", [("C", "", ["Deep"])]), "Top"])]
    deep = nav[0].children[0].children[0].children[0]
    assert deep.href == "a/b/c/deep.html"  # relative to the site root, not to its folder


# ---------------------------------------------------------------------------- hrefs


def test_hrefs_are_percent_encoded() -> None:
    nav = _nav({"a b.md": "# Space\n", "c#.md": "# Hash\n", "d%.md": "# Percent\n"})
    assert [i.href for i in nav] == ["a%20b.html", "c%23.html", "d%25.html"]


def test_mkdocs_nav_hrefs_are_percent_encoded_too() -> None:
    pages = _pages({"a b.md": "# Space\n", "c#.md": "# Hash\n"})
    nav = mkdocs_nav(
        mkdocs_nav_spec("docs_dir: docs\nnav:\n  - a b.md\n  - Hash: c#.md\n"), "docs", pages, []
    )
    assert nav is not None
    assert [(i.title, i.href) for i in nav] == [("Space", "a%20b.html"), ("Hash", "c%23.html")]


# ---------------------------------------------------------------------------- the rendered tree


def _rendered(nav: tuple[NavItem, ...], current: str) -> str:
    return str(Renderer().nav(site_context_for("Site", nav, current)))


def _marked(html: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)" aria-current="page">', html)


def _open_folders(html: str) -> list[str]:
    return re.findall(r"<details open><summary><span>([^<]*)</span>", html)


TREE = {
    "index.md": "# Home\n",
    "guide/index.md": "# Guide\n",
    "guide/setup.md": "# Setup\n",
    "guide/deep/more.md": "# More\n",
    "other/x.md": "# X\n",
    "about.md": "# About\n",
}


def test_the_current_page_is_marked_once_and_its_folders_are_open() -> None:
    html = _rendered(_nav(TREE), "guide/deep/more.html")
    assert _marked(html) == ["../../guide/deep/more.html"]  # relative to the page
    assert _open_folders(html) == ["Guide", "Deep"]


def test_a_folders_index_page_opens_its_folder_and_marks_its_overview_entry() -> None:
    html = _rendered(_nav(TREE), "guide/index.html")
    assert _marked(html) == ["../guide/index.html"]
    assert re.search(r'<a href="../guide/index.html" aria-current="page">Overview</a>', html)
    assert _open_folders(html) == ["Guide"]


def test_on_the_home_page_no_folder_is_open() -> None:
    html = _rendered(_nav(TREE), "index.html")
    assert _marked(html) == ["index.html"]
    assert _open_folders(html) == []


def test_a_page_with_an_encoded_name_is_marked_current() -> None:
    nav = _nav({"index.md": "# Home\n", "f/a b#.md": "# Odd name\n"})
    html = _rendered(nav, "f/a b#.html")
    assert _marked(html) == ["../f/a%20b%23.html"]
    assert _open_folders(html) == ["F"]


def test_a_large_tree_keeps_only_the_current_pages_path_open_and_marked() -> None:
    files = {"index.md": "# Home\n"}
    for f in range(NAV_FULL_LIMIT // 10 + 1):
        files[f"f{f:02d}/index.md"] = f"# Folder {f:02d}\n"
        files.update({f"f{f:02d}/p{p}.md": f"# Page {f:02d}.{p}\n" for p in range(10)})
    html = _rendered(_nav(files), "f03/p4.html")
    assert _marked(html) == ["../f03/p4.html"]
    assert _open_folders(html) == ["Folder 03"]
    assert "Page 05.1" not in html  # another folder's pages are not carried on this page
    assert '<a href="../f05/index.html">Folder 05</a>' in html  # the folder is still a link


def test_a_large_tree_prunes_folders_without_an_index_page_too() -> None:
    """A folder with no index page, off the current page's path, links to its first page
    (Material for MkDocs' navigation.prune): it never carries its pages into every page."""
    files = {"index.md": "# Home\n"}
    for f in range(NAV_FULL_LIMIT // 10 + 1):
        files.update({f"f{f:02d}/p{p}.md": f"# Page {f:02d}.{p}\n" for p in range(10)})
    files["f07/deeper/z.md"] = "# Deeper\n"
    html = _rendered(_nav(files), "f03/p4.html")
    assert _marked(html) == ["../f03/p4.html"]
    assert _open_folders(html) == ["F03"]
    assert "Page 05.1" not in html and "Deeper" not in html
    assert '<li class="folder pruned"><a href="../f05/p0.html">F05</a></li>' in html
    # folders come first in a folder: f07's first page is the one in its subfolder
    assert '<li class="folder pruned"><a href="../f07/deeper/z.html">F07</a></li>' in html
    assert html.count("<li") < 40  # the path's folders and pages, not the 111 of the site
