"""TypeScript and TSX extraction on a hand-written fixture (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import Binding, CodeRecord, Import, MetacallCall, Reference

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.ts"
JSX_LINE = b'export const View = () => <div className="x">{make(cfg)}</div>;\n'


def _extract(lang: LangId = LangId.TYPESCRIPT, extra: bytes = b"") -> CodeRecord:
    return extract_source("web/sample.ts", lang, FIXTURE.read_bytes() + extra)


SYMBOLS = [
    ("Shape", "interface", "public", "Shape", None, 5, 7),
    ("Id", "interface", "public", "Id", None, 9, 9),  # type aliases are recorded as interfaces
    ("Color", "enum", "private", "Color", None, 11, 11),
    ("Circle", "class", "public", "Circle", None, 13, 22),
    ("area", "method", "public", "Circle.area", "Circle", 15, 17),
    ("secret", "method", "private", "Circle.secret", "Circle", 18, 20),
    ("draw", "method", "private", "Circle.draw", "Circle", 21, 21),  # protected abstract
    ("make", "function", "public", "make", None, 24, 24),
]


def test_symbols() -> None:
    got = symbol_rows(_extract())
    assert got == SYMBOLS


def test_tsx_uses_the_same_rules_and_parses_jsx() -> None:
    record = _extract(LangId.TSX, JSX_LINE)
    assert not record.has_error
    got = symbol_rows(record)
    assert got == SYMBOLS + [("View", "function", "public", "View", None, 25, 25)]
    assert Reference("make", "call", 25, "View") in record.references


@pytest.mark.parametrize("lang", [LangId.TYPESCRIPT, LangId.TSX])
def test_imports(lang: LangId) -> None:
    assert _extract(lang).imports == [
        Import("./config", "import", 1, (Binding("Config"),), context="type-only"),
        Import("fs", "require", 2, alias="fs"),
        Import("./helpers", "export-from", 3, (Binding("helper"),)),
    ]


def test_references_types_bases_calls() -> None:
    assert _extract().references == [
        Reference("Base", "base", 5, "Shape"),
        Reference("geo.Named", "base", 5, "Shape"),
        Reference("Key", "type", 9, "Id"),
        Reference("Figure", "base", 13, "Circle"),
        Reference("Unit", "type", 13, "Circle"),
        Reference("Shape", "base", 13, "Circle"),
        Reference("geo.Drawable", "base", 13, "Circle"),
        Reference("Math.round", "call", 16, "Circle.area"),
        Reference("Config", "type", 18, "Circle.secret"),
        Reference("geo.Point", "type", 18, "Circle.secret"),
        Reference("convert", "call", 19, "Circle.secret"),
        Reference("Point", "type", 19, "Circle.secret"),
        Reference("Config", "type", 24, "make"),
        Reference("Circle", "type", 24, "make"),
        Reference("metacall", "call", 24, "make"),
    ]


def test_metacall() -> None:
    assert _extract().metacalls == [MetacallCall("create", 24, "make")]
