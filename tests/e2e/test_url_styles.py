"""URL styles, front-matter addresses and redirects, built end to end (content/guides/urls.md):
a fixture per ecosystem, each walked from disk (``file://``) and served, in each style, with
no dead href and no dead fragment; the 404 page at any depth, with and without base_url."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, write_project
from tests.e2e.sitewalk import served, walk_served, walk_site

PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)

MKDOCS: dict[str, str | bytes] = {
    "mkdocs.yml": "site_name: Mk\nnav:\n  - Home: index.md\n  - Guide:\n"
    "    - guide/install.md\n    - guide/usage.md\n",
    "docs/index.md": "# Home\n\nStart with [Install](guide/install.md#setup), then "
    "[Usage](guide/usage.md) or [the guide folder](guide/).\n\n![logo](img/logo.png)\n",
    "docs/guide/index.md": "# Guide\n\n- [Install](install.md)\n- [Usage](usage.md#run)\n",
    "docs/guide/install.md": "# Install\n\n## Setup\n\nBack [home](../index.md); then "
    "[run it](usage.md#run).\n",
    "docs/guide/usage.md": "# Usage\n\n## Run\n\nSee [setup](install.md#setup) and "
    "![logo](../img/logo.png).\n",
    "docs/img/logo.png": PNG,
}

REDIRECT_MAPS = (
    "plugins:\n  - search\n  - redirects:\n      redirect_maps:\n"
    "        old.md: guide/install.md\n        'guide/running.md': 'guide/usage.md#run'\n"
)

JEKYLL: dict[str, str | bytes] = {
    "sitegen.toml": 'content = "docs"\n',
    "docs/index.md": "---\npermalink: /\n---\n# Jekyll docs\n\nRead [the history](/docs/history/), "
    "[installation](/docs/installation) and [old history](/history/).\n",
    "docs/_docs/history.md": "---\ntitle: History\npermalink: /docs/history/\nredirect_from:\n"
    "  - /history/\n  - /docs/changelog.html\n---\n# History\n\n## v1.0\n\nFirst.\n",
    "docs/_docs/installation.md": '---\npermalink: "/docs/installation/"\nredirect_from: '
    "/install/\n---\n# Installation\n\nSee [v1](../history/#v10), [the home](/) and "
    "[the changelog](/docs/changelog.html).\n",
}

HUGO: dict[str, str | bytes] = {
    "sitegen.toml": 'urls = "directory"\n',
    "content/index.md": "# Hugo site\n\nThe [post](/posts/hello-world/), [about](/about-us) "
    "and [an old post link](/old/hello/#later).\n",
    "content/posts/my-first-post.md": "---\ntitle: Hello\nslug: hello-world\naliases:\n"
    "  - /old/hello/\n  - first.html\n---\n# Hello\n\n## Later\n\n[About](../../about-us/).\n",
    "content/about.md": "---\ntitle: About\nurl: /about-us/\n---\n# About\n\n"
    "[The post](/posts/hello-world) and [home](index.md).\n",
}

MISSING = ("no/such/page/", "deep/er/still/x.html", "nothing")


def _build(root: Path, *extra: str) -> Path:
    proc = run_cli("build", "--root", str(root), "--jobs", "1", "--strict", *extra)
    assert proc.returncode == 0, proc.stderr
    return root / "site"


def _no_dead_href(site: Path, prefix: str = "/", public: str = "") -> None:
    disk = walk_site(site)
    assert disk.hrefs > 20
    assert disk.dead == [] and disk.bad_fragments == []
    with served(site, prefix) as root:
        walk = walk_served(site, root, public, MISSING)
    assert walk.pages == disk.pages + len(MISSING)
    assert walk.dead == [] and walk.bad_fragments == []


def _edges(site: Path) -> set[tuple[str, str]]:
    doc = json.loads((site / "graph.json").read_text())
    return {(e["from"], e["to"]) for e in doc["edges"]}


def test_mkdocs_publishes_directory_urls_by_default(tmp_path: Path) -> None:
    site = _build(write_project(tmp_path / "p", MKDOCS))
    assert (site / "guide/install/index.html").is_file()
    assert (site / "guide/index.html").is_file() and not (site / "guide/install.html").exists()
    assert (site / "guide/install.md").is_file()  # the markdown at the node's own path
    home = (site / "index.html").read_text()
    # Every href names the file, so it opens from disk as well as served.
    assert 'href="guide/install/index.html#setup"' in home
    assert 'href="guide/index.html"' in home
    usage = (site / "guide/usage/index.html").read_text()
    assert 'href="../install/index.html#setup"' in usage and 'src="../../img/logo.png"' in usage
    assert ("/index.md", "/guide/install.md") in _edges(site)  # node ids stay the paths
    _no_dead_href(site)


def test_use_directory_urls_false_and_redirect_maps(tmp_path: Path) -> None:
    pages = dict(MKDOCS)
    pages["mkdocs.yml"] = str(MKDOCS["mkdocs.yml"]) + "use_directory_urls: false\n"
    pages["mkdocs.yml"] += REDIRECT_MAPS
    pages["docs/index.md"] = (
        str(MKDOCS["docs/index.md"]) + "\nOld: [install](old.md), [run](/guide/running).\n"
    )
    root = write_project(tmp_path / "p", pages)
    proc = run_cli("build", "--root", str(root), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    site = root / "site"
    assert (site / "guide/install.html").is_file() and not (site / "guide/install").exists()
    old = (site / "old.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=guide/install.html">' in old
    assert '<link rel="canonical" href="guide/install.html">' in old
    assert '<a href="guide/install.html">Install</a>' in old
    running = (site / "guide/running.html").read_text()
    assert 'content="0; url=usage.html#run"' in running
    # A link to an old page (its file or its address) works, and an info line names the page.
    assert (
        "docs/index.md:7:6: info: link 'old.md' reaches 'docs/guide/install.md' through the "
        "redirect at '/old.html'; the page's address is '/guide/install.html'" in proc.stderr
    )
    assert "info: link '/guide/running' reaches 'docs/guide/usage.md'" in proc.stderr
    assert 'href="guide/usage.html#run"' in (site / "index.html").read_text()
    _no_dead_href(site)


def test_switching_style_needs_no_edit_of_any_page(tmp_path: Path) -> None:
    for style in ("html", "directory"):
        pages = {**MKDOCS, "sitegen.toml": f'urls = "{style}"\n'}
        site = _build(write_project(tmp_path / style, pages))
        suffix = "install.html" if style == "html" else "install/index.html"
        assert (site / "guide" / suffix).is_file()
        _no_dead_href(site)


def test_jekyll_permalinks_and_redirect_from(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", JEKYLL)
    proc = run_cli("build", "--root", str(root), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    site = root / "site"
    assert (site / "docs/history/index.html").is_file()
    assert (site / "docs/installation/index.html").is_file()
    assert (site / "history/index.html").is_file() and (site / "docs/changelog.html").is_file()
    edges = _edges(site)
    assert ("/index.md", "/_docs/history.md") in edges  # /docs/history/ is the page
    assert ("/index.md", "/_docs/installation.md") in edges  # without the trailing /
    assert ("/_docs/installation.md", "/_docs/history.md") in edges  # ../history/ from its URL
    history = (site / "docs/history/index.html").read_text()
    backlinks = history.split('id="backlinks-title"')[1]
    assert "Installation" in backlinks and "Jekyll docs" in backlinks
    # A link to an old address resolves to the page, with one info line naming it.
    assert (
        "docs/index.md:6:76: info: link '/history/' reaches 'docs/_docs/history.md' through "
        "the redirect at '/history/'; the page's address is '/docs/history/'" in proc.stderr
    )
    _no_dead_href(site)


def test_hugo_slug_url_and_aliases(tmp_path: Path) -> None:
    site = _build(write_project(tmp_path / "p", HUGO))
    assert (site / "posts/hello-world/index.html").is_file()
    assert (site / "about-us/index.html").is_file()
    assert not (site / "posts/my-first-post").exists() and not (site / "about").exists()
    assert (site / "old/hello/index.html").is_file()
    # a relative alias is read from the page's folder, as Hugo reads it
    first = (site / "posts/first.html").read_text()
    assert 'content="0; url=hello-world/index.html"' in first
    assert ("/index.md", "/posts/my-first-post.md") in _edges(site)
    home = (site / "index.html").read_text()
    assert 'href="posts/hello-world/index.html#later"' in home  # through the alias
    _no_dead_href(site)


@pytest.mark.parametrize("style", ["html", "directory"])
def test_the_404_page_works_at_any_depth_with_base_url(tmp_path: Path, style: str) -> None:
    base = "https://docs.example.com/docs/"
    config = f'urls = "{style}"\nbase_url = "{base}"\n'
    site = _build(write_project(tmp_path / "p", {**MKDOCS, "sitegen.toml": config}))
    assert f'<base href="{base}">' in (site / "404.html").read_text()
    _no_dead_href(site, "/docs/", base)


def test_the_sitemap_lists_addresses_and_no_redirect(tmp_path: Path) -> None:
    pages = {**HUGO, "sitegen.toml": 'urls = "directory"\nbase_url = "https://h.example/"\n'}
    site = _build(write_project(tmp_path / "p", pages))
    sitemap = (site / "sitemap.xml").read_text()
    assert "<loc>https://h.example/posts/hello-world/</loc>" in sitemap
    assert "<loc>https://h.example/about-us/</loc>" in sitemap
    assert "<loc>https://h.example/</loc>" in sitemap
    assert "old/hello" not in sitemap and "first.html" not in sitemap and "404" not in sitemap
    alias = (site / "old/hello/index.html").read_text()
    assert '<link rel="canonical" href="https://h.example/posts/hello-world/">' in alias


def test_two_pages_at_one_address_are_an_error_naming_both(tmp_path: Path) -> None:
    pages: dict[str, str | bytes] = {
        "content/a.md": "---\npermalink: /same/\n---\n# A\n",
        "content/b.md": "---\nurl: /same\n---\n# B\n",
        "sitegen.toml": 'urls = "directory"\n',
    }
    proc = run_cli("build", "--root", str(write_project(tmp_path / "p", pages)), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert (
        "content/b.md:2:1: error: 'content/b.md' and 'content/a.md' are both published as "
        "'same/index.html' (by content/b.md's url and content/a.md's permalink); only "
        "'content/a.md' is published (give one of them another address)" in proc.stderr
    )


def test_a_style_switch_rebuilds_every_page(tmp_path: Path) -> None:
    root = write_project(tmp_path / "p", MKDOCS)
    site = _build(root)
    assert (site / "guide/install/index.html").is_file()
    (root / "mkdocs.yml").write_text(str(MKDOCS["mkdocs.yml"]) + "use_directory_urls: false\n")
    site = _build(root)
    assert (site / "guide/install.html").is_file() and not (site / "guide/install").exists()
    assert 'href="guide/install.html#setup"' in (site / "index.html").read_text()
    _no_dead_href(site)
