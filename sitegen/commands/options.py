"""What every project command shares (content/reference/cli.md): the options given once
(``ProjectOptions``, declared once as MkDocs' ``common_config_options``), the configuration they
give, and a build without a site. Imports nothing of the pipeline until a command runs, so that
``sitegen --help`` stays quick.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sitegen.config import Config, ConfigError, load_config, parse_languages

if TYPE_CHECKING:
    from sitegen.analyse.checks import Check
    from sitegen.records.result import BuildResult


@dataclass(frozen=True)
class ProjectOptions:
    """The options every project command shares, as the user gave them."""

    root: Path
    out: str | None
    config_file: Path | None
    languages: tuple[str, ...]
    jobs: int | None
    quiet: bool

    @property
    def workers(self) -> int:
        """``--jobs`` as the build takes it (0: one per core)."""
        return self.jobs or 0

    def config(self) -> Config:
        """The project's configuration with these options applied."""
        if not self.root.is_dir():
            raise ConfigError(f"{self.root}: project root is not a folder")
        langs = parse_languages(list(self.languages)) if self.languages else None
        config = load_config(
            self.root, self.config_file, out=self.out, languages=langs, jobs=self.jobs
        )
        _validate_checks(config)
        return config


def _validate_checks(config: Config) -> None:
    """The ``checks`` option names sitegen's checks and those of the plugins it loads (known
    only once they load); else the ConfigError a bad option is, naming its file as
    ``load_config`` does (content/guides/configuration.md#checks)."""
    from sitegen.analyse.checks import validate_checks

    shown = config.set_by.get("checks", "")
    origin = shown if not shown or Path(shown).is_absolute() else str(config.root / shown)
    validate_checks(config.checks, plugin_checks(config), origin)


def plugin_checks(config: Config) -> tuple[Check, ...]:
    """The checks of the plugins ``config.plugins`` names, in their order; none when it names
    none. What loading them says is the build's to report (content/guides/plugins.md)."""
    if not config.plugins:
        return ()
    from sitegen.plugins import checks_of, load_configured

    plugins, _ = load_configured(config)
    return checks_of(plugins)


#: An option naming a file (not a folder): --config, --baseline, --output.
_FILE = click.Path(dir_okay=False, path_type=Path)


#: The shared options, declared once (MkDocs' ``common_config_options`` is the model).
_PROJECT_OPTIONS = [
    click.option(
        "--root",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="Project root (everything read lies below it).",
    ),
    click.option("--out", type=str, default=None, help="Output folder (default: site)."),
    click.option(
        "--config",
        "config_file",
        type=_FILE,
        default=None,
        help="Configuration file (default: sitegen.toml or pyproject.toml).",
    ),
    click.option(
        "--language",
        "languages",
        multiple=True,
        metavar="NAME",
        help="Analyse only this language (repeatable): python, javascript, typescript, "
        "tsx, c, cpp, rust, go, ruby.",
    ),
    click.option(
        "--jobs",
        type=click.IntRange(min=0),
        default=None,
        help="Worker processes (0 = one per core, 1 = in-process).",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bars, no summary."),
]
_PROJECT_FIELDS = tuple(f.name for f in fields(ProjectOptions))


def _project_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared options, handed to it as one ``project: ProjectOptions``;
    they come first in its help, before the command's own options."""

    @functools.wraps(fn)
    def command(**kwargs: Any) -> Any:
        shared = {name: kwargs.pop(name) for name in _PROJECT_FIELDS}
        return fn(project=ProjectOptions(**shared), **kwargs)

    for opt in reversed(_PROJECT_OPTIONS):
        command = opt(command)
    return command


def _build(config: Config, jobs: int) -> BuildResult:
    from sitegen.build import BuildOptions, build  # the pipeline: only when a command runs

    return build(config, BuildOptions(write_site=False, jobs=jobs, quiet=True))
