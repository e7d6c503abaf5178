"""Configuration (content/guides/configuration.md): both files, typed options, defaults, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.analyse.checks import DEFAULT_CHECKS, severities_of, validate_checks
from sitegen.base.languages import LangId
from sitegen.config import ConfigError, load_config


def test_defaults_need_no_configuration(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.content == "docs"  # no content/ folder: MkDocs users' docs/
    (tmp_path / "content").mkdir()
    assert load_config(tmp_path).content == "content"
    assert config.out == "site" and config.store == "json" and config.languages == tuple(LangId)
    assert severities_of(config.checks) == DEFAULT_CHECKS and config.site_title == tmp_path.name


def test_sitegen_toml_and_pyproject_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sitegen]\ntitle = "From pyproject"\nsource = "src"\n'
    )
    (tmp_path / "src").mkdir()
    config = load_config(tmp_path)
    assert (config.title, config.source) == ("From pyproject", ("src",))
    (tmp_path / "sitegen.toml").write_text(
        'title = "From sitegen.toml"\nlanguages = ["python", "go"]\n'
        '[checks]\ncode-cycles = "warn"\n'
    )
    config = load_config(tmp_path)
    assert config.title == "From sitegen.toml"
    assert config.languages == (LangId.PYTHON, LangId.GO)
    checks = severities_of(config.checks)
    assert checks["code-cycles"] == "warn" and checks["broken-links"] == "error"


def test_command_line_overrides_and_explicit_file(tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text('out = "public"\n')
    assert load_config(tmp_path, other).out == "public"
    assert load_config(tmp_path, other, out="elsewhere").out == "elsewhere"
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path, tmp_path / "missing.toml")


@pytest.mark.parametrize(
    "text,message",
    [
        ("nonsense = 1\n", "unknown option 'nonsense'"),
        (
            'languages = ["cobol"]\n',
            "unknown language 'cobol'; valid: python, javascript, typescript, tsx, c, cpp, rust, go, ruby",
        ),
        ('store = "redis"\n', "'store' must be 'json' or 'sqlite'"),
        ('raw_html = "strip"\n', "'raw_html' must be 'sanitize', 'escape' or 'allow'"),
        ("raw_html = true\n", "'raw_html' must be 'sanitize', 'escape' or 'allow'"),
        ("max_file_size = -1\n", "non-negative integer"),
        ('[checks]\nspelling = "warn"\n', "unknown check 'spelling'"),
        ('[checks]\nbroken-links = "fatal"\n', "severity must be one of error, warn, info, ignore"),
        ("title = [\n", "invalid TOML"),
    ],
)
def test_bad_configuration_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "sitegen.toml").write_text(text)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        # check names are known once the plugins are loaded: the CLI validates them then
        validate_checks(load_config(tmp_path).checks)
