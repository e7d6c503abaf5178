"""Every href the site writes leads to a file that exists, and every fragment to an id in it:
on fixtures (folders indexed by README.md, wikilinks, attribute and HTML anchors) and on this
repository's own site."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.e2e.conftest import run_cli, write_project
from tests.e2e.sitewalk import walk_site

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parents[1] / "docs" / "fixtures" / "syntax"

README_PAGES: dict[str, str | bytes] = {
    "content/README.md": "# Project\n\nSee [the guide](guide/README.md), [its folder](guide/),\n"
    "[a page](guide/page.md#custom-id) and [[page#Second part]].\n",
    "content/guide/README.md": "# Guide\n\nBack [home](../README.md) or [up](../).\n\n"
    "- [[Page]]\n- [[Notes|the notes]]\n",
    "content/guide/page.md": '# Page\n\nStart {#custom-id}\n\n<a name="legacy"></a>\n\n'
    "## Second part\n\nSee [legacy](#legacy), [guide](README.md),\n"
    "[the root](../README.md#project) and ![[pic.png]].\n",
    "content/guide/pic.png": b"\x89PNG\r\n\x1a\n" + bytes(32),
    "content/notes/notes.md": "---\ntitle: Notes\n---\nSee [[Page#Second part]].\n",
    "sitegen.toml": 'title = "Walk"\n',
}


def _built(root: Path) -> Path:
    proc = run_cli("build", "--root", str(root), "--jobs", "1", "--strict")
    assert proc.returncode == 0, proc.stderr
    return root / "site"


def test_readme_folders_and_wikilinks_leave_no_dead_href(tmp_path: Path) -> None:
    pages = dict(README_PAGES)
    pages.update({f"content/syntax/{p.name}": p.read_bytes() for p in FIXTURES.glob("*.md")})
    site = _built(write_project(tmp_path / "proj", pages))
    assert (site / "index.html").is_file() and (site / "guide/index.html").is_file()
    assert not (site / "README.html").exists()
    walk = walk_site(site)
    assert walk.hrefs > 50
    assert walk.dead == [] and walk.bad_fragments == []
    home = (site / "index.html").read_text()
    assert 'href="guide/index.html"' in home and 'href="guide/page.html#custom-id"' in home
    assert 'href="guide/page.html#second-part"' in home


def test_this_repositorys_site_has_no_dead_href(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(
        REPO,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            "site",
            ".sitegen",
            ".venv",
            "venv",
            "__pycache__",
            "*.egg-info",
            "tests",
            "bench",
        ),
    )
    walk = walk_site(_built(copy))
    assert walk.pages > 20
    assert walk.dead == [] and walk.bad_fragments == []


def test_the_page_tree_follows_mkdocs_yml(tmp_path: Path) -> None:
    pages = dict(README_PAGES)
    pages["mkdocs.yml"] = (
        "site_name: Walk\ndocs_dir: content\nnav:\n  - Notes first: "
        "notes/notes.md\n  - Start: README.md\n  - Guide:\n"
        "      - guide/page.md\n"
    )
    site = _built(write_project(tmp_path / "proj", pages))
    # mkdocs.yml without use_directory_urls: MkDocs' directory URLs (content/guides/urls.md)
    page = (site / "guide/page/index.html").read_text()
    tree = page.split('class="sidebar"')[1].split("</aside>")[0]
    order = [tree.index(t) for t in (">Notes first<", ">Start<", ">Guide<", ">Page<")]
    assert order == sorted(order)
    assert ">Guide<" not in tree.split(">Page<")[1]  # guide/README.md is not in the nav
