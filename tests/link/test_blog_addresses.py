"""Where Docusaurus publishes a blog post (sitegen/link/blog.py, sitegen/link/page_addresses.py):
``routeBasePath`` + the front matter's ``slug``, else the post's path with the date of its
name made folders; its date from front matter ``date``, else its name; drafts left out."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from sitegen.addresses import Addresses
from sitegen.base.paths import NodeId
from sitegen.config import Config
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect, Generator, SlugStyle
from sitegen.generators.docusaurus import DEFAULT_EXCLUDE, DEFAULT_INCLUDE
from sitegen.generators.record import Blog
from sitegen.link.blog import is_unlisted, post_route
from sitegen.link.page_addresses import page_addresses


@pytest.mark.parametrize(
    ("rel", "front", "url", "date"),
    [
        ("2021-05-01-title.md", {}, "/blog/2021/05/01/title", "2021-05-01"),
        ("2021-05-01-title/index.mdx", {}, "/blog/2021/05/01/title", "2021-05-01"),
        ("2021/05/01/title.md", {}, "/blog/2021/05/01/title", "2021-05-01"),
        ("news/2021-5-1-x.md", {}, "/blog/news/2021/5/1/x", "2021-05-01"),
        ("welcome.md", {}, "/blog/welcome", ""),
        ("welcome.md", {"date": datetime.date(2020, 2, 3)}, "/blog/welcome", "2020-02-03"),
        ("welcome.md", {"date": "2020-02-03T10:00:00Z"}, "/blog/welcome", "2020-02-03"),
        ("2021-05-01-title.md", {"slug": "hello"}, "/blog/hello", "2021-05-01"),
        ("2021-05-01-title.md", {"slug": "/a/b", "date": "2022-01-01"}, "/blog/a/b", "2022-01-01"),
    ],
)
def test_a_posts_route_and_date(rel: str, front: dict[str, Any], url: str, date: str) -> None:
    route = post_route(rel, front, "blog")
    assert (route.url, route.date, route.problems) == (url, date, ())


def test_what_docusaurus_refuses_is_said_and_ignored() -> None:
    route = post_route("2021-05-01-a.md", {"slug": 3, "date": "soon"}, "news")
    assert route.url == "/news/2021/05/01/a" and route.date == "2021-05-01"
    assert [key for key, _ in route.problems] == ["date", "slug"]
    assert post_route("a.md", {}, "").url == "/a"  # a blog at the site root


def test_unlisted_is_true_only() -> None:
    assert is_unlisted({"unlisted": True})
    assert not is_unlisted({"unlisted": "yes"}) and not is_unlisted({})


def _config(blog: Blog | None) -> Config:
    generator = Generator(
        name="Docusaurus",
        config_file="website/docusaurus.config.js",
        slugs=SlugStyle.GITHUB,
        docs_dir="docs",
        dialect=Dialect.MDX,
        route_base="docs",
        blog=blog,
    )
    return Config(root=Path("."), content="docs", urls="directory", generator=generator)


def _published(pages: Mapping[str, str], blog: Blog | None) -> tuple[Addresses, list[str]]:
    records = [extract_page(p, t.encode()) for p, t in pages.items()]
    texts = {p: t.encode() for p, t in pages.items()}
    addresses, diags = page_addresses(_config(blog), records, {}, texts)
    return addresses, [f"{d.path}:{d.line}: {d.code}: {d.message}" for d in diags]


BLOG = Blog("website/blog", include=DEFAULT_INCLUDE, exclude=DEFAULT_EXCLUDE)


def test_posts_are_published_at_their_routes_and_drafts_left_out() -> None:
    pages = {
        "docs/intro.md": "# Intro\n",
        "website/blog/2021-05-01-hello.md": "---\ntitle: Hello\n---\nHi.\n",
        "website/blog/2021-06-01-own/index.md": "---\nslug: own-way\n---\n# Own\n",
        "website/blog/2021-07-01-wip.md": "---\ntitle: WIP\ndraft: true\n---\nNot yet.\n",
    }
    addresses, said = _published(pages, BLOG)
    assert addresses.pages[NodeId("/code/website/blog/2021-05-01-hello.md")] == (
        "blog/2021/05/01/hello/index.html"
    )
    assert addresses.pages[NodeId("/code/website/blog/2021-06-01-own/index.md")] == (
        "blog/own-way/index.html"
    )
    assert NodeId("/code/website/blog/2021-07-01-wip.md") not in addresses.pages
    assert said == [
        "website/blog/2021-07-01-wip.md:3: draft: draft: true: left out of the site, "
        "as Docusaurus leaves a draft out of a build"
    ]
    before, _ = _published(pages, None)  # no blog: the files keep their own paths
    assert before.pages[NodeId("/code/website/blog/2021-05-01-hello.md")] == (
        "code/website/blog/2021-05-01-hello.md.html"
    )
