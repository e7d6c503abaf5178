"""Embeds in a whole build (content/syntax/obsidian.md#embeds): the page shows the embedded
section, and an edit of the embedded page alone writes the embedding page again."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.records.result import BuildOptions

pytestmark = pytest.mark.slow  # whole builds, in process


def _build(root: Path) -> str:
    build(load_config(root), BuildOptions(jobs=1, quiet=True))
    return (root / "site" / "index.html").read_text()


def test_an_edit_of_the_embedded_page_shows_in_the_page_that_embeds_it(tmp_path: Path) -> None:
    (tmp_path / "sitegen.toml").write_text('content = "content"\n')
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text("# Home\n\n![[b#Part]]\n")
    b = tmp_path / "content" / "b.md"
    b.write_text("# B\n\n## Part\n\nFirst words.\n\n## Other\n\nNot shown.\n")
    first = _build(tmp_path)
    assert '<blockquote class="embed">' in first and "First words." in first
    assert "Not shown." not in first
    b.write_text("# B\n\n## Part\n\nSecond words.\n\n## Other\n\nNot shown.\n")
    second = _build(tmp_path)
    assert "Second words." in second and "First words." not in second
