"""The elements that keep old anchors working: inside the heading that replaced the old one,
or a notice at the end of the body; everything from content escaped."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.graph.store.anchors import AnchorAlias
from sitegen.site.anchor_marks import with_old_anchors


def test_no_alias_leaves_the_body_as_it_is() -> None:
    assert with_old_anchors('<h2 id="a">A</h2>', ()) == '<h2 id="a">A</h2>'


def test_an_alias_goes_first_inside_the_heading_that_replaced_it() -> None:
    body = extract_page("content/p.md", b"# P\n\n## Setup\n\ntext\n\n## Usage\n").html
    out = with_old_anchors(
        body, (AnchorAlias("install", "setup", "Install"), AnchorAlias("inst", "setup", "Inst"))
    )
    assert (
        '<h2 id="setup"><span id="install" class="anchor-alias"></span>'
        '<span id="inst" class="anchor-alias"></span>Setup<a class="permalink"'
    ) in out
    assert (
        out.replace('<span id="install" class="anchor-alias"></span>', "").replace(
            '<span id="inst" class="anchor-alias"></span>', ""
        )
        == body
    )


def test_ids_with_markup_characters_are_matched_and_escaped() -> None:
    body = '<h2 class="x" id="a&amp;&quot;b">Now</h2>'  # as raw HTML may write one
    out = with_old_anchors(body, (AnchorAlias('<x y="1">', 'a&"b', "<Old> & more"),))
    assert '<span id="&lt;x y=&quot;1&quot;&gt;" class="anchor-alias"></span>Now' in out


def test_a_removed_section_gets_a_notice_at_the_end() -> None:
    body = '<h2 id="a">A</h2>\n'
    out = with_old_anchors(body, (AnchorAlias("old", "", "Old <script>"),))
    assert out.startswith(body)
    assert (
        '<p id="old" class="anchor-removed">The section “Old &lt;script&gt;” was removed '
        "from this page.</p>"
    ) in out
    assert '<aside class="removed-sections" aria-label="Removed sections">' in out
