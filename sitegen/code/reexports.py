"""What removing a package's re-export breaks: the names ``pkg/__init__.py`` imports from
one of its modules, and the files that import those names from the package
(content/guides/cycles.md#removing-a-re-export).

Read by the cycle analysis's guidance, after the code graph is finished: resolves only the
imports of the package file and of the files that import it. Never reads files and never
changes the graph.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from sitegen.base.languages import LangId
from sitegen.code.resolve import ProjectIndex, resolve_imports
from sitegen.config import Config
from sitegen.records.analysis import ReExport
from sitegen.records.code import CodeRecord
from sitegen.records.code_graph import CodeGraph, EdgeKind


def is_package_file(path: str) -> bool:
    """``pkg/__init__.py`` (or ``.pyi``): the module ``import pkg`` runs."""
    return posixpath.basename(path) in ("__init__.py", "__init__.pyi")


def reexports(
    pairs: Iterable[tuple[str, str]],
    records: list[CodeRecord],
    graph: CodeGraph,
    config: Config,
    all_paths: set[str],
) -> dict[tuple[str, str], ReExport]:
    """For each ``(package file, module)`` pair whose first end is a Python package's
    ``__init__`` importing names from the module: those names, and every file that imports
    one of them (or ``*``) from the package. Other pairs are left out."""
    wanted = sorted({(s, d) for s, d in pairs if is_package_file(s)})
    if not wanted:
        return {}
    by_path = {r.path: r for r in records if r.language == LangId.PYTHON}
    packages = {s for s, _ in wanted if s in by_path}
    importers = _importers_of(graph, packages)
    needed = packages | {p for found in importers.values() for p in found}
    index = ProjectIndex.build(records, config, all_paths)
    exposed = {path: _exposed(by_path[path], index) for path in sorted(needed) if path in by_path}
    out: dict[tuple[str, str], ReExport] = {}
    for package, module in wanted:
        taken = {local for local, _, target in exposed.get(package, []) if target == module}
        if "*" in taken:  # `from .m import *`: every public top-level name of the module
            taken = (taken - {"*"}) | _public_names(graph, module)
        names = sorted(taken)
        if not names:
            continue
        users = sorted(
            user
            for user in importers.get(package, ())
            if any(
                target == package and (original in names or original == "*")
                for _, original, target in exposed.get(user, [])
            )
        )
        out[(package, module)] = ReExport(
            package, module, _module_name(package), tuple(names), tuple(users)
        )
    return out


def _public_names(graph: CodeGraph, path: str) -> set[str]:
    file_id = next((f.id for f in graph.files.values() if f.path == path), None)
    return {
        s.name
        for s in graph.symbols.values()
        if s.file_id == file_id and "." not in s.qualified_name and not s.name.startswith("_")
    }


def _importers_of(graph: CodeGraph, packages: set[str]) -> dict[str, list[str]]:
    """The files with an import edge to each package file (the package's own file excluded)."""
    found: dict[str, list[str]] = {}
    for edge in graph.edges(EdgeKind.IMPORT):
        dst, src = graph.files.get(edge.dst), graph.files.get(edge.src)
        if dst is not None and src is not None and dst.path in packages and src.path != dst.path:
            found.setdefault(dst.path, []).append(src.path)
    return found


def _exposed(record: CodeRecord, index: ProjectIndex) -> list[tuple[str, str, str]]:
    """``(local name, name in the target, target path)`` for each name a ``from … import``
    of ``record`` takes from a project file; ``("*", "*", path)`` for a star import."""
    resolved, _ = resolve_imports(record, index)
    out = []
    for ri in resolved:
        if ri.form != "from":
            continue
        for target in ri.targets:
            if target.path is None:
                continue
            if target.exposure.star:
                out.append(("*", "*", target.path))
            out += [(local, original, target.path) for local, original in target.exposure.names]
    return out


def _module_name(package_file: str) -> str:
    """``fastapi/_compat/__init__.py`` -> ``fastapi._compat``."""
    return posixpath.dirname(package_file).replace("/", ".")
