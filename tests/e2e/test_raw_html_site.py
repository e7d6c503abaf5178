"""Links in a page's own HTML, built end to end: a MkDocs-Material-like project whose tables
link with ``<a href>`` written for directory URLs (from the page's URL, ``length/``, as a
browser on the MkDocs site reads them: content/guides/linking.md#raw-html-read-from-the-pages-url). Each link is published at its target's
address in either URL style, reported when broken, shown in backlinks, and the graph is the
same in every ``raw_html`` mode (content/guides/linking.md, "Links in HTML")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.docs.test_sanitize import unsafe_parts
from tests.e2e.conftest import run_cli, write_project
from tests.e2e.sitewalk import walk_site

PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)


def _length(up: str) -> str:
    """The length page, its raw HTML climbing ``up`` to the site root: ``../../../`` from
    its URL ``reference/values/length/`` (directory URLs), ``../../`` from its file."""
    return (
        "# Length\n\n"
        f"A length is an <a href='{up}css_types/integer'>integer</a> and a unit.\n\n"
        "<table>\n"
        "<tr><th>Type</th><th>Café</th></tr>\n"
        f'<tr><td><a href="{up}css_types/integer/#integer">integer</a></td>\n'
        f'<td><img src="{up}img/logo.png" alt="logo"></td></tr>\n'
        "</table>\n\n"
        '<a href="javascript:alert(1)">run</a> <a href="../gone.md">gone</a>\n'
    )


LENGTH = _length("../../../")
PROJECT: dict[str, str | bytes] = {
    "mkdocs.yml": "site_name: Raw\n",
    "docs/index.md": '# Home\n\n<p align="center"><img src="img/logo.png" alt="Logo"></p>\n\n'
    'See <a href="reference/values/length.md">Length</a>.\n',
    "docs/css_types/integer.md": "# Integer\n\n## Integer\n\nA whole number.\n",
    "docs/reference/values/length.md": LENGTH,
    "docs/img/logo.png": PNG,
}


def _build(root: Path, *options: str) -> tuple[Path, str]:
    proc = run_cli("build", "--root", str(root), "--jobs", "1", *options)
    assert proc.returncode == 0, proc.stderr
    return root / "site", proc.stderr


def _hrefs(html: str) -> list[str]:
    found = re.findall(r'<(?:a|img)[^>]* (?:href|src)="([^"]*)"', _body(html))
    return [href for href in found if not href.startswith("#")]  # not the permalinks


def _body(html: str) -> str:
    return html.partition('<article class="page-body">')[2].partition("</article>")[0]


@pytest.mark.parametrize(
    ("use_directory_urls", "up", "length", "integer"),
    [
        (
            "true",
            "../../../",
            "reference/values/length/index.html",
            "../../../css_types/integer/index.html",
        ),
        ("false", "../../", "reference/values/length.html", "../../css_types/integer.html"),
    ],
)
def test_raw_html_links_are_published_at_their_targets_addresses(
    tmp_path: Path, use_directory_urls: str, up: str, length: str, integer: str
) -> None:
    root = write_project(
        tmp_path / "p",
        {
            **PROJECT,
            "mkdocs.yml": f"site_name: Raw\nuse_directory_urls: {use_directory_urls}\n",
            "docs/reference/values/length.md": _length(up),
        },
    )
    site, _ = _build(root)
    logo = "../" * (length.count("/")) + "img/logo.png"
    assert _hrefs((site / length).read_text()) == [
        integer,
        f"{integer}#integer",
        logo,
        "../gone.md",
    ]
    assert 'class="broken-link"' in _body((site / length).read_text())
    walk = walk_site(site)
    assert {href for _, href in walk.dead} == {"../gone.md"}
    assert walk.bad_fragments == []


def test_broken_and_unsafe_raw_html_links_are_reported_at_the_url(tmp_path: Path) -> None:
    _, stderr = _build(write_project(tmp_path / "p", PROJECT))
    page = "docs/reference/values/length.md"
    assert f"{page}:{_at('javascript:')}: warning: link 'javascript:alert(1)'" in stderr
    assert f"{page}:{_at('../gone.md')}: warning: link target '../gone.md' does not exist" in stderr
    assert "1 broken link" in stderr


def test_backlinks_show_the_raw_html_links(tmp_path: Path) -> None:
    site, _ = _build(write_project(tmp_path / "p", PROJECT))
    integer = (site / "css_types/integer/index.html").read_text()
    backlinks = integer.partition('id="sitegen-backlinks"')[2].partition("</section>")[0]
    assert "Length</a>" in backlinks and "(&#34;integer&#34;, #length, x2)" in backlinks


def _at(text: str) -> str:
    """``line:column`` of ``text`` in the length page (ASCII before it)."""
    lines = LENGTH.split("\n")
    line = next(i for i, x in enumerate(lines) if text in x)
    return f"{line + 1}:{lines[line].index(text) + 1}"


def _graph(site: Path) -> list[object]:
    return json.loads((site / "graph.json").read_text())["edges"]  # type: ignore[no-any-return]


def test_the_graph_is_the_same_in_every_raw_html_mode(tmp_path: Path) -> None:
    graphs, warnings = {}, {}
    for mode in ("sanitize", "escape", "allow"):
        root = write_project(tmp_path / mode, {**PROJECT, "sitegen.toml": f'raw_html = "{mode}"\n'})
        site, stderr = _build(root)
        graphs[mode] = _graph(site)
        warnings[mode] = [line for line in stderr.splitlines() if ": warning: " in line]
        for page in site.rglob("*.html"):
            assert unsafe_parts(_body(page.read_text())) == [], page
        length = _body((site / "reference/values/length/index.html").read_text())
        if mode == "escape":  # shown as the author wrote it
            assert "&lt;a href='../../../css_types/integer'&gt;integer&lt;/a&gt;" in length
        else:
            assert '<a href="../../../css_types/integer/index.html">integer</a>' in length
    assert graphs["escape"] == graphs["sanitize"] == graphs["allow"]
    assert warnings["escape"] == warnings["sanitize"] == warnings["allow"]
    edges = {(e["from"], e["to"]) for e in graphs["sanitize"]}  # type: ignore[index]
    assert ("/reference/values/length.md", "/css_types/integer.md") in edges
    assert ("/index.md", "/img/logo.png") in edges
