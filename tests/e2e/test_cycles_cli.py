"""End to end: ``sitegen cycles --json`` (content/guides/cycles.md#the-json-form) and text.

The fixture ``fixtures/cycles_project`` was written for these tests; every expectation below is
worked out by hand from its sources (paths, lines, content/reference/code-graph.md confidences, the
fewest-then-weakest break rule), never taken from the output.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import networkx as nx  # type: ignore[import-untyped]
import pytest

from tests.e2e.conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
D, X = 0.9, 0.5  # DIRECT_IMPORT, CROSS_LANGUAGE

CONTRACT_EDGE = ("src", "dst", "kind", "confidence", "line")


def _edge(src: str, dst: str, kind: str, confidence: float, line: int) -> dict[str, Any]:
    return {"src": src, "dst": dst, "kind": kind, "confidence": confidence, "line": line}


def _pair(src: str, dst: str) -> dict[str, str]:
    return {"src": src, "dst": dst}


#: The four file-level cyclic units, sorted by members.
EXPECTED_CYCLIC: list[dict[str, Any]] = [
    {  # two overlapping loops, a -> b -> a and a -> b -> c -> a; a -> b is also a call
        "members": ["pkg/a.py", "pkg/b.py", "pkg/c.py"],
        "self_loop": False,
        "edges": [
            _edge("pkg/a.py", "pkg/b.py", "import", D, 2),
            _edge("pkg/a.py", "pkg/b.py", "reference", D, 6),
            _edge("pkg/b.py", "pkg/a.py", "import", D, 2),
            _edge("pkg/b.py", "pkg/c.py", "import", D, 3),
            _edge("pkg/c.py", "pkg/a.py", "import", D, 2),
        ],
        # a -> b is the strongest pair (import + reference); the weakest pairs on a cycle go.
        # one pair breaks both loops: the fewest first (content/reference/cycles.md), a -> b
        "break": [_pair("pkg/a.py", "pkg/b.py")],
    },
    {  # cross-language: metacall_load_from_file both ways, plus metacall('draw')
        "members": ["pkg/bridge.py", "web/ui.js"],
        "self_loop": False,
        "edges": [
            _edge("pkg/bridge.py", "web/ui.js", "import", X, 4),
            _edge("pkg/bridge.py", "web/ui.js", "reference", X, 8),
            _edge("web/ui.js", "pkg/bridge.py", "import", X, 2),
        ],
        "break": [_pair("web/ui.js", "pkg/bridge.py")],
    },
    {  # reference-only: best-effort metacalls, nothing loaded or imported
        "members": ["pkg/r1.py", "web/r2.js"],
        "self_loop": False,
        "edges": [
            _edge("pkg/r1.py", "web/r2.js", "reference", X, 6),
            _edge("web/r2.js", "pkg/r1.py", "reference", X, 3),
        ],
        # equal weights: the tie goes to the smaller pair
        "break": [_pair("pkg/r1.py", "web/r2.js")],
    },
    {
        "members": ["pkg/selfish.py"],
        "self_loop": True,
        "edges": [_edge("pkg/selfish.py", "pkg/selfish.py", "import", D, 2)],
        "break": [_pair("pkg/selfish.py", "pkg/selfish.py")],
    },
]

#: model has no dependency; service uses model; app uses service and the a/b/c unit. Ties
#: between ready units go to the smallest path, so alphabetical order is not the answer.
EXPECTED_DEPLOY = [
    "pkg/__init__.py",
    "pkg/model.py",
    "pkg/service.py",
    "pkg/app.py",
    "pkg/standalone.py",
]
EXPECTED_INDEPENDENT = ["pkg/__init__.py", "pkg/standalone.py"]
EXPECTED_SUPERSEDES = [["/adr/0001-one.md", "/adr/0002-two.md"]]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cycles") / "proj"
    shutil.copytree(FIXTURES / "cycles_project", root)
    return root


@pytest.fixture(scope="module")
def report(project: Path) -> dict[str, Any]:
    proc = run_cli("cycles", "--root", str(project), "--jobs", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def text(project: Path) -> str:
    proc = run_cli("cycles", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _contract_unit(unit: dict[str, Any]) -> dict[str, Any]:
    """The contract fields of one cyclic unit (extra fields are allowed and dropped here)."""
    return {
        "members": unit["members"],
        "self_loop": unit["self_loop"],
        "edges": [{k: e[k] for k in CONTRACT_EDGE} for e in unit["edges"]],
        "break": [{"src": b["src"], "dst": b["dst"]} for b in unit["break"]],
    }


def test_code_cycles_match_the_contract(report: dict[str, Any]) -> None:
    assert [_contract_unit(u) for u in report["code"]["cyclic"]] == EXPECTED_CYCLIC


def test_ownership_and_in_file_recursion_are_not_file_cycles(report: dict[str, Any]) -> None:
    # model.py nests classes (ownership) and has even <-> odd mutual recursion in one file:
    # neither makes the file cyclic, so it is an ordinary deployable unit.
    in_cycles = {m for u in report["code"]["cyclic"] for m in u["members"]}
    assert "pkg/model.py" not in in_cycles
    assert "pkg/model.py" in report["code"]["deploy_order"]


def test_deploy_order_and_independent_files(report: dict[str, Any]) -> None:
    assert report["code"]["deploy_order"] == EXPECTED_DEPLOY
    assert report["code"]["independent"] == EXPECTED_INDEPENDENT


def test_relation_cycles_per_predicate(report: dict[str, Any]) -> None:
    relations = report["relations"]
    assert relations["supersedes"] == EXPECTED_SUPERSEDES
    # depends-on points at a missing page: a relation, but no loop
    assert all(units == [] for predicate, units in relations.items() if predicate != "supersedes")


def test_break_edges_really_break_each_cycle(report: dict[str, Any]) -> None:
    whole = nx.DiGraph()
    removed_all: set[tuple[str, str]] = set()
    for unit in report["code"]["cyclic"]:
        graph = nx.DiGraph()
        graph.add_nodes_from(unit["members"])
        graph.add_edges_from((e["src"], e["dst"]) for e in unit["edges"])
        assert not nx.is_directed_acyclic_graph(graph), unit["members"]
        breaks = {(b["src"], b["dst"]) for b in unit["break"]}
        assert breaks <= set(graph.edges), "guidance names an edge of the unit"
        whole.add_edges_from(graph.edges)
        removed_all |= breaks
        graph.remove_edges_from(breaks)
        assert nx.is_directed_acyclic_graph(graph), unit["members"]
        # Small: putting back any single removed edge brings a cycle back.
        for pair in breaks:
            graph.add_edge(*pair)
            assert not nx.is_directed_acyclic_graph(graph), pair
            graph.remove_edge(*pair)
    whole.remove_edges_from(removed_all)
    assert nx.is_directed_acyclic_graph(whole)


def test_cycles_text_mentions_each_cycle(text: str, report: dict[str, Any]) -> None:
    lines = text.splitlines()
    for unit in EXPECTED_CYCLIC:
        members = unit["members"]
        if unit["self_loop"]:
            assert any(
                line.startswith("cycle") and members[0] in line and "itself" in line
                for line in lines
            ), members
        else:
            listed = ", ".join(members)
            assert any(line.startswith("cycle") and line.endswith(listed) for line in lines), (
                members
            )
        for pair in unit["break"]:
            assert any(
                "break" in line and f"{pair['src']} -> {pair['dst']}" in line for line in lines
            ), pair
    assert any(
        "supersedes" in line and "/adr/0001-one.md, /adr/0002-two.md" in line for line in lines
    )
    # the deployment order is printed in order
    positions = [text.index(f". {path}") for path in EXPECTED_DEPLOY]
    assert positions == sorted(positions)


def test_cycles_writes_no_site(project: Path, report: dict[str, Any], text: str) -> None:
    assert not (project / "site").exists()


def test_cycles_json_is_deterministic(project: Path, report: dict[str, Any]) -> None:
    again = run_cli("cycles", "--root", str(project), "--jobs", "1", "--json")
    assert again.returncode == 0
    assert json.loads(again.stdout) == report


def test_clean_project_has_no_cycles(tmp_path: Path) -> None:
    root = tmp_path / "clean"
    shutil.copytree(FIXTURES / "clean_project", root)
    proc = run_cli("cycles", "--root", str(root), "--jobs", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["code"]["cyclic"] == []
    assert doc["code"]["deploy_order"] == ["lib/core.py", "lib/cli.py"]
    assert doc["code"]["independent"] == []
    assert all(units == [] for units in doc["relations"].values())
