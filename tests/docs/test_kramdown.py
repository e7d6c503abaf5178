"""kramdown's block attribute lists, as Jekyll's docs write them (sitegen/docs/kramdown.py):
``{: #id .class}`` on the line after a block or before it gives that block its id and classes,
and the line is not shown."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.docs.kramdown import ial_attributes
from sitegen.docs.markdown import extract_page


def html_of(markdown: str) -> str:
    return extract_page("p.md", markdown.encode()).html


def heading_ids(markdown: str) -> list[str]:
    return [h.id for h in extract_page("p.md", markdown.encode()).headings]


def test_a_line_after_a_heading_gives_it_its_id() -> None:
    page = "## 4.4.1 / 2025-01-29\n{: #v4-4-1}\n\n### Bug Fixes\n{: #bug-fixes-v4-4-1}\n\nText.\n"
    assert heading_ids(page) == ["v4-4-1", "bug-fixes-v4-4-1"]
    assert "{:" not in html_of(page)


def test_a_line_before_a_heading_with_no_blank_line_gives_it_its_id() -> None:
    assert heading_ids("Intro.\n\n{: #later}\n## Later\n") == ["later"]


def test_classes_go_to_the_paragraph_the_line_ends_or_starts() -> None:
    assert html_of("Some text\n{: .note .info}\n") == '<p class="note info">Some text</p>\n'
    assert html_of("{: .note .warning}\nBe *careful*.\n") == (
        '<p class="note warning">Be <em>careful</em>.</p>\n'
    )


def test_a_link_to_the_given_id_is_the_heading_s_anchor() -> None:
    rec = extract_page(
        "p.md", b"## Theme Variables\n{: #theme-variables }\n\n[up](#theme-variables)\n"
    )
    assert [h.id for h in rec.headings] == ["theme-variables"]
    assert [link.href for link in rec.links] == ["#theme-variables"]


@pytest.mark.parametrize(
    "page",
    [
        "{: #lonely}\n",  # nothing next to it
        "Text.\n\n{: #apart}\n\nMore.\n",  # blank lines on both sides
        "* TOC\n{:toc}\n",  # kramdown's table of contents: not done, left as written
        "Say {: .not} inside a line.\n",
        "{: #a}{: #b}\n## H\n",
    ],
)
def test_what_is_not_an_attribute_line_for_a_block_stays_as_written(page: str) -> None:
    assert "{:" in html_of(page)


def test_the_parts_applied_are_the_id_and_the_classes() -> None:
    assert ial_attributes("{: #a .b .c}") == {"id": "a", "class": "b c"}
    assert ial_attributes("{:.note .info}") == {"class": "note info"}
    assert ial_attributes('{: #x title="t"}') == {"id": "x"}  # other keys are kramdown's
    assert ial_attributes("{: #first #last}") == {"id": "last"}
    assert ial_attributes("{:toc}") is None
    assert ial_attributes("{: }") is None
    assert ial_attributes("{: #a} text") is None


@given(st.text(alphabet="{}:#. abn\n-=", max_size=60))
def test_any_page_of_braces_and_colons_keeps_its_heading_positions(text: str) -> None:
    data = text.encode()
    rec = extract_page("p.md", data)
    for h in rec.headings:  # each heading's line is the line of its offset
        assert data.count(b"\n", 0, h.offset) + 1 == h.line


def test_a_long_run_of_spaces_is_read_once() -> None:
    """``\\{:\\s*(.*?)\\s*\\}`` backtracked here: 10,000 spaces took 208 s. Now a line is
    read once, so 200,000 are nothing (bench/pathological.py times these shapes)."""
    spaces = " " * 200_000
    assert ial_attributes("{:" + spaces + "x") is None
    assert ial_attributes("{:" + spaces + "#id" + spaces + "}") == {"id": "id"}
    assert heading_ids("{:" + spaces + "#far}\n## Far\n") == ["far"]


def test_every_attribute_line_of_a_long_page_is_applied() -> None:
    page = "".join(f"Text {i}.\n\n{{: #h{i}}}\n## Head {i}\n\n" for i in range(5_000))
    assert heading_ids(page) == [f"h{i}" for i in range(5_000)]
