"""A fence's attribute list ``{ .lang #id .class title="…" }`` in the Python-Markdown dialects
(content/syntax/code.md#fence-attributes): id, classes, language and title as
pymdownx.superfences gives them (the oracle here), the id among the page's anchors; in a
project that is not MkDocs, the list is read as before."""

from __future__ import annotations

import importlib
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect, SlugStyle

MKDOCS = Dialect.PYTHON_MARKDOWN | Dialect.ATTR_LIST

INFOS = [
    '{ .python #example title="main.py" linenums="1" hl_lines="2 3" }',
    "{ .sh #example }",
    "{ #example .python }",
    "python { #ex .annotate .mine }",
    "{ .python #a #b }",
    "{.yaml .x .y}",
    'py { title="a <b> & c" }',
]
CODE = "import os\nx = 1  # note\ny = 2\n"


def _page(info: str) -> str:
    return f"# Page\n\n``` {info}\n{CODE}```\n"


#: Python-Markdown, the oracle (imported by name: the package ships no type information).
python_markdown = importlib.import_module("markdown")


def _oracle(text: str) -> str:
    return str(
        python_markdown.markdown(
            text,
            extensions=["pymdownx.superfences", "pymdownx.highlight", "attr_list"],
            extension_configs={"pymdownx.highlight": {"pygments_lang_class": True}},
        )
    )


class _FirstDiv(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict[str, str] = {}
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div" and not self.attrs:
            self.attrs = {k: v or "" for k, v in attrs}
        classes = dict(attrs).get("class") or ""
        self._in_title = classes in ("filename", "code-title")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False


def _block(html: str) -> tuple[str, set[str], str, str]:
    """A code block's id, classes (not the generator's own), code and title."""
    html = html[html.index("<div") :]
    parser = _FirstDiv()
    parser.feed(html)
    own = {"code-block", "highlight"}
    classes = {c for c in parser.attrs.get("class", "").split() if c not in own}
    classes = {c for c in classes if not c.startswith("language-")}
    code = re.search(r"<code>(.*?)</code>", html, re.DOTALL)
    assert code is not None
    # the line numbers: a table column in pymdownx's default, inline in sitegen's
    tokens = re.sub(r'<span class="linenos">\d+</span>', "", code.group(1))
    return parser.attrs.get("id", ""), classes, tokens, parser.title


@pytest.mark.parametrize("info", INFOS)
def test_id_classes_language_and_title_as_superfences_gives_them(info: str) -> None:
    text = _page(info)
    ours = extract_page("docs/p.md", text.encode(), dialect=MKDOCS)
    assert _block(ours.html) == _block(_oracle(text))
    expected_id = _block(_oracle(text))[0]
    if expected_id:
        assert expected_id in ours.anchors


def test_a_link_to_the_fence_id_finds_it() -> None:
    text = "[the example](#example)\n\n``` { .sh #example }\necho hi\n```\n"
    record = extract_page("docs/p.md", text.encode(), dialect=MKDOCS)
    assert "example" in record.anchors
    assert 'id="example"' in record.html
    assert not record.diagnostics


def test_without_the_dialect_the_list_is_read_as_before() -> None:
    for info in INFOS:
        record = extract_page("docs/p.md", _page(info).encode())
        assert "example" not in record.anchors and "ex" not in record.anchors
        assert ' id="' not in record.html.split("</h1>", 1)[1]
    # the language still comes from the first class, as it did
    plain = extract_page("docs/p.md", _page("{ .python }").encode()).html
    assert '<span class="kn">import</span>' in plain


def test_title_and_classes_are_escaped_and_the_theme_s_classes_refused() -> None:
    text = '``` { .python .menu-toggle .mine title="<script>x</script>" }\nx\n```\n'
    html = extract_page("docs/p.md", text.encode(), dialect=MKDOCS).html
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert 'class="code-block mine"' in html  # menu-toggle is the theme's
    assert unescape("&lt;script&gt;") == "<script>"


def test_an_attribute_list_that_does_not_parse_is_no_id() -> None:
    for info in ('{ .python #a"b }', "{ .python", "py {.a} {.b}", "js{1,3}"):
        record = extract_page("docs/p.md", f"``` {info}\nx = 1\n```\n".encode(), dialect=MKDOCS)
        assert record.anchors == [], info


def test_a_heading_s_slug_does_not_step_around_a_fence_id() -> None:
    """Python-Markdown's toc never sees a fence's id (superfences holds the block aside), so
    a heading of the same name keeps the plain slug, as MkDocs writes it."""
    text = "# Example\n\n``` { .sh #example }\nx\n```\n\n## Example\n"
    oracle = python_markdown.markdown(
        text, extensions=["toc", "pymdownx.superfences", "pymdownx.highlight", "attr_list"]
    )
    record = extract_page("docs/p.md", text.encode(), slugs=SlugStyle.MKDOCS, dialect=MKDOCS)
    assert [h.id for h in record.headings] == re.findall(r'<h\d id="([^"]+)"', oracle)
