"""Line numbers in a fence's info string are read within bounds (issue 27): a range or a
``linenums`` of thousands of digits, or of digits that are not ASCII, is no line and never an
internal error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.docs.markdown import extract_page

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("info", "marked"),
    [
        (f"py{{1,{HUGE}}}", 1),
        (f"py{{{HUGE}-{HUGE}}}", 0),
        (f'py hl_lines="1 {HUGE}"', 1),
        (f'py linenums="{HUGE}"', 0),
        ('py linenums="²"', 0),
        ('py linenums="٣"', 0),
    ],
)
def test_a_huge_or_foreign_line_number_in_a_fence_is_no_line(info: str, marked: int) -> None:
    page = f"# T\n\n```{info}\nx = 1\ny = 2\n```\n".encode()
    record = extract_page("a.md", page)
    assert '<div class="highlight">' in record.html
    assert record.html.count('class="hll"') == marked


def test_the_small_numbers_beside_a_huge_one_are_still_marked() -> None:
    page = f"```py{{2,{HUGE}}}\nx = 1\ny = 2\n```\n".encode()
    html = extract_page("a.md", page).html
    assert html.count('class="hll"') == 1


@settings(deadline=None, max_examples=40)
@given(st.text(alphabet='0123456789²٣,- {}"=linumshl_', max_size=60))
def test_any_info_string_of_numbers_renders(info: str) -> None:
    extract_page("a.md", f"```py {info}\nx = 1\n```\n".encode())
