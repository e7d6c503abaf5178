"""The site features a reader expects (issue 10, point 3), black-box through `sitegen build`:
404.html, the last-modified date from git (deterministic for a commit, none outside git),
"Edit this page", `lang`, tag pages, header links to the reports, broken links marked in
the page, and the search index (pages, sections, code symbols) that search.js reads.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, write_project

PAGES: dict[str, str | bytes] = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md) and [a gap](missing.md).\n",
    "content/guide.md": "---\ntags: [Setup, ops]\n---\n# Guide\n\nIntro.\n\n## Install step\n\nRun \\</script> it.\n",
    "content/notes/other.md": "---\ntags: setup\n---\n# Other\n\nText.\n",
    "lib/tool.py": "class Engine:\n    def start(self):\n        return 1\n",
    "sitegen.toml": 'title = "Feat"\nsource = ["lib"]\nlang = "pt-BR"\nheader_reports = true\n'
    'repo_url = "https://github.com/acme/feat"\n',
}


def _build(root: Path) -> subprocess.CompletedProcess[str]:
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return proc


def _git(root: Path, *args: str, date: str = "2021-03-04T05:06:07+00:00") -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    root = write_project(tmp_path / "proj", PAGES)
    _build(root)
    return root / "site"


def test_404_page_has_search_and_sections(built: Path) -> None:
    html = (built / "404.html").read_text()
    assert "<h1>Page not found</h1>" in html
    assert 'id="search-input"' in html
    assert 'href="notes/other.html"' in html or 'href="notes/' in html


def test_lang_is_on_every_page(built: Path) -> None:
    for rel in ("index.html", "guide.html", "404.html", "broken-links.html", "tags/index.html"):
        assert '<html lang="pt-BR">' in (built / rel).read_text(), rel


def test_a_bad_lang_is_one_line_and_exit_2(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", {**PAGES, "sitegen.toml": 'lang = "en US<"\n'})
    proc = run_cli("build", "--root", str(root))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "option 'lang'" in proc.stderr


def test_edit_link_from_repo_url_and_edit_uri(built: Path, tmp_path: Path) -> None:
    assert (
        'href="https://github.com/acme/feat/edit/main/content/notes/other.md">Edit this page'
        in (built / "notes" / "other.html").read_text()
    )
    root = write_project(
        tmp_path / "own",
        {
            **PAGES,
            "sitegen.toml": 'repo_url = "https://git.example.org/feat/"\n'
            'edit_uri = "src/branch/trunk/content/"\n',
        },
    )
    _build(root)
    assert (
        'href="https://git.example.org/feat/src/branch/trunk/content/guide.md"'
        in (root / "site" / "guide.html").read_text()
    )


def test_no_edit_link_without_repo_url(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", {**PAGES, "sitegen.toml": 'title = "Feat"\n'})
    _build(root)
    assert "Edit this page" not in (root / "site" / "guide.html").read_text()


def test_tags_have_pages_and_pages_link_their_tags(built: Path) -> None:
    guide = (built / "guide.html").read_text()
    assert '<a href="tags/setup.html" rel="tag">Setup</a>' in guide
    assert '<a href="tags/ops.html" rel="tag">ops</a>' in guide
    ops = _main((built / "tags" / "ops.html").read_text())
    assert 'href="../guide.html"' in ops and "other.html" not in ops
    index = _main((built / "tags" / "index.html").read_text())
    assert 'href="ops.html"' in index and 'href="setup.html"' in index
    # "Setup" and "setup" share one page, named as the first page spells it
    setup = _main((built / "tags" / "setup.html").read_text())
    assert 'href="../guide.html"' in setup and 'href="../notes/other.html"' in setup
    assert "Tag: Setup" in setup
    assert (
        'href="../tags/setup.html" rel="tag">setup</a>'
        in (built / "notes" / "other.html").read_text()
    )


def _main(html: str) -> str:
    found = re.search(r"<main.*?</main>", html, re.DOTALL)
    assert found is not None
    return found.group(0)


def test_header_links_to_every_report(built: Path) -> None:
    header = re.search(
        r'<nav class="site-links".*?</nav>', (built / "notes" / "other.html").read_text(), re.DOTALL
    )
    assert header is not None
    for title, href in (
        ("All pages", "../pages.html"),
        ("Broken links", "../broken-links.html"),
        ("Cycles", "../cycles.html"),
        ("Missing links", "../missing-links.html"),
        ("Graph", "../graph.html"),
    ):
        assert f'<a href="{href}">{title}</a>' in header.group(0)
        assert (built / href[3:]).is_file()


def test_broken_links_are_marked_where_they_occur(built: Path) -> None:
    html = (built / "index.html").read_text()
    assert re.search(r'<a href="missing.md" class="broken-link"[^>]*>a gap</a>', html)
    assert re.search(r'<a href="guide.html">the guide</a>', html)


def test_no_date_outside_a_git_checkout(built: Path) -> None:
    assert "Last modified" not in (built / "guide.html").read_text()


def test_last_modified_date_comes_from_the_last_commit_of_the_page(tmp_path: Path) -> None:
    root = write_project(tmp_path / "proj", PAGES)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "one")
    (root / "content" / "guide.md").write_text(str(PAGES["content/guide.md"]) + "\nMore.\n")
    _git(root, "commit", "-qam", "two", date="2022-11-12T10:00:00+00:00")
    _build(root)
    guide = (root / "site" / "guide.html").read_text()
    assert '<time datetime="2022-11-12">2022-11-12</time>' in guide
    assert (
        '<time datetime="2021-03-04">2021-03-04</time>'
        in (root / "site" / "index.html").read_text()
    )
    first = guide
    _build(root)  # the same commit: the same bytes
    assert (root / "site" / "guide.html").read_text() == first
    _git(root, "commit", "-q", "--allow-empty", "-m", "three", date="2023-01-01T00:00:00+00:00")
    _build(root)  # a new commit that did not touch the page keeps its date
    assert '<time datetime="2022-11-12">' in (root / "site" / "guide.html").read_text()


def _index(site: Path) -> dict[str, object]:
    """The index scripts of a built site, each read as its name and data."""
    from tests.site.search_model import parse

    scripts = [site / "search-index.js", *sorted((site / "search-index").iterdir())]
    return dict(parse(path.read_text(encoding="utf-8")) for path in scripts)


def test_search_index_holds_sections_and_symbols(built: Path) -> None:
    index = _index(built)
    # A page script holds the chunks of a group of pages (its manifest says how many).
    groups = [data for name, data in index.items() if name.startswith("p")]
    chunks = [chunk for group in groups for chunk in group]  # type: ignore[attr-defined]
    assert [
        "guide.html",
        "Guide",
        [["Guide", "", "Intro."], ["Install step", "install-step", "Run </script> it."]],
    ] in chunks
    symbols = {s[0]: s[2] for s in index["symbols"]}  # type: ignore[union-attr]
    assert symbols["Engine"] == "code/lib/tool.py.html#L1"
    assert symbols["Engine.start"] == "code/lib/tool.py.html#L2"
    manifest = index["manifest"]
    assert isinstance(manifest, dict) and len(manifest["sections"]) == len(chunks)
    for path in [built / "search-index.js", *(built / "search-index").iterdir()]:
        assert "</script" not in path.read_text(encoding="utf-8")


def test_the_built_site_carries_no_live_reload(built: Path) -> None:
    assert not any(b"__sitegen" in p.read_bytes() for p in built.rglob("*") if p.is_file())
