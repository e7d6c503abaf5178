"""Configuration: typed options with defaults, read from ``sitegen.toml`` or ``[tool.sitegen]``.

No configuration is needed: every option has a default (content/guides/configuration.md). It
reads only the configuration file; a bad value raises ``ConfigError`` (exit code 2).
"""

from __future__ import annotations

import dataclasses
import difflib
import posixpath
import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sitegen.base.diagnostics import cut
from sitegen.base.languages import LangId
from sitegen.base.paths import is_within
from sitegen.generators import (
    OPTION_EXTENSIONS,
    Dialect,
    Generator,
    SlugStyle,
    find_generator,
    option_dialect,
)


class ConfigError(Exception):
    """A usage or configuration error: the CLI exits with code 2."""


@dataclass(frozen=True)
class PeerOption:
    """One entry of ``peers``: where its graph.md is read (an http(s) URL, or a path from the
    root, which may lie outside it: only that file is read), its public URL and its name."""

    url: str = ""
    path: str = ""
    name: str = ""

    @property
    def shown(self) -> str:
        """The peer as it may be shown (pages, messages, exports): a URL's credentials hidden."""
        return shown_url(self.url) if self.url else self.path


def shown_url(url: str) -> str:
    """``url`` with what may be a secret hidden: the user and password (``https://***@host/``)
    and every query and fragment value (``?token=***``), since a peer's URL may carry a token
    and peers.html, warnings and exports are public (content/guides/federation.md). String
    operations, not ``urlsplit``: a URL that does not parse is hidden the same way."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, rest = rest[:end], rest[end:]
    if "@" in authority:
        authority = "***@" + authority.rpartition("@")[2]
    rest, hash_, fragment = rest.partition("#")
    path, question, query = rest.partition("?")
    hidden = (_hide_values(query), hash_, _hide_values(fragment))
    return "".join((scheme, sep, authority, path, question, *hidden))


def _hide_values(query: str) -> str:
    """``a=1&b`` as ``a=***&b``: the names kept, so a reader knows which URL it is."""
    if not query:
        return ""
    return "&".join(
        name + "=***" if sep else name
        for name, sep, _ in (item.partition("=") for item in query.split("&"))
    )


SEVERITIES = ("error", "warn", "info", "ignore")
RAW_HTML_MODES = ("sanitize", "escape", "allow")
#: The values of ``urls``: ``page.html`` or ``page/index.html`` (content/guides/urls.md).
URL_STYLES = ("html", "directory")


@dataclass(frozen=True)
class Config:
    """Every option, its default, and what it does."""

    #: The project root; everything sitegen reads lies below it.
    root: Path = Path(".")
    #: Folder of markdown pages; default ``content/`` if it exists, else ``docs/``.
    content: str = ""
    #: Output folder of the site.
    out: str = "site"
    #: Source roots to analyse; default: the project root (minus content, output, hidden and
    #: ignored folders).
    source: tuple[str, ...] = ()
    #: Site title shown in the header; default: the root folder's name.
    title: str = ""
    #: Absolute URL the site is published under, used in sitemap.xml.
    base_url: str = ""
    #: Glob patterns (relative to the root) of files never read.
    exclude: tuple[str, ...] = ()
    #: Languages whose source files are analysed (names: content/reference/code-graph.md#languages).
    languages: tuple[LangId, ...] = tuple(LangId)
    #: Extra include folders searched for C/C++ ``#include "…"``.
    include_dirs: tuple[str, ...] = ()
    #: Folders Ruby's ``require`` searches (``$LOAD_PATH``); default: every ``lib/`` folder.
    ruby_load_paths: tuple[str, ...] = ()
    #: Files larger than this many bytes are skipped with a warning.
    max_file_size: int = 2_000_000
    #: Persistent store backend: ``json`` or ``sqlite``.
    store: str = "json"
    #: Worker processes for extraction; 0 means one per core.
    jobs: int = 0
    #: Severity per check of ``sitegen check`` (error / warn / info / ignore), as the project
    #: set them: the others keep their default, and the names are checked once the plugins
    #: are loaded (``sitegen.analyse.checks``: ``CHECKS``, ``validate_checks``, ``severities_of``).
    checks: dict[str, str] = field(default_factory=dict)
    #: Python imports that run later or never, put back into the cycle analysis:
    #: ``deferred`` (inside a function), ``type-only`` (under ``if TYPE_CHECKING:``).
    cycles_include: tuple[str, ...] = ()
    #: Raw HTML in pages: ``sanitize`` (GitHub's allow-list), ``escape`` (shown as text) or
    #: ``allow`` (published as written; the build says so).
    raw_html: str = "sanitize"
    #: How pages are published: ``html`` (``guides/a.html``) or ``directory``
    #: (``guides/a/index.html``); by default ``use_directory_urls`` of an ``mkdocs.yml``
    #: (MkDocs' default: directory), else ``html`` (content/guides/urls.md).
    urls: str = ""
    #: Other sites whose published ``graph.md`` gives this site's pages "Linked from other
    #: sites" backlinks: a site's base URL, a local site folder or a graph.md file, or a table
    #: ``{ path = "...", url = "...", name = "..." }`` (content/guides/federation.md).
    peers: tuple[PeerOption, ...] = ()
    #: Whether the site header links to the reports (broken links, cycles, missing links,
    #: graph): a maintainer's view, off by default, so the public header has "All pages"
    #: only. The reports are written either way (content/guides/site.md).
    header_reports: bool = False
    #: Sphinx inventories (``objects.inv``) that autorefs may name, read offline: a list of
    #: paths inside the root, or a table of base URL = path; kept as (path, base URL) pairs
    #: (content/syntax/autorefs.md#inventories).
    inventories: tuple[tuple[str, str], ...] = ()
    #: Python packages (dotted names) whose API reference is generated: one page per public
    #: module, with its members, in the page tree (content/guides/configuration.md#api).
    api: tuple[str, ...] = ()
    #: The folder of the content those pages are generated in (their URL prefix); a page
    #: written there by hand wins over a generated one at the same path.
    api_folder: str = "reference/api"
    #: Global options of every ``:::`` block, as mkdocstrings-python's handler ``options:`` are
    #: written (``show_source = false``): over those of an mkdocs.yml, under each block's own
    #: (content/guides/api-reference.md#options). Each block checks the names and values.
    api_options: dict[str, Any] = field(default_factory=dict)
    #: Not an option: where each option given was set (``sitegen.toml``, ``pyproject.toml``,
    #: ``the command line``), so messages say why a value holds (content/guides/configuration.md).
    set_by: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def content_rel(self) -> str:
        """The content folder relative to the root, normalized: ``docs``, or ``""`` for the
        root itself (``content = "."``). Every consumer uses this form."""
        rel = posixpath.normpath(self.content.strip("/")) if self.content.strip("/") else "."
        return "" if rel == "." else rel

    #: Folder of template overrides (like MkDocs' ``custom_dir``); "" = the shipped theme only.
    theme_dir: str = ""
    #: Language of the pages, the ``lang`` of every ``<html>`` (a BCP 47 tag: ``en``, ``pt-BR``).
    lang: str = "en"
    #: Folders of the content that each hold one language, named by its tag (``["es", "fr"]``);
    #: default: VitePress' or mkdocs-static-i18n's locales (content/guides/locales.md).
    locales: tuple[str, ...] = ()
    #: The repository's web address; with ``edit_uri`` it gives each page an "Edit this page" link.
    repo_url: str = ""
    #: Path from ``repo_url`` to the content folder for editing (MkDocs' name); default for
    #: GitHub and GitLab: ``edit/main/<content>/``.
    edit_uri: str = ""
    #: How heading ids are made: ``github``, ``vitepress``, ``mkdocs``, ``mkdocs-unicode``,
    #: ``pymdownx`` or ``pymdownx-cased`` (content/reference/headings.md#slug-styles); by
    #: default the style of the generator whose configuration is found, else ``github``.
    slugs: str = SlugStyle.GITHUB.value
    #: Syntaxes of the pymdownx family read on every page besides those the generator's
    #: configuration enables: names as ``mkdocs.yml`` lists them (``pymdownx.keys``), or
    #: ``material`` for Material's set (content/syntax/material.md).
    markdown_extensions: tuple[str, ...] = ()
    #: Installed plugins loaded for this project, by their entry points' name: the syntaxes,
    #: outputs and checks they add (content/guides/plugins.md). None is loaded unless named.
    plugins: tuple[str, ...] = ()
    #: Folder of the project's shortcode templates, inside the root: ``{{< note >}}`` in a page
    #: renders ``note.html`` of it, in the themes' sandbox (content/syntax/shortcodes.md). Read,
    #: never published; a folder that does not exist is no shortcodes.
    shortcodes: str = "shortcodes"
    #: HTML comments that call a shortcode template, as a project's MkDocs hook expands them:
    #: ``{ "md:option" = "option" }``, or ``{ "md:*" = "*" }`` for every ``md:`` name; none
    #: are shown as their text
    #: (content/syntax/shortcodes.md#comment-shortcodes-materials-documentation).
    shortcode_comments: dict[str, str] = field(default_factory=dict)
    #: Not an option: the generator whose configuration was found beside the content
    #: (``mkdocs.yml``, ``.vitepress/``), which chooses ``slugs`` when it is not set and
    #: publishes VitePress's ``public/`` folder at the site root.
    generator: Generator | None = None

    @property
    def public_rel(self) -> str:
        """The folder published at the site root (VitePress's ``public/``), relative to the
        root; "" for none."""
        return self.generator.public if self.generator else ""

    @property
    def dialect(self) -> Dialect:
        """What pages are read as besides CommonMark: the generator's dialect and the
        ``markdown_extensions`` option's (content/syntax/material.md)."""
        found = self.generator.dialect if self.generator else Dialect.NONE
        return found | option_dialect(self.markdown_extensions)

    @property
    def content_dir(self) -> Path:
        return self.root / self.content_rel

    @property
    def out_dir(self) -> Path:
        out = Path(self.out)
        return out if out.is_absolute() else self.root / out

    @property
    def cache_dir(self) -> Path:
        return self.root / ".sitegen"

    @property
    def site_title(self) -> str:
        return self.title or self.root.resolve().name


_FIELDS = {f.name: f for f in dataclasses.fields(Config)}


class Rebuild(StrEnum):
    """What a change of an option (or of a plugin's version) redoes: Sphinx's ``rebuild``
    of a config value (content/guides/builds.md#what-an-option-rebuilds)."""

    #: The pages are read again (the option is in the page cache's key) and all that follows.
    PAGES = "pages"
    #: The site is made again (the option is in the site's fingerprint); page records reused.
    SITE = "site"
    #: Nothing: the output is the same whatever its value (``jobs``).
    NOTHING = "nothing"


#: What a change of each field of ``Config`` rebuilds: the one place the build's fingerprints
#: are derived from (``declared_options``), so that a new option cannot be left out of them
#: (tests/test_rebuild.py checks that every field is here). PAGES for every option the page
#: records depend on: the extraction's arguments (``raw_html``, ``slugs``, the dialect of
#: ``markdown_extensions`` and ``generator``, the plugins' syntaxes) and what decides which
#: bytes are read as a page (``content``; ``api``, ``api_options`` and ``api_folder``, which
#: make pages and the markdown of ``:::`` blocks).
OPTION_REBUILD: dict[str, Rebuild] = {
    # where the project lies: the default title, its folder's name, is ``site_title``
    "root": Rebuild.NOTHING,
    "content": Rebuild.PAGES,
    "out": Rebuild.SITE,
    "source": Rebuild.SITE,
    "title": Rebuild.SITE,
    "base_url": Rebuild.SITE,
    "exclude": Rebuild.SITE,
    "languages": Rebuild.SITE,
    "include_dirs": Rebuild.SITE,
    "ruby_load_paths": Rebuild.SITE,
    "max_file_size": Rebuild.SITE,
    "store": Rebuild.SITE,
    # the output is the same for every --jobs (content/guides/builds.md)
    "jobs": Rebuild.NOTHING,
    "checks": Rebuild.SITE,
    "cycles_include": Rebuild.SITE,
    "raw_html": Rebuild.PAGES,
    "urls": Rebuild.SITE,
    "peers": Rebuild.SITE,
    "header_reports": Rebuild.SITE,
    "inventories": Rebuild.SITE,
    "api": Rebuild.PAGES,
    "api_folder": Rebuild.PAGES,
    "api_options": Rebuild.PAGES,
    # not an option: where each option was set, for messages
    "set_by": Rebuild.NOTHING,
    "theme_dir": Rebuild.SITE,
    "lang": Rebuild.SITE,
    "locales": Rebuild.SITE,
    "repo_url": Rebuild.SITE,
    "edit_uri": Rebuild.SITE,
    "slugs": Rebuild.PAGES,
    "markdown_extensions": Rebuild.PAGES,
    "plugins": Rebuild.PAGES,
    # the templates they name and hold enter the page cache key of each page that calls one
    # (sitegen/docs/pipeline.py) and the site's fingerprint: no other page is read again
    "shortcodes": Rebuild.SITE,
    "shortcode_comments": Rebuild.SITE,
    "generator": Rebuild.PAGES,
}


def _pages_read(config: Config) -> dict[str, object]:
    """Of the options declared PAGES, the part that the pages read where it is less than the
    whole value: of the generator record, its dialect (its page tree, addresses and the text
    of its configuration file are the site's, so that editing ``mkdocs.yml``'s ``nav`` does
    not read every page again)."""
    return {"generator": config.generator.dialect if config.generator else Dialect.NONE}


def declared_options(config: Config, rebuild: Rebuild) -> tuple[tuple[str, object], ...]:
    """The (name, value) of every option whose change redoes ``rebuild``, in field order:
    ``Rebuild.PAGES``, the options declared PAGES, as the pages read them (the page cache's
    key); ``Rebuild.SITE``, those declared PAGES or SITE, whole (the site's fingerprint);
    ``Rebuild.NOTHING``, none. Their ``repr`` is what is hashed."""
    if rebuild is Rebuild.NOTHING:
        return ()
    if rebuild is Rebuild.PAGES:
        read = _pages_read(config)
        return tuple(
            (name, read[name] if name in read else getattr(config, name))
            for name in _FIELDS
            if OPTION_REBUILD[name] is Rebuild.PAGES
        )
    return tuple(
        (name, getattr(config, name))
        for name in _FIELDS
        if OPTION_REBUILD[name] is not Rebuild.NOTHING
    )


#: The keys a configuration file may hold.
OPTION_NAMES = tuple(sorted(n for n in _FIELDS if n not in ("root", "set_by", "generator")))
SLUG_STYLES = tuple(style.value for style in SlugStyle)


def _coerce(name: str, value: Any) -> Any:
    if name in ("source", "exclude", "include_dirs", "ruby_load_paths", "locales"):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"option '{name}' must be a string or a list of strings")
        return tuple(value)
    if name == "markdown_extensions":
        return _markdown_extensions(value)
    if name == "plugins":
        return _plugin_names(value)
    if name == "shortcodes":
        return _shortcodes_folder(value)
    if name == "shortcode_comments":
        return _shortcode_comments(value)
    if name == "languages":
        return parse_languages(value if isinstance(value, list) else [value])
    if name == "cycles_include":
        return _cycles_include(value)
    if name == "api":
        return _api_packages(value)
    if name == "api_folder":
        return _api_folder(value)
    if name == "api_options":
        if not isinstance(value, dict):
            raise ConfigError(
                "option 'api_options' must be a table of mkdocstrings options, such as "
                "api_options = { show_source = false }"
            )
        return dict(value)
    if name in ("max_file_size", "jobs"):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"option '{name}' must be a non-negative integer")
        return value
    if name == "header_reports":
        if not isinstance(value, bool):
            raise ConfigError(f"option '{name}' must be true or false")
        return value
    if name == "store":
        if value not in ("json", "sqlite"):
            raise ConfigError("option 'store' must be 'json' or 'sqlite'")
        return value
    if name == "raw_html":
        if value not in RAW_HTML_MODES:
            raise ConfigError("option 'raw_html' must be 'sanitize', 'escape' or 'allow'")
        return value
    if name == "slugs":
        if value not in SLUG_STYLES:
            valid = ", ".join(f"'{s}'" for s in SLUG_STYLES)
            raise ConfigError(f"option 'slugs' must be one of {valid}, not {value!r}")
        return value
    if name == "urls":
        if value not in URL_STYLES:
            raise ConfigError(f"option 'urls' must be 'html' or 'directory', not {value!r}")
        return value
    if name == "peers":
        return _coerce_peers(value)
    if name == "inventories":
        return _inventories(value)
    if name == "checks":
        if not isinstance(value, dict):
            raise ConfigError("option 'checks' must be a table of check = severity")
        for check, sev in value.items():
            if sev not in SEVERITIES:
                raise ConfigError(
                    f"check '{check}': severity must be one of {', '.join(SEVERITIES)}"
                )
        return dict(value)
    if not isinstance(value, str):
        raise ConfigError(f"option '{name}' must be a string")
    if name == "base_url" and value:
        check_base_url(value)
    return value


def _markdown_extensions(value: Any) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError("option 'markdown_extensions' must be a string or a list of strings")
    unknown = [n for n in names if n not in OPTION_EXTENSIONS]
    if unknown:
        valid = ", ".join(f"'{n}'" for n in sorted(OPTION_EXTENSIONS))
        raise ConfigError(
            f"option 'markdown_extensions': '{unknown[0]}' is not one sitegen reads; valid: {valid}"
        )
    return tuple(sorted(set(names)))


#: A plugin's name, as an entry point is named (content/guides/plugins.md).
_PLUGIN_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?", re.ASCII)


def _plugin_names(value: Any) -> tuple[str, ...]:
    """``plugins``: the installed plugins to load, each once, in the order given."""
    return _name_list(
        "plugins",
        value,
        _PLUGIN_NAME,
        "plugin name",
        'plugins = ["example"]',
        "letters, digits, '.', '_' and '-', as its entry point is named",
    )


def _name_list(
    option: str, value: Any, pattern: re.Pattern[str], kind: str, example: str, rule: str
) -> tuple[str, ...]:
    """A list of names (or one name) each matching ``pattern``, each once, in order."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"option '{option}' must be a list of {kind}s, such as {example}")
    for n in names:
        if not pattern.fullmatch(n):
            raise ConfigError(f"option '{option}': '{cut(n)}' is not a {kind} ({rule})")
    return tuple(dict.fromkeys(names))


def _shortcodes_folder(value: Any) -> str:
    """``shortcodes``: a folder inside the root, written relative to it and not hidden."""
    return _inner_folder("shortcodes", value, "the project root", "shortcodes")


def _inner_folder(option: str, value: Any, inside: str, example: str) -> str:
    """A folder written relative to the folder it lies in (``inside``), not hidden and not
    leaving it: normalized, without leading or trailing slashes."""
    rel = posixpath.normpath(value.strip().strip("/")) if isinstance(value, str) else ""
    parts = rel.split("/")
    if (
        not isinstance(value, str)
        or value.strip().startswith("/")
        or rel in ("", ".")
        or any(part in ("..", "") or part.startswith(".") for part in parts)
    ):
        shown = cut(value) if isinstance(value, str) else repr(value)
        raise ConfigError(
            f"option '{option}' must be a folder inside {inside}, relative to it and not "
            f"hidden, such as '{example}', not '{shown}'"
        )
    return rel


#: A comment shortcode's name as the option maps it: ``md:option``, or ``md:*`` for a prefix.
_COMMENT_NAME = re.compile(r"[A-Za-z][\w-]*:(?:[A-Za-z_][\w-]*|\*)", re.ASCII)
#: A template's name: ``option``, ``docs/option``; ``*`` stands for the comment's own name.
_TEMPLATE_NAME = re.compile(r"[\w*][\w.*-]*(?:/[\w*][\w.*-]*)*")


def _shortcode_comments(value: Any) -> dict[str, str]:
    """``shortcode_comments``: comment name = template name, strings; a ``*`` in a template
    name only where the comment's name is a prefix's ``md:*``."""
    example = '{ "md:option" = "option" } or { "md:*" = "*" }'
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ConfigError(
            f"option 'shortcode_comments' must be a table of comment name = template, such as "
            f"{example}"
        )
    for written, template in value.items():
        if not _COMMENT_NAME.fullmatch(written):
            raise ConfigError(
                f"option 'shortcode_comments': '{cut(written)}' is not a comment shortcode's name "
                f"(prefix:name or prefix:*), as in {example}"
            )
        if not _TEMPLATE_NAME.fullmatch(template) or (
            "*" in template and not written.endswith(":*")
        ):
            raise ConfigError(
                f"option 'shortcode_comments': '{cut(template)}' is not a template name of the "
                "shortcodes folder (a '*' only for a prefix:* name)"
            )
    return dict(value)


def _inventories(value: Any) -> tuple[tuple[str, str], ...]:
    """``["objects.inv"]`` (addresses absolute in the file) or ``{ "https://docs.python.org/3/"
    = "inv/python.inv" }``: (path, base URL) pairs, paths as written, base URLs ending in /."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple((path, "") for path in value)
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ConfigError(
            "option 'inventories' must be a list of paths or a table of base URL = path, "
            'such as { "https://docs.python.org/3/" = "inventories/python.inv" }'
        )
    for url in value:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(
                f"option 'inventories': a base URL must be an absolute http(s) URL, not '{url}'"
            )
    return tuple((path, url if url.endswith("/") else url + "/") for url, path in value.items())


#: A dotted Python name: ``pydantic``, ``pkg.sub``.
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", re.ASCII)


def _api_packages(value: Any) -> tuple[str, ...]:
    """``api``: the packages whose reference is generated, each once, in the order given."""
    return _name_list(
        "api",
        value,
        _DOTTED,
        "Python package name",
        'api = ["mypackage"]',
        "dotted identifiers, such as 'mypackage' or 'mypackage.sub'",
    )


def _api_folder(value: Any) -> str:
    """``api_folder``: a folder inside the content folder, written relative to it."""
    return _inner_folder("api_folder", value, "the content folder", "reference/api")


#: The values of ``cycles_include`` (content/guides/cycles.md#when-an-import-runs).
CYCLE_CONTEXTS = ("deferred", "type-only")


def _cycles_include(value: Any) -> tuple[str, ...]:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError("option 'cycles_include' must be a list of strings")
    for v in values:
        if v not in CYCLE_CONTEXTS:
            valid = ", ".join(f"'{c}'" for c in CYCLE_CONTEXTS)
            raise ConfigError(f"option 'cycles_include': {v!r} is not one of {valid}")
    return tuple(c for c in CYCLE_CONTEXTS if c in values)


def check_base_url(url: str) -> None:
    """``base_url`` is an absolute http(s) URL: sitemap.xml must hold absolute ``<loc>``s."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"option 'base_url' must be an absolute http(s) URL such as "
            f"'https://docs.example.com/', not '{url}'"
        )


def _coerce_peers(value: Any) -> tuple[PeerOption, ...]:
    """``peers``: strings (a URL, a folder or a file) or tables of ``path``, ``url``, ``name``."""
    items = value if isinstance(value, list) else [value]
    return tuple(_coerce_peer(index, given) for index, given in enumerate(items))


def _coerce_peer(index: int, given: Any) -> PeerOption:
    item = given
    if isinstance(given, str):
        is_url = "://" in given and bool(_scheme_of(given))
        item = {"url": given} if is_url else {"path": given}
    if not isinstance(item, dict) or not set(item) <= {"url", "path", "name"}:
        raise ConfigError(
            "option 'peers' must list URLs, paths or tables of path, url and name, "
            'such as peers = ["https://docs.example.org/", "../other/site"]'
        )
    if not all(isinstance(v, str) for v in item.values()) or not (
        item.get("url") or item.get("path")
    ):
        raise ConfigError("option 'peers': each peer needs a url or a path (strings)")
    if item.get("url"):
        _check_peer_url(index, item["url"])
    return PeerOption(item.get("url", ""), item.get("path", ""), item.get("name", ""))


#: A URL's scheme (RFC 3986, section 3.1).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")


def _scheme_of(text: str) -> str:
    """The scheme of ``text`` read as a URL ("" when it is none); string tests, since
    ``urlsplit`` raises on some strings that are no URL at all."""
    scheme = text.partition("://")[0]
    return scheme if _SCHEME.fullmatch(scheme) else ""


def _check_peer_url(index: int, url: str) -> None:
    """A peer's URL is an absolute http(s) URL that parses: a bad one stops the build with one
    sentence (exit 2), like every other bad option, never an internal error."""
    shown = cut(shown_url(url))
    try:
        parts = urlsplit(url)
        valid = bool(parts.hostname) and (parts.port is None or parts.port > 0)
    except ValueError as exc:  # "Invalid IPv6 URL", "Port out of range 0-65535"
        raise ConfigError(
            f"option 'peers': peers[{index}] '{shown}' is not a valid URL ({exc})"
        ) from None
    if parts.scheme not in ("http", "https") or not valid:
        raise ConfigError(
            f"option 'peers': peers[{index}] '{shown}' is not an absolute http(s) URL"
        )


def parse_languages(names: list[Any]) -> tuple[LangId, ...]:
    valid = [lang.value for lang in LangId]
    out = []
    for name in names:
        if name not in valid:
            raise ConfigError(f"unknown language '{name}'; valid: {', '.join(valid)}")
        out.append(LangId(name))
    return tuple(out)


def _read_table(root: Path, config_file: Path | None) -> tuple[dict[str, Any], str]:
    candidates = [config_file] if config_file else [root / "sitegen.toml", root / "pyproject.toml"]
    for path in candidates:
        if path is None or not path.is_file():
            if config_file:
                raise ConfigError(f"{config_file}: configuration file not found")
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
        if path.name == "pyproject.toml":
            tool = data.get("tool", {})
            table = tool.get("sitegen") if isinstance(tool, dict) else None
            if table is None and config_file is None:
                continue
            table = data if table is None else table
        else:
            table = data
        if not isinstance(table, dict):
            raise ConfigError(
                f'{path}: [tool.sitegen] must be a table of options, e.g. content = "docs"'
            )
        return table, str(path)
    return {}, ""


def load_config(root: Path, config_file: Path | None = None, **overrides: Any) -> Config:
    """The project's configuration, with command-line ``overrides`` (None values ignored)."""
    table, origin = _read_table(root, config_file)
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in OPTION_NAMES:
            raise ConfigError(unknown_option(origin, key))
        try:
            values[name] = _coerce(name, value)
        except ConfigError as exc:
            raise ConfigError(f"{origin}: {exc}") from exc
    where = _shown_name(root, origin)
    set_by = dict.fromkeys(values, where)
    given = {k: v for k, v in overrides.items() if v is not None}
    values.update(given)
    set_by.update(dict.fromkeys(given, "the command line"))
    if "title" not in values:
        values["title"] = project_name(root)
    config = Config(root=root, set_by=set_by, **values)
    _check_folders(config, origin or "the command line")
    if not config.content:
        content = "content" if (root / "content").is_dir() else "docs"
        config = dataclasses.replace(config, content=content)
    config = _with_generator(config)
    _check_theme_dir(config)
    if not _LANG.fullmatch(config.lang):
        raise ConfigError(
            f"option 'lang' must be a language tag such as 'en' or 'pt-BR', not '{config.lang}'"
        )
    return config


def _with_generator(config: Config) -> Config:
    """The generator found beside the content, and the slug style it asks for unless
    ``slugs`` is set (content/reference/headings.md#slug-styles)."""
    found = find_generator(config.root, config.content_rel)
    slugs = config.slugs if "slugs" in config.set_by or found is None else found.slugs.value
    base_url = config.base_url or (found.base_url if found else "")  # Quartz's baseUrl
    # Docusaurus's i18n.defaultLocale, unless lang is set (the finder checks the tag).
    lang = found.lang if found and found.lang and "lang" not in config.set_by else config.lang
    return dataclasses.replace(config, generator=found, slugs=slugs, base_url=base_url, lang=lang)


def unknown_option(origin: str, key: str) -> str:
    """One sentence for a key that is no option: the likely fix, then the valid keys."""
    if key == "tool" and not origin.endswith("pyproject.toml"):
        return (
            f"{origin}: unknown option 'tool': a [tool.sitegen] table belongs in "
            "pyproject.toml; in sitegen.toml the options are top-level keys "
            '(content = "docs")'
        )
    near = difflib.get_close_matches(key.replace("-", "_"), OPTION_NAMES, n=1, cutoff=0.6)
    hint = f" Did you mean '{near[0]}'?" if near else ""
    return f"{origin}: unknown option '{key}'.{hint} Valid options: {', '.join(OPTION_NAMES)}."


def project_name(root: Path) -> str:
    """``[project] name`` of the root's pyproject.toml, the default site title; "" if none."""
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    project = data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    return name.strip() if isinstance(name, str) else ""


def _shown_name(root: Path, origin: str) -> str:
    """The configuration file as a message names it: relative to the root when inside it."""
    if not origin:
        return ""
    try:
        return Path(origin).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return origin


def _check_folders(config: Config, origin: str) -> None:
    """Configured folders lie inside the root and exist: a typo must not build an empty site."""
    root = config.root.resolve()
    named = [("content", config.content)] if config.content else []
    named += [("source", s) for s in config.source]
    if "shortcodes" in config.set_by:  # the default folder may be missing: no shortcodes
        named.append(("shortcodes", config.shortcodes))
    for key, rel in named:
        folder = (root / rel).resolve()
        if not is_within(folder, root):
            raise ConfigError(
                f"{origin}: {key} = '{rel}' lies outside the project root; "
                "sitegen reads nothing outside it"
            )
        if not folder.is_dir():
            raise ConfigError(
                f"{origin}: {key} = '{rel}' is not a folder of the project; "
                "create it or fix the setting"
            )


_LANG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")


def _check_theme_dir(config: Config) -> None:
    """A configured theme folder must exist below the root (nothing outside it is read)."""
    if not config.theme_dir:
        return
    folder = (config.root / config.theme_dir).resolve()
    root = config.root.resolve()
    if not is_within(folder, root):
        raise ConfigError(f"theme_dir '{config.theme_dir}' lies outside the project root")
    out = config.out_dir.resolve()
    if folder == root or is_within(out, folder):
        # Every file of a theme folder is published: it must not hold the project or the site.
        raise ConfigError(
            f"theme_dir '{config.theme_dir}' must be a folder of its own, not the "
            "project root or a folder holding the output"
        )
    if not folder.is_dir():
        raise ConfigError(f"theme_dir '{config.theme_dir}' is not a folder")
