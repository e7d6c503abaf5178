"""Ruby extraction against a hand-written fixture (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import CodeRecord, Import, MetacallCall, MetacallLoad, Reference

FIXTURE = Path(__file__).parent / "fixtures" / "extract" / "sample.rb"


def _extract() -> CodeRecord:
    return extract_source("lib/sample.rb", LangId.RUBY, FIXTURE.read_bytes())


def test_symbols_modules_and_private_sections() -> None:
    got = symbol_rows(_extract())
    assert got == [
        ("Shop", "object", "public", "Shop", None, 5, 31),
        ("Cart", "class", "public", "Shop.Cart", "Shop", 6, 30),
        ("build", "method", "public", "Shop.Cart.build", "Shop.Cart", 7, 9),  # def self.
        ("total", "method", "public", "Shop.Cart.total", "Shop.Cart", 11, 15),
        ("checkout", "method", "private", "Shop.Cart.checkout", "Shop.Cart", 17, 17),
        ("recompute", "method", "private", "Shop.Cart.recompute", "Shop.Cart", 21, 21),
        ("visible", "method", "public", "Shop.Cart.visible", "Shop.Cart", 23, 23),
        ("guarded", "method", "private", "Shop.Cart.guarded", "Shop.Cart", 27, 27),
        ("Order", "class", "public", "Order", None, 33, 35),  # class Shop::Order
        ("place", "method", "public", "Order.place", "Order", 34, 34),
        ("top_level_helper", "function", "public", "top_level_helper", None, 37, 37),
    ]


def test_requires_and_metacall_loads() -> None:
    record = _extract()
    assert record.imports == [
        Import("lib/engine", "require_relative", 2),
        Import("json", "require", 3),
        Import("pricing.py", "metacall-load", 39),
        Import("tax.js", "metacall-load", 39),
    ]
    assert record.metacall_loads == [MetacallLoad("py", ("pricing.py", "tax.js"), 39)]
    assert record.metacalls == [MetacallCall("price_of", 14, "Shop.Cart.total")]


def test_references() -> None:
    assert _extract().references == [
        Reference("require_relative", "call", 2, None),
        Reference("require", "call", 3, None),
        Reference("Base::Model", "base", 6, "Shop.Cart"),
        Reference("new", "call", 8, "Shop.Cart.build"),
        Reference("items.map", "call", 12, "Shop.Cart.total"),
        Reference("Tax.rate", "call", 13, "Shop.Cart.total"),
        Reference("metacall", "call", 14, "Shop.Cart.total"),
        Reference("public", "call", 23, "Shop.Cart"),
        Reference("private", "call", 29, "Shop.Cart"),
        Reference("helper", "call", 34, "Order.place"),
        Reference("metacall_load_from_file", "call", 39, None),
    ]
