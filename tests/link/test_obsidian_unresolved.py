"""A vault's unresolved links (issue 29, point 4; content/guides/obsidian.md#unresolved-links):
a wikilink or markdown link to a note no file of the vault holds is Obsidian's placeholder
for a note to write. It shows as its text in ``<span class="unresolved">`` with no href, one
``unresolved-note`` info line each, never a broken link nor a ``sitegen check`` error; it
stays a ``missing`` node of the graph with its edge, as Obsidian's graph view draws it. A
missing attachment and a missing heading of an existing note stay errors; outside a vault,
nothing changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.graph.export import parse_graph_md
from sitegen.graph.model import NodeKind
from sitegen.link.broken import names_a_note
from sitegen.link.rules import Rule, SiteIndex
from sitegen.link.step import link_all, trace_link
from sitegen.link.vault import VaultFiles
from sitegen.records.linked import UNRESOLVED_NOTE, Linked, Outcome
from sitegen.site.outputs.pages import unresolved_spans
from tests.cli.conftest import sitegen, write

NOTE = (
    "# Home\n\n"
    "[[Example]] and [[Example#Details|Section name]]\n\n"
    "[Custom name](Example.md) and [Section](Example.md#Details)\n\n"
    "[[Other]] [[Other#Details]]\n"
)
INFO = "names no note of the vault; shown as unresolved text, as Obsidian Publish does"


def _project(root: Path, vault: bool, home: str = NOTE) -> Path:
    files = {
        "sitegen.toml": 'content = "vault"\n',
        "vault/Home.md": home,
        "vault/Other.md": "# Other\n\n## Details\n",
    }
    if vault:
        files["vault/.obsidian/app.json"] = "{}\n"
    return write(root, files)


_BROKEN = re.compile(r'class="[^"]*broken-link')


def _errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if ": error: " in line]


# -- the link step ---------------------------------------------------------------------------


def _link(pages: dict[str, str], assets: set[str], vault: bool) -> Linked:
    records = [extract_page(p, t.encode()) for p, t in sorted(pages.items())]
    index = SiteIndex(
        content="content",
        pages=set(pages),
        assets=assets,
        sources=set(),
        dirs={"content", "content/notes"},
        vault=VaultFiles.of("content", [*pages, *assets]) if vault else None,
    )
    return link_all(index, records, [], {})


PAGES = {
    "content/notes/a.md": (
        "# A\n\n[[Draft]] [[Draft#Part]] [d](Draft.md) [e](Later) [[Release 1.5]]\n\n"
        "![img](missing.png) [[clip.mp4]] [f](gone.pdf) [[b#Nope]] [g](folder/)\n\n"
        "![[Draft]]\n"
    ),
    "content/b.md": "# B\n",
}


def test_a_note_no_file_holds_is_unresolved_not_broken() -> None:
    linked = _link(PAGES, set(), vault=True)
    outcomes = [r.outcome for r in linked.resolutions["/notes/a.md"]]
    assert outcomes[:5] == [Outcome.UNRESOLVED_NOTE] * 5
    assert outcomes[-1] is Outcome.UNRESOLVED_NOTE  # an embed of a note not written yet
    infos = [(d.line, d.code) for d in linked.diagnostics if d.code == UNRESOLVED_NOTE]
    assert infos == [(3, UNRESOLVED_NOTE)] * 5 + [(7, UNRESOLVED_NOTE)]
    assert all(str(d.level) == "info" for d in linked.diagnostics if d.code == UNRESOLVED_NOTE)
    said = {d.message for d in linked.diagnostics if d.code == UNRESOLVED_NOTE}
    assert f"'Draft' {INFO}" in said and f"'Draft.md' {INFO}" in said
    # what stays broken: a missing image, video, PDF, folder, and a heading of a note that is
    broken = sorted((b.line, b.col, b.check, b.target) for b in linked.broken)
    assert [(line, check, target) for line, _, check, target in broken] == [
        (5, "broken-link", "missing.png"),
        (5, "broken-link", "clip.mp4"),
        (5, "broken-link", "gone.pdf"),
        (5, "broken-anchor", "b#Nope"),
        (5, "broken-link", "folder/"),
    ]


def test_an_unresolved_note_is_a_missing_node_with_its_edge() -> None:
    linked = _link(PAGES, set(), vault=True)
    assert linked.graph.nodes["/Draft.md"].kind is NodeKind.MISSING
    assert linked.graph.nodes["/notes/Draft.md"].kind is NodeKind.MISSING
    dsts = {e.dst for e in linked.edges_by_source["/notes/a.md"]}
    assert {"/Draft.md", "/notes/Draft.md", "/notes/Later"} <= dsts


def test_outside_a_vault_a_missing_note_is_a_broken_link() -> None:
    linked = _link(PAGES, set(), vault=False)
    outcomes = [r.outcome for r in linked.resolutions["/notes/a.md"]]
    assert Outcome.UNRESOLVED_NOTE not in outcomes
    assert not [d for d in linked.diagnostics if d.code == UNRESOLVED_NOTE]
    assert len([b for b in linked.broken if b.check == "broken-link"]) == 10


def test_explain_says_the_link_is_unresolved() -> None:
    records = [extract_page(p, t.encode()) for p, t in sorted(PAGES.items())]
    rec = next(r for r in records if r.path == "content/notes/a.md")
    index = SiteIndex(
        content="content",
        pages=set(PAGES),
        assets=set(),
        sources=set(),
        dirs={"content", "content/notes"},
        vault=VaultFiles.of("content", PAGES),
    )
    traced = trace_link(index, records, [], {}, None, rec, rec.links[2])
    assert traced.resolved.outcome is Outcome.UNRESOLVED_NOTE and traced.edge
    [step] = [s for s in traced.steps if s.rule is Rule.UNRESOLVED_NOTE]
    assert step.found == "content/notes/Draft.md"
    assert [d.code for d in traced.diagnostics] == [UNRESOLVED_NOTE]


@pytest.mark.parametrize(
    "path,note",
    [
        ("Example", True),
        ("Example.md", True),
        ("notes/Example.MD", True),
        ("Release 1.5", True),
        ("Mr. Smith", True),
        ("Page.markdown", True),
        ("diagram.png", False),
        ("Attachments/manual.pdf", False),
        ("clip.mp4", False),
        ("board.canvas", False),
        ("guides/", False),
        ("", False),
    ],
)
def test_which_paths_name_a_note(path: str, note: bool) -> None:
    assert names_a_note(path) is note


# -- the page ----------------------------------------------------------------------------------


def test_unresolved_spans_keep_the_label_and_drop_the_link() -> None:
    mark = ' href="\ue003"'
    body = f'<p><a{mark} title="t">Custom <em>name</em></a> and <a href="x.html">x</a></p>'
    assert unresolved_spans(body) == (
        '<p><span class="unresolved muted">Custom <em>name</em></span> and '
        '<a href="x.html">x</a></p>'
    )
    # raw HTML <a> inside the label: the element stays, without its href
    inner = f'<a{mark}>see <a href="y">y</a></a>'
    assert unresolved_spans(inner) == '<a>see <a href="y">y</a></a>'
    # a mark that is no element's: only the attribute goes
    assert unresolved_spans(f"<p{mark}>") == "<p>"
    many = f"<a{mark}>" * 20_000  # never closed: one pass, nothing left of the marks
    assert "\ue003" not in unresolved_spans(many)


# -- the build and check -----------------------------------------------------------------------


@pytest.mark.slow
def test_check_passes_and_the_page_shows_text(tmp_path: Path) -> None:
    root = _project(tmp_path / "vault", vault=True)
    check = sitegen("check", root=root)
    assert check.code == 0, check.out
    assert _errors(check.out) == []
    build = sitegen("build", root=root)
    assert build.code == 0, build.err
    infos = [line for line in build.err_lines if INFO in line]
    assert [line.split(": info: ")[0] for line in infos] == [
        "vault/Home.md:3:1",
        "vault/Home.md:3:17",
        "vault/Home.md:5:1",
        "vault/Home.md:5:31",
    ]
    html = (root / "site/Home.html").read_text()
    spans = re.findall(r'<span class="unresolved muted">([^<]*)</span>', html)
    assert spans == ["Example", "Section name", "Custom name", "Section"]
    assert 'href="Example' not in html and not _BROKEN.findall(html)
    assert 'href="Other.html"' in html and 'href="Other.html#details"' in html
    explain = sitegen("explain", "vault/Home.md:5:1", root=root)
    assert "  result: unresolved-note /Example.md\n" in explain.out, explain.out
    assert f"  info: 'Example.md' {INFO}" in explain.out
    graph = parse_graph_md((root / "site/graph.md").read_text())
    assert graph.errors == []
    assert ("/Example.md", "missing") in {(n.id, str(n.kind)) for n in graph.nodes}
    assert ("/Home.md", "/Example.md") in {(e.src, e.dst) for e in graph.edges}


@pytest.mark.slow
def test_a_missing_image_or_heading_in_a_vault_is_still_an_error(tmp_path: Path) -> None:
    home = NOTE + "\n![diagram](diagram.png)\n\n[[Other#Nope]]\n"
    root = _project(tmp_path / "vault", vault=True, home=home)
    check = sitegen("check", root=root)
    assert check.code == 1
    errors = _errors(check.out)
    assert len(errors) == 2, errors
    assert "vault/Home.md:9:1: error: link target 'diagram.png' does not exist" in errors[0]
    assert "vault/Home.md:11:1: error: link 'Other#Nope'" in errors[1]


@pytest.mark.slow
def test_outside_a_vault_the_same_links_are_broken(tmp_path: Path) -> None:
    root = _project(tmp_path / "plain", vault=False)
    check = sitegen("check", root=root)
    assert check.code == 1
    assert len(_errors(check.out)) == 4
    build = sitegen("build", root=root)
    assert not [line for line in build.err_lines if INFO in line]
    html = (root / "site/Home.html").read_text()
    assert "unresolved" not in html
    assert len(_BROKEN.findall(html)) == 4
