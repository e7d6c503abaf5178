"""Properties every fixture must have, in every language: ranges point at the source,
records are deterministic, broken input still yields what parses, bad specifiers warn."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.diagnostics import Level
from sitegen.base.languages import LangId, language_for_path
from sitegen.code.extract import extract_source

FIXTURES = Path(__file__).parent / "fixtures" / "extract"
SAMPLES = sorted(p.name for p in FIXTURES.iterdir() if p.name.startswith("sample."))


def test_there_is_a_fixture_per_language_family() -> None:
    langs = {language_for_path(name) for name in SAMPLES}
    assert langs == set(LangId) - {LangId.TSX}  # tsx reuses sample.ts (test_extract_ts)


@pytest.mark.parametrize("name", SAMPLES)
def test_name_and_source_ranges_point_at_the_source(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    lang = language_for_path(name)
    assert lang is not None
    record = extract_source(name, lang, data)
    assert record.symbols and not record.has_error
    for s in record.symbols:
        assert s.name_range is not None
        assert data[s.name_range.start_byte : s.name_range.end_byte].decode() == s.name
        r = s.source_range
        assert r.start_byte <= s.name_range.start_byte < s.name_range.end_byte <= r.end_byte
        assert data[: r.start_byte].count(b"\n") + 1 == r.start_line
        assert data[: r.end_byte].count(b"\n") + 1 == r.end_line
        assert s.qualified_name.endswith(s.name)
        assert s.parent is None or s.qualified_name == f"{s.parent}.{s.name}"
    for link in record.links:
        assert data[link.offset : link.offset + len(link.href)] == link.href.encode() or data[
            link.offset : link.offset + 1
        ] in (b"[", b"<")
        line_start = data.rfind(b"\n", 0, link.offset) + 1
        assert (data[: link.offset].count(b"\n") + 1, link.offset - line_start + 1) == (
            link.line,
            link.column,
        )


@pytest.mark.parametrize("name", SAMPLES)
def test_extraction_is_deterministic(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    lang = language_for_path(name)
    assert lang is not None
    assert extract_source(name, lang, data) == extract_source(name, lang, data)


@pytest.mark.parametrize(
    "lang,data,good",
    [
        (LangId.JAVASCRIPT, b"function good() {}\nfunction bad( {\n", "good"),
        (LangId.C, b"int good(void) { return 0; }\nint bad( {\n", "good"),
        (LangId.RUST, b"fn good() {}\nfn bad( {\n", "good"),
        (LangId.GO, b"package p\nfunc Good() {}\nfunc bad( {\n", "Good"),
        (LangId.RUBY, b"def good; end\ndef bad(\n", "good"),
    ],
)
def test_syntax_errors_still_yield_what_parses(lang: LangId, data: bytes, good: str) -> None:
    record = extract_source("broken", lang, data)
    assert record.has_error
    assert good in [s.name for s in record.symbols]


@pytest.mark.parametrize(
    "lang,data,kept",
    [
        (LangId.JAVASCRIPT, b"import a from './ok';\nimport b from './\xff\xfe';\n", "./ok"),
        (LangId.TYPESCRIPT, b"export * from './ok';\nexport * from '\xff';\n", "./ok"),
        (LangId.C, b'#include "ok.h"\n#include "\xff.h"\n', "ok.h"),
        (LangId.GO, b'package p\nimport (\n\t"ok"\n\t"\xff"\n)\n', "ok"),
        (LangId.RUBY, b"require 'ok'\nrequire '\xff'\n", "ok"),
        (LangId.PYTHON, b"metacall_load_from_file('py', ['ok.py', '\xff.py'])\n", "ok.py"),
    ],
)
def test_non_utf8_specifier_is_dropped_with_a_warning(lang: LangId, data: bytes, kept: str) -> None:
    record = extract_source("bad", lang, data)
    assert [imp.specifier for imp in record.imports] == [kept]
    assert len(record.diagnostics) == 1
    warning = record.diagnostics[0]
    assert warning.level == Level.WARNING and warning.code == "utf8"
    assert warning.path == "bad" and warning.line == data.count(b"\n", 0, data.index(b"\xff")) + 1


def test_empty_file() -> None:
    for lang in LangId:
        record = extract_source("empty", lang, b"")
        assert record.symbols == [] and record.imports == [] and not record.has_error


def test_links_in_multi_line_comments_are_positioned_at_their_first_byte() -> None:
    data = (
        b"/**\n"
        b" * Intro.\n"
        b' *   See [the *guide*](docs/guide.md#setup "Setup") and\n'
        b" *   <https://example.com/a_(b)>, https://example.com/x.\n"
        b" */\n"
        b"function f() {}\n"
    )
    record = extract_source("a.js", LangId.JAVASCRIPT, data)
    assert [
        (link.href, link.label, link.offset, link.line, link.column) for link in record.links
    ] == [
        ("docs/guide.md#setup", "the *guide*", 23, 3, 10),
        ("https://example.com/a_(b)", "https://example.com/a_(b)", 75, 4, 6),
        ("https://example.com/x", "https://example.com/x", 104, 4, 35),
    ]
