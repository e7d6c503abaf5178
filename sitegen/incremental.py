"""What a build remembers for the next one: page records by content hash
(``.sitegen/state.pickle``), and which input the cache and the site were last completed for.

The site folder says itself what it holds (its marker file: the input's fingerprint, every
output's key, what that build reported), written inside the folder before it is swapped in,
so it always describes the files beside it. ``.sitegen/built`` holds the fingerprint of the
last build that finished everything; it is removed before a build writes anything, so a
killed build never leaves a cache or a store that a later build would trust as finished.
Keys are content hashes, never modification times; every file is written atomically and
read defensively: missing, corrupt or foreign means a full build.
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
STATE_VERSION = 2
STATE_FILE = "state.pickle"


def digest(*parts: Any) -> str:
    """A stable hash of plain values (str, bytes, numbers, tuples, lists, dicts, dataclasses,
    enums). By their repr, not pickle: pickle's output depends on which equal objects happen
    to be shared, so equal inputs could hash differently."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class BuildState:
    version: tuple[int, str] = (STATE_VERSION, __version__)
    #: repository path -> the page record extracted from the bytes of that content hash
    pages: dict[str, PageRecord] = field(default_factory=dict)

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


BUILT_FILE = "built"


def finished_fingerprint(cache_dir: Path) -> str:
    try:
        return (cache_dir / BUILT_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def mark_unfinished(cache_dir: Path) -> None:
    """Called before a build writes the store or the site."""
    try:
        (cache_dir / BUILT_FILE).unlink()
    except FileNotFoundError:
        pass


def mark_finished(cache_dir: Path, fingerprint: str) -> None:
    write_atomically(cache_dir / BUILT_FILE, fingerprint + "\n")


@dataclass
class SiteRecord:
    """What a site folder holds: written into its marker file."""

    fingerprint: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: str = ""

    def to_json(self) -> str:
        import json
        return json.dumps({"generator": "sitegen", "version": __version__,
                           "fingerprint": self.fingerprint, "summary": self.summary,
                           "diagnostics": [[d.path, d.line, d.col, str(d.level), d.message, d.code]
                                           for d in self.diagnostics],
                           "keys": dict(sorted(self.keys.items()))},
                          ensure_ascii=False, separators=(",", ":")) + "\n"

    @classmethod
    def read(cls, marker: Path) -> "SiteRecord":
        import json

        from sitegen.diagnostics import Level
        try:
            doc = json.loads(marker.read_text(encoding="utf-8"))
            if doc.get("version") != __version__:
                return cls()
            return cls(doc["fingerprint"], dict(doc["keys"]),
                       [Diagnostic(p, ln, c, Level(lv), m, code)
                        for p, ln, c, lv, m, code in doc["diagnostics"]], doc["summary"])
        except (OSError, ValueError, KeyError, TypeError):
            return cls()
