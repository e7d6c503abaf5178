"""The style sheets of features only some pages have (templates/features/), and the compaction
of the shared one: SITE.md's page budget (sitegen/site/render.py)."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.site.render import FEATURE_STYLES, Renderer, compact_css
from sitegen.site.views import PageView, site_context_for


def _page(renderer: Renderer, body: str) -> str:
    site = site_context_for("S", (), "a.html")
    return renderer.render_page(site, PageView("T", body))


def test_a_page_without_features_carries_none_of_their_rules() -> None:
    html = _page(Renderer(), "<p>Plain text.</p>")
    assert "<style>" not in html


def test_each_feature_brings_its_own_rules_only() -> None:
    renderer = Renderer()
    bodies = {
        "annotations.css": ('<div class="annotated"><pre>x</pre></div>', ".annotation-marker"),
        "buttons.css": ('<a class="md-button" href="a.html">Go</a>', 'a[class~="md-button"]'),
        "emoji.css": ('<span class="twemoji" title=":smile:">x</span>', ".twemoji"),
        "grid.css": ('<div class="grid cards"><ul><li>a</li></ul></div>', "[class~=grid]"),
        "keys.css": ('<span class="keys"><kbd class="key-control">Ctrl</kbd></span>', "kbd"),
    }
    assert set(bodies) == {name for name, _ in FEATURE_STYLES}
    for name, (body, selector) in bodies.items():
        html = _page(renderer, body)
        styles = re.findall(r"<style>(.*?)</style>", html[: html.index("</head>")], re.S)
        assert len(styles) == 1, name
        assert f"{selector}{{" in styles[0] or f"{selector}," in styles[0], name
        others = [s for n, (_, s) in bodies.items() if n != name]
        assert not any(f"{s}{{" in styles[0] for s in others), name


def test_a_themes_feature_sheet_replaces_the_shipped_one(tmp_path: Path) -> None:
    (tmp_path / "theme" / "features").mkdir(parents=True)
    (tmp_path / "theme" / "features" / "keys.css").write_text("kbd { color: red; }\n")
    html = _page(Renderer(tmp_path, "theme"), "<kbd>x</kbd>")
    assert "<style>kbd{color:red}</style>" in html


def test_compaction_keeps_strings_and_descendant_pseudo_classes() -> None:
    css = b'a , b { color: red; content: "x, y: z;" ; }\n.x :hover { margin : 0 }\n'
    assert compact_css(css) == b'a,b{color:red;content:"x, y: z;"}\n.x :hover{margin :0}\n'


def test_compaction_of_the_shipped_sheet_keeps_every_rule() -> None:
    """As many rules and declarations before and after, outside comments: nothing is lost."""
    source = (Path(__file__).parents[2] / "templates" / "style.css").read_bytes()
    bare = re.sub(rb"/\*.*?\*/", b"", source, flags=re.S)
    compacted = compact_css(source)
    assert compacted.count(b"{") == bare.count(b"{") > 100
    assert compacted.count(b":") == bare.count(b":")
    assert len(compacted) < len(bare) * 0.9
