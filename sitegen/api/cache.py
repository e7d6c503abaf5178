"""The API model kept between builds: ``.sitegen/api.json``, one entry per top-level package,
keyed by the hashes of its files, griffe's version and this file's schema number.

Never runs griffe and never reads a source file. What it reads back is bounded and checked
field by field (sitegen/state/files.py): a file that does not check is set aside with one warning,
and every package in it is read again.
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.fsutil import write_atomically
from sitegen.records.api import (
    ApiKind,
    ApiObject,
    Docstring,
    Expression,
    Overload,
    Parameter,
    TypeRef,
)
from sitegen.state.caches import API_CACHE_SCHEMA as SCHEMA
from sitegen.state.files import Unreadable, read_json, set_aside

FILE_NAME = "api.json"


@dataclass(frozen=True)
class AliasSite:
    """An alias (``from x import Y`` makes ``pkg.mod.Y``): the path it names (first hop) and
    where it is written, for the warning about a cycle of aliases."""

    target: str
    file: str
    line: int


@dataclass
class PackageEntry:
    """One top-level package as loaded: its objects, its aliases and the warnings its files
    gave (a syntax error, a docstring cut), replayed when the entry is reused."""

    key: str
    objects: dict[str, ApiObject] = field(default_factory=dict)
    aliases: dict[str, AliasSite] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def read_cache(path: Path, version: str) -> tuple[dict[str, PackageEntry], list[Diagnostic]]:
    """The entries of ``path`` when it was written with ``version`` (griffe's) and this
    schema; {} when there is none or it was written otherwise. A file that does not check is
    set aside: {} and one warning."""
    try:
        doc = read_json(path)
        if doc is None:
            return {}, []
        if not isinstance(doc, dict):
            raise Unreadable("not an API cache")
        if doc.get("schema") != SCHEMA or doc.get("griffe") != version:
            return {}, []  # written by another sitegen or griffe: a miss, not an error
        packages = _dict(doc["packages"])
        with without_gc():  # tens of thousands of small records: no collection in between
            return {_str(name): _entry(value) for name, value in packages.items()}, []
    except (Unreadable, KeyError, TypeError, ValueError) as why:
        reason = str(why) if isinstance(why, Unreadable) else "a value that does not check"
        return {}, [set_aside(path, "the API cache", reason)]


def write_cache(path: Path, version: str, entries: dict[str, PackageEntry]) -> None:
    """Replace ``path`` by ``entries`` (sorted, so the same model gives the same bytes)."""
    doc = {
        "schema": SCHEMA,
        "griffe": version,
        "packages": {name: _entry_doc(entries[name]) for name in sorted(entries)},
    }
    # As UTF-8, not \u escapes: an emoji's escaped surrogate pair would make the reader
    # walk every value looking for a lone one (sitegen/state/files.py).
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    write_atomically(path, text, durable=False)


# Writing: each record as a JSON array of its fields, in the order of the dataclass.


def _entry_doc(entry: PackageEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "objects": [_object_doc(entry.objects[p]) for p in sorted(entry.objects)],
        "aliases": [[p, a.target, a.file, a.line] for p, a in sorted(entry.aliases.items())],
        "diagnostics": [
            [d.path, d.line, d.col, str(d.level), d.message, d.code] for d in entry.diagnostics
        ],
    }


def _object_doc(obj: ApiObject) -> list[Any]:
    return [
        obj.canonical,
        obj.name,
        str(obj.kind),
        obj.file,
        obj.lineno,
        obj.endlineno,
        list(obj.labels),
        None if obj.docstring is None else [obj.docstring.text, obj.docstring.line],
        [_parameter_doc(p) for p in obj.parameters],
        _expr_doc(obj.returns),
        _expr_doc(obj.annotation),
        _expr_doc(obj.value),
        [_expr_doc(b) for b in obj.bases],
        [list(m) for m in obj.members],
        None if obj.exports is None else list(obj.exports),
        obj.is_public,
        list(obj.decorators),
        obj.external,
        obj.is_imported,
        [[[_parameter_doc(p) for p in o.parameters], _expr_doc(o.returns)] for o in obj.overloads],
    ]


def _parameter_doc(p: Parameter) -> list[Any]:
    return [p.name, p.kind, _expr_doc(p.annotation), _expr_doc(p.default)]


def _expr_doc(expr: Expression | None) -> list[Any] | None:
    if expr is None:
        return None
    return [expr.text, *[[ref.text, ref.path] for ref in expr.names]]


# Reading: every value checked; a wrong type raises TypeError, a wrong length ValueError.


def _entry(value: Any) -> PackageEntry:
    doc = _dict(value)
    objects = [_object(item) for item in _list(doc["objects"])]
    aliases = {}
    for item in _list(doc["aliases"]):
        path, target, file, line = _list(item, 4)
        aliases[_str(path)] = AliasSite(_str(target), _str(file), _int(line))
    diagnostics = []
    for item in _list(doc["diagnostics"]):
        path, line, col, level, message, code = _list(item, 6)
        diagnostics.append(
            Diagnostic(_str(path), _int(line), _int(col), Level(level), _str(message), _str(code))
        )
    return PackageEntry(_str(doc["key"]), {o.canonical: o for o in objects}, aliases, diagnostics)


def _object(value: Any) -> ApiObject:
    (canonical, name, kind, file, lineno, endlineno, labels, docstring, parameters, returns,
     annotation, attr_value, bases, members, exports, public, decorators, external,
     imported, overloads) = _list(value, 20)  # fmt: skip
    return ApiObject(
        canonical=_str(canonical),
        name=_str(name),
        kind=ApiKind(kind),
        file=_str(file),
        lineno=_int(lineno),
        endlineno=_int(endlineno),
        labels=_strs(labels),
        docstring=None if docstring is None else _docstring(docstring),
        parameters=tuple(_parameter(p) for p in _list(parameters)),
        returns=_expr(returns),
        annotation=_expr(annotation),
        value=_expr(attr_value),
        bases=tuple(_required(_expr(b)) for b in _list(bases)),
        members=tuple(_pair(m) for m in _list(members)),
        exports=None if exports is None else _strs(exports),
        is_public=_bool(public),
        decorators=_strs(decorators),
        external=_bool(external),
        is_imported=_bool(imported),
        overloads=tuple(_overload(o) for o in _list(overloads)),
    )


def _overload(value: Any) -> Overload:
    parameters, returns = _list(value, 2)
    return Overload(tuple(_parameter(p) for p in _list(parameters)), _expr(returns))


def _docstring(value: Any) -> Docstring:
    text, line = _list(value, 2)
    return Docstring(_str(text), _int(line))


def _parameter(value: Any) -> Parameter:
    name, kind, annotation, default = _list(value, 4)
    return Parameter(_str(name), _str(kind), _expr(annotation), _expr(default))


def _expr(value: Any) -> Expression | None:
    if value is None:
        return None
    items = _list(value)
    if not items:
        raise ValueError("an empty expression")
    return Expression(_str(items[0]), tuple(TypeRef(*_pair(ref)) for ref in items[1:]))


def _pair(value: Any) -> tuple[str, str]:
    first, second = _list(value, 2)
    return _str(first), _str(second)


def _required(expr: Expression | None) -> Expression:
    if expr is None:
        raise TypeError("a base that is null")
    return expr


def _dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("not an object")
    return value


def _list(value: Any, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not an array")
    if length is not None and len(value) != length:
        raise ValueError(f"{len(value)} items where {length} belong")
    return value


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(_str(item) for item in _list(value))


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError("not an integer")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not a boolean")
    return value


@contextlib.contextmanager
def without_gc() -> Iterator[None]:
    """No cyclic garbage collection while many small records are made at once (a load of
    pydantic makes some 100,000): the collector would walk them again and again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
