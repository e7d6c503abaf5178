"""Each block and inline syntax of content/syntax/: the HTML it becomes, and the warnings it
gives (expected fragments written by hand from the syntax's documentation)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitegen.docs.markdown import extract_page

FIXTURES = Path(__file__).parent / "fixtures" / "syntax"


def html_of(text: str) -> str:
    return extract_page("content/p.md", text.encode()).html


def warnings_of(text: str) -> list[tuple[int, int, str]]:
    rec = extract_page("content/p.md", text.encode())
    return [(d.line, d.col, d.code) for d in rec.diagnostics]


class _Text(HTMLParser):
    """The text a reader sees: no tags, no <summary> of closed details is hidden (all text)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


# --- GitHub alerts and Obsidian callouts --------------------------------------------------


@pytest.mark.parametrize("kind", ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"])
def test_github_alerts(kind: str) -> None:
    html = html_of(f"> [!{kind}]\n> Body text.\n")
    look = kind.lower()
    assert html.startswith(
        f'<div class="callout callout-{look}" data-callout="{look}" role="note">\n'
    )
    assert f'<p class="callout-title">{kind.capitalize()}</p>' in html
    assert '<div class="callout-body">\n<p>Body text.</p>\n</div>\n</div>' in html
    assert "[!" not in html and "<blockquote>" not in html


@pytest.mark.parametrize(
    ("kind", "look"),
    [
        ("info", "note"),
        ("todo", "note"),
        ("quote", "note"),
        ("example", "note"),
        ("question", "tip"),
        ("faq", "tip"),
        ("success", "tip"),
        ("bug", "caution"),
        ("danger", "caution"),
        ("failure", "warning"),
        ("unknown-type", "note"),
    ],
)
def test_obsidian_types_map_onto_the_five_looks(kind: str, look: str) -> None:
    html = html_of(f"> [!{kind}]\n> Body.\n")
    assert f'class="callout callout-{look}" data-callout="{kind}"' in html


def test_obsidian_title_and_folding() -> None:
    closed = html_of("> [!tip]- Custom *title*\n> Hidden.\n")
    assert closed.startswith(
        '<details class="callout callout-tip" data-callout="tip">\n'
        '<summary class="callout-title">Custom <em>title</em></summary>'
    )
    opened = html_of("> [!tip]+ Shown\n> Body.\n")
    assert opened.startswith('<details class="callout callout-tip" data-callout="tip" open>')
    titled = html_of("> [!warning] Mind this\n> Body.\n")
    assert '<p class="callout-title">Mind this</p>' in titled


def test_alert_marker_alone_and_plain_quotes_stay_quotes() -> None:
    assert "<p>" not in html_of("> [!NOTE]\n").split('callout-body">')[1]
    assert html_of("> Just a quote [!NOTE]\n").startswith("<blockquote>")
    nested = html_of("> [!NOTE]\n> > [!TIP]\n> > inner\n")
    assert nested.count('class="callout ') == 2


# --- admonitions, /// blocks, containers ---------------------------------------------------


def test_admonitions() -> None:
    html = html_of('!!! warning "Careful now"\n    The body.\n')
    assert html.startswith(
        '<div class="callout callout-warning" data-callout="warning" '
        'role="note">\n<p class="callout-title">Careful now</p>'
    )
    assert "<p>The body.</p>" in html
    closed = html_of("??? note\n    Hidden.\n")
    assert closed.startswith(
        '<details class="callout callout-note" data-callout="note">\n'
        '<summary class="callout-title">Note</summary>'
    )
    assert html_of("???+ tip\n    Shown.\n").startswith(
        '<details class="callout callout-tip" data-callout="tip" open>'
    )
    untitled = html_of('!!! note ""\n    No title.\n')
    assert "callout-title" not in untitled and "<p>No title.</p>" in untitled


def test_slash_blocks() -> None:
    html = html_of("/// warning | Be careful\nNot indented.\n///\n\nAfter.\n")
    assert html.startswith('<div class="callout callout-warning" data-callout="warning"')
    assert '<p class="callout-title">Be careful</p>' in html
    assert html.endswith("</div>\n</div>\n<p>After.</p>\n")
    details = html_of("/// details | Summary\n    open: true\n    type: tip\n\nInside.\n///\n")
    assert details.startswith('<details class="callout callout-tip" data-callout="tip" open>')
    assert "open: true" not in details
    admonition = html_of("/// admonition | Custom\n    type: caution\nBody.\n///\n")
    assert 'class="callout callout-caution" data-callout="caution"' in admonition
    outer = html_of("//// note | Outer\n/// tip | Inner\nIn.\n///\n////\n")
    assert outer.count('class="callout ') == 2 and "///" not in outer


def test_an_unknown_slash_block_is_a_warning_and_keeps_its_body() -> None:
    text = "Intro.\n\n/// html | div\nKept *body*.\n///\n"
    assert "<p>Kept <em>body</em>.</p>" in html_of(text)
    assert warnings_of(text) == [(3, 1, "unsupported-syntax")]


@pytest.mark.parametrize(
    ("text", "look", "title"),
    [
        ("::: tip\nBody.\n:::\n", "tip", "Tip"),
        ("::: warning Mind the gap\nBody.\n:::\n", "warning", "Mind the gap"),
        (":::danger[Docusaurus title]\nBody.\n:::\n", "caution", "Docusaurus title"),
        ("::: info\nBody.\n:::\n", "note", "Info"),
    ],
)
def test_containers(text: str, look: str, title: str) -> None:
    html = html_of(text)
    assert f'<div class="callout callout-{look}"' in html
    assert f'<p class="callout-title">{title}</p>' in html and ":::" not in html


def test_details_container_folds() -> None:
    html = html_of("::: details Click me\nHidden.\n:::\n")
    assert html.startswith(
        '<details class="callout callout-note" data-callout="details">\n'
        '<summary class="callout-title">Click me</summary>'
    )


def test_attribute_list_id_on_a_callout_stays() -> None:
    html = html_of("{#my-note}\n!!! note\n    Body.\n")
    assert 'data-callout="note" id="my-note"' in html
    assert "my-note" in extract_page("content/p.md", b"{#my-note}\n!!! note\n    Body.\n").anchors


# --- tabs ---------------------------------------------------------------------------------


def test_content_tabs_are_radio_inputs_with_labels() -> None:
    html = html_of('=== "One"\n    First.\n\n=== "Two"\n    Second.\n\nAfter.\n')
    assert html == (
        '<div class="tabbed-set">\n'
        '<input type="radio" class="tabbed-input" name="__tabbed_1" id="__tabbed_1_1" checked>\n'
        '<label class="tabbed-label" for="__tabbed_1_1">One</label>\n'
        '<div class="tabbed-panel">\n<p>First.</p>\n</div>\n'
        '<input type="radio" class="tabbed-input" name="__tabbed_1" id="__tabbed_1_2">\n'
        '<label class="tabbed-label" for="__tabbed_1_2">Two</label>\n'
        '<div class="tabbed-panel">\n<p>Second.</p>\n</div>\n'
        "</div>\n<p>After.</p>\n"
    )


def test_tab_sets_split_and_select() -> None:
    html = html_of('=== "A"\n    a\n\n===! "B"\n    b\n\n===+ "C"\n    c\n')
    assert html.count('<div class="tabbed-set">') == 2
    assert 'id="__tabbed_1_1" checked' in html
    assert 'id="__tabbed_2_1">' in html and 'id="__tabbed_2_2" checked' in html
    slash = html_of("/// tab | One\nx\n///\n\n/// tab | Two\ny\n///\n")
    assert slash.count('<div class="tabbed-set">') == 1 and slash.count("tabbed-input") == 2


# --- lists, math, code --------------------------------------------------------------------


def test_definition_and_task_lists() -> None:
    assert "<dl>\n<dt>Term</dt>\n<dd>Meaning</dd>\n</dl>" in html_of("Term\n: Meaning\n")
    tasks = html_of("- [ ] open\n- [x] done\n")
    assert (
        '<label><input class="task-list-item-checkbox" disabled="disabled" '
        'type="checkbox"> open</label>' in tasks
    )


def test_math_becomes_mathml() -> None:
    html = html_of("Inline $x^2$ and \\(y_1\\).\n\n$$\n\\frac{a}{b}\n$$\n")
    assert html.count("<math ") == 3
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html
    assert "<msub><mi>y</mi><mn>1</mn></msub>" in html
    assert (
        '<div class="math"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
        "<mrow><mfrac>" in html
    )
    assert "$" not in html and "\\(" not in html


def test_bad_math_is_a_warning_and_its_source_escaped() -> None:
    text = "Intro.\n\n$\\left( <b>$ end\n"
    assert '<code class="math-source">\\left( &lt;b&gt;</code>' in html_of(text)
    assert warnings_of(text) == [(3, 1, "math")]


@pytest.mark.parametrize(
    "tex",
    [
        r"\text{<img/src=x/onerror=alert(1)>}",
        r"\text{<svg/onload=alert(1)>}",
        r"\mathrm{x} \text{</math><script>alert(1)</script>}",
    ],
)
def test_text_in_math_is_text(tex: str) -> None:
    """latex2mathml un-escapes what it serializes; sitegen serializes the tree itself, so
    the text of ``\\text{…}`` can never become a tag (issue 18, found beside row 2)."""
    html = html_of(f"${tex}$\n\n$${tex}$$\n")
    assert "<img" not in html and "<svg" not in html and "<script" not in html
    assert "&lt;" in html


def test_math_attributes_follow_the_raw_html_rules() -> None:
    html = html_of(
        r"$\style{position:fixed}{a} \class{permalink note}{b} \href{https://e.org/?a=1&b=2}{c}$"
        "\n"
    )
    assert "style=" not in html and "permalink" not in html
    assert '<mrow class="note">' in html
    assert 'href="https://e.org/?a=1&amp;b=2"' in html


def test_a_price_is_not_math() -> None:
    assert "<math" not in html_of("It costs $5 and $10.\n")


def test_fenced_code_is_highlighted() -> None:
    html = html_of('```python title="app.py" hl_lines="2"\nimport os\nx = 1\n```\n')
    assert html.startswith(
        '<div class="code-block"><p class="code-title">app.py</p>\n'
        '<div class="highlight"><pre><span></span><code>'
    )
    assert '<span class="kn">import</span>' in html
    assert '<span class="hll"><span class="n">x</span>' in html
    numbered = html_of("```js{1}\nlet a = 1\n```\n```ts:line-numbers\nlet b\n```\n")
    assert '<span class="hll">' in numbered and '<span class="linenos">1</span>' in numbered


def test_unknown_language_and_mermaid_stay_readable() -> None:
    plain = html_of("```nosuchlang\n<tag> & x\n```\n")
    assert plain == '<pre><code class="language-nosuchlang">&lt;tag&gt; &amp; x\n</code></pre>\n'
    mermaid = html_of("```mermaid\ngraph TD; A-->B\n```\n")
    assert '<pre class="mermaid"><code>graph TD; A--&gt;B\n</code></pre>' in mermaid
    assert "<script" not in mermaid


# --- anchors, wikilinks, unsupported syntaxes ---------------------------------------------


def test_every_id_an_author_can_link_to_is_an_anchor() -> None:
    text = (
        '# Title {#custom}\n\nA paragraph {#para-id .x}\n\n<a name="old-anchor"></a>\n\n'
        'Inline <span id="inline-id">x</span> and <input name="not-an-anchor">\n'
    )
    rec = extract_page("content/p.md", text.encode())
    assert rec.anchors == ["custom", "inline-id", "old-anchor", "para-id"]
    assert '<p id="para-id" class="x">A paragraph</p>' in rec.html


def test_template_tags_are_not_taken_for_attribute_lists() -> None:
    text = "{% if x %}\n\nText {{ var }}\n"
    html = html_of(text)
    assert "<p>{% if x %}</p>" in html and "<p>Text {{ var }}</p>" in html


def test_wikilinks_are_links() -> None:
    rec = extract_page(
        "content/p.md",
        b"See [[Some Page]], [[Other|alias]] and [[Page#A heading]] and ![[pic.png|200]].\n",
    )
    assert [(link.href, link.label, link.kind) for link in rec.links] == [
        ("Some Page", "Some Page", "wikilink"),
        ("Other", "alias", "wikilink"),
        ("Page#A heading", "Page > A heading", "wikilink"),
        ("pic.png", "pic.png", "wikilink"),
    ]
    assert 'class="wikilink">alias</a>' in rec.html
    assert '<img src="' in rec.html and 'width="200"' in rec.html
    assert "[[" not in rec.html


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("Intro.\n\n{% include footer.html %}\n", 3, 1),
        ("Intro.\n\nSee {!docs/part.md!} here.\n", 3, 5),
        ("Intro.\n\n:::{note}\nMyST\n:::\n", 3, 1),
        ("Intro.\n\n```{code-cell}\nx\n```\n", 3, 1),
        ("Intro.\n\n<!--@include: ./part.md-->\n", 3, 1),
        ("Intro.\n\n--8<-- snippet.md\n", 3, 1),  # unquoted: not the form sitegen includes
        ("Intro.\n\nSee ![[Embedded page]] here.\n", 3, 5),  # an embed inside text
    ],
)
def test_unsupported_includes_are_warnings_with_their_place(
    text: str, line: int, column: int
) -> None:
    assert warnings_of(text) == [(line, column, "unsupported-syntax")]


def test_includes_in_code_are_not_reported() -> None:
    assert warnings_of("Use `{% include x %}` and\n\n```\n{% include y %}\n```\n") == []


# --- the families on one page: no raw marker left -----------------------------------------


def test_the_families_page_leaves_no_raw_marker() -> None:
    rec = extract_page("content/families.md", (FIXTURES / "families.md").read_bytes())
    text = visible_text(rec.html)
    for marker in ("!!!", "???", ":::", "[!NOTE]", "[!", "===", "///"):
        assert marker not in text, marker
    assert rec.diagnostics == []
    assert len(re.findall(r'class="callout ', rec.html)) == 9


def test_vitepress_attribute_delimiters_on_headings() -> None:
    rec = extract_page("content/p.md", b"### StateTree %{#statetree}%\n\n## Price 5%\n")
    assert [(h.text, h.id) for h in rec.headings] == [
        ("StateTree", "statetree"),
        ("Price 5%", "price-5"),
    ]


def test_vitepress_code_group_is_a_tab_set_of_its_fences() -> None:
    html = html_of(
        "::: code-group\n\n```ts [store.ts]\nlet a\n```\n\n```js\nlet b\n```\n\n"
        ":::\n\n::: code-group\n```sh [npm]\nnpm i\n```\n:::\n"
    )
    assert html.count('<div class="tabbed-set">') == 2
    labels = re.findall(r'<label class="tabbed-label" for="(__tabbed_\d_\d)">([^<]*)</label>', html)
    assert labels == [("__tabbed_1_1", "store.ts"), ("__tabbed_1_2", "js"), ("__tabbed_2_1", "npm")]
    assert ":::" not in html and "[store.ts]" not in html


def test_a_mkdocstrings_directive_is_a_link_to_the_symbol() -> None:
    text = b"# API\n\n::: pkg.models.Model\n    options:\n      show_source: true\n\nAfter.\n"
    rec = extract_page("content/p.md", text)
    assert [(link.href, link.kind, link.line, link.column) for link in rec.links] == [
        ("pkg.models.Model", "autoref", 3, 1)
    ]
    assert rec.html.split("</h1>\n")[1].startswith('<p class="api-ref"><a href="sglink-')
    assert "<code>pkg.models.Model</code></a></p>\n<p>After.</p>" in rec.html
    assert "show_source" not in rec.html and rec.diagnostics == []
    module = extract_page("content/p.md", b"::: pkg\n    options:\n      members: [a]\n")
    assert [(link.href, link.kind) for link in module.links] == [("pkg", "autoref")]
