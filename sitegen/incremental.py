"""What a build remembers for the next one, in ``.sitegen/state.pickle``: page records by
content hash, the key of every output file, and the fingerprint of the whole input.

Keys are content hashes, never modification times. The file is written atomically and read
defensively: a missing, corrupt or foreign state only means a full build.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen import __version__
from sitegen.diagnostics import Diagnostic
from sitegen.docs.records import PageRecord
from sitegen.fsutil import write_atomically

#: Bump when anything the cache holds changes shape or meaning.
STATE_VERSION = 1
STATE_FILE = "state.pickle"


def digest(*parts: Any) -> str:
    """A stable hash of plain values (str, bytes, numbers, tuples, lists, dicts)."""
    return hashlib.sha256(pickle.dumps(parts, protocol=5)).hexdigest()


@dataclass
class BuildState:
    version: tuple[int, str] = (STATE_VERSION, __version__)
    #: repository path -> the page record extracted from the bytes of that content hash
    pages: dict[str, PageRecord] = field(default_factory=dict)
    #: output path -> key of everything that went into it
    outputs: dict[str, str] = field(default_factory=dict)
    #: the whole input of the last build, and what that build reported
    fingerprint: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: str = ""

    def page(self, path: str, content_hash: str) -> PageRecord | None:
        rec = self.pages.get(path)
        return rec if rec is not None and rec.content_hash == content_hash else None


def load_state(cache_dir: Path, clean: bool) -> BuildState:
    path = cache_dir / STATE_FILE
    if clean or not path.is_file():
        return BuildState()
    try:
        state = pickle.loads(path.read_bytes())
    except Exception:  # a corrupt or foreign cache is only a cache: build from scratch
        return BuildState()
    if not isinstance(state, BuildState) or state.version != (STATE_VERSION, __version__):
        return BuildState()
    return state


def save_state(cache_dir: Path, state: BuildState) -> None:
    write_atomically(cache_dir / STATE_FILE, pickle.dumps(state, protocol=5))


def input_fingerprint(config_repr: str, templates: Iterable[tuple[str, bytes]],
                      files: Iterable[tuple[str, str]], extra: Any) -> str:
    """Everything a build reads: configuration, templates, and (path, content hash) of every file."""
    return digest(__version__, config_repr, sorted((n, hashlib.sha256(d).hexdigest())
                                                   for n, d in templates),
                  sorted(files), extra)
