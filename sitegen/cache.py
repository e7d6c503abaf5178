"""The cache folder ``.sitegen/``: made safe to use before a build, and one build at a time.

Refuses a cache path that is a file or a link, removes links planted inside it, tells a
cache made in this very folder from one that arrived with a checkout (never trusted), and
holds the build lock. It never reads a cache entry itself (see sitegen/incremental.py).
See content/guides/safety.md for the policy.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sitegen.config import ConfigError
from sitegen.fsutil import write_atomically

#: Names the folder it was made in (device and inode), so a copied or committed cache is known.
ORIGIN_FILE = "origin.json"
LOCK_FILE = "lock"
_IGNORE_FILE = ".gitignore"


@dataclass(frozen=True)
class CacheState:
    #: The cache was made here by sitegen; False means every entry is ignored (a clean build).
    trusted: bool
    #: The folder did not exist before this build (so there was nothing to distrust).
    fresh: bool = False


def _identity(folder: Path) -> dict[str, int]:
    st = os.stat(folder, follow_symlinks=False)
    return {"device": st.st_dev, "inode": st.st_ino}


def _recorded_identity(folder: Path) -> object:
    try:
        return json.loads((folder / ORIGIN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def check_cache_dir(cache_dir: Path) -> None:
    """The cache path is a real folder or nothing yet; else ConfigError (exit 2). Checked by
    every command before it reads or writes anything there."""
    if cache_dir.is_symlink():
        raise ConfigError(
            f"'{cache_dir.name}' is a symbolic link; sitegen keeps its cache in a "
            "real folder: remove the link"
        )
    if cache_dir.exists() and not cache_dir.is_dir():
        raise ConfigError(
            f"'{cache_dir.name}' is a file, but sitegen keeps its cache in that "
            "folder: remove or rename the file"
        )


def prepare_cache(cache_dir: Path) -> CacheState:
    """Make ``cache_dir`` a real folder of sitegen's and say whether its entries may be used.

    A cache that does not name this folder as its origin (one committed to the repository,
    copied from elsewhere, or older than origins) is not trusted: the build ignores every
    entry, as with ``--clean``, and overwrites them.
    """
    check_cache_dir(cache_dir)
    fresh = not cache_dir.exists()
    cache_dir.mkdir(parents=True, exist_ok=True)
    _remove_links(cache_dir)
    identity = _identity(cache_dir)
    trusted = not fresh and _recorded_identity(cache_dir) == identity
    if not trusted:
        write_atomically(cache_dir / ORIGIN_FILE, json.dumps(identity) + "\n", durable=False)
    ignore = cache_dir / _IGNORE_FILE
    if not ignore.is_file():  # keep the cache out of `git status` and out of commits
        write_atomically(ignore, "*\n", durable=False)
    return CacheState(trusted=trusted, fresh=fresh)


def _remove_links(cache_dir: Path) -> None:
    """A link inside the cache could make a later write land outside the project: only the
    link is removed (its target is untouched)."""
    for dirpath, dirnames, filenames in os.walk(cache_dir):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            if path.is_symlink():
                path.unlink()


@contextlib.contextmanager
def build_lock(cache_dir: Path, announce: Callable[[str], None]) -> Iterator[None]:
    """Hold the project's build lock; a second build waits (saying for whom) and then runs.

    An advisory ``flock`` on ``.sitegen/lock``: released by the kernel when the process ends,
    so a killed build never leaves a stale lock.
    """
    path = cache_dir / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            announce(
                f"sitegen: waiting for another build of this project ({_holder(fd)}) to finish"
            )
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    return f"process {text}" if text.isdigit() else "another process"
