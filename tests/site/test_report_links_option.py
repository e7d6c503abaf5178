"""The public header and the maintainer's option (issue 30, point 7;
content/guides/site.md#the-header): the report links are off by default, ``header_reports =
true`` shows them; everything after the search box sits in the header's menu (behind the
Menu button on a phone); more than three languages are a menu under the current one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import Config, load_config
from sitegen.records.result import BuildOptions

pytestmark = pytest.mark.slow  # whole builds, in process

REPORTS = ("broken-links.html", "cycles.html", "missing-links.html", "graph.html")


def _header(root: Path, options: str = "", languages: tuple[str, ...] = ()) -> str:
    files = {
        "mkdocs.yml": "site_name: Docs\n",
        "docs/index.md": "# Home\n\n[gone](gone.md)\n",
        "docs/guide.md": "# Guide\n",
        **{f"docs/{lang}/index.md": f"# Home {lang}\n" for lang in languages},
    }
    if languages:
        options += "locales = [" + ", ".join(f'"{lang}"' for lang in languages) + "]\n"
    files["sitegen.toml"] = options
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    html = (root / "site/index.html").read_text()
    return html.partition('<header class="site-header">')[2].partition("</header>")[0]


def _menu(header: str) -> str:
    """What the header holds behind the Menu button on a phone."""
    return header.partition('<div class="header-menu" id="header-menu">')[2]


def test_the_report_links_are_off_by_default(tmp_path: Path) -> None:
    assert Config(root=tmp_path).header_reports is False
    header = _header(tmp_path)
    assert "All pages" in _menu(header)
    for report in REPORTS:
        assert report not in header, report
    assert (tmp_path / "site/broken-links.html").is_file()  # written all the same


def test_a_maintainer_turns_them_on(tmp_path: Path) -> None:
    menu = _menu(_header(tmp_path, "header_reports = true\n"))
    hrefs = re.findall(r'href="([^"]+)"', menu)
    for report in REPORTS:
        assert report in hrefs, report


@pytest.mark.parametrize(
    ("languages", "as_menu"), [(("de", "fr"), False), (("de", "es", "fr"), True)]
)
def test_more_than_three_languages_are_a_menu(
    tmp_path: Path, languages: tuple[str, ...], as_menu: bool
) -> None:
    menu = _menu(_header(tmp_path, languages=languages))
    nav = menu.partition('aria-label="Languages">')[2].partition("</nav>")[0]
    assert ('<details class="language-menu">' in nav) is as_menu
    if as_menu:
        assert "<summary>English</summary>" in nav  # inside the nav named "Languages"
    for lang in languages:
        assert f'hreflang="{lang}"' in nav  # every language is linked either way
