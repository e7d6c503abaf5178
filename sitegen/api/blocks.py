"""mkdocstrings' ``::: dotted.path`` blocks in a page's bytes: found outside code fences, their
indented YAML options read and checked, and each block's span with the markdown it becomes.

The spans are spliced in by the docs step like snippets and includes (sitegen/docs/
pipeline.py), so every position maps back to the ``:::`` line. Never reads a file and never
parses markdown (content/guides/api-reference.md).
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from sitegen.api.render import (
    ACCEPTED_OPTIONS,
    OPTION_CHOICES,
    OPTION_TYPES,
    RenderOptions,
    render_block,
)
from sitegen.base.yamldata import describe, read_yaml
from sitegen.records.api import ApiModel

#: ``::: pkg.mod.Name`` at column 0 to 3, alone on its line.
BLOCK_LINE = re.compile(
    rb"^(?P<indent> {0,3}):::[ \t]+(?P<path>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*\r?$",
    re.MULTILINE,
)
_FENCE = re.compile(rb"^[ \t]*(`{3,}|~{3,})")
#: Blocks of one page expanded at most (more are left as they are written, said once).
MAX_BLOCKS = 500
#: Problems one block's warning lists at most; the rest are counted.
MAX_LISTED = 5
#: The diagnostic code of a block's warnings (the loader's are ``api`` too).
API_CODE = "api"
#: Keys a block's YAML may hold besides ``options`` (mkdocstrings reads them).
_BLOCK_KEYS = frozenset({"options", "handler"})


@dataclass(frozen=True)
class ApiBlock:
    """One ``:::`` block: the span of its lines (the last line break left out), its target
    and its options as written."""

    start: int
    end: int
    line: int  # 1-based line of the ``:::`` line
    target: str
    options: Mapping[str, Any]
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Expansion:
    """Part of one line of a block and what it becomes: the page's bytes ``start`` to ``end``
    replaced by ``text``, and the warning at the ``:::`` line, if any (the docs step makes
    it a ``Replacement``). A block is its ``:::`` line, then each option line emptied."""

    start: int
    end: int
    text: bytes
    problem: str | None = None


#: One-word ``:::`` lines that always open a container, never an API block, even when no
#: ``:::`` line closes them: the kinds of VitePress, markdown-it-container and Docusaurus
#: (VitePress' own docs close ``::: warning`` at the end of a paragraph line, which
#: markdown-it does not read as a close; it was taken for a module named ``warning``).
CONTAINERS = frozenset(
    {
        b"tip",
        b"info",
        b"warning",
        b"danger",
        b"details",
        b"note",
        b"caution",
        b"important",
        b"raw",
    }
)


def block_targets(data: bytes) -> list[str]:
    """The dotted paths a page's blocks name, in page order: a cheap scan for the driver,
    which loads only the packages they are in."""
    return [b.target for b in find_blocks(data)]


def find_blocks(data: bytes) -> list[ApiBlock]:
    """Every ``:::`` block outside fenced code, with its options (the lines after it that are
    indented more, read as YAML)."""
    if b":::" not in data:
        return []
    starts = [0, *(m.end() for m in re.finditer(rb"\n", data))]
    fenced = _fenced_lines(data, len(starts))
    last_close = _last_closing(data, fenced, starts)
    found: list[ApiBlock] = []
    for m in BLOCK_LINE.finditer(data):
        line = bisect.bisect_right(starts, m.start()) - 1
        if line in fenced or (found and m.start() < found[-1].end):
            continue
        path = m.group("path")
        if b"." not in path and (path in CONTAINERS or m.end() < last_close):
            continue  # ``::: tip`` ... ``:::``: a container of VitePress or markdown-it
        end, options, problems = _options(data, starts, line, len(m.group("indent")))
        target = m.group("path").decode("ascii")
        start = m.start() + len(m.group("indent"))  # positions map back to the ``:::``
        found.append(ApiBlock(start, end, line + 1, target, options, problems))
        if len(found) >= MAX_BLOCKS:
            break
    return found


_CLOSING = re.compile(rb"^ {0,3}:::[ \t]*\r?$", re.MULTILINE)


def _last_closing(data: bytes, fenced: set[int], starts: list[int]) -> int:
    """Where the last bare ``:::`` line outside fences starts (-1: none). A one-word ``:::``
    line before it is a container's opening; found once per page, since a search onwards
    from each such line read the rest of the page again for every one of them."""
    last = -1
    for m in _CLOSING.finditer(data):
        if bisect.bisect_right(starts, m.start()) - 1 not in fenced:
            last = m.start()
    return last


def _fenced_lines(data: bytes, count: int) -> set[int]:
    """The 0-based lines inside fenced code, the fences included."""
    fenced: set[int] = set()
    mark = b""
    for i, line in enumerate(data.split(b"\n")[:count]):
        head = _FENCE.match(line)
        if mark:
            fenced.add(i)
            if head and head.group(1)[:1] == mark[:1] and len(head.group(1)) >= len(mark):
                mark = b"" if not line.strip().lstrip(mark[:1]) else mark
        elif head:
            mark = head.group(1)
            fenced.add(i)
    return fenced


def _options(
    data: bytes, starts: list[int], line: int, indent: int
) -> tuple[int, dict[str, Any], tuple[str, ...]]:
    """Where the block ends (its last option line), and its options: the following lines
    indented more than the ``:::`` line, blank lines between them included."""
    last = line
    i = line + 1
    while i < len(starts):
        text = _line(data, starts, i)
        if text.strip() and len(text) - len(text.lstrip(b" \t")) <= indent:
            break
        if text.strip():
            last = i
        i += 1
    end = starts[line] + len(_line(data, starts, line))
    if last == line:
        return end, {}, ()
    body = b"\n".join(_line(data, starts, k) for k in range(line + 1, last + 1))
    end = starts[last] + len(_line(data, starts, last))
    try:
        read = read_yaml(_dedented(body.decode("utf-8", "replace"))).data
    except yaml.YAMLError as exc:
        return end, {}, (f"its options {describe(exc)}; the defaults are used",)
    if read is None:
        return end, {}, ()
    if not isinstance(read, dict):
        return end, {}, ("its options are not a mapping (write 'options:' and the options)",)
    other = sorted(str(k) for k in read if k not in _BLOCK_KEYS)
    problems = (
        [f"unknown key '{', '.join(other)}' (mkdocstrings reads 'options:')"] if other else []
    )
    options = read.get("options") or {}
    if not isinstance(options, dict):
        return end, {}, (*problems, "'options' is not a mapping; the defaults are used")
    return end, {str(k): v for k, v in options.items()}, tuple(problems)


def _line(data: bytes, starts: list[int], i: int) -> bytes:
    stop = starts[i + 1] - 1 if i + 1 < len(starts) else len(data)
    return data[starts[i] : stop].rstrip(b"\r")


def _dedented(text: str) -> str:
    lines = text.split("\n")
    cut = min((len(x) - len(x.lstrip(" \t")) for x in lines if x.strip()), default=0)
    return "\n".join(x[cut:] for x in lines)


def merged_options(
    global_options: Mapping[str, Any], block: Mapping[str, Any]
) -> tuple[RenderOptions, list[str]]:
    """The options of a block: mkdocstrings' defaults, then ``global_options`` (mkdocs.yml's
    handler options and sitegen's own), then the block's, key by key (a block's
    ``docstring_options`` replaces the global one whole, as mkdocstrings merges). Only the
    block's own keys are reported: an unknown one (one warning, the valid names listed),
    and a value of the wrong type or outside its set (the default is used)."""
    applied, _ = _checked(global_options)
    from_block, problems = _checked(block)
    unknown = sorted(k for k in block if k not in OPTION_TYPES and k not in ACCEPTED_OPTIONS)
    if unknown:
        names = ", ".join(unknown)
        problems.insert(
            0,
            f"unknown option{'s' if len(unknown) > 1 else ''} {names}, ignored; the options "
            f"sitegen applies are {', '.join(sorted(OPTION_TYPES))}",
        )
    return RenderOptions(**{**applied, **from_block}), problems


def _checked(given: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The options of ``given`` sitegen applies whose values have the right type."""
    kept: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in given.items():
        types = OPTION_TYPES.get(name)
        if types is None:
            continue
        why = _bad_value(name, value, types)
        if why is not None:
            problems.append(f"option {name}: {why}; its default is used")
        else:
            kept[name] = dict(value) if isinstance(value, dict) else value
    return kept, problems


def _bad_value(name: str, value: Any, types: tuple[type, ...]) -> str | None:
    wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
    if isinstance(value, bool) and bool not in types:
        return f"{value!r} is not {wanted}"
    if not isinstance(value, types):
        return f"{_shown(value)} is not {wanted}"
    if isinstance(value, list) and not all(isinstance(x, str) for x in value):
        return "a list of names is expected"
    choices = OPTION_CHOICES.get(name)
    if choices and value not in choices:
        return f"{_shown(value)} is not one of {', '.join(choices)}"
    if name == "filters" and isinstance(value, str) and value != "public":
        return f"{_shown(value)} is not a list of patterns or 'public'"
    bounds = {"heading_level": (1, 6), "line_length": (1, 10_000)}.get(name)
    if bounds is not None and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
        return f"{value} is not between {bounds[0]} and {bounds[1]}"
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def expansions(
    page: str,
    data: bytes,
    model: ApiModel,
    global_options: Mapping[str, Any] | None = None,
    *,
    sources: Mapping[str, bytes] | None = None,
) -> list[Expansion]:
    """What each ``:::`` block of the page ``page`` becomes, in page order: the rendered
    object, or nothing and a warning when the model has no such object. ``sources``: the
    crawl's bytes of the Python files, for ``show_source``'s listings."""
    out: list[Expansion] = []
    for block in find_blocks(data):
        options, problems = merged_options(global_options or {}, block.options)
        problems = [*block.problems, *problems]
        if model.get(block.target) is None and model.unloaded(block.target) is None:
            # a package that is nowhere was warned about where it is first named (load.py)
            text, said = b"", [_not_found(model, block.target)] if _loaded(model, block) else []
        else:
            rendered, said = render_block(model, block.target, options, page, sources=sources)
            text = rendered.encode()
        lines = _line_spans(data, block.start, block.end)
        first, *rest = lines
        out.append(Expansion(*first, text, _problem(block.target, problems + said)))
        out += [Expansion(a, b, b"") for a, b in rest]
    return out


def _line_spans(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of ``start``-``end``, each without its line break: a splice replaces part
    of one line, so a block's option lines are emptied one by one, and each line after the
    block keeps its number."""
    spans = []
    while True:
        stop = data.find(b"\n", start, end)
        if stop < 0:
            spans.append((start, end))
            return spans
        spans.append((start, stop - (data[stop - 1 : stop] == b"\r")))
        start = stop + 1


def _loaded(model: ApiModel, block: ApiBlock) -> bool:
    """Whether the model holds anything of the block's top-level package."""
    top = block.target.partition(".")[0]
    return top in model.objects or any(p.startswith(top + ".") for p in model.aliases)


def _not_found(model: ApiModel, target: str) -> str:
    """Why ``target`` renders nothing: the alias it lies under whose target is not loaded,
    else the nearest names the model has (never ``target`` itself)."""
    unloaded = _under_unloaded_alias(model, target)
    if unloaded is not None:
        alias, dest = unloaded
        where = (
            "which is not in the loaded code"
            if model.package_loaded(dest)
            else "which is not installed in this environment"
        )
        return (
            f"no such object was found in the loaded code: {alias} is imported from {dest}, "
            f"{where}; it is shown as a link"
        )
    names = [n for n in (*model.objects, *model.aliases) if n != target]
    parent, _, last = target.rpartition(".")
    siblings = [n.rpartition(".")[2] for n in names if n.rpartition(".")[0] == parent]
    close = [f"{parent}.{n}" for n in difflib.get_close_matches(last, siblings, n=3, cutoff=0.6)]
    close = close or difflib.get_close_matches(target, names, n=3, cutoff=0.6)
    if not close:  # the same name elsewhere: pkg.Widget for pkg.core.Widget
        close = sorted(n for n in names if n.rpartition(".")[2] == last)[:3]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return f"no such object was found in the loaded code{hint}"


def _under_unloaded_alias(model: ApiModel, target: str) -> tuple[str, str] | None:
    """(the alias, what it leads to) for ``target`` or its nearest parent that is an alias
    whose target is not loaded (``pkg.Response`` for ``pkg.Response.json``)."""
    path = target
    while path:
        dest = model.unloaded(path)
        if dest is not None:
            return path, dest
        path = path.rpartition(".")[0]
    return None


def _problem(target: str, problems: list[str]) -> str | None:
    if not problems:
        return None
    listed = problems[:MAX_LISTED]
    if len(problems) > MAX_LISTED:
        listed.append(f"{len(problems) - MAX_LISTED} more")
    return f"::: {target}: " + "; ".join(listed)
