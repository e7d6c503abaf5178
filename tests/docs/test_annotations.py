"""Material's code annotations (content/syntax/code.md#code-annotations): markers in the
comments of a block become links to the items of the numbered list after it, the list goes
with the block, and nothing changes where the dialect or the block does not ask for them.

Which spans are comments, and what they hold, is compared with Python-Markdown and
pymdownx's highlighting (the oracle: the markers Material's script would find)."""

from __future__ import annotations

import gc
import importlib
import re
import time
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from markdown_it.rules_core import StateCore

from sitegen.docs import markdown
from sitegen.docs.annotations import code_annotations, mark_comments
from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect
from sitegen.records.pages import PageRecord

MKDOCS = Dialect.PYTHON_MARKDOWN | Dialect.ATTR_LIST
MATERIAL = MKDOCS | Dialect.ANNOTATIONS
ANNOTATE_ALL = MATERIAL | Dialect.ANNOTATE_ALL

#: Python-Markdown, the oracle (imported by name: the package ships no type information).
python_markdown = importlib.import_module("markdown")

PAGE = """# Settings

``` { .yaml .annotate }
theme:
  features:
    - content.code.annotate # (1)!
  palette: dark # the (2) scheme
```

1.  I'm an *annotation* with `code`.
2.  The second one.

After.
"""
JS = """``` { .js .annotate }
const a = 1; // (1) and (2)
/* (3) */ let b;
```

1. one
2. two
3. three
"""


def page(text: str, dialect: Dialect = MATERIAL) -> PageRecord:
    return extract_page("docs/p.md", text.encode(), dialect=dialect)


def oracle_markers(text: str) -> list[str]:
    """The markers in the comment spans of pymdownx's highlighting of ``text``."""
    html = python_markdown.markdown(
        text, extensions=["pymdownx.superfences", "pymdownx.highlight", "attr_list"]
    )
    comments = re.findall(r'<span class="(?:c|c1|cm)">([^<]*)</span>', html)
    return [m for c in comments for m in re.findall(r"\((\d+)\)", c)]


class Tree(HTMLParser):
    """Elements as (tag, attrs, depth), and each element's text by its id."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str], int]] = []
        self.depth = 0
        self.open_ids: list[str | None] = []
        self.text: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.elements.append((tag, values, self.depth))
        self.depth += 1
        self.open_ids.append(values.get("id"))

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1
        self.open_ids.pop()

    def handle_data(self, data: str) -> None:
        for id_ in self.open_ids:
            if id_:
                self.text[id_] = self.text.get(id_, "") + data


def tree(html: str) -> Tree:
    parsed = Tree()
    parsed.feed(html)
    return parsed


def markers(html: str) -> list[tuple[str, str]]:
    """Each marker link's number and the id it points to."""
    return re.findall(r'<a class="annotation-marker" href="#([^"]+)"[^>]*>(\d+)</a>', html)


def test_markers_link_to_the_items_of_the_list() -> None:
    record = page(PAGE)
    found = markers(record.html)
    assert [number for _, number in found] == oracle_markers(PAGE)
    parsed = tree(record.html)
    for target, number in found:
        assert target in record.anchors  # an id of the page, offered to links
        assert target.endswith(f"_annotation_{number}")
    assert parsed.text[found[0][0]] == "I'm an annotation with code."
    assert parsed.text[found[1][0]] == "The second one."


def test_the_list_goes_with_the_block() -> None:
    parsed = tree(page(PAGE).html)
    tags = [(tag, attrs.get("class", ""), depth) for tag, attrs, depth in parsed.elements]
    wrapper = next(i for i, (t, c, _) in enumerate(tags) if c == "annotated")
    depth = tags[wrapper][2]
    children = [(t, c) for t, c, d in tags[wrapper + 1 :] if d == depth + 1]
    assert children[-1] == ("ol", "annotations")
    assert ("div", "code-block annotate") in children
    # the paragraph after the list is outside the wrapper, and no plain list is left
    assert [(t, c) for t, c, d in tags if t == "ol"] == [("ol", "annotations")]
    assert tags[-1][0] == "p" and tags[-1][2] == depth


def test_a_bang_marker_drops_the_comment_characters_a_plain_one_keeps_them() -> None:
    html = page(PAGE).html
    comments = re.findall(r'<span class="c1">(.*?)</span>\n', html)
    assert comments[0].startswith('<a class="annotation-marker"')  # "# (1)!" -> the marker
    assert comments[1].startswith("# the <a class") and comments[1].endswith("</a> scheme")


def test_every_comment_syntax_pygments_knows() -> None:
    record = page(JS)
    assert [number for _, number in markers(record.html)] == oracle_markers(JS) == ["1", "2", "3"]
    assert "// " in record.html  # "(1)" without "!" keeps the comment's characters


def test_without_the_flag_or_the_class_nothing_changes() -> None:
    before = page(PAGE, MKDOCS).html
    assert "annotated" not in before and not markers(before)
    assert "# (1)!" in before
    unmarked = PAGE.replace("{ .yaml .annotate }", "yaml")
    assert page(unmarked).html == page(unmarked, MKDOCS).html
    assert markers(page(unmarked, ANNOTATE_ALL).html)  # the feature annotates every block


def test_a_list_no_marker_points_to_stays_a_list() -> None:
    for text in (
        "```{ .py .annotate }\nx = 1  # (4)\n```\n\n1. a step\n",
        "```{ .py .annotate }\nx = 1  # plain\n```\n\n1. a step\n",
        "```{ .py .annotate }\ns = '(1)'\n```\n\n1. a string is no comment\n",
        "```{ .nosuchlang .annotate }\nx  # (1)\n```\n\n1. no lexer, no comments\n",
        "```{ .py .annotate }\nx  # (1)\n```\n\n- not numbered\n",
    ):
        record = page(text)
        assert record.html == page(text, MKDOCS).html, text
        assert not record.diagnostics


def test_a_marker_beyond_the_list_is_warned_at_its_line() -> None:
    text = "```{ .py .annotate }\nx = 1  # (1)\ny = 2  # (3)!\n```\n\n1. one\n"
    record = page(text)
    assert [n for _, n in markers(record.html)] == ["1"]
    assert "# (3)!" in record.html  # shown as written
    [problem] = record.diagnostics
    assert (problem.line, problem.code) == (3, "annotation")
    assert "(3)" in problem.message


def test_comment_and_item_text_stay_escaped() -> None:
    text = (
        "```{ .py .annotate }\nx = 1  # <b>&amp;</b> (1)\n```\n\n"
        '1. <script>alert(1)</script><img src=x onerror="alert(2)"> text\n'
    )
    html = page(text).html
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in html
    assert "<script" not in html and "onerror" not in html
    assert markers(html)


def test_inside_an_admonition_and_a_list_item() -> None:
    block = "```{ .py .annotate }\nx = 1  # (1)!\n```\n\n1. inside\n"
    nested = "\n".join("    " + line if line else "" for line in block.splitlines())
    for text in (f'!!! note "N"\n\n{nested}\n', f"- item\n\n{nested}\n"):
        record = page(text)
        assert len(markers(record.html)) == 1, text
        assert '<div class="annotated">' in record.html


def test_blocks_are_numbered_as_material_numbers_them() -> None:
    text = "```py\na\n```\n\n```mermaid\ngraph\n```\n\n" + PAGE.split("\n", 2)[2]
    ids = {target for target, _ in markers(page(text).html)}
    assert ids == {"__code_1_annotation_1", "__code_1_annotation_2"}


def test_gated_and_ungated_give_the_same_record() -> None:
    parser = markdown._parser(ANNOTATE_ALL)
    for text in (PAGE, JS, PAGE.replace("(", "[")):
        gated = page(text, ANNOTATE_ALL)
        gates = parser.gates
        assert gates is not None
        gates.open_all()
        parser.gates = None
        try:
            assert page(text, ANNOTATE_ALL) == gated
        finally:
            parser.gates = gates


def timed(work: Callable[[], object]) -> float:
    """Seconds ``work`` takes, without the collector's passes over the objects of a page
    (they grow with everything alive, not with the work)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start
    finally:
        gc.enable()


@pytest.mark.parametrize("line", ["x = 1  # (1) (1) (2)!\n", "# " + "(1)" * 50 + "\n"])
def test_marking_is_linear(line: str) -> None:
    def cost(n: int) -> float:
        html = '<span class="c1">' + line.rstrip("\n") + "</span>\n"
        text = html * n
        return timed(lambda: mark_comments(text, "__code_0", 2))

    small, large = min(cost(2_000) for _ in range(3)), min(cost(16_000) for _ in range(3))
    assert large < small * 8 * 3  # linear: about 8 times; quadratic would be 64


PROSE = """!!! note annotate "Phasellus posuere (1)"

    Lorem ipsum, (2) dolor [a link (1)](other.md) and `code (1)`.

1.  In the title.
2.  In the body.

Lorem ipsum dolor sit amet, (1) consectetur.
{ .annotate }

1.  A paragraph's note.

A paragraph without the class (1).

1.  A list.
"""


def test_paragraphs_and_admonitions_with_the_class_are_annotated() -> None:
    record = page(PROSE)
    found = markers(record.html)
    assert [n for _, n in found] == ["1", "2", "1"]
    parsed = tree(record.html)
    assert [parsed.text[target] for target, _ in found] == [
        "In the title.",
        "In the body.",
        "A paragraph's note.",
    ]
    assert all(target in record.anchors for target, _ in found)
    # a marker in a link or a code span stays text; a paragraph without the class, too
    assert ">a link (1)</a>" in record.html and "<code>code (1)</code>" in record.html
    assert "A paragraph without the class (1).</p>\n<ol>" in record.html
    assert record.html.count('<div class="annotated">') == 2


def test_prose_without_the_flag_is_unchanged() -> None:
    html = page(PROSE, MKDOCS).html
    assert not markers(html) and "annotated" not in html
    assert "Phasellus posuere (1)" in html and "Lorem ipsum, (2) dolor" in html


def test_a_div_with_the_class_is_annotated_as_a_whole() -> None:
    text = (
        '<div class="annotate" markdown>\n\n> A quote (1).\n\n<div markdown>\nInner (2).\n'
        "</div>\n\n</div>\n\n1.  One.\n2.  Two.\n\n"
        '<div class="other" markdown>\n\nOutside (1).\n\n</div>\n\n1.  A list.\n'
    )
    record = page(text, MATERIAL | Dialect.MD_IN_HTML)
    parsed = tree(record.html)
    assert [parsed.text[target] for target, _ in markers(record.html)] == ["One.", "Two."]
    assert "Outside (1)." in record.html and record.html.count("annotated") == 1


def test_an_annotation_may_hold_annotations_of_its_own() -> None:
    text = (
        "Lorem (1) ipsum.\n{ .annotate }\n\n"
        "1.  A note (1).\n    { .annotate }\n\n    1.  A note on the note.\n"
    )
    record = page(text)
    parsed = tree(record.html)
    found = markers(record.html)
    assert [target for target, _ in found] == ["__block_0_annotation_1", "__block_1_annotation_1"]
    assert parsed.text["__block_1_annotation_1"] == "A note on the note."
    assert record.html.count('<div class="annotated">') == 2
    # the inner block and its list lie inside the outer list's item
    outer = record.html.index('<li id="__block_0_annotation_1">')
    assert outer < record.html.index('<li id="__block_1_annotation_1">')


@pytest.mark.parametrize(
    "unit",
    [
        '<div class="annotate" markdown>\n\nText (1).\n\n',  # never closed
        '!!! note annotate "T (1)"\n\n    Body (1).\n\n',  # no list after
        "Text (1).\n{ .annotate }\n\n",
    ],
)
def test_a_page_of_annotated_blocks_is_linear(unit: str) -> None:
    """The rule alone, on the tokens of a page parsed without it: n and 8n blocks."""
    parser = markdown._parser(MKDOCS | Dialect.MD_IN_HTML)
    rule = code_annotations(every_block=False)

    def cost(n: int) -> float:
        text = unit * n + "1.  The note.\n"
        state = StateCore(text, parser, {})
        state.tokens = parser.parse(text, {})
        return timed(lambda: rule(state))

    small, large = min(cost(400) for _ in range(3)), min(cost(3_200) for _ in range(3))
    assert large < small * 8 * 3  # linear: about 8 times; quadratic would be 64
