"""The reference pages state the numbers the code uses: each figure below is read from the
constant that decides it, and must appear on its page as written there."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from sitegen.analyse import cycles, related
from sitegen.code import serialize, shards
from sitegen.graph import activation, communities, core, history, snapshot
from sitegen.graph.store import sqlite
from sitegen.records import code_graph
from sitegen.records.code import LangId, SymbolKind

REFERENCE = Path(__file__).resolve().parents[1] / "content" / "reference"


def page(name: str) -> str:
    return " ".join((REFERENCE / name).read_text(encoding="utf-8").split())


def _names(values: Iterable[object]) -> str:
    return ", ".join(f"`{v}`" for v in values)


FACTS = [
    ("serialization.md", f'`{{"shard_schema_version": {shards.SHARD_SCHEMA_VERSION}}}`'),
    ("serialization.md", f"Schema version {serialize.SCHEMA_VERSION}, published"),
    ("code-graph.md", _names(LangId)),
    ("code-graph.md", _names(SymbolKind)),
    ("code-graph.md", f"| `SAME_FILE` | `{code_graph.SAME_FILE}` |"),
    ("code-graph.md", f"| `DIRECT_IMPORT` | `{code_graph.DIRECT_IMPORT}` |"),
    ("code-graph.md", f"| `TRANSITIVE_IMPORT` | `{code_graph.TRANSITIVE_IMPORT}` |"),
    ("code-graph.md", f"| `CROSS_LANGUAGE` | `{code_graph.CROSS_LANGUAGE}` |"),
    ("graph-core.md", f"damping {core.DAMPING}, at most {core.MAX_ITERATIONS} iterations"),
    ("graph-core.md", f"| seeds | at most {activation.MAX_SEEDS}, the strongest first |"),
    ("graph-core.md", f"| depth | at most {activation.MAX_DEPTH} hops |"),
    ("graph-core.md", f"| visits | at most {activation.VISIT_BUDGET:,} edge visits per query"),
    ("graph-core.md", f"backwards at {activation.BACKWARD}"),
    ("graph-core.md", f"(seed {communities.COMMUNITY_SEED})"),
    ("graph-core.md", f"at most {communities.MAX_PASSES} passes run"),
    ("graph-core.md", f"its version ({snapshot.SNAPSHOT_VERSION})"),
    (
        "graph-core.md",
        (
            f"a half-life of {history.HALF_LIFE_DAYS['page']:.0f} days for pages and "
            f"{history.HALF_LIFE_DAYS['source']:.0f} for source files"
        ),
    ),
    (
        "graph-core.md",
        f"structural {related.WEIGHTS['structural']}, semantic {related.WEIGHTS['semantic']}",
    ),
    (
        "graph-core.md",
        f"plus {related.PAGERANK_BOOST} \N{MULTIPLICATION SIGN} the candidate's PageRank",
    ),
    ("cycles.md", f"A unit of at most {cycles.EXACT_PAIRS} pairs is searched exactly"),
    ("store.md", f"its schema version ({sqlite.SCHEMA_VERSION})"),
]


@pytest.mark.parametrize(("name", "fact"), FACTS)
def test_the_reference_states_what_the_code_does(name: str, fact: str) -> None:
    assert fact in page(name)


def test_the_exact_search_goes_up_to_three_pairs() -> None:
    assert cycles.EXACT_SIZE == 3  # the page says "one, two, then three pairs"
    assert "every set of one, two, then three pairs" in page("cycles.md")
