"""The code's own documentation as plain data: every Python object an API page can show, read
statically by griffe (sitegen/api/load.py) and kept as JSON between builds.

Plain frozen records and lookups only: never reads a file, never imports griffe, never renders
(content/guides/api-reference.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class ApiKind(StrEnum):
    """griffe's kinds, as mkdocstrings names them (a property is an attribute)."""

    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    ATTRIBUTE = "attribute"
    TYPE_ALIAS = "type alias"
    #: An alias whose target is not loaded (its package is not installed, or has no such
    #: object): shown by its name and a link to the target, never stored.
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class TypeRef:
    """A name inside an annotation, a default or a base (``Thing`` in ``list[Thing]``): its
    text as written and the dotted path it stands for (griffe's ``canonical_path``), for
    ``signature_crossrefs``."""

    text: str
    path: str


@dataclass(frozen=True)
class Expression:
    """An annotation, a default value, a base class or an attribute's value, as source text,
    with the names it refers to."""

    text: str
    names: tuple[TypeRef, ...] = ()


@dataclass(frozen=True)
class Parameter:
    """One parameter of a signature; ``kind`` is griffe's ``ParameterKind.value``
    (``positional-only``, ``positional or keyword``, ``variadic positional``, ``keyword-only``,
    ``variadic keyword``)."""

    name: str
    kind: str
    annotation: Expression | None = None
    default: Expression | None = None


@dataclass(frozen=True)
class Overload:
    """One ``@overload`` signature of a function (griffe's ``Function.overloads``)."""

    parameters: tuple[Parameter, ...] = ()
    returns: Expression | None = None


@dataclass(frozen=True)
class Docstring:
    """The raw docstring (dedented, as griffe gives it) and the line it starts on. It is parsed
    by style when an entry is rendered, since the style is an option of the block."""

    text: str
    line: int


@dataclass(frozen=True)
class ApiObject:
    """One object at its definition (``canonical`` path). Members are named, not nested, so the
    model is flat and each object is stored once; a path as reached through an alias or a
    subclass is computed by ``ApiModel.reach``."""

    canonical: str
    name: str
    kind: ApiKind
    #: The repository path of the defining file ("" for an installed dependency's object,
    #: which is shown but never published as a source page).
    file: str
    lineno: int
    endlineno: int
    labels: tuple[str, ...] = ()
    docstring: Docstring | None = None
    #: Functions (and a class's merged ``__init__`` is its ``__init__`` member's).
    parameters: tuple[Parameter, ...] = ()
    returns: Expression | None = None
    #: Attributes.
    annotation: Expression | None = None
    value: Expression | None = None
    #: Classes: the bases as written, with the names they refer to.
    bases: tuple[Expression, ...] = ()
    #: Own members in source (insertion) order: name -> the canonical path of the member,
    #: which differs from ``canonical + "." + name`` for an imported name (an alias).
    members: tuple[tuple[str, str], ...] = ()
    #: A module's ``__all__`` when it declares one.
    exports: tuple[str, ...] | None = None
    #: griffe's flags, as mkdocstrings' filters read them.
    is_public: bool = True
    decorators: tuple[str, ...] = ()
    #: From an installed dependency, read for the pages only.
    external: bool = False
    #: griffe's ``is_imported``: the name is bound by an import in its parent as well (a
    #: fallback class under ``except ImportError:``), so it is public only by ``__all__``.
    is_imported: bool = False
    #: Functions: the ``@overload`` signatures written before the implementation, in order.
    overloads: tuple[Overload, ...] = ()

    def member_names(self) -> list[str]:
        return [name for name, _ in self.members]


@dataclass
class ApiModel:
    """Every object loaded, by canonical path, and the aliases that name them."""

    objects: dict[str, ApiObject] = field(default_factory=dict)
    #: alias path (``fastapi.Request``) -> the path it names (first hop).
    aliases: dict[str, str] = field(default_factory=dict)
    #: alias path -> the line of its import, where ``members_order: source`` puts it.
    alias_lines: dict[str, int] = field(default_factory=dict)

    #: Alias chains longer than this are a cycle or an error, never followed further.
    MAX_HOPS = 32

    def target(self, path: str) -> str | None:
        """The canonical path ``path`` stands for, following aliases (None: not loaded, or an
        alias cycle)."""
        seen = 0
        while path not in self.objects:
            nxt = self.aliases.get(path)
            if nxt is None:
                nxt = self._through_parent(path)
            if nxt is None or seen >= self.MAX_HOPS:
                return None
            path, seen = nxt, seen + 1
        return path

    def _through_parent(self, path: str) -> str | None:
        """``pkg.Alias.member`` -> ``target(pkg.Alias) + ".member"``."""
        parent, dot, name = path.rpartition(".")
        if not dot:
            return None
        found = self.target(parent) if parent in self.aliases else None
        return f"{found}.{name}" if found is not None and found != parent else None

    def unloaded(self, path: str) -> str | None:
        """The path the alias ``path`` leads to when nothing is loaded there (its package is
        not installed, or has no such object); None when ``path`` is no alias, its target is
        loaded, or its aliases form a cycle."""
        if path not in self.aliases or self.target(path) is not None:
            return None
        for _ in range(self.MAX_HOPS):
            nxt = alias_step(self.aliases, path)
            if nxt is None:
                return path if path not in self.objects else None
            path = nxt
        return None

    def package_loaded(self, path: str) -> bool:
        """Whether the top-level package of ``path`` is loaded (else it is not installed, or
        not read)."""
        return path.partition(".")[0] in self.objects

    def get(self, path: str) -> ApiObject | None:
        found = self.target(path)
        return self.objects.get(found) if found is not None else None

    def bases_of(self, obj: ApiObject) -> Iterator[ApiObject]:
        """The loaded base classes of a class, in the order written."""
        for base in obj.bases:
            found = self.get(base_path(base))
            if found is not None and found.kind is ApiKind.CLASS:
                yield found


def alias_step(aliases: Mapping[str, str], path: str) -> str | None:
    """``path`` with its longest prefix that is an alias replaced by that alias' target
    (``pkg.Alias.member`` -> ``dep.Thing.member``); None when no prefix is one."""
    prefix = path
    while prefix not in aliases:
        prefix, dot, _ = prefix.rpartition(".")
        if not dot:
            return None
    return aliases[prefix] + path[len(prefix) :]


def base_path(base: Expression) -> str:
    """The path of the class a base expression names: the name it ends with before any
    ``[`` (``httpx.Client`` is ``Client`` of the module ``httpx``, ``Generic[T]`` is
    ``Generic``), as griffe resolves it; the text itself when no name of it is known."""
    head = base.text.partition("[")[0].strip()
    last = head.rpartition(".")[2]
    ref = next((r for r in base.names if r.text == last), None)
    return ref.path if ref is not None else head


#: Base classes followed at most to find where an inherited member is defined.
MAX_ANCESTORS = 64


def canonical_of(model: ApiModel, path: str) -> str | None:
    """The canonical path of the object ``path`` names: through aliases (``model.target``),
    else an inherited member (``pkg.Sub.method`` is ``pkg.Base.method``); None for a name the
    model does not know."""
    found = model.target(path)
    if found is not None:
        return found
    owner, dot, name = path.rpartition(".")
    cls = model.get(owner) if dot else None
    if cls is None or cls.kind is not ApiKind.CLASS:
        return None
    for ancestor in _ancestors(model, cls.canonical):
        member = dict(model.objects[ancestor].members).get(name)
        if member is not None:
            return model.target(member)
    return None


def _ancestors(model: ApiModel, canonical: str) -> Iterable[str]:
    """The loaded base classes of a class, nearest first, each once."""
    seen: set[str] = {canonical}
    queue = [canonical]
    while queue and len(seen) <= MAX_ANCESTORS:
        for base in model.bases_of(model.objects[queue.pop(0)]):
            if base.canonical not in seen:
                seen.add(base.canonical)
                queue.append(base.canonical)
                yield base.canonical
