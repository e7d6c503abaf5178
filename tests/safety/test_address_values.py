"""Front-matter addresses and old addresses are paths of the site, never markup, a script URL
or a way out of the output folder (content/guides/urls.md, content/guides/safety.md): a
hostile ``aliases``, ``redirect_from``, ``permalink`` or ``redirect_maps`` value writes no file
outside the site and nothing of itself into any page."""

from __future__ import annotations

import os
from pathlib import Path

from tests.safety.conftest import make_project, sitegen

HOSTILE = [
    '"><script>alert(1)</script>',
    "javascript:alert(1)",
    " JaVaScRiPt:alert(2)",
    "data:text/html,<b>x</b>",
    "../../../../escaped/",
    "/%2e%2e/%2e%2e/escaped2/",
    "//evil.example/x",
    "/ok/<img src=x onerror=alert(3)>/",
]


def _yaml_list(values: list[str]) -> str:
    return "".join("  - '" + v.replace("'", "''") + "'\n" for v in values)


def test_hostile_old_addresses_write_no_markup_and_nothing_outside(tmp_path: Path) -> None:
    files = {
        "content/index.md": "# Home\n\n[target](target.md)\n",
        "content/target.md": "---\ntitle: Target <b>bold</b>\naliases:\n"
        + _yaml_list(HOSTILE)
        + "redirect_from:\n"
        + _yaml_list(HOSTILE)
        + "---\n# Target\n",
        "content/evil.md": "---\npermalink: 'javascript:alert(4)'\n---\n# Evil\n",
        "mkdocs.yml": "docs_dir: content\nplugins:\n  - redirects:\n      redirect_maps:\n"
        "        'x.md': 'javascript:alert(5)'\n        'y.md': 'target.md#\"><script>'\n"
        "        '../../z.md': 'target.md'\n",
    }
    root = make_project(tmp_path, files)
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    site = root / "site"
    assert not (tmp_path / "escaped").exists() and not (root / "escaped").exists()
    assert not (root / "escaped2").exists() and not (root / "z").exists()
    written = [Path(d) / f for d, _, fs in os.walk(site) for f in fs]
    assert all(p.resolve().is_relative_to(site.resolve()) for p in written)
    for page in written:
        if page.suffix != ".html":
            continue
        text = page.read_text().lower()
        assert "<script>alert" not in text and "onerror=alert" not in text, page
        for attribute in ('href="', 'src="', "url="):
            assert f"{attribute}javascript:" not in text, page
            assert f"{attribute}data:text/html" not in text, page
    # the one value that is a path of the site makes a redirect; its text is escaped there
    redirects = [p for p in written if "Moved:" in p.read_text(errors="replace")]
    assert redirects, "no redirect page was written"
    for page in redirects:
        assert "Target &lt;b&gt;bold&lt;/b&gt;" in page.read_text()
    for value in HOSTILE:
        assert f"aliases '{value.strip()}' is not a path of the site" in proc.stderr
    assert "permalink 'javascript:alert(4)' is not a path of the site" in proc.stderr
