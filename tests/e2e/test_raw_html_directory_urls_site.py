"""Raw HTML written for MkDocs' directory URLs, built end to end (issue 30, point 6): each
``<img src>``/``<a href>`` read from the page's URL (``a/b/``) reaches its target in
sitegen's output in either of sitegen's URL styles, and the images are published
(content/guides/linking.md#raw-html-read-from-the-pages-url)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, write_project
from tests.e2e.sitewalk import walk_site

PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)
PROJECT: dict[str, str | bytes] = {
    "mkdocs.yml": "site_name: Raw\n",
    "docs/index.md": "# Home\n\n[Cards](setup/cards.md)\n",
    # on setup/cards/ the browser reads ../../ as the root: assets/shot.png, types/color/
    "docs/setup/cards.md": (
        "# Cards\n\n"
        '<figure><img src="../../assets/shot.png" alt="shot"></figure>\n\n'
        '<p><a href="../../types/color/">color</a> '
        '<a href="../../../../types/color/#hex">clamped</a></p>\n'
    ),
    "docs/types/color.md": "# Color\n\n## Hex\n",
    "docs/assets/shot.png": PNG,
}


@pytest.mark.parametrize("urls", ["", 'urls = "html"\n'])
def test_raw_html_for_directory_urls_works_in_the_output(tmp_path: Path, urls: str) -> None:
    root = write_project(tmp_path / "p", {**PROJECT, "sitegen.toml": urls})
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "does not exist" not in proc.stderr and "outside the project" not in proc.stderr
    site = root / "site"
    assert (site / "assets/shot.png").read_bytes() == PNG
    walk = walk_site(site)
    assert walk.dead == [] and walk.bad_fragments == []
    page = site / ("setup/cards.html" if urls else "setup/cards/index.html")
    html = page.read_text()
    assert 'alt="shot"' in html and "assets/shot.png" in html and "#hex" in html
