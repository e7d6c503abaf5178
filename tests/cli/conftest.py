"""Helpers for the newcomer tests: small projects written here, and sitegen run as a user
types it (click's CliRunner on the real command group, so what is asserted is what is printed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from sitegen.commands.cli import main


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def sitegen(*args: str, root: Path | None = None) -> Run:
    """``sitegen ARGS --root ROOT --jobs 1`` (project commands) or ``sitegen ARGS``."""
    extra = ["--root", str(root), "--jobs", "1"] if root is not None else []
    result = CliRunner().invoke(main, [*args, *extra], catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    return root
