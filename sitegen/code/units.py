"""Deployment units of the code graph (content/guides/cycles.md): which files ship together.

A file for Python, JavaScript, TypeScript, C, C++ and Ruby; the package (its folder) for Go,
whose files share one namespace; the crate for Rust, a crate root and the module tree its
``mod`` declarations (ownership edges) reach. Reads only the finished graph; never mutates it.
"""

from __future__ import annotations

import posixpath
from collections import deque

from sitegen.base.languages import LangId
from sitegen.graph.dependencies import Unit
from sitegen.records.code_graph import CodeGraph, EdgeKind

FILE, PACKAGE, CRATE = "file", "package", "crate"


def go_package_id(path: str) -> str:
    """``cart/item.go`` -> ``cart/``; a file at the root -> ``./``: a folder, never a file."""
    folder = posixpath.dirname(path)
    return f"{folder}/" if folder else "./"


def deployment_units(graph: CodeGraph) -> dict[str, Unit]:
    """The unit of every file of ``graph``, by repository path."""
    units: dict[str, Unit] = {}
    rust: list[str] = []
    for node in sorted(graph.files.values(), key=lambda n: n.path):
        if node.language == LangId.GO:
            units[node.path] = Unit(go_package_id(node.path), PACKAGE)
        elif node.language == LangId.RUST:
            rust.append(node.path)
        else:
            units[node.path] = Unit(node.path, FILE)
    units.update(_rust_crates(graph, rust))
    return units


def _rust_crates(graph: CodeGraph, paths: list[str]) -> dict[str, Unit]:
    """Each Rust file no ``mod`` declaration reaches is a crate root (``lib.rs``, ``main.rs``,
    ``src/bin/x.rs``, ``build.rs``, ``tests/x.rs``); its module tree is its crate. A module
    declared by two crates (rare: ``#[path]``) joins the first crate by path."""
    children: dict[str, list[str]] = {}
    owned: set[str] = set()
    for edge in graph.edges(EdgeKind.OWNERSHIP):
        if edge.src in graph.files and edge.dst in graph.files:
            src, dst = graph.files[edge.src].path, graph.files[edge.dst].path
            children.setdefault(src, []).append(dst)
            owned.add(dst)
    units: dict[str, Unit] = {}
    for root in (p for p in paths if p not in owned):
        queue = deque([root])
        while queue:
            path = queue.popleft()
            if path in units:
                continue
            units[path] = Unit(root, CRATE)
            queue.extend(sorted(children.get(path, [])))
    # A module tree that loops back on itself has no root: each file stands alone.
    for path in paths:
        units.setdefault(path, Unit(path, CRATE))
    return units
