"""Material's blog posts' URLs and dates (sitegen/link/blog.py) and its options as an
``mkdocs.yml`` gives them (sitegen/generators/mkdocs_blog.py), checked against Babel,
pymdownx and MkDocs themselves (installed in the venv) where they decide."""

from __future__ import annotations

import datetime

import pytest

from sitegen.generators.mkdocs import mkdocs_generator
from sitegen.generators.record import Blog, SlugStyle
from sitegen.link.blog import blog_slug, cldr_date, material_post_route, post_title

babel_dates = pytest.importorskip("babel.dates")
slugs = pytest.importorskip("pymdownx.slugs")

MOMENT = datetime.datetime(2024, 3, 7, 21, 5, 9, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    "pattern",
    [
        "yyyy/MM/dd",
        "yyyy",
        "yyyy/MM",
        "yy-M-d",
        "MMMM yyyy",
        "EEE, d MMM",
        "EEEE",
        "HH:mm:ss a",
        "h 'o''clock'",
        "LLL",
    ],
)
def test_cldr_patterns_as_babel_formats_them(pattern: str) -> None:
    assert cldr_date(MOMENT, pattern) == babel_dates.format_datetime(
        MOMENT, format=pattern, locale="en"
    )


@pytest.mark.parametrize("named", ["full", "long", "medium", "short"])
def test_named_formats_as_babel_formats_them(named: str) -> None:
    assert cldr_date(MOMENT, named) == babel_dates.format_date(MOMENT, format=named, locale="en")


@pytest.mark.parametrize(
    "title", ["Hello World!", "How we're transforming Material for MkDocs", "Ünïcode — café  2.0"]
)
def test_title_slugs_as_pymdownx_makes_them(title: str) -> None:
    assert blog_slug(title, SlugStyle.PYMDOWNX) == slugs.slugify(case="lower")(title, "-")


def test_the_title_as_mkdocs_reads_it_before_rendering() -> None:
    assert post_title({"title": "Given"}, "# Heading\n", "a.md") == "Given"
    assert post_title({}, "---\ndate: 2024-01-01\n---\n\n# The heading\n", "a.md") == "The heading"
    assert post_title({}, "Text first\n\n# Late\n", "my-first_post.md") == "My first post"
    assert post_title({}, "", "MixedCase-name.md") == "MixedCase name"


def _blog(options: str = "") -> Blog | None:
    text = f"site_name: x\ntheme: material\nplugins:\n  - search\n  - blog{options}\n"
    found = mkdocs_generator(text, "docs")
    assert found is not None
    return found.blog


def test_the_plugin_options_and_their_defaults() -> None:
    blog = _blog()
    assert blog is not None
    assert (blog.folder, blog.route_base, blog.authors_file, blog.index_page) == (
        "docs/blog/posts",
        "blog",
        "docs/blog/.authors.yml",
        "docs/blog/index.md",
    )
    assert (blog.post_url_format, blog.post_url_date_format, blog.posts_per_page) == (
        "{date}/{slug}",
        "yyyy/MM/dd",
        10,
    )
    assert blog.archive_url_format == "archive/{date}"
    assert blog.categories_url_format == "category/{slug}"
    assert blog.excerpt_separator == "<!-- more -->" and blog.feeds == ()
    custom = _blog(
        ":\n      blog_dir: news\n      post_dir: '{blog}/entries'\n      archive: false\n"
        "      pagination: false\n      categories_url_format: 'topic/{slug}'"
    )
    assert custom is not None
    assert (custom.folder, custom.route_base, custom.posts_per_page) == (
        "docs/news/entries",
        "news",
        0,
    )
    assert custom.archive_url_format == "" and custom.categories_url_format == "topic/{slug}"
    assert _blog(":\n      enabled: false") is None


def test_a_post_route_with_a_date_table_categories_and_a_format() -> None:
    blog = _blog(":\n      post_url_format: '{categories}/{date}/{file}'")
    assert blog is not None
    front = {"date": {"created": "2024-01-31T23:30:00+02:00"}, "categories": ["Big News", "x"]}
    route = material_post_route(blog, "sub/launch.md", front, "# Launch\n")
    assert route.url == "/blog/big-news/2024/01/31/launch"  # the date in its own offset
    assert route.date == "2024-01-31" and route.categories == ("Big News", "x")
    assert material_post_route(blog, "x.md", {}, "").url == ""  # no date: no route
