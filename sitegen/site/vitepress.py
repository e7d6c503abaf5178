"""VitePress's page tree: ``themeConfig.sidebar`` (one tree, or one per path prefix) and
``nav`` of its configuration files, which sitegen/generators/vitepress.py read as literals
(sitegen/base/js_literals.py), never run (content/guides/navigation.md#vitepress), resolved here
against the pages.

Pure functions of the generator record (its ``VitePressNavSpec``, ``route_root`` and
``rewrites``) and of the page records; never reads files and never renders anything.
"""

from __future__ import annotations

import functools
import itertools
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sitegen.addresses import HTML_ADDRESSES, Addresses
from sitegen.base.diagnostics import Diagnostic, Level, cut
from sitegen.base.js_literals import SPREAD, NotLiteral
from sitegen.base.paths import NodeId, content_relative, page_node_id, url_path
from sitegen.generators import ConfigFile, Generator, VitePressNavSpec
from sitegen.records.pages import PageRecord
from sitegen.site.views import NavItem

CODE = "vitepress-nav"


@dataclass(frozen=True)
class Routes:
    """Page routes as VitePress names them (``/guide/routing``), and back: the source
    folder, relative to the content folder, and the ``rewrites`` of the configuration."""

    content: str
    src_dir: str
    rewrites: tuple[tuple[str, str], ...] = ()
    pages: Mapping[NodeId, PageRecord] = field(default_factory=dict)

    def node_of(self, link: str) -> NodeId | None:
        """The page a site-absolute VitePress link names (``/guide/x``, ``/guide/``,
        ``/guide/x.html#y``), or None when no page of the content is that route."""
        path = re.split(r"[#?]", link, maxsplit=1)[0].lstrip("/")
        if not path or path.endswith("/"):
            path += "index"
        stem = re.sub(r"\.(html|md)$", "", path)
        for file in (*self._sources_of(stem + ".md"), stem + ".md", stem + "/index.md"):
            repo = posixpath.normpath(posixpath.join(self.src_dir, file))
            rel = content_relative(self.content, repo)
            if rel is not None and page_node_id(rel) in self.pages:
                return page_node_id(rel)
        return None

    def route_of(self, node: NodeId) -> str:
        """A page's route: its source path, rewritten, ``/``-led, without ``.md``."""
        repo = posixpath.join(self.content, node.lstrip("/"))
        rel = content_relative(self.src_dir, repo) if self.src_dir else repo
        path = rel if rel is not None else node.lstrip("/")
        for source, target in self.rewrites:
            found = _match(source, path)
            if found is not None:
                path = _fill(target, found)
                break
        path = re.sub(r"(^|/)index\.md$", r"\1", path)
        return "/" + re.sub(r"\.md$", "", path)

    def _sources_of(self, file: str) -> list[str]:
        """The source files a rewritten path comes from (``guide/x.md`` <- ``en/guide/x.md``)."""
        out = []
        for source, target in self.rewrites:
            found = _match(target, file)
            if found is not None:
                out.append(_fill(source, found))
        return out


_PARAM = re.compile(r":(\w+)(\*?)")
#: Rewrites kept of a configuration: each link and each page is tried against every one.
MAX_REWRITES = 100
#: A rewrite side longer than this is not used; a path longer than this is not rewritten.
MAX_ROUTE = 1_000
#: Warnings for sidebar entries that name no page, per configuration file; then one summary.
MAX_UNNAMED = 20


@dataclass(frozen=True)
class _Route:
    """A rewrite's side as a regular expression, and the names of its groups in order."""

    pattern: re.Pattern[str]
    names: tuple[str, ...]

    def match(self, path: str) -> dict[str, str] | None:
        found = self.pattern.fullmatch(path) if len(path) <= MAX_ROUTE else None
        return dict(zip(self.names, found.groups(), strict=True)) if found else None


@functools.lru_cache(maxsize=4 * MAX_REWRITES)
def _pattern(route: str) -> _Route | None:
    """A rewrite's side as a regular expression, ``:name`` one segment, ``:name*`` any; None
    when it could take more than linear time to match (content/guides/safety.md): more than
    one parameter in a segment, or a parameter after a ``:name*``. Groups are numbered, not
    named, so any name (``:1``, a name twice) is harmless."""
    if len(route) > MAX_ROUTE:
        return None
    params = list(_PARAM.finditer(route))
    # Each parameter after the first must have a '/' between it and the one before.
    apart = all("/" in route[a.end() : b.start()] for a, b in itertools.pairwise(params))
    stars = [i for i, m in enumerate(params) if m.group(2)]
    if not apart or (stars and stars != [len(params) - 1]):
        return None
    out, at = [], 0
    for m in params:
        out.append(re.escape(route[at : m.start()]))
        # A segment parameter followed by '/' or the end can only take the whole segment,
        # so it never gives characters back (possessive): no backtracking across segments.
        whole = route[m.end() : m.end() + 1] in ("", "/")
        out.append("(.*)" if m.group(2) else "([^/]++)" if whole else "([^/]+)")
        at = m.end()
    out.append(re.escape(route[at:]))
    return _Route(re.compile("".join(out)), tuple(m.group(1) for m in params))


def _match(route: str, path: str) -> dict[str, str] | None:
    pattern = _pattern(route)
    return pattern.match(path) if pattern is not None else None


def _fill(route: str, values: dict[str, str]) -> str:
    return _PARAM.sub(lambda m: values.get(m.group(1), ""), route)


def _rewrites(given: Any) -> tuple[tuple[str, str], ...]:
    """The ``rewrites`` sitegen uses (of a table, or of pairs): string to string, both sides
    linear to match, the first ``MAX_REWRITES``."""
    pairs = given.items() if isinstance(given, dict) else given if isinstance(given, tuple) else ()
    usable = (
        (k, v)
        for k, v in pairs
        if isinstance(v, str) and _pattern(k) is not None and _pattern(v) is not None
    )
    return tuple(itertools.islice(usable, MAX_REWRITES))


def site_routes(
    generator: Generator | None, content: str, pages: Mapping[NodeId, PageRecord]
) -> Routes:
    """How the site's links name pages: by the routes the generator's configuration names
    (VitePress' ``srcDir`` and ``rewrites`` of literal strings) when it names them, else by
    their paths in the content folder."""
    if generator is None or generator.route_root is None:
        return Routes(content, content, (), pages)
    return Routes(content, generator.route_root, _rewrites(generator.rewrites), pages)


@dataclass
class _Reader:
    """Turns sidebar items into nav items; remembers the first thing that was no literal."""

    routes: Routes
    addresses: Addresses
    config: ConfigFile
    diagnostics: list[Diagnostic]
    not_literal: NotLiteral | None = None
    #: Sidebar entries that named no page, by configuration file (after ``MAX_UNNAMED``
    #: warnings, only counted).
    unnamed: dict[str, int] = field(default_factory=dict)

    def items(self, given: Any, base: str) -> tuple[NavItem, ...]:
        if isinstance(given, NotLiteral):
            self.not_literal = self.not_literal or given
            return ()
        if not isinstance(given, list):
            return ()
        return tuple(item for entry in given if (item := self.item(entry, base)) is not None)

    def item(self, entry: Any, base: str) -> NavItem | None:
        if isinstance(entry, NotLiteral):
            self.not_literal = self.not_literal or entry
            return None
        if not isinstance(entry, dict):
            return None
        for value in entry.values():
            if isinstance(value, NotLiteral):
                self.not_literal = self.not_literal or value
                return None
        own = entry.get("base")
        base = own if isinstance(own, str) else base
        text, link = entry.get("text"), entry.get("link")
        title = text if isinstance(text, str) else ""
        href = self.href(link, base) if isinstance(link, str) else ""
        if "items" in entry:
            children = self.items(entry.get("items"), base)
            return NavItem(title=title or "Section", href=href, children=children, is_folder=True)
        if not href:
            return None  # a link out of the site, or to no page: the tree lists pages only
        return NavItem(title=title, href=href)

    def href(self, link: str, base: str) -> str:
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", link):
            return ""
        full = link if link.startswith("/") else "/" + (base.lstrip("/") + link).lstrip("/")
        node = self.routes.node_of(full)
        if node is None:
            count = self.unnamed[self.config.path] = self.unnamed.get(self.config.path, 0) + 1
            if count > MAX_UNNAMED:
                return ""
            self.diagnostics.append(
                Diagnostic(
                    self.config.path,
                    _line_of(self.config.text, link),
                    1,
                    Level.WARNING,
                    f"the sidebar entry '{cut(link)}' names no page of the content folder; "
                    "it is "
                    "left out of the page tree",
                    CODE,
                )
            )
            return ""
        return url_path(self.addresses.out(node))


def _line_of(text: str, value: str) -> int:
    at = text.find(value)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


@dataclass(frozen=True)
class VitePressNav:
    """The trees of a VitePress site: each sidebar by the route prefix it serves (the
    longest prefix of a page's route wins), and each locale's top ``nav`` by its prefix
    (what a page that no sidebar serves shows)."""

    sidebars: tuple[tuple[str, tuple[NavItem, ...]], ...]
    top: tuple[tuple[str, tuple[NavItem, ...]], ...]
    routes: Routes

    def nav_of(self, node: NodeId) -> tuple[NavItem, ...]:
        """The tree the page ``node`` shows: its sidebar, else its locale's top nav."""
        route = self.routes.route_of(node)
        for index in (self._sidebar_index, self._top_index):
            served = [index[p] for p in _prefixes_of(route) if p in index]
            if served:
                return max(served, key=lambda found: found[0])[1]
        return ()

    # A page looks up the prefixes of its own route, never every prefix of the
    # configuration: pages x sidebars was quadratic (1,000 pages and 16,000 sidebars: 4 s).
    @functools.cached_property
    def _sidebar_index(self) -> dict[str, tuple[tuple[int, int], tuple[NavItem, ...]]]:
        return _index(self.sidebars)

    @functools.cached_property
    def _top_index(self) -> dict[str, tuple[tuple[int, int], tuple[NavItem, ...]]]:
        return _index(self.top)


def _index(
    trees: tuple[tuple[str, tuple[NavItem, ...]], ...],
) -> dict[str, tuple[tuple[int, int], tuple[NavItem, ...]]]:
    """Each tree by the route prefix it serves (``/guide/`` serves ``/guide``), with its rank:
    the longest prefix as written wins, then the first."""
    out: dict[str, tuple[tuple[int, int], tuple[NavItem, ...]]] = {}
    for at, (prefix, tree) in enumerate(trees):
        key, rank = "/" + prefix.strip("/"), (len(prefix), -at)
        if key not in out or rank > out[key][0]:
            out[key] = (rank, tree)
    return out


def _prefixes_of(route: str) -> list[str]:
    """The prefixes that serve ``route``: "/", each folder of it, and the route itself."""
    out = ["/", route]
    at = route.find("/", 1)
    while at > 0:
        out.append(route[:at])
        at = route.find("/", at + 1)
    return out


def vitepress_nav(
    generator: Generator,
    content: str,
    pages: Mapping[NodeId, PageRecord],
    diagnostics: list[Diagnostic],
    addresses: Addresses = HTML_ADDRESSES,
) -> VitePressNav | None:
    """The sidebars and top navs of every configuration file (the main one, its
    ``locales``' ``themeConfig``, the additional ``config.ts`` of each locale folder), or None
    when none has a sidebar, or when one is not a literal (one warning: the tree is then
    the folders')."""
    spec = generator.nav
    configs = list(spec.configs) if isinstance(spec, VitePressNavSpec) else []
    routes = site_routes(generator, content, pages)
    said, unnamed = len(diagnostics), dict[str, int]()
    trees = _trees(configs, routes, addresses, diagnostics, unnamed)
    diagnostics.extend(_problems(configs, diagnostics[said:]))
    diagnostics.extend(_ignored_rewrites(configs[:1]))
    diagnostics.extend(
        Diagnostic(
            path,
            1,
            1,
            Level.WARNING,
            f"{count - MAX_UNNAMED:,} more sidebar entries name no page of the content "
            "folder; they are left out of the page tree",
            CODE,
        )
        for path, count in unnamed.items()
        if count > MAX_UNNAMED
    )
    return trees


def _trees(
    configs: list[ConfigFile],
    routes: Routes,
    addresses: Addresses,
    diagnostics: list[Diagnostic],
    unnamed: dict[str, int],
) -> VitePressNav | None:
    """The body of ``vitepress_nav``: the trees of every ``themeConfig``."""
    sidebars: list[tuple[str, tuple[NavItem, ...]]] = []
    top: list[tuple[str, tuple[NavItem, ...]]] = []
    for config, prefix, theme in _themes(configs, routes):
        reader = _Reader(routes, addresses, config, diagnostics, unnamed=unnamed)
        given = theme.get("sidebar")
        if isinstance(given, dict):
            for key, value in given.items():
                tree = value.get("items") if isinstance(value, dict) else value
                base = value.get("base", "") if isinstance(value, dict) else ""
                sidebars.append((key, reader.items(tree, base if isinstance(base, str) else "")))
        elif given is not None:
            sidebars.append((prefix, reader.items(given, "")))
        if reader.not_literal is not None:
            diagnostics.append(_not_literal(config.path, "themeConfig.sidebar", reader.not_literal))
            return None
        top_reader = _Reader(routes, addresses, config, [])
        nav = top_reader.items(theme.get("nav"), "")
        if top_reader.not_literal is not None:
            diagnostics.append(_not_literal(config.path, "themeConfig.nav", top_reader.not_literal))
        if nav:
            top.append((prefix, nav))
    if not sidebars:
        diagnostics.extend(_unread_spreads(configs))
        return None
    return VitePressNav(tuple(sidebars), tuple(top), routes)


def _ignored_rewrites(configs: list[ConfigFile]) -> list[Diagnostic]:
    """One warning for the ``rewrites`` of the main configuration that sitegen does not use."""
    given = configs[0].data.get("rewrites") if configs else None
    if not isinstance(given, dict):
        return []
    kept = set(_rewrites(given))
    left = [k for k, v in given.items() if isinstance(v, str) and (k, v) not in kept]
    if not left:
        return []
    config = configs[0]
    return [
        Diagnostic(
            config.path,
            _line_of(config.text, left[0]),
            1,
            Level.WARNING,
            f"{len(left):,} {'rewrite is' if len(left) == 1 else 'rewrites are'} not used, "
            f"e.g. '{cut(left[0])}': sitegen uses the "
            f"first {MAX_REWRITES} rewrites of at most {MAX_ROUTE:,} characters, with at most "
            "one parameter a segment and none after a ':name*'",
            CODE,
        )
    ]


def _themes(
    configs: list[ConfigFile], routes: Routes
) -> list[tuple[ConfigFile, str, dict[str, Any]]]:
    """Each ``themeConfig`` with the route prefix of its locale ("/" for the root): the main
    file's, each of its ``locales``' own, then each additional file's (by its folder)."""
    if not configs:
        return []
    main = configs[0]
    out = [(main, "/", _theme(main.data))]
    locales = main.data.get("locales")
    for key, locale in locales.items() if isinstance(locales, dict) else ():
        if isinstance(locale, dict) and key != "root":
            out.append((main, f"/{key}/", _theme(locale)))
    for extra in configs[1:]:
        folder = posixpath.dirname(extra.path)
        below = content_relative(routes.src_dir, folder) if routes.src_dir else folder
        prefix = "/" if not below or folder == routes.src_dir else f"/{below}/"
        out.append((extra, prefix, _theme(extra.data)))
    return out


def _unread_spreads(configs: list[ConfigFile]) -> list[Diagnostic]:
    """When no sidebar was found: a warning for a configuration whose object spreads in
    something that is no literal (``...shared``), where a sidebar may hide."""
    out = []
    for config in configs:
        for where in (config.data, _theme(config.data)):
            spread = where.get(SPREAD)
            if isinstance(spread, NotLiteral):
                out.append(_not_literal(config.path, "themeConfig.sidebar", spread))
                break
    return out


def _theme(data: dict[str, Any]) -> dict[str, Any]:
    theme = data.get("themeConfig")
    return theme if isinstance(theme, dict) else {}


def _not_literal(path: str, what: str, value: NotLiteral) -> Diagnostic:
    said = (
        f"which sitegen cannot read: {value.reason}"
        if value.reason
        else "which is not a literal: sitegen reads the configuration's literals only and "
        "never runs it"
    )
    return Diagnostic(
        path,
        value.line,
        value.column,
        Level.WARNING,
        f"{what} holds '{value.text}', {said}"
        + (
            "; the page tree is made from the folders"
            if what.endswith("sidebar")
            else "; that entry is left out"
        ),
        CODE,
    )


def _problems(configs: list[ConfigFile], said: list[Diagnostic]) -> list[Diagnostic]:
    """One warning per configuration file for the first literal it could not read (a cap,
    an escape, a syntax error: sitegen/base/js_literals.py), unless the sidebar or nav
    warnings already named that place."""
    places = {(d.path, d.line, d.col) for d in said}
    out = []
    for config in configs:
        problem = config.problem
        if problem is None or (config.path, problem.line, problem.column) in places:
            continue
        whole = not config.data
        what = f"'{problem.text}' cannot be read: " if problem.text else ""
        then = (
            "the configuration is not used and the page tree is made from the folders"
            if whole
            else "it is read as no value"
        )
        out.append(
            Diagnostic(
                config.path,
                problem.line,
                problem.column,
                Level.WARNING,
                f"{what}{problem.reason}; {then}",
                CODE,
            )
        )
    return out
