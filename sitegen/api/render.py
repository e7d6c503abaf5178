"""One ``::: dotted.path`` block as the markdown mkdocstrings-python would show: a heading per
object with mkdocstrings' id, its signature, its docstring parsed by style into sections, and
its members as the options select and order them (content/guides/api-reference.md).

Pure: reads the model only, never a file, and never writes HTML from a docstring's text:
everything a docstring says is markdown that goes through sitegen's renderer and sanitizer
like any page's text. Types and Sphinx roles become autorefs (``[`Thing`][pkg.Thing]``).
"""

from __future__ import annotations

import dataclasses
import logging
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import griffe

from sitegen.api.model import ApiKind, ApiModel, ApiObject, Expression, Parameter

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
    }.get(f.name, (bool,))
    for f in dataclasses.fields(RenderOptions)
}
#: Values an option of a closed set may take.
OPTION_CHOICES: Mapping[str, tuple[str, ...]] = {
    "docstring_style": ("google", "numpy", "sphinx", "auto"),
    "members_order": ("alphabetical", "source"),
}
#: mkdocstrings-python options sitegen reads without a difference in what it shows (they
#: are accepted, never warned about).
ACCEPTED_OPTIONS = frozenset(
    {
        "allow_inspection",
        "force_inspection",
        "docstring_section_style",
        "show_category_heading",
        "show_root_members_full_path",
        "show_object_full_path",
        "unwrap_annotated",
        "modernize_annotations",
        "annotations_path",
        "show_symbol_type_heading",
        "show_symbol_type_toc",
        "parameter_headings",
        "type_parameter_headings",
        "show_overloads",
        "overloads_only",
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

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)


def render_block(
    model: ApiModel, target: str, options: RenderOptions, page: str = ""
) -> tuple[str, list[str]]:
    """The markdown of ``::: target`` on the page ``page`` (a repository path: "Source"
    links are relative to it), and the problems found (griffe's docstring warnings, the
    objects left out). An object the model lacks renders nothing (blocks.py says so)."""
    obj = model.get(target)
    block = _Block(model, options, page)
    if obj is None:
        return "", [f"no object '{target}' was loaded"]
    _render_object(block, _Member(obj.name, target, obj), options.heading_level, 0, root=True)
    return "\n".join(block.lines).strip("\n") + "\n", block.problems


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
            block.add(f'{{id="{member.path}"}}', f"{'#' * min(level, 6)} {_code(obj.name)}", "")
        children_level = level
    else:
        text = member.path if root and opts.show_root_full_path else member.name
        block.add(f'{{id="{member.path}"}}', f"{'#' * min(level, 6)} {_code(text)}", "")
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


# --- members -------------------------------------------------------------------------------


def _members(block: _Block, member: _Member, root: bool) -> list[_Member]:
    """The members shown, filtered and ordered as mkdocstrings-python does."""
    opts, obj = block.options, member.obj
    if obj.kind not in (ApiKind.MODULE, ApiKind.CLASS) or opts.members is False:
        return []
    listed = opts.members if root and isinstance(opts.members, list) else None
    found = [m for m in _all_members(block.model, member) if _inherited_kept(opts, m)]
    if listed is not None:
        by_name = {m.name: m for m in found}
        found = [by_name[name] for name in listed if name in by_name]
    elif opts.members is not True:
        found = [m for m in found if _kept(opts, obj, m)]
    if not opts.show_if_no_docstring:
        found = [m for m in found if _has_docstrings(block.model, m.obj, set())]
    if opts.merge_init_into_class and obj.kind is ApiKind.CLASS:
        found = [m for m in found if m.name != "__init__"]
    if not opts.show_submodules:
        found = [m for m in found if m.obj.kind is not ApiKind.MODULE]
    found = [m for m in found if not _is_parent(member, m)]
    return _ordered(opts, found, listed, through_alias=member.path != obj.canonical)


def _all_members(model: ApiModel, member: _Member) -> list[_Member]:
    """griffe's ``all_members`` as reached: inherited ones first, then the object's own, each
    with the id it gets under ``member.path`` and its place in source order."""
    obj = member.obj
    own: list[_Member] = []
    for name, canonical in obj.members:
        target = model.get(canonical)
        if target is None:
            continue
        imported = canonical != f"{obj.canonical}.{name}" or target.canonical != canonical
        order = _INFINITY if imported or target.kind is ApiKind.MODULE else float(target.lineno)
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


def _imports_in_place(own: list[_Member]) -> list[_Member]:
    """An imported member sorts in source order where it was imported: the model keeps no
    import lines, so it takes the line of the next member defined after it."""
    out: list[_Member] = []
    following = _INFINITY
    for m in reversed(own):
        if m.imported and m.obj.kind is not ApiKind.MODULE:
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
    if m.imported and not public:
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
    if parent.exports is not None and parent.kind is ApiKind.MODULE:
        return m.name in parent.exports
    if m.imported:
        return not m.name.startswith("_")
    return m.obj.is_public


def _has_docstrings(model: ApiModel, obj: ApiObject, seen: set[str]) -> bool:
    """griffe's recursive ``has_docstrings``: the object's docstring or a member's."""
    if obj.docstring is not None and obj.docstring.text.strip():
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


# --- signatures ----------------------------------------------------------------------------


def _render_signature(block: _Block, member: _Member) -> None:
    opts, obj = block.options, member.obj
    if not opts.show_signature:
        return
    text = _signature_text(block, member)
    if text is None:
        return
    if opts.separate_signature:
        block.add("```python", text, "```", "")
    else:
        block.add(_code(text.replace("\n", " ")), "")
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
            text += f": {obj.annotation.text}"
        if obj.value is not None and opts.show_attribute_values:
            text += f" = {obj.value.text}"
        return text if text != obj.name else None
    if obj.kind is ApiKind.CLASS:
        init = _init_of(block.model, obj) if opts.merge_init_into_class else None
        if init is None:
            return None
        return _call_signature(obj.name, init.parameters[1:], None, opts)
    if obj.kind is ApiKind.FUNCTION:
        parameters = obj.parameters
        if _is_method(block.model, obj) and parameters and parameters[0].name in ("self", "cls"):
            parameters = parameters[1:]  # as mkdocstrings shows a method
        return _call_signature(obj.name, parameters, obj.returns, opts)
    return None


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
    parts = _parameter_texts(parameters, opts.show_signature_annotations)
    tail = f" -> {returns.text}" if returns is not None and opts.show_signature_annotations else ""
    line = f"{name}({', '.join(parts)}){tail}"
    if len(line) < opts.line_length or not parts:
        return line
    return "\n".join([f"{name}(", *(f"    {p}," for p in parts), f"){tail}"])


def _parameter_texts(parameters: Sequence[Parameter], annotations: bool) -> list[str]:
    """Each parameter as written, with ``/`` after the positional-only ones and ``*`` before
    the first keyword-only one when no ``*args`` stands there."""
    out: list[str] = []
    seen_star = False
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
            text += f": {p.annotation.text}"
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
    obj = member.obj
    sections = _parsed(block, obj, obj.name)
    if obj.kind is ApiKind.CLASS and block.options.merge_init_into_class:
        init = _init_of(block.model, obj)
        if init is not None:
            sections += _parsed(block, init, "__init__", owner=obj)
    for section in sections:
        if section.kind is griffe.DocstringSectionKind.text:
            block.add(_headings_under(_markdown(section.value), member.path, level), "")
        else:
            _render_section(block, obj, section)


def _parsed(
    block: _Block, obj: ApiObject, name: str, owner: ApiObject | None = None
) -> list[griffe.DocstringSection]:
    """The docstring of ``obj`` parsed in the block's style, griffe's warnings kept as
    problems (``path:line: message`` of the object's file)."""
    if obj.docstring is None or not obj.docstring.text.strip():
        return []
    opts = block.options
    style = griffe.Parser(
        opts.docstring_style if opts.docstring_style in PARSER_OPTIONS else "google"
    )
    allowed = PARSER_OPTIONS[style.value]
    options = {k: v for k, v in opts.docstring_options.items() if k in allowed}
    parent = _griffe_parent(obj, name, owner)
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


def _griffe_parent(obj: ApiObject, name: str, owner: ApiObject | None) -> griffe.Object:
    """A griffe object that stands for ``obj`` while its docstring is parsed: the parser
    reads the parameters (defaults and types fill the table, unknown names are warned
    about) and whether it is an ``__init__``."""
    parent: griffe.Object
    if obj.kind is ApiKind.FUNCTION:
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
        returns = obj.returns.text if obj.returns else None
        parent = griffe.Function(name, parameters=parameters, returns=returns)
    elif obj.kind is ApiKind.CLASS:
        parent = griffe.Class(name)
    elif obj.kind is ApiKind.MODULE:
        parent = griffe.Module(name)
    else:
        parent = griffe.Attribute(name, annotation=obj.annotation.text if obj.annotation else None)
    if owner is not None:
        griffe.Class(owner.name).set_member(name, parent)
    return parent


def _render_section(block: _Block, obj: ApiObject, section: griffe.DocstringSection) -> None:
    kind = section.kind
    value: Any = section.value
    if kind in (
        griffe.DocstringSectionKind.parameters,
        griffe.DocstringSectionKind.other_parameters,
    ):
        _parameters_table(block, obj, section.title or _title(kind), value)
    elif kind in (
        griffe.DocstringSectionKind.returns,
        griffe.DocstringSectionKind.yields,
        griffe.DocstringSectionKind.receives,
    ):
        named = any(item.name for item in value)
        rows = [
            ([_code(item.name)] if named else [])
            + [_annotation(block, obj, item.annotation)]
            + [_cell(item.description)]
            for item in value
        ]
        head = (["Name"] if named else []) + ["Type", "Description"]
        _table(block, section.title or _title(kind), head, rows)
    elif kind in (griffe.DocstringSectionKind.raises, griffe.DocstringSectionKind.warns):
        rows = [[_annotation(block, obj, i.annotation), _cell(i.description)] for i in value]
        _table(block, section.title or _title(kind), ["Type", "Description"], rows)
    elif kind is griffe.DocstringSectionKind.attributes:
        rows = [
            [
                _code(i.name),
                _annotation(block, obj, _attribute_type(block, obj, i)),
                _cell(i.description),
            ]
            for i in value
        ]
        _table(block, section.title or "Attributes", ["Name", "Type", "Description"], rows)
    elif kind is griffe.DocstringSectionKind.examples:
        _examples(block, section.title or "Examples", value)
    elif kind is griffe.DocstringSectionKind.admonition:
        _admonition(block, value.annotation or "note", section.title or "", value.description)
    elif kind is griffe.DocstringSectionKind.deprecated:
        _admonition(
            block, "warning", f"Deprecated {value.version or ''}".strip(), value.description
        )
    else:  # functions, classes, modules, type aliases, type parameters: name and description
        rows = [[_code(i.name), _cell(i.description)] for i in value]
        _table(block, section.title or _title(kind), ["Name", "Description"], rows)


def _attribute_type(block: _Block, obj: ApiObject, item: Any) -> Any:
    """An attribute's type as its docstring gives it, else as the member is annotated."""
    if item.annotation is not None:
        return item.annotation
    canonical = dict(obj.members).get(item.name)
    member = block.model.get(canonical) if canonical else None
    return member.annotation if member is not None else None


def _title(kind: griffe.DocstringSectionKind) -> str:
    return str(kind.value).capitalize()


def _parameters_table(block: _Block, obj: ApiObject, title: str, items: list[Any]) -> None:
    """Name, Type, Description, Default (*required* when there is none); the type and the
    default come from the signature when the docstring gives none."""
    by_name = {p.name: p for p in obj.parameters}
    rows = []
    for item in items:
        bare = item.name.lstrip("*")
        written = by_name.get(bare)
        annotation: Any = item.annotation
        signature_type = written.annotation if written is not None else None
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
        rows.append(
            [_code(item.name), _annotation(block, obj, annotation), _cell(item.description), shown]
        )
    _table(block, title, ["Name", "Type", "Description", "Default"], rows)


def _annotation(block: _Block, obj: ApiObject, annotation: Any) -> str:
    """A type in a table: an expression of the model with links to its documented names;
    a docstring's own type as its text, with names linked when the model knows them."""
    if annotation is None or annotation == "":
        return ""
    if isinstance(annotation, Expression):
        return _expression(block, annotation, in_table=True)
    text = str(annotation)
    refs = [
        ref
        for e in _expressions_of(obj)
        for ref in e.names
        if re.search(_IDENTIFIER.format(re.escape(ref.text)), text)
    ]
    return _expression(block, Expression(text, tuple(refs)), in_table=True)


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


def _table(block: _Block, title: str, head: list[str], rows: list[list[str]]) -> None:
    if not rows:
        return
    block.add(f"**{_inline(title)}:**", "")
    block.add("| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|")
    block.add(*("| " + " | ".join(cell or " " for cell in row) + " |" for row in rows))
    block.add("")


def _examples(block: _Block, title: str, items: list[tuple[Any, str]]) -> None:
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
    block.add(f'!!! {kind} "{said}"', "")
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
    block.add(f"[Source code in {_code(obj.file)}]({_destination(href + lines)})", "")


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


def _cell(text: str) -> str:
    """A docstring's description in a table cell: one line, ``|`` escaped, roles linked."""
    lines = [line.strip() for line in _roles(text).strip().split("\n")]
    return " ".join(line for line in lines if line).replace("|", "\\|")


def _inline(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text.replace("\n", " "))


def _markdown(text: str) -> str:
    """A docstring's markdown, its Sphinx roles made autorefs and a fence left open closed,
    so it never swallows what the block writes after it."""
    text = _roles(text)
    open_fence = ""
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if found is None:
            continue
        mark = found.group(1)
        if not open_fence:
            open_fence = mark
        elif (
            mark[0] == open_fence[0]
            and len(mark) >= len(open_fence)
            and not line.strip(mark[0] + " \t")
        ):
            open_fence = ""
    return text + (f"\n{open_fence}" if open_fence else "")


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
        setext = not fence and i + 1 < len(lines) and _SETEXT.match(lines[i + 1])
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
