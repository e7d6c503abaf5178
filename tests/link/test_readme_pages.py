"""Issue 9, point 3: a link to a README.md elsewhere in the repository reaches a page, as it
does on GitHub. A source folder's README is published beside the source pages
(``pkg/README.md`` -> ``code/pkg/README.md.html``), and its own links resolve from its folder."""

from __future__ import annotations

from pathlib import Path

from tests.safety.conftest import make_project, sitegen


def test_links_to_readmes_outside_the_content_reach_their_pages(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "content/index.md": "# Home\n\nSee [the project](../README.md) and [pkg](../pkg/README.md).\n",
            "README.md": "# The project\n\nDocs are in [content](content/index.md).\n",
            "pkg/README.md": "# Package pkg\n\nThe code is [app.py](app.py).\n",
            "pkg/app.py": "x = 1\n",
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert ": warning:" not in proc.stderr and "0 broken links" in proc.stderr, proc.stderr
    site = root / "site"
    home = (site / "index.html").read_text()
    assert 'href="code/README.md.html"' in home and 'href="code/pkg/README.md.html"' in home
    readme = (site / "code/pkg/README.md.html").read_text()
    assert "Package pkg" in readme
    assert 'href="app.py.html"' in readme  # its own link, resolved from its folder
    # Backlinks: the home page links to the package README.
    assert "Home" in readme[readme.index('id="sitegen-backlinks"') :]
