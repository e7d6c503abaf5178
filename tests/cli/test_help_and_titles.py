"""Point 5 of issue 14: every option has help text, the command list is not cut off, the
README's command table is the CLI's, and the default site title comes from pyproject.toml's
[project] name, then the home page's title, then the folder's name."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sitegen.commands.cli import main
from tests.cli.conftest import sitegen, write

README = Path(__file__).parents[2] / "README.md"


def _commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, cmd in group.commands.items():
        found[prefix + name] = cmd
        if isinstance(cmd, click.Group):
            found.update(_commands(cmd, prefix + name + " "))
    return found


def test_every_option_has_help_text() -> None:
    missing = [
        (name, opt.opts[0])
        for name, cmd in _commands(main).items()
        for opt in cmd.params
        if isinstance(opt, click.Option) and not opt.help
    ]
    assert missing == []


@pytest.mark.parametrize("width", [80, 100])
def test_the_command_list_is_not_cut_off(width: int) -> None:
    result = CliRunner().invoke(main, ["--help"], terminal_width=width)
    assert result.exit_code == 0
    listing = result.stdout.split("Commands:")[1]
    assert "..." not in listing and "…" not in listing
    assert "  backlinks  Print what links to PAGE, grouped as on its page." in listing
    for name in main.commands:
        assert re.search(rf"^  {name} ", listing, re.MULTILINE), name


def _readme_commands() -> dict[str, set[str]]:
    """The first table of the README's "Command line" section: command -> options named."""
    section = README.read_text().split("## Command line", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `sitegen ")]
    out: dict[str, set[str]] = {}
    for row in rows:
        command = row.split("`")[1].split()[1]
        out[command] = set(re.findall(r"--[a-z-]+", row))
    return out


def test_the_readme_command_table_is_the_cli() -> None:
    table = _readme_commands()
    assert set(table) == set(main.commands)
    commands = _commands(main)
    for name, flags in table.items():
        cmd = commands["graph parse"] if name == "graph" else commands[name]
        known = {o for p in cmd.params if isinstance(p, click.Option) for o in p.opts}
        assert flags <= known, (name, flags - known)


def _site_title(root: Path) -> str:
    html = (root / "site/index.html").read_text()
    found = re.search(r'<a class="site-title" href="[^"]*">([^<]*)</a>', html)
    assert found, html[:400]
    return found.group(1)


def test_the_title_comes_from_the_project_name_first(tmp_path: Path) -> None:
    root = write(
        tmp_path / "folder",
        {
            "content/index.md": "---\ntitle: Welcome\n---\n# Hi\n",
            "pyproject.toml": '[project]\nname = "acme-engine"\n',
        },
    )
    assert sitegen("build", root=root).code == 0
    assert _site_title(root) == "acme-engine"


def test_then_from_the_home_page(tmp_path: Path) -> None:
    root = write(tmp_path / "folder", {"content/index.md": "---\ntitle: Welcome\n---\n# Hi\n"})
    assert sitegen("build", root=root).code == 0
    assert _site_title(root) == "Welcome"


def test_then_from_the_folder(tmp_path: Path) -> None:
    root = write(tmp_path / "folder", {"content/index.md": "Just text, no heading.\n"})
    assert sitegen("build", root=root).code == 0
    assert _site_title(root) == "folder"


def test_a_title_set_wins(tmp_path: Path) -> None:
    root = write(
        tmp_path / "folder",
        {
            "content/index.md": "# Hi\n",
            "sitegen.toml": 'title = "Set"\n',
            "pyproject.toml": '[project]\nname = "acme-engine"\n',
        },
    )
    assert sitegen("build", root=root).code == 0
    assert _site_title(root) == "Set"
