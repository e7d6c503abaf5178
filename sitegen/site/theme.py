"""The theme: sitegen's shipped templates, overridden file by file from the configured
``theme_dir`` (content/guides/site.md, "Templates"), read once through the crawl's guard.

Never reads a file whose real path lies outside the project root (a symlink to /etc/passwd
is skipped with a warning) and never guesses a theme from a folder's name.
"""

from __future__ import annotations

import os
import stat
import types
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import TemplateError, TemplateSyntaxError

from sitegen.base.diagnostics import Diagnostic, Level
from sitegen.base.paths import is_within
from sitegen.config import ConfigError

#: Theme files that are templates; every other file of the theme is published as is.
TEMPLATE_SUFFIXES = (".html", ".xml", ".md")
#: Characters of a template error's message that are shown.
MAX_MESSAGE = 200


class ThemeError(ConfigError):
    """A template that does not compile or render: one line ``path:line: message``.

    A ConfigError, so the command line prints it as one line and exits 2."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{max(line, 1)}: {message}")
        self.path, self.line, self.message = path, line, message

    def __reduce__(self) -> tuple[type[ThemeError], tuple[str, int, str]]:
        # Raised in forked render workers and re-raised here: it must survive pickling.
        return (ThemeError, (self.path, self.line, self.message))


@dataclass
class Theme:
    """The configured theme folder's files, by path inside the folder (``page.html``)."""

    folder: str = ""  # repository path of theme_dir; "" when none is configured
    files: dict[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def repo_path(self, name: str) -> str:
        return f"{self.folder}/{name}" if self.folder else name


def read_theme(root: Path | str | None, theme_dir: str) -> Theme:
    """Every regular file below ``root/theme_dir`` whose real path is inside ``root``; hidden
    files and folders are skipped, like the crawl does."""
    if root is None or not theme_dir:
        return Theme()
    real_root = Path(os.path.realpath(root))
    theme = Theme(folder=theme_dir.strip("/"))
    _read_folder(real_root, Path(root) / theme.folder, "", theme, set())
    theme.files = dict(sorted(theme.files.items()))
    return theme


def _inside(real_root: Path, path: Path) -> bool:
    real = Path(os.path.realpath(path))
    return is_within(real, real_root)


def _read_folder(real_root: Path, folder: Path, rel: str, theme: Theme, seen: set[str]) -> None:
    real = os.path.realpath(folder)
    if real in seen:
        return
    seen.add(real)
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        theme.diagnostics.append(_warn(theme.repo_path(rel), f"cannot read folder: {exc.strerror}"))
        return
    for entry in entries:
        name = f"{rel}/{entry.name}" if rel else entry.name
        if entry.name.startswith("."):
            continue
        if not _inside(real_root, Path(entry.path)):
            theme.diagnostics.append(
                _warn(
                    theme.repo_path(name), "symbolic link points outside the project root; ignored"
                )
            )
            continue
        try:
            mode = os.stat(entry.path).st_mode
        except OSError:
            theme.diagnostics.append(_warn(theme.repo_path(name), "broken symbolic link; ignored"))
            continue
        if stat.S_ISDIR(mode):
            _read_folder(real_root, Path(entry.path), name, theme, seen)
        elif stat.S_ISREG(mode):
            _read_file(Path(entry.path), name, theme)


def _read_file(path: Path, name: str, theme: Theme) -> None:
    try:
        theme.files[name] = path.read_bytes()
    except OSError as exc:
        theme.diagnostics.append(_warn(theme.repo_path(name), f"cannot read file: {exc.strerror}"))


def _warn(path: str, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, Level.WARNING, message, "symlink")  # the crawl's code: one line


def theme_error(exc: Exception, fallback: str, theme: str = "") -> ThemeError:
    """The one-line form of an error of a template: the template's path and line, then the
    message. Any exception counts, not only Jinja's: in a theme's template a TypeError, a
    ZeroDivisionError or a RecursionError is the theme's error, not sitegen's.

    Jinja rewrites a render error's traceback so that its frames name the template file and
    line; the innermost such frame is where the error is, and the innermost frame of the
    ``theme`` folder where the theme caused it (a theme's include that includes itself ends
    in a shipped template's line)."""
    if isinstance(exc, TemplateSyntaxError):
        return ThemeError(
            exc.filename or exc.name or fallback, exc.lineno, _said(exc.message or str(exc))
        )
    path, line = _where(exc, fallback, theme)
    if isinstance(exc, TemplateError):
        return ThemeError(path, line, _said(exc.message or str(exc)))
    return ThemeError(path, line, _said(f"{type(exc).__name__}: {exc}"))


def _where(exc: Exception, fallback: str, theme: str) -> tuple[str, int]:
    found: tuple[str, int] | None = None
    themed: tuple[str, int] | None = None
    tb: types.TracebackType | None = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(TEMPLATE_SUFFIXES):
            found = (filename, tb.tb_lineno)
            if theme and filename.startswith(f"{theme}/"):
                themed = found
        tb = tb.tb_next
    return themed or found or (fallback, 1)


def _said(message: str) -> str:
    """A message as one short line: an error can quote a huge value of the template's."""
    message = " ".join(message.split())
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"
