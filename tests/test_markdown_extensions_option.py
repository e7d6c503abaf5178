"""The ``markdown_extensions`` option: the pymdownx family's syntaxes for a project without an
``mkdocs.yml`` (content/syntax/material.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.config import Config, ConfigError, load_config
from sitegen.generators import Dialect


def _config(tmp_path: Path, text: str) -> Config:
    (tmp_path / "content").mkdir(exist_ok=True)
    (tmp_path / "sitegen.toml").write_text(text, encoding="utf-8")
    return load_config(tmp_path)


def test_no_option_reads_no_extension(tmp_path: Path) -> None:
    config = _config(tmp_path, "")
    assert config.dialect == Dialect.NONE


def test_material_turns_on_materials_set(tmp_path: Path) -> None:
    config = _config(tmp_path, 'markdown_extensions = ["material"]\n')
    dialect = config.dialect
    for flag in (Dialect.EMOJI, Dialect.ICONS, Dialect.KEYS, Dialect.ATTR_LIST, Dialect.MD_IN_HTML):
        assert flag in dialect
    assert Dialect.INCLUDE_VARIANTS not in dialect  # FastAPI's own, not Material's


def test_one_name_turns_on_its_flag_only(tmp_path: Path) -> None:
    config = _config(tmp_path, 'markdown_extensions = "pymdownx.keys"\n')
    assert config.dialect == Dialect.KEYS


def test_the_option_adds_to_mkdocs_yml(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - pymdownx.mark\n")
    (tmp_path / "sitegen.toml").write_text(
        'content = "docs"\nmarkdown_extensions = ["pymdownx.keys"]\n'
    )
    dialect = load_config(tmp_path).dialect
    assert (
        Dialect.MARK in dialect and Dialect.KEYS in dialect and Dialect.PYTHON_MARKDOWN in dialect
    )


def test_an_unknown_name_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"'pymdownx\.nope' is not one sitegen reads"):
        _config(tmp_path, 'markdown_extensions = ["pymdownx.nope"]\n')
