"""Material for MkDocs' blog plugin as sitegen publishes it (content/guides/mkdocs.md#blog):
posts at the plugin's URLs, the index newest first with excerpts and pages, archive and
category pages, drafts left out, authors from ``.authors.yml``, the ``rss`` plugin's feed,
links to posts. The URLs and the order are compared with what MkDocs and Material (installed
in the venv) build from the same fixture, written here."""

from __future__ import annotations

import email.utils
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions, BuildResult
from sitegen.site.blog import reading_minutes
from sitegen.site.preview import Preview
from tests.e2e.conftest import write_project
from tests.e2e.sitewalk import walk_site

MKDOCS_YML = """site_name: Fx{site_options}
site_url: https://fx.example/
site_description: News of Fx
theme:
  name: material
nav:
  - Home: index.md
  - Blog:
      - blog/index.md
plugins:
  - blog{blog_options}
  - rss:
      match_path: blog/posts/.*
      date_from_meta:
        as_creation: date.created
"""
AUTHORS = """authors:
  jane:
    name: Jane Doe
    description: Maintainer
    avatar: https://example.com/jane.png
    url: https://example.com/jane
"""


def _post(date: str, body: str, extra: str = "") -> str:
    return f"---\ndate: {date}\n{extra}---\n{body}"


def _project(blog_options: str = "", site_options: str = "") -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        "sitegen.toml": 'content = "docs"\n',
        "mkdocs.yml": MKDOCS_YML.format(blog_options=blog_options, site_options=site_options),
        "docs/index.md": "# Home\n\nRead [the launch](blog/posts/hello.md) and "
        "[the old one](blog/posts/custom.md#later).\n",
        "docs/guide.md": "# Guide\n\nText.\n",
        "docs/blog/index.md": "# Fx news\n\nWhat we did.\n",
        "docs/blog/.authors.yml": AUTHORS,
        "docs/blog/posts/hello.md": _post(
            "2024-02-01",
            "# Hello World!\n\nThe launch, see [the guide](../../guide.md).\n\n<!-- more -->\n\n"
            "Not in the excerpt. [The data](hello/settings.yml), ![a chart](hello/chart.png).\n",
            "categories:\n  - Release Notes\n  - General\nauthors: [jane]\n",
        ),
        "docs/blog/posts/custom.md": _post(
            "\n  created: 2023-12-31 22:30:00\n  updated: 2024-03-05",
            "# Old times\n\nOlder, see [below](#later).\n\n<!-- more -->\n\n## Later\n\nMore.\n",
            "slug: custom-slug\ncategories: [General]\ntags: [news]\n",
        ),
        "docs/blog/posts/hello/settings.yml": "a,b\n1,2\n",
        "docs/blog/posts/hello/chart.png": b"\x89PNG\r\n",
        "docs/blog/posts/wip.md": _post(
            "2024-03-01", "# Work in progress\n\nNot yet.\n", "draft: true\n"
        ),
        "docs/blog/posts/titled.md": _post(
            "2024-01-20 09:00:00", "No heading here.\n", "title: Front matter title\n"
        ),
    }
    for n in range(1, 11):  # thirteen posts listed: the index has two pages of ten
        files[f"docs/blog/posts/filler-{n:02d}.md"] = _post(
            f"2024-01-{n:02d}", f"# Filler {n}\n\nBody {n}.\n", "pin: true\n" if n == 3 else ""
        )
    return files


def _build(
    tmp_path: Path, blog_options: str = "", site_options: str = ""
) -> tuple[Path, BuildResult]:
    root = write_project(tmp_path / "project", _project(blog_options, site_options))
    return root, build(load_config(root), BuildOptions(jobs=1, quiet=True))


def _material(tmp_path: Path, blog_options: str = "", site_options: str = "") -> Path:
    """The site MkDocs and Material build from the fixture (the rss plugin is not installed:
    left out), for the URLs and the order sitegen must match."""
    pytest.importorskip("material.plugins.blog.plugin")
    pytest.importorskip("paginate")
    root = write_project(tmp_path / "oracle", _project(blog_options, site_options))
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(text.split("  - rss:")[0], encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml")],
        check=True,
        env=env,
        capture_output=True,
        timeout=300,
    )
    return root / "site"


def _blog_pages(site: Path, pattern: str = "index.html") -> set[str]:
    return {p.relative_to(site).as_posix() for p in (site / "blog").rglob(pattern)}


def _main(html: str) -> str:
    return html.split('<main id="content">', 1)[1].split("</main>", 1)[0]


def _read(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def _sitegen_order(html: str) -> list[str]:
    hrefs = re.findall(r'<h2><a href="([^"]+)">', _main(html))
    return [h.removesuffix("index.html") for h in hrefs]


def _material_order(html: str) -> list[str]:
    return re.findall(r'<h2 id="[^"]*"><a class="toclink" href="([^"]+)">', html)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildResult, Path]:
    tmp = tmp_path_factory.mktemp("material_blog")
    root, result = _build(tmp)
    return root / "site", result, _material(tmp)


def test_posts_archive_and_category_pages_are_where_material_writes_them(
    built: tuple[Path, BuildResult, Path],
) -> None:
    site, result, oracle = built
    ours = _blog_pages(site)
    assert ours == _blog_pages(oracle)
    assert "blog/2024/02/01/hello-world/index.html" in ours  # the h1's slug
    assert "blog/2023/12/31/custom-slug/index.html" in ours  # front matter slug
    assert "blog/2024/01/20/front-matter-title/index.html" in ours  # front matter title
    assert "blog/page/2/index.html" in ours and "blog/archive/2023/index.html" in ours
    assert "blog/category/release-notes/index.html" in ours
    assert not any("work-in-progress" in p for p in ours)  # the draft, said once
    [draft] = [d for d in result.diagnostics if d.path == "docs/blog/posts/wip.md"]
    assert "left out of the site, as Material's blog leaves a draft out" in draft.message
    assert not (site / "blog/posts/hello/index.html").exists()  # published once


def test_the_index_lists_posts_newest_first_with_their_excerpts(
    built: tuple[Path, BuildResult, Path],
) -> None:
    site, _, oracle = built
    for rel in ("blog/index.html", "blog/page/2/index.html", "blog/category/general/index.html"):
        assert _sitegen_order(_read(site, rel)) == _material_order(_read(oracle, rel)), rel
    first = _main(_read(site, "blog/index.html"))
    assert first.index("<h1") < first.index("What we did.") < first.index("Filler 3")
    assert first.index("Filler 3") < first.index("Hello World!")  # pinned first
    assert "The launch" in first and "Not in the excerpt" not in first
    assert '<a href="../guide/index.html">the guide</a>' in first  # the excerpt's link
    assert '<a href="page/2/index.html" rel="next">Older posts</a>' in first
    assert '<a href="archive/2023/index.html">2023</a>' in first
    assert '<a href="category/release-notes/index.html">Release Notes</a>' in first
    second = _main(_read(site, "blog/page/2/index.html"))
    assert "Older, see" in second and "More." not in second
    assert '<a href="../../index.html" rel="prev">Newer posts</a>' in second
    # a link to the post's own heading points at the post, as Material's excerpts do
    assert '<a href="../../2023/12/31/custom-slug/index.html#later">below</a>' in second


def test_each_post_shows_its_date_authors_and_categories(
    built: tuple[Path, BuildResult, Path],
) -> None:
    site, result, oracle = built
    rel = "blog/2024/02/01/hello-world/index.html"
    hello = _main(_read(site, rel))
    assert '<time datetime="2024-02-01">February 1, 2024</time>' in hello
    for shown in ("February 1, 2024", "Jane Doe", "1 min read"):  # as Material shows them
        assert shown in _read(oracle, rel) and shown in hello, shown
    assert '<a href="https://example.com/jane" rel="author">Jane Doe</a>' in hello
    assert '<img class="avatar" src="https://example.com/jane.png"' in hello
    assert "(Maintainer)" in hello and "Not in the excerpt" in hello
    assert '<a href="../../../../category/general/index.html" rel="tag">General</a>' in hello
    old = _main(_read(site, "blog/2023/12/31/custom-slug/index.html"))
    assert "December 31, 2023" in old
    assert 'href="../../../../../tags/news.html"' in _read(
        site, "blog/2023/12/31/custom-slug/index.html"
    )  # a Material post's tags are the tags plugin's, as any page's
    assert not [d for d in result.diagnostics if d.level.name == "ERROR"]


def test_links_to_posts_reach_their_urls(built: tuple[Path, BuildResult, Path]) -> None:
    site, result, _ = built
    home = _main(_read(site, "index.html"))
    assert '<a href="blog/2024/02/01/hello-world/index.html">the launch</a>' in home
    assert '<a href="blog/2023/12/31/custom-slug/index.html#later">the old one</a>' in home
    assert result.linked.broken == []  # the post's files beside it are published too
    post = _main(_read(site, "blog/2024/02/01/hello-world/index.html"))
    assert 'href="../../../../posts/hello/settings.yml"' in post
    assert (site / "blog/posts/hello/settings.yml").is_file()
    walk = walk_site(site)
    assert walk.dead == [] and walk.bad_fragments == []


def test_the_feed_lists_the_posts_by_their_dates(built: tuple[Path, BuildResult, Path]) -> None:
    site, _, _ = built
    created = ET.parse(site / "feed_rss_created.xml").getroot()
    assert created.tag == "rss" and created.get("version") == "2.0"
    channel = created.find("channel")
    assert channel is not None
    assert channel.findtext("title") == "Fx" and channel.findtext("link") == "https://fx.example/"
    items = channel.findall("item")
    assert len(items) == 13  # every post listed, none a draft
    assert items[0].findtext("title") == "Hello World!"
    assert items[0].findtext("description") == "The launch, see the guide."  # the excerpt
    assert items[0].findtext("link") == "https://fx.example/blog/2024/02/01/hello-world/"
    dates = [email.utils.parsedate_to_datetime(i.findtext("pubDate") or "") for i in items]
    assert dates == sorted(dates, reverse=True)
    assert channel.findtext("lastBuildDate") == items[0].findtext("pubDate")  # no build time
    updated = ET.parse(site / "feed_rss_updated.xml").getroot().find("channel")
    assert updated is not None
    assert updated.findall("item")[0].findtext("title") == "Old times"  # updated 2024-03-05


def test_a_post_url_format_of_the_configuration(tmp_path: Path) -> None:
    options = ':\n      post_url_format: "{categories}/{slug}"\n      pagination_per_page: 5'
    root, _ = _build(tmp_path, options)
    ours = _blog_pages(root / "site")
    assert ours == _blog_pages(_material(tmp_path, options))
    assert "blog/release-notes/hello-world/index.html" in ours
    assert "blog/page/3/index.html" in ours


def test_a_post_without_a_date_is_warned_and_not_listed(tmp_path: Path) -> None:
    files = _project()
    files["docs/blog/posts/undated.md"] = "# Undated\n\nText.\n"
    root = write_project(tmp_path / "project", files)
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    [warned] = [d for d in result.diagnostics if d.path == "docs/blog/posts/undated.md"]
    assert "needs a 'date'" in warned.message
    assert "Undated" not in _read(root / "site", "blog/index.html")
    shutil.rmtree(root / "site")


def test_posts_are_listed_by_the_blog_not_in_the_page_tree(tmp_path: Path) -> None:
    files = _project()
    text = str(files["mkdocs.yml"])
    files["mkdocs.yml"] = text.split("nav:")[0] + "plugins:" + text.split("plugins:")[1]
    root = write_project(tmp_path / "project", files)
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    tree = _read(root / "site", "guide/index.html").split('<main id="content">', 1)[0]
    assert "Guide" in tree and "Filler 1" not in tree and "Hello World!" not in tree
    assert "<span>Posts</span>" not in tree  # the posts' folder, left empty, goes too


def test_the_archive_and_categories_are_sections_beside_the_index(
    built: tuple[Path, BuildResult, Path],
) -> None:
    site, _, oracle = built
    tree = _read(site, "guide/index.html").split('<main id="content">', 1)[0]
    ours = re.findall(r"<span>(Archive|Categories)</span>|>([^<>]+)</a></li>", tree)
    theirs = _read(oracle, "guide/index.html")
    # Material's sidebar: the Blog section holds the index, then Archive, then Categories
    for label in ("Archive", "2024", "2023", "Categories", "General", "Release Notes"):
        assert label in theirs
    words = [a or b for a, b in ours]
    start = words.index("Archive")
    assert words[start:] == ["Archive", "2024", "2023", "Categories", "General", "Release Notes"]


@pytest.mark.parametrize(
    "html",
    [
        "<p>" + "word " * 600 + "</p>",
        "<h1>T</h1><p>a&amp;b</p><script>skip " + "x " * 900 + "</script>" + "<img src=x>" * 14,
        "<p>one<br>two</p><svg><text>" + "no " * 999 + "</text></svg><p>" + "z " * 300,
    ],
)
def test_reading_time_as_material_counts_it(html: str) -> None:
    readtime = pytest.importorskip("material.plugins.blog.readtime")
    assert reading_minutes(html, 265) == readtime.readtime(html, 265)


def test_without_its_own_page_the_blog_index_is_titled_blog(tmp_path: Path) -> None:
    files = _project()
    del files["docs/blog/index.md"]  # the plugin makes "# Blog" in its place
    root = write_project(tmp_path / "project", files)
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    index = _main(_read(root / "site", "blog/index.html"))
    assert "<h1>Blog</h1>" in index and index.index("<h1>") < index.index("Hello World!")
    assert (root / "site/blog/page/2/index.html").is_file()


def test_categories_not_allowed_and_missing_excerpts_are_warned(tmp_path: Path) -> None:
    options = ":\n      categories_allowed: [General]\n      post_excerpt: required"
    root, result = _build(tmp_path, options)
    said = {(d.path, d.message) for d in result.diagnostics}
    hello = "docs/blog/posts/hello.md"
    assert (hello, "category 'Release Notes' is not in categories_allowed; left out") in said
    filler = "docs/blog/posts/filler-01.md"
    assert (filler, "no '<!-- more -->' in the post, which post_excerpt: required asks") in said
    assert (hello, "no '<!-- more -->' in the post, which post_excerpt: required asks") not in said
    assert not (root / "site/blog/category/release-notes").exists()
    assert (root / "site/blog/category/general/index.html").is_file()


def test_html_urls_as_material_writes_them(tmp_path: Path) -> None:
    site_options = "\nuse_directory_urls: false"
    root, _ = _build(tmp_path, site_options=site_options)
    ours = _blog_pages(root / "site", "*.html")
    assert ours == _blog_pages(_material(tmp_path, site_options=site_options), "*.html")
    assert {"blog/2024/02/01/hello-world.html", "blog/page/2/index.html"} <= ours
    assert "blog/archive/2024.html" in ours


def test_serve_leaves_the_blog_s_pages_to_the_build(
    built: tuple[Path, BuildResult, Path],
) -> None:
    _, result, _ = built
    preview = Preview.of(result)
    assert preview is not None
    post = "docs/blog/posts/hello.md"  # a new title would move it: the build decides
    assert preview.render(post, b"---\ndate: 2024-02-01\n---\n# Renamed\n") is None
    assert preview.render("docs/blog/index.md", b"# Fx news\n\nEdited.\n") is None
    assert preview.render("docs/guide.md", b"# Guide\n\nEdited.\n") is not None
