"""Atomic file writes: a temporary file in the same folder, fsync, then rename over the target.

A killed process leaves the old file or the new one, never half of one. Every file sitegen
writes outside the site folder goes through ``write_atomically``; nothing here reads a file.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

#: What ``open(path, "w")`` asks for; the process umask takes its bits away.
_NEW_FILE_MODE = 0o666


def write_atomically(
    path: Path, data: str | bytes | Iterable[str | bytes], durable: bool = True
) -> None:
    """Replace ``path`` by ``data`` (text is written as UTF-8) so that a reader sees the old
    file or the new one, never a mix; on any failure the old file stays as it was.

    Permissions are the ones a user expects (as Zola's ``fs.rs`` writes with
    ``File::create``): a new file gets ``0666 & ~umask`` like ``open()`` would give it, a
    replaced file keeps its mode. ``durable=False`` skips the fsyncs: still never half a
    file for a killed process, but a power loss may lose the write (fine for a cache whose
    reader detects a missing tail).

    ``data`` given as an iterable of pieces (text or bytes) is written piece by piece, so a large file
    (the graph store) never exists whole in memory (bench/README.md, "Memory").
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    pieces = (
        [data.encode("utf-8")]
        if isinstance(data, str)
        else [data]
        if isinstance(data, bytes)
        else (piece.encode("utf-8") if isinstance(piece, str) else piece for piece in data)
    )
    kept_mode = _mode_of(path)
    fd, tmp = _create_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            if kept_mode is not None:
                os.chmod(tmp, kept_mode)
            for raw in pieces:
                fh.write(raw)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        _remove_quietly(tmp)
        raise
    if durable:
        _fsync_folder(path.parent)


def _mode_of(path: Path) -> int | None:
    """The permission bits of the file at ``path``; None when there is no such file."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def _create_beside(path: Path) -> tuple[int, str]:
    """A new, empty temporary file in ``path``'s folder. Created by ``os.open`` with mode
    0666, so the kernel applies the umask exactly as for ``open()`` (``mkstemp`` would make
    it 0600, and reading the umask means changing it for a moment, which races threads)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, _NEW_FILE_MODE), tmp
        except FileExistsError:
            continue  # another writer's temporary file: draw another name


def _remove_quietly(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
