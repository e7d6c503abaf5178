"""sitegen's own ``api_options`` (content/guides/api-reference.md#options): over the options of
an mkdocs.yml's mkdocstrings handler, under a block's own; a value that is no table is one
sentence and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import BuildOptions, build
from sitegen.config import ConfigError, load_config

FILES = {
    "src/pkg/__init__.py": '"""A package."""\n\n\ndef run(x: int) -> int:\n    """Run it."""\n    return x\n',
    "mkdocs.yml": (
        "site_name: T\nplugins:\n  - mkdocstrings:\n      handlers:\n        python:\n"
        "          paths: [src]\n          options:\n            show_source: true\n"
        "            show_root_heading: true\n"
    ),
    "docs/index.md": "# Home\n\n::: pkg.run\n",
    "docs/own.md": "# Own\n\n::: pkg.run\n    options:\n      show_source: true\n",
}


def _project(tmp_path: Path, toml: str) -> Path:
    for rel, text in {**FILES, "sitegen.toml": toml}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def _html(root: Path, page: str) -> str:
    return (root / "site" / page / "index.html").read_text(encoding="utf-8")


def test_sitegens_options_are_over_mkdocs_yml_and_under_the_block(tmp_path: Path) -> None:
    root = _project(tmp_path, 'source = ["src"]\napi_options = { show_source = false }\n')
    result = build(load_config(root), BuildOptions(quiet=True, jobs=1))
    assert not [d for d in result.diagnostics if d.code in ("api", "snippet")]
    home = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="pkg.run"' in home and "Defined in" not in home
    assert "Defined in" in _html(root, "own")


def test_without_them_mkdocs_yml_holds(tmp_path: Path) -> None:
    root = _project(tmp_path, 'source = ["src"]\n')
    build(load_config(root), BuildOptions(quiet=True, jobs=1))
    assert "Defined in" in (root / "site" / "index.html").read_text(encoding="utf-8")


def test_api_options_must_be_a_table(tmp_path: Path) -> None:
    root = _project(tmp_path, 'source = ["src"]\napi_options = ["show_source"]\n')
    with pytest.raises(ConfigError, match="api_options' must be a table"):
        load_config(root)
