"""Cycles and deployability (content/reference/cycles.md): SCCs of the code's import + reference
graph projected onto deployment units (a file; a Go package; a Rust crate) and at symbol
level, deployment order, refactor guidance, and typed-relation cycles.

Pure analysis over plain edge lists: never reads files, never mutates its inputs, and never
looks at ownership (or flow) edges — they are dropped on entry, whatever the caller passes.
"""

from __future__ import annotations

import itertools
import math
import posixpath
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping

import networkx as nx

from sitegen.graph.dependencies import (
    DEPENDENCY_KINDS,
    IMPORT,
    IMPORT_CONTEXTS,
    REFERENCE,
    RUNTIME,
    DepEdge,
    Unit,
    strongest_context,
)
from sitegen.graph.model import earliest, merge_by_key, merged_confidence
from sitegen.records.analysis import CodeCycles, CycleReport, CyclicUnit, InternalCycle

#: How reports name the members of a cyclic unit, by unit kind (content/guides/cycles.md).
UNIT_WORDS = {"file": "files", "package": "Go packages", "crate": "Rust crates", "mixed": "units"}


def analyse_code_cycles(
    files: Iterable[str],
    file_edges: Iterable[DepEdge],
    symbol_edges: Iterable[DepEdge] = (),
    units: Mapping[str, Unit] | None = None,
    include: Collection[str] = (),
) -> CodeCycles:
    """Classify the deployment units and the symbols by their SCCs.

    ``file_edges``: import edges between files, and any reference edge already known at file
    level (a metacall's file → symbol edge, projected onto the symbol's file). ``symbol_edges``:
    symbol → symbol references; those naming both files are projected onto files here (pass
    a reference either way, not both, or its count doubles). Edges to anything not in
    ``files`` (external modules) are not part of the graph. ``units`` maps a file to its
    deployment unit (default: the file itself); file edges are projected onto units, and an
    edge inside a package or crate projects to nothing (its loops are ``internal``).

    Edges whose import runs later or never (``DepEdge.context``: ``deferred``, ``type-only``)
    are left out of the units' graph unless ``include`` names their context or a weaker one
    (``type-only`` puts ``deferred`` back too: an import that runs late is better evidence
    than one that never runs, and an edge written both ways counts as the stronger); they
    are counted in ``left_out``. Symbol-level recursion sees every reference.
    """
    include = included_contexts(include)
    unit_of = {f: (units or {}).get(f, Unit(f)) for f in sorted(set(files))}
    symbol_deps = [e for e in symbol_edges if e.kind == REFERENCE]
    projected = [_project(e) for e in symbol_deps if e.src_file and e.dst_file]
    candidates = [
        e
        for e in [*_dependencies(file_edges), *projected]
        if e.src in unit_of and e.dst in unit_of and not (e.kind == REFERENCE and e.src == e.dst)
    ]
    usable, left_out = _in_context(candidates, include)
    between, inside = _onto_units(usable, unit_of)
    merged = merge_edges(between)
    kinds = {u.id: u.kind for u in unit_of.values() if u.kind != "file"}
    graph = _graph(sorted({u.id for u in unit_of.values()}), merged)
    cyclic, acyclic = _split_units(graph, merged, kinds)
    symbol_merged = merge_edges(symbol_deps)
    symbol_graph = _graph(sorted({n for e in symbol_merged for n in (e.src, e.dst)}), symbol_merged)
    unit_files: dict[str, list[str]] = defaultdict(list)
    for path, unit in unit_of.items():
        if unit.kind != "file":
            unit_files[unit.id].append(path)
    return CodeCycles(
        cyclic=cyclic,
        deploy_order=_deploy_order(graph, set(acyclic)),
        independent=tuple(n for n in sorted(acyclic) if graph.degree(n) == 0),
        symbol_cyclic=_split_units(symbol_graph, symbol_merged, {}, "symbol")[0],
        file_count=len(unit_of),
        edge_count=len(merged),
        unit_count=graph.number_of_nodes(),
        unit_kinds=dict(sorted(kinds.items())),
        unit_files={u: tuple(fs) for u, fs in sorted(unit_files.items())},
        internal=_internal_cycles(inside, unit_of),
        left_out=left_out,
        included=tuple(c for c in IMPORT_CONTEXTS if c and c in include),
    )


def included_contexts(named: Collection[str]) -> frozenset[str]:
    """The contexts analysed: load time, and every one at least as strong as the weakest
    of ``named`` (in ``IMPORT_CONTEXTS`` order)."""
    ranks = [IMPORT_CONTEXTS.index(c) for c in named if c in IMPORT_CONTEXTS]
    return frozenset(IMPORT_CONTEXTS[: max(ranks, default=0) + 1])


def _in_context(
    edges: list[DepEdge], include: Collection[str]
) -> tuple[list[DepEdge], dict[str, int]]:
    """(the edges whose import runs at load time or whose context is included; how many
    file-level dependencies of each other context were left out, by context)."""
    kept, left = [], defaultdict(set)
    for e in edges:
        if e.context == RUNTIME or e.context in include:
            kept.append(e)
        else:
            left[e.context].add((e.src, e.dst, e.kind))
    return kept, {c: len(left[c]) for c in sorted(left)}


def _onto_units(
    edges: list[DepEdge], unit_of: Mapping[str, Unit]
) -> tuple[list[DepEdge], list[DepEdge]]:
    """(edges between units, named by unit id with their files kept; file edges inside one
    package or crate). A file unit keeps its self-import: that is a real self-loop."""
    between, inside = [], []
    for e in edges:
        src, dst = unit_of[e.src], unit_of[e.dst]
        if src.id == dst.id and src.kind != "file":
            inside.append(e)
        elif src.kind == "file" and dst.kind == "file":
            between.append(e)
        else:
            between.append(
                DepEdge(
                    src.id, dst.id, e.kind, e.confidence, e.line, e.count, e.src, e.dst, e.context
                )
            )
    return between, inside


def _internal_cycles(
    edges: list[DepEdge], unit_of: Mapping[str, Unit]
) -> tuple[InternalCycle, ...]:
    by_unit: dict[str, list[DepEdge]] = defaultdict(list)
    for e in edges:
        if e.src != e.dst:
            by_unit[unit_of[e.src].id].append(e)
    out = []
    for unit in sorted(by_unit):
        graph = _graph([], merge_edges(by_unit[unit]))
        kind = unit_of[by_unit[unit][0].src].kind
        out += [InternalCycle(unit, kind, tuple(sorted(c))) for c in _cyclic_components(graph)]
    return tuple(sorted(out, key=lambda c: (c.unit, c.members)))


def analyse_cycles(
    files: Iterable[str],
    file_edges: Iterable[DepEdge],
    symbol_edges: Iterable[DepEdge] = (),
    relation_edges: Iterable[tuple[str, str, str]] = (),
    units: Mapping[str, Unit] | None = None,
    include: Collection[str] = (),
) -> CycleReport:
    """Both analyses at once, as the reports and ``sitegen check`` take them."""
    return CycleReport(
        analyse_code_cycles(files, file_edges, symbol_edges, units, include),
        analyse_relation_cycles(relation_edges),
    )


def analyse_relation_cycles(edges: Iterable[tuple[str, str, str]]) -> dict[str, list[list[str]]]:
    """Cyclic units of the typed relations, per predicate (a ``supersedes`` loop is a design
    error). Body links (empty predicate) are not relations and are skipped."""
    by_predicate: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for src, dst, predicate in edges:
        if predicate:
            by_predicate[predicate].add((src, dst))
    out: dict[str, list[list[str]]] = {}
    for predicate in sorted(by_predicate):
        graph = nx.DiGraph(sorted(by_predicate[predicate]))
        out[predicate] = sorted(sorted(c) for c in _cyclic_components(graph))
    return out


def merge_edges(edges: Iterable[DepEdge]) -> list[DepEdge]:
    """One edge per ``(src, dst, kind)`` by the graph model's rule: the strongest finite
    confidence (NaN when none is finite), counts add up, and the evidence shown is the
    earliest: the first file at its earliest known line. Sorted."""
    return merge_by_key(edges, lambda e: (e.src, e.dst, e.kind), _merge_group)


#: Units of at most this many dependency pairs get the exact answer (fewest pairs, then the
#: weakest), searched over removal sets of at most EXACT_SIZE pairs.
EXACT_PAIRS = 14
EXACT_SIZE = 3


def break_edges(edges: Iterable[DepEdge]) -> tuple[tuple[str, str], ...]:
    """A small set of ``(src, dst)`` pairs whose removal makes the graph of ``edges`` acyclic:
    the fewest, weakest edges (content/reference/cycles.md#refactor-guidance).

    Small units (at most ``EXACT_PAIRS`` pairs): the exact answer when one of at most
    ``EXACT_SIZE`` pairs exists — the fewest pairs, then the weakest (lowest total
    confidence, then fewest occurrences, then by path). Otherwise a greedy feedback arc set,
    weakest first: while a cycle remains, remove the weakest pair that lies on one — lowest
    confidence, then fewest occurrences, then by path; then a minimality pass re-adds removed
    pairs, strongest first, whenever re-adding one creates no cycle. The result is verified:
    the remaining graph is acyclic.
    """
    weights = _pair_weights(edges)
    removed = _fewest_weakest(weights) if len(weights) <= EXACT_PAIRS else None
    if removed is None:
        removed = _greedy_breaks(weights)
    graph = nx.DiGraph(sorted(set(weights) - set(removed)))
    graph.add_nodes_from(n for pair in weights for n in pair)
    if not nx.is_directed_acyclic_graph(graph):
        raise AssertionError("refactor guidance does not break every cycle")
    return tuple(sorted(removed))


def _fewest_weakest(
    weights: dict[tuple[str, str], tuple[float, int]],
) -> list[tuple[str, str]] | None:
    pairs = sorted(weights)
    if nx.is_directed_acyclic_graph(nx.DiGraph(pairs)):
        return []
    for size in range(1, EXACT_SIZE + 1):
        found = [
            combo
            for combo in itertools.combinations(pairs, size)
            if nx.is_directed_acyclic_graph(nx.DiGraph(sorted(set(pairs) - set(combo))))
        ]
        if found:
            best = min(
                found,
                key=lambda c: (sum(weights[p][0] for p in c), sum(weights[p][1] for p in c), c),
            )
            return list(best)
    return None


def _greedy_breaks(weights: dict[tuple[str, str], tuple[float, int]]) -> list[tuple[str, str]]:
    graph = nx.DiGraph(sorted(weights))
    removed: list[tuple[str, str]] = []
    # One pass, weakest first, does the same as "repeatedly remove the weakest pair on a
    # cycle": removals only destroy cycles, so a pair off every cycle at its turn stays off.
    # ``src -> dst`` lies on a cycle iff it is a self-loop or ``dst`` reaches ``src``.
    for pair in sorted(weights, key=lambda p: (weights[p], p)):
        src, dst = pair
        if src == dst or nx.has_path(graph, dst, src):
            graph.remove_edge(src, dst)
            removed.append(pair)
    for pair in sorted(removed, key=lambda p: (weights[p], p), reverse=True):
        src, dst = pair
        if src != dst and not nx.has_path(graph, dst, src):
            graph.add_edge(src, dst)
            removed.remove(pair)
    return removed


def _dependencies(edges: Iterable[DepEdge]) -> list[DepEdge]:
    # The guard of invariant 3: ownership (and flow) edges never reach the analysis.
    return [e for e in edges if e.kind in DEPENDENCY_KINDS]


def _project(edge: DepEdge) -> DepEdge:
    return DepEdge(
        edge.src_file,
        edge.dst_file,
        REFERENCE,
        edge.confidence,
        edge.line,
        edge.count,
        context=edge.context,
    )


def _finite_or(value: float, default: float) -> float:
    return value if math.isfinite(value) else default


def _merge_group(group: list[DepEdge]) -> DepEdge:
    # The evidence shown: the first file (an edge between packages stands for many files'),
    # at its earliest known line.
    first = earliest(group, lambda e: (e.src_file, e.line, e.dst_file))
    return DepEdge(
        first.src,
        first.dst,
        first.kind,
        merged_confidence(e.confidence for e in group),
        first.line,
        sum(e.count for e in group),
        first.src_file,
        first.dst_file,
        strongest_context(e.context for e in group),
    )


def _graph(nodes: list[str], edges: list[DepEdge]) -> nx.DiGraph[str]:
    # Sorted insertion makes every networkx traversal below deterministic.
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(sorted({(e.src, e.dst) for e in edges}))
    return graph


def _cyclic_components(graph: nx.DiGraph[str]) -> list[set[str]]:
    return [
        c
        for c in nx.strongly_connected_components(graph)
        if len(c) > 1 or graph.has_edge(next(iter(c)), next(iter(c)))
    ]


def _split_units(
    graph: nx.DiGraph[str],
    edges: list[DepEdge],
    kinds: Mapping[str, str],
    default_kind: str = "file",
) -> tuple[tuple[CyclicUnit, ...], list[str]]:
    """Cyclic units (sorted by members) and the nodes that are acyclic units."""
    cyclic_sets = _cyclic_components(graph)
    in_cycle = set().union(*cyclic_sets) if cyclic_sets else set()
    units = sorted(
        (_cyclic_unit(graph, sorted(c), edges, kinds, default_kind) for c in cyclic_sets),
        key=lambda u: u.members,
    )
    return tuple(units), sorted(n for n in graph.nodes if n not in in_cycle)


def _cyclic_unit(
    graph: nx.DiGraph[str],
    members: list[str],
    edges: list[DepEdge],
    kinds: Mapping[str, str],
    default_kind: str,
) -> CyclicUnit:
    inside = set(members)
    internal = tuple(e for e in edges if e.src in inside and e.dst in inside)
    member_kinds = {kinds.get(m, default_kind) for m in members}
    return CyclicUnit(
        members=tuple(members),
        self_loop=len(members) == 1,
        edges=internal,
        breaks=break_edges(internal),
        example=_example_cycle(graph.subgraph(members), members[0]),
        kind=member_kinds.pop() if len(member_kinds) == 1 else "mixed",
    )


def _example_cycle(unit: nx.DiGraph[str], start: str) -> tuple[str, ...]:
    """A shortest cycle through ``start``, as ``(start, …, start)``."""
    if unit.has_edge(start, start):
        return (start, start)
    lengths = nx.single_source_shortest_path_length(unit.reverse(copy=False), start)
    # The successor closest to ``start`` (backwards) closes the shortest cycle; ties by id.
    nxt = min((s for s in unit.successors(start) if s in lengths), key=lambda s: (lengths[s], s))
    return (start, *nx.shortest_path(unit, nxt, start))


def _pair_weights(edges: Iterable[DepEdge]) -> dict[tuple[str, str], tuple[float, int]]:
    """Strength of each ``(src, dst)`` pair over its kinds: (best confidence, occurrences).

    Removing a pair removes all its kinds, so the strongest kind decides; a non-finite
    confidence counts as the weakest (below every real one). A package's re-export counts
    ``REEXPORT_WEIGHT`` more: it is the package's public interface, removed only when
    nothing else breaks the cycle (and then the report says what it breaks).
    """
    weights: dict[tuple[str, str], tuple[float, int]] = {}
    for e in edges:
        old_conf, old_count = weights.get((e.src, e.dst), (-math.inf, 0))
        strength = _finite_or(e.confidence, -1.0) + (REEXPORT_WEIGHT if is_reexport(e) else 0)
        weights[(e.src, e.dst)] = (max(old_conf, strength), old_count + e.count)
    return weights


#: Added to a re-export's confidence in the guidance: more than any confidence can be.
REEXPORT_WEIGHT = 1.0


def is_reexport(edge: DepEdge) -> bool:
    """A Python package's ``__init__.py`` importing a module of its own folder (or below):
    what makes ``from pkg import Name`` work (content/guides/cycles.md#removing-a-re-export)."""
    src, dst = edge.src_file or edge.src, edge.dst_file or edge.dst
    if edge.kind != IMPORT or posixpath.basename(src) not in ("__init__.py", "__init__.pyi"):
        return False
    folder = posixpath.dirname(src)
    return src != dst and (not folder or dst.startswith(folder + "/"))


def _deploy_order(graph: nx.DiGraph[str], acyclic: set[str]) -> tuple[str, ...]:
    """Acyclic units in a topological order of the condensation, dependencies first.

    An edge ``a → b`` means a depends on b, so the order of the reversed condensation puts
    b first; among units ready at the same time the smallest path (a cyclic unit: its
    smallest member) comes first.
    """
    dag = nx.condensation(graph)
    first_member = {n: min(dag.nodes[n]["members"]) for n in dag.nodes}
    order = nx.lexicographical_topological_sort(
        dag.reverse(copy=False), key=lambda n: first_member[n]
    )
    return tuple(
        first_member[n]
        for n in order
        if len(dag.nodes[n]["members"]) == 1 and first_member[n] in acyclic
    )
