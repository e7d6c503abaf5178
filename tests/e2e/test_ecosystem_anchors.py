"""A small project per ecosystem, built end to end: the anchors its authors wrote for their own
generator (VitePress, MkDocs with Python-Markdown's toc, MkDocs with pymdownx.slugs) all
resolve, ``[[toc]]`` and ``[TOC]`` render tables and no link, and VitePress's ``public/``
files are published at the site root (content/reference/headings.md#slug-styles)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sitegen.base.diagnostics import Diagnostic
from sitegen.build import build
from sitegen.config import load_config
from sitegen.link.anchor_aliases import ANCHOR_MOVED
from sitegen.records.linked import BROKEN_ANCHOR, BROKEN_LINK
from sitegen.records.result import BuildOptions, BuildResult
from tests.e2e.conftest import write_project

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16

VITEPRESS: dict[str, str | bytes] = {
    "docs/.vitepress/config.ts": "export default { title: 'Fixture' }\n",
    "docs/public/search.png": PNG,
    "docs/index.md": """# Home

[[toc]]

## What's new in 2.0?

Start with [the CLI](./guide/start.md#install-the-cli), [again](guide/start.md#install-the-cli-1),
the [roadmap](/api.md#_2024-roadmap) and [`defineStore`](./api#definestore), or
[this section](#what-s-new-in-2-0). ![Search](/search.png)

### Café & Crème

[Here](#cafe-creme).
""",
    "docs/guide/start.md": """# Getting started

## Install the CLI <Badge type="tip" text="beta" />

## Install the CLI <Badge text="again" />
""",
    "docs/api.md": '# API\n\n## 2024 roadmap\n\n## `defineStore()` <Badge text="v2"/>\n',
}

MKDOCS: dict[str, str | bytes] = {
    "mkdocs.yml": "site_name: Fixture\nmarkdown_extensions:\n  - toc:\n      permalink: true\n",
    "docs/index.md": """# Home

[TOC]

## What's new in 2.0?

See [setup](guide.md#setup_1), [news](#whats-new-in-20), [Straße](guide.md#strae) and
[the guide's title](guide.md#guide).
""",
    "docs/guide.md": "# Guide\n\n## Setup\n\n## Setup\n\n## Straße\n",
}

PYMDOWNX: dict[str, str | bytes] = {
    "mkdocs.yml": (
        "site_name: Fixture\nmarkdown_extensions:\n  - toc:\n"
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify\n"
        "        kwds:\n          case: lower\n"
    ),
    "docs/index.md": "# Home\n\nSee [it](guide.md#café--crème) and [dup](guide.md#a---b_1).\n",
    "docs/guide.md": "# Guide\n\n## Café & Crème\n\n## a - b\n\n## a - b\n",
}


def _build(root: Path) -> BuildResult:
    return build(load_config(root), BuildOptions(jobs=1, quiet=True))


def _link_problems(result: BuildResult) -> list[str]:
    """Broken links and anchors, and every other warning but the one a Vue component gets
    (issue 21: its text is kept, one unsupported-syntax warning per name and page)."""
    return [
        f"{d.path}:{d.line}: {d.message}"
        for d in result.diagnostics
        if d.code in (BROKEN_LINK, BROKEN_ANCHOR)
        or (d.level == "warning" and d not in _component_warnings(result))
    ]


def _component_warnings(result: BuildResult) -> list[Diagnostic]:
    return [
        d
        for d in result.diagnostics
        if d.code == "unsupported-syntax" and d.message.startswith("the Vue component <")
    ]


def test_a_vitepress_project_builds_without_anchor_warnings(tmp_path: Path) -> None:
    root = write_project(tmp_path / "vp", VITEPRESS)
    result = _build(root)
    assert result.config.slugs == "vitepress"
    assert _link_problems(result) == []
    # The headings' <Badge> components: one warning per page, where each is first written.
    assert [(d.path, d.line) for d in _component_warnings(result)] == [
        ("docs/api.md", 5),
        ("docs/guide/start.md", 3),
    ]
    assert result.linked.broken == []
    start = next(p for p in result.pages if p.path == "docs/guide/start.md")
    assert [h.id for h in start.headings] == [
        "getting-started",
        "install-the-cli",
        "install-the-cli-1",
    ]
    site = root / "site"
    assert (site / "search.png").read_bytes() == PNG
    assert not (site / "public").exists()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'src="search.png"' in home
    toc = re.search(r'<nav class="table-of-contents">.*?</nav>', home)
    assert toc is not None
    assert 'href="#what-s-new-in-2-0"' in toc.group(0)
    assert 'href="#cafe-creme"' in toc.group(0)
    assert 'id="what-s-new-in-2-0"' in home


def test_a_mkdocs_project_builds_without_anchor_warnings(tmp_path: Path) -> None:
    root = write_project(tmp_path / "mk", MKDOCS)
    result = _build(root)
    assert result.config.slugs == "mkdocs"
    assert _link_problems(result) == []
    home = (root / "site" / "index.html").read_text(encoding="utf-8")
    toc = re.search(r'<nav class="table-of-contents">.*?</nav>', home)
    assert toc is not None and 'href="#whats-new-in-20"' in toc.group(0)
    assert "[TOC]" not in home


def test_a_pymdownx_project_builds_without_anchor_warnings(tmp_path: Path) -> None:
    root = write_project(tmp_path / "px", PYMDOWNX)
    result = _build(root)
    assert result.config.slugs == "pymdownx"
    assert _link_problems(result) == []
    # guide.html, or guide/index.html where mkdocs.yml's URL style is followed
    (page,) = [
        p
        for p in (root / "site").rglob("*.html")
        if p.match("guide*.html") or p.match("guide/index.html")
    ]
    guide = page.read_text(encoding="utf-8")
    assert 'id="café--crème"' in guide
    assert 'id="a---b_1"' in guide


def test_the_same_anchors_under_githubs_style_are_reported(tmp_path: Path) -> None:
    files = dict(MKDOCS)
    files["sitegen.toml"] = 'slugs = "github"\n'
    result = _build(write_project(tmp_path / "gh", files))
    anchors = sorted(d.message for d in result.diagnostics if d.code == BROKEN_ANCHOR)
    # whats-new-in-20 and guide are GitHub's ids too; setup_1 and strae are not
    assert [m.split(":")[0] for m in anchors] == [
        "link 'guide.md#setup_1'",
        "link 'guide.md#strae'",
    ]


def test_a_page_built_under_another_style_is_extracted_again(tmp_path: Path) -> None:
    root = write_project(tmp_path / "vp", VITEPRESS)
    assert _link_problems(_build(root)) == []
    shutil.rmtree(root / "docs" / ".vitepress")
    again = _build(root)
    assert again.config.slugs == "github"
    home = next(p for p in again.pages if p.path == "docs/index.md")
    assert [h.id for h in home.headings][:2] == ["home", "whats-new-in-20"]
    # The store kept the VitePress ids (issue 20, anchors that last): a link written for
    # them lands on the alias with an info line, and is no broken anchor ...
    moved = [d for d in again.diagnostics if d.code == ANCHOR_MOVED and "link '" in d.message]
    assert ("docs/index.md", 9, 1) in [(d.path, d.line, d.col) for d in moved]
    assert not any(d.code == BROKEN_ANCHOR for d in again.diagnostics)
    # ... and without the store, the same links are broken anchors.
    shutil.rmtree(root / ".sitegen")
    assert any(d.code == BROKEN_ANCHOR for d in _build(root).diagnostics)
    # without the configuration, /search.png is no longer the public folder's
    assert any(d.code == BROKEN_LINK and "/search.png" in d.message for d in again.diagnostics)
    write_project(root, {"docs/.vitepress/config.ts": "export default {}\n"})
    assert _link_problems(_build(root)) == []
