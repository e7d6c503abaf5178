"""Jekyll: a ``_config.yml`` in the content folder or a folder above it (its folder is the
site's source). Read as text here and as YAML data where its addresses are used
(sitegen/link/jekyll.py), up to the YAML reader's size limit (sitegen/yamldata.py).
"""

from __future__ import annotations

from pathlib import Path

from sitegen.generators.record import Generator, SlugStyle, configs_up

#: Jekyll's configuration, in the site's source folder.
JEKYLL_FILE = "_config.yml"


def find_jekyll(root: Path, content: str) -> Generator | None:
    """Jekyll, when a ``_config.yml`` sits in the content folder or a folder above it (up
    to the root), the nearest first: its folder is the site's source. Heading ids stay
    sitegen's default; the file decides addresses only (content/guides/urls.md)."""
    for folder, rel, text in configs_up(root, content, JEKYLL_FILE):
        return Generator("Jekyll", rel, SlugStyle.GITHUB, docs_dir=folder, sources=((rel, text),))
    return None
