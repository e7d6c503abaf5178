"""Configuration: typed options with defaults, read from ``sitegen.toml`` or ``[tool.sitegen]``.

No configuration is needed: every option has a default that serves (SPEC §2). This module
reads only the configuration file; a bad value raises ``ConfigError`` (exit code 2).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.code.records import LangId


class ConfigError(Exception):
    """A usage or configuration error: the CLI exits with code 2."""


SEVERITIES = ("error", "warn", "ignore")
#: The checks of ``sitegen check`` and their default severity.
DEFAULT_CHECKS = {
    "broken-links": "error",
    "broken-anchors": "error",
    "missing-rel-targets": "error",
    "code-cycles": "error",
    "relation-cycles": "error",
}


@dataclass(frozen=True)
class Config:
    """Every option, its default, and what it does."""

    #: The project root; everything sitegen reads lies below it.
    root: Path = Path(".")
    #: Folder of markdown pages; default ``content/`` if it exists, else ``docs/``.
    content: str = ""
    #: Output folder of the site.
    out: str = "site"
    #: Source roots to analyse; default: the project root (minus content, output, hidden and
    #: ignored folders).
    source: tuple[str, ...] = ()
    #: Site title shown in the header; default: the root folder's name.
    title: str = ""
    #: Absolute URL the site is published under, used in sitemap.xml.
    base_url: str = ""
    #: Glob patterns (relative to the root) of files never read.
    exclude: tuple[str, ...] = ()
    #: Languages whose source files are analysed (SPEC §7 names).
    languages: tuple[LangId, ...] = tuple(LangId)
    #: Extra include folders searched for C/C++ ``#include "…"``.
    include_dirs: tuple[str, ...] = ()
    #: Folders Ruby's ``require`` searches (``$LOAD_PATH``); default: every ``lib/`` folder.
    ruby_load_paths: tuple[str, ...] = ()
    #: Files larger than this many bytes are skipped with a warning.
    max_file_size: int = 2_000_000
    #: Persistent store backend: ``json`` or ``sqlite``.
    store: str = "json"
    #: Worker processes for extraction; 0 means one per core.
    jobs: int = 0
    #: Severity per check of ``sitegen check`` (error / warn / ignore).
    checks: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_CHECKS))

    @property
    def content_dir(self) -> Path:
        return self.root / self.content

    @property
    def out_dir(self) -> Path:
        out = Path(self.out)
        return out if out.is_absolute() else self.root / out

    @property
    def cache_dir(self) -> Path:
        return self.root / ".sitegen"

    @property
    def site_title(self) -> str:
        return self.title or self.root.resolve().name


_FIELDS = {f.name: f for f in dataclasses.fields(Config)}


def _coerce(name: str, value: Any) -> Any:
    if name in ("source", "exclude", "include_dirs", "ruby_load_paths"):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"option '{name}' must be a string or a list of strings")
        return tuple(value)
    if name == "languages":
        return parse_languages(value if isinstance(value, list) else [value])
    if name in ("max_file_size", "jobs"):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"option '{name}' must be a non-negative integer")
        return value
    if name == "store":
        if value not in ("json", "sqlite"):
            raise ConfigError("option 'store' must be 'json' or 'sqlite'")
        return value
    if name == "checks":
        if not isinstance(value, dict):
            raise ConfigError("option 'checks' must be a table of check = severity")
        checks = dict(DEFAULT_CHECKS)
        for check, sev in value.items():
            if check not in DEFAULT_CHECKS:
                raise ConfigError(f"unknown check '{check}'; valid: {', '.join(DEFAULT_CHECKS)}")
            if sev not in SEVERITIES:
                raise ConfigError(f"check '{check}': severity must be one of {', '.join(SEVERITIES)}")
            checks[check] = sev
        return checks
    if not isinstance(value, str):
        raise ConfigError(f"option '{name}' must be a string")
    return value


def parse_languages(names: list[Any]) -> tuple[LangId, ...]:
    valid = [lang.value for lang in LangId]
    out = []
    for name in names:
        if name not in valid:
            raise ConfigError(f"unknown language '{name}'; valid: {', '.join(valid)}")
        out.append(LangId(name))
    return tuple(out)


def _read_table(root: Path, config_file: Path | None) -> tuple[dict[str, Any], str]:
    candidates = [config_file] if config_file else [root / "sitegen.toml", root / "pyproject.toml"]
    for path in candidates:
        if path is None or not path.is_file():
            if config_file:
                raise ConfigError(f"{config_file}: configuration file not found")
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
        if path.name == "pyproject.toml" and config_file is None:
            table = data.get("tool", {}).get("sitegen")
            if table is None:
                continue
            return table, str(path)
        return data.get("tool", {}).get("sitegen", data) if path.name == "pyproject.toml" else data, str(path)
    return {}, ""


def load_config(root: Path, config_file: Path | None = None, **overrides: Any) -> Config:
    """The project's configuration, with command-line ``overrides`` (None values ignored)."""
    table, origin = _read_table(root, config_file)
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in _FIELDS or name == "root":
            raise ConfigError(f"{origin}: unknown option '{key}'")
        try:
            values[name] = _coerce(name, value)
        except ConfigError as exc:
            raise ConfigError(f"{origin}: {exc}") from exc
    values.update({k: v for k, v in overrides.items() if v is not None})
    config = Config(root=root, **values)
    if not config.content:
        content = "content" if (root / "content").is_dir() else "docs"
        config = dataclasses.replace(config, content=content)
    return config
