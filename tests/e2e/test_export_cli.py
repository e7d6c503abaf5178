"""`sitegen export`: the Dgraph N-Quads and code-graph.json of a project, parsed back."""

from __future__ import annotations

import json
from pathlib import Path

from sitegen.code.dgraph import from_nquads
from tests.e2e.conftest import run_cli


def test_export_dgraph_and_code_graph(project: Path) -> None:
    nq = run_cli("export", "--root", str(project), "--format", "dgraph")
    assert nq.returncode == 0, nq.stderr
    graph = from_nquads(nq.stdout)
    assert any(f.path == "pkg/core.py" for f in graph.files.values())
    assert any(x.name == "os" for x in graph.externals.values())
    cg = run_cli("export", "--root", str(project), "--format", "code-graph")
    doc = json.loads(cg.stdout)
    assert doc["schema_version"] == 2
    kinds = {n["kind"] for n in doc["nodes"]}
    assert {"file", "symbol", "external"} <= kinds
    run = next(n for n in doc["nodes"] if n.get("name") == "run")
    assert run["file_path"] == "pkg/core.py" and run["symbol_kind"] == "function"
    assert run["source_range"]["start_line"] == 3
