"""Crawl: find the project's pages, assets and source files and read their bytes.

The only stage that reads input from the file system. It never reads outside the project
root, sitegen's own output or cache, hidden folders, or paths the project's .gitignore ignores.
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import os
import posixpath
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from sitegen.config import Config
from sitegen.diagnostics import Diagnostic, Level
from sitegen.languages import LangId, language_for_path

# The marker in every output folder sitegen writes: a later crawl skips it whatever ``--out``.
from sitegen.ownership import OUTPUT_MARKER
from sitegen.paths import RepoPath, is_within, normalize_repo_path, repo_path_within

PAGE_EXTENSIONS = (".md", ".markdown")
#: With pages at the project root, the files published as assets (images, media, documents).
ROOT_ASSET_EXTENSIONS = (
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".svg",
    ".webp",
    ".avif",
    ".ico",
    ".pdf",
    ".mp4",
    ".webm",
    ".mp3",
    ".ogg",
    ".txt",
    ".csv",
)
_BINARY_SNIFF = 8192
#: Files code resolution needs (Go's module path, Cargo crate names, npm workspaces, the
#: include paths of a compilation database), read wherever they sit outside the content;
#: ``tsconfig*.json`` (``tsconfig.base.json`` …) are manifests too. And mkdocs.yml, whose
#: nav the page tree follows (content/guides/site.md).
MANIFEST_NAMES = (
    "go.mod",
    "Cargo.toml",
    "package.json",
    "compile_commands.json",
    "jsconfig.json",
    "pnpm-workspace.yaml",
    "mkdocs.yml",
)


def is_manifest(name: str) -> bool:
    return name in MANIFEST_NAMES or (name.startswith("tsconfig") and name.endswith(".json"))


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
    #: Snippet files found but not read, by the name written: why, as a clause the page's
    #: warning quotes ("big.txt is 500 bytes, over the size limit of 100 bytes …").
    unread_snippets: dict[str, str] = field(default_factory=dict)

    def warn(self, path: str, message: str, code: str) -> None:
        self.diagnostics.append(Diagnostic(path, 1, 1, Level.WARNING, message, code))


@dataclass(frozen=True)
class _Unread:
    """Why a file was not read: the warning at the file itself, and the same said of it where
    a page names it (a snippet), where the file's own name must be given."""

    code: str
    warning: str
    reason: str


class _Ignore:
    """The project's .gitignore files (root and nested), plus the configured excludes."""

    def __init__(self, excludes: tuple[str, ...]) -> None:
        self._specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        self._excludes = excludes

    def load(self, root: Path, rel_dir: str) -> None:
        gitignore = root / rel_dir / ".gitignore"
        if gitignore.is_file():
            lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
            self._specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        if any(
            fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel + "/", pat) for pat in self._excludes
        ):
            return True
        for base, spec in self._specs:
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + "/" if is_dir else sub):
                return True
        return False


class _Walker:
    def __init__(self, config: Config, crawl: Crawl) -> None:
        self.config = config
        self.root = config.root.resolve()
        self.crawl = crawl
        self.ignore = _Ignore(config.exclude)
        self.skip_dirs = {
            self._rel(config.out_dir.resolve()),
            self._rel(config.cache_dir.resolve()),
        }
        self.content = config.content_rel
        self.sources = tuple(s.strip("/") for s in config.source) or ("",)
        self.languages = set(config.languages)
        self.seen_dirs: dict[str, str] = {}  # real path -> the first name it was read under

    def _rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return "\0outside"

    def walk(self, rel_dir: str) -> None:
        real = os.path.realpath(self.root / rel_dir)
        if real in self.seen_dirs:
            parent = os.path.realpath(self.root / os.path.dirname(rel_dir))
            if real == parent or parent.startswith(real + os.sep):
                self.crawl.warn(rel_dir, "symbolic link loop; folder ignored", "symlink")
            else:
                self.crawl.warn(
                    rel_dir,
                    f"the same folder as '{self.seen_dirs[real] or '.'}' "
                    "(a symbolic link); read once, there",
                    "symlink",
                )
            return
        self.seen_dirs[real] = rel_dir
        self.ignore.load(self.root, rel_dir)
        try:
            entries = sorted(os.scandir(self.root / rel_dir), key=lambda e: e.name)
        except OSError as exc:
            self.crawl.warn(rel_dir or ".", f"cannot read folder: {exc.strerror}", "io")
            return
        if rel_dir and any(e.name == OUTPUT_MARKER for e in entries):
            return  # sitegen's own output, whatever --out it was built with
        if rel_dir and any(e.name == "pyvenv.cfg" for e in entries):
            return  # a Python virtual environment (``python -m venv v``): never docs or code
        for entry in entries:
            self._visit(entry, f"{rel_dir}/{entry.name}" if rel_dir else entry.name)

    def _visit(self, entry: os.DirEntry[str], rel: str) -> None:
        if entry.name.startswith(".") or rel in self.skip_dirs:
            return
        is_link = entry.is_symlink()
        if is_link and not self._link_inside(entry, rel):
            return
        try:
            st = os.stat(entry.path)
        except OSError:
            self.crawl.warn(rel, "broken symbolic link; ignored", "symlink")
            return
        is_dir = stat.S_ISDIR(st.st_mode)
        if self.ignore.ignored(rel, is_dir):
            return
        if is_dir:
            self.crawl.all_dirs.add(rel)
            self.walk(rel)
        elif stat.S_ISREG(st.st_mode):
            self.crawl.all_paths.add(rel)
            self._file(rel, st.st_size)

    def _link_inside(self, entry: os.DirEntry[str], rel: str) -> bool:
        target = Path(os.path.realpath(entry.path))
        if is_within(target, self.root):
            return True
        self.crawl.warn(rel, "symbolic link points outside the project root; ignored", "symlink")
        return False

    def _file(self, rel: str, size: int) -> None:
        in_content = repo_path_within(rel, self.content)
        is_page = in_content and rel.lower().endswith(PAGE_EXTENSIONS)
        if (
            not in_content
            and rel.rsplit("/", 1)[-1].lower() == "readme.md"
            and any(repo_path_within(rel, s) for s in self.sources)
        ):
            is_page = True  # a source folder's README is a page, beside the source pages
        if in_content and not self.content and not is_page:
            # Pages at the root (content = "."): source files stay code, and only files that
            # look like a document's assets are published (never the project's config).
            in_content = rel.lower().endswith(ROOT_ASSET_EXTENSIONS)
        lang = None
        if not in_content and any(repo_path_within(rel, s) for s in self.sources):
            lang = language_for_path(rel)
            if lang not in self.languages:
                lang = None
        if is_manifest(rel.rsplit("/", 1)[-1]) and not in_content:
            data = self._read(rel, size)
            if data is not None:
                self.crawl.manifests[rel] = data.decode("utf-8", errors="replace")
            return
        if in_content and not is_page:
            self.crawl.assets.append(RepoPath(rel))
            self.crawl.asset_hashes[rel] = self._hash(rel)
            return
        if not is_page and lang is None:
            return
        data = self._read(rel, size)
        if data is None:
            return
        if is_page:
            self.crawl.pages.append(SourceFile(RepoPath(rel), data))
        elif lang is not None:
            self.crawl.code.append(CodeFile(RepoPath(rel), data, lang))

    def read_snippets(self, includes: Includes) -> None:
        """The files the pages' snippet lines name (content/syntax/snippets.md), relative to
        the project root, else to the content folder: inside the root only, through the same
        guards as every other read. A name that leads nowhere is left out, and one that leads
        to a file that cannot be read is left out with the reason (the page says either)."""
        tried: set[str] = set()
        for page in self.crawl.pages:
            for name in includes(page.data):
                if name in tried:
                    continue
                tried.add(name)
                for base in dict.fromkeys(("", self.content)):
                    rel = (
                        normalize_repo_path(posixpath.join(base, name))
                        if base
                        else normalize_repo_path(name)
                    )
                    if not rel:
                        continue
                    data = self._snippet(rel)
                    if isinstance(data, bytes):
                        self.crawl.snippets[name] = data
                        self.crawl.snippet_paths[name] = rel
                        self.crawl.unread_snippets.pop(name, None)
                        break
                    if data is not None:  # the first file found is the one to explain
                        self.crawl.unread_snippets.setdefault(name, data.reason)

    def _snippet(self, rel: str) -> bytes | _Unread | None:
        """The bytes of ``rel``, why it was not read, or None when no such file may be read.
        Nothing is warned at the file: the page's warning at the snippet line says it."""
        path = Path(os.path.realpath(self.root / rel))
        if not is_within(path, self.root) or not path.is_file():
            return None  # outside the root (whatever a link says), or not a file
        if any(part.startswith(".") for part in path.relative_to(self.root).parts):
            return None  # never the cache, the repository's .git or another hidden file
        return self._load(rel, path.stat().st_size)

    def _hash(self, rel: str) -> str:
        digest = hashlib.sha256()
        try:
            with open(self.root / rel, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        except OSError as exc:
            self.crawl.warn(rel, f"cannot read file: {exc.strerror}", "io")
            return ""
        return digest.hexdigest()

    def _read(self, rel: str, size: int) -> bytes | None:
        data = self._load(rel, size)
        if isinstance(data, _Unread):
            self.crawl.warn(rel, data.warning, data.code)
            return None
        return data

    def _load(self, rel: str, size: int) -> bytes | _Unread:
        limit = self.config.max_file_size
        if size > limit:
            return _Unread(
                "huge",
                f"file is {size} bytes, over the limit of {limit} (max_file_size); skipped",
                f"{rel} is {size} bytes, over the size limit of {limit} bytes (max_file_size)",
            )
        try:
            data = (self.root / rel).read_bytes()
        except OSError as exc:
            return _Unread(
                "io", f"cannot read file: {exc.strerror}", f"cannot read {rel}: {exc.strerror}"
            )
        if b"\0" in data[:_BINARY_SNIFF]:
            return _Unread(
                "binary",
                "binary file (contains NUL bytes); skipped",
                f"{rel} is a binary file (contains NUL bytes)",
            )
        return data


#: The file names a page's bytes ask to include (``sitegen.docs.snippets.snippet_names``). The
#: driver passes it in, since the syntax belongs to the docs layer above (ARCHITECTURE.md#layers).
Includes = Callable[[bytes], list[str]]


def _no_includes(data: bytes) -> list[str]:
    return []


def crawl(config: Config, includes: Includes = _no_includes) -> Crawl:
    """Read the project below ``config.root``; results sorted by path, whatever the FS order.

    ``includes`` names the files each page includes; they are read into ``Crawl.snippets``."""
    result = Crawl()
    walker = _Walker(config, result)
    walker.walk("")
    walker.read_snippets(includes)
    result.pages.sort(key=lambda f: f.path)
    result.assets.sort()
    result.code.sort(key=lambda f: f.path)
    return result
