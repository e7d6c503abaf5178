"""The cache folder ``.sitegen/``: made safe to use before a build, and one build at a time.

Refuses a cache path that is a file or a link, removes links planted inside it, sets aside
whatever stands where one of its files or folders belongs (a folder named ``graph.json``, a
FIFO named ``pages.json``, a folder it cannot list), tells a cache made in this very folder
from one that arrived with a checkout (never trusted), and holds the build lock. It never
reads a cache entry itself (see sitegen/state/remembered.py). See content/guides/safety.md for
the policy.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.fsutil import write_atomically
from sitegen.config import ConfigError
from sitegen.state.files import ASIDE_SUFFIX, Unreadable, read_json, set_aside

#: Names the folder it was made in (device and inode), so a copied or committed cache is known.
ORIGIN_FILE = "origin.json"
LOCK_FILE = "lock"
_IGNORE_FILE = ".gitignore"
#: What sitegen's files in ``.sitegen/`` are named (by suffix, or whole), and its folders:
#: anything else in the place of one is set aside before a build reads or writes there.
_FILE_SUFFIXES = (".json", ".metast", ".npz", ".sqlite", ".sqlite-wal", ".sqlite-shm")
_FILE_NAMES = frozenset({"built", LOCK_FILE, _IGNORE_FILE})
_FOLDERS = frozenset({"shards"})
#: The peers' stored copies keep their own rules (sitegen/federation/store.py).
_NOT_SWEPT = frozenset({"peers"})


@dataclass(frozen=True)
class CacheState:
    #: The cache was made here by sitegen; False means every entry is ignored (a clean build).
    trusted: bool
    #: The folder did not exist before this build (so there was nothing to distrust).
    fresh: bool = False
    #: What was set aside (content/guides/safety.md#nothing-read-back-is-run), one warning each.
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: ``origin.json`` could not be read: the cache is not trusted, but not for being a copy.
    origin_unreadable: bool = False


def _identity(folder: Path) -> dict[str, int]:
    st = os.stat(folder, follow_symlinks=False)
    return {"device": st.st_dev, "inode": st.st_ino}


def _recorded_identity(folder: Path) -> tuple[object, list[Diagnostic]]:
    """The identity ``origin.json`` records; one that is not a device and an inode is set
    aside with a warning (None: the cache is then not trusted)."""
    path = folder / ORIGIN_FILE
    try:
        doc = read_json(path, limit=4096)
        if doc is not None and not _is_identity(doc):
            raise Unreadable("not a device and an inode")
    except Unreadable as why:
        what = "the cache's origin (which folder it was made in)"
        return None, [set_aside(path, what, str(why))]
    return doc, []


def _is_identity(doc: object) -> bool:
    return (
        isinstance(doc, dict)
        and doc.keys() == {"device", "inode"}
        and all(type(v) is int for v in doc.values())
    )


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
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        _usable(cache_dir)
        swept = _sweep(cache_dir)
        identity = _identity(cache_dir)
        recorded, unreadable = _recorded_identity(cache_dir) if not fresh else (None, [])
        trusted = not fresh and recorded == identity
        if not trusted:
            write_atomically(cache_dir / ORIGIN_FILE, json.dumps(identity) + "\n", durable=False)
        ignore = cache_dir / _IGNORE_FILE
        if not ignore.is_file():  # keep the cache out of `git status` and out of commits
            write_atomically(ignore, "*\n", durable=False)
    except OSError as err:  # the folder itself cannot be written: nothing to set aside
        raise ConfigError(
            f"'{cache_dir.name}' cannot be used as sitegen's cache folder "
            f"({err.strerror or err}): check its permissions, or remove it"
        ) from None
    return CacheState(trusted, fresh, swept + unreadable, bool(unreadable))


def _usable(cache_dir: Path) -> None:
    """A cache folder its owner made unreadable gets its owner's permissions back (the
    folder is sitegen's own); another user's folder is left as it is."""
    if not os.access(cache_dir, os.R_OK | os.W_OK | os.X_OK):
        os.chmod(cache_dir, stat.S_IMODE(os.stat(cache_dir).st_mode) | stat.S_IRWXU)


def _sweep(cache_dir: Path) -> list[Diagnostic]:
    """Make every path of the cache safe to read and replace, in one walk: a link is removed
    (only the link; a later write could land outside the project through it), and whatever
    stands where a file or folder of sitegen's belongs, or a folder that cannot be listed,
    is set aside with a warning."""
    found: list[Diagnostic] = []

    def unlistable(err: OSError) -> None:
        if err.filename and Path(err.filename) != cache_dir:
            found.append(set_aside(Path(err.filename), "a folder of the cache", _reason(err)))

    for dirpath, dirnames, filenames in os.walk(cache_dir, onerror=unlistable):
        folder = Path(dirpath)
        top = folder == cache_dir
        dirnames[:] = [n for n in dirnames if not (top and n in _NOT_SWEPT)]
        for name in dirnames + filenames:
            path = folder / name
            if path.is_symlink():
                path.unlink()
            elif why := _misplaced(path, name, top):
                found.append(set_aside(path, f"the cache's {name}", why))
        dirnames[:] = [n for n in dirnames if (folder / n).is_dir() and not _asides(n)]
    return found


def _misplaced(path: Path, name: str, top: bool) -> str:
    """Why ``path``, where a file or folder of sitegen's belongs, cannot serve as one ("" when
    it can): not that kind of thing, or a file its owner may not read and write (a later
    write would keep its mode, and the lock is opened for writing)."""
    if name.endswith(ASIDE_SUFFIX):
        return ""
    if top and name in _FOLDERS:
        return "" if path.is_dir() else "not a folder"
    if name in _FILE_NAMES or name.endswith(_FILE_SUFFIXES):
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            return "a folder" if stat.S_ISDIR(mode) else "not a file"
        if not os.access(path, os.R_OK | os.W_OK):
            return "no permission to read and write it"
    return ""


def _asides(name: str) -> bool:
    return name.endswith(ASIDE_SUFFIX)


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


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
