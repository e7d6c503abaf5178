"""content/ quotes what the commands print: each quoted line is produced here, run as the
page describes, and must appear in the page verbatim (getting started, configuration, CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import sitegen, write

CONTENT = Path(__file__).parents[2] / "content"


def _page(rel: str) -> str:
    return (CONTENT / rel).read_text(encoding="utf-8")


def _lines(
    files: dict[str, str],
    *args: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str = "build",
) -> list[str]:
    root = write(tmp_path / "p", files)
    monkeypatch.chdir(root)  # as the pages run it: at the project root, so paths are relative
    return sitegen(command, *args, root=Path(".")).err_lines


def test_configuration_page_quotes_the_config_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page("guides/configuration.md")
    typo = _lines(
        {"sitegen.toml": 'contnet = "docs"\n'}, tmp_path=tmp_path, monkeypatch=monkeypatch
    )
    assert len(typo) == 1 and typo[0] in page
    (tmp_path / "p/sitegen.toml").write_text('[tool.sitegen]\ncontent = "docs"\n')
    tool = sitegen("build", root=Path(".")).err_lines
    assert len(tool) == 1 and tool[0] in page


def test_configuration_page_quotes_the_layout_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page("guides/configuration.md")
    lines = _lines({"docs/index.md": "# D\n"}, tmp_path=tmp_path, monkeypatch=monkeypatch)
    assert (
        "sitegen: pages from docs/ (no content/ folder); source files from the project root "
        "(no source option)" in lines
    )
    assert next(line for line in lines if line.startswith("sitegen: pages")) in page
    sitemap = [line for line in lines if "sitemap.xml not written" in line]
    assert len(sitemap) == 1 and sitemap[0] in page
    write(Path("."), {"content/index.md": "# C\n"})
    both = [line for line in sitegen("build", root=Path(".")).err_lines if "both" in line]
    assert len(both) == 1 and both[0] in page


def test_first_site_quotes_the_build_and_the_broken_anchor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page("getting-started/first-site.md")
    files = {
        "content/index.md": "---\ntitle: Hello\n---\n\n# Hello\n\n"
        "Start with [the setup guide](guides/setup.md#install-it).\n",
        "content/guides/setup.md": "---\ntitle: Setup\n---\n\n# Setup\n\n## Install it\n\n"
        "Run the installer. Back to [the home page](../index.md).\n\n"
        "## Configure it\n\nSee [installing](#install-it) above, and\n"
        "[the setup guide](setup.md#install-it) again.\n",
    }
    lines = _lines(files, tmp_path=tmp_path, monkeypatch=monkeypatch)
    assert lines[0] in page and lines[1] in page
    summary = lines[2].split(" in ")[0]
    assert (
        lines[2].startswith("sitegen: 2 pages, 0 source files, 4 links, 0 broken links")
        and summary in page
    )
    Path("content/index.md").write_text(
        files["content/index.md"].replace("#install-it", "#instal-it")
    )
    anchor = sitegen("build", root=Path(".")).err_lines[0]
    assert anchor in page
