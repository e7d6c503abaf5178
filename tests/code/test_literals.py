"""Literal values of a JavaScript/TypeScript module, never run (sitegen/base/js_literals.py)."""

from __future__ import annotations

import time

import pytest

from sitegen.base import js_literals as literals
from sitegen.base.js_literals import SPREAD, NotLiteral, Required, read_module
from sitegen.base.languages import LangId

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


# Issue 27, defect 3: constants that refer to each other, ten-fold at each level.


def _chain(levels: int, width: int = 10) -> bytes:
    """``const c0 = [1, 1, ...]; const c1 = [c0, c0, ...]; ...`` exported as the sidebar."""
    lines = [f"const c0 = [{', '.join(['1'] * width)}]"]
    lines += [f"const c{i} = [{', '.join([f'c{i - 1}'] * width)}]" for i in range(1, levels)]
    lines.append(f"export default {{ themeConfig: {{ sidebar: c{levels - 1} }} }}")
    return "\n".join(lines).encode()


def test_a_name_is_read_once_and_its_value_shared() -> None:
    read = read_module(_chain(4))  # 10,000 numbers when expanded
    sidebar = read.default["themeConfig"]["sidebar"]
    assert read.problem is None
    assert len(sidebar) == 10 and all(item is sidebar[0] for item in sidebar)
    assert sidebar[0][0][0] == [1] * 10


def test_a_value_that_expands_past_the_cap_is_one_not_literal() -> None:
    # Seven levels are the 729 bytes (116 s, 1.1 GB); five already pass the cap.
    for levels in (5, 7):
        read = read_module(_chain(levels))
        assert isinstance(read.default, NotLiteral)
        assert read.problem is read.default
        assert "more than 100,000 values" in read.default.reason
        assert (read.default.line, read.default.column) == (5, 45)  # the use that went past


def test_strings_count_at_each_use() -> None:
    big = "x" * 600_000
    source = f"const s = '{big}'\nexport default {{ a: [s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s] }}"
    read = read_module(source.encode())
    assert isinstance(read.default, NotLiteral) and "10,000,000 characters" in read.default.reason


def test_reference_cycles_are_named() -> None:
    read = read_module(b"const a = [b]; const b = [a]; export default { a, b }")
    inner = read.default["a"][0][0]
    assert isinstance(inner, NotLiteral) and inner.reason == "'a' refers to itself"
    assert read.problem == inner
    function = read_module(b"function f() { return [f()] }\nexport default { f: f() }")
    assert function.default["f"][0].reason == "'f()' refers to itself"


def test_the_file_and_the_nesting_have_caps() -> None:
    big = read_module(b"export default {}" + b" " * 1_000_000)
    assert isinstance(big.default, NotLiteral) and "1,000,017 bytes" in big.default.reason
    deep = read_module(b"export default " + b"[" * 3000 + b"]" * 3000)
    assert deep.problem is not None and "64 levels" in deep.problem.reason
    chain = "\n".join(f"const a{i + 1} = a{i}" for i in range(3000))
    names = read_module(f"const a0 = 1\n{chain}\nexport default {{ x: a3000 }}".encode())
    assert names.problem is not None and "64 levels" in names.problem.reason
    # A name read deep once is still measured at each use: shallow fits, deep does not.
    nested = "const n = " + "[" * 40 + "]" * 40 + "\nexport default { a: n, b: " + "[" * 30
    read = read_module((nested + "n" + "]" * 30 + " }").encode())
    assert isinstance(read.default["a"], list)
    assert "64 levels" in _innermost(read.default["b"]).reason


def _innermost(value: object) -> NotLiteral:
    while isinstance(value, list):
        value = value[0]
    assert isinstance(value, NotLiteral)
    return value


# Issue 27, defect 14: literals that no page can hold.

HOSTILE_LITERALS = {
    "escape beyond U+10FFFF": (b'"\\u{FFFFFFFFFFFFFFFFFFFF}"', 22, "no Unicode character"),
    "escape of 7 digits": (b'"\\u{1100000}"', 22, "no Unicode character"),
    "lone surrogate": (b'"\\uD800"', 21, "lone surrogate"),
    "low surrogate first": (b'"\\uDE00\\uD83D"', 21, "lone surrogate"),
    "template surrogate": (b"`a\\uDFFF`", 21, "lone surrogate"),
    "infinite number": (b"1e999999", 21, "beyond what JavaScript holds"),
    "5,000 digits": (b"9" * 5000, 21, "more than 400 characters"),
    "5,000 hexadecimal digits": (b"0x" + b"f" * 5000, 21, "more than 400 characters"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LITERALS))
def test_a_literal_no_page_can_hold_is_a_not_literal_with_its_place(name: str) -> None:
    literal, column, reason = HOSTILE_LITERALS[name]
    read = read_module(b"export default { a: " + literal + b", b: 'kept' }")
    assert read.default["b"] == "kept"
    found = read.default["a"]
    assert isinstance(found, NotLiteral) and reason in found.reason
    assert (found.line, found.column) == (1, column)
    assert read.problem == found and len(found.text) <= 60


def test_escapes_javascript_reads() -> None:
    source = rb"""export default { a: "\uD83D\uDE00 \u{1F600} \x41\u00e9 \
end", b: '\u{0000000041}', c: 1_000, d: 0x10, e: 1e3 }"""
    value = read_module(source).default
    assert value["a"] == "\U0001f600 \U0001f600 A\u00e9 end"
    assert (value["b"], value["c"], value["d"], value["e"]) == ("A", 1000, 16, 1000.0)
    big_int = read_module(b"export default { a: 123n }").default["a"]
    assert big_int == NotLiteral("123n", 1, 21)  # a BigInt: no literal sitegen reads


def test_a_file_without_a_default_export_names_its_first_syntax_error() -> None:
    read = read_module(b"const a = 1\nexport default { a: [1, 2")
    assert isinstance(read.default, NotLiteral) and "syntax error" in read.default.reason
    assert read.problem is read.default
    assert read_module(b"const a = 1").problem is None  # no error: no default, no warning


def test_a_shape_tree_sitter_reads_slowly_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # tree-sitter's error recovery is quadratic on runs of "/*": 64,000 bytes took 1.6 s and
    # 1 MB minutes. Its reading stops after MAX_PARSE_SECONDS (here made short).
    monkeypatch.setattr(literals, "MAX_PARSE_SECONDS", 0.05)
    started = time.thread_time()
    read = read_module(b"export default " + b"/*" * 60_000)
    assert time.thread_time() - started < 1.5
    assert isinstance(read.default, NotLiteral) and "did not read the file" in read.default.reason
    assert read_module(b"export default { a: 1 }").default == {"a": 1}  # the parser was reset


def test_calls_that_only_name_a_path_are_read_as_the_path() -> None:
    source = b"""const path = require('path')
module.exports = {
  sidebarPath: require.resolve('./sidebars.js'),
  theme: require('./src/theme.js'),
  here: path.resolve(__dirname, './tsconfig.json'),
  joined: path.join(__dirname, '..', 'src'),
  esm: resolve(import.meta.dirname, 'a'),
  cwd: path.resolve('x'),
  computed: require.resolve(name),
}
"""
    value = read_module(source, LangId.JAVASCRIPT).default
    assert value["sidebarPath"] == "./sidebars.js"
    assert value["theme"] == Required("./src/theme.js")
    assert value["here"] == "./tsconfig.json"
    assert value["joined"] == "../src"
    assert value["esm"] == "a"
    assert isinstance(value["cwd"], NotLiteral)  # from where node runs: not known
    assert isinstance(value["computed"], NotLiteral)
