"""Issue 27, defect 16 and Deliver 3: a theme's templates render in a bounded sandbox. A value
too large to make (``{{ "a" * 10000000000 }}`` reached 9.8 GB), a loop or a page too long, a
macro that calls itself and every runtime error of a template (TypeError, ZeroDivisionError,
RecursionError…) are one ThemeError line with the template's path and line, never an
internal error, a hang or gigabytes of memory."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.base import sandbox
from sitegen.site.render import Renderer
from sitegen.site.theme import ThemeError
from tests.safety.linear import grows_linearly
from tests.site.test_render import _page, _site

HEAD = '{% extends "base.html" %}{% block content %}\n'  # line 1; the body starts on line 2


def render(tmp_path: Path, body: str) -> str:
    """The page rendered with ``theme/page.html`` holding ``body`` from its second line."""
    theme = tmp_path / "theme"
    theme.mkdir(exist_ok=True)
    (theme / "page.html").write_text(HEAD + body + "\n{% endblock %}\n")
    return Renderer(tmp_path, "theme").render_page(_site(), _page())


def refused(tmp_path: Path, body: str) -> str:
    """The ThemeError of ``body``, checked to come quickly and to name the template."""
    started = time.process_time()
    with pytest.raises(ThemeError) as err:
        render(tmp_path, body)
    assert time.process_time() - started < 5
    said = str(err.value)
    assert said.startswith("theme/page.html:"), said
    assert "\n" not in said and len(said) < 300, said
    return said


#: Hostile shapes, each with what its error says. Every one was an internal error, a hang or
#: gigabytes of memory before the sandbox had bounds.
HOSTILE = [
    ('{{ "a" * 10000000000 }}', "the operator * would make a value of about 10,000,000,000"),
    ("{{ [1, 2] * 10000000000 }}", "the operator * would make"),
    ("{{ 7 ** 100000000 }}", "the operator ** would make"),
    ("{% for i in range(10**8) %}{% endfor %}", "range() of 100,000,000 numbers"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "calls nested more than 50 deep"),
    ("{% for x in [1] recursive %}{{ loop([1, 2]) }}{% endfor %}", "calls nested more than"),
    ('{% include "page.html" %}', "RecursionError"),
    ("{{ 1 / 0 }}", "ZeroDivisionError: division by zero"),
    ('{{ "a" + 1 }}', "TypeError: can only concatenate str"),
    ("{{ 10 ** 5000 }}", "ValueError: Exceeds the limit (4300 digits)"),
    ('{{ "%999999999d" % 1 }}', "the operator % would make"),
    ('{{ "%*d" % (10**9, 1) }}', "the operator % would make"),
    ('{{ "{:>999999999}".format(1) }}', "str.format() would make"),
    ('{{ "a"|center(10**10) }}', "a number over 16,000,000"),
    ('{{ "a".ljust(10**10) }}', "a number over 16,000,000"),
    ('{{ "a\\tb".expandtabs(10**7) * 2 }}', "the operator * would make"),
    ('{{ ("x\\n" * 100000)|indent(1000) }}', "the filter indent would make"),
    ('{{ "aaaa"|replace("a", "b" * 10000000) }}', "the filter replace would make"),
    ('{{ range(100000)|map("string")|join("x" * 1000) }}', "the filter join would make"),
    ('{{ "abc".translate({97: "x" * 10000000}) }}', "str.translate() would make"),
    ('{% set big = "a" * 1000000 %}{{ ([big] * 1000)|string }}', "the operator * would make"),
    ('{{ {"a": 1}|tojson(indent=10**6) }}', "the filter tojson would make"),
    ("{{ lipsum(10**6) }}", "lipsum() gives at most 100 paragraphs"),
    (
        '{% set ns = namespace(x="ab") %}{% for i in range(100) %}'
        "{% set ns.x = ns.x ~ ns.x %}{% endfor %}",
        "a value of 16,777,216 characters or items",
    ),
    (
        '{% set ns = namespace(x="ab") %}{% for i in range(100) %}'
        "{% set ns.x = ns.x + ns.x %}{% endfor %}",
        "a value of 16,777,216 characters or items",
    ),
    (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "the page took more work than a theme may spend",
    ),
    (
        '{% set big = "a" * 1000000 %}{% for i in range(100000) %}{{ "x" in big }}{% endfor %}',
        "the page took more work",
    ),
    (
        "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}"
        "{% set ns.l = ns.l + [i] %}{% endfor %}",
        "the page took more work",
    ),
    (
        '{% set big = "a" * 1000000 %}{% for i in range(100000) %}'
        "{% set y %}{{ big }}{% endset %}{% endfor %}",
        "the page took more work",
    ),
    (
        '{% filter upper %}{% for i in range(100000) %}{{ "x" * 1000 }}{% endfor %}{% endfilter %}',
        "the page took more work",
    ),
]


@pytest.mark.parametrize(("body", "says"), HOSTILE, ids=[b[:40] for b, _ in HOSTILE])
def test_a_hostile_theme_template_is_one_template_error(
    tmp_path: Path, body: str, says: str
) -> None:
    said = refused(tmp_path, body)
    assert said.startswith(("theme/page.html:2: ", "theme/page.html:1: RecursionError")), said
    assert says in said, said


def test_an_error_quoting_a_huge_value_is_cut(tmp_path: Path) -> None:
    said = refused(tmp_path, '{{ [1][("z" * 100000)] }}')
    assert said.endswith("…") and "z" * 300 not in said


def test_a_template_too_large_is_refused_before_it_is_compiled(tmp_path: Path) -> None:
    said = refused(tmp_path, "x" * (sandbox.MAX_TEMPLATE + 1))
    assert said.startswith("theme/page.html:1: the template has 1,000,0")


def test_an_expression_nested_too_deep_for_the_parser_is_a_template_error(tmp_path: Path) -> None:
    said = refused(tmp_path, "{{ " + "(" * 20_000 + "1" + ")" * 20_000 + " }}")
    assert said.startswith("theme/page.html:"), said


def test_a_theme_within_the_bounds_renders(tmp_path: Path) -> None:
    body = (
        '{{ "ab" * 3 }}|{{ [1] * 3 }}|{{ 2 ** 10 }}|{{ "%5d" % 7 }}|{{ "{:>4}".format(1) }}|'
        '{{ ["a", "b"]|join(", ") }}|{{ "a-b"|replace("-", "+") }}|{{ range(3)|list }}|'
        "{% macro down(n) %}{% if n %}{{ n }}{{ down(n - 1) }}{% endif %}{% endmacro %}"
        "{{ down(20) }}|{% for i in range(3) %}{{ loop.index ~ i }}{% endfor %}|"
        '{% set s %}{{ page.title }}{% endset %}{{ s == "Alpha" }}'
    )
    html = render(tmp_path, body)
    assert (
        "ababab|[1, 1, 1]|1024|    7|   1|a, b|a+b|[0, 1, 2]|"
        "2019181716151413121110987654321|102132|True"
    ) in html


#: Pieces of expressions: atoms, operators, filters and calls, small and huge.
ATOMS = st.sampled_from(
    ["1", "0", "-1", "10**9", "10**30", '"a"', '"%s"', '"{}"', "[1, 2]", "page.title", "range(5)"]
)
OPERATORS = st.sampled_from([" * ", " ** ", " + ", " % ", " ~ ", " // ", " / ", " == ", " in "])
FILTERS = st.sampled_from(
    [
        "",
        "|string",
        "|list",
        "|join('-')",
        "|center(10**9)",
        "|indent(10**7)",
        "|replace('a', 'aaaa')",
        "|batch(10**9)",
        "|format(1)",
        "|length",
        "|int",
        "|tojson",
    ]
)


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(ATOMS) + draw(FILTERS)
    left, right = draw(expressions(depth=depth - 1)), draw(expressions(depth=depth - 1))
    return f"({left}{draw(OPERATORS)}{right}){draw(FILTERS)}"


@settings(deadline=None, max_examples=40)
@given(expression=expressions(), looped=st.booleans())
def test_any_expression_renders_or_is_one_template_error(
    tmp_path_factory: pytest.TempPathFactory, expression: str, looped: bool
) -> None:
    body = "{{ " + expression + " }}"
    if looped:
        body = "{% for i in range(1000) %}" + body + "{% endfor %}"
    started = time.process_time()
    try:
        html = render(tmp_path_factory.mktemp("t"), body)
    except ThemeError as err:
        said = str(err)
        assert said.startswith("theme/page.html:") and "\n" not in said, said
    else:
        assert "<html" in html
    assert time.process_time() - started < 10


def test_render_time_is_linear_in_the_template(tmp_path: Path) -> None:
    piece = '{% for i in range(20) %}{{ i ~ "x" }}{% if i > 5 %}-{% endif %}{% endfor %}\n'
    theme = tmp_path / "theme"

    def build(n: int) -> str:
        return piece * n

    def read(body: str) -> object:
        return render(tmp_path, body)

    theme.mkdir()
    ok, said = grows_linearly(read, build, size=10, max_size=400)
    assert ok, said
