"""Atomic file writes: a temporary file in the same folder, fsync, then rename over the target.

A killed process leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: str | bytes, durable: bool = True) -> None:
    """``durable=False`` skips the fsync: still never half a file for a killed process, but a
    power loss may lose the write (fine for a cache whose reader detects a missing tail)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
