"""The contract lives in the repository: every page a comment of the code cites exists, with
the section it names, and the root documents' links reach real files and headings.

Cited pages are markdown, so their anchors are read with sitegen's own page extraction."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from sitegen.docs.markdown import extract_page

REPO = Path(__file__).resolve().parents[1]
ROOT_DOCUMENTS = ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md")
CODE_SUFFIXES = (".py", ".scm", ".html", ".css", ".js", ".xml", ".md")
#: A citation in a comment: a repository page, maybe with a section, not inside a code span
#: (``content/guides/a.md`` is an example of a path, not a citation) and not after "e.g.".
_CITATION = re.compile(
    r"(?<![`/\w])(?<!e\.g\. )((?:content/[\w./-]+|ARCHITECTURE|CONTRIBUTING|CHANGELOG)\.md)"
    r"(?:#([\w-]+))?"
)
_MD_LINK = re.compile(r"\]\(([^()\s]+)\)")


@functools.cache
def anchors_of(repo_path: str) -> frozenset[str]:
    record = extract_page(repo_path, (REPO / repo_path).read_bytes())
    return frozenset({h.id for h in record.headings} | set(record.anchors))


def _code_files() -> list[Path]:
    files = [p for p in (REPO / "sitegen").rglob("*") if p.suffix in CODE_SUFFIXES]
    files += [p for p in (REPO / "templates").rglob("*") if p.suffix in CODE_SUFFIXES]
    return sorted(p for p in files if p.is_file())


def _citations() -> list[tuple[str, str, str]]:
    """(where, cited page, cited section) of every citation in the package and its theme."""
    found = []
    for path in _code_files():
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            for m in _CITATION.finditer(line):
                where = f"{path.relative_to(REPO)}:{number}"
                found.append((where, m.group(1), m.group(2) or ""))
    return found


def test_the_code_cites_pages_at_all() -> None:
    cited = {page for _, page, _ in _citations()}
    assert "ARCHITECTURE.md" in cited or any(p.startswith("content/reference/") for p in cited)


def test_every_cited_page_and_section_exists() -> None:
    broken = []
    for where, page, section in _citations():
        if not (REPO / page).is_file():
            broken.append(f"{where}: {page} does not exist")
        elif section and section not in anchors_of(page):
            broken.append(f"{where}: {page} has no section #{section}")
    assert broken == []


#: How comments cited the specification kept outside the repository: "SPEC", a space, "§".
_OUTSIDE_CONTRACT = "SPEC" + " §"


def test_no_comment_cites_a_contract_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(REPO)}:{number}"
        for path in _code_files() + sorted((REPO / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _OUTSIDE_CONTRACT in line
    ]
    assert outside == []


def _relative(page: Path) -> str:
    return str(page.resolve().relative_to(REPO))


@pytest.mark.parametrize("document", ROOT_DOCUMENTS)
def test_the_root_documents_link_to_real_files_and_headings(document: str) -> None:
    text = (REPO / document).read_text(encoding="utf-8")
    broken = []
    for href in _MD_LINK.findall(text):
        if re.match(r"[a-z]+:", href):
            continue  # an external URL: not this test's business
        target, _, section = href.partition("#")
        page = (REPO / document).parent / target if target else REPO / document
        if not page.exists():
            broken.append(f"{href}: no such file")
        elif section and page.suffix == ".md" and section not in anchors_of(_relative(page)):
            broken.append(f"{href}: no such section")
    assert broken == []
