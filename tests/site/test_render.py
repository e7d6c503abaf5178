"""The renderer: escaping, template overrides, the page tree, sections and source pages."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from sitegen.site.render import NAV_CHUNK, NAV_FULL_LIMIT, Renderer, highlight_source, safe_href
from sitegen.site.theme import ThemeError
from sitegen.site.views import (
    BacklinkEntry,
    BacklinkGroup,
    CodeRef,
    Crumb,
    IndexEntry,
    IndexSection,
    IndexView,
    LinkItem,
    NavItem,
    PageView,
    ReportCell,
    ReportView,
    SiteContext,
    SourceView,
    SymbolEntry,
    TocEntry,
    root_prefix_for,
    site_context_for,
)

XSS = "<script>alert(1)</script>"

NAV = (
    NavItem("Home", "index.html"),
    NavItem(
        "Guides",
        "guides/index.html",
        is_folder=True,
        children=(
            NavItem("Alpha", "guides/a.html"),
            NavItem("Beta", "guides/b.html"),
            NavItem("Deep", "", is_folder=True, children=(NavItem("Gamma", "guides/deep/g.html"),)),
        ),
    ),
    NavItem("ADRs", "adr/index.html", is_folder=True, children=(NavItem("ADR 1", "adr/1.html"),)),
)


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    return Renderer()


def _page(**kw: object) -> PageView:
    base: dict[str, object] = {"title": "Alpha", "body_html": "<p>Body</p>"}
    base.update(kw)
    return PageView(**base)  # type: ignore[arg-type]


def _site(out: str = "guides/a.html", nav: tuple[NavItem, ...] = NAV) -> SiteContext:
    return site_context_for("Site", nav, out)


class _Tags(HTMLParser):
    """Collects start tags with their attributes, to check structure without regexes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


# ---------------------------------------------------------------- escaping


def test_content_values_are_escaped_everywhere(renderer: Renderer) -> None:
    entry = BacklinkEntry(XSS, "x.html", f' ("{XSS}")')
    page = _page(
        title=XSS,
        toc=(TocEntry(2, XSS, "x"),),
        crumbs=(Crumb(XSS, "i.html"), Crumb(XSS)),
        backlinks=(BacklinkGroup(XSS, "r", (entry,)),),
        code_refs=(CodeRef(XSS, 3, "c.html#L3", XSS),),
        related=(LinkItem(XSS, "r.html"),),
    )
    nav = (NavItem(XSS, "guides/a.html"),)
    html = renderer.render_page(site_context_for(XSS, nav, "guides/a.html"), page)
    assert "<script>alert(1)" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 9


def test_body_html_is_trusted_markup(renderer: Renderer) -> None:
    html = renderer.render_page(_site(), _page(body_html="<p><em>kept</em></p>"))
    assert "<p><em>kept</em></p>" in html


def test_script_urls_in_hrefs_are_neutralized(renderer: Renderer) -> None:
    assert safe_href("javascript:alert(1)") == "#"
    assert safe_href(" JavaScript:x") == "#"
    assert safe_href("https://example.com/a") == "https://example.com/a"
    assert safe_href("../a.html#x") == "../a.html#x"
    entry = BacklinkEntry("t", "javascript:alert(1)", "")
    html = renderer.render_page(
        _site(), _page(backlinks=(BacklinkGroup("Linked from", "", (entry,)),))
    )
    assert "javascript:" not in html


def test_a_missing_variable_is_an_error_not_an_empty_string(renderer: Renderer) -> None:
    with pytest.raises(ThemeError, match=r"page\.html:\d+: 'page' is undefined"):
        renderer.render("page.html", site=_site(), title="x")


# ---------------------------------------------------------------- overrides


def test_theme_dir_templates_override_shipped_ones(tmp_path: Path) -> None:
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "page.html").write_text(
        '{% extends "base.html" %}{% block content %}<p id="mine">{{ page.title }}</p>{% endblock %}'
    )
    html = Renderer(tmp_path, "theme").render_page(_site(), _page(title="Own <b>"))
    assert '<p id="mine">Own &lt;b&gt;</p>' in html
    assert 'id="sitegen-backlinks"' not in html  # the shipped page.html was not used
    assert 'class="site-header"' in html  # ... but the shipped base.html still was


#: Ways out of Jinja that a theme from someone else might take; each is an error in the sandbox.
ESCAPES = [
    '{{ cycler.__init__.__globals__.os.popen("touch PWNED").read() }}',
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ lipsum.__globals__['os'] }}",
    "{{ joiner.__init__.__globals__ }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ page.__class__.__init__.__globals__ }}",
    "{{ page.toc.__class__.__base__.__subclasses__() }}",
    "{% set x = page.toc.index.__self__ %}{{ x }}",
    "{{ nav.__func__.__globals__ }}",
    "{{ site.nav.__class__ }}",
    "{% set d = {} %}{{ d.update({'a': 1}) }}",
    "{% set l = [] %}{{ l.append(1) }}",
    "{{ page.__dict__ }}",
]


@pytest.mark.parametrize("escape", ESCAPES)
def test_a_theme_template_cannot_reach_python(tmp_path: Path, escape: str) -> None:
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "page.html").write_text(
        '{% extends "base.html" %}\n{% block content %}\n<p>x</p>\n' + escape + "\n{% endblock %}"
    )
    with pytest.raises(ThemeError) as err:
        Renderer(tmp_path, "theme").render_page(_site(), _page())
    assert str(err.value).startswith("theme/page.html:4: ")  # the template and its line
    assert "unsafe" in str(err.value) or "not safely" in str(err.value), str(err.value)
    assert not (tmp_path / "PWNED").exists()


def test_the_shipped_theme_renders_the_same_bytes_in_the_sandbox(tmp_path: Path) -> None:
    """A theme that copies one shipped template unchanged changes no byte of any page."""
    (tmp_path / "theme").mkdir()
    shipped = Renderer()
    (tmp_path / "theme" / "page.html").write_text(
        shipped.shipped.joinpath("page.html").read_text(encoding="utf-8")
    )
    themed = Renderer(tmp_path, "theme")
    assert isinstance(themed.env, ImmutableSandboxedEnvironment)
    assert type(shipped.env).__name__ == "Environment"
    backlinks = (BacklinkGroup("Linked from", "", (BacklinkEntry("t", "a.html", "x"),)),)
    for page in [_page(), _page(backlinks=backlinks, toc=(TocEntry(2, "A", "a"),))]:
        for out in ["guides/a.html", "index.html", "adr/1.html"]:
            assert themed.render_page(_site(out), page) == shipped.render_page(_site(out), page)


def test_a_templates_folder_is_not_a_theme_unless_configured(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()  # a Flask or Django project's own templates
    (tmp_path / "templates" / "page.html").write_text(
        "{% extends 'layout.html' %}{{ url_for('x') }}"
    )
    html = Renderer(tmp_path).render_page(_site(), _page(title="Shipped"))
    assert 'id="sitegen-backlinks"' in html or "Shipped" in html
    assert "url_for" not in html


def test_theme_style_css_overrides_and_gets_highlighting_appended(tmp_path: Path) -> None:
    shipped = Renderer().static_files()
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "style.css").write_text("body { color: red; }\n")
    (tmp_path / "theme" / "extra.js").write_text("// mine\n")
    files = Renderer(tmp_path, "theme").static_files()
    assert files["style.css"].startswith(b"body{color:red}")  # compacted (compact_css)
    assert b".highlight" in files["style.css"]
    assert files["extra.js"] == b"// mine\n"
    assert shipped["style.css"] != files["style.css"]
    assert set(shipped) <= set(files)


def test_shipped_static_files_are_css_and_js_only() -> None:
    files = Renderer().static_files()
    assert "style.css" in files
    assert all(name.endswith((".css", ".js")) for name in files)


# ---------------------------------------------------------------- layout


def test_page_structure_is_semantic_with_one_h1(renderer: Renderer) -> None:
    page = _page(
        toc=(TocEntry(2, "Part", "part"),), crumbs=(Crumb("Guides", "index.html"), Crumb("Alpha"))
    )
    html = renderer.render_page(_site(), page)
    names = [t for t, _ in _tags(html)]
    for tag in ("header", "nav", "main", "aside", "footer"):
        assert tag in names
    assert names.count("h1") == 1
    assert names.count("main") == 1
    assert html.index('class="crumbs"') < html.index("<h1")
    assert '<a href="#part">Part</a>' in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)


def test_body_with_its_own_h1_gets_no_second_one(renderer: Renderer) -> None:
    body = '<h1 id="alpha">Alpha<a class="permalink" href="#alpha">#</a></h1><p>x</p>'
    html = renderer.render_page(_site(), _page(body_html=body))
    assert [t for t, _ in _tags(html)].count("h1") == 1


def test_stylesheet_and_links_are_relative_to_the_page(renderer: Renderer) -> None:
    assert root_prefix_for("index.html") == ""
    assert root_prefix_for("guides/deep/g.html") == "../../"
    html = renderer.render_page(_site("guides/deep/g.html"), _page())
    assert '<link rel="stylesheet" href="../../style.css">' in html
    assert '<a href="../../guides/a.html">Alpha</a>' in html


# ---------------------------------------------------------------- the page tree


def _current_links(html: str) -> list[str | None]:
    return [a.get("href") for t, a in _tags(html) if t == "a" and a.get("aria-current") == "page"]


def _open_folders(html: str) -> int:
    return sum(1 for t, a in _tags(html) if t == "details" and "open" in a)


def test_nav_marks_exactly_the_current_page_and_opens_its_folders(renderer: Renderer) -> None:
    html = renderer.render_page(_site("guides/deep/g.html"), _page())
    assert _current_links(html) == ["../../guides/deep/g.html"]
    assert _open_folders(html) == 2  # Guides and Deep

    html = renderer.render_page(_site("adr/1.html"), _page())
    assert _current_links(html) == ["../adr/1.html"]
    assert _open_folders(html) == 1


def test_two_pages_of_one_folder_get_their_own_current_mark(renderer: Renderer) -> None:
    a = renderer.render_page(_site("guides/a.html"), _page())
    b = renderer.render_page(_site("guides/b.html"), _page())
    assert _current_links(a) == ["../guides/a.html"]
    assert _current_links(b) == ["../guides/b.html"]


def test_current_flag_on_the_nav_item_works_without_current_href(renderer: Renderer) -> None:
    nav = (NavItem("Home", "index.html"), NavItem("Beta", "guides/b.html", current=True))
    site = SiteContext(site_title="S", root_prefix="../", nav=nav)
    assert _current_links(renderer.render_page(site, _page())) == ["../guides/b.html"]


def test_folder_index_page_is_current_and_its_folder_open(renderer: Renderer) -> None:
    html = renderer.render_page(_site("guides/index.html"), _page())
    assert _current_links(html) == ["../guides/index.html"]
    assert _open_folders(html) == 1


def test_page_outside_the_nav_marks_nothing(renderer: Renderer) -> None:
    html = renderer.render_page(_site("elsewhere.html"), _page())
    assert _current_links(html) == []
    assert _open_folders(html) == 0


def test_large_nav_prunes_folders_off_the_current_path(renderer: Renderer) -> None:
    per = NAV_FULL_LIMIT // 4
    nav = tuple(
        NavItem(
            f"F{f}",
            f"f{f}/index.html",
            is_folder=True,
            children=tuple(NavItem(f"P{f}.{i}", f"f{f}/p{i}.html") for i in range(per)),
        )
        for f in range(8)
    )
    html = renderer.render_page(_site("f3/p1.html", nav), _page())
    assert _current_links(html) == ["../f3/p1.html"]
    assert "../f3/p2.html" in html  # siblings of the current page are listed
    assert "../f5/index.html" in html  # other folders link to their index
    assert "../f5/p2.html" not in html  # ... without their pages


# ---------------------------------------------------------------- sections


def test_backlinks_section_groups_with_counts_and_folds_long_lists(renderer: Renderer) -> None:
    plain = tuple(BacklinkEntry(f"P{i:02}", f"p{i}.html#s", f" (#s, x{i + 2})") for i in range(25))
    typed = (BacklinkEntry("ADR 3", "adr3.html", " [supersedes]", "supersedes"),)
    groups = (
        BacklinkGroup("Superseded by", "supersedes", typed),
        BacklinkGroup("Linked from", "", plain),
    )
    html = renderer.render_page(_site(), _page(backlinks=groups))
    section = html[html.index('<section id="sitegen-backlinks"') :]
    section = section[: section.index("</section>")]
    assert 'Linked from <span class="count">(26)</span>' in section
    assert section.index("Superseded by") < section.index("P00")
    assert section.count("<li>") == 26  # nothing dropped
    fold = section.index("<details")
    assert "Show all 25" in section
    assert section.index("P19") < fold < section.index("P20")
    assert '<a href="p3.html#s">P03</a><span class="annotation"> (#s, x5)</span>' in section


def test_a_page_without_backlinks_still_has_the_section(renderer: Renderer) -> None:
    html = renderer.render_page(_site(), _page())
    assert '<section id="sitegen-backlinks"' in html
    assert "No pages link here" in html


def test_code_refs_show_file_and_line(renderer: Renderer) -> None:
    ref = CodeRef("sitegen/cli.py", 12, "../code/sitegen/cli.py.html#L12", ' ("docs")')
    html = renderer.render_page(_site(), _page(code_refs=(ref,)))
    assert "Referenced from code" in html
    assert '<a href="../code/sitegen/cli.py.html#L12"><code>sitegen/cli.py</code>:12</a>' in html


# ---------------------------------------------------------------- source, index, report


def test_highlight_source_has_github_line_anchors_and_keeps_line_numbers() -> None:
    code = "\n\nimport os\nx = '<b>'\n"
    html, css = highlight_source(code, "pkg/mod.py")
    assert 'id="L3"' in html and 'href="#L3"' in html
    assert 'id="L-3"' not in html
    line3 = html[html.index('id="L3"') : html.index('id="L4"')]
    assert "import" in line3  # leading blank lines kept: line 3 is the import
    assert "&lt;b&gt;" in html and "<b>" not in html
    assert ".highlight" in css


def test_highlight_source_falls_back_to_plain_text() -> None:
    html, _ = highlight_source("a < b\n", "notes.unknownext")
    assert 'id="L1"' in html and "a &lt; b" in html


def test_source_page_has_code_outline_deps_and_referenced_by(renderer: Renderer) -> None:
    code_html, _ = highlight_source("def f():\n    pass\n", "a.py")
    source = SourceView(
        title="pkg/a.py",
        path="pkg/a.py",
        language="python",
        code_html=code_html,
        symbols=(SymbolEntry("function", "f", "public", 1, "#L1"),),
        imports=(LinkItem("os"),),
        imported_by=(LinkItem("pkg/b.py", "b.py.html"),),
        documented_by=(BacklinkEntry("Guide", "../../guides/a.html#api", ' ("a", #api)'),),
        cycles=(LinkItem("Cycle 1", "../../cycles.html#cycle-1"),),
    )
    html = renderer.render_source(_site("code/pkg/a.py.html"), source)
    assert html.index("Imported by") < html.index('id="L1"')
    assert '<a href="#L1"><span class="kind">function</span> f</a>' in html
    section = html[html.index('<section id="sitegen-backlinks"') :]
    assert "Referenced by" in section and "Documented by" in section
    assert '<a href="../../guides/a.html#api">Guide</a>' in section
    assert "../../cycles.html#cycle-1" in html
    assert [t for t, _ in _tags(html)].count("h1") == 1


def test_index_lists_sections_and_pages(renderer: Renderer) -> None:
    index = IndexView("Site", (IndexSection("Guides", (IndexEntry("Alpha", "guides/a.html", 4),)),))
    html = renderer.render_index(_site("index.html"), index)
    assert '<a href="guides/a.html">Alpha</a>' in html
    assert "4 links in" in html


def test_report_table_cells_accept_strings_and_links(renderer: Renderer) -> None:
    report = ReportView(
        "Broken links",
        "Intro",
        ("Location", "Fix"),
        ((ReportCell("a.md:3:5", "a.html", code=True), f"Remove {XSS}"),),
    )
    html = renderer.render_report(_site("broken-links.html"), report)
    assert '<td><a href="a.html"><code>a.md:3:5</code></a></td>' in html
    assert "Remove &lt;script&gt;" in html
    assert '<th scope="col">Fix</th>' in html
    empty = renderer.render_report(_site("x.html"), ReportView("Orphans", "", ("Page",), ()))
    assert "Nothing to report." in empty and "<table" not in empty


def test_large_nav_shows_the_slice_of_a_long_list_holding_the_current_page(
    renderer: Renderer,
) -> None:
    pages = tuple(NavItem(f"P{i}", f"big/p{i}.html") for i in range(400))
    nav = (NavItem("Home", "index.html"), NavItem("Big", "big/index.html", True, pages, True))
    html = renderer.render_page(_site("big/p230.html", nav), _page())
    assert _current_links(html) == ["../big/p230.html"]
    start = 230 // NAV_CHUNK * NAV_CHUNK
    assert f'"../big/p{start}.html"' in html and f'"../big/p{start + NAV_CHUNK - 1}.html"' in html
    assert f'"../big/p{start - 1}.html"' not in html and '"../big/p0.html"' not in html
    assert f"… {start} earlier" in html
    assert f"… {400 - start - NAV_CHUNK} more" in html
    # a page of another slice of the same folder gets its own slice
    first = renderer.render_page(_site("big/p3.html", nav), _page())
    assert _current_links(first) == ["../big/p3.html"] and "earlier" not in first
