"""Go extraction against a hand-written fixture (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import CodeRecord, Import, Reference

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.go"


def _extract() -> CodeRecord:
    return extract_source("sample/sample.go", LangId.GO, FIXTURE.read_bytes())


def test_symbols_receivers_own_methods() -> None:
    got = symbol_rows(_extract())
    assert got == [
        ("Store", "struct", "public", "Store", None, 14, 18),
        ("reader", "interface", "private", "reader", None, 20, 23),
        # `type Count int` is neither struct nor interface: no symbol
        ("Add", "method", "public", "Store.Add", "Store", 27, 31),
        ("validate", "method", "private", "Store.validate", "Store", 33, 33),
        ("Get", "method", "public", "Generic.Get", None, 35, 35),
        ("New", "function", "public", "New", None, 37, 41),
    ]


def test_import_specs_with_aliases() -> None:
    assert _extract().imports == [
        Import("fmt", "go", 5),
        Import("strings", "go", 6, alias="str"),
        Import("example.com/dot", "go", 7, alias="."),
        Import("example.com/side", "go", 8, alias="_"),
        Import("example.com/app/engine", "go", 9),
        Import("os", "go", 12),
    ]


def test_references_embedding_is_a_base() -> None:
    assert _extract().references == [
        Reference("Base", "base", 15, "Store"),
        Reference("engine.Part", "base", 16, "Store"),
        Reference("string", "type", 17, "Store"),
        Reference("Item", "type", 17, "Store"),
        Reference("io.Reader", "base", 21, "reader"),
        Reference("error", "type", 22, "reader"),
        Reference("Count", "type", 25, None),
        Reference("int", "type", 25, None),
        Reference("Store", "type", 27, "Store.Add"),
        Reference("Item", "type", 27, "Store.Add"),
        Reference("error", "type", 27, "Store.Add"),
        Reference("Store.validate", "call", 28, "Store.Add"),  # s is the *Store receiver
        Reference("fmt.Println", "call", 29, "Store.Add"),
        Reference("str.ToUpper", "call", 29, "Store.Add"),
        Reference("Store", "type", 33, "Store.validate"),
        Reference("Item", "type", 33, "Store.validate"),
        Reference("Generic", "type", 35, "Generic.Get"),
        Reference("T", "type", 35, "Generic.Get"),
        Reference("T", "type", 35, "Generic.Get"),
        Reference("T", "type", 35, "Generic.Get"),
        Reference("Store", "type", 37, "New"),
        Reference("helper", "call", 39, "New"),
        Reference("Store", "type", 40, "New"),
    ]
