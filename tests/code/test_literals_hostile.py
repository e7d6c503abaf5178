"""Issue 27, point 3: the ``config.ts`` reader (sitegen/base/js_literals.py) is bounded by
construction. Hostile shapes (deep nesting, long runs of its own markers, huge numbers,
surrogates, every cut of a valid file) give a value or a NotLiteral, never an exception, and
time linear in the input (tests/safety/linear.py)."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.base.js_literals import MAX_DEPTH, ModuleLiterals, NotLiteral, read_module
from sitegen.generators.vitepress import vitepress_generator
from sitegen.site.vitepress import Routes, vitepress_nav
from tests.code.test_literals import CONFIG
from tests.safety.linear import bytes_grows_linearly

#: The reader's own markers, and what breaks readers of literals.
MARKERS = [
    "{", "}", "[", "]", "(", ")", "...", ",", ":", "a", "a: ", "'", '"', "`", "${", "\\",
    "\\u", "\\u{", "\\x", "\\uD800", "\\uDC00", "\\u{FFFFFFFFFF}", "1e999", "9" * 500, "0x",
    "123n", "const a = ", "const b = [a, a, a]\n", "function f() { return ", "f()",
    "export default ", "defineConfig(", "module.exports = ", " as const", "//", "/*", "\n",
]  # fmt: skip


def _documented(read: ModuleLiterals) -> None:
    """What read_module promises: plain values or NotLiterals, strings a page can hold,
    finite numbers, nesting within the cap, and a problem with a place and a reason."""
    stack: list[tuple[Any, int]] = [(read.default, 0)]
    while stack:
        value, depth = stack.pop()
        assert depth <= MAX_DEPTH + 1
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
            stack.extend((k, depth + 1) for k in value)
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            value.encode("utf-8")
        elif isinstance(value, float):
            assert math.isfinite(value)
        elif isinstance(value, NotLiteral):
            assert value.line >= 1 and value.column >= 1 and len(value.text) <= 60
        else:
            assert value is None or isinstance(value, bool | int)
    json.dumps(read.default, default=repr).encode("utf-8")
    if read.problem is not None:
        assert read.problem.reason and read.problem.line >= 1 and read.problem.column >= 1


_runs = st.lists(
    st.tuples(st.sampled_from(MARKERS), st.integers(min_value=1, max_value=400)), max_size=12
)


@settings(deadline=None, max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(runs=_runs)
def test_runs_of_markers_give_the_documented_result(runs: list[tuple[str, int]]) -> None:
    text = "".join(marker * count for marker, count in runs)
    for source in (text, "export default " + text, "export default { a: " + text):
        _documented(read_module(source.encode("utf-8", "surrogatepass")))


@settings(deadline=None, max_examples=40)
@given(
    depth=st.integers(min_value=1, max_value=5000),
    opening=st.sampled_from(["[", "{a:", "{...", "(", "[...", "f(", "{a:[", "`${"]),
    closed=st.booleans(),
)
def test_deep_nesting_gives_the_documented_result(depth: int, opening: str, closed: bool) -> None:
    closing = {"[": "]", "{": "}", "(": ")", "$": "}`"}
    tail = "".join(closing.get(c, "") for c in reversed(opening)) * depth if closed else ""
    _documented(read_module(("export default " + opening * depth + "1" + tail).encode()))


@settings(deadline=None, max_examples=50)
@given(st.binary(max_size=2_000))
def test_any_bytes_give_the_documented_result(source: bytes) -> None:
    _documented(read_module(b"export default { a: " + source))


def test_every_cut_of_a_valid_config_gives_the_documented_result() -> None:
    for cut in range(len(CONFIG) + 1):
        _documented(read_module(CONFIG[:cut]))


def _pages_tree(text: str) -> list[str]:
    """The warnings ``vitepress_nav`` gives for a configuration text (the page tree's reader)."""
    config = "docs/.vitepress/config.ts"
    generator = vitepress_generator(config, "docs", "docs", ((config, text),))
    said: list[Any] = []
    vitepress_nav(generator, "docs", {}, said)
    return [d.format() for d in said]


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(runs=_runs)
def test_the_page_tree_reads_hostile_configs_with_at_most_a_few_warnings(
    runs: list[tuple[str, int]],
) -> None:
    text = "".join(marker * count for marker, count in runs)
    for source in (
        "export default { themeConfig: { sidebar: " + text,
        "export default { rewrites: { [" + text,
        "export default { themeConfig: { sidebar: [{ link: '" + text + "' }] } }",
    ):
        said = _pages_tree(source.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
        assert len(said) <= 3 and all(len(line) < 400 for line in said)


# Time linear in the input.


def _constants(n: int) -> bytes:
    """``n`` constants, each the one before it twice: 2 ** n values once expanded."""
    lines = ["const c0 = [1, 1]"] + [f"const c{i} = [c{i - 1}, c{i - 1}]" for i in range(1, n)]
    return "\n".join([*lines, f"export default {{ sidebar: c{n - 1} }}"]).encode()


def test_constants_that_double_take_linear_time() -> None:
    ok, said = bytes_grows_linearly(read_module, _constants, size=200, max_size=20_000)
    assert ok, said


def test_wide_constants_take_linear_time() -> None:
    def wide(n: int) -> bytes:
        uses = ", ".join(["a"] * n)
        return f"const a = [1, 2, 3]\nconst b = [{uses}]\nexport default {{ b, c: b }}".encode()

    ok, said = bytes_grows_linearly(read_module, wide, size=1_000)
    assert ok, said


def test_nesting_and_runs_take_linear_time() -> None:
    for make in (
        lambda n: b"export default " + b"[" * n + b"]" * n,
        lambda n: b"export default " + b"{a:" * n + b"1" + b"}" * n,
        lambda n: b"export default " + b"{" * n,
        lambda n: b"export default '" + b"\\uD800" * n + b"'",
        lambda n: b"export default [" + b"1e999, " * n + b"]",
    ):
        ok, said = bytes_grows_linearly(read_module, make, size=1_000, max_size=100_000)
        assert ok, said


def test_rewrites_of_many_parameters_take_linear_time() -> None:
    # ':a*:b*:c*x' was a regular expression of three '.*': cubic in the link's length.
    routes = Routes("docs", "docs", (("y", ":a*:b*:c*x"), (":p/:q", ":p-:q")), {})
    ok, said = bytes_grows_linearly(
        lambda link: routes.node_of(link.decode()), lambda n: b"/" + b"g" * n, size=100
    )
    assert ok, said
