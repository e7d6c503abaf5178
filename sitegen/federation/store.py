"""The stored copies of the peers, one JSON file each below ``.sitegen/peers/``.

JSON only, read through ``sitegen.state.files`` (bounded, strict UTF-8, no lone surrogate, no
infinite number) and validated on load; a copy that cannot be read is set aside as
``<name>.json.unreadable`` with a warning, so the build reads the peer again
(content/guides/federation.md). Never unpickles or evaluates anything, never writes outside
its folder.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitegen.base.diagnostics import Diagnostic, cut
from sitegen.base.fsutil import write_atomically
from sitegen.config import shown_url
from sitegen.records.federation import COPY_VERSION, PeerCopy, PeerEdge
from sitegen.state.files import ASIDE_SUFFIX, Unreadable, parse_json, read_state, set_aside, shown

PEERS_FOLDER = "peers"
#: Bytes of a stored copy at most, written or read. A copy holds at most ``MAX_EDGES``
#: edges of a graph.md of at most 64 MiB; a larger file is not one sitegen wrote.
MAX_COPY_BYTES = 128 * 1024 * 1024
_TEXTS = ("site", "name", "read_at", "digest", "etag", "last_modified", "stat")


@dataclass(frozen=True)
class Loaded:
    """What was found for a peer: its copy (None: none usable), and ``warning`` when a
    damaged one was set aside."""

    copy: PeerCopy | None
    warning: Diagnostic | None = None


def copy_file(cache_dir: Path, key: str) -> Path:
    """Where one peer's copy is kept: named by a hash of the peer as configured."""
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
    return cache_dir / PEERS_FOLDER / f"{name}.json"


def save_copy(cache_dir: Path, copy: PeerCopy) -> str:
    """Store ``copy``; returns "" or a sentence saying why it could not be stored (the build
    goes on with it in memory, and reads the peer again next time)."""
    data = {
        "version": COPY_VERSION,
        "key": copy.key,
        **{t: getattr(copy, t) for t in _TEXTS},
        "total": copy.total,
        "dropped": copy.dropped,
        "malformed": copy.malformed,
        "edges": [e.row() for e in copy.edges],
    }
    path = copy_file(cache_dir, copy.key)
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(text) > MAX_COPY_BYTES:
            return f"its copy would be larger than {MAX_COPY_BYTES:,} bytes and was not stored"
        write_atomically(path, text)
    except (OSError, UnicodeEncodeError) as exc:
        why = cut((exc.strerror if isinstance(exc, OSError) else "") or str(exc))
        return f"its copy could not be stored in {shown(path)} ({why})"
    return ""


def load_copy(cache_dir: Path, key: str, code: str) -> Loaded:
    """The stored copy of the peer ``key``: none when there is none or it was written by
    another version; a damaged one is set aside with a warning of code ``code``."""
    path = copy_file(cache_dir, key)
    try:
        return Loaded(read_copy(path, key))
    except Unreadable as exc:
        what = f"the stored copy of peer {cut(shown_url(key))}"
        return Loaded(None, set_aside(path, what, str(exc), code=code))


def read_copy(path: Path, key: str) -> PeerCopy | None:
    """The copy in ``path`` (None when there is none, or one written by another version);
    ``Unreadable`` when it cannot be read: not a regular file, too large, not JSON (with
    ``sitegen.state.files``'s checks), or not a copy of the peer ``key``."""
    data = _load_json(path)
    version = data.get("version") if isinstance(data, dict) else None
    if data is None or (isinstance(version, int) and version != COPY_VERSION):
        return None  # none, or an older format: read the peer again, and overwrite it
    try:
        return _copy_of(data, key)
    except (ValueError, TypeError, KeyError) as exc:
        raise Unreadable(f"not a peer's copy: {cut(str(exc) or type(exc).__name__)}") from None


def _load_json(path: Path) -> Any:
    data = read_state(path, MAX_COPY_BYTES)
    return None if data is None else parse_json(data)


def _copy_of(data: Any, key: str) -> PeerCopy:
    if not isinstance(data, dict):
        raise ValueError("not an object")
    if data["key"] != key:
        raise ValueError("it is another peer's")
    if not all(_is_text(data[t]) for t in _TEXTS):
        raise ValueError("a text field is not text")
    if not isinstance(data["edges"], list):
        raise ValueError("the edges are not a list")
    return PeerCopy(
        **{t: data[t] for t in _TEXTS},
        key=key,
        total=_count(data["total"]),
        dropped=_count(data["dropped"]),
        malformed=_count(data["malformed"]),
        edges=tuple(_edge(row) for row in data["edges"]),
    )


def _is_text(value: Any) -> bool:
    return isinstance(value, str)  # parse_json refused lone surrogates


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError("a count is not a count")
    return value


def _edge(row: Any) -> PeerEdge:
    if not isinstance(row, list) or len(row) != 8:
        raise ValueError("an edge is not a row of 8")
    source, title, target, fragment, rel, label, anchor, count = row
    texts = (source, title, target, fragment, rel, label, anchor)
    if not all(_is_text(t) for t in texts) or _count(count) < 1:
        raise ValueError("an edge's cells are not text and a count")
    return PeerEdge(source, title, target, fragment, rel, label, anchor, count)


def forget_others(cache_dir: Path, keys: set[str]) -> list[str]:
    """Remove the copies of peers no longer configured; returns their keys as they may be
    shown (a removed peer is emptied: its backlinks go with it)."""
    folder = cache_dir / PEERS_FOLDER
    wanted = {copy_file(cache_dir, k).name for k in keys}
    wanted |= {name + ASIDE_SUFFIX for name in wanted}
    removed = []
    try:
        files = sorted(p for p in folder.iterdir() if p.name.endswith((".json", ASIDE_SUFFIX)))
    except OSError:
        return []
    for path in files:
        if path.name in wanted:
            continue
        key = _key_of(path)
        try:
            _remove(path)
        except OSError:
            continue
        if key:
            removed.append(key)
    return removed


def _key_of(path: Path) -> str:
    """The peer a copy was stored for, shown without its URL's secrets ("" for a copy set
    aside; the file's name for one that cannot be read)."""
    if path.name.endswith(ASIDE_SUFFIX):
        return ""
    try:
        data = _load_json(path)
    except Unreadable:
        return path.name
    key = data.get("key") if isinstance(data, dict) else None
    return cut(shown_url(key)) if isinstance(key, str) else path.name


def _remove(path: Path) -> None:
    """Remove a file or a folder below the peers' folder."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
