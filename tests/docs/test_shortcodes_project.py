"""A project's shortcodes (issue 31, point 3; content/syntax/shortcodes.md): templates of its
``shortcodes/`` folder called from markdown, as Hugo and Zola write them (``{{< name >}}``,
inline and alone on a line) and as HTML comments the ``shortcode_comments`` option maps
(Material's documentation's hook shortcodes, rendered here by a few templates of the test's
own); rendered in the sandbox with the arguments escaped; any failure is one warning at the
shortcode's line and column, the shortcode shown as its text."""

from __future__ import annotations

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import RawHtml
from sitegen.docs.shortcode_templates import (
    MAX_OUTPUT,
    MAX_PAGE_OUTPUT,
    ShortcodeError,
    Shortcodes,
    parse_arguments,
)
from sitegen.docs.shortcodes import may_call, page_key
from sitegen.generators import Dialect
from sitegen.records.pages import PageRecord

MKDOCS = Dialect.PYTHON_MARKDOWN
PAGE = "docs/setup/blog.md"

#: Templates in the shapes of the badges Material's hook writes (our own markup).
MATERIAL_TEMPLATES = {
    "version": (
        '<span class="mdx-badge"><span class="mdx-badge__icon" title="Minimum version">'
        "tag</span>"
        '<span class="mdx-badge__text">{{ args[0] }}</span></span>'
    ),
    "option": '<code class="option" id="+{{ args[0] }}">{{ args[0].split(":")[-1] }}</code>',
    "default": (
        '<span class="mdx-badge"><span class="mdx-badge__icon" title="Default value">'
        'default</span><span class="mdx-badge__text">{{ args | join(" ") }}</span></span>'
    ),
    "flag": '<span class="mdx-badge mdx-badge--{{ args[0] }}">{{ args[0] }}</span>',
    "sponsors": '<span class="mdx-badge mdx-badge--heart" title="Sponsors only">♥</span>',
    "plugin": (
        '<span class="mdx-badge"><a href="../plugins/index.md" title="Plugin">plugin</a>'
        '{% if args %}<span class="mdx-badge__text">{{ args[0] }}</span>{% endif %}</span>'
    ),
}

#: A page in the shapes of Material's own docs (docs/plugins/blog.md and others).
MATERIAL_PAGE = """\
# Built-in blog plugin

<!-- md:sponsors -->
<!-- md:version 9.2.0 -->
<!-- md:plugin [blog] -->
<!-- md:flag experimental -->

## Configuration

#### <!-- md:option type:boolean -->

<!-- md:default false --> Use this setting to enable the blog.
"""


def _shortcodes(templates: dict[str, str], comments: dict[str, str] | None = None) -> Shortcodes:
    return Shortcodes({k: v.encode() for k, v in templates.items()}, comments or {})


def _extract(
    text: str,
    shortcodes: Shortcodes | None,
    dialect: Dialect = Dialect.NONE,
    raw_html: RawHtml = RawHtml.SANITIZE,
) -> PageRecord:
    return extract_page(PAGE, text.encode(), raw_html, dialect=dialect, shortcodes=shortcodes)


def _warnings(rec: PageRecord, code: str = "shortcode") -> list[str]:
    return [f"{d.line}:{d.col}: {d.message}" for d in rec.diagnostics if d.code == code]


# --- Material's hook shortcodes, mapped to templates ------------------------------------


@pytest.mark.parametrize("dialect", [MKDOCS, Dialect.NONE])
@pytest.mark.parametrize(
    "comments",
    [
        {"md:*": "*"},
        {f"md:{name}": name for name in MATERIAL_TEMPLATES},
    ],
)
def test_materials_hook_shortcodes_render_through_the_projects_templates(
    dialect: Dialect, comments: dict[str, str]
) -> None:
    rec = _extract(MATERIAL_PAGE, _shortcodes(MATERIAL_TEMPLATES, comments), dialect)
    html = rec.html
    assert rec.diagnostics == []
    # alone on a line: a block of the project's markup, no paragraph around it
    assert '\n<span class="mdx-badge mdx-badge--heart" title="Sponsors only">♥</span>\n' in html
    assert '<span class="mdx-badge__text">9.2.0</span></span>\n' in html
    assert '<span class="mdx-badge mdx-badge--experimental">experimental</span>' in html
    assert '<span class="mdx-badge__text">[blog]</span>' in html
    # in a heading and in a paragraph: inline
    assert '<code class="option" id="+type:boolean">boolean</code>' in html
    assert '<span class="mdx-badge__text">false</span></span> Use this setting' in html
    assert "md:" not in html and "shortcode" not in html
    # the link in a template's output is the page's link, at the shortcode's place
    (link,) = rec.links
    assert (link.href, link.line, link.column) == ("../plugins/index.md", 5, 1)
    assert f'href="{rec.link_mark}0"' in html


def test_without_a_mapping_a_hook_shortcode_stays_text_with_one_warning() -> None:
    shortcodes = _shortcodes(MATERIAL_TEMPLATES)  # templates, but no shortcode_comments
    rec = _extract(MATERIAL_PAGE, shortcodes, MKDOCS)
    assert rec.html == _extract(MATERIAL_PAGE, None, MKDOCS).html
    assert '<code class="shortcode">md:version 9.2.0</code>' in rec.html
    (said,) = _warnings(rec, "unsupported-syntax")
    assert said.startswith("3:1: the shortcode '<!-- md:sponsors -->' is expanded by")


def test_a_mapped_name_falls_back_to_text_for_the_unmapped_ones() -> None:
    shortcodes = _shortcodes(MATERIAL_TEMPLATES, {"md:version": "version"})
    rec = _extract(MATERIAL_PAGE, shortcodes, MKDOCS)
    assert '<span class="mdx-badge__text">9.2.0</span>' in rec.html
    assert '<code class="shortcode">md:flag experimental</code>' in rec.html
    assert _warnings(rec) == []
    assert len(_warnings(rec, "unsupported-syntax")) == 1


def test_a_mapped_comment_with_no_template_is_its_text_and_a_warning_at_its_place() -> None:
    shortcodes = _shortcodes({"version": "v{{ args[0] }}"}, {"md:*": "*"})
    rec = _extract("Text\n\n  <!-- md:default false -->\n\nand <!-- md:flag x -->.\n", shortcodes)
    assert '<p><code class="shortcode">md:default false</code></p>' in rec.html
    assert '<p>and <code class="shortcode">md:flag x</code>.</p>' in rec.html
    assert _warnings(rec) == [
        "3:3: no shortcode 'md:default' (mapped to 'default' by shortcode_comments): "
        "shortcodes/ has no default.html; it is shown as its text",
        "5:5: no shortcode 'md:flag' (mapped to 'flag' by shortcode_comments): "
        "shortcodes/ has no flag.html; it is shown as its text",
    ]


def test_an_ordinary_comment_or_a_tool_directive_stays_a_comment() -> None:
    shortcodes = _shortcodes({"cspell": "X"}, {"md:*": "*", "cspell:*": "cspell"})
    text = "A <!-- a note --> b <!-- cSpell:disable --> c\n"
    assert _extract(text, shortcodes).html == _extract(text, None).html


# --- Hugo's and Zola's form -------------------------------------------------------------

HUGO = {
    "badge": '<span class="badge badge-{{ kind | default("info") }}">{{ label }}</span>',
    "figure": (
        '<figure><img src="{{ src }}" alt="{{ params.alt | default("") }}">'
        "<figcaption>{{ caption }}</figcaption></figure>"
    ),
    "note": '<div class="note">{{ args | join(" ") }}</div>',
}


def test_hugo_form_inline_and_as_a_block() -> None:
    text = (
        'Released {{< badge label="new" kind=tip >}} today, {{<badge label=x>}}.\n\n'
        '{{< figure src="a.png" caption="A \\"quoted\\" caption" alt=\'An A\' >}}\n\n'
        "> {{< note one two >}}\n"
    )
    rec = _extract(text, _shortcodes(HUGO))
    assert rec.diagnostics == []
    assert rec.html.startswith(
        '<p>Released <span class="badge badge-tip">new</span> today, '
        '<span class="badge badge-info">x</span>.</p>\n'
        '<figure><img src="sglink-'
    )
    assert "<figcaption>A &#34;quoted&#34; caption</figcaption></figure>\n" in rec.html
    assert '<blockquote>\n<div class="note">one two</div>\n</blockquote>' in rec.html
    (image,) = rec.links
    assert (image.href, image.line, image.column) == ("a.png", 3, 1)


def test_a_shortcode_inside_a_paragraphs_lines_stays_in_the_paragraph() -> None:
    rec = _extract("One line\n{{< note x >}}\nand more\n", _shortcodes(HUGO))
    assert rec.html == '<p>One line\n<div class="note">x</div>\nand more</p>\n'


def test_code_keeps_a_shortcode_as_written() -> None:
    text = "`{{< note x >}}`\n\n```\n{{< note y >}}\n<!-- md:version 1 -->\n```\n"
    shortcodes = _shortcodes(HUGO | MATERIAL_TEMPLATES, {"md:*": "*"})
    assert _extract(text, shortcodes).html == _extract(text, None).html


def test_an_argument_is_escaped_the_templates_markup_is_not() -> None:
    text = '{{< badge label="<script>alert(1)</script>" kind="x\\" onclick=\\"y" >}}\n'
    for raw_html in RawHtml:
        rec = _extract(text, _shortcodes(HUGO), raw_html=raw_html)
        assert rec.html == (
            '<span class="badge badge-x&#34; onclick=&#34;y">'
            "&lt;script&gt;alert(1)&lt;/script&gt;</span>\n"
        )


def test_the_templates_own_markup_is_published_as_written_in_every_raw_html_mode() -> None:
    shortcodes = _shortcodes({"frame": '<iframe src="https://example.org/x"></iframe>'})
    for raw_html in RawHtml:
        rec = _extract("See {{< frame >}}.\n", shortcodes, raw_html=raw_html)
        assert rec.html == '<p>See <iframe src="https://example.org/x"></iframe>.</p>\n'


# --- failures: one warning at the shortcode's place, the text kept ----------------------

FAILING = {
    "undefined": "<b>{{ title }}</b>",
    "broken": "line one\n{% if %}",
    "itself": '<i>{% include "itself.html" %}</i>',
    "macro": "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}",
    "huge": '{{ "x" * 500000 }}',
    "huger": '{{ "x" * 100000000 }}',
    "forever": "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
    "internals": "{{ args.__class__.__mro__ }}",
    "included": '{% include "forever.html" %}',
}


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("nope", "no shortcode 'nope': shortcodes/ has no nope.html; it is shown as its text"),
        ("undefined", "shortcodes/undefined.html:1 failed (error: 'title' is undefined)"),
        ("broken", "shortcodes/broken.html:2 failed (error: Expected an expression"),
        ("itself", "the shortcode template shortcodes/itself.html calls itself"),
        ("macro", "calls nested more than 50 deep (a macro or a template calling itself?)"),
        ("huge", f"the shortcode 'huge' (shortcodes/huge.html) wrote more than {MAX_OUTPUT:,}"),
        ("huger", "shortcodes/huger.html:1 failed (the sandbox refused: the operator *"),
        ("forever", "failed (the sandbox refused: the page took more work than"),
        ("internals", "shortcodes/internals.html:1 failed ("),
        ("included", "failed (the sandbox refused: the page took more work than"),
    ],
)
def test_a_failing_shortcode_is_one_warning_at_its_line_and_column(name: str, said: str) -> None:
    text = f"# Title\n\n- item\n\n  > Ünïcode {{{{< {name} >}}}} after\n"
    rec = _extract(text, _shortcodes(FAILING))
    (warning,) = _warnings(rec)
    # the column counts bytes: "  > Ünïcode " is 12 characters and 14 bytes
    assert warning.startswith("5:15: ") and said in warning, warning
    assert warning.endswith("shown as its text")
    assert f'Ünïcode <code class="shortcode">{{{{&lt; {name} &gt;}}}}</code> after' in rec.html


def test_a_failing_block_shortcode_is_its_text_in_a_paragraph() -> None:
    rec = _extract("Text\n\n   {{< nope a=1 >}}\n", _shortcodes(HUGO))
    assert rec.html == '<p>Text</p>\n<p><code class="shortcode">{{&lt; nope a=1 &gt;}}</code></p>\n'
    assert [w[:8] for w in _warnings(rec)] == ["3:4: no "]


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ('{{< badge label="open >}}', "has a bad argument 'label=\"open' (an unclosed quote"),
        ("{{< badge label= >}}", "has a bad argument 'label='"),
        ("{{< badge a=1 a=2 >}}", "'a' is given twice"),
        ("{{< badge args=1 >}}", "'args' is a reserved name"),
        ("{{< >}}", "names no template"),
        ("{{< /note >}}", "closes 'note', but sitegen's shortcodes take no content"),
    ],
)
def test_a_bad_argument_is_a_warning_at_the_shortcode(call: str, said: str) -> None:
    rec = _extract(f"Hi {call}\n", _shortcodes(HUGO))
    (warning,) = _warnings(rec)
    assert warning.startswith("1:4: ") and said in warning, warning


def test_the_shortcodes_of_a_page_are_bounded_together() -> None:
    big = "x" * (MAX_OUTPUT - 10)
    shortcodes = _shortcodes({"big": big})
    count = MAX_PAGE_OUTPUT // len(big) + 2
    rec = _extract("{{< big >}}\n\n" * count, shortcodes)
    warnings = _warnings(rec)
    assert rec.html.count(big) == MAX_PAGE_OUTPUT // len(big)
    assert len(warnings) == 2 and "wrote more than" in warnings[0]


# --- what is read, and the page cache's key ---------------------------------------------


def test_a_page_without_a_shortcode_is_the_same_record_whatever_the_project_has() -> None:
    shortcodes = _shortcodes(HUGO | MATERIAL_TEMPLATES, {"md:*": "*"})
    text = "# A\n\n{{ not a shortcode }} <!-- a comment --> {< x >}\n\n[b](b.md)\n"
    assert not may_call(text)
    for dialect in (Dialect.NONE, MKDOCS):
        assert _extract(text, shortcodes, dialect) == _extract(text, None, dialect)


def test_the_page_key_holds_the_templates_only_for_pages_that_may_call_them() -> None:
    one = _shortcodes({"note": "a"})
    two = _shortcodes({"note": "b"})
    plain, calling, comment = b"# A\n", b"{{< note >}}\n", b"<!-- md:note -->\n"
    assert page_key("k", plain, one) == page_key("k", plain, two) == "k"
    assert page_key("k", calling, None) == "k"
    assert len({page_key("k", calling, one), page_key("k", calling, two), "k"}) == 3
    assert page_key("k", comment, one) != page_key("k", comment, two)
    rec = _extract(calling.decode(), one)
    assert rec.content_hash != _extract(calling.decode(), two).content_hash
    assert _extract(plain.decode(), one).content_hash == _extract(plain.decode(), None).content_hash


def test_arguments_as_hugo_reads_them() -> None:
    call = parse_arguments("x", ' a "b c" k=v q="w \\"x\\"" r=`raw \\n` s=\'single\' ')
    assert call.args == ("a", "b c")
    assert dict(call.params) == {"k": "v", "q": 'w "x"', "r": "raw \\n", "s": "single"}
    with pytest.raises(ShortcodeError):
        parse_arguments("x", 'k="unclosed')


def test_a_blog_posts_summary_renders_its_shortcodes_as_the_post_does() -> None:
    from sitegen.generators import SlugStyle
    from sitegen.site.blog import post_summary

    shortcodes = _shortcodes(HUGO)
    data = b"# Post\n\nIntro {{< badge label=new >}}.\n\n<!-- truncate -->\n\nRest.\n"
    rec = extract_page(PAGE, data, shortcodes=shortcodes)
    summary, cut = post_summary(rec, data, None, SlugStyle.GITHUB, shortcodes)
    assert cut and '<p>Intro <span class="badge badge-info">new</span>.</p>' in summary


def test_a_link_in_an_inline_shortcode_is_the_pages_at_the_shortcodes_place() -> None:
    shortcodes = _shortcodes({"see": '<a href="{{ args[0] }}">{{ args[1] }}</a>'})
    rec = _extract("# T\n\nFirst, é {{< see other.md#part Other >}} then.\n", shortcodes)
    (link,) = rec.links
    assert (link.href, link.label, link.line, link.column) == ("other.md#part", "Other", 3, 11)
    assert f'<p>First, é <a href="{rec.link_mark}0">Other</a> then.</p>' in rec.html
