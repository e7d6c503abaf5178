"""What a build does with an Obsidian vault or a Quartz site (content/guides/obsidian.md): its
own folders only, Obsidian Publish's publish.css linked from every page, Quartz's
ignorePatterns, pageTitle and baseUrl. Fixtures are written here."""

from __future__ import annotations

import time
from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config
from sitegen.crawl import Reads, build_reads, crawl
from sitegen.layout import UnreadFiles, layout_line
from sitegen.records.result import BuildOptions, BuildResult
from tests.e2e.conftest import write_project

VAULT: dict[str, str | bytes] = {
    "sitegen.toml": 'content = "en"\n',
    "README.md": "# The repository\n\nSee [the script](scripts/build.py).\n",
    "scripts/README.md": "# Scripts\n",
    "scripts/build.py": "def main() -> None:\n    pass\n",
    "en/publish.css": ".published-container { color: teal; }\n",
    "en/Home.md": "---\npermalink: /\n---\n# Help\n\nRead [[Guide]].\n",
    "en/Guides/Guide.md": "# Guide\n\nBack [[Home]].\n",
}

QUARTZ: dict[str, str | bytes] = {
    "quartz.config.ts": """const config = {
  configuration: {
    pageTitle: "Garden of Notes",
    baseUrl: "notes.example.org",
    ignorePatterns: ["private", "templates", "**/drafts"],
  },
}
export default config
""",
    "quartz/build.ts": "export const x = 1\n",
    "content/index.md": "---\ntitle: Welcome\n---\nHello.\n",
    "content/private/secret.md": "# Secret\n",
    "content/templates/daily.md": "# {{date}}\n",
    "content/notes/drafts/wip.md": "# Work in progress\n",
    "content/notes/a.md": "# A\n",
    "content/notes/private/kept.md": "# Kept: only content/private is ignored\n",
}


def _build(root: Path) -> BuildResult:
    return build(load_config(root), BuildOptions(jobs=1, quiet=True))


def test_a_vault_reads_its_own_folders_only(tmp_path: Path) -> None:
    root = write_project(tmp_path / "help", VAULT)
    result = _build(root)
    assert sorted(p.path for p in result.pages) == ["en/Guides/Guide.md", "en/Home.md"]
    assert result.crawl.code == []
    assert not (root / "site/README.html").exists()
    assert result.config.site_title == "Help"  # the permalink: / note's title
    line = layout_line(result.config)
    assert (
        "no source files: the content is an Obsidian vault (found en/publish.css); "
        "set source to read code"
    ) in line
    why = UnreadFiles(result.config, result.crawl)("scripts/build.py")
    assert why == (
        "is not analysed: the content is an Obsidian vault (found en/publish.css); "
        "set source to read code"
    )


def test_a_vault_reads_source_when_it_is_configured(tmp_path: Path) -> None:
    pages = {**VAULT, "sitegen.toml": 'content = "en"\nsource = ["scripts"]\n'}
    result = _build(write_project(tmp_path / "help", pages))
    assert [f.path for f in result.crawl.code] == ["scripts/build.py"]
    assert "en/Home.md" in {p.path for p in result.pages}
    assert "source files from scripts/ (source set in sitegen.toml)" in layout_line(result.config)


def test_publish_css_is_linked_from_every_page_after_the_theme(tmp_path: Path) -> None:
    root = write_project(tmp_path / "help", VAULT)
    _build(root)
    assert (root / "site/publish.css").read_text(encoding="utf-8").startswith(".published")
    front = (root / "site/index.html").read_text(encoding="utf-8")
    assert front.index('href="style.css"') < front.index(
        '<link rel="stylesheet" href="publish.css"'
    )
    guide = (root / "site/Guides/Guide.html").read_text(encoding="utf-8")
    assert '<link rel="stylesheet" href="../publish.css">' in guide
    report = (root / "site/broken-links.html").read_text(encoding="utf-8")
    assert 'href="publish.css"' in report


def test_no_publish_css_no_link(tmp_path: Path) -> None:
    pages = {k: v for k, v in VAULT.items() if k != "en/publish.css"}
    root = write_project(tmp_path / "help", pages)
    (root / "en/.obsidian").mkdir()
    _build(root)
    assert "publish.css" not in (root / "site/index.html").read_text(encoding="utf-8")


def test_quartz_ignore_patterns_title_and_base_url(tmp_path: Path) -> None:
    root = write_project(tmp_path / "garden", QUARTZ)
    result = _build(root)
    assert sorted(p.path for p in result.pages) == [
        "content/index.md",
        "content/notes/a.md",
        "content/notes/private/kept.md",
    ]
    assert result.crawl.code == []  # Quartz's own code is not the site's
    assert result.config.site_title == "Garden of Notes"
    assert result.config.base_url == "https://notes.example.org"
    assert (root / "site/sitemap.xml").is_file()
    assert "no source files: the content is a Quartz site (found quartz.config.ts)" in (
        layout_line(result.config)
    )


def test_a_set_title_and_base_url_win_over_quartz(tmp_path: Path) -> None:
    pages = {
        **QUARTZ,
        "sitegen.toml": 'title = "Mine"\nbase_url = "https://mine.example.com/"\n',
    }
    result = _build(write_project(tmp_path / "garden", pages))
    assert result.config.site_title == "Mine"
    assert result.config.base_url == "https://mine.example.com/"


def test_a_quartz_value_sitegen_cannot_read_is_one_warning(tmp_path: Path) -> None:
    pages = {
        **QUARTZ,
        "quartz.config.ts": "export default { configuration: { pageTitle: name() } }\n",
    }
    result = _build(write_project(tmp_path / "garden", pages))
    found = [d for d in result.diagnostics if d.code == "generator-config"]
    assert [(d.path, d.line, d.level) for d in found] == [("quartz.config.ts", 1, "warning")]
    assert result.config.site_title == "Welcome"  # the home page's title, as before


def test_serve_does_not_rebuild_on_a_file_quartz_ignores(tmp_path: Path) -> None:
    root = write_project(tmp_path / "garden", QUARTZ)
    config = load_config(root)
    assert build_reads(config, root / "content/private/secret.md") is Reads.NOTHING
    assert build_reads(config, root / "content/notes/drafts/wip.md") is Reads.NOTHING
    assert build_reads(config, root / "content/notes/a.md") is Reads.BYTES
    assert build_reads(config, root / "quartz/build.ts") is not Reads.BYTES


def test_obsidian_publish_navigation_order(tmp_path: Path) -> None:
    """site-options.json's navigationOrdering orders folders and notes; the others follow,
    folders first, by name, as sitegen orders any folder."""
    options = (
        '{"siteName": "Vault Help", "navigationOrdering": '
        '["Zeta", "Zeta/Second.md", "Zeta/First.md", "Alpha/Only.md", "Loose.md"]}'
    )
    pages = {
        **VAULT,
        "en/site-options.json": options,
        "en/Zeta/First.md": "# First\n",
        "en/Zeta/Second.md": "# Second\n",
        "en/Zeta/Third.md": "# Third\n",
        "en/Alpha/Only.md": "# Only\n",
        "en/Loose.md": "# Loose\n",
        "en/Another.md": "# Another\n",
    }
    root = write_project(tmp_path / "help", pages)
    result = _build(root)
    assert result.config.site_title == "Vault Help"
    front = (root / "site/index.html").read_text(encoding="utf-8")
    nav = front.split('id="sidebar"', 1)[1].split("</nav>", 1)[0]
    shown = [
        t
        for t in ("Help", "Zeta", "Second", "First", "Third", "Loose", "Alpha", "Guides", "Another")
        if f">{t}<" in nav
    ]
    assert sorted(shown, key=lambda t: nav.index(f">{t}<")) == [
        "Help",  # the home page first
        "Zeta",  # listed first
        "Second",
        "First",
        "Third",  # not listed: after its listed siblings
        "Loose",  # listed, at the top level after the listed folder
        "Alpha",  # not listed: folders first, by name
        "Guides",
        "Another",
    ]


def test_the_guide_quotes_the_layout_line(tmp_path: Path) -> None:
    guide = (Path(__file__).parents[2] / "content/guides/obsidian.md").read_text("utf-8")
    root = write_project(tmp_path / "help", VAULT)
    assert f"sitegen: {layout_line(load_config(root))}\n" in guide


def test_an_ignore_pattern_of_many_stars_is_matched_in_linear_time(tmp_path: Path) -> None:
    """A regular expression of 100 ``*a`` would backtrack for ever on a long name (8 took 38 s
    on 60 characters with pathspec); the glob is matched segment by segment instead."""
    stars = "*a" * 100 + "b"
    pages = {
        **QUARTZ,
        "quartz.config.ts": f'export default {{ configuration: {{ ignorePatterns: ["{stars}"] }} }}\n',
        "content/" + "a" * 200 + ".md": "# Long\n",
    }
    root = write_project(tmp_path / "garden", pages)
    started = time.process_time()
    found = crawl(load_config(root))
    assert time.process_time() - started < 5
    assert "content/" + "a" * 200 + ".md" in {p.path for p in found.pages}
