"""The MDX readers on pages written to be slow (content/guides/safety.md, "Linear time"):
ESM statements that never close, ``{/*`` without ``*/}``, JSX tags that never end, elements
nested or left open by the thousand, magic comments in one fence. Each costs time linear in
the page (tests/safety/linear.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.docs.mdx import MAX_DEPTH, TAG_LINES, read_tag
from sitegen.generators import Dialect
from tests.safety.linear import grows_linearly

HOSTILE: dict[str, Callable[[int], str]] = {
    "esm unclosed": lambda n: "import {\n\n" * n,
    "esm template": lambda n: "export const x = `\n\n" * n,
    "esm lines": lambda n: "import a from 'b'\n" * n + "\nText.\n",
    "esm comment": lambda n: "export /*\n\n" * n,
    "comment blocks unclosed": lambda n: "{/*\n\n" * n,
    "comment blocks no brace": lambda n: "{/* x */ y\n\n" * n,
    "comment inline unclosed": lambda n: "a {/* " * n,
    "comment inline no brace": lambda n: "a {/* b */ c " * n,
    "tags unterminated string": lambda n: '<Foo a="\n' * n,
    "tags unterminated expression": lambda n: "<Foo a={\n" * n,
    "tags unterminated name": lambda n: "<Foo\n" * n,
    "inline tags unclosed expressions": lambda n: "x <y z={ " * n,
    "inline tags before one closer": lambda n: "x <y z={c} " * n + ">",
    "inline tags in a row": lambda n: "x <y z={{a: 1}}>w</y> " * n,
    "tabs nested": lambda n: "<Tabs>\n<TabItem value='a'>\n\n" * n + "</TabItem>\n</Tabs>\n\n" * n,
    "components nested indented": lambda n: (
        "".join(f"{' ' * (i % 40)}<A>\n" for i in range(n)) + "</A>\n" * n
    ),
    "elements leaving a list item": lambda n: (
        "- x\n\n" + "  <A>\n\n" * n + "y\n\n" + "</A>\n\n" * n
    ),
    "elements unclosed": lambda n: "<Foo>\n\n" * n,
    "elements stray": lambda n: "</Foo>\n\n" * n,
    "elements in a row": lambda n: "<Foo>\nx\n</Foo>\n" * n,
    "open rest": lambda n: "<details><summary>a</summary>\n" * n + "</details>\n" * n,
    "admonitions nested": lambda n: ":::note\n\n" * n + ":::\n\n" * n,
    "admonitions deeper colons": lambda n: "::::info A\n\n:::tip[B]\n\nx\n\n:::\n\n::::\n\n" * n,
    "magic comments": lambda n: "```js\n" + "// highlight-start\nx\n" * n + "```\n",
    "iframes in html": lambda n: "<div>\n" + '<iframe src="https://e.org/x' * n + "\n</div>\n",
}


def _extract(text: str) -> object:
    return extract_page("p.mdx", text.encode(), dialect=Dialect.MDX)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_mdx_takes_linear_time(name: str) -> None:
    ok, said = grows_linearly(_extract, HOSTILE[name])
    assert ok, f"{name}: {said}"


def test_a_tag_is_read_over_a_bounded_number_of_lines() -> None:
    text = "<Foo\n" + "  a='1'\n" * (TAG_LINES + 4) + "/>\n\nText.\n"
    html = _extract(text).html  # type: ignore[attr-defined]
    assert "Text." in html
    assert read_tag("<A b='c' />", 0, 11) is not None
    assert read_tag("<A b='c' />", 0, 8) is None  # never past its stop


def test_elements_nest_to_a_limit_and_the_rest_is_kept_with_one_warning() -> None:
    depth = MAX_DEPTH + 5
    text = "<A>\n\n" * depth + "Deep text.\n\n" + "</A>\n\n" * depth
    rec = extract_page("p.mdx", text.encode(), dialect=Dialect.MDX)
    assert "Deep text." in rec.html
    assert sum("nest deeper than" in d.message for d in rec.diagnostics) == 1
    assert not any("closes no" in d.message for d in rec.diagnostics)
