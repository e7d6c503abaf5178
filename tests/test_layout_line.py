"""The line a build prints before its summary says which languages are read (sitegen/layout.py)."""

from __future__ import annotations

from pathlib import Path

from sitegen.config import load_config
from sitegen.layout import layout_line


def _line(tmp_path: Path, toml: str) -> str:
    (tmp_path / "content").mkdir(exist_ok=True)
    (tmp_path / "sitegen.toml").write_text(toml, encoding="utf-8")
    return layout_line(load_config(tmp_path))


def test_some_languages_are_named(tmp_path: Path) -> None:
    line = _line(tmp_path, 'languages = ["go", "python"]\n')
    assert "; languages go, python only (languages = [" in line


def test_no_language_says_no_code(tmp_path: Path) -> None:
    line = _line(tmp_path, "languages = []\n")
    assert "; no code (languages = [] in sitegen.toml)" in line
    assert "languages  only" not in line
