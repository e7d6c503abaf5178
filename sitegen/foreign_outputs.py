"""Other generators' output and cache folders: the folders a folder's MkDocs, Jekyll,
VitePress, Docusaurus or Quartz configuration names as its built site or its cache.

Never reads a file itself: the caller says which names a folder holds and hands over the text
of a configuration file, read inside the root and bounded. Configurations are read as data
(YAML) or searched as text (scripts), never run.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.generators import JEKYLL_FILE, MKDOCS_FILE, VITEPRESS_CONFIGS, read_mkdocs_yml
from sitegen.paths import normalize_repo_path, repo_path_within
from sitegen.yamldata import read_yaml

#: Docusaurus' configuration files; its site is built into ``build/`` beside them and its
#: generated files go to ``.docusaurus/`` (neither is an option of the configuration).
DOCUSAURUS_CONFIGS = tuple(
    f"docusaurus.config.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts")
)
#: Quartz's configuration; ``npx quartz build`` writes ``public/`` and ``.quartz-cache/``.
QUARTZ_CONFIGS = ("quartz.config.ts", "quartz.config.js")


@dataclass(frozen=True)
class ForeignOutput:
    """A folder another generator writes: its repository path, the tool, what it is there
    ("output" or "cache") and what names it (an option of the configuration, or the file
    it sits beside)."""

    folder: str
    tool: str
    what: str
    named_by: str

    def describe(self) -> str:
        """``site/ is MkDocs' output (site_dir)``."""
        owner = f"{self.tool}'" if self.tool.endswith("s") else f"{self.tool}'s"
        return f"{self.folder}/ is {owner} {self.what} ({self.named_by})"


#: Whether the folder holds an entry of this name (a file or a folder).
Holds = Callable[[str], bool]
#: The text of the file at this path below the folder, or None when it cannot be read.
ReadText = Callable[[str], str | None]


def outputs_in(
    folder: str, holds: Holds, read: ReadText, upward: bool = False
) -> list[ForeignOutput]:
    """The output and cache folders that the generator configurations of ``folder`` (a
    repository path, "" for the root) name, each below ``folder``, or with ``upward``
    anywhere inside the root (``site_dir: ../site``) but ``folder`` and the folders holding
    it; a configuration that names another folder names nothing here."""
    found: list[ForeignOutput] = []
    if holds(MKDOCS_FILE):
        site_dir = _yaml_option(read(MKDOCS_FILE), "site_dir", mkdocs=True)
        found.append(_output(folder, site_dir or "site", "MkDocs", "output", "site_dir"))
    if holds(JEKYLL_FILE):
        text = read(JEKYLL_FILE)
        destination = _yaml_option(text, "destination") or "_site"
        found.append(_output(folder, destination, "Jekyll", "output", "destination"))
        cache = _yaml_option(text, "cache_dir") or ".jekyll-cache"
        found.append(_output(folder, cache, "Jekyll", "cache", "cache_dir"))
    if holds(".vitepress"):
        found += _vitepress(folder, holds, read)
    docusaurus = next((name for name in DOCUSAURUS_CONFIGS if holds(name)), None)
    if docusaurus:
        beside = f"beside {posixpath.join(folder, docusaurus)}"
        found.append(_output(folder, "build", "Docusaurus", "output", beside))
        found.append(_output(folder, ".docusaurus", "Docusaurus", "generated files", beside))
    quartz = next((name for name in QUARTZ_CONFIGS if holds(name)), None)
    if quartz:
        beside = f"beside {posixpath.join(folder, quartz)}"
        found.append(_output(folder, "public", "Quartz", "output", beside))
        found.append(_output(folder, ".quartz-cache", "Quartz", "cache", beside))
    return [out for out in found if _named(out.folder, folder, upward)]


def _named(output: str, folder: str, upward: bool) -> bool:
    """Whether ``output`` is a folder a configuration in ``folder`` may name."""
    if not output or repo_path_within(folder, output):
        return False  # outside the root, the root, the configuration's folder or one above
    return upward or repo_path_within(output, folder)


def _output(folder: str, written: str, tool: str, what: str, named_by: str) -> ForeignOutput:
    """The output ``written`` relative to ``folder``, a repository path; "" when it lies
    outside the root (``../..``, an absolute path)."""
    given = written.strip()
    rel = None if given.startswith("/") else normalize_repo_path(posixpath.join(folder, given))
    return ForeignOutput(rel or "", tool, what, named_by)


@functools.lru_cache(maxsize=16)
def _yaml_data(text: str, mkdocs: bool) -> Any:
    """The data of a YAML configuration, through the one bounded reader; None when it is not
    YAML or is refused (the generator's defaults apply)."""
    try:
        return read_mkdocs_yml(text) if mkdocs else read_yaml(text).data
    except yaml.YAMLError:
        return None


def _yaml_option(text: str | None, name: str, mkdocs: bool = False) -> str:
    """The string value of the top-level key ``name`` of a YAML file, "" when not given."""
    if text is None:
        return ""
    data = _yaml_data(text, mkdocs)
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def _vitepress(folder: str, holds: Holds, read: ReadText) -> list[ForeignOutput]:
    """``outDir`` and ``cacheDir`` of the ``.vitepress`` configuration, relative to the
    folder holding ``.vitepress`` (VitePress' project root), when written as string literals;
    VitePress' defaults otherwise."""
    text = next(
        (t for name in VITEPRESS_CONFIGS if (t := read(f".vitepress/{name}")) is not None), None
    )
    if text is None:
        return []
    out_dir = _script_string(text, "outDir") or ".vitepress/dist"
    cache_dir = _script_string(text, "cacheDir") or ".vitepress/cache"
    return [
        _output(folder, out_dir, "VitePress", "output", "outDir"),
        _output(folder, cache_dir, "VitePress", "cache", "cacheDir"),
    ]


def _script_string(text: str, key: str) -> str:
    """The string literal of ``key: '...'`` in a configuration script, "" when none."""
    found = re.search(rf"\b{key}\s*:\s*(['\"`])([^'\"`\n]*)\1", text)
    return found.group(2) if found else ""
