"""End to end through the CLI: the published backlinks, graph.md rows, diagnostics, exit codes."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from sitegen.graph.export import parse_graph_md
from tests.e2e.conftest import run_cli


def _build(project: Path, *extra: str):  # type: ignore[no-untyped-def]
    return run_cli("build", "--root", str(project), "--jobs", "1", *extra)


def test_build_publishes_pages_with_backlinks(project: Path) -> None:
    proc = _build(project)
    assert proc.returncode == 0, proc.stderr
    site = project / "site"
    home = html.unescape((site / "index.html").read_text())
    # The install guide links home four times (one with a fragment); the first labelled
    # occurrence gives the label and the anchor of its section.
    backlinks = home[home.index('id="sitegen-backlinks"') :]
    assert "Install" in backlinks
    assert '("home", #step-1-download, x4)' in backlinks
    assert 'href="guides/install.html#step-1-download"' in backlinks
    old = (site / "adr/0001-old.html").read_text()
    section = old[old.index('id="sitegen-backlinks"') :]
    assert "Superseded by" in section
    assert "ADR 0002 new" in section and "[supersedes]" in section
    # Content is escaped: the label <script> shows as text.
    assert "<script>alert(1)</script>" not in old
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in old


def test_links_are_rewritten_to_html_with_fragments(project: Path) -> None:
    assert _build(project).returncode == 0
    install = (project / "site/guides/install.html").read_text()
    assert 'href="../adr/0002-new.html#decision"' in install
    assert 'href="../code/pkg/core.py.html#L2"' in install
    assert 'id="step-1-download"' in install
    # raw markdown at the node path, assets and reports
    assert (project / "site/guides/install.md").read_text().startswith("# Install")
    for name in ("graph.md", "graph.json", "broken-links.html", "style.css"):
        assert (project / "site" / name).is_file(), name
    assert not (project / "site/sitemap.xml").exists()  # no base_url: no sitemap (tests/cli)


def test_graph_md_rows_parse_back(project: Path) -> None:
    assert _build(project).returncode == 0
    parsed = parse_graph_md((project / "site/graph.md").read_text())
    assert not parsed.errors
    by_key = {(e.src, e.dst, e.rel): e for e in parsed.edges}
    home = by_key[("/guides/install.md", "/index.md", "")]
    assert (home.label, home.anchor, home.count) == ("home", "step-1-download", 4)
    assert ("/adr/0002-new.md", "/adr/0001-old.md", "supersedes") in by_key
    assert ("/adr/0002-new.md", "/guides/install.md", "depends-on") in by_key
    # self-reference and the whitespace ref are skipped; rel:typo is not ingested
    assert ("/adr/0002-new.md", "/adr/0002-new.md", "depends-on") not in by_key
    assert not any(e.rel == "typo" for e in parsed.edges)
    # a missing target is still an edge; loopback and mailto are not
    assert ("/guides/install.md", "/guides/instal.md", "") in by_key
    assert not any("localhost" in e.dst or e.dst.startswith("mailto") for e in parsed.edges)
    assert ("/guides/install.md", "https://example.com/a", "") in by_key
    # a link in a code docstring is a document edge from the source node
    assert ("/code/pkg/core.py", "/guides/install.md", "") in by_key
    edges = [(e.src, e.dst, e.rel) for e in parsed.edges]
    assert edges == sorted(edges)


def test_graph_json_version_1(project: Path) -> None:
    assert _build(project).returncode == 0
    doc = json.loads((project / "site/graph.json").read_text())
    assert doc["version"] == 1
    edge = next(
        e for e in doc["edges"] if e["from"] == "/adr/0002-new.md" and e.get("rel") == "supersedes"
    )
    assert "count" not in edge and "label" not in edge


def test_diagnostics_are_located_and_suggest(project: Path) -> None:
    proc = _build(project)
    err = proc.stderr
    assert re.search(
        r"content/guides/install\.md:11:46: warning: link target 'instal\.md' does not exist", err
    )
    assert "Did you mean 'guides/install.md'?" in err
    assert re.search(
        r"content/guides/install\.md:\d+:\d+: warning: link '\.\./index\.md#nowhere'", err
    )
    # a loopback link is kept as written, without a warning (the loopback-link check is off)
    assert "http://localhost:8000/x" not in err
    assert re.search(r"content/adr/0002-new\.md:\d+:\d+: warning: .*rel-typo", err)
    assert re.search(r"\d+ pages?, .* links?, \d+ broken links?, \d+ warnings? in [\d.]+ s", err)


def test_strict_exits_1_on_warnings_and_usage_errors_exit_2(project: Path, tmp_path: Path) -> None:
    assert _build(project, "--strict").returncode == 1
    assert run_cli("build", "--root", str(tmp_path / "does-not-exist")).returncode == 2
    assert run_cli("build", "--root", str(project), "--language", "cobol").returncode == 2
    (project / "sitegen.toml").write_text("nonsense = 1\n")
    proc = _build(project)
    assert proc.returncode == 2 and "unknown option 'nonsense'" in proc.stderr


def test_backlinks_command_prints_the_annotated_list(project: Path) -> None:
    proc = run_cli("backlinks", "--root", str(project), "/adr/0001-old.md")
    assert proc.returncode == 0, proc.stderr
    assert "Superseded by" in proc.stdout
    assert "ADR 0002 new [supersedes]" in proc.stdout


def test_graph_parse_command(project: Path, tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.md"
    legacy.write_text("## Edges\n\n| From | To |\n|---|---|\n| /a.md | /b.md |\n| broken |\n")
    proc = run_cli("graph", "parse", str(legacy), "--json")
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert doc["edges"] == [
        {"from": "/a.md", "to": "/b.md", "rel": "", "label": "", "anchor": "", "count": 1}
    ]
    assert ":6:" in proc.stderr
