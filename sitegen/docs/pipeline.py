"""The docs half of the extract step: every page to its record, in forked workers, with the
page cache's records of unchanged pages reused (linking them is sitegen/link/).

Called by ``sitegen.build`` after the crawl; reads nothing but the crawl's bytes and the
snippet files it found, and never writes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from sitegen.api.blocks import API_CODE, expansions
from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.parallel import run_forked
from sitegen.base.paths import RepoPath
from sitegen.base.progress import Progress
from sitegen.config import Config
from sitegen.docs.includes import expand_includes
from sitegen.docs.markdown import extract_page, record_key
from sitegen.docs.registry import PLUGIN, Syntax
from sitegen.docs.sanitize import RawHtml
from sitegen.docs.shortcode_templates import Shortcodes, project_shortcodes
from sitegen.docs.shortcodes import page_key
from sitegen.docs.snippets import Expanded, Replacement, map_back
from sitegen.generators import Dialect, SlugStyle
from sitegen.records.api import ApiModel
from sitegen.records.crawl import SourceFile
from sitegen.records.pages import PageRecord


@dataclass(frozen=True)
class PageInputs:
    """How every page of a build is read, besides its bytes: the ``raw_html`` mode, the
    ``slugs`` style, the generator record's ``dialect`` (content/syntax/docusaurus.md) and
    the plugins' syntaxes (content/guides/plugins.md). Made by one constructor, ``of``, in
    every driver that extracts a page (the build, serve's preview of a saved page), so a
    page reads the same in both (content/guides/configuration.md)."""

    raw_html: RawHtml
    slugs: SlugStyle
    dialect: Dialect
    extra: tuple[Syntax, ...] = ()
    #: The project's shortcodes (content/syntax/shortcodes.md); None: it has none.
    shortcodes: Shortcodes | None = None

    @classmethod
    def of(
        cls,
        config: Config,
        extra: tuple[Syntax, ...] = (),
        shortcodes: Mapping[str, bytes] | None = None,
    ) -> PageInputs:
        """``shortcodes``: the templates the crawl read (``Crawl.shortcodes``)."""
        found = project_shortcodes(shortcodes or {}, config.shortcode_comments, config.shortcodes)
        return cls(RawHtml(config.raw_html), SlugStyle(config.slugs), config.dialect, extra, found)

    def extract(self, path: str, data: bytes) -> PageRecord:
        """One page's record, as the build extracts a page with no snippets or includes."""
        return _extract_one(
            path, data, self.raw_html, self.slugs, self.dialect, self.extra, self.shortcodes
        )


def extract_pages(
    files: list[SourceFile],
    jobs: int,
    progress: Progress,
    cached_page: Callable[[str, str], PageRecord | None] | None = None,
    raw_html: RawHtml = RawHtml.SANITIZE,
    snippets: Mapping[str, bytes] | None = None,
    *,
    unread_snippets: Mapping[str, str] | None = None,
    snippet_paths: Mapping[str, str] | None = None,
    slugs: SlugStyle = SlugStyle.GITHUB,
    api: ApiModel | None = None,
    api_options: Mapping[str, Any] | None = None,
    api_sources: Mapping[str, bytes] | None = None,
    dialect: Dialect = Dialect.NONE,
    extra: tuple[Syntax, ...] = (),
    shortcodes: Shortcodes | None = None,
) -> list[PageRecord]:
    """A record per page, in path order; a page whose bytes the cache knows is not parsed
    (``cached_page(path, key)``, unless its HTML was rendered under another ``raw_html``
    mode). The key is ``record_key`` of the bytes' hash, the ``slugs`` style and the
    ``dialect`` (the generator record's, content/syntax/docusaurus.md), so a page extracted
    under another style or read in another dialect is extracted again. A page with snippet lines or includes
    is parsed with them in place (content/syntax/snippets.md, includes.md); its cache key is
    the hash of those bytes and of their problems, so a changed included file parses the
    page again, and so does one left out for another reason (the warning says which).
    With the loaded ``api``, each ``::: dotted.path`` block is replaced by the markdown of
    its object the same way (``api_options``: the global options of mkdocs.yml), so a
    changed docstring parses the page again (content/guides/api-reference.md);
    ``api_sources``, the crawl's bytes of the Python files by path, are the lines
    ``show_source`` lists. ``extra`` are the plugins' syntaxes, after sitegen's own; their
    names and versions are part of every key, and a page on which one of them raises is
    read without them, with a warning naming the plugin (content/guides/plugins.md).
    ``shortcodes`` are the project's: they are part of the key of each page that may call
    one (``page_key``), so a changed template reads those pages again, and no other."""
    expanded = {
        f.path: ex
        for f in files
        if (
            ex := expand_includes(
                f.path,
                f.data,
                snippets or {},
                unread_snippets,
                snippet_paths,
                _api_blocks(f, api, api_options, api_sources),
                dialect,
            )
        )
        is not None
    }
    keys = {
        f.path: page_key(
            record_key(
                _expanded_key(expanded[f.path]) if f.path in expanded else f.content_hash,
                slugs,
                dialect,
                extra,
            ),
            expanded[f.path].data if f.path in expanded else f.data,
            shortcodes,
        )
        for f in files
    }
    cached: dict[str, PageRecord] = {}
    if cached_page is not None:
        for f in files:
            rec = cached_page(f.path, keys[f.path])
            if rec is not None and rec.raw_html == raw_html:
                cached[f.path] = rec
    todo = [f for f in files if f.path not in cached]
    task = progress.task("Extracting pages", len(todo))
    # Forked workers read the bytes from the crawl they inherit; records come back as the
    # plain dataclasses the cache stores, never as parse trees.
    for chunk in run_forked(
        partial(
            _extract_chunk,
            raw_html=raw_html,
            expanded=expanded,
            slugs=slugs,
            dialect=dialect,
            extra=extra,
            shortcodes=shortcodes,
        ),
        todo,
        list(range(len(todo))),
        jobs,
    ):
        cached.update((r.path, r) for r in chunk)
        task.advance(len(chunk))
    return [cached[f.path] for f in files]


def _api_blocks(
    f: SourceFile,
    api: ApiModel | None,
    options: Mapping[str, Any] | None,
    sources: Mapping[str, bytes] | None = None,
) -> list[Replacement]:
    """The page's ``:::`` blocks, each with the markdown of its object, as replacements."""
    if api is None or b":::" not in f.data:
        return []
    return [
        Replacement(e.start, e.end, e.text, e.problem, API_CODE)
        for e in expansions(f.path, f.data, api, options, sources=sources)
    ]


def _expanded_key(ex: Expanded) -> str:
    digest = hashlib.sha256(ex.data)
    for line, problem, code in ex.coded():
        digest.update(f"\0{line}:{code}:{problem}".encode())
    return digest.hexdigest()


def _extract_chunk(
    todo: list[SourceFile],
    indexes: list[int],
    raw_html: RawHtml = RawHtml.SANITIZE,
    expanded: Mapping[RepoPath, Expanded] | None = None,
    slugs: SlugStyle = SlugStyle.GITHUB,
    api: ApiModel | None = None,
    api_options: Mapping[str, Any] | None = None,
    dialect: Dialect = Dialect.NONE,
    extra: tuple[Syntax, ...] = (),
    shortcodes: Shortcodes | None = None,
) -> list[PageRecord]:
    out = []
    for i in indexes:
        f = todo[i]
        ex = (expanded or {}).get(f.path)
        if ex is None:
            out.append(_extract_one(f.path, f.data, raw_html, slugs, dialect, extra, shortcodes))
        else:  # parsed with its snippets in place, every position mapped back to its bytes
            rec = _extract_one(f.path, ex.data, raw_html, slugs, dialect, extra, shortcodes)
            out.append(map_back(rec, f.data, ex))
    return out


def _extract_one(
    path: str,
    data: bytes,
    raw_html: RawHtml,
    slugs: SlugStyle,
    dialect: Dialect,
    extra: tuple[Syntax, ...],
    shortcodes: Shortcodes | None = None,
) -> PageRecord:
    """``extract_page``; when a plugin's syntax raises on the page, the page read without
    the plugins' syntaxes and one warning naming the plugin (its rules say which in what
    they raise: sitegen/plugins.py). Such a record keeps the key of a page read without
    them, so the next build reads the page again and warns again."""
    if not extra:
        return extract_page(path, data, raw_html, slugs, dialect, shortcodes=shortcodes)
    try:
        return extract_page(path, data, raw_html, slugs, dialect, extra, shortcodes)
    except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line, not a crash
        rec = extract_page(path, data, raw_html, slugs, dialect, shortcodes=shortcodes)
        said = str(exc) if getattr(exc, "plugin", "") else f"{type(exc).__name__}: {exc}"
        problem = Diagnostic(
            path, 1, 1, Level.WARNING, f"{said}; the page was read without plugin syntaxes", PLUGIN
        )
        return replace(rec, diagnostics=[*rec.diagnostics, problem])
