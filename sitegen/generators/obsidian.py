"""Obsidian vaults and Quartz sites (content/guides/obsidian.md): which content folder is one,
and what its own files ask of the site.

A vault is known by what Obsidian and Obsidian Publish leave in it: the ``.obsidian/``
settings folder in the content folder or a folder above it (up to the root), or Obsidian
Publish's ``publish.css`` in the content folder (a vault kept in git often ignores
``.obsidian/``, as obsidian-help does). A Quartz site is a ``content/`` folder whose parent
holds ``quartz.config.ts``; that file is read as literals with the grammar sitegen ships
(sitegen/base/js_literals.py), never run: ``configuration.pageTitle``, ``ignorePatterns`` and
``baseUrl``. Nothing else is read here; the finder runs after MkDocs, VitePress, Jekyll and
Docusaurus, whose configurations win over a vault's marks.

Both publish a vault's own folders only: the build reads no source root by default
(``own_folders``). Heading ids are github-slugger's, as Quartz makes them (Obsidian Publish
links a heading by its text, which sitegen reads the same way).
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.js_literals import MAX_SOURCE_BYTES, NotLiteral, read_module
from sitegen.base.languages import LangId
from sitegen.base.paths import is_within
from sitegen.generators.record import (
    Dialect,
    Generator,
    Holds,
    NavSpec,
    OutputFolder,
    ReadText,
    SlugStyle,
    folders_up,
)

#: Obsidian's settings folder, at a vault's root.
OBSIDIAN_FOLDER = ".obsidian"
#: Obsidian Publish's site stylesheet, at the published vault's root.
PUBLISH_CSS = "publish.css"
#: Quartz's configuration, beside its content folder.
QUARTZ_CONFIG = "quartz.config.ts"
#: The content folder Quartz reads (its ``-d`` default).
QUARTZ_CONTENT = "content"
#: How many of Quartz's ``ignorePatterns`` are read, each up to this many characters.
_MAX_PATTERNS = 1000
_MAX_PATTERN_CHARS = 1000  # sitegen/base/paths.py matches no longer glob (MAX_GLOB_CHARS)
#: Obsidian Publish's site settings as a vault may keep them (obsidian-help's scripts pull
#: them from Publish into each language's vault): ``navigationOrdering`` and ``siteName``
#: are read, nothing else.
SITE_OPTIONS = "site-options.json"
#: A settings file of more bytes is not read; of its navigation, this many entries at most.
_MAX_OPTIONS_BYTES = 1_000_000
_MAX_NAV_ENTRIES = 10_000


@dataclass(frozen=True)
class PublishNavSpec(NavSpec):
    """Obsidian Publish's navigation order: the vault's folders and notes (paths relative to
    the content folder) in the order its navigation lists them; the others follow, folders
    first, by name (sitegen/site/navigation.py)."""

    order: tuple[str, ...]


def find_obsidian(root: Path, content: str) -> Generator | None:
    """Quartz when the content folder is ``content/`` beside a ``quartz.config.ts``; else an
    Obsidian vault when the content folder holds ``publish.css`` or it or a folder above it
    (up to the root) holds ``.obsidian/``; else None."""
    return find_quartz(root, content) or find_vault(root, content)


def find_vault(root: Path, content: str) -> Generator | None:
    """An Obsidian vault: the nearest mark, the content folder's own first."""
    real_root = root.resolve()
    css = posixpath.join(content, PUBLISH_CSS)
    stylesheets = (css,) if _inside(root / css, real_root, file=True) else ()
    marks = [posixpath.join(folder, OBSIDIAN_FOLDER) for folder in folders_up(content)]
    if stylesheets:
        marks.insert(1, css)  # the content folder's .obsidian/, then its publish.css
    for mark in marks:
        if _inside(root / mark, real_root, file=mark == css):
            shown = mark if mark == css else mark + "/"
            options = _SiteOptions.read(root, content)
            return Generator(
                "Obsidian",
                mark,
                SlugStyle.GITHUB,
                docs_dir=content,
                sources=options.sources,
                dialect=Dialect.OBSIDIAN,
                title=options.title,
                stylesheets=stylesheets,
                own_folders=f"the content is an Obsidian vault (found {shown})",
                diagnostics=options.diagnostics,
                nav=PublishNavSpec(options.order) if options.order else None,
            )
    return None


@dataclass(frozen=True)
class _SiteOptions:
    """What a vault's ``site-options.json`` says: the site's name, the navigation order, the
    file's text (so that the build's fingerprint holds it) and what is wrong with it."""

    title: str = ""
    order: tuple[str, ...] = ()
    sources: tuple[tuple[str, str], ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    @classmethod
    def read(cls, root: Path, content: str) -> _SiteOptions:
        rel = posixpath.join(content, SITE_OPTIONS)
        path = root / rel
        if not _inside(path, root.resolve(), file=True):
            return cls()
        try:
            with path.open("rb") as file:
                data = file.read(_MAX_OPTIONS_BYTES + 1)
        except OSError:
            return cls()
        text = data.decode("utf-8", errors="replace")
        if len(data) > _MAX_OPTIONS_BYTES:
            return cls._unread(rel, f"it is over {_MAX_OPTIONS_BYTES:,} bytes")
        try:
            options = json.loads(text)
        except (ValueError, RecursionError):  # nested past Python's recursion limit
            return cls._unread(rel, "it is not JSON")
        if not isinstance(options, dict):
            return cls._unread(rel, "it is not a JSON object")
        name = options.get("siteName")
        given = options.get("navigationOrdering")
        entries = given[:_MAX_NAV_ENTRIES] if isinstance(given, list) else []
        order = tuple(dict.fromkeys(e.strip("/") for e in entries if isinstance(e, str)))
        return cls(
            name.strip() if isinstance(name, str) else "",
            tuple(e for e in order if e),
            ((rel, text),),
        )

    @classmethod
    def _unread(cls, rel: str, why: str) -> _SiteOptions:
        message = f"{rel} is not read ({why}): the site's name and navigation order are not used"
        return cls(diagnostics=(Diagnostic(rel, 1, 1, Level.WARNING, message, "generator-config"),))


def _inside(path: Path, real_root: Path, *, file: bool) -> bool:
    """Whether ``path`` is a file (or a folder) that lies inside the root, links resolved."""
    found = path.is_file() if file else path.is_dir()
    return found and is_within(path.resolve(), real_root)


def find_quartz(root: Path, content: str) -> Generator | None:
    """Quartz, with what its ``quartz.config.ts`` says, when the content folder is the
    ``content/`` beside it (inside the root)."""
    if posixpath.basename(content) != QUARTZ_CONTENT:
        return None
    rel = posixpath.join(posixpath.dirname(content), QUARTZ_CONFIG)
    path = root / rel
    if not _inside(path, root.resolve(), file=True):
        return None
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SOURCE_BYTES)  # read_module refuses a file this long
    except OSError:
        return None
    config = _QuartzConfig(rel, read_module(data, LangId.TYPESCRIPT).default)
    return Generator(
        "Quartz",
        rel,
        SlugStyle.GITHUB,
        docs_dir=content,
        sources=((rel, data.decode("utf-8", errors="replace")),),
        dialect=Dialect.OBSIDIAN,
        title=config.text("pageTitle"),
        base_url=_base_url(config.text("baseUrl")),
        ignore=config.ignore_patterns(),
        own_folders=f"the content is a Quartz site (found {rel})",
        diagnostics=tuple(config.diagnostics),
    )


class _QuartzConfig:
    """The ``configuration`` object of a ``quartz.config.ts`` default export, and one warning
    for each value sitegen reads that is not a literal of the expected kind."""

    def __init__(self, rel: str, default: Any) -> None:
        self.rel = rel
        self.diagnostics: list[Diagnostic] = []
        given = default.get("configuration") if isinstance(default, dict) else default
        if isinstance(given, NotLiteral) or not isinstance(default, dict):
            self._warn(given if isinstance(given, NotLiteral) else default, "")
        self.values: dict[str, Any] = given if isinstance(given, dict) else {}

    def _warn(self, value: Any, key: str, kind: str = "an object") -> None:
        """One warning for ``configuration.key`` (``configuration`` itself when ``key`` is
        ""), at the value's place when it is a NotLiteral."""
        where = value if isinstance(value, NotLiteral) else NotLiteral("", 1, 1)
        why = f" ({where.reason})" if where.reason else ""
        name = f"configuration.{key}" if key else "configuration"
        message = (
            f"{name} is not {kind} sitegen can read without running the file{why}; it is left out"
        )
        self.diagnostics.append(
            Diagnostic(
                self.rel, where.line, where.column, Level.WARNING, message, "generator-config"
            )
        )

    def text(self, key: str) -> str:
        value = self.values.get(key)
        if value is not None and not isinstance(value, str):
            self._warn(value, key, "a text")
        return value.strip() if isinstance(value, str) else ""

    def ignore_patterns(self) -> tuple[str, ...]:
        """Quartz's ``ignorePatterns``: globs relative to the content folder, as globby reads
        them (``private`` is the folder ``content/private``, ``**/x`` any ``x``)."""
        value = self.values.get("ignorePatterns")
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        patterns = [p.strip() for p in items[:_MAX_PATTERNS] if isinstance(p, str)]
        if not isinstance(value, list) or len(patterns) < min(len(items), _MAX_PATTERNS):
            self._warn(value, "ignorePatterns", "a list of texts")
        # globby's ignore has no negation: a "!" pattern is no pattern there either.
        kept = [p for p in patterns if p and len(p) <= _MAX_PATTERN_CHARS and p[0] != "!"]
        return tuple(p.strip("/") for p in kept if p.strip("/"))


def _base_url(value: str) -> str:
    """Quartz's ``baseUrl`` (``example.com/notes``, written without a scheme) as an absolute
    URL; "" for none."""
    if not value or any(c.isspace() or ord(c) < 32 for c in value):
        return ""
    url = value if "://" in value else f"https://{value}"
    try:
        parts = urlsplit(url)
    except ValueError:  # an unclosed "[" of an IPv6 host
        return ""
    return url if parts.scheme in ("http", "https") and parts.netloc else ""


def quartz_outputs(folder: str, holds: Holds, read: ReadText) -> list[OutputFolder]:
    """What ``npx quartz build`` writes beside a Quartz configuration in a folder:
    ``public/`` and ``.quartz-cache/``."""
    del read  # the folders are fixed: nothing of the file is read
    config = next((name for name in (QUARTZ_CONFIG, "quartz.config.js") if holds(name)), None)
    if config is None:
        return []
    beside = f"beside {posixpath.join(folder, config)}"
    return [
        OutputFolder("public", "Quartz", "output", beside),
        OutputFolder(".quartz-cache", "Quartz", "cache", beside),
    ]
