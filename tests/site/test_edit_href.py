"""The "Edit this page" link (content/guides/site.md): repo_url + edit_uri + the page's path
inside the content folder, as MkDocs writes it; a page outside the content folder is edited
at its own repository path."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.config import Config
from sitegen.site.pagemeta import edit_href


def _config(tmp_path: Path, content: str, repo_url: str, edit_uri: str = "") -> Config:
    (tmp_path / content).mkdir(parents=True, exist_ok=True)
    return Config(root=tmp_path, content=content, repo_url=repo_url, edit_uri=edit_uri)


@pytest.mark.parametrize(
    ("content", "page", "expected"),
    [
        ("docs", "docs/guide/a.md", "https://github.com/o/r/edit/main/docs/guide/a.md"),
        ("docs", "pkg/README.md", "https://github.com/o/r/edit/main/pkg/README.md"),
        (".", "guide/a.md", "https://github.com/o/r/edit/main/guide/a.md"),
    ],
)
def test_the_hosts_default_edit_uri(tmp_path: Path, content: str, page: str, expected: str) -> None:
    config = _config(tmp_path, content, "https://github.com/o/r")
    assert edit_href(config, page) == expected


def test_an_edit_uri_is_relative_to_the_content_folder(tmp_path: Path) -> None:
    config = _config(tmp_path, "docs", "https://git.example.org/o/r", "src/branch/trunk/docs/")
    assert (
        edit_href(config, "docs/a.md") == "https://git.example.org/o/r/src/branch/trunk/docs/a.md"
    )
    # A page outside the folder the edit_uri names gets no link rather than a wrong one.
    assert edit_href(config, "pkg/README.md") == ""


def test_no_link_without_repo_url_or_a_known_host(tmp_path: Path) -> None:
    assert edit_href(_config(tmp_path, "docs", ""), "docs/a.md") == ""
    assert edit_href(_config(tmp_path, "docs", "https://git.example.org/o/r"), "docs/a.md") == ""
