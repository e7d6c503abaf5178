"""Point 3 of issue 14: ``sitegen backlinks PAGE`` answers "what links here" with the groups
of the page's own section: relations, links, links from code, importers, symbol users."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.conftest import sitegen, write

PROJECT = {
    "content/index.md": "---\ntitle: Home\nrel-depends-on: guide.md\n---\n# Home\n\n"
    "See [core](../acme/core.py#L1) and [the guide](guide.md).\n",
    "content/guide.md": "# Guide\n\n## Install\n\nUse [core](../acme/core.py).\n",
    "acme/__init__.py": "",
    "acme/core.py": 'def run():\n    """See [the guide](../content/guide.md)."""\n    return 1\n',
    "acme/cli.py": "from acme.core import run\n\n\ndef main():\n    return run()\n",
    "sitegen.toml": 'source = ["acme"]\n',
}

SOURCE_TEXT = """Backlinks of /code/acme/core.py
Documented by (2)
  Guide ("core", #install) -> /guide.md
  Home ("core", #home) -> /index.md
Imported by (1)
  acme/cli.py line 1 -> /code/acme/cli.py
Symbols used from other files (1)
  main (acme/cli.py) -> /code/acme/cli.py
"""

PAGE_TEXT = """Backlinks of /guide.md
Depends on this (1)
  Home [depends-on] -> /index.md
Linked from (1)
  Home ("the guide", #home) -> /index.md
Referenced from code (1)
  acme/core.py:2 ("the guide") -> /code/acme/core.py
"""


def test_a_source_file_lists_docs_importers_and_symbol_users(tmp_path: Path) -> None:
    run = sitegen("backlinks", "acme/core.py", root=write(tmp_path / "p", PROJECT))
    assert (run.code, run.out) == (0, SOURCE_TEXT)


def test_a_page_lists_relations_links_and_code(tmp_path: Path) -> None:
    run = sitegen("backlinks", "content/guide.md", root=write(tmp_path / "p", PROJECT))
    assert (run.code, run.out) == (0, PAGE_TEXT)


def test_nothing_points_here(tmp_path: Path) -> None:
    run = sitegen("backlinks", "acme/cli.py", root=write(tmp_path / "p", PROJECT))
    assert (run.code, run.out) == (
        0,
        "Backlinks of /code/acme/cli.py\nNothing points at this file yet.\n",
    )


def test_json_has_the_same_groups(tmp_path: Path) -> None:
    run = sitegen("backlinks", "/guide.md", "--json", root=write(tmp_path / "p", PROJECT))
    assert run.code == 0
    data = json.loads(run.out)
    assert data["node"] == "/guide.md"
    assert [(g["heading"], g["rel"], len(g["entries"])) for g in data["groups"]] == [
        ("Depends on this", "depends-on", 1),
        ("Linked from", "", 1),
        ("Referenced from code", "", 1),
    ]
    assert data["groups"][2]["entries"] == [
        {
            "title": "acme/core.py:2",
            "source": "/code/acme/core.py",
            "annotation": ' ("the guide")',
            "detail": "",
        }
    ]


def _html_groups(html: str) -> list[tuple[str, int]]:
    """Group headings and counts of the published backlinks sections (h3, and the h2 of
    'Referenced from code')."""
    found = re.findall(r'<h3 id="backlinks-[^"]*">([^<]+?) <span class="count">\((\d+)\)', html)
    found += re.findall(r'<h2 id="code-refs-title">([^<]+?) <span class="count">\((\d+)\)', html)
    return [(heading, int(count)) for heading, count in found]


def test_the_cli_groups_are_the_published_sections(tmp_path: Path) -> None:
    root = write(tmp_path / "p", PROJECT)
    assert sitegen("build", root=root).code == 0
    for page, html in (
        ("acme/core.py", "site/code/acme/core.py.html"),
        ("guide.md", "site/guide.html"),
    ):
        data = json.loads(sitegen("backlinks", page, "--json", root=root).out)
        published = _html_groups((root / html).read_text())
        assert published, html
        assert [(g["heading"], len(g["entries"])) for g in data["groups"]] == published
