"""Jekyll: a ``_config.yml`` in the content folder or a folder above it (its folder is the
site's source), read here once as YAML data by the bounded reader (sitegen/base/yamldata.py):
nothing in it is run. sitegen/link/jekyll.py turns its collections, defaults and permalink
style into addresses (content/guides/urls.md#jekylls-_configyml).
"""

from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass
from pathlib import Path

import yaml

from sitegen.base.yamldata import YamlDocument, describe, error_place, read_yaml
from sitegen.generators.record import (
    Generator,
    Holds,
    OutputFolder,
    ReadText,
    SlugStyle,
    configs_up,
)

#: Jekyll's configuration, in the site's source folder.
JEKYLL_FILE = "_config.yml"


@dataclass(frozen=True)
class JekyllConfig:
    """What Jekyll's address rules are read from: the file, its folder (the site's source),
    its YAML document (with the places of its values, for warnings), None when it could not
    be read, and then where and why: (0-based line, column, what is wrong)."""

    config_file: str
    folder: str
    document: YamlDocument | None
    problem: tuple[int, int, str] | None = None


def find_jekyll(root: Path, content: str) -> Generator | None:
    """Jekyll, when a ``_config.yml`` sits in the content folder or a folder above it (up
    to the root), the nearest first: its folder is the site's source. Heading ids stay
    sitegen's default; the file decides addresses only (content/guides/urls.md)."""
    for _, rel, text in configs_up(root, content, JEKYLL_FILE):
        return jekyll_generator(rel, text)
    return None


def jekyll_generator(config_file: str, text: str) -> Generator:
    """Jekyll with the ``_config.yml`` at ``config_file`` whose text is ``text``, read here
    once: its folder is the site's source."""
    folder = posixpath.dirname(config_file)
    return Generator(
        "Jekyll",
        config_file,
        SlugStyle.GITHUB,
        docs_dir=folder,
        sources=((config_file, text),),
        decides_slugs=False,
        permalinks=jekyll_config(config_file, folder, text),
    )


def jekyll_config(config_file: str, folder: str, text: str) -> JekyllConfig:
    """The ``_config.yml`` at ``config_file`` whose text is ``text``, read as YAML data."""
    try:
        # The pure-Python loader: the places of values it gives name the lines of warnings.
        return JekyllConfig(config_file, folder, read_yaml(text, yaml.SafeLoader))
    except yaml.YAMLError as exc:
        line, col = error_place(exc)
        return JekyllConfig(config_file, folder, None, (line, col, describe(exc)))


def jekyll_outputs(folder: str, holds: Holds, read: ReadText) -> list[OutputFolder]:
    """The built site and the cache of a ``_config.yml`` in a folder (``destination``,
    ``_site`` by default; ``cache_dir``, ``.jekyll-cache``)."""
    if not holds(JEKYLL_FILE):
        return []
    text = read(JEKYLL_FILE)
    destination = _option(text, "destination") or "_site"
    cache = _option(text, "cache_dir") or ".jekyll-cache"
    return [
        OutputFolder(destination, "Jekyll", "output", "destination"),
        OutputFolder(cache, "Jekyll", "cache", "cache_dir"),
    ]


def _option(text: str | None, name: str) -> str:
    """The string value of the top-level key ``name``, "" when not given."""
    data = _data(text) if text is not None else None
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


@functools.lru_cache(maxsize=16)
def _data(text: str) -> object:
    """The data of a ``_config.yml`` found on the walk; None when it is not YAML or is
    refused (Jekyll's defaults apply)."""
    try:
        return read_yaml(text).data
    except yaml.YAMLError:
        return None
