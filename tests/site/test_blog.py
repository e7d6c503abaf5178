"""Docusaurus's blog as sitegen publishes it (sitegen/site/blog.py, sitegen/site/outputs/blog.py):
each post at its route with its date, authors and tags under its title; the index newest
first with summaries; tag pages; posts in the graph and search. And the front-matter keys
``unlisted`` and ``hide_title`` of docs and posts. Fixtures are written here."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions, BuildResult
from tests.e2e.conftest import write_project
from tests.e2e.sitewalk import walk_site

CONFIG = """module.exports = {
  title: 'Fx',
  presets: [['classic', {
    docs: { path: 'docs' },
    blog: { blogTitle: 'Fx blog', postsPerPage: 2 },
  }]],
}
"""

PROJECT: dict[str, str | bytes] = {
    "sitegen.toml": 'content = "docs"\nbase_url = "https://fx.example/"\n',
    "docusaurus.config.js": CONFIG,
    "docs/intro.md": "---\ntitle: Intro\n---\nSee [the first post](/blog/2021/05/01/hello).\n",
    "docs/secret.md": "---\ntitle: Secret\nunlisted: true\n---\nHidden doc.\n",
    "docs/bare.md": "---\ntitle: Generated title\nhide_title: true\n---\nBody.\n",
    "docs/own.md": "---\nhide_title: true\n---\n# Own heading\n\nBody.\n",
    "blog/authors.yml": (
        "jane:\n  name: Jane Doe\n  title: Maintainer\n  url: https://example.com/jane\n"
    ),
    "blog/tags.yml": "rel:\n  label: Releases\n  permalink: /releases\n",
    "blog/2021-05-01-hello.md": (
        "---\ntitle: Hello\nauthors: [jane, ghost]\ntags: [rel, Fun Stuff]\n---\n"
        "Summary with [intro](../docs/intro.md).\n\n<!-- truncate -->\n\nRest of it.\n"
    ),
    "blog/2021-06-01-big/index.md": (
        "---\ntitle: Big\nauthors:\n  - name: Inline Ian\n    url: https://ian.example\n"
        "tags: [rel]\n---\n# Big heading\n\nAll of it.\n\n![pic](./pic.png)\n"
    ),
    "blog/2021-06-01-big/pic.png": b"\x89PNG\r\n",
    "blog/2020-01-01-old.mdx": (
        "---\ntitle: Old\nauthor: Legacy Lee\nauthor_title: Founder\n---\n"
        "Old one.\n\n{/* truncate */}\n\nNot in the summary.\n"
    ),
    "blog/2021-07-01-quiet.md": "---\ntitle: Quiet\nunlisted: true\n---\nQuiet post.\n",
    "blog/2021-08-01-wip.md": "---\ntitle: Wip\ndraft: true\n---\nNot yet.\n",
}


def _build(tmp_path: Path) -> tuple[Path, BuildResult]:
    root = write_project(tmp_path / "project", PROJECT)
    return root, build(load_config(root), BuildOptions(jobs=1, quiet=True))


def _main(html: str) -> str:
    return html.split('<main id="content">', 1)[1].split("</main>", 1)[0]


def _read(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def test_each_post_shows_its_date_authors_and_tags(tmp_path: Path) -> None:
    root, result = _build(tmp_path)
    site = root / "site"
    hello = _main(_read(site, "blog/2021/05/01/hello/index.html"))
    assert '<time datetime="2021-05-01">May 1, 2021</time>' in hello
    assert '<a href="https://example.com/jane" rel="author">Jane Doe</a>' in hello
    assert "(Maintainer)" in hello and ", ghost</p>" in hello
    assert '<a href="../../../../tags/releases/index.html" rel="tag">Releases</a>' in hello
    assert '<a href="../../../../tags/fun-stuff/index.html" rel="tag">Fun Stuff</a>' in hello
    assert hello.index("<h1>Hello</h1>") < hello.index("<time") < hello.index("Summary with")
    assert '<a href="../../../../index.html">Fx blog</a>' in hello  # the breadcrumbs
    big = _main(_read(site, "blog/2021/06/01/big/index.html"))
    assert big.index("</h1>") < big.index("Inline Ian") < big.index("All of it")
    assert 'src="../../../../../code/blog/2021-06-01-big/pic.png"' in big
    assert (site / "code/blog/2021-06-01-big/pic.png").is_file()
    old = _main(_read(site, "blog/2020/01/01/old/index.html"))
    assert "Legacy Lee" in old and "(Founder)" in old
    [ghost] = [d for d in result.diagnostics if "ghost" in d.message]
    assert (ghost.path, ghost.line) == ("blog/2021-05-01-hello.md", 3)
    assert "not in blog/authors.yml" in ghost.message
    assert not (site / "blog/2021/08/01/wip/index.html").exists()  # a draft post


def test_the_index_lists_posts_newest_first_with_their_summaries(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    site = root / "site"
    first = _main(_read(site, "blog/index.html"))
    titles = re.findall(r'<h2><a href="[^"]+">([^<]+)</a></h2>', first)
    assert titles == ["Big", "Hello"]  # two a page; Quiet is unlisted, Wip a draft
    assert "Summary with" in first and "Rest of it" not in first
    assert (
        '<a href="../docs/intro/index.html">intro</a>' in first
    )  # the summary's link, from the index
    assert '<a href="2021/05/01/hello/index.html" aria-label="Read more about Hello">' in first
    assert "Big heading" not in first and "All of it." in first  # no marker: all, no h1
    second = _main(_read(site, "blog/page/2/index.html"))
    assert re.findall(r'<h2><a href="[^"]+">([^<]+)</a></h2>', second) == ["Old"]
    assert "Old one." in second and "Not in the summary" not in second
    releases = _main(_read(site, "blog/tags/releases/index.html"))
    assert "2 posts tagged with “Releases”" in releases
    assert re.findall(r'<h2><a href="[^"]+">([^<]+)</a></h2>', releases) == ["Big", "Hello"]
    assert "Fun Stuff" in _read(site, "blog/tags/index.html")
    assert '<a href="../../blog/index.html">Fx blog</a>' in _read(
        site, "docs/intro/index.html"
    )  # the header
    walk = walk_site(site)
    assert walk.dead == [] and walk.bad_fragments == []


def test_posts_are_pages_of_the_graph_and_of_search(tmp_path: Path) -> None:
    root, result = _build(tmp_path)
    site = root / "site"
    assert result.linked.broken == []  # /blog/2021/05/01/hello from a doc is the post
    intro = _read(site, "docs/intro/index.html")
    backlinks = intro.split('id="backlinks-title"', 1)[1]
    assert '<a href="../../blog/2021/05/01/hello/index.html">Hello</a>' in backlinks
    assert 'id="code-refs"' not in intro  # a post is no source file
    search = "".join(
        p.read_text(encoding="utf-8") for p in sorted((site / "search-index").iterdir())
    )
    assert "Hello" in search and "Big" in search


def test_unlisted_pages_are_published_but_listed_nowhere(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    site = root / "site"
    for rel in ("docs/secret/index.html", "blog/2021/07/01/quiet/index.html"):
        page = _read(site, rel)
        assert '<meta name="robots" content="noindex, nofollow">' in page
        assert 'data-testid="unlisted"' in page
    assert "secret/" not in _read(site, "docs/intro/index.html").split("<main", 1)[0]  # the tree
    search = "".join(
        p.read_text(encoding="utf-8") for p in sorted((site / "search-index").iterdir())
    )
    assert "Secret" not in search and "Quiet" not in search
    sitemap = _read(site, "sitemap.xml")
    assert "intro" in sitemap and "secret" not in sitemap and "quiet" not in sitemap
    assert "Quiet" not in _read(site, "blog/index.html")
    assert "noindex" not in _read(site, "docs/intro/index.html")


def test_hide_title_hides_the_generated_title_only(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    site = root / "site"
    bare = _main(_read(site, "docs/bare/index.html"))
    assert "<h1" not in bare and "Body." in bare
    own = _main(_read(site, "docs/own/index.html"))  # Docusaurus: a markdown title stays
    assert 'id="own-heading"' in own
    assert "<h1>Intro</h1>" in _main(_read(site, "docs/intro/index.html"))


def test_a_changed_authors_map_shows_on_the_next_build(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    (root / "blog/authors.yml").write_text("jane:\n  name: Jane Roe\n", encoding="utf-8")
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    hello = _main(_read(root / "site", "blog/2021/05/01/hello/index.html"))
    assert "Jane Roe" in hello and "Jane Doe" not in hello
    (root / "blog/authors.yml").unlink()
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    said = sorted(d.message for d in result.diagnostics if "author '" in d.message)
    assert said == [
        "author 'ghost' is not known: the blog has no authors map; shown by its key",
        "author 'jane' is not known: the blog has no authors map; shown by its key",
    ]
