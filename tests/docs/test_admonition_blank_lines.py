"""An admonition's body holds every line indented under it, blank lines or not, and so does a
fence inside it: two blank lines in an indented code example never end the fence (pydantic's
docs, content/syntax/callouts.md#nesting). Python-Markdown is the oracle."""

from __future__ import annotations

import re

import markdown
import pytest

from sitegen.docs.markdown import extract_page
from sitegen.generators import Dialect

PAGE = """\
!!! warning

    Intro.

    ```python
    T = 1


    class A: ...


    print(A[int](**d))
    ```

    Still inside.

After.
"""


def _code_blocks(html: str) -> list[str]:
    blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", html, re.S)
    return [re.sub(r"<[^>]+>", "", b).strip() for b in blocks]


@pytest.mark.parametrize("dialect", [Dialect.NONE, Dialect.PYTHON_MARKDOWN])
def test_a_fence_with_two_blank_lines_stays_whole_inside_an_admonition(dialect: Dialect) -> None:
    ours = extract_page("a.md", PAGE.encode(), dialect=dialect).html
    theirs = markdown.markdown(PAGE, extensions=["admonition", "pymdownx.superfences"])
    assert _code_blocks(ours) == [re.sub(r"<[^>]+>", "", b).strip() for b in _code_blocks(theirs)]
    assert len(_code_blocks(ours)) == 1 and "print(A[int](**d))" in _code_blocks(ours)[0]
    body = ours[: ours.index("After.")]
    assert "Still inside." in body and body.rstrip().endswith("</div>\n<p>")
    assert "<a " not in ours  # no [int](**d) read as a link out of the code
