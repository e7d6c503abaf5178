"""The per-file extraction cache (content/reference/serialization.md#shards), in .metast JSON Lines.

Shard schema version 6 (5 plus ``flow`` rows, content/guides/builds.md): declared
in ``header.json`` and in every record; stable endpoint names, never numeric ids. Writes are
atomic; reads are bounded and checked (``sitegen/state/files.py``), and a shard or header that
cannot be read is set aside with a warning and made again. This module reads and writes only
its own folder.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from sitegen.base.diagnostics import Diagnostic, Level, cut
from sitegen.base.fsutil import write_atomically
from sitegen.base.languages import LangId
from sitegen.records.code import (
    Binding,
    CodeRecord,
    CommentLink,
    DataValue,
    Flow,
    Import,
    MetacallCall,
    MetacallLoad,
    Reference,
    Symbol,
    SymbolKind,
    Visibility,
    optional_range_from_json,
    range_from_json,
    range_json,
)
from sitegen.records.code_graph import file_endpoint, symbol_endpoint
from sitegen.state.caches import SHARD_SCHEMA_VERSION as SHARD_SCHEMA_VERSION
from sitegen.state.files import Unreadable, parse_json, read_json, read_state, set_aside, shown

VERSION_KEY = "shard_schema_version"
SHARD_SUFFIX = ".metast"
HEADER_FILE = "header.json"


class ShardVersionError(ValueError):
    """A shard (or header) written by another schema version: it must be regenerated."""

    def __init__(self, found: object, where: str = "") -> None:
        self.found = found
        self.expected = SHARD_SCHEMA_VERSION
        place = f"{where}: " if where else ""
        super().__init__(
            f"{place}shard schema version {cut(repr(found), 40)} found, this sitegen reads "
            f"version {SHARD_SCHEMA_VERSION} only; the cache must be regenerated"
        )


class ShardFormatError(ValueError):
    """A shard that is not valid JSON Lines of the expected records."""


def content_hash(data: bytes) -> str:
    """The hash a record carries (the same as ``extract_source`` computes)."""
    return hashlib.sha256(data).hexdigest()


def shard_digest(raw: bytes) -> str:
    """What names a shard's bytes, hence the record read from them (``CodeRecord.shard_digest``)."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


# ---------------------------------------------------------------- record <-> lines


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def dump_shard(record: CodeRecord) -> tuple[str, list[Diagnostic]]:
    """The shard text of ``record``, and warnings for dropped non-UTF-8 import specifiers."""
    file_id = file_endpoint(record.language, record.path)
    dropped = [imp for imp in record.imports if not _utf8(imp.specifier)]
    warnings = [
        Diagnostic(
            record.path,
            imp.line,
            1,
            Level.WARNING,
            "import specifier is not valid UTF-8; it is not cached",
            "utf8",
        )
        for imp in dropped
    ]
    rows: list[dict[str, Any]] = [
        {
            "record": "file",
            "endpoint": file_id,
            "path": record.path,
            "language": str(record.language),
            "content_hash": record.content_hash,
            "has_error": record.has_error,
            "default_export": record.default_export,
        }
    ]
    rows += [_symbol_row(file_id, s) for s in record.symbols]
    rows += [_import_row(i) for i in record.imports if i not in dropped]
    rows += _use_rows(file_id, record)
    rows += _flow_rows(file_id, record)
    rows += [_diagnostic_row(d) for d in record.diagnostics]
    # The closing row lets a reader tell a complete shard from one cut short at a line end.
    rows.append({"record": "end", "rows": len(rows)})
    for row in rows:  # fresh dicts, and the encoder sorts the keys: no copy to put it first
        row[VERSION_KEY] = SHARD_SCHEMA_VERSION
    return "\n".join(map(_encode_row, rows)) + "\n", warnings


def _use_rows(file_id: str, record: CodeRecord) -> list[dict[str, Any]]:
    """What the file uses: references, metacalls and their loads, links in comments."""
    rows: list[dict[str, Any]] = [
        {
            "record": "reference",
            "name": r.name,
            "kind": r.kind,
            "line": r.line,
            "enclosing": _scope(file_id, r.enclosing),
        }
        for r in record.references
    ]
    rows += [
        {
            "record": "metacall",
            "function": m.function,
            "line": m.line,
            "enclosing": _scope(file_id, m.enclosing),
        }
        for m in record.metacalls
    ]
    rows += [
        {"record": "metacall_load", "tag": m.tag, "paths": list(m.paths), "line": m.line}
        for m in record.metacall_loads
    ]
    rows += [
        {
            "record": "link",
            "href": k.href,
            "label": k.label,
            "offset": k.offset,
            "line": k.line,
            "column": k.column,
        }
        for k in record.links
    ]
    return rows


def _diagnostic_row(d: Diagnostic) -> dict[str, Any]:
    return {
        "record": "diagnostic",
        "path": d.path,
        "line": d.line,
        "col": d.col,
        "level": str(d.level),
        "message": d.message,
        "code": d.code,
    }


def _row_encoder() -> Callable[[dict[str, Any]], str]:
    """``json.dumps(row, sort_keys=True)``, same text, with one encoder for every row: dumps
    builds a new encoder per call when asked to sort keys, which cost more than the row."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the plain call
        return functools.partial(json.dumps, sort_keys=True)
    encode = make(
        None,  # no cycle markers: a row is a tree of plain values
        json.JSONEncoder().default,
        json.encoder.encode_basestring_ascii,
        None,
        ": ",
        ", ",
        True,
        False,
        True,
    )
    return lambda row: "".join(encode(row, 0))


_encode_row = _row_encoder()


def _flow_rows(file_id: str, record: CodeRecord) -> list[dict[str, Any]]:
    """One ``flow`` row per function: its values and def-use edges, each value named by the
    suffix of its endpoint after the function's (``$x@3:5``), so rows stay small."""
    owner_of = {v.id: v.symbol_id or file_id for v in record.data}
    rows: dict[str, dict[str, Any]] = {}
    for v in record.data:
        owner = owner_of[v.id]
        row = rows.setdefault(owner, {"record": "flow", "owner": owner, "values": [], "edges": []})
        row["values"].append(
            [v.id[len(owner) :], v.scope, v.type_hint, v.name, v.line, v.symbol_id is not None]
        )
    for f in record.flows:
        owner = owner_of.get(f.src, file_id)
        rows[owner]["edges"].append([f.src[len(owner) :], f.dst[len(owner) :], f.line, f.kind])
    return list(rows.values())


def _scope(file_id: str, qualified_name: str | None) -> str | None:
    return symbol_endpoint(file_id, qualified_name) if qualified_name else None


def _symbol_row(file_id: str, s: Symbol) -> dict[str, Any]:
    row: dict[str, Any] = {
        "record": "symbol",
        "endpoint": symbol_endpoint(file_id, s.qualified_name),
        "name": s.name,
        "qualified_name": s.qualified_name,
        "kind": str(s.kind).lower(),
        "visibility": str(s.visibility).lower() if s.visibility else None,
        "source_range": range_json(s.source_range),
        "parent": _scope(file_id, s.parent),
    }
    if s.name_range is not None:
        row["name_range"] = range_json(s.name_range)
    return row


def _import_row(i: Import) -> dict[str, Any]:
    return {
        "record": "import",
        "specifier": i.specifier,
        "form": i.form,
        "line": i.line,
        "bindings": [{"name": b.name, "alias": b.alias} for b in i.bindings],
        "star": i.star,
        "level": i.level,
        "alias": i.alias,
        **({"context": i.context} if i.context else {}),
    }


def load_shard(text: str, where: str = "") -> CodeRecord:
    """Parse a shard; ``ShardVersionError`` for another version, ``ShardFormatError`` if broken.
    ``where`` names the shard in a version error."""
    rows = _rows(text, where)
    if not rows or rows[0].get("record") != "file":
        raise ShardFormatError("a shard starts with its file record")
    if rows[-1].get("record") != "end" or rows[-1].get("rows") != len(rows) - 1:
        raise ShardFormatError("the shard is incomplete (no closing record)")
    rows.pop()
    try:
        return _record(rows)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ShardFormatError(f"malformed record: {cut(repr(err))}") from None


def _rows(text: str, where: str) -> list[dict[str, Any]]:
    """Every line parsed on its own: a line that is not JSON, or a row of another version,
    raises with the line's number."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except Unreadable as err:  # bad JSON, huge numbers, deep nesting, lone surrogates
            raise ShardFormatError(f"line {number}: {err}") from None
        if not isinstance(row, dict) or row.get(VERSION_KEY) != SHARD_SCHEMA_VERSION:
            found = row.get(VERSION_KEY) if isinstance(row, dict) else None
            raise ShardVersionError(found, f"{where}:{number}" if where else f"line {number}")
        rows.append(row)
    return rows


def _record(rows: list[dict[str, Any]]) -> CodeRecord:
    head = rows[0]
    file_id = head["endpoint"]
    if file_id != file_endpoint(LangId(head["language"]), head["path"]):
        raise ValueError(f"endpoint {file_id!r} does not name {head['path']!r}")
    rec = CodeRecord(
        head["path"],
        LangId(head["language"]),
        head["content_hash"],
        has_error=bool(head.get("has_error", False)),
        default_export=head.get("default_export"),
    )
    for row in rows[1:]:
        _READERS.get(row["record"], lambda _r, _f, _row: None)(rec, file_id, row)
    return rec


def _qualified(file_id: str, endpoint: str | None) -> str | None:
    """The qualified name an endpoint of this file names (ids are regenerated on load)."""
    if endpoint is None:
        return None
    prefix = file_id + "::"
    if not endpoint.startswith(prefix):
        raise ValueError(f"endpoint {endpoint!r} is not in {file_id!r}")
    return endpoint[len(prefix) :]


def _read_symbol(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    qn = _qualified(file_id, row["endpoint"])
    if qn != row.get("qualified_name", qn):
        raise ValueError(f"symbol endpoint {row['endpoint']!r} and name disagree")
    kind, visibility = row["kind"], row.get("visibility")
    rec.symbols.append(
        Symbol(
            row["name"],
            qn or "",
            _enum(_KINDS, SymbolKind, kind),
            _enum(_VISIBILITIES, Visibility, visibility) if visibility is not None else None,
            range_from_json(row["source_range"]),
            optional_range_from_json(row.get("name_range")),
            _qualified(file_id, row.get("parent")),
        )
    )


_KINDS = {str(kind): kind for kind in SymbolKind}
_VISIBILITIES = {str(v): v for v in Visibility}


def _enum(table: dict[str, Any], enum: Any, value: Any) -> Any:
    """``enum(value)`` through a table of its members (an enum call costs a microsecond,
    as much as the rest of a row); a value not in the table goes to the call, which refuses
    it as it always did."""
    member = table.get(value) if type(value) is str else None
    return member if member is not None else enum(value)


def _read_import(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    rec.imports.append(
        Import(
            row["specifier"],
            row["form"],
            int(row["line"]),
            tuple(Binding(b["name"], b.get("alias")) for b in row.get("bindings", [])),
            bool(row.get("star", False)),
            int(row.get("level", 0)),
            row.get("alias"),
            str(row.get("context", "")),
        )
    )


def _read_reference(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    enclosing = row.get("enclosing")
    prefix = file_id + "::"
    rec.references.append(
        Reference(
            row["name"],
            row["kind"],
            int(row["line"]),
            # _qualified's common case inline: the most frequent row of a shard
            enclosing[len(prefix) :]
            if type(enclosing) is str and enclosing.startswith(prefix)
            else _qualified(file_id, enclosing),
        )
    )


def _read_metacall(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    rec.metacalls.append(
        MetacallCall(row["function"], int(row["line"]), _qualified(file_id, row.get("enclosing")))
    )


def _read_load(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    rec.metacall_loads.append(MetacallLoad(row["tag"], tuple(row["paths"]), int(row["line"])))


def _read_link(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    rec.links.append(
        CommentLink(
            row["href"], row["label"], int(row["offset"]), int(row["line"]), int(row["column"])
        )
    )


def _read_flow(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    owner = str(row["owner"])
    if owner != file_id:
        _qualified(file_id, owner)  # a function of this file, or the shard is malformed
    rec.data += [
        DataValue(
            owner + suffix, owner if in_symbol else None, str(scope), hint, str(name), int(line)
        )
        for suffix, scope, hint, name, line, in_symbol in row["values"]
    ]
    rec.flows += [
        Flow(owner + src, owner + dst, int(line), str(kind))
        for src, dst, line, kind in row["edges"]
    ]


def _read_diagnostic(rec: CodeRecord, file_id: str, row: dict[str, Any]) -> None:
    rec.diagnostics.append(
        Diagnostic(
            row["path"],
            int(row["line"]),
            int(row["col"]),
            Level(row["level"]),
            row["message"],
            row.get("code", ""),
        )
    )


_READERS = {
    "symbol": _read_symbol,
    "import": _read_import,
    "reference": _read_reference,
    "metacall": _read_metacall,
    "metacall_load": _read_load,
    "link": _read_link,
    "diagnostic": _read_diagnostic,
    "flow": _read_flow,
}


# ---------------------------------------------------------------- the cache folder


def read_header(folder: Path) -> int | None:
    """The folder's declared version (None without a header); ``ShardVersionError`` for any
    other version, ``Unreadable`` for a header that is not one."""
    doc = read_json(folder / HEADER_FILE)
    if doc is None:
        return None
    found = doc.get(VERSION_KEY) if isinstance(doc, dict) else None
    if type(found) is not int:
        raise Unreadable(f"not a shard header: no {VERSION_KEY}")
    if found != SHARD_SCHEMA_VERSION:
        raise ShardVersionError(found, shown(folder / HEADER_FILE))
    return found


class ShardCache:
    """``get`` / ``put`` / ``prune`` over ``<cache_dir>/shards/``; call ``open`` first (``get``
    opens on first use). A shard of another file or content is a miss: the file is extracted
    again; one that cannot be read is set aside with a warning first."""

    def __init__(self, cache_dir: Path) -> None:
        self.folder = Path(cache_dir) / "shards"
        self._opened = False
        #: Warnings of an implicit ``open`` (regenerated cache) and of shards set aside.
        self.diagnostics: list[Diagnostic] = []

    def open(self, clean: bool = False) -> list[Diagnostic]:
        """Make the folder usable: a cache in another schema version (or ``clean``) is wiped,
        with a warning in the first case, a header that cannot be read is set aside (and the
        cache wiped), and a current-version header written."""
        self._opened = True
        warnings: list[Diagnostic] = []
        header = self.folder / HEADER_FILE
        try:
            found = read_header(self.folder)
        except ShardVersionError as err:
            warnings.append(
                Diagnostic(
                    shown(header), 1, 1, Level.WARNING, f"{err}; regenerating it", "shard-version"
                )
            )
            found, clean = None, True
        except Unreadable as why:
            warnings.append(set_aside(header, "the code shards' header", str(why)))
            found, clean = None, True
        if clean or (found is None and self.folder.exists()):
            shutil.rmtree(self.folder, ignore_errors=True)
        if clean or found is None:
            write_atomically(header, json.dumps({VERSION_KEY: SHARD_SCHEMA_VERSION}) + "\n")
        return warnings

    def _ensure_open(self) -> None:
        if not self._opened:
            self.diagnostics += self.open()

    def shard_path(self, path: str) -> Path:
        digest = hashlib.sha256(path.encode("utf-8", errors="surrogatepass")).hexdigest()[:32]
        return self.folder / f"{digest}{SHARD_SUFFIX}"

    def get(self, path: str, content_hash: str) -> CodeRecord | None:
        """The cached record of ``path`` when it was extracted from the same content."""
        self._ensure_open()
        shard = self.shard_path(path)
        try:
            raw = read_state(shard)
            if raw is None:
                return None
            record = load_shard(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            self._set_aside(shard, f"not UTF-8 text: byte {err.start}")
            return None
        except (Unreadable, ShardFormatError, ShardVersionError) as why:
            self._set_aside(shard, str(why))
            return None
        if record.path != path or record.content_hash != content_hash:
            return None
        record.shard_digest = shard_digest(raw)
        return record

    def _set_aside(self, shard: Path, why: str) -> None:
        """A shard that cannot be read is renamed out of the way (``put`` writes it anew)."""
        self.diagnostics.append(set_aside(shard, "a code shard", why))

    def put(self, record: CodeRecord) -> list[Diagnostic]:
        """Store ``record`` atomically; returns warnings for specifiers it could not keep.
        The record learns its shard's digest when the shard holds all of it."""
        self._ensure_open()
        text, warnings = dump_shard(record)
        raw = text.encode("utf-8")
        # No fsync: a shard lost to a power cut is a miss (the closing row catches a cut tail).
        write_atomically(self.shard_path(record.path), raw, durable=False)
        if not warnings:  # a dropped import: the shard's record is not this one
            record.shard_digest = shard_digest(raw)
        return warnings

    def prune(self, keep_paths: Iterable[str]) -> int:
        """Delete shards of files not in ``keep_paths``; returns how many were deleted."""
        self._ensure_open()
        keep = {self.shard_path(p).name for p in keep_paths}
        removed = 0
        for shard in sorted(self.folder.glob(f"*{SHARD_SUFFIX}")):
            if shard.name not in keep:
                shard.unlink(missing_ok=True)
                removed += 1
        return removed

    def flush(self) -> None:
        """Nothing is buffered (every ``put`` is written at once); kept for callers' symmetry."""
