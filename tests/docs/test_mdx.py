"""Docusaurus's MDX read when the record asks for it (content/syntax/docusaurus.md): ESM and
comments hidden, JSX elements as tabs, details, embeds and components, admonitions and code
blocks as Docusaurus draws them; and the same bytes read without the dialect as before."""

from __future__ import annotations

import re

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import RepoPath
from sitegen.base.progress import Progress
from sitegen.docs.markdown import extract_page, record_key
from sitegen.docs.pipeline import extract_pages
from sitegen.generators import Dialect, SlugStyle
from sitegen.records.crawl import SourceFile
from sitegen.records.pages import PageRecord

MDX = Dialect.MDX


def _page(text: str, dialect: Dialect = MDX) -> PageRecord:
    return extract_page("docs/page.mdx", text.encode(), dialect=dialect)


def _html(text: str, dialect: Dialect = MDX) -> str:
    return _page(text, dialect).html


def _warnings(text: str, dialect: Dialect = MDX) -> list[Diagnostic]:
    return [d for d in _page(text, dialect).diagnostics if d.code != "utf8"]


# --- ESM ----------------------------------------------------------------------------------


def test_import_and_export_lines_are_not_shown() -> None:
    text = (
        "---\ntitle: T\n---\n"
        "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n"
        "export const meta = {a: 1};\n\nFirst paragraph.\n"
    )
    html = _html(text)
    assert "import" not in html and "export" not in html and "@theme" not in html
    assert html.strip().startswith("<p>First paragraph.</p>")


def test_a_statement_runs_until_its_brackets_close_across_blank_lines() -> None:
    text = (
        "export const data = {\n  one: 'a }',\n\n  two: `x ${y} z`, // }\n};\n\n"
        "import {\n  a,\n\n  b,\n} from 'm'\n\nShown.\n"
    )
    html = _html(text)
    assert html == "<p>Shown.</p>\n"


def test_statements_after_other_blocks_are_hidden_too() -> None:
    text = (
        "Text.\n\n{/* truncate */}\n\nimport { Tweet } from 'react-tweet';\n\n# Title\n\nexport x\n"
    )
    assert _html(text).startswith("<p>Text.</p>\n<h1 ")
    assert "Tweet" not in _html(text) and "export" not in _html(text)
    assert _warnings(text) == []


def test_an_unclosed_statement_ends_at_its_first_blank_line() -> None:
    assert _html("import {\nbroken\n\nShown.\n") == "<p>Shown.</p>\n"


def test_esm_is_read_only_at_the_top_level_and_at_the_line_start() -> None:
    text = (
        "Text\nimport x from 'y'\n\n  import z from 'w'\n\n- import q from 'r'\n\n"
        "```js\nimport a from 'b'\n```\n"
    )
    html = _html(text)
    assert "Text\nimport x from 'y'" in html  # a paragraph continues over it, as in MDX
    assert "import z from 'w'" in html  # indented: text (MDX has no indented code)
    assert "<li>import q from 'r'</li>" in html
    assert "import</span>" in html or "import a" in html  # in code, code


def test_without_the_dialect_import_lines_are_text_as_before() -> None:
    assert _html("import x from 'y'\n", Dialect.NONE) == "<p>import x from 'y'</p>\n"


# --- comments -----------------------------------------------------------------------------


def test_comments_are_dropped_inline_and_as_blocks_across_lines() -> None:
    text = "Before {/* hidden one */} after.\n\n{/* a block\n\nover lines */}\n\nEnd {/* x\ny */}."
    html = _html(text)
    assert "hidden" not in html and "block" not in html and "{/*" not in html
    assert "<p>Before  after.</p>" in html and "<p>End .</p>" in html


def test_a_comment_in_code_stays_and_without_the_dialect_stays_text() -> None:
    assert "{/* kept */}" in _html("`{/* kept */}`")
    assert "{/* kept */}" in _html("A {/* kept */}", Dialect.NONE)


def test_an_unclosed_comment_is_text() -> None:
    assert "{/* open" in _html("A {/* open\n\nB */ without brace")


# --- tabs ---------------------------------------------------------------------------------

_TABS = """<Tabs groupId="pm" defaultValue="yarn">
  <TabItem value="npm" label="npm">

    ```bash
    npm install
    ```

  </TabItem>
  <TabItem value="yarn">
    Yarn **text**
  </TabItem>
</Tabs>
"""


def test_tabs_render_as_sitegen_tabs_with_labels_and_the_default() -> None:
    html = _html(_TABS)
    assert html.count('<div class="tabbed-set">') == 1
    assert '<label class="tabbed-label" for="__mdxtabs_1_1">npm</label>' in html
    assert '<label class="tabbed-label" for="__mdxtabs_1_2">yarn</label>' in html
    assert 'id="__mdxtabs_1_2" checked>' in html and 'id="__mdxtabs_1_1">' in html
    assert '<div class="tabbed-panel">\n<div class="highlight">' in html  # a fence, indented
    assert "<p>Yarn <strong>text</strong></p>" in html  # indented text is no code in MDX
    assert "TabItem" not in html and "groupId" not in html
    assert _warnings(_TABS) == []


def test_default_and_values_labels_and_separate_sets() -> None:
    text = (
        "<Tabs values={[{label: 'Apple', value: 'a'}, {value: 'b', label: 'Banana'}]}>\n"
        '<TabItem value="a">A</TabItem>\n<TabItem value="b" default>B</TabItem>\n</Tabs>\n\n'
        '<Tabs>\n<TabItem value="c">C</TabItem>\n</Tabs>\n'
    )
    html = _html(text)
    assert ">Apple</label>" in html and ">Banana</label>" in html
    assert 'id="__mdxtabs_1_2" checked>' in html and 'id="__mdxtabs_1_1">' in html
    assert html.count('<div class="tabbed-set">') == 2
    assert 'id="__mdxtabs_2_1" checked>' in html


def test_tabs_and_material_tabs_on_one_page_never_share_a_radio_group() -> None:
    text = '=== "One"\n\n    First.\n\n' + _TABS
    html = _html(text)
    assert 'name="__tabbed_1"' in html and 'name="__mdxtabs_1"' in html


# --- details, components, embeds ------------------------------------------------------------


def test_details_and_summary_read_their_markdown() -> None:
    text = "<details open>\n<summary>More **info**</summary>\n\nBody *md* [a](a.md).\n</details>\n"
    html = _html(text)
    assert html.startswith("<details open>\n<summary>More <strong>info</strong></summary>\n")
    assert "<p>Body <em>md</em>" in html and html.rstrip().endswith("</details>")
    assert _warnings(text) == []


def test_details_with_its_summary_on_the_opening_line() -> None:
    html = _html("<details><summary>Title</summary>\n\nBody.\n\n</details>\n")
    assert html == "<details>\n<summary>Title</summary>\n<p>Body.</p>\n</details>\n"


def test_a_component_keeps_its_content_and_title_with_one_warning_per_name() -> None:
    text = (
        '<DetailedExplanation title="Why">\n\nInside **md**.\n\n</DetailedExplanation>\n\n'
        '<DetailedExplanation>\nAgain.\n</DetailedExplanation>\n\nAnd <Badge text="b" />.\n'
    )
    html = _html(text)
    assert '<p class="mdx-title"><strong>Why</strong></p>' in html
    assert "<p>Inside <strong>md</strong>.</p>" in html and "<p>Again.</p>" in html
    warnings = _warnings(text)
    assert [(w.line, w.code) for w in warnings] == [(1, "mdx-component"), (11, "mdx-component")]
    assert "the MDX component <DetailedExplanation>" in warnings[0].message
    assert "(1 more on this page)" in warnings[0].message
    assert "Vue" not in " ".join(w.message for w in warnings)


def test_a_self_closing_component_shows_its_text_or_nothing() -> None:
    assert _html('<Note text="Read me" />\n') == (
        '<div class="mdx-component">\n<p class="mdx-title"><strong>Read me</strong></p>\n</div>\n'
    )
    assert _html("<Warning />\n\nAfter.\n") == "<p>After.</p>\n"


def test_vitepress_components_keep_the_vue_wording() -> None:
    warnings = _warnings('And <Badge text="b" />.\n', Dialect.NONE)
    assert [w.code for w in warnings] == ["unsupported-syntax"]
    assert "the Vue component <Badge>" in warnings[0].message


def test_a_component_in_an_html_comment_is_no_component() -> None:
    text = '<!--\n`echo "{}"` gives `"{}"<SPACE>` on Windows.\n-->\n\nText.\n'
    assert _warnings(text) == []
    assert _warnings(text, Dialect.NONE) == []


def test_an_imported_markdown_partial_is_named_as_one() -> None:
    text = 'import Warning from "../_warning.mdx";\n\n<Warning />\n'
    (warning,) = _warnings(text)
    assert warning.line == 3 and warning.code == "mdx-component"
    assert "MDX partial <Warning> (imported from '../_warning.mdx') is not included" in (
        warning.message
    )


def test_embeds_become_links_to_what_they_show() -> None:
    text = (
        '<LiteYouTubeEmbed\n    id="9zySeP5vH9c"\n    title="Learn Redux"\n/>\n\n'
        '<iframe\n  src="https://www.youtube.com/embed/abc_DEF-1?start=3"\n  title="Talk"\n'
        "></iframe>\n\n"
        '<iframe class="codesandbox" src="https://codesandbox.io/embed/x?a=1&b=2"></iframe>\n'
    )
    html = _html(text)
    assert (
        '<p class="embed"><a href="https://www.youtube.com/watch?v=9zySeP5vH9c">'
        "Video: Learn Redux</a></p>"
    ) in html
    assert 'href="https://www.youtube.com/watch?v=abc_DEF-1">Video: Talk</a>' in html
    assert 'href="https://codesandbox.io/embed/x?a=1&amp;b=2">Embedded page: https://' in html
    assert "<iframe" not in html and _warnings(text) == []


def test_an_iframe_inside_an_html_block_leaves_its_link() -> None:
    text = (
        '<div style={{position:"relative"}}>\n  <iframe\n    src="https://example.org/v"\n'
        '    title="Lesson"\n  ></iframe>\n</div>\n'
    )
    html = _html(text)
    assert '<a href="https://example.org/v">Embedded page: Lesson</a>' in html
    assert "<iframe" not in html
    assert _warnings(text) == []  # {{…}} in a tag is a JSX style object, not a template


def test_an_embed_of_a_refused_url_is_left_out_with_a_word() -> None:
    text = '<iframe src="javascript:alert(1)"></iframe>\n'
    html = _html(text)
    assert "javascript" not in html and "<a" not in html
    (warning,) = _warnings(text)
    assert warning.code == "mdx" and "<iframe> names no video" in warning.message


def test_a_tag_with_expression_attributes_inside_a_paragraph_is_html() -> None:
    text = (
        'Input:\n<code style={{display: "block"}}>\n<span style={{color: "#686868"}}># In</span>'
        ' <a href="x.md" style={{a: 1}}>link</a><br />\n</code>\n'
    )
    rec = _page(text)
    assert rec.html.startswith("<p>Input:\n<code>\n<span># In</span> <a href=")
    assert "style" not in rec.html and "{{" not in rec.html
    (link,) = rec.links
    assert (link.href, link.line, link.column) == (
        "x.md",
        3,
        55,
    )  # the URL, where an HTML link is placed
    assert _warnings(text) == []


def test_an_address_given_by_an_expression_is_warned() -> None:
    text = "See <img src={require('./a.png').default} alt=\"a\" /> here.\n"
    assert "require" not in _html(text)
    (warning,) = _warnings(text)
    assert warning.col == 14 and "'{require('./a.png').default}' gives a tag" in warning.message


def test_an_mdx_expression_in_text_is_warned_as_one() -> None:
    (warning,) = _warnings("Total: {1 + 1}.\n")
    assert "the MDX expression '{1 + 1}' is not evaluated" in warning.message


def test_unclosed_and_stray_tags_are_warned_and_nothing_is_lost() -> None:
    text = "<DetailedExplanation>\n\nKept.\n\n</Tabs>\n\nAlso kept.\n"
    html = _html(text)
    assert "<p>Kept.</p>" in html and "<p>Also kept.</p>" in html
    messages = [w.message for w in _warnings(text)]
    assert any("<DetailedExplanation> is not closed" in m for m in messages)
    assert any("</Tabs> closes no <Tabs>" in m for m in messages)


def test_links_inside_elements_keep_their_place() -> None:
    text = '<Tabs>\n<TabItem value="a">\n\nSee [there](b.md).\n\n</TabItem>\n</Tabs>\n'
    (link,) = _page(text).links
    assert (link.line, link.column, link.href) == (4, 5, "b.md")
    (link,) = _page("<summary>Go [here](c.md)</summary>\n").links
    assert (link.line, link.column) == (1, 13)


# --- admonitions and code blocks -------------------------------------------------------------


def test_docusaurus_admonitions_render_as_callouts_with_their_titles() -> None:
    text = (
        ":::note[Your **title**]\n\nA\n\n:::\n\n:::tip What You'll Learn\n\nB\n\n:::\n\n"
        "::::info Parent\n\n:::danger[Child]\n\nC\n\n:::\n\n::::\n\n:::caution\n\nD\n\n:::\n"
    )
    html = _html(text)
    assert '<p class="callout-title">Your <strong>title</strong></p>' in html
    assert '<p class="callout-title">What You\'ll Learn</p>' in html
    parent = html.index('data-callout="info"')
    assert parent < html.index('data-callout="danger"') < html.index("<p>C</p>")
    assert '<div class="callout callout-warning" data-callout="caution"' in html
    assert 'callout-caution" data-callout="caution"' in _html(
        ":::caution\n\nD\n\n:::\n", Dialect.NONE
    )


_FENCE = """```js title="src/app.js" showLineNumbers
const a = 1
// highlight-next-line
const b = 2
function f() {
  // highlight-start
  return 3
  // highlight-end
}
```
"""


def test_code_blocks_show_title_numbers_and_magic_comment_highlights() -> None:
    html = _html(_FENCE)
    assert '<p class="code-title">src/app.js</p>' in html
    assert '<span class="linenos">1</span>' in html and '<span class="linenos">5</span>' in html
    assert "highlight-" not in html
    marked = re.findall(r'<span class="hll"><span class="linenos">(\d+)', html)
    assert marked == ["2", "4"]


def test_a_line_range_is_read_alone_and_numbers_may_start_elsewhere() -> None:
    html = _html("```js showLineNumbers=5 {1,3-4}\na\n// highlight-next-line\nb\nc\n```\n")
    assert re.findall(r'<span class="hll"><span class="linenos">(\d+)', html) == ["5", "7", "8"]
    assert "highlight-next-line" in html


def test_without_the_dialect_fences_are_as_before() -> None:
    html = _html(_FENCE, Dialect.NONE)
    assert "linenos" not in html and "hll" not in html and "highlight-next-line" in html


# --- the record and its cache key ---------------------------------------------------------


def test_the_dialect_is_part_of_the_cache_key() -> None:
    plain = "a" * 64
    assert record_key(plain, SlugStyle.GITHUB) == plain  # unchanged without a dialect
    assert record_key(plain, SlugStyle.GITHUB, MDX) != plain
    assert record_key(plain, SlugStyle.MKDOCS, MDX) != record_key(plain, SlugStyle.MKDOCS)


def test_a_page_cached_without_the_dialect_is_read_again_in_it() -> None:
    data = b"import x from 'y'\n\nText.\n"
    files = [SourceFile(RepoPath("docs/a.mdx"), data)]
    cache: dict[tuple[str, str], PageRecord] = {}
    for rec in extract_pages(files, 1, Progress(enabled=False)):
        cache[(rec.path, rec.content_hash)] = rec
    (read,) = extract_pages(
        files, 1, Progress(enabled=False), lambda p, k: cache.get((p, k)), dialect=MDX
    )
    assert "import" not in read.html
    (again,) = extract_pages(files, 1, Progress(enabled=False), lambda p, k: cache.get((p, k)))
    assert "import" in again.html


def test_the_mdx_parser_renders_the_same_with_its_rules_gated_or_not() -> None:
    from sitegen.docs.markdown import _parser

    page = "\n\n".join(
        ["import A from './a.mdx'", _TABS, _FENCE, ":::caution\n\nD\n\n:::", "<A />", "T {/* c */}"]
    )
    parser = _parser(MDX)
    gated = _html(page)
    gates, parser.gates = parser.gates, None
    try:
        assert gates is not None
        gates.open_all()
        assert _html(page) == gated
    finally:
        parser.gates = gates
