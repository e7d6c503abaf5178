"""SitePath: one file's repository path, node, output and URL, asked rather than sliced.

The rules (content/guides/site.md): a page's node is its path inside the content folder; a
page outside it and every source file are published under /code/; a folder's README.md is
its index.html; every URL is percent-encoded so ``#``, ``?``, ``%`` and spaces stay in the path.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urljoin

from hypothesis import given
from hypothesis import strategies as st

from sitegen.base.paths import (
    NodeId,
    OutPath,
    SitePath,
    content_relative,
    content_repo_path,
)
from sitegen.link.rules import SiteIndex

CONTENTS = st.sampled_from(["", "content", "docs/site"])
# Names a reader may give files: spaces, URL delimiters, percent signs, non-ASCII letters.
SPECIAL = st.sampled_from(["a", "x y", "a#b", "why?", "100%", "%41", "ü", "..a", "a.b", "-"])
ANY_NAME = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/"),
    min_size=1,
    max_size=6,
).filter(lambda s: s not in (".", ".."))
NAME = st.one_of(SPECIAL, ANY_NAME)
# Folders of a page; "code" is left out: a top-level code/ folder of the content is the one
# place a page's node and a source file's node coincide (test_a_code_folder_...).
FOLDERS = st.lists(NAME.filter(lambda s: s != "code"), max_size=3)
PAGE_NAME = st.one_of(
    st.tuples(NAME, st.sampled_from([".md", ".markdown", ".MD"])).map("".join),
    st.sampled_from(["README.md", "readme.md", "index.md", "Index.md", "README.markdown"]),
)
PAGE_REL = st.tuples(FOLDERS, PAGE_NAME).map(lambda t: "/".join([*t[0], t[1]]))
SOURCE_REPO = st.tuples(st.lists(NAME, max_size=3), NAME).map(
    lambda t: "/".join([*t[0], t[1] + ".py"])
)
FRAGMENT = st.sampled_from(["", "L3", "a-heading"])


def _in(content: str, rel: str) -> str:
    return f"{content}/{rel}" if content else rel


@given(CONTENTS, PAGE_REL)
def test_a_page_in_the_content_folder_round_trips(content: str, rel: str) -> None:
    page = SitePath.page(_in(content, rel), content)
    assert page.node == "/" + rel
    assert not page.is_source
    assert SitePath.of_node(page.node, content) == page
    assert content_relative(content, page.repo) == rel
    assert content_repo_path(content, rel) == page.repo == content_repo_path(content, "/" + rel)


@given(st.sampled_from(["content", "docs/site"]), st.lists(NAME, max_size=2), PAGE_NAME)
def test_a_page_outside_the_content_folder_is_published_under_code(
    content: str, folders: list[str], name: str
) -> None:
    repo = "/".join(["pkg", *folders, name])
    page = SitePath.page(repo, content)
    assert content_relative(content, repo) is None
    assert (page.node, page.is_source) == ("/code/" + repo, True)
    assert (page.out, page.raw) == ("code/" + repo + ".html", "code/" + repo)
    assert SitePath.of_node(page.node, content) == page


@given(CONTENTS, SOURCE_REPO)
def test_a_source_file_round_trips(content: str, repo: str) -> None:
    source = SitePath.source(repo)
    assert (source.node, source.is_source) == ("/code/" + repo, True)
    assert (source.out, source.raw) == ("code/" + repo + ".html", "code/" + repo)
    assert SitePath.of_node(source.node, content) == source


@given(CONTENTS, PAGE_REL)
def test_a_page_is_published_as_html_beside_its_markdown(content: str, rel: str) -> None:
    page = SitePath.page(_in(content, rel), content)
    folder, name = posixpath.split(rel)
    stem = name.rsplit(".", 1)[0]
    expected = "index.html" if stem.lower() == "readme" else stem + ".html"
    assert page.out == posixpath.join(folder, expected)
    assert page.raw == rel


def _clash_key(rel: str) -> tuple[str, str]:
    """What decides a page's HTML file, restated: its folder and its name without the
    markdown extension, a README counting as the folder's index."""
    folder, name = posixpath.split(rel)
    stem = re.sub(r"\.(md|markdown)$", "", name, flags=re.IGNORECASE)
    return folder, "index" if stem.lower() == "readme" else stem


@given(CONTENTS, PAGE_REL, PAGE_REL)
def test_two_pages_share_an_output_only_as_readme_and_index_or_md_and_markdown(
    content: str, a: str, b: str
) -> None:
    first, second = SitePath.page(_in(content, a), content), SitePath.page(_in(content, b), content)
    assert (first.out == second.out) == (_clash_key(a) == _clash_key(b))


def test_a_readme_and_an_index_in_one_folder_clash() -> None:
    readme = SitePath.page("content/guides/README.md", "content")
    index = SitePath.page("content/guides/index.md", "content")
    assert readme.node != index.node
    assert readme.out == index.out == "guides/index.html"
    assert SitePath.page("content/README.md", "content").out == "index.html"


def test_a_code_folder_at_the_top_of_the_content_shares_the_source_pages_nodes() -> None:
    page = SitePath.page("content/code/x.md", "content")
    assert page.node == SitePath.source("x.md").node == "/code/x.md"
    assert SitePath.of_node(page.node, "content").repo == "x.md"  # read as the source file's


_ENCODED = re.compile(r"(?:[A-Za-z0-9_.~/-]|%[0-9A-F]{2})*")


@given(CONTENTS, PAGE_REL)
def test_the_url_is_the_output_percent_encoded(content: str, rel: str) -> None:
    page = SitePath.page(_in(content, rel), content)
    assert _ENCODED.fullmatch(page.url), page.url
    assert unquote(page.url) == page.out


def test_delimiters_in_a_name_stay_in_the_path() -> None:
    page = SitePath.page("content/a b#c?d%e.md", "content")
    assert page.url == "a%20b%23c%3Fd%25e.html"
    assert page.href_from(OutPath("x/y.html"), "top") == "../a%20b%23c%3Fd%25e.html#top"


@given(
    CONTENTS,
    st.one_of(PAGE_REL.map(lambda r: ("page", r)), SOURCE_REPO.map(lambda r: ("source", r))),
    PAGE_REL,
    FRAGMENT,
)
def test_an_href_from_any_page_reaches_the_url(
    content: str, target: tuple[str, str], here_rel: str, fragment: str
) -> None:
    """A browser resolving the href against the linking page lands on the target's URL."""
    kind, repo = target
    there = (
        SitePath.source(repo) if kind == "source" else SitePath.page(_in(content, repo), content)
    )
    here = SitePath.page(_in(content, here_rel), content)
    site = "https://docs.example/"
    landed = urljoin(site + here.url, there.href_from(here, fragment))
    assert landed == site + there.url + ("#" + fragment if fragment else "")
    assert there.href_from(here, fragment) == there.href_from(here.out, fragment)


def test_a_folder_named_like_the_content_is_not_inside_it() -> None:
    assert content_relative("docs", "docs2/a.md") is None
    assert content_relative("docs", "docs") is None
    assert SitePath.page("docs2/a.md", "docs").node == "/code/docs2/a.md"


@given(CONTENTS, PAGE_REL, SOURCE_REPO)
def test_the_link_index_publishes_files_where_site_path_says(
    content: str, rel: str, source: str
) -> None:
    page, outside = _in(content, rel), "pkg/README.md"
    index = SiteIndex(
        content=content,
        pages={page, outside},
        assets={_in(content, "img/a b.png"), "img/outside.png"},
        sources={source},
        dirs=set(),
    )
    assert index.node_for(page) == SitePath.page(page, content).node
    assert index.node_for(outside) == SitePath.page(outside, content).node
    assert index.node_for(source) == SitePath.source(source).node
    assert index.node_for(_in(content, "img/a b.png")) == NodeId("/img/a b.png")
    assert index.node_for("img/outside.png") == (None if content else NodeId("/img/outside.png"))
    assert index.missing_node(_in(content, "gone.md")) == "/gone.md"
