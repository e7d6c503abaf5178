"""The options every project command shares: declared once, listed first in each command's
help, and handed to the command as one ProjectOptions."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from sitegen.commands.cli import main
from sitegen.commands.options import ProjectOptions
from tests.cli.conftest import sitegen, write

SHARED = ["--root", "--out", "--config", "--language", "--jobs", "--quiet"]
PROJECT_COMMANDS = ["build", "check", "cycles", "backlinks", "export", "serve", "explore"]


def _options(name: str) -> list[str]:
    command = main.commands[name]
    return [p.opts[0] for p in command.params if isinstance(p, click.Option)]


@pytest.mark.parametrize("name", PROJECT_COMMANDS)
def test_every_project_command_starts_with_the_shared_options(name: str) -> None:
    assert _options(name)[: len(SHARED)] == SHARED
    shared = [p for p in main.commands[name].params if p.name in ("root", "jobs", "quiet")]
    helps = {p.name: p.help for p in shared if isinstance(p, click.Option)}
    assert helps == {p.name: p.help for p in main.commands["build"].params if p.name in helps}


def test_the_shared_options_reach_the_command_as_one_record(tmp_path: Path) -> None:
    root = write(tmp_path / "p", {"content/index.md": "# Home\n"})
    run = sitegen("build", "--out", "public", "--quiet", root=root)
    assert run.code == 0 and "sitegen:" not in run.err  # --quiet: no summary line
    assert (root / "public" / "index.html").is_file() and not (root / "site").exists()
    given = ProjectOptions(root, "public", None, ("python",), None, True)
    assert given.config().out_dir.name == "public" and given.workers == 0


def test_a_root_that_is_not_a_folder_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    run = sitegen("cycles", root=tmp_path / "file")
    assert run.code == 2
