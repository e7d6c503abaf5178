"""Which generator a project's docs were written for, found from that generator's own
configuration (``mkdocs.yml``, ``.vitepress/config.*``, Jekyll's ``_config.yml``), and what it decides for sitegen: how
heading ids are made and which folder is published at the site root
(content/reference/headings.md#slug-styles).

``mkdocs.yml`` is read as YAML data only: a ``!!python/name:`` or ``!!python/object/apply:``
tag is kept as its text, never imported or called. The scripts of ``.vitepress/`` are only
searched as text for a slugify of their own, never run. ``_config.yml`` is read as text here
and as YAML data where its addresses are used (sitegen/link/jekyll.py). Each is read up to
the YAML reader's size limit (sitegen/yamldata.py), never further. Nothing else is read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Flag, StrEnum
from pathlib import Path
from typing import Any

import yaml

from sitegen.paths import is_within, repo_path_within
from sitegen.yamldata import MAX_CHARACTERS, read_yaml

MKDOCS_FILE = "mkdocs.yml"
#: Jekyll's configuration, in the site's source folder.
JEKYLL_FILE = "_config.yml"
#: Characters of a VitePress configuration script searched for its own slugify.
_SCRIPT_LIMIT = 1_000_000
#: The configuration files VitePress looks for in its ``.vitepress`` folder.
VITEPRESS_CONFIGS = tuple(
    name for ext in ("js", "ts", "mjs", "mts") for name in (f"config/index.{ext}", f"config.{ext}")
)


class SlugStyle(StrEnum):
    """How heading ids are made: the values of the ``slugs`` option."""

    GITHUB = "github"  # github-slugger: GitHub's own rendering, sitegen's default
    VITEPRESS = "vitepress"  # @mdit-vue/shared's slugify, numbered as markdown-it-anchor does
    MKDOCS = "mkdocs"  # Python-Markdown's toc slugify (ASCII only), MkDocs' default
    MKDOCS_UNICODE = "mkdocs-unicode"  # toc's slugify_unicode
    PYMDOWNX = "pymdownx"  # pymdownx.slugs: slugify(case="lower"), formerly uslugify
    PYMDOWNX_CASED = "pymdownx-cased"  # pymdownx.slugs: slugify(), the case kept


class Dialect(Flag):
    """The markdown a family writes beyond CommonMark and the syntaxes sitegen always reads
    (content/syntax/index.md): what the docs step is asked to read besides."""

    NONE = 0
    #: Docusaurus's MDX: ``import``/``export`` lines, ``{/* comments */}``, JSX components,
    #: ``<Tabs>``, admonition titles in brackets, code-block metadata.
    MDX = 1
    #: Obsidian's vault: embeds ``![[Page]]`` transcluded, files found by name anywhere.
    OBSIDIAN = 2


#: The files of a content folder that are pages, unless the family reads more.
PAGE_EXTENSIONS = (".md", ".markdown")


@dataclass(frozen=True)
class Generator:
    """The generator whose configuration was found beside the content, and what it asks."""

    name: str  # "MkDocs", "VitePress" or "Jekyll"
    #: Its configuration file, a repository path: ``mkdocs.yml``, ``docs/.vitepress/config.ts``.
    config_file: str
    slugs: SlugStyle
    #: What the configuration asks that ``slugs`` only comes near ("" when nothing): a
    #: slugify sitegen does not have, or options of one it has (the build warns).
    approximated: str = ""
    #: The folder whose files are published at the site root (VitePress's ``public/`` in the
    #: content folder), a repository path; "" for none.
    public: str = ""
    #: The folder the configuration reads pages from (MkDocs' ``docs_dir``, relative to the
    #: ``mkdocs.yml`` that names it), a repository path; "" for the root or not known.
    docs_dir: str = ""
    #: The configuration files the page tree is read from, (repository path, text): read
    #: here, once, so that the build's fingerprint holds them (content/guides/navigation.md).
    sources: tuple[tuple[str, str], ...] = ()
    #: What the docs step reads besides CommonMark and sitegen's syntaxes.
    dialect: Dialect = Dialect.NONE
    #: The file extensions of pages (Docusaurus adds ``.mdx``), lower case.
    page_extensions: tuple[str, ...] = PAGE_EXTENSIONS
    #: Folders (repository paths) whose files are published at the site root besides
    #: ``public`` (Docusaurus's ``staticDirectories``, ``static/`` by default).
    static: tuple[str, ...] = ()
    #: The URL folder the content folder's pages are published under ("" for the site root;
    #: Docusaurus's ``routeBasePath``, ``docs`` by default).
    route_base: str = ""

    def source(self, path: str) -> str | None:
        """The text of the configuration file ``path`` read with it, or None."""
        return next((text for rel, text in self.sources if rel == path), None)


def find_generator(root: Path, content: str) -> Generator | None:
    """The generator whose configuration holds the content folder ``content`` (a repository
    path, "" for the root): MkDocs when an ``mkdocs.yml`` in the content folder or a folder
    above it (up to the root) reads its pages from a ``docs_dir`` that holds the content or
    lies inside it (``docs/en/mkdocs.yml`` with ``docs_dir: docs``), the nearest first;
    else VitePress when a ``.vitepress`` configuration sits in the content folder or a
    folder above it; else Jekyll when a ``_config.yml`` does (the nearest: Jekyll's source
    folder); None for none of them."""
    for _, rel, text in _configs_up(root, content, MKDOCS_FILE):
        found = mkdocs_generator(text, content, rel)
        if found is not None:
            return found
    return _vitepress(root, content) or _jekyll(root, content)


def _folders_up(folder: str) -> list[str]:
    """``folder`` and each folder above it, up to the root (""), nearest first."""
    out = [folder]
    while folder:
        folder = posixpath.dirname(folder)
        out.append(folder)
    return out


def _configs_up(root: Path, content: str, name: str) -> Iterator[tuple[str, str, str]]:
    """Each file ``name`` in the content folder or a folder above it (up to the root),
    nearest first, inside the root only: its folder, its repository path and its text."""
    real_root = root.resolve()
    for folder in _folders_up(content):
        rel = posixpath.join(folder, name)
        path = root / rel
        if not path.is_file() or not is_within(path.resolve(), real_root):
            continue
        try:
            # One character past the limit at most: the YAML reader refuses that before
            # parsing, and a file of gigabytes is never held whole.
            with path.open(encoding="utf-8", errors="replace") as file:
                text = file.read(MAX_CHARACTERS + 1)
        except OSError:
            continue
        yield folder, rel, text


def _jekyll(root: Path, content: str) -> Generator | None:
    """Jekyll, when a ``_config.yml`` sits in the content folder or a folder above it (up
    to the root), the nearest first: its folder is the site's source. Heading ids stay
    sitegen's default; the file decides addresses only (content/guides/urls.md)."""
    for folder, rel, text in _configs_up(root, content, JEKYLL_FILE):
        return Generator("Jekyll", rel, SlugStyle.GITHUB, docs_dir=folder, sources=((rel, text),))
    return None


def _vitepress(root: Path, content: str) -> Generator | None:
    folder = content
    while True:
        for name in VITEPRESS_CONFIGS:
            rel = posixpath.join(folder, ".vitepress", name)
            if (root / rel).is_file():
                public = posixpath.join(content, "public")
                return Generator(
                    "VitePress",
                    rel,
                    SlugStyle.VITEPRESS,
                    approximated=_own_slugify(root, posixpath.join(folder, ".vitepress")),
                    public=public if (root / public).is_dir() else "",
                    docs_dir=folder,
                    sources=_vitepress_sources(root, rel, folder),
                )
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _vitepress_sources(root: Path, config: str, folder: str) -> tuple[tuple[str, str], ...]:
    """The texts the page tree is read from: the configuration ``config``, then the
    additional configurations of VitePress 2 (``config.ts`` in the source folder ``folder``
    and in each folder just below it: one per locale), by path. Read as text only."""
    real_root = root.resolve()
    found = [config]
    names = [f"config.{ext}" for ext in ("js", "ts", "mjs", "mts")]
    try:
        below = sorted(
            p.name for p in (root / folder).iterdir() if p.is_dir() and not p.name.startswith(".")
        )
    except OSError:
        below = []
    for sub in ["", *below]:
        for name in names:
            rel = posixpath.join(folder, sub, name)
            if (root / rel).is_file():
                found.append(rel)
    sources = []
    for rel in found:
        path = root / rel
        if not is_within(path.resolve(), real_root):
            continue
        try:
            sources.append(
                (rel, path.read_text(encoding="utf-8", errors="replace")[:_SCRIPT_LIMIT])
            )
        except OSError:
            continue
    return tuple(sources)


#: ``markdown: { anchor: { slugify … } }``: a VitePress site that makes its own ids.
_ANCHOR_SLUGIFY = re.compile(r"\banchor\s*:\s*\{[^{}]*\bslugify\b")
_SCRIPT_EXTENSIONS = (".js", ".ts", ".mjs", ".mts")


def _own_slugify(root: Path, vitepress: str) -> str:
    """What the warning names when a script of the ``.vitepress`` folder ``vitepress`` (or
    of its ``config/``) sets ``anchor: { slugify }``, else "". The scripts are searched as
    text, never run; one outside the root is not read."""
    real_root = root.resolve()
    for folder in (vitepress, posixpath.join(vitepress, "config")):
        try:
            names = sorted(p.name for p in (root / folder).iterdir())
        except OSError:
            continue
        for name in names:
            path = root / folder / name
            if not name.endswith(_SCRIPT_EXTENSIONS) or not is_within(path.resolve(), real_root):
                continue
            try:
                text = path.read_text(encoding="utf-8", errors="replace")[:_SCRIPT_LIMIT]
            except OSError:
                continue
            if _ANCHOR_SLUGIFY.search(text):
                return f"its own slugify (markdown.anchor.slugify in {folder}/{name})"
    return ""


# --- mkdocs.yml ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Tagged:
    """A YAML node with a tag no safe loader knows (``!!python/name:…``, ``!ENV``): the tag
    as text and the node's plain value, never resolved."""

    tag: str
    value: Any


class _TagsAsText(yaml.SafeLoader):
    """A SafeLoader that keeps every unknown tag as a ``Tagged`` value."""


def _tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Tagged:
    value: Any
    if isinstance(node, yaml.MappingNode):
        value = loader.construct_mapping(node, deep=True)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_scalar(node)  # type: ignore[arg-type]
    return Tagged(str(node.tag), value)


_TagsAsText.add_multi_constructor("!", _tagged)
_TagsAsText.add_multi_constructor("tag:", _tagged)


def read_mkdocs_yml(text: str) -> Any:
    """The data of an ``mkdocs.yml``, its Python tags kept as text (``Tagged``); raises
    ``yaml.YAMLError`` when it is not YAML or is outside the bounds of sitegen/yamldata.py
    (``describe`` says which)."""
    return read_yaml(text, _TagsAsText).data  # a SafeLoader subclass: nothing is run


def mkdocs_docs_dir(config: Any, config_file: str = MKDOCS_FILE) -> str:
    """The folder MkDocs reads pages from, as a repository path ("docs" by default),
    relative to the folder of ``config_file`` as MkDocs reads it; "" for the root, and
    ".." when it would lie above the root (never read)."""
    given = config.get("docs_dir") if isinstance(config, dict) else None
    named = given.strip("/") if isinstance(given, str) and given.strip("/") else "docs"
    folder = posixpath.normpath(posixpath.join(posixpath.dirname(config_file), named))
    if folder == ".." or folder.startswith("../"):
        return ".."
    return "" if folder == "." else folder


def mkdocs_generator(text: str, content: str, config_file: str = MKDOCS_FILE) -> Generator | None:
    """MkDocs, with the slug style its ``toc`` settings ask for, when the ``mkdocs.yml``
    at ``config_file`` whose text is ``text`` reads pages from a folder holding ``content``
    or inside it; else None. A file that is not YAML counts as MkDocs with its defaults
    (MkDocs itself would refuse it)."""
    try:
        config = read_mkdocs_yml(text)
    except yaml.YAMLError:
        config = {}
    docs_dir = mkdocs_docs_dir(config, config_file)
    if docs_dir == ".." or not (
        repo_path_within(content, docs_dir) or repo_path_within(docs_dir, content)
    ):
        return None
    slugs, approximated = toc_slug_style(_toc_options(config))
    return Generator(
        "MkDocs",
        config_file,
        slugs,
        approximated,
        docs_dir=docs_dir,
        sources=((config_file, text),),
    )


def _toc_options(config: Any) -> dict[str, Any]:
    """The options of the ``toc`` extension in ``markdown_extensions`` (a list of names and
    one-key tables, or one table), {} when it is not configured."""
    given = config.get("markdown_extensions") if isinstance(config, dict) else None
    items = given if isinstance(given, list) else [given]
    for item in items:
        if not isinstance(item, dict):
            continue
        for name, options in item.items():
            if name in ("toc", "markdown.extensions.toc") and isinstance(options, dict):
                return options
    return {}


#: ``!!python/name:f`` (the function itself) and ``!!python/object/apply:f`` (what f returns).
_PYTHON_TAG = re.compile(r"tag:yaml\.org,2002:python/(name|object/apply):(.+)")
#: The slugify functions named without arguments, and the style each one is.
_NAMED = {
    "markdown.extensions.toc.slugify": SlugStyle.MKDOCS,
    "markdown.extensions.toc.slugify_unicode": SlugStyle.MKDOCS_UNICODE,
    "pymdownx.slugs.uslugify": SlugStyle.PYMDOWNX,
    "pymdownx.slugs.uslugify_cased": SlugStyle.PYMDOWNX_CASED,
}
#: pymdownx.slugs.slugify's ``case`` keyword -> the style it is.
_PYMDOWNX_CASES = {"lower": SlugStyle.PYMDOWNX, "none": SlugStyle.PYMDOWNX_CASED}


def toc_slug_style(options: dict[str, Any]) -> tuple[SlugStyle, str]:
    """The style of the ``toc`` extension's ``slugify`` (Python-Markdown's own when it is
    not given), and what it asks that the style only comes near ("" when nothing)."""
    given = options.get("slugify")
    separator = options.get("separator", "-")
    style, unlike = _slugify_style(given)
    if separator != "-":
        unlike = unlike or f"separator '{separator}'"
    return style, unlike


def _slugify_style(given: Any) -> tuple[SlugStyle, str]:
    if given is None:
        return SlugStyle.MKDOCS, ""
    found = _PYTHON_TAG.fullmatch(given.tag) if isinstance(given, Tagged) else None
    if found is None:
        return SlugStyle.MKDOCS, f"the slugify {given!r}"
    how, function = found.groups()
    if how == "name":
        known = _NAMED.get(function)
        return (known, "") if known else (SlugStyle.MKDOCS, f"the slugify {function}")
    if function != "pymdownx.slugs.slugify":
        return SlugStyle.MKDOCS, f"the slugify {function}(...)"
    value = given.value if isinstance(given.value, dict) else {}
    given_kwds = value.get("kwds")
    kwds: dict[Any, Any] = given_kwds if isinstance(given_kwds, dict) else {}
    case = str(kwds.get("case", "none"))
    style = _PYMDOWNX_CASES.get(case, SlugStyle.PYMDOWNX)
    asked = [f"{k}: {v}" for k, v in sorted(kwds.items()) if not _matched(k, v)]
    return style, f"{function}({', '.join(asked)})" if asked else ""


def _matched(keyword: str, value: Any) -> bool:
    """Whether a keyword of pymdownx.slugs.slugify is one a sitegen style makes as asked."""
    if keyword == "case":
        return str(value) in _PYMDOWNX_CASES
    if keyword == "normalize":
        return str(value) == "NFC"
    return keyword == "percent_encode" and value is False
