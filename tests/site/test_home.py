"""A ``layout: home`` page shows its hero and features (sitegen/site/home.py), escaped."""

from __future__ import annotations

from sitegen.addresses import HTML_ADDRESSES
from sitegen.base.paths import NodeId, OutPath
from sitegen.docs.markdown import extract_page
from sitegen.site.home import home_view
from sitegen.site.render import Renderer
from sitegen.site.views import PageView, site_context_for
from sitegen.site.vitepress import Routes

HOME = """---
layout: home
hero:
  name: <b>Site</b>
  text: Fast & small
  tagline: Docs in minutes
  actions:
    - theme: brand
      text: Start
      link: ./guide/start
    - text: Reference
      link: /reference/
    - text: GitHub
      link: https://github.com/example/site
    - text: Bad
      link: javascript:alert(1)
features:
  - title: Focus
    details: Just <script>markdown</script>.
    link: /guide/start.html
  - title: Plain
---
Body text.
"""


def _view() -> tuple[object, dict[NodeId, object]]:
    pages = {
        NodeId("/index.md"): extract_page("docs/index.md", HOME.encode()),
        NodeId("/guide/start.md"): extract_page("docs/guide/start.md", b"# Start\n"),
        NodeId("/reference/index.md"): extract_page("docs/reference/index.md", b"# Ref\n"),
    }
    routes = Routes("docs", "docs", (), pages)  # type: ignore[arg-type]
    rec = pages[NodeId("/index.md")]
    return home_view(NodeId("/index.md"), rec, routes, HTML_ADDRESSES, OutPath("index.html")), pages


def test_hero_and_features_with_links_resolved() -> None:
    home, _ = _view()
    assert home is not None
    assert (home.name, home.text, home.tagline) == (
        "<b>Site</b>",
        "Fast & small",
        "Docs in minutes",
    )  # type: ignore[attr-defined]
    actions = [(a.title, a.href, a.note) for a in home.actions]  # type: ignore[attr-defined]
    assert actions == [
        ("Start", "guide/start.html", "brand"),
        ("Reference", "reference/index.html", ""),
        ("GitHub", "https://github.com/example/site", ""),
        ("Bad", "", ""),  # the URL gate refuses it: text only
    ]
    features = [(f.title, f.details, f.href) for f in home.features]  # type: ignore[attr-defined]
    assert features == [
        ("Focus", "Just <script>markdown</script>.", "guide/start.html"),
        ("Plain", "", ""),
    ]


def test_other_pages_have_no_home() -> None:
    _, pages = _view()
    routes = Routes("docs", "docs", (), pages)  # type: ignore[arg-type]
    rec = pages[NodeId("/guide/start.md")]
    assert (
        home_view(NodeId("/guide/start.md"), rec, routes, HTML_ADDRESSES, OutPath("g.html")) is None
    )  # type: ignore[arg-type]


def test_home_renders_escaped_with_one_h1() -> None:
    home, _ = _view()
    view = PageView(title="Home", body_html="<p>Body text.</p>", home=home)  # type: ignore[arg-type]
    html = Renderer().render_page(site_context_for("S", (), "index.html"), view)
    assert '<h1 class="home-name">&lt;b&gt;Site&lt;/b&gt;</h1>' in html
    assert html.count("<h1") == 1
    assert "Just &lt;script&gt;markdown&lt;/script&gt;." in html
    assert 'href="guide/start.html"' in html and "javascript:" not in html
    assert '<span class="home-action">Bad</span>' in html
