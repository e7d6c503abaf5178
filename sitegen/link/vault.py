"""Obsidian's vault finds a file by its name anywhere in it: an image written with the path
``diagram.png`` in any note shows ``Attachments/diagram.png``
(content/syntax/obsidian.md#files-found-by-name).

The names only, built once from the crawl; ``rules.py`` asks them for a path that names no
file as written, when the project is a vault. Never reads files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field

from sitegen.base.paths import content_relative


@dataclass(frozen=True)
class VaultFiles:
    """Every page and file of the content folder by its lower-cased file name."""

    by_name: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, content: str, repo_paths: Iterable[str]) -> VaultFiles:
        found: dict[str, list[str]] = {}
        for repo_path in sorted(repo_paths):
            if content_relative(content, repo_path) is not None:
                found.setdefault(posixpath.basename(repo_path).lower(), []).append(repo_path)
        return cls({name: tuple(paths) for name, paths in found.items()})

    def named(self, written: str) -> list[str]:
        """The files whose path ends with ``written`` (its leading ``./`` and ``../`` left
        out), the shortest path first, as Obsidian's "shortest path when possible" writes a
        link: by its name alone when no other file has it."""
        parts = [p for p in written.split("/") if p not in ("", ".", "..")]
        if not parts:
            return []
        tail = "/".join(parts).lower()
        found = [
            path
            for path in self.by_name.get(parts[-1].lower(), ())
            if path.lower() == tail or path.lower().endswith("/" + tail)
        ]
        return sorted(found, key=lambda path: (path.count("/"), len(path), path))
