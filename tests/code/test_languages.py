"""Extensions, grammar loading and query compilation (content/reference/code-graph.md#languages)."""

from __future__ import annotations

import pytest
from tree_sitter import Language, Query

from sitegen.base.languages import LangId, language_for_path
from sitegen.code.grammars import get_language, get_parser, load_query

SPEC_EXTENSIONS = {
    "python": [".py", ".pyi"],
    "javascript": [".js", ".mjs", ".cjs", ".jsx"],
    "typescript": [".ts", ".mts", ".cts"],
    "tsx": [".tsx"],
    "c": [".c", ".h"],
    "cpp": [".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"],
    "rust": [".rs"],
    "go": [".go"],
    "ruby": [".rb"],
}


@pytest.mark.parametrize("name,extensions", sorted(SPEC_EXTENSIONS.items()))
def test_extension_map_matches_spec(name: str, extensions: list[str]) -> None:
    for ext in extensions:
        assert language_for_path(f"pkg/sub/file{ext}") == LangId(name)


@pytest.mark.parametrize(
    "path", ["README.md", "Makefile", "a.pyc", "x.json", "py", "a.py.bak", "dir.py/file"]
)
def test_unknown_extensions_have_no_language(path: str) -> None:
    assert language_for_path(path) is None


def test_language_order_and_names_round_trip() -> None:
    assert [str(lang) for lang in LangId] == list(SPEC_EXTENSIONS)
    for lang in LangId:
        assert LangId(str(lang)) == lang


@pytest.mark.parametrize("lang", list(LangId))
def test_every_query_compiles_and_grammar_is_cached(lang: LangId) -> None:
    assert isinstance(get_language(lang), Language)
    assert get_language(lang) is get_language(lang)
    query = load_query(lang)
    assert isinstance(query, Query)
    assert query.pattern_count > 0
    assert load_query(lang) is query


def test_typescript_and_tsx_use_their_own_grammars() -> None:
    # A type assertion `<T>x` is TypeScript only; JSX is tsx only.
    ts = get_parser(LangId.TYPESCRIPT).parse(b"let y = <number>x;")
    tsx = get_parser(LangId.TSX).parse(b"let y = <div>x</div>;")
    assert not ts.root_node.has_error
    assert not tsx.root_node.has_error
    assert get_parser(LangId.TYPESCRIPT).parse(b"let y = <div>x</div>;").root_node.has_error
