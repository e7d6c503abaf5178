"""Point 6 of issue 14: ``sitegen graph parse`` on a file with no graph table exits 1 with one
line saying why; a real export still parses with exit 0."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import sitegen


def test_a_file_without_a_graph_table_exits_1_with_one_line(tmp_path: Path) -> None:
    file = tmp_path / "notes.md"
    file.write_text("# Notes\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n")
    run = sitegen("graph", "parse", str(file))
    assert run.code == 1
    assert run.out == ""
    assert run.err_lines == [
        (
            f"{file}:1:1: error: no graph table (a table with From and To "
            "columns) was found; is this a graph.md export?"
        )
    ]
    assert sitegen("graph", "parse", str(file), "--json").code == 1


def test_a_legacy_table_still_parses(tmp_path: Path) -> None:
    file = tmp_path / "graph.md"
    file.write_text("| From | To |\n| --- | --- |\n| /a.md | /b.md |\n")
    run = sitegen("graph", "parse", str(file))
    assert (run.code, run.out, run.err) == (0, "/a.md -> /b.md\n", "")
