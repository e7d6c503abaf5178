"""YAML read as plain data within fixed bounds: the one reader of every YAML text sitegen
reads (front matter, ``mkdocs.yml``, Jekyll's ``_config.yml``, ``pnpm-workspace.yaml``).

Size, depth, values (aliases expanded), merge keys and number lengths are checked on the
text and its event stream before any value is built, so a hostile file costs time linear
in its size and never exhausts the stack (content/guides/safety.md#bad-input). Safe
loaders only: nothing in a file is imported or run. Never reads files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from sitegen.base.diagnostics import cut

#: Characters of YAML read at most; a longer text is refused before it is parsed.
MAX_CHARACTERS = 1_000_000
#: Collections nested deeper than this are refused (the constructors recurse per level).
MAX_DEPTH = 64
#: Values a text may stand for once every alias is expanded (a "billion laughs" is refused).
MAX_VALUES = 200_000
#: Merge keys (``<<``) in one text: each costs PyYAML a copy of its mapping.
MAX_MERGES = 100
#: Characters of a number: Python's own limit for converting a decimal integer.
MAX_NUMBER_CHARACTERS = 4_300

#: libyaml's parser with the same safe semantics as ``yaml.SafeLoader``, ~10x faster.
FAST_SAFE_LOADER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NUMBER_TAGS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"})
_RESOLVER = yaml.resolver.Resolver()


class YamlRefused(yaml.MarkedYAMLError):
    """A YAML text that is not built: ``problem`` says why, as the end of a sentence that
    starts with the file's name ("is nested more than 64 levels deep")."""


@dataclass(frozen=True)
class YamlDocument:
    data: Any
    #: Each key of the top-level mapping as written (unquoted), and the 0-based line of its
    #: first occurrence: found by the parser, so no line is searched for a key.
    key_lines: dict[str, int] = field(default_factory=dict)
    #: Each scalar as read, and the 0-based line and column of its first occurrence (inside
    #: the quote when it is quoted): where a value that a message names is written.
    places: dict[str, tuple[int, int]] = field(default_factory=dict)


def read_yaml(text: str, loader: type[yaml.SafeLoader] | None = None) -> YamlDocument:
    """The data of the YAML ``text`` (one document), built by ``loader`` (a ``SafeLoader``,
    libyaml's by default). Raises ``yaml.YAMLError``: ``YamlRefused`` for a text outside
    the bounds above or a value that cannot be built, the parser's own error otherwise."""
    cls: type[Any] = loader or FAST_SAFE_LOADER
    if len(text) > MAX_CHARACTERS:
        # Not "is N characters": a file may have been read only up to the limit.
        raise _refused(f"is longer than {MAX_CHARACTERS:,} characters, the limit")
    try:
        key_lines, places = _checked_events(yaml.parse(text, Loader=cls))
        data = yaml.load(text, Loader=cls)
    except UnicodeEncodeError as exc:  # libyaml reads UTF-8: a lone surrogate is none
        raise _not_text(text, exc.start) from None
    except yaml.reader.ReaderError as exc:  # PyYAML's reader: the same, with no line
        raise _not_text(text, min(exc.position, len(text) - 1)) from None
    except (ValueError, TypeError, OverflowError, IndexError, KeyError) as exc:
        # Constructors raise plain errors on values such as `2024-13-45` or `!!int 0x`, and
        # PyYAML's own (not libyaml's) an IndexError on an empty `!!int` (`&a !!int`).
        raise _refused(f"has a value YAML cannot build ({_first_clause(exc)})") from None
    return YamlDocument(data, key_lines, places)


def describe(exc: yaml.YAMLError) -> str:
    """What is wrong with a text that ``read_yaml`` raised ``exc`` for, to follow its name:
    "is not valid YAML (…)" or the bound it broke."""
    if isinstance(exc, YamlRefused):
        return str(exc.problem)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"is not valid YAML ({cut(str(problem))})"


def error_place(exc: yaml.YAMLError) -> tuple[int, int]:
    """The 0-based line and column ``exc`` points at: what was left open when the problem
    is the end of the text, (0, 0) when it names no place."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return (mark.line, mark.column) if mark is not None else (0, 0)


@dataclass
class _Open:
    """A collection being read: its anchor, the values counted before it, its children."""

    anchor: str | None
    start: int
    mapping: bool
    children: int = 0


def _checked_events(
    events: Iterator[yaml.Event],
) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Walk the event stream once, refusing at the first event beyond a bound; the lines
    of the top-level mapping's keys and the places of the scalars. ``sizes`` holds each
    anchor's expanded value count."""
    values, merges = 0, 0
    sizes: dict[str, int] = {}
    stack: list[_Open] = []
    key_lines: dict[str, int] = {}
    places: dict[str, tuple[int, int]] = {}
    for event in events:
        if isinstance(event, yaml.CollectionEndEvent):
            done = stack.pop()
            if done.anchor is not None:
                sizes[done.anchor] = values - done.start
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        parent = stack[-1] if stack else None
        is_key = parent is not None and parent.mapping and parent.children % 2 == 0
        if parent is not None:
            parent.children += 1
        if isinstance(event, yaml.AliasEvent):
            values += _alias_size(event, sizes, stack)
        else:
            values += 1
            if isinstance(event, yaml.ScalarEvent):
                _check_scalar(event)
                merges += is_key and event.value == "<<" and event.implicit[0]
                if is_key and len(stack) == 1:
                    key_lines.setdefault(event.value, _place_of(event)[0])
                places.setdefault(event.value, _place_of(event))
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            else:
                mapping = isinstance(event, yaml.MappingStartEvent)
                stack.append(_Open(event.anchor, values - 1, mapping))
                if len(stack) > MAX_DEPTH:
                    raise _refused(f"is nested more than {MAX_DEPTH} levels deep", event)
        if values > MAX_VALUES:
            raise _refused(f"stands for more than {MAX_VALUES:,} values (aliases expanded)", event)
        if merges > MAX_MERGES:
            raise _refused(f"has more than {MAX_MERGES} merge keys ('<<')", event)
    return key_lines, places


def _alias_size(event: yaml.AliasEvent, sizes: dict[str, int], stack: list[_Open]) -> int:
    anchor = str(event.anchor)
    if anchor in sizes:
        return sizes[anchor]
    if any(open_.anchor == anchor for open_ in stack):
        raise _refused(f"refers to itself through the alias '*{cut(anchor)}'", event)
    return 1  # an undefined alias: the composer reports it


def _check_scalar(event: yaml.ScalarEvent) -> None:
    """A number longer than Python converts (or, in base 60, costs quadratic time), resolved
    as the composer resolves it: by its tag, else by its text when it is plain."""
    value = str(event.value)
    if len(value) <= MAX_NUMBER_CHARACTERS:
        return
    tag = event.tag
    if tag is None or tag == "!":
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, event.implicit)  # type: ignore[no-untyped-call]
    if tag in _NUMBER_TAGS:
        raise _refused(f"has a number of more than {MAX_NUMBER_CHARACTERS:,} characters", event)


def _place_of(event: yaml.ScalarEvent) -> tuple[int, int]:
    mark = event.start_mark
    if mark is None:
        return (0, 0)
    return (mark.line, mark.column + (1 if event.style in ("'", '"') else 0))


def _refused(problem: str, event: yaml.Event | None = None) -> YamlRefused:
    """The error for ``problem``, at ``event`` (libyaml's marks are copied into PyYAML's)."""
    at = event.start_mark if event is not None else None
    line, column, index = (at.line, at.column, at.index) if at is not None else (0, 0, 0)
    return YamlRefused(
        problem=problem, problem_mark=yaml.Mark("<yaml>", index, line, column, None, 0)
    )


def _not_text(text: str, index: int) -> YamlRefused:
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    problem = f"is not valid YAML (U+{ord(text[index]):04X} is not allowed in YAML)"
    return YamlRefused(
        problem=problem, problem_mark=yaml.Mark("<yaml>", index, line, column, None, 0)
    )


def _first_clause(exc: Exception) -> str:
    """The first clause of an error's message (not Python's advice after it), cut short."""
    return cut(str(exc).split(":")[0].split(";")[0].strip() or type(exc).__name__)
