"""When a Python import runs (content/guides/cycles.md#when-an-import-runs): type-only under
``if TYPE_CHECKING:``, deferred inside a function, and what that does to edges, confidence and
the cycle analysis.

The package below was written for these tests: ``shop.models`` and ``shop.billing`` would be a
cycle if every import ran at load time, but ``models`` imports ``billing`` only for its types
and inside a method, the way Python projects break such a cycle. Every expectation is worked
out by hand from it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.analyse.cycles import analyse_code_cycles
from sitegen.analyse.reports import render_cycles_text, summary_sentence
from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.code.link import ImportContexts, build_code_graph, dependency_edges
from sitegen.config import Config, ConfigError, load_config
from sitegen.graph.dependencies import DepEdge
from sitegen.records.analysis import CycleReport
from sitegen.records.code import CodeRecord
from sitegen.records.code_graph import (
    DEFERRED_IMPORT,
    DIRECT_IMPORT,
    TYPE_ONLY_IMPORT,
    CodeEdge,
    CodeGraph,
    ConfidenceTier,
    EdgeKind,
    confidence_tier,
)

SHOP = {
    "shop/__init__.py": "from shop.models import Order\nfrom shop.billing import Invoice\n",
    "shop/models.py": """from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shop.billing import Invoice


class Order:
    def invoice(self) -> Invoice:
        from shop.billing import Invoice

        return Invoice(self)
""",
    "shop/billing.py": """from shop.models import Order


class Invoice:
    def __init__(self, order: Order) -> None:
        self.order = order
""",
    "shop/audit.py": """import typing

if typing.TYPE_CHECKING:
    from shop import billing
else:
    from shop import models


class Log:
    import json

    def write(self) -> None:
        import shop.billing

        if typing.TYPE_CHECKING:
            import shop.models
""",
    "shop/api.py": "from shop import Invoice, Order\n",
}


def _records() -> list[CodeRecord]:
    return [extract_source(p, LangId.PYTHON, t.encode()) for p, t in sorted(SHOP.items())]


def _graph() -> CodeGraph:
    graph, _ = build_code_graph(_records(), Config(source=("shop",)), set(SHOP))
    return graph


def _contexts(path: str) -> list[tuple[int, str, str]]:
    (record,) = [r for r in _records() if r.path == path]
    return [(i.line, i.specifier, i.context) for i in record.imports]


def test_extraction_says_when_each_import_runs() -> None:
    assert _contexts("shop/models.py") == [
        (1, "__future__", ""),
        (3, "typing", ""),
        (6, "shop.billing", "type-only"),
        (11, "shop.billing", "deferred"),
    ]
    assert _contexts("shop/audit.py") == [
        (1, "typing", ""),
        (4, "shop", "type-only"),  # typing.TYPE_CHECKING counts as TYPE_CHECKING
        (6, "shop", ""),  # the else branch runs
        (10, "json", ""),  # a class body runs when the module loads
        (13, "shop.billing", "deferred"),
        (16, "shop.models", "type-only"),  # never runs, even inside a function
    ]


def _edge(graph: CodeGraph, src: str, dst: str, kind: EdgeKind) -> CodeEdge:
    return graph.edge_map[(f"python:{src}", f"python:{dst}", kind)]


def test_an_import_edge_carries_its_context_and_a_confidence_to_match() -> None:
    graph = _graph()
    billing = _edge(graph, "shop/models.py", "shop/billing.py", EdgeKind.IMPORT)
    # written type-only (line 6) and deferred (line 11): one edge, the stronger kind and line
    assert (billing.context, billing.confidence, billing.line) == ("deferred", 0.4, 11)
    models = _edge(graph, "shop/billing.py", "shop/models.py", EdgeKind.IMPORT)
    assert (models.context, models.confidence) == ("", DIRECT_IMPORT)
    # audit imports models at load time (the else branch) and again type-only: load time
    again = _edge(graph, "shop/audit.py", "shop/models.py", EdgeKind.IMPORT)
    assert (again.context, again.confidence, again.line) == ("", DIRECT_IMPORT, 6)
    assert confidence_tier(DEFERRED_IMPORT) is ConfidenceTier.DEFERRED_IMPORT
    assert confidence_tier(TYPE_ONLY_IMPORT) is ConfidenceTier.TYPE_ONLY_IMPORT
    assert TYPE_ONLY_IMPORT < DEFERRED_IMPORT < DIRECT_IMPORT


def test_a_reference_through_a_deferred_import_is_deferred_too() -> None:
    graph = _graph()
    (ref,) = [
        e
        for e in graph.edges(EdgeKind.REFERENCE)
        if e.src.endswith("::Order.invoice") and e.dst.endswith("::Invoice")
    ]
    assert (ref.context, ref.confidence) == ("deferred", DEFERRED_IMPORT)
    (back,) = [
        e
        for e in graph.edges(EdgeKind.REFERENCE)
        if e.src.endswith("::Invoice.__init__") and e.dst.endswith("::Order")
    ]
    assert (back.context, back.confidence) == ("", DIRECT_IMPORT)


def test_the_kinds_change_no_import_count() -> None:
    """What grimp counts: one edge per importing and imported module, whatever the kind."""
    graph = _graph()
    pairs = {
        (graph.files[e.src].path, graph.files[e.dst].path)
        for e in graph.edges(EdgeKind.IMPORT)
        if e.dst in graph.files
    }
    assert pairs == {
        ("shop/__init__.py", "shop/models.py"),
        ("shop/__init__.py", "shop/billing.py"),
        ("shop/models.py", "shop/billing.py"),
        ("shop/billing.py", "shop/models.py"),
        ("shop/audit.py", "shop/billing.py"),
        ("shop/audit.py", "shop/models.py"),
        ("shop/api.py", "shop/__init__.py"),
    }


def test_a_chain_of_imports_is_as_weak_as_its_weakest_import() -> None:
    edges = [
        CodeEdge("a", "b", EdgeKind.IMPORT, 0.9, 1),
        CodeEdge("b", "c", EdgeKind.IMPORT, 0.4, 1, context="deferred"),
        CodeEdge("a", "d", EdgeKind.IMPORT, 0.2, 1, context="type-only"),
        CodeEdge("d", "c", EdgeKind.IMPORT, 0.9, 1),
        CodeEdge("d", "e", EdgeKind.IMPORT, 0.9, 1),
    ]
    contexts = ImportContexts(edges)
    assert contexts.between("a", "b") == ""
    assert contexts.between("a", "c") == "deferred"  # a -> b -> c beats a -> d -> c
    assert contexts.between("a", "e") == "type-only"
    assert contexts.between("a", "d") == "type-only"  # the direct import decides
    assert contexts.between("c", "a") == ""  # no import reaches it: a Go sibling, say


def _cycles(include: tuple[str, ...] = ()) -> CycleReport:
    graph = _graph()
    files, symbols = dependency_edges(graph)
    return CycleReport(analyse_code_cycles(sorted(SHOP), files, symbols, include=include))


def test_deferred_and_type_only_imports_make_no_cycle_by_default() -> None:
    code = _cycles().code
    assert code.cyclic == ()
    # models -> billing (import and reference, deferred), audit -> billing (import,
    # deferred: written type-only and deferred)
    assert code.left_out == {"deferred": 3}
    assert code.included == ()
    assert summary_sentence(_cycles()).endswith(
        " Left out: 3 deferred dependencies (the cycles_include option puts them back)."
    )


@pytest.mark.parametrize("include", [("deferred",), ("type-only",), ("deferred", "type-only")])
def test_the_option_puts_them_back(include: tuple[str, ...]) -> None:
    report = _cycles(include)
    (unit,) = report.code.cyclic
    assert unit.members == ("shop/billing.py", "shop/models.py")
    assert report.code.left_out == {}
    text = render_cycles_text(report)
    assert "shop/models.py -> shop/billing.py (import (deferred), line 11, confidence 0.4)" in text
    assert "break: remove shop/models.py -> shop/billing.py" in text  # the weakest edge


def test_type_only_alone_is_left_out_and_put_back() -> None:
    loop = [
        DepEdge("x.py", "y.py", "import", 0.9, 1),
        DepEdge("y.py", "x.py", "import", 0.2, 3, context="type-only"),
    ]
    assert analyse_code_cycles(["x.py", "y.py"], loop).left_out == {"type-only": 1}
    assert analyse_code_cycles(["x.py", "y.py"], loop, include=["deferred"]).cyclic == ()
    (unit,) = analyse_code_cycles(["x.py", "y.py"], loop, include=["type-only"]).cyclic
    assert unit.breaks == (("y.py", "x.py"),)


def test_cycles_include_is_checked(tmp_path: Path) -> None:
    (tmp_path / "sitegen.toml").write_text('cycles_include = "type-only"\n')
    assert load_config(tmp_path).cycles_include == ("type-only",)
    (tmp_path / "sitegen.toml").write_text('cycles_include = ["type-only", "deferred"]\n')
    assert load_config(tmp_path).cycles_include == ("deferred", "type-only")
    (tmp_path / "sitegen.toml").write_text('cycles_include = ["lazy"]\n')
    with pytest.raises(ConfigError, match="'lazy' is not one of 'deferred', 'type-only'"):
        load_config(tmp_path)


_CONTEXTS = ("", "deferred", "type-only")


def _threshold_oracle(edges: list[tuple[str, str, str]], src: str, dst: str) -> str:
    """The weakest context a chain from src to dst must go through, found another way: for
    each context, strongest first, a search through the imports at least that strong."""
    for rank, context in enumerate(_CONTEXTS):
        allowed = set(_CONTEXTS[: rank + 1])
        seen, todo = {src}, [src]
        while todo:
            node = todo.pop()
            for a, b, via in edges:
                if a == node and via in allowed and b not in seen:
                    seen.add(b)
                    todo.append(b)
        if dst in seen:
            return context
    return ""  # unreached: load time, as between() has it


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef"), st.sampled_from(_CONTEXTS)),
        max_size=14,
    )
)
def test_between_agrees_with_a_search_per_context(
    raw: list[tuple[str, str, str]],
) -> None:
    # One edge per pair, as the graph merges them: the strongest context written.
    merged: dict[tuple[str, str], str] = {}
    for a, b, context in raw:
        if a != b:
            old = merged.get((a, b))
            if old is None or _CONTEXTS.index(context) < _CONTEXTS.index(old):
                merged[(a, b)] = context
    edges = [(a, b, c) for (a, b), c in sorted(merged.items())]
    contexts = ImportContexts(
        [CodeEdge(a, b, EdgeKind.IMPORT, 0.9, 1, context=c) for a, b, c in edges]
    )
    for src in "abcdef":
        for dst in "abcdef":
            if src == dst:
                continue
            expected = merged.get((src, dst))
            if expected is None:
                expected = _threshold_oracle(edges, src, dst)
            assert contexts.between(src, dst) == expected, (src, dst, edges)
