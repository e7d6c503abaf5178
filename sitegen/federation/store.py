"""The stored copies of the peers, one JSON file each below ``.sitegen/peers/``.

JSON only, validated on load; a copy that cannot be read (corrupt JSON, a lone surrogate,
a wrong shape, too large, not a file) is set aside as ``<name>.json.unreadable`` (the suffix
every file of ``.sitegen/`` set aside gets) with a warning, so the build reads the peer again (content/guides/federation.md). Never unpickles or
evaluates anything, never writes outside its folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sitegen.config import cut, shown_url
from sitegen.federation.model import COPY_VERSION, PeerCopy, PeerEdge
from sitegen.fsutil import write_atomically

PEERS_FOLDER = "peers"
#: What a copy that cannot be read is renamed to: its name with this added, beside it.
ASIDE_SUFFIX = ".unreadable"
#: Bytes of a stored copy at most, written or read. A copy holds at most ``MAX_EDGES``
#: edges of a graph.md of at most 64 MiB; a larger file is not one sitegen wrote.
MAX_COPY_BYTES = 128 * 1024 * 1024
#: A UTF-16 surrogate: JSON's ``\ud800`` escape gives one, and no UTF-8 text can hold it.
_SURROGATE = re.compile("[\ud800-\udfff]")
_TEXTS = ("site", "name", "read_at", "digest", "etag", "last_modified", "stat")


class CorruptCopy(ValueError):
    """A stored copy that is not one this version wrote; its message says why."""


@dataclass(frozen=True)
class Loaded:
    """What was found for a peer: its copy (None: none usable), and ``warning``, a sentence,
    when a corrupt one was set aside; ``shown`` is the copy's path as messages name it."""

    copy: PeerCopy | None
    shown: str
    warning: str = ""


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
        return f"its copy could not be stored in {path} ({_reason(exc)})"
    return ""


def load_copy(cache_dir: Path, key: str) -> Loaded:
    """The stored copy of the peer ``key``: none when there is none or it was written by
    another version; a corrupt one is set aside with a warning."""
    path = copy_file(cache_dir, key)
    shown = f"{cache_dir.name}/{PEERS_FOLDER}/{path.name}"  # never the absolute path
    try:
        copy = read_copy(path, key)
    except FileNotFoundError:
        return Loaded(None, shown)
    except (CorruptCopy, OSError) as exc:
        return Loaded(None, shown, _set_aside(path, shown, _reason(exc)))
    return Loaded(copy, shown)


def read_copy(path: Path, key: str) -> PeerCopy | None:
    """The copy in ``path`` (None when written by another version); raises ``CorruptCopy``
    (or ``OSError``) when it cannot be read."""
    data = _load_json(path)
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, int) and version != COPY_VERSION:
        return None  # an older format: read the peer again, and overwrite it
    try:
        return _copy_of(data, key)
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptCopy(f"it does not hold a peer's copy ({_reason(exc)})") from None


def _load_json(path: Path) -> Any:
    """The JSON in ``path``. Bounded: a size cap, and JSON's nesting meets Python's
    recursion limit, which is caught."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise CorruptCopy("it is not a regular file")
    if st.st_size > MAX_COPY_BYTES:
        raise CorruptCopy(f"it is larger than {MAX_COPY_BYTES:,} bytes")
    with path.open("rb") as f:
        raw = f.read(MAX_COPY_BYTES + 1)
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise CorruptCopy(f"it is not valid JSON: {_reason(exc)}") from None


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
    """A string that can be written out again: no lone surrogate."""
    return isinstance(value, str) and (value.isascii() or _SURROGATE.search(value) is None)


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


def _set_aside(path: Path, shown: str, why: str) -> str:
    """Move a corrupt copy out of the way (``<name>.json.unreadable``, replacing an older
    one), so it is never read again and can be looked at; the sentence saying so."""
    aside = path.with_name(path.name + ASIDE_SUFFIX)
    try:
        _remove(aside)
        os.replace(path, aside)
    except OSError as exc:
        return (
            f"the stored copy {shown} could not be read ({why}) nor set aside "
            f"({_reason(exc)}); it is not used"
        )
    return f"the stored copy {shown} could not be read ({why}); it was set aside as {aside.name}"


def _remove(path: Path) -> None:
    """Remove a file or a folder below the peers' folder, if there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _reason(exc: BaseException) -> str:
    """What an exception said, in at most 80 characters."""
    text = (getattr(exc, "strerror", None) if isinstance(exc, OSError) else None) or str(exc)
    return cut(text or type(exc).__name__)


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
    except (CorruptCopy, OSError):
        return path.name
    key = data.get("key") if isinstance(data, dict) else None
    return cut(shown_url(key)) if isinstance(key, str) and _is_text(key) else path.name
