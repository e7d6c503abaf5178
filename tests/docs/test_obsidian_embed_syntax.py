"""Page embeds in the docs step (content/syntax/obsidian.md#embeds): ``![[Page#Section]]``
alone on its line is a link of kind ``embed`` whose paragraph is not written, so the site can
put the embedded part in its place; inside a line of text it stays a wikilink, with a warning."""

from __future__ import annotations

from sitegen.docs.markdown import extract_page
from sitegen.records.pages import LinkKind


def test_an_embed_alone_on_its_lines_is_an_embed_without_its_paragraph() -> None:
    rec = extract_page("content/a.md", b"# A\n\n![[b#Part]]\n![[c]]\n\n> ![[d#^blk]]\n\n- ![[e]]\n")
    assert [(x.href, x.kind) for x in rec.links] == [
        ("b#Part", LinkKind.EMBED),
        ("c", LinkKind.EMBED),
        ("d#^blk", LinkKind.EMBED),
        ("e", LinkKind.EMBED),
    ]
    assert "<p>" not in rec.html  # each embed is a block of its own, written by the site
    assert rec.html.count('class="wikilink embed"') == 4
    assert rec.diagnostics == []


def test_an_embed_inside_text_stays_a_link_with_a_warning() -> None:
    rec = extract_page("content/a.md", b"# A\n\nSee ![[b#Part]] here.\n")
    assert [x.kind for x in rec.links] == [LinkKind.WIKILINK]
    assert '<p>See <a href="' in rec.html and 'class="wikilink">' in rec.html
    [problem] = rec.diagnostics
    assert (problem.line, problem.code) == (3, "unsupported-syntax")
    assert "inside a line of text" in problem.message


def test_an_image_embed_is_still_an_image() -> None:
    rec = extract_page("content/a.md", b"# A\n\n![[pic.png|200]]\n")
    assert [x.kind for x in rec.links] == [LinkKind.WIKILINK]
    assert '<p><img src="' in rec.html and 'width="200"' in rec.html


def test_an_embed_on_its_own_line_in_a_paragraph_splits_it() -> None:
    rec = extract_page(
        "content/a.md",
        b"# A\n\n> [!note] Title\n> Text before.\n> ![[b#^blk]]\n> After *this*.\n",
    )
    assert [x.kind for x in rec.links] == [LinkKind.EMBED]
    assert rec.diagnostics == []
    body = rec.html[rec.html.index('<div class="callout-body">') :]
    assert body.startswith('<div class="callout-body">\n<p>Text before.</p>\n<a href="'), body
    assert 'class="wikilink embed">b &gt; ^blk</a>\n<p>After <em>this</em>.</p>' in body
