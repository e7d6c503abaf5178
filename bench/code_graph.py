#!/usr/bin/env python3
"""Python code graph of an installed package: sitegen's extraction + resolution vs grimp,
and against the floor of tree-sitter's parse alone.

    pip install -e '.[bench]' django
    python bench/code_graph.py [--package django] [--runs 3] [--jobs 1 2]

Copies the package to ``<tmp>/proj/<package>/`` (the project root is its parent, as grimp's
import root is) with a ``sitegen.toml``. Each measurement runs in a fresh interpreter (this
script with ``--child``) so neither side profits from the other's imports or caches:
sitegen is crawl + ``extract_records`` + ``build_code_graph`` (flow edges included), with the
collector thresholds a build sets (cold: ``.sitegen/`` removed first; warm: shards present,
so nothing is parsed — the number of files handed to the extractor is counted and printed),
grimp is ``grimp.build_graph(package, cache_dir=None)``, and the floor is tree-sitter's
``Parser(language).parse(bytes)`` of the same files (those sitegen's crawl finds), one
process, one core. Prints the medians, the targets (cold within 4x the parse floor, warm at
most 1 s) as met or missed, the load average, both graphs' module and import-edge counts, and
the edge sets' differences both ways, classified by the kind of import statement behind them.
Never writes outside its temporary folder.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from common import REPO

Edge = tuple[str, str]


# ---------------------------------------------------------------- the temporary project


def make_project(package: str, tmp: Path) -> Path:
    """``<tmp>/proj/<package>/`` (a copy of the installed package) plus a sitegen.toml."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{package}: not an installed package (pip install {package})")
    src = Path(next(iter(spec.submodule_search_locations)))
    root = tmp / "proj"
    shutil.copytree(src, root / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (root / "content").mkdir()
    (root / "sitegen.toml").write_text(
        f'source = ["{package}"]\nlanguages = ["python"]\ncontent = "content"\n', encoding="utf-8"
    )
    return root


def module_name(path: str) -> str:
    """``django/db/models/__init__.py`` -> ``django.db.models``."""
    stem = path.rsplit(".", 1)[0]
    return stem.removesuffix("/__init__").replace("/", ".")


# ---------------------------------------------------------------- child: sitegen


def _counting_patches() -> dict[str, int]:
    """Count shard-cache misses (the files sent to the parser, any jobs) and, in this
    process, ``extract_source`` calls (with jobs > 1 they happen in the workers)."""
    import sitegen.code.extract
    from sitegen.code.shards import ShardCache

    counts = {"parsed": 0, "extract_source_calls": 0}
    real_get, real_extract = ShardCache.get, sitegen.code.extract.extract_source

    def counting_get(self, *args):  # type: ignore[no-untyped-def]
        hit = real_get(self, *args)
        counts["parsed"] += hit is None
        return hit

    def counting_extract(*args):  # type: ignore[no-untyped-def]
        counts["extract_source_calls"] += 1
        return real_extract(*args)

    ShardCache.get = counting_get  # type: ignore[method-assign]
    # pipeline._extract_job imports extract_source at call time, so it sees the wrapper.
    sitegen.code.extract.extract_source = counting_extract
    return counts


def child_sitegen(root: Path, jobs: int, cold: bool) -> dict:
    sys.path.insert(0, str(REPO))
    from sitegen.base.progress import Progress
    from sitegen.code.link import build_code_graph
    from sitegen.code.memory import long_lived_objects
    from sitegen.code.pipeline import extract_records
    from sitegen.config import load_config
    from sitegen.crawl import crawl
    from sitegen.records.code_graph import EdgeKind

    counts = _counting_patches()
    if cold:
        shutil.rmtree(root / ".sitegen", ignore_errors=True)
    # A build runs every step with the collector thresholds it sets (sitegen.build); so do these.
    with long_lived_objects():
        c0, t0 = _cpu(), time.perf_counter()
        config = load_config(root, jobs=jobs)
        found = crawl(config)
        t1 = time.perf_counter()
        records, _ = extract_records(found, config, jobs, False, Progress(enabled=False))
        t2 = time.perf_counter()
        graph, _ = build_code_graph(records, config, set(found.all_paths), found.manifests.get)
        t3, c3 = time.perf_counter(), _cpu()
    imports_only = _time_imports_only(records, config, found)
    edges = sorted(
        {
            (module_name(graph.files[e.src].path), module_name(graph.files[e.dst].path))
            for e in graph.edges(EdgeKind.IMPORT)
            if e.dst in graph.files
        }
    )
    return {
        "total": t3 - t0,
        "cpu": c3 - c0,
        "crawl": t1 - t0,
        "extract": t2 - t1,
        "link": t3 - t2,
        "imports_only": imports_only,
        **counts,
        "files": len(found.code),
        "modules": sorted(module_name(f.path) for f in graph.files.values()),
        "edges": edges,
        "lines": _sitegen_lines(records, config, found),
    }


def _cpu() -> float:
    """CPU seconds of this process and of the workers it waited for (jobs > 1)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


# ---------------------------------------------------------------- child: the parse floor


def child_parse(root: Path) -> dict:
    """tree-sitter's parse alone of the files sitegen's crawl finds: each file's bytes to a
    tree, one parser per language, in this one process."""
    sys.path.insert(0, str(REPO))
    from tree_sitter import Parser

    from sitegen.code.grammars import get_language
    from sitegen.config import load_config
    from sitegen.crawl import crawl

    files = [(f.language, f.data) for f in crawl(load_config(root, jobs=1)).code]
    parsers = {lang: Parser(get_language(lang)) for lang in {lang for lang, _ in files}}
    t0 = time.perf_counter()
    for lang, data in files:
        parsers[lang].parse(data)
    return {"total": time.perf_counter() - t0, "files": len(files)}


def _time_imports_only(records: list, config, found) -> float:  # type: ignore[no-untyped-def]
    """Import resolution alone (what grimp does after parsing), without name resolution."""
    from sitegen.code.resolve import ProjectIndex, resolve_imports

    t0 = time.perf_counter()
    index = ProjectIndex.build(records, config, set(found.all_paths), found.manifests.get)
    for record in records:
        resolve_imports(record, index)
    return time.perf_counter() - t0


def _sitegen_lines(records: list, config, found) -> dict[str, list[int]]:  # type: ignore[no-untyped-def]
    """``"a b"`` -> every line whose import statement makes the edge a -> b (for the diff)."""
    from sitegen.code.resolve import ProjectIndex, resolve_imports

    index = ProjectIndex.build(records, config, set(found.all_paths), found.manifests.get)
    lines: dict[str, set[int]] = defaultdict(set)
    for record in records:
        for ri in resolve_imports(record, index)[0]:
            for target in ri.targets:
                if target.path is not None:
                    key = f"{module_name(record.path)} {module_name(target.path)}"
                    lines[key].add(ri.line)
    return {k: sorted(v) for k, v in sorted(lines.items())}


# ---------------------------------------------------------------- child: grimp


def child_grimp(root: Path, package: str) -> dict:
    sys.path.insert(0, str(root))
    import grimp

    spec = importlib.util.find_spec(package)
    origin = (spec.origin if spec else None) or ""
    if not origin.startswith(str(root)):
        sys.exit(f"grimp would read {origin}, not the copy under {root}")
    t0 = time.perf_counter()
    graph = grimp.build_graph(package, cache_dir=None)
    total = time.perf_counter() - t0
    edges, lines = [], {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            edges.append((importer, imported))
            details = graph.get_import_details(importer=importer, imported=imported)
            lines[f"{importer} {imported}"] = sorted({d["line_number"] for d in details})
    return {
        "total": total,
        "modules": sorted(graph.modules),
        "edges": edges,
        "count_imports": graph.count_imports(),
        "lines": lines,
    }


# ---------------------------------------------------------------- parent: running children


def run_child(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    if out.returncode != 0:
        sys.exit(f"child {' '.join(args)} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def measure(root: Path, package: str, runs: int, jobs_list: list[int]) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = defaultdict(list)
    for _ in range(runs):
        results["parse"].append(run_child(["parse", str(root)]))
        for jobs in jobs_list:
            for mode in ("cold", "warm"):
                results[f"sitegen jobs={jobs} {mode}"].append(
                    run_child(["sitegen", str(root), str(jobs), mode])
                )
        results["grimp"].append(run_child(["grimp", str(root), package]))
    return results


# ---------------------------------------------------------------- where an import statement sits

CONTEXTS = ("module level", "function", "TYPE_CHECKING", "try", "if")


@dataclass(frozen=True)
class Statement:
    """The import statement behind an edge: its text, context and shape."""

    text: str
    context: str
    absolute: bool
    names: tuple[str, ...]  # ``from m import a, b``: ("a", "b"); empty for ``import``
    module: str  # as written, dots stripped


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _context(stack: list[ast.AST]) -> str:
    """The strongest enclosing construct: TYPE_CHECKING > function > try > if > module."""
    kinds = set()
    for node in stack:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            kinds.add("TYPE_CHECKING")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            kinds.add("function")
        elif isinstance(node, (ast.Try, ast.TryStar)):
            kinds.add("try")
        elif isinstance(node, ast.If):
            kinds.add("if")
    return next((c for c in CONTEXTS[1:] if c in kinds), "module level")


def statements(path: Path) -> dict[int, Statement]:
    """Every line of every import statement in ``path`` -> the statement."""
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    out: dict[int, Statement] = {}

    def visit(node: ast.AST, stack: list[ast.AST]) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            first = node.lineno
            src = " ".join(x.strip() for x in lines[first - 1 : node.end_lineno or first])
            if isinstance(node, ast.Import):
                st = Statement(src, _context(stack), True, (), node.names[0].name)
            else:
                st = Statement(
                    src,
                    _context(stack),
                    node.level == 0,
                    tuple(a.name for a in node.names),
                    node.module or "",
                )
            for line in range(first, (node.end_lineno or first) + 1):
                out[line] = st
        for child in ast.iter_child_nodes(node):
            visit(child, stack + [node])

    try:
        visit(ast.parse(text), [])
    except SyntaxError:
        pass
    return out


# ---------------------------------------------------------------- comparing the edge sets


@dataclass
class Diff:
    """One side's extra edges, grouped by reason, with the statements behind them."""

    by_reason: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def _file_of(root: Path, module: str) -> Path:
    base = root / module.replace(".", "/")
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"


def _reason(
    edge: Edge,
    st: Statement | None,
    other: dict[Edge, list[int]],
    line: int,
    package: str,
    modules: set[str],
) -> str:
    """Why the other tool does not have this edge (a heuristic over the statement's shape)."""
    importer, imported = edge
    if importer not in modules:
        return (
            "importer is not a module of the other graph (grimp walks only folders "
            "with __init__.py)"
        )
    if imported not in modules:
        return "target is not a module of the other graph"
    if st is None:
        return "no import statement on that line"
    same_line = sorted(b for (a, b), ls in other.items() if a == importer and line in ls)
    if any(b.startswith(imported + ".") for b in same_line):
        return "parent package of the module named (the other side has the module itself)"
    if any(imported.startswith(b + ".") for b in same_line):
        return "module named vs its parent package (the other side has the parent)"
    if st.absolute and st.module.split(".")[0] != package:
        return (
            f"absolute import of a top-level name that is not '{package}' (stdlib, "
            f"third party) taken as a same-named module inside '{package}'"
        )
    if st.names and (imported == st.module or f"{st.module}." in imported):
        return "from-import: name taken as module vs attribute"
    if not st.absolute:
        return "relative import resolved differently"
    return "other"


def classify(
    root: Path,
    extra: set[Edge],
    mine: dict[Edge, list[int]],
    other: dict[Edge, list[int]],
    package: str,
    modules: set[str],
) -> Diff:
    diff = Diff()
    cache: dict[str, dict[int, Statement]] = {}
    for edge in sorted(extra):
        importer = edge[0]
        if importer not in cache:
            cache[importer] = statements(_file_of(root, importer))
        rel = _file_of(root, importer).relative_to(root).as_posix()
        line = (mine.get(edge) or [0])[0]  # the first statement making the edge
        st = cache[importer].get(line)
        reason = _reason(edge, st, other, line, package, modules)
        text = st.text if st else "?"
        ctx = f" [{st.context}]" if st and st.context != "module level" else ""
        diff.by_reason[reason].append(f"{edge[0]} -> {edge[1]}  ({rel}:{line}{ctx}: {text})")
    return diff


def contexts(root: Path, lines: dict[Edge, list[int]]) -> Counter[str]:
    """Edges by their least guarded statement (an edge made at module level counts there)."""
    counts: Counter[str] = Counter()
    cache: dict[str, dict[int, Statement]] = {}
    for (importer, _), ls in lines.items():
        if importer not in cache:
            cache[importer] = statements(_file_of(root, importer))
        found = [cache[importer][n].context for n in ls if n in cache[importer]]
        counts[min(found, key=CONTEXTS.index) if found else "?"] += 1
    return counts


# ---------------------------------------------------------------- printing


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def _parsed(runs: list[dict], jobs: int | None) -> str:
    parsed = sorted({r["parsed"] for r in runs})
    text = "/".join(str(p) for p in parsed)
    if jobs == 1:  # extract_source ran in this process: its calls must match the misses
        calls = sorted({r["extract_source_calls"] for r in runs})
        text += "" if calls == parsed else f" ({'/'.join(map(str, calls))} calls)"
    return text


def print_times(results: dict[str, list[dict]]) -> None:
    grimp = _median(results["grimp"], "total")
    floor = _median(results["parse"], "total")
    print(
        f"| {'run':<22} | {'seconds':>7} | {'cpu':>5} | {'parsed':>6} | {'crawl':>5} "
        f"| {'extract':>7} | {'link':>5} | {'/ parse':>7} | {'/ grimp':>7} |"
    )
    print(
        f"|{'-' * 24}|{'-' * 9}|{'-' * 7}|{'-' * 8}|{'-' * 7}|{'-' * 9}|{'-' * 7}|{'-' * 9}|{'-' * 9}|"
    )
    for name, runs in results.items():
        total = _median(runs, "total")
        if name in ("grimp", "parse"):
            label = "grimp build_graph" if name == "grimp" else "tree-sitter parse"
            print(
                f"| {label:<22} | {total:7.3f} | {'':>5} | {'all':>6} | {'':>5} | "
                f"{'':>7} | {'':>5} | {total / floor:6.2f}x | {total / grimp:6.2f}x |"
            )
            continue
        jobs = int(name.split("jobs=")[1].split()[0])
        print(
            f"| {name:<22} | {total:7.3f} | {_median(runs, 'cpu'):5.2f} | "
            f"{_parsed(runs, jobs):>6} | {_median(runs, 'crawl'):5.3f} | "
            f"{_median(runs, 'extract'):7.3f} | {_median(runs, 'link'):5.3f} | "
            f"{total / floor:6.2f}x | {total / grimp:6.2f}x |"
        )
    print_targets(results, floor)
    sitegen = [k for k in results if k.startswith("sitegen")]
    imports_only = statistics.median(r["imports_only"] for k in sitegen for r in results[k])
    print(
        f"\nlink = build_code_graph (imports and name resolution); import resolution alone "
        f"(ProjectIndex.build + resolve_imports): {imports_only:.3f} s"
    )
    ratios = ", ".join(
        f"{k.removeprefix('sitegen ')} {_median(results[k], 'total') / grimp:.1f}x" for k in sitegen
    )
    print(f"Ratio sitegen / grimp (wall time, median): {ratios}")


def print_targets(results: dict[str, list[dict]], floor: float) -> None:
    """Issue 19's targets for the code graph: cold within 4x the parse floor, warm at most 1 s."""
    print(
        f"\nparse floor (tree-sitter alone, one core): {floor:.3f} s; cold target {4 * floor:.3f} s"
    )
    for name in (k for k in results if k.startswith("sitegen")):
        total = _median(results[name], "total")
        if name.endswith("cold"):
            verdict = "met" if total <= 4 * floor else "missed"
            print(f"  {name}: {total:.3f} s = {total / floor:.2f}x the parse: {verdict} (<= 4x)")
        else:
            verdict = "met" if total <= 1.0 else "missed"
            print(f"  {name}: {total:.3f} s: {verdict} (<= 1 s)")


def _lines(run: dict) -> dict[Edge, list[int]]:
    return {tuple(k.split(" ")): v for k, v in run["lines"].items()}  # type: ignore[misc]


def print_graphs(root: Path, package: str, results: dict[str, list[dict]]) -> None:
    sitegen_runs = [r for k, rs in results.items() if k.startswith("sitegen") for r in rs]
    s, g = sitegen_runs[0], results["grimp"][0]
    same = all(r["edges"] == s["edges"] and r["modules"] == s["modules"] for r in sitegen_runs)
    S, G = {tuple(e) for e in s["edges"]}, {tuple(e) for e in g["edges"]}
    sm, gm = set(s["modules"]), set(g["modules"])
    print(f"\n| {'graph':<8} | {'modules':>7} | {'import edges':>12} |")
    print(f"|{'-' * 10}|{'-' * 9}|{'-' * 14}|")
    print(f"| {'sitegen':<8} | {len(sm):7} | {len(S):12} |")
    print(f"| {'grimp':<8} | {len(gm):7} | {len(G):12} |")
    print(
        f"\ngrimp count_imports() = {g['count_imports']}; sitegen graphs identical over all "
        f"{len(sitegen_runs)} runs (cold, warm, every jobs): {'yes' if same else 'NO'}"
    )
    print(f"modules only in sitegen: {sorted(sm - gm)[:10]}, only in grimp: {sorted(gm - sm)[:10]}")
    print(
        f"import edges in both: {len(S & G)}, only in sitegen: {len(S - G)}, "
        f"only in grimp: {len(G - S)}"
    )
    sl, gl = _lines(s), _lines(g)
    sc, gc = contexts(root, {e: sl.get(e, []) for e in S}), contexts(root, {e: gl[e] for e in G})
    print("\nEdges by the least guarded import statement that makes them:")
    print(f"| {'statement sits':<14} | {'sitegen':>7} | {'grimp':>7} |")
    print(f"|{'-' * 16}|{'-' * 9}|{'-' * 9}|")
    for ctx in (*CONTEXTS, "?"):
        if sc[ctx] or gc[ctx]:
            print(f"| {ctx:<14} | {sc[ctx]:7} | {gc[ctx]:7} |")
    for side, extra, mine, other, mods in (
        ("sitegen", S - G, sl, gl, gm),
        ("grimp", G - S, gl, sl, sm),
    ):
        print(f"\nOnly in {side} ({len(extra)}):")
        diff = classify(root, extra, mine, other, package, mods)
        for reason, items in sorted(diff.by_reason.items(), key=lambda kv: -len(kv[1])):
            print(f"  {reason} ({len(items)}):")
            for item in items[:10]:
                print(f"    {item}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package", default="django")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--jobs",
        type=int,
        nargs="+",
        default=[1, 2],
        help="sitegen worker counts to time (default: 1 2)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sitegen-code-bench-") as tmp:
        root = make_project(args.package, Path(tmp))
        files = sum(1 for _ in (root / args.package).rglob("*.py"))
        try:
            ver = importlib.metadata.version(args.package)
        except importlib.metadata.PackageNotFoundError:
            ver = "?"
        print(
            f"{args.package} {ver}: {files} .py files; python {sys.version.split()[0]}; "
            f"median of {args.runs} runs; {time.strftime('%Y-%m-%d')}; "
            f"{os.cpu_count()} cores, load average {_load()} before"
        )
        results = measure(root, args.package, args.runs, args.jobs)
        print(f"load average {_load()} after\n")
        print_times(results)
        print_graphs(root, args.package, results)


def _load() -> str:
    """The 1, 5 and 15 minute load averages: the machine is shared."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _child_main(argv: list[str]) -> None:
    if argv[0] == "sitegen":
        result = child_sitegen(Path(argv[1]), int(argv[2]), argv[3] == "cold")
    elif argv[0] == "parse":
        result = child_parse(Path(argv[1]))
    else:
        result = child_grimp(Path(argv[1]), argv[2])
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child_main(sys.argv[2:])
    else:
        main()
