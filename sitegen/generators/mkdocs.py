"""MkDocs and Zensical: ``mkdocs.yml`` read as YAML data only. A ``!!python/name:`` or
``!!python/object/apply:`` tag is kept as its text, never imported or called; the file is
read up to the YAML reader's size limit (sitegen/base/yamldata.py), never further.
"""

from __future__ import annotations

import dataclasses
import functools
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sitegen.base.paths import repo_path_within
from sitegen.base.yamldata import MAX_CHARACTERS, describe, error_place, read_yaml
from sitegen.generators.mkdocs_blog import mkdocs_blog
from sitegen.generators.record import (
    Dialect,
    Generator,
    Holds,
    NavSpec,
    OutputFolder,
    ReadText,
    SlugStyle,
    configs_up,
    read_file_inside,
)

MKDOCS_FILE = "mkdocs.yml"


def find_mkdocs(root: Path, content: str) -> Generator | None:
    """MkDocs when an ``mkdocs.yml`` in the content folder or a folder above it (up to the
    root) reads its pages from a ``docs_dir`` that holds the content or lies inside it
    (``docs/en/mkdocs.yml`` with ``docs_dir: docs``), the nearest first."""
    for _, rel, text in configs_up(root, content, MKDOCS_FILE):
        found = mkdocs_generator(
            text, content, rel, lambda name: read_file_inside(root, name, MAX_CHARACTERS + 1)
        )
        if found is not None:
            return with_blog_authors(root, found)
    return None


def with_blog_authors(root: Path, found: Generator) -> Generator:
    """The record with its blog's authors file among its ``sources`` (read inside the root,
    up to the YAML reader's limit), when the blog has one and it exists."""
    path = found.blog.authors_file if found.blog is not None else ""
    text = read_file_inside(root, path, MAX_CHARACTERS + 1) if path else None
    if text is None:
        return found
    return dataclasses.replace(found, sources=(*found.sources, (path, text)))


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
    ``yaml.YAMLError`` when it is not YAML or is outside the bounds of sitegen/base/yamldata.py
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


#: How many ``INHERIT`` steps are followed (a chain that loops stops at its first repeat).
MAX_INHERIT = 8


def mkdocs_generator(
    text: str,
    content: str,
    config_file: str = MKDOCS_FILE,
    read: Callable[[str], str | None] | None = None,
) -> Generator | None:
    """MkDocs, with what its ``mkdocs.yml`` asks (slug style, nav, locales, URL style,
    redirects, the API handler), when the ``mkdocs.yml`` at ``config_file`` whose text is
    ``text`` reads pages from a folder holding ``content`` or inside it; else None. The file
    is read here, once. A file that is not YAML counts as MkDocs with its defaults (MkDocs
    itself would refuse it; the nav reports it). With ``read`` (a repository path's text
    inside the root, or None), an ``INHERIT: ../en/mkdocs.yml`` is followed as MkDocs
    follows it: the parent's tables merged under the file's own, its other values replaced."""
    data, problem = _read(text)
    sources: tuple[tuple[str, str], ...] = ((config_file, text),)
    if read is not None and isinstance(data, dict):
        data, sources = _inherit(data, config_file, read, sources)
    config = data if isinstance(data, dict) else {}
    docs_dir = mkdocs_docs_dir(config, config_file)
    if docs_dir == ".." or not (
        repo_path_within(content, docs_dir) or repo_path_within(docs_dir, content)
    ):
        return None
    slugs, approximated = toc_slug_style(_toc_options(config))
    folder = posixpath.dirname(config_file)
    return Generator(
        "MkDocs",
        config_file,
        slugs,
        approximated,
        docs_dir=docs_dir,
        sources=sources,
        project_dir=folder,
        include_base=folder,
        locales=static_i18n(config),
        nav=MkDocsNavSpec(text, config_file, docs_dir, data, problem),  # mkdocs_nav_spec's
        directory_urls=config.get("use_directory_urls") is not False,
        # MkDocs rewrites markdown links only: a browser reads raw HTML from the page's URL.
        raw_html_from_url=config.get("use_directory_urls") is not False,
        urls_option="use_directory_urls of mkdocs.yml",
        redirect_maps=_redirect_maps(config, text),
        api_handler=python_handler(config),
        dialect=markdown_dialect(config),
        title=site_name if isinstance(site_name := config.get("site_name"), str) else "",
        blog=mkdocs_blog(config, docs_dir, lambda given: toc_slug_style({"slugify": given})[0]),
    )


def _inherit(
    data: dict[str, Any],
    config_file: str,
    read: Callable[[str], str | None],
    sources: tuple[tuple[str, str], ...],
) -> tuple[dict[str, Any], tuple[tuple[str, str], ...]]:
    """``data`` with the configuration its ``INHERIT`` names under it, and that file's
    among the ``sources``; ``data`` as it is when the file is missing, outside the root,
    not YAML, a repeat of the chain, or ``MAX_INHERIT`` steps away."""
    given = data.get("INHERIT")
    if not isinstance(given, str) or len(sources) > MAX_INHERIT:
        return data, sources
    parent_file = posixpath.normpath(posixpath.join(posixpath.dirname(config_file), given))
    if parent_file.startswith("../") or any(parent_file == rel for rel, _ in sources):
        return data, sources
    text = read(parent_file)
    parent = _read(text)[0] if text is not None else None
    if not isinstance(parent, dict) or text is None:
        return data, sources
    parent, sources = _inherit(parent, parent_file, read, (*sources, (parent_file, text)))
    own = {key: value for key, value in data.items() if key != "INHERIT"}
    return _merged(parent, own), sources


def _merged(parent: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``own`` over ``parent``, tables merged key by key (mergedeep's replace, as MkDocs)."""
    out = dict(parent)
    for key, value in own.items():
        below = out.get(key)
        out[key] = (
            _merged(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
        )
    return out


@dataclass(frozen=True)
class MkDocsNavSpec(NavSpec):
    """The page tree of an ``mkdocs.yml`` (its ``nav:``, read by sitegen/site/navigation.py):
    the text (for the lines of warnings), the file, its ``docs_dir``, its data (None when it
    is not YAML) and where it stopped being YAML: (0-based line, column, what is wrong)."""

    text: str
    config_file: str
    docs_dir: str
    data: Any
    problem: tuple[int, int, str] | None = None


def mkdocs_nav_spec(text: str, config_file: str = MKDOCS_FILE) -> MkDocsNavSpec:
    """The page-tree spec of the ``mkdocs.yml`` at ``config_file`` whose text is ``text``,
    whatever folder it is about (the nav reader checks that)."""
    data, problem = _read(text)
    docs_dir = mkdocs_docs_dir(data if isinstance(data, dict) else {}, config_file)
    return MkDocsNavSpec(text, config_file, docs_dir, data, problem)


def _read(text: str) -> tuple[Any, tuple[int, int, str] | None]:
    """The data of an ``mkdocs.yml`` and, when it cannot be read, None and why."""
    try:
        return read_mkdocs_yml(text), None
    except yaml.YAMLError as exc:
        line, col = error_place(exc)
        return None, (line, col, describe(exc))


def static_i18n(config: dict[str, Any]) -> tuple[tuple[str, str, str | None], ...]:
    """mkdocs-static-i18n's ``plugins: - i18n: languages: [{locale, name, default}]`` with
    the folder structure (its default, ``docs_structure: folder``): (folder, tag, label)."""
    plugins = config.get("plugins")
    items = plugins if isinstance(plugins, list) else [plugins]
    for item in items:
        options = item.get("i18n") if isinstance(item, dict) else None
        if not isinstance(options, dict) or options.get("docs_structure", "folder") != "folder":
            continue
        languages = options.get("languages")
        return tuple(
            (str(lang["locale"]), str(lang["locale"]), str(lang.get("name") or ""))
            for lang in (languages if isinstance(languages, list) else [])
            if isinstance(lang, dict) and isinstance(lang.get("locale"), str)
        )
    return ()


def python_handler(config: dict[str, Any]) -> dict[str, Any]:
    """The ``plugins: mkdocstrings: handlers: python`` table (``paths``, ``options`` …), {}
    when there is none."""
    plugins = config.get("plugins")
    items = plugins if isinstance(plugins, list) else [plugins]
    for item in items:
        plugin = item.get("mkdocstrings") if isinstance(item, dict) else None
        handlers = plugin.get("handlers") if isinstance(plugin, dict) else None
        python = handlers.get("python") if isinstance(handlers, dict) else None
        if isinstance(python, dict):
            return python
    return {}


def _redirect_maps(config: dict[str, Any], text: str) -> tuple[tuple[str, str, int], ...]:
    """``plugins: [redirects: {redirect_maps: {old: new}}]`` (a list or a table of plugins):
    (old, new, the line of ``old`` in the file), sorted."""
    plugins = config.get("plugins")
    items = plugins if isinstance(plugins, list) else [plugins]
    for item in items:
        options = item.get("redirects") if isinstance(item, dict) else None
        maps = options.get("redirect_maps") if isinstance(options, dict) else None
        if isinstance(maps, dict):
            pairs = sorted((str(k), str(v)) for k, v in maps.items() if isinstance(v, str) and k)
            return tuple(
                (old, new, text.count("\n", 0, max(text.find(old), 0)) + 1) for old, new in pairs
            )
    return ()


def mkdocs_outputs(folder: str, holds: Holds, read: ReadText) -> list[OutputFolder]:
    """The built site of an ``mkdocs.yml`` in a folder (``site_dir``, ``site`` by default)."""
    if not holds(MKDOCS_FILE):
        return []
    text = read(MKDOCS_FILE)
    site_dir = _site_dir(text) if text is not None else ""
    return [OutputFolder(site_dir or "site", "MkDocs", "output", "site_dir")]


@functools.lru_cache(maxsize=16)
def _site_dir(text: str) -> str:
    """``site_dir`` of an ``mkdocs.yml``, "" when not given (the crawl asks once a folder
    walked, the generator's own folder among them)."""
    data = _read(text)[0]
    given = data.get("site_dir") if isinstance(data, dict) else None
    return given if isinstance(given, str) else ""


def _toc_options(config: Any) -> dict[str, Any]:
    """The options of the ``toc`` extension in ``markdown_extensions``, {} when it is not
    configured."""
    return markdown_extensions(config).get("toc") or {}


def markdown_extensions(config: Any) -> dict[str, dict[str, Any]]:
    """The ``markdown_extensions`` of an ``mkdocs.yml`` (a list of names and one-key tables,
    or one table): each extension's name, without Python-Markdown's ``markdown.extensions.``
    prefix, and its options ({} when none are given or they are not a table)."""
    given = config.get("markdown_extensions") if isinstance(config, dict) else None
    items = given if isinstance(given, list) else [given]
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        pairs = item.items() if isinstance(item, dict) else [(item, None)]
        for name, options in pairs:
            if isinstance(name, str):
                short = name.removeprefix("markdown.extensions.")
                out[short] = options if isinstance(options, dict) else {}
    return out


#: The flags each extension of ``markdown_extensions`` turns on (content/syntax/material.md).
_EXTENSION_FLAGS = {
    "pymdownx.emoji": Dialect.EMOJI,
    "pymdownx.keys": Dialect.KEYS,
    "pymdownx.mark": Dialect.MARK,
    "pymdownx.caret": Dialect.CARET,
    "pymdownx.tilde": Dialect.TILDE,
    "attr_list": Dialect.ATTR_LIST,
    "md_in_html": Dialect.MD_IN_HTML,
    "markdown_include_variants": Dialect.INCLUDE_VARIANTS,
    # the bundles: Python-Markdown's extra, and pymdownx.extra which loads it
    "extra": Dialect.ATTR_LIST | Dialect.MD_IN_HTML,
    "pymdownx.extra": Dialect.ATTR_LIST | Dialect.MD_IN_HTML,
}
#: What a project without an ``mkdocs.yml`` asks for with ``markdown_extensions =
#: ["material"]`` (content/syntax/material.md): the set Material's documentation recommends.
MATERIAL_SET = (
    Dialect.EMOJI
    | Dialect.ICONS
    | Dialect.KEYS
    | Dialect.MARK
    | Dialect.CARET
    | Dialect.TILDE
    | Dialect.ATTR_LIST
    | Dialect.MD_IN_HTML
    | Dialect.ANNOTATIONS
)
#: The names the ``markdown_extensions`` option of sitegen.toml takes, and their flags.
OPTION_EXTENSIONS: dict[str, Dialect] = {
    "material": MATERIAL_SET,
    **_EXTENSION_FLAGS,
    "pymdownx.emoji.icons": Dialect.EMOJI | Dialect.ICONS,
}


def option_dialect(names: tuple[str, ...]) -> Dialect:
    """The flags of the ``markdown_extensions`` option's names (checked by the config)."""
    dialect = Dialect.NONE
    for name in names:
        dialect |= OPTION_EXTENSIONS[name]
    return dialect


#: The emoji indexes whose shortcodes include Material's icon sets (``materialx`` is the
#: name of Material's extensions before 9.4; Zensical ships its own copy).
_ICON_INDEXES = (
    "material.extensions.emoji.twemoji",
    "materialx.emoji.twemoji",
    "zensical.extensions.emoji.twemoji",
)


def markdown_dialect(config: Any) -> Dialect:
    """What the pages of an MkDocs project are read as besides CommonMark: Python-Markdown's
    ids always, and the flag of each extension the ``mkdocs.yml`` enables; code
    annotations with the Material theme (every block with its ``content.code.annotate``
    feature)."""
    extensions = markdown_extensions(config)
    dialect = Dialect.PYTHON_MARKDOWN
    for name, flag in _EXTENSION_FLAGS.items():
        if name in extensions:
            dialect |= flag
    index = extensions.get("pymdownx.emoji", {}).get("emoji_index")
    if isinstance(index, Tagged) and str(index.tag).rsplit(":", 1)[-1] in _ICON_INDEXES:
        dialect |= Dialect.ICONS
    tabbed = extensions.get("pymdownx.tabbed", {})
    if "pymdownx.tabbed" in extensions and tabbed.get("slugify") is not None:
        dialect |= Dialect.TAB_SLUGS
        if tabbed.get("combine_header_slug") is True:
            dialect |= Dialect.TAB_SLUGS_COMBINED
    theme = config.get("theme") if isinstance(config, dict) else None
    theme_name = theme.get("name") if isinstance(theme, dict) else theme
    if theme_name == "material":
        dialect |= Dialect.ANNOTATIONS
        features = theme.get("features") if isinstance(theme, dict) else None
        if isinstance(features, list) and "content.code.annotate" in features:
            dialect |= Dialect.ANNOTATE_ALL
    return dialect


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
