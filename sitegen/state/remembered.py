"""What a build remembers for the next one: page records by content hash
(``.sitegen/pages.json``, data only), and which input the cache and the site were last completed for.

The page cache is JSON Lines: a header line ``[STATE_VERSION, code_version(), pages_key]``
(``pages_key``: the options declared ``Rebuild.PAGES`` and the plugins, which the records were
extracted under), then one line ``[path, record]`` per page, sorted by path. Each line is read
and checked on its own, so a bad line costs its page only, and a rebuild writes the lines of
unchanged pages back as they were read: it encodes only the records it extracted
(content/guides/builds.md#the-extraction-cache).

The site folder says itself what it holds (its marker file: the input's fingerprint, every
output's key, what that build reported), written inside the folder before it is swapped in,
so it always describes the files beside it. ``.sitegen/built`` holds the fingerprint of the
last build that finished everything; it is removed before a build writes anything, so a
killed build never leaves a cache or a store that a later build would trust as finished.
Keys are content hashes, never modification times; every file is written atomically and
read defensively, through ``sitegen/state/files.py``: missing or foreign means a full build, and a
file that cannot be read is set aside with a warning and rebuilt.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen import __version__
from sitegen.base.diagnostics import Diagnostic
from sitegen.base.fsutil import write_atomically
from sitegen.config import Config, Rebuild, declared_options
from sitegen.records.crawl import Crawl
from sitegen.records.pages import PageRecord
from sitegen.state.caches import STATE_VERSION as STATE_VERSION
from sitegen.state.files import Unreadable, parse_json, read_state, set_aside

#: JSON only: nothing read back from the cache is ever unpickled or evaluated.
STATE_FILE = "pages.json"


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """sitegen's version and a hash of its own code: a build by other code is never taken
    for this one's (an upgrade, or a checkout of sitegen itself, re-renders everything)."""
    package = Path(__file__).parent
    files = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".scm") and p.is_file())
    code = hashlib.sha256()
    for path in files:
        code.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{code.hexdigest()[:16]}"


def digest(*parts: Any) -> str:
    """A stable hash of plain values (str, bytes, numbers, tuples, lists, dicts, dataclasses,
    enums). By their repr, not pickle: pickle's output depends on which equal objects happen
    to be shared, so equal inputs could hash differently."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def digest_each(*parts: Iterable[Any]) -> str:
    """A stable hash of sequences of plain values, taken an item at a time, so a sequence
    made as it is read (every edge of the graph) is never held whole, nor its repr. Items
    are separated by a NUL and parts by a \\x01: a repr spells both escaped, so no two
    different inputs run together."""
    h = hashlib.sha256()
    for part in parts:
        for item in part:
            h.update(repr(item).encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        h.update(b"\1")
    return h.hexdigest()


@dataclass
class BuildState:
    #: repository path -> the page record extracted from the bytes of that content hash
    pages: dict[str, PageRecord] = field(default_factory=dict)
    #: Cache entries that failed validation on load (dropped; their pages are parsed again).
    dropped: int = 0
    #: repository path -> the record read from the cache and the line it was read from:
    #: ``save_state`` writes that line again while ``pages`` holds that very record object.
    lines: dict[str, tuple[PageRecord, bytes]] = field(default_factory=dict)
    #: A page cache that could not be read at all, set aside (one warning).
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: What the records were extracted under (``pages_key``): a cache of another key is
    #: not read, and ``save_state`` writes this one.
    key: str = ""

    def page(self, path: str, content_hash: str) -> PageRecord | None:
        rec = self.pages.get(path)
        return rec if rec is not None and rec.content_hash == content_hash else None


def pages_key(config: Config, plugins: str = "") -> str:
    """What a page record is extracted under besides its bytes and sitegen's code: the
    options declared ``Rebuild.PAGES`` (as the pages read them) and the loaded ``plugins``
    (``sitegen.plugins.plugins_key``). A change of either reads every page again."""
    return digest(declared_options(config, Rebuild.PAGES), plugins)


def load_state(cache_dir: Path, clean: bool, key: str | None = None) -> BuildState:
    """The page cache of records extracted under ``key`` (``pages_key``; a build always
    passes its own, None reads the cache whatever its key, to look into it), validated line
    by line; a malformed line is dropped, never trusted. A file that cannot be read, or whose
    first line is not a page cache's, is set aside; one of another key is not read."""
    path = cache_dir / STATE_FILE
    if clean:
        return BuildState(key=key or "")
    try:
        data = read_state(path)
        if data is None:
            return BuildState(key=key or "")
        header, *lines = data.split(b"\n")
        key = _key_of(header) if key is None else key
        if header != _header(key):
            return _not_ours(header, key)
    except Unreadable as why:
        diagnostics = [set_aside(path, "the page cache", str(why))]
        return BuildState(diagnostics=diagnostics, key=key or "")
    state = BuildState(key=key)
    for line in lines:
        if not line:
            continue  # the end of the file
        rec = _read_line(line)
        if rec is None or rec.path in state.lines:
            state.dropped += 1
            continue
        state.pages[rec.path] = rec
        state.lines[rec.path] = (rec, line)
    return state


def save_state(cache_dir: Path, state: BuildState) -> None:
    """Write the page cache: the line read for a record that ``state.pages`` still holds (the
    same object, so the same bytes were extracted), a new line for every other record."""
    kept: dict[str, tuple[PageRecord, bytes]] = {}

    def lines() -> Iterator[bytes]:  # a line at a time: never the whole file in memory
        yield _header(state.key) + b"\n"
        for path in sorted(state.pages):
            rec = state.pages[path]
            read = state.lines.get(path)
            line = read[1] if read is not None and read[0] is rec else _encode_line(path, rec)
            if line is not None:
                kept[path] = (rec, line)
                yield line + b"\n"

    write_atomically(cache_dir / STATE_FILE, lines())
    state.lines = kept


def _header(key: str) -> bytes:
    return json.dumps([STATE_VERSION, code_version(), key]).encode()


def _key_of(header: bytes) -> str:
    """The options' key a header of version 5 names (its third value); "" for any other."""
    found = parse_json(header) if len(header) <= 4096 else None
    if isinstance(found, list) and len(found) == 3 and isinstance(found[2], str):
        return found[2]
    return ""


def _not_ours(header: bytes, key: str) -> BuildState:
    """Another version's cache (its header a version, a code version and, from version 5, the
    options' key) or one of other options is simply not ours to read; any other first line
    is a damaged cache: ``Unreadable``."""
    if header.startswith(b'{"version": ['):
        return BuildState(key=key)  # version 3 and before: one document, its version first
    found = parse_json(header) if len(header) <= 4096 else None
    if type(found) is not list or len(found) not in (2, 3) or type(found[0]) is not int:
        raise Unreadable("its first line is not a page cache's header")
    return BuildState(key=key)


#: Only a line that holds a tagged date needs ``revive_front_matter`` called on its objects.
_TAGGED = b'"$sitegen-'


def _read_line(line: bytes) -> PageRecord | None:
    """The record of one line ``[path, record]``, checked field by field; None if anything
    is off: not JSON, not that shape, a value of the wrong type, or a path that disagrees."""
    try:
        # A record may hold a lone surrogate (written with surrogatepass): it comes back.
        hook = revive_front_matter if _TAGGED in line else None
        entry = parse_json(line, hook, surrogates=True)
        if type(entry) is not list or len(entry) != 2:
            return None
        rec = PageRecord.from_dict(entry[1])
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError, Unreadable):
        return None
    return rec if rec.path == entry[0] else None


def _encode_line(path: str, rec: PageRecord) -> bytes | None:
    """One record's line; None for front matter that JSON cannot hold exactly (the page is
    then not cached, and parsed again by the next build)."""
    data = rec.to_dict()
    try:
        front = json.dumps(data["front_matter"], default=tag_front_matter)
        if json.loads(front, object_hook=revive_front_matter) != data["front_matter"]:
            return None
        line = json.dumps(
            [path, data], ensure_ascii=False, default=tag_front_matter, separators=(",", ":")
        )
    except (TypeError, ValueError, RecursionError):
        return None
    return line.encode("utf-8", "surrogatepass")


_DATE_TAG, _DATETIME_TAG = "$sitegen-date", "$sitegen-datetime"


def tag_front_matter(value: object) -> object:
    """YAML dates in front matter, as JSON objects that ``revive_front_matter`` reads back."""
    if isinstance(value, datetime.datetime):
        return {_DATETIME_TAG: value.isoformat()}
    if isinstance(value, datetime.date):
        return {_DATE_TAG: value.isoformat()}
    raise TypeError(f"not cacheable: {type(value).__name__}")


def revive_front_matter(obj: dict[str, Any]) -> object:
    if len(obj) == 1:
        ((key, value),) = obj.items()
        if key == _DATETIME_TAG and isinstance(value, str):
            return datetime.datetime.fromisoformat(value)
        if key == _DATE_TAG and isinstance(value, str):
            return datetime.date.fromisoformat(value)
    return obj


def input_fingerprint(
    config_repr: str,
    templates: Iterable[tuple[str, bytes]],
    files: Iterable[tuple[str, str]],
    extra: Any,
) -> str:
    """Everything a build reads: configuration, templates, and (path, content hash) of every file."""
    return digest(
        code_version(),
        config_repr,
        sorted((n, hashlib.sha256(d).hexdigest()) for n, d in templates),
        sorted(files),
        extra,
    )


BUILT_FILE = "built"
#: ``built`` holds one fingerprint (a SHA-256 in hex) and a newline, nothing else.
_FINGERPRINT_BYTES = 65


def finished_fingerprint(cache_dir: Path) -> str:
    """The fingerprint of the last build that finished everything; "" for none, or for a
    ``built`` that holds anything else (``mark_unfinished`` then sets it aside)."""
    try:
        return _fingerprint(read_state(cache_dir / BUILT_FILE, _FINGERPRINT_BYTES))
    except Unreadable:
        return ""


def _fingerprint(data: bytes | None) -> str:
    text = (data or b"").decode("ascii", "replace").removesuffix("\n")
    if data is not None and not (len(text) == 64 and all(c in _HEX for c in text)):
        raise Unreadable("not a fingerprint")
    return text


_HEX = frozenset("0123456789abcdef")


def mark_unfinished(cache_dir: Path) -> list[Diagnostic]:
    """Called before a build writes the store or the site. A ``built`` that is not a
    fingerprint is set aside with a warning, not just removed."""
    path = cache_dir / BUILT_FILE
    try:
        _fingerprint(read_state(path, _FINGERPRINT_BYTES))
    except Unreadable as why:
        return [set_aside(path, "the mark of the last finished build", str(why))]
    path.unlink(missing_ok=True)
    return []


def mark_finished(cache_dir: Path, fingerprint: str) -> None:
    write_atomically(cache_dir / BUILT_FILE, fingerprint + "\n")


@dataclass
class SiteRecord:
    """What a site folder holds: written into its marker file."""

    fingerprint: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    summary: str = ""
    #: Every file of the site folder (but the marker), relative to it: what sitegen may replace.
    files: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        import json

        return (
            json.dumps(
                {
                    "generator": "sitegen",
                    "version": __version__,
                    "fingerprint": self.fingerprint,
                    "summary": self.summary,
                    "diagnostics": [
                        [d.path, d.line, d.col, str(d.level), d.message, d.code]
                        for d in self.diagnostics
                    ],
                    "keys": dict(sorted(self.keys.items())),
                    "files": sorted(self.files),
                },
                ensure_ascii=False,
                separators=(",", ":"),
            )
            + "\n"
        )

    @classmethod
    def read(cls, marker: Path) -> SiteRecord:
        """What the marker says; an empty record (a full build) for a marker that is missing,
        of another version, or unsound in any way (read bounded, every value checked). The
        site folder is replaced whole by the build that follows, marker and all."""
        try:
            doc = parse_json(read_state(marker) or b"")
            if type(doc) is not dict or doc.get("version") != __version__:
                return cls()
            return cls(
                _text(doc["fingerprint"]),
                {_text(k): _text(v) for k, v in _of(doc["keys"], dict).items()},
                [_diagnostic(row) for row in _of(doc["diagnostics"], list)],
                _text(doc["summary"]),
                [_text(f) for f in _of(doc.get("files", []), list)],
            )
        except (Unreadable, ValueError, KeyError, TypeError):
            return cls()


def _of(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise TypeError(f"expected {kind.__name__}")
    return value


def _text(value: Any) -> str:
    return str(_of(value, str))


def _diagnostic(row: Any) -> Diagnostic:
    from sitegen.base.diagnostics import Level

    path, line, col, level, message, code = _of(row, list)
    return Diagnostic(
        _text(path), _of(line, int), _of(col, int), Level(level), _text(message), _text(code)
    )


def site_fingerprint(
    config: Config,
    found: Crawl,
    templates: Iterable[tuple[str, bytes]],
    head: str,
    url_style: str = "",
    plugins: str = "",
) -> str:
    """The whole input of a site build: the options declared to change output (``Rebuild``
    PAGES or SITE, ``sitegen.config.OPTION_REBUILD``), the loaded ``plugins``
    (``sitegen.plugins.plugins_key``), the ``templates`` (name and bytes), the commit ``head``
    (the pages' dates change with it), every file, and the URL style the build publishes in
    (decided from the options and mkdocs.yml)."""
    # Output is the same for every --jobs and wherever the project lies (both declared
    # NOTHING), but for the default title, the folder's name, which site_title carries.
    options = (
        declared_options(config, Rebuild.SITE),
        config.site_title,
        head,
        url_style,
        plugins,
    )
    files: list[tuple[str, str]] = [(f.path, f.content_hash) for f in found.pages]
    files += [(f.path, f.content_hash) for f in found.code]
    files += sorted(found.asset_hashes.items())
    files += [
        ("snippet:" + n, hashlib.sha256(d).hexdigest()) for n, d in sorted(found.snippets.items())
    ]
    # Where a snippet was read from, and why one was not (its size is in the warning).
    files += [("snippet-path:" + n, p) for n, p in sorted(found.snippet_paths.items())]
    files += [("snippet-unread:" + n, why) for n, why in sorted(found.unread_snippets.items())]
    # The project's shortcode templates (content/syntax/shortcodes.md), read, never published.
    files += [
        ("shortcode:" + n, hashlib.sha256(d).hexdigest())
        for n, d in sorted(found.shortcodes.items())
    ]
    files += [
        (p, hashlib.sha256(t.encode()).hexdigest()) for p, t in sorted(found.manifests.items())
    ]
    files += [
        ("inventory:" + p, hashlib.sha256(d if isinstance(d, bytes) else d.encode()).hexdigest())
        for p, d in sorted(found.inventories.items())
    ]
    return input_fingerprint(
        repr(options),
        templates,
        files,
        (sorted(found.all_paths), sorted(found.diagnostics)),
    )
