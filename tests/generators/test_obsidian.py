"""Obsidian vaults and Quartz sites found beside the content (sitegen/generators/obsidian.py)."""

from __future__ import annotations

from pathlib import Path

from sitegen.generators import Dialect, SlugStyle, find_generator
from sitegen.generators.obsidian import PublishNavSpec, find_obsidian

QUARTZ_CONFIG = """import { QuartzConfig } from "./quartz/cfg"
import * as Plugin from "./quartz/plugins"

const config: QuartzConfig = {
  configuration: {
    pageTitle: "My Garden",
    enableSPA: true,
    baseUrl: "garden.example.org/notes",
    ignorePatterns: ["private", "templates", ".obsidian", "**/drafts"],
  },
  plugins: { transformers: [Plugin.FrontMatter()] },
}

export default config
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_publish_css_in_the_content_folder_makes_a_vault(tmp_path: Path) -> None:
    root = _write(tmp_path, {"en/Home.md": "# Home\n", "en/publish.css": "body {}\n"})
    found = find_generator(root, "en")
    assert found is not None
    assert found.name == "Obsidian"
    assert found.dialect is Dialect.OBSIDIAN
    assert found.slugs is SlugStyle.GITHUB
    assert found.stylesheets == ("en/publish.css",)
    assert found.own_folders == "the content is an Obsidian vault (found en/publish.css)"


def test_an_obsidian_folder_above_the_content_makes_a_vault(tmp_path: Path) -> None:
    root = _write(tmp_path, {"vault/notes/a.md": "# A\n"})
    (root / "vault/.obsidian").mkdir()
    found = find_obsidian(root, "vault/notes")
    assert found is not None
    assert found.config_file == "vault/.obsidian"
    assert found.stylesheets == ()  # no publish.css: nothing linked
    assert "found vault/.obsidian/" in found.own_folders


def test_a_plain_docs_folder_is_no_vault(tmp_path: Path) -> None:
    """GitHub docs with a stylesheet and wikilinks, a docs/ folder with its own CSS: none
    of them is what Obsidian leaves in a vault."""
    root = _write(
        tmp_path,
        {
            "README.md": "# Project\n",
            "docs/index.md": "# Docs\n\nSee [[Other]].\n",
            "docs/Other.md": "# Other\n",
            "docs/style.css": "body {}\n",
            "docs/publish.js": "// deploy script\n",
            "publish.css": "body {}\n",  # not in the content folder
        },
    )
    assert find_generator(root, "docs") is None


def test_an_obsidian_file_is_no_settings_folder(tmp_path: Path) -> None:
    root = _write(tmp_path, {"docs/a.md": "# A\n", "docs/.obsidian": "not a folder\n"})
    assert find_generator(root, "docs") is None


def test_a_generator_configuration_wins_over_a_vaults_marks(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"mkdocs.yml": "site_name: X\n", "docs/index.md": "# X\n", "docs/publish.css": ""},
    )
    (root / ".obsidian").mkdir()
    found = find_generator(root, "docs")
    assert found is not None and found.name == "MkDocs"


def test_a_mark_outside_the_root_is_not_followed(tmp_path: Path) -> None:
    outside = _write(tmp_path / "outside", {"publish.css": "body {}\n"})
    root = _write(tmp_path / "project", {"docs/a.md": "# A\n"})
    (root / "docs/publish.css").symlink_to(outside / "publish.css")
    assert find_generator(root, "docs") is None


def test_quartz_config_is_read_as_literals(tmp_path: Path) -> None:
    root = _write(tmp_path, {"quartz.config.ts": QUARTZ_CONFIG, "content/index.md": "# Welcome\n"})
    found = find_generator(root, "content")
    assert found is not None
    assert found.name == "Quartz"
    assert found.config_file == "quartz.config.ts"
    assert found.dialect is Dialect.OBSIDIAN
    assert found.slugs is SlugStyle.GITHUB  # Quartz's ids are github-slugger's
    assert found.title == "My Garden"
    assert found.base_url == "https://garden.example.org/notes"
    assert found.ignore == ("private", "templates", ".obsidian", "**/drafts")
    assert found.own_folders == "the content is a Quartz site (found quartz.config.ts)"
    assert found.source("quartz.config.ts") == QUARTZ_CONFIG
    assert found.diagnostics == ()


def test_quartz_needs_its_content_folder(tmp_path: Path) -> None:
    """Quartz reads ``content/``: a ``docs/`` folder beside its config is not its site."""
    root = _write(tmp_path, {"quartz.config.ts": QUARTZ_CONFIG, "docs/index.md": "# D\n"})
    assert find_generator(root, "docs") is None


def test_quartz_values_that_are_not_literals_warn_once_each(tmp_path: Path) -> None:
    config = """const title = process.env.TITLE
export default {
  configuration: {
    pageTitle: title,
    ignorePatterns: ["private", someGlob()],
  },
}
"""
    root = _write(tmp_path, {"quartz.config.ts": config, "content/a.md": "# A\n"})
    found = find_generator(root, "content")
    assert found is not None and found.name == "Quartz"
    assert found.title == ""
    assert found.ignore == ("private",)
    messages = [(d.line, d.message) for d in found.diagnostics]
    assert len(messages) == 2
    assert messages[0][1].startswith("configuration.pageTitle is not a text sitegen can read")
    assert "configuration.ignorePatterns is not a list of texts" in messages[1][1]
    assert all(d.path == "quartz.config.ts" for d in found.diagnostics)


def test_a_quartz_config_that_is_no_module_still_finds_quartz(tmp_path: Path) -> None:
    root = _write(tmp_path, {"quartz.config.ts": "{{{ not ts", "content/a.md": "# A\n"})
    found = find_generator(root, "content")
    assert found is not None and found.name == "Quartz"
    assert found.title == "" and found.ignore == ()
    assert len(found.diagnostics) == 1
    assert found.diagnostics[0].message.startswith("configuration is not an object")


def test_a_negated_quartz_pattern_is_left_out(tmp_path: Path) -> None:
    config = 'export default { configuration: { ignorePatterns: ["!keep", "/drafts/"] } }\n'
    root = _write(tmp_path, {"quartz.config.ts": config, "content/a.md": "# A\n"})
    found = find_generator(root, "content")
    assert found is not None
    assert found.ignore == ("drafts",)


SITE_OPTIONS = """{
  "siteName": "Project Help",
  "indexFile": "Home",
  "navigationOrdering": [
    "Start",
    "Start/Install.md",
    "Start/Begin.md",
    "Reference",
    "publish.css"
  ]
}
"""


def test_obsidian_publish_site_options_give_the_name_and_the_order(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"en/Home.md": "# Home\n", "en/publish.css": "", "en/site-options.json": SITE_OPTIONS},
    )
    found = find_generator(root, "en")
    assert found is not None
    assert found.title == "Project Help"
    assert isinstance(found.nav, PublishNavSpec)
    assert found.nav.order == (
        "Start",
        "Start/Install.md",
        "Start/Begin.md",
        "Reference",
        "publish.css",
    )
    assert found.source("en/site-options.json") == SITE_OPTIONS  # in the build's fingerprint


def test_site_options_that_are_not_json_are_one_warning(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"en/a.md": "# A\n", "en/publish.css": "", "en/site-options.json": "[" * 100_000},
    )
    found = find_generator(root, "en")
    assert found is not None and found.nav is None and found.title == ""
    assert [(d.path, d.level, d.message) for d in found.diagnostics] == [
        (
            "en/site-options.json",
            "warning",
            "en/site-options.json is not read (it is not JSON): the site's name and "
            "navigation order are not used",
        )
    ]


def test_site_options_of_an_unexpected_shape_are_left_out(tmp_path: Path) -> None:
    options = '{"siteName": 3, "navigationOrdering": ["a.md", 4, {"x": 1}, "/b/", ""]}'
    root = _write(
        tmp_path, {"en/a.md": "# A\n", "en/publish.css": "", "en/site-options.json": options}
    )
    found = find_generator(root, "en")
    assert found is not None and found.title == ""
    assert isinstance(found.nav, PublishNavSpec)
    assert found.nav.order == ("a.md", "b")


def test_jekylls_configuration_wins_over_a_vaults_marks(tmp_path: Path) -> None:
    root = _write(tmp_path, {"_config.yml": "title: X\n", "docs/a.md": "# A\n"})
    (root / "docs/.obsidian").mkdir()
    found = find_generator(root, "docs")
    assert found is not None and found.name == "Jekyll"


def test_a_quartz_site_whose_content_is_a_vault_is_quartz(tmp_path: Path) -> None:
    root = _write(tmp_path, {"quartz.config.ts": QUARTZ_CONFIG, "content/a.md": "# A\n"})
    (root / "content/.obsidian").mkdir()
    found = find_generator(root, "content")
    assert found is not None and found.name == "Quartz"
    assert found.ignore  # read from quartz.config.ts
