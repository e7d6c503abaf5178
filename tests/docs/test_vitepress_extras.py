"""VitePress' container options (``{no-title}``, ``{open}``), its wrapper containers
(``::: v-pre``, ``::: raw``) and Vue components, whose text is kept with one warning per
component name and page (content/syntax/callouts.md)."""

from __future__ import annotations

from sitegen.docs.components import components_as_text
from sitegen.docs.markdown import extract_page
from sitegen.docs.sanitize import sanitize


def _page(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    rec = extract_page("docs/p.md", text.encode())
    return rec.html, [(d.line, d.col, d.message) for d in rec.diagnostics]


def test_no_title_shows_the_container_without_a_title() -> None:
    html, warnings = _page(
        "::: tip {no-title}\nBody.\n:::\n\n::: warning Mind {no-title}\nB\n:::\n"
    )
    assert 'class="callout callout-tip"' in html and 'class="callout callout-warning"' in html
    assert "callout-title" not in html and "no-title" not in html and "Mind" not in html
    assert "<p>Body.</p>" in html and warnings == []


def test_a_details_container_may_start_open() -> None:
    html, _ = _page("::: details Click me {open}\nHidden.\n:::\n")
    assert "<details " in html and " open>" in html
    assert '<summary class="callout-title">Click me</summary>' in html and "{open}" not in html


def test_v_pre_shows_its_content_as_written_with_no_warning() -> None:
    html, warnings = _page("::: v-pre\n{{ This is shown as-is }} and *markdown*\n:::\n\n{{ x }}\n")
    assert html.startswith('<div class="v-pre">\n<p>{{ This is shown as-is }} and <em>markdown')
    assert ":::" not in html
    assert [w[0] for w in warnings] == [5]  # the expression outside is reported, once


def test_raw_is_a_plain_wrapper() -> None:
    html, warnings = _page("::: raw\nKept.\n:::\n")
    assert html == '<div class="raw">\n<p>Kept.</p>\n</div>\n' and warnings == []


def test_vue_components_keep_their_text_with_one_warning_per_name() -> None:
    text = (
        '# T\n\nA <Badge type="tip" text="^1.2 &amp; <b>up</b>" /> and <Badge>beta</Badge> '
        "and <Badge type='info' text='x'/>.\n\n"
        '<VPTeamMembers size="small" :members="members" />\n\n'
        "<OutlineItem>\n\nInside\n\n</OutlineItem>\n"
    )
    html, warnings = _page(text)
    assert "<span>^1.2 &amp; &lt;b&gt;up&lt;/b&gt;</span>" in html
    assert "<span>beta</span>" in html and "<span>x</span>" in html
    assert "Badge" not in html and "VPTeamMembers" not in html and "Inside" in html
    assert [(line, col) for line, col, _ in warnings] == [(3, 3), (5, 1), (7, 1)]
    assert "<Badge>" in warnings[0][2] and "(2 more on this page)" in warnings[0][2]
    assert "<VPTeamMembers>" in warnings[1][2] and "more" not in warnings[1][2]


def test_a_components_text_goes_through_the_sanitizer() -> None:
    made = components_as_text('<Badge text="&lt;img src=x onerror=alert(1)&gt;" />')
    assert made == "<span>&lt;img src=x onerror=alert(1)&gt;</span>"
    assert "onerror=" not in sanitize('<Badge>x</Badge><img src=x onerror="alert(1)">')
    assert components_as_text("<div>plain html</div>") == "<div>plain html</div>"
