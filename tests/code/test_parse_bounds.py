"""tree-sitter's error recovery is quadratic on some shapes, and it counts no work a caller
could bound, so each source file gets a CPU-time budget (issue 27; content/guides/safety.md):
a file not read within it is one warning, and the build goes on."""

from __future__ import annotations

import time

import pytest

from sitegen.base.languages import LangId
from sitegen.code import extract
from sitegen.code.grammars import get_parser, parse_within

#: 48 KB of TypeScript that tree-sitter reads in seconds (quadratic: 12 KB took 0.3 s).
SLOW = b"{/*" * 16_000


def test_a_file_tree_sitter_reads_slowly_is_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_PARSE_SECONDS", 0.2)
    started = time.process_time()
    record = extract.extract_source("src/slow.ts", LangId.TYPESCRIPT, SLOW)
    assert time.process_time() - started < 2.0
    assert record.symbols == [] and record.imports == []
    (said,) = record.diagnostics
    assert (said.path, said.line, said.code) == ("src/slow.ts", 1, "code-parse")
    assert "did not read this file in 0.2 s" in said.message


def test_the_parser_is_reset_after_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_PARSE_SECONDS", 0.05)
    extract.extract_source("src/slow.ts", LangId.TYPESCRIPT, SLOW)
    monkeypatch.setattr(extract, "MAX_PARSE_SECONDS", 10.0)
    record = extract.extract_source("src/ok.ts", LangId.TYPESCRIPT, b"export function f() {}\n")
    assert [s.name for s in record.symbols] == ["f"]
    assert record.diagnostics == []


@pytest.mark.parametrize("lang", [LangId.PYTHON, LangId.TYPESCRIPT, LangId.C, LangId.RUBY])
def test_within_its_budget_the_tree_is_the_one_parse_gives(lang: LangId) -> None:
    data = b"def f(x):\n    return [x, {'a': (1, 2)}]\n" * 2_000
    bounded = parse_within(get_parser(lang), data, 10.0)
    assert bounded is not None
    assert str(bounded.root_node) == str(get_parser(lang).parse(data).root_node)
