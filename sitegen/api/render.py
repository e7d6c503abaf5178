"""One ``::: dotted.path`` block as the markdown mkdocstrings-python would show: a heading per
object with mkdocstrings' id, its signature, its docstring parsed by style into sections, and
its members as the options select and order them (content/guides/api-reference.md).

Pure: reads the model only, never a file, and never writes HTML from a docstring's text:
everything a docstring says is markdown that goes through sitegen's renderer and sanitizer
like any page's text. Types and Sphinx roles become autorefs (``[`Thing`][pkg.Thing]``).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import io
import logging
import posixpath
import re
import tokenize
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from sitegen.records.api import ApiKind, ApiModel, ApiObject, Expression, Parameter

if TYPE_CHECKING:  # griffe's types in annotations only; it is imported where used
    import griffe

#: Objects one block may show at most (a package of thousands of members is cut, said once).
MAX_OBJECTS = 5_000
#: Nesting of members followed at most (a deeper chain is a cycle through aliases).
MAX_DEPTH = 24
#: Docstring styles griffe parses, and the options each parser takes.
PARSER_OPTIONS: Mapping[str, frozenset[str]] = {
    "google": frozenset(
        {
            "ignore_init_summary",
            "trim_doctest_flags",
            "returns_multiple_items",
            "returns_named_value",
            "returns_type_in_property_summary",
            "receives_multiple_items",
            "receives_named_value",
            "warn_unknown_params",
            "warn_missing_types",
            "warnings",
        }
    ),
    "numpy": frozenset(
        {
            "ignore_init_summary",
            "trim_doctest_flags",
            "warn_unknown_params",
            "warn_missing_types",
            "warnings",
        }
    ),
    "sphinx": frozenset({"warn_unknown_params", "warn_missing_types", "warnings"}),
}
PARSER_OPTIONS = {**PARSER_OPTIONS, "auto": PARSER_OPTIONS["google"]}


@dataclass(frozen=True)
class RenderOptions:
    """mkdocstrings-python's options that change what sitegen shows, with its defaults."""

    docstring_style: str = "google"
    docstring_options: Mapping[str, Any] = field(default_factory=dict)
    #: None: every member the filters keep; a list: those names at the root, in that order;
    #: True: every member, unfiltered; False: none.
    members: list[str] | bool | None = None
    filters: list[str] | str = field(default_factory=lambda: ["!^_[^_]"])
    inherited_members: bool | list[str] = False
    members_order: str = "alphabetical"
    group_by_category: bool = True
    show_root_heading: bool = False
    show_root_toc_entry: bool = True
    show_root_full_path: bool = True
    heading_level: int = 2
    show_bases: bool = True
    show_source: bool = True
    show_if_no_docstring: bool = False
    show_submodules: bool = False
    merge_init_into_class: bool = False
    show_labels: bool = True
    show_signature: bool = True
    separate_signature: bool = False
    show_signature_annotations: bool = False
    signature_crossrefs: bool = False
    show_attribute_values: bool = True
    line_length: int = 60
    #: How sections are shown: tables, bulleted lists, or spaCy's two-column tables.
    docstring_section_style: str = "table"
    #: A symbol (``class``, ``meth``, ``attr`` …) before each object's name; sitegen's ToC
    #: lists a heading's text, so either option shows it in both places.
    show_symbol_type_heading: bool = False
    show_symbol_type_toc: bool = False
    #: ``Annotated[T, …]`` shown as ``T`` in signatures and types.
    unwrap_annotated: bool = False
    #: Each documented parameter an anchor ``path(name)``.
    parameter_headings: bool = False
    #: A function's ``@overload`` signatures above its own; with ``overloads_only`` (and
    #: ``separate_signature``) instead of it.
    show_overloads: bool = True
    overloads_only: bool = False


#: Each option's name and the type its value must have (``blocks.py`` checks them).
OPTION_TYPES: Mapping[str, tuple[type, ...]] = {
    f.name: {
        "docstring_options": (dict,),
        "members": (list, bool, type(None)),
        "filters": (list, str),
        "inherited_members": (bool, list),
        "heading_level": (int,),
        "line_length": (int,),
        "docstring_style": (str,),
        "members_order": (str,),
        "docstring_section_style": (str,),
    }.get(f.name, (bool,))
    for f in dataclasses.fields(RenderOptions)
}
#: Values an option of a closed set may take.
OPTION_CHOICES: Mapping[str, tuple[str, ...]] = {
    "docstring_style": ("google", "numpy", "sphinx", "auto"),
    "members_order": ("alphabetical", "source"),
    "docstring_section_style": ("table", "list", "spacy"),
}
#: mkdocstrings-python options sitegen reads without a difference in what it shows (they
#: are accepted, never warned about).
ACCEPTED_OPTIONS = frozenset(
    {
        "allow_inspection",
        "force_inspection",
        "show_category_heading",
        "show_root_members_full_path",
        "show_object_full_path",
        "modernize_annotations",
        "annotations_path",
        "type_parameter_headings",
        "summary",
        "show_inheritance_diagram",
        "backlinks",
        "preload_modules",
        "extensions",
        "toc_label",
        "heading",
        "relative_crossrefs",
        "scoped_crossrefs",
        "find_stubs_package",
        "skip_local_inventory",
        "load_external_modules",
        "show_docstring_attributes",
        "show_docstring_classes",
        "show_docstring_description",
        "show_docstring_examples",
        "show_docstring_functions",
        "show_docstring_modules",
        "show_docstring_other_parameters",
        "show_docstring_parameters",
        "show_docstring_raises",
        "show_docstring_receives",
        "show_docstring_returns",
        "show_docstring_type_aliases",
        "show_docstring_type_parameters",
        "show_docstring_warns",
        "show_docstring_yields",
        "show_type_parameters",
    }
)

_CATEGORIES = (
    ApiKind.ATTRIBUTE,
    ApiKind.TYPE_ALIAS,
    ApiKind.CLASS,
    ApiKind.FUNCTION,
    ApiKind.UNKNOWN,
    ApiKind.MODULE,
)
_INFINITY = float("inf")
#: ``:class:`~pkg.Name``` and the other roles of Sphinx' Python domain, ``:py:`` or not.
_ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|attr|mod|exc|obj|data|const|type):"
    r"`(?:(?P<title>[^`<]+?)\s*<(?P<target>~?[\w.]+)>|(?P<name>~?[\w.]+)(?P<call>\(\))?)`"
)
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(.*)$")
_SETEXT = re.compile(r"^[ ]{0,3}(=+|-+)[ \t]*$")
_IDENTIFIER = r"(?<![\w.])({})(?![\w])"


@dataclass(frozen=True)
class _Member:
    """A member as the block reaches it: its name, the id it gets, the object it stands for."""

    name: str
    path: str
    obj: ApiObject
    imported: bool = False
    inherited: bool = False
    order: float = _INFINITY


@dataclass
class _Block:
    """What rendering one block shares: the model, the options, the page, what it found."""

    model: ApiModel
    options: RenderOptions
    page: str
    problems: list[str] = field(default_factory=list)
    shown: int = 0
    lines: list[str] = field(default_factory=list)
    #: The crawl's bytes of the project's Python files, by repository path (show_source).
    sources: Mapping[str, bytes] = field(default_factory=dict)
    #: Each source file's lines, split once per block.
    source_lines: dict[str, list[str]] = field(default_factory=dict)

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def lines_of(self, path: str) -> list[str] | None:
        """The lines of the source file ``path`` (None: its bytes were not given)."""
        if path not in self.source_lines:
            data = self.sources.get(path)
            if data is None:
                return None
            text = data.decode("utf-8", "replace").replace("\r\n", "\n")
            self.source_lines[path] = text.split("\n")
        return self.source_lines[path]


def render_block(
    model: ApiModel,
    target: str,
    options: RenderOptions,
    page: str = "",
    *,
    sources: Mapping[str, bytes] | None = None,
) -> tuple[str, list[str]]:
    """The markdown of ``::: target`` on the page ``page`` (a repository path: "Source"
    links are relative to it), and the problems found (griffe's docstring warnings, the
    objects left out). An alias whose target is not loaded is an entry of its own, a link
    to that target; any other object the model lacks renders nothing (blocks.py says so).
    ``sources``: the crawl's bytes of the Python files by repository path, from which
    ``show_source`` lists a class's or a function's lines (none given: the link alone)."""
    obj = model.get(target)
    unloaded = model.unloaded(target) if obj is None else None
    if unloaded is not None:
        obj = _unloaded_object(target.rpartition(".")[2], unloaded)
    block = _Block(model, options, page, sources=sources or {})
    if obj is None:
        return "", [f"no object '{target}' was loaded"]
    _render_object(block, _Member(obj.name, target, obj), options.heading_level, 0, root=True)
    text = "\n".join(block.lines).strip("\n") + "\n"
    if text.startswith(("---", "+++")):  # at a page's start it would be its front matter
        text = "\\" + text
    return text, block.problems


def _render_object(
    block: _Block, member: _Member, level: int, depth: int, *, root: bool = False
) -> None:
    if block.shown >= MAX_OBJECTS:
        if block.shown == MAX_OBJECTS:
            block.problems.append(f"over {MAX_OBJECTS} objects; the rest are left out")
            block.shown += 1
        return
    block.shown += 1
    opts, obj = block.options, member.obj
    children_level = level + 1
    if root and not opts.show_root_heading:
        if opts.show_root_toc_entry:
            # mkdocstrings' hidden root is an empty anchor plus a ToC entry labelled with
            # the name; sitegen's ToC lists headings, so it is a heading of the name (an
            # anchor in raw HTML would show as text under raw_html = "escape")
            shown = _heading_text(block, obj, obj.name)
            block.add(f'{{id="{member.path}"}}', f"{'#' * min(level, 6)} {shown}", "")
        children_level = level
    else:
        text = member.path if root and opts.show_root_full_path else member.name
        shown = _heading_text(block, obj, text)
        block.add(f'{{id="{member.path}"}}', f"{'#' * min(level, 6)} {shown}", "")
    if obj.kind is ApiKind.UNKNOWN:
        block.add(_imported_from(block.model, obj.canonical), "")
        return
    if opts.show_labels and obj.labels:
        block.add(" ".join(_code(label) for label in sorted(obj.labels)), "")
    _render_signature(block, member)
    if obj.kind is ApiKind.CLASS and opts.show_bases and obj.bases:
        bases = ", ".join(_expression(block, base) for base in obj.bases)
        block.add(f"Bases: {bases}", "")
    _render_docstring(block, member, level)
    _render_source(block, obj)
    if depth >= MAX_DEPTH:
        return
    for child in _members(block, member, root):
        _render_object(block, child, children_level, depth + 1)


#: mkdocstrings' symbol of each kind (its CSS writes them; a method is ``meth``).
_SYMBOLS: Mapping[ApiKind, str] = {
    ApiKind.MODULE: "mod",
    ApiKind.CLASS: "class",
    ApiKind.FUNCTION: "func",
    ApiKind.ATTRIBUTE: "attr",
    ApiKind.TYPE_ALIAS: "type",
}


def _heading_text(block: _Block, obj: ApiObject, text: str) -> str:
    """An object's heading: its name as code, after its symbol when the options ask."""
    opts = block.options
    if not (opts.show_symbol_type_heading or opts.show_symbol_type_toc):
        return _code(text)
    symbol = _SYMBOLS.get(obj.kind)
    if symbol is None:  # an alias whose target is not loaded: its kind is not known
        return _code(text)
    if obj.kind is ApiKind.FUNCTION and _is_method(block.model, obj):
        symbol = "meth"
    return f"{_code(symbol)} {_code(text)}"


# --- members -------------------------------------------------------------------------------


def _members(block: _Block, member: _Member, root: bool) -> list[_Member]:
    """The members shown, filtered and ordered as mkdocstrings-python does."""
    opts, obj = block.options, member.obj
    if obj.kind not in (ApiKind.MODULE, ApiKind.CLASS):
        return []
    found = [m for m in _all_members(block.model, member) if _inherited_kept(opts, m)]
    found = _selected(block, obj, found, opts.members if root else None)
    listed = opts.members if root and isinstance(opts.members, list) and opts.members else None
    if opts.merge_init_into_class and obj.kind is ApiKind.CLASS:
        found = [m for m in found if m.name != "__init__"]
    if not opts.show_submodules:
        found = [m for m in found if m.obj.kind is not ApiKind.MODULE]
    found = [m for m in found if not _is_parent(member, m)]
    return _ordered(opts, found, listed, through_alias=member.path != obj.canonical)


def _selected(
    block: _Block, parent: ApiObject, found: list[_Member], chosen: list[str] | bool | None
) -> list[_Member]:
    """mkdocstrings' choice among the members: ``members`` (the root's only) as a list keeps
    the members it names and ``true`` every member, neither filtered nor tested for a
    docstring; ``false`` or ``[]`` keeps the inherited ones the options selected. Otherwise
    the filters, then the docstring test; members named in an ``inherited_members`` list
    pass both."""
    opts = block.options
    listed_inherited = isinstance(opts.inherited_members, list)
    if chosen is True:
        return found
    if chosen is False or chosen == []:
        return [m for m in found if m.inherited]
    if isinstance(chosen, list):  # in the list's order, which names every member shown
        wanted = set(chosen)
        return [m for m in found if m.name in wanted]
    found = [m for m in found if (listed_inherited and m.inherited) or _kept(opts, parent, m)]
    if not opts.show_if_no_docstring:
        found = [
            m
            for m in found
            if (listed_inherited and m.inherited) or _has_docstrings(block.model, m.obj, set())
        ]
    return found


def _all_members(model: ApiModel, member: _Member) -> list[_Member]:
    """griffe's ``all_members`` as reached: inherited ones first, then the object's own, each
    with the id it gets under ``member.path`` and its place in source order."""
    obj = member.obj
    own: list[_Member] = []
    for name, canonical in obj.members:
        target = model.get(canonical) or _unloaded_member(model, obj, name)
        if target is None:
            continue
        imported = canonical != f"{obj.canonical}.{name}" or target.canonical != canonical
        order = _INFINITY if imported or target.kind is ApiKind.MODULE else float(target.lineno)
        if imported and target.kind is not ApiKind.MODULE:
            order = float(model.alias_lines.get(f"{obj.canonical}.{name}", _INFINITY))
        own.append(_Member(name, f"{member.path}.{name}", target, imported=imported, order=order))
    own = _imports_in_place(own)
    if obj.kind is not ApiKind.CLASS:
        return own
    names = {m.name for m in own}
    inherited: list[_Member] = []
    for base in _ancestors(model, obj):
        for name, canonical in base.members:
            target = model.get(canonical)
            if name in names or target is None:
                continue
            names.add(name)
            inherited.append(_Member(name, f"{member.path}.{name}", target, inherited=True))
    return inherited + own


def _unloaded_member(model: ApiModel, parent: ApiObject, name: str) -> ApiObject | None:
    """The entry of a member that is an alias whose target is not loaded, when its module
    re-exports it (``__all__``): an import of an unloaded name not exported (``typing``'s,
    say) is none, as mkdocstrings shows no alias it cannot resolve, even with ``members:
    true``. The filters then apply as to any imported name."""
    if parent.kind is not ApiKind.MODULE or name not in (parent.exports or ()):
        return None
    unloaded = model.unloaded(f"{parent.canonical}.{name}")
    return _unloaded_object(name, unloaded) if unloaded is not None else None


def _unloaded_object(name: str, target: str) -> ApiObject:
    """An alias whose target ``target`` is not loaded, as an object of unknown kind: bound
    by an import, with no file, no docstring and no members."""
    return ApiObject(
        canonical=target,
        name=name,
        kind=ApiKind.UNKNOWN,
        file="",
        lineno=0,
        endlineno=0,
        external=True,
        is_imported=True,
    )


def _imported_from(model: ApiModel, target: str) -> str:
    """The line of an alias whose target is not loaded: the target as an autoref, which the
    link step links to an inventory's entry when one names it, else shows as its text."""
    where = (
        "which was not found in the loaded code"
        if model.package_loaded(target)
        else "which is not installed here"
    )
    return f"Imported from [{_code(target)}][{target}], {where}."


def _imports_in_place(own: list[_Member]) -> list[_Member]:
    """An imported member sorts in source order at the line of its import; where the model
    does not know that line, at the line of the next member defined after it."""
    out: list[_Member] = []
    following = _INFINITY
    for m in reversed(own):
        if m.imported and m.obj.kind is not ApiKind.MODULE and m.order == _INFINITY:
            out.append(dataclasses.replace(m, order=following - 0.5))
        else:
            out.append(m)
            if m.order != _INFINITY:
                following = m.order
    return out[::-1]


def _ancestors(model: ApiModel, obj: ApiObject) -> list[ApiObject]:
    """The loaded base classes, nearest first (depth first, left to right, each once)."""
    out: list[ApiObject] = []
    seen = {obj.canonical}
    stack = list(model.bases_of(obj))[::-1]
    while stack and len(out) < 256:
        base = stack.pop()
        if base.canonical in seen:
            continue
        seen.add(base.canonical)
        out.append(base)
        stack.extend(list(model.bases_of(base))[::-1])
    return out


def _inherited_kept(opts: RenderOptions, m: _Member) -> bool:
    if not m.inherited:
        return True
    wanted = opts.inherited_members
    return m.name in wanted if isinstance(wanted, list) else bool(wanted)


def _kept(opts: RenderOptions, parent: ApiObject, m: _Member) -> bool:
    """The filters (``re.search`` on the name, the last match wins), and an imported member
    only when it is public."""
    public = _is_public(parent, m)
    if opts.filters == "public":
        return public
    if _bound_by_import(m) and not public:
        return False
    filters = opts.filters if isinstance(opts.filters, list) else []
    keep: bool | None = None
    for pattern in filters:
        exclude = pattern.startswith("!")
        try:
            if re.search(pattern[1:] if exclude else pattern, m.name):
                keep = not exclude
        except re.error:
            continue
    if keep is None:
        return not filters or any(p.startswith("!") for p in filters)
    return keep


def _is_public(parent: ApiObject, m: _Member) -> bool:
    """griffe's ``is_public`` of the member as reached: listed in its module's ``__all__``
    (an empty one counts as none); else not private, and not imported, since an imported
    name is public only when ``__all__`` says so."""
    if parent.exports and parent.kind is ApiKind.MODULE:
        return m.name in parent.exports
    if _bound_by_import(m):
        return False
    return m.obj.is_public


def _bound_by_import(m: _Member) -> bool:
    """griffe's ``is_imported`` of the member as reached: an alias, or an object whose name
    an import binds in its parent too (a fallback class under ``except ImportError:``).
    A submodule its package imports is not counted, as mkdocstrings tests modules apart."""
    own = not m.inherited and m.obj.kind is not ApiKind.MODULE
    return m.imported or (own and m.obj.is_imported)


def _has_docstrings(model: ApiModel, obj: ApiObject, seen: set[str]) -> bool:
    """griffe's recursive ``has_docstrings``: the object's docstring or a member's. An alias
    whose target is not loaded may have one there: it counts as documented, since its entry
    is the link to it."""
    if obj.kind is ApiKind.UNKNOWN:
        return True
    if obj.docstring is not None and obj.docstring.text.strip():
        return True
    if obj.kind is ApiKind.FUNCTION and any(annotated_doc(p.annotation) for p in obj.parameters):
        return True
    if obj.canonical in seen or len(seen) > MAX_OBJECTS:
        return False
    seen.add(obj.canonical)
    for _, canonical in obj.members:
        target = model.get(canonical)
        if target is not None and _has_docstrings(model, target, seen):
            return True
    return False


def _is_parent(member: _Member, m: _Member) -> bool:
    """An alias of one of its own parents is never shown under it (a cycle)."""
    return m.obj.canonical == member.obj.canonical or member.path.startswith(m.obj.canonical + ".")


def _ordered(
    opts: RenderOptions, found: list[_Member], listed: list[str] | None, *, through_alias: bool
) -> list[_Member]:
    def key(m: _Member) -> tuple[float, str]:
        if listed is not None:
            return float(listed.index(m.name)), ""
        if opts.members_order == "source":
            return (0.0 if through_alias else m.order), ""
        return 0.0, m.name

    if not opts.group_by_category:
        return sorted(found, key=key)
    out: list[_Member] = []
    for kind in _CATEGORIES:
        group = [m for m in found if m.obj.kind is kind]
        if kind is ApiKind.MODULE and listed is None:
            out += sorted(group, key=lambda m: m.name)
        else:
            out += sorted(group, key=key)
    return out


# --- annotations ---------------------------------------------------------------------------

#: ``Annotated[T, …]`` nested deeper than this is left as written.
_MAX_NESTING = 32


def unwrap_annotated(expression: Expression) -> Expression:
    """``expression`` with every ``Annotated[T, …]`` in it shown as ``T`` (the names it
    refers to are kept: those no longer written are never matched)."""
    text = _without_annotated(expression.text)
    return expression if text == expression.text else Expression(text, expression.names)


def _unwrapped_text(annotation: Any) -> Any:
    """A docstring's type (griffe's expression or text) without ``Annotated``."""
    if annotation is None or isinstance(annotation, Expression):
        return annotation
    text = str(annotation)
    unwrapped = _without_annotated(text)
    return annotation if unwrapped == text else unwrapped


def _parsed_annotation(text: str) -> tuple[ast.expr, list[int]] | None:
    """The expression ``text`` holds and where each of its lines starts (in UTF-8 bytes, as
    ``ast`` counts columns); None when it is no expression."""
    if len(text) > 100_000:
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    starts = [0]
    for line in text.encode().split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return tree.body, starts


def _is_annotated(node: ast.expr) -> bool:
    value = node.value if isinstance(node, ast.Subscript) else None
    name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", "")
    return name == "Annotated"


def _span(node: ast.expr, starts: list[int]) -> tuple[int, int]:
    end_line = node.end_lineno or node.lineno
    return starts[node.lineno - 1] + node.col_offset, starts[end_line - 1] + (
        node.end_col_offset or 0
    )


def _without_annotated(text: str, depth: int = 0) -> str:
    """``text`` with each ``Annotated[T, …]`` replaced by ``T`` (itself unwrapped)."""
    if "Annotated" not in text or depth > _MAX_NESTING:
        return text
    parsed = _parsed_annotation(text)
    if parsed is None:
        return text
    node, starts = parsed
    data = text.encode()
    cuts: list[tuple[int, int, bytes]] = []
    stack = [node]
    while stack:
        found = stack.pop()
        if isinstance(found, ast.Subscript) and _is_annotated(found):
            inner = found.slice
            if isinstance(inner, ast.Tuple) and inner.elts:
                inner = inner.elts[0]
            a, b = _span(inner, starts)
            shown = _without_annotated(data[a:b].decode("utf-8", "replace"), depth + 1)
            cuts.append((*_span(found, starts), shown.encode()))
            continue
        stack.extend(n for n in ast.iter_child_nodes(found) if isinstance(n, ast.expr))
    for a, b, shown_bytes in sorted(cuts, reverse=True):
        data = data[:a] + shown_bytes + data[b:]
    return data.decode("utf-8", "replace")


# --- signatures ----------------------------------------------------------------------------


def _render_signature(block: _Block, member: _Member) -> None:
    opts, obj = block.options, member.obj
    if not opts.show_signature:
        return
    text = _signature_text(block, member)
    overloads = _overload_texts(block, member) if opts.show_overloads else []
    if text is not None and not opts.separate_signature:
        block.add(_code(text.replace("\n", " ")), "")  # mkdocstrings: in the heading
    for shown in overloads:  # always annotated, each a block above the implementation's
        block.add("```python", shown, "```", "")
    only_overloads = bool(overloads) and opts.overloads_only
    if text is not None and opts.separate_signature and not only_overloads:
        block.add("```python", text, "```", "")
    if text is None and not overloads:
        return
    if opts.signature_crossrefs:
        links = _signature_links(block, obj)
        if links:
            block.add("Types: " + ", ".join(links), "")


def _signature_text(block: _Block, member: _Member) -> str | None:
    """``name(params) -> returns`` for a function (or a class, when its ``__init__`` is
    merged into it), ``name: type = value`` for an attribute; wrapped one parameter a line
    when longer than ``line_length``, as ruff formats it."""
    opts, obj = block.options, member.obj
    if obj.kind is ApiKind.ATTRIBUTE:
        text = obj.name
        if obj.annotation is not None and opts.show_signature_annotations:
            text += f": {_shown_type(opts, obj.annotation)}"
        if obj.value is not None and opts.show_attribute_values:
            text += f" = {obj.value.text}"
        return text if text != obj.name else None
    if obj.kind is ApiKind.CLASS:
        init = _init_of(block.model, obj) if opts.merge_init_into_class else None
        if init is None:  # mkdocstrings shows no signature without an __init__ it loaded
            return None
        return _call_signature(obj.name, _without_self(init.parameters), None, opts)
    if obj.kind is ApiKind.FUNCTION:
        parameters = obj.parameters
        if _is_method(block.model, obj):
            parameters = _without_self(parameters)
        return _call_signature(obj.name, parameters, obj.returns, opts)
    return None


def _overload_texts(block: _Block, member: _Member) -> list[str]:
    """The ``@overload`` signatures of a function (or of the ``__init__`` merged into a
    class), annotated whatever ``show_signature_annotations`` says, as mkdocstrings shows
    them."""
    opts, obj = block.options, member.obj
    annotated = dataclasses.replace(opts, show_signature_annotations=True)
    if obj.kind is ApiKind.CLASS:
        init = _init_of(block.model, obj) if opts.merge_init_into_class else None
        overloads = init.overloads if init is not None else ()
        return [
            _call_signature(obj.name, _without_self(o.parameters), None, annotated)
            for o in overloads
        ]
    if obj.kind is not ApiKind.FUNCTION:
        return []
    method = _is_method(block.model, obj)
    return [
        _call_signature(
            obj.name, _without_self(o.parameters) if method else o.parameters, o.returns, annotated
        )
        for o in obj.overloads
    ]


def _without_self(parameters: tuple[Parameter, ...]) -> tuple[Parameter, ...]:
    """A method's parameters as mkdocstrings shows them: without the first when it is named
    ``self`` or ``cls`` (pydantic's ``__pydantic_self__`` stays)."""
    return parameters[1:] if parameters and parameters[0].name in ("self", "cls") else parameters


def _is_method(model: ApiModel, obj: ApiObject) -> bool:
    owner = model.get(obj.canonical.rpartition(".")[0])
    return owner is not None and owner.kind is ApiKind.CLASS


def _init_of(model: ApiModel, obj: ApiObject) -> ApiObject | None:
    canonical = dict(obj.members).get("__init__")
    if canonical is None:
        for base in _ancestors(model, obj):
            canonical = dict(base.members).get("__init__")
            if canonical is not None:
                break
    found = model.get(canonical) if canonical else None
    return found if found is not None and found.kind is ApiKind.FUNCTION else None


def _call_signature(
    name: str,
    parameters: Sequence[Parameter],
    returns: Expression | None,
    opts: RenderOptions,
) -> str:
    parts = _parameter_texts(parameters, opts)
    annotated = returns is not None and opts.show_signature_annotations
    tail = f" -> {_shown_type(opts, returns)}" if returns is not None and annotated else ""
    line = f"{name}({', '.join(parts)}){tail}"
    if len(line) < opts.line_length or not parts:
        return line
    # as ruff formats it (mkdocstrings' formatter): one parameter a line, double quotes
    lines = [f"{name}(", *(f"    {_double_quoted(p)}," for p in parts), f"){tail}"]
    return "\n".join(lines)


def _shown_type(opts: RenderOptions, expression: Expression) -> str:
    return _without_annotated(expression.text) if opts.unwrap_annotated else expression.text


def _double_quoted(code: str) -> str:
    """``code`` with its single-quoted strings double-quoted where that adds no escape, as
    ruff's formatter writes them (a raw or triple-quoted string is left as it is)."""
    if "'" not in code:
        return code
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    cuts = []
    for token in tokens:
        if token.type != tokenize.STRING or token.start[0] != 1 or token.end[0] != 1:
            continue
        found = _SINGLE_QUOTED.fullmatch(token.string)
        if found is None or '"' in found.group("body"):
            continue
        body, raw = found.group("body"), "r" in found.group("prefix").lower()
        if raw and "'" in body:
            continue
        body = body if raw else body.replace("\\'", "'")
        cuts.append((token.start[1], token.end[1], f'{found.group("prefix")}"{body}"'))
    for a, b, text in reversed(cuts):
        code = code[:a] + text + code[b:]
    return code


#: A single-quoted string token (not triple-quoted): its prefix and body.
_SINGLE_QUOTED = re.compile(r"(?P<prefix>[A-Za-z]{0,2})'(?!'')(?P<body>.*)'", re.DOTALL)


def _parameter_texts(parameters: Sequence[Parameter], opts: RenderOptions) -> list[str]:
    """Each parameter as written, with ``/`` after the positional-only ones and ``*`` before
    the first keyword-only one when no ``*args`` stands there."""
    out: list[str] = []
    seen_star = False
    annotations = opts.show_signature_annotations
    for i, p in enumerate(parameters):
        if p.kind == "keyword-only" and not seen_star:
            out.append("*")
            seen_star = True
        text = p.name
        if p.kind == "variadic positional":
            text, seen_star = f"*{p.name}", True
        elif p.kind == "variadic keyword":
            text = f"**{p.name}"
        if annotations and p.annotation is not None:
            text += f": {_shown_type(opts, p.annotation)}"
        if p.default is not None and not p.kind.startswith("variadic"):
            text += f" = {p.default.text}" if annotations and p.annotation else f"={p.default.text}"
        out.append(text)
        following = parameters[i + 1].kind if i + 1 < len(parameters) else ""
        if p.kind == "positional-only" and following != "positional-only":
            out.append("/")
    return out


def _signature_links(block: _Block, obj: ApiObject) -> list[str]:
    """The documented types a signature names, as autorefs (a fenced signature holds no
    links, so they follow it)."""
    expressions: list[Expression] = [p.annotation for p in obj.parameters if p.annotation]
    expressions += [e for e in (obj.returns, obj.annotation) if e is not None]
    seen: dict[str, str] = {}
    for expression in expressions:
        for ref in expression.names:
            if ref.path not in seen and block.model.get(ref.path) is not None:
                seen[ref.path] = f"[{_code(ref.text)}][{ref.path}]"
    return list(seen.values())


# --- docstrings ----------------------------------------------------------------------------


class _Captured(logging.Handler):
    """griffe's warnings while one docstring is parsed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _render_docstring(block: _Block, member: _Member, level: int) -> None:
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    obj = member.obj
    sections = _with_documented_parameters(block, obj, _parsed(block, obj, obj.name))
    if obj.kind is ApiKind.CLASS and block.options.merge_init_into_class:
        init = _init_of(block.model, obj)
        if init is not None:
            init_sections = _parsed(block, init, "__init__", owner=obj)
            sections += _with_documented_parameters(block, init, init_sections)
    for section in sections:
        if section.kind is griffe.DocstringSectionKind.text:
            block.add(_headings_under(_markdown(section.value), member.path, level), "")
        else:
            _render_section(block, obj, section, member.path)


#: Where ``Doc`` of PEP 727 comes from (griffe_typingdoc reads these).
_DOC_PATHS = frozenset({"typing.Doc", "typing_extensions.Doc", "annotated_doc.Doc"})
#: Where ``deprecated`` (PEP 702) comes from, as griffe_typingdoc reads it in ``Annotated``.
_DEPRECATED_PATHS = frozenset({"typing.deprecated", "typing_extensions.deprecated"})


def annotated_doc(annotation: Expression | None) -> str | None:
    """A parameter's description from ``Annotated[T, Doc("…")]`` and ``Annotated[T,
    deprecated("…")]``, as griffe_typingdoc gives it (``f"{deprecated} {doc}"``, the last of
    each kind, each cleaned as ``inspect.cleandoc`` does), read statically: the calls are
    never run. None when the annotation holds neither."""
    if annotation is None or not ("Doc" in annotation.text or "deprecated" in annotation.text):
        return None
    parsed = _parsed_annotation(annotation.text)
    node = parsed[0] if parsed is not None else None
    if not isinstance(node, ast.Subscript) or not _is_annotated(node):
        return None
    if not isinstance(node.slice, ast.Tuple):
        return None
    paths = {ref.text: ref.path for ref in annotation.names}
    said: dict[str, str] = {}
    for meta in node.slice.elts[1:]:
        if not isinstance(meta, ast.Call) or len(meta.args) != 1:
            continue
        func = meta.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        path = paths.get(name, "")
        if path in _DOC_PATHS or (name == "Doc" and path in ("", "Doc")):
            kind = "doc"
        elif path in _DEPRECATED_PATHS:
            kind = "deprecated"
        else:
            continue
        argument = meta.args[0]
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            said[kind] = inspect.cleandoc(argument.value)
    if not said:
        return None
    return f"{said.get('deprecated', '')} {said.get('doc', '')}".strip()


def _documented_parameters(block: _Block, obj: ApiObject) -> list[griffe.DocstringParameter]:
    """The parameters of ``obj`` documented by ``Doc`` or ``deprecated`` in their annotation
    (not ``self`` nor ``cls`` of a method), with their names as a docstring writes them (``*args``)."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    annotations = "".join(p.annotation.text for p in obj.parameters if p.annotation is not None)
    if obj.kind is not ApiKind.FUNCTION or not (
        "Doc" in annotations or "deprecated" in annotations
    ):
        return []
    parameters = _without_self(obj.parameters) if _is_method(block.model, obj) else obj.parameters
    out = []
    for p in parameters:
        said = annotated_doc(p.annotation)
        if said is None:
            continue
        stars = {"variadic positional": "*", "variadic keyword": "**"}.get(p.kind, "")
        out.append(
            griffe.DocstringParameter(
                f"{stars}{p.name}",
                description=said,
                annotation=p.annotation.text if p.annotation else None,
                value=p.default.text if p.default else None,
            )
        )
    return out


def _with_documented_parameters(
    block: _Block, obj: ApiObject, sections: list[griffe.DocstringSection]
) -> list[griffe.DocstringSection]:
    """``sections`` with the ``Doc`` descriptions of the parameters: into the docstring's
    Parameters section where it says nothing of one, else as a section after the text."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    documented = _documented_parameters(block, obj)
    if not documented:
        return sections
    listed = next((s for s in sections if s.kind is griffe.DocstringSectionKind.parameters), None)
    if listed is None:
        section = griffe.DocstringSectionParameters(documented)
        first_text = bool(sections) and sections[0].kind is griffe.DocstringSectionKind.text
        return [*sections[:1], section, *sections[1:]] if first_text else [section, *sections]
    by_name = {item.name: item for item in listed.value}
    for item in documented:
        written = by_name.get(item.name)
        if written is None:
            listed.value.append(item)
        elif not written.description.strip():
            written.description = item.description
    return sections


def _parsed(
    block: _Block, obj: ApiObject, name: str, owner: ApiObject | None = None
) -> list[griffe.DocstringSection]:
    """The docstring of ``obj`` parsed in the block's style, griffe's warnings kept as
    problems (``path:line: message`` of the object's file)."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    if obj.docstring is None or not obj.docstring.text.strip():
        return []
    opts = block.options
    style = griffe.Parser(
        opts.docstring_style if opts.docstring_style in PARSER_OPTIONS else "google"
    )
    allowed = PARSER_OPTIONS[style.value]
    options = {k: v for k, v in opts.docstring_options.items() if k in allowed}
    parent = _griffe_parent(block.model, obj, name, owner)
    docstring = griffe.Docstring(
        obj.docstring.text, lineno=obj.docstring.line, parent=parent, parser=style
    )
    captured = _Captured()
    logger = logging.getLogger("griffe")
    logger.addHandler(captured)
    try:
        sections = docstring.parse(style, **options)
    except Exception as exc:  # noqa: BLE001 - a parser bug is one problem, never a traceback
        sections = [griffe.DocstringSectionText(obj.docstring.text)]
        captured.messages.append(f"{obj.docstring.line}: the docstring could not be parsed: {exc}")
    finally:
        logger.removeHandler(captured)
    where = obj.file or obj.canonical
    for message in captured.messages:
        line, _, said = message.partition(": ")
        number = line.rpartition(":")[2]
        block.problems.append(f"docstring of {obj.canonical} ({where}:{number}): {said}")
    return sections


def _griffe_parent(
    model: ApiModel, obj: ApiObject, name: str, owner: ApiObject | None
) -> griffe.Object:
    """A griffe object that stands for ``obj`` while its docstring is parsed: the parser
    reads the parameters (defaults and types fill the table, unknown names are warned
    about) and whether it is an ``__init__``. A class gets its ``__init__`` (its own or the
    one it inherits), whose parameters griffe reads for a class docstring's ``Args:``."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    parent: griffe.Object
    if obj.kind is ApiKind.FUNCTION:
        parent = _griffe_function(obj, name)
    elif obj.kind is ApiKind.CLASS:
        parent = griffe.Class(name)
        init = _init_of(model, obj)
        if init is not None:
            parent.set_member("__init__", _griffe_function(init, "__init__"))
    elif obj.kind is ApiKind.MODULE:
        parent = griffe.Module(name)
    else:
        parent = griffe.Attribute(name, annotation=obj.annotation.text if obj.annotation else None)
    if owner is not None:
        griffe.Class(owner.name).set_member(name, parent)
    return parent


def _griffe_function(obj: ApiObject, name: str) -> griffe.Function:
    """A griffe function with the parameters and the return type of ``obj``."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    parameters = griffe.Parameters(
        *(
            griffe.Parameter(
                p.name,
                annotation=p.annotation.text if p.annotation else None,
                kind=griffe.ParameterKind(p.kind),
                default=p.default.text if p.default else None,
            )
            for p in obj.parameters
        )
    )
    # an expression, so that the parser reads the yielded, received and returned types
    # of ``Iterator[T]`` and ``Generator[Y, S, R]`` as mkdocstrings shows them
    returns = _griffe_expression(obj.returns.text) if obj.returns else None
    return griffe.Function(name, parameters=parameters, returns=returns)


def _griffe_expression(text: str) -> str | griffe.Expr:
    """``text`` as griffe's expression (its text when it is none)."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    parsed = _parsed_annotation(text)
    if parsed is None:
        return text
    try:
        return griffe.get_expression(parsed[0], parent=griffe.Module("_")) or text
    except Exception:  # noqa: BLE001 - griffe's reading of an odd node: keep the text
        return text


def _render_section(
    block: _Block, obj: ApiObject, section: griffe.DocstringSection, path: str
) -> None:
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    kind = section.kind
    value: Any = section.value
    cell = _table_cells(block)
    if kind in (
        griffe.DocstringSectionKind.parameters,
        griffe.DocstringSectionKind.other_parameters,
    ):
        _parameters_table(block, obj, section.title or _title(kind), value, path)
    elif kind in (
        griffe.DocstringSectionKind.returns,
        griffe.DocstringSectionKind.yields,
        griffe.DocstringSectionKind.receives,
    ):
        named = any(item.name for item in value)
        rows = [
            ([_code(item.name)] if named else [])
            + [_annotation(block, obj, item.annotation)]
            + [_cell(item.description, cell)]
            for item in value
        ]
        head = (["Name"] if named else []) + ["Type", "Description"]
        _table(block, kind, section.title or _title(kind), head, rows)
    elif kind in (griffe.DocstringSectionKind.raises, griffe.DocstringSectionKind.warns):
        rows = [[_annotation(block, obj, i.annotation), _cell(i.description, cell)] for i in value]
        _table(block, kind, section.title or _title(kind), ["Type", "Description"], rows)
    elif kind is griffe.DocstringSectionKind.attributes:
        rows = [
            [
                _code(i.name),
                _annotation(block, obj, _attribute_type(block, obj, i)),
                _cell(i.description, cell),
            ]
            for i in value
        ]
        head = ["Name", "Type", "Description"]
        _table(block, kind, section.title or "Attributes", head, rows)
    elif kind is griffe.DocstringSectionKind.examples:
        _examples(block, section.title or "Examples", value)
    elif kind is griffe.DocstringSectionKind.admonition:
        _admonition(block, value.annotation or "note", section.title or "", value.description)
    elif kind is griffe.DocstringSectionKind.deprecated:
        _admonition(
            block, "warning", f"Deprecated {value.version or ''}".strip(), value.description
        )
    else:  # functions, classes, modules, type aliases, type parameters: name and description
        rows = [[_code(i.name), _cell(i.description, cell)] for i in value]
        _table(block, kind, section.title or _title(kind), ["Name", "Description"], rows)


def _attribute_type(block: _Block, obj: ApiObject, item: Any) -> Any:
    """An attribute's type as its docstring gives it, else as the member is annotated."""
    if item.annotation is not None:
        return item.annotation
    canonical = dict(obj.members).get(item.name)
    member = block.model.get(canonical) if canonical else None
    return member.annotation if member is not None else None


def _title(kind: griffe.DocstringSectionKind) -> str:
    return str(kind.value).capitalize()


def _parameters_table(
    block: _Block, obj: ApiObject, title: str, items: list[Any], path: str
) -> None:
    """Name, Type, Description, Default (*required* when there is none); the type and the
    default come from the signature when the docstring gives none. With
    ``parameter_headings`` each name is the anchor ``path(name)``, as mkdocstrings' id."""
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    init = _init_of(block.model, obj) if obj.kind is ApiKind.CLASS else None
    by_name = {p.name: p for p in (init or obj).parameters}
    rows = []
    for item in items:
        bare = item.name.lstrip("*")
        written = by_name.get(bare)
        annotation: Any = item.annotation
        signature_type = written.annotation if written is not None else None
        if block.options.unwrap_annotated:
            annotation = _unwrapped_text(annotation)
            signature_type = unwrap_annotated(signature_type) if signature_type else None
        if signature_type is not None and (
            annotation is None or str(annotation) == signature_type.text
        ):
            annotation = signature_type
        default = item.default
        if default is None and written is not None and written.default is not None:
            default = written.default.text
        variadic = item.name.startswith("*") or (written is not None and "variadic" in written.kind)
        shown = _code(str(default)) if default is not None and not variadic else "*required*"
        if variadic:
            shown = ""
        name = _code(item.name)
        if block.options.parameter_headings:
            name += f'{{id="{path}({item.name})"}}'
        description = _cell(item.description, _table_cells(block))
        rows.append([name, _annotation(block, obj, annotation), description, shown])
    head = ["Name", "Type", "Description", "Default"]
    _table(block, griffe.DocstringSectionKind.parameters, title, head, rows)


def _annotation(block: _Block, obj: ApiObject, annotation: Any) -> str:
    """A type in a table: an expression of the model with links to its documented names;
    a docstring's own type as its text, with names linked when the model knows them."""
    if annotation is None or annotation == "":
        return ""
    in_table = _table_cells(block)
    if isinstance(annotation, Expression):
        return _expression(block, annotation, in_table=in_table)
    text = str(annotation)
    refs = [
        ref
        for e in _expressions_of(obj)
        for ref in e.names
        if re.search(_IDENTIFIER.format(re.escape(ref.text)), text)
    ]
    return _expression(block, Expression(text, tuple(refs)), in_table=in_table)


def _expressions_of(obj: ApiObject) -> Iterator[Expression]:
    for p in obj.parameters:
        yield from (e for e in (p.annotation, p.default) if e is not None)
    yield from (e for e in (obj.returns, obj.annotation) if e is not None)


def _expression(block: _Block, expression: Expression, *, in_table: bool = False) -> str:
    """``list[Thing] | None`` as code spans with each documented name an autoref:
    `` `list[`[`Thing`][pkg.Thing]`] | None` ``."""
    text, pieces, at = expression.text, [], 0
    for ref in expression.names:
        if block.model.get(ref.path) is None:
            continue
        found = re.compile(_IDENTIFIER.format(re.escape(ref.text))).search(text, at)
        if found is None:
            continue
        pieces.append(_code(text[at : found.start()], in_table))
        pieces.append(f"[{_code(ref.text, in_table)}][{ref.path}]")
        at = found.end()
    pieces.append(_code(text[at:], in_table))
    return "".join(p for p in pieces if p)


#: The first column's title of a section in spaCy's style (mkdocstrings' words), by the
#: value of griffe's ``DocstringSectionKind`` (griffe is imported only to parse docstrings).
_SPACY_TITLES = {
    "parameters": "PARAMETER",
    "other parameters": "PARAMETER",
    "attributes": "ATTRIBUTE",
    "returns": "RETURNS",
    "yields": "YIELDS",
    "receives": "RECEIVES",
    "raises": "RAISES",
    "warns": "WARNS",
}


def _table_cells(block: _Block) -> bool:
    """Whether section items are table cells (``|`` escaped): in every style but lists."""
    return block.options.docstring_section_style != "list"


def _table(
    block: _Block,
    kind: griffe.DocstringSectionKind,
    title: str,
    head: list[str],
    rows: list[list[str]],
) -> None:
    """A section's items in the block's ``docstring_section_style``: a table of the columns
    ``head``; a list (name, then type and default in parentheses, then the description); or
    spaCy's two columns (the name, or the type when there is none; then the description
    followed by the type and the default)."""
    if not rows:
        return
    style = block.options.docstring_section_style
    items = [dict(zip(head, row, strict=True)) for row in rows]
    if style == "list":
        block.add(f"**{_inline(title)}:**", "")
        block.add(*(f"- {_list_item(item)}" for item in items), "")
        return
    if style == "spacy":
        first = _SPACY_TITLES.get(kind.value) or title.rstrip(":").upper()
        block.add(f"| {_inline(first)} | DESCRIPTION |", "|---|---|")
        block.add(*(f"| {_spacy_row(item)} |" for item in items), "")
        return
    block.add(f"**{_inline(title)}:**", "")
    block.add("| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|")
    block.add(*("| " + " | ".join(cell or " " for cell in row) + " |" for row in rows))
    block.add("")


def _list_item(item: dict[str, str]) -> str:
    name, kind, default = item.get("Name", ""), item.get("Type", ""), item.get("Default", "")
    details = ", ".join(
        part for part in (kind, f"default: {default}" if default.startswith("`") else "") if part
    )
    head = f"**{name}**" if name else kind
    if name and details:
        head += f" ({details})"
    description = item.get("Description", "")
    return f"{head} \N{EN DASH} {description}" if description.strip() else head


def _spacy_row(item: dict[str, str]) -> str:
    name, kind, default = item.get("Name", ""), item.get("Type", ""), item.get("Default", "")
    details = [item.get("Description", "").strip()]
    if name and kind:
        details.append(f"**TYPE:** {kind}")
    if default.startswith("`"):
        details.append(f"**DEFAULT:** {default}")
    return f"{name or kind or ' '} | {' '.join(d for d in details if d) or ' '}"


def _examples(block: _Block, title: str, items: list[tuple[Any, str]]) -> None:
    import griffe  # imported when a docstring is parsed: a build without blocks never loads it

    block.add(f"**{_inline(title)}:**", "")
    for kind, text in items:
        if kind is griffe.DocstringSectionKind.examples:
            fence = _fence_for(text)
            block.add(f"{fence}pycon", text, fence, "")
        else:
            block.add(_markdown(text), "")


def _admonition(block: _Block, kind: str, title: str, description: str) -> None:
    kind = re.sub(r"[^a-z0-9-]", "", kind.lower()) or "note"
    said = title.replace('"', "'").replace("\n", " ")
    # mkdocstrings writes a docstring's admonition as an open <details>: a foldable callout
    block.add(f'???+ {kind} "{said}"', "")
    block.add(*("    " + line if line else "" for line in _markdown(description).split("\n")))
    block.add("")


def _render_source(block: _Block, obj: ApiObject) -> None:
    """A "Source" link to sitegen's source page of the file at the object's lines."""
    if not block.options.show_source or obj.external or not obj.file or obj.lineno <= 0:
        return
    if obj.kind is ApiKind.MODULE:
        return
    folder = posixpath.dirname(block.page)
    href = posixpath.relpath(obj.file, folder or ".") if block.page else "/" + obj.file
    lines = f"#L{obj.lineno}" + (f"-L{obj.endlineno}" if obj.endlineno > obj.lineno else "")
    shown = (
        f"line {obj.lineno}"
        if obj.endlineno <= obj.lineno
        else (f"lines {obj.lineno}-{obj.endlineno}")
    )
    # The link names the place; the listing below (mkdocstrings' "Source code in") shows it.
    block.add(f"Defined in [{_code(obj.file)}, {shown}]({_destination(href + lines)})", "")
    if obj.kind in (ApiKind.CLASS, ApiKind.FUNCTION):
        _source_listing(block, obj)


def _source_listing(block: _Block, obj: ApiObject) -> None:
    """The object's lines, highlighted and numbered from its first, in a collapsed quote
    (mkdocstrings' "Source code in …" details), from the crawl's bytes of its file."""
    lines = block.lines_of(obj.file)
    chosen = lines[obj.lineno - 1 : obj.endlineno] if lines is not None else []
    if not chosen:
        return
    code = "\n".join(chosen)
    fence = _fence_for(code)
    title = f"Source code in {_code(obj.file)}".replace('"', "'")
    block.add(f'??? quote "{title}"', "")
    block.add(f'    {fence}python linenums="{obj.lineno}"')
    block.add(*(f"    {line}" if line else "" for line in chosen))
    block.add(f"    {fence}", "")


# --- markdown helpers ----------------------------------------------------------------------


def _code(text: str, in_table: bool = False) -> str:
    """``text`` as a code span, its backticks fenced by a longer run (and ``|`` escaped in a
    table cell, where the table's own parser reads it first)."""
    if not text:
        return ""
    text = text.replace("\n", " ")
    if in_table:
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _destination(href: str) -> str:
    """A link destination as markdown reads it back (``<…>`` around one with blanks)."""
    return f"<{href}>" if re.search(r"[\s()<>]", href) else href


def _cell(text: str, in_table: bool = True) -> str:
    """A docstring's description in a table cell or a list item: one line, roles linked
    (and ``|`` escaped in a table)."""
    lines = [line.strip() for line in _roles(text).strip().split("\n")]
    joined = " ".join(line for line in lines if line)
    return joined.replace("|", "\\|") if in_table else joined


def _inline(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text.replace("\n", " "))


def _markdown(text: str) -> str:
    """A docstring's markdown, its Sphinx roles made autorefs, the lines that would reach
    past it made text (``_inert``) and a fence left open closed, so it never swallows or
    changes what the block writes after it."""
    text = _roles(text)
    open_fence = ""
    lines = text.split("\n")
    lowered = text.lower()  # markdown-it ends an HTML block at its closing tag in any case
    closers = {closer: lowered.rfind(closer) for closer in _HTML_CLOSERS}
    at = 0
    for i, line in enumerate(lines):
        found = _FENCE.match(line)
        if found is None:
            if not open_fence:
                lines[i] = _inert(line, at, closers)
            at += len(line) + 1
            continue
        at += len(line) + 1
        mark = found.group(1)
        if not open_fence:
            open_fence = mark
        elif (
            mark[0] == open_fence[0]
            and len(mark) >= len(open_fence)
            and not line.strip(mark[0] + " \t")
        ):
            open_fence = ""
    return _contained("\n".join(lines) + (f"\n{open_fence}" if open_fence else ""))


#: The line ``_contained`` puts after a docstring's text: a heading, which only a block that
#: runs on to its closer (a fence, raw HTML, math) can take in.
_SENTINEL = "sitegen-end-of-docstring"


@functools.cache
def _block_parser() -> MarkdownIt:
    """CommonMark's block rules and the math blocks sitegen reads (no inline parsing)."""
    md = MarkdownIt("commonmark").disable("inline")
    dollarmath_plugin(md)
    return md


def _contained(text: str) -> str:
    """``text`` when what follows it is read as written; else (a block it opens runs past
    its end, which ``_inert`` and the fence count did not foresee) the text as a code
    block, which nothing inside can leave."""
    if not any(mark in text for mark in ("<", "`", "~", "$")):
        return text
    tokens = _block_parser().parse(f"{text}\n\n# {_SENTINEL}\n")
    if len(tokens) >= 3 and tokens[-3].type == "heading_open" and tokens[-2].content == _SENTINEL:
        return text
    fence = _fence_for(text)
    return f"{fence}text\n{text}\n{fence}"


#: What ends each raw HTML block that only its closer (or the page's end) ends.
_HTML_CLOSERS = ("-->", "?>", "]]>", ">", "</script>", "</pre>", "</style>", "</textarea>")
_HTML_OPENER = re.compile(
    r" {0,3}<(?:(?P<comment>!--)|(?P<pi>\?)|(?P<cdata>!\[CDATA\[)|(?P<decl>![A-Za-z])"
    r"|(?P<tag>script|pre|style|textarea)(?=[\s>]|$))",
    re.IGNORECASE,
)
_KIND_CLOSER = {"comment": "-->", "pi": "?>", "cdata": "]]>", "decl": ">"}
#: A line that is an attribute list alone: it would give its id to the next block, which
#: may be the next object's heading.
_ATTRIBUTE_LINE = re.compile(r"[ \t]*\{:?[ \t]*(?:[#.][^\s{}]|[A-Za-z_][\w-]*=)[^\n]*\}[ \t]*")


def _inert(line: str, at: int, closers: Mapping[str, int]) -> str:
    """A line of a docstring (outside fences; ``at`` its offset in the text) escaped when it
    would reach past the docstring: a container's ``:::``, an attribute list alone, or a raw
    HTML block that nothing after it closes (a ``<!--`` left open swallowed the rest of the
    page). ``closers``: where each closer occurs last in the text."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return line
    if stripped.startswith(":::") or _ATTRIBUTE_LINE.fullmatch(line):
        return "\\" + stripped
    found = _HTML_OPENER.match(line)
    if found is None:
        return line
    kind = found.lastgroup or ""
    closer = _KIND_CLOSER.get(kind) or f"</{found.group('tag').lower()}>"
    return line if closers.get(closer, -1) > at + found.start() + 1 else "\\" + stripped


def _headings_under(text: str, path: str, level: int) -> str:
    """A docstring's own headings below its object's (``level`` more), each with the id
    mkdocstrings gives it, ``{path}--{slug}``, so they never take a page heading's id."""
    if "#" not in text and "\n--" not in text and "\n==" not in text:
        return text
    lines, out, fence = text.split("\n"), [], ""
    for i, line in enumerate(lines):
        found = _FENCE.match(line)
        if found and (not fence or found.group(1)[0] == fence[0]):
            fence = "" if fence else found.group(1)
        atx = None if fence or found else _ATX.match(line)
        # A fence's own line is never a setext heading's text (```` ``` ```` then ``---``).
        setext = not fence and not found and i + 1 < len(lines) and _SETEXT.match(lines[i + 1])
        if atx is not None:
            out += _heading(len(atx.group(1)) + level, atx.group(2), path)
        elif setext and line.strip() and not _SETEXT.match(line) and not _ATX.match(line):
            out += _heading((1 if lines[i + 1].strip()[0] == "=" else 2) + level, line, path)
        elif out and out[-1] == "\0":
            out[-1] = ""  # the underline of a setext heading
        else:
            out.append(line)
        if setext and atx is None and line.strip():
            out.append("\0")
    return "\n".join(out)


def _heading(level: int, text: str, path: str) -> list[str]:
    text = text.strip().rstrip("#").strip()
    slug = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())
    return ["", f'{{id="{path}--{slug}"}}', f"{'#' * min(level, 6)} {text}"]


def _fence_for(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=0)
    return "`" * max(3, longest + 1)


def _roles(text: str) -> str:
    """``:class:`~pkg.Name``` -> ``[`Name`][pkg.Name]``, outside fenced code."""
    if ":`" not in text:
        return text
    out, fence = [], ""
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if found and (not fence or found.group(1)[0] == fence[0]):
            fence = "" if fence else found.group(1)
            out.append(line)
        else:
            out.append(line if fence else _ROLE.sub(_role_link, line))
    return "\n".join(out)


def _role_link(found: re.Match[str]) -> str:
    target = found.group("target") or found.group("name")
    short = target.startswith("~")
    target = target.lstrip("~")
    shown = found.group("title") or (target.rpartition(".")[2] if short else target)
    if found.group("call"):
        shown += "()"
    return f"[{_code(shown)}][{target}]"
