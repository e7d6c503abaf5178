"""templates/cycles.html renders the view data: links, escaping, one id per heading."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest

from sitegen.analyse.cycles import DepEdge, analyse_cycles
from sitegen.analyse.reports import cycles_view

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A stand-in for the theme's base.html, so this test pins cycles.html alone.
STUB_BASE = "<main>{% block content %}{% endblock %}</main>"


def render(autoescape: bool) -> str:
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.DictLoader({"base.html": STUB_BASE}),
                                    jinja2.FileSystemLoader(TEMPLATES)]),
        autoescape=autoescape, undefined=jinja2.StrictUndefined)
    report = analyse_cycles(
        ["<b>.py", "ui.js", "lone.py"],
        [DepEdge("<b>.py", "ui.js", "import", 0.5, 2)],
        [DepEdge("js:ui.js::render", "py:<b>.py::h", "reference", 0.5, 12, 1, "ui.js", "<b>.py"),
         DepEdge("py:lone.py::f", "py:lone.py::f", "reference", 1.0, 3, 1, "lone.py", "lone.py")],
        [("/a.md", "/b.md", "supersedes"), ("/b.md", "/a.md", "supersedes")])
    return env.get_template("cycles.html").render(cycles=cycles_view(report))


@pytest.mark.parametrize("autoescape", [True, False])
def test_values_are_escaped_once(autoescape: bool) -> None:
    html = render(autoescape)
    assert "<b>.py" not in html
    assert "&lt;b&gt;.py" in html
    assert "&amp;lt;" not in html


def test_links_to_source_lines_and_pages() -> None:
    html = render(True)
    assert '<a href="code/ui.js.html#L12">12</a>' in html
    assert 'href="code/lone.py.html#L3"' in html  # recursion links its line
    assert '<a href="a.html">/a.md</a>' in html
    assert '<h3 id="cycle-1">Cycle 1: 2 files</h3>' in html


def test_heading_ids_are_unique() -> None:
    ids = re.findall(r'<h[1-6] id="([^"]+)"', render(True))
    assert len(ids) == len(set(ids)) and "deployment-order" in ids
