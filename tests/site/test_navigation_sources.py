"""The page tree from where the project keeps it (content/guides/navigation.md): an
``mkdocs.yml`` above or beside the content folder with its ``docs_dir``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.base.diagnostics import Diagnostic
from sitegen.base.paths import NodeId
from sitegen.config import load_config
from sitegen.docs.markdown import extract_page
from sitegen.generators import find_generator
from sitegen.records.pages import PageRecord
from sitegen.site.navigation import project_nav
from sitegen.site.views import NavItem

NESTED_MKDOCS = """site_name: Nested
docs_dir: docs
nav:
  - Start: index.md
  - tutorial/first.md
  - Tutorial:
    - tutorial/index.md
    - Second step: tutorial/second.md
  - gone.md
"""

PAGES = {
    "index.md": "# Home\n",
    "tutorial/index.md": "# Tutorial\n",
    "tutorial/first.md": "# First steps\n",
    "tutorial/second.md": "# Second\n",
    "alpha.md": "# Alpha, not in the nav\n",
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _pages(folder: str, content: str) -> dict[NodeId, PageRecord]:
    """Records of PAGES as they lie in ``folder``, keyed by their node under ``content``."""
    prefix = folder[len(content) :].strip("/")
    return {
        NodeId("/" + (f"{prefix}/{rel}" if prefix else rel)): extract_page(
            f"{folder}/{rel}", text.encode()
        )
        for rel, text in sorted(PAGES.items())
    }


def _titles(items: tuple[NavItem, ...]) -> list[object]:
    return [(i.title, _titles(i.children)) if i.is_folder else i.title for i in items]


@pytest.mark.parametrize("content", ["docs/en/docs", "docs/en"])
def test_mkdocs_yml_beside_the_docs_gives_the_tree(tmp_path: Path, content: str) -> None:
    _write(tmp_path, {"docs/en/mkdocs.yml": NESTED_MKDOCS})
    _write(tmp_path, {f"docs/en/docs/{rel}": text for rel, text in PAGES.items()})
    config = load_config(tmp_path, content=content)
    assert config.generator is not None
    assert (config.generator.name, config.generator.config_file) == (
        "MkDocs",
        "docs/en/mkdocs.yml",
    )
    assert config.generator.docs_dir == "docs/en/docs"
    problems: list[Diagnostic] = []
    nav, _ = project_nav(config, _pages("docs/en/docs", content), problems)
    assert nav is not None
    assert _titles(nav) == ["Start", "First steps", ("Tutorial", ["Tutorial", "Second step"])]
    prefix = "" if content == "docs/en/docs" else "docs/"
    assert nav[2].children[1].href == f"{prefix}tutorial/second.html"
    assert [(p.path, p.line, p.code) for p in problems] == [("docs/en/mkdocs.yml", 9, "mkdocs-nav")]


def test_mkdocs_yml_of_another_folder_or_above_the_root_is_not_used(tmp_path: Path) -> None:
    _write(tmp_path, {"docs/en/mkdocs.yml": NESTED_MKDOCS, "docs/es/docs/index.md": "# Hola\n"})
    assert find_generator(tmp_path, "docs/es/docs") is None
    _write(tmp_path, {"mkdocs.yml": "docs_dir: ../outside\n", "docs/index.md": "# Home\n"})
    assert find_generator(tmp_path, "docs") is None


def test_the_nearest_mkdocs_yml_wins(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "mkdocs.yml": "docs_dir: docs\nnav:\n  - index.md\n",
            "docs/en/mkdocs.yml": NESTED_MKDOCS,
            "docs/en/docs/index.md": "# Home\n",
        },
    )
    found = find_generator(tmp_path, "docs/en/docs")
    assert found is not None and found.config_file == "docs/en/mkdocs.yml"


# --- VitePress ------------------------------------------------------------------------------

VITEPRESS_CONFIG = """import { defineConfig } from 'vitepress'

export default defineConfig({
  rewrites: { 'en/:rest*': ':rest*' },
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide/intro' }, { text: 'Out', link: 'https://x.example' }],
    sidebar: {
      '/guide/': { base: '/guide/', items: guide() },
      '/fr/guide/': [{ text: 'Début', link: '/fr/guide/intro' }],
    },
  },
})

function guide() {
  return [
    { text: 'Start', items: [{ text: 'Intro', link: 'intro' }, { text: 'Next', link: 'next.html' }] },
    { text: 'Gone', link: 'gone' },
  ]
}
"""

VITEPRESS_PAGES = {
    "docs/en/index.md": "# Home\n",
    "docs/en/guide/intro.md": "# Intro page\n",
    "docs/en/guide/next.md": "# Next page\n",
    "docs/fr/guide/intro.md": "# Intro fr\n",
    "docs/fr/index.md": "# Accueil\n",
}


def _site(tmp_path: Path, config: str) -> tuple[dict[NodeId, PageRecord], object]:
    _write(tmp_path, {"docs/.vitepress/config.ts": config, **VITEPRESS_PAGES})
    loaded = load_config(tmp_path)
    pages = {
        NodeId("/" + rel.removeprefix("docs/")): extract_page(rel, text.encode())
        for rel, text in VITEPRESS_PAGES.items()
    }
    return pages, loaded


def test_vitepress_sidebar_per_path_prefix_with_rewrites(tmp_path: Path) -> None:
    pages, config = _site(tmp_path, VITEPRESS_CONFIG)
    problems: list[Diagnostic] = []
    home, per_page = project_nav(config, pages, problems)  # type: ignore[arg-type]
    en = per_page[NodeId("/en/guide/intro.md")]
    assert _titles(en) == [("Start", ["Intro", "Next"])]
    assert [c.href for c in en[0].children] == ["en/guide/intro.html", "en/guide/next.html"]
    assert per_page[NodeId("/en/guide/next.md")] is en  # one tree, shared
    assert _titles(per_page[NodeId("/fr/guide/intro.md")]) == ["Début"]
    # A page no sidebar serves shows the top nav (pages only, as the sidebar).
    assert home is not None and _titles(home) == ["Guide"]
    assert per_page[NodeId("/fr/index.md")] == home
    assert [(p.path, p.code, "'gone'" in p.message) for p in problems] == [
        ("docs/.vitepress/config.ts", "vitepress-nav", True)
    ]


def test_a_sidebar_that_is_not_a_literal_falls_back_to_the_folders(tmp_path: Path) -> None:
    config_ts = VITEPRESS_CONFIG.replace("items: guide()", "items: guide(1)")
    pages, config = _site(tmp_path, config_ts)
    problems: list[Diagnostic] = []
    assert project_nav(config, pages, problems) == (None, {})  # type: ignore[arg-type]
    assert len(problems) == 1
    assert (problems[0].path, problems[0].line, problems[0].code) == (
        "docs/.vitepress/config.ts",
        8,
        "vitepress-nav",
    )
    assert "guide(1)" in problems[0].message and "folders" in problems[0].message


def test_vitepress_additional_locale_config_gives_its_sidebar(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "docs/fr/config.ts": "export default defineAdditionalConfig({ themeConfig: "
            "{ sidebar: [{ text: 'Accueil fr', link: '/fr/' }] } })\n"
        },
    )
    pages, config = _site(tmp_path, VITEPRESS_CONFIG.replace("'/fr/guide/'", "'/xx/'"))
    _, per_page = project_nav(config, pages, [])  # type: ignore[arg-type]
    assert _titles(per_page[NodeId("/fr/guide/intro.md")]) == ["Accueil fr"]
    assert per_page[NodeId("/fr/guide/intro.md")][0].href == "fr/index.html"


def test_an_untitled_section_takes_its_first_pages_title(tmp_path: Path) -> None:
    untitled = NESTED_MKDOCS.replace("  - Tutorial:\n", '  - "":\n')
    assert untitled != NESTED_MKDOCS
    _write(tmp_path, {"docs/en/mkdocs.yml": untitled})
    _write(tmp_path, {f"docs/en/docs/{rel}": text for rel, text in PAGES.items()})
    config = load_config(tmp_path, content="docs/en/docs")
    nav, _ = project_nav(config, _pages("docs/en/docs", "docs/en/docs"), [])
    assert nav is not None
    # tutorial/index.md's title, "Tutorial", as Material's navigation.indexes shows it
    assert _titles(nav) == ["Start", "First steps", ("Tutorial", ["Tutorial", "Second step"])]
