"""Jekyll's ``_config.yml`` gives pages their addresses (sitegen/link/jekyll.py,
content/guides/urls.md#jekylls-_configyml): collections' permalink patterns, posts' dates,
``defaults:`` by path and type, the site-wide ``permalink`` style; front matter wins, a
file that is not YAML and a placeholder sitegen cannot fill in are reported, and links
written to the addresses resolve. Fixtures are written here."""

from __future__ import annotations

from pathlib import Path

from sitegen.base.paths import NodeId
from sitegen.build import build
from sitegen.config import load_config
from sitegen.link.jekyll import BAD_CONFIG
from sitegen.records.result import BuildOptions, BuildResult
from tests.e2e.conftest import write_project
from tests.e2e.sitewalk import walk_site

CONFIG = """\
title: Fixture
timezone: America/Los_Angeles
collections:
  docs:
    permalink: "/:collection/:path/"
    output: true
  posts:
    permalink: "/news/:year/:month/:day/:title/"
    output: true
  drafts_only:
    permalink: "/never/:path/"
defaults:
  - scope:
      path: ""
    values:
      image: /img/x.png
  - scope:
      path: pages
      type: pages
    values:
      permalink: /:basename/
      layout: page
  - scope:
      path: pages/legal
    values:
      permalink: /legal/:basename:output_ext
"""

SITE: dict[str, str | bytes] = {
    "sitegen.toml": 'content = "docs"\n',
    "docs/_config.yml": CONFIG,
    "docs/index.md": "# Home\n\n[Install](/docs/install/), [steps](/docs/steps/one) and\n"
    "[the news](/news/2019/08/20/big-release/), [about](/about/), [terms](/legal/terms.html),\n"
    "[history](/changes/) and [a draft](_drafts_only/d.md).\n",
    "docs/_docs/install.md": "# Install\n\nBack [home](../../).\n",
    "docs/_docs/steps/one.md": "# One\n\nSee [install](../../install/).\n",
    "docs/_docs/history.md": "---\npermalink: /changes/\n---\n# History\n",
    # The date as written is 2019-08-20 10:00 -0500: 08:00 in Los Angeles, the same day.
    "docs/_posts/2019-08-19-big-release.markdown": "---\ndate: 2019-08-20 10:00:00 -0500\n"
    "---\n# Big release\n\nRead [the docs](/docs/install/).\n",
    # 2013-05-06 02:12 +0200 is still 2013-05-05 in Los Angeles, as Jekyll publishes it.
    "docs/_posts/2013-05-06-old-news.md": '---\ndate: "2013-05-06 02:12:52 +0200"\n---\n# Old\n',
    "docs/blog/_posts/2020-01-02-in-a-category.md": "# Categorised\n",
    "docs/_drafts_only/d.md": "# Not published by Jekyll\n",
    "docs/pages/about.md": "# About\n",
    "docs/pages/legal/terms.md": "# Terms\n",
    "docs/pages/own.md": "---\npermalink: /mine/\n---\n# Own address\n",
    "docs/plain.md": "# Plain\n",
}


def _build(root: Path) -> BuildResult:
    return build(load_config(root), BuildOptions(jobs=1, quiet=True))


def _pages(result: BuildResult) -> dict[str, str]:
    return {node: str(out) for node, out in result.addresses.pages.items()}


def test_collections_posts_and_defaults_give_jekylls_addresses(tmp_path: Path) -> None:
    root = write_project(tmp_path / "jk", SITE)
    result = _build(root)
    assert _pages(result) == {
        "/_docs/history.md": "changes/index.html",  # front matter wins over the collection
        "/_docs/install.md": "docs/install/index.html",
        "/_docs/steps/one.md": "docs/steps/one/index.html",
        "/_drafts_only/d.md": "_drafts_only/d.html",  # output is not true: its file's address
        "/_posts/2013-05-06-old-news.md": "news/2013/05/05/old-news/index.html",
        "/_posts/2019-08-19-big-release.markdown": "news/2019/08/20/big-release/index.html",
        "/blog/_posts/2020-01-02-in-a-category.md": "news/2020/01/02/in-a-category/index.html",
        "/index.md": "index.html",
        "/pages/about.md": "about/index.html",  # defaults by path and type
        "/pages/legal/terms.md": "legal/terms.html",  # the longer path wins
        "/pages/own.md": "mine/index.html",  # front matter wins over defaults
        "/plain.md": "plain.html",  # the site's style is date: pages are page.html
    }
    assert [d for d in result.diagnostics if d.level != "info"] == []
    # Links written to those addresses are edges, never broken, and lead somewhere on disk.
    assert result.linked.broken == []
    home_edges = {e.dst for e in result.graph.edges_from(NodeId("/index.md"))}
    assert {"/_docs/install.md", "/_docs/steps/one.md", "/pages/about.md"} <= home_edges
    walk = walk_site(root / "site")
    assert walk.hrefs > 10
    assert walk.dead == [] and walk.bad_fragments == []


def test_history_permalink_link_is_dead_when_front_matter_moved_it(tmp_path: Path) -> None:
    """The collection's address of a page whose front matter gives another is no address."""
    pages = dict(SITE)
    pages["docs/index.md"] = "# Home\n\n[history](/docs/history/)\n"
    result = _build(write_project(tmp_path / "jk", pages))
    assert [(b.path, b.line) for b in result.linked.broken] == [("docs/index.md", 3)]


def test_an_unknown_placeholder_is_one_warning_and_pages_keep_their_files(tmp_path: Path) -> None:
    pages = {
        **SITE,
        "docs/_config.yml": CONFIG.replace("/:collection/:path/", "/:collection/:lang/:path/"),
    }
    result = _build(write_project(tmp_path / "jk", pages))
    found = [d for d in result.diagnostics if d.code == BAD_CONFIG]
    assert [(d.path, d.line, d.col, d.level) for d in found] == [
        ("docs/_config.yml", 5, 17, "warning")
    ]
    assert "':lang'" in found[0].message
    addresses = _pages(result)
    assert addresses["/_docs/install.md"] == "_docs/install.html"
    assert addresses["/_docs/steps/one.md"] == "_docs/steps/one.html"
    assert addresses["/_docs/history.md"] == "changes/index.html"


def test_a_config_that_is_not_yaml_is_reported_and_the_build_goes_on(tmp_path: Path) -> None:
    pages = {**SITE, "docs/_config.yml": "collections:\n  docs: [\n    permalink: x\n"}
    result = _build(write_project(tmp_path / "jk", pages))
    found = [d for d in result.diagnostics if d.code == BAD_CONFIG]
    assert len(found) == 1 and found[0].path == "docs/_config.yml"
    assert found[0].line > 1 and found[0].level == "warning"
    assert _pages(result)["/_docs/install.md"] == "_docs/install.html"
    assert (tmp_path / "jk/site/index.html").is_file()


def test_pretty_style_publishes_pages_as_folders(tmp_path: Path) -> None:
    pages = {**SITE, "docs/_config.yml": "permalink: pretty\ncollections: [docs]\n"}
    result = _build(write_project(tmp_path / "jk", pages))
    addresses = _pages(result)
    assert addresses["/plain.md"] == "plain/index.html"
    assert addresses["/pages/about.md"] == "pages/about/index.html"
    # posts by the pretty style; a collection without output keeps its files' addresses
    assert addresses["/_posts/2013-05-06-old-news.md"] == "2013/05/06/old-news/index.html"
    assert addresses["/_docs/install.md"] == "_docs/install/index.html"


def test_a_config_yml_beside_the_content_is_not_read(tmp_path: Path) -> None:
    pages = {**SITE, "other/_config.yml": CONFIG}
    del pages["docs/_config.yml"]
    result = _build(write_project(tmp_path / "jk", pages))
    assert result.config.generator is None
    assert _pages(result)["/_docs/install.md"] == "_docs/install.html"


def test_an_incremental_build_after_editing_the_config_equals_a_clean_one(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "incremental" / "jk", SITE)
    _build(root)
    config = root / "docs/_config.yml"
    config.write_text(CONFIG.replace("/news/:year/:month/:day/:title/", "/blog/:title/"))
    _build(root)
    assert (root / "site/blog/big-release/index.html").is_file()
    assert not (root / "site/news").exists()
    clean = write_project(
        tmp_path / "clean" / "jk", {**SITE, "docs/_config.yml": config.read_text()}
    )
    _build(clean)
    incremental = sorted(p.relative_to(root / "site") for p in (root / "site").rglob("*"))
    fresh = sorted(p.relative_to(clean / "site") for p in (clean / "site").rglob("*"))
    assert incremental == fresh
    for rel in fresh:
        if (clean / "site" / rel).is_file():
            assert (root / "site" / rel).read_bytes() == (clean / "site" / rel).read_bytes(), rel


def test_categories_the_none_style_and_a_pattern_needing_a_date(tmp_path: Path) -> None:
    config = (
        "permalink: none\ncollections:\n  notes:\n    output: true\n"
        "    permalink: /:collection/:year/:name/\n"
    )
    pages: dict[str, str | bytes] = {
        "sitegen.toml": 'content = "docs"\n',
        "docs/_config.yml": config,
        "docs/index.md": "# Home\n",
        "docs/_posts/2020-01-02-Hello World.md": "---\ncategories: [Release, news]\n---\n# Hi\n",
        "docs/_notes/a.md": "# A\n",
        "docs/_notes/b.md": "# B\n",
        "docs/_notes/c.md": "---\ndate: 2021-03-04\n---\n# C\n",
    }
    result = _build(write_project(tmp_path / "jk", pages))
    addresses = _pages(result)
    # none: /:categories/:title.html; :title keeps the case, categories are lowercased
    assert addresses["/_posts/2020-01-02-Hello World.md"] == "release/news/Hello-World.html"
    assert addresses["/_notes/c.md"] == "notes/2021/c/index.html"
    assert addresses["/_notes/a.md"] == "_notes/a.html"
    assert addresses["/_notes/b.md"] == "_notes/b.html"
    found = [d for d in result.diagnostics if d.code == BAD_CONFIG]
    assert [(d.path, d.line) for d in found] == [("docs/_config.yml", 5)]
    assert "has no date" in found[0].message
