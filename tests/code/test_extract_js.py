"""JavaScript extraction against a hand-written fixture (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import Binding, CodeRecord, Import, MetacallCall, MetacallLoad, Reference

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.js"


def _extract() -> CodeRecord:
    return extract_source("web/sample.js", LangId.JAVASCRIPT, FIXTURE.read_bytes())


def test_symbols() -> None:
    got = symbol_rows(_extract())
    assert got == [
        ("start", "function", "public", "start", None, 11, 17),
        ("nested", "function", "private", "start.nested", "start", 13, 15),
        ("Engine", "class", "public", "Engine", None, 19, 28),
        ("run", "method", "public", "Engine.run", "Engine", 20, 23),
        ("#secret", "method", "private", "Engine.#secret", "Engine", 24, 24),
        ("create", "method", "public", "Engine.create", "Engine", 25, 27),
        ("Hidden", "class", "private", "Hidden", None, 30, 30),
        ("arrow", "function", "public", "arrow", None, 32, 32),  # `export { arrow }`
        ("exported", "function", "public", "exported", None, 33, 33),
    ]  # `let notConst = () => 0` is not a const: no symbol


def test_imports() -> None:
    assert _extract().imports == [
        Import("./m", "import", 2, (Binding("default", "def"), Binding("a", "b"), Binding("c"))),
        Import("ns", "import", 3, alias="ns"),
        Import("./side-effect.css", "import", 4),
        Import("./d", "export-from", 5, (Binding("d", "e"),)),
        Import("./s", "export-from", 6, star=True),
        Import("./t", "export-from", 7, alias="t"),
        Import("fs", "require", 8, alias="fs"),
        Import("uv", "require", 9, (Binding("u"), Binding("v", "w"))),
        Import("./lazy.js", "dynamic", 33, context="deferred"),  # inside the arrow function
        Import("a.py", "metacall-load", 37),
        Import("b.rb", "metacall-load", 37),
    ]


def test_references() -> None:
    assert _extract().references == [
        Reference("require", "call", 8, None),
        Reference("require", "call", 9, None),
        Reference("Engine", "call", 12, "start"),
        Reference("ns.helper", "call", 14, "start.nested"),
        Reference("nested", "call", 16, "start"),
        Reference("base.Engine", "base", 19, "Engine"),
        Reference("this.step", "call", 21, "Engine.run"),
        Reference("metacall", "call", 22, "Engine.run"),
        Reference("Engine", "call", 26, "Engine.create"),
        Reference("Engine", "base", 30, "Hidden"),
        Reference("fetch", "call", 32, "arrow"),
        Reference("metacall_load_from_file", "call", 37, None),
    ]


def test_metacall_and_links() -> None:
    record = _extract()
    assert record.metacalls == [MetacallCall("sum", 22, "Engine.run")]
    assert record.metacall_loads == [MetacallLoad("py", ("a.py", "b.rb"), 37)]
    assert [(link.href, link.label, link.line, link.column) for link in record.links] == [
        ("../docs/guide.md", "the guide", 1, 38),
        ("https://example.com/js", "https://example.com/js", 36, 12),
    ]
