"""Point 2 of issue 14, configuration: an unknown key gets "Did you mean" and the valid keys;
a [tool.sitegen] table in sitegen.toml says where it belongs. Exit 2, one line."""

from __future__ import annotations

from pathlib import Path

from sitegen.config import OPTION_NAMES
from tests.cli.conftest import sitegen, write

VALID = (
    "Valid options: api, api_folder, api_options, base_url, checks, content, cycles_include, edit_uri, exclude, "
    "header_reports, include_dirs, "
    "inventories, jobs, lang, languages, locales, markdown_extensions, max_file_size, out, peers, plugins, raw_html, repo_url, "
    "ruby_load_paths, shortcode_comments, shortcodes, slugs, source, "
    "store, theme_dir, title, urls."
)


def test_the_valid_keys_are_the_config_options() -> None:
    assert ", ".join(OPTION_NAMES) in VALID


def test_a_mistyped_key_gets_did_you_mean_and_the_valid_keys(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"sitegen.toml": 'contnet = "docs"\n', "docs/index.md": "# D\n"})
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [
        f"error: {root / 'sitegen.toml'}: unknown option 'contnet'. Did you mean 'content'? {VALID}"
    ]


def test_a_hyphenated_typo_in_pyproject_is_matched_too(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p", {"pyproject.toml": '[tool.sitegen]\nbase-ulr = "https://x.org/"\n'}
    )
    run = sitegen("check", root=root)
    assert run.code == 2
    assert run.err_lines == [
        (
            f"error: {root / 'pyproject.toml'}: unknown option 'base-ulr'. "
            f"Did you mean 'base_url'? {VALID}"
        )
    ]


def test_a_key_like_nothing_lists_the_valid_keys_only(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"sitegen.toml": "zzz = 1\n"})
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [f"error: {root / 'sitegen.toml'}: unknown option 'zzz'. {VALID}"]


def test_tool_sitegen_inside_sitegen_toml_points_at_pyproject(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {"sitegen.toml": '[tool.sitegen]\ncontent = "docs"\n', "docs/index.md": "# D\n"},
    )
    run = sitegen("build", root=root)
    assert run.code == 2
    assert run.err_lines == [
        (
            f"error: {root / 'sitegen.toml'}: unknown option 'tool': a [tool.sitegen] table belongs "
            'in pyproject.toml; in sitegen.toml the options are top-level keys (content = "docs")'
        )
    ]
