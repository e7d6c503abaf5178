"""Output ownership: sitegen deletes or replaces only folders it wrote itself.

Decides, before anything is written, whether the output folder may be replaced; and names
sitegen's own leftovers (temporary and old site folders) by their exact names and marker.
It never deletes anything itself and never reads past a folder's marker and listing.
See content/guides/safety.md for the policy these checks implement.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from sitegen.base.paths import is_within
from sitegen.config import Config, ConfigError
from sitegen.state.files import Unreadable, parse_json, read_state

#: The file in every folder sitegen writes (a site, or the temporary folder of a build).
OUTPUT_MARKER = ".sitegen-output"
#: ``.site.tmp-1234`` / ``.site.old-1234``: the only names sitegen gives its scratch folders.
_SCRATCH = re.compile(r"\.(?P<name>.+)\.(?:tmp|old)-[0-9]+")


def real(path: Path) -> Path:
    """The path with every symbolic link followed (the folder that would really change)."""
    return Path(os.path.realpath(path))


def _overlaps(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are the same folder or one lies inside the other."""
    return is_within(a, b) or is_within(b, a)


def _shown(config: Config, path: Path) -> str:
    try:
        rel = path.relative_to(real(config.root)).as_posix()
    except ValueError:
        return str(path)
    return (rel or ".") + "/"


def read_marker(folder: Path) -> dict[str, object] | None:
    """The folder's sitegen marker as data, or None when it has no valid one."""
    try:  # bounded, and a FIFO in its place is refused unopened (a plain open waits)
        doc = parse_json(read_state(folder / OUTPUT_MARKER) or b"")
    except Unreadable:
        return None
    if not isinstance(doc, dict) or doc.get("generator") != "sitegen":
        return None
    return doc


def files_below(folder: Path) -> Iterator[str]:
    """Every file and link below ``folder``, relative to it, in a stable order. With string
    operations, not a Path per file: a no-change build walks its 12,000-file site first."""
    top = os.fspath(folder)
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        rel = os.path.relpath(dirpath, top)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        links = sorted(d for d in dirnames if os.path.islink(os.path.join(dirpath, d)))
        for name in sorted(filenames) + links:
            yield prefix + name


def foreign_file(folder: Path) -> str | None:
    """A file in ``folder`` that sitegen did not write, or None when every file is its own.

    An empty folder holds nothing foreign. A folder with sitegen's marker holds only the
    files that marker lists (a marker of an older version, without a list, vouches for all).
    """
    marker = read_marker(folder)
    listed = marker.get("files") if marker is not None else None
    known = set(listed) if isinstance(listed, list) else None
    for rel in files_below(folder):
        if rel == OUTPUT_MARKER and marker is not None:
            continue
        if marker is None or (known is not None and rel not in known):
            return rel
    return None


def check_output(config: Config, writing: bool) -> None:
    """Refuse (ConfigError, exit 2) an output that would destroy what sitegen did not write.

    Checked before the build writes anything. ``writing`` is False for the commands that
    never write the site (check, cycles, backlinks, export): they only need the output not
    to hide the project's own files from the crawl.
    """
    out, root = real(config.out_dir), real(config.root)
    given = config.out
    if is_within(root, out):
        raise ConfigError(
            f"the output '{given}' is the project root or a folder above it, which "
            "sitegen would replace whole: choose a folder of its own, e.g. --out site"
        )
    # With pages at the root (content = "."), the root rule above covers the content.
    folders = [
        ("the content folder", config.content),
        ("the cache folder", ".sitegen"),
        ("the repository's .git folder", ".git"),
    ]
    folders += [("the source root", s) for s in config.source]
    for what, rel in folders:
        folder = real(root / rel.strip("/"))
        if folder != root and _overlaps(out, folder):
            raise ConfigError(
                f"the output '{given}' overlaps {what} {_shown(config, folder)}: "
                "choose an output folder of its own, e.g. --out site"
            )
    if not writing or not os.path.lexists(out):
        return
    if not out.is_dir():
        raise ConfigError(f"the output '{given}' is a file, not a folder: choose another --out")
    stranger = foreign_file(out)
    if stranger is not None:
        shown = f"{given.rstrip('/')}/{stranger}"
        raise ConfigError(
            f"{given.rstrip('/')}/ holds files sitegen did not write, e.g. {shown}: "
            "remove them or choose another --out"
        )


def scratch_folders(out: Path) -> list[Path]:
    """sitegen's own leftovers beside ``out``: exactly ``.<name>.tmp-<pid>`` and
    ``.<name>.old-<pid>`` folders that carry sitegen's marker; never anything else."""
    parent, name = out.parent, out.name
    try:
        entries = sorted(os.scandir(parent), key=lambda e: e.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _SCRATCH.fullmatch(entry.name)
        if match is None or match.group("name") != name or entry.is_symlink() or not entry.is_dir():
            continue
        if read_marker(Path(entry.path)) is not None:
            found.append(Path(entry.path))
    return found
