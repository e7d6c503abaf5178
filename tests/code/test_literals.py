"""Literal values of a JavaScript/TypeScript module, never run (sitegen/code/literals.py)."""

from __future__ import annotations

from sitegen.code.literals import SPREAD, NotLiteral, read_module
from sitegen.languages import LangId

CONFIG = b"""import { defineConfig } from 'vitepress'
import { version } from './package.json'

const guide = [{ text: 'Intro', link: '/guide/' }, { text: "It\\u00e9s \\"quoted\\"", link: `/b` }]
export const shared = { n: 0x10, f: 1.5, yes: true, no: null } satisfies object

function sidebarRef() {
  // only a return: followed
  return [{ text: 'Ref', items: guide }]
}

function computed(x) { return [x] }

export default defineConfig({
  title: 'Site',
  'quoted-key': shared,
  guide,
  themeConfig: {
    sidebar: { '/guide/': guide, '/ref/': sidebarRef() },
    nav: [{ text: version }, computed(1), process.env.X, ...guide],
  },
})
"""


def test_literals_names_and_returning_functions_are_read() -> None:
    value = read_module(CONFIG).default
    assert value["title"] == "Site"
    assert value["quoted-key"] == {"n": 16, "f": 1.5, "yes": True, "no": None}
    guide = [{"text": "Intro", "link": "/guide/"}, {"text": 'It\u00e9s "quoted"', "link": "/b"}]
    assert value["guide"] == guide
    sidebar = value["themeConfig"]["sidebar"]
    assert sidebar == {"/guide/": guide, "/ref/": [{"text": "Ref", "items": guide}]}


def test_what_is_not_a_literal_is_marked_with_its_place() -> None:
    nav = read_module(CONFIG).default["themeConfig"]["nav"]
    assert nav[0]["text"] == NotLiteral("version", 20, 19)  # an import
    assert nav[1:] == [
        NotLiteral("computed(1)", 20, 30),  # a call with arguments
        NotLiteral("process.env.X", 20, 43),
        NotLiteral("...guide", 20, 58),  # a spread
    ]
    one = read_module(b"export default { nav: [{ text: version }, f(1), a.b] }").default["nav"]
    assert [type(v).__name__ for v in one] == ["dict", "NotLiteral", "NotLiteral"]
    assert one[0]["text"] == NotLiteral("version", 1, 32)


def test_a_module_without_a_default_export_or_with_cycles() -> None:
    assert isinstance(read_module(b"const a = 1").default, NotLiteral)
    cyclic = read_module(b"const a = b; const b = a; export default { a }").default
    assert isinstance(cyclic["a"], NotLiteral)
    common = read_module(b"module.exports = { x: ['y'] }", LangId.JAVASCRIPT).default
    assert common == {"x": ["y"]}
    named = read_module(b"const c = defineConfig({ t: 'T' }); export default c").default
    assert named == {"t": "T"}


def test_nothing_is_run() -> None:
    # A function with a side effect is never called: its body is more than a return.
    source = b"function f() { require('fs').rmSync('/'); return [] }\nexport default { a: f() }"
    assert isinstance(read_module(source).default["a"], NotLiteral)


def test_methods_and_spreads_keep_the_rest_of_the_object() -> None:
    source = b"""const base = { a: 1 }
export default { ...base, b: 2, async buildEnd() { run() }, ...other, c: [3] }"""
    value = read_module(source).default
    assert (value["a"], value["b"], value["c"]) == (1, 2, [3])
    assert isinstance(value["buildEnd"], NotLiteral)
    assert value[SPREAD] == NotLiteral("...other", 2, 61)
