"""A snippet that is left out says why: a file over ``max_file_size`` is over the size limit
(never "no such file"), and a page or a snippet file that includes itself includes itself
(never "not the one-line form", which it is)."""

from __future__ import annotations

from pathlib import Path

from sitegen.docs.snippets import expand
from tests.safety.conftest import make_project, sitegen

SELF_PAGE = '# Self\n\nOnce.\n\n--8<-- "self.md"\n\nAfter.\n'


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": warning: " in line]


def test_a_snippet_file_over_max_file_size_is_said_to_be_over_the_limit(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "sitegen.toml": "max_file_size = 200\n",
            "content/index.md": '# Home\n\n--8<-- "notes/big.txt"\n',
            "notes/big.txt": "x" * 500 + "\n",
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert _warnings(proc.stderr) == [
        "content/index.md:3:1: warning: snippet 'notes/big.txt': notes/big.txt is 501 bytes, "
        "over the size limit of 200 bytes (max_file_size)"
    ], proc.stderr
    # The next build, with the file grown, says its new size (the warning is an input).
    (root / "notes/big.txt").write_text("x" * 600 + "\n", encoding="utf-8")
    again = sitegen(root, "build", "--jobs", "1")
    assert "notes/big.txt is 601 bytes" in again.stderr, again.stderr


def test_a_missing_snippet_file_that_appears_too_big_changes_the_warning(tmp_path: Path) -> None:
    # The page expands to the same bytes either way: its cached record must not be reused.
    root = make_project(
        tmp_path,
        {"sitegen.toml": "max_file_size = 200\n", "content/index.md": '# Home\n\n--8<-- "a.txt"\n'},
    )
    first = sitegen(root, "build", "--jobs", "1")
    assert "snippet 'a.txt': no such file" in first.stderr, first.stderr
    (root / "a.txt").write_text("z" * 250, encoding="utf-8")
    second = sitegen(root, "build", "--jobs", "1")
    assert "snippet 'a.txt': a.txt is 250 bytes, over the size limit" in second.stderr, (
        second.stderr
    )


def test_a_snippet_found_in_the_content_folder_over_the_limit_names_that_file(
    tmp_path: Path,
) -> None:
    root = make_project(
        tmp_path,
        {
            "sitegen.toml": "max_file_size = 200\n",
            "content/index.md": '# Home\n\n- item\n    --8<-- "part.txt:1:2"\n',
            "content/part.txt": "y" * 300,
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert _warnings(proc.stderr) == [
        "content/index.md:4:1: warning: snippet 'part.txt:1:2': content/part.txt is 300 bytes, "
        "over the size limit of 200 bytes (max_file_size)"
    ], proc.stderr


def test_a_page_that_includes_itself_is_said_to_include_itself(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"content/index.md": "# Home\n", "content/self.md": SELF_PAGE})
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert _warnings(proc.stderr) == [
        "content/self.md:5:1: warning: snippet 'self.md': the page includes itself"
    ], proc.stderr
    html = (root / "site/self.html").read_text(encoding="utf-8")
    assert html.count("Once.") == 1 and "After." in html and "8&lt;" not in html


def test_a_snippet_file_that_includes_itself_is_said_to_include_itself(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "content/index.md": '# Home\n\n--8<-- "notes/part.md"\n\nAfter.\n',
            "notes/part.md": 'Part text.\n\n--8<-- "notes/part.md"\n',
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert _warnings(proc.stderr) == [
        "content/index.md:3:1: warning: snippet 'notes/part.md': the file includes itself; "
        "that line of it is left out"
    ], proc.stderr
    html = (root / "site/index.html").read_text(encoding="utf-8")
    assert html.count("Part text.") == 1 and "8&lt;" not in html


def test_expand_says_why_a_file_was_not_read_and_names_a_self_include() -> None:
    page = b'# A\n\n--8<-- "big.txt"\n\n--8<-- "a.md"\n\n--8<-- "gone.txt"\n'
    ex = expand(
        page,
        {"a.md": page},
        {"big.txt": "big.txt is 9 bytes, over the size limit of 1 bytes (max_file_size)"},
        page="content/a.md",
        paths={"a.md": "content/a.md"},
    )
    assert [line for line, _ in ex.problems] == [3, 5, 7]
    assert ex.problems[0][1] == (
        "snippet 'big.txt': big.txt is 9 bytes, over the size limit of 1 bytes (max_file_size)"
    )
    assert ex.problems[1][1] == "snippet 'a.md': the page includes itself"
    assert ex.problems[2][1].startswith("snippet 'gone.txt': no such file inside the project")
    assert b"8<" not in ex.data
