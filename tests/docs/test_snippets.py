"""pymdownx snippets, ``--8<-- "file"``: the file's lines in place of the line, read only
inside the project root, every position after a snippet still that of the page's own bytes,
and a changed snippet file parses the page again (content/syntax/snippets.md)."""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.docs.markdown import extract_page
from sitegen.docs.snippets import expand, map_back, split_range
from tests.safety.conftest import make_project, sitegen

PAGE = (
    b"# Example\n\n"
    b"```python\n"
    b'--8<-- "src/app.py"\n'
    b"```\n\n"
    b"- item\n"
    b'    --8<-- "src/app.py:2:2"\n\n'
    b"Read [the guide](guide.md) and [nowhere](nowhere.md).\n"
)
APP = b"import os\nprint(os.name)\nx = 1\n"


def test_a_snippet_is_put_in_place_with_its_indentation_and_range() -> None:
    ex = expand(PAGE, {"src/app.py": APP})
    assert b"```python\nimport os\nprint(os.name)\nx = 1\n```" in ex.data
    assert b"- item\n    print(os.name)\n" in ex.data
    assert ex.problems == []
    assert split_range("a.py:3:5") == ("a.py", 3, 5)
    assert split_range("a.py:3") == ("a.py", 3, 0)
    assert split_range("a.py::5") == ("a.py", 1, 5)
    assert split_range("a.py") == ("a.py", 1, 0)


def test_positions_after_a_snippet_are_the_pages_own() -> None:
    ex = expand(PAGE, {"src/app.py": APP})
    rec = map_back(extract_page("content/index.md", ex.data), PAGE, ex)
    lines = PAGE.split(b"\n")
    for link in rec.links:
        assert PAGE[link.offset : link.offset + 1] == b"["
        assert lines[link.line - 1][link.column - 1 :].startswith(b"[")
    assert [x.label for x in rec.links] == ["the guide", "nowhere"]
    assert rec.links[0].line == 10 and rec.links[0].column == 6
    assert rec.headings[0].line == 1 and rec.headings[0].offset == 0


def test_a_missing_snippet_is_a_warning_at_its_line() -> None:
    ex = expand(PAGE, {})
    rec = map_back(extract_page("content/index.md", ex.data), PAGE, ex)
    found = [(d.line, d.code) for d in rec.diagnostics]
    assert (4, "snippet") in found and (8, "snippet") in found


def test_an_escaped_snippet_line_is_shown_as_written() -> None:
    page = b'Write it like this:\n\n```\n;--8<-- "file.md"\n```\n'
    ex = expand(page, {"file.md": b"SECRET\n"})
    assert b'--8<-- "file.md"' in ex.data and b"SECRET" not in ex.data


def test_snippets_in_a_build_read_only_inside_the_root(tmp_path: Path) -> None:
    page = (
        '# Home\n\n```python\n--8<-- "src/app.py"\n```\n\n'
        '--8<-- "../../../../../../etc/passwd"\n\n'
        '--8<-- ".git/config"\n\n'
        "See [nowhere](nowhere.md).\n"
    )
    root = make_project(
        tmp_path,
        {
            "content/index.md": page,
            "src/app.py": "import os\n",
            ".git/config": "[core]\nsecret = yes\n",
        },
    )
    proc = sitegen(root, "build", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    html = (root / "site/index.html").read_text()
    assert re.search(r"import.*os", html)  # highlighted in the fence
    assert "root:x:0" not in html and "secret = yes" not in html
    assert "content/index.md:7:1: warning: snippet '../../../../../../etc/passwd'" in proc.stderr
    assert "content/index.md:9:1: warning: snippet '.git/config'" in proc.stderr
    # The broken link after the snippets is reported at its place in the page's own bytes.
    assert "content/index.md:11:5: warning: link target 'nowhere.md'" in proc.stderr


def test_a_changed_snippet_file_parses_the_page_again(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "content/index.md": '# Home\n\n--8<-- "notes/part.md"\n',
            "notes/part.md": "First version.\n",
        },
    )
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    assert "First version." in (root / "site/index.html").read_text()
    (root / "notes/part.md").write_text("Second version.\n")
    assert sitegen(root, "build", "--jobs", "1").returncode == 0
    assert "Second version." in (root / "site/index.html").read_text()
