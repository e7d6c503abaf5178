"""When a JavaScript or TypeScript import runs (content/guides/cycles.md#when-an-import-runs):
TypeScript erases ``import type``, ``export type … from`` and an import whose every name is
written ``type X``, so they are type-only; a ``require()`` inside a function body is deferred.

The files below were written for these tests: ``site.ts`` and ``config.ts`` would be a cycle
if every import loaded its module, the way VitePress' own ``siteConfig`` loop closes only
through ``import type``.
"""

from __future__ import annotations

from sitegen.analyse.cycles import analyse_code_cycles
from sitegen.base.languages import LangId
from sitegen.code.extract import extract_source
from sitegen.code.link import build_code_graph, dependency_edges
from sitegen.config import Config
from sitegen.records.code import CodeRecord

FILES = {
    "src/config.ts": (
        "import type { Site } from './site'\n"
        "import { type Theme, type Page } from './theme'\n"
        "import { type Nav, load } from './nav'\n"
        "export type { Site as SiteAlias } from './site'\n"
        "export { type Page as P } from './theme'\n"
        "export const config = { load }\n"
    ),
    "src/site.ts": "import { config } from './config'\nexport interface Site { c: typeof config }\n",
    "src/theme.ts": "export interface Theme { x: number }\nexport interface Page { y: number }\n",
    "src/nav.ts": "export interface Nav { z: number }\nexport function load() { return 1 }\n",
    "src/lazy.js": (
        "const eager = require('./eager')\n"
        "function later() {\n  return require('./site')\n}\n"
        "const arrow = () => require('./theme')\n"
    ),
    "src/eager.js": "module.exports = 1\n",
}


def _records() -> list[CodeRecord]:
    lang = {".ts": LangId.TYPESCRIPT, ".js": LangId.JAVASCRIPT}
    return [extract_source(p, lang[p[-3:]], t.encode()) for p, t in sorted(FILES.items())]


def _contexts(path: str) -> list[tuple[int, str, str]]:
    (record,) = [r for r in _records() if r.path == path]
    return [(i.line, i.specifier, i.context) for i in record.imports]


def test_typescript_type_only_imports_and_re_exports() -> None:
    assert _contexts("src/config.ts") == [
        (1, "./site", "type-only"),  # import type
        (2, "./theme", "type-only"),  # every name written `type X`
        (3, "./nav", ""),  # `load` is a value: the module loads
        (4, "./site", "type-only"),  # export type … from
        (5, "./theme", "type-only"),  # export { type P } from
    ]


def test_a_require_inside_a_function_is_deferred() -> None:
    assert _contexts("src/lazy.js") == [
        (1, "./eager", ""),
        (3, "./site", "deferred"),
        (5, "./theme", "deferred"),
    ]


def test_a_loop_closed_by_type_only_imports_is_no_cycle_by_default() -> None:
    graph, _ = build_code_graph(_records(), Config(source=("src",)), set(FILES))
    files, symbols = dependency_edges(graph)
    left = analyse_code_cycles(sorted(FILES), files, symbols)
    assert left.cyclic == ()
    assert left.left_out.get("type-only", 0) >= 1
    (unit,) = analyse_code_cycles(sorted(FILES), files, symbols, include=["type-only"]).cyclic
    assert unit.members == ("src/config.ts", "src/site.ts")
