"""Blog posts: which pages are posts, where each is published and its date, as Docusaurus's
blog plugin (``blogUtils.ts``; content/guides/docusaurus.md#blog) and Material's ``blog``
plugin (content/guides/mkdocs.md#blog) give them.

Docusaurus: a post's route is ``routeBasePath`` + its slug: the front matter's ``slug``,
else its path in the blog folder with the date of its name made folders
(``2021-05-01-title.md`` -> ``2021/05/01/title``, ``2021-05-01-title/index.md`` the same).
Its date is the front matter's ``date``, else the one in its path.

Material: ``blog_dir`` + ``post_url_format`` (``{date}/{slug}``), the date formatted by the
CLDR pattern ``post_url_date_format`` (``yyyy/MM/dd``), the slug the front matter's, else
the title's (front matter ``title``, else the first line's ``# heading``, else the file's
name) made a slug. Its date is ``date`` (or ``date.created``), which a post must have.

Pure functions of a post's path, front matter and text.
"""

from __future__ import annotations

import datetime
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitegen.docs.slug import pymdownx_slug, toc_slug
from sitegen.generators.record import Blog, Generator, SlugStyle

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
    #: Material's: the created and updated dates as ISO datetimes with their offsets (UTC
    #: when the front matter gives none; "" when not given), the categories, and whether
    #: the post is pinned first.
    created: str = ""
    updated: str = ""
    categories: tuple[str, ...] = ()
    pinned: bool = False


def blog_post_route(blog: Blog, rel: str, front_matter: Mapping[str, Any], text: str) -> PostRoute:
    """The route of the post at ``rel`` (relative to the blog's folder) whose front matter is
    ``front_matter`` and whose page's text is ``text``, as the blog's plugin gives it: an
    empty ``url`` when it cannot (a Material post without a date)."""
    if blog.post_url_format:
        return material_post_route(blog, rel, front_matter, text)
    return post_route(rel, front_matter, blog.route_base)


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


# --- Material's blog plugin ---------------------------------------------------------------

CATEGORIES_KEY = "categories"
PIN_KEY = "pin"
#: A page's text after its front matter (``---`` to ``---`` or ``...``), as MkDocs cuts it.
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\r?\n(?:.*?\r?\n)??(?:-{3}|\.{3})[ \t]*(?:\r?\n|\Z)", re.S)


def material_post_route(
    blog: Blog, rel: str, front_matter: Mapping[str, Any], text: str
) -> PostRoute:
    """A post's URL, dates and categories as Material's blog plugin gives them."""
    problems: list[tuple[str, str]] = []
    created, updated = post_dates(front_matter.get(DATE_KEY), problems)
    categories = _texts(front_matter.get(CATEGORIES_KEY), CATEGORIES_KEY, problems)
    pinned = front_matter.get(PIN_KEY) is True
    if created is None:
        problems.append(
            (
                DATE_KEY,
                "a post needs a 'date' (2024-01-31); published at its file's address, not listed",
            )
        )
        return PostRoute("", "", "", tuple(problems), categories=categories)
    given = front_matter.get(SLUG_KEY)
    slug = given.strip() if isinstance(given, str) and given.strip() else ""
    if given is not None and not slug:
        problems.append((SLUG_KEY, "'slug' must be a text such as 'welcome'; ignored"))
    slug = slug or blog_slug(post_title(front_matter, text, rel), blog.slugs)
    shown = [blog_slug(c, blog.slugs) for c in categories[: blog.post_url_max_categories]]
    fields = {
        "date": cldr_date(created, blog.post_url_date_format),
        "slug": slug,
        "categories": "/".join(shown),
        "file": _file_name(rel),
    }
    path = _formatted(blog.post_url_format, fields).strip("/")
    path = posixpath.normpath(path) if path else ""
    base = blog.route_base.strip("/")
    url = "/" + posixpath.join(base, path) if base else "/" + path
    return PostRoute(
        url,
        created.date().isoformat(),
        SLUG_KEY if slug == given else "",
        tuple(problems),
        created.isoformat(),
        updated.isoformat() if updated is not None else "",
        categories,
        pinned,
    )


_PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _formatted(pattern: str, fields: Mapping[str, str]) -> str:
    """``pattern`` with each ``{name}`` of ``fields`` filled in; another is kept as written."""
    return _PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), pattern[:500])


def post_title(front_matter: Mapping[str, Any], text: str, rel: str) -> str:
    """A post's title as MkDocs gives it before rendering: front matter ``title``, else the
    first non-blank line when it is a ``# heading``, else the file's name, its ``-`` and
    ``_`` made spaces (capitalized when it is all lower case)."""
    given = front_matter.get("title")
    if given is not None and not isinstance(given, (dict, list)):
        return str(given)
    body = _FRONT_MATTER.sub("", text[:200_000], count=1)
    for written in body.splitlines():
        line = written.strip()
        if not line:
            continue
        if line.startswith("# "):
            return line.lstrip("# ")
        break
    name = _file_name(rel).replace("-", " ").replace("_", " ")
    return name.capitalize() if name.lower() == name else name


def _file_name(rel: str) -> str:
    """MkDocs' ``File.name``: the file's name without its extension, README as index."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    return "index" if stem == "README" else stem


def blog_slug(text: str, style: SlugStyle) -> str:
    """A post title's or category's slug in the blog's slugify style (pymdownx's lower case
    by default, as Material's ``post_slugify`` and ``categories_slugify``)."""
    if style is SlugStyle.PYMDOWNX_CASED:
        return pymdownx_slug(text, lower=False)
    if style in (SlugStyle.MKDOCS, SlugStyle.MKDOCS_UNICODE):
        return toc_slug(text, unicode=style is SlugStyle.MKDOCS_UNICODE)
    return pymdownx_slug(text)


def post_dates(
    given: Any, problems: list[tuple[str, str]]
) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    """A post's ``date`` (a date, a datetime, or a table with ``created`` and ``updated``)
    as aware datetimes (UTC when no offset is given): (created, updated); None for one not
    given or no date (then one problem)."""
    table = given if isinstance(given, dict) else {"created": given}
    created = _datetime(table.get("created"))
    updated = _datetime(table.get("updated"))
    if given is not None and created is None:
        problems.append((DATE_KEY, f"date '{given}' is no date such as 2024-01-31"))
    return created, updated


def _datetime(value: Any) -> datetime.datetime | None:
    """A front-matter date (an ISO text, as the extract step keeps YAML dates) as an aware
    datetime; None when it is none."""
    if isinstance(value, datetime.datetime):
        found: datetime.datetime | None = value
    elif isinstance(value, datetime.date):
        found = datetime.datetime.combine(value, datetime.time())
    elif isinstance(value, str) and _DATE.match(value.strip()):
        try:
            found = datetime.datetime.fromisoformat(value.strip()[:40])
        except ValueError:
            return None
    else:
        return None
    assert found is not None
    return found if found.tzinfo is not None else found.replace(tzinfo=datetime.UTC)


def _texts(given: Any, key: str, problems: list[tuple[str, str]]) -> tuple[str, ...]:
    """A list of texts (``categories``, ``authors``), each once, in order."""
    if given is None:
        return ()
    if not isinstance(given, list) or not all(isinstance(x, str) for x in given):
        problems.append((key, f"'{key}' must be a list of texts; ignored"))
        return ()
    return tuple(dict.fromkeys(x for x in given if x.strip()))


# --- CLDR date patterns, in English -----------------------------------------------------

_MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
#: Babel's named formats for English (``post_date_format: long`` ...).
NAMED_FORMATS = {
    "full": "EEEE, MMMM d, y",
    "long": "MMMM d, y",
    "medium": "MMM d, y",
    "short": "M/d/yy",
}
#: A quoted literal (``'at'``, ``''`` for a quote) or a run of one pattern letter.
_CLDR_TOKEN = re.compile(r"'(?:[^']|'')*'?|([A-Za-z])\1*|[^A-Za-z']+")


def cldr_date(value: datetime.datetime, pattern: str) -> str:
    """``value`` formatted by a CLDR date pattern (``yyyy/MM/dd``) or a named format
    (``long``), in English, as Babel formats it for Material's date options. Fields read:
    era-less years ``y``, months ``M``/``L``, days ``d``, weekdays ``E``, hours ``H``/``h``,
    minutes ``m``, seconds ``s``, ``a``; another letter run is kept as written."""
    pattern = NAMED_FORMATS.get(pattern, pattern)[:200]
    return "".join(_field(m.group(0), value) for m in _CLDR_TOKEN.finditer(pattern))


def _field(token: str, value: datetime.datetime) -> str:
    if token.startswith("'"):
        inner = token[1:-1] if len(token) > 1 and token.endswith("'") else token[1:]
        return "'" if token == "''" else inner.replace("''", "'")
    letter, width = token[0], len(token)
    if letter == "y":
        return f"{value.year % 100:02d}" if width == 2 else f"{value.year:0{width}d}"
    if letter in "ML":
        if width >= 3:
            name = _MONTH_NAMES[value.month - 1]
            return name if width == 4 else name[:3] if width == 3 else name[0]
        return f"{value.month:0{width}d}"
    if letter == "E":
        name = _DAY_NAMES[value.weekday()]
        return name if width == 4 else name[:3] if width <= 3 else name[:2]
    numbers = {"d": value.day, "H": value.hour, "h": value.hour % 12 or 12}
    numbers |= {"m": value.minute, "s": value.second}
    if letter in numbers:
        return f"{numbers[letter]:0{min(width, 2)}d}"
    if letter == "a":
        return "AM" if value.hour < 12 else "PM"
    return token
