"""C and C++ extraction against hand-written fixtures (content/reference/code-graph.md)."""

from __future__ import annotations

from pathlib import Path

from recordkit import symbol_rows

from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.records.code import CodeRecord, Import, Reference

FIXTURES = Path(__file__).parent / "fixtures" / "extract"


def _extract(name: str, lang: LangId) -> CodeRecord:
    return extract_source(f"src/{name}", lang, (FIXTURES / name).read_bytes())


def test_c_symbols_static_is_private_prototypes_yield() -> None:
    assert symbol_rows(_extract("sample.c", LangId.C)) == [
        ("exported_proto", "function", "public", "exported_proto", None, 7, 7),
        ("point", "struct", "public", "point", None, 11, 11),
        ("shape_t", "struct", "public", "shape_t", None, 13, 15),
        ("color", "enum", "public", "color", None, 17, 17),
        # the prototype on line 8 yields to the definition; `local_proto` is in a body
        ("hidden_proto", "function", "private", "hidden_proto", None, 19, 19),
        ("make_name", "function", "public", "make_name", None, 21, 25),
    ]


def test_c_includes_and_references() -> None:
    record = _extract("sample.c", LangId.C)
    assert record.imports == [
        Import("sample.h", "include-local", 2),
        Import("util/strings.h", "include-local", 3),
        Import("stdio.h", "include-system", 4),
    ]
    assert record.references == [
        Reference("point", "type", 14, "shape_t"),
        Reference("shape_t", "type", 21, "make_name"),
        Reference("point", "type", 21, "make_name"),
        Reference("printf", "call", 23, "make_name"),
        Reference("s->ops.name", "call", 24, "make_name"),
    ]
    assert [(link.href, link.line, link.column) for link in record.links] == [
        ("../docs/guide.md", 1, 38)
    ]


def test_cpp_symbols_members_and_out_of_line_methods() -> None:
    assert symbol_rows(_extract("sample.cpp", LangId.CPP)) == [
        ("Engine", "class", "public", "Engine", None, 7, 15),  # namespace app is skipped
        ("size", "method", "public", "Engine.size", "Engine", 11, 11),
        ("Slot", "struct", "private", "Engine.Slot", "Engine", 14, 14),
        ("Config", "struct", "public", "Config", None, 17, 20),
        # out-of-line definitions take the in-class declaration's access
        ("Engine", "method", "public", "Engine.Engine", "Engine", 24, 24),
        ("run", "method", "public", "Engine.run", "Engine", 26, 30),
        ("cache", "method", "private", "Engine.cache", "Engine", 32, 32),
        ("apply", "method", "public", "Config.apply", "Config", 34, 34),
        ("call", "method", "public", "Remote.call", None, 36, 36),  # Remote is elsewhere
        ("internal", "function", "private", "internal", None, 38, 38),
    ]


def test_cpp_includes_and_references() -> None:
    record = _extract("sample.cpp", LangId.CPP)
    assert record.imports == [
        Import("engine.hpp", "include-local", 2),
        Import("vector", "include-system", 3),
    ]
    assert record.references == [
        Reference("Base", "base", 7, "Engine"),
        Reference("detail::Mixin", "base", 7, "Engine"),
        Reference("Holder", "base", 7, "Engine"),
        Reference("Part", "type", 7, "Engine"),
        Reference("count", "call", 11, "Engine.size"),
        Reference("Engine", "type", 19, "Config"),
        Reference("this->size", "call", 27, "Engine.run"),
        Reference("std::sort", "call", 28, "Engine.run"),
        Reference("items.begin", "call", 28, "Engine.run"),
        Reference("items.end", "call", 28, "Engine.run"),
        Reference("helper", "call", 29, "Engine.run"),
        Reference("Engine", "type", 34, "Config.apply"),
        Reference("e.run", "call", 34, "Config.apply"),
        Reference("std::string", "type", 38, "internal"),
    ]
