"""Which generator a project's docs were written for, found from that generator's own
configuration, and what it decides for sitegen (content/reference/headings.md#slug-styles):
one module per family, each reading its configuration once, inside the root, as data (never
run) into one ``Generator`` record that the rest of the build consumes
(ARCHITECTURE.md#generators).

- ``mkdocs.py``: MkDocs and Zensical (``mkdocs.yml``)
- ``vitepress.py``: VitePress (``.vitepress/config.*``)
- ``docusaurus.py``: Docusaurus (``docusaurus.config.*`` and its ``website/`` folder)
- ``jekyll.py``: Jekyll (``_config.yml``)
- ``obsidian.py``: Obsidian vaults (``.obsidian/``, ``publish.css``) and Quartz
  (``quartz.config.ts``)

A new family is a module with a finder, ``(root, content) -> Generator | None``, added to
``FINDERS`` below at its place in the order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sitegen.generators.docusaurus import docusaurus_outputs, find_docusaurus
from sitegen.generators.jekyll import JEKYLL_FILE, JekyllConfig, find_jekyll, jekyll_outputs
from sitegen.generators.mkdocs import (
    MKDOCS_FILE,
    OPTION_EXTENSIONS,
    MkDocsNavSpec,
    Tagged,
    find_mkdocs,
    mkdocs_docs_dir,
    mkdocs_generator,
    mkdocs_nav_spec,
    mkdocs_outputs,
    option_dialect,
    read_mkdocs_yml,
    toc_slug_style,
)
from sitegen.generators.obsidian import find_obsidian, quartz_outputs
from sitegen.generators.record import (
    PAGE_EXTENSIONS,
    Dialect,
    Generator,
    Holds,
    NavSpec,
    OutputFolder,
    ReadText,
    SlugStyle,
)
from sitegen.generators.vitepress import (
    VITEPRESS_CONFIGS,
    ConfigFile,
    VitePressNavSpec,
    find_vitepress,
    vitepress_outputs,
)

__all__ = [
    "FINDERS",
    "JEKYLL_FILE",
    "MKDOCS_FILE",
    "OPTION_EXTENSIONS",
    "OUTPUT_NAMERS",
    "PAGE_EXTENSIONS",
    "VITEPRESS_CONFIGS",
    "ConfigFile",
    "Dialect",
    "Finder",
    "Generator",
    "Holds",
    "JekyllConfig",
    "MkDocsNavSpec",
    "NavSpec",
    "OutputFolder",
    "OutputNamer",
    "ReadText",
    "SlugStyle",
    "Tagged",
    "VitePressNavSpec",
    "find_generator",
    "mkdocs_docs_dir",
    "mkdocs_generator",
    "mkdocs_nav_spec",
    "option_dialect",
    "read_mkdocs_yml",
    "toc_slug_style",
]

#: A family's finder: its record when its configuration holds the content folder (a
#: repository path, "" for the root), else None.
Finder = Callable[[Path, str], Generator | None]

#: The families, tried in this order; the first that finds its configuration wins. MkDocs
#: first: an ``mkdocs.yml`` whose ``docs_dir`` holds the content beats a ``.vitepress``
#: or ``_config.yml`` nearer to it. Register a new family here (one line).
FINDERS: tuple[Finder, ...] = (
    find_mkdocs,
    find_vitepress,
    find_docusaurus,
    find_jekyll,
    find_obsidian,  # last: a generator's configuration wins over a vault's marks
)


#: A family's names for the folders it writes, asked of any folder the crawl walks: given
#: the folder (a repository path), whether it holds a name and the text of a file below
#: it, the output and cache folders its configuration there names (relative to that
#: folder), [] when it has none.
OutputNamer = Callable[[str, Holds, ReadText], list[OutputFolder]]

#: Every family's namer (sitegen/generators/foreign_outputs.py asks each, in this order). Register a
#: new family's here too (one line).
OUTPUT_NAMERS: tuple[OutputNamer, ...] = (
    mkdocs_outputs,
    jekyll_outputs,
    vitepress_outputs,
    docusaurus_outputs,
    quartz_outputs,
)


def find_generator(root: Path, content: str) -> Generator | None:
    """The generator whose configuration holds the content folder ``content`` (a repository
    path, "" for the root): MkDocs when an ``mkdocs.yml`` in the content folder or a folder
    above it (up to the root) reads its pages from a ``docs_dir`` that holds the content or
    lies inside it (``docs/en/mkdocs.yml`` with ``docs_dir: docs``), the nearest first;
    else VitePress when a ``.vitepress`` configuration sits in the content folder or a
    folder above it; else Docusaurus when a ``docusaurus.config.*`` reads its docs from the
    content (sitegen/generators/docusaurus.py); else Jekyll when a ``_config.yml`` does
    (the nearest: Jekyll's source folder); else Quartz or an Obsidian vault
    (sitegen/generators/obsidian.py); None for none of them."""
    for finder in FINDERS:
        found = finder(root, content)
        if found is not None:
            return found
    return None
