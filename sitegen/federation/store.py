"""The stored copies of the peers, one JSON file each below ``.sitegen/peers/``.

JSON only, validated on load (a copy that does not fit is not used); never unpickles or
evaluates anything, never writes outside its folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sitegen.federation.model import COPY_VERSION, PeerCopy, PeerEdge
from sitegen.fsutil import write_atomically

PEERS_FOLDER = "peers"


def copy_file(cache_dir: Path, key: str) -> Path:
    """Where one peer's copy is kept: named by a hash of the peer as configured."""
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
    return cache_dir / PEERS_FOLDER / f"{name}.json"


def save_copy(cache_dir: Path, copy: PeerCopy) -> None:
    data = {
        "version": COPY_VERSION,
        "key": copy.key,
        "site": copy.site,
        "name": copy.name,
        "read_at": copy.read_at,
        "digest": copy.digest,
        "etag": copy.etag,
        "last_modified": copy.last_modified,
        "stat": copy.stat,
        "total": copy.total,
        "dropped": copy.dropped,
        "edges": [e.row() for e in copy.edges],
        "problems": [list(p) for p in copy.problems],
    }
    path = copy_file(cache_dir, copy.key)
    path.parent.mkdir(exist_ok=True)
    write_atomically(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def load_copy(cache_dir: Path, key: str) -> PeerCopy | None:
    """The stored copy of the peer ``key``, or None when there is none or it does not fit."""
    try:
        data = json.loads(copy_file(cache_dir, key).read_text(encoding="utf-8"))
        return _copy_of(data, key)
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _copy_of(data: Any, key: str) -> PeerCopy | None:
    if not isinstance(data, dict) or data.get("version") != COPY_VERSION or data["key"] != key:
        return None
    texts = ("site", "name", "read_at", "digest", "etag", "last_modified", "stat")
    if not all(isinstance(data[t], str) for t in texts):
        return None
    edges = tuple(_edge(row) for row in data["edges"])
    problems = tuple((int(line), str(message)) for line, message in data["problems"])
    return PeerCopy(
        **{t: data[t] for t in texts},
        key=key,
        total=_count(data["total"]),
        dropped=_count(data["dropped"]),
        edges=edges,
        problems=problems,
    )


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError("not a count")
    return value


def _edge(row: Any) -> PeerEdge:
    if not isinstance(row, list) or len(row) != 8:
        raise ValueError("not an edge row")
    source, title, target, fragment, rel, label, anchor, count = row
    texts = (source, title, target, fragment, rel, label, anchor)
    if not all(isinstance(t, str) for t in texts) or _count(count) < 1:
        raise ValueError("not an edge row")
    return PeerEdge(source, title, target, fragment, rel, label, anchor, count)


def forget_others(cache_dir: Path, keys: set[str]) -> list[str]:
    """Remove the copies of peers no longer configured; returns their keys (a removed peer
    is emptied: its backlinks go with it)."""
    folder = cache_dir / PEERS_FOLDER
    wanted = {copy_file(cache_dir, k).name for k in keys}
    removed = []
    try:
        files = sorted(folder.glob("*.json"))
    except OSError:
        return []
    for path in files:
        if path.name in wanted:
            continue
        try:
            key = json.loads(path.read_text(encoding="utf-8")).get("key", path.name)
        except (OSError, ValueError, AttributeError):
            key = path.name
        path.unlink(missing_ok=True)
        removed.append(str(key))
    return removed
