"""Which page shows which API entry: the ids of the objects ``:::`` blocks render (headings
``{id="pkg.mod.Name"}`` and hidden roots ``<a id>``) read back from the page records, so that
a cross-reference lands on the entry (content/guides/api-reference.md).

Built from page records and the ``ApiModel`` only; never reads files, never renders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sitegen.base.languages import LangId
from sitegen.base.paths import NodeId
from sitegen.records.api import ApiKind, ApiModel
from sitegen.records.code_graph import external_endpoint, file_endpoint, symbol_endpoint
from sitegen.records.pages import PageRecord

#: Base classes followed at most to find where an inherited member is defined.
MAX_ANCESTORS = 64


class Via:
    """How a name found its entry, in the words ``sitegen explain`` prints."""

    ID = "the id of an entry"
    CANONICAL = "the object an alias names, shown at its own path"
    OTHER_PATH = "the object, shown under another path"


@dataclass(frozen=True, slots=True)
class ApiEntry:
    """One object shown on one page: the page, the id of its heading or hidden root, and the
    canonical path of the object (what an alias or a re-export stands for)."""

    page: NodeId
    id: str
    canonical: str

    @property
    def where(self) -> str:
        return f"{self.page}#{self.id}"


@dataclass
class ApiEntries:
    """Every entry of the site, by the id it is shown with and by its object's canonical
    path; when several pages show one object, the entry at the object's own path wins, then
    the first page by path (the same entry on every build)."""

    by_id: dict[str, ApiEntry] = field(default_factory=dict)
    by_canonical: dict[str, ApiEntry] = field(default_factory=dict)
    model: ApiModel = field(default_factory=ApiModel)
    #: Every entry of every page, by (page, id): what a link that lands on one names.
    by_place: dict[tuple[NodeId, str], ApiEntry] = field(default_factory=dict)
    _pages: dict[NodeId, list[ApiEntry]] | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return bool(self.by_id)

    def find(self, dotted: str) -> tuple[ApiEntry | None, str, str]:
        """The entry a dotted name means, how it was found (a ``Via``), and the canonical
        path the name stands for ("" when the model does not know it)."""
        exact = self.by_id.get(dotted)
        canonical = canonical_of(self.model, dotted) or ""
        if exact is not None:
            return exact, Via.ID, canonical
        found = self.by_canonical.get(canonical) if canonical else None
        if found is None:
            return None, "", canonical
        return found, Via.CANONICAL if found.id == canonical else Via.OTHER_PATH, canonical

    def entries(self) -> list[ApiEntry]:
        """Every entry of every page, by page then id."""
        return sorted(self.by_place.values(), key=lambda e: (e.page, e.id))

    def on_page(self, page: NodeId) -> list[ApiEntry]:
        """The entries of one page, by id."""
        if self._pages is None:
            self._pages = {}
            for entry in self.entries():
                self._pages.setdefault(entry.page, []).append(entry)
        return self._pages.get(page, [])


def qualified_name(model: ApiModel, canonical: str) -> str:
    """The object's name inside its module (``Gadget.spin`` for ``shop.parts.Gadget.spin``);
    "" for a module."""
    parts = canonical.split(".")
    for k in range(len(parts), 0, -1):
        found = model.objects.get(".".join(parts[:k]))
        if found is not None and found.kind is ApiKind.MODULE:
            return ".".join(parts[k:])
    return canonical


def symbol_node(model: ApiModel, canonical: str) -> NodeId:
    """The graph node of an object: the code graph's own name for it
    (content/reference/code-graph.md), so that the entry and the code's importers and users
    meet: ``python:pkg/mod.py::Name.method`` for an object of the project, its file's
    ``python:pkg/mod.py`` for a module, ``external:python:pkg.Name`` for an installed
    dependency's object (or one whose module was not loaded)."""
    parts = canonical.split(".")
    for k in range(len(parts), 0, -1):
        module = model.objects.get(".".join(parts[:k]))
        if module is None or module.kind is not ApiKind.MODULE:
            continue
        if module.external or not module.file:
            break
        file = file_endpoint(LangId.PYTHON, module.file)
        qualified = ".".join(parts[k:])
        return NodeId(symbol_endpoint(file, qualified) if qualified else file)
    return NodeId(external_endpoint(LangId.PYTHON, canonical))


def api_entries(pages: Mapping[NodeId, PageRecord], model: ApiModel | None) -> ApiEntries:
    """The entries the pages show: each id of a heading or anchor that names an object of the
    model. A prose heading whose slug happens to be a module's name (``# Gizmo`` -> ``gizmo``)
    is none: an id without a dot counts only as a hidden root or as a heading whose text is
    the name itself, as ``render.py`` writes them."""
    found = ApiEntries(model=model or ApiModel())
    if model is None or not model.objects:
        return found
    shown: list[ApiEntry] = []
    for node in sorted(pages):
        record = pages[node]
        heading_text = {h.id: h.text.strip().strip("`") for h in record.headings}
        for anchor in dict.fromkeys([*heading_text, *record.anchors]):
            if "." not in anchor and heading_text.get(anchor, anchor) != anchor:
                continue
            canonical = canonical_of(model, anchor)
            if canonical is not None:
                shown.append(ApiEntry(node, anchor, canonical))
    for entry in shown:
        found.by_id.setdefault(entry.id, entry)
        found.by_place[(entry.page, entry.id)] = entry
    for entry in sorted(shown, key=lambda e: (e.id != e.canonical, e.page, e.id)):
        found.by_canonical.setdefault(entry.canonical, entry)
    return found


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
