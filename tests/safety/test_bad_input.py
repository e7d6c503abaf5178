"""Issue 8, point 7: every bad input ends in a message and an exit code, never a traceback.

A table walks every command with bad options, bad configuration and broken state. A bad
option or configuration is one sentence and exit 2; broken state is a diagnostic and the
command goes on. No case may reach the last-resort "internal error" line either: that would
be a traceback in disguise.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.safety.conftest import make_project, sitegen

pytestmark = pytest.mark.slow  # a build or two per case, in a subprocess (the fast loop skips them)

PAGES = {
    "content/index.md": "# Home\n\nSee [the guide](guide.md).\n",
    "content/guide.md": "# Guide\n\nBack [home](index.md).\n",
    "src/app.py": "def main() -> None:\n    pass\n",
}

#: Every command, with arguments that are right when the project is right. ``serve`` is
#: walked with bad configuration only (a good one would serve until stopped).
COMMANDS = {
    "build": ["build", "--jobs", "1"],
    "check": ["check", "--jobs", "1"],
    "cycles": ["cycles", "--jobs", "1"],
    "backlinks": ["backlinks", "content/guide.md", "--jobs", "1"],
    "export": ["export", "--format", "graph-md", "--jobs", "1"],
    "explore": ["explore", "guide", "--jobs", "1"],
    "serve": ["serve", "--port", "65535"],  # every case is refused before it listens
}


def _write(name: str, text: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).write_text(text, encoding="utf-8")

    return setup


#: Bad configuration: (setup, words the one line must contain). Exit 2 for every command.
BAD_CONFIG: dict[str, tuple[Callable[[Path], None], str]] = {
    "tool.sitegen not a table": (
        _write("pyproject.toml", "[tool]\nsitegen = 5\n"),
        "must be a table",
    ),
    "invalid TOML": (_write("sitegen.toml", "content = [\n"), "invalid TOML"),
    "unknown key": (_write("sitegen.toml", 'nonsense = "x"\n'), "unknown option 'nonsense'"),
    "content missing": (
        _write("sitegen.toml", 'content = "nope"\n'),
        "content = 'nope' is not a folder",
    ),
    "content outside": (_write("sitegen.toml", 'content = "../.."\n'), "outside the project root"),
    "source missing": (
        _write("sitegen.toml", 'source = ["lib"]\n'),
        "source = 'lib' is not a folder",
    ),
    "wrong type": (_write("sitegen.toml", "out = 5\n"), "option 'out' must be a string"),
    "bad store": (
        _write("sitegen.toml", 'store = "redis"\n'),
        "'store' must be 'json' or 'sqlite'",
    ),
    "bad language": (_write("sitegen.toml", 'languages = ["cobol"]\n'), "unknown language 'cobol'"),
    "out is the root": (_write("sitegen.toml", 'out = "."\n'), "is the project root"),
    "out is the content": (
        _write("sitegen.toml", 'out = "content"\n'),
        "overlaps the content folder",
    ),
    "cache is a file": (_write(".sitegen", "not a folder\n"), "'.sitegen' is a file"),
}


def _cache_link(root: Path) -> None:
    (root.parent / "elsewhere").mkdir()
    os.symlink(root.parent / "elsewhere", root / ".sitegen")


BAD_CONFIG["cache is a link"] = (_cache_link, "'.sitegen' is a symbolic link")


@pytest.mark.parametrize("case", sorted(BAD_CONFIG))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_configuration_is_one_sentence_and_exit_2(
    tmp_path: Path, command: str, case: str
) -> None:
    root = make_project(tmp_path, PAGES)
    setup, words = BAD_CONFIG[case]
    setup(root)
    proc = sitegen(root, *COMMANDS[command], timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert words in lines[0]
    assert "internal error" not in lines[0]


#: Bad options: (argv, words the output must contain).
BAD_OPTIONS = {
    "unknown command": (["frobnicate"], "No such command"),
    "unknown option": (["build", "--bogus"], "No such option"),
    "negative jobs": (["build", "--jobs", "-1"], "--jobs"),
    "unknown language": (["build", "--language", "cobol"], "unknown language 'cobol'"),
    "missing root": (["build", "--root", "no-such-folder"], "project root is not a folder"),
    "missing config": (["build", "--config", "missing.toml"], "configuration file not found"),
    "out is a file": (["build", "--out", "content/index.md"], "overlaps the content folder"),
    "out above the root": (["build", "--out", ".."], "is the project root or a folder above it"),
    "unknown page": (["backlinks", "nowhere.md"], "no page or source file 'nowhere.md'"),
    "unknown export": (["export", "--format", "bogus"], "Invalid value for '--format'"),
    "missing graph file": (["graph", "parse", "nope.md"], "does not exist"),
    "bad port": (["serve", "--port", "not-a-number"], "--port"),
    "broken baseline": (["check", "--baseline", "sitegen.toml"], "not a sitegen baseline"),
}


@pytest.mark.parametrize("case", sorted(BAD_OPTIONS))
def test_bad_options_are_one_message_and_exit_2(tmp_path: Path, case: str) -> None:
    root = make_project(tmp_path, {**PAGES, "sitegen.toml": 'title = "t"\n'})
    argv, words = BAD_OPTIONS[case]
    proc = sitegen(root, *argv, timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert words in proc.stderr
    assert "internal error" not in proc.stderr


def _truncated_store(root: Path) -> None:
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    (root / ".sitegen/graph.json").write_text('{"version": 1, "nodes": [')
    (root / "content/unreadable.md").write_bytes(b"\0binary\0")  # so the store must be read


def _deep_json_everywhere(root: Path) -> None:
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    for path in (root / ".sitegen").rglob("*"):
        if path.is_file() and path.name != "lock":
            path.write_text("[" * 200_000 + "]" * 200_000)
    (root / "content/unreadable.md").write_bytes(b"\0binary\0")


def _bad_pages(root: Path) -> None:
    (root / "content/latin1.md").write_bytes("# Caf\xe9\n".encode("latin-1"))
    (root / "content/yaml.md").write_text("---\ntitle: [unclosed\n---\n# Y\n")
    (root / "content/huge.md").write_text("# H\n" + "x" * 3_000_000)
    (root / "content/outside.md").write_text(
        "[up](../../../etc/passwd) [loop](http://localhost/)\n"
    )
    os.symlink("/etc/passwd", root / "content/passwd.md")
    os.symlink(".", root / "content/loop")


#: Broken state: the command goes on, prints diagnostics, and exits as it would (0 here).
BROKEN_STATE: dict[str, Callable[[Path], None]] = {
    "truncated store": _truncated_store,
    "deeply nested JSON in every cache file": _deep_json_everywhere,
    "bad pages": _bad_pages,
}


@pytest.mark.parametrize("case", sorted(BROKEN_STATE))
@pytest.mark.parametrize("command", sorted(set(COMMANDS) - {"serve"}))
def test_broken_state_is_a_diagnostic_and_the_command_goes_on(
    tmp_path: Path, command: str, case: str
) -> None:
    root = make_project(tmp_path, PAGES)
    BROKEN_STATE[case](root)
    proc = sitegen(root, *COMMANDS[command], timeout=120)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "internal error" not in proc.stderr
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr)  # check may find findings
    if command == "build":
        assert proc.returncode == 0, proc.stderr
        assert (root / "site/guide.html").is_file()
    assert "root:x:0:0" not in proc.stdout + proc.stderr  # nothing outside the root is read


def test_a_huge_count_in_graph_md_is_a_row_diagnostic(tmp_path: Path) -> None:
    graph = tmp_path / "graph.md"
    graph.write_text(
        "## Edges\n\n| From | To | Rel | Label | Anchor | Count |\n|---|---|---|---|---|---|\n"
        f"| /a.md | /b.md |  |  |  | {'9' * 5000} |\n| /a.md | /c.md |  |  |  | 2 |\n"
    )
    proc = sitegen(tmp_path, "graph", "parse", str(graph))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0
    assert "/a.md -> /c.md" in proc.stdout and "/a.md -> /b.md" not in proc.stdout
    assert f"{graph}:5:1: warning: count" in proc.stderr


def test_pages_at_the_repository_root_build(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "README.md": "# Project\n\n[Guide](guide.md)\n",
            "guide.md": "# Guide\n",
            "src/app.py": "x = 1\n",
            "sitegen.toml": 'content = "."\n',
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert (root / "site/guide.html").is_file() and (root / "site/code/src/app.py.html").is_file()
    assert not (root / "site/sitegen.toml").exists()  # configuration is never published
