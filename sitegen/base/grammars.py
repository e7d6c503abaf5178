"""The one place that loads tree-sitter grammars, and the one parse with a time bound.

Grammars come from tree-sitter packages (content/reference/code-graph.md), never from the
network. A bottom layer, so that the code step (sitegen/code/) and the readers of other
tools' configuration scripts (sitegen/base/js_literals.py, sitegen/generators/) share one loader.
"""

from __future__ import annotations

import importlib
import time
from functools import cache

from tree_sitter import Language, Parser, Tree

from sitegen.base.languages import LangId

#: Grammar provider: (module, function returning the language pointer). Swap a row (or the
#: whole table) to load grammars from another provider; nothing else calls these modules.
_GRAMMARS: dict[LangId, tuple[str, str]] = {
    LangId.PYTHON: ("tree_sitter_python", "language"),
    LangId.JAVASCRIPT: ("tree_sitter_javascript", "language"),
    LangId.TYPESCRIPT: ("tree_sitter_typescript", "language_typescript"),
    LangId.TSX: ("tree_sitter_typescript", "language_tsx"),
    LangId.C: ("tree_sitter_c", "language"),
    LangId.CPP: ("tree_sitter_cpp", "language"),
    LangId.RUST: ("tree_sitter_rust", "language"),
    LangId.GO: ("tree_sitter_go", "language"),
    LangId.RUBY: ("tree_sitter_ruby", "language"),
}


@cache
def get_language(lang: LangId) -> Language:
    """The tree-sitter grammar for ``lang``, loaded once per process."""
    module_name, function = _GRAMMARS[lang]
    module = importlib.import_module(module_name)
    return Language(getattr(module, function)())


@cache
def get_parser(lang: LangId) -> Parser:
    """A parser for ``lang``, reused (parsing is single-threaded; processes do not share it)."""
    return Parser(get_language(lang))


#: Bytes fed to tree-sitter at a time by ``parse_within``: its reader is asked for more between
#: chunks, so a stop is seen at least that often.
_CHUNK = 4096


def parse_within(parser: Parser, data: bytes, seconds: float) -> Tree | None:
    """The syntax tree of ``data``, or None when tree-sitter takes more than ``seconds`` of this
    thread's CPU time. Its error recovery is quadratic on some shapes (``'{/*' * 16000``, 48 KB
    of TypeScript, took 4.3 s; a megabyte would take half an hour), and it offers no count of
    its work, so the bound is time, set far above what real files cost (content/guides/
    safety.md#time-linear-in-the-input). A stopped parser is reset, so the next parse starts
    afresh."""
    started = time.thread_time()

    def too_long(_offset: int = 0, _has_error: bool = False) -> bool:
        return time.thread_time() - started > seconds

    def read(offset: int, _point: object) -> bytes:
        # Past the time the input ends: some shapes call the progress callback seldom.
        return b"" if too_long() else data[offset : offset + _CHUNK]

    try:
        tree = parser.parse(read, progress_callback=too_long)
    except ValueError:  # "Parsing failed": stopped by too_long
        parser.reset()
        return None
    return None if too_long() else tree
