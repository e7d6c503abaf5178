"""Each API entry's own backlinks (issue 28, point 3): after the entry's docstring, the prose
pages that link to it or autoref it (section and label, as every backlink), the docstrings
that name it, its users and importers from the code graph, its bases and subclasses; and the
objects as nodes of graph.json and graph.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sitegen.base.paths import NodeId
from sitegen.graph.model import Edge, Graph, Node, NodeKind, Occurrence
from sitegen.records.api import ApiKind, ApiModel, ApiObject
from sitegen.records.linked import ApiEntries, ApiEntry
from sitegen.site.api_backlinks import (
    CodeUses,
    EntryBacklinks,
    _Place,
    entry_backlinks,
    with_entry_backlinks,
)
from sitegen.site.views import BacklinkGroup
from tests.e2e.conftest import run_cli, write_project

SQUARE = "python:src/shapes/core.py::Square"
CUBE = "python:src/shapes/core.py::Cube"
API = NodeId("/api.md")


def _model() -> ApiModel:
    model = ApiModel()
    for path, kind in [
        ("shapes", ApiKind.MODULE),
        ("shapes.core", ApiKind.MODULE),
        ("shapes.core.Square", ApiKind.CLASS),
        ("shapes.core.Cube", ApiKind.CLASS),
    ]:
        file = "src/shapes/__init__.py" if path == "shapes" else "src/shapes/core.py"
        model.objects[path] = ApiObject(path, path.rpartition(".")[2], kind, file, 1, 2)
    model.aliases["shapes.Square"] = "shapes.core.Square"
    return model


def _place(graph: Graph) -> _Place:
    square = ApiEntry(API, "shapes.Square", "shapes.core.Square")
    cube = ApiEntry(API, "shapes.Cube", "shapes.core.Cube")
    entries = ApiEntries(model=_model())
    for e in (square, cube):
        entries.by_id[e.id] = entries.by_canonical[e.canonical] = e
        entries.by_place[(e.page, e.id)] = e
    return _Place(
        graph=graph,
        entries=entries,
        titles={"/install.md": "Install", "/api.md": "API"},
        source_href=lambda path, line: f"code/{path}.html#L{line}",
        entry_href=lambda e: f"api.html#{e.id}",
        edge_href=lambda e: f"{e.src.strip('/').removesuffix('.md')}.html#{e.anchor}",
    )


def _graph() -> Graph:
    graph = Graph()
    for node in (SQUARE, CUBE):
        graph.add_node(Node(NodeId(node), NodeKind.SYMBOL, "shapes.core." + node[-6:].strip(":")))
    occ = [Occurrence(10, 3, 1, "shapes.Square")]
    for _ in range(3):  # one link, three times: one edge, x3
        graph.add_edge(Edge(NodeId("/install.md"), NodeId(SQUARE), "", "home", "step-1", 1, occ))
    graph.add_edge(Edge(API, NodeId(SQUARE), "documents", "shapes.core.Square", "shapes.Square"))
    graph.add_edge(Edge(NodeId(CUBE), NodeId(SQUARE), "inherits"))
    graph.add_edge(
        Edge(
            NodeId("/code/src/shapes/core.py"),
            NodeId(SQUARE),
            "",
            "Square",
            "",
            1,
            [Occurrence(0, 13, 5)],
        )
    )
    return graph


def _groups(found: tuple[EntryBacklinks, ...], entry: str) -> dict[str, BacklinkGroup]:
    (one,) = [f for f in found if f.id == entry]
    return {g.heading: g for g in one.groups}


def test_documented_in_lists_the_prose_pages_in_the_house_format() -> None:
    place = _place(_graph())
    found = entry_backlinks(place.entries.by_place.values(), place, CodeUses({}, {}))
    groups = _groups(found, "shapes.Square")
    (page,) = groups["Documented in"].entries
    assert (page.title, page.href, page.annotation) == (
        "Install",
        "install.html#step-1",
        ' ("home", #step-1, x3)',
    )
    # the API page's own "documents" edge is no backlink of the entry
    assert [e.title for g in groups.values() for e in g.entries].count("API") == 0
    (code,) = groups["Named in docstrings"].entries
    assert (code.title, code.annotation) == ("src/shapes/core.py:13", ' ("Square")')


def test_bases_subclasses_users_and_importers() -> None:
    place = _place(_graph())
    uses = CodeUses(
        {SQUARE: [("src/app.py", "main", 7), ("src/app.py", "main", 7)]},
        {"src/shapes/core.py": [("src/app.py", 1)]},
    )
    found = entry_backlinks(place.entries.by_place.values(), place, uses)
    square, cube = _groups(found, "shapes.Square"), _groups(found, "shapes.Cube")
    assert [(e.title, e.href) for e in square["Subclasses"].entries] == [
        ("shapes.core.Cube", "api.html#shapes.Cube")
    ]
    assert [(e.title, e.href) for e in cube["Bases"].entries] == [
        ("shapes.core.Square", "api.html#shapes.Square")
    ]
    assert [(e.title, e.href) for e in square["Used by"].entries] == [
        ("main (src/app.py)", "code/src/app.py.html#L7")
    ]
    assert "Imported by" not in square  # a class: its users; a module: its importers
    assert list(cube) == ["Bases"]


def test_a_module_entry_lists_the_files_that_import_it() -> None:
    place = _place(Graph())
    module = ApiEntry(API, "shapes.core", "shapes.core")
    uses = CodeUses({}, {"src/shapes/core.py": [("src/app.py", 1)]})
    (found,) = entry_backlinks([module], place, uses)
    assert [(g.heading, [e.title for e in g.entries]) for g in found.groups] == [
        ("Imported by", ["src/app.py"])
    ]


def test_an_entry_without_backlinks_has_no_section() -> None:
    place = _place(Graph())
    assert entry_backlinks(place.entries.by_place.values(), place, CodeUses({}, {})) == ()


BODY = (
    '<h1 id="api">API</h1>\n<a id="shapes"></a>\n<p>Shapes.</p>\n'
    '<h2 id="shapes.Square"><code>Square</code></h2>\n<p>A square.</p>\n'
    '<h3 id="shapes.Square--examples">Examples</h3>\n<p>x</p>\n'
    '<h2 id="shapes.make">make</h2>\n<p>Make one.</p>\n'
)


def test_each_section_goes_after_its_entrys_docstring() -> None:
    sections = [
        EntryBacklinks(i, (BacklinkGroup("Documented in", "", ()),))
        for i in ("shapes.make", "shapes.Square", "shapes", "gone")
    ]
    body = with_entry_backlinks(BODY, sections, lambda s: f"[{s.id}]")
    assert body == (
        '<h1 id="api">API</h1>\n<a id="shapes"></a>\n<p>Shapes.</p>\n[shapes]'
        '<h2 id="shapes.Square"><code>Square</code></h2>\n<p>A square.</p>\n[shapes.Square]'
        '<h3 id="shapes.Square--examples">Examples</h3>\n<p>x</p>\n'
        '<h2 id="shapes.make">make</h2>\n<p>Make one.</p>\n[shapes.make]'
    )


PROJECT = {
    "sitegen.toml": 'title = "Shapes"\ncontent = "docs"\nsource = ["src"]\n',
    "docs/index.md": (
        "# Shapes\n\n## Step 1: draw\n\nDraw a [square][shapes.Square], its "
        "[`shapes.core.Square.area`][] and [it again](api.md#shapes.Square).\n"
    ),
    "docs/api.md": "# Shapes API\n\n::: shapes\n    options:\n      show_root_heading: true\n",
    "src/shapes/__init__.py": (
        '"""Shapes and how to make them."""\n\nfrom shapes.core import Cube, Square, make\n\n'
        '__all__ = ["Cube", "Square", "make"]\n'
    ),
    "src/shapes/core.py": (
        '"""The shapes themselves."""\n\n\nclass Square:\n    """A square."""\n\n'
        '    def area(self) -> float:\n        """The surface it covers."""\n        return 1.0\n\n\n'
        'class Cube(Square):\n    """A cube; see [Square][shapes.Square]."""\n\n\n'
        'def make(side: float) -> Square:\n    """A red square."""\n    return Square()\n'
    ),
}


def _aside(html: str, entry: str) -> str:
    found = re.search(
        rf'<aside class="entry-backlinks"[^>]*data-entry="{re.escape(entry)}">(.*?)</aside>',
        html,
        re.S,
    )
    assert found is not None, entry
    return found.group(1)


@pytest.mark.slow
def test_a_whole_build_shows_each_entrys_backlinks_and_exports_the_objects(tmp_path: Path) -> None:
    project = write_project(tmp_path / "proj", PROJECT)  # type: ignore[arg-type]
    proc = run_cli("build", "--root", str(project), "--jobs", "1")
    assert proc.returncode == 0 and "0 broken links, 0 warnings" in proc.stderr, proc.stderr
    site = project / "site"
    html = (site / "api.html").read_text()
    square = _aside(html, "shapes.Square")
    assert "Documented in" in square
    assert '<a href="index.html#step-1-draw">Shapes</a>' in square
    assert "(&#34;square&#34;, #step-1-draw, x2)" in square  # the autoref and the link
    assert 'href="api.html#shapes.Cube">shapes.core.Cube</a>' in square  # a subclass
    assert "make (src/shapes/core.py)" in square  # a user from the code graph
    area = _aside(html, "shapes.Square.area")
    assert "(&#34;shapes.core.Square.area&#34;, #step-1-draw)" in area
    # the section sits after the entry's docstring, before the next entry's heading
    assert html.index("A square.") < html.index(square) < html.index('id="shapes.Square.area"')
    graph = json.loads((site / "graph.json").read_text())
    nodes = (
        {n["id"]: n for n in graph["nodes"]} if isinstance(graph["nodes"], list) else graph["nodes"]
    )
    assert SQUARE in nodes
    md = (site / "graph.md").read_text()
    assert f"| {SQUARE} | shapes.core.Square | symbol |" in md
    assert f"| /api.md | {SQUARE} | documents |" in md
    assert f"| {CUBE} | {SQUARE} | inherits |" in md


def test_search_finds_each_entry_by_its_path_and_summary() -> None:
    from sitegen.base.paths import RepoPath
    from sitegen.base.progress import Progress
    from sitegen.docs.pipeline import extract_pages
    from sitegen.records.api import Docstring
    from sitegen.records.crawl import SourceFile
    from sitegen.site.search import page_sections

    model = _model()
    square = model.objects["shapes.core.Square"]
    model.objects[square.canonical] = ApiObject(
        square.canonical, "Square", ApiKind.CLASS, square.file, 1, 2,
        docstring=Docstring("A square with four sides.", 2),
    )  # fmt: skip
    module = model.objects["shapes.core"]
    members = (("Cube", "shapes.core.Cube"), ("Square", "shapes.core.Square"))
    model.objects[module.canonical] = ApiObject(
        module.canonical, "core", ApiKind.MODULE, module.file, 1, 2, members=members
    )
    page = b"# API\n\n::: shapes.core\n    options:\n      show_if_no_docstring: true\n"
    (rec,) = extract_pages(
        [SourceFile(RepoPath("docs/api.md"), page)], 1, Progress(enabled=False), api=model
    )
    sections = {s.anchor: s for s in page_sections(rec.html)}
    found = sections["shapes.core.Square"]
    assert found.heading == "shapes.core.Square"
    assert found.text.startswith("A square with four sides.")
    assert sections["shapes.core.Cube"].heading == "shapes.core.Cube"
