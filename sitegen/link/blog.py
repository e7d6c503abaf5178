"""Docusaurus's blog posts: which pages are posts, where each is published and its date
(content/guides/docusaurus.md#blog), as Docusaurus's blog plugin (``blogUtils.ts``) gives them.

A post's route is ``routeBasePath`` + its slug: the front matter's ``slug``, else its path
in the blog folder with the date of its name made folders (``2021-05-01-title.md`` ->
``2021/05/01/title``, ``2021-05-01-title/index.md`` the same). Its date is the front matter's
``date``, else the one in its path. Pure functions of a post's path and front matter.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.generators.record import Blog, Generator

#: A date in a post's path (``2021-05-01``, ``2021/05/01``): fixed-width runs, so linear.
_DATE = re.compile(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})")
#: The front-matter keys of a post's route and date, and of a page listed nowhere.
SLUG_KEY = "slug"
DATE_KEY = "date"
UNLISTED_KEY = "unlisted"


def site_blog(generator: Generator | None) -> Blog | None:
    """The blog the generator found publishes, None for none."""
    return generator.blog if generator is not None else None


@dataclass(frozen=True)
class PostRoute:
    """Where Docusaurus publishes one post, and when it was written."""

    #: The URL from the site root: ``/blog/2021/05/01/title``.
    url: str
    #: ``YYYY-MM-DD``, "" when neither the front matter nor the path gives a date.
    date: str
    #: The front-matter key that decided the URL (``slug``), "" for the post's path.
    key: str
    #: What the front matter asks that Docusaurus would refuse: (key, message), ignored.
    problems: tuple[tuple[str, str], ...] = ()


def post_route(rel: str, front_matter: Mapping[str, Any], route_base: str) -> PostRoute:
    """The route and date of the post at ``rel`` (relative to the blog folder) whose front
    matter is ``front_matter``, under ``route_base`` ("" for the site root)."""
    problems: list[tuple[str, str]] = []
    path_slug, path_date = _from_path(rel)
    date = _front_matter_date(front_matter, problems) or path_date
    slug, key = path_slug, ""
    given = front_matter.get(SLUG_KEY)
    if isinstance(given, str) and given.strip():
        slug, key = "/" + given.strip().lstrip("/"), SLUG_KEY
    elif given is not None:
        problems.append((SLUG_KEY, "'slug' must be a text such as 'welcome'; ignored"))
    base = route_base.strip("/")
    return PostRoute(("/" + base if base else "") + slug, date, key, tuple(problems))


def _from_path(rel: str) -> tuple[str, str]:
    """The slug (from the route base, starting with ``/``) and the date a post's path gives:
    ``a/2021-05-01-title.md`` -> ``/a/2021/05/01/title``, ``2021-05-01``. The last date in
    the path counts, as the greedy folder part of Docusaurus' pattern takes the others."""
    text = re.sub(r"(?:/index)?\.mdx?$", "", rel.strip("/"), flags=re.IGNORECASE)
    found = next(iter(reversed(list(_DATE.finditer(text)))), None)
    if found is None:
        return "/" + text, ""
    year, month, day = found.groups()
    rest = text[found.end() :].lstrip("-/")
    slug = f"/{text[: found.start()]}{year}/{month}/{day}" + (f"/{rest}" if rest else "")
    return slug, _iso(year, month, day)


def _iso(year: str, month: str, day: str) -> str:
    try:
        return datetime.date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return ""


def _front_matter_date(front_matter: Mapping[str, Any], problems: list[tuple[str, str]]) -> str:
    """``date`` as ``YYYY-MM-DD`` (a YAML date or a text starting with one); "" when not given
    or not a date (then one problem)."""
    given = front_matter.get(DATE_KEY)
    if given is None or given == "":
        return ""
    if isinstance(given, (datetime.date, datetime.datetime)):
        return given.isoformat()[:10]
    found = _DATE.match(given.strip()) if isinstance(given, str) else None
    day = _iso(*found.groups()) if found is not None and "/" not in found.group(0) else ""
    if not day:
        problems.append((DATE_KEY, f"date '{given}' is no date such as 2021-05-01; ignored"))
    return day


def is_unlisted(front_matter: Mapping[str, Any]) -> bool:
    """Whether a page is unlisted (``unlisted: true``): published, but listed nowhere (the
    page tree, search, the sitemap, the blog's index), as Docusaurus does."""
    return front_matter.get(UNLISTED_KEY) is True
