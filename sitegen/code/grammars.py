"""The extraction queries of each language, packaged with sitegen; the grammars themselves
are loaded in one place below the layers, sitegen/base/grammars.py.

This module never reads project files: only the packaged ``queries/<lang>.scm`` resources.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from tree_sitter import Query

from sitegen.base.grammars import get_language, get_parser, parse_within
from sitegen.base.languages import LangId

__all__ = ["get_language", "get_parser", "load_query", "parse_within", "query_source"]

#: The query files of each language, concatenated into one query: the JavaScript family
#: shares ``ecmascript.scm`` and C++ extends ``c.scm``, as their grammars extend each other.
#: TSX is TypeScript with JSX, so it uses TypeScript's patterns.
_QUERY_FILES: dict[LangId, tuple[str, ...]] = {
    LangId.PYTHON: ("python.scm",),
    LangId.JAVASCRIPT: ("ecmascript.scm", "javascript.scm"),
    LangId.TYPESCRIPT: ("ecmascript.scm", "typescript.scm"),
    LangId.TSX: ("ecmascript.scm", "typescript.scm"),
    LangId.C: ("c.scm",),
    LangId.CPP: ("c.scm", "cpp.scm"),
    LangId.RUST: ("rust.scm",),
    LangId.GO: ("go.scm",),
    LangId.RUBY: ("ruby.scm",),
}


def query_source(lang: LangId) -> str:
    """The text of the query files for ``lang`` (packaged with sitegen), in order."""
    folder = resources.files("sitegen.code") / "queries"
    return "\n".join((folder / name).read_text(encoding="utf-8") for name in _QUERY_FILES[lang])


@cache
def load_query(lang: LangId) -> Query:
    """The compiled extraction query for ``lang``: every pattern in one query, run once a file,
    the def-use flow's last (``sitegen.code.dataflow.flow_pattern``: a second pass over the
    tree cost as much as the first)."""
    from sitegen.code.dataflow import flow_pattern

    return Query(get_language(lang), query_source(lang) + "\n" + flow_pattern(lang))
