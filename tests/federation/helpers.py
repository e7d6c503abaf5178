"""Peer graph.md files and a site that names peers, written for the federation tests."""

from __future__ import annotations

from pathlib import Path

from sitegen.build import BuildOptions, BuildResult, build
from sitegen.config import load_config

#: The site under test is published here; peers link into it.
SITE = "https://docs.b.example/"


def wide_graph(title: str, rows: list[tuple[str, ...]], nodes: list[tuple[str, str]]) -> str:
    """A graph.md in the wide format: ``rows`` are (from, to, rel, label, anchor, count)."""
    lines = [
        f"# {title} graph",
        "",
        "## Nodes",
        "",
        "| Node | Title | Kind |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {node} | {node_title} | page |" for node, node_title in nodes]
    lines += ["", "## Edges", "", "| From | To | Rel | Label | Anchor | Count |"]
    lines += ["| --- | --- | --- | --- | --- | --- |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def legacy_graph(rows: list[tuple[str, str]]) -> str:
    """A graph.md of the legacy two-column table, with no Nodes table."""
    lines = ["# Legacy export", "", "| From | To |", "| --- | --- |"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(lines) + "\n"


#: Docs A's graph: two links into B (one typed), one to its own page, one to a loopback
#: host and one to a private address.
PEER_A = wide_graph(
    "Docs A",
    [
        ("/index.md", "/other.md", "", "other", "", "1"),
        (
            "/index.md",
            "HTTPS://Docs.B.Example:443/guides/intro.html#setup",
            "",
            "the intro",
            "#home",
            "2",
        ),
        ("/old.md", "https://docs.b.example./guides/intro.md", "supersedes", "", "", "1"),
        ("/old.md", "http://127.0.0.1:8000/guides/intro.html", "", "local", "", "1"),
        ("/old.md", "http://192.168.1.4/guides/intro.html", "", "lan", "", "1"),
        ("/old.md", "https://elsewhere.example/x", "", "x", "", "1"),
    ],
    [("/index.md", "Home A"), ("/old.md", "Old <notes> & co"), ("/other.md", "Other")],
)


def write_site(root: Path, peers_toml: str, extra: dict[str, str] | None = None) -> Path:
    """Site B: a home page and ``guides/intro.md``, with ``peers = <peers_toml>``."""
    files = {
        "sitegen.toml": f'title = "Docs B"\nbase_url = "{SITE}"\npeers = {peers_toml}\n',
        "content/index.md": "# B home\n",
        "content/guides/intro.md": "# Intro\n\n## Setup\n\nHi.\n",
        **(extra or {}),
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def build_site(root: Path, offline: bool = False, write: bool = False) -> BuildResult:
    return build(
        load_config(root),
        BuildOptions(write_site=write, jobs=1, quiet=True, offline=offline),
    )


def peer_backlinks(result: BuildResult, node: str = "/guides/intro.md") -> list[tuple[str, ...]]:
    """(peer page, rel, label, anchor, count, site) of each backlink from a peer to ``node``."""
    fed = result.federation
    return [
        (e.src, e.rel, e.label, e.anchor, str(e.count), fed.site_of[e.src])
        for e in fed.graph.backlinks_of(node)  # type: ignore[arg-type]
    ]
