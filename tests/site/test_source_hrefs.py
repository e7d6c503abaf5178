"""A link into a source file's lines (content/guides/linking.md): a source page has one id
per line (``L12``), so ``#L12`` and a GitHub range ``#L12-L20`` both open it at line 12; a
page's fragment is kept as written."""

from __future__ import annotations

import pytest

from sitegen.addresses import HTML_ADDRESSES
from sitegen.base.paths import NodeId, OutPath
from sitegen.graph.model import NodeKind
from sitegen.link.rules import first_line_anchor
from sitegen.site.state import href_for_node

SOURCE = NodeId("/code/pkg/mod.py")


@pytest.mark.parametrize(
    ("fragment", "href"),
    [
        ("L12", "../code/pkg/mod.py.html#L12"),
        ("L12-L20", "../code/pkg/mod.py.html#L12"),
        ("", "../code/pkg/mod.py.html"),
    ],
)
def test_a_line_range_opens_the_source_page_at_its_first_line(fragment: str, href: str) -> None:
    assert (
        href_for_node(SOURCE, fragment, OutPath("guides/a.html"), NodeKind.SOURCE, HTML_ADDRESSES)
        == href
    )


def test_a_page_fragment_that_looks_like_a_range_is_kept() -> None:
    page = NodeId("/guides/b.md")
    href = href_for_node(page, "L1-L2", OutPath("guides/a.html"), NodeKind.PAGE, HTML_ADDRESSES)
    assert href == "b.html#L1-L2"


def test_first_line_anchor_leaves_other_fragments_alone() -> None:
    assert first_line_anchor("L3-L9") == "L3"
    assert first_line_anchor("install") == "install"
    assert first_line_anchor("L3-") == "L3-"
