"""templates/cycles.html renders the view data: links, escaping, one id per heading."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest

from sitegen.analyse.cycles import CycleReport, analyse_cycles
from sitegen.graph.dependencies import DepEdge
from sitegen.site.cycles_view import cycles_view

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A stand-in for the theme's base.html, so these tests pin cycles.html alone.
STUB_BASE = (
    "<main>{% block content %}{% endblock %}</main><aside>{% block toc %}{% endblock %}</aside>"
)


def report() -> CycleReport:
    return analyse_cycles(
        ["<b>.py", "ui.js", "lone.py"],
        [DepEdge("<b>.py", "ui.js", "import", 0.5, 2)],
        [
            DepEdge("js:ui.js::render", "py:<b>.py::h", "reference", 0.5, 12, 1, "ui.js", "<b>.py"),
            DepEdge("py:lone.py::f", "py:lone.py::f", "reference", 1.0, 3, 1, "lone.py", "lone.py"),
        ],
        [("/a.md", "/b.md", "supersedes"), ("/b.md", "/a.md", "supersedes")],
    )


def render(data: CycleReport | None = None) -> str:
    # The renderer's settings (sitegen.site.render.Renderer): autoescape, strict, href filter.
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.DictLoader({"base.html": STUB_BASE}), jinja2.FileSystemLoader(TEMPLATES)]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["href"] = lambda href: href
    return env.get_template("cycles.html").render(cycles=cycles_view(data or report()))


def test_values_are_escaped_once() -> None:
    html = render()
    assert "<b>.py" not in html
    assert "&lt;b&gt;.py" in html
    assert "&amp;lt;" not in html


def test_links_to_source_lines_and_pages() -> None:
    html = render()
    assert '<a href="code/ui.js.html#L12">12</a>' in html
    assert 'href="code/%3Cb%3E.py.html#L2"' in html
    assert 'href="code/lone.py.html#L3"' in html  # recursion links its line
    assert '<a href="a.html">/a.md</a>' in html
    assert '<h3 id="cycle-1">Cycle 1: 2 files' in html
    assert '<a href="#cycle-1">Cycle 1</a>' in html  # table of contents


def test_heading_ids_are_unique() -> None:
    ids = re.findall(r'<h[1-6] id="([^"]+)"', render())
    assert len(ids) == len(set(ids))
    assert {
        "cycles",
        "code-cycles",
        "cycle-1",
        "deployment-order",
        "independent-files",
        "recursion",
        "relation-cycles",
    } <= set(ids)


def test_empty_report_says_so() -> None:
    html = render(analyse_cycles([], []))
    assert "No file depends on itself, directly or through other files." in html
    assert "No typed relations." in html


def test_renders_inside_the_real_theme() -> None:
    render_module = pytest.importorskip("sitegen.site.render")
    views = pytest.importorskip("sitegen.site.views")
    html = render_module.Renderer().render(
        "cycles.html",
        site=views.SiteContext(site_title="demo"),
        title="Cycles",
        cycles=cycles_view(report()),
    )
    assert html.count("<h1") == 1
    assert '<h3 id="cycle-1">' in html and "&lt;b&gt;.py" in html
