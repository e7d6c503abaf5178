"""``sitegen explain PAGE:LINE[:COL]`` (issue 20, point 6): the rule applied at each step,
the candidates rejected and the result, as text and as JSON, for every kind of resolution; a
"Did you mean" of the build is the suggestion step of the same code; bad places exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Run, sitegen, write

INDEX = """\
# Home

[relative](guides/install.md)
[absolute](/guides/install.md)
[folder](guides/)
[permalink](/get-started/)
[redirect](/old/setup/)
[[install]]
[anchor](guides/install.md#step-one)
[typo](guides/instal.md)
[bad anchor](guides/install.md#step-2)
Two links: [first](guides/index.md) and [second](ref/install.md).
"""

FILES = {
    "sitegen.toml": 'content = "content"\nurls = "html"\n',
    "content/index.md": INDEX,
    "content/guides/index.md": "# Guides\n",
    "content/guides/install.md": (
        "---\npermalink: /get-started/\nredirect_from: /old/setup/\n---\n# Install\n\n## Step one\n"
    ),
    "content/ref/install.md": "# Install reference\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("explain") / "p", FILES)


def _json(project: Path, where: str) -> dict[str, Any]:
    run = sitegen("explain", "--json", where, root=project)
    assert run.code == 0, run.err
    data: dict[str, Any] = json.loads(run.out)
    return data


def _rules(data: dict[str, Any]) -> list[str]:
    return [s["rule"] for s in data["steps"]]


def _step(data: dict[str, Any], rule: str) -> dict[str, Any]:
    found = [s for s in data["steps"] if s["rule"] == rule]
    assert found, (rule, data["steps"])
    step: dict[str, Any] = found[-1]
    return step


def test_relative_link(project: Path) -> None:
    run = sitegen("explain", "content/index.md:3", root=project)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "content/index.md:3:1: link 'guides/install.md' (inline: relative)"
    assert "relative: read from the linking file's folder 'content'" in run.out
    assert re.search(r"^  \d\. file: .* -> content/guides/install\.md$", run.out, re.M)
    assert lines[-1] == "  result: internal /guides/install.md"
    data = _json(project, "content/index.md:3")
    assert _rules(data) == ["destination", "relative", "file"]
    assert data["result"]["outcome"] == "internal" and data["result"]["edge"] is True


def test_absolute_link(project: Path) -> None:
    data = _json(project, "content/index.md:4")
    assert _rules(data) == ["destination", "absolute", "file"]
    assert _step(data, "absolute")["found"] == "content/guides/install.md"
    assert data["result"]["node"] == "/guides/install.md"
    assert (
        "absolute: read from the site root"
        in sitegen("explain", "content/index.md:4", root=project).out
    )


def test_folder_link_rejects_the_folder_and_takes_its_index(project: Path) -> None:
    data = _json(project, "content/index.md:5")
    file = _step(data, "file")
    assert file["found"] == "content/guides/index.md"
    assert data["result"]["node"] == "/guides/index.md"
    text = sitegen("explain", "content/index.md:5", root=project).out
    assert "-> content/guides/index.md" in text


def test_permalink_is_found_as_an_address_after_the_files_are_rejected(project: Path) -> None:
    data = _json(project, "content/index.md:6")
    assert _rules(data)[:3] == ["destination", "absolute", "file"]
    assert [r["candidate"] for r in _step(data, "file")["rejected"]] == [
        "content/get-started/index.md",
        "content/get-started/README.md",
        "content/get-started.md",
        "content/get-started.markdown",
    ]
    assert _step(data, "address")["found"] == "/get-started/"
    assert data["result"] == {
        "outcome": "internal",
        "node": "/guides/install.md",
        "fragment": "",
        "via": "",
        "url": "",
        "edge": True,
    }


def test_redirect_names_its_old_address_and_the_page(project: Path) -> None:
    data = _json(project, "content/index.md:7")
    redirect = _step(data, "redirect")
    assert redirect["found"] == "/guides/install.md"
    assert data["result"]["via"] == "/old/setup/"
    assert [d["code"] for d in data["diagnostics"]] == ["redirect-link"]
    text = sitegen("explain", "content/index.md:7", root=project).out
    assert "(through the redirect at /old/setup/)" in text
    assert "  info: link '/old/setup/' reaches" in text


def test_wikilink_names_the_candidate_it_rejected(project: Path) -> None:
    data = _json(project, "content/index.md:8")
    assert set(_rules(data)) == {"wikilink"}
    chosen = _step(data, "wikilink")
    assert chosen["found"] == "content/guides/install.md"
    assert chosen["rejected"] == [
        {
            "candidate": "content/ref/install.md",
            "why": "farther from the linking page than 'content/guides/install.md'",
        }
    ]
    assert [d["code"] for d in data["diagnostics"]] == ["ambiguous-wikilink"]
    text = sitegen("explain", "content/index.md:8", root=project).out
    assert "rejected content/ref/install.md: farther from the linking page" in text


def test_anchor_lookup(project: Path) -> None:
    data = _json(project, "content/index.md:9")
    anchor = _step(data, "anchor")
    assert anchor["found"] == "step-one"
    assert data["result"]["fragment"] == "step-one"
    assert data["diagnostics"] == []


def _warning_at(project: Path, line: int) -> str:
    run = sitegen("build", "-q", root=project)
    found = [w for w in run.err_lines if w.startswith(f"content/index.md:{line}:")]
    assert len(found) == 1, run.err
    return found[0]


def test_did_you_mean_of_a_missing_file_is_the_suggestion_step(project: Path) -> None:
    warning = _warning_at(project, 10)
    meant = re.search(r"Did you mean '([^']+)'\?", warning)
    assert meant, warning
    data = _json(project, "content/index.md:10")
    assert _step(data, "suggestion")["found"] == meant.group(1)
    assert [r["candidate"] for r in _step(data, "file")["rejected"]] == ["content/guides/instal.md"]
    assert warning.endswith(data["diagnostics"][0]["message"])
    assert data["result"]["outcome"] == "missing"


def test_did_you_mean_of_a_missing_anchor_is_the_suggestion_step(project: Path) -> None:
    warning = _warning_at(project, 11)
    meant = re.search(r"Did you mean '#([^']+)'\?", warning)
    assert meant, warning
    data = _json(project, "content/index.md:11")
    assert _step(data, "anchor")["found"] == ""
    assert _step(data, "suggestion")["found"] == meant.group(1)
    assert warning.endswith(data["diagnostics"][0]["message"])


def test_a_column_chooses_among_the_links_of_a_line(project: Path) -> None:
    line = INDEX.splitlines()[11]
    second = line.index("[second]") + 1
    assert _json(project, "content/index.md:12")["link"]["href"] == "guides/index.md"
    assert _json(project, f"content/index.md:12:{second}")["link"]["href"] == "ref/install.md"
    assert _json(project, f"content/index.md:12:{second + 3}")["link"]["href"] == "ref/install.md"
    assert _json(project, "index.md:12")["page"] == "content/index.md"


@pytest.mark.parametrize(
    "where,says",
    [
        ("content/index.md", "is not PAGE:LINE[:COL]"),
        ("content/index.md:x", "is not PAGE:LINE[:COL]"),
        ("content/index.md:0", "is not PAGE:LINE[:COL]"),
        ("content/nope.md:3", "no page 'content/nope.md' was built"),
        (
            "content/index.md:1",
            "no link at content/index.md:1 (the page's links start on lines: 3,",
        ),
    ],
)
def test_a_bad_place_is_one_sentence_and_exit_2(project: Path, where: str, says: str) -> None:
    run: Run = sitegen("explain", where, root=project)
    assert run.code == 2
    assert says in run.err
    assert "Traceback" not in run.err


@pytest.mark.parametrize(
    "where,says",
    [
        ("content/index.md:" + "9" * 5_000, "a line or column has at most 9 digits"),
        ("content/index.md:3:" + "7" * 5_000, "a line or column has at most 9 digits"),
        ("content/index.md:" + "0" * 5_000 + "1", "no link at content/index.md:1 "),
        ("content/index.md:" + "1" * 10, "a line or column has at most 9 digits"),
        ("p" * 100_000 + ":3", "no page 'ppp"),
        ("content/index.md:" + "x" * 100_000, "is not PAGE:LINE[:COL]"),
    ],
)
def test_a_huge_place_is_one_short_sentence_and_exit_2(
    project: Path, where: str, says: str
) -> None:
    """Issue 27, defects 18 and 25: a 5,000-digit line was an internal error (int() refuses
    over 4,300 digits), and what the user typed was echoed whole."""
    run: Run = sitegen("explain", where, root=project)
    assert run.code == 2
    assert says in run.err and "internal error" not in run.err
    assert not re.search("[0-9]{21}", run.err) and len(run.err) < 400, run.err


def test_the_lines_with_links_are_listed_up_to_twenty(tmp_path: Path) -> None:
    page = "# Many\n\n" + "".join(f"[l{i}](x{i}.md)\n" for i in range(30))
    root = write(tmp_path / "p", {"sitegen.toml": 'content = "content"\n', "content/a.md": page})
    run = sitegen("explain", "content/a.md:1", root=root)
    assert run.code == 2
    listed = run.err.split("start on lines: ", 1)[1]
    assert listed.startswith("3, 4, 5,") and "22, …" in listed and "23" not in listed
