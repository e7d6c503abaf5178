"""What the crawl found: the project's pages and source files (path and bytes), assets and every
path seen (content/reference/site.md, ARCHITECTURE.md#crawl).

Made by ``crawl`` in sitegen/crawl.py; read by every later stage.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.languages import LangId
from sitegen.base.paths import RepoPath
from sitegen.generators.foreign_outputs import ForeignOutput


@dataclass
class SourceFile:
    """A file the crawl read: its repository path and bytes (a page, unless a ``CodeFile``)."""

    path: RepoPath
    data: bytes

    @functools.cached_property
    def content_hash(self) -> str:
        """What caches and fingerprints key on: the bytes, never the modification time."""
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class CodeFile(SourceFile):
    """A source file of an analysed language."""

    language: LangId


@dataclass
class Crawl:
    """Everything the build reads, sorted by path."""

    pages: list[SourceFile] = field(default_factory=list)
    assets: list[RepoPath] = field(default_factory=list)
    code: list[CodeFile] = field(default_factory=list)
    #: Every regular file seen under the root (for link resolution), read or not.
    all_paths: set[str] = field(default_factory=set)
    #: Folders seen under the root.
    all_dirs: set[str] = field(default_factory=set)
    #: Content hash of every asset (assets are copied, not parsed; the hash keys rebuilds).
    asset_hashes: dict[str, str] = field(default_factory=dict)
    #: Project files that code resolution reads by name (go.mod), path -> text.
    manifests: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Files that pages include with snippet lines, by the name written: the bytes.
    snippets: dict[str, bytes] = field(default_factory=dict)
    #: The repository path each of those was read from, by the name written.
    snippet_paths: dict[str, str] = field(default_factory=dict)
    #: The inventory files the configuration names (``inventories``), by the path written:
    #: the bytes, or why they were not read.
    inventories: dict[str, bytes | str] = field(default_factory=dict)
    #: Snippet files found but not read, by the name written: why, as a clause the page's
    #: warning quotes ("big.txt is 500 bytes, over the size limit of 100 bytes …").
    unread_snippets: dict[str, str] = field(default_factory=dict)
    #: The project's shortcode templates (the ``shortcodes`` folder's ``*.html``), by name:
    #: ``note`` for ``shortcodes/note.html`` (content/syntax/shortcodes.md). Read, never
    #: published.
    shortcodes: dict[str, bytes] = field(default_factory=dict)
    #: Pages no file holds, made by the build after the crawl (the API reference of the
    #: ``api`` option, sitegen/api/pages.py): repository path -> the Python module each
    #: documents ("" for the section's own page). They are in ``pages`` like every page, so
    #: they are extracted, linked and published the same way, but never read from disk,
    #: edited ("Edit this page") or dated from git.
    generated: dict[str, str] = field(default_factory=dict)
    #: Other generators' output and cache folders the walk reached and left out (a built
    #: MkDocs ``site/``, Docusaurus' ``build/``), by path (content/guides/safety.md).
    foreign_outputs: list[ForeignOutput] = field(default_factory=list)

    def add_generated(self, pages: list[tuple[SourceFile, str]]) -> None:
        """Add generated pages (each with the module it documents) to ``pages``, in order.
        A path the crawl read is never replaced: the page written by hand wins."""
        read = {f.path for f in self.pages}
        for page, module in pages:
            if page.path not in read and page.path not in self.generated:
                self.pages.append(page)
                self.generated[page.path] = module
        self.pages.sort(key=lambda f: f.path)

    def warn(self, path: str, message: str, code: str) -> None:
        self.diagnostics.append(Diagnostic(path, 1, 1, Level.WARNING, message, code))
