"""What a Docusaurus project publishes (issue 29, point 2): .mdx pages, its include and
exclude (partials never pages), and its static folders at the site root."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.layout import slugs_reason
from sitegen.records.result import BuildOptions
from sitegen.state.ownership import files_below

PROJECT = {
    "website/docusaurus.config.js": (
        "module.exports = { presets: [['classic', { docs: { path: '../docs',"
        " routeBasePath: '/', include: ['{guide,api}/**/*.{md,mdx}', 'intro.mdx'] } }]] }\n"
    ),
    "docs/intro.mdx": "# Intro\n\n![Logo](/img/logo.png)\n\nSee [the guide](guide/start.md).\n",
    "docs/guide/start.md": "# Start\n",
    "docs/guide/_partial.md": "A partial, imported by a page.\n",
    "docs/guide/_parts/more.mdx": "Another.\n",
    "docs/notes.md": "# Not included\n",
    "website/static/img/logo.png": "png\n",
    "website/static/robots.txt": "User-agent: *\n",
}


def _project(root: Path) -> Path:
    for name, text in {**PROJECT, "sitegen.toml": 'content = "docs"\n'}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_pages_docusaurus_publishes_are_read(tmp_path: Path) -> None:
    config = load_config(_project(tmp_path))
    found = crawl(config)
    assert [p.path for p in found.pages] == ["docs/guide/start.md", "docs/intro.mdx"]
    assert "website/static/img/logo.png" in found.assets
    assert "docs/guide/_partial.md" in found.all_paths  # listed (a link may name it), unread
    assert build_reads(config, tmp_path / "docs/guide/_partial.md") is Reads.NAME
    assert build_reads(config, tmp_path / "website/static/robots.txt") is Reads.BYTES


@pytest.mark.slow
def test_static_files_are_published_at_the_site_root(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = build(load_config(root), BuildOptions(jobs=1, quiet=True))
    site = set(files_below(root / "site"))
    assert {"img/logo.png", "robots.txt"} <= site  # at the root, linked or not
    # The pages themselves, at whatever address the URL style gives them.
    assert {str(result.addresses.pages[n]) for n in ("/intro.mdx", "/guide/start.md")} <= site
    assert not any("partial" in path or "notes" in path for path in site)
    assert result.config.generator is not None
    assert result.config.generator.config_file == "website/docusaurus.config.js"


def test_the_layout_line_names_the_config_and_the_static_folder(tmp_path: Path) -> None:
    config = load_config(_project(tmp_path))
    assert slugs_reason(config) == (
        "heading ids in the github style (found website/docusaurus.config.js), "
        "website/static/ published at the site root"
    )
