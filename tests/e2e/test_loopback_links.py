"""Links to the author's own machine or network are kept as written (issue 21, point 4;
content/guides/linking.md#links-to-your-own-machine): the page keeps them clickable, the
build does not warn, graph.md and graph.json leave them out, and the ``loopback-link`` check
(default ``ignore``) reports them to whoever turns it on. Unsafe schemes stay blocked.

The fixture page below was written for these tests; its positions are counted by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import run_cli, write_project

PAGE = """# Run it

Start the server, then open [the docs](http://127.0.0.1:8000/docs) or <http://localhost:8000/redoc>.
On your network: [router](http://192.168.1.1/), [api](http://10.0.0.7:8080/v1), [v6](http://[::1]:8000/).
Raw: <a href="http://127.0.0.1:8000/items/5" class="external-link">item 5</a>.

![chart](http://localhost:8000/chart.png)

Elsewhere: [example](https://example.com/guide) and [bad](javascript:alert(1)).
"""

#: Where each loopback or private link is written: (line, column, destination); a markdown
#: link at its ``[`` or ``<``, a link in the page's HTML at its URL.
PLACES = [
    (3, 29, "http://127.0.0.1:8000/docs"),
    (3, 71, "http://localhost:8000/redoc"),
    (4, 18, "http://192.168.1.1/"),
    (4, 49, "http://10.0.0.7:8080/v1"),
    (4, 81, "http://[::1]:8000/"),
    (5, 15, "http://127.0.0.1:8000/items/5"),
    (7, 1, "http://localhost:8000/chart.png"),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_project(
        tmp_path_factory.mktemp("local-links") / "proj",
        {"content/index.md": PAGE, "sitegen.toml": 'title = "Local"\n'},
    )
    proc = run_cli("build", "--root", str(root), "--jobs", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ": warning:" not in proc.stderr and " 0 warnings" in proc.stderr, proc.stderr
    assert "0 broken links" in proc.stderr
    return root


def test_the_page_keeps_every_local_link_clickable(project: Path) -> None:
    html = (project / "site/index.html").read_text(encoding="utf-8")
    for _, _, url in PLACES[:-1]:
        assert f'href="{url}"' in html, url
    assert '<img src="http://localhost:8000/chart.png"' in html
    assert 'href="https://example.com/guide"' in html
    # an unsafe scheme is still published as text, never as a link
    assert "javascript:" not in html.replace("[bad](javascript:alert(1))", "")
    assert "[bad](javascript:alert(1))" in html


def test_what_other_sites_read_holds_no_local_link(project: Path) -> None:
    graph_md = (project / "site/graph.md").read_text(encoding="utf-8")
    graph_json = json.loads((project / "site/graph.json").read_text(encoding="utf-8"))
    targets = [e["to"] for e in graph_json["edges"]]
    nodes = [n["id"] for n in graph_json["nodes"]]
    assert targets == ["https://example.com/guide"]
    assert "https://example.com/guide" in nodes
    for host in ("127.0.0.1", "localhost", "192.168.", "10.0.0.7", "[::1]"):
        assert host not in graph_md, host
        assert not any(host in n for n in nodes), host


def _check(root: Path, severity: str | None) -> tuple[int, list[str], str]:
    config = root.parent / f"check-{severity}.toml"
    checks = f'[checks]\n"loopback-link" = "{severity}"\n' if severity else ""
    config.write_text('title = "Local"\n' + checks, encoding="utf-8")
    proc = run_cli("check", "--root", str(root), "--jobs", "1", "--config", str(config))
    found = [line for line in proc.stdout.splitlines() if "[loopback-link]" in line]
    return proc.returncode, found, proc.stdout


def test_the_check_is_off_by_default(project: Path) -> None:
    code, found, out = _check(project, None)
    assert code == 0, out
    assert found == []
    assert "loopback-link" not in out.splitlines()[-1]  # not among the checks that ran


@pytest.mark.parametrize("severity,exit_code", [("warn", 0), ("error", 1)])
def test_the_check_reports_each_local_link_where_it_is_written(
    project: Path, severity: str, exit_code: int
) -> None:
    code, found, out = _check(project, severity)
    assert code == exit_code, out
    level = "warning" if severity == "warn" else "error"
    assert [line.split(f": {level}: ")[0] for line in found] == [
        f"content/index.md:{line}:{col}" for line, col, _ in PLACES
    ]
    for line, (_, _, url) in zip(found, PLACES, strict=True):
        assert f"'{url}'" in line and "loopback or private host" in line
