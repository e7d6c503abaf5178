"""Python extraction against a hand-written fixture: symbols, imports, references, links."""

from __future__ import annotations

import hashlib
from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import (
    Binding,
    CodeRecord,
    CommentLink,
    Import,
    MetacallCall,
    MetacallLoad,
    Reference,
)

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.py"
PATH = "pkg/sample.py"


def _extract() -> tuple[bytes, CodeRecord]:
    data = FIXTURE.read_bytes()
    return data, extract_source(PATH, LangId.PYTHON, data)


def test_symbols_kinds_visibility_nesting_and_lines() -> None:
    _, record = _extract()
    got = symbol_rows(record)
    assert got == [
        ("Engine", "class", "public", "Engine", None, 11, 27),
        ("run", "method", "public", "Engine.run", "Engine", 14, 21),
        ("inner", "function", "public", "Engine.run.inner", "Engine.run", 18, 19),
        ("_helper", "method", "private", "Engine._helper", "Engine", 23, 24),
        ("__init__", "method", "public", "Engine.__init__", "Engine", 26, 27),
        ("_private", "function", "private", "_private", None, 30, 32),
        ("outer", "function", "public", "outer", None, 35, 37),
        ("Local", "class", "public", "outer.Local", "outer", 36, 37),
    ]


def test_ranges_point_at_the_source() -> None:
    data, record = _extract()
    for s in record.symbols:
        assert s.name_range is not None
        assert data[s.name_range.start_byte : s.name_range.end_byte].decode() == s.name
        text = data[s.source_range.start_byte : s.source_range.end_byte].decode()
        assert text.startswith(("def ", "class ")), text
        assert data[: s.source_range.start_byte].count(b"\n") + 1 == s.source_range.start_line


def test_every_import_form() -> None:
    _, record = _extract()
    assert record.imports == [
        Import("os", "import", 2),
        Import("a.b.c", "import", 3),
        Import("a.b", "import", 4, alias="ab"),
        Import("json", "import", 4),
        Import(".", "from", 5, (Binding("sibling"),), level=1),
        Import("..pkg.mod", "from", 6, (Binding("thing", "other"), Binding("more")), level=2),
        Import("m", "from", 7, star=True),
        Import("metacall", "from", 8, (Binding("metacall"), Binding("metacall_load_from_file"))),
        Import("a.js", "metacall-load", 40),
        Import("lib/b.rb", "metacall-load", 40),
    ]


def test_references_calls_types_and_bases() -> None:
    _, record = _extract()
    assert record.references == [
        Reference("Base", "base", 11, "Engine"),
        Reference("plugins.Mixin", "base", 11, "Engine"),
        Reference("Job", "type", 14, "Engine.run"),
        Reference("Result", "type", 14, "Engine.run"),
        Reference("self.helper", "call", 15, "Engine.run"),
        Reference("os.path.join", "call", 16, "Engine.run"),
        Reference("typing.Optional", "type", 18, "Engine.run.inner"),
        Reference("Item", "type", 18, "Engine.run.inner"),
        Reference("make", "call", 19, "Engine.run.inner"),
        Reference("inner", "call", 21, "Engine.run"),
        Reference("metacall", "call", 32, "_private"),
        Reference("metacall_load_from_file", "call", 40, None),
        Reference("metacall", "call", 41, None),
    ]


def test_metacalls_and_loads() -> None:
    _, record = _extract()
    assert record.metacalls == [
        MetacallCall("sum", 32, "_private"),
        MetacallCall("top_level", 41, None),
    ]
    assert record.metacall_loads == [MetacallLoad("node", ("a.js", "lib/b.rb"), 40)]


def test_links_in_comments_and_docstrings() -> None:
    data, record = _extract()
    assert [(link.href, link.label, link.line, link.column) for link in record.links] == [
        ("../docs/guide.md", "the guide", 1, 38),
        ("https://example.com/engine", "https://example.com/engine", 12, 26),
        ("notes.md", "notes", 31, 32),
    ]
    for link in record.links:
        assert data[link.offset : link.offset + 1] in (b"[", b"h")
        line_start = data.rfind(b"\n", 0, link.offset) + 1
        assert link.offset - line_start + 1 == link.column
        assert isinstance(link, CommentLink)


def test_record_header() -> None:
    data, record = _extract()
    assert record.path == PATH and record.language == LangId.PYTHON
    assert record.content_hash == hashlib.sha256(data).hexdigest()
    assert not record.has_error and record.diagnostics == []


def test_syntax_error_still_yields_what_parses() -> None:
    data = b"def good():\n    pass\n\ndef broken(:\n\nclass After:\n    pass\n"
    record = extract_source("bad.py", LangId.PYTHON, data)
    assert record.has_error
    names = [s.name for s in record.symbols]
    assert "good" in names and "After" in names


def test_extraction_is_deterministic() -> None:
    data, record = _extract()
    assert extract_source(PATH, LangId.PYTHON, data) == record
