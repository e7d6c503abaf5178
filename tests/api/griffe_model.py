"""A test-only bridge: the fixture package read by griffe into the plain ApiModel, so the
renderer is tested against griffe's own reading until sitegen/api/load.py takes its place.

Reads the fixture's files from disk (tests only); statically, nothing is imported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import griffe

from sitegen.api.model import (
    ApiKind,
    ApiModel,
    ApiObject,
    Docstring,
    Expression,
    Parameter,
    TypeRef,
)

FIXTURES = Path(__file__).parent / "fixtures"
#: The fixture's sources as a repository path (what a "Source" link names).
SOURCE_ROOT = "tests/api/fixtures/src"


def fixture_model(package: str = "gizmo") -> ApiModel:
    loader = griffe.GriffeLoader(search_paths=[str(FIXTURES / "src")], allow_inspection=False)
    top = loader.load(package)
    model = ApiModel()
    _add(model, top)  # type: ignore[arg-type]
    return model


def _expression(value: Any) -> Expression | None:
    if value is None:
        return None
    if isinstance(value, str):
        return Expression(value)
    names = tuple(
        TypeRef(tok.name, tok.canonical_path)
        for tok in value.iterate(flat=True)
        if isinstance(tok, griffe.ExprName)
    )
    return Expression(str(value), names)


def _add(model: ApiModel, obj: griffe.Object) -> None:
    members: list[tuple[str, str]] = []
    for name, member in obj.members.items():
        if isinstance(member, griffe.Alias):
            model.aliases[member.path] = member.target_path
            members.append((name, member.path))
        else:
            members.append((name, member.path))
            _add(model, member)
    kind = ApiKind(obj.kind.value)
    docstring = Docstring(obj.docstring.value, obj.docstring.lineno or 0) if obj.docstring else None
    extra: dict[str, Any] = {}
    if isinstance(obj, griffe.Function):
        extra["parameters"] = tuple(
            Parameter(p.name, p.kind.value, _expression(p.annotation), _expression(p.default))
            for p in obj.parameters
        )
        extra["returns"] = _expression(obj.returns)
    if isinstance(obj, griffe.Attribute):
        extra["annotation"] = _expression(obj.annotation)
        extra["value"] = _expression(obj.value)
    if isinstance(obj, griffe.Class):
        extra["bases"] = tuple(e for e in (_expression(b) for b in obj.bases) if e)
    if isinstance(obj, griffe.Module) and obj.exports is not None:
        extra["exports"] = tuple(str(e) for e in obj.exports)
    model.objects[obj.path] = ApiObject(
        canonical=obj.path,
        name=obj.name,
        kind=kind,
        file=f"{SOURCE_ROOT}/{obj.relative_package_filepath}",
        lineno=obj.lineno or 0,
        endlineno=obj.endlineno or 0,
        labels=tuple(sorted(obj.labels)),
        docstring=docstring,
        is_public=obj.is_public,
        members=tuple(members),
        **extra,
    )
