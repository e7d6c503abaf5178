"""Flow edges in every build (code-graph.json, source pages, shards), and source pages
highlighted in the page workers with the same bytes for every ``--jobs``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sitegen.build import BuildOptions, build
from sitegen.code.shards import SHARD_SCHEMA_VERSION
from sitegen.config import load_config

PYTHON = "def scale(v, k: float = 2.0):\n    r = v * k\n    r += 1\n    return r\n"
RUST = "pub fn total(a: u32, b: u32) -> u32 {\n    let s = a + b;\n    s\n}\n"


def project(root: Path, extra: int = 0) -> Path:
    files = {"content/index.md": "# Home\n", "pkg/core.py": PYTHON, "src/lib.rs": RUST}
    for i in range(extra):
        files[f"pkg/gen/m{i}.py"] = (
            f"from pkg.core import scale\n\n\ndef f{i}(x):\n    y = scale(x)\n    return y\n"
        )
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def run(root: Path, jobs: int = 1, clean: bool = False):  # type: ignore[no-untyped-def]
    return build(load_config(root), BuildOptions(jobs=jobs, quiet=True, clean=clean))


def flow_pairs(site: Path) -> set[tuple[str, str, str]]:
    doc = json.loads((site / "code-graph.json").read_text())
    name = {n["id"]: n.get("endpoint", "").split("::", 1)[-1] for n in doc["nodes"]}
    return {
        (name[e["src"]], name[e["dst"]], e["flow_kind"])
        for e in doc["edges"]
        if e["kind"] == "flow"
    }


def test_code_graph_json_of_a_build_has_python_and_rust_flow(tmp_path: Path) -> None:
    root = project(tmp_path)
    run(root)
    assert flow_pairs(root / "site") == {
        ("scale$v@1:11", "scale$r@2:5", "assign"),
        ("scale$k@1:14", "scale$r@2:5", "assign"),
        ("scale$r@2:5", "scale$r@3:5", "assign"),
        ("scale$r@3:5", "scale$return@4:5", "use"),
        ("total$a@1:14", "total$s@2:9", "assign"),
        ("total$b@1:22", "total$s@2:9", "assign"),
        ("total$s@2:9", "total$return@3:5", "use"),
    }


def test_a_source_page_lists_where_each_value_comes_from(tmp_path: Path) -> None:
    root = project(tmp_path)
    run(root)
    html = (root / "site/code/pkg/core.py.html").read_text()
    section = html[html.index('data-testid="data-flow"') :]
    items = [
        re.sub(r"<[^>]+>", "", li).strip()
        for li in re.findall(r"<li>(.*?)</li>", section[: section.index("</section>")], re.DOTALL)
    ]
    assert items == [
        "v parameter, line 1",
        "k parameter: float, line 1",
        "r local, line 2 ← v (parameter, line 1), k (parameter, line 1)",
        "r local, line 3 ← r (local, line 2)",
        "return temporary, line 4 ← r (local, line 3)",
    ]


def test_an_old_shard_cache_is_refused_with_a_warning_and_regenerated(tmp_path: Path) -> None:
    root = project(tmp_path)
    run(root)
    shards = root / ".sitegen" / "shards"
    (shards / "header.json").write_text('{"shard_schema_version": 5}\n')
    for shard in shards.glob("*.metast"):  # as version 5 wrote them: no flow rows
        rows = [json.loads(line) for line in shard.read_text().splitlines()]
        rows = [
            {**r, "shard_schema_version": 5} for r in rows if r["record"] not in ("data", "flow")
        ]
        shard.write_text("".join(json.dumps(r) + "\n" for r in rows))
    (root / "content/index.md").write_text("# Home again\n")  # so the build is not skipped
    result = run(root)
    warnings = [d for d in result.diagnostics if d.code == "shard-version"]
    assert len(warnings) == 1 and "version 5 found" in warnings[0].message
    header = json.loads((shards / "header.json").read_text())
    assert header == {"shard_schema_version": SHARD_SCHEMA_VERSION}
    assert len(flow_pairs(root / "site")) == 7  # regenerated, not read from the old shards
    assert warnings[0].path == ".sitegen/shards/header.json"  # never the absolute path
    again = run(root)  # nothing changed: the warning was this build's, not repeated
    assert again.unchanged and not [d for d in again.diagnostics if d.code == "shard-version"]


def test_source_pages_are_the_same_bytes_for_every_jobs(tmp_path: Path) -> None:
    sites = []
    for jobs in (1, 2):
        root = project(tmp_path / f"j{jobs}" / "proj", extra=70)  # over the pool's threshold
        run(root, jobs=jobs, clean=True)
        site = root / "site"
        sites.append(
            {
                p.relative_to(site).as_posix(): p.read_bytes()
                for p in sorted(site.rglob("*"))
                if p.is_file()
            }
        )
    one, two = sites
    assert one.keys() == two.keys() and len([k for k in one if k.startswith("code/")]) > 140
    assert [k for k in one if one[k] != two[k]] == []
