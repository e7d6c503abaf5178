"""MkDocs and Zensical: ``mkdocs.yml`` read as YAML data only. A ``!!python/name:`` or
``!!python/object/apply:`` tag is kept as its text, never imported or called; the file is
read up to the YAML reader's size limit (sitegen/yamldata.py), never further.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sitegen.generators.record import Generator, SlugStyle, configs_up
from sitegen.paths import repo_path_within
from sitegen.yamldata import read_yaml

MKDOCS_FILE = "mkdocs.yml"


def find_mkdocs(root: Path, content: str) -> Generator | None:
    """MkDocs when an ``mkdocs.yml`` in the content folder or a folder above it (up to the
    root) reads its pages from a ``docs_dir`` that holds the content or lies inside it
    (``docs/en/mkdocs.yml`` with ``docs_dir: docs``), the nearest first."""
    for _, rel, text in configs_up(root, content, MKDOCS_FILE):
        found = mkdocs_generator(text, content, rel)
        if found is not None:
            return found
    return None


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
