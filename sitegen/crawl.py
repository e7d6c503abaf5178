"""Crawl: find the project's pages, assets and source files and read their bytes.

The only stage that reads input from the file system. It never reads outside the project
root, sitegen's own output or cache, another generator's output or cache, hidden folders, or
paths the project's .gitignore ignores.
``build_reads`` answers, by the same rules, whether a build takes one path in: what
``sitegen serve`` watches.
"""

from __future__ import annotations

import dataclasses
import enum
import fnmatch
import functools
import hashlib
import os
import posixpath
import stat
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from sitegen.base.languages import LangId, language_for_path
from sitegen.base.paths import (
    RepoPath,
    content_relative,
    glob_matches,
    is_within,
    normalize_repo_path,
    repo_path_within,
)
from sitegen.base.yamldata import MAX_CHARACTERS
from sitegen.config import Config
from sitegen.generators.foreign_outputs import ForeignOutput, outputs_in
from sitegen.generators.record import Blog
from sitegen.records.crawl import CodeFile, Crawl, SourceFile

# The marker in every output folder sitegen writes: a later crawl skips it whatever ``--out``.
from sitegen.state.ownership import OUTPUT_MARKER

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


#: A folder holding one of these is never walked: sitegen's own output, whatever --out it was
#: built with, or a Python virtual environment (``python -m venv v``), never docs or code.
FOREIGN_FOLDER_MARKERS = (OUTPUT_MARKER, "pyvenv.cfg")
#: Read in every folder the crawl walks, though hidden: it decides what else is read.
GITIGNORE = ".gitignore"


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
        #: The content folder and the globs of its files never read (matched without regular
        #: expressions: a glob of many stars never backtracks).
        self._content_globs: tuple[str, tuple[str, ...]] = ("", ())

    @classmethod
    def of(cls, config: Config) -> _Ignore:
        """The configured excludes, and the files of the content folder that the generator's
        configuration leaves out (Quartz's ``ignorePatterns``: sitegen/generators/obsidian.py)."""
        ignore = cls(config.exclude)
        found = config.generator
        if found is not None and found.ignore:
            ignore._content_globs = (config.content_rel, found.ignore)
        return ignore

    def load(self, root: Path, rel_dir: str) -> None:
        gitignore = root / rel_dir / GITIGNORE
        if gitignore.is_file():
            lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
            self._specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        if any(
            fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel + "/", pat) for pat in self._excludes
        ):
            return True
        content, globs = self._content_globs
        inner = content_relative(content, rel) if globs else None
        if inner and glob_matches(globs, inner):
            return True
        for base, spec in self._specs:
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + "/" if is_dir else sub):
                return True
        return False


class _Kind(enum.Enum):
    """What the crawl does with a file it reaches."""

    PAGE = "page"  # read and parsed
    ASSET = "asset"  # hashed and published
    CODE = "code"  # read and analysed
    MANIFEST = "manifest"  # read for code resolution and the nav (go.mod, mkdocs.yml)
    SHORTCODE = "shortcode"  # a shortcode template: read, never published or analysed


@dataclass(frozen=True)
class _Layout:
    """Which files are pages, assets, source files or manifests, and which folders are never
    walked: the one rule the crawl follows and ``build_reads`` asks."""

    content: str
    sources: tuple[str, ...]
    languages: frozenset[LangId]
    #: The output and the cache, relative to the root.
    skip_dirs: frozenset[str]
    #: The outputs that the configuration of the generator found beside the content names,
    #: wherever they lie (``site_dir: ../site``); those of other folders are found on the way.
    generator_outputs: dict[str, ForeignOutput] = field(default_factory=dict)
    #: What the generator found beside the content reads (sitegen/generators/record.py): the
    #: extensions of pages (Docusaurus adds .mdx), folders published at the site root
    #: (Docusaurus's static/), and the globs of the pages it publishes, relative to its
    #: docs folder (Docusaurus's include and exclude: _partials are never pages).
    page_extensions: tuple[str, ...] = PAGE_EXTENSIONS
    static: tuple[str, ...] = ()
    docs_dir: str = ""
    page_include: tuple[str, ...] = ()
    page_exclude: tuple[str, ...] = ()
    #: The blog the generator publishes (Docusaurus's blog/): its posts are pages, its
    #: images assets, wherever the folder lies (content/guides/docusaurus.md#blog).
    blog: Blog | None = None
    #: The folder of the shortcode templates (content/syntax/shortcodes.md): its ``*.html``
    #: are read as templates, its other files only listed; nothing of it is published.
    shortcodes: str = ""

    @classmethod
    def of(cls, config: Config, root: Path) -> _Layout:
        def rel(path: Path) -> str:
            try:
                return path.relative_to(root).as_posix()
            except ValueError:
                return "\0outside"

        layout = cls(
            config.content_rel,
            # A vault's own folders only: no source root unless configured (own_folders).
            tuple(s.strip("/") for s in config.source) or _default_sources(config),
            frozenset(config.languages),
            frozenset({rel(config.out_dir.resolve()), rel(config.cache_dir.resolve())}),
            shortcodes=config.shortcodes,
        )
        found = config.generator
        if found is None:
            return layout
        # The folder the tool runs from (VitePress' project root holds .vitepress/; MkDocs and
        # Jekyll read the configuration's own folder): the record says.
        folder = found.project_folder
        on_disk = functools.partial(_exists_in, root / folder)
        outputs = _other_outputs(root, folder, on_disk, layout, upward=True)
        return dataclasses.replace(
            layout,
            generator_outputs=outputs,
            page_extensions=found.page_extensions,
            static=found.static,
            docs_dir=found.docs_dir,
            page_include=found.page_include,
            page_exclude=found.page_exclude,
            blog=found.blog,
        )

    def skipped(self, name: str, rel: str) -> bool:
        """A hidden name, the output or the cache: never walked, never listed."""
        return name.startswith(".") or rel in self.skip_dirs

    def read_anyway(self, folder: str) -> bool:
        """Whether another generator's output ``folder`` is read all the same: it is, or holds,
        the content folder or a source folder the configuration names."""
        named = (self.content, *self.sources)
        return any(path and repo_path_within(path, folder) for path in named)

    def publishes(self, rel: str) -> bool:
        """Whether the generator publishes the page ``rel``: its path in the docs folder
        matches ``page_include`` (when given) and not ``page_exclude``; a page outside the
        docs folder is not the generator's to leave out."""
        inner = content_relative(self.docs_dir, rel)
        if inner is None:
            return True
        if self.page_include and not glob_matches(self.page_include, inner):
            return False
        return not (self.page_exclude and glob_matches(self.page_exclude, inner))

    def kind(self, rel: str) -> tuple[_Kind, LangId | None] | None:
        """What the crawl does with the regular file ``rel``; None: it only lists its name."""
        if self.shortcodes and repo_path_within(rel, self.shortcodes):
            return (_Kind.SHORTCODE, None) if rel.endswith(".html") else None
        if any(repo_path_within(rel, folder) for folder in self.static):
            return _Kind.ASSET, None  # published at the site root, whatever it is
        if self.blog is not None and repo_path_within(rel, self.blog.folder):
            found = _blog_kind(self.blog, rel)
            inside = bool(self.content) and repo_path_within(rel, self.content)
            if found is not None or not inside or rel.lower().endswith(self.page_extensions):
                return found
            # else a file beside the posts of a blog inside the content folder (Material's):
            # published as any file of the content is

        in_content = repo_path_within(rel, self.content)
        is_page = in_content and rel.lower().endswith(self.page_extensions)
        if is_page and not self.publishes(rel):
            return None  # a page the generator leaves out (a Docusaurus partial): listed only
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
            return _Kind.MANIFEST, None
        if in_content and not is_page:
            return _Kind.ASSET, None
        if is_page:
            return _Kind.PAGE, None
        return (_Kind.CODE, lang) if lang is not None else None


def _blog_kind(blog: Blog, rel: str) -> tuple[_Kind, LangId | None] | None:
    """A file of the blog folder: a post is a page, an image or a document beside the posts
    an asset; the rest (authors.yml, partials) is listed only."""
    if blog.post_path(rel) is not None:
        return _Kind.PAGE, None
    return (_Kind.ASSET, None) if rel.lower().endswith(ROOT_ASSET_EXTENSIONS) else None


def _default_sources(config: Config) -> tuple[str, ...]:
    """The source roots when ``source`` is not set: the project root, or none when the
    content is an Obsidian vault or a Quartz site, whose own folders alone are its site."""
    found = config.generator
    return () if found is not None and found.own_folders else ("",)


def _foreign_folder(holds: Callable[[str], bool]) -> bool:
    """A folder never walked: ``holds(name)`` says whether it holds a file of that name."""
    return any(holds(marker) for marker in FOREIGN_FOLDER_MARKERS)


def _foreign_on_disk(folder: Path) -> bool:
    return _foreign_folder(lambda marker: (folder / marker).exists())


def _other_outputs(
    root: Path, folder: str, holds: Callable[[str], bool], layout: _Layout, upward: bool = False
) -> dict[str, ForeignOutput]:
    """The output and cache folders that the generator configurations in ``folder`` name
    (sitegen/generators/foreign_outputs.py), by path, but those the configuration reads all the same.
    Each configuration is read inside the root only, one character past the YAML reader's
    limit at most (which it then refuses)."""

    def read(name: str) -> str | None:
        path = root / folder / name
        if not path.is_file() or not is_within(Path(os.path.realpath(path)), root):
            return None
        try:
            with path.open(encoding="utf-8", errors="replace") as file:
                return file.read(MAX_CHARACTERS + 1)
        except OSError:
            return None

    found = outputs_in(folder, holds, read, upward)
    return {out.folder: out for out in found if not layout.read_anyway(out.folder)}


class _Walker:
    def __init__(self, config: Config, crawl: Crawl) -> None:
        self.config = config
        self.root = config.root.resolve()
        self.crawl = crawl
        self.ignore = _Ignore.of(config)
        self.layout = _Layout.of(config, self.root)
        self.content = config.content_rel
        self.seen_dirs: dict[str, str] = {}  # real path -> the first name it was read under
        #: Other generators' outputs named by the configurations of the folders walked so far.
        self.other_outputs = dict(self.layout.generator_outputs)

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
        names = {e.name for e in entries}
        if rel_dir and _foreign_folder(names.__contains__):
            return  # sitegen's own output or a virtual environment
        self.other_outputs |= _other_outputs(self.root, rel_dir, names.__contains__, self.layout)
        for entry in entries:
            self._visit(entry, f"{rel_dir}/{entry.name}" if rel_dir else entry.name)

    def _visit(self, entry: os.DirEntry[str], rel: str) -> None:
        if self.layout.skipped(entry.name, rel):
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
        if is_dir and rel in self.other_outputs:
            self.crawl.foreign_outputs.append(self.other_outputs[rel])
        elif is_dir:
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
        found = self.layout.kind(rel)
        if found is None:
            return  # listed (a link may name it), never read
        kind, lang = found
        if kind is _Kind.ASSET:
            self.crawl.assets.append(RepoPath(rel))
            self.crawl.asset_hashes[rel] = self._hash(rel)
            return
        data = self._read(rel, size)
        if data is None:
            return
        if kind is _Kind.MANIFEST:
            self.crawl.manifests[rel] = data.decode("utf-8", errors="replace")
        elif kind is _Kind.PAGE:
            self.crawl.pages.append(SourceFile(RepoPath(rel), data))
        elif kind is _Kind.SHORTCODE:  # its name: its path in the folder, without .html
            self.crawl.shortcodes[rel[len(self.layout.shortcodes) + 1 : -len(".html")]] = data
        elif lang is not None:
            self.crawl.code.append(CodeFile(RepoPath(rel), data, lang))

    def read_snippets(self, includes: Includes) -> None:
        """The files the pages' snippet lines name (content/syntax/snippets.md), relative to
        the project root, else to the content folder: inside the root only, through the same
        guards as every other read. A name that leads nowhere is left out, and one that leads
        to a file that cannot be read is left out with the reason (the page says either)."""
        tried: set[str] = set()
        base = include_base(self.config)
        for page in self.crawl.pages:
            for name in includes(page.path, page.data):
                if name in tried:
                    continue
                tried.add(name)
                for rel in snippet_candidates(self.content, name, base):
                    data = self._snippet(rel, walked=True)
                    if isinstance(data, bytes):
                        self.crawl.snippets[name] = data
                        self.crawl.snippet_paths[name] = rel
                        self.crawl.unread_snippets.pop(name, None)
                        break
                    if data is not None:  # the first file found is the one to explain
                        self.crawl.unread_snippets.setdefault(name, data.reason)

    def read_inventories(self) -> None:
        """The inventory files of the ``inventories`` option, inside the root only and never
        hidden, through the same guards as a snippet (an inventory is compressed: binary)."""
        for written, _ in self.config.inventories:
            rel = normalize_repo_path(written.strip().lstrip("/"))
            data = self._snippet(rel, binary=True) if rel is not None else None
            if data is None:
                self.crawl.inventories[written] = "no such file inside the project root"
            else:
                self.crawl.inventories[written] = data if isinstance(data, bytes) else data.reason

    def _snippet(
        self, rel: str, binary: bool = False, walked: bool = False
    ) -> bytes | _Unread | None:
        """The bytes of ``rel``, why it was not read, or None when no such file may be read.
        Nothing is warned at the file: the page's warning at the snippet line says it.
        ``walked``: only a file the walk reached, by its own rules (an include must not
        publish what the build leaves out, issue 27)."""
        if not os.path.exists(os.path.join(self.root, rel)):
            # one stat: most names looked up lead nowhere (each variant a {* *} line could
            # have, content/syntax/include-variants.md), and realpath costs one per part
            return None
        path = Path(os.path.realpath(self.root / rel))
        if not is_within(path, self.root) or not path.is_file():
            return None  # outside the root (whatever a link says), or not a file
        inside = path.relative_to(self.root)
        if any(part.startswith(".") for part in inside.parts):
            return None  # never the cache, the repository's .git or another hidden file
        if walked and not {rel, inside.as_posix()} & self.crawl.all_paths:
            return _Unread("ignored", f"{rel} is left out of the build", _LEFT_OUT.format(rel))
        return self._load(rel, path.stat().st_size, binary)

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

    def _load(self, rel: str, size: int, binary: bool = False) -> bytes | _Unread:
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
        if not binary and b"\0" in data[:_BINARY_SNIFF]:
            return _Unread(
                "binary",
                "binary file (contains NUL bytes); skipped",
                f"{rel} is a binary file (contains NUL bytes)",
            )
        return data


#: Why an included file the walk passed by is not read (``_Walker._snippet``).
_LEFT_OUT = (
    "{} is excluded or ignored (the exclude option, a .gitignore, a virtual environment, "
    "sitegen's own output or another generator's) and is not included"
)

#: The file names a page (its path, its bytes) asks to include
#: (``sitegen.docs.includes.include_names``). The driver passes it in, since the syntax
#: belongs to the docs layer above (ARCHITECTURE.md#layers).
Includes = Callable[[str, bytes], list[str]]


def _no_includes(path: str, data: bytes) -> list[str]:
    return []


def crawl(config: Config, includes: Includes = _no_includes) -> Crawl:
    """Read the project below ``config.root``; results sorted by path, whatever the FS order.

    ``includes`` names the files each page includes; they are read into ``Crawl.snippets``."""
    result = Crawl()
    walker = _Walker(config, result)
    walker.walk("")
    walker.read_snippets(includes)
    walker.read_inventories()
    result.pages.sort(key=lambda f: f.path)
    result.assets.sort()
    result.code.sort(key=lambda f: f.path)
    return result


def snippet_candidates(content: str, name: str, base: str = "") -> list[RepoPath]:
    """The repository paths an included ``name`` is looked for at, in order: from the
    project root, the content folder, then ``base`` (the folder of mkdocs.yml, where
    MkDocs' include extensions start); ``@/x`` from the content folder only (VitePress'
    source root), ``/x`` from the root only (content/syntax/includes.md)."""
    bases: tuple[str, ...]
    if name.startswith("@/"):
        bases, name = (content,), name[2:]
    elif name.startswith("/"):
        bases, name = ("",), name[1:]
    else:
        bases = ("", content, base)
    found = (
        normalize_repo_path(posixpath.join(folder, name)) if folder else normalize_repo_path(name)
        for folder in dict.fromkeys(bases)
    )
    return [rel for rel in found if rel]


def include_base(config: Config) -> str:
    """The folder of the project's mkdocs.yml (``docs/en`` for ``docs/en/mkdocs.yml``), a
    repository path, "" for none or the root: markdown-include, mdx_include and
    pymdownx.snippets read from where MkDocs runs (``sitegen.generators`` finds the file)."""
    return config.generator.include_base if config.generator is not None else ""


class Reads(enum.Enum):
    """How a build takes one path in: what ``sitegen serve`` rebuilds on."""

    #: Never: outside the root, hidden, the output or the cache, gitignored or excluded, in a
    #: virtual environment, another sitegen output or another generator's output or cache.
    #: No change of it is a new input.
    NOTHING = "nothing"
    #: By name only: the crawl lists it (a warning about a link to it says it exists) but
    #: never reads its bytes, so no output depends on it (a log, a build artefact).
    NAME = "name"
    #: Its bytes: a page, an asset, a source file, a manifest, a snippet a page includes, a
    #: theme file, a config file, a .gitignore. Any change of it is a new input.
    BYTES = "bytes"


def build_reads(
    config: Config,
    path: str | Path,
    snippets: Collection[str] = (),
    config_files: Collection[Path] = (),
) -> Reads:
    """Whether a build of ``config`` takes ``path`` in, by the rules ``crawl`` walks by (the
    two cannot drift: they share ``_Layout`` and ``_Ignore``). ``snippets`` are the names the
    pages' snippet lines give, ``config_files`` the files the configuration is read from.

    A path that no longer exists may have been a folder or a file: it is taken in if either
    would be, so a deletion never goes unnoticed."""
    root = Path(os.path.realpath(config.root))
    real = Path(os.path.realpath(path))
    if any(real == Path(os.path.realpath(f)) for f in config_files):
        return Reads.BYTES
    if real == root or not is_within(real, root):
        return Reads.NOTHING
    rel = real.relative_to(root).as_posix()
    base = include_base(config)
    if any(rel in snippet_candidates(config.content_rel, n, base) for n in snippets):
        # Read wherever it lies, if the walk reaches it (``_Walker._snippet``).
        walked = _walked(config, root, rel) is not Reads.NOTHING
        return Reads.BYTES if walked else Reads.NOTHING
    if config.theme_dir:
        theme = Path(os.path.realpath(root / config.theme_dir))
        if is_within(real, theme):  # every file of it, but hidden ones (sitegen.site.theme)
            inner = real.relative_to(theme).parts
            return Reads.NOTHING if any(p.startswith(".") for p in inner) else Reads.BYTES
    return _walked(config, root, rel)


def _walked(config: Config, root: Path, rel: str) -> Reads:
    """``build_reads`` for a path the walk may reach: every folder on the way down must be
    walked (``_Walker.walk`` and ``_visit``), then the file's kind decides."""
    layout = _Layout.of(config, root)
    ignore = _Ignore.of(config)
    parts = rel.split("/")
    for depth, name in enumerate(parts):
        parent, sub = "/".join(parts[:depth]), "/".join(parts[: depth + 1])
        if parent and _foreign_on_disk(root / parent):
            return Reads.NOTHING
        ignore.load(root, parent)
        on_disk = functools.partial(_exists_in, root / parent)
        if depth < len(parts) - 1:
            if layout.skipped(name, sub) or ignore.ignored(sub, is_dir=True):
                return Reads.NOTHING
            if sub in layout.generator_outputs or sub in _other_outputs(
                root, parent, on_disk, layout
            ):
                return Reads.NOTHING
        elif name == GITIGNORE:
            return Reads.BYTES  # read in every folder walked: it decides what else is read
        elif layout.skipped(name, sub):
            return Reads.NOTHING
    full = root / rel
    if full.is_dir():
        if rel in layout.generator_outputs or rel in _other_outputs(
            root, "/".join(parts[:-1]), on_disk, layout
        ):
            return Reads.NOTHING  # another generator's output itself: never walked
        return Reads.NOTHING if ignore.ignored(rel, is_dir=True) else Reads.NAME
    if full.exists() and not full.is_file():
        return Reads.NOTHING  # a FIFO or a socket: the walk lists regular files only
    # Gone, it may have been a file or a folder: ignored only if ignored as both.
    as_dir = not full.exists() and ignore.ignored(rel, is_dir=True)
    if ignore.ignored(rel, is_dir=False) and (full.exists() or as_dir):
        return Reads.NOTHING
    return Reads.NAME if layout.kind(rel) is None else Reads.BYTES


def _exists_in(folder: Path, name: str) -> bool:
    return (folder / name).exists()
