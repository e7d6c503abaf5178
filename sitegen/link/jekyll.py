"""The addresses Jekyll's ``_config.yml`` gives pages that name none in their front matter
(content/guides/urls.md#jekylls-_configyml): a ``defaults:`` entry's ``permalink`` by path
and type, a collection's ``permalink`` pattern (``/:collection/:path/``), posts by the
site-wide ``permalink`` style, and that style for the other pages (``pretty``: directory URLs).

The file is read as YAML data only, by the bounded reader (sitegen/base/yamldata.py): nothing in
it is run, and a file too large, too deep or full of aliases is one warning. Pure: the text
comes from the configuration (``Generator.permalinks``, read from ``Generator.sources``, which
the build's fingerprint holds).
"""

from __future__ import annotations

import datetime
import posixpath
import re
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sitegen.addresses import UrlStyle
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.generators import Generator

BAD_CONFIG = "bad-config"
#: Each scalar of the file and where it is first written (sitegen/base/yamldata.py).
Places = Mapping[str, tuple[int, int]]
#: The site-wide styles Jekyll names, as the pattern each gives posts.
_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
_PLACEHOLDER = re.compile(r":([a-z_]+)")
#: A post's file name: its date, then its slug.
_POST_NAME = re.compile(r"^(\d{2,4})-(\d{1,2})-(\d{1,2})-(.*)$")
#: A date as front matter writes it: ``2016-04-19``, ``2016-04-19 10:02:58 -0700``, ISO.
_DATE = re.compile(
    r"\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?)?"
)
_DATE_NAMES = frozenset(
    [
        "year",
        "month",
        "day",
        "i_month",
        "i_day",
        "short_year",
        "y_day",
        "hour",
        "minute",
        "second",
        "week",
        "short_day",
    ]
)


@dataclass(frozen=True)
class _Pattern:
    template: str
    line: int  # where it is written in _config.yml
    col: int = 1


@dataclass(frozen=True)
class _Default:
    path: str  # relative to the source folder, "" for every file
    type: str | None  # "pages", "posts" or a collection's label; None for any
    permalink: _Pattern


@dataclass
class JekyllSite:
    """What one ``_config.yml`` says about addresses."""

    config_file: str
    source: str  # the folder holding it, a repository path ("" for the root)
    style: str = "date"
    #: Each published collection's folder (relative to the source) by label, and its pattern.
    collections: dict[str, tuple[str, _Pattern | None]] = field(default_factory=dict)
    defaults: list[_Default] = field(default_factory=list)
    timezone: zoneinfo.ZoneInfo | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _reported: set[tuple[int, str]] = field(default_factory=set)

    def page_style(self) -> UrlStyle:
        """How pages outside collections are named: ``pretty`` or a pattern ending in ``/``
        gives ``/about/``, any other style ``/about.html`` (Jekyll's permalink suffix)."""
        pattern = _STYLES.get(self.style, self.style)
        return UrlStyle.DIRECTORY if pattern.endswith("/") else UrlStyle.HTML

    def address(self, repo_path: str, front_matter: Mapping[str, Any]) -> str | None:
        """The address from the site root Jekyll publishes a page at when its front matter
        names none, or None when the page keeps the address of its file (not under the
        source, not in a collection, or a pattern sitegen cannot fill in: reported once)."""
        if not (self.source == "" or repo_path.startswith(self.source + "/")):
            return None
        rel = repo_path[len(self.source) + 1 :] if self.source else repo_path
        kind, within, categories = self._kind(rel)
        pattern = self._default(rel, kind)
        if pattern is None and kind != "pages":
            pattern = self.collections[kind][1] if kind in self.collections else None
            if pattern is None and kind == "posts":
                pattern = _Pattern(_STYLES.get(self.style, self.style), 1)
            elif pattern is None:
                suffix = "/" if self.page_style() is UrlStyle.DIRECTORY else ":output_ext"
                pattern = _Pattern("/:collection/:path" + suffix, 1)
        if pattern is None:
            return None
        values = self._placeholders(rel, kind, within, categories, front_matter)
        return self._fill(pattern, values)

    def _kind(self, rel: str) -> tuple[str, str, list[str]]:
        """A file's type (``posts``, a collection's label, else ``pages``), its path within
        the collection's folder, and the folders above a ``_posts`` folder (its categories)."""
        parts = rel.split("/")
        if "_posts" in parts[:-1]:
            at = parts.index("_posts")
            return "posts", "/".join(parts[at + 1 :]), parts[:at]
        for label, (folder, _) in sorted(self.collections.items()):
            if label != "posts" and rel.startswith(folder + "/"):
                return label, rel[len(folder) + 1 :], []
        return "pages", rel, []

    def _default(self, rel: str, kind: str) -> _Pattern | None:
        """The ``permalink`` of the ``defaults:`` entries that apply, by Jekyll's precedence:
        a longer path wins, then one that names a type, then the later entry."""
        best: _Default | None = None
        for entry in self.defaults:
            if entry.type not in (None, kind) or not _in_scope(rel, entry.path):
                continue
            if best is None or (len(entry.path), entry.type is not None) >= (
                len(best.path),
                best.type is not None,
            ):
                best = entry
        return best.permalink if best is not None else None

    def _placeholders(
        self,
        rel: str,
        kind: str,
        within: str,
        categories: list[str],
        front_matter: Mapping[str, Any],
    ) -> dict[str, str]:
        stem, _ = posixpath.splitext(within)
        base = posixpath.basename(stem)
        slug_source = base
        date = _date(front_matter.get("date"), self.timezone)
        named = _POST_NAME.match(base) if kind == "posts" else None
        if named is not None:
            slug_source = named.group(4)
            if date is None:
                y, m, d = (int(g) for g in named.groups()[:3])
                date = _valid(y, m, d)
        given_slug = front_matter.get("slug")
        slug = str(given_slug) if isinstance(given_slug, (str, int)) and given_slug else ""
        values = {
            "collection": kind,
            "output_ext": ".html",
            "basename": base,
            "name": _slugify(base),
            "title": _slugify(slug or slug_source, pretty=True, cased=True),
            "slug": _slugify(slug or slug_source),
            "categories": "/".join(c.lower() for c in [*categories, *_categories(front_matter)]),
        }
        if kind == "pages":
            folder = posixpath.dirname(rel)
            values["path"] = "/" + folder if folder else ""
        else:
            values["path"] = "/" + stem
        if date is not None:
            values.update(_date_values(date))
        return values

    def _fill(self, pattern: _Pattern, values: Mapping[str, str]) -> str | None:
        names = _PLACEHOLDER.findall(pattern.template)
        unknown = sorted({n for n in names if n not in values})
        if unknown:
            dated = all(n in _DATE_NAMES for n in unknown)
            why = "has no date (in its file name or front matter)" if dated else ""
            self._report(pattern, unknown, why)
            return None
        url = _PLACEHOLDER.sub(lambda m: values[m.group(1)], pattern.template)
        url = re.sub(r"/+", "/", ("/" + url).replace("..", "/").replace("./", ""))
        return url

    def _report(self, pattern: _Pattern, unknown: list[str], why: str) -> None:
        key = (pattern.line, pattern.template + why)
        if key in self._reported:
            return
        self._reported.add(key)
        names = ", ".join(f"':{n}'" for n in unknown)
        reason = f"a page {why}" if why else f"sitegen does not fill in {names}"
        self.diagnostics.append(
            Diagnostic(
                self.config_file,
                pattern.line,
                pattern.col,
                Level.WARNING,
                f"permalink '{pattern.template}': {reason}; such pages keep the address of "
                "their file",
                BAD_CONFIG,
            )
        )


def read_jekyll(generator: Generator | None) -> JekyllSite | None:
    """The address rules of the Jekyll configuration found beside the content (read by
    sitegen/generators/jekyll.py), or None. A file that is not YAML gives a site with
    Jekyll's defaults and a warning at the place the parser stopped."""
    given = generator.permalinks if generator is not None else None
    if given is None:
        return None
    site = JekyllSite(given.config_file, given.folder)
    if given.problem is not None:
        line, col, why = given.problem
        site.diagnostics.append(
            Diagnostic(
                site.config_file,
                line + 1,
                col + 1,
                Level.WARNING,
                f"{site.config_file} {why}; its permalinks, collections and defaults are not "
                "applied",
                BAD_CONFIG,
            )
        )
        return site
    document = given.document
    if document is None or not isinstance(document.data, dict):
        return site
    _read(site, document.data, document.places)
    return site


def _read(site: JekyllSite, data: dict[Any, Any], places: Places) -> None:
    style = data.get("permalink")
    if isinstance(style, str) and style.strip():
        site.style = style.strip()
    zone = data.get("timezone")
    if isinstance(zone, str):
        try:
            site.timezone = zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            site.timezone = None  # the dates as written
    given = data.get("collections_dir")
    folder = given.strip("/") if isinstance(given, str) else ""
    collections = data.get("collections")
    if isinstance(collections, list):
        collections = {str(c): {} for c in collections if isinstance(c, (str, int))}
    if isinstance(collections, dict):
        for label, options in sorted(collections.items(), key=lambda kv: str(kv[0])):
            opts = options if isinstance(options, dict) else {}
            if str(label) != "posts" and opts.get("output") is not True:
                continue  # Jekyll writes no page of it: sitegen keeps the files' addresses
            pattern = opts.get("permalink")
            found = _pattern(pattern, places) if isinstance(pattern, str) else None
            if found is not None and found.template in _STYLES:
                found = _Pattern(_STYLES[found.template], found.line, found.col)
            site.collections[str(label)] = (posixpath.join(folder, f"_{label}"), found)
    defaults = data.get("defaults")
    for entry in defaults if isinstance(defaults, list) else []:
        scope = entry.get("scope") if isinstance(entry, dict) else None
        values = entry.get("values") if isinstance(entry, dict) else None
        permalink = values.get("permalink") if isinstance(values, dict) else None
        if not isinstance(permalink, str) or not permalink.strip():
            continue
        scope = scope if isinstance(scope, dict) else {}
        path = scope.get("path", "")
        kind = scope.get("type")
        site.defaults.append(
            _Default(
                str(path or "").strip("/"),
                str(kind) if kind else None,
                _pattern(permalink.strip(), places),
            )
        )


def _pattern(template: str, places: Places) -> _Pattern:
    """A pattern with the line and column it is written at (1:1 when it cannot be found),
    as the parser saw it: the file is not searched once per pattern."""
    line, col = places.get(template, (0, 0))
    return _Pattern(template, line + 1, col + 1)


def _in_scope(rel: str, path: str) -> bool:
    """Whether a file lies in a ``defaults`` scope's path: the folder or file itself, or a
    glob (``*``) matched segment by segment."""
    if not path:
        return True
    if "*" in path:
        pattern = re.escape(path).replace(r"\*", "[^/]*")
        return re.match(pattern + r"(?:/|$)", rel) is not None
    return rel == path or rel.startswith(path + "/")


def _categories(front_matter: Mapping[str, Any]) -> list[str]:
    for key in ("categories", "category"):
        value = front_matter.get(key)
        if isinstance(value, str):
            return value.split() if key == "categories" else [value]
        if isinstance(value, list):
            return [str(v) for v in value if isinstance(v, (str, int))]
    return []


def _valid(y: int, m: int, d: int) -> datetime.datetime | None:
    try:
        return datetime.datetime(y, m, d)
    except ValueError:
        return None


def _date(value: Any, zone: zoneinfo.ZoneInfo | None) -> datetime.datetime | None:
    """A front-matter date; one with an offset is moved to the site's ``timezone`` when
    the configuration names one (as Jekyll does), else taken as written."""
    found = _DATE.match(value) if isinstance(value, str) else None
    if found is None:
        return None
    y, m, d, hh, mm, ss, offset = found.groups()
    at = _valid(int(y), int(m), int(d))
    if at is None:
        return None
    at = at.replace(hour=int(hh or 0) % 24, minute=int(mm or 0) % 60, second=int(ss or 0) % 60)
    if offset and zone is not None:
        sign = 1 if offset == "Z" or offset[0] == "+" else -1
        digits = "0000" if offset == "Z" else offset[1:].replace(":", "")
        delta = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        aware = at.replace(tzinfo=datetime.timezone(sign * delta))
        at = aware.astimezone(zone).replace(tzinfo=None)
    return at


def _date_values(at: datetime.datetime) -> dict[str, str]:
    return {
        "year": f"{at.year:04d}",
        "month": f"{at.month:02d}",
        "day": f"{at.day:02d}",
        "i_month": str(at.month),
        "i_day": str(at.day),
        "short_year": f"{at.year % 100:02d}",
        "y_day": f"{at.timetuple().tm_yday:03d}",
        "hour": f"{at.hour:02d}",
        "minute": f"{at.minute:02d}",
        "second": f"{at.second:02d}",
        "week": f"{at.isocalendar()[1]:02d}",
        "short_day": at.strftime("%a"),
    }


def _slugify(text: str, pretty: bool = False, cased: bool = False) -> str:
    """Jekyll's ``Utils.slugify``: its ``default`` mode (letters and digits kept), or
    ``pretty`` (also ``._~!$&'()+,;=@``); lowercased unless ``cased``."""
    kept = r"\w._~!$&'()+,;=@" if pretty else r"\w"
    slug = re.sub(rf"(?:[^{kept}]|_)+", "-", text).strip("-")
    return slug if cased else slug.lower()
