"""The cycle reports: JSON contract, markdown, plain text, HTML view data, membership."""

from __future__ import annotations

import json
import math

from sitegen.analyse.cycles import CycleReport, analyse_cycles
from sitegen.analyse.reports import (
    cycles_json,
    membership,
    render_cycles_json,
    render_cycles_md,
    render_cycles_text,
)
from sitegen.graph.dependencies import DepEdge
from sitegen.site.cycles_view import cycle_anchor, cycles_view, source_href


def sample() -> CycleReport:
    """app.py <-> ui.js (import 0.5 at line 2, reference 0.5 at line 12); lib.py <- app.py;
    solo.py alone; self.py imports itself; a.py's f recurses; two supersedes pages loop."""
    files = ["app.py", "lib.py", "self.py", "solo.py", "ui.js"]
    file_edges = [
        DepEdge("app.py", "ui.js", "import", 0.5, 2),
        DepEdge("app.py", "lib.py", "import", 0.9, 1),
        DepEdge("self.py", "self.py", "import", 0.9, 4),
    ]
    symbol_edges = [
        DepEdge(
            "js:ui.js::render", "py:app.py::handler", "reference", 0.5, 12, 1, "ui.js", "app.py"
        ),
        DepEdge("py:lib.py::f", "py:lib.py::f", "reference", 1.0, 8, 1, "lib.py", "lib.py"),
    ]
    relations = [("/adr/1.md", "/adr/2.md", "supersedes"), ("/adr/2.md", "/adr/1.md", "supersedes")]
    return analyse_cycles(files, file_edges, symbol_edges, relations)


def test_json_contract() -> None:
    data = cycles_json(sample())
    assert data["code"]["cyclic"] == [
        {
            "members": ["app.py", "ui.js"],
            "self_loop": False,
            "edges": [
                {
                    "src": "app.py",
                    "dst": "ui.js",
                    "kind": "import",
                    "confidence": 0.5,
                    "line": 2,
                    "count": 1,
                },
                {
                    "src": "ui.js",
                    "dst": "app.py",
                    "kind": "reference",
                    "confidence": 0.5,
                    "line": 12,
                    "count": 1,
                },
            ],
            "break": [{"src": "app.py", "dst": "ui.js"}],
            "cycle": ["app.py", "ui.js", "app.py"],
            "unit_kind": "file",
            "member_kinds": {"app.py": "file", "ui.js": "file"},
        },
        {
            "members": ["self.py"],
            "self_loop": True,
            "edges": [
                {
                    "src": "self.py",
                    "dst": "self.py",
                    "kind": "import",
                    "confidence": 0.9,
                    "line": 4,
                    "count": 1,
                }
            ],
            "break": [{"src": "self.py", "dst": "self.py"}],
            "cycle": ["self.py", "self.py"],
            "unit_kind": "file",
            "member_kinds": {"self.py": "file"},
        },
    ]
    assert data["code"]["deploy_order"] == ["lib.py", "solo.py"]
    assert data["code"]["independent"] == ["solo.py"]
    assert data["code"]["symbol_cyclic"][0]["members"] == ["py:lib.py::f"]
    assert data["code"]["symbol_cyclic"][0]["self_loop"] is True
    assert data["relations"] == {"supersedes": [["/adr/1.md", "/adr/2.md"]]}


def test_json_text_is_valid_and_non_finite_confidence_is_null() -> None:
    report = analyse_cycles(
        ["a", "b"], [DepEdge("a", "b", "import", math.nan, 1), DepEdge("b", "a", "import", 0.9, 1)]
    )
    text = render_cycles_json(report)
    edges = json.loads(text)["code"]["cyclic"][0]["edges"]
    assert [e["confidence"] for e in edges] == [None, 0.9]
    assert text == render_cycles_json(report)


def test_membership_indexes_into_cyclic() -> None:
    assert membership(sample()) == {"app.py": [0], "self.py": [1], "ui.js": [0]}
    assert cycle_anchor(0) == "cycle-1"


def test_markdown_report() -> None:
    md = render_cycles_md(sample())
    assert md.startswith("# Cycles\n")
    assert "### Cycle 1: 2 files\n" in md
    assert "### Cycle 2: self.py depends on itself\n" in md
    assert "| `app.py` | `ui.js` | import | 2 | 0.5 | 1 | yes |" in md
    assert "| `ui.js` | `app.py` | reference | 12 | 0.5 | 1 |  |" in md
    assert "- `app.py` → `ui.js` (import, line 2, confidence 0.5)" in md
    assert "1. `lib.py`\n2. `solo.py`\n" in md
    assert "- Recursion: `py:lib.py::f`" in md
    assert "- `supersedes`: `/adr/1.md`, `/adr/2.md`" in md
    assert md.endswith("\n") and not md.endswith("\n\n")


def test_markdown_escapes_table_cells() -> None:
    report = analyse_cycles(
        ["a|b.py", "c.py"],
        [DepEdge("a|b.py", "c.py", "import", 0.9, 1), DepEdge("c.py", "a|b.py", "import", 0.9, 1)],
    )
    assert "| `a\\|b.py` | `c.py` |" in render_cycles_md(report)


def test_markdown_without_cycles_says_so() -> None:
    md = render_cycles_md(analyse_cycles(["a.py"], []))
    assert "No file depends on itself, directly or through other files." in md
    assert "No typed relations." in md


def test_plain_text() -> None:
    text = render_cycles_text(sample()).splitlines()
    assert text[0] == (
        "5 files, 4 dependency edges: 2 cyclic units (3 files), 2 acyclic units "
        "(1 independent); 1 recursive symbol group; 1 relation cycle."
    )
    assert "cycle 1: 2 files: app.py, ui.js" in text
    assert "  ui.js -> app.py (reference, line 12, confidence 0.5)" in text
    assert "  break: remove app.py -> ui.js" in text
    assert "cycle 2: self.py depends on itself" in text
    assert "relation cycle [supersedes]: /adr/1.md, /adr/2.md" in text


def test_default_source_href() -> None:
    assert source_href("pkg/a.py", 7) == "code/pkg/a.py.html#L7"
    assert source_href("pkg/a.py", 0) == "code/pkg/a.py.html"
    assert source_href("odd #1 café.py", 2) == "code/odd%20%231%20caf%C3%A9.py.html#L2"


def test_view_uses_the_given_href_functions() -> None:
    view = cycles_view(sample(), lambda path, line: f"<{path}@{line}>", lambda node: f"[{node}]")
    first = view["code_cycles"][0]
    assert (first["number"], first["anchor"], first["title"]) == (1, "cycle-1", "2 files")
    assert first["members"] == [
        {"path": "app.py", "href": "<app.py@0>", "kind": ""},
        {"path": "ui.js", "href": "<ui.js@0>", "kind": ""},
    ]
    assert [(e["src"], e["href"], e["breaks"]) for e in first["edges"]] == [
        ("app.py", "<app.py@2>", True),
        ("ui.js", "<ui.js@12>", False),
    ]
    assert [(b["src"], b["dst"]) for b in first["breaks"]] == [("app.py", "ui.js")]
    assert view["deploy_order"] == [
        {"path": "lib.py", "href": "<lib.py@0>", "kind": "", "independent": False},
        {"path": "solo.py", "href": "<solo.py@0>", "kind": "", "independent": True},
    ]
    # Symbol edges link their source file's line, not the symbol id.
    assert view["recursion"][0]["edges"][0]["href"] == "<lib.py@8>"
    assert view["relations"] == [
        {
            "predicate": "supersedes",
            "cycles": [
                [
                    {"id": "/adr/1.md", "href": "[/adr/1.md]"},
                    {"id": "/adr/2.md", "href": "[/adr/2.md]"},
                ]
            ],
        }
    ]


def test_view_default_hrefs_point_at_source_and_page_html() -> None:
    view = cycles_view(sample())
    assert view["code_cycles"][0]["edges"][1]["href"] == "code/ui.js.html#L12"
    assert view["relations"][0]["cycles"][0][0]["href"] == "adr/1.html"
