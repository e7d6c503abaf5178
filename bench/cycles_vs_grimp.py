#!/usr/bin/env python3
"""Python import kinds against grimp (issue 21, point 5): does sitegen's edge set match
grimp's with type-checking imports and without them, and what do the cycles look like when
deferred and type-only imports are left out, or put back?

    pip install -e '.[bench]'
    python bench/cycles_vs_grimp.py --package django
    python bench/cycles_vs_grimp.py --package fastapi --path /tmp/fastapi-checkout

``--path`` is the folder that holds the package (a checkout); without it, the installed
package is used. The package is copied to ``<tmp>/proj/<package>/`` (the project root is its
parent, as grimp's import root is). sitegen is crawl + extraction + ``build_code_graph`` +
the cycle analysis, in this process; grimp is ``grimp.build_graph(package, cache_dir=None,
exclude_type_checking_imports=…)``. Prints both graphs' module-level import-edge counts and
differences both ways, and the cycle summary for each ``cycles_include``. Never writes
outside its temporary folder.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

from common import REPO

Edge = tuple[str, str]


def module_name(path: str) -> str:
    """``django/db/__init__.py`` -> ``django.db``."""
    parts = path.removesuffix(".py").removesuffix(".pyi").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def copy_package(package: str, path: Path | None, tmp: Path) -> Path:
    if path is None:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            sys.exit(f"{package}: not an installed package (pip install {package})")
        src = Path(next(iter(spec.submodule_search_locations)))
    else:
        src = path / package
    root = tmp / "proj"
    shutil.copytree(src, root / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (root / "content").mkdir()
    (root / "content/index.md").write_text("# Home\n", encoding="utf-8")
    (root / "sitegen.toml").write_text(
        f'source = ["{package}"]\nlanguages = ["python"]\ncontent = "content"\n', encoding="utf-8"
    )
    return root


def sitegen_graph(root: Path):  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(REPO))
    from sitegen.base.progress import Progress
    from sitegen.code.link import build_code_graph
    from sitegen.code.pipeline import extract_records
    from sitegen.config import load_config
    from sitegen.crawl import crawl

    config = load_config(root, jobs=1)
    found = crawl(config)
    records, _ = extract_records(found, config, 1, False, Progress(enabled=False))
    graph, _ = build_code_graph(records, config, set(found.all_paths), found.manifests.get)
    return graph, records


def sitegen_edges(graph) -> dict[Edge, str]:  # type: ignore[no-untyped-def]
    """Module -> module import edges with their context ("" at load time)."""
    from sitegen.records.code_graph import EdgeKind

    return {
        (module_name(graph.files[e.src].path), module_name(graph.files[e.dst].path)): e.context
        for e in graph.edges(EdgeKind.IMPORT)
        if e.dst in graph.files
    }


def grimp_edges(root: Path, package: str, exclude_type_checking: bool) -> set[Edge]:
    import grimp

    sys.path.insert(0, str(root))
    graph = grimp.build_graph(
        package, cache_dir=None, exclude_type_checking_imports=exclude_type_checking
    )
    return {
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
    }


def compare(label: str, mine: set[Edge], theirs: set[Edge]) -> None:
    print(
        f"| {label} | {len(mine):,} | {len(theirs):,} | {len(mine & theirs):,} | "
        f"{len(mine - theirs):,} | {len(theirs - mine):,} |"
    )


def print_cycles(graph, records, package: str) -> None:  # type: ignore[no-untyped-def]
    from sitegen.analyse.cycles import analyse_cycles
    from sitegen.analyse.reports import summary_sentence
    from sitegen.code.link import dependency_edges
    from sitegen.code.units import deployment_units

    files, symbols = dependency_edges(graph)
    units = deployment_units(graph)
    for include in ((), ("deferred",), ("deferred", "type-only")):
        report = analyse_cycles([r.path for r in records], files, symbols, (), units, include)
        biggest = max((len(u.members) for u in report.code.cyclic), default=0)
        print(f"\ncycles_include = {list(include)} (largest cyclic unit: {biggest} files)")
        print(summary_sentence(report))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="django")
    parser.add_argument("--path", type=Path, help="the folder holding the package")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_package(args.package, args.path, Path(tmp))
        graph, records = sitegen_graph(root)
        mine = sitegen_edges(graph)
        every = set(mine)
        runtime = {e for e, context in mine.items() if context != "type-only"}
        kinds = {c or "load time": sum(v == c for v in mine.values()) for c in set(mine.values())}
        print(f"{args.package}: {len(graph.files):,} files; sitegen import edges by kind: {kinds}")
        print("\n| edges | sitegen | grimp | both | only sitegen | only grimp |")
        print("|---|---|---|---|---|---|")
        compare("all imports", every, grimp_edges(root, args.package, False))
        compare("without type-checking", runtime, grimp_edges(root, args.package, True))
        print_cycles(graph, records, args.package)


if __name__ == "__main__":
    main()
