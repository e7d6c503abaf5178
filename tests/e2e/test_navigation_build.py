"""Navigation from where the project keeps it, built end to end (content/guides/navigation.md):
a VitePress site's sidebars and home page, an mkdocs.yml beside the docs, and an edit of the
configuration rebuilt incrementally to the bytes of a clean build."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sitegen.build import BuildOptions, build
from sitegen.config import load_config
from tests.e2e.conftest import write_project

QUIET = BuildOptions(jobs=1, quiet=True)

VITEPRESS: dict[str, str | bytes] = {
    "sitegen.toml": 'title = "Demo"\n',
    "docs/.vitepress/config.mts": """import { defineConfig } from 'vitepress'
export default defineConfig({
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide/intro' }],
    sidebar: { '/guide/': [{ text: 'Basics', items: [
      { text: 'Intro <i>', link: '/guide/intro' }, { text: 'Setup', link: '/guide/setup' } ] }] },
  },
})
""",
    "docs/index.md": "---\nlayout: home\nhero:\n  name: Demo\n  tagline: <em>fast</em>\n"
    "  actions:\n    - text: Begin\n      link: /guide/intro\nfeatures:\n  - title: One\n"
    "    details: First\n---\n",
    "docs/guide/intro.md": "# Intro\n\nSee [setup](setup.md).\n",
    "docs/guide/setup.md": "# Setup\n",
    "docs/alpha.md": "# Alpha\n",
}


def _sidebar(html: str) -> list[str]:
    found = re.search(r'<aside class="sidebar".*?</aside>', html, re.S)
    return re.findall(r"<a href=\"[^\"]*\"[^>]*>([^<]*)</a>", found.group(0)) if found else []


def _site(root: Path) -> dict[str, bytes]:
    site = root / "site"
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_vitepress_sidebar_and_home_page(tmp_path: Path) -> None:
    root = write_project(tmp_path / "vp", VITEPRESS)
    result = build(load_config(root), QUIET)
    assert not [d for d in result.diagnostics if d.code == "vitepress-nav"]
    intro = (root / "site/guide/intro.html").read_text()
    assert _sidebar(intro) == ["Intro &lt;i&gt;", "Setup"]
    home = (root / "site/index.html").read_text()
    assert _sidebar(home) == ["Guide"]
    assert '<h1 class="home-name">Demo</h1>' in home
    assert "&lt;em&gt;fast&lt;/em&gt;" in home
    assert 'href="guide/intro.html">Begin</a>' in home


def test_a_config_edit_rebuilds_to_the_clean_bytes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "inc", VITEPRESS)
    build(load_config(root), QUIET)
    config = root / "docs/.vitepress/config.mts"
    config.write_text(config.read_text().replace("'Setup'", "'Set it up'"))
    build(load_config(root), QUIET)
    assert "Set it up" in (root / "site/guide/intro.html").read_text()
    clean = tmp_path / "clean"
    shutil.copytree(root / "docs", clean / "docs")
    shutil.copy(root / "sitegen.toml", clean / "sitegen.toml")
    build(load_config(clean), QUIET)
    assert _site(root) == _site(clean)


def test_mkdocs_yml_beside_the_docs(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "mk",
        {
            "sitegen.toml": 'content = "docs/en/docs"\nurls = "html"\n',
            "docs/en/mkdocs.yml": "docs_dir: docs\nnav:\n  - Start: index.md\n  - z.md\n  - a.md\n",
            "docs/en/docs/index.md": "# Home\n",
            "docs/en/docs/a.md": "# A page\n",
            "docs/en/docs/z.md": "# Z page\n",
        },
    )
    build(load_config(root), QUIET)
    assert _sidebar((root / "site/a.html").read_text()) == ["Start", "Z page", "A page"]
