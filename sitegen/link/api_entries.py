"""Which page shows which API entry: the ids of the objects ``:::`` blocks render (headings
``{id="pkg.mod.Name"}`` and hidden roots ``<a id>``) read back from the page records, so that
a cross-reference lands on the entry (content/guides/api-reference.md).

Built from page records and the ``ApiModel`` only; never reads files, never renders.
"""

from __future__ import annotations

from collections.abc import Mapping

from sitegen.base.languages import LangId
from sitegen.base.paths import NodeId
from sitegen.records.api import ApiKind, ApiModel, canonical_of
from sitegen.records.code_graph import external_endpoint, file_endpoint, symbol_endpoint
from sitegen.records.linked import ApiEntries, ApiEntry
from sitegen.records.pages import PageRecord


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
