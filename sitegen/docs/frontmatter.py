"""A page's front matter as JSON-safe data, and its typed relations (content/reference/edges.md).

Bad metadata is a warning, never an exception: the page renders without it. Never resolves a
ref (self-references are the linker's to skip, since only it knows what a ref points at).
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.yamldata import describe, read_yaml
from sitegen.records.pages import Relation

#: Front matter is a handful of keys; anything bigger is an alias bomb or a mistake.
_MAX_NODES = 20_000
_PREDICATE = re.compile(r"[a-z0-9-]+")
REL_PREFIX = "rel-"
_COLON_PREFIX = "rel:"


@dataclass
class FrontMatter:
    data: dict[str, Any] = field(default_factory=dict)  # JSON-safe
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> 1-based file line
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _Unsafe(Exception):
    """The YAML is too big or recursive to turn into plain data."""


def parse_front_matter(text: str, path: str, first_line: int = 2) -> FrontMatter:
    """Parse the YAML between the ``---`` fences, whose first line is file line ``first_line``.

    Read by the one bounded YAML reader (sitegen/base/yamldata.py: size, depth and aliases checked
    before anything is built); the parser gives each top-level key's line, so no line is
    searched for a key (10,000 keys took 23.6 s that way)."""
    try:
        document = read_yaml(text)
    except yaml.YAMLError as exc:
        return FrontMatter(diagnostics=[_yaml_error(exc, text, path, first_line)])
    loaded = document.data
    if loaded is None:
        return FrontMatter()
    if not isinstance(loaded, dict):
        kind = "a list" if isinstance(loaded, list) else f"a {type(loaded).__name__} value"
        return FrontMatter(
            diagnostics=[
                _warn(
                    path,
                    first_line,
                    f"front matter must be a mapping of keys to values, found {kind}; it is ignored.",
                )
            ]
        )
    try:
        data = _json_safe(loaded, [_MAX_NODES], set())
    except _Unsafe as exc:
        return FrontMatter(
            diagnostics=[_warn(path, first_line, f"front matter {exc}; it is ignored.")]
        )
    lines = {key: first_line + document.key_lines.get(key, 0) for key in data}
    return FrontMatter(data=data, key_lines=lines)


def _yaml_error(exc: yaml.YAMLError, text: str, path: str, first_line: int) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None)
    context = getattr(exc, "context_mark", None)
    if context is not None and (mark is None or mark.index >= len(text.rstrip())):
        mark = context  # the problem is the end of the text: point at what was left open
    line = first_line + mark.line if mark is not None else first_line
    col = mark.column + 1 if mark is not None else 1
    return Diagnostic(
        path,
        line,
        col,
        Level.WARNING,
        f"front matter {describe(exc)}; it is ignored and the page renders without it.",
        "front-matter",
    )


def _warn(path: str, line: int, message: str, code: str = "front-matter") -> Diagnostic:
    return Diagnostic(path, max(line, 1), 1, Level.WARNING, message, code)


def _json_safe(value: Any, budget: list[int], active: set[int]) -> Any:
    """Plain JSON data: string keys, dates as ISO strings, no NaN, no shared or cyclic nodes."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _Unsafe(f"is too large (more than {_MAX_NODES} values)")
    if isinstance(value, (dict, list, set)):
        if id(value) in active:
            raise _Unsafe("refers to itself through a YAML alias")
        active.add(id(value))
        try:
            if isinstance(value, dict):
                return {_key(k): _json_safe(v, budget, active) for k, v in value.items()}
            items = sorted(value, key=str) if isinstance(value, set) else value
            return [_json_safe(v, budget, active) for v in items]
        finally:
            active.discard(id(value))
    return _scalar(value)


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _key(key: Any) -> str:
    # YAML 1.1 turns `on:` into True and `2024:` into 2024; JSON keys are strings.
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    scalar = _scalar(key)
    return scalar if isinstance(scalar, str) else str(scalar)


def relations(
    front_matter: dict[str, Any], key_lines: dict[str, int], path: str = ""
) -> tuple[list[Relation], list[Diagnostic]]:
    """The ``rel-<predicate>`` relations declared by a page, in key order, and what was wrong.

    A value is a comma-separated string or a YAML list of refs. Empty refs, refs containing
    whitespace and the empty predicate ``rel-`` are skipped silently; ``rel:<predicate>`` and
    predicates outside ``[a-z0-9-]`` are reported and not ingested. Refs are kept as written:
    resolving them, and skipping those that point at the page itself, is the linker's job.
    """
    found: list[Relation] = []
    problems: list[Diagnostic] = []
    for key, value in front_matter.items():
        line = key_lines.get(key, 1)
        if key.startswith(_COLON_PREFIX) and key != _COLON_PREFIX:
            hyphen = REL_PREFIX + key[len(_COLON_PREFIX) :]
            problems.append(
                _warn(
                    path,
                    line,
                    f"front-matter key '{key}' is ignored: relation keys "
                    f"use a hyphen, not a colon; write '{hyphen}'.",
                    "relation",
                )
            )
            continue
        if not key.startswith(REL_PREFIX) or key == REL_PREFIX:
            continue
        predicate = key[len(REL_PREFIX) :]
        if not _PREDICATE.fullmatch(predicate):
            problems.append(_bad_predicate(path, line, key))
            continue
        refs, complaint = _refs(value)
        if complaint:
            problems.append(_warn(path, line, f"front-matter key '{key}': {complaint}", "relation"))
        found.extend(Relation(predicate, ref, line) for ref in refs)
    return found, problems


def _bad_predicate(path: str, line: int, key: str) -> Diagnostic:
    suggestion = REL_PREFIX + re.sub(r"[^a-z0-9-]+", "-", key[len(REL_PREFIX) :].lower()).strip("-")
    valid = _PREDICATE.fullmatch(suggestion[len(REL_PREFIX) :])
    hint = f" Did you mean '{suggestion}'?" if valid else ""
    return _warn(
        path,
        line,
        f"front-matter key '{key}' is ignored: relation predicates use only "
        f"a-z, 0-9 and '-'.{hint}",
        "relation",
    )


def _refs(value: Any) -> tuple[list[str], str]:
    """The well-formed refs of a value, and a complaint about items that are not refs at all."""
    if value is None:
        return [], ""
    if isinstance(value, str):
        candidates = value.split(",")
    elif isinstance(value, list):
        if not all(item is None or isinstance(item, str) for item in value):
            return [], "each item of the list must be a ref (text); the value is ignored."
        candidates = [item for item in value if item is not None]
    else:
        return [], "the value must be a ref, comma-separated refs or a list of refs; it is ignored."
    refs = [c.strip() for c in candidates]
    return [r for r in refs if r and not any(ch.isspace() for ch in r)], ""
