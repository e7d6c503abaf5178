"""The reader tests' comparison with markdown-it's own parse and render of the same page
(bench/pathological.py times it properly; this is the loose bound a unit test can hold)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from sitegen.docs.markdown import extract_page
from sitegen.docs.nesting import MAX_NESTING
from tests.safety.linear import costs_at_most

#: markdown-it as bench/pathological.py runs it: CommonMark, with sitegen's nesting limit.
MARKDOWN_IT = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})


def within_markdown_it(
    text: str, times: float, md: MarkdownIt = MARKDOWN_IT, allowance: float = 0.1
) -> tuple[bool, str]:
    """Whether ``extract_page`` of ``text`` costs at most ``times`` markdown-it's parse and
    render of it, plus ``allowance`` CPU seconds for what every page costs (hashing,
    sanitizing) where markdown-it does next to nothing; and a sentence for the assertion."""
    data = text.encode("utf-8", "surrogatepass")
    ok, said = costs_at_most(
        lambda: extract_page("p.md", data), lambda: md.render(text), times, allowance
    )
    return ok, f"{said} (markdown-it's parse and render)"
