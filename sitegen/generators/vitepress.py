"""VitePress: a ``.vitepress`` configuration in the content folder or a folder above it.
Its scripts are only searched as text for a slugify of their own, never run.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from sitegen.generators.record import Generator, SlugStyle
from sitegen.paths import is_within

#: Characters of a VitePress configuration script searched for its own slugify.
_SCRIPT_LIMIT = 1_000_000
#: The configuration files VitePress looks for in its ``.vitepress`` folder.
VITEPRESS_CONFIGS = tuple(
    name for ext in ("js", "ts", "mjs", "mts") for name in (f"config/index.{ext}", f"config.{ext}")
)


def find_vitepress(root: Path, content: str) -> Generator | None:
    """VitePress, when a ``.vitepress`` configuration sits in the content folder or a folder
    above it (up to the root), the nearest first."""
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
